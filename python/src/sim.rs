//! `boardscript.sim`: many games on several threads through the engine's `Batch`, tallied.

use crate::bot::spec_of;
use crate::errors::{BotError, OrRaise, TableStopped};
use crate::game::{find, options_of, Game};
use boardscript_interpreter::batch::{Batch, Progress, Report};
use boardscript_interpreter::{BotSpec, Setup, TableError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often a running `sim` looks for Ctrl-C.
const SIGNAL_CHECK: Duration = Duration::from_millis(20);

/// Plays games `first..first + games` of `game` (a game's id, read as `load` reads it, or a
/// `Game`, whose rules and setup are used) seeded from `seed`, at random or by `bots` (one
/// per seat), on `threads` threads (default: one per core). Game `i` is seeded from `seed`
/// and `i` alone, so the tally is the same on any number of threads, and the tallies of
/// ranges merged (`merge`) are the tally of their union. Returns the tally as a dict.
#[pyfunction]
#[pyo3(signature = (game, games=100, seed=0, bots=None, threads=None, variant=None, options=None, seats=None, scripts=None, max_actions=None, first=0))]
#[allow(clippy::too_many_arguments)]
pub fn sim<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    games: u64,
    seed: u64,
    bots: Option<&Bound<'py, PyAny>>,
    threads: Option<usize>,
    variant: Option<&str>,
    options: Option<&Bound<'py, PyDict>>,
    seats: Option<usize>,
    scripts: Option<PathBuf>,
    max_actions: Option<usize>,
    first: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let games = first..first.saturating_add(games);
    let batch = batch_of(
        py,
        game,
        seed,
        variant,
        options,
        seats,
        scripts,
        threads,
        max_actions,
    )?;
    let lineup = match bots {
        Some(list) => Some(specs(list)?),
        None => None,
    };
    let report = interruptible(py, |go_on| match &lineup {
        Some(lineup) => batch.bots(games, lineup, go_on),
        None => batch.random(games, go_on),
    })?;
    let bots = lineup.map(|l| l.iter().map(|b| b.to_string()).collect());
    tally(py, &report, seed, bots)
}

/// The batch of `game` (an id or a `Game`, as `sim` takes it) seeded from `seed`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn batch_of(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    seed: u64,
    variant: Option<&str>,
    options: Option<&Bound<'_, PyDict>>,
    seats: Option<usize>,
    scripts: Option<PathBuf>,
    threads: Option<usize>,
    max_actions: Option<usize>,
) -> PyResult<Batch> {
    let (source, setup) = match game.cast::<Game>() {
        Ok(g) => {
            let g = g.get();
            let setup = py.detach(|| g.table.setup()).or_raise()?;
            (g.source.clone(), Setup { seed, ..setup })
        }
        Err(_) => {
            let id: String = game.extract()?;
            let source = Arc::new(find(py, &id, variant, scripts)?);
            let setup = Setup {
                seats,
                seed,
                options: options_of(options)?,
                ..Setup::default()
            };
            (source, setup)
        }
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut batch = Batch::new(source, setup).threads(threads.unwrap_or(cores));
    if let Some(max) = max_actions {
        batch = batch.max_actions(max);
    }
    Ok(batch)
}

/// Bots given as `boardscript.bot(...)`s or their texts, parsed.
pub(crate) fn specs(list: &Bound<'_, PyAny>) -> PyResult<Vec<BotSpec>> {
    list.try_iter()?
        .map(|b| BotSpec::parse(&spec_of(&b?)?).map_err(BotError::new_err))
        .collect()
}

/// Runs `games` (a batch's games, told whether to go on) on a thread of its own while this
/// one, the caller's, checks for Ctrl-C (Python runs signal handlers on the main thread
/// only): a signal stops the batch after the games being played, and its exception is raised.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    games: impl FnOnce(Progress) -> Result<T, TableError> + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let go_on = |_| !stop.load(Ordering::Relaxed);
    let mut signal = None;
    let result = std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel::<()>();
        let go_on = &go_on;
        let games = scope.spawn(move || {
            let _done = done; // dropped when the games end, even by a panic
            games(go_on)
        });
        // In a Mutex only to cross into `detach` (a Receiver is not Sync); one thread locks it.
        let finished = Mutex::new(finished);
        let waiting = || {
            let finished = finished.lock().unwrap_or_else(|p| p.into_inner());
            finished.recv_timeout(SIGNAL_CHECK) == Err(RecvTimeoutError::Timeout)
        };
        while py.detach(waiting) {
            if let Err(e) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                signal.get_or_insert(e);
            }
        }
        games.join()
    })
    .map_err(|_| TableStopped::new_err("the games' thread panicked"))?
    .or_raise()?;
    match signal {
        Some(e) => Err(e),
        None => Ok(result),
    }
}

/// The report as a dict; everything but `threads` and `seconds` depends only on the game,
/// its setup, the seed, the bots and the games played.
pub(crate) fn tally<'py>(
    py: Python<'py>,
    report: &Report,
    seed: u64,
    bots: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyDict>> {
    let t = &report.tally;
    let d = PyDict::new(py);
    d.set_item("seed", seed)?;
    d.set_item("seats", &report.seats)?;
    d.set_item("bots", bots)?;
    d.set_item("games", t.games)?;
    let wins = PyDict::new(py);
    for (seat, n) in report.seats.iter().zip(&t.wins) {
        wins.set_item(seat, n)?;
    }
    d.set_item("wins", wins)?;
    d.set_item("teams", &t.teams)?;
    d.set_item("team_wins", &t.team_wins)?;
    d.set_item("no_winner", t.no_winner)?;
    d.set_item("endings", pairs(py, &t.endings)?)?;
    d.set_item("other_endings", t.other_endings)?;
    d.set_item("tallies", pairs(py, &t.tallies)?)?;
    d.set_item("other_tallies", t.other_tallies)?;
    d.set_item("failed", t.failed)?;
    d.set_item("at_limit", t.at_limit)?;
    d.set_item("total_length", t.total_length)?;
    d.set_item("max_length", t.max_length)?;
    let failures = PyList::empty(py);
    for f in &t.failures {
        let e = PyDict::new(py);
        e.set_item("index", f.index)?;
        e.set_item("seed", f.outcome.seed)?;
        e.set_item("error", &f.outcome.error)?;
        failures.append(e)?;
    }
    d.set_item("failures", failures)?;
    d.set_item("threads", report.threads)?;
    d.set_item("seconds", report.seconds)?;
    Ok(d)
}

fn pairs<'py, N: IntoPyObject<'py> + Copy>(
    py: Python<'py>,
    pairs: &[(String, N)],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, n) in pairs {
        d.set_item(k, *n)?;
    }
    Ok(d)
}
