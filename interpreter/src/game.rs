//! `Game`: compiled rules plus their manifest; it makes states and answers the decision
//! protocol for them (who decides, legal actions, apply, winners, views).

mod agenda;
mod evaluate;
mod illegal;
mod position;
#[cfg(test)]
mod tests;
mod typed;

use crate::manifest::{self, GameSpec};
use crate::mentions;
use crate::notation::{self, ListProblem};
use crate::primitives::supply::Supply;
use crate::primitives::zone::Visibility;
use crate::script::{Rules, ScriptError, Source};
use crate::state::{Outcome, State};
use crate::value::data::{Data, DataSet};
use crate::value::Value;
use rhai::{Array, Dynamic, ImmutableString};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// How to start a game: seat count, seed, options as typed, and an optional position text.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub seats: Option<usize>,
    pub seed: u64,
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum PlayError {
    #[error("{0}")]
    Script(#[from] ScriptError),
    #[error("{0}")]
    Setup(String),
    #[error("`{seat}` is not deciding now; waiting for: {waiting}")]
    NotDeciding { seat: String, waiting: String },
    #[error("the game is over")]
    Over,
    /// A seat index a caller passed that the game does not have (an error, never a panic).
    #[error("there is no seat {seat}: this game has {seats} (0 to {last})", last = seats.saturating_sub(1))]
    NoSeat { seat: usize, seats: usize },
    #[error("`{action}` is not a legal action for {seat}{why}; legal now: {legal}")]
    Illegal {
        seat: String,
        action: String,
        /// Why, when the legal actions tell (`: no `shoot` action is legal now`), else empty.
        why: String,
        legal: String,
    },
    #[error("`{action}` is refused for {seat}: {reason}")]
    Refused {
        seat: String,
        action: String,
        reason: String,
    },
    #[error("{0}")]
    Notation(String),
    #[error("several seats decide now ({0}): write `do @seat <action>`")]
    WhichSeat(String),
    /// A bot playout stopped at its action limit with seats still to decide.
    #[error("no end after {0} actions")]
    NoEnd(usize),
    /// The action would leave the state (`what`: and the history kept for undo) heavier
    /// than the game's state budget.
    #[error("this action would make the game's {what} weigh {weight} units, over its budget of {budget} (`state_size` in [limits]); the action is refused")]
    StateBudget {
        what: &'static str,
        weight: u64,
        budget: u64,
    },
}

/// `seat` is one of `state`'s seats.
fn check_seat(state: &State, seat: usize) -> Result<(), PlayError> {
    match seat < state.seats.len() {
        true => Ok(()),
        false => Err(PlayError::NoSeat {
            seat,
            seats: state.seats.len(),
        }),
    }
}

/// The protocol functions every game defines, with their arity (`g` included). `winners(g)`
/// is required only of rules that never call `g.end_game` (see `Game::compile`).
const REQUIRED: [(&str, usize, &str); 3] = [
    ("setup", 1, "setup(g)"),
    ("legal_actions", 2, "legal_actions(g, seat)"),
    ("apply", 3, "apply(g, seat, action)"),
];

/// What a game needs to name its winners, said where it is missing.
const NO_WINNERS: &str = "missing protocol function `winners(g)`: rules that never end the game with `g.end_game(winners, reason)` must say who won with `winners(g)`";

/// An action's notation as the script listed it. Rhai's shared string: listing the same cell
/// names every step copies no text.
pub type Action = ImmutableString;

/// A game as read from its folder, before compiling: the manifest, the text of every script
/// and the data files (parsed and checked). Plain data, `Send + Sync`: threads that each need
/// a compiled `Game` (Rhai engines are per thread) compile this one snapshot, so all of them
/// run the same rules on the same data even if a file changes meanwhile, and none reads the
/// disk again.
#[derive(Debug, Clone)]
pub struct GameSource {
    spec: GameSpec,
    sources: Vec<Source>,
    data: DataSet,
}

impl GameSource {
    /// Reads the manifest and scripts of the game in `dir`, known as `id`.
    pub fn read(dir: &Path, id: &str) -> Result<GameSource, ScriptError> {
        let spec = manifest::load(dir, id).map_err(ScriptError::Other)?;
        let mut sources = vec![];
        for path in &spec.scripts {
            let text = spec.read_file(path).map_err(ScriptError::Other)?;
            sources.push(Source {
                name: Arc::from(path.display().to_string()),
                text,
            });
        }
        let data = spec.read_data().map_err(ScriptError::Other)?;
        let data = Arc::new(
            data.iter()
                .map(|(k, v)| (k.clone(), Data::from_value(v)))
                .collect(),
        );
        Ok(GameSource {
            spec,
            sources,
            data,
        })
    }

    /// Finds the game `id` (`chess`, or `chess/blitz` for a variant) under the scripts
    /// folder `root` and reads it.
    pub fn find(root: &Path, id: &str) -> Result<GameSource, ScriptError> {
        let dir = manifest::find(root, id).ok_or_else(|| {
            let known: Vec<String> = manifest::list(root).into_iter().map(|l| l.id).collect();
            ScriptError::Other(format!(
                "no game `{id}` in {} (games: {})",
                root.display(),
                known.join(", ")
            ))
        })?;
        GameSource::read(&dir, id)
    }

    /// The ids of the games and variants under the scripts folder `root`, in order.
    pub fn list(root: &Path) -> Vec<String> {
        manifest::list(root).into_iter().map(|l| l.id).collect()
    }

    /// A compiled game of these rules (each call compiles afresh, for the calling thread).
    pub fn compile(&self) -> Result<Game, ScriptError> {
        Game::compile(self.spec.clone(), self.sources.clone(), self.data.clone())
    }

    pub fn spec(&self) -> &GameSpec {
        &self.spec
    }

    /// The scripts' texts as read.
    pub(crate) fn sources(&self) -> &[Source] {
        &self.sources
    }
}

/// Who must decide in a state, computed once and used for listing, checking and applying.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decisions {
    /// What the script's `to_decide` returned (seats holding a choice included).
    pub to_decide: Vec<usize>,
    /// Seats that must choose now, each with its legal actions (never empty).
    pub seats: Vec<(usize, Vec<Action>)>,
}

/// What a script's `accept` said of a typed action.
enum Accepted {
    /// Accepted, as this action (notation, checked).
    As(String),
    /// Refused, with the reason a player reads.
    Refused(String),
    /// Refused plainly.
    No,
}

pub struct Game {
    pub spec: GameSpec,
    rules: Rules,
    /// How actions reach the script: the verbs table, and which `apply` takes them parsed.
    verbs: typed::VerbTable,
    has_to_decide: bool,
    /// Whether the script defines `winners(g)`; without it, only `g.end_game` names winners.
    has_winners: bool,
    /// Whether the script defines `evaluate(g)` (see `evaluate`).
    has_evaluate: bool,
    /// Seat names as script strings, made once: every protocol call passes one.
    seat_names: std::cell::RefCell<Vec<ImmutableString>>,
}

impl Game {
    /// Reads and compiles the game in `dir`, known as `id`.
    pub fn load(dir: &Path, id: &str) -> Result<Game, ScriptError> {
        GameSource::read(dir, id)?.compile()
    }

    /// Compiles a game read before: its manifest and script texts.
    fn compile(spec: GameSpec, sources: Vec<Source>, data: DataSet) -> Result<Game, ScriptError> {
        let mut rules = Rules::compile_with_data(sources, spec.limits, &spec.phases, data)?;
        rules.declare_shapes(&spec.shapes);
        let first_file = || {
            spec.scripts
                .first()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        };
        let verbs = typed::VerbTable::new(&spec, &rules)?;
        for (name, arity, usage) in REQUIRED {
            // `apply` may take the parsed action too; a verbs table may stand in for both.
            let defined = rules.has_fn(name, arity) || (name == "apply" && rules.has_fn(name, 4));
            if !defined && !verbs.stands_in_for(name) {
                return Err(ScriptError::Load {
                    file: first_file(),
                    message: format!("missing protocol function `{usage}`"),
                });
            }
        }
        let has_winners = rules.has_fn("winners", 1);
        if !has_winners && !rules.sources().iter().any(|s| calls_end_game(&s.text)) {
            return Err(ScriptError::Load {
                file: first_file(),
                message: NO_WINNERS.to_string(),
            });
        }
        for (scoped, base) in rules.phase_scoped_fns() {
            let (_, arity, usage) = REQUIRED
                .iter()
                .find(|r| r.0 == base)
                .copied()
                .unwrap_or_default();
            let parsed_apply = base == "apply" && rules.has_fn(scoped, 4);
            if !(rules.has_fn(scoped, arity) || parsed_apply) {
                let file = rules.fn_position(scoped).map_or_else(
                    || rules.file_of(scoped).unwrap_or_default().to_string(),
                    |at| at.to_string(),
                );
                let phase = scoped
                    .strip_suffix(base)
                    .unwrap_or(scoped)
                    .trim_end_matches('_');
                return Err(ScriptError::Load {
                    file,
                    message: format!(
                        "`{scoped}` stands in for `{base}` while the phase is `{phase}` (a declared phase), so it takes {arity} parameters like `{usage}`; rename it if it is a helper"
                    ),
                });
            }
        }
        let has_to_decide = rules.has_fn("to_decide", 1);
        let has_evaluate = rules.has_fn("evaluate", 1);
        Ok(Game {
            spec,
            verbs,
            rules,
            has_to_decide,
            has_winners,
            has_evaluate,
            seat_names: Default::default(),
        })
    }

    /// `seat`'s name as a script argument (from a cache, refilled when the seats differ).
    pub(crate) fn seat_arg(&self, state: &State, seat: usize) -> Dynamic {
        let mut names = self.seat_names.borrow_mut();
        if names.len() != state.seats.len()
            || names
                .iter()
                .zip(state.seats.iter())
                .any(|(a, b)| a.as_str() != b)
        {
            *names = state.seats.iter().map(|s| s.as_str().into()).collect();
        }
        Dynamic::from(names[seat].clone())
    }

    /// Finds `id` under the scripts folder `root` and loads it.
    pub fn find(root: &Path, id: &str) -> Result<Game, ScriptError> {
        GameSource::find(root, id)?.compile()
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// A fresh state: seats, options and zones from the manifest, then `setup(g)`, then
    /// `position(g, text)` when a position is given.
    pub fn start(&self, setup: &Setup) -> Result<State, PlayError> {
        let n = setup
            .seats
            .unwrap_or_else(|| self.spec.seats.default_count());
        let seats = self.spec.seats.names_for(n).map_err(PlayError::Setup)?;
        let mut options: BTreeMap<String, Value> = self
            .spec
            .options
            .iter()
            .map(|o| (o.name.clone(), o.default.clone()))
            .collect();
        for (k, text) in &setup.options {
            let spec = self.spec.option(k).ok_or_else(|| {
                let known: Vec<&str> = self.spec.options.iter().map(|o| o.name.as_str()).collect();
                PlayError::Setup(format!(
                    "no option `{k}` in {} (options: {})",
                    self.spec.id,
                    known.join(", ")
                ))
            })?;
            options.insert(k.clone(), spec.parse(text).map_err(PlayError::Setup)?);
        }
        let mut state = State::new(seats, options, setup.seed);
        for (name, z) in &self.spec.zones {
            if z.per_seat {
                for i in 0..n {
                    state.add_zone(name, Some(i), z.visibility);
                }
            } else {
                state.add_zone(name, None, z.visibility);
            }
        }
        // Once every zone exists: a seat's deck discards to the same seat's pile.
        for (name, z) in &self.spec.zones {
            let Some(discard) = &z.discard else {
                continue;
            };
            let owners: Vec<Option<usize>> = match z.per_seat {
                true => (0..n).map(Some).collect(),
                false => vec![None],
            };
            for owner in owners {
                let deck = state.zone_index(name, owner);
                let pile = state.zone_index(discard, owner);
                if let (Some(deck), Some(pile)) = (deck, pile) {
                    state.zones_mut()[deck].discard = Some(pile);
                }
            }
        }
        for (name, supply) in &self.spec.supplies {
            let owners: Vec<Option<usize>> = match supply.per_seat {
                true => (0..n).map(Some).collect(),
                false => vec![None],
            };
            for owner in owners {
                let made = Supply::new(name, owner, supply.size).map_err(PlayError::Setup)?;
                state.supplies_mut().push(made);
            }
        }
        self.run_scheduling(&mut state, "setup", &[], true)?;
        self.check_shape_boards(&state)?;
        self.resolve(&mut state)?;
        if let Some(text) = &setup.position {
            for part in position::parts(text) {
                match part {
                    position::Part::Game(text) => self.game_position(&mut state, text)?,
                    position::Part::Eval { line, expr } => {
                        self.eval_position(&mut state, line, expr)?
                    }
                }
            }
        }
        mentions::settle(&mut state, 0, None);
        Ok(state)
    }

    /// The game's own lines of a position, through its `position(g, text)`.
    fn game_position(&self, state: &mut State, text: String) -> Result<(), PlayError> {
        if !self.rules.has_fn("position", 2) {
            return Err(PlayError::Setup(format!(
                "{} does not define `position(g, text)`",
                self.spec.id
            )));
        }
        let text = Dynamic::from(ImmutableString::from(text));
        self.run_scheduling(state, "position", &[text], true)?;
        self.resolve(state)
    }

    /// A position's `eval <expression>` line, run on the live state (`position::parts`).
    fn eval_position(&self, state: &mut State, line: usize, expr: &str) -> Result<(), PlayError> {
        state.agenda.open();
        let result = self.rules.run_on(state, expr, "eval");
        state.agenda.close();
        result.map_err(|e| PlayError::Setup(format!("position: line {line}: {e}")))?;
        self.resolve(state)
    }

    /// The seats a script function returned, each at most once; `alive`: none eliminated.
    fn seat_list(
        &self,
        state: &State,
        value: Dynamic,
        function: &str,
        alive: bool,
    ) -> Result<Vec<usize>, PlayError> {
        let arr = value
            .try_cast::<Array>()
            .ok_or_else(|| self.shape_error(function, "an array of seat names"))?;
        let mut seats = Vec::with_capacity(arr.len());
        for d in arr {
            let name = d
                .into_immutable_string()
                .map_err(|_| self.shape_error(function, "an array of seat names"))?;
            let seat = state.seat_index(&name).ok_or_else(|| {
                self.shape_error(
                    function,
                    &format!("seat names, not {}", notation::shown(&name)),
                )
            })?;
            // A seat listed twice would have its action applied twice.
            if seats.contains(&seat) {
                return Err(self.returned_error(function, &format!("seat `{name}` twice")));
            }
            if alive && state.turn.eliminated.get(seat) == Some(&true) {
                return Err(
                    self.returned_error(function, &format!("seat `{name}`, which is eliminated"))
                );
            }
            if alive && state.turn.is_out(seat) {
                return Err(self.returned_error(
                    function,
                    &format!("seat `{name}`, which sits out (`g.sit_out`)"),
                ));
            }
            seats.push(seat);
        }
        Ok(seats)
    }

    fn shape_error(&self, function: &str, expected: &str) -> PlayError {
        self.script_error(function, format!("`{function}` must return {expected}"))
    }

    /// A script function returned something the protocol cannot carry (`what`).
    fn returned_error(&self, function: &str, what: &str) -> PlayError {
        self.script_error(function, format!("`{function}` returned {what}"))
    }

    fn script_error(&self, function: &str, message: String) -> PlayError {
        let file = self.rules.file_of(function).unwrap_or("script").to_string();
        PlayError::Script(ScriptError::Load { file, message })
    }

    /// Seats the script says must decide now, in its order (those holding a simultaneous
    /// choice included). Empty means the game is over.
    /// Without a `to_decide(g)` in the script, the seat whose turn it is decides (turn order
    /// games need not write one), unless it sits out: the turn never stays with such a seat
    /// after an action, so that happens only when every seat is out, and then nobody decides.
    pub fn to_decide(&self, state: &State) -> Result<Vec<usize>, PlayError> {
        if !self.has_to_decide {
            if state.turn.is_out(state.turn.current) {
                return Ok(vec![]);
            }
            return Ok(vec![state.turn.current]);
        }
        let v = self.rules.call_read(state, "to_decide", &[])?;
        self.seat_list(state, v, "to_decide", true)
    }

    /// What `seat` may do now: while a question of the agenda is open, its options for the
    /// seat (none if it is not asked); else what the script's `legal_actions` lists.
    pub fn legal_actions(&self, state: &State, seat: usize) -> Result<Vec<Action>, PlayError> {
        check_seat(state, seat)?;
        if let Some(asked) = self.question_decisions(state) {
            let mine = asked.seats.into_iter().find(|(s, _)| *s == seat);
            return Ok(mine.map_or(vec![], |(_, options)| options));
        }
        self.listed_actions(state, seat)
    }

    /// The script's `legal_actions` for `seat` (or the verbs table's), checked.
    fn listed_actions(&self, state: &State, seat: usize) -> Result<Vec<Action>, PlayError> {
        // Without `legal_actions`, the verbs table lists (its errors name the protocol
        // function it stands in for).
        let (function, actions) = match self.lists_by_verb(state) {
            true => ("legal_actions", self.verb_actions(state, seat)?),
            false => self.script_actions(state, seat)?,
        };
        // Every list, on every path (bots and `sim` included): a byte scan and a hash probe
        // per action, about 10-20 ns each against ~6 us for the script call in a mid-game
        // grid game (see the commit). Cheap enough that no path trusts a script's list.
        notation::check_actions(&actions).map_err(|problem| {
            let seat = state.seat_name(seat);
            let what = match problem {
                ListProblem::Malformed(i, why) => {
                    format!("{} for `{seat}`: {why}", notation::shown(&actions[i]))
                }
                ListProblem::Twice(i) => {
                    format!("{} twice for `{seat}`", notation::shown(&actions[i]))
                }
            };
            self.returned_error(function, &what)
        })?;
        Ok(actions)
    }

    /// What the script's `legal_actions` (or its phase's) lists for `seat`, with the name of
    /// the function called, for errors.
    fn script_actions(&self, state: &State, seat: usize) -> Result<(&str, Vec<Action>), PlayError> {
        let function = self.rules.for_phase(&state.phase, "legal_actions");
        let name = self.seat_arg(state, seat);
        let v = self.rules.call_read(state, function, &[name])?;
        let arr = v
            .try_cast::<Array>()
            .ok_or_else(|| self.shape_error(function, "an array of action strings"))?;
        let actions = arr
            .into_iter()
            .map(|d| match d.into_immutable_string() {
                Ok(s) => Ok(s),
                Err(_) => Err(self.shape_error(function, "an array of action strings")),
            })
            .collect::<Result<Vec<Action>, _>>()?;
        Ok((function, actions))
    }

    /// Who decides now and what each may do: while a question of the agenda is open, its
    /// seats with its options; else the seats of `to_decide` that hold no simultaneous choice
    /// yet and have at least one legal action. None: the game is over.
    pub fn decisions(&self, state: &State) -> Result<Decisions, PlayError> {
        if state.result.is_some() {
            return Ok(Decisions {
                to_decide: vec![],
                seats: vec![],
            });
        }
        if let Some(asked) = self.question_decisions(state) {
            return Ok(asked);
        }
        let to_decide = self.to_decide(state)?;
        let mut seats = Vec::with_capacity(to_decide.len());
        for &s in to_decide.iter().filter(|s| !state.pending.contains_key(s)) {
            let legal = self.listed_actions(state, s)?;
            if !legal.is_empty() {
                seats.push((s, legal));
            }
        }
        Ok(Decisions { to_decide, seats })
    }

    /// Seats that must choose now (see `decisions`).
    pub fn deciding(&self, state: &State) -> Result<Vec<usize>, PlayError> {
        Ok(self
            .decisions(state)?
            .seats
            .into_iter()
            .map(|(s, _)| s)
            .collect())
    }

    /// Over when no seat can decide: nobody is asked, or nobody asked has a legal action.
    pub fn is_over(&self, state: &State) -> Result<bool, PlayError> {
        Ok(self.decisions(state)?.seats.is_empty())
    }

    /// The winners: those `g.end_game` stored, else what the script's `winners(g)` says.
    pub fn winners(&self, state: &State) -> Result<Vec<usize>, PlayError> {
        if let Some(result) = &state.result {
            return Ok(result.winners.clone());
        }
        self.unstored_winners(state)
    }

    /// What the script's `winners(g)` returns, whatever `g.end_game` stored; none when the
    /// script has no `winners` (only `g.end_game` names winners then).
    pub fn script_winners(&self, state: &State) -> Result<Vec<usize>, PlayError> {
        if !self.has_winners {
            return Ok(vec![]);
        }
        let v = self.rules.call_read(state, "winners", &[])?;
        self.seat_list(state, v, "winners", false)
    }

    /// The winners of a game `g.end_game` has not ended: the script's `winners(g)`. Rules
    /// without one name nobody while the game goes on; a game of theirs that ends because
    /// nobody can act has no winners to give, which is an error naming what is missing.
    fn unstored_winners(&self, state: &State) -> Result<Vec<usize>, PlayError> {
        if !self.has_winners && self.is_over(state)? {
            return Err(PlayError::Script(ScriptError::Load {
                file: self.rules.file_of("apply").unwrap_or("script").to_string(),
                message: format!("nobody can act, but the game was not ended: {NO_WINNERS}"),
            }));
        }
        self.script_winners(state)
    }

    /// How the game stands or ended: the stored result of `g.end_game`, else the script's
    /// `winners` with no reason.
    pub fn outcome(&self, state: &State) -> Result<Outcome, PlayError> {
        if let Some(result) = &state.result {
            return Ok(result.clone());
        }
        Ok(Outcome {
            winners: self.unstored_winners(state)?,
            reason: String::new(),
        })
    }

    /// Teams with at least one winner (indices into `state.teams`).
    pub fn winning_teams(&self, state: &State) -> Result<Vec<usize>, PlayError> {
        let w = self.winners(state)?;
        Ok((0..state.teams.len())
            .filter(|&t| state.teams[t].iter().any(|s| w.contains(s)))
            .collect())
    }

    /// Checks `text` for `seat` and applies it; returns the canonical notation. All or
    /// nothing: on any error `state` is unchanged.
    pub fn apply(&self, state: &mut State, seat: usize, text: &str) -> Result<String, PlayError> {
        let decisions = self.decisions(state)?;
        self.play(state, &decisions, seat, text)
    }

    /// `apply` with the decisions of this state already at hand (bots, the REPL). In a
    /// simultaneous decision the choice is held until every seat asked has chosen; then all
    /// are applied in `to_decide` order.
    pub fn play(
        &self,
        state: &mut State,
        decisions: &Decisions,
        seat: usize,
        text: &str,
    ) -> Result<String, PlayError> {
        check_seat(state, seat)?;
        let legal = self.legal_for(state, decisions, seat)?;
        let asked = state.agenda.question().is_some();
        let action = self.check_legal(state, seat, legal, text, !asked)?;
        self.play_checked(state, decisions, seat, action, asked)
    }

    /// `play` of the `index`-th action `seat` has in `decisions` (bots pick from the list, so
    /// the action needs no checking against it).
    pub fn play_listed(
        &self,
        state: &mut State,
        decisions: &Decisions,
        seat: usize,
        index: usize,
    ) -> Result<String, PlayError> {
        let action = self.listed(state, decisions, seat, index)?;
        let asked = state.agenda.question().is_some();
        self.play_checked(state, decisions, seat, action.to_string(), asked)
    }

    /// The `index`-th legal action of `seat` in `decisions`.
    fn listed<'d>(
        &self,
        state: &State,
        decisions: &'d Decisions,
        seat: usize,
        index: usize,
    ) -> Result<&'d Action, PlayError> {
        let legal = self.legal_for(state, decisions, seat)?;
        legal.get(index).ok_or_else(|| PlayError::Illegal {
            seat: state.seat_name(seat).to_string(),
            action: format!("action number {}", index + 1),
            why: String::new(),
            legal: format!("{} actions", legal.len()),
        })
    }

    /// `seat`'s legal actions in `decisions`, or why it may not act now.
    fn legal_for<'d>(
        &self,
        state: &State,
        decisions: &'d Decisions,
        seat: usize,
    ) -> Result<&'d [Action], PlayError> {
        let Some((_, legal)) = decisions.seats.iter().find(|(s, _)| *s == seat) else {
            if decisions.seats.is_empty() {
                return Err(PlayError::Over);
            }
            let waiting: Vec<&str> = decisions
                .seats
                .iter()
                .map(|&(s, _)| state.seat_name(s))
                .collect();
            return Err(PlayError::NotDeciding {
                seat: state.seat_name(seat).to_string(),
                waiting: waiting.join(", "),
            });
        };
        Ok(legal)
    }

    /// Applies `action`, already known legal for `seat`; all or nothing.
    fn play_checked(
        &self,
        state: &mut State,
        decisions: &Decisions,
        seat: usize,
        action: String,
        asked: bool,
    ) -> Result<String, PlayError> {
        let mut scratch = state.clone();
        self.play_on(&mut scratch, decisions, seat, &action, asked)?;
        *state = scratch;
        Ok(action)
    }

    /// `play_listed` for a playout that is abandoned on error (`sim`, random playouts): it
    /// plays on `state` itself, saving a copy of the state per action, so on error `state` is
    /// left part-way through the action.
    pub fn play_listed_in_place(
        &self,
        state: &mut State,
        decisions: &Decisions,
        seat: usize,
        index: usize,
    ) -> Result<(), PlayError> {
        let action = self.listed(state, decisions, seat, index)?;
        let asked = state.agenda.question().is_some();
        self.play_on(state, decisions, seat, action, asked)
    }

    /// Plays a legal `action` on `state`, marks the cards its log lines name with who could
    /// see them before or after (`mentions`), then weighs the state against the game's budget;
    /// on error `state` is left part-way.
    fn play_on(
        &self,
        state: &mut State,
        decisions: &Decisions,
        seat: usize,
        action: &str,
        asked: bool,
    ) -> Result<(), PlayError> {
        let from = state.log.len();
        let before = mentions::any_nameable(state).then(|| mentions::readers(state));
        self.play_unweighed(state, decisions, seat, action, asked)?;
        mentions::settle(state, from, before.as_deref());
        let weight = state.weigh();
        self.within_budget("state", weight)
    }

    /// Whether `what` (the state, or more) may weigh `weight` under the game's state budget.
    pub fn within_budget(&self, what: &'static str, weight: u64) -> Result<(), PlayError> {
        let budget = self.spec.limits.state_budget();
        match weight > budget {
            true => Err(PlayError::StateBudget {
                what,
                weight,
                budget,
            }),
            false => Ok(()),
        }
    }

    fn play_unweighed(
        &self,
        state: &mut State,
        decisions: &Decisions,
        seat: usize,
        action: &str,
        asked: bool,
    ) -> Result<(), PlayError> {
        if asked {
            return self.answer(state, seat, action);
        }
        // One seat deciding alone, the common case: no list of choosers to build.
        if decisions.to_decide.as_slice() == [seat] {
            return self.apply_one(state, seat, action);
        }
        // Seats that take part: those choosing now and those already holding a choice. A seat
        // in `to_decide` with nothing to choose takes no part, so nobody waits for it.
        let choosers: Vec<usize> = decisions
            .to_decide
            .iter()
            .copied()
            .filter(|s| {
                state.pending.contains_key(s) || decisions.seats.iter().any(|(d, _)| d == s)
            })
            .collect();
        if choosers.len() == 1 {
            return self.apply_one(state, seat, action);
        }
        state.pending.insert(seat, action.to_string());
        if choosers.iter().all(|s| state.pending.contains_key(s)) {
            let held = std::mem::take(&mut state.pending);
            for s in &choosers {
                // Once a choice ends the game, the choices after it are not played.
                if state.result.is_some() {
                    break;
                }
                self.apply_one(state, *s, &held[s])?;
            }
        }
        Ok(())
    }

    /// Runs the script's `apply` for one action, logging it first, then what it scheduled.
    fn apply_one(&self, state: &mut State, seat: usize, action: &str) -> Result<(), PlayError> {
        self.log_action(state, seat, action);
        let turn = (state.turn.number, state.turn.current);
        self.run_apply(state, seat, action)?;
        self.resolve(state)?;
        if (state.turn.number, state.turn.current) == turn {
            state.turn.count_step();
        }
        // A seat that sits out during its own turn ends that turn (whatever steps were left).
        if !state.turn.out.is_empty() && state.turn.is_out(state.turn.current) {
            state.turn.advance();
        }
        state.actions_applied += 1;
        Ok(())
    }

    /// The line of the log for an action: public, or only for its seat (`log_actions`, by
    /// the action's verb when given so).
    fn log_action(&self, state: &mut State, seat: usize, action: &str) {
        let name = state.seat_name(seat);
        // Every action of every game writes one: built by hand, as `format!` costs more.
        let mut line = String::with_capacity(name.len() + 2 + action.len());
        line.push_str(name);
        line.push_str(": ");
        line.push_str(action);
        let public = match self.spec.public_by_verb.is_empty() {
            true => self.spec.public_actions,
            false => {
                let verb = action.split(' ').next().unwrap_or_default();
                *self
                    .spec
                    .public_by_verb
                    .get(verb)
                    .unwrap_or(&self.spec.public_actions)
            }
        };
        if public {
            state.log_event(line);
        } else {
            state.log_private(line, vec![seat]);
        }
    }

    /// The canonical form of `text` if it is legal for `seat`: listed by `legal_actions`, or
    /// (`may_accept`) accepted by the script's optional `accept(g, seat, action)` (for
    /// actions too many to list, such as arithmetic written by hand).
    fn check_legal(
        &self,
        state: &State,
        seat: usize,
        legal: &[Action],
        text: &str,
        may_accept: bool,
    ) -> Result<String, PlayError> {
        if legal.iter().any(|a| a.as_str() == text) {
            return Ok(text.to_string());
        }
        let notation = boardscript_grammar::parse_action(text)
            .map_err(|e| PlayError::Notation(e.to_string()))?
            .to_string();
        if legal.iter().any(|a| *a == notation) {
            return Ok(notation);
        }
        if may_accept && self.rules.has_fn("accept", 3) {
            match self.ask_accept(state, seat, &notation)? {
                Accepted::Refused(reason) => {
                    return Err(PlayError::Refused {
                        seat: state.seat_name(seat).to_string(),
                        action: notation,
                        reason,
                    })
                }
                Accepted::As(canonical)
                    if canonical == notation || legal.iter().any(|a| *a == canonical) =>
                {
                    return Ok(canonical)
                }
                // Another text than the one typed, and not listed: `accept` must accept it as
                // it is, or a buggy `accept` could have the engine apply anything.
                Accepted::As(canonical) => {
                    return match self.ask_accept(state, seat, &canonical)? {
                        Accepted::As(again) if again == canonical => Ok(canonical),
                        other => {
                            let answer = match other {
                                Accepted::As(again) => notation::shown(&again),
                                Accepted::Refused(why) => format!("a refusal ({why})"),
                                Accepted::No => "no".into(),
                            };
                            Err(self.returned_error(
                                "accept",
                                &format!(
                                    "{} for `{notation}`, which is not listed by `legal_actions` and which `accept` itself does not accept (it answers {answer})",
                                    notation::shown(&canonical)
                                ),
                            ))
                        }
                    };
                }
                Accepted::No => {}
            }
        }
        Err(PlayError::Illegal {
            seat: state.seat_name(seat).to_string(),
            why: illegal::why(legal, &state.grids, &notation),
            legal: illegal::hint(legal, &notation),
            action: notation,
        })
    }

    /// The script's `accept(g, seat, text)` answer, its action checked to be notation.
    fn ask_accept(&self, state: &State, seat: usize, text: &str) -> Result<Accepted, PlayError> {
        let args = [
            self.seat_arg(state, seat),
            Dynamic::from(ImmutableString::from(text)),
        ];
        let v = self.rules.call_read(state, "accept", &args)?;
        if let Some(map) = v.read_lock::<rhai::Map>() {
            if let Some(reason) = map.get("refuse") {
                return Ok(Accepted::Refused(reason.to_string()));
            }
        }
        let Ok(action) = v.into_string() else {
            return Ok(Accepted::No);
        };
        let problem = notation::action_problem(&action).or_else(|| {
            match boardscript_grammar::parse_action(&action) {
                Ok(n) if n.to_string() == action => None,
                Ok(n) => Some(format!("not canonical notation (`{n}`)")),
                Err(e) => Some(e.message),
            }
        });
        if let Some(why) = problem {
            let what = format!("{} for `{text}`: {why}", notation::shown(&action));
            return Err(self.returned_error("accept", &what));
        }
        Ok(Accepted::As(action))
    }

    /// The text a seat (None: a spectator) sees: the script's `render(g, seat)` on the seat's
    /// redacted view, or a generic description when the game has no `render`.
    pub fn render(&self, state: &State, seat: Option<usize>) -> Result<String, PlayError> {
        let view = state.view(seat);
        if self.rules.has_fn("render", 2) {
            let name = seat.map_or(ImmutableString::new(), |s| state.seat_name(s).into());
            let v = self
                .rules
                .call_read(&view, "render", &[Dynamic::from(name)])?;
            return Ok(v.to_string());
        }
        Ok(describe(&view))
    }

    /// Evaluates a Rhai expression against a copy of the state (`g`).
    pub fn eval(&self, state: &State, expr: &str) -> Result<String, PlayError> {
        Ok(self.rules.eval(state, expr)?)
    }
}

/// A plain rendering for games without `render`: turn, phase, grids, graphs, bags, supplies,
/// zones, counters.
pub fn describe(v: &State) -> String {
    let mut out = format!(
        "turn {} ({}), round {}",
        v.turn.number, v.seats[v.turn.current], v.turn.round
    );
    if !v.phase.is_empty() {
        out.push_str(&format!(", phase {}", v.phase));
    }
    if !v.turn.out.is_empty() {
        let names: Vec<&str> = v
            .turn
            .out
            .iter()
            .filter_map(|&i| v.seats.get(i))
            .map(String::as_str)
            .collect();
        out.push_str(&format!(", out: {}", names.join(" ")));
    }
    out.push('\n');
    for g in v.grids.iter() {
        out.push_str(&g.render(true));
        out.push('\n');
    }
    for g in v.graphs.iter() {
        out.push_str(&g.describe());
    }
    for b in v.bags.iter() {
        out.push_str(&b.describe());
        out.push('\n');
    }
    for s in v.supplies.iter() {
        out.push_str(&s.describe(&v.seats));
        out.push('\n');
    }
    for (i, z) in v.zones.iter().enumerate() {
        let owner = z
            .owner
            .map_or(String::new(), |o| format!("[{}]", v.seats[o]));
        let cards = v.card_names(i);
        let shown = if z.visibility == Visibility::All || cards.iter().any(|c| *c != "?") {
            cards.join(" ")
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{}{owner}: {} card(s) {shown}\n",
            z.name,
            z.cards.len()
        ));
    }
    for (k, c) in v.counters.iter() {
        out.push_str(&format!("{k} = {c}\n"));
    }
    out
}

/// Whether a script's text calls `end_game` (as `g.end_game(...)` or `end_game(g, ...)`)
/// outside `//` comments. A game whose rules never do must define `winners(g)`; a call that
/// is never reached is caught when its game ends (`Game::winners`).
fn calls_end_game(text: &str) -> bool {
    const NAME: &str = "end_game";
    text.lines().any(|line| {
        let code = line.split("//").next().unwrap_or_default();
        code.match_indices(NAME).any(|(at, _)| {
            let before = code[..at].trim_end();
            let after = code[at + NAME.len()..].trim_start();
            let word_start = !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
            word_start && after.starts_with('(') && !before.ends_with("fn")
        })
    })
}
