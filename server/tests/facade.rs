//! The server holds games through the engine's facade only (issue 25): no file of it names
//! a module or type the engine keeps below the facade (`tests/tests/facade_only.rs` keeps
//! the same list for the REPL).

use std::path::Path;

/// What the engine's crate root keeps below the facade.
const BELOW: &[&str] = &[
    "agenda",
    "bots",
    "game",
    "log",
    "manifest",
    "mentions",
    "primitives",
    "script",
    "state",
    "value",
    "Action",
    "Decisions",
    "Game",
    "PlayError",
    "Match",
    "State",
];

/// The names each `boardscript_interpreter::` of `text` starts with (every item of a
/// `{...}` group, nested groups included).
fn names(text: &str) -> Vec<String> {
    let mut out = vec![];
    for (at, _) in text.match_indices("boardscript_interpreter::") {
        let rest = &text[at + "boardscript_interpreter::".len()..];
        let items = match rest.strip_prefix('{') {
            Some(inner) => inner[..inner.find('}').unwrap_or(inner.len())]
                .split(',')
                .map(str::to_string)
                .collect(),
            None => vec![rest.to_string()],
        };
        for item in items {
            let name: String = item
                .trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push(name);
        }
    }
    out
}

#[test]
fn the_server_names_only_the_facade() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = 0;
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for name in names(&text) {
            assert!(
                !BELOW.contains(&name.as_str()),
                "{} names `boardscript_interpreter::{name}`, below the facade",
                path.display()
            );
        }
        files += 1;
    }
    assert!(files >= 8, "read {files} files");
}

#[test]
fn the_scan_finds_names_below_the_facade() {
    let text = "use boardscript_interpreter::{text::excerpt, Game, Table};\n\
                boardscript_interpreter::bots::make();";
    assert_eq!(names(text), ["text", "Game", "Table", "bots"]);
}
