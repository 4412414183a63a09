//! Issue 10: the REPL and the command line as a new user meets them (items 1, 13, 15, 16,
//! 18, 19). Each test runs the binary, plain (stdin a pipe) or over `--json`.

mod common;

use common::*;
use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

/// `boardscript ARGS --scripts DIR` fed `input` on stdin, within a few seconds.
fn run(scripts: &Path, args: &[&str], input: &str) -> Output {
    run_fed(scripts, "", args, input, Duration::from_secs(20))
}

/// A one-seat game whose legal actions are `list` (a Rhai array), with a boolean option.
fn rules(list: &str) -> String {
    format!(
        "fn setup(g) {{ }}\nfn legal_actions(g, seat) {{ {list} }}\nfn apply(g, seat, action) {{ }}\nfn winners(g) {{ [] }}\n"
    )
}

const MANIFEST: &str = "title = \"W\"\n[options.flag]\ndefault = false\nabout = \"A switch.\"\n";

/// i10-1: with `--json --watch`, the reload the watcher runs is reported in the reply to the
/// next command (`reloaded`, the fields of a `reload` reply), not only on stderr.
#[test]
fn i10_1_a_watch_reload_is_reported_in_the_json_reply() {
    let dir = tempfile::tempdir().unwrap();
    let game = write_game(dir.path(), "w", MANIFEST, &rules("[\"a\", \"b\"]"));
    let mut p = Proc::start_in("w", dir.path(), &["--seed", "1", "--watch"]);
    let first = p.ok("do a");
    assert!(first.get("reloaded").is_none(), "{first}");
    // The new rules refuse the action played: the game is cut back, the action kept aside.
    std::fs::write(game.join("rules.rhai"), rules("[\"b\"]")).unwrap();
    let reloaded = wait_for_reload(&mut p);
    assert_eq!(reloaded["ok"], true, "{reloaded}");
    assert_eq!(reloaded["replayed"], 0, "{reloaded}");
    assert_eq!(reloaded["kept_aside"], 1, "{reloaded}");
    assert_eq!(reloaded["refused"]["index"], 1, "{reloaded}");
    assert_eq!(reloaded["refused"]["action"], "a", "{reloaded}");
    // A script that does not compile: the error is in the reply, the old rules are kept.
    std::fs::write(game.join("rules.rhai"), "fn setup(g) { let x = ; }\n").unwrap();
    let failed = wait_for_reload(&mut p);
    assert_eq!(failed["ok"], false, "{failed}");
    let error = failed["error"].as_str().unwrap();
    assert!(error.contains("old rules kept"), "{error}");
    assert!(error.contains("rules.rhai:1:"), "{error}");
    p.finish();
}

/// Sends `status` until a reply carries `reloaded` (the watcher sees a save within moments).
fn wait_for_reload(p: &mut Proc) -> Value {
    for _ in 0..100 {
        std::thread::sleep(Duration::from_millis(50));
        let v: Value = serde_json::from_str(&p.raw("status")).unwrap();
        if let Some(r) = v.get("reloaded") {
            return r.clone();
        }
    }
    panic!("no reply carried `reloaded` after the scripts changed");
}

/// The first line `child` writes on stdout, within `REPLY_TIMEOUT` (stdout is taken from
/// `child`: what it writes later is read and dropped).
fn first_stdout_line(child: &mut std::process::Child) -> String {
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
            let _ = tx.send(line.unwrap_or_default());
        }
    });
    rx.recv_timeout(REPLY_TIMEOUT)
        .unwrap_or_else(|e| panic!("no line on stdout within {REPLY_TIMEOUT:?}: {e}"))
}

/// i10-13: a bare word the game uses as an action (`stop`), typed when that action is not
/// legal, is refused as `do stop` is, not as an unknown command; a typo still is one.
#[test]
fn i10_13_a_bare_action_not_legal_now_is_refused_like_do() {
    let fr5 = scripts_dir().join("virus-war-fr/positions/fr-5.txt");
    let out = run(
        &scripts_dir(),
        &[
            "play",
            "virus-war-fr",
            "--seed",
            "3",
            "--position",
            fr5.to_str().unwrap(),
        ],
        // FR-5: p2's Stop window lists `stop`; p3, next, holds no Stop.
        "do play poison 5 p3\nactions\ndo pass\nstop\nshwo\n",
    );
    let (stdout, stderr) = texts(&out);
    assert!(stdout.contains("stop"), "{stdout}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines[0], "error: `stop` is not a legal action for p3; legal now: pass",
        "{stderr}"
    );
    assert_eq!(lines[1], "error: unknown command `shwo`; try `help`");
}

/// i10-15: a number picks from the list `actions` last showed, and is refused (saying why)
/// when none was shown or the list changed since.
#[test]
fn i10_15_a_number_picks_only_from_the_list_shown() {
    let out = run(
        &scripts_dir(),
        &["play", "virus-wars", "--seed", "3"],
        "1\nactions\ndo a6\n1\nactions\n1\n",
    );
    let (stdout, stderr) = texts(&out);
    let errors: Vec<&str> = stderr.lines().collect();
    assert_eq!(errors.len(), 2, "{stderr}");
    assert!(errors[0].contains("type `actions`"), "{stderr}");
    assert!(
        errors[1].contains("changed since `actions` numbered them"),
        "{stderr}"
    );
    // After a6, `actions` numbers a5 first: `1` plays it.
    assert!(stdout.lines().any(|l| l == "blue: a6"), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("blue: a5"), "{stdout}");
}

/// i10-16: a syntax error shows its source line and a caret, at start-up and on `reload`;
/// `check` shows one error once, however many playouts it fails.
#[test]
fn i10_16_errors_show_the_line_once() {
    let dir = tempfile::tempdir().unwrap();
    let bad = "fn setup(g) { }\nfn legal_actions(g, seat) { let x = ; }\nfn apply(g, seat, action) { }\nfn winners(g) { [] }\n";
    let game = write_game(dir.path(), "w", MANIFEST, bad);
    let out = run(dir.path(), &["play", "w"], "");
    let (_, stderr) = texts(&out);
    assert!(stderr.contains("rules.rhai:2:37: syntax error"), "{stderr}");
    assert!(
        stderr.contains(" 2 | fn legal_actions(g, seat) { let x = ; }"),
        "{stderr}"
    );
    assert!(stderr.lines().last().unwrap().ends_with('^'), "{stderr}");

    // `reload` shows the line of the new file, not of the rules still running.
    std::fs::write(game.join("rules.rhai"), rules("[\"a\"]")).unwrap();
    let mut child = boardscript(dir.path(), "", &["play", "w"], Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "status").unwrap();
    // The reply to `status` shows the good rules are loaded: only then is the file broken.
    let status = first_stdout_line(&mut child);
    assert!(status.contains("to decide"), "{status}");
    std::fs::write(game.join("rules.rhai"), bad).unwrap();
    writeln!(stdin, "reload").unwrap();
    drop(stdin);
    let (_, stderr) = texts(&finish_within(child, Duration::from_secs(20)));
    assert!(stderr.contains("old rules kept"), "{stderr}");
    assert!(
        stderr.contains(" 2 | fn legal_actions(g, seat) { let x = ; }"),
        "{stderr}"
    );

    // A runtime error every playout meets is shown once, with its line.
    let broken = rules("[\"a\"]").replace(
        "fn apply(g, seat, action) { }",
        "fn apply(g, seat, action) { g.stepp(); }",
    );
    std::fs::write(game.join("rules.rhai"), broken).unwrap();
    let out = run(dir.path(), &["check", "w", "--games", "5"], "");
    let (stdout, _) = texts(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(
        stdout.matches("stepp").count(),
        2,
        "error and source line once: {stdout}"
    );
    assert!(stdout.contains("   |") && stdout.contains('^'), "{stdout}");
    assert!(
        stdout.contains("4 more playout(s) failed with the same error as playout 0"),
        "{stdout}"
    );
}

/// i10-18: an illegal action's error quotes only the legal actions close to it, and counts
/// the rest (the whole hand stays behind `actions`).
#[test]
fn i10_18_an_illegal_action_does_not_list_the_whole_hand() {
    let out = run(
        &scripts_dir(),
        &["play", "virus-war-kr", "--seed", "5"],
        "do @p1 keep zz\ndo @p1 keep iii zz\n",
    );
    let (_, stderr) = texts(&out);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines[0],
        "error: `keep zz` is not a legal action for p1; legal now: 11 actions (`keep ...` 11); `actions` lists them"
    );
    assert!(!lines[0].contains("keep iii iv"), "{stderr}");
    assert!(
        lines[1].contains("keep iii iv, keep iii mutant-a, keep iii v, keep iii vi (4 of 11 legal"),
        "{stderr}"
    );
}

/// i10-19: boolean options take the usual spellings in any case; `play --help` names no game
/// we do not ship (it names none, and points to `boardscript list`).
#[test]
fn i10_19_boolean_options_in_any_case_and_help_names_no_missing_game() {
    let dir = tempfile::tempdir().unwrap();
    write_game(dir.path(), "w", MANIFEST, &rules("[\"a\"]"));
    for (given, read) in [
        ("TRUE", "true"),
        ("Yes", "true"),
        ("OFF", "false"),
        ("n", "false"),
    ] {
        let flag = format!("flag={given}");
        let out = run(
            dir.path(),
            &["play", "w", "-o", &flag],
            "eval g.option(\"flag\")\n",
        );
        let (stdout, stderr) = texts(&out);
        assert_eq!(stdout.trim(), read, "-o {flag}: {stderr}");
    }
    let out = run(dir.path(), &["play", "w", "-o", "flag=maybe"], "");
    let (_, stderr) = texts(&out);
    assert!(stderr.contains("is not true or false"), "{stderr}");

    let out = run(dir.path(), &["play", "--help"], "");
    let (stdout, _) = texts(&out);
    // The binary knows no game: help names none, and says where the games are listed.
    assert!(!stdout.contains("chess"), "{stdout}");
    assert!(stdout.contains("`boardscript list` shows them"), "{stdout}");
}
