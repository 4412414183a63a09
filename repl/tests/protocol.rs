//! Machine mode (`boardscript play GAME --json`): one command per input line, exactly one line
//! of JSON per reply, `{"ok":true,...}` or `{"ok":false,"error":"..."}`, and a refused command
//! leaves the game as it was. See docs/protocol.md.
//!
//! Each test drives a real process through pipes. A reader thread reads stdout with
//! `BufReader::read_line`, so a reply is exactly one line, and waits are bounded: a missing
//! reply fails the test instead of hanging it. `finish` sends `quit` and checks that its reply is
//! the last line the process wrote, so no command can have answered with two lines.

mod common;

use common::*;
use serde_json::{json, Value};
use std::io::Write;

fn cells(list: &str) -> Vec<String> {
    sorted(list.split_whitespace().map(String::from).collect())
}

#[test]
fn actions_at_the_start_list_blues_edge() {
    let mut p = Proc::start(&["--seed", "3"]);
    let v = p.ok("actions");
    let a1_a11: Vec<String> = (1..=11).map(|i| format!("a{i}")).collect();
    assert_eq!(v["deciding"], json!({ "blue": a1_a11 }), "{v}");
    assert!(v["text"]
        .as_str()
        .unwrap()
        .contains("blue decides (11 legal)"));
    p.finish();
}

#[test]
fn do_plays_and_reports_the_action() {
    let mut p = Proc::start(&["--seed", "3"]);
    let v = p.ok("do a6");
    assert_eq!(v["seat"], "blue");
    assert_eq!(v["action"], "a6");
    assert_eq!(v["over"], false);
    assert_eq!(v["text"], "blue: a6");
    // VW-1: after a6 the legal steps are the neighbours of a6.
    assert_eq!(sorted(p.legal("blue")), cells("a5 a7 b5 b6 b7"));
    // A number picks from the list `actions` gives.
    let legal = p.legal("blue");
    let v = p.ok("2");
    assert_eq!(v["action"], legal[1].as_str());
    // The list changed: numbers pick again only once `actions` has shown it.
    p.legal("blue");
    let v = p.ok("pick 1");
    assert_eq!(v["seat"], "blue");
    p.finish();
}

#[test]
fn do_for_a_seat_not_deciding_is_refused_and_changes_nothing() {
    let mut p = Proc::start(&["--seed", "3"]);
    let before = p.state();
    let error = p.refused("do @red k1");
    assert!(error.contains("red") && error.contains("blue"), "{error}");
    assert_eq!(p.state(), before);
    // As the deciding seat, by name, it is accepted.
    p.ok("do @blue a6");
    p.finish();
}

#[test]
fn bad_inputs_are_refused_and_leave_the_state_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Proc::start(&["--seed", "3"]);
    p.ok("do a6");
    let save = dir.path().join("good.json");
    p.ok(&format!("save {}", save.display()));
    let good: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();

    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let malformed = write(
        "malformed.json",
        "{\"format\": \"boardscript-save/1\", ".into(),
    );
    let mut other_game = good.clone();
    other_game["game"] = json!("virus-wars/blitz");
    let other_game = write("other-game.json", other_game.to_string());
    let mut unknown_game = good.clone();
    unknown_game["game"] = json!("chess");
    let unknown_game = write("unknown-game.json", unknown_game.to_string());
    let mut bad_format = good.clone();
    bad_format["format"] = json!("boardscript-save/999");
    let bad_format = write("bad-format.json", bad_format.to_string());
    let mut illegal = good.clone();
    illegal["actions"][0]["action"] = json!("k9");
    let illegal = write("illegal-action.json", illegal.to_string());
    let bad_position = write("bad-position.txt", "2  . X\n1  . .\n   a b\n".into());
    let bad_step = write("bad-step.txt", "1  B R\n   a b\nstep 9\n".into());

    // More moves, so a refused load would have something to throw away.
    p.ok("do b6");
    let before = p.state();
    let bad = [
        "frobnicate".to_string(),
        "do".into(),
        "do zz99".into(),
        // a6 is taken now.
        "do a6".into(),
        "do a6".into(),
        "do @nobody a5".into(),
        "do a5%".into(),
        format!("do {}", "x".repeat(5000)),
        "99".into(),
        "undo 0".into(),
        "view nobody".into(),
        "help nosuch".into(),
        "eval 1 +".into(),
        "eval g.nosuch()".into(),
        "load /nonexistent".into(),
        "load /nonexistent/save.json".into(),
        format!("load {malformed}"),
        format!("load {other_game}"),
        format!("load {unknown_game}"),
        format!("load {bad_format}"),
        format!("load {illegal}"),
        format!("load {}", dir.path().display()),
        format!("save {}", dir.path().join("no/such/dir/x.json").display()),
        "position /nonexistent".into(),
        format!("position {bad_position}"),
        format!("position {bad_step}"),
        "show me".into(),
    ];
    for line in &bad {
        p.refused(line);
        assert_eq!(
            p.state(),
            before,
            "state changed by refused `{}`",
            short(line)
        );
    }
    assert!(p
        .refused(&format!("load {other_game}"))
        .contains("virus-wars/blitz"));
    assert!(p.refused("frobnicate").contains("frobnicate"));
    p.finish();
}

#[test]
fn status_mid_game_and_after_the_bot_finishes() {
    let mut p = Proc::start(&["--seed", "3"]);
    let v = p.ok("status");
    assert_eq!(v["over"], false);
    assert_eq!(v["winners"], json!([]));
    assert_eq!(v["deciding"], json!(["blue"]));
    p.ok("do a6");
    p.ok("bot 6");
    let v = p.ok("status");
    assert_eq!(v["over"], false);
    assert_eq!(v["winners"], json!([]));
    assert_eq!(v["deciding"], json!(["red"]));

    let v = p.ok("bot 1000");
    let played = v["played"].as_array().unwrap();
    assert!(
        !played.is_empty() && played.len() < 1000,
        "{}",
        played.len()
    );
    assert!(played
        .iter()
        .all(|p| p["seat"].is_string() && p["action"].is_string()));
    let v = p.ok("status");
    assert_eq!(v["over"], true, "{v}");
    let winners = strings(&v["winners"]);
    assert_eq!(winners.len(), 1, "{v}");
    assert!(winners[0] == "blue" || winners[0] == "red");
    assert_eq!(v["deciding"], json!([]));
    assert!(v["text"].as_str().unwrap().contains("wins"));

    // Over: nobody decides, moves are refused, the bot plays nothing.
    assert_eq!(p.ok("actions")["deciding"], json!({}));
    assert_eq!(p.refused("do a1"), "the game is over");
    assert_eq!(p.ok("bot")["played"], json!([]));
    // Undo takes the last step back; the game is open again.
    assert_eq!(p.ok("undo")["undone"], 1);
    assert_eq!(p.ok("status")["over"], false);
    p.finish();
}

#[test]
fn view_and_show_give_a_seats_view() {
    let mut p = Proc::start(&["--seed", "3"]);
    p.ok("do a6");
    let state = p.state();

    let v = p.ok("view blue");
    assert_eq!(v["seat"], "blue");
    let view = &v["view"];
    assert_eq!(view["seats"], json!(["blue", "red"]));
    assert_eq!(view["grids"][0]["name"], "board");
    assert_eq!(
        view["grids"], state["grids"],
        "nothing is hidden in Virus Wars"
    );
    assert!(state["rng"].is_object(), "the state has the RNG: {state}");
    assert_eq!(
        view.get("rng"),
        None,
        "a view must not hold an RNG, not even a dummy"
    );
    let text = v["text"].as_str().unwrap();
    assert!(text.contains(" 6  B . . ."), "{text}");
    assert!(text.contains("blue to play, step 2 of 5"), "{text}");

    assert_eq!(p.ok("view @red")["seat"], "red");
    let spectator = p.ok("view");
    assert_eq!(spectator["seat"], Value::Null);
    assert!(spectator["view"].is_object());

    let show = p.ok("show");
    assert_eq!(show["seat"], "blue", "show is the deciding seat's view");
    assert_eq!(show["text"], v["text"]);
    p.finish();
}

#[test]
fn every_command_answers_with_its_documented_fields() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json").display().to_string();
    let mut p = Proc::start(&["--seed", "3"]);

    let text = p.ok("help")["text"].as_str().unwrap().to_string();
    for name in ["actions", "do [@seat] <action>", "status", "quit"] {
        assert!(text.contains(name), "help lacks {name}: {text}");
    }
    assert!(p.ok("help undo")["text"]
        .as_str()
        .unwrap()
        .contains("undo [n]"));

    // A blank line is a command too: it gets a reply, so replies stay in step.
    assert_eq!(p.cmd(""), json!({"ok": true}));
    assert_eq!(p.cmd("   "), json!({"ok": true}));

    let v = p.ok("do a6");
    assert_eq!(
        v,
        json!({"ok": true, "seat": "blue", "action": "a6", "over": false, "log": ["blue: a6"], "text": "blue: a6"})
    );
    let v = p.ok("bot 3");
    assert_eq!(v["played"].as_array().unwrap().len(), 3);
    let log = strings(&p.ok("log")["log"]);
    assert_eq!(log.len(), 4);
    assert_eq!(log[0], "blue: a6");
    assert_eq!(strings(&p.ok("log 2")["log"]), log[2..]);

    assert_eq!(p.ok("undo 2")["undone"], 2);
    assert_eq!(p.ok("undo 10")["undone"], 2);
    assert_eq!(p.ok("redo 3")["redone"], 3);
    assert_eq!(p.ok("redo")["redone"], 1);

    let v = p.ok(&format!("save {save}"));
    assert_eq!(v["path"], save.as_str());
    let v = p.ok(&format!("load {save}"));
    assert_eq!(v["actions"], 4);

    let v = p.ok("reload");
    assert_eq!(v["replayed"], 4);
    assert_eq!(v["refused"], Value::Null);

    assert_eq!(p.ok("eval g.turn()")["value"], "\"blue\"");
    assert_eq!(p.ok("eval g.grid(\"board\").count(\"B\")")["value"], "4");
    assert_eq!(p.ok("eval 6 * 7")["value"], "42");

    let state = p.state();
    assert_eq!(state["seats"], json!(["blue", "red"]));
    assert_eq!(state["log"].as_array().unwrap().len(), 4);
    p.finish();
}

#[test]
fn position_sets_up_a_scenario() {
    let vw5 = scripts_dir().join("virus-wars/positions/vw-5.txt");
    let mut p = Proc::start(&[]);
    p.ok("do a6");
    let v = p.ok(&format!("position {}", vw5.display()));
    assert!(v["text"].as_str().unwrap().starts_with("position set from"));
    // The position starts a new log; VW-5: Red's only step is e4, then Red is stuck.
    assert_eq!(p.ok("log")["log"], json!([]));
    assert_eq!(p.ok("actions")["deciding"], json!({"red": ["e4"]}));
    let v = p.ok("do e4");
    assert_eq!(v["over"], true);
    let v = p.ok("status");
    assert_eq!(v["winners"], json!(["blue"]));
    p.finish();

    // The same from the command line.
    let mut p = Proc::start(&["--position", &vw5.display().to_string()]);
    assert_eq!(p.ok("actions")["deciding"], json!({"red": ["e4"]}));
    p.finish();
}

#[test]
fn save_then_load_in_a_fresh_process_gives_the_same_state() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("mid.json").display().to_string();

    let mut a = Proc::start(&["--seed", "11"]);
    a.ok("do a6");
    a.ok("bot 12");
    a.ok(&format!("save {save}"));
    let raw_a = a.raw("state");

    // Another seed: the save carries its own setup.
    let mut b = Proc::start(&["--seed", "99"]);
    assert_ne!(b.raw("state"), raw_a);
    assert_eq!(b.ok(&format!("load {save}"))["actions"], 13);
    assert_eq!(b.raw("state"), raw_a);
    assert_eq!(b.ok("log")["log"], a.ok("log")["log"]);

    // Both go on alike: the same next action, and undo works on the loaded history.
    let deciding = a.ok("actions")["deciding"].clone();
    assert_eq!(b.ok("actions")["deciding"], deciding);
    let (seat, legal) = deciding.as_object().unwrap().iter().next().unwrap();
    let next = format!("do @{seat} {}", legal[0].as_str().unwrap());
    for p in [&mut a, &mut b] {
        p.ok(&next);
    }
    assert_eq!(b.state(), a.state());
    for p in [&mut a, &mut b] {
        assert_eq!(p.ok("undo 3")["undone"], 3);
    }
    assert_eq!(b.state(), a.state());
    a.finish();
    b.finish();
}

#[test]
fn same_seed_and_actions_give_byte_identical_states() {
    // The actions come from the bot; then two fresh processes replay them with `do @seat`.
    let mut bot = Proc::start(&["--seed", "21"]);
    let played = bot.ok("bot 80")["played"].as_array().unwrap().clone();
    assert_eq!(played.len(), 80);
    let raw_bot = bot.raw("state");
    bot.finish();

    let replay = || {
        let mut p = Proc::start(&["--seed", "21"]);
        for a in &played {
            let v = p.ok(&format!(
                "do @{} {}",
                a["seat"].as_str().unwrap(),
                a["action"].as_str().unwrap()
            ));
            assert_eq!(v["action"], a["action"]);
        }
        let raw = p.raw("state");
        p.finish();
        raw
    };
    let (one, two) = (replay(), replay());
    assert_eq!(one, two, "two replays differ");
    assert_eq!(one, raw_bot, "the replay differs from the bot's game");
}

/// Virus Wars has no simultaneous decisions, so this test writes a tiny game that has them,
/// in its own scripts folder: both seats choose each round, twice.
#[test]
fn simultaneous_decisions_are_held_until_every_seat_chose() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("duel");
    std::fs::create_dir(&game).unwrap();
    std::fs::write(
        game.join("game.toml"),
        "title = \"Duel\"\n[seats]\nnames = [\"north\", \"south\"]\n",
    )
    .unwrap();
    std::fs::write(
        game.join("rules.rhai"),
        r#"
fn setup(g) { g.set_counter("round", 1); }
fn to_decide(g) { if g.counter("round") > 2 { [] } else { ["north", "south"] } }
fn legal_actions(g, seat) { ["rock", "paper", "scissors"] }
fn apply(g, seat, action) {
    g.set_counter(seat, action, 1);
    if seat == "south" { g.add_counter("round", 1); }
}
fn winners(g) { [] }
"#,
    )
    .unwrap();
    let mut p = Proc::start_in("duel", dir.path(), &[]);
    let rps = json!(["rock", "paper", "scissors"]);
    assert_eq!(
        p.ok("actions")["deciding"],
        json!({"north": rps, "south": rps})
    );
    assert_eq!(p.ok("status")["deciding"], json!(["north", "south"]));
    let before = p.state();
    assert!(p.refused("do rock").contains("do @seat"));
    assert_eq!(p.state(), before);

    // A held choice can be taken back like any action.
    p.ok("do @north paper");
    assert_eq!(p.ok("undo")["undone"], 1);
    assert_eq!(p.state(), before);

    // North chooses: held, not applied; only south is asked now.
    let v = p.ok("do @north rock");
    assert_eq!(v["seat"], "north");
    assert_eq!(v["over"], false);
    assert!(v["text"].as_str().unwrap().contains("held"), "{v}");
    assert_eq!(p.ok("actions")["deciding"], json!({"south": rps}));
    let error = p.refused("do @north paper");
    assert!(error.contains("south"), "{error}");
    let state = p.state();
    assert_eq!(state["counters"]["round"], 1, "nothing applied yet");
    assert_eq!(state["seat_counters"][0], json!({}));
    // Only north sees its held choice; the others see that north has chosen.
    assert_eq!(p.ok("view north")["view"]["pending"], json!({"0": "rock"}));
    assert_eq!(p.ok("view south")["view"]["pending"], json!({"0": ""}));
    assert_eq!(p.ok("view")["view"]["pending"], json!({"0": ""}));

    // South chooses (one seat left, so `@south` is optional): both are applied.
    let v = p.ok("do paper");
    assert_eq!(v["seat"], "south");
    let state = p.state();
    assert_eq!(state["counters"]["round"], 2);
    assert_eq!(state["seat_counters"], json!([{"rock": 1}, {"paper": 1}]));
    assert_eq!(state["pending"], json!({}));
    assert_eq!(
        p.ok("actions")["deciding"],
        json!({"north": rps, "south": rps})
    );

    // Second round, the other way round; then the game is over.
    p.ok("do @south scissors");
    let v = p.ok("do @north scissors");
    assert_eq!(v["over"], true);
    let v = p.ok("status");
    assert_eq!(v["over"], true);
    assert_eq!(v["winners"], json!([]));
    p.finish();
}

#[test]
fn quit_and_end_of_input_end_the_process() {
    // End of input without quit: the process ends well after answering everything.
    let mut p = Proc::start(&[]);
    p.ok("do a6");
    drop(p.stdin.take());
    assert!(p.next_line("end of output").is_none());
    assert!(p.child.wait().unwrap().success());

    // `exit` is quit; lines after it are not answered.
    let mut p = Proc::start(&[]);
    assert_eq!(p.cmd("exit"), json!({"ok": true}));
    let stdin = p.stdin.as_mut().unwrap();
    let _ = writeln!(stdin, "status");
    let _ = stdin.flush();
    drop(p.stdin.take());
    assert!(p.next_line("end of output").is_none());
    assert!(p.child.wait().unwrap().success());
}

#[test]
fn carriage_returns_are_ignored() {
    let mut p = Proc::start(&[]);
    assert_eq!(p.ok("do a6\r")["action"], "a6");
    assert_eq!(p.ok("status\r")["deciding"], json!(["blue"]));
    p.finish();
}

#[test]
fn a_line_that_is_not_utf8_is_refused() {
    let mut p = Proc::start(&[]);
    p.ok("do a6");
    let before = p.state();
    let stdin = p.stdin.as_mut().unwrap();
    stdin.write_all(b"do \xff\xfe\n").unwrap();
    stdin.flush().unwrap();
    let reply = p
        .next_line("a line that is not UTF-8")
        .expect("a reply, not the end of the process");
    let v: Value = serde_json::from_str(&reply).expect("one line of JSON");
    assert_eq!(v["ok"], false, "{v}");
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    assert_eq!(p.state(), before);
    p.finish();
}
