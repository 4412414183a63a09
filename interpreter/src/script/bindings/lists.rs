//! List built-ins every game would otherwise write in Rhai: `join(list, sep)`, `choose(list,
//! k)` (every k-element combination) and `distinct(list)`, native and paid from the call's
//! work budget.

use super::{budget, fail, Card, Fallible};
use rhai::{Array, Dynamic, Engine, ImmutableString, NativeCallContext, INT};
use std::collections::HashSet;
use std::fmt::Write;

pub fn register(engine: &mut Engine) {
    engine
        .register_fn("join", join)
        .register_fn("choose", choose)
        .register_fn("distinct", distinct);
}

/// The items as text, as `${x}` writes each one, with `sep` between them.
fn join(ctx: NativeCallContext, items: &mut Array, sep: &str) -> Fallible<ImmutableString> {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        if let Some(s) = item.read_lock::<ImmutableString>() {
            out.push_str(&s);
        } else if item.is_int() || item.is_bool() || item.is_char() {
            let _ = write!(out, "{item}");
        } else {
            out.push_str(&shown(&ctx, item));
        }
        // Checked as it grows, so a long list of long strings stops at the limit, not after.
        if out.len() > budget::max_string() {
            return fail(format!(
                "join: the text would be longer than the limit of {} bytes",
                budget::max_string()
            ));
        }
    }
    budget::charge(out.len() as u64, "join")?;
    Ok(out.into())
}

/// `item` as string interpolation shows it: its type's `to_string`, else its `Display`.
fn shown(ctx: &NativeCallContext, item: &Dynamic) -> String {
    match ctx.call_native_fn::<Dynamic>("to_string", (item.clone(),)) {
        Ok(s) if s.is_string() => s.into_string().unwrap_or_default(),
        Ok(other) => ctx.engine().map_type_name(other.type_name()).to_string(),
        Err(_) => item.to_string(),
    }
}

/// Every k-element combination of the items, each in list order, the combinations in
/// lexicographic order of positions: `choose([1, 2, 3], 2)` is `[[1, 2], [1, 3], [2, 3]]`.
/// Refused before any is built when they would not fit in an array (`array_size`).
fn choose(ctx: NativeCallContext, items: &mut Array, k: INT) -> Fallible<Array> {
    let n = items.len();
    let Ok(k) = usize::try_from(k) else {
        return fail(format!("choose: k must be 0 or more, not {k}"));
    };
    if k > n {
        return Ok(Array::new());
    }
    // Rhai counts the elements of nested arrays: each combination is 1 + k of them.
    let max_elements = match ctx.engine().max_array_size() {
        0 => usize::MAX,
        m => m,
    };
    let max_combinations = (max_elements / (k + 1)) as u128;
    let count = match combinations(n, k, max_combinations) {
        Some(c) => c as usize,
        None => {
            let how_many =
                combinations(n, k, u128::MAX).map_or("too many".to_string(), |c| c.to_string());
            return fail(format!(
                "choose: {k} of {n} items make {how_many} combinations; an array holds at most {max_combinations} of {k} (array_size {max_elements}, each counting {} elements)",
                k + 1
            ));
        }
    };
    // Each item is copied into C(n-1, k-1) combinations, nested arrays and maps whole.
    let copies = match k {
        0 => 0,
        _ => combinations(n - 1, k - 1, u128::MAX).unwrap_or(u128::MAX),
    };
    let per_copy: u128 = items.iter().map(|d| 1 + nested(d) as u128).sum();
    let elements = copies
        .saturating_mul(per_copy)
        .saturating_add(count as u128);
    if elements > max_elements as u128 {
        return fail(format!(
            "choose: the {count} combinations of {k} would hold {elements} elements in all (the items hold arrays or maps), more than array_size {max_elements}"
        ));
    }
    let elements = elements as usize;
    budget::charge((elements * std::mem::size_of::<Dynamic>()) as u64, "choose")?;
    let mut out = Array::with_capacity(count);
    // Positions of the current combination, increasing.
    let mut at: Vec<usize> = (0..k).collect();
    loop {
        out.push(Dynamic::from_array(
            at.iter().map(|&i| items[i].clone()).collect(),
        ));
        // The rightmost position that can still move right, and everything after it reset.
        let Some(i) = (0..k).rev().find(|&i| at[i] < n - k + i) else {
            return Ok(out);
        };
        at[i] += 1;
        for j in i + 1..k {
            at[j] = at[j - 1] + 1;
        }
    }
}

/// The array elements and map entries inside `d`, at every depth, as Rhai counts them
/// against `array_size`.
fn nested(d: &Dynamic) -> usize {
    if let Some(a) = d.read_lock::<Array>() {
        a.iter().map(|x| 1 + nested(x)).sum()
    } else if let Some(m) = d.read_lock::<rhai::Map>() {
        m.values().map(|x| 1 + nested(x)).sum()
    } else {
        0
    }
}

/// C(n, k) when it is at most `max`; None when larger.
fn combinations(n: usize, k: usize, max: u128) -> Option<u128> {
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c * (n - i) / (i + 1) is C(n, i + 1): always a whole number.
        c = c.checked_mul((n - i) as u128)? / (i as u128 + 1);
        if c > max {
            return None;
        }
    }
    (c <= max).then_some(c)
}

/// What `distinct` compares natively: the values most lists hold.
#[derive(PartialEq, Eq, Hash)]
enum Key {
    Text(ImmutableString),
    Int(INT),
    Bool(bool),
    Card(u16),
    Unit,
}

fn key(item: &Dynamic) -> Option<Key> {
    if let Some(s) = item.read_lock::<ImmutableString>() {
        return Some(Key::Text(s.clone()));
    }
    if let Ok(c) = item.as_char() {
        // `"a" == 'a'` in Rhai.
        return Some(Key::Text(c.to_string().into()));
    }
    if let Ok(n) = item.as_int() {
        return Some(Key::Int(n));
    }
    if let Ok(b) = item.as_bool() {
        return Some(Key::Bool(b));
    }
    if let Some(card) = item.read_lock::<Card>() {
        return Some(Key::Card(card.id.0));
    }
    item.is_unit().then_some(Key::Unit)
}

/// The items without repeats, each kept where it first appears; items are the same when
/// `==` says so (strings, numbers and cards are compared natively).
fn distinct(ctx: NativeCallContext, items: &mut Array) -> Fallible<Array> {
    budget::charge(items.len() as u64, "distinct")?;
    let mut seen = HashSet::new();
    // Kept items of other types (arrays, maps, floats), compared with `==` one by one.
    let mut others: Vec<Dynamic> = vec![];
    let mut out = Array::new();
    for item in items.iter() {
        let new = match key(item) {
            Some(k) => seen.insert(k),
            None => {
                budget::charge(others.len() as u64, "distinct")?;
                let mut new = true;
                for kept in &others {
                    if equal(&ctx, kept, item)? {
                        new = false;
                        break;
                    }
                }
                if new {
                    others.push(item.clone());
                }
                new
            }
        };
        if new {
            out.push(item.clone());
        }
    }
    Ok(out)
}

/// `a == b` as a script would write it: false for values of different types that have no
/// `==` between them, as in Rhai's own `contains`.
fn equal(ctx: &NativeCallContext, a: &Dynamic, b: &Dynamic) -> Fallible<bool> {
    match ctx.call_native_fn::<bool>("==", (a.clone(), b.clone())) {
        Ok(same) => Ok(same),
        Err(e) if a.type_id() != b.type_id() => match *e {
            rhai::EvalAltResult::ErrorFunctionNotFound(..) => Ok(false),
            _ => Err(e),
        },
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::combinations;

    #[test]
    fn combinations_are_counted_exactly_or_refused_past_the_bound() {
        assert_eq!(combinations(5, 2, u128::MAX), Some(10));
        assert_eq!(combinations(5, 0, u128::MAX), Some(1));
        assert_eq!(combinations(5, 5, u128::MAX), Some(1));
        assert_eq!(combinations(30, 15, u128::MAX), Some(155_117_520));
        assert_eq!(combinations(30, 15, 50_000), None);
        assert_eq!(combinations(100_000, 50_000, u128::MAX), None);
    }
}
