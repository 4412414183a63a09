//! Data files through the binary: `reload` re-reads them like the scripts (a failing reload
//! keeps the old game), and a broken data file is a one-line load error.

mod common;

use common::*;
use serde_json::json;
use std::process::Stdio;
use std::time::Duration;

const RULES: &str = r#"
fn setup(g) { }
fn legal_actions(g, seat) { [data("deck", "card", 0).name, `${data_len("deck", "card")} cards`] }
fn apply(g, seat, action) { g.add_counter("n", 1); }
fn winners(g) { [] }
"#;

const MANIFEST: &str =
    "title = \"Deck\"\n[data]\ndeck = { file = \"data/deck.toml\", count = { card = 2 } }\n";

fn deck(first: &str) -> String {
    format!("[[card]]\nname = \"{first}\"\n\n[[card]]\nname = \"flood\"\n")
}

#[test]
fn reload_picks_up_an_edited_row_and_a_broken_file_keeps_the_old_game() {
    let dir = tempfile::tempdir().unwrap();
    let game = write_game(dir.path(), "deck", MANIFEST, RULES);
    std::fs::create_dir_all(game.join("data")).unwrap();
    std::fs::write(game.join("data/deck.toml"), deck("fire")).unwrap();
    let mut p = Proc::start_in("deck", dir.path(), &["--seed", "1"]);
    assert_eq!(
        p.ok("actions")["deciding"],
        json!({"p1": ["fire", "2 cards"]})
    );
    p.ok("do fire");
    std::fs::write(game.join("data/deck.toml"), deck("blaze")).unwrap();
    p.ok("reload");
    assert_eq!(
        p.ok("actions")["deciding"],
        json!({"p1": ["blaze", "2 cards"]})
    );
    // A row dropped: the count no longer holds, and the game goes on with the old data.
    let before = p.state();
    std::fs::write(game.join("data/deck.toml"), "[[card]]\nname = \"alone\"\n").unwrap();
    let error = p.refused("reload");
    assert!(
        error.contains("data/deck.toml: `card` holds 1 entries, game.toml expects 2")
            && error.contains("old rules kept"),
        "{error}"
    );
    // A float, refused at its place.
    std::fs::write(game.join("data/deck.toml"), deck("fire") + "cost = 1.5\n").unwrap();
    let error = p.refused("reload");
    assert!(error.contains("data/deck.toml:6:8: a float"), "{error}");
    assert_eq!(p.state(), before, "a failing reload changes nothing");
    assert_eq!(
        p.ok("actions")["deciding"],
        json!({"p1": ["blaze", "2 cards"]})
    );
    p.finish();
}

#[test]
fn a_broken_data_file_is_a_one_line_load_error() {
    let dir = tempfile::tempdir().unwrap();
    let game = write_game(dir.path(), "deck", MANIFEST, RULES);
    std::fs::create_dir_all(game.join("data")).unwrap();
    std::fs::write(game.join("data/deck.toml"), "[[card]]\nname = \"x\n").unwrap();
    let child = boardscript(dir.path(), "", &["check", "deck"], Stdio::null())
        .spawn()
        .unwrap();
    let out = finish_within(child, Duration::from_secs(10));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {stderr}");
    assert!(lines[0].contains("data/deck.toml:2:"), "{stderr}");
}
