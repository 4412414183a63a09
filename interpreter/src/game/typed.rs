//! How the game's declared shapes and verbs table meet the script: typed action lists for
//! clients (read from the seat's view), the parsed action handed to `apply` and to answer
//! functions, and dispatch to `<verb>_legal` and `<verb>_apply` (or a phase's own,
//! `<phase>_<verb>_legal` and `<phase>_<verb>_apply`).

use super::{Action, Game, PlayError};
use crate::manifest::GameSpec;
use crate::notation;
use crate::script::{Rules, ScriptError};
use crate::shape::Slot;
use crate::state::State;
use crate::typed::{ActionInfo, Reader};
use rhai::{Array, Dynamic, ImmutableString};

/// The verbs table's functions, found when the game compiles.
#[derive(Debug, Default)]
pub(super) struct VerbTable {
    /// In the order declared.
    verbs: Vec<Verb>,
    /// Whether the engine lists the actions from the verbs (the script has no
    /// `legal_actions`).
    lists: bool,
    /// Whether some `apply` (or a phase's) takes the parsed action as a fourth argument.
    apply_parsed: bool,
}

/// One verb of the table and the functions that list and apply it.
#[derive(Debug)]
struct Verb {
    word: String,
    /// `<verb>_legal`, `<verb>_apply`.
    legal: String,
    apply: String,
    /// The declared phases that define their own `<phase>_<verb>_legal` or
    /// `<phase>_<verb>_apply` (as `<phase>_apply` stands in for `apply`).
    phased: Vec<PhaseFns>,
}

/// A phase's own functions for a verb; None where the phase keeps the verb's own.
#[derive(Debug)]
struct PhaseFns {
    phase: String,
    legal: Option<String>,
    apply: Option<String>,
}

impl Verb {
    /// `<verb>_legal`, or its phase's.
    fn legal_in(&self, phase: &str) -> &str {
        self.phased
            .iter()
            .find(|f| f.phase == phase)
            .and_then(|f| f.legal.as_deref())
            .unwrap_or(&self.legal)
    }

    /// `<verb>_apply`, or its phase's.
    fn apply_in(&self, phase: &str) -> &str {
        self.phased
            .iter()
            .find(|f| f.phase == phase)
            .and_then(|f| f.apply.as_deref())
            .unwrap_or(&self.apply)
    }
}

impl VerbTable {
    pub(super) fn new(spec: &GameSpec, rules: &Rules) -> Result<VerbTable, ScriptError> {
        let lists = !spec.verb_table.is_empty() && !rules.has_fn("legal_actions", 2);
        let load_error = |message: String| ScriptError::Load {
            file: spec.dir.join("game.toml").display().to_string(),
            message,
        };
        let mut verbs = vec![];
        for verb in &spec.verb_table {
            let name = verb.replace('-', "_");
            let (legal, apply) = (format!("{name}_legal"), format!("{name}_apply"));
            let mut phased = vec![];
            for phase in &spec.phases {
                let scoped = |f: &str, arity: usize, usage: &str| {
                    let scoped = format!("{phase}_{f}");
                    match rules.defines(&scoped) {
                        false => Ok(None),
                        true if rules.has_fn(&scoped, arity) => Ok(Some(scoped)),
                        true => Err(ScriptError::Load {
                            file: rules.fn_position(&scoped).map_or_else(
                                || rules.file_of(&scoped).unwrap_or_default().to_string(),
                                |at| at.to_string(),
                            ),
                            message: format!(
                                "`{scoped}` stands in for `{f}` while the phase is `{phase}` (a declared phase; `{verb}` a verb of the table), so it takes {arity} parameters like `{f}{usage}`; rename it if it is a helper"
                            ),
                        }),
                    }
                };
                let own = PhaseFns {
                    phase: phase.clone(),
                    legal: scoped(&legal, 2, "(g, seat)")?,
                    apply: scoped(&apply, 3, "(g, seat, parsed)")?,
                };
                if own.legal.is_some() || own.apply.is_some() {
                    phased.push(own);
                }
            }
            // A verb's own function may be left out when every declared phase has one.
            let everywhere = |has: fn(&PhaseFns) -> bool| {
                !spec.phases.is_empty()
                    && spec
                        .phases
                        .iter()
                        .all(|p| phased.iter().any(|f| &f.phase == p && has(f)))
            };
            let missing = if !rules.has_fn(&apply, 3) && !everywhere(|f| f.apply.is_some()) {
                Some(format!("`{apply}(g, seat, parsed)`"))
            } else if lists && !rules.has_fn(&legal, 2) && !everywhere(|f| f.legal.is_some()) {
                Some(format!(
                    "`{legal}(g, seat)` (the script has no `legal_actions`, so each verb lists its own)"
                ))
            } else {
                None
            };
            if let Some(what) = missing {
                return Err(load_error(format!(
                    "actions.verbs.{verb}: the script must define {what}"
                )));
            }
            verbs.push(Verb {
                word: verb.clone(),
                legal,
                apply,
                phased,
            });
        }
        let apply_parsed = rules.has_fn("apply", 4)
            || rules
                .phase_scoped_fns()
                .any(|(scoped, base)| base == "apply" && rules.has_fn(scoped, 4));
        Ok(VerbTable {
            verbs,
            lists,
            apply_parsed,
        })
    }

    /// Whether the table makes protocol function `name` optional.
    pub(super) fn stands_in_for(&self, name: &str) -> bool {
        match name {
            "legal_actions" => self.lists,
            "apply" => !self.verbs.is_empty(),
            _ => false,
        }
    }
}

impl Game {
    /// `actions`, each with what its arguments name, as `seat` may know it: read from the
    /// seat's view, so a card hidden from it stays unnamed. Lists whose shapes name no card
    /// (a board game's cells) are read without making the view: nothing in them is hidden.
    pub fn typed_actions<S: AsRef<str>>(
        &self,
        state: &State,
        seat: usize,
        actions: &[S],
    ) -> Vec<ActionInfo> {
        let public = Reader::new(state, Some(seat));
        let shapes = &self.spec.shapes;
        if let Some(read) = actions
            .iter()
            .map(|a| public.read_public(shapes, a.as_ref()))
            .collect()
        {
            return read;
        }
        let view = state.view(Some(seat));
        let reader = Reader::new(&view, Some(seat));
        actions
            .iter()
            .map(|a| reader.read(&self.spec.shapes, a.as_ref()))
            .collect()
    }

    /// `action` as a script receives it (`#{verb, text, args}`), read on the live state for
    /// `seat` (a card resolves only where that seat sees it).
    pub(super) fn parsed(&self, state: &State, seat: usize, action: &str) -> Dynamic {
        Reader::new(state, Some(seat))
            .read(&self.spec.shapes, action)
            .to_dynamic()
    }

    /// Runs the script's effect of `action`: the verb's `<verb>_apply(g, seat, parsed)` (or
    /// its phase's), else `apply(g, seat, action[, parsed])` (or its phase's). Each path
    /// passes exactly its arguments: nothing is made or dropped for a parameter not taken,
    /// on a path every action takes.
    pub(super) fn run_apply(
        &self,
        state: &mut State,
        seat: usize,
        action: &str,
    ) -> Result<(), PlayError> {
        let seat_arg = self.seat_arg(state, seat);
        if !self.verbs.verbs.is_empty() {
            let word = action.split(' ').next().unwrap_or_default();
            if let Some(verb) = self.verbs.verbs.iter().find(|v| v.word == word) {
                let parsed = self.parsed(state, seat, action);
                let apply = verb.apply_in(&state.phase);
                return self.run_scheduling(state, apply, &[seat_arg, parsed], true);
            }
        }
        let apply = self.rules.for_phase(&state.phase, "apply");
        let text = Dynamic::from(ImmutableString::from(action));
        if self.verbs.apply_parsed && self.rules.has_fn(apply, 4) {
            let parsed = self.parsed(state, seat, action);
            return self.run_scheduling(state, apply, &[seat_arg, text, parsed], true);
        }
        self.run_scheduling(state, apply, &[seat_arg, text], true)
    }

    /// Whether the engine lists the actions from the verbs table: the script has no
    /// `legal_actions`, nor one of its own for this phase.
    pub(super) fn lists_by_verb(&self, state: &State) -> bool {
        self.verbs.lists && self.rules.for_phase(&state.phase, "legal_actions") == "legal_actions"
    }

    /// Each verb's `<verb>_legal(g, seat)` (or its phase's `<phase>_<verb>_legal`), in the
    /// order declared, one list.
    pub(super) fn verb_actions(
        &self,
        state: &State,
        seat: usize,
    ) -> Result<Vec<Action>, PlayError> {
        let name = self.seat_arg(state, seat);
        let mut actions = vec![];
        for verb in &self.verbs.verbs {
            let (legal, verb) = (verb.legal_in(&state.phase), &verb.word);
            let v = self
                .rules
                .call_read(state, legal, std::slice::from_ref(&name))?;
            let arr = v
                .try_cast::<Array>()
                .ok_or_else(|| self.shape_error(legal, "an array of action strings"))?;
            for d in arr {
                let a = d
                    .into_immutable_string()
                    .map_err(|_| self.shape_error(legal, "an array of action strings"))?;
                if a.split(' ').next() != Some(verb.as_str()) {
                    let what = format!(
                        "{}, which does not start with `{verb}`",
                        notation::shown(&a)
                    );
                    return Err(self.returned_error(legal, &what));
                }
                actions.push(a);
            }
        }
        Ok(actions)
    }

    /// After `setup`: every slot naming a grid or a graph names one the game has (grids and
    /// graphs are made by `setup`, so this is the first moment it can be told).
    pub(super) fn check_shape_boards(&self, state: &State) -> Result<(), PlayError> {
        for shape in &self.spec.shapes {
            for slot in shape.slots() {
                if let Some(why) = board_problem(state, slot) {
                    return Err(PlayError::Setup(format!(
                        "{}: actions: shape `{}`: {why}",
                        shape.at, shape.text
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Why `slot` names no grid or graph of `state`, if it does not. Runs at every start (a
/// `sim` starts thousands of games): nothing is allocated unless something is wrong.
fn board_problem(state: &State, slot: &Slot) -> Option<String> {
    let board = slot.kind.board()?;
    let has = |name: &str| match board {
        "grid" => state.grids.iter().any(|g| &*g.name == name),
        _ => state.graphs.iter().any(|g| g.name == name),
    };
    let count = match board {
        "grid" => state.grids.len(),
        _ => state.graphs.len(),
    };
    // Listed only to say what is wrong.
    let names = || -> Vec<&str> {
        match board {
            "grid" => state.grids.iter().map(|g| &*g.name).collect(),
            _ => state.graphs.iter().map(|g| g.name.as_str()).collect(),
        }
    };
    let kind = slot.kind.name();
    let listed = || match count {
        0 => format!("the game has no {board}"),
        _ => format!("{board}s: {}", names().join(", ")),
    };
    match &slot.of {
        Some(name) if !has(name) => Some(format!(
            "`{{{kind}:{name}}}` names no {board} ({})",
            listed()
        )),
        None if count != 1 => Some(format!(
            "`{{{kind}}}` must name its {board} (`{{{kind}:name}}`): {}",
            listed()
        )),
        _ => {
            let key = slot.key.as_deref()?;
            let graph = match &slot.of {
                Some(n) => state.graphs.iter().find(|g| g.name == *n)?,
                None => state.graphs.first()?,
            };
            let known = match slot.kind {
                crate::shape::Kind::Node => graph.node_key(key).is_some(),
                _ => graph.edge_key(key).is_some(),
            };
            (!known).then(|| {
                format!(
                    "graph `{}` has no {kind} value `{key}` after setup",
                    graph.name
                )
            })
        }
    }
}
