//! The random bot: a deciding seat at random, then one of its legal actions at random. It has
//! its own RNG, never the game's.

use crate::game::{Game, PlayError};
use crate::primitives::rng::{self, GameRng};
use crate::state::State;

/// Chooses an action, or None when the game is over. It reads only the decision list, which
/// a seat's own view also gives.
pub fn choose(
    game: &Game,
    state: &State,
    rng: &mut GameRng,
) -> Result<Option<(usize, String)>, PlayError> {
    let mut decisions = game.decisions(state)?;
    decisions.retain(|(_, legal)| !legal.is_empty());
    if decisions.is_empty() {
        return Ok(None);
    }
    let (seat, mut legal) = decisions.swap_remove(rng::below(rng, decisions.len()));
    let pick = rng::below(rng, legal.len());
    Ok(Some((seat, legal.swap_remove(pick))))
}

/// Plays random actions until the game ends or `max_actions`; returns the number played.
pub fn playout(
    game: &Game,
    state: &mut State,
    rng: &mut GameRng,
    max_actions: usize,
) -> Result<usize, PlayError> {
    for n in 0..max_actions {
        match choose(game, state, rng)? {
            None => return Ok(n),
            Some((seat, action)) => game.apply(state, seat, &action)?,
        }
    }
    Err(PlayError::Setup(format!(
        "no end after {max_actions} actions"
    )))
}
