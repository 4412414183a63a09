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

    /// The view's state as JSON (what the protocol's `view` field holds). The view's RNG is
    /// a placeholder, not the game's; it is left out so that no reader takes it for one.
    pub fn state_json(&self) -> serde_json::Value {
        let mut json = self.state.to_json();
        if let Some(fields) = json.as_object_mut() {
            fields.remove("rng");
        }
        json
    }

    /// The whole view as JSON: zones, cards as the seat sees them, grids, graphs, bags,
    /// counters, the log (the shape of `docs/protocol.md`'s `view`).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "seat": self.seat, "state": self.state_json() })
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
    /// The teams with a winner (indices into [`Status::teams`]).
    pub winning_teams: Vec<usize>,
}

/// A bot's reading of a decision (`Table::hint`): the moves it weighed, best first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hint {
    pub moves: Vec<HintMove>,
    /// Search iterations run (0 for a bot that does not search).
    pub iterations: u64,
}

/// One move of a [`Hint`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HintMove {
    pub action: String,
    /// How often the search tried it.
    pub visits: u64,
    /// Its mean value for the seat, from 0 (a loss) to 1 (a win).
    pub value: f64,
}

/// The public facts of the moment, as any seat or spectator may know them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    /// The seats deciding now, in the game's order (empty once it is over).
    pub deciding: Vec<Seat>,
    /// What the open question asks, when the rules asked one and gave a common prompt.
    pub question: Option<String>,
    /// Seats sitting out for a round.
    pub out: Vec<Seat>,
    /// The teams, each a list of seats (empty: no teams).
    pub teams: Vec<Vec<Seat>>,
    /// Actions played so far.
    pub actions: usize,
    /// How it ended, once over.
    pub outcome: Option<Outcome>,
}
