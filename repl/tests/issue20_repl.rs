//! Issue 20: the `boardscript` binary (items 4, 7, 10, 14). Each test runs the real binary:
//! plain (stdin a pipe), over `--json`, or on the command line.

mod common;

use common::*;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn texts(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `boardscript ARGS` run in folder `cwd` with no `--scripts` and no `$BOARDSCRIPT_SCRIPTS`,
/// fed `input`: the binary finds games as a user's shell would have it find them.
fn run_in_folder(cwd: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardscript"))
        .args(args)
        .current_dir(cwd)
        .env_remove("BOARDSCRIPT_SCRIPTS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    finish_within(child, Duration::from_secs(60))
}

/// A one-seat game of three actions, `a` or `b`, with an option `tag` whose default tells one
/// copy of the game from another.
fn tagged_game(dir: &Path, id: &str, tag: &str) {
    let manifest = format!(
        "title = \"Tagged\"\n[options.tag]\ndefault = \"{tag}\"\nabout = \"Which copy.\"\n"
    );
    let rules = "fn setup(g) { }\nfn legal_actions(g, seat) { if g.actions_applied() < 3 { [\"a\", \"b\"] } else { [] } }\nfn apply(g, seat, action) { }\nfn winners(g) { [] }\n";
    write_game(dir, id, &manifest, rules);
}

/// The lines of `list` that are not indented: headers and games.
fn list_heads(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| !l.starts_with(' ')).collect()
}

/// Item 10: from a folder holding `nim/` and no `scripts/`, `list` and `check` find `nim`
/// there, `list` says where each game comes from (the built-in games by the normalised path
/// of the tree), and an unknown game's error names every place looked in, without `..`.
#[test]
fn i20_10_games_in_the_current_folder_are_found_and_sources_are_named() {
    let dir = tempfile::tempdir().unwrap();
    tagged_game(dir.path(), "nim", "here");

    let out = run_in_folder(dir.path(), &["list"], "");
    let (stdout, stderr) = texts(&out);
    assert!(out.status.success(), "{stderr}");
    let heads = list_heads(&stdout);
    let built_in = scripts_dir().canonicalize().unwrap();
    assert_eq!(heads[0], "games in the current folder:", "{stdout}");
    assert_eq!(heads[1], "nim  Tagged", "{stdout}");
    assert_eq!(
        heads[2],
        format!("built-in games ({}):", built_in.display()),
        "{stdout}"
    );
    assert!(heads.contains(&"virus-wars  Virus Wars"), "{stdout}");
    assert!(!stdout.contains("/../"), "{stdout}");

    let out = run_in_folder(dir.path(), &["check", "nim", "--games", "2"], "");
    let (stdout, stderr) = texts(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.starts_with("nim: compiled 1 script file(s)"),
        "{stdout}"
    );

    let out = run_in_folder(dir.path(), &["check", "nosuch"], "");
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let expected = format!(
        "error: no game `nosuch` in the current folder or the built-in games ({}) (games: ",
        built_in.display()
    );
    assert!(stderr.starts_with(&expected), "{stderr}");
    assert!(stderr.contains("nim, "), "{stderr}");
    assert!(!stderr.contains(".."), "{stderr}");
}

/// Item 10: `./scripts` comes before the current folder, which comes before the built-in
/// games; `list` marks a game that an earlier place hides, and `play` loads the first one.
#[test]
fn i20_10_the_first_place_holding_a_game_wins_and_list_says_which() {
    let dir = tempfile::tempdir().unwrap();
    tagged_game(&dir.path().join("scripts"), "nim", "scripts");
    tagged_game(dir.path(), "nim", "here");
    tagged_game(dir.path(), "hex", "here");

    let out = run_in_folder(dir.path(), &["list"], "");
    let (stdout, stderr) = texts(&out);
    assert!(out.status.success(), "{stderr}");
    let heads = list_heads(&stdout);
    assert_eq!(
        heads[..5],
        [
            "games in ./scripts:",
            "nim  Tagged",
            "games in the current folder:",
            "hex  Tagged",
            "nim  Tagged  [hidden: `nim` plays the one in ./scripts]",
        ],
        "{stdout}"
    );
    assert!(
        heads.contains(&"hex  Hex  [hidden: `hex` plays the one in the current folder]"),
        "{stdout}"
    );

    let eval = "eval g.option(\"tag\")\n";
    let out = run_in_folder(dir.path(), &["play", "nim", "--seed", "1"], eval);
    assert_eq!(texts(&out).0.trim(), "\"scripts\"", "{}", texts(&out).1);
    let out = run_in_folder(dir.path(), &["play", "hex", "--seed", "1"], eval);
    assert_eq!(texts(&out).0.trim(), "\"here\"", "{}", texts(&out).1);

    // A folder given with --scripts (or in $BOARDSCRIPT_SCRIPTS) is the only place looked in.
    let out = run_in_folder(
        dir.path(),
        &["play", "virus-wars", "--scripts", "scripts"],
        "",
    );
    let (_, stderr) = texts(&out);
    assert!(
        stderr.starts_with("error: no game `virus-wars` in scripts (--scripts) (games: nim)"),
        "{stderr}"
    );
    let mut env_run = Command::new(env!("CARGO_BIN_EXE_boardscript"));
    let out = env_run
        .args(["list"])
        .current_dir(dir.path())
        .env("BOARDSCRIPT_SCRIPTS", "./scripts/")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        list_heads(&stdout),
        ["games in ./scripts ($BOARDSCRIPT_SCRIPTS):", "nim  Tagged"],
        "{stdout}"
    );
}
