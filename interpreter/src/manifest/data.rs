//! A game's data files (`[data]` in `game.toml`): content such as decks and boards kept as
//! TOML rows rather than code. This module reads the manifest's entries and turns each file
//! into a [`Value`], checked: no floats or datetimes (scripts have no floats), bounded nesting
//! and sizes, and the entry counts the manifest promises.

use super::check::shown;
use crate::script::Limits;
use crate::value::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// How deep a data file may nest tables and arrays: rows of a deck are 2 or 3 deep, and every
/// later walk of the value recurses.
pub const MAX_DATA_DEPTH: usize = 16;

/// The longest data name (`events`).
const MAX_NAME_CHARS: usize = 64;

/// One `[data]` entry, resolved: a name scripts pass to `data(...)`, its file, and the counts
/// it must hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataSpec {
    pub name: String,
    /// The file, joined onto the folder of the manifest that listed it.
    pub path: PathBuf,
    /// Top-level arrays of tables and the number of entries each must hold.
    pub counts: BTreeMap<String, i64>,
    /// The field whose integer value says how many entries a row stands for (default 1).
    pub copies: Option<String>,
}

/// Reads one manifest entry: `name = "file.toml"` or `name = { file = ..., count = {...},
/// copies = "field" }`. The path is relative to `dir`; whether it stays inside the game's
/// folders is checked by the caller.
pub fn entry(dir: &std::path::Path, name: &str, raw: toml::Value) -> Result<DataSpec, String> {
    let named = format!("data {}", shown(name));
    let usable = !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && !name.chars().any(|c| c.is_control() || c.is_whitespace());
    if !usable {
        return Err(format!(
            "{named}: a data name is 1 to {MAX_NAME_CHARS} characters without spaces"
        ));
    }
    let (file, counts, copies) = match raw {
        toml::Value::String(file) => (file, BTreeMap::new(), None),
        toml::Value::Table(mut t) => {
            let file = match t.remove("file") {
                Some(toml::Value::String(f)) => f,
                _ => return Err(format!("{named}: `file` must be a path string")),
            };
            let counts = match t.remove("count") {
                None => BTreeMap::new(),
                Some(toml::Value::Table(c)) => c
                    .into_iter()
                    .map(|(array, n)| match n {
                        toml::Value::Integer(n) if n >= 0 => Ok((array, n)),
                        _ => Err(format!(
                            "{named}: count of {} must be a whole number, at least 0",
                            shown(&array)
                        )),
                    })
                    .collect::<Result<_, _>>()?,
                Some(_) => {
                    return Err(format!(
                        "{named}: `count` maps array names to numbers, e.g. {{ card = 20 }}"
                    ))
                }
            };
            let copies = match t.remove("copies") {
                None => None,
                Some(toml::Value::String(f)) => Some(f),
                Some(_) => return Err(format!("{named}: `copies` must be a field name")),
            };
            if let Some(key) = t.keys().next() {
                return Err(format!(
                    "{named}: unknown key {} (file, count, copies)",
                    shown(key)
                ));
            }
            (file, counts, copies)
        }
        _ => {
            return Err(format!(
                "{named}: give a file path, or {{ file = ..., count = ... }}"
            ))
        }
    };
    Ok(DataSpec {
        name: name.to_string(),
        path: dir.join(file),
        counts,
        copies,
    })
}

/// The 1-based line and column of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// Parses and checks the text of data file `spec`. Errors are one line and start with the
/// file, and with its line and column when the problem has a place.
pub fn parse(spec: &DataSpec, text: &str, limits: &Limits) -> Result<Value, String> {
    let file = spec.path.display().to_string();
    // Nesting is measured on the text first: the TOML parser and the drop of what it builds
    // both recurse, so a file of a million `[` must be refused before either runs.
    if let Some(offset) = too_deep(text) {
        let (line, column) = line_col(text, offset);
        return Err(format!(
            "{file}:{line}:{column}: nested more than {MAX_DATA_DEPTH} levels deep"
        ));
    }
    let root = DeTable::parse(text).map_err(|e| {
        let at = e.span().map_or(String::new(), |span| {
            let (line, column) = line_col(text, span.start);
            format!(":{line}:{column}")
        });
        format!("{file}{at}: {}", e.message().trim())
    })?;
    let walk = Walk {
        file: &file,
        text,
        limits,
    };
    let value = walk.table(root.get_ref(), 1)?;
    check_counts(spec, &file, &value)?;
    Ok(value)
}

/// The byte offset of the first bracket, brace or dot that opens more than
/// [`MAX_DATA_DEPTH`] levels, outside strings and comments; a conservative bound (table
/// headers count as one level per bracket pair, each dot of a dotted key `a.b.c` as one more
/// level, until the `=`, line or entry that ends the key; the real depth check follows).
fn too_deep(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    // Dots in the key being read (a dot in a value, as in `1.5`, counts too: conservative).
    let mut dots = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'.' => {
                dots += 1;
                if depth + dots > MAX_DATA_DEPTH + 1 {
                    return Some(i);
                }
            }
            b'\n' | b'=' | b',' => dots = 0,
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            quote @ (b'"' | b'\'') => {
                let triple = bytes[i..].starts_with(&[quote; 3]);
                let width = if triple { 3 } else { 1 };
                i += width;
                while i < bytes.len() {
                    // Only basic strings escape; `\"` does not end them.
                    if quote == b'"' && bytes[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    // A one-line string that never closes: the parser reports it.
                    if !triple && bytes[i] == b'\n' {
                        break;
                    }
                    if bytes[i..].starts_with(&[quote; 3][..width]) {
                        i += width;
                        break;
                    }
                    i += 1;
                }
                continue;
            }
            b'[' | b'{' => {
                dots = 0;
                depth += 1;
                if depth > MAX_DATA_DEPTH + 1 {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

struct Walk<'a> {
    file: &'a str,
    text: &'a str,
    limits: &'a Limits,
}

impl Walk<'_> {
    fn at(&self, span: std::ops::Range<usize>, message: impl std::fmt::Display) -> String {
        let (line, column) = line_col(self.text, span.start);
        format!("{}:{line}:{column}: {message}", self.file)
    }

    fn table(&self, t: &DeTable, depth: usize) -> Result<Value, String> {
        if t.len() > self.limits.map_size {
            let first = t.keys().next().map_or(0..0, |k| k.span());
            return Err(self.at(
                first,
                format!(
                    "a table of {} keys, over the limit of {}",
                    t.len(),
                    self.limits.map_size
                ),
            ));
        }
        let mut out = BTreeMap::new();
        for (key, value) in t {
            out.insert(key.get_ref().to_string(), self.value(value, depth)?);
        }
        Ok(Value::Record(out))
    }

    fn value(&self, v: &Spanned<DeValue>, depth: usize) -> Result<Value, String> {
        if depth > MAX_DATA_DEPTH {
            return Err(self.at(
                v.span(),
                format!("nested more than {MAX_DATA_DEPTH} levels deep"),
            ));
        }
        Ok(match v.get_ref() {
            DeValue::String(s) => {
                if s.len() > self.limits.string_size {
                    return Err(self.at(
                        v.span(),
                        format!(
                            "a string over the limit of {} bytes",
                            self.limits.string_size
                        ),
                    ));
                }
                Value::Str(s.to_string())
            }
            DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix())
                .map(Value::Int)
                .map_err(|_| self.at(v.span(), "a whole number out of range"))?,
            DeValue::Boolean(b) => Value::Bool(*b),
            DeValue::Float(_) => {
                return Err(self.at(
                    v.span(),
                    "a float; data holds whole numbers only (write tenths as 15, not 1.5)",
                ))
            }
            DeValue::Datetime(_) => {
                return Err(self.at(
                    v.span(),
                    "a date or time; data holds strings, whole numbers and true/false",
                ))
            }
            DeValue::Array(a) => {
                if a.len() > self.limits.array_size {
                    return Err(self.at(
                        v.span(),
                        format!(
                            "an array of {} entries, over the limit of {}",
                            a.len(),
                            self.limits.array_size
                        ),
                    ));
                }
                Value::List(
                    a.iter()
                        .map(|x| self.value(x, depth + 1))
                        .collect::<Result<_, _>>()?,
                )
            }
            DeValue::Table(t) => self.table(t, depth + 1)?,
        })
    }
}

/// Each `count` of the manifest against the file: the array exists, holds tables, and their
/// entries (a row counts as its `copies` field, else 1) add up to the number promised.
fn check_counts(spec: &DataSpec, file: &str, value: &Value) -> Result<(), String> {
    let Value::Record(top) = value else {
        return Ok(());
    };
    for (array, &expected) in &spec.counts {
        let rows = match top.get(array) {
            Some(Value::List(rows)) => rows,
            _ => {
                return Err(format!(
                    "{file}: no array {} (game.toml expects {expected} entries in it)",
                    shown(array)
                ))
            }
        };
        let mut held: i64 = 0;
        for (i, row) in rows.iter().enumerate() {
            let Value::Record(fields) = row else {
                return Err(format!(
                    "{file}: {} entry {} is not a table",
                    shown(array),
                    i + 1
                ));
            };
            let copies = match spec.copies.as_ref().and_then(|f| fields.get(f)) {
                None => 1,
                Some(Value::Int(n)) if *n >= 0 => *n,
                Some(_) => {
                    return Err(format!(
                        "{file}: {} entry {}: {} must be a whole number, at least 0",
                        shown(array),
                        i + 1,
                        shown(spec.copies.as_deref().unwrap_or_default())
                    ))
                }
            };
            held = held.saturating_add(copies);
        }
        if held != expected {
            return Err(format!(
                "{file}: {} holds {held} entries, game.toml expects {expected}",
                shown(array)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> DataSpec {
        DataSpec {
            name: "d".into(),
            path: "data/d.toml".into(),
            counts: BTreeMap::new(),
            copies: None,
        }
    }

    #[test]
    fn deep_nesting_is_refused_before_parsing() {
        let deep = format!("a = {}1{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
        let err = parse(&spec(), &deep, &Limits::default()).unwrap_err();
        assert!(
            err.contains("data/d.toml:1:") && err.contains("nested"),
            "{err}"
        );
        // Brackets in strings and comments are text.
        let text = format!(
            "# {}\na = \"{}\"\nb = '''\n{}'''\n",
            "[".repeat(99),
            "[".repeat(99),
            "{".repeat(99)
        );
        assert!(parse(&spec(), &text, &Limits::default()).is_ok());
        let text = "a = [[[1]]]\n";
        assert!(parse(&spec(), text, &Limits::default()).is_ok());
    }

    /// Issue 20 item 6: a long dotted key nests a table per dot; it is refused at its place
    /// before the parser, which would stop at its own recursion limit with no line.
    #[test]
    fn long_dotted_keys_are_refused_at_their_line_and_column() {
        for text in [
            format!("x = 1\n{} = 1\n", vec!["a"; 5000].join(".")),
            format!("x = 1\nb = {{ {} = 1 }}\n", vec!["a"; 200].join(".")),
            format!("x = 1\n[{}]\n", vec!["\"a\""; 200].join(".")),
        ] {
            let err = parse(&spec(), &text, &Limits::default()).unwrap_err();
            assert!(
                err.starts_with("data/d.toml:2:")
                    && err.ends_with("nested more than 16 levels deep"),
                "{err}"
            );
        }
        // Dots in strings, comments and short keys are fine.
        let text = format!(
            "a.b.c.d = \"{}\" # {}\n[e.f.g]\nh.i = 1\n",
            ".".repeat(99),
            ".".repeat(99)
        );
        assert!(parse(&spec(), &text, &Limits::default()).is_ok());
    }

    #[test]
    fn line_col_counts_characters() {
        assert_eq!(line_col("ab\ncé x", 7), (2, 4));
        assert_eq!(line_col("a", 99), (1, 2));
    }
}
