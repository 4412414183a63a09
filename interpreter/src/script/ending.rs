//! How `g.end_game` ends the script call that made it: Rhai's non-catchable termination, with
//! a token of its own so that it is never mistaken for the clock's (`bindings::budget`), read
//! back by the host (`Rules::call_raw`) as a normal return.
//!
//! A script's `try`/`catch` lets a termination through, but Rhai wraps an error raised inside
//! a closure that a native function calls (`list.map(|x| ...)`) in a catchable one. So once
//! the call is ended, the operation hook (`sandbox::engine`) terminates it again at its next
//! operation: nothing the script does after `g.end_game` runs.

use rhai::{Dynamic, EvalAltResult, Position};
use std::cell::Cell;
use std::rc::Rc;

/// Whether the running call was ended by `g.end_game`: one flag an engine, shared by its
/// `end_game` and its operation hook (a captured cell costs the hook, which runs on every
/// operation, far less than a thread-local).
pub type Ended = Rc<Cell<bool>>;

/// The token a termination by `g.end_game` carries (the clock's carries `()`).
#[derive(Debug, Clone, Copy)]
pub struct EndOfGame;

/// Runs one script call, and says whether `g.end_game` ended it. The mark lasts only as long
/// as the call, so that nothing run later on the engine (a value's `to_debug`) is stopped by
/// it.
pub fn run<T>(ended: &Ended, call: impl FnOnce() -> T) -> (T, bool) {
    ended.set(false);
    let out = call();
    (out, ended.replace(false))
}

/// The termination `g.end_game` raises once the game's result is set.
pub fn end_call<T>(ended: &Ended) -> Result<T, Box<EvalAltResult>> {
    ended.set(true);
    Err(Box::new(EvalAltResult::ErrorTerminated(
        token(),
        Position::NONE,
    )))
}

/// The value the operation hook terminates an ended call with.
pub fn token() -> Dynamic {
    Dynamic::from(EndOfGame)
}
