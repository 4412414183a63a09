//! Issue 20: the `boardscript` binary (items 4, 7, 10, 14). Each test runs the real binary:
//! plain (stdin a pipe), over `--json`, or on the command line.

mod common;

use common::*;
use serde_json::{json, Value};
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

/// Two seats taking turns, six actions in all: `me` plays `m1` or `m2`; `bot` plays one of
/// `bot_actions`, which only `bot` may read in the log.
fn secret_game(bot_actions: &str) -> (String, String) {
    let manifest =
        "title = \"Secrets\"\nlog_actions = \"seat\"\n[seats]\nnames = [\"me\", \"bot\"]\n";
    let rules = format!(
        "fn setup(g) {{ }}\n\
         fn legal_actions(g, seat) {{\n\
           if g.actions_applied() >= 6 {{ return []; }}\n\
           if seat == \"me\" {{ [\"m1\", \"m2\"] }} else {{ {bot_actions} }}\n\
         }}\n\
         fn apply(g, seat, action) {{ g.next_turn(); }}\n\
         fn winners(g) {{ [] }}\n"
    );
    (manifest.to_string(), rules)
}

/// Sends `status` until a reply carries `reloaded` (the watcher sees a save within moments),
/// and returns that reply whole.
fn status_after_reload(p: &mut Proc) -> Value {
    for _ in 0..200 {
        std::thread::sleep(Duration::from_millis(50));
        let v = p.ok("status");
        if v.get("reloaded").is_some() {
            return v;
        }
    }
    panic!("no reply carried `reloaded` after the scripts changed");
}

/// Item 4: with `--seat` and `--watch`, a reload that refuses another seat's hidden action
/// names only its place and seat (not the action, nor that seat's legal actions), and the
/// bots play on, so that the client is asked again or the game is over.
#[test]
fn i20_4_a_watched_reload_in_seat_mode_hides_other_seats_and_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let (manifest, rules) = secret_game("[\"hide-a\", \"hide-b\"]");
    let game = write_game(dir.path(), "s", &manifest, &rules);
    let mut p = Proc::start_in("s", dir.path(), &["--seed", "1", "--seat", "me", "--watch"]);
    let first = p.ok("do m1");
    assert_eq!(first["others"], 1, "{first}");
    assert!(!first.to_string().contains("hide"), "{first}");

    // The new rules refuse the bot's action: the game is cut back to where the bot decides.
    let (_, rules) = secret_game("[\"open-x\"]");
    std::fs::write(game.join("rules.rhai"), rules).unwrap();
    let reply = status_after_reload(&mut p);
    let reloaded = &reply["reloaded"];
    assert_eq!(reloaded["ok"], true, "{reply}");
    assert_eq!(
        reloaded["refused"],
        json!({"index": 2, "seat": "bot"}),
        "{reply}"
    );
    assert_eq!(reloaded["replayed"], 1, "{reply}");
    assert_eq!(reloaded["others"], 1, "{reply}");
    assert_eq!(reloaded["kept_aside"], 0, "{reply}");
    assert!(!reply.to_string().contains("hide"), "{reply}");
    assert_eq!(
        reloaded["text"],
        "reloaded: action 2 (by bot) is now refused by the new rules\nthe game is kept up to action 1; the other seats play on from there",
        "{reply}"
    );
    // The bot played under the new rules, and the client is asked.
    assert_eq!(reply["deciding"], json!(["me"]), "{reply}");
    assert_eq!(p.legal("me"), ["m1", "m2"]);
    let second = p.ok("do m2");
    assert_eq!(second["others"], 1, "{second}");

    // A reload whose replay fails names no action and shows no script message.
    let (_, rules) = secret_game("[\"open-x\"].map(|a| a.nosuch())");
    std::fs::write(game.join("rules.rhai"), rules).unwrap();
    let reply = status_after_reload(&mut p);
    assert_eq!(
        reply["reloaded"],
        json!({"ok": false, "error": "the new rules fail while replaying the game; old rules kept (a session without --seat shows the error)"}),
        "{reply}"
    );
    assert_eq!(reply["deciding"], json!(["me"]), "{reply}");
    assert_eq!(p.legal("me"), ["m1", "m2"]);
    let refusal = p.refused("reload");
    assert!(
        refusal.starts_with("`reload` is not available"),
        "{refusal}"
    );
    p.finish();
}

/// Whether process `pid` catches SIGINT (its handler is installed): bit 2 of `SigCgt`.
fn catches_sigint(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (2 - 1)) != 0)
}

/// Starts `boardscript ARGS --scripts <shipped games>`, waits until it catches SIGINT, lets it
/// play a little, sends it SIGINT as Ctrl-C would, and returns its output.
fn interrupted(args: &[&str]) -> Output {
    let child = boardscript(&scripts_dir(), "", args, Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    for _ in 0..600 {
        if catches_sigint(pid) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(catches_sigint(pid), "no SIGINT handler in {args:?}");
    // Some games are played first (the report holds whatever was played, even none).
    std::thread::sleep(Duration::from_millis(500));
    let kill = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    finish_within(child, Duration::from_secs(60))
}

/// The number after `before` in `text` (`after 412 of`).
fn number_after(text: &str, before: &str) -> u64 {
    let at = text
        .find(before)
        .unwrap_or_else(|| panic!("no `{before}` in {text}"))
        + before.len();
    text[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after `{before}` in {text}"))
}

/// The lines of a `sim` report that count games (not the speed, nor the run's own line).
fn tallies(report: &str) -> Vec<&str> {
    report
        .lines()
        .filter(|l| l.starts_with("  ") && !l.contains("speed:") && !l.contains("interrupted"))
        .collect()
}

/// Item 7: Ctrl-C during `sim` stops after the games being played, prints the report of the
/// games played (exit status 130) and the arguments that play the rest; those games are
/// the run's first ones, so a run of as many games gives the same report, and the rest plays
/// on with `--skip`.
#[test]
fn i20_7_ctrl_c_stops_sim_with_the_report_so_far_and_how_to_resume() {
    let out = interrupted(&[
        "sim",
        "connect-four",
        "--games",
        "1000000000",
        "--seed",
        "7",
        "--threads",
        "2",
        "--quiet",
    ]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(130), "{stdout}{stderr}");
    let played = number_after(&stdout, "interrupted (Ctrl-C) after ");
    assert!(
        stdout.contains(&format!(
            "interrupted (Ctrl-C) after {played} of 1000000000 games; `--seed 7 --skip {played} --games {}` plays the rest",
            1_000_000_000 - played
        )),
        "{stdout}"
    );
    assert!(
        stdout.starts_with(&format!("connect-four: {played} games, seed 7")),
        "{stdout}"
    );
    assert!(stderr.contains("Ctrl-C again quits now"), "{stderr}");
    if played == 0 {
        return;
    }
    let sim = |games: u64, skip: u64| {
        let out = boardscript(
            &scripts_dir(),
            "",
            &[
                "sim",
                "connect-four",
                "--games",
                &games.to_string(),
                "--skip",
                &skip.to_string(),
                "--seed",
                "7",
                "--quiet",
            ],
            Stdio::null(),
        )
        .output()
        .unwrap();
        assert!(out.status.success(), "{}", texts(&out).1);
        texts(&out).0
    };
    assert_eq!(tallies(&sim(played, 0)), tallies(&stdout));
    // The rest, added to what was played, is the longer run.
    let rest = sim(3, played);
    assert!(
        rest.starts_with(&format!("connect-four: 3 games from game {played}, seed 7")),
        "{rest}"
    );
    let whole = sim(played + 3, 0);
    // `  x     668 wins   56.5%`
    let wins = |report: &str, seat: &str| -> u64 {
        let line = report
            .lines()
            .find(|l| l.split_whitespace().next() == Some(seat) && l.contains(" wins "))
            .unwrap_or_else(|| panic!("no wins of {seat} in {report}"));
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    for seat in ["x", "o"] {
        assert_eq!(
            wins(&stdout, seat) + wins(&rest, seat),
            wins(&whole, seat),
            "{seat}: {stdout}\n{rest}\n{whole}"
        );
    }
}

/// Item 7: Ctrl-C during `check` stops after the playout being checked, prints what the
/// playouts so far found (exit status 130) and how to check the rest.
#[test]
fn i20_7_ctrl_c_stops_check_with_the_report_so_far() {
    let out = interrupted(&["check", "connect-four", "--games", "1000000000"]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(130), "{stdout}{stderr}");
    let run = number_after(&stdout, "interrupted (Ctrl-C) after ");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "connect-four: compiled 1 script file(s)".to_string(),
            format!(
                "  interrupted (Ctrl-C) after {run} of 1000000000 playout(s); `--skip {run} --games {}` checks the rest",
                1_000_000_000 - run
            ),
            format!("  {run} random playout(s) finished without error"),
        ],
        "{stdout}"
    );
}
