//! Boardscript's engine: a generic state model (seats, zones, grids, graphs, dice, turn
//! order), a sandboxed Rhai host in which each game's rules run, and the decision protocol
//! (who decides, legal actions, apply, winners, views) that the REPL, bots and tests speak.
//!
//! An embedder needs four names: a [`GameSource`] (a game read from its folder, shared by
//! any number of threads), a [`Table`] (one running game on a thread of its own), the
//! table's [`Seat`]s, and what it tells a seat ([`Decision`], [`View`], [`Outcome`],
//! [`TableError`]). A random game of Connect Four:
//!
//! ```
//! use boardscript_interpreter::{GameSource, Setup, Table};
//!
//! let source = GameSource::find("../scripts".as_ref(), "connect-four")?;
//! let table = Table::new(&source, Setup { seed: 7, ..Setup::default() })?;
//! while let Some(&seat) = table.deciding()?.first() {
//!     let options = table.decision(seat)?.options; // that seat's legal actions
//!     assert!(!options.is_empty());
//!     table.play_bot(seat, "random")?; // or table.apply(seat, &options[0])
//! }
//! let outcome = table.outcome()?.expect("the game is over");
//! let winners: Vec<&str> = outcome.winners.iter().map(|&s| table.name(s)).collect::<Result<_, _>>()?;
//! println!("{} ({winners:?})", outcome.text);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod agenda;
pub mod bots;
pub mod game;
pub mod log;
pub mod manifest;
pub mod mentions;
pub(crate) mod notation;
pub mod primitives;
pub mod script;
pub mod shape;
pub mod state;
pub mod table;
pub mod text;
pub mod typed;
pub mod value;

pub use game::{Action, Decisions, Game, GameSource, PlayError, Setup};
pub use log::{Match, SaveFile};
pub use state::State;
pub use table::{Decision, Outcome, Seat, Table, TableError, View};
pub use typed::{ActionInfo, ArgInfo};
