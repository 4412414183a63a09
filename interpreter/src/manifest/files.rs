//! Reading a game's own files (manifest, scripts, later data): regular files inside the game's
//! folders only, with a size cap, so a manifest cannot make the engine read `/etc/passwd`,
//! block on a FIFO or swallow `/dev/zero`.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest file a game may load (a script, a manifest).
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// Reads `path` as UTF-8 text if it is a regular file of at most [`MAX_FILE_BYTES`]. Errors
/// name the file and never quote its contents.
pub fn read_text_file(path: &Path) -> Result<String, String> {
    let shown = path.display();
    // Checked before opening: opening a FIFO blocks until a writer comes.
    let meta = std::fs::metadata(path).map_err(|e| format!("{shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{shown}: not a regular file"));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_big(path));
    }
    let file = File::open(path).map_err(|e| format!("{shown}: {e}"))?;
    // The file may have been swapped since the check: look again at what was opened.
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(format!("{shown}: not a regular file"));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // One byte past the cap tells a file that grew meanwhile, without reading the rest.
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{shown}: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big(path));
    }
    String::from_utf8(bytes).map_err(|_| format!("{shown}: not UTF-8 text"))
}

fn too_big(path: &Path) -> String {
    format!(
        "{}: larger than {} MiB",
        path.display(),
        MAX_FILE_BYTES >> 20
    )
}

/// `path` with symlinks and `..` resolved, if it lies inside one of `roots` (canonical
/// folders); else why not, naming the file as the manifest wrote it (`entry`).
pub fn inside(path: &Path, roots: &[PathBuf], entry: &str) -> Result<PathBuf, String> {
    let real = path
        .canonicalize()
        .map_err(|e| format!("file {entry}: {e}"))?;
    if !roots.iter().any(|root| real.starts_with(root)) {
        return Err(format!("file {entry} is outside the game's folder"));
    }
    if !real.is_file() {
        return Err(format!("file {entry} is not a regular file"));
    }
    Ok(real)
}
