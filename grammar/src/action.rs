//! Action notation: whitespace-separated tokens such as `give 3 to east`.

use std::fmt;
use std::str::FromStr;

use pest::Parser;
use pest_derive::Parser;

use crate::error::{pest_offset, GrammarError};

/// The longest action text accepted, in characters.
pub const MAX_ACTION_CHARS: usize = 1000;

#[derive(Parser)]
#[grammar = "action.pest"]
struct ActionParser;

/// A parsed action: one or more tokens, case kept as typed.
///
/// Its `Display` form is canonical (tokens joined by single spaces) and
/// parses back to an equal value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Notation {
    tokens: Vec<String>,
}

impl Notation {
    /// All tokens, verb first.
    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }

    /// The first token.
    pub fn verb(&self) -> &str {
        // Parsing guarantees at least one token.
        &self.tokens[0]
    }

    /// The tokens after the verb.
    pub fn args(&self) -> &[String] {
        &self.tokens[1..]
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.tokens.join(" "))
    }
}

impl FromStr for Notation {
    type Err = GrammarError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_action(text)
    }
}

/// Parses action notation such as `play 5 @north`.
pub fn parse_action(text: &str) -> Result<Notation, GrammarError> {
    let chars = text.chars().count();
    if chars > MAX_ACTION_CHARS {
        let (past_limit, _) = text
            .char_indices()
            .nth(MAX_ACTION_CHARS)
            .unwrap_or_default();
        return Err(GrammarError::at(
            text,
            past_limit,
            format!("action too long ({chars} characters, at most {MAX_ACTION_CHARS})"),
        ));
    }
    if text.trim().is_empty() {
        return Err(GrammarError::new(1, 1, "empty action"));
    }
    let pairs = ActionParser::parse(Rule::action, text).map_err(|e| rejected(text, e))?;
    let tokens = pairs
        .flatten()
        .filter(|p| p.as_rule() == Rule::token)
        .map(|p| p.as_str().to_owned())
        .collect();
    Ok(Notation { tokens })
}

/// Whitespace is accepted anywhere, so a failure always sits on a bad character.
fn rejected(text: &str, err: pest::error::Error<Rule>) -> GrammarError {
    let pos = pest_offset(&err);
    match text[pos..].chars().next() {
        Some(c) => GrammarError::at(
            text,
            pos,
            format!("{} is not allowed in an action", describe_char(c)),
        ),
        None => GrammarError::from_pest(err, describe_rule),
    }
}

/// Names a character so that invisible ones are still readable.
pub(crate) fn describe_char(c: char) -> String {
    if c.is_control() {
        format!("control character U+{:04X}", c as u32)
    } else if c == '`' {
        "character ` (backtick)".to_owned()
    } else if c.is_ascii() {
        format!("character `{c}`")
    } else {
        format!("character `{c}` (U+{:04X})", c as u32)
    }
}

fn describe_rule(rule: &Rule) -> String {
    match rule {
        Rule::EOI => "end of action",
        _ => "an action",
    }
    .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        parse_action(text).unwrap().tokens().to_vec()
    }

    #[test]
    fn splits_tokens_and_names_verb_and_args() {
        let n = parse_action("play card 5 @north").unwrap();
        assert_eq!(n.verb(), "play");
        assert_eq!(n.args(), ["card", "5", "@north"]);
        assert_eq!(n.tokens().len(), 4);

        let single = parse_action("c3").unwrap();
        assert_eq!(single.verb(), "c3");
        assert!(single.args().is_empty());
    }

    #[test]
    fn accepts_every_permitted_symbol() {
        assert_eq!(tokens("take (9-4)+1"), ["take", "(9-4)+1"]);
        assert_eq!(tokens("take 6×2÷3"), ["take", "6×2÷3"]);
        assert_eq!(
            tokens("x_y a*b/c d.e:f,g #1 @n k=v it's go!"),
            ["x_y", "a*b/c", "d.e:f,g", "#1", "@n", "k=v", "it's", "go!"]
        );
    }

    #[test]
    fn accepts_unicode_letters_and_marks() {
        assert_eq!(tokens("jouer été"), ["jouer", "été"]);
        assert_eq!(tokens("ход ж3 中"), ["ход", "ж3", "中"]);
        // "e" followed by a combining acute accent.
        assert_eq!(tokens("cafe\u{301}"), ["cafe\u{301}"]);
    }

    #[test]
    fn display_collapses_whitespace_and_keeps_case() {
        let n = parse_action("  Give\t3   to\n East ").unwrap();
        assert_eq!(n.to_string(), "Give 3 to East");
        assert_eq!("pass".parse::<Notation>().unwrap().to_string(), "pass");
    }

    #[test]
    fn rejects_empty_and_blank() {
        for text in ["", "   ", "\t\n"] {
            let err = parse_action(text).unwrap_err();
            assert_eq!(err.message, "empty action", "input {text:?}");
        }
    }

    #[test]
    fn rejects_bad_characters_naming_them_and_their_column() {
        let err = parse_action("play 5%").unwrap_err();
        assert_eq!(err.message, "character `%` is not allowed in an action");
        assert_eq!((err.line, err.column), (1, 7));

        let err = parse_action("pass\u{7}").unwrap_err();
        assert_eq!(
            err.message,
            "control character U+0007 is not allowed in an action"
        );
        assert_eq!(err.column, 5);

        // Columns count characters, so the two-byte "é" counts once.
        let err = parse_action("é €").unwrap_err();
        assert_eq!(
            err.message,
            "character `€` (U+20AC) is not allowed in an action"
        );
        assert_eq!(err.column, 3);

        let err = parse_action("a`b").unwrap_err();
        assert_eq!(
            err.message,
            "character ` (backtick) is not allowed in an action"
        );

        let err = parse_action("%").unwrap_err();
        assert_eq!(err.column, 1);
        assert_eq!(
            err.to_string(),
            "character `%` is not allowed in an action (column 1)"
        );
    }

    #[test]
    fn enforces_length_limit() {
        let longest = "a".repeat(MAX_ACTION_CHARS);
        assert!(parse_action(&longest).is_ok());

        let err = parse_action(&format!("{longest}b")).unwrap_err();
        assert_eq!(
            err.message,
            "action too long (1001 characters, at most 1000)"
        );
        assert_eq!(err.column, 1001);

        // The limit counts characters, not bytes.
        let wide = "é".repeat(MAX_ACTION_CHARS);
        assert!(parse_action(&wide).is_ok());
    }

    /// A tiny deterministic generator (xorshift) so the test needs no extra crates.
    struct Gen(u64);

    impl Gen {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        fn pick<T: Copy>(&mut self, items: &[T]) -> T {
            items[self.below(items.len())]
        }
    }

    const TOKEN_CHARS: &[char] = &[
        'a', 'Z', 'q', 'é', 'ж', '中', '0', '7', '9', '_', '-', '+', '*', '/', '(', ')', '.', ':',
        ',', '#', '@', '=', '\'', '!',
    ];
    const GAPS: &[&str] = &[" ", "  ", "\t", " \t ", "\n", "\u{a0}"];

    #[test]
    fn round_trips_generated_actions() {
        let mut g = Gen(0x9E37_79B9_7F4A_7C15);
        for case in 0..500 {
            let words: Vec<String> = (0..1 + g.below(6))
                .map(|_| (0..1 + g.below(8)).map(|_| g.pick(TOKEN_CHARS)).collect())
                .collect();
            let mut text = String::new();
            if g.below(3) == 0 {
                text.push_str(g.pick(GAPS));
            }
            for (i, w) in words.iter().enumerate() {
                if i > 0 {
                    text.push_str(g.pick(GAPS));
                }
                text.push_str(w);
            }
            if g.below(3) == 0 {
                text.push_str(g.pick(GAPS));
            }

            let n = parse_action(&text).unwrap_or_else(|e| panic!("case {case} {text:?}: {e}"));
            assert_eq!(n.tokens(), words.as_slice(), "case {case} {text:?}");
            let canonical = n.to_string();
            assert_eq!(canonical, words.join(" "));
            assert_eq!(parse_action(&canonical), Ok(n), "case {case} {text:?}");
        }
    }
}
