//! Bots that play through the decision protocol only (they see what any caller sees), `sim`,
//! which runs many bot games on every core, and `replay`, which checks that a playout replays
//! to the same state.

mod guard;
pub mod random;
pub mod replay;
pub mod sim;

pub use guard::catch as catch_panic;
