//! Issue 22: a Nemesis position with the new directives and an engine `eval` line, through
//! the REPL's `--position` (the `--json` protocol), and its refusal naming the line.

mod common;

use common::*;
use serde_json::json;
use std::time::Duration;

const ARGS: [&str; 6] = ["--seed", "1", "--seats", "2", "-o", "draft=random"];

/// The first player, the round, the bag and an `eval` line set from the file: p2 decides.
#[test]
fn i22_a_nemesis_position_through_the_repl() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("scenario.txt");
    std::fs::write(
        &file,
        "# p2 first in round 3; the bag: an adult with back number 3 and the blank\n\
         first p2\nround 3\nbag adult:3 blank\neval g.set(\"note\", 5)\n",
    )
    .unwrap();
    let path = file.to_string_lossy().into_owned();
    let mut args = ARGS.to_vec();
    args.extend(["--position", &path]);
    let mut p = Proc::start_in("nemesis", &scripts_dir(), &args);
    assert_eq!(p.ok("eval g.get(\"first\")")["value"], json!("\"p2\""));
    assert_eq!(p.ok("eval g.counter(\"round\")")["value"], json!("3"));
    assert_eq!(
        p.ok("eval let k = g.bag(\"bag\").kinds(); k.sort(); k")["value"],
        json!("[\"token-adult-05\", \"token-blank\"]")
    );
    assert_eq!(p.ok("eval g.get(\"note\")")["value"], json!("5"));
    let actions = p.ok("actions");
    assert!(actions["deciding"]["p2"].is_array(), "{actions}");
    p.finish();
}

/// A bad line stops the start with the line's number and what is wrong, on stderr.
#[test]
fn i22_a_bad_position_line_is_refused_with_its_number() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.txt");
    std::fs::write(&file, "first p2\ndeck red top foo\n").unwrap();
    let path = file.to_string_lossy().into_owned();
    let mut args = vec!["play", "nemesis"];
    args.extend(ARGS);
    args.extend(["--position", &path]);
    let out = run_fed(&scripts_dir(), "", &args, "quit\n", Duration::from_secs(60));
    let (_, stderr) = texts(&out);
    assert!(
        stderr.contains(
            "position: line 2: no card \"foo\" in the red deck, its discard pile or the box"
        ),
        "{stderr}"
    );
    assert!(!out.status.success());
}
