//! The files a client names (`save`, `load`, `position`, `--position`): only regular files are
//! read, never more than a cap, and a save is written whole or not at all.

use std::io::{Read, Write};
use std::path::Path;

/// The most a save or position file may hold. Far above any real game's (a save is its
/// actions), far below what would hurt.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a regular file of at most `MAX_FILE_BYTES` as UTF-8 text, without a leading BOM.
/// Devices, pipes and folders are refused before they are opened, so `/dev/stdin` cannot
/// swallow the client's next commands and `/dev/zero` cannot fill memory.
pub fn read_text(path: &str) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("cannot read {path}: not a regular file"));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    // The name may have been pointed elsewhere since; what was opened is what counts.
    let opened = file
        .metadata()
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if !opened.is_file() {
        return Err(format!("cannot read {path}: not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "cannot read {path}: larger than {} MiB",
            MAX_FILE_BYTES >> 20
        ));
    }
    let text =
        String::from_utf8(bytes).map_err(|_| format!("cannot read {path}: not UTF-8 text"))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// Writes `text` to `path` through a temporary file beside it, so a crash mid-write never
/// leaves a broken file. An existing file is replaced only when `overwrite` is set; a path
/// that is not a regular file (a device such as `/dev/stdout`, a folder, a symbolic link)
/// is refused, so a save never goes anywhere but into a file of its own.
pub fn write_atomic(path: &str, text: &str, overwrite: bool) -> Result<(), String> {
    let target = Path::new(path);
    match std::fs::symlink_metadata(target) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(format!(
                "will not write {path}: it is a symbolic link (save to the file itself)"
            ))
        }
        Ok(meta) if !meta.is_file() => {
            return Err(format!("will not write {path}: not a regular file"))
        }
        Ok(_) if !overwrite => {
            return Err(format!(
                "{path} exists; `save! {path}` (or `save --force {path}`) replaces it"
            ))
        }
        _ => {}
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| format!("will not write {path}: not a file name"))?;
    let (tmp_path, mut tmp) = (0..100)
        .find_map(|i| {
            let mut tmp_name = std::ffi::OsString::from(".");
            tmp_name.push(name);
            tmp_name.push(format!(".{}.{i}.tmp", std::process::id()));
            let p = dir.join(tmp_name);
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&p)
                .ok()
                .map(|f| (p, f))
        })
        .ok_or_else(|| {
            format!(
                "cannot write {path}: cannot create a temporary file in {}",
                dir.display()
            )
        })?;
    let written = tmp
        .write_all(text.as_bytes())
        .and_then(|_| tmp.sync_all())
        .map_err(|e| format!("cannot write {path}: {e}"))
        .and_then(|_| {
            if overwrite {
                std::fs::rename(&tmp_path, target).map_err(|e| format!("cannot write {path}: {e}"))
            } else {
                // A hard link never replaces a file that appeared meanwhile.
                std::fs::hard_link(&tmp_path, target).map_err(|e| match e.kind() {
                    std::io::ErrorKind::AlreadyExists => format!(
                        "{path} exists; `save! {path}` (or `save --force {path}`) replaces it"
                    ),
                    _ => format!("cannot write {path}: {e}"),
                })
            }
        });
    let _ = std::fs::remove_file(&tmp_path);
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_folders_are_not_read() {
        assert!(read_text("/dev/zero")
            .unwrap_err()
            .contains("not a regular file"));
        let err = read_text("/dev/stdin").unwrap_err();
        assert!(err.contains("not a regular file"), "{err}");
        assert!(read_text("/").unwrap_err().contains("not a regular file"));
    }

    #[test]
    fn a_bom_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, "\u{feff}{}").unwrap();
        assert_eq!(read_text(p.to_str().unwrap()).unwrap(), "{}");
    }

    #[test]
    fn a_save_replaces_only_when_asked_and_never_a_device_or_link() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("s.json");
        let ps = p.to_str().unwrap();
        write_atomic(ps, "one", false).unwrap();
        assert!(write_atomic(ps, "two", false)
            .unwrap_err()
            .contains("exists"));
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "one");
        write_atomic(ps, "two", true).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        let err = write_atomic("/dev/stdout", "x", true).unwrap_err();
        assert!(err.contains("it is a symbolic link"), "{err}");
        let link = dir.path().join("l");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        let err = write_atomic(link.to_str().unwrap(), "x", true).unwrap_err();
        assert!(err.contains("it is a symbolic link"), "{err}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
