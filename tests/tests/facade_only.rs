//! The REPL's interactive side (the shell, the JSON protocol, the session) holds games only
//! through the library's facade (issue 24): it names no module or type the crate keeps below
//! it (hidden from the docs, public only for the workspace's tests, benches and the batch
//! tools not yet moved). A file added to `ON_THE_FACADE` stays there.

use std::path::{Path, PathBuf};

/// The REPL's files that use only the facade.
const ON_THE_FACADE: &[&str] = &[
    "src/session.rs",
    "src/seat_bots.rs",
    "src/lineup.rs",
    "src/protocol.rs",
    "src/interrupt.rs",
    "src/files.rs",
    "src/shell/mod.rs",
    "src/shell/editor.rs",
    "src/shell/complete.rs",
    "src/shell/prompt.rs",
];

/// What the crate root keeps below the facade.
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

/// The first names after each `boardscript_interpreter::` of `text` (in a `{...}` group, the
/// first name of each item).
fn root_names(text: &str) -> Vec<String> {
    let mut names = vec![];
    for (at, _) in text.match_indices("boardscript_interpreter::") {
        let rest = &text[at + "boardscript_interpreter::".len()..];
        let group = match rest.strip_prefix('{') {
            Some(inner) => {
                // Up to the matching brace.
                let mut depth = 1;
                let end = inner
                    .char_indices()
                    .find(|&(_, c)| {
                        depth += match c {
                            '{' => 1,
                            '}' => -1,
                            _ => 0,
                        };
                        depth == 0
                    })
                    .map_or(inner.len(), |(i, _)| i);
                top_level_items(&inner[..end])
            }
            None => vec![rest.to_string()],
        };
        for item in group {
            let name: String = item
                .trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            names.push(name);
        }
    }
    names
}

/// The comma-separated items of a use group, nested groups kept whole.
fn top_level_items(group: &str) -> Vec<String> {
    let (mut items, mut current, mut depth) = (vec![], String::new(), 0);
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    items.push(current);
    items
}

fn repl_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../repl")
}

#[test]
fn the_interactive_repl_names_only_the_facade() {
    for file in ON_THE_FACADE {
        let text = std::fs::read_to_string(repl_dir().join(file)).expect(file);
        for name in root_names(&text) {
            assert!(
                !BELOW.contains(&name.as_str()),
                "{file} names `boardscript_interpreter::{name}`, below the facade"
            );
        }
    }
}

#[test]
fn the_scan_finds_names_below_the_facade() {
    let text = "use boardscript_interpreter::{text::one_line, Game, Table};\n\
                let x = boardscript_interpreter::bots::sim::run();";
    assert_eq!(root_names(text), ["text", "Game", "Table", "bots"]);
}
