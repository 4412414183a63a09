//! The random bot: a deciding seat at random, then one of its legal actions at random. It has
//! its own RNG, never the game's, and reads only the decision list.

use crate::game::{Action, Decisions, Game, PlayError};
use crate::primitives::rng::{self, GameRng};
use crate::state::State;

/// Picks a seat and an action from `decisions`; None when nobody decides.
pub fn choose(decisions: &Decisions, rng: &mut GameRng) -> Option<(usize, Action)> {
    pick(decisions, rng).map(|(seat, _, action)| (seat, action.clone()))
}

/// Picks a deciding seat and one of its actions, with the action's index in its list.
fn pick<'d>(decisions: &'d Decisions, rng: &mut GameRng) -> Option<(usize, usize, &'d Action)> {
    if decisions.seats.is_empty() {
        return None;
    }
    let (seat, legal) = &decisions.seats[rng::below(rng, decisions.seats.len())];
    let i = rng::below(rng, legal.len());
    Some((*seat, i, &legal[i]))
}

/// Plays one random action; returns it, or None when the game is over.
pub fn step(
    game: &Game,
    state: &mut State,
    rng: &mut GameRng,
) -> Result<Option<(usize, Action)>, PlayError> {
    let decisions = game.decisions(state)?;
    let Some((seat, i, action)) = pick(&decisions, rng) else {
        return Ok(None);
    };
    game.play_listed(state, &decisions, seat, i)?;
    Ok(Some((seat, action.clone())))
}

/// Plays random actions until the game ends, at most `max_actions` of them; returns how many
/// were played. A game that ends with its `max_actions`-th action is not an error. On error
/// `state` is left where the failing action stopped: the playout is meant to be abandoned.
pub fn playout(
    game: &Game,
    state: &mut State,
    rng: &mut GameRng,
    max_actions: usize,
) -> Result<usize, PlayError> {
    playout_observed(game, state, rng, max_actions, |_, _, _| {})
}

/// `playout`, calling `observe(state, seat, action)` after each action applies.
pub fn playout_observed(
    game: &Game,
    state: &mut State,
    rng: &mut GameRng,
    max_actions: usize,
    mut observe: impl FnMut(&State, usize, &Action),
) -> Result<usize, PlayError> {
    let mut played = 0;
    loop {
        let decisions = game.decisions(state)?;
        let Some((seat, i, action)) = pick(&decisions, rng) else {
            return Ok(played);
        };
        // Checked only when someone still has to decide, so `max_actions` is a true maximum.
        if played == max_actions {
            return Err(PlayError::NoEnd(max_actions));
        }
        game.play_listed_in_place(state, &decisions, seat, i)?;
        played += 1;
        observe(state, seat, action);
    }
}
