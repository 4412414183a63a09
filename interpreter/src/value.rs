//! `Value`: script data stored in the state, serializable and independent of Rhai's `Dynamic`.

pub mod data;

use data::Data;
use rhai::{Array, Dynamic, ImmutableString, Map};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How deep a value stored in the state may nest (lists in lists, records in records):
/// everything that walks values (storing, saving, views, dropping) recurses.
pub const MAX_VALUE_DEPTH: usize = 64;

/// What one list entry, record entry or scalar weighs besides its text ([`Value::weight`]).
const NODE: u64 = 32;

/// A plain value a script may keep in the state: unit, bool, integer, string, list or record.
/// Maps are ordered (`BTreeMap`) so that saves are byte-for-byte deterministic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(untagged)]
pub enum Value {
    #[default]
    Unit,
    Bool(bool),
    Int(i64),
    Str(String),
    List(Vec<Value>),
    Record(BTreeMap<String, Value>),
}

impl Value {
    /// Converts a script value; floats, closures and custom types are refused with a message,
    /// as are a string longer than `max_string` bytes, nesting deeper than `MAX_VALUE_DEPTH`
    /// (so everything that later walks the value, recursively, stays shallow) and a value
    /// that would weigh more than `max_weight` (a data handle held many times weighs as
    /// many copies, so the walk stops before it builds them).
    pub fn from_dynamic(d: &Dynamic, max_string: usize, max_weight: u64) -> Result<Value, String> {
        let mut convert = Convert {
            max_string,
            left: max_weight,
        };
        convert.value(d, 0)
    }
    /// Roughly the bytes this value holds: what storing it costs a call's work budget.
    pub fn weight(&self) -> u64 {
        match self {
            Value::Str(s) => NODE + s.len() as u64,
            Value::List(l) => NODE + l.iter().map(Value::weight).sum::<u64>(),
            Value::Record(m) => {
                NODE + m
                    .iter()
                    .map(|(k, v)| k.len() as u64 + v.weight())
                    .sum::<u64>()
            }
            _ => NODE,
        }
    }

    /// The length of the longest string in this value.
    fn longest_string(&self) -> usize {
        match self {
            Value::Str(s) => s.len(),
            Value::List(l) => l.iter().map(Value::longest_string).max().unwrap_or(0),
            Value::Record(m) => m.values().map(Value::longest_string).max().unwrap_or(0),
            _ => 0,
        }
    }

    pub fn to_dynamic(&self) -> Dynamic {
        match self {
            Value::Unit => Dynamic::UNIT,
            Value::Bool(b) => (*b).into(),
            Value::Int(i) => (*i).into(),
            Value::Str(s) => ImmutableString::from(s.as_str()).into(),
            Value::List(l) => l.iter().map(Value::to_dynamic).collect::<Array>().into(),
            Value::Record(m) => {
                let map: Map = m
                    .iter()
                    .map(|(k, v)| (k.as_str().into(), v.to_dynamic()))
                    .collect();
                map.into()
            }
        }
    }

    /// Parses an option value given on the command line, as the type of `like`.
    pub fn parse_like(text: &str, like: &Value) -> Result<Value, String> {
        match like {
            Value::Int(_) => text
                .trim()
                .parse()
                .map(Value::Int)
                .map_err(|_| format!("`{text}` is not a whole number")),
            // The usual spellings, in any case: `-o coop=TRUE` is as good as `coop=yes`.
            Value::Bool(_) => match text.trim().to_ascii_lowercase().as_str() {
                "true" | "t" | "yes" | "y" | "on" | "1" => Ok(Value::Bool(true)),
                "false" | "f" | "no" | "n" | "off" | "0" => Ok(Value::Bool(false)),
                _ => Err(format!(
                    "`{text}` is not true or false (write true/false, yes/no, on/off or 1/0)"
                )),
            },
            _ => Ok(Value::Str(text.trim().to_string())),
        }
    }

    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Unit => "nothing",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Str(_) => "string",
            Value::List(_) => "list",
            Value::Record(_) => "record",
        }
    }
}

/// One conversion of a script value: its limits and the weight it may still build.
struct Convert {
    max_string: usize,
    left: u64,
}

impl Convert {
    /// Takes `units` from what the value may weigh, or says it weighs too much.
    fn spend(&mut self, units: u64) -> Result<(), String> {
        match self.left.checked_sub(units) {
            Some(rest) => {
                self.left = rest;
                Ok(())
            }
            None => Err(format!(
                "it weighs more than the {} units left of this call's work budget",
                self.left
            )),
        }
    }

    fn string(&mut self, s: &str) -> Result<Value, String> {
        if s.len() > self.max_string {
            return Err(format!(
                "a string of {} bytes is longer than the limit of {}",
                s.len(),
                self.max_string
            ));
        }
        self.spend(NODE + s.len() as u64)?;
        Ok(Value::Str(s.to_string()))
    }

    fn value(&mut self, d: &Dynamic, depth: usize) -> Result<Value, String> {
        if depth > MAX_VALUE_DEPTH {
            return Err(format!(
                "it is nested more than {MAX_VALUE_DEPTH} levels deep"
            ));
        }
        if d.is_unit() {
            self.spend(NODE)?;
            Ok(Value::Unit)
        } else if let Ok(b) = d.as_bool() {
            self.spend(NODE)?;
            Ok(Value::Bool(b))
        } else if let Ok(i) = d.as_int() {
            self.spend(NODE)?;
            Ok(Value::Int(i))
        } else if let Ok(s) = d.as_immutable_string_ref() {
            self.string(&s)
        } else if d.is_array() {
            let arr = d.read_lock::<Array>().ok_or("array is locked")?;
            self.spend(NODE)?;
            arr.iter()
                .map(|v| self.value(v, depth + 1))
                .collect::<Result<_, _>>()
                .map(Value::List)
        } else if d.is_map() {
            let map = d.read_lock::<Map>().ok_or("map is locked")?;
            self.spend(NODE)?;
            map.iter()
                .map(|(k, v)| {
                    self.spend(k.len() as u64)?;
                    Ok((k.to_string(), self.value(v, depth + 1)?))
                })
                .collect::<Result<_, String>>()
                .map(Value::Record)
        } else if d.is_char() {
            self.string(&d.as_char().unwrap_or(' ').to_string())
        } else if let Some(data) = d.read_lock::<Data>() {
            // A row of a data file, stored as the plain value it reads as; its weight is
            // known without a walk, and paid before the copy is built.
            if depth + data.depth() > MAX_VALUE_DEPTH {
                return Err(format!(
                    "it is nested more than {MAX_VALUE_DEPTH} levels deep"
                ));
            }
            self.spend(data.weight())?;
            let value = data.to_value();
            match value.longest_string() {
                n if n > self.max_string => Err(format!(
                    "a string of {n} bytes is longer than the limit of {}",
                    self.max_string
                )),
                _ => Ok(value),
            }
        } else {
            Err(format!(
                "a `{}` cannot be stored in the game state",
                d.type_name()
            ))
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Unit => f.write_str("()"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Str(s) => f.write_str(s),
            other => f.write_str(&serde_json::to_string(other).unwrap_or_default()),
        }
    }
}

impl From<toml::Value> for Value {
    fn from(v: toml::Value) -> Self {
        match v {
            toml::Value::String(s) => Value::Str(s),
            toml::Value::Integer(i) => Value::Int(i),
            toml::Value::Boolean(b) => Value::Bool(b),
            toml::Value::Float(f) => Value::Int(f as i64),
            toml::Value::Datetime(d) => Value::Str(d.to_string()),
            toml::Value::Array(a) => Value::List(a.into_iter().map(Value::from).collect()),
            toml::Value::Table(t) => {
                Value::Record(t.into_iter().map(|(k, v)| (k, v.into())).collect())
            }
        }
    }
}

/// How deep `d` nests (a scalar is 0, `[1]` is 1), counting no further than `cap + 1`: the walk
/// recurses at most that far, so a value of any depth is measured on a small stack.
pub fn depth(d: &Dynamic, cap: usize) -> usize {
    if !d.is_array() && !d.is_map() {
        return 0;
    }
    if cap == 0 {
        return 1;
    }
    let below = if d.is_array() {
        d.read_lock::<Array>()
            .and_then(|a| a.iter().map(|v| depth(v, cap - 1)).max())
    } else {
        d.read_lock::<Map>()
            .and_then(|m| m.values().map(|v| depth(v, cap - 1)).max())
    };
    1 + below.unwrap_or(0)
}

/// Drops a script value without recursing: each list or record is emptied onto a work list
/// before it goes, so a value nested thousands deep (built in `eval`) cannot overflow the
/// stack the way a recursive drop would.
pub fn drop_flat(d: Dynamic) {
    let mut stack = vec![d];
    while let Some(d) = stack.pop() {
        if d.is_array() {
            if let Ok(items) = d.into_array() {
                stack.extend(items);
            }
        } else if d.is_map() {
            if let Some(map) = d.try_cast::<Map>() {
                stack.extend(map.into_values());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(levels: usize) -> Dynamic {
        let mut d = Dynamic::from(1 as rhai::INT);
        for _ in 0..levels {
            d = Dynamic::from(vec![d]);
        }
        d
    }

    #[test]
    fn depth_stops_counting_past_its_cap() {
        assert_eq!(depth(&Dynamic::from(3 as rhai::INT), 64), 0);
        assert_eq!(depth(&nested(5), 64), 5);
        let deep = nested(200_000);
        assert_eq!(depth(&deep, 64), 65);
        // A recursive drop of this value would overflow the test's stack.
        drop_flat(deep);
    }

    #[test]
    fn storing_refuses_deep_values_and_long_strings() {
        assert!(Value::from_dynamic(&nested(MAX_VALUE_DEPTH), 10, u64::MAX).is_ok());
        let deep = nested(200_000);
        let err = Value::from_dynamic(&deep, 10, u64::MAX).unwrap_err();
        assert!(err.contains("nested more than 64 levels"), "{err}");
        drop_flat(deep);
        let long = Dynamic::from(ImmutableString::from("x".repeat(11)));
        assert!(Value::from_dynamic(&long, 10, u64::MAX)
            .unwrap_err()
            .contains("longer than"));
    }
}
