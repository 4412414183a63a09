//! Rhai face of integer expressions (`boardscript_grammar::parse_expr`) and of
//! `primitives::arith`: read an expression a player typed, and find the ones a set of numbers
//! can make.

use super::{budget, fail, Fallible};
use crate::primitives::arith::{self, Search, TooMuchWork};
use boardscript_grammar::{parse_expr, Ops};
use rhai::{Array, Dynamic, Engine, ImmutableString, Map, INT};

/// The deepest parentheses `parse_expr` reads.
const MAX_PARENS: usize = 64;

/// `parse_expr(text, mul_div)`: `#{ value, numbers, text }` (numbers left to right, text
/// canonical), or an error naming the column, a division by zero or an inexact division.
/// `×` and `÷` may stand for `*` and `/`.
fn parse(text: &str, mul_div: bool) -> Fallible<Map> {
    // Parsing, evaluating and dropping an expression all recurse once per parenthesis.
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > MAX_PARENS {
            return fail(format!(
                "parse_expr: parentheses nested more than {MAX_PARENS} deep"
            ));
        }
    }
    let text = text.replace('×', "*").replace('÷', "/");
    let ops = if mul_div { Ops::ALL } else { Ops::ADD_SUB };
    let expr = match parse_expr(&text, ops) {
        Ok(e) => e,
        Err(e) => return fail(format!("`{text}`: {e}")),
    };
    let value = match expr.eval() {
        Ok(v) => v,
        Err(e) => return fail(format!("`{text}`: {e}")),
    };
    let mut out = Map::new();
    out.insert("value".into(), Dynamic::from(value as INT));
    out.insert("numbers".into(), Dynamic::from(ints(expr.numbers())));
    out.insert(
        "text".into(),
        Dynamic::from(ImmutableString::from(expr.to_string())),
    );
    Ok(out)
}

/// `arith_search(numbers, target, mul_div, max_results, max_numbers)`: one `#{ numbers, expr }`
/// per distinct multiset of `numbers` (each used at most once) that makes `target`, fewest
/// numbers first; only the first `max_numbers` numbers are considered.
fn search(
    numbers: Array,
    target: INT,
    mul_div: bool,
    max_results: INT,
    max_numbers: INT,
) -> Fallible<Array> {
    let mut nums = Vec::with_capacity(numbers.len());
    for d in &numbers {
        match d.as_int() {
            Ok(n) => nums.push(n),
            Err(t) => {
                return fail(format!(
                    "arith_search: numbers must be integers, found `{t}`"
                ))
            }
        }
    }
    let search = Search {
        mul_div,
        max_results: max_results.max(0) as usize,
        max_numbers: max_numbers.max(0) as usize,
        max_steps: budget::SEARCH_STEPS.min(budget::left()),
        deadline: budget::deadline(),
    };
    let (found, steps) = match arith::counted_solutions(&nums, target, search) {
        Ok(found) => found,
        Err(TooMuchWork::Time) => return budget::timed_out(),
        Err(e) => return fail(format!("arith_search: {e}")),
    };
    budget::charge(steps + found.len() as u64, "arith_search")?;
    Ok(found
        .into_iter()
        .map(|s| {
            let mut m = Map::new();
            m.insert("numbers".into(), Dynamic::from(ints(s.numbers)));
            m.insert(
                "expr".into(),
                Dynamic::from(ImmutableString::from(s.expr.to_string())),
            );
            Dynamic::from(m)
        })
        .collect())
}

fn ints(v: Vec<i64>) -> Array {
    v.into_iter().map(|n| Dynamic::from(n as INT)).collect()
}

pub fn register(engine: &mut Engine) {
    engine
        .register_fn("parse_expr", parse)
        .register_fn("arith_search", search);
}
