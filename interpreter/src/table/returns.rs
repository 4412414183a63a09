//! `Table::returns`: each seat's reward for a finished game, as the engine's bots score it.

use super::{Table, TableError};
use crate::bots::reward;

impl Table {
    /// Each seat's reward, by seat index, once the game is over (None while it goes on), as
    /// the engine's searching bots score it: 1 to every winner and every seat of a team with
    /// a winner, 0 to the others; when nobody wins, a share below any win (the game's
    /// `evaluate` of the end, scaled to at most 0.5, else 1/n to each of the n seats).
    /// Public: it says no more than the outcome and the final position. For learners
    /// (reinforcement learning, OpenSpiel's `Returns`) that need a number per seat.
    pub fn returns(&self) -> Result<Option<Vec<f64>>, TableError> {
        self.call(|t| match t.decisions()?.seats.is_empty() {
            true => Ok(Some(reward::of_finished(&t.m.game, &t.m.state)?)),
            false => Ok(None),
        })
    }
}
