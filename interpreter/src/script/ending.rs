//! How `g.end_game` ends the script call that made it: Rhai's non-catchable termination, with
//! a token of its own so that it is never mistaken for the clock's (`bindings::budget`), read
//! back by the host (`Rules::call_continuing`) as a normal return.
//!
//! A script's `try`/`catch` lets a termination through, but Rhai wraps an error raised inside
//! a closure that a native function calls (`list.map(|x| ...)`) in a catchable one. So once
//! the call is ended, the operation hook (`sandbox::engine`) terminates it again at its next
//! operation: nothing the script does after `g.end_game` runs.

use rhai::{Dynamic, EvalAltResult, Position};
use std::cell::Cell;

thread_local! {
    /// Whether the running call was ended by `g.end_game`.
    static ENDED: Cell<bool> = const { Cell::new(false) };
}

/// The token a termination by `g.end_game` carries (the clock's carries `()`).
#[derive(Debug, Clone, Copy)]
pub struct EndOfGame;

/// Runs one script call, and says whether `g.end_game` ended it. The mark lasts only as long
/// as the call, so that nothing run later on this thread (a reloaded game's constants, a
/// value's `to_debug`) is stopped by it.
pub fn run<T>(call: impl FnOnce() -> T) -> (T, bool) {
    ENDED.with(|e| e.set(false));
    let out = call();
    (out, ENDED.with(|e| e.replace(false)))
}

/// Whether the running call was ended by `g.end_game`.
pub fn ended() -> bool {
    ENDED.with(Cell::get)
}

/// The termination `g.end_game` raises once the game's result is set.
pub fn end_call<T>() -> Result<T, Box<EvalAltResult>> {
    ENDED.with(|e| e.set(true));
    Err(Box::new(EvalAltResult::ErrorTerminated(
        token(),
        Position::NONE,
    )))
}

/// The value the operation hook terminates an ended call with.
pub fn token() -> Dynamic {
    Dynamic::from(EndOfGame)
}
