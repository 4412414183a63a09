//! `boardscript.arena`: a round robin between bots, the engine's `batch::arena`, tallied per
//! pair of entrants.

use crate::sim::{batch_of, interruptible, specs, tally};
use boardscript_interpreter::batch::arena::{pairs, result_names};
use boardscript_interpreter::batch::Report;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;
use std::time::Instant;

/// A round robin of `game` (an id or a `Game`, as `sim` takes it) between `bots` (at least
/// two): every pair of them plays `games` games, seats alternated, seeded from `seed`. Game
/// `i` of the round robin is pair `i % pairs`' game `i / pairs`, seeded from `seed` and `i`
/// alone; `first` and `count` play only games `first..first + count` of it (the tallies of
/// such parts `merge` into the whole). Returns `sim`'s dict, its "seats" the results it
/// counts (`1-2 first won`, `1-2 drawn`, `1-2 second won`, ...), with `pairs`: for each pair
/// in order, `first` and `second` (the bots) and the first's `wins`, `draws` and `losses`.
#[pyfunction]
#[pyo3(signature = (game, bots, games=10, seed=0, threads=None, variant=None, options=None, seats=None, scripts=None, max_actions=None, first=0, count=None))]
#[allow(clippy::too_many_arguments)]
pub fn arena<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    bots: &Bound<'py, PyAny>,
    games: u64,
    seed: u64,
    threads: Option<usize>,
    variant: Option<&str>,
    options: Option<&Bound<'py, PyDict>>,
    seats: Option<usize>,
    scripts: Option<PathBuf>,
    max_actions: Option<usize>,
    first: u64,
    count: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let entrants = specs(bots)?;
    let total = games.saturating_mul(pairs(entrants.len()).len() as u64);
    let end = count.map_or(total, |n| first.saturating_add(n).min(total));
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
    let started = Instant::now();
    let (tally, threads) = interruptible(py, |go_on| {
        batch.arena(first.min(end)..end, &entrants, go_on)
    })?;
    let report = Report {
        seats: result_names(entrants.len()),
        tally,
        threads,
        seconds: started.elapsed().as_secs_f64(),
    };
    let bots = entrants.iter().map(|b| b.to_string()).collect();
    arena_tally(py, &report, seed, bots)
}

/// An arena's report as a dict: `sim`'s, with `pairs`.
pub(crate) fn arena_tally<'py>(
    py: Python<'py>,
    report: &Report,
    seed: u64,
    bots: Vec<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = tally(py, report, seed, Some(bots.clone()))?;
    let table = PyList::empty(py);
    for (p, (a, b)) in pairs(bots.len()).into_iter().enumerate() {
        let pair = PyDict::new(py);
        pair.set_item("first", &bots[a])?;
        pair.set_item("second", &bots[b])?;
        let results = report
            .tally
            .wins
            .get(3 * p..3 * p + 3)
            .unwrap_or(&[0, 0, 0]);
        pair.set_item("wins", results[0])?;
        pair.set_item("draws", results[1])?;
        pair.set_item("losses", results[2])?;
        table.append(pair)?;
    }
    d.set_item("pairs", table)?;
    Ok(d)
}
