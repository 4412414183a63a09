//! The exceptions a refused call raises, one class per kind of refusal so a caller can catch
//! exactly the one it means (`IllegalAction`, not any error). A refused call changed nothing.

use boardscript_interpreter::TableError;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    boardscript,
    BoardscriptError,
    PyException,
    "Any refusal of the engine."
);
create_exception!(
    boardscript,
    NoSeat,
    BoardscriptError,
    "A seat the game does not have."
);
create_exception!(
    boardscript,
    ActionError,
    BoardscriptError,
    "An action that was not played; the game is unchanged."
);
create_exception!(
    boardscript,
    IllegalAction,
    ActionError,
    "Not among the seat's legal actions."
);
create_exception!(
    boardscript,
    RefusedAction,
    ActionError,
    "Refused by the game's rules."
);
create_exception!(
    boardscript,
    NotDeciding,
    ActionError,
    "The seat is not deciding now."
);
create_exception!(boardscript, GameOver, ActionError, "The game is over.");
create_exception!(
    boardscript,
    ScriptError,
    BoardscriptError,
    "A game's script failed."
);
create_exception!(
    boardscript,
    RulesError,
    BoardscriptError,
    "Bad game files, setup, option, save or notation."
);
create_exception!(
    boardscript,
    BotError,
    BoardscriptError,
    "An unknown bot or setting."
);
create_exception!(
    boardscript,
    Interrupted,
    BoardscriptError,
    "A bot was stopped."
);
create_exception!(
    boardscript,
    TableStopped,
    BoardscriptError,
    "The game's thread stopped (an engine bug)."
);

/// The Python exception for `e`, its message the engine's.
pub fn to_py(e: TableError) -> PyErr {
    let message = e.to_string();
    match e {
        TableError::NoSeat { .. } | TableError::NoSeatNamed { .. } => NoSeat::new_err(message),
        TableError::Illegal { .. } => IllegalAction::new_err(message),
        TableError::Refused { .. } => RefusedAction::new_err(message),
        TableError::NotDeciding { .. } => NotDeciding::new_err(message),
        TableError::Over => GameOver::new_err(message),
        TableError::Script { .. } => ScriptError::new_err(message),
        TableError::Rules(_) => RulesError::new_err(message),
        TableError::Bot(_) => BotError::new_err(message),
        TableError::Interrupted => Interrupted::new_err(message),
        TableError::Stopped(_) => TableStopped::new_err(message),
        _ => BoardscriptError::new_err(message),
    }
}

/// `Result<T, TableError>` into a `PyResult`.
pub trait OrRaise<T> {
    fn or_raise(self) -> PyResult<T>;
}

impl<T> OrRaise<T> for Result<T, TableError> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("BoardscriptError", py.get_type::<BoardscriptError>())?;
    m.add("NoSeat", py.get_type::<NoSeat>())?;
    m.add("ActionError", py.get_type::<ActionError>())?;
    m.add("IllegalAction", py.get_type::<IllegalAction>())?;
    m.add("RefusedAction", py.get_type::<RefusedAction>())?;
    m.add("NotDeciding", py.get_type::<NotDeciding>())?;
    m.add("GameOver", py.get_type::<GameOver>())?;
    m.add("ScriptError", py.get_type::<ScriptError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("BotError", py.get_type::<BotError>())?;
    m.add("Interrupted", py.get_type::<Interrupted>())?;
    m.add("TableStopped", py.get_type::<TableStopped>())?;
    Ok(())
}
