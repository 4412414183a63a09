//! `check --peek`: the leak check (`bots::peek`) along a recorded playout, at every action of
//! a short game and at a bounded number of points of a long one.

use boardscript_interpreter::bots::peek::{self, PeekError};
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::{Action, Game, Setup};

/// Points checked per playout at most: each costs a deal and two actions per seat.
const POINTS: usize = 200;

/// The first leak along `actions` (played from `setup`), as `check` reports it: `leak: seed S,
/// action N (seat: action): what differs for whom`. Actions the game refuses on replay are
/// the replay check's to report, not this one's.
pub fn check_playout(game: &Game, setup: &Setup, actions: &[(usize, Action)]) -> Option<String> {
    let mut state = game.start(setup).ok()?;
    let every = actions.len().div_ceil(POINTS).max(1);
    let mut r = rng::seeded(setup.seed);
    for (n, (seat, action)) in actions.iter().enumerate() {
        let text = action.to_string();
        if n % every == 0 {
            match peek::peek_every_seat(game, &state, *seat, &text, &mut r) {
                Ok(()) => {}
                Err(PeekError::Leak(leak)) => {
                    return Some(format!(
                        "leak: seed {}, action {n} ({}: {text}): {leak}",
                        setup.seed,
                        state.seat_name(*seat)
                    ))
                }
                Err(e) => {
                    return Some(format!(
                        "leak check: seed {}, action {n} ({}: {text}): {e}",
                        setup.seed,
                        state.seat_name(*seat)
                    ))
                }
            }
        }
        game.apply(&mut state, *seat, &text).ok()?;
    }
    None
}
