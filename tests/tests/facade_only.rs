//! Everything built on the engine holds games only through the library's facade (issues
//! 24-26): no file of the binary (`repl/src`: the shell, the JSON protocol, `sim`, `arena`,
//! `check`, `list`), the match server (`server/src`) or the Python bindings (`python/src`)
//! names a module or type the crate keeps below it (hidden from the docs, public only for the
//! workspace's tests and benchmarks).

use std::path::{Path, PathBuf};

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
    "shape",
    "state",
    "typed",
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

/// Every Rust file under `dir`, as paths relative to the REPL crate.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_binary_the_server_and_the_bindings_name_only_the_facade() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = vec![];
    for crate_src in ["repl/src", "server/src", "python/src"] {
        rust_files(&root.join(crate_src), &mut files);
    }
    // The scan must see each crate's files, the batch tools' among them.
    for known in [
        "repl/src/main.rs",
        "repl/src/sim.rs",
        "repl/src/arena.rs",
        "repl/src/shell/mod.rs",
        "server/src/room.rs",
        "python/src/lib.rs",
    ] {
        assert!(files.contains(&root.join(known)), "{known} not scanned");
    }
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a readable file");
        for name in root_names(&text) {
            assert!(
                !BELOW.contains(&name.as_str()),
                "{} names `boardscript_interpreter::{name}`, below the facade",
                file.display()
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
