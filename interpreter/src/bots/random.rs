//! The random bot: a deciding seat at random, then one of its legal actions at random. It has
//! its own RNG, never the game's, and reads only the decision list.

use crate::game::{Action, Decisions, Game, PlayError};
use crate::primitives::rng::{self, GameRng};
use crate::state::State;

/// Picks a seat and an action from `decisions`; None when nobody decides.
pub fn choose(decisions: &Decisions, rng: &mut GameRng) -> Option<(usize, Action)> {
    if decisions.seats.is_empty() {
        return None;
    }
    let (seat, legal) = &decisions.seats[rng::below(rng, decisions.seats.len())];
    Some((*seat, legal[rng::below(rng, legal.len())].clone()))
}

/// Plays one random action; returns it, or None when the game is over.
pub fn step(
    game: &Game,
    state: &mut State,
    rng: &mut GameRng,
) -> Result<Option<(usize, Action)>, PlayError> {
    let decisions = game.decisions(state)?;
    let Some((seat, action)) = choose(&decisions, rng) else {
        return Ok(None);
    };
    game.play(state, &decisions, seat, &action)?;
    Ok(Some((seat, action)))
}

/// Plays random actions until the game ends; returns how many were played.
pub fn playout(
    game: &Game,
    state: &mut State,
    rng: &mut GameRng,
    max_actions: usize,
) -> Result<usize, PlayError> {
    for n in 0..max_actions {
        if step(game, state, rng)?.is_none() {
            return Ok(n);
        }
    }
    Err(PlayError::Setup(format!(
        "no end after {max_actions} actions"
    )))
}
