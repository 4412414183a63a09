//! `Data`: a value of a game's data files (or frozen by a script), immutable and shared:
//! tables and arrays sit behind `Arc`, so a handle clones in O(1). Scripts read it through
//! the `data` bindings (`script::bindings::data`); here is only the value itself.

use super::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One value of a data file; tables and arrays behind `Arc`, so a handle clones in O(1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Data {
    Bool(bool),
    Int(i64),
    Str(Arc<str>),
    List(Arc<[Data]>, Shape),
    Table(Arc<BTreeMap<String, Data>>, Shape),
}

/// What a table or array holds in all, shared entries counted each time they occur: known
/// when it is built, so nothing walks a value to learn how big it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// What a plain copy weighs ([`Value::weight`]'s units: about a byte).
    weight: u64,
    /// Levels of tables and arrays, this one included.
    depth: usize,
}

/// What one entry weighs besides its text, as [`Value::weight`] counts it.
pub(crate) const NODE: u64 = 32;

impl Shape {
    /// The shape of a table or array of `entries` (each with the length of its key).
    fn of<'a>(entries: impl Iterator<Item = (u64, &'a Data)>) -> Shape {
        let (mut weight, mut depth) = (NODE, 0);
        for (key, d) in entries {
            weight = weight.saturating_add(key).saturating_add(d.weight());
            depth = depth.max(d.depth());
        }
        Shape {
            weight,
            depth: depth + 1,
        }
    }
}

impl Data {
    pub(crate) fn list(items: Vec<Data>) -> Data {
        let shape = Shape::of(items.iter().map(|d| (0, d)));
        Data::List(items.into(), shape)
    }
    pub(crate) fn table(entries: BTreeMap<String, Data>) -> Data {
        let shape = Shape::of(entries.iter().map(|(k, d)| (k.len() as u64, d)));
        Data::Table(Arc::new(entries), shape)
    }
    /// The tree of a parsed data file.
    pub fn from_value(v: &Value) -> Data {
        match v {
            Value::Unit => Data::Bool(false),
            Value::Bool(b) => Data::Bool(*b),
            Value::Int(i) => Data::Int(*i),
            Value::Str(s) => Data::Str(s.as_str().into()),
            Value::List(l) => Data::list(l.iter().map(Data::from_value).collect()),
            Value::Record(m) => Data::table(
                m.iter()
                    .map(|(k, v)| (k.clone(), Data::from_value(v)))
                    .collect(),
            ),
        }
    }
    /// What a plain copy of this value weighs: [`Value::weight`] of [`Data::to_value`],
    /// without walking it.
    pub fn weight(&self) -> u64 {
        match self {
            Data::Bool(_) | Data::Int(_) => NODE,
            Data::Str(s) => NODE + s.len() as u64,
            Data::List(_, shape) | Data::Table(_, shape) => shape.weight,
        }
    }
    /// Levels of tables and arrays (a scalar is 0).
    pub fn depth(&self) -> usize {
        match self {
            Data::List(_, shape) | Data::Table(_, shape) => shape.depth,
            _ => 0,
        }
    }
    /// The plain value (what storing data in the state keeps); the caller has paid for it.
    pub fn to_value(&self) -> Value {
        match self {
            Data::Bool(b) => Value::Bool(*b),
            Data::Int(i) => Value::Int(*i),
            Data::Str(s) => Value::Str(s.to_string()),
            Data::List(l, _) => Value::List(l.iter().map(Data::to_value).collect()),
            Data::Table(m, _) => {
                Value::Record(m.iter().map(|(k, v)| (k.clone(), v.to_value())).collect())
            }
        }
    }
}

/// A game's data: each file's tree, by name. Read once with the game's source and shared by
/// every game compiled from it (threads included): nothing ever writes to it.
pub type DataSet = Arc<BTreeMap<String, Data>>;
