//! What an error says about a call to a function that does not exist: the argument types in
//! the words scripts use (`string`, not `&str | ImmutableString | String`), and the closest
//! name the script could have meant (`did you mean `longest_line`?`), among the script's own
//! functions and the engine's functions for the type of the first argument.

use super::bindings;
use rhai::{Array, Engine, FnPtr, ImmutableString, Map, AST};
use std::any::TypeId;

/// A name this close (Jaro-Winkler similarity, 0 to 1) or closer is worth suggesting.
const CLOSE_ENOUGH: f64 = 0.8;

/// The functions a call could have meant: the script's own, and the engine's (standard
/// library included) with the type of their first parameter in script words.
pub struct Known {
    /// The script's functions, each with its parameters' names.
    script: Vec<(String, Vec<String>)>,
    /// The engine's functions, each with its parameters' types (`None`: a type scripts have
    /// no word for).
    native: Vec<(String, Vec<Option<String>>)>,
}

impl Known {
    pub fn new(engine: &Engine, ast: &AST) -> Known {
        let mut types = builtin_types();
        types.extend(bindings::type_names(engine));
        let word = |id: &TypeId| types.iter().find(|(t, _)| t == id).map(|(_, w)| w.clone());
        let native = engine.collect_fn_metadata(
            None,
            |info| {
                let m = info.metadata;
                // Operators and getters (`get$len`) are not names a script types.
                let typed = m.name.starts_with(|c: char| c.is_alphabetic() || c == '_');
                typed.then(|| (m.name.to_string(), m.param_types.iter().map(word).collect()))
            },
            true,
        );
        let script = ast
            .iter_functions()
            .map(|f| {
                let params = f.params.iter().map(|p| p.to_string()).collect();
                (f.name.to_string(), params)
            })
            .collect();
        Known { script, native }
    }

    /// How `name` may be called, when it exists with other arguments: `(Grid, string)`, or
    /// a script function's parameters `(g, seat)`; those for a first argument of type `first`
    /// when there are some; at most a few, in a stable order.
    pub fn forms_of(&self, name: &str, first: Option<&str>) -> Vec<String> {
        const SHOWN: usize = 4;
        let same_first =
            |types: &[Option<String>]| types.first().map(Option::as_deref) == first.map(Some);
        let for_first = self
            .native
            .iter()
            .any(|(n, types)| n == name && same_first(types));
        let script = self
            .script
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, params)| format!("({})", params.join(", ")));
        let native = self
            .native
            .iter()
            .filter(|(n, types)| n == name && (!for_first || same_first(types)))
            .filter_map(|(_, types)| {
                let types: Option<Vec<&str>> = types.iter().map(|t| t.as_deref()).collect();
                Some(format!("({})", types?.join(", ")))
            });
        let mut forms: Vec<String> = script.chain(native).collect();
        forms.dedup();
        forms.truncate(SHOWN);
        forms
    }

    /// The closest known name to `name` that takes a first argument of type `first` (in
    /// script words; `None`: no argument), other than `name` itself.
    pub fn closest(&self, name: &str, first: Option<&str>) -> Option<&str> {
        let natives = self
            .native
            .iter()
            .filter(|(_, types)| types.first().map(Option::as_deref) == first.map(Some))
            .map(|(n, _)| n.as_str());
        let mut best: Option<(&str, f64)> = None;
        for candidate in self.script.iter().map(|(n, _)| n.as_str()).chain(natives) {
            if candidate == name {
                continue;
            }
            let score = strsim::jaro_winkler(name, candidate);
            if score >= CLOSE_ENOUGH && best.is_none_or(|(_, s)| score > s) {
                best = Some((candidate, score));
            }
        }
        best.map(|(n, _)| n)
    }
}

/// Rhai's own types, by the word a script author knows them by.
fn builtin_types() -> Vec<(TypeId, String)> {
    [
        (TypeId::of::<i64>(), "integer"),
        (TypeId::of::<bool>(), "bool"),
        (TypeId::of::<char>(), "char"),
        (TypeId::of::<ImmutableString>(), "string"),
        (TypeId::of::<Array>(), "array"),
        (TypeId::of::<Map>(), "map"),
        (TypeId::of::<FnPtr>(), "function"),
        (TypeId::of::<()>(), "()"),
        (TypeId::of::<rhai::Dynamic>(), "any"),
    ]
    .into_iter()
    .map(|(t, w)| (t, w.to_string()))
    .collect()
}

/// A type as Rhai names it in "Function not found" (`i64`, `&str | ImmutableString |
/// String`, `Fn`, `Grid`), as a script author knows it.
pub fn script_word(rhai_type: &str) -> &str {
    match rhai_type.trim() {
        "i64" => "integer",
        t if t.contains("ImmutableString") => "string",
        "Fn" => "function",
        t => t,
    }
}

/// Rhai's `longest_lin (Grid, &str | ImmutableString | String)`: the name and the argument
/// types, in script words.
pub fn parse_signature(signature: &str) -> Option<(&str, Vec<&str>)> {
    let (name, rest) = signature.split_once(" (")?;
    let args = rest.strip_suffix(')')?;
    let types = if args.trim().is_empty() {
        vec![]
    } else {
        split_top_level(args).into_iter().map(script_word).collect()
    };
    Some((name.trim(), types))
}

/// Splits `a, b | c, d` at the commas (a type name holds none).
fn split_top_level(args: &str) -> Vec<&str> {
    args.split(',').map(str::trim).collect()
}

/// The message for a call to `signature` that matches no function, with a suggestion when
/// `known` has a close name.
pub fn not_found(signature: &str, known: Option<&Known>) -> String {
    let Some((name, types)) = parse_signature(signature) else {
        return format!("Function not found: {signature}");
    };
    let mut message = format!("no function `{name}` takes ({})", types.join(", "));
    let Some(known) = known else {
        return message;
    };
    let forms = known.forms_of(name, types.first().copied());
    if !forms.is_empty() {
        message.push_str(&format!("; `{name}` takes {}", forms.join(" or ")));
    } else if let Some(similar) = known.closest(name, types.first().copied()) {
        message.push_str(&format!("; did you mean `{similar}`?"));
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rhai_types_read_in_script_words() {
        assert_eq!(
            parse_signature("longest_lin (Grid, &str | ImmutableString | String)"),
            Some(("longest_lin", vec!["Grid", "string"]))
        );
        assert_eq!(
            parse_signature("f (i64, Fn, array)"),
            Some(("f", vec!["integer", "function", "array"]))
        );
        assert_eq!(parse_signature("f ()"), Some(("f", vec![])));
    }
}
