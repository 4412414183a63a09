//! Rewards a search backs up: each seat's result in a finished game (1 a win, its team's
//! included; 0 a loss; when nobody wins, a share below any win: the game's `evaluate` of
//! the final state, halved, else 1/n each), and random playouts that end in one.

use crate::game::{Game, PlayError};
use crate::primitives::rng::{self, GameRng};
use crate::state::{Outcome, State};

/// A playout that has not ended after this many actions is scored as it stands (the game's
/// `evaluate`, else a draw): no game loops a search forever.
pub const MAX_PLAYOUT: usize = 10_000;

/// The most a seat can earn from a game nobody wins: the game's `evaluate` of the final
/// state is scaled into [0, NO_WIN_CEILING], so that a win (1) still beats any ending
/// without one, while surviving a lost game (say) beats dying in it.
pub const NO_WIN_CEILING: f64 = 0.5;

/// Each seat's reward for `outcome`: 1 to every winner and every seat of a team with a
/// winner, 0 to the others. When nobody wins: with `estimate` (the game's `evaluate` of the
/// final state) each seat gets its team's best estimate times `NO_WIN_CEILING` (a team fares
/// as its best seat, as it wins with any one); without, 1/n to each of the n seats.
pub fn of_outcome(
    outcome: &Outcome,
    seats: usize,
    teams: &[Vec<usize>],
    estimate: Option<&[f64]>,
) -> Vec<f64> {
    if outcome.winners.is_empty() {
        return match estimate {
            Some(e) => no_win_shares(e, seats, teams),
            None => vec![1.0 / seats.max(1) as f64; seats],
        };
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

/// A game nobody won: each seat's estimate (its team's best) scaled to `NO_WIN_CEILING`.
fn no_win_shares(estimate: &[f64], seats: usize, teams: &[Vec<usize>]) -> Vec<f64> {
    let of = |s: usize| estimate.get(s).copied().unwrap_or(0.0).clamp(0.0, 1.0);
    let mut shares: Vec<f64> = (0..seats).map(of).collect();
    for team in teams {
        let best = team.iter().map(|&s| of(s)).fold(0.0, f64::max);
        for &s in team {
            if let Some(r) = shares.get_mut(s) {
                *r = best;
            }
        }
    }
    shares.iter().map(|r| r * NO_WIN_CEILING).collect()
}

/// Each seat's reward in a finished `state`; when nobody won, the game's `evaluate` of it
/// (if it has one) tells the seats' endings apart.
pub fn of_finished(game: &Game, state: &State) -> Result<Vec<f64>, PlayError> {
    let outcome = game.outcome(state)?;
    let estimate = match outcome.winners.is_empty() {
        true => game.evaluate(state)?,
        false => None,
    };
    Ok(of_outcome(
        &outcome,
        state.seats.len(),
        &state.teams,
        estimate.as_deref(),
    ))
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
        assert_eq!(of_outcome(&won_by(&[1]), 3, &[], None), [0.0, 1.0, 0.0]);
        assert_eq!(of_outcome(&won_by(&[]), 4, &[], None), [0.25; 4]);
    }

    #[test]
    fn a_team_with_a_winner_wins_whole() {
        let teams = [vec![0, 2], vec![1, 3]];
        assert_eq!(
            of_outcome(&won_by(&[2]), 4, &teams, None),
            [1.0, 0.0, 1.0, 0.0]
        );
    }

    #[test]
    fn an_estimate_is_ignored_when_someone_wins() {
        let e = [0.9, 0.1, 0.8];
        assert_eq!(of_outcome(&won_by(&[1]), 3, &[], Some(&e)), [0.0, 1.0, 0.0]);
    }

    #[test]
    fn with_no_winner_the_estimate_splits_below_any_win() {
        // A survivor (0.8) beats the dead (0), and even a perfect estimate stays below a win.
        let e = [0.8, 0.0, 1.0];
        let r = of_outcome(&won_by(&[]), 3, &[], Some(&e));
        assert_eq!(r, [0.4, 0.0, NO_WIN_CEILING]);
        assert!(r.iter().all(|&x| x < 1.0));
    }

    #[test]
    fn with_no_winner_a_team_shares_its_best_estimate() {
        // Seats 0 and 2 play together: the team fares as its best seat, as it wins with one.
        let teams = [vec![0, 2], vec![1, 3]];
        let e = [0.2, 0.6, 0.8, 0.0];
        let r = of_outcome(&won_by(&[]), 4, &teams, Some(&e));
        assert_eq!(r, [0.4, 0.3, 0.4, 0.3]);
    }

    #[test]
    fn an_estimate_out_of_range_or_short_is_clamped() {
        let e = [1.5, -0.2];
        assert_eq!(of_outcome(&won_by(&[]), 3, &[], Some(&e)), [0.5, 0.0, 0.0]);
    }
}
