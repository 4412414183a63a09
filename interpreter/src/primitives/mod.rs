//! Generic building blocks of a game state: zones of cards, grids, graphs, bags, supplies, dice
//! and the RNG, turn order, and searches such as making a number from others. None of them knows any game;
//! scripts reach them through `script::bindings`.

pub mod arith;
pub mod bag;
pub mod cellbits;
pub mod graph;
pub mod grid;
pub mod knowledge;
pub mod moves;
pub mod rng;
pub mod supply;
pub mod turn;
pub mod whereabouts;
pub mod zone;
