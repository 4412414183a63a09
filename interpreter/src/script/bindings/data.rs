//! `data(name, key...)`: a game's data files, read by scripts.
//!
//! A table or an array of a data file reaches scripts as a read-only handle (type `data`)
//! onto one tree shared by every call, state, thread and game compiled from the same source:
//! copying it copies a pointer. So `const CARDS = data("deck").card;` (which Rhai inlines as
//! a literal into every function) and `CARDS[i].name` in hot code read one field, not the
//! whole deck. Handles index like maps and arrays (`[i]`, `["k"]`, `.k`, `len`, `keys`, `in`,
//! `for`; an array also `map`, `filter`, `some`, `all`, `index_of`), and nothing writes
//! through them: `.copy()` gives a plain map or array to change.
//! `freeze(value)` makes such a handle of a map or array a script built (a constant table).
//! Numbers, strings and booleans come out as plain values. States and saves never hold the
//! data.
//!
//! A handle shares what it holds, so `freeze([d, d])` is as cheap as `[d, d]` but holds twice
//! what `d` holds: each table and array knows what it holds in all (its [`Shape`]), `freeze`
//! refuses a value that would weigh more than one call may copy, and whatever walks the whole
//! value (`copy`, `to_string`, storing it, comparing it) pays its weight from the call's work
//! budget first.

use super::budget::{self, WORK_PER_CALL};
use super::{fail, Fallible};
use crate::value::data::NODE;
pub use crate::value::data::{Data, DataSet};
use rhai::{Array, Dynamic, Engine, FnPtr, ImmutableString, Map, NativeCallContext};
use std::collections::BTreeMap;
use std::sync::Arc;

impl Data {
    /// A script's value made data (`freeze`): maps, arrays, whole numbers, strings and
    /// booleans, `depth` levels down at most, counting the levels of the data handles it
    /// holds (which stay as they are). What it builds is paid from the call's budget.
    fn from_script(v: &Dynamic, depth: usize) -> Fallible<Data> {
        let too_deep = || {
            fail(format!(
                "`freeze`: a value nested more than {MAX_FREEZE_DEPTH} levels deep"
            ))
        };
        if depth > MAX_FREEZE_DEPTH {
            return too_deep();
        }
        if let Some(d) = v.read_lock::<Data>() {
            if depth + d.depth() > MAX_FREEZE_DEPTH {
                return too_deep();
            }
            return Ok(d.clone());
        }
        if let Ok(b) = v.as_bool() {
            return Ok(Data::Bool(b));
        }
        if let Ok(i) = v.as_int() {
            return Ok(Data::Int(i));
        }
        if let Ok(s) = v.as_immutable_string_ref() {
            budget::charge(NODE + s.len() as u64, "freeze")?;
            return Ok(Data::Str(s.as_str().into()));
        }
        if let Some(items) = v.read_lock::<Array>() {
            budget::charge(NODE * (1 + items.len() as u64), "freeze")?;
            let list: Fallible<Vec<Data>> = items
                .iter()
                .map(|x| Data::from_script(x, depth + 1))
                .collect();
            return Ok(Data::list(list?));
        }
        if let Some(map) = v.read_lock::<Map>() {
            budget::charge(NODE * (1 + map.len() as u64), "freeze")?;
            let mut table = BTreeMap::new();
            for (k, x) in map.iter() {
                table.insert(k.to_string(), Data::from_script(x, depth + 1)?);
            }
            return Ok(Data::table(table));
        }
        fail(format!(
            "`freeze` takes maps, arrays, whole numbers, strings and booleans, not `{}`",
            v.type_name()
        ))
    }

    /// `freeze(v)`: `v` as data, unless a plain copy of it would weigh more than one call
    /// may spend (a handle held twice weighs twice: `freeze([d, d])` in a loop would
    /// otherwise double for free).
    fn freeze(v: &Dynamic) -> Fallible<Data> {
        let d = Data::from_script(v, 0)?;
        if d.weight() > MAX_FROZEN_WEIGHT {
            return fail(format!(
                "`freeze`: this value would weigh {} units copied, over the limit of {MAX_FROZEN_WEIGHT} (the work one call may do; a data handle counts each time it is held)",
                d.weight()
            ));
        }
        Ok(d)
    }

    /// [`Data::copy`] paid from the call's budget first, by `function`.
    fn paid_copy(&self, function: &str) -> Fallible<Dynamic> {
        budget::charge(self.weight(), function)?;
        Ok(self.copy())
    }

    /// Whether two values are the same handle (or equal scalars): no walk.
    fn same_handle(&self, other: &Data) -> bool {
        match (self, other) {
            (Data::List(a, _), Data::List(b, _)) => Arc::ptr_eq(a, b),
            (Data::Table(a, _), Data::Table(b, _)) => Arc::ptr_eq(a, b),
            (a, b) => a.depth() == 0 && a == b,
        }
    }

    /// Whether the two values are equal, a walk paid from the call's budget (two values
    /// built apart may be large and equal all the way down).
    fn equal_paid(&self, other: &Data) -> Fallible<bool> {
        if self.same_handle(other) {
            return Ok(true);
        }
        if self.weight() != other.weight() || self.depth() != other.depth() {
            return Ok(false);
        }
        budget::charge(self.weight(), "comparing data")?;
        Ok(self == other)
    }

    /// What a script reads: a scalar as a plain value, a table or array as a handle.
    fn to_script(&self) -> Dynamic {
        match self {
            Data::Bool(b) => (*b).into(),
            Data::Int(i) => (*i).into(),
            Data::Str(s) => ImmutableString::from(&**s).into(),
            Data::List(..) | Data::Table(..) => Dynamic::from(self.clone()),
        }
    }

    /// A plain Rhai copy, for a script that wants to change it or use array functions (and
    /// what the state stores when a script stores data).
    pub fn copy(&self) -> Dynamic {
        match self {
            Data::List(l, _) => l.iter().map(Data::copy).collect::<Array>().into(),
            Data::Table(m, _) => m
                .iter()
                .map(|(k, v)| (k.as_str().into(), v.copy()))
                .collect::<Map>()
                .into(),
            scalar => scalar.to_script(),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Data::Bool(_) => "bool",
            Data::Int(_) => "int",
            Data::Str(_) => "string",
            Data::List(..) => "array",
            Data::Table(..) => "table",
        }
    }

    /// The entry at `key` (a string for a table, a whole number for an array), or why not.
    fn at(&self, key: &Dynamic) -> Result<&Data, String> {
        match self {
            Data::Table(map, _) => {
                let Ok(k) = key.as_immutable_string_ref() else {
                    return Err(format!(
                        "is a table: its keys are strings, not a `{}`",
                        key.type_name()
                    ));
                };
                map.get(k.as_str()).ok_or_else(|| {
                    let keys: Vec<&str> = map.keys().map(String::as_str).take(20).collect();
                    format!(
                        "has no key `{}` (keys: {})",
                        crate::text::excerpt(&k),
                        keys.join(", ")
                    )
                })
            }
            Data::List(rows, _) => {
                let Ok(i) = key.as_int() else {
                    return Err(format!(
                        "is an array: its keys are whole numbers, not a `{}`",
                        key.type_name()
                    ));
                };
                usize::try_from(i)
                    .ok()
                    .and_then(|i| rows.get(i))
                    .ok_or_else(|| format!("has no entry {i} (it holds {}, from 0)", rows.len()))
            }
            scalar => Err(format!("is a {}, which has no keys", scalar.kind())),
        }
    }

    /// Whether writing `new` at `key` would leave the data as it is: Rhai writes a method's
    /// receiver back through the indexer after the call (`row.cost.to_string()`), and such a
    /// write changes nothing (it writes back the same handle, so this seldom walks).
    fn unchanged_by(&self, key: &Dynamic, new: &Dynamic) -> Fallible<bool> {
        Ok(match self.at(key) {
            Ok(Data::Bool(b)) => new.as_bool() == Ok(*b),
            Ok(Data::Int(i)) => new.as_int() == Ok(*i),
            Ok(Data::Str(s)) => new
                .as_immutable_string_ref()
                .is_ok_and(|n| n.as_str() == &**s),
            Ok(old) => match new.read_lock::<Data>() {
                Some(new) => old.equal_paid(&new)?,
                None => false,
            },
            Err(_) => false,
        })
    }

    /// `self[key]` for a script.
    pub(super) fn index(&self, key: Dynamic) -> Fallible<Dynamic> {
        match self.at(&key) {
            Ok(v) => Ok(v.to_script()),
            Err(why) => fail(format!("this data {} {why}", self.kind())),
        }
    }

    /// Whether this scalar equals a script's number, string or bool (tables and arrays
    /// never do).
    fn equals(&self, x: &Dynamic) -> bool {
        match self {
            Data::Bool(b) => x.as_bool() == Ok(*b),
            Data::Int(i) => x.as_int() == Ok(*i),
            Data::Str(s) => x
                .as_immutable_string_ref()
                .is_ok_and(|t| t.as_str() == &**s),
            _ => false,
        }
    }

    fn len(&self) -> i64 {
        match self {
            Data::List(rows, _) => rows.len() as i64,
            Data::Table(map, _) => map.len() as i64,
            _ => 0,
        }
    }
}

/// `for row in CARDS`: an array's entries, a table's keys.
impl IntoIterator for Data {
    type Item = Dynamic;
    type IntoIter = std::vec::IntoIter<Dynamic>;

    fn into_iter(self) -> Self::IntoIter {
        let items: Vec<Dynamic> = match &self {
            Data::List(rows, _) => rows.iter().map(Data::to_script).collect(),
            Data::Table(map, _) => map.keys().map(|k| k.as_str().into()).collect(),
            _ => vec![],
        };
        items.into_iter()
    }
}

/// The deepest value `freeze` takes (as data files, bounded so a cyclic or hostile value
/// cannot exhaust the stack).
const MAX_FREEZE_DEPTH: usize = 32;

/// The most a frozen value may weigh copied: what one call may spend, so a value any call
/// could not copy is never built.
const MAX_FROZEN_WEIGHT: u64 = WORK_PER_CALL;

/// The most keys a path may give after the name (`data(name, k1, ..., k6)`).
const MAX_PATH: usize = 6;

/// The value at `path` in data file `name`; errors name the path walked.
fn find<'a>(data: &'a DataSet, name: &str, path: &[Dynamic]) -> Fallible<&'a Data> {
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
        at = match at.at(key) {
            Ok(v) => v,
            Err(why) => return fail(format!("data {shown} {why}")),
        };
        shown.push_str(&match key.as_int() {
            Ok(i) => format!("[{i}]"),
            Err(_) => format!(".{key}"),
        });
    }
    Ok(at)
}

/// Registers `data`, `data_len` and the `data` handle's reading functions.
pub fn register(engine: &mut Engine, data: DataSet) {
    macro_rules! arities {
        ($($key:ident),*) => {{
            let d = data.clone();
            engine.register_fn("data", move |name: ImmutableString, $($key: Dynamic),*| {
                find(&d, &name, &[$($key),*]).map(Data::to_script)
            });
            let d = data.clone();
            engine.register_fn("data_len", move |name: ImmutableString, $($key: Dynamic),*| {
                find(&d, &name, &[$($key),*]).map(Data::len)
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

    engine.register_type_with_name::<Data>("data");
    engine.register_iterator::<Data>();
    engine.register_indexer_get(|d: &mut Data, i: i64| d.index(i.into()));
    engine.register_indexer_get(|d: &mut Data, k: ImmutableString| d.index(k.into()));
    // Read-only: a write says how to get a copy that can change, rather than Rhai's
    // "no indexer" message; the write-back of an unchanged value is let through.
    let read_only = |d: &mut Data, key: Dynamic, new: Dynamic| -> Fallible<()> {
        if d.unchanged_by(&key, &new)? {
            return Ok(());
        }
        fail("data is read-only; `.copy()` gives a map or array to change")
    };
    engine.register_indexer_set(move |d: &mut Data, i: i64, v: Dynamic| read_only(d, i.into(), v));
    engine.register_indexer_set(move |d: &mut Data, k: ImmutableString, v: Dynamic| {
        read_only(d, k.into(), v)
    });
    // Handles are taken by value (a pointer copy): Rhai writes a `&mut` method's receiver
    // back through the indexer, which data refuses, so `row.tags.len()` would fail.
    engine.register_fn("len", |d: Data| d.len());
    engine.register_fn("is_empty", |d: Data| d.len() == 0);
    engine.register_fn("copy", |d: Data| d.paid_copy("copy"));
    engine.register_fn("keys", |d: Data| -> Array {
        match d {
            Data::Table(map, _) => map.keys().map(|k| k.as_str().into()).collect(),
            Data::List(rows, _) => (0..rows.len() as i64).map(Dynamic::from).collect(),
            _ => Array::new(),
        }
    });
    // `x in d`: a key of a table, an element (a number, string or bool) of an array.
    engine.register_fn("contains", |d: Data, x: Dynamic| match d {
        Data::Table(map, _) => x
            .into_immutable_string()
            .is_ok_and(|k| map.contains_key(k.as_str())),
        Data::List(rows, _) => rows.iter().any(|r| r.equals(&x)),
        _ => false,
    });
    // `const ROOMS = freeze(rooms_by_id());`: a table a script builds once, read as data (a
    // pointer copy) where a plain map or array constant is copied whole at every use.
    engine.register_fn("freeze", |v: Dynamic| -> Fallible<Dynamic> {
        Data::freeze(&v).map(|d| d.to_script())
    });
    register_list_functions(engine);
    engine.register_fn("to_string", |d: Data| -> Fallible<String> {
        Ok(d.paid_copy("to_string")?.to_string())
    });
    engine.register_fn("to_debug", |d: Data| -> Fallible<String> {
        Ok(format!("{:?}", d.paid_copy("to_debug")?))
    });
}

/// The entries of a data array, or why `function` cannot take this data.
fn entries(d: &Data, function: &str) -> Fallible<Arc<[Data]>> {
    match d {
        Data::List(rows, _) => Ok(rows.clone()),
        other => fail(format!(
            "`{function}` takes a data array, not a data {}",
            other.kind()
        )),
    }
}

/// `f(entry)` for a script's closure or function pointer.
fn call(ctx: &NativeCallContext, f: &FnPtr, entry: &Data) -> Fallible<Dynamic> {
    f.call_raw(ctx, None, [entry.to_script()])
}

fn truth(v: Dynamic, function: &str) -> Fallible<bool> {
    v.as_bool().or_else(|t| {
        fail(format!(
            "the function given to `{function}` must return true or false, not a `{t}`"
        ))
    })
}

/// Rhai's array functions that read without changing, for data arrays (`ROOMS.filter(...)`),
/// so a constant table can stay data (a pointer copy) where a script needs them.
fn register_list_functions(engine: &mut Engine) {
    engine.register_fn(
        "map",
        |ctx: NativeCallContext, d: Data, f: FnPtr| -> Fallible<Array> {
            let rows = entries(&d, "map")?;
            rows.iter().map(|r| call(&ctx, &f, r)).collect()
        },
    );
    engine.register_fn(
        "filter",
        |ctx: NativeCallContext, d: Data, f: FnPtr| -> Fallible<Array> {
            let mut out = Array::new();
            for r in entries(&d, "filter")?.iter() {
                if truth(call(&ctx, &f, r)?, "filter")? {
                    out.push(r.to_script());
                }
            }
            Ok(out)
        },
    );
    engine.register_fn(
        "some",
        |ctx: NativeCallContext, d: Data, f: FnPtr| -> Fallible<bool> {
            for r in entries(&d, "some")?.iter() {
                if truth(call(&ctx, &f, r)?, "some")? {
                    return Ok(true);
                }
            }
            Ok(false)
        },
    );
    engine.register_fn(
        "all",
        |ctx: NativeCallContext, d: Data, f: FnPtr| -> Fallible<bool> {
            for r in entries(&d, "all")?.iter() {
                if !truth(call(&ctx, &f, r)?, "all")? {
                    return Ok(false);
                }
            }
            Ok(true)
        },
    );
    // The position of the first entry equal to `x` (a number, string or bool), or -1.
    engine.register_fn("index_of", |d: Data, x: Dynamic| -> Fallible<i64> {
        let rows = entries(&d, "index_of")?;
        Ok(rows
            .iter()
            .position(|r| r.equals(&x))
            .map_or(-1, |i| i as i64))
    });
}
