//! Boardscript's engine: a generic state model (seats, zones, grids, graphs, dice, turn
//! order), a sandboxed Rhai host in which each game's rules run, and the decision protocol
//! (who decides, legal actions, apply, winners, views) that the REPL, bots and tests speak.
//!
//! An embedder needs four names: a [`GameSource`] (a game read from its folder, shared by
//! any number of threads), a [`Table`] (one running game on a thread of its own), the
//! table's [`Seat`]s, and what it tells a seat ([`Decision`], [`View`], [`Outcome`],
//! [`TableError`]); for many games at once on several threads, a [`batch::Batch`]. A random
//! game of Nim (README "Writing a game"), from a scripts folder:
//!
//! ```
//! use boardscript_interpreter::{GameSource, Setup, Table};
//! # let scripts = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-games"));
//!
//! let source = GameSource::find(scripts, "nim")?;
//! let table = Table::new(&source, Setup { seed: 7, ..Setup::default() })?;
//! while let Some(&seat) = table.deciding()?.first() {
//!     let options = table.decision(seat)?.options; // that seat's legal actions
//!     assert!(!options.is_empty());
//!     table.play_bot(seat, "random")?; // or table.apply(seat, &options[0])
//! }
//! let outcome = table.outcome()?.expect("the game is over");
//! let winners: Vec<&str> = outcome.winners.iter().map(|&s| table.name(s)).collect::<Result<_, _>>()?;
//! assert_eq!(outcome.text, format!("{} wins (took the last stone)", winners[0]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// The facade: what an embedder uses (see the crate docs and README "Using the engine as a
// library").
pub mod batch;
pub mod table;
pub mod text;

pub use bots::{check as check_bot, BotSpec, BOTS};
pub use game::{GameSource, Setup};
pub use log::{ReloadReport, SaveFile};
pub use manifest::{GameSpec, Listed as ListedGame};
pub use table::{
    Decision, Hint, HintMove, Mark, Outcome, Played, Seat, Status, Table, TableError, View,
};
pub use typed::{ActionInfo, ArgInfo};

// The engine below the facade: public for the workspace's own tests and benchmarks, hidden
// from the docs. Not an API: `tests/tests/facade_only.rs` keeps the binary, the server and
// the Python bindings off it.
#[doc(hidden)]
pub mod agenda;
#[doc(hidden)]
pub mod bots;
#[doc(hidden)]
pub mod game;
#[doc(hidden)]
pub mod log;
#[doc(hidden)]
pub mod manifest;
#[doc(hidden)]
pub mod mentions;
pub(crate) mod notation;
#[doc(hidden)]
pub mod primitives;
#[doc(hidden)]
pub mod script;
#[doc(hidden)]
pub mod shape;
#[doc(hidden)]
pub mod state;
#[doc(hidden)]
pub mod typed;
#[doc(hidden)]
pub mod value;
#[doc(hidden)]
pub use game::{Action, Decisions, Game, PlayError};
#[doc(hidden)]
pub use log::Match;
#[doc(hidden)]
pub use state::State;

/// Seeded random numbers as the engine draws them, for a caller's own random choices (a
/// bot of its own, a random opponent) that must replay alike.
pub mod rng {
    pub use crate::primitives::rng::{below, derive_seed, seeded, GameRng};
}
