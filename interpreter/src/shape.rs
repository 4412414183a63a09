//! Declared action shapes (`[actions] shapes = ["move {node}", "{cell}"]` in game.toml): the
//! words and typed slots of a game's actions, so that each argument says what it names.

use crate::notation;
use serde::Serialize;
use std::fmt;

/// The most shapes a game may declare (its own and its verbs' together).
pub const MAX_SHAPES: usize = 1024;

/// What a slot of a shape names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A cell of a grid (`c3`).
    Cell,
    /// A column of a grid, by its letter (`c`): where a piece drops.
    Column,
    /// Two cells of a grid written as one word, from and to (`a7a6`).
    Cells,
    /// A card, by its name as the acting seat sees it.
    Card,
    /// One of several pieces of one name (minis, tokens: cards of one name), told apart by
    /// its card id: `<name>-<id>` (`adult-42`), the name starting with a letter.
    Piece,
    /// A node of a graph, by name or by a node value (`{node:map.number}`).
    Node,
    /// An edge of a graph, by index or by an edge value.
    Edge,
    /// A seat, by name.
    Seat,
    /// A whole number.
    Number,
    /// Any word.
    Word,
}

impl Kind {
    pub const ALL: [(&'static str, Kind); 10] = [
        ("cell", Kind::Cell),
        ("column", Kind::Column),
        ("cells", Kind::Cells),
        ("card", Kind::Card),
        ("piece", Kind::Piece),
        ("node", Kind::Node),
        ("edge", Kind::Edge),
        ("seat", Kind::Seat),
        ("number", Kind::Number),
        ("word", Kind::Word),
    ];

    pub fn name(self) -> &'static str {
        Kind::ALL
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("word", |(n, _)| n)
    }

    fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.iter().find(|(n, _)| *n == name).map(|(_, k)| *k)
    }

    /// Whether the kind names a card, which only the seat's view may tell.
    pub fn names_card(self) -> bool {
        matches!(self, Kind::Card | Kind::Piece)
    }

    /// Whether the kind names a part of a grid (`cell`) or of a graph (`node`, `edge`).
    pub fn board(self) -> Option<&'static str> {
        match self {
            Kind::Cell | Kind::Column | Kind::Cells => Some("grid"),
            Kind::Node | Kind::Edge => Some("graph"),
            _ => None,
        }
    }
}

/// A typed slot: `{kind}`, `{cell:board}`, `{node:map.number}`, `{card...}` (one or more).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    pub kind: Kind,
    /// The grid or graph named (`cell:board`); None: the game's only one.
    pub of: Option<String>,
    /// For a node or an edge: the value whose number the token is (`node:map.number`).
    pub key: Option<String>,
    /// The last slot may take one or more tokens.
    pub many: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Word(String),
    Slot(Slot),
}

/// One declared shape, with where it was declared (`game.toml:12:14`) for later errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub text: String,
    pub parts: Vec<Part>,
    pub at: String,
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Shape {
    /// The shape's first word, when it starts with one (`move` of `move {node}`).
    pub fn verb(&self) -> Option<&str> {
        match self.parts.first() {
            Some(Part::Word(w)) => Some(w),
            _ => None,
        }
    }

    pub fn slots(&self) -> impl Iterator<Item = &Slot> {
        self.parts.iter().filter_map(|p| match p {
            Part::Slot(s) => Some(s),
            Part::Word(_) => None,
        })
    }
}

/// Parses a shape; an error is (byte offset in `text`, message).
pub fn parse(text: &str, at: String) -> Result<Shape, (usize, String)> {
    let mut parts = vec![];
    let mut offset = 0;
    for token in text.split(' ') {
        let here = offset;
        offset += token.len() + 1;
        if token.is_empty() {
            return Err((
                here,
                "a shape is words and `{slots}` separated by single spaces".into(),
            ));
        }
        if parts
            .last()
            .is_some_and(|p| matches!(p, Part::Slot(Slot { many: true, .. })))
        {
            return Err((
                here,
                "only the last slot may take several words (`...`)".into(),
            ));
        }
        match token.strip_prefix('{') {
            Some(inner) => parts.push(Part::Slot(slot(inner).map_err(|m| (here, m))?)),
            None => {
                if token.contains(['{', '}']) {
                    return Err((
                        here,
                        format!("`{token}`: a slot is a whole word, `{{kind}}`"),
                    ));
                }
                if let Some(why) = notation::action_problem(token) {
                    return Err((here, format!("`{token}`: {why}")));
                }
                parts.push(Part::Word(token.to_string()));
            }
        }
    }
    Ok(Shape {
        text: text.to_string(),
        parts,
        at,
    })
}

/// `kind[:name][.key][...]}` (the text after `{`).
fn slot(inner: &str) -> Result<Slot, String> {
    let kinds = || {
        Kind::ALL
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some(body) = inner.strip_suffix('}') else {
        return Err(format!("`{{{inner}`: a slot ends with `}}`"));
    };
    let (body, many) = match body.strip_suffix("...") {
        Some(b) => (b, true),
        None => (body, false),
    };
    let (head, key) = match body.split_once('.') {
        Some((h, k)) => (h, Some(k.to_string())),
        None => (body, None),
    };
    let (kind_name, of) = match head.split_once(':') {
        Some((k, o)) => (k, Some(o.to_string())),
        None => (head, None),
    };
    let kind = Kind::parse(kind_name)
        .ok_or_else(|| format!("`{{{inner}`: no kind `{kind_name}` (kinds: {})", kinds()))?;
    let plain = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    };
    if let Some(o) = &of {
        if kind.board().is_none() {
            return Err(format!(
                "`{{{inner}`: a `{kind_name}` names no grid or graph (only cell, column, cells, node and edge take `:name`)"
            ));
        }
        if !plain(o) {
            return Err(format!("`{{{inner}`: `{o}` is not a grid or graph name"));
        }
    }
    if let Some(k) = &key {
        if !matches!(kind, Kind::Node | Kind::Edge) || !plain(k) {
            return Err(format!(
                "`{{{inner}`: only a node or an edge is read by a value (`{{node:map.number}}`)"
            ));
        }
    }
    Ok(Slot {
        kind,
        of,
        key,
        many,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Shape {
        parse(text, String::new()).unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    #[test]
    fn reads_words_and_slots() {
        let s = ok("move {node:ship.number}");
        assert_eq!(s.verb(), Some("move"));
        let slot = s.slots().next().unwrap();
        assert_eq!(
            (
                slot.kind,
                slot.of.as_deref(),
                slot.key.as_deref(),
                slot.many
            ),
            (Kind::Node, Some("ship"), Some("number"), false)
        );
        assert_eq!(ok("{cell}").verb(), None);
        assert!(ok("trade {seat...}").slots().next().unwrap().many);
    }

    #[test]
    fn refuses_bad_shapes_at_their_word() {
        let err = |t: &str| parse(t, String::new()).unwrap_err();
        assert_eq!(err("move {room}").0, 5);
        assert!(err("move {room}").1.contains("no kind `room`"));
        assert!(err("{seat:board}").1.contains("names no grid"));
        assert!(err("{card...} {card}").1.contains("only the last slot"));
        assert!(err("a  b").1.contains("single spaces"));
        assert!(err("{cell").1.contains("ends with"));
        assert!(err("x{cell}").1.contains("whole word"));
        assert!(err("{seat.n}").1.contains("read by a value"));
    }
}
