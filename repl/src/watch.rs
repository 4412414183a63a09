//! `play --watch`: notices saved script files and reloads the rules on its own.

use crate::session::Session;
use boardscript_interpreter::manifest::GameSpec;
use notify::{RecursiveMode, Watcher as _};
use std::sync::mpsc::{channel, Receiver};

pub struct Watcher {
    _inner: notify::RecommendedWatcher,
    changes: Receiver<()>,
}

impl Watcher {
    /// Watches every folder the game's scripts come from (a variant's and its base's).
    pub fn new(spec: &GameSpec) -> anyhow::Result<Watcher> {
        let (tx, changes) = channel();
        let mut inner = notify::recommended_watcher(move |ev: notify::Result<notify::Event>| {
            if let Ok(ev) = ev {
                if ev.kind.is_modify() || ev.kind.is_create() {
                    let _ = tx.send(());
                }
            }
        })?;
        let mut dirs: Vec<_> = spec
            .scripts
            .iter()
            .filter_map(|p| p.parent().map(|d| d.to_path_buf()))
            .collect();
        dirs.push(spec.dir.clone());
        dirs.sort();
        dirs.dedup();
        for d in dirs {
            inner.watch(&d, RecursiveMode::NonRecursive)?;
        }
        Ok(Watcher {
            _inner: inner,
            changes,
        })
    }

    /// Reloads if any file changed since the last look; `say` prints the report.
    pub fn reload_if_changed(&self, session: &mut Session, say: &mut dyn FnMut(&str)) {
        if self.changes.try_iter().count() == 0 {
            return;
        }
        // Editors save in several writes; let them finish, then drop the rest of the burst.
        std::thread::sleep(std::time::Duration::from_millis(50));
        let _ = self.changes.try_iter().count();
        match session.reload() {
            Ok(reply) => say(&format!("(scripts changed) {}", reply.text)),
            Err(f) => say(&format!("(scripts changed) error: {}", f.message)),
        }
    }
}
