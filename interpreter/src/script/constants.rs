//! Top-level constants (`const SIZE = 11;`): evaluated once when the rules load, in the
//! sandboxed engine, and readable by plain name inside every function.
//!
//! The values go into a global module of the game's own engine. Rhai's optimizer folds a
//! global module's variables into function bodies when it compiles them, so the rules are
//! compiled again once the values are known, and reading a constant then costs what a
//! literal does. (Rhai's `on_var` resolver was the other way in; it runs before the scope
//! search on every variable access, so it would tax every game, constants or not.)

use super::error::ScriptError;
use super::sandbox::Limits;
use super::{bindings, Source};
use rhai::{Dynamic, Engine, Module, Scope, Shared, AST};
use std::collections::HashMap;
use std::sync::Arc;

/// What a top-level error reports as its function.
const TOP_LEVEL: &str = "top level";

/// Runs every file's top-level statements in order (a later `const` of the same name wins, as
/// a later function does) with the functions as finally merged, and returns the constants.
/// Nothing outside a function sees the game: `g` exists only in protocol calls.
pub fn evaluate(
    engine: &Engine,
    parts: &[(AST, &Source)],
    functions: &AST,
    fn_files: &HashMap<String, Arc<str>>,
    limits: &Limits,
) -> Result<Vec<(String, Dynamic)>, ScriptError> {
    let mut scope = Scope::new();
    for (part, src) in parts {
        let run = functions
            .clone_functions_only()
            .merge(&part.clone_statements_only());
        bindings::budget::reset(limits.string_size, limits.time());
        if let Err(e) = engine.run_ast_with_scope(&mut scope, &run) {
            let mut files = fn_files.clone();
            files.insert(TOP_LEVEL.into(), src.name.clone());
            return Err(ScriptError::runtime(&e, TOP_LEVEL, &files, limits));
        }
    }
    let mut out: Vec<(String, Dynamic)> = vec![];
    for (name, constant, value) in scope.iter() {
        if !constant {
            continue;
        }
        match out.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => out.push((name.to_string(), value)),
        }
    }
    Ok(out)
}

/// The constants as a module for `Engine::register_global_module`.
pub fn module(constants: &[(String, Dynamic)]) -> Shared<Module> {
    let mut m = Module::new();
    for (name, value) in constants {
        m.set_var(name.as_str(), value.clone());
    }
    m.into()
}

/// A parameter named like a constant would be replaced by the constant's value when the
/// optimizer folds constants in (it does not see parameters shadow them), so such a name is
/// refused at load: a function's parameter, or a closure's.
pub fn check_parameters(
    ast: &AST,
    constants: &[(String, Dynamic)],
    fn_files: &HashMap<String, Arc<str>>,
    sources: &[Source],
) -> Result<(), ScriptError> {
    let is_constant = |name: &str| constants.iter().any(|(c, _)| c == name);
    for src in sources {
        if let Some((line, column, name)) =
            closure_parameters(&src.text).find(|p| is_constant(&p.2))
        {
            return Err(ScriptError::Load {
                file: format!("{}:{line}:{column}", src.name),
                message: format!(
                    "a closure has a parameter `{name}`, the name of a top-level constant; rename one"
                ),
            });
        }
    }
    // A closure's captured variables are parameters of its function (`anon$...`), filled
    // from the enclosing scope where the same constant is read: those are the constant.
    for f in ast
        .iter_functions()
        .filter(|f| !f.name.starts_with("anon$"))
    {
        if let Some(p) = f
            .params
            .iter()
            .find(|p| constants.iter().any(|(c, _)| c == *p))
        {
            let file = fn_files.get(f.name).map_or("script", |f| &**f);
            return Err(ScriptError::Load {
                file: file.to_string(),
                message: format!(
                    "function `{}` has a parameter `{p}`, the name of a top-level constant; rename one",
                    f.name
                ),
            });
        }
    }
    Ok(())
}

/// The parameters of the closures in a script's text, with their line and column (1-based):
/// a `|` that starts an operand (after `(`, `,`, `=`, `[`, `{`, `;`, `:` or `return`), up
/// to the next `|`. (Rhai also lists a closure's captured variables as its parameters, and
/// compiled closures do not say which are which, hence the text.)
fn closure_parameters(text: &str) -> impl Iterator<Item = (usize, usize, String)> + '_ {
    text.lines().enumerate().flat_map(|(i, line)| {
        let code = line.split("//").next().unwrap_or("");
        let mut found = vec![];
        let mut rest = code;
        let mut offset = 0;
        while let Some(at) = rest.find('|') {
            let before = code[..offset + at].trim_end();
            let opens = before.is_empty()
                || before.ends_with(['(', ',', '=', '[', '{', ';', ':'])
                || before.ends_with("return");
            let after = &rest[at + 1..];
            let Some(close) = after.find('|') else { break };
            let list = &after[..close];
            let is_list = list
                .split(',')
                .all(|p| p.trim().chars().all(|c| c.is_alphanumeric() || c == '_'));
            if opens && is_list {
                let mut col = offset + at + 1;
                for p in list.split(',') {
                    let name = p.trim();
                    if !name.is_empty() {
                        let column = code[..col].chars().count() + p.find(name).unwrap_or(0) + 1;
                        found.push((i + 1, column, name.to_string()));
                    }
                    col += p.len() + 1;
                }
                offset += at + close + 2;
                rest = &code[offset..];
            } else {
                offset += at + 1;
                rest = &code[offset..];
            }
        }
        found
    })
}

#[cfg(test)]
mod tests {
    use super::closure_parameters;

    #[test]
    fn closure_parameters_are_found_and_bit_operations_are_not() {
        let text = "let f = |a, SIZE| a;\nlet m = A | B | C;\nx.map(|n| n) || y\n";
        let found: Vec<_> = closure_parameters(text).collect();
        assert_eq!(
            found,
            [
                (1, 10, "a".to_string()),
                (1, 13, "SIZE".to_string()),
                (3, 8, "n".to_string())
            ]
        );
    }
}
