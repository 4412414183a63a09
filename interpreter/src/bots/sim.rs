//! Many random-bot games on several threads, tallied as they finish. Game `i` is seeded from
//! the base seed and `i` alone, and the tally is a sum (plus the failed games of lowest index),
//! so the report is the same for any thread count and its memory does not grow with the games.

use super::{guard, random};
use crate::game::{Action, Game, PlayError, Setup};
use crate::primitives::rng;
use crate::script::SCRIPT_STACK_SIZE;
use crate::state::{Outcome as GameResult, State};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// How many failed games a tally keeps in full (the ones of lowest index); the rest are counted.
pub const FAILURES_KEPT: usize = 5;

/// The most distinct endings a tally keeps apart; games with other endings are counted
/// together (a script could give every game its own reason, and a tally must stay small).
pub const ENDINGS_KEPT: usize = 16;

/// The most distinct tallies (`g.tally`) a sum keeps apart, for the same reason; the others
/// are summed together.
pub const TALLIES_KEPT: usize = 64;

/// The outcome of one simulated game.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Outcome {
    pub seed: u64,
    pub winners: Vec<usize>,
    /// Why the game ended, as `g.end_game` gave it; "" when it ended by nobody being able to
    /// act (or did not end).
    pub reason: String,
    pub length: usize,
    pub error: Option<String>,
    /// Stopped at the action limit, not ended (`error` says so too).
    pub at_limit: bool,
    /// The game's tallies (`g.tally`) when it stopped, by name.
    pub tallies: Vec<(String, i64)>,
}

impl Outcome {
    /// How the game ended, as `sim` tallies it: `win` or `no winner`, then the reason when
    /// the rules gave one (`no winner: 8 stars destroyed`), written as `status` writes it
    /// (quotes as they are) but on one line.
    pub fn ending(&self) -> String {
        let how = if self.winners.is_empty() {
            "no winner"
        } else {
            "win"
        };
        if self.reason.is_empty() {
            how.to_string()
        } else {
            format!("{how}: {}", crate::text::short_line(&self.reason))
        }
    }
}

/// A failed game: its index in the simulation and its outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub index: u64,
    pub outcome: Outcome,
}

/// Sums over finished games; adding games in any order gives the same tally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Seat indices by team, as the game's setup groups them (empty: no teams).
    pub teams: Vec<Vec<usize>>,
    pub games: u64,
    /// Games won, per seat (several seats may win one game).
    pub wins: Vec<u64>,
    /// Games won, per team (a team wins when any of its seats is among the winners).
    pub team_wins: Vec<u64>,
    /// Games that ended without error and without a winner.
    pub no_winner: u64,
    /// Games that ended without error, by ending (`Outcome::ending`), in name order; at most
    /// `ENDINGS_KEPT`: those that sort first, the others counted in `other_endings`.
    pub endings: Vec<(String, u64)>,
    pub other_endings: u64,
    /// The games' tallies (`g.tally`) summed by name, failed games' included, in name order;
    /// at most `TALLIES_KEPT`: those that sort first, the others summed in `other_tallies`.
    pub tallies: Vec<(String, i64)>,
    pub other_tallies: i64,
    pub failed: u64,
    /// Failed games stopped at the action limit.
    pub at_limit: u64,
    /// Actions played, summed over every game (failed ones up to their failure).
    pub total_length: u128,
    pub max_length: usize,
    /// The failed games of lowest index, at most `FAILURES_KEPT`, in index order.
    pub failures: Vec<Failure>,
}

impl Tally {
    pub fn new(seats: usize, teams: Vec<Vec<usize>>) -> Tally {
        Tally {
            team_wins: vec![0; teams.len()],
            teams,
            games: 0,
            wins: vec![0; seats],
            no_winner: 0,
            endings: vec![],
            other_endings: 0,
            tallies: vec![],
            other_tallies: 0,
            failed: 0,
            at_limit: 0,
            total_length: 0,
            max_length: 0,
            failures: vec![],
        }
    }

    pub fn add(&mut self, index: u64, outcome: Outcome) {
        self.games += 1;
        self.total_length += outcome.length as u128;
        self.max_length = self.max_length.max(outcome.length);
        self.count_tallies(outcome.tallies.iter().cloned());
        if outcome.error.is_some() {
            self.failed += 1;
            self.at_limit += outcome.at_limit as u64;
            self.keep_failures(std::iter::once(Failure { index, outcome }));
            return;
        }
        if outcome.winners.is_empty() {
            self.no_winner += 1;
        }
        self.count_endings(std::iter::once((outcome.ending(), 1)));
        for &s in &outcome.winners {
            if let Some(w) = self.wins.get_mut(s) {
                *w += 1;
            }
        }
        for (team, wins) in self.teams.iter().zip(&mut self.team_wins) {
            if outcome.winners.iter().any(|w| team.contains(w)) {
                *wins += 1;
            }
        }
    }

    /// Adds another tally of the same game and setup (another thread's games).
    pub fn merge(&mut self, other: Tally) {
        self.games += other.games;
        for (w, o) in self.wins.iter_mut().zip(other.wins) {
            *w += o;
        }
        for (w, o) in self.team_wins.iter_mut().zip(other.team_wins) {
            *w += o;
        }
        self.no_winner += other.no_winner;
        self.other_endings += other.other_endings;
        self.count_endings(other.endings);
        self.other_tallies = self.other_tallies.saturating_add(other.other_tallies);
        self.count_tallies(other.tallies);
        self.failed += other.failed;
        self.at_limit += other.at_limit;
        self.total_length += other.total_length;
        self.max_length = self.max_length.max(other.max_length);
        self.keep_failures(other.failures);
    }

    /// Adds games by ending, keeping the `ENDINGS_KEPT` endings that sort first. An ending
    /// among the first of all games is among the first of every part, so it is never folded
    /// into `other_endings`: the tally does not depend on the order games are added in.
    fn count_endings(&mut self, more: impl IntoIterator<Item = (String, u64)>) {
        for (ending, n) in more {
            match self.endings.binary_search_by(|(e, _)| e.cmp(&ending)) {
                Ok(i) => self.endings[i].1 += n,
                Err(i) => self.endings.insert(i, (ending, n)),
            }
        }
        if self.endings.len() > ENDINGS_KEPT {
            for (_, n) in self.endings.drain(ENDINGS_KEPT..) {
                self.other_endings += n;
            }
        }
    }

    /// Adds tallies by name, keeping the `TALLIES_KEPT` names that sort first (as
    /// `count_endings` does, so the sum does not depend on the order games are added in).
    fn count_tallies(&mut self, more: impl IntoIterator<Item = (String, i64)>) {
        for (name, n) in more {
            match self.tallies.binary_search_by(|(t, _)| t.cmp(&name)) {
                Ok(i) => self.tallies[i].1 = self.tallies[i].1.saturating_add(n),
                Err(i) => self.tallies.insert(i, (name, n)),
            }
        }
        if self.tallies.len() > TALLIES_KEPT {
            for (_, n) in self.tallies.drain(TALLIES_KEPT..) {
                self.other_tallies = self.other_tallies.saturating_add(n);
            }
        }
    }

    /// A tally's mean per game played.
    pub fn mean_per_game(&self, n: i64) -> f64 {
        n as f64 / self.games.max(1) as f64
    }

    fn keep_failures(&mut self, more: impl IntoIterator<Item = Failure>) {
        self.failures.extend(more);
        self.failures.sort_by_key(|f| f.index);
        self.failures.truncate(FAILURES_KEPT);
    }

    pub fn mean_length(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        self.total_length as f64 / self.games as f64
    }
}

#[derive(Debug, Clone)]
pub struct Report {
    pub seats: Vec<String>,
    pub tally: Tally,
    /// Worker threads that played.
    pub threads: usize,
    pub seconds: f64,
}

impl Report {
    pub fn games_per_second(&self) -> f64 {
        self.tally.games as f64 / self.seconds.max(1e-9)
    }
}

/// The seed of game `i` of a simulation seeded with `base`.
pub fn game_seed(base: u64, i: u64) -> u64 {
    rng::derive_seed(base, i)
}

/// Plays one random game from `setup` with at most `max_actions` actions.
pub fn play_one(game: &Game, setup: &Setup, max_actions: usize) -> Outcome {
    play_observed(game, setup, max_actions, |_, _| {})
}

/// `play_one`, calling `observe` with the state after setup (no action) and after each action.
pub fn play_observed(
    game: &Game,
    setup: &Setup,
    max_actions: usize,
    mut observe: impl FnMut(&State, Option<(usize, &Action)>),
) -> Outcome {
    let mut length = 0;
    let mut tallies = vec![];
    let mut run = || -> Result<GameResult, PlayError> {
        let mut state = game.start(setup)?;
        observe(&state, None);
        let mut bot_rng = rng::seeded(setup.seed ^ 0xB07);
        let played =
            random::playout_observed(game, &mut state, &mut bot_rng, max_actions, |s, seat, a| {
                length += 1;
                observe(s, Some((seat, a)));
            });
        // What the game counted up to its end or its failure.
        tallies = state
            .tallies
            .iter()
            .map(|(k, &n)| (k.to_string(), n))
            .collect();
        played?;
        game.outcome(&state)
    };
    let (result, error) = match run() {
        Ok(result) => (result, None),
        Err(e) => (GameResult::default(), Some(e)),
    };
    Outcome {
        seed: setup.seed,
        winners: result.winners,
        reason: result.reason,
        length,
        at_limit: matches!(error, Some(PlayError::NoEnd(_))),
        error: error.map(|e| e.to_string()),
        tallies,
    }
}

/// Runs `f` on a fresh thread with the stack scripts need (`SCRIPT_STACK_SIZE`): deep script
/// recursion and deeply nested values behave the same here as in `play`. A panic in `f` is an
/// `Err` naming it.
pub fn on_script_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T, String> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .stack_size(SCRIPT_STACK_SIZE)
            .spawn_scoped(scope, || guard::catch(f))
            .map_err(|e| format!("cannot start a thread for scripts: {e}"))?;
        match handle.join() {
            Ok(result) => result.map_err(|panic| format!("internal error: {panic}")),
            Err(panic) => Err(format!("internal error: {}", guard::panic_text(&*panic))),
        }
    })
}

/// Plays games `games` (game `i` seeded from `setup.seed` and `i`). `load` builds a `Game`
/// for each thread (Rhai engines are per thread); `progress` is called after each finished
/// game with the count so far, and returns false to stop: the games being played finish, no
/// other starts, so the games played are always the first ones of the range. A game that
/// panics the engine is a failed game like any other: the others finish.
pub fn simulate(
    load: &(dyn Fn() -> Result<Game, String> + Sync),
    setup: &Setup,
    games: Range<u64>,
    threads: usize,
    max_actions: usize,
    progress: &(dyn Fn(u64) -> bool + Sync),
) -> Result<Report, String> {
    let (seats, teams) = on_script_stack(|| {
        let g = load()?;
        let first = g.start(setup).map_err(|e| e.to_string())?;
        Ok::<_, String>((first.seats.to_vec(), first.teams))
    })??;
    let started = Instant::now();
    let empty = Tally::new(seats.len(), teams);
    let play = |game: &Game, _: u64, seed: u64| {
        let s = Setup {
            seed,
            ..setup.clone()
        };
        play_one(game, &s, max_actions)
    };
    let (tally, threads) = tally_games(games, setup.seed, threads, &empty, load, &play, progress)?;
    Ok(Report {
        seats,
        tally,
        threads,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The worker pool behind `simulate`, over any per-thread context `C`: `make` builds one per
/// thread (and again after a panic, which may leave it half-way through a call), `play` plays
/// game `i` of `games` with it, given `i` and the game's seed (`game_seed(base_seed, i)`); `progress`
/// as in `simulate`. Each thread tallies its own games, so no lock is shared and none can be
/// poisoned; the tallies are merged at the end. Returns the tally and the threads that played.
pub fn tally_games<C>(
    games: Range<u64>,
    base_seed: u64,
    threads: usize,
    empty: &Tally,
    make: &(dyn Fn() -> Result<C, String> + Sync),
    play: &(dyn Fn(&C, u64, u64) -> Outcome + Sync),
    progress: &(dyn Fn(u64) -> bool + Sync),
) -> Result<(Tally, usize), String> {
    let next = AtomicU64::new(games.start);
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let worker = || -> Result<Tally, String> {
        let mut tally = empty.clone();
        let mut context = make().inspect_err(|_| stop.store(true, Ordering::Relaxed))?;
        while !stop.load(Ordering::Relaxed) {
            // A game claimed is played to its end: the games played are a prefix of `games`.
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= games.end {
                break;
            }
            let seed = game_seed(base_seed, i);
            let outcome = match guard::catch(|| play(&context, i, seed)) {
                Ok(outcome) => outcome,
                Err(panic) => {
                    context = make().inspect_err(|_| stop.store(true, Ordering::Relaxed))?;
                    Outcome {
                        seed,
                        error: Some(format!("internal error: {panic}")),
                        ..Outcome::default()
                    }
                }
            };
            tally.add(i, outcome);
            if !progress(done.fetch_add(1, Ordering::Relaxed) + 1) {
                stop.store(true, Ordering::Relaxed);
            }
        }
        Ok(tally)
    };
    let count = games.end.saturating_sub(games.start);
    let threads = threads.clamp(1, usize::try_from(count).unwrap_or(usize::MAX).max(1));
    let results: Vec<Result<Tally, String>> = std::thread::scope(|scope| {
        let mut handles = vec![];
        for _ in 0..threads {
            let spawned = std::thread::Builder::new()
                .stack_size(SCRIPT_STACK_SIZE)
                .spawn_scoped(scope, worker);
            match spawned {
                Ok(h) => handles.push(h),
                // Fewer threads than asked still play every game (the first one cannot fail
                // without an error below).
                Err(e) if handles.is_empty() => {
                    return vec![Err(format!("cannot start a simulation thread: {e}"))]
                }
                Err(_) => break,
            }
        }
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|panic| {
                    Err(format!("internal error: {}", guard::panic_text(&*panic)))
                })
            })
            .collect()
    });
    let played = results.len();
    let mut tally = empty.clone();
    for r in results {
        tally.merge(r?);
    }
    Ok((tally, played))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Game `i` of a fake simulation: won by seat `i % 3` (2: no winner), failing when `i % 7`
    /// is 3, panicking when it is 5.
    fn fake(_: &(), seed: u64, i: u64) -> Outcome {
        match i % 7 {
            3 => Outcome {
                seed,
                length: 2,
                error: Some("script error".into()),
                ..Outcome::default()
            },
            5 => panic!("engine bug in game {i}"),
            _ => Outcome {
                seed,
                winners: if i % 3 == 2 {
                    vec![]
                } else {
                    vec![(i % 3) as usize]
                },
                length: i as usize,
                ..Outcome::default()
            },
        }
    }

    fn run(games: u64, threads: usize) -> (Tally, usize) {
        let empty = Tally::new(2, vec![vec![0], vec![1]]);
        let play = |c: &(), i: u64, seed: u64| {
            assert_eq!(seed, game_seed(9, i));
            fake(c, seed, i)
        };
        tally_games(0..games, 9, threads, &empty, &|| Ok(()), &play, &|_| true).unwrap()
    }

    /// Issue 9 items 3, 4 and 20: a panicking game is one failed game with its seed, the others
    /// are all tallied, and the tally is the same on any number of threads.
    #[test]
    fn i9_panics_are_failed_games_and_tallies_ignore_threads() {
        let (one, threads) = run(40, 1);
        assert_eq!(threads, 1);
        assert_eq!(one.games, 40);
        // Failures: i % 7 in {3, 5} for i < 40: 3, 5, 10, 12, 17, 19, 24, 26, 31, 33, 38.
        assert_eq!(one.failed, 11);
        let kept: Vec<u64> = one.failures.iter().map(|f| f.index).collect();
        assert_eq!(kept, [3, 5, 10, 12, 17]);
        let panicked = &one.failures[1].outcome;
        assert_eq!(panicked.seed, game_seed(9, 5));
        let error = panicked.error.as_deref().unwrap();
        assert!(
            error.starts_with("internal error: engine bug in game 5 at "),
            "{error}"
        );
        assert!(error.contains("sim.rs"), "{error}");
        assert_eq!(one.wins[0] + one.wins[1] + one.no_winner + one.failed, 40);
        assert_eq!(one.team_wins, one.wins);
        for threads in [2, 3, 8] {
            let (many, used) = run(40, threads);
            assert_eq!(used, threads);
            assert_eq!(many, one, "{threads} threads");
        }
    }

    /// Issue 9 item 19: never more threads than games.
    #[test]
    fn i9_threads_never_outnumber_games() {
        assert_eq!(run(2, 16).1, 2);
    }

    /// Issue 10 item 17: games are tallied by how they ended (a win or none, with the reason
    /// the rules gave); a tally keeps at most `ENDINGS_KEPT` endings apart whatever the
    /// scripts say, and is the same whatever order games are added in.
    #[test]
    fn i10_endings_are_tallied_by_reason_in_bounded_memory() {
        let outcome = |i: u64| Outcome {
            seed: i,
            winners: if i.is_multiple_of(2) { vec![0] } else { vec![] },
            reason: format!("r{:02}", i % 40),
            ..Outcome::default()
        };
        let mut forward = Tally::new(2, vec![]);
        for i in 0..200 {
            forward.add(i, outcome(i));
        }
        let (mut odd, mut even) = (Tally::new(2, vec![]), Tally::new(2, vec![]));
        for i in (0..200).rev() {
            if i % 2 == 1 { &mut odd } else { &mut even }.add(i, outcome(i));
        }
        even.merge(odd);
        assert_eq!(even, forward);
        assert_eq!(forward.endings.len(), ENDINGS_KEPT);
        assert_eq!(forward.endings[0], ("no winner: r01".to_string(), 5));
        assert_eq!(forward.other_endings, 200 - 5 * ENDINGS_KEPT as u64);
        let plain = Outcome {
            winners: vec![1],
            ..Outcome::default()
        };
        assert_eq!(plain.ending(), "win");
        assert_eq!(Outcome::default().ending(), "no winner");
    }

    /// Issue 20 item 7: a run `progress` stops has played the first games of its range, and
    /// a range starting later plays the games a longer run plays there, so a stopped run
    /// resumes where it stopped and the two tallies add up to the whole.
    #[test]
    fn i20_a_stopped_run_played_a_prefix_and_resumes_there() {
        let empty = Tally::new(3, vec![]);
        let play = |_: &(), _: u64, seed: u64| Outcome {
            seed,
            winners: vec![(seed % 3) as usize],
            length: (seed % 7) as usize,
            ..Outcome::default()
        };
        let run = |games: Range<u64>, threads: usize, stop_after: u64| {
            let progress = |done: u64| done < stop_after;
            tally_games(games, 4, threads, &empty, &|| Ok(()), &play, &progress)
                .unwrap()
                .0
        };
        for threads in [1, 3] {
            let stopped = run(0..1000, threads, 20);
            // Each thread finishes the game it is playing: a few more than 20, never all.
            assert!(
                (20..100).contains(&stopped.games),
                "{threads} threads: {} games",
                stopped.games
            );
            assert_eq!(stopped, run(0..stopped.games, 1, u64::MAX));
            let mut resumed = stopped.clone();
            resumed.merge(run(stopped.games..60, threads, u64::MAX));
            assert_eq!(resumed, run(0..60, 2, u64::MAX), "{threads} threads");
        }
    }

    /// Issue 21: an end reason is tallied as `status` writes it, quotes as they are; only
    /// what would break the line is escaped.
    #[test]
    fn i21_endings_keep_the_reasons_quotes() {
        let outcome = |reason: &str| Outcome {
            winners: vec![0],
            reason: reason.into(),
            ..Outcome::default()
        };
        assert_eq!(
            outcome(r#"the Princess's "heart""#).ending(),
            r#"win: the Princess's "heart""#
        );
        assert_eq!(outcome("two\nlines").ending(), "win: two\\nlines");
    }

    #[test]
    fn mean_length_of_no_games_is_zero() {
        assert_eq!(Tally::new(2, vec![]).mean_length(), 0.0);
    }
}
