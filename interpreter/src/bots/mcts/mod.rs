//! The `mcts` bot: Monte Carlo tree search with random playouts, information-set MCTS
//! whenever the seat does not see everything (each iteration searches a state drawn from the
//! seat's view, `sample::determinize`), plain UCT otherwise. Settings: `iters`, `time`,
//! `threads`, `c`, `depth`, `reuse` (see `Settings::from_spec`).
//!
//! With `iters` a search is deterministic for a given seed and thread count; with `time` it
//! runs as many iterations as the clock allows, so it is not.

mod search;
mod tree;
mod workers;

use super::{Analysis, Bot, BotEnv, BotError, BotSpec, MoveStat, SeatView};
use crate::game::{Action, Game, GameSource};
use search::{Budget, RootStats, Searcher};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use workers::Pool;

pub use tree::MAX_NODES;

/// The bot's settings as `mcts:key=value,...` gives them.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Iterations per move (ignored when `time` is set).
    pub iters: u64,
    /// Time per move instead of iterations.
    pub time: Option<Duration>,
    /// Root-parallel worker threads.
    pub threads: usize,
    /// UCB1's exploration constant (rewards are in [0, 1]).
    pub c: f64,
    /// Cut playouts after this many actions and score them with the game's `evaluate`
    /// (only when the game has one).
    pub depth: Option<usize>,
    /// Keep the tree between moves when the seat sees everything.
    pub reuse: bool,
}

/// The most threads one bot may start.
const MAX_THREADS: usize = 256;

impl Settings {
    pub const KEYS: &'static [&'static str] = &["iters", "time", "threads", "c", "depth", "reuse"];

    pub fn from_spec(spec: &BotSpec) -> Result<Settings, String> {
        spec.only(Self::KEYS)?;
        let name = &spec.name;
        let iters: u64 = spec.number("iters", 1000)?;
        if iters == 0 {
            return Err(format!(
                "{name} bot: `iters=0`: it needs at least 1 iteration"
            ));
        }
        if spec.params.contains_key("iters") && spec.params.contains_key("time") {
            return Err(format!("{name} bot: give `iters` or `time`, not both"));
        }
        let time = match spec.params.contains_key("time") {
            true => match spec.number::<u64>("time", 0)? {
                0 => return Err(format!("{name} bot: `time=0`: give at least 1 millisecond")),
                ms => Some(Duration::from_millis(ms)),
            },
            false => None,
        };
        let threads: usize = spec.number("threads", 1)?;
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(format!(
                "{name} bot: `threads={threads}`: from 1 to {MAX_THREADS}"
            ));
        }
        let c: f64 = spec.number("c", std::f64::consts::SQRT_2)?;
        if !c.is_finite() || c < 0.0 {
            return Err(format!("{name} bot: `c={c}`: a number 0 or more"));
        }
        let depth = match spec.params.contains_key("depth") {
            true => match spec.number::<usize>("depth", 0)? {
                0 => return Err(format!("{name} bot: `depth=0`: at least 1 action")),
                d => Some(d),
            },
            false => None,
        };
        let reuse = match spec.params.get("reuse").map(String::as_str) {
            None | Some("true") => true,
            Some("false") => false,
            Some(v) => return Err(format!("{name} bot: `reuse={v}`: true or false")),
        };
        Ok(Settings {
            iters,
            time,
            threads,
            c,
            depth,
            reuse,
        })
    }
}

/// Where the search runs: on the caller's thread, or on a pool started on first use.
enum Engine {
    Here(Box<Searcher>),
    Pool {
        source: Arc<GameSource>,
        pool: Option<Pool>,
    },
}

pub struct MctsBot {
    settings: Settings,
    seed: u64,
    stop: Arc<AtomicBool>,
    engine: Engine,
    /// The pool's trees are to be dropped before the next search (`reset`).
    fresh: bool,
}

impl MctsBot {
    pub fn new(spec: &BotSpec, env: &BotEnv) -> Result<MctsBot, String> {
        let settings = Settings::from_spec(spec)?;
        let engine = match (settings.threads, &env.source) {
            (1, _) => Engine::Here(Box::new(Searcher::new(env.seed))),
            (_, Some(source)) => Engine::Pool {
                source: source.clone(),
                pool: None,
            },
            (n, None) => {
                return Err(format!(
                    "{} bot: `threads={n}` needs the game's sources to compile one game per \
                     thread, which this caller does not give; use threads=1",
                    spec.name
                ))
            }
        };
        Ok(MctsBot {
            settings,
            seed: env.seed,
            stop: env.stop.clone(),
            engine,
            fresh: false,
        })
    }

    fn search(
        &mut self,
        game: &Game,
        view: &SeatView,
        legal: &[Action],
    ) -> Result<RootStats, BotError> {
        let budget = match self.settings.time {
            Some(t) => Budget::Until(Instant::now() + t),
            None => Budget::Iterations(self.settings.iters),
        };
        let stats = match &mut self.engine {
            Engine::Here(searcher) => {
                searcher.search(game, view, legal, &self.settings, budget, &self.stop)?
            }
            Engine::Pool { source, pool } => {
                if pool.is_none() {
                    *pool = Some(Pool::start(
                        source,
                        self.settings.threads,
                        self.seed,
                        &self.settings,
                        &self.stop,
                    )?);
                }
                let fresh = std::mem::take(&mut self.fresh);
                let pool = pool.as_mut().expect("started above");
                pool.search(view, legal, budget, fresh)?
            }
        };
        if stats.iterations == 0 {
            return Err(BotError::Stopped);
        }
        Ok(stats)
    }
}

/// The moves best first: most visits, then the best mean value, then the first listed.
fn ranked(stats: &RootStats, legal: &[Action]) -> Vec<(usize, MoveStat)> {
    let mut moves: Vec<(usize, MoveStat)> = stats
        .moves
        .iter()
        .enumerate()
        .map(|(j, &(visits, total))| {
            let value = if visits == 0 {
                0.0
            } else {
                total / visits as f64
            };
            let action = legal[j].clone();
            (
                j,
                MoveStat {
                    action,
                    visits,
                    value,
                },
            )
        })
        .collect();
    moves.sort_by(|(i, a), (j, b)| {
        b.visits
            .cmp(&a.visits)
            .then(b.value.total_cmp(&a.value))
            .then(i.cmp(j))
    });
    moves
}

impl Bot for MctsBot {
    fn choose(
        &mut self,
        game: &Game,
        view: &SeatView,
        legal: &[Action],
    ) -> Result<usize, BotError> {
        if legal.len() == 1 {
            return Ok(0);
        }
        let stats = self.search(game, view, legal)?;
        Ok(ranked(&stats, legal)[0].0)
    }

    fn analyse(
        &mut self,
        game: &Game,
        view: &SeatView,
        legal: &[Action],
    ) -> Result<Analysis, BotError> {
        let stats = self.search(game, view, legal)?;
        Ok(Analysis {
            moves: ranked(&stats, legal).into_iter().map(|(_, m)| m).collect(),
            iterations: stats.iterations,
        })
    }

    fn reset(&mut self) {
        match &mut self.engine {
            Engine::Here(searcher) => searcher.reset(),
            Engine::Pool { .. } => self.fresh = true,
        }
    }
}
