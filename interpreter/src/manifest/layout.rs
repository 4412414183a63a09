//! `[layout]` of game.toml: optional hints for a page that draws the game (colours by seat,
//! by grid cell symbol and by card name; where a graph's nodes sit). None is required, the
//! rules never read them (so they cost a game nothing as it plays), and each is checked at
//! load so that only a plain colour or a bounded position reaches a page.

use super::data::line_col;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use toml::Spanned;

/// The most entries one table of `[layout]` holds.
pub const MAX_LAYOUT_ENTRIES: usize = 256;

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLayout {
    /// `seats = { x = "red", o = "gold" }`: a colour per seat name.
    #[serde(default)]
    seats: BTreeMap<String, Spanned<String>>,
    /// `cells = { x = "red" }`: a colour per grid cell symbol.
    #[serde(default)]
    cells: BTreeMap<String, Spanned<String>>,
    /// `cards = { fire = "#d33" }`: a colour per card name.
    #[serde(default)]
    cards: BTreeMap<String, Spanned<String>>,
    /// `[layout.nodes.ship] cockpit = [40, 500]`: where each node of a graph sits, `[x, y]`
    /// in thousandths of the drawing (0 to 1000, y downwards).
    #[serde(default)]
    nodes: BTreeMap<String, BTreeMap<String, Spanned<Vec<i64>>>>,
}

/// The largest coordinate of a node's position: positions are thousandths of the drawing.
pub const LAYOUT_SCALE: i64 = 1000;

/// A game's layout hints, checked: each colour a colour word (`red`) or a hex code
/// (`#c33`, `#cc3333`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Layout {
    pub seats: BTreeMap<String, String>,
    pub cells: BTreeMap<String, String>,
    pub cards: BTreeMap<String, String>,
    /// Per graph, per node name: `[x, y]`, each 0 to [`LAYOUT_SCALE`].
    pub nodes: BTreeMap<String, BTreeMap<String, [i64; 2]>>,
}

impl Layout {
    pub fn is_empty(&self) -> bool {
        self.seats.is_empty()
            && self.cells.is_empty()
            && self.cards.is_empty()
            && self.nodes.is_empty()
    }
}

/// Whether `c` is a colour a page may put in a style as it is: letters only (a colour
/// word), or `#` and 3, 4, 6 or 8 hex digits.
pub fn is_plain_colour(c: &str) -> bool {
    match c.strip_prefix('#') {
        Some(hex) => {
            matches!(hex.len(), 3 | 4 | 6 | 8) && hex.chars().all(|d| d.is_ascii_hexdigit())
        }
        None => (1..=32).contains(&c.len()) && c.chars().all(|l| l.is_ascii_alphabetic()),
    }
}

/// Reads `raw` over `base` (a variant's entries replace its base's); `seats` are the names a
/// seat may have. An error names the file, line and column of the value at fault.
pub(super) fn read(
    raw: RawLayout,
    mut base: Layout,
    seats: &[String],
    text: &str,
    file: &str,
) -> Result<Layout, String> {
    let at = |offset: usize| {
        let (line, column) = line_col(text, offset);
        format!("{file}:{line}:{column}")
    };
    let tables = [
        ("seats", raw.seats, &mut base.seats),
        ("cells", raw.cells, &mut base.cells),
        ("cards", raw.cards, &mut base.cards),
    ];
    for (table, entries, into) in tables {
        for (key, colour) in entries {
            let place = at(colour.span().start);
            if !is_plain_colour(colour.get_ref()) {
                return Err(format!(
                    "{place}: layout.{table}.{}: {} is not a colour: give a colour word \
                     (`red`) or a hex code (`#c33`)",
                    super::check::shown(&key),
                    super::check::shown(colour.get_ref())
                ));
            }
            if table == "seats" && !seats.contains(&key) {
                return Err(format!(
                    "{place}: layout.seats: no seat {} (seats: {})",
                    super::check::shown(&key),
                    seats.join(", ")
                ));
            }
            check_name(&key, &place, table)?;
            into.insert(key, colour.into_inner());
            if into.len() > MAX_LAYOUT_ENTRIES {
                return Err(format!(
                    "{place}: layout.{table}: at most {MAX_LAYOUT_ENTRIES} entries"
                ));
            }
        }
    }
    for (graph, nodes) in raw.nodes {
        let into = base.nodes.entry(graph.clone()).or_default();
        for (node, position) in nodes {
            let place = at(position.span().start);
            let whole = match position.get_ref().as_slice() {
                [x, y] if (0..=LAYOUT_SCALE).contains(x) && (0..=LAYOUT_SCALE).contains(y) => {
                    [*x, *y]
                }
                _ => {
                    return Err(format!(
                        "{place}: layout.nodes.{}.{}: give `[x, y]`, two whole numbers from \
                         0 to {LAYOUT_SCALE}",
                        super::check::shown(&graph),
                        super::check::shown(&node)
                    ))
                }
            };
            check_name(&graph, &place, "nodes")?;
            check_name(&node, &place, "nodes")?;
            into.insert(node, whole);
            if into.len() > MAX_LAYOUT_ENTRIES {
                return Err(format!(
                    "{place}: layout.nodes.{}: at most {MAX_LAYOUT_ENTRIES} entries",
                    super::check::shown(&graph)
                ));
            }
        }
    }
    if base.nodes.len() > MAX_LAYOUT_ENTRIES {
        return Err(format!(
            "{file}: layout.nodes: at most {MAX_LAYOUT_ENTRIES} graphs"
        ));
    }
    Ok(base)
}

fn check_name(name: &str, place: &str, table: &str) -> Result<(), String> {
    if name.is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
        return Err(format!(
            "{place}: layout.{table}: a name is 1 to 64 printable characters"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_colour_words_and_hex_codes_are_plain() {
        for good in ["red", "Gold", "#c33", "#cc3333", "#cc3333ff"] {
            assert!(is_plain_colour(good), "{good}");
        }
        for bad in [
            "",
            "#",
            "#12345",
            "red;",
            "url(x)",
            "expression(1)",
            "#ggg",
            "light grey",
            "rgb(1,2,3)",
        ] {
            assert!(!is_plain_colour(bad), "{bad}");
        }
    }
}
