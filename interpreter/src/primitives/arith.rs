//! Making a target number from a set of numbers, each used once, with `+`, `-`, parentheses
//! and optionally `*` and `/` (exact division): the search behind Countdown-like rules.
//!
//! [`solutions`] answers "which multisets of these numbers can make this target?", with one
//! canonical expression per distinct multiset, in a fixed order and within caps.

use boardscript_grammar::Expr;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::time::Instant;

/// How far a search may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Search {
    /// Whether `*` and `/` may be used (every division exact).
    pub mul_div: bool,
    /// The most solutions returned.
    pub max_results: usize,
    /// Only the first `max_numbers` numbers given are considered.
    pub max_numbers: usize,
    /// The most steps (sets of numbers tried, values combined) the search may take: the
    /// search is exponential in the numbers considered, so it stops with an error rather than
    /// run for minutes or eat all memory.
    pub max_steps: u64,
    /// When the search must stop whatever steps are left (the caller's own deadline).
    pub deadline: Option<Instant>,
}

/// A search stopped before it was done: it needed more than `max_steps`, or ran past the
/// deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TooMuchWork {
    Steps(u64),
    Time,
}

impl std::fmt::Display for TooMuchWork {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TooMuchWork::Steps(max) => write!(
                f,
                "the search needs more than {max} steps; consider fewer numbers"
            ),
            TooMuchWork::Time => f.write_str("the search ran out of time"),
        }
    }
}

/// Steps left to a search, and its deadline.
struct Steps {
    left: u64,
    max: u64,
    deadline: Option<Instant>,
}

impl Steps {
    /// Steps between two looks at the clock.
    const CLOCK_EVERY: u64 = 1 << 14;

    fn take(&mut self, n: u64) -> Result<(), TooMuchWork> {
        let Some(left) = self.left.checked_sub(n) else {
            return Err(TooMuchWork::Steps(self.max));
        };
        if left / Steps::CLOCK_EVERY != self.left / Steps::CLOCK_EVERY
            && self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            return Err(TooMuchWork::Time);
        }
        self.left = left;
        Ok(())
    }
}

/// One multiset of numbers that makes the target, and an expression that shows how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The numbers used, ascending.
    pub numbers: Vec<i64>,
    /// An expression using exactly those numbers, each once, whose value is the target.
    pub expr: Expr,
}

/// Every distinct multiset of `numbers` (one or more of them, each used at most once) that
/// makes `target`: fewest numbers first, then ascending numbers; at most
/// `search.max_results`. With `+` and `-` only, the expression lists the added numbers
/// (largest first) then the subtracted ones, as in `11-3-2`. Fails when the search would take
/// more than `search.max_steps`.
pub fn solutions(
    numbers: &[i64],
    target: i64,
    search: Search,
) -> Result<Vec<Solution>, TooMuchWork> {
    counted_solutions(numbers, target, search).map(|(found, _)| found)
}

/// [`solutions`], and the steps the search took.
pub fn counted_solutions(
    numbers: &[i64],
    target: i64,
    search: Search,
) -> Result<(Vec<Solution>, u64), TooMuchWork> {
    let steps = &mut Steps {
        left: search.max_steps,
        max: search.max_steps,
        deadline: search.deadline,
    };
    let considered = &numbers[..numbers.len().min(search.max_numbers)];
    let mut counts: BTreeMap<i64, usize> = BTreeMap::new();
    for &n in considered {
        *counts.entry(n).or_default() += 1;
    }
    let distinct: Vec<(i64, usize)> = counts.into_iter().collect();
    let mut multisets = sub_multisets(&distinct, steps)?;
    multisets.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    let mut values = Values::default();
    let mut out = Vec::new();
    for m in multisets.into_iter().filter(|m| !m.is_empty()) {
        if out.len() >= search.max_results {
            break;
        }
        let expr = if search.mul_div {
            values
                .of(&m, steps)?
                .get(&target)
                .map(|node| node.to_expr())
        } else {
            signed_sum(&m, target, steps)?
        };
        if let Some(expr) = expr {
            out.push(Solution { numbers: m, expr });
        }
    }
    Ok((out, search.max_steps - steps.left))
}

/// Every sub-multiset of the multiset given as (value, count) pairs, each ascending. Their
/// number is known before any is built, and paid for first.
fn sub_multisets(
    distinct: &[(i64, usize)],
    steps: &mut Steps,
) -> Result<Vec<Vec<i64>>, TooMuchWork> {
    let count = distinct.iter().try_fold(1u64, |n, &(_, c)| {
        let n = n.checked_mul(c as u64 + 1)?;
        (n <= steps.left).then_some(n)
    });
    steps.take(count.unwrap_or(u64::MAX))?;
    let mut out = vec![vec![]];
    for &(v, c) in distinct {
        let mut next = Vec::with_capacity(out.len() * (c + 1));
        for m in &out {
            for k in 0..=c {
                let mut m2 = m.clone();
                m2.extend(std::iter::repeat_n(v, k));
                next.push(m2);
            }
        }
        out = next;
    }
    Ok(out)
}

/// `+`/`-` only: a sign for each number, at least one `+`, summing to `target`. The added
/// numbers must sum to (total + target) / 2.
fn signed_sum(m: &[i64], target: i64, steps: &mut Steps) -> Result<Option<Expr>, TooMuchWork> {
    // Sums of script-given numbers may overflow: such a multiset makes nothing.
    let Some(total) = m.iter().try_fold(0i64, |t, &n| t.checked_add(n)) else {
        return Ok(None);
    };
    let Some(twice) = total.checked_add(target) else {
        return Ok(None);
    };
    if twice % 2 != 0 {
        return Ok(None);
    }
    let want = twice / 2;
    // Search positive subsets, largest numbers first, so the expression reads `9-3`.
    let desc: Vec<i64> = m.iter().rev().copied().collect();
    let mut plus = vec![false; desc.len()];
    if !pick_sum(&desc, 0, want, &mut plus, steps)? || !plus.iter().any(|&p| p) {
        return Ok(None);
    }
    let pos = desc.iter().zip(&plus).filter(|(_, &p)| p).map(|(&n, _)| n);
    let neg = desc.iter().zip(&plus).filter(|(_, &p)| !p).map(|(&n, _)| n);
    let mut acc: Option<Expr> = None;
    for n in pos {
        acc = Some(match acc {
            None => Expr::Num(n),
            Some(e) => Expr::Add(Box::new(e), Box::new(Expr::Num(n))),
        });
    }
    let Some(mut acc) = acc else {
        return Ok(None);
    };
    for n in neg {
        acc = Expr::Sub(Box::new(acc), Box::new(Expr::Num(n)));
    }
    Ok(Some(acc))
}

/// Marks in `plus` a subset of `items[i..]` summing to `want` (depth-first, taking first).
fn pick_sum(
    items: &[i64],
    i: usize,
    want: i64,
    plus: &mut [bool],
    steps: &mut Steps,
) -> Result<bool, TooMuchWork> {
    steps.take(1)?;
    if want == 0 && plus.iter().any(|&p| p) {
        return Ok(true);
    }
    if i == items.len() {
        return Ok(false);
    }
    plus[i] = true;
    if let Some(rest) = want.checked_sub(items[i]) {
        if pick_sum(items, i + 1, rest, plus, steps)? {
            return Ok(true);
        }
    }
    plus[i] = false;
    pick_sum(items, i + 1, want, plus, steps)
}

/// An expression tree whose subtrees are shared between the values found.
enum Node {
    Num(i64),
    Op(char, Rc<Node>, Rc<Node>),
}

impl Node {
    fn to_expr(&self) -> Expr {
        match self {
            Node::Num(n) => Expr::Num(*n),
            Node::Op(op, l, r) => {
                let (l, r) = (Box::new(l.to_expr()), Box::new(r.to_expr()));
                match op {
                    '+' => Expr::Add(l, r),
                    '-' => Expr::Sub(l, r),
                    '*' => Expr::Mul(l, r),
                    _ => Expr::Div(l, r),
                }
            }
        }
    }
}

/// Every value a multiset makes using all its numbers, each with the first expression found;
/// memoised by multiset.
#[derive(Default)]
struct Values {
    memo: HashMap<Vec<i64>, Rc<BTreeMap<i64, Rc<Node>>>>,
}

impl Values {
    fn of(
        &mut self,
        m: &[i64],
        steps: &mut Steps,
    ) -> Result<Rc<BTreeMap<i64, Rc<Node>>>, TooMuchWork> {
        if let Some(v) = self.memo.get(m) {
            return Ok(v.clone());
        }
        let mut out: BTreeMap<i64, Rc<Node>> = BTreeMap::new();
        if m.len() == 1 {
            out.insert(m[0], Rc::new(Node::Num(m[0])));
        } else {
            // Split into a left part holding m[0] and a non-empty right part: each unordered
            // split once, each value found in a fixed order.
            let (first, rest) = (m[0], &m[1..]);
            let mut counts: BTreeMap<i64, usize> = BTreeMap::new();
            for &n in rest {
                *counts.entry(n).or_default() += 1;
            }
            let distinct: Vec<(i64, usize)> = counts.into_iter().collect();
            for extra in sub_multisets(&distinct, steps)? {
                if extra.len() == rest.len() {
                    continue;
                }
                let mut left = vec![first];
                left.extend(&extra);
                left.sort_unstable();
                let right = minus(rest, &extra);
                let (lv, rv) = (self.of(&left, steps)?, self.of(&right, steps)?);
                steps.take(lv.len() as u64 * rv.len() as u64)?;
                for (&a, an) in lv.iter() {
                    for (&b, bn) in rv.iter() {
                        combine(&mut out, a, an, b, bn);
                    }
                }
            }
        }
        let out = Rc::new(out);
        self.memo.insert(m.to_vec(), out.clone());
        Ok(out)
    }
}

/// `whole` less the numbers of `part` (both ascending; `part` is a sub-multiset).
fn minus(whole: &[i64], part: &[i64]) -> Vec<i64> {
    let mut out = Vec::with_capacity(whole.len() - part.len());
    let mut j = 0;
    for &n in whole {
        if j < part.len() && part[j] == n {
            j += 1;
        } else {
            out.push(n);
        }
    }
    out
}

/// Records every value two parts make with one operator (in either order), keeping the
/// first expression found for each value.
fn combine(out: &mut BTreeMap<i64, Rc<Node>>, a: i64, an: &Rc<Node>, b: i64, bn: &Rc<Node>) {
    let mut put = |v: Option<i64>, op: char, l: &Rc<Node>, r: &Rc<Node>| {
        if let Some(v) = v {
            out.entry(v)
                .or_insert_with(|| Rc::new(Node::Op(op, l.clone(), r.clone())));
        }
    };
    put(a.checked_add(b), '+', an, bn);
    put(a.checked_sub(b), '-', an, bn);
    put(b.checked_sub(a), '-', bn, an);
    put(a.checked_mul(b), '*', an, bn);
    if b != 0 && a.checked_rem(b) == Some(0) {
        put(a.checked_div(b), '/', an, bn);
    }
    if a != 0 && b.checked_rem(a) == Some(0) {
        put(b.checked_div(a), '/', bn, an);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADD_SUB: Search = Search {
        mul_div: false,
        max_results: 100,
        max_numbers: 12,
        max_steps: 10_000_000,
        deadline: None,
    };
    const ALL: Search = Search {
        mul_div: true,
        ..ADD_SUB
    };

    fn found(numbers: &[i64], target: i64, s: Search) -> Vec<String> {
        solutions(numbers, target, s)
            .expect("within the steps")
            .into_iter()
            .map(|sol| {
                assert_eq!(sol.expr.eval(), Ok(target), "{}", sol.expr);
                let mut used = sol.expr.numbers();
                used.sort_unstable();
                assert_eq!(used, sol.numbers);
                sol.expr.to_string()
            })
            .collect()
    }

    #[test]
    fn sums_and_differences_one_per_multiset() {
        // CD-5 (a): star 6 with 2, 3, 5, 9, 11, 14 in hand.
        let got = found(&[2, 3, 5, 9, 11, 14], 6, ADD_SUB);
        assert_eq!(&got[..3], ["9-3", "11-5", "5+3-2"]);
        assert!(got.contains(&"11-3-2".to_string()));
        assert!(got.contains(&"14-5-3".to_string()));
        assert!(!got.iter().any(|e| e == "9"));
    }

    #[test]
    fn a_single_number_is_a_solution() {
        assert_eq!(found(&[6, 4, 2], 6, ADD_SUB), ["6", "4+2"]);
    }

    #[test]
    fn equal_numbers_give_one_solution_per_multiset() {
        assert_eq!(found(&[3, 3, 3, 3], 6, ADD_SUB), ["3+3", "3+3+3-3"]);
        assert_eq!(found(&[3, 3, 3, 3], 0, ADD_SUB), ["3-3", "3+3-3-3"]);
    }

    #[test]
    fn multiplication_and_exact_division() {
        // CD-10: 3*4 = 12 and 9*2-6 = 12 only with * and /; 7 and 2 never make 12.
        assert!(found(&[3, 4], 12, ADD_SUB).is_empty());
        assert_eq!(found(&[3, 4], 12, ALL), ["3*4"]);
        assert!(found(&[2, 6, 9], 12, ADD_SUB).is_empty());
        assert_eq!(found(&[2, 6, 9], 12, ALL), ["2*6", "2*9-6"]);
        assert!(found(&[2, 7], 12, ALL).is_empty());
        assert_eq!(found(&[7, 2], 14, ALL), ["2*7"]);
        assert_eq!(found(&[8, 2], 4, ALL), ["8/2"]);
        // 7/2 is not exact.
        assert!(found(&[7, 2], 3, ALL).is_empty());
    }

    #[test]
    fn caps_on_results_and_numbers() {
        let s = Search {
            max_results: 2,
            ..ADD_SUB
        };
        assert_eq!(found(&[2, 3, 5, 9, 11, 14], 6, s).len(), 2);
        let s = Search {
            max_numbers: 2,
            ..ADD_SUB
        };
        assert_eq!(found(&[9, 3, 6], 6, s), ["9-3"]);
    }

    #[test]
    fn a_search_too_big_stops_with_an_error() {
        // issue 9: 30 distinct numbers are 2^30 sets; this used to eat all memory.
        let numbers: Vec<i64> = (1..31).map(|i| i * 7919).collect();
        let s = Search {
            max_numbers: 30,
            ..ADD_SUB
        };
        assert_eq!(
            solutions(&numbers, 3, s).unwrap_err(),
            TooMuchWork::Steps(10_000_000)
        );
        // With `*` and `/`, the values of the sets are what grows.
        let all = Search {
            max_steps: 100_000,
            ..ALL
        };
        assert_eq!(
            solutions(&numbers[..10], 1_000_000_007, all).unwrap_err(),
            TooMuchWork::Steps(100_000)
        );
        let past = Search {
            deadline: Some(Instant::now()),
            ..ALL
        };
        assert_eq!(
            solutions(&numbers[..10], 1_000_000_007, past).unwrap_err(),
            TooMuchWork::Time
        );
        assert!(solutions(&[i64::MAX, i64::MAX, -1], i64::MIN, s).is_ok());
    }

    #[test]
    fn order_is_deterministic() {
        let a = found(&[14, 2, 11, 5, 9, 3], 6, ALL);
        let b = found(&[2, 3, 5, 9, 11, 14], 6, ALL);
        assert_eq!(a, b);
        assert!(a.len() > 10);
    }
}
