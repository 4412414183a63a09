//! What a manifest must satisfy once read: seat specs a game can start with, options whose
//! defaults obey their own rules, and texts `list` can print on one line.

use super::{OptionSpec, SeatSpec, SupplySpec, ZoneDecl};
use crate::primitives::supply::MAX_SUPPLY;
use crate::value::Value;
use boardscript_grammar::{parse_action, parse_command, Command};
use std::collections::BTreeMap;

/// The most seats a game may declare: enough for any table game, small enough that nothing
/// sized by the seat count (zones per seat, views) grows absurd.
pub const MAX_SEATS: usize = 64;

/// The longest seat or option name.
const MAX_NAME_CHARS: usize = 64;

/// The longest title, about text or choice.
const MAX_TEXT_CHARS: usize = 2000;

/// `text` for an error message: in backquotes, one line, cut when long.
pub fn shown(text: &str) -> String {
    format!("`{}`", crate::text::excerpt(text))
}

/// A text `list` prints: one line, no control characters, not huge.
pub fn text(field: &str, value: &str) -> Result<(), String> {
    if let Some(c) = value.chars().find(|c| c.is_control()) {
        return Err(format!(
            "{field} has a control character (U+{:04X})",
            c as u32
        ));
    }
    if value.chars().count() > MAX_TEXT_CHARS {
        return Err(format!("{field} is over {MAX_TEXT_CHARS} characters"));
    }
    Ok(())
}

/// Whether `name` can be typed as `@name` in a command: the protocol's own parser reads
/// `view @name` back as exactly that seat (no spaces, no `@`, no control characters).
pub fn is_seat_token(name: &str) -> bool {
    name.chars().count() <= MAX_NAME_CHARS
        && matches!(parse_command(&format!("view @{name}")),
                    Ok(Some(Command::View(Some(seat)))) if seat == name)
}

/// A supply of `[supplies]`: `name = size` or `name = { size = n, per_seat = true }`, its
/// name one printable line (as a zone's) and its size a whole number up to [`MAX_SUPPLY`].
pub fn supply(name: &str, value: toml::Value) -> Result<SupplySpec, String> {
    let at = format!("supply {}", shown(name));
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(format!("{at}: a name is 1 to {MAX_NAME_CHARS} characters"));
    }
    text(&at, name)?;
    let size = |v: &toml::Value| match v.as_integer() {
        Some(n) if (0..=MAX_SUPPLY as i64).contains(&n) => Ok(n as u32),
        _ => Err(format!(
            "{at}: the size is a whole number from 0 to {MAX_SUPPLY}, not {v}"
        )),
    };
    match &value {
        toml::Value::Table(t) => {
            if let Some(k) = t
                .keys()
                .find(|k| !["size", "per_seat"].contains(&k.as_str()))
            {
                return Err(format!(
                    "{at}: unknown field {} (a supply has `size` and `per_seat`)",
                    shown(k)
                ));
            }
            let per_seat = match t.get("per_seat") {
                None => false,
                Some(toml::Value::Boolean(b)) => *b,
                Some(other) => return Err(format!("{at}: per_seat is true or false, not {other}")),
            };
            let size = size(t.get("size").ok_or_else(|| format!("{at}: no size"))?)?;
            Ok(SupplySpec { per_seat, size })
        }
        v => Ok(SupplySpec {
            per_seat: false,
            size: size(v)?,
        }),
    }
}

/// The most action words a game may declare.
pub const MAX_VERBS: usize = 1024;

/// Each verb one token of action notation (`shoot`, not `shoot x` nor `@x`), listed once.
pub fn verbs(verbs: &[String]) -> Result<(), String> {
    if verbs.len() > MAX_VERBS {
        return Err(format!(
            "verbs: {} declared, at most {MAX_VERBS}",
            verbs.len()
        ));
    }
    for (i, v) in verbs.iter().enumerate() {
        let one_token = v.chars().count() <= MAX_NAME_CHARS
            && !v.starts_with('@')
            && parse_action(v).is_ok_and(|a| a.to_string() == *v && !v.contains(' '));
        if !one_token {
            return Err(format!(
                "verbs: {} is not one word of action notation",
                shown(v)
            ));
        }
        if verbs[..i].contains(v) {
            return Err(format!("verbs: {} is listed twice", shown(v)));
        }
    }
    Ok(())
}

/// `log_actions`: `"all"` or `"seat"`, or a table from verb (or `default`) to one of them;
/// whether actions are public by default, and by verb.
pub fn log_actions(value: toml::Value) -> Result<(bool, BTreeMap<String, bool>), String> {
    let public = |key: &str, v: &toml::Value| match v.as_str() {
        Some("all") => Ok(true),
        Some("seat") => Ok(false),
        Some(other) => Err(format!("{key} is `all` or `seat`, not {}", shown(other))),
        None => {
            let what = v.type_str();
            let a = if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            Err(format!("{key} is `all` or `seat`, not {a} {what}"))
        }
    };
    let toml::Value::Table(table) = value else {
        return Ok((public("log_actions", &value)?, BTreeMap::new()));
    };
    let mut default = true;
    let mut by_verb = BTreeMap::new();
    for (key, v) in table {
        let is_public = public(&format!("log_actions.{key}"), &v)?;
        if key == "default" {
            default = is_public;
            continue;
        }
        verbs(std::slice::from_ref(&key)).map_err(|e| format!("log_actions: {e}"))?;
        by_verb.insert(key, is_public);
    }
    Ok((default, by_verb))
}

/// A seat spec every count of which can start: 1 <= min <= default <= max <= MAX_SEATS, and
/// every seat of the largest game has its own typeable name.
pub fn seats(spec: &SeatSpec) -> Result<(), String> {
    let (min, max) = spec.range();
    if min == 0 {
        return Err("seats: min must be at least 1".into());
    }
    if min > max {
        return Err(format!("seats: min ({min}) is above max ({max})"));
    }
    if max > MAX_SEATS {
        return Err(format!("seats: max ({max}) is above {MAX_SEATS}"));
    }
    if let Some(d) = spec.default {
        if !(min..=max).contains(&d) {
            return Err(format!("seats: default ({d}) is outside {min}..={max}"));
        }
    }
    if spec.names.len() > max {
        return Err(format!(
            "seats: {} names for at most {max} seats",
            spec.names.len()
        ));
    }
    // The names of the largest game include the generated `pN`, which a declared name may
    // repeat.
    let names = spec.names_for(max)?;
    for (i, name) in names.iter().enumerate() {
        if name.is_empty() {
            return Err("seats: a seat name is empty".into());
        }
        if !is_seat_token(name) {
            return Err(format!(
                "seats: {} is not a seat name (letters, digits, `_` and `-`, typed as `@name`)",
                shown(name)
            ));
        }
        if names[..i].contains(name) {
            return Err(format!("seats: two seats are named {}", shown(name)));
        }
    }
    Ok(())
}

/// The most phases a game may declare.
pub const MAX_PHASES: usize = 256;

/// Declared phases: each a name a Rhai function can start with (`opening` makes
/// `opening_apply`), at most once.
pub fn phases(phases: &[String]) -> Result<(), String> {
    if phases.len() > MAX_PHASES {
        return Err(format!(
            "phases: {} declared, at most {MAX_PHASES}",
            phases.len()
        ));
    }
    for (i, p) in phases.iter().enumerate() {
        let mut chars = p.chars();
        let identifier = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
            && p.len() <= MAX_NAME_CHARS;
        if !identifier {
            return Err(format!(
                "phases: {} is not a phase name (ASCII letters, digits and `_`, not starting with a digit)",
                shown(p)
            ));
        }
        if phases[..i].contains(p) {
            return Err(format!("phases: {} is listed twice", shown(p)));
        }
    }
    Ok(())
}

/// Each zone's discard a declared zone other than itself, per seat exactly when the zone is
/// (a seat's deck discards to that seat's pile). An error names the zone it is about.
pub fn discards(zones: &BTreeMap<String, ZoneDecl>) -> Result<(), (String, String)> {
    for (name, z) in zones {
        let Some(discard) = &z.discard else {
            continue;
        };
        let about = |message: String| (name.clone(), format!("zone {}: {message}", shown(name)));
        let Some(pile) = zones.get(discard) else {
            let known: Vec<&str> = zones.keys().map(String::as_str).collect();
            return Err(about(format!(
                "discard {} is not a zone (zones: {})",
                shown(discard),
                known.join(", ")
            )));
        };
        if discard == name {
            return Err(about("a zone cannot be its own discard".into()));
        }
        if pile.per_seat != z.per_seat {
            let (this, that) = match z.per_seat {
                true => ("is per_seat", "is not"),
                false => ("is not per_seat", "is"),
            };
            return Err(about(format!(
                "it {this} and its discard {} {that}: both are, or neither",
                shown(discard)
            )));
        }
    }
    Ok(())
}

/// An option default as a value `--option` can set: a string, a whole number or a bool.
pub fn option_default(name: &str, value: toml::Value) -> Result<Value, String> {
    match value {
        toml::Value::String(_) | toml::Value::Integer(_) | toml::Value::Boolean(_) => {
            Ok(Value::from(value))
        }
        other => Err(format!(
            "option {}: the default is a string, a whole number or true/false, not a {}",
            shown(name),
            other.type_str()
        )),
    }
}

/// An option whose own rules hold: a typeable name, min <= default <= max for a number, a
/// default among its choices for a string, printable texts.
pub fn option(o: &OptionSpec) -> Result<(), String> {
    let name = shown(&o.name);
    let typeable = !o.name.is_empty()
        && o.name.chars().count() <= MAX_NAME_CHARS
        && !o
            .name
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '=');
    if !typeable {
        return Err(format!(
            "option {name} is not a name `--option NAME=VALUE` can give"
        ));
    }
    text(&format!("option {name}: about"), &o.about)?;
    if let Value::Str(s) = &o.default {
        text(&format!("option {name}: the default"), s)?;
    }
    if o.min.is_some() || o.max.is_some() {
        let Value::Int(d) = o.default else {
            return Err(format!(
                "option {name}: min and max are for whole numbers, but the default is a {}",
                o.default.type_name()
            ));
        };
        let (lo, hi) = (o.min.unwrap_or(i64::MIN), o.max.unwrap_or(i64::MAX));
        if lo > hi {
            return Err(format!("option {name}: min ({lo}) is above max ({hi})"));
        }
        if !(lo..=hi).contains(&d) {
            return Err(format!(
                "option {name}: the default ({d}) is outside its min and max"
            ));
        }
    }
    if let Some(choices) = &o.choices {
        let Value::Str(d) = &o.default else {
            return Err(format!(
                "option {name}: choices are for strings, but the default is a {}",
                o.default.type_name()
            ));
        };
        if choices.is_empty() {
            return Err(format!("option {name}: choices is empty"));
        }
        for (i, c) in choices.iter().enumerate() {
            text(&format!("option {name}: a choice"), c)?;
            // `--option` values are trimmed, so such a choice could never be given.
            if c.is_empty() || c.trim() != c {
                return Err(format!(
                    "option {name}: choice {} is empty or has spaces around it",
                    shown(c)
                ));
            }
            if choices[..i].contains(c) {
                return Err(format!(
                    "option {name}: choice {} is listed twice",
                    shown(c)
                ));
            }
        }
        if !choices.contains(d) {
            return Err(format!(
                "option {name}: the default {} is not among its choices",
                shown(d)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(names: &[&str], min: Option<usize>, max: Option<usize>) -> SeatSpec {
        SeatSpec {
            names: names.iter().map(|s| s.to_string()).collect(),
            min,
            max,
            default: None,
        }
    }

    #[test]
    fn seat_specs_that_can_start_pass() {
        assert_eq!(seats(&spec(&["blue", "red"], None, None)), Ok(()));
        assert_eq!(seats(&spec(&[], Some(2), Some(8))), Ok(()));
        assert_eq!(seats(&spec(&["Nord", "Süd"], None, None)), Ok(()));
        assert_eq!(seats(&spec(&[], Some(1), Some(MAX_SEATS))), Ok(()));
    }

    #[test]
    fn nonsense_seat_specs_are_refused() {
        let bad = [
            (spec(&[], Some(0), Some(0)), "at least 1"),
            (spec(&[], Some(3), Some(2)), "above max"),
            (spec(&[], Some(1), Some(MAX_SEATS + 1)), "above 64"),
            (spec(&["a", "b", "c"], Some(1), Some(2)), "3 names"),
            (spec(&["a", "a"], None, None), "two seats"),
            // The generated name of the second seat repeats the first's.
            (spec(&["p2"], Some(2), Some(2)), "two seats"),
            (spec(&["", "b"], None, None), "empty"),
            (spec(&["a b", "c"], None, None), "not a seat name"),
            (spec(&["@a", "c"], None, None), "not a seat name"),
            (spec(&["a\nb", "c"], None, None), "not a seat name"),
            (spec(&["a=b", "c"], None, None), "not a seat name"),
        ];
        for (s, why) in bad {
            let err = seats(&s).unwrap_err();
            assert!(err.contains(why), "{s:?}: {err}");
        }
        let mut s = spec(&[], Some(2), Some(4));
        s.default = Some(5);
        assert!(seats(&s).unwrap_err().contains("default (5)"));
    }

    fn opt(default: Value) -> OptionSpec {
        OptionSpec {
            name: "o".into(),
            default,
            about: String::new(),
            min: None,
            max: None,
            choices: None,
        }
    }

    #[test]
    fn options_must_obey_their_own_rules() {
        let mut o = opt(Value::Int(5));
        o.min = Some(1);
        o.max = Some(9);
        assert_eq!(option(&o), Ok(()));
        o.min = Some(6);
        assert!(option(&o).unwrap_err().contains("outside"));
        o.max = Some(2);
        assert!(option(&o).unwrap_err().contains("above max"));

        let mut o = opt(Value::Str("x".into()));
        o.choices = Some(vec!["x".into(), "y".into()]);
        assert_eq!(option(&o), Ok(()));
        o.default = Value::Str("z".into());
        assert!(option(&o).unwrap_err().contains("not among"));
        o.choices = Some(vec![]);
        assert!(option(&o).unwrap_err().contains("empty"));
        o.choices = Some(vec!["z".into(), " y".into()]);
        assert!(option(&o).unwrap_err().contains("spaces"));
        o.choices = Some(vec!["z".into(), "z".into()]);
        assert!(option(&o).unwrap_err().contains("twice"));

        let mut o = opt(Value::Bool(true));
        o.max = Some(3);
        assert!(option(&o).unwrap_err().contains("whole numbers"));
        let mut o = opt(Value::Int(1));
        o.choices = Some(vec!["1".into()]);
        assert!(option(&o).unwrap_err().contains("for strings"));
        let mut o = opt(Value::Int(1));
        o.about = "bell\u{7}".into();
        assert!(option(&o).unwrap_err().contains("control character"));
        o.about.clear();
        o.name = "a=b".into();
        assert!(option(&o).unwrap_err().contains("not a name"));
    }

    #[test]
    fn phases_are_distinct_identifiers() {
        let list = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(phases(&list(&["opening", "play_2", "_x"])), Ok(()));
        for (bad, why) in [
            (list(&["fight", "fight"]), "twice"),
            (list(&[""]), "not a phase name"),
            (list(&["2nd"]), "not a phase name"),
            (list(&["a-b"]), "not a phase name"),
            (list(&["été"]), "not a phase name"),
        ] {
            let err = phases(&bad).unwrap_err();
            assert!(err.contains(why), "{bad:?}: {err}");
        }
    }

    #[test]
    fn texts_are_one_printable_line() {
        assert_eq!(text("title", "Odds & Evens, été"), Ok(()));
        let long = "x".repeat(MAX_TEXT_CHARS + 1);
        for (field, bad, why) in [
            (
                "title",
                "a\u{1b}[2J",
                "title has a control character (U+001B)",
            ),
            (
                "about",
                "two\nlines",
                "about has a control character (U+000A)",
            ),
            ("about", &long, "about is over"),
        ] {
            let err = text(field, bad).unwrap_err();
            assert!(err.contains(why), "{err}");
        }
        assert_eq!(shown("a\nb"), "`a\\nb`");
    }
}
