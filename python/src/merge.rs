//! `boardscript.merge`: the tallies of `sim` over parts of a range added up exactly, as the
//! engine's `Tally::merge` adds them (integers only: nothing is re-averaged).

use crate::arena::arena_tally;
use crate::sim::tally;
use boardscript_interpreter::batch::{Failure, GameOutcome, Report, Tally};
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::collections::BTreeMap;

/// Merges `results`, dicts of `sim` (or of `arena`) for the same game, setup, seed and bots
/// over ranges of games that do not overlap, into the dict `sim` (`arena`) gives for their
/// union: equal to it but for `threads` (here the parts' sum) and `seconds` (here the
/// longest part's).
#[pyfunction]
pub fn merge<'py>(py: Python<'py>, results: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let mut parts = results.try_iter()?;
    let Some(first) = parts.next() else {
        return Err(PyValueError::new_err(
            "merge needs at least one result of sim",
        ));
    };
    let first = first?;
    let first = first.cast::<PyDict>()?;
    let (seed, bots): (u64, Option<Vec<String>>) = (get(first, "seed")?, get(first, "bots")?);
    let mut report = report_of(first)?;
    for part in parts {
        let part = part?;
        let part = part.cast::<PyDict>()?;
        let more = report_of(part)?;
        let same = get::<u64>(part, "seed")? == seed
            && get::<Option<Vec<String>>>(part, "bots")? == bots
            && more.seats == report.seats
            && more.tally.teams == report.tally.teams;
        if !same {
            return Err(PyValueError::new_err(
                "merge: the results are of different seeds, bots or seats",
            ));
        }
        report.threads += more.threads;
        report.seconds = report.seconds.max(more.seconds);
        report.tally.merge(more.tally);
    }
    match (first.contains("pairs")?, bots) {
        (true, Some(bots)) => arena_tally(py, &report, seed, bots),
        (_, bots) => tally(py, &report, seed, bots),
    }
}

fn get<'py, T: FromPyObjectOwned<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    match d.get_item(key)? {
        Some(v) => v.extract().map_err(Into::into),
        None => Err(PyKeyError::new_err(format!(
            "merge: a result of sim has a `{key}`"
        ))),
    }
}

/// Pairs of a dict of `sim` (`endings`, `tallies`), in name order as the tally keeps them.
fn pairs<'py, N: FromPyObjectOwned<'py>>(
    d: &Bound<'py, PyDict>,
    key: &str,
) -> PyResult<Vec<(String, N)>> {
    let by_name: BTreeMap<String, N> = get(d, key)?;
    Ok(by_name.into_iter().collect())
}

/// A dict of `sim` read back into the report it was written from.
fn report_of<'py>(d: &Bound<'py, PyDict>) -> PyResult<Report> {
    let seats: Vec<String> = get(d, "seats")?;
    let wins: Bound<'py, PyDict> = get(d, "wins")?;
    let wins = seats
        .iter()
        .map(|seat| match wins.get_item(seat)? {
            Some(n) => n.extract::<u64>(),
            None => Err(PyKeyError::new_err(format!("merge: no wins of {seat}"))),
        })
        .collect::<PyResult<Vec<u64>>>()?;
    let failures: Bound<'py, PyList> = get(d, "failures")?;
    let failures = failures
        .iter()
        .map(|f| {
            let f = f.cast_into::<PyDict>()?;
            Ok(Failure {
                index: get(&f, "index")?,
                outcome: GameOutcome {
                    seed: get(&f, "seed")?,
                    error: get(&f, "error")?,
                    ..GameOutcome::default()
                },
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let tally = Tally {
        teams: get(d, "teams")?,
        games: get(d, "games")?,
        wins,
        team_wins: get(d, "team_wins")?,
        no_winner: get(d, "no_winner")?,
        endings: pairs(d, "endings")?,
        other_endings: get(d, "other_endings")?,
        tallies: pairs(d, "tallies")?,
        other_tallies: get(d, "other_tallies")?,
        failed: get(d, "failed")?,
        at_limit: get(d, "at_limit")?,
        total_length: get(d, "total_length")?,
        max_length: get(d, "max_length")?,
        failures,
    };
    Ok(Report {
        seats,
        tally,
        threads: get(d, "threads")?,
        seconds: get(d, "seconds")?,
    })
}
