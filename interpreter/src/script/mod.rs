//! The script host: compiles a game's Rhai files once (base, then variant overlays), keeps
//! the sandboxed engine, and calls protocol functions with `g` bound to a state.

pub mod bindings;
mod constants;
pub mod ending;
pub mod error;
mod overlay;
pub mod sandbox;
mod suggest;

use crate::state::State;
use crate::value;
use bindings::{DataSet, G};
pub use error::{excerpt_in_message, ScriptError, ScriptPos};
use rhai::{CallFnOptions, Dynamic, Engine, Scope, AST};
pub use sandbox::{Limits, MAX_VALUE_DEPTH, SCRIPT_STACK_SIZE};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// The arguments of a protocol call: `g`, then the caller's own, cloned straight into Rhai's
/// argument list (no intermediate `Vec`; the caller keeps its copy for error tracing).
struct CallArgs<'a> {
    g: &'a Rc<RefCell<State>>,
    rest: &'a [Dynamic],
}

impl rhai::FuncArgs for CallArgs<'_> {
    fn parse<A: Extend<Dynamic>>(self, args: &mut A) {
        args.extend(std::iter::once(Dynamic::from(G(self.g.clone()))));
        args.extend(self.rest.iter().cloned());
    }
}

/// Protocol functions a phase may replace with its own `<phase>_<name>`.
pub const PHASE_SCOPED: [&str; 2] = ["legal_actions", "apply"];

/// The phase functions the script defines, for declared phases only: a helper such as
/// `card_apply` is just a helper unless `card` is a declared phase.
fn phase_scoped(
    arities: &HashMap<String, Vec<usize>>,
    phases: &[String],
) -> HashMap<String, HashMap<&'static str, String>> {
    let mut out: HashMap<String, HashMap<&'static str, String>> = HashMap::new();
    for phase in phases {
        for base in PHASE_SCOPED {
            let name = format!("{phase}_{base}");
            if arities.contains_key(&name) {
                out.entry(phase.clone()).or_default().insert(base, name);
            }
        }
    }
    out
}

/// One script file: the name errors show for it, and its text.
#[derive(Debug, Clone)]
pub struct Source {
    pub name: Arc<str>,
    pub text: String,
}

pub struct Rules {
    engine: Engine,
    ast: AST,
    /// Which file defines each function (the last definition wins, as in `AST::merge`).
    fn_files: HashMap<String, Arc<str>>,
    /// Functions by name and arity, for checking the protocol at load time.
    arities: HashMap<String, Vec<usize>>,
    /// Phase-scoped protocol functions: `opening_legal_actions` stands in for
    /// `legal_actions` while the phase is `opening` (phase -> base name -> scoped name).
    phased: HashMap<String, HashMap<&'static str, String>>,
    /// The declared phases, the only ones `g.set_phase` enters.
    phases: Arc<[String]>,
    /// The declared action shapes, which `g.parse_action` reads against.
    shapes: Arc<[crate::shape::Shape]>,
    /// The game's data files, which `data(...)` reads.
    data: DataSet,
    printed: sandbox::Printed,
    /// Whether `g.end_game` ended the running call (`ending`).
    ended: ending::Ended,
    limits: Limits,
    sources: Vec<Source>,
    /// Where the state sits while a script runs; swapped in and out so no call allocates it.
    slot: Rc<RefCell<State>>,
    /// The top-level constants, which the tracer's engine needs too.
    constants: Option<rhai::Shared<rhai::Module>>,
    /// Built on first need, to locate limit errors (see `sandbox::tracing_engine`).
    tracer: std::cell::OnceCell<(Engine, sandbox::Trace, ending::Ended)>,
    /// Built on first need, to suggest a name for a call to a function that does not exist.
    known: std::cell::OnceCell<suggest::Known>,
    /// Columns moved by keeping replaced functions as `base_<name>`, to report the columns
    /// of the files as written.
    shifts: overlay::Shifts,
}

impl Rules {
    /// Compiles `sources` in order (a later definition wins) for a game that declares
    /// `phases`.
    pub fn compile(
        sources: Vec<Source>,
        limits: Limits,
        phases: &[String],
    ) -> Result<Rules, ScriptError> {
        Rules::compile_with_data(sources, limits, phases, DataSet::default())
    }

    /// `compile` for a game with data files, which its scripts (top-level constants included)
    /// read with `data(name, key...)`.
    pub fn compile_with_data(
        sources: Vec<Source>,
        limits: Limits,
        phases: &[String],
        data: DataSet,
    ) -> Result<Rules, ScriptError> {
        let (mut engine, hooks) = sandbox::engine(&limits);
        let phases: Arc<[String]> = phases.into();
        bindings::register_phases(&mut engine, phases.clone());
        bindings::register_data(&mut engine, data.clone());
        let keys = bindings::dot_keys(sources.iter().map(|s| s.text.as_str()));
        bindings::register_dot_keys(&mut engine, &keys);
        // A function defined again keeps its earlier definition as `base_<name>`: the files
        // compile with those renamed.
        let renamed = overlay::rename_replaced(&sources)?;
        let (compiled, shifts) = match &renamed {
            Some((texts, shifts)) => (texts.as_slice(), shifts.clone()),
            None => (sources.as_slice(), overlay::Shifts::default()),
        };
        let (mut ast, fn_files, parts) = match compile_all(&engine, compiled) {
            Ok(done) => done,
            // A syntax error is reported in the files as written.
            Err(mut e) if renamed.is_some() => {
                compile_all(&engine, &sources)?;
                shifts.fix(&mut e);
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        let constants =
            constants::evaluate(&engine, &parts, &ast, &fn_files, &limits).map_err(|mut e| {
                shifts.fix(&mut e);
                e
            })?;
        hooks.printed.borrow_mut().clear();
        let constants = if constants.is_empty() {
            None
        } else {
            constants::check_parameters(&ast, &constants, &fn_files, &sources)?;
            let module = constants::module(&constants);
            engine.register_global_module(module.clone());
            // Again, now that the optimizer can fold the values into the functions.
            ast = compile_all(&engine, compiled)?.0;
            Some(module)
        };
        let mut arities: HashMap<String, Vec<usize>> = HashMap::new();
        for f in ast.iter_functions() {
            arities
                .entry(f.name.to_string())
                .or_default()
                .push(f.params.len());
        }
        let phased = phase_scoped(&arities, &phases);
        let slot = Rc::new(RefCell::new(State::new(vec![], Default::default(), 0)));
        Ok(Rules {
            phased,
            phases,
            shapes: Arc::from([]),
            data,
            engine,
            ast,
            fn_files,
            arities,
            printed: hooks.printed,
            ended: hooks.ended,
            limits,
            sources,
            slot,
            constants,
            tracer: std::cell::OnceCell::new(),
            known: std::cell::OnceCell::new(),
            shifts,
        })
    }

    pub fn has_fn(&self, name: &str, arity: usize) -> bool {
        self.arities.get(name).is_some_and(|a| a.contains(&arity))
    }

    /// Whether the script defines a function `name`, whatever its parameters.
    pub fn defines(&self, name: &str) -> bool {
        self.arities.contains_key(name)
    }

    /// The game's declared action shapes, for `g.parse_action`.
    pub fn declare_shapes(&mut self, shapes: &[crate::shape::Shape]) {
        self.shapes = shapes.into();
        bindings::register_shapes(&mut self.engine, self.shapes.clone());
    }

    /// The function to call for protocol function `base` in `phase`: `<phase>_<base>` when
    /// the script defines one, else `base`. A lookup, no formatting: it runs every step.
    pub fn for_phase<'a>(&'a self, phase: &str, base: &'a str) -> &'a str {
        self.phased
            .get(phase)
            .and_then(|fns| fns.get(base))
            .map_or(base, String::as_str)
    }

    /// Every phase-scoped function, as (scoped name, base name).
    pub fn phase_scoped_fns(&self) -> impl Iterator<Item = (&str, &str)> {
        self.phased
            .values()
            .flat_map(|fns| fns.iter().map(|(base, f)| (f.as_str(), *base)))
    }

    /// Where function `name` is defined (its last definition, which is the one that counts):
    /// the `fn` keyword's line and column. Rhai keeps no position for a function, so this
    /// finds the definition in the source text.
    pub fn fn_position(&self, name: &str) -> Option<ScriptPos> {
        let file = self.fn_files.get(name)?;
        let src = self.sources.iter().rev().find(|s| s.name == *file)?;
        let mut found = None;
        for (i, line) in src.text.lines().enumerate() {
            let mut from = 0;
            while let Some(at) = line[from..].find("fn ") {
                let start = from + at;
                let rest = line[start + 3..].trim_start();
                let word_start = start == 0 || !is_ident_char(line[..start].chars().last());
                if word_start
                    && rest.starts_with(name)
                    && !is_ident_char(rest[name.len()..].chars().next())
                {
                    found = Some(ScriptPos {
                        file: file.clone(),
                        line: i + 1,
                        column: line[..start].chars().count() + 1,
                    });
                }
                from = start + 3;
            }
        }
        found
    }

    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// Where a function is defined, for messages about missing or wrong protocol functions.
    pub fn file_of(&self, function: &str) -> Option<&str> {
        self.fn_files.get(function).map(|f| &**f)
    }

    /// Calls `name(g, args...)` with `g` bound to `state`. Whatever the script changes stays in
    /// `state`, so callers that need all-or-nothing pass a scratch clone.
    pub fn call(
        &self,
        state: &mut State,
        name: &str,
        args: &[Dynamic],
    ) -> Result<Dynamic, ScriptError> {
        self.start_call();
        self.call_continuing(state, name, args)
    }

    /// `call`, spending what is left of the running call's time and work budget: the steps an
    /// action sets off share its budget, so that no chain of them runs without end.
    pub fn call_continuing(
        &self,
        state: &mut State,
        name: &str,
        args: &[Dynamic],
    ) -> Result<Dynamic, ScriptError> {
        std::mem::swap(state, &mut self.slot.borrow_mut());
        let mut result = self.call_raw(
            name,
            CallArgs {
                g: &self.slot,
                rest: args,
            },
        );
        std::mem::swap(state, &mut self.slot.borrow_mut());
        if let Err(e) = &mut result {
            if e.position().is_some_and(|p| p.line == 0) {
                // The state the call started from is gone; the trace re-runs on a copy of where
                // it stopped, which for a runaway loop or string is the same place.
                self.locate(state.clone(), name, args, e);
            }
            self.shifts.fix(e);
        }
        if !self.printed.borrow().is_empty() {
            for line in self.printed.borrow_mut().drain(..) {
                state.log_event(line);
            }
        }
        result
    }

    /// Calls a function that only reads: the state is a view or a clone.
    pub fn call_read(
        &self,
        state: &State,
        name: &str,
        args: &[Dynamic],
    ) -> Result<Dynamic, ScriptError> {
        let mut copy = state.clone();
        self.call(&mut copy, name, args)
    }

    /// A fresh clock and work budget for the call about to run.
    fn start_call(&self) {
        bindings::budget::reset(self.limits.string_size, self.limits.time());
    }

    /// Fills in the place of an error that Rhai reported without one. The re-run is bounded
    /// by its own short clock (a fifth of a call's): a runaway call is still in its loop by
    /// then, and locating never doubles the time an error takes.
    fn locate(&self, mut state: State, name: &str, args: &[Dynamic], err: &mut ScriptError) {
        let (engine, trace, ended) = self.tracer.get_or_init(|| {
            let (mut engine, trace, ended) = sandbox::tracing_engine(&self.limits);
            bindings::register_phases(&mut engine, self.phases.clone());
            bindings::register_data(&mut engine, self.data.clone());
            bindings::register_shapes(&mut engine, self.shapes.clone());
            if let Some(constants) = &self.constants {
                engine.register_global_module(constants.clone());
            }
            (engine, trace, ended)
        });
        bindings::budget::reset(self.limits.string_size, self.limits.time() / 5);
        let cell = Rc::new(RefCell::new(std::mem::replace(
            &mut state,
            State::new(vec![], Default::default(), 0),
        )));
        *trace.borrow_mut() = (rhai::Position::NONE, String::new());
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        let _ = ending::run(ended, || {
            engine.call_fn_with_options::<Dynamic>(
                options,
                &mut Scope::new(),
                &self.ast,
                name,
                CallArgs {
                    g: &cell,
                    rest: args,
                },
            )
        });
        self.printed.borrow_mut().clear();
        let (pos, function) = trace.borrow().clone();
        if let (Some(line), Some(column)) = (pos.line(), pos.position()) {
            let function = if function.is_empty() {
                name.to_string()
            } else {
                function
            };
            err.relocate(
                self.fn_files.get(&function).cloned(),
                line,
                column,
                function,
            );
        }
    }

    /// Calls `name`; a call that `g.end_game` ended returns `()`, as if it had returned there
    /// (every protocol call, step and answer comes through here).
    fn call_raw(&self, name: &str, args: CallArgs) -> Result<Dynamic, ScriptError> {
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        let (result, ended) = ending::run(&self.ended, || {
            self.engine.call_fn_with_options::<Dynamic>(
                options,
                &mut Scope::new(),
                &self.ast,
                name,
                args,
            )
        });
        match result {
            Err(_) if ended => Ok(Dynamic::UNIT),
            result => result.map_err(|e| self.runtime_error(&e, name, &self.fn_files)),
        }
    }

    /// A Rhai error as a `ScriptError`, naming the closest function for an unknown one.
    fn runtime_error(
        &self,
        e: &rhai::EvalAltResult,
        entry: &str,
        fn_files: &HashMap<String, Arc<str>>,
    ) -> ScriptError {
        ScriptError::runtime_known(e, entry, fn_files, &self.limits, || {
            Some(
                self.known
                    .get_or_init(|| suggest::Known::new(&self.engine, &self.ast)),
            )
        })
    }

    /// Evaluates an expression typed by a person, with `g` bound to a throwaway copy of the
    /// state, so it can inspect but never change the game.
    pub fn eval(&self, state: &State, expr: &str) -> Result<String, ScriptError> {
        let text = format!("{expr}\n");
        let part = self
            .engine
            .compile(&text)
            .map_err(|e| ScriptError::syntax("eval", &text, &e))?;
        let ast = self.ast.clone_functions_only().merge(&part);
        let mut scope = Scope::new();
        scope.push("g", G(Rc::new(RefCell::new(state.clone()))));
        let mut files = self.fn_files.clone();
        files.insert("eval".into(), Arc::from("eval"));
        self.start_call();
        let result = match ending::run(&self.ended, || {
            self.engine.eval_ast_with_scope::<Dynamic>(&mut scope, &ast)
        }) {
            (Err(_), true) => Ok(Dynamic::UNIT),
            (result, _) => result,
        };
        self.printed.borrow_mut().clear();
        // The expression's own variables may hold values nested too deep to drop recursively.
        for (_, var, _) in scope {
            value::drop_flat(var);
        }
        let v = result.map_err(|e| {
            let mut e = self.runtime_error(&e, "eval", &files);
            self.shifts.fix(&mut e);
            e
        })?;
        if value::depth(&v, MAX_VALUE_DEPTH) > MAX_VALUE_DEPTH {
            value::drop_flat(v);
            return Err(ScriptError::Runtime {
                at: ScriptPos {
                    file: Arc::from("eval"),
                    line: 1,
                    column: 1,
                },
                function: "eval".into(),
                message: format!(
                    "the value is nested more than {MAX_VALUE_DEPTH} levels deep; it cannot be shown"
                ),
            });
        }
        Ok(self.show(v))
    }

    /// Runs `expr` on the live state (a position's `eval` line): `g` is the game itself, with
    /// the script's functions and a call's limits; the value is dropped. `file` names the
    /// expression in errors (`eval:1:7: ...`).
    pub fn run_on(&self, state: &mut State, expr: &str, file: &str) -> Result<(), ScriptError> {
        let text = format!("{expr}\n");
        let part = self
            .engine
            .compile(&text)
            .map_err(|e| ScriptError::syntax(file, &text, &e))?;
        let ast = self.ast.clone_functions_only().merge(&part);
        let mut scope = Scope::new();
        scope.push("g", G(self.slot.clone()));
        let mut files = self.fn_files.clone();
        files.insert("eval".into(), Arc::from(file));
        self.start_call();
        std::mem::swap(state, &mut self.slot.borrow_mut());
        let result = match ending::run(&self.ended, || {
            self.engine.eval_ast_with_scope::<Dynamic>(&mut scope, &ast)
        }) {
            (Err(_), true) => Ok(Dynamic::UNIT),
            (result, _) => result,
        };
        std::mem::swap(state, &mut self.slot.borrow_mut());
        for line in self.printed.borrow_mut().drain(..) {
            state.log_event(line);
        }
        for (_, var, _) in scope {
            value::drop_flat(var);
        }
        match result {
            Ok(v) => {
                value::drop_flat(v);
                Ok(())
            }
            Err(e) => {
                let mut e = self.runtime_error(&e, "eval", &files);
                self.shifts.fix(&mut e);
                Err(e)
            }
        }
    }

    /// A value as `eval` prints it: strings quoted, handles (grid, zone, card, the game)
    /// through their `to_debug` rather than as the name of a Rust type, inside arrays and
    /// maps too (a hand is `[Card(knife), Card(axe)]`).
    fn show(&self, v: Dynamic) -> String {
        // A statement's unit prints nothing; inside an array or a map it is `()`.
        match v.is_unit() {
            true => String::new(),
            false => self.show_part(v),
        }
    }

    fn show_part(&self, v: Dynamic) -> String {
        if v.is_string() {
            return format!("{:?}", v.to_string());
        }
        if v.is_unit() {
            return "()".into();
        }
        if v.is_array() {
            let items = v.cast::<rhai::Array>();
            let shown: Vec<String> = items.into_iter().map(|x| self.show_part(x)).collect();
            return format!("[{}]", shown.join(", "));
        }
        if v.is_map() {
            let map = v.cast::<rhai::Map>();
            let shown: Vec<String> = map
                .into_iter()
                .map(|(k, x)| format!("{:?}: {}", k.as_str(), self.show_part(x)))
                .collect();
            return format!("#{{{}}}", shown.join(", "));
        }
        if v.is_variant() {
            let options = CallFnOptions::new().in_all_namespaces(true);
            if let Ok(text) = self.engine.call_fn_with_options::<rhai::ImmutableString>(
                options,
                &mut Scope::new(),
                &AST::empty(),
                "to_debug",
                (v.clone(),),
            ) {
                return text.to_string();
            }
        }
        v.to_string()
    }
}

/// Each file compiled and merged in order (a later definition wins), with which file
/// defines each function and each file's own AST.
#[allow(clippy::type_complexity)]
fn compile_all<'s>(
    engine: &Engine,
    sources: &'s [Source],
) -> Result<(AST, HashMap<String, Arc<str>>, Vec<(AST, &'s Source)>), ScriptError> {
    let mut ast = AST::empty();
    let mut fn_files = HashMap::new();
    let mut parts = vec![];
    for src in sources {
        let mut part = engine
            .compile(&src.text)
            .map_err(|e| ScriptError::syntax(&src.name, &src.text, &e))?;
        part.set_source(src.name.to_string());
        for f in part.iter_functions() {
            fn_files.insert(f.name.to_string(), src.name.clone());
        }
        ast = ast.merge(&part);
        parts.push((part, src));
    }
    Ok((ast, fn_files, parts))
}

fn is_ident_char(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}
