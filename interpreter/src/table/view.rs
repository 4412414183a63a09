//! What a table tells a seat: its `View` of the game, its `Decision`, and the `Outcome`.
//! Each is made from the seat's redacted view or from public facts only, so what a
//! seat-facing caller sends on cannot hold another seat's hidden cards, a deck's order or
//! the RNG state.

use super::Seat;
use crate::state::State;
use serde::Serialize;

/// One seat's view of the game (or a spectator's): other seats' hidden cards are blank,
/// hidden decks have no order, secrets the seat was not told are gone, and the RNG is not
/// the game's. Made only by the table, from the game's own view of that seat.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// The seat's name; None for a spectator.
    seat: Option<String>,
    state: State,
}

impl View {
    pub(super) fn of(state: &State, seat: Option<Seat>) -> View {
        View {
            seat: seat.map(|s| state.seat_name(s.0).to_string()),
            state: state.view(seat.map(Seat::index)),
        }
    }

    /// Whose view this is (None: a spectator's).
    pub fn seat(&self) -> Option<&str> {
        self.seat.as_deref()
    }

    /// The game's log as this seat may read it, oldest first.
    pub fn log(&self) -> Vec<&str> {
        self.state.log.iter().map(|e| e.text.as_str()).collect()
    }

    /// A counter (`g.counter(name)`), 0 if never set.
    pub fn counter(&self, name: &str) -> i64 {
        self.state.counters.get(name).copied().unwrap_or(0)
    }

    /// The whole view as JSON: zones, cards as the seat sees them, grids, graphs, bags,
    /// counters, the log (the shape of `docs/protocol.md`'s `view`).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "seat": self.seat, "state": self.state.to_json() })
    }
}

/// What one seat has to decide now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    pub seat: Seat,
    /// The question's prompt, when the rules asked one of this seat (`g.ask`).
    pub prompt: Option<String>,
    /// The seat's legal actions; empty when it is not deciding now.
    pub options: Vec<String>,
    /// The seats deciding now (public: whose turn it is).
    pub deciding: Vec<Seat>,
    /// `options` typed: what each argument names (a cell, a card, a node...), read from this
    /// seat's view.
    pub typed: Vec<crate::typed::ActionInfo>,
}

/// How a finished game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Empty when nobody won.
    pub winners: Vec<Seat>,
    /// Why, in the game's words, when the rules gave a reason.
    pub reason: String,
    /// `x wins (four in a row)`, `nobody wins (...)`.
    pub text: String,
}
