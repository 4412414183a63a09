//! Replaying a recorded playout: a fresh start and the same actions must give the same state
//! after every action, or the rules are not deterministic (and saves would not load).

use super::sim::{self, Outcome};
use crate::game::{Action, Decisions, Game, Setup};
use crate::state::State;
use std::hash::{DefaultHasher, Hash, Hasher};

/// A random playout as it was played.
#[derive(Debug, Clone)]
pub struct Recording {
    pub outcome: Outcome,
    /// The actions applied, with their seats.
    pub actions: Vec<(usize, Action)>,
    /// A hash of the serialized state after setup (first) and after each action.
    pub fingerprints: Vec<u64>,
    /// The serialized state at the end.
    pub last: Vec<u8>,
}

/// Where a replay first parted from its recording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Divergence {
    #[error("the state after setup differs")]
    Setup,
    #[error("the state after action {number} (`{action}` by {seat}) differs")]
    State {
        number: usize,
        seat: String,
        action: String,
    },
    #[error("action {number} (`{action}` by {seat}) is refused: {error}")]
    Refused {
        number: usize,
        seat: String,
        action: String,
        error: String,
    },
    #[error("the replay does not start: {0}")]
    Start(String),
    /// Issue 10 item 9: the script says someone won while seats can still act, so the game
    /// would go on after its end (the engine ends a game on `g.end_game`, or when nobody can
    /// act; `winners` alone does not end it).
    #[error("{}, `winners` names {winners} while {deciding} can still act: end the game with `g.end_game(...)` (or return [] from `winners` until nobody can act)", after(*.number))]
    WonButGoesOn {
        number: usize,
        winners: String,
        deciding: String,
    },
    #[error("{}, `winners` fails: {error}", after(*.number))]
    Winners { number: usize, error: String },
}

/// "after action N" (0: after setup).
fn after(number: usize) -> String {
    if number == 0 {
        "after setup".into()
    } else {
        format!("after action {number}")
    }
}

/// Plays a random game as `sim::play_one` does, recording what a replay needs.
pub fn record(game: &Game, setup: &Setup, max_actions: usize) -> Recording {
    let mut actions = vec![];
    let mut fingerprints = vec![];
    let mut last = vec![];
    let outcome = sim::play_observed(game, setup, max_actions, |state, played| {
        if let Some((seat, action)) = played {
            actions.push((seat, action.clone()));
        }
        last = serialized(state);
        fingerprints.push(fingerprint(&last));
    });
    Recording {
        outcome,
        actions,
        fingerprints,
        last,
    }
}

/// Starts `setup` afresh and applies the recorded actions, comparing the state after each.
pub fn replay(game: &Game, setup: &Setup, recording: &Recording) -> Result<(), Divergence> {
    let mut state = game
        .start(setup)
        .map_err(|e| Divergence::Start(e.to_string()))?;
    let mut bytes = serialized(&state);
    if recording.fingerprints.first() != Some(&fingerprint(&bytes)) {
        return Err(Divergence::Setup);
    }
    for (i, (seat, action)) in recording.actions.iter().enumerate() {
        let number = i + 1;
        let seat_name = state.seat_name(*seat).to_string();
        let decisions = game.decisions(&state);
        if let Ok(decisions) = &decisions {
            won_but_goes_on(game, &state, decisions, i)?;
        }
        let applied = decisions.and_then(|d| game.play(&mut state, &d, *seat, action));
        if let Err(e) = applied {
            return Err(Divergence::Refused {
                number,
                seat: seat_name,
                action: action.to_string(),
                error: e.to_string(),
            });
        }
        bytes = serialized(&state);
        if recording.fingerprints.get(number) != Some(&fingerprint(&bytes)) {
            return Err(Divergence::State {
                number,
                seat: seat_name,
                action: action.to_string(),
            });
        }
    }
    // The hashes located a difference cheaply; the last state is compared in full.
    if bytes != recording.last {
        let number = recording.actions.len();
        let (seat, action) = recording
            .actions
            .last()
            .map(|(s, a)| (state.seat_name(*s).to_string(), a.to_string()))
            .unwrap_or_default();
        return Err(if number == 0 {
            Divergence::Setup
        } else {
            Divergence::State {
                number,
                seat,
                action,
            }
        });
    }
    Ok(())
}

/// Checks that a game some seat can still act in has no winners yet (`number`: actions
/// applied so far). A call to `winners` per action: affordable in `check`, not in `sim`.
fn won_but_goes_on(
    game: &Game,
    state: &State,
    decisions: &Decisions,
    number: usize,
) -> Result<(), Divergence> {
    if decisions.seats.is_empty() {
        return Ok(());
    }
    let winners = game
        .script_winners(state)
        .map_err(|e| Divergence::Winners {
            number,
            error: e.to_string(),
        })?;
    if winners.is_empty() {
        return Ok(());
    }
    let names = |seats: &mut dyn Iterator<Item = usize>| {
        seats
            .map(|s| state.seat_name(s).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    Err(Divergence::WonButGoesOn {
        number,
        winners: format!("[{}]", names(&mut winners.into_iter())),
        deciding: names(&mut decisions.seats.iter().map(|(s, _)| *s)),
    })
}

/// The state as bytes: every map in `State` is ordered, so equal states give equal bytes.
fn serialized(state: &State) -> Vec<u8> {
    serde_json::to_vec(state).unwrap_or_else(|e| e.to_string().into_bytes())
}

fn fingerprint(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game where seats take turns playing one of `legal` until the counter `n` reaches 4;
    /// each action adds `step` to it.
    fn counting(legal: &str, step: &str) -> (tempfile::TempDir, Game) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("game.toml"),
            "title = \"Count\"\n[seats]\nnames = [\"a\", \"b\"]\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("rules.rhai"),
            format!(
                "fn setup(g) {{ }}\n\
                 fn to_decide(g) {{ if g.counter(\"n\") >= 4 {{ [] }} else {{ [g.turn()] }} }}\n\
                 fn legal_actions(g, seat) {{ {legal} }}\n\
                 fn apply(g, seat, action) {{ g.add_counter(\"n\", {step}); g.next_turn(); }}\n\
                 fn winners(g) {{ [] }}\n"
            ),
        )
        .unwrap();
        let game = Game::load(dir.path(), "count").unwrap();
        (dir, game)
    }

    const X: &str = "[\"x\"]";

    fn setup() -> Setup {
        Setup {
            seed: 3,
            ..Setup::default()
        }
    }

    #[test]
    fn a_deterministic_playout_replays() {
        let (_dir, game) = counting(X, "1");
        let rec = record(&game, &setup(), 100);
        assert_eq!(rec.outcome.error, None);
        assert_eq!(rec.actions.len(), 4);
        assert_eq!(rec.fingerprints.len(), 5);
        assert_eq!(replay(&game, &setup(), &rec), Ok(()));
    }

    /// Issue 9 item 12: rules that do something else on the replay (as a clock or any other
    /// outside input would make them) are caught at the first action whose state differs.
    #[test]
    fn i9_a_replay_that_differs_names_the_first_differing_action() {
        let (_a, game) = counting(X, "1");
        let rec = record(&game, &setup(), 100);
        // Adds 1 at first, then 2: the same as the recording after action 1, not after 2.
        let (_b, other) = counting(X, "if g.counter(\"n\") == 0 { 1 } else { 2 }");
        assert_eq!(
            replay(&other, &setup(), &rec),
            Err(Divergence::State {
                number: 2,
                seat: "b".into(),
                action: "x".into()
            })
        );
        // Rules that list other actions after the first refuse the recorded second one.
        let (_c, other) = counting("if g.counter(\"n\") == 0 { [\"x\"] } else { [\"y\"] }", "1");
        let err = replay(&other, &setup(), &rec).unwrap_err();
        assert!(
            matches!(err, Divergence::Refused { number: 2, .. }),
            "{err}"
        );
        assert!(
            err.to_string()
                .starts_with("action 2 (`x` by b) is refused: "),
            "{err}"
        );
    }
}
