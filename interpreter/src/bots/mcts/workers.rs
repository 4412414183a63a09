//! Root parallelism: persistent worker threads, each with its own compiled game (Rhai engines
//! are per thread) and its own tree and seed, searching the same decision; their root
//! statistics are summed in worker order, so a given seed and thread count give one result.

use super::search::{Budget, RootStats, Searcher};
use super::Settings;
use crate::bots::{catch_panic, BotError, SeatView};
use crate::game::{Action, GameSource};
use crate::primitives::rng;
use crate::script::SCRIPT_STACK_SIZE;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

/// One decision to search. Actions travel as text: Rhai's strings stay on their thread.
struct Job {
    view: SeatView,
    legal: Vec<String>,
    budget: Budget,
    /// Drop the tree first (the game changed other than by play).
    fresh: bool,
}

struct Worker {
    jobs: Option<Sender<Job>>,
    results: Receiver<Result<RootStats, BotError>>,
    handle: Option<JoinHandle<()>>,
}

pub struct Pool {
    workers: Vec<Worker>,
}

impl Pool {
    /// Starts `threads` workers; worker `i` searches with seed `derive_seed(seed, i)`.
    pub fn start(
        source: &Arc<GameSource>,
        threads: usize,
        seed: u64,
        settings: &Settings,
        stop: &Arc<AtomicBool>,
    ) -> Result<Pool, BotError> {
        let mut workers = Vec::with_capacity(threads);
        for i in 0..threads {
            let (jobs, inbox) = channel::<Job>();
            let (outbox, results) = channel();
            let source = source.clone();
            let settings = settings.clone();
            let stop = stop.clone();
            let seed = rng::derive_seed(seed, i as u64);
            let handle = std::thread::Builder::new()
                .name(format!("mcts-{i}"))
                .stack_size(SCRIPT_STACK_SIZE)
                .spawn(move || work(&source, seed, &settings, &stop, inbox, outbox))
                .map_err(|e| BotError::Other(format!("cannot start a search thread: {e}")))?;
            workers.push(Worker {
                jobs: Some(jobs),
                results,
                handle: Some(handle),
            });
        }
        Ok(Pool { workers })
    }

    /// Every worker searches the decision, iterations split evenly (the first ones take one
    /// more); the statistics summed in worker order.
    pub fn search(
        &mut self,
        view: &SeatView,
        legal: &[Action],
        budget: Budget,
        fresh: bool,
    ) -> Result<RootStats, BotError> {
        let n = self.workers.len() as u64;
        let text: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
        for (i, w) in self.workers.iter().enumerate() {
            let budget = match budget {
                Budget::Iterations(total) => {
                    Budget::Iterations(total / n + u64::from((i as u64) < total % n))
                }
                until => until,
            };
            let job = Job {
                view: view.clone(),
                legal: text.clone(),
                budget,
                fresh,
            };
            let sent = w.jobs.as_ref().is_some_and(|tx| tx.send(job).is_ok());
            if !sent {
                return Err(BotError::Other("a search thread has stopped".into()));
            }
        }
        // Every worker answers before any error is returned, so none is left mid-job.
        let answers: Vec<_> = self
            .workers
            .iter()
            .map(|w| {
                w.results
                    .recv()
                    .unwrap_or_else(|_| Err(BotError::Other("a search thread has stopped".into())))
            })
            .collect();
        let mut total = RootStats::default();
        for a in answers {
            total.add(&a?);
        }
        Ok(total)
    }
}

impl Drop for Pool {
    /// Closing the job channels ends the workers' loops; then they are joined.
    fn drop(&mut self) {
        for w in &mut self.workers {
            w.jobs = None;
        }
        for w in &mut self.workers {
            if let Some(h) = w.handle.take() {
                let _ = h.join();
            }
        }
    }
}

/// A worker's life: compile the game once, then search each job until the channel closes.
fn work(
    source: &GameSource,
    seed: u64,
    settings: &Settings,
    stop: &AtomicBool,
    inbox: Receiver<Job>,
    outbox: Sender<Result<RootStats, BotError>>,
) {
    let game = match catch_panic(|| source.compile()) {
        Ok(Ok(game)) => Ok(game),
        Ok(Err(e)) => Err(BotError::Other(format!(
            "compiling the game for a search thread: {e}"
        ))),
        Err(panic) => Err(BotError::Other(format!("internal error: {panic}"))),
    };
    let mut searcher = Searcher::new(seed);
    for job in inbox {
        let game = match &game {
            Ok(game) => game,
            Err(e) => {
                let _ = outbox.send(Err(e.clone()));
                continue;
            }
        };
        if job.fresh {
            searcher.reset();
        }
        let legal: Vec<Action> = job.legal.iter().map(|a| a.as_str().into()).collect();
        let result =
            catch_panic(|| searcher.search(game, &job.view, &legal, settings, job.budget, stop))
                .unwrap_or_else(|panic| {
                    searcher = Searcher::new(seed);
                    Err(BotError::Other(format!("internal error: {panic}")))
                });
        if outbox.send(result).is_err() {
            return;
        }
    }
}
