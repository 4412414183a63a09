//! `boardscript.Bot` and `boardscript.bot`: one of the engine's bots, by name and settings.

use crate::errors::BotError;
use crate::errors::OrRaise;
use crate::game::Game;
use boardscript_interpreter::{check_bot, BotSpec};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A bot of the engine (`random`, `greedy`, `mcts`...) with its settings, checked when made.
#[pyclass(frozen, module = "boardscript")]
pub struct Bot {
    spec: String,
}

/// The bot `name` with `settings` (`bot("mcts", iters=500)`), or a bot written whole
/// (`bot("mcts:iters=500")`). An unknown bot or setting raises `BotError`.
#[pyfunction]
#[pyo3(signature = (name, **settings))]
pub fn bot(name: &str, settings: Option<&Bound<'_, PyDict>>) -> PyResult<Bot> {
    let mut text = name.to_string();
    for (i, (k, v)) in settings.into_iter().flat_map(|d| d.iter()).enumerate() {
        let sep = if i == 0 && !name.contains(':') {
            ':'
        } else {
            ','
        };
        text.push_str(&format!(
            "{sep}{}={}",
            k.str()?,
            crate::convert::option_text(&v)?
        ));
    }
    Ok(Bot {
        spec: checked(&text)?,
    })
}

/// `text` as a checked bot spec, written as the engine writes it.
fn checked(text: &str) -> PyResult<String> {
    let spec = BotSpec::parse(text).map_err(BotError::new_err)?;
    check_bot(&spec).map_err(BotError::new_err)?;
    Ok(spec.to_string())
}

/// A bot given to a call: a `Bot` or its text.
pub fn spec_of(bot: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(bot) = bot.cast::<Bot>() {
        return Ok(bot.get().spec.clone());
    }
    match bot.extract::<String>() {
        Ok(text) => checked(&text),
        Err(_) => Err(PyTypeError::new_err(
            "a bot is boardscript.bot(...) or its text",
        )),
    }
}

#[pymethods]
impl Bot {
    /// The action this bot would play for `seat` now, from that seat's view only, unplayed
    /// (a bot made for this choice, seeded as the seat's first `play_bot` bot).
    fn choose(&self, py: Python<'_>, game: &Game, seat: &Bound<'_, PyAny>) -> PyResult<String> {
        let seat = game.seat_of(seat)?;
        py.detach(|| game.table.bot_choice(seat, &self.spec))
            .or_raise()
    }

    /// Plays this bot's choice for `seat` on `game`; returns the action (`game.play_bot`).
    fn play(&self, py: Python<'_>, game: &Game, seat: &Bound<'_, PyAny>) -> PyResult<String> {
        let seat = game.seat_of(seat)?;
        py.detach(|| game.table.play_bot(seat, &self.spec))
            .or_raise()
    }

    fn __str__(&self) -> &str {
        &self.spec
    }

    fn __repr__(&self) -> String {
        format!("boardscript.bot({:?})", self.spec)
    }
}
