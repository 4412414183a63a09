//! What native functions may do in one script call: Rhai counts the script's operations, not
//! the work a native function does for one of them, so work that grows with its arguments
//! (storing a big value, a log line, a search) is paid from a per-call budget here, and fails
//! with an error when the budget is spent. The call's deadline lives here too, so that both
//! the operation hook (`sandbox::engine`) and long native work look at the clock.

use super::{fail, Fallible};
use crate::value::Value;
use rhai::{Dynamic, EvalAltResult, Position};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// Units (about a byte of state, or one step of a search) one call may spend: a call can add
/// at most this much to the state, its log and its searches.
pub const WORK_PER_CALL: u64 = 64 << 20;

/// Steps one `arith_search` may take (it is exponential in the numbers it considers).
pub const SEARCH_STEPS: u64 = 2_000_000;

/// Units of native work between two looks at the clock (copying this much takes well under a
/// millisecond).
const CLOCK_EVERY_UNITS: u64 = 1 << 18;

thread_local! {
    static LEFT: Cell<u64> = const { Cell::new(WORK_PER_CALL) };
    static MAX_STRING: Cell<usize> = const { Cell::new(usize::MAX) };
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// `LEFT` when the clock was last read.
    static LAST_LOOK: Cell<u64> = const { Cell::new(WORK_PER_CALL) };
}

/// A full budget for the call about to start, which may run for `time` and whose strings may
/// be `max_string` bytes long.
pub fn reset(max_string: usize, time: Duration) {
    LEFT.with(|l| l.set(WORK_PER_CALL));
    LAST_LOOK.with(|l| l.set(WORK_PER_CALL));
    MAX_STRING.with(|m| m.set(max_string));
    DEADLINE.with(|d| d.set(Some(Instant::now() + time)));
}

/// Whether the running call has used up its time.
pub fn out_of_time() -> bool {
    DEADLINE.with(|d| d.get().is_some_and(|end| Instant::now() >= end))
}

/// When the running call must stop, for native work that looks at the clock itself.
pub fn deadline() -> Option<Instant> {
    DEADLINE.with(Cell::get)
}

/// The error that stops a call on the clock (`ScriptError::TimedOut` once converted).
pub fn timed_out<T>() -> Fallible<T> {
    Err(Box::new(EvalAltResult::ErrorTerminated(
        Dynamic::UNIT,
        Position::NONE,
    )))
}

/// What is left of the budget.
pub fn left() -> u64 {
    LEFT.with(Cell::get)
}

/// Pays `units` for `what`, or fails naming it; fails on the clock when the call is out of
/// time (native work between two script operations can be long).
pub fn charge(units: u64, what: &str) -> Fallible<()> {
    LEFT.with(|l| match l.get().checked_sub(units) {
        Some(rest) => {
            l.set(rest);
            if LAST_LOOK.with(Cell::get) - rest >= CLOCK_EVERY_UNITS {
                LAST_LOOK.with(|l| l.set(rest));
                if out_of_time() {
                    return timed_out();
                }
            }
            Ok(())
        }
        None => {
            l.set(0);
            fail(format!(
                "{what}: too much work in one call (the budget is {WORK_PER_CALL} units of state, log and search)"
            ))
        }
    })
}

/// The longest string a call may store or log.
pub fn max_string() -> usize {
    MAX_STRING.with(Cell::get)
}

/// A script value converted for the state and paid for.
pub fn store(v: &Dynamic, what: &str) -> Fallible<Value> {
    let value = match Value::from_dynamic(v, max_string(), left()) {
        Ok(value) => value,
        Err(e) => return fail(format!("{what}: {e}")),
    };
    charge(value.weight(), what)?;
    Ok(value)
}

/// A name or line of text the state will keep: no longer than one string may be, and paid for.
pub fn text(s: &str, what: &str) -> Fallible<()> {
    if s.len() > max_string() {
        return fail(format!(
            "{what}: {} bytes is longer than the limit of {}",
            s.len(),
            max_string()
        ));
    }
    charge(s.len() as u64 + 32, what)
}
