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

/// One engine's mark of its running call, shared by its `end_game` and its operation hook.
pub type Ended = Rc<CallMark>;

/// Whether `g.end_game` ended the running call, and the operation at which the hook next looks
/// (at the clock, or at an end). The hook runs on every operation, so its common case is one
/// comparison: `end_game` brings the next look forward to the very next operation.
#[derive(Debug, Default)]
pub struct CallMark {
    ended: Cell<bool>,
    next_look: Cell<u64>,
}

/// Operations between two looks at the clock (`bindings::budget` holds the deadline). Rhai
/// calls the hook on every operation anyway; reading the clock on one in 128 costs a fraction
/// of a nanosecond an operation, and bounds how far past its time a call of slow operations
/// (each copying a big value, say) can run.
const LOOK_EVERY: u64 = 1 << 7;

/// The token a termination by `g.end_game` carries (the clock's carries `()`).
#[derive(Debug, Clone, Copy)]
pub struct EndOfGame;

/// How the operation hook ends a call: `Some(token)` when `g.end_game` ended it (so that
/// nothing after it runs, even past a `catch`), `Some(())` when `out_of_time` says the clock
/// ran out (looked at every `LOOK_EVERY` operations), else `None`.
pub fn look(mark: &CallMark, ops: u64, out_of_time: impl Fn() -> bool) -> Option<Dynamic> {
    if ops < mark.next_look.get() {
        return None;
    }
    if mark.ended.get() {
        return Some(Dynamic::from(EndOfGame));
    }
    mark.next_look.set(ops + LOOK_EVERY);
    out_of_time().then_some(Dynamic::UNIT)
}

/// Runs one script call, and says whether `g.end_game` ended it. The mark lasts only as long
/// as the call, so that nothing run later on the engine (a value's `to_debug`) is stopped by
/// it; Rhai counts each call's operations from 0, so the clock's next look starts over too.
pub fn run<T>(mark: &CallMark, call: impl FnOnce() -> T) -> (T, bool) {
    mark.ended.set(false);
    mark.next_look.set(LOOK_EVERY);
    let out = call();
    (out, mark.ended.replace(false))
}

/// The termination `g.end_game` raises once the game's result is set.
pub fn end_call<T>(mark: &CallMark) -> Result<T, Box<EvalAltResult>> {
    mark.ended.set(true);
    mark.next_look.set(0);
    Err(Box::new(EvalAltResult::ErrorTerminated(
        Dynamic::from(EndOfGame),
        Position::NONE,
    )))
}
