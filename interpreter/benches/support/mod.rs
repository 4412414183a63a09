//! What the benches share: loading a shipped game and reaching a position in its middle.

use boardscript_interpreter::bots::random;
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::{Game, Setup, State};
use std::path::Path;

/// A game of `scripts/`, by id.
pub fn load(id: &str) -> Game {
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    Game::find(&scripts, id).unwrap_or_else(|e| panic!("{id} loads: {e}"))
}

/// The state after up to `actions` random actions from `setup` (the bot seeded as the game).
pub fn mid_game(game: &Game, setup: &Setup, actions: usize) -> State {
    let mut state = game.start(setup).expect("the game starts");
    let mut bot = rng::seeded(setup.seed);
    for _ in 0..actions {
        if random::step(game, &mut state, &mut bot)
            .expect("step")
            .is_none()
        {
            break;
        }
    }
    state
}
