//! Bots that play through the decision protocol only (they see what any caller sees), `sim`,
//! which runs many bot games on every core, and `replay`, which checks that a playout replays
//! to the same state.
//!
//! Every bot implements `Bot` and is given a `SeatView` (one seat's view and what it knows of
//! what it cannot see), never a state; `sample` draws whole states consistent with a view
//! for searches that need one; `peek` checks with it that what a seat cannot see never
//! changes what it is shown.

mod bot;
pub mod greedy;
mod guard;
pub mod matchplay;
pub mod mcts;
pub mod peek;
pub mod random;
pub mod replay;
pub mod reward;
pub mod sample;
mod seat_view;
pub mod sim;

pub use bot::{
    analyse_for, check, choose_for, make, Analysis, Bot, BotEnv, BotError, BotSpec, MoveStat,
    RandomBot, BOTS,
};
pub use guard::catch as catch_panic;
pub use seat_view::{SeatView, Unseen};
