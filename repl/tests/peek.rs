//! `check --peek`, the leak check: every shipped game passes it, and a game whose rules tell
//! every seat something hidden (the issue's example: a question skipped when a seat's two
//! hidden cards are equal) fails it, naming the seed and the action.

mod common;

use common::{run_fed, scripts_dir, texts, write_game};
use std::path::Path;
use std::time::Duration;

fn check_peek(scripts: &Path, game: &str, games: &str) -> (Option<i32>, String) {
    let args = [
        "check",
        game,
        "--peek",
        "--games",
        games,
        "--max-actions",
        "300",
    ];
    let out = run_fed(scripts, "", &args, "", Duration::from_secs(600));
    let (stdout, stderr) = texts(&out);
    (out.status.code(), format!("{stdout}{stderr}"))
}

#[test]
fn the_shipped_games_pass_the_leak_check() {
    for game in [
        "virus-wars",
        "connect-four",
        "fibs",
        "virus-war-fr",
        "virus-war-kr",
        "cosmic-disaster",
        "nemesis",
    ] {
        let (code, out) = check_peek(&scripts_dir(), game, "2");
        assert_eq!(code, Some(0), "{game}:\n{out}");
        assert!(
            out.contains("2 random playout(s) finished without error"),
            "{out}"
        );
    }
}

const LEAKY_TOML: &str = r#"title = "Leaky"
about = "Each seat holds two cards; a seat holding a pair is never asked whether to swap."
phases = ["lay", "swap"]

[seats]
names = ["a", "b"]

[zones]
deck = { visible_to = "none" }
hand = { per_seat = true, visible_to = "owner" }
table = { visible_to = "all" }
"#;

/// Seat a lays a card face up; then b is asked whether to swap, unless b's two hidden cards
/// are equal: whether b is asked tells a what b holds.
const LEAKY_RULES: &str = r#"
fn setup(g) {
    let deck = g.zone("deck");
    for v in [1, 1, 2, 2, 3, 3, 4, 4] {
        deck.put(g.new_card(`${v}`, #{}));
    }
    deck.shuffle();
    for s in g.seats() {
        deck.draw_to(g.zone("hand", s), 2);
    }
    g.set_phase("lay");
}

fn to_decide(g) {
    if g.game_over() { return []; }
    if g.phase() == "lay" { ["a"] } else { ["b"] }
}

fn legal_actions(g, seat) {
    if g.phase() == "lay" && seat == "a" {
        let out = [];
        for n in g.zone("hand", "a").names() {
            if !out.contains(`lay ${n}`) { out.push(`lay ${n}`); }
        }
        out
    } else if g.phase() == "swap" && seat == "b" {
        ["swap", "keep"]
    } else {
        []
    }
}

fn apply(g, seat, action) {
    if g.phase() == "lay" {
        let w = action.split(" ");
        g.zone("table").take(g.zone("hand", "a").find(w[1]));
        let b = g.zone("hand", "b").names();
        if b[0] == b[1] {
            g.end_game([], "b holds a pair");
        } else {
            g.set_phase("swap");
        }
    } else {
        g.end_game(["b"], "b decided");
    }
}
"#;

#[test]
fn a_question_skipped_on_equal_hidden_cards_is_a_leak() {
    let dir = tempfile::tempdir().unwrap();
    write_game(dir.path(), "leaky", LEAKY_TOML, LEAKY_RULES);
    // Without --peek the game plays without error: no view check can see this.
    let (code, out) = check_peek_without(dir.path());
    assert_eq!(code, Some(0), "{out}");
    let line = leak_found(dir.path(), "leaky");
    assert!(line.contains(", action 0 (a: lay "), "{line}");
    assert!(line.contains("who decides changes for a"), "{line}");
    let told = ["(real [1] / dealt again [])", "(real [] / dealt again [1])"];
    assert!(told.iter().any(|t| line.contains(t)), "{line}");
}

const MARKED_TOML: &str = r#"title = "Marked"
about = "One of four face-up cards hides a bomb nobody has seen; tapping one says if it ticks."

[seats]
names = ["a", "b"]

[zones]
table = { visible_to = "all" }
"#;

/// Every card has a secret mark that no seat knows; `tap N` logs for everyone whether card N
/// is the bomb, without showing its mark to anyone: a leak of what nobody was shown.
const MARKED_RULES: &str = r#"
fn setup(g) {
    let table = g.zone("table");
    for i in 1..=4 {
        let c = g.new_card(`card-${i}`, #{});
        table.put(c);
        g.set_secret(c, "bomb", i == 3);
    }
}
fn to_decide(g) { if g.game_over() { [] } else { ["a"] } }
fn legal_actions(g, seat) { ["tap 1", "tap 2", "tap 3", "tap 4"] }
fn apply(g, seat, action) {
    let n = parse_int(action.split(" ")[1]);
    let c = g.zone("table").cards()[n - 1];
    if c.bomb { g.log("it ticks"); } else { g.log("silence"); }
    g.end_game([], "tapped");
}
"#;

#[test]
fn a_mark_nobody_was_shown_told_in_the_log_is_a_leak() {
    let dir = tempfile::tempdir().unwrap();
    write_game(dir.path(), "marked", MARKED_TOML, MARKED_RULES);
    let line = leak_found(dir.path(), "marked");
    assert!(line.contains("its view changes for"), "{line}");
    assert!(line.contains(".log"), "{line}");
}

/// `check GAME --peek` over 10 playouts fails (status 1); its first leak line.
fn leak_found(scripts: &Path, game: &str) -> String {
    let (code, out) = check_peek(scripts, game, "10");
    assert_eq!(code, Some(1), "{out}");
    out.lines()
        .find(|l| l.contains("leak: seed "))
        .unwrap_or_else(|| panic!("no leak named:\n{out}"))
        .to_string()
}

fn check_peek_without(scripts: &Path) -> (Option<i32>, String) {
    let args = ["check", "leaky", "--games", "10"];
    let out = run_fed(scripts, "", &args, "", Duration::from_secs(600));
    let (stdout, stderr) = texts(&out);
    (out.status.code(), format!("{stdout}{stderr}"))
}
