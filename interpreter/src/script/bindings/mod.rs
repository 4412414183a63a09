//! The Rhai face of the engine. `register_all` is the only door into the `Engine`, so the
//! list of names a script may call lives here.

mod actions;
mod agenda;
mod bag;
pub mod budget;
mod card;
mod data;
mod dot_keys;
mod expr;
mod game;
mod graph;
mod grid;
mod lists;
mod pile;
mod supply;
mod zone;

use crate::state::State;
use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, Position};
use std::cell::RefCell;
use std::rc::Rc;

pub use actions::register as register_shapes;
pub use card::Card;
pub use data::{register as register_data, Data, DataSet};
pub use dot_keys::{dot_keys, register as register_dot_keys};
pub use game::register_phases;
pub use graph::GraphRef;
pub use grid::GridRef;
pub use zone::ZoneRef;

/// `g` in scripts: a handle onto the state the engine owns for the length of one call.
#[derive(Clone)]
pub struct G(pub Rc<RefCell<State>>);

pub type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// A script-facing error; Rhai stamps the call site's position on it.
pub fn fail<T>(message: impl Into<String>) -> Fallible<T> {
    Err(Box::new(EvalAltResult::ErrorRuntime(
        Dynamic::from(message.into()),
        Position::NONE,
    )))
}

impl G {
    pub fn read<R>(&self, f: impl FnOnce(&State) -> R) -> R {
        f(&self.0.borrow())
    }

    pub fn write<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        f(&mut self.0.borrow_mut())
    }

    pub fn seat(&self, name: &str) -> Fallible<usize> {
        self.read(|s| s.seat_index(name)).map_or_else(
            || {
                fail(format!(
                    "no seat `{name}` (seats: {})",
                    self.read(|s| s.seats.join(", "))
                ))
            },
            Ok,
        )
    }

    pub fn seat_name(&self, index: usize) -> ImmutableString {
        self.read(|s| s.seats[index].as_str().into())
    }
}

/// Puts `item` in place of the one at `at` (found by name), or at the end; its index. Making a
/// grid, graph or bag again under its name starts it afresh.
pub fn replace_or_push<T>(list: &mut Vec<T>, at: Option<usize>, item: T) -> usize {
    match at {
        Some(i) => {
            list[i] = item;
            i
        }
        None => {
            list.push(item);
            list.len() - 1
        }
    }
}

pub fn strings<I: IntoIterator<Item = S>, S: Into<ImmutableString>>(items: I) -> Array {
    items.into_iter().map(|s| Dynamic::from(s.into())).collect()
}

/// Reads an array argument of strings.
pub fn string_list(arr: &Array, what: &str) -> Fallible<Vec<String>> {
    arr.iter()
        .map(|d| match d.clone().into_string() {
            Ok(s) => Ok(s),
            Err(t) => fail(format!("{what} must be strings, found a `{t}`")),
        })
        .collect()
}

/// Registers every binding; `ended` is the flag `g.end_game` raises (`script::ending`).
pub fn register_all(engine: &mut Engine, ended: &crate::script::ending::Ended) {
    game::register(engine, ended);
    agenda::register(engine);
    card::register(engine);
    bag::register(engine);
    zone::register(engine);
    pile::register(engine);
    grid::register(engine);
    graph::register(engine);
    supply::register(engine);
    expr::register(engine);
    engine.register_fn("paint", paint);
    // Whitespace-separated words, for scripts that parse positions and notation.
    engine.register_fn("words", |text: &str| strings(text.split_whitespace()));
    lists::register(engine);
}

/// The types `register_all` registers, by the name scripts know them by (`Grid`), for
/// messages about calls that match no function.
pub fn type_names(engine: &Engine) -> Vec<(std::any::TypeId, String)> {
    fn named<T: 'static>(engine: &Engine) -> (std::any::TypeId, String) {
        let name = engine.map_type_name(std::any::type_name::<T>());
        (std::any::TypeId::of::<T>(), name.to_string())
    }
    vec![
        named::<G>(engine),
        named::<Card>(engine),
        named::<bag::BagRef>(engine),
        named::<ZoneRef>(engine),
        named::<GridRef>(engine),
        named::<GraphRef>(engine),
        named::<supply::SupplyRef>(engine),
        named::<Data>(engine),
    ]
}

/// Wraps text in a terminal colour; the binary strips colours when output is not a terminal.
fn paint(text: &str, color: &str) -> ImmutableString {
    let code = match color {
        "red" => 31,
        "green" => 32,
        "yellow" => 33,
        "blue" => 34,
        "magenta" => 35,
        "cyan" => 36,
        "gray" | "grey" => 90,
        "bold" => 1,
        _ => return text.into(),
    };
    format!("\x1b[{code}m{text}\x1b[0m").into()
}
