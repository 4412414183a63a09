//! A seat's options as plain text and playing one by its place in the list: the cheap path
//! for a caller that picks by index (a learner, a search in another language), with no
//! typed reading of the options and no reading of the action back from text.

use super::{Seat, Table, TableError};

impl Table {
    /// `seat`'s legal actions now as text, in order (none if it is not deciding): the
    /// `options` of [`Table::decision`] without the rest of it. More than the game's
    /// `[actions] max` is a fault of its rules (`Rules`).
    pub fn options(&self, seat: Seat) -> Result<Vec<String>, TableError> {
        let seat = self.checked(seat)?;
        self.call(move |t| t.options(seat))
    }

    /// `seat` plays its `index`-th legal action (from 0, in the order of its `options`);
    /// returns the action as the game logged it. An index past the list is `Illegal`.
    pub fn apply_option(&self, seat: Seat, index: usize) -> Result<String, TableError> {
        let seat = self.checked(seat)?;
        self.call_step(move |t| {
            let decisions = t.take_decisions()?;
            Ok(t.m.play_listed(&decisions, seat.0, index)?.action)
        })
    }
}
