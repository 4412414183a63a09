//! Boardscript's engine: a generic state model (seats, zones, grids, graphs, dice, turn
//! order), a sandboxed Rhai host in which each game's rules run, and the decision protocol
//! (who decides, legal actions, apply, winners, views) that the REPL, bots and tests speak.
//!
//! ```no_run
//! use boardscript_interpreter::{Game, Setup};
//! let game = Game::find("scripts".as_ref(), "my-game").unwrap();
//! let mut state = game.start(&Setup { seed: 7, ..Setup::default() }).unwrap();
//! let (seat, legal) = game.decisions(&state).unwrap().seats.remove(0);
//! game.apply(&mut state, seat, &legal[0]).unwrap();
//! println!("{}", game.render(&state, Some(seat)).unwrap());
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
pub mod state;
pub mod text;
pub mod value;

pub use game::{Action, Decisions, Game, GameSource, PlayError, Setup};
pub use log::{Match, SaveFile};
pub use state::State;
