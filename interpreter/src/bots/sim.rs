//! Many random-bot games on several threads. Game `i` is seeded from the base seed and `i`
//! alone and results are gathered by index, so the report is the same for any thread count.

use super::random;
use crate::game::{Game, PlayError, Setup};
use crate::primitives::rng;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The outcome of one simulated game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub seed: u64,
    pub winners: Vec<usize>,
    pub length: usize,
    pub error: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Report {
    pub seats: Vec<String>,
    /// Seat indices by team, as the game's setup groups them (empty: no teams).
    pub teams: Vec<Vec<usize>>,
    pub outcomes: Vec<Outcome>,
    pub seconds: f64,
}

impl Report {
    pub fn wins(&self) -> Vec<usize> {
        let mut w = vec![0; self.seats.len()];
        for o in &self.outcomes {
            for &s in &o.winners {
                w[s] += 1;
            }
        }
        w
    }

    /// Games each team won (a team wins when any of its seats is among the winners).
    pub fn team_wins(&self) -> Vec<usize> {
        self.teams
            .iter()
            .map(|team| {
                self.outcomes
                    .iter()
                    .filter(|o| o.winners.iter().any(|w| team.contains(w)))
                    .count()
            })
            .collect()
    }

    pub fn errors(&self) -> impl Iterator<Item = &Outcome> {
        self.outcomes.iter().filter(|o| o.error.is_some())
    }

    pub fn mean_length(&self) -> f64 {
        let n = self.outcomes.len().max(1) as f64;
        self.outcomes.iter().map(|o| o.length as f64).sum::<f64>() / n
    }

    pub fn max_length(&self) -> usize {
        self.outcomes.iter().map(|o| o.length).max().unwrap_or(0)
    }

    pub fn no_winner(&self) -> usize {
        self.outcomes
            .iter()
            .filter(|o| o.winners.is_empty() && o.error.is_none())
            .count()
    }

    pub fn games_per_second(&self) -> f64 {
        self.outcomes.len() as f64 / self.seconds.max(1e-9)
    }
}

/// The seed of game `i` of a simulation seeded with `base`.
pub fn game_seed(base: u64, i: usize) -> u64 {
    rng::derive_seed(base, i as u64)
}

pub fn play_one(game: &Game, setup: &Setup, max_actions: usize) -> Outcome {
    let seed = setup.seed;
    let run = || -> Result<(Vec<usize>, usize), (usize, PlayError)> {
        let mut state = game.start(setup).map_err(|e| (0, e))?;
        let mut bot_rng = rng::seeded(seed ^ 0xB07);
        let mut n = 0;
        loop {
            if random::step(game, &mut state, &mut bot_rng)
                .map_err(|e| (n, e))?
                .is_none()
            {
                break;
            }
            n += 1;
            if n >= max_actions {
                return Err((
                    n,
                    PlayError::Setup(format!("no end after {max_actions} actions")),
                ));
            }
        }
        Ok((game.winners(&state).map_err(|e| (n, e))?, n))
    };
    match run() {
        Ok((winners, length)) => Outcome {
            seed,
            winners,
            length,
            error: None,
        },
        Err((length, e)) => Outcome {
            seed,
            winners: vec![],
            length,
            error: Some(e.to_string()),
        },
    }
}

/// Plays `games` games. `load` builds a `Game` for each thread (Rhai engines are per thread);
/// `progress` is called after each finished game with the count so far.
pub fn simulate(
    load: &(dyn Fn() -> Result<Game, String> + Sync),
    setup: &Setup,
    games: usize,
    threads: usize,
    max_actions: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Report, String> {
    let (seats, teams) = {
        let g = load()?;
        let first = g.start(setup).map_err(|e| e.to_string())?;
        (first.seats.to_vec(), first.teams)
    };
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new(vec![None; games]);
    let started = Instant::now();
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let game = match load() {
                    Ok(g) => g,
                    Err(e) => {
                        *failure.lock().unwrap() = Some(e);
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let s = Setup {
                        seed: game_seed(setup.seed, i),
                        ..setup.clone()
                    };
                    let outcome = play_one(&game, &s, max_actions);
                    results.lock().unwrap()[i] = Some(outcome);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    let outcomes = results
        .into_inner()
        .unwrap()
        .into_iter()
        .flatten()
        .collect();
    Ok(Report {
        seats,
        teams,
        outcomes,
        seconds: started.elapsed().as_secs_f64(),
    })
}
