//! `Value`: script data stored in the state, serializable and independent of Rhai's `Dynamic`.

use rhai::{Array, Dynamic, ImmutableString, Map};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// Converts a script value; floats, closures and custom types are refused with a message.
    pub fn from_dynamic(d: &Dynamic) -> Result<Value, String> {
        if d.is_unit() {
            Ok(Value::Unit)
        } else if let Ok(b) = d.as_bool() {
            Ok(Value::Bool(b))
        } else if let Ok(i) = d.as_int() {
            Ok(Value::Int(i))
        } else if d.is_string() {
            Ok(Value::Str(d.clone().into_string().unwrap_or_default()))
        } else if d.is_array() {
            let arr = d.read_lock::<Array>().ok_or("array is locked")?;
            arr.iter()
                .map(Value::from_dynamic)
                .collect::<Result<_, _>>()
                .map(Value::List)
        } else if d.is_map() {
            let map = d.read_lock::<Map>().ok_or("map is locked")?;
            map.iter()
                .map(|(k, v)| Ok((k.to_string(), Value::from_dynamic(v)?)))
                .collect::<Result<_, String>>()
                .map(Value::Record)
        } else if d.is_char() {
            Ok(Value::Str(d.as_char().unwrap_or(' ').to_string()))
        } else {
            Err(format!(
                "a `{}` cannot be stored in the game state",
                d.type_name()
            ))
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
            Value::Bool(_) => match text.trim() {
                "true" | "yes" | "on" | "1" => Ok(Value::Bool(true)),
                "false" | "no" | "off" | "0" => Ok(Value::Bool(false)),
                _ => Err(format!("`{text}` is not true or false")),
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
