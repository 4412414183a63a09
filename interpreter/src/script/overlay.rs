//! Overlays that call what they replace: when a later file (a variant's overlay, or a later
//! file of the same game) defines a function again, the definition it replaces stays callable
//! from that file as `base_<name>`, with the same arity, level by level.
//!
//! Rhai merges files by name (a later definition wins) and resolves calls by name, so each
//! replaced definition is renamed in the text before compiling: with three definitions of
//! `apply` the last keeps its name, the middle one becomes `base_apply` and the first
//! `base_base_apply`, and the middle file's own calls to `base_apply` are renamed
//! `base_base_apply`. Renaming moves the columns after it on that line; `Shifts` maps a
//! column back, so errors still name the place in the file as written.

use super::error::ScriptError;
use super::Source;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::Arc;

const PREFIX: &str = "base_";

/// A name renamed on a line: its column as written, its length as written, its new length
/// (in characters).
type Edit = (usize, usize, usize);

/// Column moves made by renaming, per file and line, to map an error's column back.
#[derive(Debug, Clone, Default)]
pub struct Shifts {
    /// file -> line -> its edits, left to right.
    edits: HashMap<Arc<str>, BTreeMap<usize, Vec<Edit>>>,
}

impl Shifts {
    /// The column, in the file as written, of `column` on `line` of the renamed text.
    pub fn original(&self, file: &str, line: usize, column: usize) -> usize {
        let Some(edits) = self.edits.get(file).and_then(|l| l.get(&line)) else {
            return column;
        };
        let mut moved: isize = 0;
        for &(col, old, new) in edits {
            let start = (col as isize + moved) as usize;
            if column >= start + new {
                moved += new as isize - old as isize;
            } else if column >= start {
                return col;
            } else {
                break;
            }
        }
        (column as isize - moved).max(1) as usize
    }

    /// Moves an error's column back to the text as written.
    pub fn fix(&self, err: &mut ScriptError) {
        if self.edits.is_empty() {
            return;
        }
        if let Some(at) = err.position_mut() {
            at.column = self.original(&at.file, at.line, at.column);
        }
    }
}

/// A definition or a call found in a file's text.
struct Found<'t> {
    name: &'t str,
    /// Byte range of the name.
    at: Range<usize>,
    /// Parameters, for a definition; `None` for any other use of a name.
    params: Option<usize>,
}

/// The sources with every replaced definition renamed (and the calls to it), and the column
/// moves that made; `None` when no file replaces another's function (nothing to rename). The
/// definitions are read from the text, so that the files compile once either way.
pub fn rename_replaced(sources: &[Source]) -> Result<Option<(Vec<Source>, Shifts)>, ScriptError> {
    if sources.len() < 2 {
        return Ok(None);
    }
    let scans: Vec<Vec<Found>> = sources.iter().map(|s| scan(&s.text)).collect();
    // (name, arity) -> the files defining it, in order.
    let mut defined: BTreeMap<(&str, usize), Vec<usize>> = BTreeMap::new();
    for (i, found) in scans.iter().enumerate() {
        for f in found {
            if let Some(arity) = f.params {
                let files = defined.entry((f.name, arity)).or_default();
                if files.last() != Some(&i) {
                    files.push(i);
                }
            }
        }
    }
    let replaced: Vec<(&(&str, usize), &Vec<usize>)> = defined
        .iter()
        .filter(|(_, files)| files.len() > 1)
        .collect();
    if replaced.is_empty() {
        return Ok(None);
    }
    let def_at = |file: usize, name: &str, arity: usize| {
        scans[file]
            .iter()
            .find(|f| f.name == name && f.params == Some(arity))
    };
    let place = |file: usize, at: &Range<usize>| {
        let (line, column) = line_column(&sources[file].text, at.start);
        format!("{}:{line}:{column}", sources[file].name)
    };
    // Per file: byte range -> new name.
    let mut renames: Vec<BTreeMap<usize, (Range<usize>, String)>> =
        vec![BTreeMap::new(); sources.len()];
    // Per file: what its calls to `base_<name>` become (one name whatever the arity).
    let mut calls: Vec<HashMap<String, String>> = vec![HashMap::new(); sources.len()];
    for (&(name, arity), files) in &replaced {
        let last = files.len() - 1;
        // A name the renaming takes may not be one the scripts define themselves.
        for depth in 1..=last {
            let taken = format!("{}{name}", PREFIX.repeat(depth));
            if let Some((file, f)) =
                (0..sources.len()).find_map(|i| def_at(i, &taken, arity).map(|f| (i, f)))
            {
                let replacing = files[last];
                let by = def_at(replacing, name, arity).map_or_else(
                    || sources[replacing].name.to_string(),
                    |d| place(replacing, &d.at),
                );
                return Err(ScriptError::Load {
                    file: place(file, &f.at),
                    message: format!(
                        "defines `{taken}`, the name the replaced `{name}` takes, since `{name}` is \
                         defined again at {by}; rename this function"
                    ),
                });
            }
        }
        for (level, &file) in files.iter().enumerate() {
            if level < last {
                let new = format!("{}{name}", PREFIX.repeat(last - level));
                let f = def_at(file, name, arity).ok_or_else(|| ScriptError::Load {
                    file: sources[file].name.to_string(),
                    message: format!(
                        "cannot find the definition of `{name}` to keep as `base_{name}`"
                    ),
                })?;
                renames[file].insert(f.at.start, (f.at.clone(), new));
            }
            if level > 0 && level < last {
                let call = format!("{PREFIX}{name}");
                let new = format!("{}{name}", PREFIX.repeat(last - level + 1));
                if let Some(other) = calls[file].insert(call.clone(), new.clone()) {
                    if other != new {
                        return Err(ScriptError::Load {
                            file: sources[file].name.to_string(),
                            message: format!(
                                "`{call}` would name different levels for different arities of `{name}`; \
                                 give them different names"
                            ),
                        });
                    }
                }
            }
        }
    }
    let mut out = Vec::with_capacity(sources.len());
    let mut shifts = Shifts::default();
    for (i, src) in sources.iter().enumerate() {
        let mut edits = std::mem::take(&mut renames[i]);
        for f in scans[i].iter().filter(|f| f.params.is_none()) {
            if let Some(new) = calls[i].get(f.name) {
                edits.insert(f.at.start, (f.at.clone(), new.clone()));
            }
        }
        if edits.is_empty() {
            out.push(src.clone());
            continue;
        }
        let mut text = String::with_capacity(src.text.len() + 16 * edits.len());
        let mut from = 0;
        let lines = shifts.edits.entry(src.name.clone()).or_default();
        for (range, new) in edits.into_values() {
            text.push_str(&src.text[from..range.start]);
            text.push_str(&new);
            from = range.end;
            let (line, column) = line_column(&src.text, range.start);
            let old = src.text[range].chars().count();
            lines
                .entry(line)
                .or_default()
                .push((column, old, new.len()));
        }
        text.push_str(&src.text[from..]);
        out.push(Source {
            name: src.name.clone(),
            text,
        });
    }
    Ok(Some((out, shifts)))
}

/// Line and column (1-based, in characters) of byte `at`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// The definitions (`fn name(params)`) and the other names of a script, outside strings and
/// comments (inside a backtick string's `${...}` too).
fn scan(text: &str) -> Vec<Found<'_>> {
    let b = text.as_bytes();
    let mut out: Vec<Found> = vec![];
    // Open backtick strings, each with the depth of braces its current `${` opened.
    let mut templates: Vec<usize> = vec![];
    let mut braces = 0usize;
    let mut in_template = false;
    let mut after_fn = false;
    let mut i = 0;
    while i < b.len() {
        if in_template {
            match b[i] {
                b'\\' => i += 2,
                b'`' => {
                    in_template = false;
                    i += 1;
                }
                b'$' if b.get(i + 1) == Some(&b'{') => {
                    templates.push(braces);
                    braces += 1;
                    in_template = false;
                    i += 2;
                }
                _ => i += 1,
            }
            continue;
        }
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(b.len(), |n| i + n);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0usize;
                while i < b.len() {
                    if b[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 2;
                    } else if b[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'"' | b'\'' => {
                i += 1;
                while i < b.len() && b[i] != c {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'#' if matches!(b.get(i + 1), Some(b'#' | b'"')) => {
                let hashes = b[i..].iter().take_while(|&&h| h == b'#').count();
                i += hashes;
                if b.get(i) == Some(&b'"') {
                    let close = format!("\"{}", "#".repeat(hashes));
                    i = text[i + 1..]
                        .find(&close)
                        .map_or(b.len(), |n| i + 1 + n + close.len());
                }
            }
            b'`' => {
                in_template = true;
                i += 1;
            }
            b'{' => {
                braces += 1;
                i += 1;
            }
            b'}' => {
                braces = braces.saturating_sub(1);
                if templates.last() == Some(&braces) {
                    templates.pop();
                    in_template = true;
                }
                i += 1;
            }
            _ if c == b'_' || c.is_ascii_alphabetic() => {
                let start = i;
                while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric()) {
                    i += 1;
                }
                let name = &text[start..i];
                if name == "fn" {
                    after_fn = true;
                    continue;
                }
                let params = match after_fn {
                    true => Some(count_params(&b[i..])),
                    false => None,
                };
                after_fn = false;
                out.push(Found {
                    name,
                    at: start..i,
                    params,
                });
            }
            _ if c.is_ascii_digit() => {
                while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric()) {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// The parameters of a definition, from the text after its name: `(g, seat)` has 2.
fn count_params(rest: &[u8]) -> usize {
    let mut names = 0;
    let mut in_name = false;
    for &c in rest.iter().skip_while(|c| c.is_ascii_whitespace()).skip(1) {
        match c {
            b')' => break,
            b',' => in_name = false,
            _ if (c == b'_' || c.is_ascii_alphanumeric()) && !in_name => {
                names += 1;
                in_name = true;
            }
            _ => {}
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(name: &str, text: &str) -> Source {
        Source {
            name: Arc::from(name),
            text: text.to_string(),
        }
    }

    #[test]
    fn names_in_strings_and_comments_are_left_alone() {
        let text = "fn f(a, b) { // base_f(x)\n let s = \"base_f(\"; `${base_f(1)} base_f` }";
        let found: Vec<(&str, Option<usize>)> =
            scan(text).into_iter().map(|f| (f.name, f.params)).collect();
        let names: Vec<&str> = found.iter().map(|f| f.0).collect();
        assert_eq!(names, ["f", "a", "b", "let", "s", "base_f"]);
        assert_eq!(found[0].1, Some(2));
    }

    #[test]
    fn three_levels_rename_and_shift_columns_back() {
        let sources = [
            src("a", "fn f(x) { x }"),
            src("b", "fn f(x) { base_f(x) + 1 }"),
            src("c", "fn f(x) { base_f(x) * 2 }"),
        ];
        let (out, shifts) = rename_replaced(&sources).unwrap().unwrap();
        assert_eq!(out[0].text, "fn base_base_f(x) { x }");
        assert_eq!(out[1].text, "fn base_f(x) { base_base_f(x) + 1 }");
        assert_eq!(out[2].text, "fn f(x) { base_f(x) * 2 }");
        // `+` sits at column 21 as written, 31 once renamed.
        assert_eq!(shifts.original("b", 1, 31), 21);
        assert_eq!(shifts.original("b", 1, 4), 4);
        assert_eq!(
            shifts.original("b", 1, 6),
            4,
            "inside the renamed name: its start"
        );
        assert_eq!(shifts.original("c", 1, 18), 18);
    }
}
