//! Catching a panic of the engine around one playout, so one bad game is reported as a failed
//! game (with the panic's message and place) and the run goes on.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// Set while this thread runs a guarded call: its panics are reported, not printed.
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    /// Where the last guarded panic of this thread happened (the payload does not say).
    static PLACE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `f`; a panic inside it becomes `Err("<message> at <file:line:column>")`.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    let was = GUARDED.replace(true);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    GUARDED.set(was);
    result.map_err(|payload| {
        let text = panic_text(&*payload);
        match PLACE.take() {
            Some(place) => format!("{text} at {place}"),
            None => text,
        }
    })
}

/// The message a panic carried (`panic!` gives a `&str` or a `String`).
pub fn panic_text(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
}

/// Once per process: a hook that keeps guarded panics quiet (they are reported as failed games)
/// and hands every other panic to the hook that was there before.
fn install_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if GUARDED.get() {
                PLACE.set(info.location().map(|l| l.to_string()));
            } else {
                previous(info);
            }
        }));
    });
}
