//! How the game's declared shapes and verbs table meet the script: typed action lists for
//! clients (read from the seat's view), the parsed action handed to `apply` and to answer
//! functions, and dispatch to `<verb>_legal` and `<verb>_apply`.

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
    /// (verb, `<verb>_legal`, `<verb>_apply`), in the order declared.
    verbs: Vec<(String, String, String)>,
    /// Whether the engine lists the actions from the verbs (the script has no
    /// `legal_actions`).
    lists: bool,
    /// Whether some `apply` (or a phase's) takes the parsed action as a fourth argument.
    apply_parsed: bool,
}

impl VerbTable {
    pub(super) fn new(spec: &GameSpec, rules: &Rules) -> Result<VerbTable, ScriptError> {
        let lists = !spec.verb_table.is_empty() && !rules.has_fn("legal_actions", 2);
        let mut verbs = vec![];
        for verb in &spec.verb_table {
            let name = verb.replace('-', "_");
            let (legal, apply) = (format!("{name}_legal"), format!("{name}_apply"));
            let missing = if !rules.has_fn(&apply, 3) {
                Some(format!("`{apply}(g, seat, parsed)`"))
            } else if lists && !rules.has_fn(&legal, 2) {
                Some(format!(
                    "`{legal}(g, seat)` (the script has no `legal_actions`, so each verb lists its own)"
                ))
            } else {
                None
            };
            if let Some(what) = missing {
                return Err(ScriptError::Load {
                    file: spec.dir.join("game.toml").display().to_string(),
                    message: format!("actions.verbs.{verb}: the script must define {what}"),
                });
            }
            verbs.push((verb.clone(), legal, apply));
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

    /// The function `apply_one` calls for `action` and its arguments after `g` (the first
    /// `n` of the array: no allocation on this path, which every action takes): the verb's
    /// `<verb>_apply(g, seat, parsed)`, else `apply(g, seat, action[, parsed])` (or its
    /// phase's).
    pub(super) fn apply_call(
        &self,
        state: &State,
        seat: usize,
        action: &str,
    ) -> (&str, [Dynamic; 3], usize) {
        let seat_arg = self.seat_arg(state, seat);
        if !self.verbs.verbs.is_empty() {
            let verb = action.split(' ').next().unwrap_or_default();
            if let Some((_, _, apply)) = self.verbs.verbs.iter().find(|(v, _, _)| v == verb) {
                let parsed = self.parsed(state, seat, action);
                return (apply, [seat_arg, parsed, Dynamic::UNIT], 2);
            }
        }
        let apply = self.rules.for_phase(&state.phase, "apply");
        let text = Dynamic::from(ImmutableString::from(action));
        if self.verbs.apply_parsed && self.rules.has_fn(apply, 4) {
            return (apply, [seat_arg, text, self.parsed(state, seat, action)], 3);
        }
        (apply, [seat_arg, text, Dynamic::UNIT], 2)
    }

    /// Whether the engine lists the actions from the verbs table.
    pub(super) fn lists_by_verb(&self) -> bool {
        self.verbs.lists
    }

    /// Each verb's `<verb>_legal(g, seat)`, in the order declared, one list.
    pub(super) fn verb_actions(
        &self,
        state: &State,
        seat: usize,
    ) -> Result<Vec<Action>, PlayError> {
        let name = self.seat_arg(state, seat);
        let mut actions = vec![];
        for (verb, legal, _) in &self.verbs.verbs {
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
