//! The error type shared by all grammars, and its conversion from pest errors.

use std::collections::HashSet;
use std::fmt;

use pest::error::{Error as PestError, ErrorVariant, InputLocation, LineColLocation};
use pest::{Position, RuleType};

/// A parse error with a 1-based line and column (counted in characters).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct GrammarError {
    /// 1-based line of the offending input.
    pub line: usize,
    /// 1-based column of the offending input, in characters.
    pub column: usize,
    /// A short, human message such as "expected a number".
    pub message: String,
}

impl fmt::Display for GrammarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Input is almost always one line, so only name the line when it matters.
        if self.line == 1 {
            write!(f, "{} (column {})", self.message, self.column)
        } else {
            write!(
                f,
                "{} (line {}, column {})",
                self.message, self.line, self.column
            )
        }
    }
}

impl GrammarError {
    /// An error at the given line and column.
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            column,
            message: message.into(),
        }
    }

    /// An error at byte offset `pos` of `input`.
    pub(crate) fn at(input: &str, pos: usize, message: impl Into<String>) -> Self {
        let (line, column) = Position::new(input, pos)
            .map(|p| p.line_col())
            .unwrap_or((1, 1));
        Self::new(line, column, message)
    }

    /// Converts a pest error, naming rules with `describe` (duplicates merged).
    pub(crate) fn from_pest<R: RuleType>(
        mut err: PestError<R>,
        describe: impl Fn(&R) -> String,
    ) -> Self {
        // Several rules may share one description ("an operator"); list it once.
        if let ErrorVariant::ParsingError {
            positives,
            negatives,
        } = &mut err.variant
        {
            dedup_by_description(positives, &describe);
            dedup_by_description(negatives, &describe);
            // pest lists rules in grammar order; "end of input" reads best last.
            positives.sort_by_key(|r| format!("{r:?}") == "EOI");
        }
        let (line, column) = match err.line_col {
            LineColLocation::Pos(lc) | LineColLocation::Span(lc, _) => lc,
        };
        let err = err.renamed_rules(|r| describe(r));
        Self::new(line, column, err.variant.message().into_owned())
    }

    /// Moves an error found in a piece of text to where that piece starts.
    pub(crate) fn shifted(mut self, start_line: usize, start_column: usize) -> Self {
        if self.line == 1 {
            self.column += start_column - 1;
        }
        self.line += start_line - 1;
        self
    }

    /// Appends more text to the message, e.g. a usage line.
    pub(crate) fn with_suffix(mut self, suffix: &str) -> Self {
        self.message.push_str(suffix);
        self
    }
}

/// Byte offset where a pest error was found.
pub(crate) fn pest_offset<R>(err: &PestError<R>) -> usize {
    match err.location {
        InputLocation::Pos(p) | InputLocation::Span((p, _)) => p,
    }
}

fn dedup_by_description<R>(rules: &mut Vec<R>, describe: &impl Fn(&R) -> String) {
    let mut seen = HashSet::new();
    rules.retain(|r| seen.insert(describe(r)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_column_and_line_only_when_needed() {
        assert_eq!(
            GrammarError::new(1, 4, "expected a number").to_string(),
            "expected a number (column 4)"
        );
        assert_eq!(
            GrammarError::new(2, 3, "oops").to_string(),
            "oops (line 2, column 3)"
        );
    }

    #[test]
    fn at_counts_characters_not_bytes() {
        // "é" is two bytes; the `x` after it is the third character.
        let err = GrammarError::at("éax", 3, "here");
        assert_eq!((err.line, err.column), (1, 3));
        let err = GrammarError::at("ab\ncd", 4, "here");
        assert_eq!((err.line, err.column), (2, 2));
    }

    #[test]
    fn shifted_moves_first_line_columns_only() {
        let e = GrammarError::new(1, 2, "m").shifted(1, 5);
        assert_eq!((e.line, e.column), (1, 6));
        let e = GrammarError::new(2, 2, "m").shifted(1, 5);
        assert_eq!((e.line, e.column), (2, 2));
    }
}
