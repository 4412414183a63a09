//! Issue 23: bots where a person or a program meets them: `bot [n] [bot]`, `hint`, and
//! `play --bot` in god mode and with `--seat`, over the machine protocol.

mod common;

use common::*;
use serde_json::Value;
use std::time::Duration;

fn connect_four(extra: &[&str]) -> Proc {
    Proc::start_in("connect-four", &scripts_dir(), extra)
}

/// How many actions the game has played, from `status`.
fn played(p: &mut Proc) -> String {
    let text = p.ok("status")["text"].as_str().unwrap().to_string();
    text.split("; ").nth(1).unwrap_or_default().to_string()
}

/// `bot 1 random` plays one action for the deciding seat, chosen by the named bot; `-v`
/// lists every action of a longer run.
#[test]
fn bot_with_a_named_bot_plays_for_the_deciding_seat() {
    let mut p = connect_four(&["--seed", "4"]);
    let legal = p.legal("x");
    let v = p.ok("bot 1 random");
    let played_now = &v["played"].as_array().unwrap()[..];
    assert_eq!(played_now.len(), 1, "{v}");
    assert_eq!(played_now[0]["seat"], "x", "{v}");
    let action = played_now[0]["action"].as_str().unwrap();
    assert!(legal.iter().any(|a| a == action), "{v}");
    assert_eq!(v["text"], format!("bot x: {action}"), "{v}");
    let v = p.ok("bot 12 random -v");
    let seats: Vec<&str> = v["played"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["seat"].as_str().unwrap())
        .collect();
    // Turns alternate, and each action chosen is listed.
    assert_eq!(seats[..4], ["o", "x", "o", "x"], "{v}");
    assert_eq!(
        v["text"].as_str().unwrap().lines().count(),
        seats.len() + usize::from(v["text"].as_str().unwrap().contains("game over")),
        "{v}"
    );
    p.finish();
}

/// A bot name or setting that does not exist is refused, and nothing is played.
#[test]
fn bot_and_hint_refuse_unknown_bots_and_settings() {
    let mut p = connect_four(&["--seed", "4"]);
    let e = p.refused("bot 2 alphazero");
    assert!(e.starts_with("no bot `alphazero` (bots: random"), "{e}");
    let e = p.refused("bot random:iters=3");
    assert_eq!(e, "the random bot takes no settings (`iters`)");
    let e = p.refused("hint random:depth=2");
    assert_eq!(e, "the random bot takes no settings (`depth`)");
    let e = p.refused("bot 3 -v random");
    assert!(e.contains("usage: bot [n] [bot] [-v]"), "{e}");
    assert_eq!(played(&mut p), "0 action(s) played");
    p.finish();
}

/// `hint` reads the deciding seat's decision with the named bot, lists moves the seat may
/// play, and changes nothing.
#[test]
fn hint_reads_the_deciding_seat_and_changes_nothing() {
    let mut p = connect_four(&["--seed", "4"]);
    let before = p.state();
    let v = p.ok("hint random");
    assert_eq!(v["seat"], "x", "{v}");
    assert_eq!(v["bot"], "random", "{v}");
    assert_eq!(v["iterations"], 0, "{v}");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1, "{v}");
    let legal = p.legal("x");
    assert!(legal.iter().any(|a| *a == moves[0]["action"]), "{v}");
    assert_eq!(moves[0]["visits"], 0, "{v}");
    assert!(
        v["text"]
            .as_str()
            .unwrap()
            .starts_with("hint for x (random, "),
        "{v}"
    );
    assert_eq!(p.state(), before);
    p.ok("do d");
    assert_eq!(p.ok("hint random")["seat"], "o");
    p.finish();
}

/// When the game is over, nobody decides and there is nothing to hint; with `--seat`, the
/// hint is the client's own seat's (here the game ends before it ever decides).
#[test]
fn hint_is_refused_when_nobody_decides() {
    let mut p = connect_four(&["--seed", "4"]);
    let v = p.ok("bot 100 random");
    assert!(v["text"].as_str().unwrap().contains("game over"), "{v}");
    assert_eq!(p.refused("hint random"), "the game is over; nobody decides");
    p.finish();

    let dir = tempfile::tempdir().unwrap();
    write_game(
        dir.path(),
        "one-move",
        "title = \"One move\"\n[seats]\nnames = [\"a\", \"b\"]\n",
        "fn setup(g) { }\n\
         fn to_decide(g) { if g.counter(\"n\") >= 1 { [] } else { [g.seats()[0]] } }\n\
         fn legal_actions(g, seat) { [\"x\"] }\n\
         fn apply(g, seat, action) { g.add_counter(\"n\", 1); }\n\
         fn winners(g) { [\"a\"] }\n",
    );
    let mut p = Proc::start_in("one-move", dir.path(), &["--seat", "b"]);
    assert_eq!(p.refused("hint random"), "the game is over; nobody decides");
    p.finish();
}

/// `play --bot` refuses, before the game starts, a seat the game does not have, a bot or a
/// setting that does not exist, and the client's own seat.
#[test]
fn play_bot_refuses_bad_seats_bots_and_settings() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["--bot", "z=random"],
            "error: --bot: no seat `z` in `z=random` (seats: x, o)",
        ),
        (
            &["--bot", "o=alphazero"],
            "error: --bot: no bot `alphazero`",
        ),
        (
            &["--bot", "o=random:iters=3"],
            "error: --bot: the random bot takes no settings (`iters`)",
        ),
        (
            &["--bot", "iters=3"],
            "error: --bot: no seat `iters` in `iters=3` (seats: x, o)",
        ),
        (
            &["--seat", "x", "--bot", "x=random"],
            "error: --bot: x is the seat this client plays (--seat); name another",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["play", "connect-four", "--json"];
        all.extend(args);
        let out = run_fed(
            &scripts_dir(),
            "",
            &all,
            "status\n",
            Duration::from_secs(60),
        );
        let (stdout, stderr) = texts(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(stderr.starts_with(expected), "{args:?}: {stderr}");
    }
}

/// In god mode a seat `--bot` names answers at once after each action, and says what it
/// played; the seat named first plays as the game starts.
#[test]
fn a_bot_seat_answers_at_once_in_god_mode() {
    let mut p = connect_four(&["--seed", "4", "--bot", "o=random"]);
    let v = p.ok("do d");
    let bots = v["bots"].as_array().unwrap();
    assert_eq!(bots.len(), 1, "{v}");
    assert_eq!(bots[0]["seat"], "o", "{v}");
    let answer = bots[0]["action"].as_str().unwrap();
    assert_eq!(v["text"], format!("x: d\nbot o: {answer}"), "{v}");
    assert_eq!(played(&mut p), "2 action(s) played");
    // Undo takes back both; nothing answers until the next action.
    p.ok("undo 2");
    assert_eq!(played(&mut p), "0 action(s) played");
    p.finish();

    let mut p = connect_four(&["--seed", "4", "--bot", "x=random"]);
    assert_eq!(played(&mut p), "1 action(s) played");
    assert_eq!(p.ok("status")["deciding"], serde_json::json!(["o"]));
    p.finish();
}

/// With `--seat`, `--bot` plays the other seats (a bare bot every one of them), and the
/// same seed gives the same game.
#[test]
fn seat_mode_plays_the_others_with_their_bot() {
    let game = |bot: &str| {
        let mut p = connect_four(&["--seed", "9", "--seat", "o", "--bot", bot]);
        let mut log: Vec<Value> = vec![];
        for column in ["a", "b", "c"] {
            let v = p.ok(&format!("do {column}"));
            assert_eq!(v["others"], 1, "{v}");
            log.push(v["log"].clone());
        }
        p.finish();
        log
    };
    let once = game("random");
    assert_eq!(once, game("random"));
    assert_eq!(once, game("x=random"));
    // x moved first, before the client's first decision: o's replies come after it.
    assert!(once[0][0].as_str().unwrap().starts_with("o: a"), "{once:?}");
    assert!(once[0][1].as_str().unwrap().starts_with("x: "), "{once:?}");
}

/// A searching bot through `bot` and `hint`.
#[test]
fn mcts_plays_and_hints() {
    let mut p = connect_four(&["--seed", "4"]);
    let v = p.ok("hint mcts:iters=50");
    let moves = v["moves"].as_array().unwrap();
    assert!(!moves.is_empty() && moves.len() <= 5, "{v}");
    assert_eq!(v["iterations"], 50, "{v}");
    let visits: u64 = moves.iter().map(|m| m["visits"].as_u64().unwrap()).sum();
    assert!(visits <= 50, "{v}");
    for m in moves {
        let value = m["value"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&value), "{v}");
    }
    let v = p.ok("bot 3 mcts:iters=50 -v");
    assert_eq!(v["played"].as_array().unwrap().len(), 3, "{v}");
    p.finish();
}
