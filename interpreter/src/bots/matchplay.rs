//! One game played by a bot per seat (`sim --bots`, `arena`): each seat's bot is made afresh
//! for the game, seeded from the game's seed and the seat, and kept for the whole game (tree
//! reuse); it is handed only its seat's view, through `choose_for`.

use super::bot::{self, Bot, BotEnv, BotSpec};
use super::sim::Outcome;
use crate::game::{Game, GameSource, PlayError, Setup};
use crate::primitives::rng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The seed of seat `seat`'s bot in a game seeded with `game_seed` (never the game's RNG).
pub fn bot_seed(game_seed: u64, seat: usize) -> u64 {
    rng::derive_seed(game_seed, seat as u64)
}

/// Makes the bots of a game: `specs[s]` plays seat `s`.
pub fn make_bots(
    specs: &[BotSpec],
    game_seed: u64,
    source: Option<&Arc<GameSource>>,
    stop: &Arc<AtomicBool>,
) -> Result<Vec<Box<dyn Bot>>, String> {
    specs
        .iter()
        .enumerate()
        .map(|(seat, spec)| {
            let env = BotEnv {
                source: source.cloned(),
                seed: bot_seed(game_seed, seat),
                stop: stop.clone(),
            };
            bot::make(spec, &env)
        })
        .collect()
}

/// Plays one game from `setup`, seat `s` by `specs[s]`, at most `max_actions` actions. In a
/// simultaneous step the deciding seats choose in turn (each chosen action is held, so no
/// seat sees another's). Searches run to their budget: `stop` is not set during a run, so a
/// game is never played half by a cut search.
pub fn play(
    game: &Game,
    setup: &Setup,
    specs: &[BotSpec],
    source: Option<&Arc<GameSource>>,
    max_actions: usize,
) -> Outcome {
    let mut length = 0;
    let run = |length: &mut usize| -> Result<_, String> {
        let mut state = game.start(setup).map_err(|e| e.to_string())?;
        let never = Arc::new(AtomicBool::new(false));
        let mut bots = make_bots(specs, setup.seed, source, &never)?;
        if bots.len() != state.seats.len() {
            return Err(format!(
                "{} bot(s) for {} seat(s)",
                bots.len(),
                state.seats.len()
            ));
        }
        loop {
            let decisions = game.decisions(&state).map_err(|e| e.to_string())?;
            let Some(&(seat, _)) = decisions.seats.first() else {
                break;
            };
            if *length == max_actions {
                return Err(PlayError::NoEnd(max_actions).to_string());
            }
            let i = bot::choose_for(bots[seat].as_mut(), game, &state, &decisions, seat)
                .map_err(|e| format!("{}'s bot: {e}", state.seat_name(seat)))?;
            game.play_listed_in_place(&mut state, &decisions, seat, i)
                .map_err(|e| e.to_string())?;
            *length += 1;
        }
        let tallies = state
            .tallies
            .iter()
            .map(|(k, &n)| (k.to_string(), n))
            .collect();
        let result = game.outcome(&state).map_err(|e| e.to_string())?;
        Ok((result, tallies))
    };
    match run(&mut length) {
        Ok((result, tallies)) => Outcome {
            seed: setup.seed,
            winners: result.winners,
            reason: result.reason,
            length,
            tallies,
            ..Outcome::default()
        },
        Err(error) => Outcome {
            seed: setup.seed,
            length,
            at_limit: error == PlayError::NoEnd(max_actions).to_string(),
            error: Some(error),
            ..Outcome::default()
        },
    }
}
