//! `data(name, key...)` and `data_len(name, key...)`: a game's data files, read by scripts.
//!
//! Every call returns a fresh copy of only the part its path names (`data("events", "card", 3)`
//! is one row), so reading a row costs the row, not the file, and no script can change what
//! another call, state or game reads. The files are parsed once, with the game's source, and
//! held here, outside the state: states and saves never carry them.

use super::{fail, Fallible};
use crate::value::Value;
use rhai::{Dynamic, Engine, ImmutableString};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Arc;

/// A game's data: each file's top-level table, by name. Read once with the game's source and
/// shared by every game compiled from it (threads included): nothing ever writes to it.
pub type DataSet = Arc<BTreeMap<String, Value>>;

/// The most keys a path may give after the name (`data(name, k1, ..., k6)`).
const MAX_PATH: usize = 6;

/// The value at `path` in data file `name`, borrowed.
fn find<'a>(data: &'a DataSet, name: &str, path: &[Dynamic]) -> Fallible<&'a Value> {
    let Some(mut at) = data.get(name) else {
        let names: Vec<&str> = data.keys().map(String::as_str).collect();
        return if names.is_empty() {
            fail(format!("no data `{name}`: this game lists no data files"))
        } else {
            fail(format!("no data `{name}` (data: {})", names.join(", ")))
        };
    };
    let mut shown = name.to_string();
    for key in path {
        at = match at {
            Value::Record(map) => {
                let Ok(k) = key.clone().into_immutable_string() else {
                    return fail(format!(
                        "data {shown} is a table: its keys are strings, not a `{}`",
                        key.type_name()
                    ));
                };
                let Some(v) = map.get(k.as_str()) else {
                    let keys: Vec<&str> = map.keys().map(String::as_str).take(20).collect();
                    return fail(format!(
                        "data {shown} has no key `{}` (keys: {})",
                        crate::text::excerpt(&k),
                        keys.join(", ")
                    ));
                };
                let _ = write!(shown, ".{k}");
                v
            }
            Value::List(rows) => {
                let Ok(i) = key.as_int() else {
                    return fail(format!(
                        "data {shown} is an array: its keys are whole numbers, not a `{}`",
                        key.type_name()
                    ));
                };
                let Some(v) = usize::try_from(i).ok().and_then(|i| rows.get(i)) else {
                    return fail(format!(
                        "data {shown} has no entry {i} (it holds {}, from 0)",
                        rows.len()
                    ));
                };
                let _ = write!(shown, "[{i}]");
                v
            }
            other => {
                return fail(format!(
                    "data {shown} is a {}, which has no keys",
                    other.type_name()
                ))
            }
        };
    }
    Ok(at)
}

/// A script copy of the part of `name` at `path`.
fn read(data: &DataSet, name: &str, path: &[Dynamic]) -> Fallible<Dynamic> {
    find(data, name, path).map(Value::to_dynamic)
}

/// How many entries (array) or keys (table) the part at `path` holds.
fn len(data: &DataSet, name: &str, path: &[Dynamic]) -> Fallible<i64> {
    match find(data, name, path)? {
        Value::List(rows) => Ok(rows.len() as i64),
        Value::Record(map) => Ok(map.len() as i64),
        other => fail(format!(
            "data_len: the value there is a {}, not an array or a table",
            other.type_name()
        )),
    }
}

/// Registers `data` and `data_len` for every path length up to [`MAX_PATH`].
pub fn register(engine: &mut Engine, data: DataSet) {
    macro_rules! arities {
        ($($key:ident),*) => {{
            let d = data.clone();
            engine.register_fn("data", move |name: ImmutableString, $($key: Dynamic),*| {
                read(&d, &name, &[$($key),*])
            });
            let d = data.clone();
            engine.register_fn("data_len", move |name: ImmutableString, $($key: Dynamic),*| {
                len(&d, &name, &[$($key),*])
            });
        }};
    }
    arities!();
    arities!(k1);
    arities!(k1, k2);
    arities!(k1, k2, k3);
    arities!(k1, k2, k3, k4);
    arities!(k1, k2, k3, k4, k5);
    arities!(k1, k2, k3, k4, k5, k6);
    const _: () = assert!(MAX_PATH == 6);
}
