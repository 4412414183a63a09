//! Move generation by direction patterns, so that a game lists the moves of its pieces in one
//! native call instead of a script loop over cells and directions.
//!
//! A pattern is text a designer reads, rules separated by `;`:
//! - `step DIRS onto SYMBOLS`: one step in each direction, onto a cell holding one of SYMBOLS;
//! - `slide DIRS through SYMBOLS [onto SYMBOLS]`: any number of steps over cells holding one of
//!   the `through` symbols (each a destination), then, if the cell that stops the slide holds
//!   one of the `onto` symbols, onto it too (a capture).
//!
//! DIRS are direction names of the grid's shape (`n ne e se s sw w nw` on a square grid).
//! Breakthrough's Black: `step s onto .; step se sw onto .w`. A rook: `slide n e s w through .
//! onto bnrqk`.

use super::grid::{Grid, Shape, SymbolMask};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq)]
struct Rule {
    slide: bool,
    dirs: Vec<(i32, i32)>,
    through: SymbolMask,
    onto: SymbolMask,
}

/// A pattern compiled against one grid's shape and alphabet.
#[derive(Debug, Clone, PartialEq)]
pub struct Pattern {
    rules: Vec<Rule>,
}

/// Patterns compiled so far, by text, then by alphabet and shape: a game lists moves with the
/// same few patterns every step, and parsing them is most of a short list's cost.
type Compiled = Vec<(Arc<[char]>, Shape, Rc<Pattern>)>;

/// Patterns kept per thread: a game uses a few; a script making new ones every step must not
/// grow the cache without end.
const CACHED_PATTERNS: usize = 64;

/// The longest pattern text, so that the cache holds little whatever a script sends.
const MAX_PATTERN_BYTES: usize = 2000;

/// Alphabets and shapes kept per pattern text.
const CACHED_ALPHABETS: usize = 8;

thread_local! {
    static CACHE: RefCell<HashMap<Box<str>, Compiled>> = RefCell::new(HashMap::new());
}

/// This thread's cache: how many texts, and the most alphabets kept for one text.
#[cfg(test)]
fn cache_size() -> (usize, usize) {
    CACHE.with(|c| {
        let c = c.borrow();
        (c.len(), c.values().map(Vec::len).max().unwrap_or(0))
    })
}

impl Pattern {
    /// `text` compiled for `grid` (from the cache when it was compiled before).
    pub fn for_grid(grid: &Grid, text: &str) -> Result<Rc<Pattern>, String> {
        // Patterns are short; a long text would be parsed and kept in the cache for nothing.
        if text.len() > MAX_PATTERN_BYTES {
            return Err(format!(
                "a move pattern is at most {MAX_PATTERN_BYTES} bytes, not {}",
                text.len()
            ));
        }
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if let Some(found) = cache.get(text).and_then(|list| {
                list.iter()
                    .find(|(symbols, shape, _)| *shape == grid.shape && *symbols == grid.symbols)
            }) {
                return Ok(found.2.clone());
            }
            let pattern = Rc::new(Pattern::parse(grid, text)?);
            if cache.len() >= CACHED_PATTERNS && !cache.contains_key(text) {
                cache.clear();
            }
            let compiled = cache.entry(text.into()).or_default();
            // One text on grids of ever new alphabets must not grow the list either.
            if compiled.len() >= CACHED_ALPHABETS {
                compiled.clear();
            }
            compiled.push((grid.symbols.clone(), grid.shape, pattern.clone()));
            Ok(pattern)
        })
    }

    fn parse(grid: &Grid, text: &str) -> Result<Pattern, String> {
        let mut rules = vec![];
        for (k, rule) in text.split(';').enumerate() {
            let words: Vec<&str> = rule.split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            let rule_error =
                |why: String| format!("move rule {} (`{}`): {why}", k + 1, rule.trim());
            rules.push(Rule::parse(grid, &words).map_err(rule_error)?);
        }
        if rules.is_empty() {
            return Err("a move pattern needs at least one rule (`step n onto .`)".into());
        }
        Ok(Pattern { rules })
    }

    /// Every move of the pieces on the cells `pieces`, as (from, to): pieces in the order given,
    /// then rules and directions in the pattern's order. A move two rules allow is listed once.
    pub fn moves(&self, grid: &Grid, pieces: &[usize]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        // For each cell, the last piece (index + 1) that listed a move to it: a move two rules
        // allow is listed once, at the cost of one look.
        let mut listed_by = vec![0u32; grid.len()];
        for &from in pieces {
            let stamp = from as u32 + 1;
            let mut add = |to: usize| {
                if listed_by[to] != stamp {
                    listed_by[to] = stamp;
                    out.push((from, to));
                }
            };
            for rule in &self.rules {
                for &d in &rule.dirs {
                    if !rule.slide {
                        if let Some(to) = grid.step(from, d, 1) {
                            if grid.holds(to, rule.onto) {
                                add(to);
                            }
                        }
                        continue;
                    }
                    let mut at = from;
                    while let Some(to) = grid.step(at, d, 1) {
                        if grid.holds(to, rule.through) {
                            add(to);
                            at = to;
                            continue;
                        }
                        if grid.holds(to, rule.onto) {
                            add(to);
                        }
                        break;
                    }
                }
            }
        }
        out
    }

    /// At most how many cells `moves` looks at for `pieces` pieces on `grid`: what a caller
    /// charges to its work budget before listing.
    pub fn cost(&self, grid: &Grid, pieces: usize) -> u64 {
        let reach = grid.width.max(grid.height) as u64;
        let per_piece: u64 = self
            .rules
            .iter()
            .map(|r| r.dirs.len() as u64 * if r.slide { reach } else { 1 })
            .sum();
        per_piece.saturating_mul(pieces as u64)
    }
}

impl Rule {
    fn parse(grid: &Grid, words: &[&str]) -> Result<Rule, String> {
        let slide = match words[0] {
            "step" => false,
            "slide" => true,
            other => return Err(format!("starts with `step` or `slide`, not `{other}`")),
        };
        let mut dirs = vec![];
        let mut at = 1;
        while at < words.len() && !matches!(words[at], "onto" | "through") {
            dirs.push(grid.shape.direction(words[at])?);
            at += 1;
        }
        if dirs.is_empty() {
            return Err("names no direction".into());
        }
        let mut through = 0;
        let mut onto = 0;
        while at < words.len() {
            let (key, value) = (words[at], words.get(at + 1));
            let Some(value) = value else {
                return Err(format!("`{key}` needs the symbols after it"));
            };
            match key {
                "through" if slide => through = grid.mask(value)?,
                "through" => return Err("a step goes `onto`, only a slide goes `through`".into()),
                "onto" => onto = grid.mask(value)?,
                other => return Err(format!("expected `onto` or `through`, found `{other}`")),
            }
            at += 2;
        }
        if through == 0 && onto == 0 {
            return Err("says neither `onto` nor `through`: no cell could be entered".into());
        }
        Ok(Rule {
            slide,
            dirs,
            through,
            onto,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(diagram: &str) -> Grid {
        let mut g = Grid::new("board", 1, 1, ".bwr").unwrap();
        g.read_diagram(diagram).unwrap();
        g
    }

    fn listed(g: &Grid, pieces: &str, pattern: &str) -> Vec<String> {
        let p = Pattern::for_grid(g, pattern).unwrap();
        p.moves(g, &g.cells_matching(g.mask(pieces).unwrap()))
            .into_iter()
            .map(|(f, t)| format!("{}{}", g.cell_name(f), g.cell_name(t)))
            .collect()
    }

    #[test]
    fn steps_enter_only_the_symbols_named() {
        let g = grid("3 . w .\n2 . b .\n1 . . .");
        // Straight ahead only onto an empty cell; diagonally onto empty or enemy.
        assert_eq!(
            listed(&g, "b", "step n onto .; step ne nw onto .w"),
            ["b2c3", "b2a3"]
        );
        assert_eq!(listed(&g, "b", "step s onto ."), ["b2b1"]);
    }

    #[test]
    fn slides_stop_at_the_first_other_cell_and_may_capture_it() {
        let g = grid("4 . . . .\n3 . w . .\n2 . . . .\n1 . r . b");
        assert_eq!(
            listed(&g, "r", "slide n e w through . onto w"),
            ["b1b2", "b1b3", "b1c1", "b1a1"]
        );
    }

    #[test]
    fn a_move_two_rules_allow_is_listed_once() {
        let g = grid("2 . .\n1 b .");
        assert_eq!(
            listed(&g, "b", "step n onto .; slide n through ."),
            ["a1a2"]
        );
    }

    #[test]
    fn mistakes_name_the_rule() {
        let g = grid("1 b");
        let err = |p: &str| Pattern::for_grid(&g, p).unwrap_err();
        assert!(err("hop n onto .").contains("rule 1"));
        assert!(err("step n onto .; step up onto .").contains("no direction `up`"));
        assert!(err("step n onto z").contains("`z` is not a symbol"));
        assert!(err("step n through .").contains("only a slide"));
        assert!(err("step n").contains("neither"));
        assert!(err(" ; ").contains("at least one rule"));
        assert!(err(&"step n onto .;".repeat(200)).contains("at most 2000 bytes"));
    }

    #[test]
    fn the_cache_stays_small_whatever_grids_a_script_makes() {
        for k in 0..200u32 {
            let symbols: String = ['.', char::from_u32(0x100 + k).unwrap()].iter().collect();
            let g = Grid::new("g", 2, 2, &symbols).unwrap();
            Pattern::for_grid(&g, "step n onto .").unwrap();
            Pattern::for_grid(
                &g,
                &format!("step n onto . ; step s onto .{}", " ".repeat(k as usize)),
            )
            .unwrap();
        }
        let (texts, alphabets) = cache_size();
        assert!(
            texts <= CACHED_PATTERNS && alphabets <= CACHED_ALPHABETS,
            "{texts} texts, {alphabets} alphabets for one"
        );
    }
}
