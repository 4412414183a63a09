//! Issue 21: the designer's tools. God-mode `do` prints what the action logged, `log @seat`
//! reads one seat's log, `sim` prints end reasons as `play` does, and `check` warns when most
//! playouts end with no winner and no reason. Each test runs the real binary.

mod common;

use common::*;
use std::path::Path;
use std::time::Duration;

/// Two seats draw in turn. A draw logs a public line, a line for the drawer and one for the
/// other seat, and its agenda step logs one more; the third draw ends the game with a reason
/// full of quotes. With `price` above 3 nobody can ever draw.
const MANIFEST: &str = r#"
title = "Peek"
[seats]
names = ["p1", "p2"]
[options.price]
default = 1
about = "Coins a draw costs (each seat has 3)."
"#;

const RULES: &str = r#"
fn setup(g) { g.set_steps(1); }
fn legal_actions(g, seat) {
    if g.option("price") > 3 { [] } else { ["draw"] }
}
fn apply(g, seat, action) {
    let other = if seat == "p1" { "p2" } else { "p1" };
    g.log(`${seat} draws a card`);
    g.log_to(seat, `you drew the ${g.actions_applied() + 6}`);
    g.log_to(other, `${seat} holds a secret`);
    g.then("settle");
}
fn settle(g) {
    g.log("the deck is cut");
    if g.add_counter("draws", 1) == 3 { g.end_game([], "the Princess's \"heart\" stays hidden"); }
}
fn winners(g) { [] }
"#;

fn peek(dir: &Path) {
    write_game(dir, "peek", MANIFEST, RULES);
}

/// `boardscript ARGS --scripts DIR`, fed `input`: stdout and stderr.
fn run(dir: &Path, args: &[&str], input: &str) -> (String, String, Option<i32>) {
    let out = run_fed(dir, "", args, input, Duration::from_secs(60));
    let (stdout, stderr) = texts(&out);
    (stdout, stderr, out.status.code())
}

/// In god mode `do` prints the lines its action and agenda logged, as the acting seat reads
/// them (never the other seat's), as `--seat` replies do.
#[test]
fn god_mode_do_prints_what_the_action_logged() {
    let dir = tempfile::tempdir().unwrap();
    peek(dir.path());
    let (stdout, stderr, _) = run(
        dir.path(),
        &["play", "peek", "--seed", "1"],
        "do draw\ndraw\ndo @p1 draw\n",
    );
    assert_eq!(
        stdout,
        "p1: draw\np1 draws a card\nyou drew the 6\nthe deck is cut\n\
         p2: draw\np2 draws a card\nyou drew the 7\nthe deck is cut\n\
         p1: draw\np1 draws a card\nyou drew the 8\nthe deck is cut\n\
         game over: nobody wins (the Princess's \"heart\" stays hidden)\n",
        "{stderr}"
    );
}

/// The JSON reply of a god-mode `do` carries the lines too, as `log`.
#[test]
fn god_mode_do_replies_its_log_lines_in_json() {
    let dir = tempfile::tempdir().unwrap();
    peek(dir.path());
    let mut p = Proc::start_in("peek", dir.path(), &["--seed", "1"]);
    let reply = p.ok("do draw");
    assert_eq!(
        strings(&reply["log"]),
        [
            "p1: draw",
            "p1 draws a card",
            "you drew the 6",
            "the deck is cut"
        ]
    );
    p.finish();
}

/// `log @seat` reads that seat's log (`log` still reads the deciding seat's); an unknown
/// seat, or another seat for a `--seat` client, is refused and changes nothing.
#[test]
fn log_at_seat_shows_that_seats_log() {
    let dir = tempfile::tempdir().unwrap();
    peek(dir.path());
    let (stdout, stderr, _) = run(
        dir.path(),
        &["play", "peek", "--seed", "1"],
        "do draw\nlog @p2\nlog @p1 2\nlog\nlog @nobody\nlog @p2 1\n",
    );
    assert_eq!(stderr, "error: no seat `nobody` (seats: p1, p2)\n");
    assert_eq!(
        stdout,
        "p1: draw\np1 draws a card\nyou drew the 6\nthe deck is cut\n\
         p1: draw\np1 draws a card\np1 holds a secret\nthe deck is cut\n\
         you drew the 6\nthe deck is cut\n\
         p1: draw\np1 draws a card\np1 holds a secret\nthe deck is cut\n\
         the deck is cut\n"
    );

    // p1 (the bot) draws first: p2 reads that much at the start.
    let (stdout, stderr, _) = run(
        dir.path(),
        &["play", "peek", "--seed", "1", "--seat", "p2"],
        "log @p1\nlog @p2 2\n",
    );
    assert_eq!(stderr, "error: this client reads only p2's log (--seat)\n");
    assert_eq!(
        stdout,
        "p1: draw\np1 draws a card\np1 holds a secret\nthe deck is cut\n\
         p1 holds a secret\nthe deck is cut\n"
    );
}

#[test]
fn help_names_log_at_seat() {
    let dir = tempfile::tempdir().unwrap();
    peek(dir.path());
    let (stdout, _, _) = run(dir.path(), &["play", "peek"], "help log\n");
    assert_eq!(
        stdout,
        "log [@seat] [n]\n  show the game log (as seat reads it), or its last n entries\n"
    );
}

/// `sim` writes the reason `g.end_game` gave as `play` does: quotes as they are.
#[test]
fn sim_prints_end_reasons_as_play_does() {
    let dir = tempfile::tempdir().unwrap();
    peek(dir.path());
    let (stdout, stderr, code) = run(
        dir.path(),
        &["sim", "peek", "--games", "4", "--threads", "1", "--quiet"],
        "",
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains(
            "\n  ended by:\n    no winner: the Princess's \"heart\" stays hidden        4  100.0%\n"
        ),
        "{stdout}"
    );
}

/// An option that leaves nobody an action makes every playout end with no winner and no
/// reason: `check` passes but warns, naming the seats and options played with.
#[test]
fn check_warns_when_most_playouts_end_with_nobody_able_to_act() {
    let dir = tempfile::tempdir().unwrap();
    peek(dir.path());
    let (stdout, stderr, code) = run(
        dir.path(),
        &["check", "peek", "--games", "5", "-o", "price=5"],
        "",
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stdout,
        "peek: compiled 1 script file(s)\n\
         \x20 warning: 5 of 5 playout(s) ended with no winner and no end reason, because nobody could act (seed 16490336266968443936: after 0 action(s)), with 2 seat(s) and options price=5; if the rules should go on, an action may be impossible with these options (or end the game with `g.end_game([], reason)`)\n\
         \x20 5 random playout(s) finished without error\n"
    );
    // With the default price every playout ends with its reason: no warning.
    let (stdout, _, code) = run(dir.path(), &["check", "peek", "--games", "5"], "");
    assert_eq!(code, Some(0));
    assert!(!stdout.contains("warning"), "{stdout}");
}
