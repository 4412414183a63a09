//! `play --watch`: notices saved script files (the server's watcher, shared with
//! `serve --watch`) and reloads the rules on its own.

use crate::session::{Outcome, Session};
use crate::shell::guarded;
use boardscript_interpreter::GameSpec;

pub struct Watcher(boardscript_server::watch::Watcher);

impl Watcher {
    pub fn new(spec: &GameSpec) -> anyhow::Result<Watcher> {
        boardscript_server::watch::Watcher::new(spec).map(Watcher)
    }

    /// Reloads if any file changed since the last look, all or nothing like a typed
    /// `reload`, and returns its outcome; `None` when nothing changed.
    pub fn reload_if_changed(&self, session: &mut Session) -> Option<Outcome> {
        self.0.changed().then(|| guarded(session, Session::reload))
    }
}
