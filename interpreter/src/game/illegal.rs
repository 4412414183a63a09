//! What an illegal action's error says about the legal ones: only what helps with the action
//! typed. The error goes wherever the line came from, and a seat's options may show its
//! hidden cards, so a long list is summed up; `actions` still lists them all.

use super::Action;
use crate::primitives::grid::Grid;

/// At most this many legal actions are quoted in an error.
const QUOTED: usize = 10;

/// The text after `legal now: ` for `typed`, which is not among `legal`. The closest legal
/// actions are those sharing the most leading words with it: `keep iii zz` is close to
/// `keep iii iv`. They are quoted when there are few; otherwise only counted, by first word.
pub fn hint(legal: &[Action], typed: &str) -> String {
    if legal.is_empty() {
        return "none".into();
    }
    let typed: Vec<&str> = typed.split_whitespace().collect();
    let shared = |a: &Action| {
        a.split_whitespace()
            .zip(&typed)
            .take_while(|(x, y)| x == *y)
            .count()
    };
    let best = legal.iter().map(shared).max().unwrap_or(0);
    let close: Vec<&str> = legal
        .iter()
        .filter(|a| shared(a) == best)
        .map(|a| a.as_str())
        .collect();
    if close.len() <= QUOTED {
        let list = close.join(", ");
        return if close.len() == legal.len() {
            list
        } else {
            format!(
                "{list} ({} of {} legal; `actions` lists all)",
                close.len(),
                legal.len()
            )
        };
    }
    format!(
        "{} actions ({}); `actions` lists them",
        legal.len(),
        by_first_word(legal)
    )
}

/// Why `typed` is not legal, when that can be told without the script, as the text after
/// the refusal's seat (`: ...`), else empty: its first word is written as a cell but lies on
/// no grid (`z9` on an 11x11 board), or no legal action starts with that word now (`shoot`
/// before any combat).
pub fn why(legal: &[Action], grids: &[Grid], typed: &str) -> String {
    let Some(first) = typed.split_whitespace().next() else {
        return String::new();
    };
    if !grids.is_empty() && Grid::is_cell_shaped(first) {
        if grids.iter().any(|g| g.cell_index(first).is_some()) {
            // A cell of the board: a place, not a kind of action.
            return String::new();
        }
        let extent = |g: &Grid| format!("{} to {}", g.cell_name(0), g.cell_name(g.len() - 1));
        return match grids {
            [g] => format!(": `{first}` is off the board ({})", extent(g)),
            _ => {
                let each: Vec<String> = grids
                    .iter()
                    .map(|g| format!("{} {}", g.name, extent(g)))
                    .collect();
                format!(": `{first}` is on no grid ({})", each.join(", "))
            }
        };
    }
    let starts = |a: &Action| a.split_whitespace().next() == Some(first);
    // A one-word action is its own first word: the refusal says it all.
    if first == typed || legal.is_empty() || legal.iter().any(starts) {
        return String::new();
    }
    format!(": no `{first}` action is legal now")
}

/// `keep ... 11, pass 1`: how many legal actions start with each first word, in list order.
fn by_first_word(legal: &[Action]) -> String {
    let mut counts: Vec<(&str, usize, bool)> = vec![];
    for a in legal {
        let mut words = a.split_whitespace();
        let first = words.next().unwrap_or("");
        let more = words.next().is_some();
        match counts.iter_mut().find(|(w, _, _)| *w == first) {
            Some(c) => {
                c.1 += 1;
                c.2 |= more;
            }
            None => counts.push((first, 1, more)),
        }
    }
    if counts.len() > QUOTED {
        return format!("{} different first words", counts.len());
    }
    counts
        .iter()
        .map(|(w, n, more)| format!("`{w}{}` {n}", if *more { " ..." } else { "" }))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acts(list: &[&str]) -> Vec<Action> {
        list.iter().map(|a| Action::from(*a)).collect()
    }

    #[test]
    fn a_short_list_is_quoted_whole() {
        let legal = acts(&["a5", "b5", "b6"]);
        assert_eq!(hint(&legal, "k1"), "a5, b5, b6");
        assert_eq!(hint(&[], "k1"), "none");
    }

    #[test]
    fn the_closest_actions_are_quoted_with_a_count() {
        let legal = acts(&["keep i ii", "keep i v", "keep ii v", "pass"]);
        assert_eq!(
            hint(&legal, "keep i zz"),
            "keep i ii, keep i v (2 of 4 legal; `actions` lists all)"
        );
    }

    #[test]
    fn a_long_list_is_only_counted() {
        let mut list: Vec<String> = (0..12).map(|i| format!("keep {i} {i}")).collect();
        list.push("pass".into());
        let legal: Vec<Action> = list.iter().map(|a| Action::from(a.as_str())).collect();
        let text = hint(&legal, "keep zz");
        assert_eq!(
            text,
            "13 actions (`keep ...` 12, `pass` 1); `actions` lists them"
        );
        assert!(!text.contains("keep 3"), "{text}");
    }
}
