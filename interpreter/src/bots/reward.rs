//! Rewards a search backs up: each seat's result in a finished game (1 a win, its team's
//! included; 0 a loss; 1/n each when nobody wins), and random playouts that end in one.

use crate::game::{Game, PlayError};
use crate::primitives::rng::{self, GameRng};
use crate::state::{Outcome, State};

/// A playout that has not ended after this many actions is scored as it stands (the game's
/// `evaluate`, else a draw): no game loops a search forever.
pub const MAX_PLAYOUT: usize = 10_000;

/// Each seat's reward for `outcome`: 1 to every winner and every seat of a team with a
/// winner, 0 to the others; 1/n to each of the n seats when nobody wins (so a lost
/// co-operative game scores below any win).
pub fn of_outcome(outcome: &Outcome, seats: usize, teams: &[Vec<usize>]) -> Vec<f64> {
    if outcome.winners.is_empty() {
        return vec![1.0 / seats.max(1) as f64; seats];
    }
    let mut rewards = vec![0.0; seats];
    for &w in &outcome.winners {
        if let Some(r) = rewards.get_mut(w) {
            *r = 1.0;
        }
    }
    for team in teams
        .iter()
        .filter(|t| t.iter().any(|s| outcome.winners.contains(s)))
    {
        for &s in team {
            if let Some(r) = rewards.get_mut(s) {
                *r = 1.0;
            }
        }
    }
    rewards
}

/// Each seat's reward in a finished `state`.
pub fn of_finished(game: &Game, state: &State) -> Result<Vec<f64>, PlayError> {
    let outcome = game.outcome(state)?;
    Ok(of_outcome(&outcome, state.seats.len(), &state.teams))
}

/// Each seat's estimate in a game still going: the game's `evaluate`, else 1/n each.
pub fn of_unfinished(game: &Game, state: &State) -> Result<Vec<f64>, PlayError> {
    let n = state.seats.len();
    Ok(game
        .evaluate(state)?
        .unwrap_or_else(|| vec![1.0 / n.max(1) as f64; n]))
}

/// Plays random actions on `state` (a deciding seat at random, then one of its actions) to
/// the end, or `cut` actions (then `of_unfinished`), and returns each seat's reward. On
/// error `state` is left part-way: it is a scratch state.
pub fn playout(
    game: &Game,
    state: &mut State,
    rng: &mut GameRng,
    cut: Option<usize>,
) -> Result<Vec<f64>, PlayError> {
    let limit = cut.unwrap_or(MAX_PLAYOUT).min(MAX_PLAYOUT);
    let mut played = 0;
    loop {
        let decisions = game.decisions(state)?;
        if decisions.seats.is_empty() {
            return of_finished(game, state);
        }
        if played == limit {
            return of_unfinished(game, state);
        }
        let k = rng::below(rng, decisions.seats.len());
        let (seat, legal) = &decisions.seats[k];
        let i = rng::below(rng, legal.len());
        game.play_listed_in_place(state, &decisions, *seat, i)?;
        played += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn won_by(winners: &[usize]) -> Outcome {
        Outcome {
            winners: winners.to_vec(),
            reason: String::new(),
        }
    }

    #[test]
    fn winners_score_one_and_a_draw_splits() {
        assert_eq!(of_outcome(&won_by(&[1]), 3, &[]), [0.0, 1.0, 0.0]);
        assert_eq!(of_outcome(&won_by(&[]), 4, &[]), [0.25; 4]);
    }

    #[test]
    fn a_team_with_a_winner_wins_whole() {
        let teams = [vec![0, 2], vec![1, 3]];
        assert_eq!(of_outcome(&won_by(&[2]), 4, &teams), [1.0, 0.0, 1.0, 0.0]);
    }
}
