//! Ctrl-C during `sim`, `arena` and `check`: the first one asks them to stop after the games
//! being played and report; a second one ends the process at once. In `play`, Ctrl-C during
//! a bot's search (`bot`, `hint`) stops the search (`search_flag`).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// The exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_STATUS: u8 = 130;

/// Installs the Ctrl-C handler; the flag it returns turns true at the first Ctrl-C. Without
/// a handler (one could not be installed), Ctrl-C ends the process as it always did.
pub fn flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let seen = AtomicUsize::new(0);
    let set = stop.clone();
    let _ = ctrlc::set_handler(move || {
        if seen.fetch_add(1, Ordering::Relaxed) == 0 {
            set.store(true, Ordering::Relaxed);
            eprintln!("\n(Ctrl-C: stopping after the games being played; Ctrl-C again quits now)");
        } else {
            std::process::exit(EXIT_STATUS.into());
        }
    });
    stop
}

/// Ctrl-C in `play`: while `searching` is true (a bot is thinking, `bot` or `hint`), the
/// first one sets the returned flag, which stops the search; otherwise, or a second time,
/// it ends the process as it always did.
pub fn search_flag(searching: Arc<AtomicBool>) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let set = stop.clone();
    let _ = ctrlc::set_handler(move || {
        if searching.load(Ordering::Relaxed) && !set.swap(true, Ordering::Relaxed) {
            eprintln!("\n(Ctrl-C: stopping the search; Ctrl-C again quits now)");
        } else {
            std::process::exit(EXIT_STATUS.into());
        }
    });
    stop
}
