//! Getters for the keys scripts read with a dot (`row.kind`, `card.deck`).
//!
//! Rhai reads `x.key` on a registered type by looking for a getter named `key`, and only when
//! none is found (after building a "no getter" error, type names and all) by the type's
//! indexer, `x["key"]`. Cards and data rows keep the game's own keys, so every such read paid
//! for a failed lookup and an error first: most of the cost of the read. Giving each key the
//! scripts name after a dot a getter of its own, which reads through the same indexer, keeps
//! what a read returns or refuses and drops the detour.

use super::card::Card;
use super::data::Data;
use rhai::Engine;
use std::collections::BTreeSet;

/// At most this many keys get a getter (a script is bounded in size, but a getter per word
/// of a hostile one is not worth it); reads of the others still go through the indexer.
const MOST_KEYS: usize = 4096;

/// The keys cards have getters for already (`id`, `hidden`, `name`), and `len`, which scripts
/// read on zones and bags (a row's `len` still reads through the indexer).
const SKIP: &[&str] = &["id", "hidden", "name", "len"];

/// Every identifier written right after a single `.` and not called as a method (`x.key`, not
/// `x.key(` nor `0..key`), in `texts`. Comments and strings are not told apart: a word there
/// only adds a getter nobody calls.
pub fn dot_keys<'t>(texts: impl IntoIterator<Item = &'t str>) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for text in texts {
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() && keys.len() < MOST_KEYS {
            let dot = b[i] == b'.' && (i == 0 || b[i - 1] != b'.');
            i += 1;
            if !dot || i >= b.len() || !(b[i].is_ascii_alphabetic() || b[i] == b'_') {
                continue;
            }
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let mut after = i;
            while after < b.len() && (b[after] == b' ' || b[after] == b'\t') {
                after += 1;
            }
            let key = &text[start..i];
            if b.get(after) != Some(&b'(') && !SKIP.contains(&key) {
                keys.insert(key.to_string());
            }
        }
    }
    keys
}

/// A getter for each of `keys` on cards and data rows, reading as their indexers do.
pub fn register(engine: &mut Engine, keys: &BTreeSet<String>) {
    for key in keys {
        let k = key.clone();
        engine.register_get(key, move |c: &mut Card| c.prop(&k));
        let k = rhai::ImmutableString::from(key.as_str());
        engine.register_get(key, move |d: &mut Data| d.index(k.clone().into()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_after_a_dot_not_methods_ranges_or_numbers() {
        let keys = dot_keys([
            "let k = row.kind; c.deck .len; z.take(c); x.top ();\nfor i in 0..n {} 1.5 a.b_2",
        ]);
        let want: BTreeSet<String> = ["b_2", "deck", "kind"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(keys, want);
    }
}
