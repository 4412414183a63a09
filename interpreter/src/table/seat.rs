//! `Seat`: a seat of one table, checked when it is made, so no call can name a seat the game
//! does not have.

use serde::Serialize;

/// One of a table's seats, made only by [`crate::Table::seat`] or
/// [`crate::Table::seat_at`] (which refuse a seat the game does not have). The table checks
/// it again at each call, so a seat of another table with more seats is an error too, never
/// a panic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Seat(pub(super) usize);

impl Seat {
    /// Its place in turn order (0 for the first seat).
    pub fn index(self) -> usize {
        self.0
    }
}
