//! Action notation as scripts list it, below the game and the script bindings (both check
//! it). What a script's protocol functions return must be actions a client can type back as
//! they are (canonical notation, at most 1000 characters, not starting with `@`), listed
//! once each. `legal_actions` runs at every step of every bot and `sim`, so the check of a
//! list is one byte scan per action plus a hash probe (see `check_actions`).

use boardscript_grammar::{parse_action, MAX_ACTION_CHARS};

/// What is wrong with a list of actions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListProblem {
    /// The action at this index is malformed, and why.
    Malformed(usize, String),
    /// The action at this index is listed earlier too.
    Twice(usize),
}

const BAD: u8 = 0;
const TOKEN: u8 = 1;
const SPACE: u8 = 2;
const NON_ASCII: u8 = 3;

/// The class of each byte in canonical notation: the ASCII characters of `action.pest`'s
/// tokens, the one space between tokens; any byte of a non-ASCII character goes to the
/// grammar (letters and marks of any script).
const CLASSES: [u8; 256] = {
    let mut t = [BAD; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c >= 0x80 {
            NON_ASCII
        } else if c == b' ' {
            SPACE
        } else if c.is_ascii_alphanumeric() {
            TOKEN
        } else {
            match c {
                b'_' | b'-' | b'+' | b'*' | b'/' | b'(' | b')' | b'.' | b':' | b',' | b'#'
                | b'@' | b'=' | b'\'' | b'!' => TOKEN,
                _ => BAD,
            }
        };
        b += 1;
    }
    t
};

/// Scans `text` once: Some(hash) if it is canonical notation, None if not (then `problem`
/// says why). Non-ASCII text is confirmed by the grammar itself.
fn scan(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    if bytes.first().is_none_or(|&b| b == b'@') {
        return None;
    }
    // FxHash-style mixing: a multiply per byte, nothing to allocate.
    let mut hash: u64 = bytes.len() as u64;
    let mut after_space = true;
    let mut ascii = true;
    for &b in bytes {
        match CLASSES[b as usize] {
            TOKEN => after_space = false,
            SPACE if !after_space => after_space = true,
            NON_ASCII => {
                ascii = false;
                after_space = false;
            }
            _ => return None,
        }
        hash = (hash.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    if after_space {
        return None;
    }
    let fits = if ascii {
        bytes.len() <= MAX_ACTION_CHARS
    } else {
        parse_action(text).is_ok_and(|n| n.to_string() == text)
    };
    fits.then_some(hash)
}

/// Why `text` is not an action as the protocol carries it, or None if it is one.
pub fn action_problem(text: &str) -> Option<String> {
    if scan(text).is_some() {
        return None;
    }
    if text.is_empty() {
        return Some("an empty action".into());
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Some(format!("control character U+{:04X} in an action", c as u32));
    }
    if text.starts_with('@') {
        return Some("an action may not begin with `@` (`@name` names a seat)".into());
    }
    match parse_action(text) {
        Err(e) => Some(e.message),
        Ok(n) => Some(format!(
            "not canonical notation (`{n}`: tokens separated by single spaces)"
        )),
    }
}

/// Checks every action of a list and that none is listed twice. The duplicate check uses a
/// hash computed during the scan: a short list compares hashes pairwise on the stack, a
/// longer one probes an open-addressing table (one allocation); strings are compared only
/// when their hashes meet.
#[inline]
pub fn check_actions<S: AsRef<str>>(actions: &[S]) -> Result<(), ListProblem> {
    const SHORT: usize = 16;
    let hash_of = |i: usize| {
        let text = actions[i].as_ref();
        scan(text)
            .ok_or_else(|| ListProblem::Malformed(i, action_problem(text).unwrap_or_default()))
    };
    let same = |i: usize, j: usize| actions[i].as_ref() == actions[j].as_ref();
    if actions.len() <= SHORT {
        let mut hashes = [0u64; SHORT];
        for i in 0..actions.len() {
            hashes[i] = hash_of(i)?;
            if (0..i).any(|j| hashes[j] == hashes[i] && same(i, j)) {
                return Err(ListProblem::Twice(i));
            }
        }
        return Ok(());
    }
    // Each slot packs an action's index + 1 (0: empty) and the high half of its hash.
    let size = (actions.len() * 2).next_power_of_two();
    let mask = size - 1;
    let mut table = vec![0u64; size];
    for i in 0..actions.len() {
        let hash = hash_of(i)?;
        let entry = (hash & !0xFFFF_FFFF) | (i as u64 + 1);
        let mut slot = hash as usize & mask;
        loop {
            let held = table[slot];
            if held == 0 {
                table[slot] = entry;
                break;
            }
            let j = (held & 0xFFFF_FFFF) as usize - 1;
            if held >> 32 == hash >> 32 && same(i, j) {
                return Err(ListProblem::Twice(i));
            }
            slot = (slot + 1) & mask;
        }
    }
    Ok(())
}

/// `text` for an error message: in double quotes, one line, cut when long.
pub fn shown(text: &str) -> String {
    format!("\"{}\"", crate::text::excerpt(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_actions_pass() {
        for ok in [
            "c3",
            "lay 3",
            "take (9-4)+1",
            "give 3 @north",
            "jouer été",
            "x",
        ] {
            assert_eq!(action_problem(ok), None, "{ok:?}");
        }
        assert_eq!(action_problem(&"a".repeat(MAX_ACTION_CHARS)), None);
        assert_eq!(check_actions(&["a1", "b1", "a10", "jouer été"]), Ok(()));
        let empty: [&str; 0] = [];
        assert_eq!(check_actions(&empty), Ok(()));
    }

    #[test]
    fn malformed_actions_are_refused_with_a_reason() {
        let cases = [
            ("", "empty"),
            ("a\nb", "U+000A"),
            ("tab\there", "U+0009"),
            ("@n", "`@`"),
            (" a", "canonical"),
            ("a ", "canonical"),
            ("a  b", "canonical"),
            ("a\u{a0}b", "canonical"),
            ("5%", "`%`"),
            ("cafe\u{7f}", "U+007F"),
        ];
        for (text, why) in cases {
            let problem = action_problem(text).unwrap_or_else(|| panic!("{text:?} passed"));
            assert!(problem.contains(why), "{text:?}: {problem}");
            assert_eq!(
                check_actions(&["ok", text]),
                Err(ListProblem::Malformed(1, problem))
            );
        }
        let long = "a".repeat(MAX_ACTION_CHARS + 1);
        assert!(action_problem(&long).unwrap().contains("too long"));
        let long = "é".repeat(MAX_ACTION_CHARS + 1);
        assert!(action_problem(&long).unwrap().contains("too long"));
    }

    #[test]
    fn duplicates_are_found_wherever_they_are() {
        assert_eq!(check_actions(&["a", "b", "a"]), Err(ListProblem::Twice(2)));
        assert_eq!(check_actions(&["x", "x"]), Err(ListProblem::Twice(1)));
        // Many entries (probing wraps around the table) and one repeat at the end.
        let mut many: Vec<String> = (0..500).map(|i| format!("c{i}")).collect();
        assert_eq!(check_actions(&many), Ok(()));
        many.push("c250".into());
        assert_eq!(check_actions(&many), Err(ListProblem::Twice(500)));
    }

    #[test]
    fn shown_escapes_and_cuts() {
        assert_eq!(shown("a\nb"), "\"a\\nb\"");
        assert!(shown(&"x".repeat(100)).ends_with("... (100 characters)\""));
    }
}
