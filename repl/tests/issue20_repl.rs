//! Issue 20: the `boardscript` binary (items 4, 7, 10, 14). Each test runs the real binary:
//! plain (stdin a pipe), over `--json`, or on the command line.

mod common;

use common::*;
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

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

/// Two open seats taking turns for ever, `a` first: each plays `x` or `y`.
fn open_game(dir: &Path) {
    let manifest = "title = \"Open\"\n[seats]\nnames = [\"a\", \"b\"]\n";
    let rules = "fn setup(g) { }\nfn legal_actions(g, seat) { [\"x\", \"y\"] }\nfn apply(g, seat, action) { g.next_turn(); }\nfn winners(g) { [] }\nfn render(g, seat) { `board of ${g.actions_applied()} action(s)` }\n";
    write_game(dir, "open", manifest, rules);
}

/// `boardscript ARGS --scripts DIR` in plain mode, fed `input`.
fn plain(dir: &Path, args: &[&str], input: &str) -> (String, String) {
    let mut child = boardscript(dir, "", args, Stdio::piped()).spawn().unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    texts(&finish_within(child, Duration::from_secs(60)))
}

/// Item 14: on a terminal, `play` greets with the board (and with `--seat`, first with what
/// the bots played before the seat's first decision). Run under `script`, which gives the
/// binary a terminal.
#[test]
fn i20_14_the_terminal_repl_starts_with_the_board_and_the_bots_first_moves() {
    let dir = tempfile::tempdir().unwrap();
    open_game(dir.path());
    let run = |extra: &str| {
        let command = format!(
            "{} play open --seed 1 --scripts {}{extra}",
            env!("CARGO_BIN_EXE_boardscript"),
            dir.path().display()
        );
        let mut child = Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .env("HOME", dir.path())
            .env_remove("BOARDSCRIPT_SCRIPTS")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("`script` (util-linux) runs the REPL on a terminal");
        let _ = child.stdin.take().unwrap().write_all(b"quit\n");
        let out = finish_within(child, Duration::from_secs(60));
        let text = texts(&out).0.replace('\r', "");
        // What the REPL printed before its first prompt.
        text[..text
            .find("open (")
            .unwrap_or_else(|| panic!("no prompt: {text}"))]
            .to_string()
    };
    let greeting = run("");
    let lines: Vec<&str> = greeting
        .lines()
        .filter(|l| !l.contains("quit") && !l.contains('\x1b'))
        .collect();
    assert_eq!(
        lines[1..],
        [
            "seed 1 (`--seed 1` plays this deal again)",
            "board of 0 action(s)"
        ],
        "{greeting}"
    );

    let greeting = run(" --seat b");
    let lines: Vec<&str> = greeting
        .lines()
        .filter(|l| !l.contains("quit") && !l.contains('\x1b'))
        .collect();
    assert_eq!(lines.len(), 4, "{greeting}");
    assert_eq!(
        lines[1], "you play b; the bot plays the other seats",
        "{greeting}"
    );
    assert!(["a: x", "a: y"].contains(&lines[2]), "{greeting}");
    assert_eq!(lines[3], "board of 1 action(s)", "{greeting}");
}

/// Item 14: with `--seat`, the bots' moves before the seat's first decision are echoed in
/// plain mode too (a JSON client reads them with `log`).
#[test]
fn i20_14_seat_mode_echoes_the_bots_first_moves() {
    let dir = tempfile::tempdir().unwrap();
    open_game(dir.path());
    let (stdout, stderr) = plain(
        dir.path(),
        &["play", "open", "--seed", "1", "--seat", "b"],
        "log\n",
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}{stderr}");
    assert!(["a: x", "a: y"].contains(&lines[0]), "{stdout}");
    assert_eq!(lines[1], lines[0], "`log` holds the same move: {stdout}");
    // Seat a decides first: nothing to echo.
    let (stdout, _) = plain(
        dir.path(),
        &["play", "open", "--seed", "1", "--seat", "a"],
        "",
    );
    assert_eq!(stdout, "");
}

/// Item 14: `bot n` lists up to 10 actions; more are summed up per seat with the last one,
/// unless `-v` (`--verbose`) asks for every one.
#[test]
fn i20_14_bot_sums_up_many_actions_unless_verbose() {
    let dir = tempfile::tempdir().unwrap();
    open_game(dir.path());
    let (stdout, stderr) = plain(
        dir.path(),
        &["play", "open", "--seed", "1"],
        "bot 10\nbot 11\nbot 11 -v\nbot --verbose\nbot 3 -x\n",
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 10 + 2 + 11 + 1, "{stdout}{stderr}");
    assert!(
        lines[..10]
            .iter()
            .all(|l| l.starts_with("bot a: ") || l.starts_with("bot b: ")),
        "{stdout}"
    );
    assert_eq!(
        lines[10], "bot played 11 actions (a 6, b 5); `bot 11 -v` lists them",
        "{stdout}"
    );
    assert!(lines[11].starts_with("the last: bot a: "), "{stdout}");
    assert!(
        lines[12..]
            .iter()
            .all(|l| l.starts_with("bot a: ") || l.starts_with("bot b: ")),
        "{stdout}"
    );
    assert!(
        stderr.starts_with("error: "),
        "`bot 3 -x` is refused: {stderr}"
    );
    assert!(stderr.contains("usage: bot [n] [bot] [-v]"), "{stderr}");
}

/// Item 14: `load` refuses to replace actions that no save holds, as `save` refuses to
/// replace a file, and changes nothing; `load!` (or `load --force`) replaces them. A game
/// taken back to an earlier point of its save (`undo`) loses nothing, so loads.
#[test]
fn i20_14_load_refuses_to_replace_an_unsaved_game() {
    let dir = tempfile::tempdir().unwrap();
    open_game(dir.path());
    let save = dir.path().join("s.json").display().to_string();
    let mut p = Proc::start_in("open", dir.path(), &["--seed", "1"]);
    p.ok("do x");
    p.ok(&format!("save {save}"));
    p.ok("do y");
    p.ok("do x");
    let before = p.state();
    let error = p.refused(&format!("load {save}"));
    assert_eq!(
        error,
        format!("the game has 2 action(s) not saved; `save <file>` keeps them, `load! {save}` (or `load --force {save}`) replaces them")
    );
    assert_eq!(p.state(), before, "a refused load changes nothing");
    assert_eq!(p.ok(&format!("load! {save}"))["actions"], 1);
    p.ok("do y");
    p.ok("undo");
    assert_eq!(p.ok(&format!("load {save}"))["actions"], 1);
    p.ok("do y");
    assert_eq!(p.ok(&format!("load --force {save}"))["actions"], 1);
    p.finish();
}

/// Item 14: a finished Virus War card game's `show` says the game is over and who won, as
/// `status` does from the engine's outcome, and gives no seat the turn.
#[test]
fn i20_14_finished_virus_war_games_render_the_outcome() {
    for (game, seed) in [("virus-war-fr", "3"), ("virus-war-kr", "3")] {
        let mut p = Proc::start_in(game, &scripts_dir(), &["--seed", seed]);
        p.ok("bot 100000");
        let status = p.ok("status");
        assert_eq!(status["over"], true, "{game}: {status}");
        let winners = strings(&status["winners"]);
        let s = if winners.len() == 1 { "s" } else { "" };
        let show = p.ok("show");
        let text = show["text"].as_str().unwrap();
        if game == "virus-war-fr" {
            let first = text.lines().next().unwrap();
            assert_eq!(
                first,
                format!("Virus War: game over, {} win{s}", winners.join(" and ")),
                "{text}"
            );
            assert!(
                !text.contains("'s turn") && !text.lines().any(|l| l.starts_with('*')),
                "{text}"
            );
        } else {
            let reason = status["reason"].as_str().unwrap();
            let last = text.lines().last().unwrap();
            assert_eq!(
                last,
                format!("game over: {} win{s} ({reason})", winners.join(", ")),
                "{text}"
            );
        }
        p.finish();
    }
}
