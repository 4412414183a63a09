//! `boardscript sim` and `check` under hostile games and arguments (issue 9): deep scripts get
//! `play`'s stack, a panicking playout is one failed game with its seed, results stream (no
//! memory per game), nonsense counts are refused, and `--max-actions N` means at most N.

mod common;

use common::{boardscript, finish_within};
use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::Duration;

/// Runs `boardscript ARGS --scripts DIR`, killed after 60 s (a hang fails, it does not block).
fn run(scripts: &Path, args: &[&str]) -> Output {
    finish_within(spawn(scripts, args), Duration::from_secs(60))
}

fn spawn(scripts: &Path, args: &[&str]) -> Child {
    spawn_sh(scripts, "", args)
}

/// Starts `boardscript ARGS --scripts DIR` through `sh`, after `prelude` (e.g. a `ulimit`).
fn spawn_sh(scripts: &Path, prelude: &str, args: &[&str]) -> Child {
    boardscript(scripts, prelude, args, Stdio::null())
        .spawn()
        .expect("start boardscript")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A scripts folder holding one game `tiny` with seats a and b, `toml` added to its manifest.
fn tiny(toml: &str, rules: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("tiny");
    std::fs::create_dir(&game).unwrap();
    std::fs::write(
        game.join("game.toml"),
        format!("title = \"Tiny\"\n[seats]\nnames = [\"a\", \"b\"]\n{toml}"),
    )
    .unwrap();
    std::fs::write(game.join("rules.rhai"), rules).unwrap();
    dir
}

/// Seats take turns playing `x` (or `extra` when listed); a wins after exactly three actions.
fn three_actions(extra: &str, apply_extra: &str) -> String {
    format!(
        "fn setup(g) {{ }}\n\
         fn to_decide(g) {{ if g.counter(\"n\") >= 3 {{ [] }} else {{ [g.turn()] }} }}\n\
         fn legal_actions(g, seat) {{ [\"x\"{extra}] }}\n\
         fn apply(g, seat, action) {{ {apply_extra} g.add_counter(\"n\", 1); g.next_turn(); }}\n\
         fn winners(g) {{ if g.counter(\"n\") >= 3 {{ [\"a\"] }} else {{ [] }} }}\n"
    )
}

/// The number in a report line starting with `label` (its first number).
fn count(out: &str, label: &str) -> u64 {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` line:\n{out}"));
    line[label.len() + line.find(label).unwrap()..]
        .split_whitespace()
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no count in `{line}`"))
}

/// Issue 9 item 2: scripts in `sim` and `check` get the stack they get in `play`. A 500-deep
/// recursion, allowed by `call_depth = 510`, overflowed the 2 MB worker stacks and aborted the
/// whole run. (A 4,000-deep array stored in setup did too; it is left out as it takes seconds
/// to build.)
#[test]
fn i9_deep_scripts_run_in_sim_and_check() {
    let rules = three_actions("", "").replace(
        "fn setup(g) { }",
        "fn deep(n) { if n == 0 { 0 } else { 1 + deep(n - 1) } }\n\
         fn setup(g) { g.set_counter(\"depth\", deep(500)); }",
    );
    let dir = tiny("[limits]\ncall_depth = 510\n", &rules);
    for args in [
        &["sim", "tiny", "--games", "2", "--threads", "2", "--quiet"][..],
        &["check", "tiny", "--games", "1"][..],
    ] {
        let o = run(dir.path(), args);
        let (out, err) = (text(&o.stdout), text(&o.stderr));
        assert_eq!(o.status.code(), Some(0), "{args:?}:\n{out}{err}");
    }
}

/// Issue 9 items 3 and 20: a playout that panics the engine (here an integer overflow, which
/// panics in test builds) is one failed game, named with its seed; the other games finish and
/// the exit status is 1. Before, the panic killed a worker and with it the whole run.
#[test]
fn i9_a_panicking_playout_is_one_failed_game() {
    let rules = three_actions(
        ", \"boom\"",
        "if action == \"boom\" { g.set_counter(\"big\", 9223372036854775807); \
         g.add_counter(\"big\", 1); }",
    );
    let dir = tiny("", &rules);
    let o = run(
        dir.path(),
        &["sim", "tiny", "--games", "12", "--threads", "2", "--quiet"],
    );
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}{}", text(&o.stderr));
    assert!(out.contains("game(s) failed; first (seed "), "{out}");
    assert!(out.contains("overflow"), "{out}");
    // Every game is counted: won by a, or failed.
    let failed = out
        .lines()
        .find(|l| l.contains("game(s) failed"))
        .and_then(|l| l.split_whitespace().next()?.parse::<u64>().ok())
        .expect("a count of failed games");
    assert!(failed > 0 && failed < 12, "some games finish:\n{out}");
    assert_eq!(count(&out, "a ") + failed, 12, "{out}");

    let o = run(dir.path(), &["check", "tiny", "--games", "6"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}{}", text(&o.stderr));
    assert!(out.contains("(seed "), "{out}");
    assert!(out.contains("overflow"), "{out}");
    assert!(out.contains("of 6 playout(s) failed"), "{out}");
}

/// Issue 9 item 3: a panic in the first start, before any playout, is one `error:` line and
/// exit status 2 (the game does not even start), not a panic message on stderr.
#[test]
fn i9_a_panic_before_the_playouts_is_one_error_line() {
    let rules = three_actions("", "").replace(
        "fn setup(g) { }",
        "fn setup(g) { g.set_counter(\"big\", 9223372036854775807); g.add_counter(\"big\", 1); }",
    );
    let dir = tiny("", &rules);
    for args in [
        &["sim", "tiny", "--games", "2", "--quiet"][..],
        &["check", "tiny", "--games", "2"][..],
    ] {
        let o = run(dir.path(), args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.lines().count() == 1,
            "{args:?}: {err}"
        );
        assert!(err.contains("overflow"), "{args:?}: {err}");
    }
}

/// Issue 9 item 4: results are tallied as games finish. Before, `--games 2^64-1` panicked at
/// once (capacity overflow) and `--games 100000000` wanted 6.4 GB up front. Both now just play,
/// in little memory, until killed.
#[test]
fn i9_sim_streams_results_without_memory_per_game() {
    let dir = tiny("", &three_actions("", ""));
    let children = [
        spawn(
            dir.path(),
            &["sim", "tiny", "--games", "18446744073709551615", "--quiet"],
        ),
        spawn_sh(
            dir.path(),
            "ulimit -v 1500000;",
            &[
                "sim",
                "tiny",
                "--games",
                "100000000",
                "--threads",
                "1",
                "--quiet",
            ],
        ),
    ];
    std::thread::sleep(Duration::from_millis(1500));
    for mut child in children {
        let running = child.try_wait().unwrap().is_none();
        let _ = child.kill();
        let o = child.wait_with_output().unwrap();
        assert!(running, "exited early ({}): {}", o.status, text(&o.stderr));
    }
}

/// Issue 9 item 19: counts that make no sense are refused, naming the flag.
#[test]
fn i9_nonsense_counts_are_refused() {
    let dir = tiny("", &three_actions("", ""));
    for (args, flag) in [
        (&["sim", "tiny", "--games", "0"][..], "--games"),
        (&["sim", "tiny", "--threads", "0"][..], "--threads"),
        (&["sim", "tiny", "--max-actions", "0"][..], "--max-actions"),
        (&["check", "tiny", "--games", "0"][..], "--games"),
    ] {
        let o = run(dir.path(), args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(err.contains(flag) && err.contains('0'), "{args:?}: {err}");
    }
}

/// Issue 9 item 19: threads are clamped to the work (10,000 threads compiled the game 10,000
/// times for 3 games).
#[test]
fn i9_threads_are_clamped_to_the_games() {
    let dir = tiny("", &three_actions("", ""));
    let o = run(
        dir.path(),
        &[
            "sim",
            "tiny",
            "--games",
            "3",
            "--threads",
            "10000",
            "--quiet",
        ],
    );
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}{}", text(&o.stderr));
    assert!(
        out.starts_with("tiny: 3 games, seed 1, 3 thread(s)\n"),
        "{out}"
    );
}

/// Issue 9 item 19: `--max-actions N` allows N actions: a game over after its third action
/// passes with 3 and fails with 2 (after 2 actions, not 3).
#[test]
fn i9_max_actions_is_a_true_maximum() {
    let dir = tiny("", &three_actions("", ""));
    let sim = |max: &str| {
        let o = run(
            dir.path(),
            &[
                "sim",
                "tiny",
                "--games",
                "2",
                "--max-actions",
                max,
                "--quiet",
            ],
        );
        (o.status.code(), text(&o.stdout))
    };
    let (code, out) = sim("3");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("length: mean 3.0, max 3 actions"), "{out}");
    let (code, out) = sim("2");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("2 game(s) failed"), "{out}");
    assert!(out.contains("no end after 2 actions"), "{out}");
    assert!(out.contains("max 2 actions"), "{out}");
}

/// Seats take turns playing `x` or `y`; after two actions the rules end the game: `a` wins
/// when someone played `y`, else nobody does (a co-operative loss).
const ENDS_BY_RULE: &str = r#"fn setup(g) { }
fn to_decide(g) { [g.turn()] }
fn legal_actions(g, seat) { ["x", "y"] }
fn apply(g, seat, action) {
    g.add_counter("n", 1);
    if action == "y" { g.set_counter("y", 1); }
    if g.counter("n") == 2 {
        if g.counter("y") > 0 { g.end_game(["a"], "a scored"); } else { g.end_game("the stars fell"); }
    }
    g.next_turn();
}
fn winners(g) { [] }
"#;

/// Issue 10 item 17: `sim` said `no winner 200` with no reason. It tallies how games ended:
/// by the reason the rules gave to `g.end_game` (a win, or a co-operative loss), `win` for a
/// game that ended by leaving nobody an action, and games stopped at the action limit.
#[test]
fn i10_sim_reports_how_games_ended() {
    let dir = tiny("", ENDS_BY_RULE);
    let o = run(dir.path(), &["sim", "tiny", "--games", "40", "--quiet"]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}{}", text(&o.stderr));
    let won = count(&out, "win: a scored");
    let lost = count(&out, "no winner: the stars fell");
    assert!(won > 0 && lost > 0, "{out}");
    assert_eq!(won + lost, 40, "{out}");
    assert_eq!(count(&out, "a "), won, "{out}");
    assert_eq!(count(&out, "no winner "), lost, "{out}");

    let dir = tiny("", &three_actions("", ""));
    let o = run(dir.path(), &["sim", "tiny", "--games", "3", "--quiet"]);
    assert_eq!(count(&text(&o.stdout), "win "), 3, "{}", text(&o.stdout));
    let o = run(
        dir.path(),
        &[
            "sim",
            "tiny",
            "--games",
            "3",
            "--max-actions",
            "2",
            "--quiet",
        ],
    );
    let out = text(&o.stdout);
    assert_eq!(count(&out, "action limit (2), not ended"), 3, "{out}");
}

/// Rules whose `winners` names `a` from the second action on, while the seats go on
/// playing until the counter reaches `end` (never, when it is -1).
fn won_but_goes_on(end: i64) -> String {
    format!(
        "fn setup(g) {{ }}\n\
         fn to_decide(g) {{ if g.counter(\"n\") == {end} {{ [] }} else {{ [g.turn()] }} }}\n\
         fn legal_actions(g, seat) {{ [\"x\"] }}\n\
         fn apply(g, seat, action) {{ g.add_counter(\"n\", 1); g.next_turn(); }}\n\
         fn winners(g) {{ if g.counter(\"n\") >= 2 {{ [\"a\"] }} else {{ [] }} }}\n"
    )
}

/// Issue 10 item 9: a game whose `winners` names someone while seats still act went on,
/// and `check` counted it as a long game. `check` names the contradiction, with the seed and
/// the action after which it starts, even when the game then runs into the action limit.
#[test]
fn i10_check_flags_a_game_won_but_going_on() {
    for (end, max) in [("5", "100"), ("-1", "50")] {
        let dir = tiny("", &won_but_goes_on(end.parse().unwrap()));
        let o = run(
            dir.path(),
            &["check", "tiny", "--games", "1", "--max-actions", max],
        );
        let out = text(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{out}{}", text(&o.stderr));
        assert!(
            out.contains(&format!(
                "playout 0 (seed {}) does not end when won: after action 2, `winners` names [a] while a can still act",
                first_check_seed()
            )),
            "{out}"
        );
    }
}

/// The seed of `check`'s first playout, as its report prints it.
fn first_check_seed() -> u64 {
    let dir = tiny("", &three_actions("", ""));
    let o = run(
        dir.path(),
        &["check", "tiny", "--games", "1", "--max-actions", "2"],
    );
    let out = text(&o.stdout);
    let at = out.find("(seed ").unwrap_or_else(|| panic!("{out}")) + 6;
    out[at..].split(')').next().unwrap().parse().unwrap()
}

/// Issue 10 item 17: `check` takes `--max-actions` as `sim` does.
#[test]
fn i10_check_has_an_action_limit() {
    let dir = tiny("", &three_actions("", ""));
    let o = run(
        dir.path(),
        &["check", "tiny", "--games", "2", "--max-actions", "3"],
    );
    assert!(o.status.success(), "{}", text(&o.stdout));
    let o = run(
        dir.path(),
        &["check", "tiny", "--games", "2", "--max-actions", "2"],
    );
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("failed after 2 action(s): no end after 2 actions"),
        "{out}"
    );
    let o = run(dir.path(), &["check", "tiny", "--max-actions", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--max-actions"));
}

/// Issue 11: turns do not pass unless the game says so, and a game that forgets lets one seat
/// make every move. `check` warns, naming the seat and how to pass turns; a game that passes
/// them gets no warning.
#[test]
fn i11_check_warns_when_one_seat_makes_every_move() {
    let rules = |apply: &str| {
        format!(
            "fn setup(g) {{ }}\n\
             fn legal_actions(g, seat) {{ if g.counter(\"n\") >= 10 {{ [] }} else {{ [\"x\"] }} }}\n\
             fn apply(g, seat, action) {{ g.add_counter(\"n\", 1); {apply} }}\n\
             fn winners(g) {{ [] }}\n"
        )
    };
    let dir = tiny("", &rules(""));
    let o = run(dir.path(), &["check", "tiny", "--games", "2"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("warning: in 2 playout(s) one seat made every move")
            && out.contains("made all 10")
            && out.contains("g.set_steps(1)"),
        "{out}"
    );
    let dir = tiny("", &rules("g.next_turn();"));
    let out = text(&run(dir.path(), &["check", "tiny", "--games", "2"]).stdout);
    assert!(!out.contains("one seat made every move"), "{out}");
}
