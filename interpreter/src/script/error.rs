//! Script errors with their place (`file:line:column`), converted from Rhai in one spot.

use super::suggest::{self, Known};
use super::{Limits, Source};
use rhai::{EvalAltResult, ParseError, ParseErrorType, Position};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Displays as `file:line:column` (1-based), so editors can jump to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptPos {
    pub file: Arc<str>,
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for ScriptPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum ScriptError {
    /// `source_line` is the text of the line at fault, kept from the compile: the file may
    /// change again before the error is shown (`--watch`).
    #[error("{at}: syntax error: {message}")]
    Syntax {
        at: ScriptPos,
        message: String,
        source_line: String,
    },
    #[error("{at}: in `{function}`: {message}")]
    Runtime {
        at: ScriptPos,
        function: String,
        message: String,
    },
    #[error("{at}: in `{function}`: stopped after {limit} operations (endless loop?)")]
    TooManyOperations {
        at: ScriptPos,
        function: String,
        limit: u64,
    },
    #[error("{at}: in `{function}`: stopped after {} (endless loop or slow script?)", duration(.limit_ms))]
    TimedOut {
        at: ScriptPos,
        function: String,
        limit_ms: u64,
    },
    #[error("{file}: {message}")]
    Load { file: String, message: String },
    #[error("{0}")]
    Other(String),
}

impl ScriptError {
    /// The place of the error, when it has one (for drawing a caret under the source line).
    pub fn position(&self) -> Option<&ScriptPos> {
        match self {
            ScriptError::Syntax { at, .. }
            | ScriptError::Runtime { at, .. }
            | ScriptError::TooManyOperations { at, .. }
            | ScriptError::TimedOut { at, .. } => Some(at),
            _ => None,
        }
    }

    pub fn position_mut(&mut self) -> Option<&mut ScriptPos> {
        match self {
            ScriptError::Syntax { at, .. }
            | ScriptError::Runtime { at, .. }
            | ScriptError::TooManyOperations { at, .. }
            | ScriptError::TimedOut { at, .. } => Some(at),
            _ => None,
        }
    }

    /// Moves a runtime error to the place where it really happened.
    pub fn relocate(
        &mut self,
        file: Option<Arc<str>>,
        line: usize,
        column: usize,
        function_name: String,
    ) {
        if let ScriptError::Runtime { at, function, .. }
        | ScriptError::TooManyOperations { at, function, .. }
        | ScriptError::TimedOut { at, function, .. } = self
        {
            if let Some(f) = file {
                at.file = f;
            }
            at.line = line;
            at.column = column;
            *function = function_name;
        }
    }

    /// A compile error of `text` (the whole source of `file`).
    pub fn syntax(file: &str, text: &str, err: &ParseError) -> ScriptError {
        let mut at = pos(file, err.position());
        let mut message = err.err_type().to_string();
        if matches!(err.err_type(), ParseErrorType::MissingToken(t, _) if t == ";") {
            // Rhai stops at the token after the statement, often on the next line: the `;`
            // belongs right after the statement's last character.
            if let Some((line, column)) = end_of_code_before(text, at.line, at.column) {
                at.line = line;
                at.column = column;
                message = "missing `;` at the end of this statement".into();
            }
        }
        let source_line = text
            .lines()
            .nth(at.line.saturating_sub(1))
            .unwrap_or_default()
            .to_string();
        ScriptError::Syntax {
            at,
            message,
            source_line,
        }
    }

    /// The line at fault with a `^` under the column, as two lines (` 12 | text`, then the
    /// caret), for people; `None` when the error has no place or its line cannot be found.
    /// A runtime error's line is looked up in `sources` (the rules that ran), else read from
    /// its file.
    pub fn excerpt(&self, sources: &[Source]) -> Option<String> {
        let at = self.position()?;
        if at.line == 0 {
            return None;
        }
        let line = match self {
            ScriptError::Syntax { source_line, .. } => source_line.clone(),
            _ => {
                let text = match sources.iter().find(|s| *s.name == *at.file) {
                    Some(s) => s.text.clone(),
                    // Only a script file's name is a path; `eval` is not a file to read.
                    None if at.file.contains(['/', '\\']) => {
                        std::fs::read_to_string(&*at.file).ok()?
                    }
                    None => return None,
                };
                text.lines().nth(at.line - 1)?.to_string()
            }
        };
        // A blank line (the end of an `eval` that stopped short) shows nothing useful.
        if line.trim().is_empty() {
            return None;
        }
        Some(caret_under(at.line, &line, at.column))
    }

    /// Unwraps Rhai's chain of function calls down to the innermost error; its function names
    /// the file (through `fn_files`, since one merged AST holds several files).
    pub fn runtime(
        err: &EvalAltResult,
        entry: &str,
        fn_files: &HashMap<String, Arc<str>>,
        limits: &Limits,
    ) -> ScriptError {
        ScriptError::runtime_known(err, entry, fn_files, limits, || None)
    }

    /// `runtime`, where a call to a function that does not exist may be answered with the
    /// closest name `known` gives (asked only for such an error).
    pub fn runtime_known<'k>(
        err: &EvalAltResult,
        entry: &str,
        fn_files: &HashMap<String, Arc<str>>,
        limits: &Limits,
        known: impl FnOnce() -> Option<&'k Known>,
    ) -> ScriptError {
        let mut function = entry.to_string();
        let mut inner = err;
        let mut call_site = Position::NONE;
        while let EvalAltResult::ErrorInFunctionCall(name, _, e, p) = inner {
            function = name.clone();
            call_site = *p;
            inner = e;
        }
        let file: Arc<str> = fn_files
            .get(&function)
            .cloned()
            .unwrap_or_else(|| Arc::from("script"));
        let mut at_pos = inner.position();
        if at_pos.is_none() {
            at_pos = call_site;
        }
        let at = ScriptPos {
            file,
            line: at_pos.line().unwrap_or(0),
            column: at_pos.position().unwrap_or(0),
        };
        match inner {
            EvalAltResult::ErrorTooManyOperations(_) => ScriptError::TooManyOperations {
                at,
                function,
                limit: limits.operations,
            },
            // Only the clock (`bindings::budget`, read by the progress hook and by native work)
            // terminates a call in error: `g.end_game`'s termination is a return (`ending`).
            EvalAltResult::ErrorTerminated(..) => ScriptError::TimedOut {
                at,
                function,
                limit_ms: limits.time().as_millis() as u64,
            },
            EvalAltResult::ErrorRuntime(value, _) => ScriptError::Runtime {
                at,
                function,
                message: value.to_string(),
            },
            EvalAltResult::ErrorFunctionNotFound(signature, _) => ScriptError::Runtime {
                at,
                function,
                message: suggest::not_found(signature, known()),
            },
            other => {
                // Rhai appends " (line x, position y)"; the place is already in `at`.
                let text = other.to_string();
                let message = match text.rfind(" (line ") {
                    Some(i) => text[..i].to_string(),
                    None => text,
                };
                ScriptError::Runtime {
                    at,
                    function,
                    message,
                }
            }
        }
    }
}

/// The excerpt (as `ScriptError::excerpt`) for an error already turned into text, such as a
/// failed playout's: the first `file:line:column` in `message` naming one of `sources`.
pub fn excerpt_in_message(message: &str, sources: &[Source]) -> Option<String> {
    sources.iter().find_map(|src| {
        let at = message.find(&format!("{}:", src.name))? + src.name.len() + 1;
        let mut numbers = message[at..].splitn(3, ':');
        let line: usize = numbers.next()?.parse().ok()?;
        let column: usize = numbers.next()?.parse().ok()?;
        let text = src.text.lines().nth(line.checked_sub(1)?)?;
        Some(caret_under(line, text, column))
    })
}

/// The place just after the last character of code before `line`:`column` (1-based), comments
/// and blank lines skipped: where a missing `;` belongs.
fn end_of_code_before(text: &str, line: usize, column: usize) -> Option<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let first = line.checked_sub(1)?;
    for i in (0..=first.min(lines.len().checked_sub(1)?)).rev() {
        let code: String = if i == first {
            lines[i].chars().take(column.saturating_sub(1)).collect()
        } else {
            lines[i].to_string()
        };
        let code = without_comment(&code);
        if let Some(end) = code.trim_end().chars().count().checked_sub(1) {
            return Some((i + 1, end + 2));
        }
    }
    None
}

/// `line` up to a `//` comment that is not inside a string or character literal.
fn without_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '"' || c == '`' || c == '\'' => quote = Some(c),
            None if c == '/' && previous == '/' => return &line[..i - 1],
            None => {}
        }
        previous = c;
    }
    line
}

/// ` 12 | text` and, below it, a `^` under `column` (1-based, in characters; tabs before it
/// are kept so the caret lines up).
pub fn caret_under(line_no: usize, line: &str, column: usize) -> String {
    let num = line_no.to_string();
    let pad: String = line
        .chars()
        .take(column.saturating_sub(1))
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    format!(" {num} | {line}\n {} | {pad}^", " ".repeat(num.len()))
}

fn pos(file: &str, p: Position) -> ScriptPos {
    ScriptPos {
        file: Arc::from(file),
        line: p.line().unwrap_or(0),
        column: p.position().unwrap_or(0),
    }
}

/// `5 s`, or `250 ms` below a second.
fn duration(ms: &u64) -> String {
    let ms = *ms;
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}
