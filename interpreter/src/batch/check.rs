//! One checked playout of `Batch::check`: played at random and recorded, replayed from its
//! actions (the rules must be deterministic, and must end a won game), and with `peek` the
//! leak check (`bots::peek`) at its actions.

use super::GameOutcome;
use crate::bots::peek::{self, PeekError};
use crate::bots::replay::{self, Divergence};
use crate::game::{Action, Game, Setup};
use crate::primitives::rng;
use crate::script::{excerpt_in_message, Source};

/// Leak checks per playout at most: each costs a deal and two actions per seat, so a long
/// playout is checked at evenly spread actions.
const PEEK_POINTS: usize = 200;

/// What a checked playout did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// Its index in the batch.
    pub index: u64,
    pub seed: u64,
    /// How it ended (or failed) when played.
    pub outcome: GameOutcome,
    /// The seat that made every action of the playout, when it made any: in a turn-based
    /// game, turns that never pass.
    pub only_mover: Option<usize>,
    /// The first thing wrong with it, if any.
    pub problem: Option<Problem>,
}

/// What is wrong with a playout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// What went wrong, to follow "playout N (seed S) ": `failed after 12 action(s)`,
    /// `does not end when won`, `is not deterministic: ...`, `leaks`.
    pub what: String,
    /// The error, naming the script's file, line and column where it has one.
    pub error: String,
    /// That line with a caret under the column, when the error names one.
    pub excerpt: Option<String>,
}

impl Problem {
    fn new(what: impl Into<String>, error: impl Into<String>) -> Problem {
        Problem {
            what: what.into(),
            error: error.into(),
            excerpt: None,
        }
    }
}

impl Checked {
    /// With the excerpt of the script line the problem's error names.
    pub(super) fn with_excerpt(mut self, sources: &[Source]) -> Checked {
        if let Some(p) = &mut self.problem {
            p.excerpt = excerpt_in_message(&p.error, sources);
        }
        self
    }
}

/// A playout in which the engine panicked.
pub(super) fn panicked(seed: u64, error: String) -> Checked {
    Checked {
        index: 0,
        seed,
        outcome: GameOutcome {
            seed,
            error: Some(error.clone()),
            ..GameOutcome::default()
        },
        only_mover: None,
        problem: Some(Problem::new("failed", error)),
    }
}

/// Plays, replays and checks one playout from `setup`.
pub(super) fn playout(game: &Game, setup: &Setup, max_actions: usize, peek: bool) -> Checked {
    let rec = replay::record(game, setup, max_actions);
    let only_mover = only_mover(&rec.actions);
    let replayed = replay::replay(game, setup, &rec);
    let problem = match (&replayed, &rec.outcome.error) {
        // A game that someone won but that goes on is the cause of a long game, so it is
        // named before the action limit it then runs into.
        (Err(d @ (Divergence::WonButGoesOn { .. } | Divergence::Winners { .. })), _) => {
            Some(Problem::new("does not end when won", d.to_string()))
        }
        (_, Some(e)) => Some(Problem::new(
            format!("failed after {} action(s)", rec.outcome.length),
            e.clone(),
        )),
        (Err(d), None) => Some(Problem::new(
            format!(
                "is not deterministic: replaying its {} action(s)",
                rec.actions.len()
            ),
            d.to_string(),
        )),
        (Ok(()), None) if peek => {
            leak_along(game, setup, &rec.actions).map(|e| Problem::new("leaks", e))
        }
        (Ok(()), None) => None,
    };
    Checked {
        index: 0,
        seed: setup.seed,
        outcome: rec.outcome,
        only_mover,
        problem,
    }
}

/// The seat that made every one of `actions`, when there is one.
fn only_mover(actions: &[(usize, Action)]) -> Option<usize> {
    let first = actions.first()?.0;
    actions.iter().all(|(s, _)| *s == first).then_some(first)
}

/// The first leak along `actions` (played from `setup`): `leak: seed S, action N (seat:
/// action): what differs for whom`. Actions the game refuses on replay are the replay
/// check's to report, not this one's.
fn leak_along(game: &Game, setup: &Setup, actions: &[(usize, Action)]) -> Option<String> {
    let mut state = game.start(setup).ok()?;
    let every = actions.len().div_ceil(PEEK_POINTS).max(1);
    let mut r = rng::seeded(setup.seed);
    for (n, (seat, action)) in actions.iter().enumerate() {
        let text = action.to_string();
        if n % every == 0 {
            let at = || {
                format!(
                    "seed {}, action {n} ({}: {text})",
                    setup.seed,
                    state.seat_name(*seat)
                )
            };
            match peek::peek_every_seat(game, &state, *seat, &text, &mut r) {
                Ok(()) => {}
                Err(PeekError::Leak(leak)) => return Some(format!("leak: {}: {leak}", at())),
                Err(e) => return Some(format!("leak check: {}: {e}", at())),
            }
        }
        game.apply(&mut state, *seat, &text).ok()?;
    }
    None
}
