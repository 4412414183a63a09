//! Builds the one Rhai `Engine` a game runs in: every limit set (none can be switched off), a
//! wall clock on every call, no modules from disk, no `eval`, nothing that reads the time or
//! sleeps, `print` and `debug` routed to the game log.

use super::bindings;
use rhai::debugger::{DebuggerCommand, DebuggerEvent};
use rhai::module_resolvers::DummyModuleResolver;
use rhai::packages::{
    ArithmeticPackage, BasicArrayPackage, BasicBlobPackage, BasicFnPackage, BasicIteratorPackage,
    BasicMapPackage, BasicMathPackage, BasicStringPackage, BitFieldPackage, LogicPackage,
    MoreStringPackage, Package,
};
use rhai::{Engine, OptimizationLevel, Position};
use serde::Deserialize;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

/// The stack every thread that runs scripts gets (`play`'s session thread, `sim`'s workers):
/// deep script recursion and deeply nested values need far more than a default 2 MB thread
/// stack, and the same scripts must behave the same on every thread. Only touched pages cost
/// memory.
pub const SCRIPT_STACK_SIZE: usize = 256 << 20;

/// Bounds on what one script call may do, and on the whole state. A game may lower them in
/// `game.toml`'s `[limits]`, never raise them past [`Limits::CAPS`]; none of them can be 0,
/// which Rhai reads as "unlimited".
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Rhai operations per call (an endless loop stops here).
    pub operations: u64,
    /// Nested script function calls.
    pub call_depth: usize,
    /// Bytes in one string (stored, logged or returned); see [`TEXT_PER_VALUE`].
    pub string_size: usize,
    /// Elements in one array (nested arrays count their elements too).
    pub array_size: usize,
    pub map_size: usize,
    /// Wall-clock milliseconds per call: no single call may stall a client.
    pub time_ms: u64,
    /// What the whole state may weigh once an action commits (units of the work budget,
    /// about a byte: `State::weigh`). Every call is bounded, and this bounds their sum: the
    /// action that would take the state past it is refused.
    pub state_size: u64,
}

/// Bytes of text in one script value, all its strings together. Rhai checks the sum of a
/// list's strings against its string limit, so a long list of short actions would fail as one
/// "string too large"; this is that sum's bound, far above any one string's.
pub const TEXT_PER_VALUE: usize = 16 << 20;

pub use crate::value::MAX_VALUE_DEPTH;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            operations: 2_000_000,
            call_depth: 48,
            string_size: 100_000,
            array_size: 50_000,
            map_size: 10_000,
            time_ms: 5_000,
            state_size: 256 << 20,
        }
    }
}

impl Limits {
    /// The most a game may ask for. `call_depth` fits [`SCRIPT_STACK_SIZE`] many times over
    /// (see the test `call_depth_cap_fits_the_script_stack`).
    pub const CAPS: Limits = Limits {
        operations: 20_000_000,
        call_depth: 1024,
        string_size: 1 << 20,
        array_size: 100_000,
        map_size: 100_000,
        time_ms: 5_000,
        state_size: 1 << 30,
    };

    /// Each limit must be in `1..=` its cap; the error names the field.
    pub fn check(&self) -> Result<(), String> {
        let caps = Limits::CAPS;
        let fields: [(&str, u64, u64); 7] = [
            ("operations", self.operations, caps.operations),
            ("call_depth", self.call_depth as u64, caps.call_depth as u64),
            (
                "string_size",
                self.string_size as u64,
                caps.string_size as u64,
            ),
            ("array_size", self.array_size as u64, caps.array_size as u64),
            ("map_size", self.map_size as u64, caps.map_size as u64),
            ("time_ms", self.time_ms, caps.time_ms),
            ("state_size", self.state_size, caps.state_size),
        ];
        for (name, value, cap) in fields {
            if !(1..=cap).contains(&value) {
                return Err(format!(
                    "[limits] {name} = {value}: must be from 1 to {cap} (a game may lower the engine's limits, not lift or remove them)"
                ));
            }
        }
        Ok(())
    }

    /// These limits with every field clamped into `1..=` its cap: what an engine applies.
    fn clamped(&self) -> Limits {
        let caps = Limits::CAPS;
        Limits {
            operations: self.operations.clamp(1, caps.operations),
            call_depth: self.call_depth.clamp(1, caps.call_depth),
            string_size: self.string_size.clamp(1, caps.string_size),
            array_size: self.array_size.clamp(1, caps.array_size),
            map_size: self.map_size.clamp(1, caps.map_size),
            time_ms: self.time_ms.clamp(1, caps.time_ms),
            state_size: self.state_size.clamp(1, caps.state_size),
        }
    }

    /// What the whole state may weigh, clamped to its cap.
    pub fn state_budget(&self) -> u64 {
        self.clamped().state_size
    }

    pub fn time(&self) -> Duration {
        Duration::from_millis(self.clamped().time_ms)
    }
}

/// Lines a script printed during the current call, collected for the game log.
pub type Printed = Rc<RefCell<Vec<String>>>;

/// The last place a traced script reached, and the function it was in.
pub type Trace = Rc<RefCell<(Position, String)>>;

/// What an engine hands back besides itself: what scripts printed, and whether `g.end_game`
/// ended the running call.
pub struct Hooks {
    pub printed: Printed,
    pub ended: super::ending::Ended,
}

/// A second engine that records every step's position. Rhai reports a limit hit (operations,
/// sizes) at the outermost call, not where it happened; re-running the failed call here finds
/// the place. Too slow for play, so it only ever runs after such an error, and on its own
/// short clock (the caller starts it), so locating an error never takes as long as the call.
pub fn tracing_engine(limits: &Limits) -> (Engine, Trace, super::ending::Ended) {
    let (mut engine, hooks) = engine(limits);
    let trace: Trace = Rc::new(RefCell::new((Position::NONE, String::new())));
    let sink = trace.clone();
    // Rhai marks this API volatile (not deprecated); the tracer is our only use of it.
    #[allow(deprecated)]
    engine.register_debugger(
        |_, debugger| debugger,
        move |ctx, event, _, _, pos| {
            if !matches!(event, DebuggerEvent::Step) {
                return Ok(DebuggerCommand::StepInto);
            }
            let function = ctx
                .debugger()
                .and_then(|d| d.call_stack().last())
                .map(|f| f.fn_name.to_string());
            let mut t = sink.borrow_mut();
            if !pos.is_none() {
                t.0 = pos;
                t.1 = function.unwrap_or_default();
            }
            Ok(DebuggerCommand::StepInto)
        },
    );
    (engine, trace, hooks.ended)
}

rhai::def_package! {
    /// Rhai's standard library less what reads the clock or blocks (`timestamp`, `elapsed`,
    /// `sleep`: the time package and the core package that holds `sleep`), so the same seed and
    /// actions always give the same game and no call can block. One module, not eleven: Rhai
    /// looks a function up in each global module in turn, and every protocol call starts with
    /// an empty resolution cache, so each module is a hash probe on most native calls.
    Sandboxed(lib): ArithmeticPackage, BasicStringPackage, BasicIteratorPackage, BasicFnPackage,
        BitFieldPackage, LogicPackage, BasicMathPackage, BasicArrayPackage, BasicBlobPackage,
        BasicMapPackage, MoreStringPackage {}
}

fn register_packages(engine: &mut Engine) {
    Sandboxed::new().register_into_engine(engine);
}

pub fn engine(limits: &Limits) -> (Engine, Hooks) {
    let limits = limits.clamped();
    let mut engine = Engine::new_raw();
    register_packages(&mut engine);
    engine
        .set_max_strings_interned(0)
        .set_max_operations(limits.operations)
        .set_max_call_levels(limits.call_depth)
        .set_max_expr_depths(128, 64)
        .set_max_string_size(TEXT_PER_VALUE.max(limits.string_size))
        .set_max_array_size(limits.array_size)
        .set_max_map_size(limits.map_size)
        .set_max_variables(1_000)
        .set_max_functions(1_000)
        .set_max_modules(0)
        .set_module_resolver(DummyModuleResolver::new())
        .set_optimization_level(OptimizationLevel::Simple)
        .set_fail_on_invalid_map_property(true)
        .disable_symbol("eval")
        // Refused when the rules compile, at its line: a module could only come from a file.
        .disable_symbol("import");
    let ended = super::ending::Ended::default();
    let mark = ended.clone();
    engine.on_progress(move |ops| super::ending::look(&mark, ops, bindings::budget::out_of_time));
    let printed: Printed = Rc::new(RefCell::new(Vec::new()));
    let sink = printed.clone();
    engine.on_print(move |s| keep_printed(&sink, s.to_string()));
    let sink = printed.clone();
    engine.on_debug(move |s, _, pos| keep_printed(&sink, format!("debug {pos}: {s}")));
    bindings::register_all(&mut engine, &ended);
    (engine, Hooks { printed, ended })
}

/// Keeps a printed line for the log while the call's work budget lasts; after that, one line
/// says the rest was cut (printing cannot fail, so this is its bound).
fn keep_printed(printed: &Printed, line: String) {
    const CUT: &str = "(printing cut: too much output in one call)";
    let mut lines = printed.borrow_mut();
    if bindings::budget::text(&line, "print").is_ok() {
        lines.push(line);
    } else if lines.last().is_none_or(|l| l != CUT) {
        lines.push(CUT.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rhai::INT;

    /// Bytes of stack one level of script recursion takes, for a recursion shaped by `body`
    /// (which calls `f(n - 1)`), measured between depths 1 and 41 on this build's profile;
    /// None when the script does not compile (too complex).
    fn stack_per_level(body: &str) -> Option<usize> {
        let (mut engine, _) = engine(&Limits::CAPS);
        bindings::budget::reset(usize::MAX, Duration::from_secs(60));
        engine.register_fn("stack_probe", || {
            let here = 0u8;
            std::hint::black_box(&here) as *const u8 as INT
        });
        let script = format!("fn f(n) {{ if n == 0 {{ stack_probe() }} else {{ {body} }} }}");
        let ast = engine.compile(&script).ok()?;
        let probe = |depth: INT| -> INT {
            engine
                .call_fn(&mut rhai::Scope::new(), &ast, "f", (depth,))
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let (shallow, deep) = (probe(1), probe(41));
        Some((shallow - deep) as usize / 40)
    }

    /// issue 9: `call_depth` is capped by what a script thread's stack holds, whatever shape
    /// the recursion takes (plain, through nested expressions, through a closure), with room
    /// to spare for the values and native calls on top.
    #[test]
    fn call_depth_cap_fits_the_script_stack() {
        std::thread::Builder::new()
            .stack_size(SCRIPT_STACK_SIZE)
            .spawn(measure_call_depth_cap)
            .expect("spawns")
            .join()
            .expect("fits");
    }

    fn measure_call_depth_cap() {
        // The most deeply nested call a function body may hold (the parser's depth limit).
        let nested = (1..64)
            .rev()
            .map(|k| format!("{}f(n - 1){}", "0 + (".repeat(k), ")".repeat(k)))
            .find(|body| stack_per_level(body).is_some())
            .expect("some nesting compiles");
        let shapes = [
            ("plain", "f(n - 1)".to_string()),
            ("nested expressions", nested),
            ("closure", "[n].map(|x| f(x - 1))[0]".to_string()),
        ];
        let mut worst = 0;
        for (name, body) in &shapes {
            let per_level = stack_per_level(body).expect("compiles");
            println!("{name}: {per_level} bytes of stack per call level");
            worst = worst.max(per_level);
        }
        let needed = worst * Limits::CAPS.call_depth;
        println!(
            "cap {} levels need {} KiB of {} KiB",
            Limits::CAPS.call_depth,
            needed >> 10,
            SCRIPT_STACK_SIZE >> 10
        );
        assert!(needed * 4 < SCRIPT_STACK_SIZE, "{needed} bytes");
    }

    #[test]
    fn limits_outside_their_caps_or_zero_are_refused() {
        assert_eq!(Limits::default().check(), Ok(()));
        assert_eq!(Limits::CAPS.check(), Ok(()));
        for (bad, why) in [
            (
                Limits {
                    operations: 0,
                    ..Limits::default()
                },
                "operations = 0",
            ),
            (
                Limits {
                    string_size: 0,
                    ..Limits::default()
                },
                "string_size = 0",
            ),
            (
                Limits {
                    call_depth: 1_000_000,
                    ..Limits::default()
                },
                "call_depth = 1000000",
            ),
            (
                Limits {
                    time_ms: 60_000,
                    ..Limits::default()
                },
                "time_ms = 60000",
            ),
        ] {
            let err = bad.check().unwrap_err();
            assert!(err.contains(why), "{bad:?}: {err}");
        }
        let err = Limits {
            array_size: 0,
            ..Limits::default()
        }
        .check()
        .unwrap_err();
        assert!(err.contains("array_size = 0"), "{err}");
    }
}
