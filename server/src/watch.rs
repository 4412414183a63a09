//! Watching a game's files: `play --watch` and `serve --watch` both learn here that a script
//! or data file was saved, and then reload the rules their own way.

use boardscript_interpreter::GameSpec;
use notify::{RecursiveMode, Watcher as _};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// Editors save in several writes: the first change is followed by this wait, and the rest
/// of the burst is taken as the same change.
const SETTLE: Duration = Duration::from_millis(50);

pub struct Watcher {
    inner: RefCell<notify::RecommendedWatcher>,
    dirs: Vec<PathBuf>,
    changes: Receiver<()>,
}

impl Watcher {
    /// Watches the folders the game's scripts come from (a variant's and its base's) by
    /// name, not by inode: each folder's parent is watched too (not recursively), so a folder
    /// replaced whole (`rm` and copy, as `git checkout` and some editors do) is seen, and the
    /// folders are watched again after every change.
    pub fn new(spec: &GameSpec) -> anyhow::Result<Watcher> {
        let mut dirs: Vec<PathBuf> = spec
            .scripts
            .iter()
            .filter_map(|p| p.parent().map(|d| d.to_path_buf()))
            .chain([spec.dir.clone()])
            .map(|d| d.canonicalize().unwrap_or(d))
            .collect();
        dirs.sort();
        dirs.dedup();
        let mut roots: Vec<PathBuf> = dirs
            .iter()
            .map(|d| d.parent().map_or(d.clone(), Path::to_path_buf))
            .collect();
        roots.sort();
        roots.dedup();
        let (tx, changes) = channel();
        let ours_dirs = dirs.clone();
        let mut inner = notify::recommended_watcher(move |ev: notify::Result<notify::Event>| {
            let Ok(ev) = ev else { return };
            let ours = ev
                .paths
                .iter()
                .any(|p| ours_dirs.iter().any(|d| p.starts_with(d)));
            if ours && (ev.kind.is_modify() || ev.kind.is_create() || ev.kind.is_remove()) {
                let _ = tx.send(());
            }
        })?;
        for r in roots {
            inner.watch(&r, RecursiveMode::NonRecursive)?;
        }
        for d in &dirs {
            inner.watch(d, RecursiveMode::Recursive)?;
        }
        Ok(Watcher {
            inner: RefCell::new(inner),
            dirs,
            changes,
        })
    }

    /// Whether any file changed since the last look (without waiting when none did). A
    /// change is returned once its burst of writes settled.
    pub fn changed(&self) -> bool {
        if self.changes.try_iter().count() == 0 {
            return false;
        }
        std::thread::sleep(SETTLE);
        let _ = self.changes.try_iter().count();
        // A folder that was replaced is a new inode: watch it again (a folder that is gone
        // for now is picked up by its parent's watch when it comes back).
        let mut inner = self.inner.borrow_mut();
        for d in &self.dirs {
            let _ = inner.unwatch(d);
            let _ = inner.watch(d, RecursiveMode::Recursive);
        }
        true
    }
}
