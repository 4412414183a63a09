//! Bots that play through the decision protocol only (they see what any caller sees), and
//! `sim`, which runs many bot games on every core.

mod guard;
pub mod random;
pub mod sim;

pub use guard::catch as catch_panic;
