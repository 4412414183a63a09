//! The `greedy` bot: one ply. Each legal action is tried on a few states drawn from the
//! seat's view, with the questions it raises of the same seat answered at random (an action
//! that asks for a payment or a target is only worth what it does once done), and scored
//! for the seat: its reward if the game ends, else the game's `evaluate`, else a random
//! playout's reward. The best mean wins (ties: the first listed).

use super::reward;
use super::sample;
use super::{Bot, BotEnv, BotError, BotSpec, SeatView};
use crate::game::{Action, Decisions, Game, PlayError};
use crate::primitives::rng::{self, GameRng};
use crate::state::State;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The most answers one action's follow-through plays (a guard: effects ask a few questions).
const MAX_FOLLOW: usize = 16;

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
                let after = follow_through(game, &mut st, seat, &mut self.rng)?;
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

/// Answers at random the questions the action just played left for `seat` alone (the
/// agenda holds the rest of its effect), so that it is scored once it is done; stops when
/// the effect is over or another seat decides. Returns who decides then.
fn follow_through(
    game: &Game,
    st: &mut State,
    seat: usize,
    rng: &mut GameRng,
) -> Result<Decisions, PlayError> {
    let mut decisions = game.decisions(st)?;
    for _ in 0..MAX_FOLLOW {
        let alone = matches!(decisions.seats.as_slice(), [(s, _)] if *s == seat);
        if st.agenda.is_empty() || !alone {
            break;
        }
        let i = rng::below(rng, decisions.seats[0].1.len());
        game.play_listed_in_place(st, &decisions, seat, i)?;
        decisions = game.decisions(st)?;
    }
    Ok(decisions)
}
