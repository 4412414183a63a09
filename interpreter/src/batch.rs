//! Many games at once, for tools and for scaling out: games played at random or by a bot per
//! seat on several threads and tallied (`sim`, `arena`), and random playouts recorded,
//! replayed and checked for leaks (`check`).
//!
//! A [`Batch`] plays on the engine's own path, the one its bots search with: no typed
//! options, no undo checkpoints, nothing a seat is shown. It hands back only tallies and
//! outcomes, never a state. Every thread compiles the one [`GameSource`], so all of them run
//! the same rules, and runs scripts on the stack they need. Game `i` of a batch is seeded
//! from the setup's seed and `i` alone, so a tally is the same on any number of threads and a
//! batch split in ranges adds up to the whole.
//!
//! ```
//! use boardscript_interpreter::batch::Batch;
//! use boardscript_interpreter::{GameSource, Setup};
//! use std::sync::Arc;
//! # let scripts = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-games"));
//!
//! let source = Arc::new(GameSource::find(scripts, "nim")?);
//! let batch = Batch::new(source, Setup { seed: 1, ..Setup::default() }).threads(2);
//! let report = batch.random(0..20, &|_| true)?;
//! assert_eq!(report.tally.games, 20);
//! assert_eq!(report.tally.wins.iter().sum::<u64>(), 20); // someone takes the last stone
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod arena;
mod check;

pub use crate::bots::sim::{Failure, Outcome as GameOutcome, Report, Tally};
pub use check::{Checked, Problem};

use crate::bots::{catch_panic, matchplay, sim, BotSpec};
use crate::game::{Game, GameSource, Setup};
use crate::table::TableError;
use std::ops::Range;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// The most actions a game of a batch takes before it counts as not ending, unless set.
pub const MAX_ACTIONS: usize = 100_000;

/// Called after each finished game with the number finished so far; false stops the batch
/// (the games being played finish, no other starts, so the games played are always the first
/// ones of the range).
pub type Progress<'a> = &'a (dyn Fn(u64) -> bool + Sync);

/// Games of one game source and setup (its seed is the batch's base seed).
#[derive(Clone)]
pub struct Batch {
    source: Arc<GameSource>,
    setup: Setup,
    threads: usize,
    max_actions: usize,
    /// The seating, found once (it compiles the rules).
    seating: OnceLock<Result<Seating, TableError>>,
}

/// Who plays a game as set up: its seats' names, its teams and the options it is played
/// with, defaults included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seating {
    pub seats: Vec<String>,
    pub teams: Vec<Vec<usize>>,
    /// Each option's name and value, as `status` writes them.
    pub options: Vec<(String, String)>,
}

impl Batch {
    /// Games of `source` set up as `setup`, on one thread, each stopped after
    /// [`MAX_ACTIONS`] actions.
    pub fn new(source: Arc<GameSource>, setup: Setup) -> Batch {
        Batch {
            source,
            setup,
            threads: 1,
            max_actions: MAX_ACTIONS,
            seating: OnceLock::new(),
        }
    }

    /// Plays on `threads` threads (at least one; never more than the games).
    pub fn threads(mut self, threads: usize) -> Batch {
        self.threads = threads.max(1);
        self
    }

    /// Stops a game after `max_actions` actions: it counts as not ended (and failed).
    pub fn max_actions(mut self, max_actions: usize) -> Batch {
        self.max_actions = max_actions.max(1);
        self
    }

    /// The game's seats, teams and options as set up: compiles the rules and starts a game,
    /// so a game that does not compile or start is refused here, with its script's excerpt.
    pub fn seating(&self) -> Result<Seating, TableError> {
        self.seating.get_or_init(|| self.find_seating()).clone()
    }

    fn find_seating(&self) -> Result<Seating, TableError> {
        let seating = || -> Result<Seating, TableError> {
            let state = self.source.compile()?.start(&self.setup)?;
            Ok(Seating {
                seats: state.seats.to_vec(),
                teams: state.teams.clone(),
                options: state
                    .options
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_string()))
                    .collect(),
            })
        };
        sim::on_script_stack(seating).map_err(TableError::Stopped)?
    }

    /// Games `games` played at random.
    pub fn random(&self, games: Range<u64>, progress: Progress) -> Result<Report, TableError> {
        let seating = self.seating()?;
        let max_actions = self.max_actions;
        self.report(seating, games, progress, &|game, _, seed| {
            sim::play_one(game, &self.with_seed(seed), max_actions)
        })
    }

    /// Games `games` played by a bot per seat, `lineup[s]` playing seat `s`. Each bot is made
    /// afresh for its game, seeded from the game's seed and its seat, and is handed only its
    /// seat's view.
    pub fn bots(
        &self,
        games: Range<u64>,
        lineup: &[BotSpec],
        progress: Progress,
    ) -> Result<Report, TableError> {
        let seating = self.seating()?;
        self.check_lineup(lineup, seating.seats.len())?;
        self.report(seating, games, progress, &|game, _, seed| {
            self.bot_game(game, seed, lineup)
        })
    }

    /// Games `games` played by bots chosen per game, as a round robin plays them: game `i`'s
    /// seats are played by `lineup(i)` and its outcome is tallied as `score(i, outcome)`
    /// (which may count winners by entrant rather than by seat), into `empty`. Returns the
    /// tally and the threads that played.
    pub fn bot_games(
        &self,
        games: Range<u64>,
        empty: &Tally,
        lineup: &(dyn Fn(u64) -> Vec<BotSpec> + Sync),
        score: &(dyn Fn(u64, GameOutcome) -> GameOutcome + Sync),
        progress: Progress,
    ) -> Result<(Tally, usize), TableError> {
        let seats = self.seating()?.seats.len();
        if let Some(first) = games.clone().next() {
            self.check_lineup(&lineup(first), seats)?;
        }
        let play = |game: &Game, i: u64, seed: u64| {
            let outcome = self.bot_game(game, seed, &lineup(i));
            score(i, outcome)
        };
        self.pool(games, empty, &play, progress)
    }

    /// Random playouts `games`, each recorded, replayed from its actions and, with `peek`,
    /// checked for leaks; `each` is told of every playout in order, and returns false to stop.
    /// A playout that panics the engine is reported as failed, and the rules compiled afresh.
    pub fn check(
        &self,
        games: Range<u64>,
        peek: bool,
        each: &mut (dyn FnMut(Checked) -> bool + Send),
    ) -> Result<(), TableError> {
        let run = || -> Result<(), TableError> {
            let mut game = self.source.compile()?;
            for i in games {
                let seed = sim::game_seed(self.setup.seed, i);
                let setup = self.with_seed(seed);
                let played = catch_panic(|| check::playout(&game, &setup, self.max_actions, peek));
                let checked = match played {
                    Ok(checked) => checked,
                    Err(panic) => {
                        // The panic may have left the rules half-way through a call.
                        game = self.source.compile()?;
                        check::panicked(seed, format!("internal error: {panic}"))
                    }
                };
                let checked = Checked {
                    index: i,
                    ..checked.with_excerpt(self.source.sources())
                };
                if !each(checked) {
                    break;
                }
            }
            Ok(())
        };
        sim::on_script_stack(run).map_err(TableError::Stopped)?
    }

    fn with_seed(&self, seed: u64) -> Setup {
        Setup {
            seed,
            ..self.setup.clone()
        }
    }

    fn bot_game(&self, game: &Game, seed: u64, lineup: &[BotSpec]) -> GameOutcome {
        let setup = self.with_seed(seed);
        matchplay::play(game, &setup, lineup, Some(&self.source), self.max_actions)
    }

    /// A lineup of one bot per seat, each a known bot with known settings.
    fn check_lineup(&self, lineup: &[BotSpec], seats: usize) -> Result<(), TableError> {
        if lineup.len() != seats {
            return Err(TableError::Bot(format!(
                "{} bot(s) for {seats} seat(s)",
                lineup.len()
            )));
        }
        for spec in lineup {
            crate::bots::check(spec).map_err(TableError::Bot)?;
        }
        Ok(())
    }

    fn report(
        &self,
        seating: Seating,
        games: Range<u64>,
        progress: Progress,
        play: &(dyn Fn(&Game, u64, u64) -> GameOutcome + Sync),
    ) -> Result<Report, TableError> {
        let started = Instant::now();
        let empty = Tally::new(seating.seats.len(), seating.teams);
        let (tally, threads) = self.pool(games, &empty, play, progress)?;
        Ok(Report {
            seats: seating.seats,
            tally,
            threads,
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    fn pool(
        &self,
        games: Range<u64>,
        empty: &Tally,
        play: &(dyn Fn(&Game, u64, u64) -> GameOutcome + Sync),
        progress: Progress,
    ) -> Result<(Tally, usize), TableError> {
        let load = || self.source.compile().map_err(|e| e.to_string());
        sim::tally_games(
            games,
            self.setup.seed,
            self.threads,
            empty,
            &load,
            play,
            progress,
        )
        .map_err(TableError::Rules)
    }
}
