//! Issue 20 (items 8, 9, 13): a question asked in the middle of an effect shows in `actions`
//! and its JSON reply; a game's action that is not legal now is refused as an illegal action
//! with the reason, never as an unknown command; script errors point where the fault is and
//! suggest the name meant. Each test runs the binary, plain (stdin a pipe) or over `--json`.

mod common;

use common::*;
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

/// `boardscript ARGS --scripts DIR` fed `input` on stdin (bounded, so a hang fails).
fn run(scripts: &Path, args: &[&str], input: &str) -> Output {
    let mut child = boardscript(scripts, "", args, Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    finish_within(child, Duration::from_secs(60))
}

fn texts(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Nemesis with one seat, p1 in the Hibernatorium beside room 9, whose noise roll would be
/// 9 (Careful Movement then asks which corridor gets the marker).
fn nemesis_position(dir: &Path) -> String {
    let file = dir.join("careful.txt");
    std::fs::write(&file, "explore 9\nnext noise 9\n").unwrap();
    file.to_string_lossy().into_owned()
}

const NEMESIS_ARGS: [&str; 6] = ["--seed", "1", "--seats", "1", "-o", "draft=random"];

/// Pays a Careful Movement into room 9 with the first cards offered, over `--json`.
fn careful_9(p: &mut Proc) {
    p.ok("do careful 9");
    for _ in 0..2 {
        let pay = p.legal("p1")[0].clone();
        assert!(pay.starts_with("pay "), "{pay}");
        p.ok(&format!("do {pay}"));
    }
}

/// Item 8: after `careful 9` and two `pay`s, `actions` says which question the exits answer,
/// in its text and in an additive `prompts` field (seat -> prompt) beside `deciding`.
#[test]
fn i20_8_a_question_shows_its_prompt_in_actions() {
    let dir = tempfile::tempdir().unwrap();
    let pos = nemesis_position(dir.path());
    let mut args = NEMESIS_ARGS.to_vec();
    args.extend(["--position", &pos]);
    let mut p = Proc::start_in("nemesis", &scripts_dir(), &args);
    let before = p.ok("actions");
    assert_eq!(before["prompts"], json!({}), "no question yet: {before}");
    careful_9(&mut p);
    let asked = p.ok("actions");
    assert_eq!(
        asked["deciding"],
        json!({"p1": ["exit 1", "exit 2", "exit 3", "exit 4"]})
    );
    assert_eq!(
        asked["prompts"],
        json!({"p1": "Which corridor gets the noise marker?"})
    );
    let text = asked["text"].as_str().unwrap();
    assert_eq!(
        text.lines().next(),
        Some("p1 decides (4 legal): Which corridor gets the noise marker?"),
        "{text}"
    );
    p.ok("do exit 2");
    assert_eq!(p.ok("actions")["prompts"], json!({}));
    p.finish();
}

/// Item 8, as people read it: the plain REPL's `actions` names the question too.
#[test]
fn i20_8_the_plain_repl_lists_the_question_with_its_options() {
    let dir = tempfile::tempdir().unwrap();
    let pos = nemesis_position(dir.path());
    let mut args = vec!["play", "nemesis"];
    args.extend(NEMESIS_ARGS);
    args.extend(["--position", &pos]);
    // `pay ...` answers: the first two cards of the hand, listed by `actions`.
    let out = run(
        &scripts_dir(),
        &args,
        "careful 9\nactions\n1\nactions\n1\nactions\n",
    );
    let (stdout, stderr) = texts(&out);
    assert_eq!(stderr, "");
    let last = stdout.rsplit("p1: pay").next().unwrap();
    assert!(
        last.contains(
            "p1 decides (4 legal): Which corridor gets the noise marker?\n  1. exit 1   2. exit 2"
        ),
        "{stdout}"
    );
}

/// A two-seat game where `a`'s action asks `b` a question: its prompt is `b`'s, shown with
/// `b`'s options only.
const ASKS_B: &str = r#"
fn setup(g) { g.set_steps(1); }
fn legal_actions(g, seat) { ["go"] }
fn apply(g, seat, action) {
    if seat == "a" {
        g.ask(#{ seat: "b", options: ["keep", "swap"], then: "answered", prompt: "Keep or swap, b?" });
    }
}
fn answered(g, seat, answer) { g.log(`b: ${answer}`); }
fn winners(g) { [] }
"#;

const TWO_SEATS: &str = "[seats]\nnames = [\"a\", \"b\"]\n";

/// Item 8: the prompt a client is shown is its own seat's question, never another seat's: a
/// client playing `a` (`--seat a`) never sees the question put to `b`, while an all-seeing
/// client sees it with `b`'s options.
#[test]
fn i20_8_a_prompt_is_shown_only_with_the_asked_seats_options() {
    let dir = tempfile::tempdir().unwrap();
    write_game(dir.path(), "asks", TWO_SEATS, ASKS_B);
    let mut god = Proc::start_in("asks", dir.path(), &["--seed", "1"]);
    god.ok("do go");
    let asked = god.ok("actions");
    assert_eq!(asked["deciding"], json!({"b": ["keep", "swap"]}));
    assert_eq!(asked["prompts"], json!({"b": "Keep or swap, b?"}));
    god.finish();

    let mut a = Proc::start_in("asks", dir.path(), &["--seed", "1", "--seat", "a"]);
    for _ in 0..3 {
        let mine = a.ok("actions");
        assert_eq!(mine["deciding"], json!({"a": ["go"]}));
        assert_eq!(mine["prompts"], json!({}), "{mine}");
        a.ok("do go");
    }
    a.finish();
}
