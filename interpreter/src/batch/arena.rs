//! A round robin between bots (`arena`): every pair of entrants plays, seats alternated, and
//! each game is tallied as a result of its pair.
//!
//! Game `i` of the round robin belongs to pair `i % pairs` (so a run stopped early has played
//! every pair about as often) and is that pair's game `i / pairs`. Its tally counts results,
//! not seats: `wins[3p]` pair `p`'s first entrant won, `wins[3p + 1]` neither side won (or
//! both did), `wins[3p + 2]` the second won. A sum, like every tally, so ranges of the round
//! robin played apart merge into the whole.

use super::{Batch, GameOutcome as Outcome, Progress, Tally};
use crate::bots::BotSpec;
use crate::table::TableError;
use std::ops::Range;

/// Every pair of `n` entrants, in order: (0, 1), (0, 2), ..., (1, 2), ...
pub fn pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect()
}

/// Which entrant plays each seat of a pair's game `j`: sides alternate seat by seat, and the
/// pattern shifts by one each game, so over two games each entrant plays every seat.
pub fn seating(pair: (usize, usize), seats: usize, j: u64) -> Vec<usize> {
    (0..seats)
        .map(|s| match (s as u64 + j) % 2 {
            0 => pair.0,
            _ => pair.1,
        })
        .collect()
}

/// The results a round robin of `n` entrants tallies, as `wins` counts them, named for
/// reports: `1-2 first won`, `1-2 drawn`, `1-2 second won` (entrants numbered from 1).
pub fn result_names(n: usize) -> Vec<String> {
    pairs(n)
        .iter()
        .flat_map(|(a, b)| {
            ["first won", "drawn", "second won"].map(|r| format!("{}-{} {r}", a + 1, b + 1))
        })
        .collect()
}

/// A game's result for its pair, as the tally counts it (none for a failed game).
fn pair_result(p: usize, seated: &[usize], pair: (usize, usize), o: &Outcome) -> Vec<usize> {
    if o.error.is_some() {
        return vec![];
    }
    let won = |e| o.winners.iter().any(|&w| seated.get(w) == Some(&e));
    vec![match (won(pair.0), won(pair.1)) {
        (true, false) => 3 * p,
        (false, true) => 3 * p + 2,
        _ => 3 * p + 1,
    }]
}

impl Batch {
    /// Games `games` of a round robin between `entrants` (at least two, each a known bot
    /// with known settings), as the module says; returns the tally of results and the
    /// threads that played.
    pub fn arena(
        &self,
        games: Range<u64>,
        entrants: &[BotSpec],
        progress: Progress,
    ) -> Result<(Tally, usize), TableError> {
        if entrants.len() < 2 {
            return Err(TableError::Bot(format!(
                "an arena needs at least two bots, not {}",
                entrants.len()
            )));
        }
        for spec in entrants {
            crate::bots::check(spec).map_err(TableError::Bot)?;
        }
        let seats = self.seating()?.seats.len();
        let pairs = pairs(entrants.len());
        let pair_of = |i: u64| ((i % pairs.len() as u64) as usize, i / pairs.len() as u64);
        let lineup = |i: u64| {
            let (p, j) = pair_of(i);
            let seated = seating(pairs[p], seats, j);
            seated.iter().map(|&e| entrants[e].clone()).collect()
        };
        let score = |i: u64, mut o: Outcome| {
            let (p, j) = pair_of(i);
            o.winners = pair_result(p, &seating(pairs[p], seats, j), pairs[p], &o);
            o
        };
        let empty = Tally::new(3 * pairs.len(), vec![]);
        self.bot_games(games, &empty, &lineup, &score, progress)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entrant_plays_every_seat_as_often() {
        assert_eq!(pairs(3), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(seating((0, 2), 2, 0), [0, 2]);
        assert_eq!(seating((0, 2), 2, 1), [2, 0]);
        assert_eq!(seating((1, 2), 4, 0), [1, 2, 1, 2]);
        assert_eq!(seating((1, 2), 3, 1), [2, 1, 2]);
    }

    #[test]
    fn results_are_counted_for_the_pair() {
        let o = |winners: Vec<usize>| Outcome {
            winners,
            ..Outcome::default()
        };
        // Pair 1 is entrants (0, 2), seated [2, 0]: seat 1 winning is a win of entrant 0.
        assert_eq!(pair_result(1, &[2, 0], (0, 2), &o(vec![1])), [3]);
        assert_eq!(pair_result(1, &[2, 0], (0, 2), &o(vec![0])), [5]);
        assert_eq!(pair_result(1, &[2, 0], (0, 2), &o(vec![])), [4]);
        assert_eq!(pair_result(1, &[2, 0], (0, 2), &o(vec![0, 1])), [4]);
        let failed = Outcome {
            error: Some("stopped".into()),
            ..o(vec![0])
        };
        assert!(pair_result(1, &[2, 0], (0, 2), &failed).is_empty());
    }

    #[test]
    fn results_are_named_per_pair() {
        assert_eq!(
            result_names(3)[3..6],
            ["1-3 first won", "1-3 drawn", "1-3 second won"]
        );
        assert_eq!(result_names(2).len(), 3);
    }
}
