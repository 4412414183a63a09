//! `boardscript.Game`: one running game (a `Table`) and `boardscript.load`, which starts one.

use crate::bot::spec_of;
use crate::convert::{option_text, to_py};
use crate::errors::{OrRaise, RulesError};
use boardscript_interpreter::{GameSource, SaveFile, Seat, Setup, Table};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// One running game. Seats are named by index (0 first, in turn order) or by name. Every
/// call that reads is for the seat named only (its view, its legal actions); a refused call
/// raises and changes nothing. Safe to share between Python threads: calls are carried out
/// one at a time, each with the GIL released.
#[pyclass(frozen, module = "boardscript")]
pub struct Game {
    pub(crate) table: Table,
    /// The rules it was started from, for `clone` and `sim`.
    pub(crate) source: Arc<GameSource>,
}

/// Starts a game: `game` is a folder of `scripts` (default `$BOARDSCRIPT_SCRIPTS`, else
/// `./scripts`), `variant` one of its variants, `options` its options by name, `seats` the
/// number of seats, `seed` the seed of every random draw (None: a new one).
#[pyfunction]
#[pyo3(signature = (game, variant=None, options=None, seats=None, seed=None, scripts=None))]
pub fn load(
    py: Python<'_>,
    game: &str,
    variant: Option<&str>,
    options: Option<&Bound<'_, PyDict>>,
    seats: Option<usize>,
    seed: Option<u64>,
    scripts: Option<PathBuf>,
) -> PyResult<Game> {
    let source = Arc::new(find(py, game, variant, scripts)?);
    let setup = Setup {
        seats,
        seed: seed.unwrap_or_else(fresh_seed),
        options: options_of(options)?,
        ..Setup::default()
    };
    let table = py.detach(|| Table::new(&source, setup)).or_raise()?;
    Ok(Game { table, source })
}

/// Reads game `game` (or `game/variant`) from the scripts folder.
pub fn find(
    py: Python<'_>,
    game: &str,
    variant: Option<&str>,
    scripts: Option<PathBuf>,
) -> PyResult<GameSource> {
    let root = scripts
        .or_else(|| std::env::var_os("BOARDSCRIPT_SCRIPTS").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("scripts"));
    let id = match variant {
        Some(v) => format!("{game}/{v}"),
        None => game.to_string(),
    };
    // A game not there, or files that do not read: the game's files are wrong (`RulesError`).
    py.detach(|| GameSource::find(&root, &id))
        .map_err(|e| RulesError::new_err(e.to_string()))
}

/// Options by name, each value as the engine reads it.
pub fn options_of(options: Option<&Bound<'_, PyDict>>) -> PyResult<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for (k, v) in options.into_iter().flat_map(|d| d.iter()) {
        out.insert(k.str()?.to_string(), option_text(&v)?);
    }
    Ok(out)
}

/// A seed no other game started now shares (below 2^53, as the binary draws them, so that
/// it survives a trip through JSON numbers).
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(std::time::SystemTime::now()) & ((1 << 53) - 1)
}

impl Game {
    /// The seat `seat` names: an index or a name.
    pub(crate) fn seat_of(&self, seat: &Bound<'_, PyAny>) -> PyResult<Seat> {
        if let Ok(name) = seat.extract::<String>() {
            return self.table.seat(&name).or_raise();
        }
        match seat.extract::<i64>() {
            Ok(i) => match usize::try_from(i) {
                Ok(i) => self.table.seat_at(i).or_raise(),
                Err(_) => Err(crate::errors::NoSeat::new_err(format!(
                    "there is no seat {i}: seats are numbered from 0"
                ))),
            },
            Err(_) => Err(PyTypeError::new_err(
                "a seat is an index (int) or a name (str)",
            )),
        }
    }

    fn names(&self, seats: &[Seat]) -> Vec<String> {
        seats
            .iter()
            .map(|&s| self.table.seat_names()[s.index()].clone())
            .collect()
    }
}

#[pymethods]
impl Game {
    /// The game's id (`game` or `game/variant`).
    #[getter]
    fn id(&self) -> &str {
        self.table.game()
    }

    /// The most legal actions one decision may offer, as the game declares it (`[actions]
    /// max` in game.toml; the table holds the game to it); None when it declares none.
    #[getter]
    fn max_actions(&self) -> Option<usize> {
        self.source.spec().max_actions
    }

    /// The seats' names, in turn order (a seat's index is its place here).
    #[getter]
    fn seats(&self) -> Vec<String> {
        self.table.seat_names().to_vec()
    }

    /// The seats deciding now, by name, in the game's order (empty once it is over).
    fn deciding(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let seats = py.detach(|| self.table.deciding()).or_raise()?;
        Ok(self.names(&seats))
    }

    /// `seat`'s legal actions now (none when it is not deciding), in order, each a dict:
    /// `text` (what `step` takes), `verb`, `args` (each with its `kind`, `text` and what it
    /// names: a cell's `grid`, `x`, `y`; a card's `card`, `name`, `zone`...), `shape`. With
    /// `typed=False`, only their texts (str), which costs far less: for a caller that picks
    /// by index.
    #[pyo3(signature = (seat, typed=true))]
    fn legal_actions<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
        typed: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let seat = self.seat_of(seat)?;
        if !typed {
            let options = py.detach(|| self.table.options(seat)).or_raise()?;
            return PyList::new(py, options);
        }
        let decision = py.detach(|| self.table.decision(seat)).or_raise()?;
        let typed = pythonize::pythonize(py, &decision.typed)
            .map_err(|e| RulesError::new_err(e.to_string()))?;
        Ok(typed.cast_into::<PyList>()?)
    }

    /// `seat` plays `action`: its text, a dict of `legal_actions`, or an index into them
    /// (the cheapest: the action is taken from the list, not read from text). Returns the
    /// action as the game logged it. A refused action raises (`IllegalAction`,
    /// `RefusedAction`, `NotDeciding`, `GameOver`) and changes nothing.
    fn step(
        &self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<String> {
        let seat = self.seat_of(seat)?;
        let text = if let Ok(text) = action.extract::<String>() {
            text
        } else if let Ok(dict) = action.cast::<PyDict>() {
            match dict.get_item("text")? {
                Some(text) => text.extract::<String>()?,
                None => return Err(PyTypeError::new_err("an action dict has a `text`")),
            }
        } else if let Ok(i) = action.extract::<i64>() {
            let Ok(i) = usize::try_from(i) else {
                return Err(crate::errors::IllegalAction::new_err(format!(
                    "no legal action {i}: actions are numbered from 0"
                )));
            };
            return py.detach(|| self.table.apply_option(seat, i)).or_raise();
        } else {
            return Err(PyTypeError::new_err(
                "an action is its text (str), a dict of legal_actions, or an index (int)",
            ));
        };
        py.detach(|| self.table.apply(seat, &text)).or_raise()
    }

    /// `seat`'s view as dicts and lists: `{"seat": name, "state": {...}}`, the state redacted
    /// for that seat (others' hidden cards blank, no deck order, no RNG), in the shape of
    /// docs/protocol.md's "States and views".
    fn view<'py>(&self, py: Python<'py>, seat: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat_of(seat)?;
        let json = py
            .detach(|| self.table.view(seat).map(|v| v.to_json()))
            .or_raise()?;
        to_py(py, &json)
    }

    /// The game drawn as text by the game's `render`, for `seat` (its view only), or for a
    /// spectator when None.
    #[pyo3(signature = (seat=None))]
    fn render(&self, py: Python<'_>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let seat = seat.map(|s| self.seat_of(s)).transpose()?;
        py.detach(|| self.table.render(seat)).or_raise()
    }

    /// Whether the game is over.
    fn is_over(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(py.detach(|| self.table.outcome()).or_raise()?.is_some())
    }

    /// The winners' names (empty while the game goes on, or when nobody won).
    fn winners(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let outcome = py.detach(|| self.table.outcome()).or_raise()?;
        Ok(outcome.map_or(vec![], |o| self.names(&o.winners)))
    }

    /// How it ended, once over: `{"winners": [names], "reason": ..., "text": ...}`; else None.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(o) = py.detach(|| self.table.outcome()).or_raise()? else {
            return Ok(None);
        };
        let dict = PyDict::new(py);
        dict.set_item("winners", self.names(&o.winners))?;
        dict.set_item("reason", o.reason)?;
        dict.set_item("text", o.text)?;
        Ok(Some(dict))
    }

    /// Each seat's reward, by seat index, as the engine's bots score the result: 1.0 to every
    /// winner and every seat of a winner's team, 0.0 to the others; when nobody wins, a share
    /// of at most 0.5 (the game's `evaluate` of the end, else 1/n each). All 0.0 while the
    /// game goes on.
    fn returns(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
        let returns = py.detach(|| self.table.returns()).or_raise()?;
        Ok(returns.unwrap_or_else(|| vec![0.0; self.table.seat_names().len()]))
    }

    /// Takes back the last `n` actions (fewer if fewer were played); returns how many.
    #[pyo3(signature = (n=1))]
    fn undo(&self, py: Python<'_>, n: usize) -> PyResult<usize> {
        py.detach(|| self.table.undo(n)).or_raise()
    }

    /// A new game, the same as this one now (its state, hidden cards and random draws to
    /// come included, and its history: `undo` on the copy takes back earlier moves too);
    /// later moves of one do not change the other. Copied in place, without replaying: cheap
    /// enough for a search that copies at every step. A copy shares its original's engine
    /// thread, so calls on the two take turns; for games that should run in parallel on
    /// several Python threads, `load` each. (Bots' search trees are not copied.)
    fn clone(&self, py: Python<'_>) -> PyResult<Game> {
        let table = py.detach(|| self.table.fork()).or_raise()?;
        Ok(Game {
            table,
            source: self.source.clone(),
        })
    }

    /// A copy whose hidden information is drawn anew, as `seat` could believe it: what its
    /// view does not show (other seats' hidden cards, deck order, secrets) dealt at random
    /// among what the view allows, seeded by `seed`, with a fresh RNG; made from the seat's
    /// view alone, as the engine's bots sample. For information-set search (OpenSpiel's
    /// `resample_from_infostate`). It has no history, and its `save()` is refused.
    fn resample(&self, py: Python<'_>, seat: &Bound<'_, PyAny>, seed: u64) -> PyResult<Game> {
        let seat = self.seat_of(seat)?;
        let table = py
            .detach(|| self.table.fork_seen_by(seat, seed))
            .or_raise()?;
        Ok(Game {
            table,
            source: self.source.clone(),
        })
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<Game> {
        self.clone(py)
    }

    /// The game so far as a save (JSON text: the setup, seed included, and every action; the
    /// `boardscript` binary's `load` reads it too). Holds the seed, so every hidden card:
    /// not for a seat's eyes.
    fn save(&self, py: Python<'_>) -> PyResult<String> {
        let save = py.detach(|| self.table.save()).or_raise()?;
        serde_json::to_string_pretty(&save).map_err(|e| RulesError::new_err(e.to_string()))
    }

    /// Replaces this game by a saved one of the same game (`save()`'s text, or that text
    /// parsed into a dict), replayed action by action. Refused, the game unchanged, if the
    /// save is for another game or does not replay.
    fn load(&self, py: Python<'_>, save: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = match save.extract::<String>() {
            Ok(text) => text,
            Err(_) => py
                .import("json")?
                .call_method1("dumps", (save,))?
                .extract::<String>()?,
        };
        let save = SaveFile::parse(&text, self.table.game()).map_err(RulesError::new_err)?;
        py.detach(|| self.table.load(save)).or_raise()
    }

    /// Has the bot `bot` (a `boardscript.bot(...)` or its text, `"mcts:iters=200"`) play
    /// `seat`'s decision from that seat's view only; returns the action played. The bot is
    /// kept for the seat's later moves (an MCTS keeps its tree).
    fn play_bot(
        &self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        bot: &Bound<'_, PyAny>,
    ) -> PyResult<String> {
        let seat = self.seat_of(seat)?;
        let spec = spec_of(bot)?;
        py.detach(|| self.table.play_bot(seat, &spec)).or_raise()
    }

    fn __repr__(&self) -> String {
        format!(
            "<boardscript.Game {} seats={:?}>",
            self.table.game(),
            self.table.seat_names()
        )
    }
}
