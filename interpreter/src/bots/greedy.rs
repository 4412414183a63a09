//! The `greedy` bot: one ply. Each legal action is tried on a few states drawn from the
//! seat's view and scored for the seat: its reward if the game ends, else the game's
//! `evaluate`, else a random playout's reward. The best mean wins (ties: the first listed).

use super::reward;
use super::sample;
use super::{Bot, BotEnv, BotError, BotSpec, SeatView};
use crate::game::{Action, Game};
use crate::primitives::rng::{self, GameRng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub struct GreedyBot {
    /// Determinizations per action; None: 1 for a seat that sees everything, 8 otherwise.
    samples: Option<usize>,
    rng: GameRng,
    stop: Arc<AtomicBool>,
}

impl GreedyBot {
    pub fn new(spec: &BotSpec, env: &BotEnv) -> Result<GreedyBot, String> {
        spec.only(&["samples"])?;
        let samples = match spec.params.contains_key("samples") {
            true => match spec.number::<usize>("samples", 0)? {
                0 => return Err(format!("{} bot: `samples=0`: at least 1", spec.name)),
                n => Some(n),
            },
            false => None,
        };
        Ok(GreedyBot {
            samples,
            rng: rng::seeded(env.seed),
            stop: env.stop.clone(),
        })
    }
}

impl Bot for GreedyBot {
    fn choose(
        &mut self,
        game: &Game,
        view: &SeatView,
        legal: &[Action],
    ) -> Result<usize, BotError> {
        if legal.len() == 1 {
            return Ok(0);
        }
        let seat = view.seat();
        let samples = self
            .samples
            .unwrap_or(if view.sees_everything() { 1 } else { 8 });
        let mut totals = vec![(0.0, 0u32); legal.len()];
        for _ in 0..samples {
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            let base = sample::determinize(game, view, &mut self.rng)?;
            let decisions = game.decisions(&base)?;
            let Some((_, mine)) = decisions.seats.iter().find(|(s, _)| *s == seat) else {
                continue;
            };
            for (j, action) in legal.iter().enumerate() {
                // The same action in the sampled state's list (the lists agree for a view).
                let Some(i) = mine.iter().position(|a| a == action) else {
                    continue;
                };
                let mut st = base.clone();
                game.play_listed_in_place(&mut st, &decisions, seat, i)?;
                let after = game.decisions(&st)?;
                let scores = if after.seats.is_empty() {
                    reward::of_finished(game, &st)?
                } else if let Some(scores) = game.evaluate(&st)? {
                    scores
                } else {
                    reward::playout(game, &mut st, &mut self.rng, None)?
                };
                totals[j].0 += scores[seat];
                totals[j].1 += 1;
            }
        }
        if totals.iter().all(|t| t.1 == 0) {
            return Err(BotError::Stopped);
        }
        let mean = |(total, n): (f64, u32)| {
            if n == 0 {
                f64::NEG_INFINITY
            } else {
                total / n as f64
            }
        };
        let mut best = 0;
        for j in 1..legal.len() {
            if mean(totals[j]) > mean(totals[best]) {
                best = j;
            }
        }
        Ok(best)
    }
}
