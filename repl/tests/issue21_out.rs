//! Issue 21: seats out for a round show in `status` (text and JSON), `show`, and the `state`
//! reply, over the machine protocol and in the plain REPL.

mod common;

use common::*;
use serde_json::json;
use std::time::Duration;

const MANIFEST: &str = "[seats]\nnames = [\"a\", \"b\", \"c\"]\n";

const RULES: &str = r#"
fn setup(g) { g.set_steps(1); }
fn legal_actions(g, seat) { ["play", "fold"] }
fn apply(g, seat, action) {
    if action == "fold" { g.sit_out(seat); }
    if g.active_seats().len() == 1 { g.bring_back_all(); }
}
fn winners(g) { [] }
"#;

#[test]
fn status_and_state_name_the_seats_out() {
    let dir = tempfile::tempdir().unwrap();
    write_game(dir.path(), "hands", MANIFEST, RULES);
    let mut p = Proc::start_in("hands", dir.path(), &["--seed", "1"]);
    let before = p.ok("status");
    assert!(
        before.get("out").is_none(),
        "nobody out: no field: {before}"
    );
    p.ok("do fold");
    let status = p.ok("status");
    assert_eq!(status["out"], json!(["a"]));
    assert_eq!(status["deciding"], json!(["b"]));
    assert_eq!(
        status["text"],
        "b to decide; 1 action(s) played; out: a; seed 1"
    );
    assert_eq!(p.state()["turn"]["out"], json!([0]));
    let shown = p.ok("show");
    let text = shown["text"].as_str().unwrap();
    assert!(text.starts_with("turn 2 (b), round 1, out: a\n"), "{text}");
    p.ok("do fold");
    let back = p.ok("status");
    assert!(back.get("out").is_none(), "everyone back: {back}");
    assert_eq!(back["deciding"], json!(["c"]));
    p.finish();
}

#[test]
fn the_plain_repl_marks_the_seats_out() {
    let dir = tempfile::tempdir().unwrap();
    write_game(dir.path(), "hands", MANIFEST, RULES);
    let out = run_fed(
        dir.path(),
        "",
        &["play", "hands", "--seed", "1"],
        "do fold\nstatus\n",
        Duration::from_secs(60),
    );
    let (stdout, stderr) = texts(&out);
    assert!(
        stdout.contains("b to decide; 1 action(s) played; out: a; seed 1"),
        "{stdout}{stderr}"
    );
}
