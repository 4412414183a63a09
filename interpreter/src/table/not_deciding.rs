//! The refusal of a bot's move for a seat that is not deciding: the same `NotDeciding` an
//! action of that seat gets, not a bot's failure.

use super::{Seat, TableError};
use crate::game::Decisions;
use crate::state::State;

/// `NotDeciding` (naming the seats waited for) unless `seat` is among `decisions`.
pub(super) fn check(state: &State, decisions: &Decisions, seat: Seat) -> Result<(), TableError> {
    if decisions.seats.iter().any(|(s, _)| *s == seat.0) {
        return Ok(());
    }
    if decisions.seats.is_empty() {
        return Err(TableError::Over);
    }
    let waiting: Vec<&str> = decisions
        .seats
        .iter()
        .map(|(s, _)| state.seat_name(*s))
        .collect();
    Err(TableError::NotDeciding {
        seat: state.seat_name(seat.0).to_string(),
        waiting: waiting.join(", "),
    })
}
