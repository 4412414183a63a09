//! `boardscript._boardscript`: the engine's facade for Python. A [`game::Game`] holds one
//! `Table`; `load`, `bot`, `sim`, `arena` and `merge` are the module's functions; every refusal is an
//! exception of [`errors`]. Each engine call runs with the GIL released, so games may be
//! played from several Python threads at once.

mod arena;
mod bot;
mod convert;
mod errors;
mod game;
mod merge;
mod sim;

use pyo3::prelude::*;

#[pymodule]
fn _boardscript(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<game::Game>()?;
    m.add_class::<bot::Bot>()?;
    m.add_function(wrap_pyfunction!(game::load, m)?)?;
    m.add_function(wrap_pyfunction!(bot::bot, m)?)?;
    m.add_function(wrap_pyfunction!(sim::sim, m)?)?;
    m.add_function(wrap_pyfunction!(merge::merge, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena, m)?)?;
    errors::register(m)
}
