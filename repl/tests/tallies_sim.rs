//! Issue 22: `sim` and `check` print the games' tallies (`g.tally`) summed, with the mean per
//! game, under "tallies:"; a game that tallies nothing prints no such section.

mod common;

use common::{boardscript, finish_within};
use std::process::Stdio;
use std::time::Duration;

/// Game `tiny`: seats a and b; three actions, each tallying `steps`; the third also tallies
/// `wins` by 2 and ends the game.
const RULES: &str = r#"
fn setup(g) { }
fn to_decide(g) { if g.counter("n") >= 3 { [] } else { [g.turn()] } }
fn legal_actions(g, seat) { ["x"] }
fn apply(g, seat, action) {
    g.tally("steps");
    if g.add_counter("n", 1) == 3 { g.tally("wins", 2); g.end_game(["a"], "three"); }
    g.next_turn();
}
"#;

fn run(rules: &str, args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("tiny");
    std::fs::create_dir(&game).unwrap();
    std::fs::write(
        game.join("game.toml"),
        "title = \"Tiny\"\n[seats]\nnames = [\"a\", \"b\"]\n",
    )
    .unwrap();
    std::fs::write(game.join("rules.rhai"), rules).unwrap();
    let child = boardscript(dir.path(), "", args, Stdio::null())
        .spawn()
        .expect("start boardscript");
    let o = finish_within(child, Duration::from_secs(60));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// The lines after `tallies:` that name a tally, trimmed.
fn tally_lines(out: &str) -> Vec<String> {
    out.lines()
        .skip_while(|l| l.trim() != "tallies:")
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn sim_prints_the_summed_tallies_and_their_mean() {
    let out = run(
        RULES,
        &["sim", "tiny", "--games", "4", "--threads", "2", "--quiet"],
    );
    assert_eq!(
        tally_lines(&out),
        ["steps 12 3.00 a game", "wins 8 2.00 a game"],
        "{out}"
    );
}

#[test]
fn check_prints_the_summed_tallies_too() {
    let out = run(RULES, &["check", "tiny", "--games", "5"]);
    assert_eq!(
        tally_lines(&out),
        ["steps 15 3.00 a game", "wins 10 2.00 a game"],
        "{out}"
    );
}

#[test]
fn no_tally_no_section() {
    let rules = RULES
        .replace("g.tally(\"steps\");", "")
        .replace("g.tally(\"wins\", 2);", "");
    let out = run(&rules, &["sim", "tiny", "--games", "2", "--quiet"]);
    assert!(!out.contains("tallies:"), "{out}");
}
