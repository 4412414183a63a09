//! The action log of a match: undo/redo, save/load and replay, and `reload`, which replays the
//! log under new rules and names the first action they refuse.

use crate::game::{Decisions, Game, PlayError, Setup};
use crate::state::State;
use crate::text::{excerpt, one_line};
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// One action as it was submitted: who, and its notation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    pub seat: String,
    pub action: String,
}

pub const SAVE_FORMAT: &str = "boardscript-save/1";

/// A save: the game, how it was set up, and the actions; loading replays them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    pub format: String,
    pub game: String,
    pub seats: Vec<String>,
    pub setup: Setup,
    pub actions: Vec<Played>,
}

impl SaveFile {
    /// Parses a save and checks it belongs to `game`; the message says what is wrong.
    pub fn parse(text: &str, game: &str) -> Result<SaveFile, String> {
        // Editors on some systems start UTF-8 files with a byte order mark.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let save: SaveFile = serde_json::from_str(text)
            .map_err(|e| one_line(&format!("not a Boardscript save file: {e}")))?;
        if save.format != SAVE_FORMAT {
            return Err(format!(
                "unknown save format `{}` (expected {SAVE_FORMAT})",
                excerpt(&save.format)
            ));
        }
        if save.game != game {
            return Err(format!(
                "this save is for game `{}`, not `{game}`",
                excerpt(&save.game)
            ));
        }
        Ok(save)
    }
}

/// What `reload` found when replaying the log under the new rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReloadReport {
    pub replayed: usize,
    /// The first refused action, its index in the log, and why; the game stops before it.
    pub refused: Option<(usize, Played, String)>,
    /// Actions from the refused one on, kept aside for the next `reload`.
    pub kept_aside: usize,
}

pub struct Match {
    /// The compiled rules, shared with the match's forks (`fork`) on the same thread.
    pub game: Rc<Game>,
    pub setup: Setup,
    pub state: State,
    actions: Vec<Played>,
    /// State before each logged action, for undo. Shared, so a checkpoint copies pointers.
    before: Vec<Rc<State>>,
    redo: Vec<(Played, Rc<State>)>,
    /// Actions the last `reload` could not replay under the new rules: kept aside, and
    /// replayed again by the next `reload`, so reverting an edit brings the whole game back.
    /// A new action, a load or a position forgets them.
    dropped: Vec<Played>,
}

/// Everything of a match but its rules: taken before a command, put back if it fails, so a
/// refused command leaves the game and its undo and redo history exactly as they were.
#[derive(Clone)]
pub struct Checkpoint {
    setup: Setup,
    state: State,
    actions: Vec<Played>,
    before: Vec<Rc<State>>,
    redo: Vec<(Played, Rc<State>)>,
    dropped: Vec<Played>,
}

/// A game replayed from its setup: the state reached, the actions accepted, the states before
/// each, and the first refused action if any.
struct Replay {
    state: State,
    actions: Vec<Played>,
    before: Vec<Rc<State>>,
    refused: Option<(usize, Played, PlayError)>,
}

fn replay(game: &Game, setup: &Setup, log: &[Played]) -> Result<Replay, PlayError> {
    let mut r = Replay {
        state: game.start(setup)?,
        actions: vec![],
        before: vec![],
        refused: None,
    };
    for (i, p) in log.iter().enumerate() {
        match play_on(game, &mut r.state, None, Some(&p.seat), &p.action) {
            Ok((played, before)) => {
                r.actions.push(played);
                r.before.push(Rc::new(before));
            }
            Err(e) => {
                r.refused = Some((i, p.clone(), e));
                break;
            }
        }
    }
    Ok(r)
}

/// Plays one action on `state`, given the state's `decisions` when the caller has them;
/// returns it in canonical form with the state before it.
fn play_on(
    game: &Game,
    state: &mut State,
    decisions: Option<&Decisions>,
    seat: Option<&str>,
    text: &str,
) -> Result<(Played, State), PlayError> {
    let seat = match seat {
        Some(name) => state.seat_index(name).ok_or_else(|| {
            PlayError::Setup(format!(
                "no seat `{name}` (seats: {})",
                state.seats.join(", ")
            ))
        })?,
        None => default_seat(game, state, decisions)?,
    };
    let before = state.clone();
    let canonical = match decisions {
        Some(decisions) => game.play(state, decisions, seat, text)?,
        None => game.apply(state, seat, text)?,
    };
    Ok((
        Played {
            seat: state.seat_name(seat).to_string(),
            action: canonical,
        },
        before,
    ))
}

/// Which seat a `do` without `@seat` acts for: the one deciding seat.
fn default_seat(
    game: &Game,
    state: &State,
    decisions: Option<&Decisions>,
) -> Result<usize, PlayError> {
    let deciding = match decisions {
        Some(d) => d.seats.iter().map(|(s, _)| *s).collect(),
        None => game.deciding(state)?,
    };
    match deciding.as_slice() {
        [] => Err(PlayError::Over),
        [one] => Ok(*one),
        many => Err(PlayError::WhichSeat(
            many.iter()
                .map(|&s| state.seat_name(s))
                .collect::<Vec<_>>()
                .join(", "),
        )),
    }
}

impl Match {
    pub fn new(game: Game, setup: Setup) -> Result<Match, PlayError> {
        let state = game.start(&setup)?;
        Ok(Match {
            game: Rc::new(game),
            setup,
            state,
            actions: vec![],
            before: vec![],
            redo: vec![],
            dropped: vec![],
        })
    }

    pub fn actions(&self) -> &[Played] {
        &self.actions
    }

    /// Plays `text` for `seat` (or the one deciding seat); the state is unchanged on error.
    /// The state and what its undo history holds must stay within the game's state budget.
    pub fn play(&mut self, seat: Option<&str>, text: &str) -> Result<Played, PlayError> {
        let (played, before) = play_on(&self.game, &mut self.state, None, seat, text)?;
        self.record(played, before)
    }

    /// `play` with the decisions of the state as it is now already at hand (a caller that
    /// asked who decides and what they may do): the script lists them no second time.
    pub fn play_decided(
        &mut self,
        decisions: &Decisions,
        seat: Option<&str>,
        text: &str,
    ) -> Result<Played, PlayError> {
        let (played, before) = play_on(&self.game, &mut self.state, Some(decisions), seat, text)?;
        self.record(played, before)
    }

    /// Plays `seat`'s `index`-th legal action in `decisions` (those of the state as it is
    /// now): picked from the list, so neither read from text nor checked against the list
    /// again. The state is unchanged on error.
    pub fn play_listed(
        &mut self,
        decisions: &Decisions,
        seat: usize,
        index: usize,
    ) -> Result<Played, PlayError> {
        // Played on a copy that becomes the state, the state before it kept for undo: one
        // copy of the state per action, as `play` makes two.
        let mut next = self.state.clone();
        self.game
            .play_listed_in_place(&mut next, decisions, seat, index)?;
        let listed = decisions.seats.iter().find(|(s, _)| *s == seat);
        let played = Played {
            seat: next.seat_name(seat).to_string(),
            action: listed.map_or_else(String::new, |(_, legal)| legal[index].to_string()),
        };
        let before = std::mem::replace(&mut self.state, next);
        self.record(played, before)
    }

    /// Keeps `played` and the state `before` it in the history, if the state and its
    /// history stay within the game's budget; else puts `before` back.
    fn record(&mut self, played: Played, mut before: State) -> Result<Played, PlayError> {
        // Each state kept for undo shares all but what the actions after it wrote, so the
        // history holds about the first state and what was written since. (Weighing
        // `before` measures only the state a match starts from; later ones were weighed.)
        before.weigh();
        let first = self.before.first().map_or(&before, |s| s);
        let since = self.state.written().saturating_sub(first.written());
        let weight = first.weighed().saturating_add(since);
        if let Err(e) = self.game.within_budget("state and undo history", weight) {
            self.state = before;
            return Err(e);
        }
        self.actions.push(played.clone());
        self.before.push(Rc::new(before));
        self.redo.clear();
        self.dropped.clear();
        Ok(played)
    }

    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            setup: self.setup.clone(),
            state: self.state.clone(),
            actions: self.actions.clone(),
            before: self.before.clone(),
            redo: self.redo.clone(),
            dropped: self.dropped.clone(),
        }
    }

    /// A second match on the same rules (shared, not compiled again) that starts as this
    /// one is now: setup, state (hidden cards and RNG included), actions, undo and redo
    /// history (the earlier states are shared, not copied). Neither sees the other's later
    /// moves. Only on this thread: the rules cannot cross threads.
    pub fn fork(&self) -> Match {
        let c = self.checkpoint();
        Match {
            game: self.game.clone(),
            setup: c.setup,
            state: c.state,
            actions: c.actions,
            before: c.before,
            redo: c.redo,
            dropped: c.dropped,
        }
    }

    /// A match of the same rules from `state` on, with no history: a position a seat's
    /// sampler drew (`Table::fork_seen_by`). Its setup's seed is `seed`, so the original's
    /// seed, and with it the original deal, cannot be read back from it.
    pub fn from_drawn(&self, state: State, seed: u64) -> Match {
        Match {
            game: self.game.clone(),
            setup: Setup {
                seed,
                position: None,
                ..self.setup.clone()
            },
            state,
            actions: vec![],
            before: vec![],
            redo: vec![],
            dropped: vec![],
        }
    }

    /// Puts the match back as it was at `c` (the rules stay as they are now).
    pub fn restore(&mut self, c: Checkpoint) {
        self.setup = c.setup;
        self.state = c.state;
        self.actions = c.actions;
        self.before = c.before;
        self.redo = c.redo;
        self.dropped = c.dropped;
    }

    /// Actions that `redo` can play again.
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// Takes back up to `n` actions; returns how many.
    pub fn undo(&mut self, n: usize) -> usize {
        let mut done = 0;
        while done < n {
            let (Some(prev), Some(played)) = (self.before.pop(), self.actions.pop()) else {
                break;
            };
            let now = std::mem::replace(&mut self.state, Rc::unwrap_or_clone(prev));
            self.redo.push((played, Rc::new(now)));
            done += 1;
        }
        done
    }

    pub fn redo(&mut self, n: usize) -> usize {
        let mut done = 0;
        while done < n {
            let Some((played, next)) = self.redo.pop() else {
                break;
            };
            let prev = std::mem::replace(&mut self.state, Rc::unwrap_or_clone(next));
            self.before.push(Rc::new(prev));
            self.actions.push(played);
            done += 1;
        }
        done
    }

    pub fn save(&self) -> SaveFile {
        SaveFile {
            format: SAVE_FORMAT.into(),
            game: self.game.spec.id.clone(),
            seats: self.state.seats.to_vec(),
            setup: self.setup.clone(),
            actions: self.actions.clone(),
        }
    }

    pub fn save_json(&self) -> String {
        serde_json::to_string_pretty(&self.save()).expect("a save always serializes")
    }

    /// Replays `save` from its setup; on any refusal nothing changes.
    pub fn load(&mut self, save: &SaveFile) -> Result<(), PlayError> {
        let r = replay(&self.game, &save.setup, &save.actions)?;
        if r.state.seats.as_slice() != save.seats.as_slice() {
            return Err(PlayError::Setup(format!(
                "the save names seats {} but its setup gives {}",
                save.seats.join(", "),
                r.state.seats.join(", ")
            )));
        }
        if let Some((i, p, e)) = r.refused {
            return Err(PlayError::Setup(format!(
                "save action {} (`{}` by {}) refused: {e}",
                i + 1,
                excerpt(&p.action),
                excerpt(&p.seat)
            )));
        }
        self.setup = save.setup.clone();
        self.state = r.state;
        self.actions = r.actions;
        self.before = r.before;
        self.redo.clear();
        self.dropped.clear();
        Ok(())
    }

    /// Swaps in new rules and replays the log on them, keeping the game up to the first action
    /// they refuse. If the new rules cannot even set the game up, nothing changes.
    pub fn reload(&mut self, game: Game) -> Result<ReloadReport, PlayError> {
        self.swap_rules(game).map(|(report, _)| report)
    }

    /// `reload`, handing back the rules it replaced, so that a caller that finds more to do
    /// under the new rules (bots to play) can put the old ones back if that fails.
    pub fn swap_rules(&mut self, game: Game) -> Result<(ReloadReport, Rc<Game>), PlayError> {
        let log: Vec<Played> = self.actions.iter().chain(&self.dropped).cloned().collect();
        let r = replay(&game, &self.setup, &log)?;
        // A script error is a fault of the new rules, not a refusal by them: keep everything.
        if let Some((i, p, e @ PlayError::Script(_))) = &r.refused {
            return Err(PlayError::Setup(format!(
                "the new rules fail while replaying action {} (`{}` by {}): {e}",
                i + 1,
                excerpt(&p.action),
                excerpt(&p.seat)
            )));
        }
        self.dropped = r
            .refused
            .as_ref()
            .map_or(vec![], |(i, ..)| log[*i..].to_vec());
        let old = std::mem::replace(&mut self.game, Rc::new(game));
        self.state = r.state;
        self.actions = r.actions;
        self.before = r.before;
        self.redo.clear();
        let refused = r.refused.map(|(i, p, e)| (i, p, e.to_string()));
        let report = ReloadReport {
            replayed: self.actions.len(),
            refused,
            kept_aside: self.dropped.len(),
        };
        Ok((report, old))
    }

    /// Starts again from a position text (the game script parses it), keeping seed and options.
    pub fn set_position(&mut self, text: &str) -> Result<(), PlayError> {
        let setup = Setup {
            position: Some(text.to_string()),
            ..self.setup.clone()
        };
        let state = self.game.start(&setup)?;
        self.setup = setup;
        self.state = state;
        self.actions.clear();
        self.before.clear();
        self.redo.clear();
        self.dropped.clear();
        Ok(())
    }
}
