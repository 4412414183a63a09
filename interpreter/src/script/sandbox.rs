//! Builds the one Rhai `Engine` a game runs in: every limit set, no modules from disk, no
//! `eval`, `print` and `debug` routed to the game log.

use super::bindings;
use rhai::debugger::{DebuggerCommand, DebuggerEvent};
use rhai::module_resolvers::DummyModuleResolver;
use rhai::{Engine, OptimizationLevel, Position};
use serde::Deserialize;
use std::cell::RefCell;
use std::rc::Rc;

/// The stack every thread that runs scripts gets (`play`'s session thread, `sim`'s workers):
/// deep script recursion and deeply nested values need far more than a default 2 MB thread
/// stack, and the same scripts must behave the same on every thread. Only touched pages cost
/// memory.
pub const SCRIPT_STACK_SIZE: usize = 256 << 20;

/// Bounds on what one script call may do; a game may tighten or loosen them in `game.toml`.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Rhai operations per call (an endless loop stops here).
    pub operations: u64,
    pub call_depth: usize,
    pub string_size: usize,
    pub array_size: usize,
    pub map_size: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            operations: 2_000_000,
            call_depth: 48,
            string_size: 100_000,
            array_size: 50_000,
            map_size: 10_000,
        }
    }
}

/// Lines a script printed during the current call, collected for the game log.
pub type Printed = Rc<RefCell<Vec<String>>>;

/// The last place a traced script reached, and the function it was in.
pub type Trace = Rc<RefCell<(Position, String)>>;

/// A second engine that records every step's position. Rhai reports a limit hit (operations,
/// sizes) at the outermost call, not where it happened; re-running the failed call here finds
/// the place. Too slow for play, so it only ever runs after such an error.
pub fn tracing_engine(limits: &Limits) -> (Engine, Trace) {
    let (mut engine, _) = engine(limits);
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
    (engine, trace)
}

pub fn engine(limits: &Limits) -> (Engine, Printed) {
    let mut engine = Engine::new();
    engine
        .set_max_operations(limits.operations)
        .set_max_call_levels(limits.call_depth)
        .set_max_expr_depths(128, 64)
        .set_max_string_size(limits.string_size)
        .set_max_array_size(limits.array_size)
        .set_max_map_size(limits.map_size)
        .set_max_variables(1_000)
        .set_max_functions(1_000)
        .set_max_modules(0)
        .set_module_resolver(DummyModuleResolver::new())
        .set_optimization_level(OptimizationLevel::Simple)
        .set_fail_on_invalid_map_property(true)
        .disable_symbol("eval");
    let printed: Printed = Rc::new(RefCell::new(Vec::new()));
    let sink = printed.clone();
    engine.on_print(move |s| sink.borrow_mut().push(s.to_string()));
    let sink = printed.clone();
    engine.on_debug(move |s, _, pos| sink.borrow_mut().push(format!("debug {pos}: {s}")));
    bindings::register_all(&mut engine);
    (engine, printed)
}
