//! Issue 20 (items 8, 9, 13): a question asked in the middle of an effect shows in `actions`
//! and its JSON reply; a game's action that is not legal now is refused as an illegal action
//! with the reason, never as an unknown command; script errors point where the fault is and
//! suggest the name meant. Each test runs the binary, plain (stdin a pipe) or over `--json`.

mod common;

use common::*;
use serde_json::json;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

/// `boardscript ARGS --scripts DIR` fed `input` on stdin (bounded, so a hang fails).
fn run(scripts: &Path, args: &[&str], input: &str) -> Output {
    run_fed(scripts, "", args, input, Duration::from_secs(60))
}

/// Nemesis with one seat, p1 in the Hibernatorium beside room 9, whose noise roll would be
/// 9 (Careful Movement then asks which corridor gets the marker).
fn nemesis_position(dir: &Path) -> String {
    let file = dir.join("careful.txt");
    std::fs::write(&file, "explore 9\nnext noise 9\n").unwrap();
    file.to_string_lossy().into_owned()
}

const NEMESIS_ARGS: [&str; 6] = ["--seed", "1", "--seats", "1", "-o", "draft=random"];

/// Pays a Careful Movement into room 9 with the first cards offered, over `--json`.
fn careful_9(p: &mut Proc) {
    p.ok("do careful 9");
    for _ in 0..2 {
        let pay = p.legal("p1")[0].clone();
        assert!(pay.starts_with("pay "), "{pay}");
        p.ok(&format!("do {pay}"));
    }
}

/// Item 8: after `careful 9` and two `pay`s, `actions` says which question the exits answer,
/// in its text and in an additive `prompts` field (seat -> prompt) beside `deciding`.
#[test]
fn i20_8_a_question_shows_its_prompt_in_actions() {
    let dir = tempfile::tempdir().unwrap();
    let pos = nemesis_position(dir.path());
    let mut args = NEMESIS_ARGS.to_vec();
    args.extend(["--position", &pos]);
    let mut p = Proc::start_in("nemesis", &scripts_dir(), &args);
    let before = p.ok("actions");
    assert_eq!(before["prompts"], json!({}), "no question yet: {before}");
    careful_9(&mut p);
    let asked = p.ok("actions");
    assert_eq!(
        asked["deciding"],
        json!({"p1": ["exit 1", "exit 2", "exit 3", "exit 4"]})
    );
    assert_eq!(
        asked["prompts"],
        json!({"p1": "Which corridor gets the noise marker?"})
    );
    let text = asked["text"].as_str().unwrap();
    assert_eq!(
        text.lines().next(),
        Some("p1 decides (4 legal): Which corridor gets the noise marker?"),
        "{text}"
    );
    p.ok("do exit 2");
    assert_eq!(p.ok("actions")["prompts"], json!({}));
    p.finish();
}

/// Item 8, as people read it: the plain REPL's `actions` names the question too.
#[test]
fn i20_8_the_plain_repl_lists_the_question_with_its_options() {
    let dir = tempfile::tempdir().unwrap();
    let pos = nemesis_position(dir.path());
    let mut args = vec!["play", "nemesis"];
    args.extend(NEMESIS_ARGS);
    args.extend(["--position", &pos]);
    // `pay ...` answers: the first two cards of the hand, listed by `actions`.
    let out = run(
        &scripts_dir(),
        &args,
        "careful 9\nactions\n1\nactions\n1\nactions\n",
    );
    let (stdout, stderr) = texts(&out);
    assert_eq!(stderr, "");
    let last = stdout.rsplit("p1: pay").next().unwrap();
    assert!(
        last.contains(
            "p1 decides (4 legal): Which corridor gets the noise marker?\n  1. exit 1   2. exit 2"
        ),
        "{stdout}"
    );
}

/// A two-seat game where `a`'s action asks `b` a question: its prompt is `b`'s, shown with
/// `b`'s options only.
const ASKS_B: &str = r#"
fn setup(g) { g.set_steps(1); }
fn legal_actions(g, seat) { ["go"] }
fn apply(g, seat, action) {
    if seat == "a" {
        g.ask(#{ seat: "b", options: ["keep", "swap"], then: "answered", prompt: "Keep or swap, b?" });
    }
}
fn answered(g, seat, answer) { g.log(`b: ${answer}`); }
fn winners(g) { [] }
"#;

const TWO_SEATS: &str = "[seats]\nnames = [\"a\", \"b\"]\n";

/// Item 8: the prompt a client is shown is its own seat's question, never another seat's: a
/// client playing `a` (`--seat a`) never sees the question put to `b`, while an all-seeing
/// client sees it with `b`'s options.
#[test]
fn i20_8_a_prompt_is_shown_only_with_the_asked_seats_options() {
    let dir = tempfile::tempdir().unwrap();
    write_game(dir.path(), "asks", TWO_SEATS, ASKS_B);
    let mut god = Proc::start_in("asks", dir.path(), &["--seed", "1"]);
    god.ok("do go");
    let asked = god.ok("actions");
    assert_eq!(asked["deciding"], json!({"b": ["keep", "swap"]}));
    assert_eq!(asked["prompts"], json!({"b": "Keep or swap, b?"}));
    god.finish();

    let mut a = Proc::start_in("asks", dir.path(), &["--seed", "1", "--seat", "a"]);
    for _ in 0..3 {
        let mine = a.ok("actions");
        assert_eq!(mine["deciding"], json!({"a": ["go"]}));
        assert_eq!(mine["prompts"], json!({}), "{mine}");
        a.ok("do go");
    }
    a.finish();
}

/// Item 9: a verb the game declares (`verbs` in game.toml) is refused as an illegal action
/// with the reason when no such action is legal now: `shoot` before any combat.
#[test]
fn i20_9_a_declared_verb_not_legal_now_is_an_illegal_action() {
    let dir = tempfile::tempdir().unwrap();
    let pos = nemesis_position(dir.path());
    let mut args = vec!["play", "nemesis"];
    args.extend(NEMESIS_ARGS);
    args.extend(["--position", &pos]);
    let out = run(&scripts_dir(), &args, "shoot adult-41\nfrobnicate\n");
    let (stdout, stderr) = texts(&out);
    assert_eq!(stdout, "");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines[0].starts_with(
            "error: `shoot adult-41` is not a legal action for p1: no `shoot` action is legal now; legal now: "
        ),
        "{stderr}"
    );
    // A word the game does not use is still an unknown command.
    assert_eq!(lines[1], "error: unknown command `frobnicate`; try `help`");
    assert_eq!(lines.len(), 2, "{stderr}");
}

/// Item 9: in a game with a board, a word written as a cell is an action; off the board it
/// is refused as such, saying so, and one on the board as an ordinary illegal action.
#[test]
fn i20_9_a_cell_off_the_board_is_refused_as_off_the_board() {
    let out = run(
        &scripts_dir(),
        &["play", "virus-wars", "--seed", "1"],
        "z9\nk5\nshw\n",
    );
    let (stdout, stderr) = texts(&out);
    assert_eq!(stdout, "");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines[0].starts_with(
            "error: `z9` is not a legal action for blue: `z9` is off the board (a1 to k11); legal now: "
        ),
        "{stderr}"
    );
    assert!(
        lines[1].starts_with("error: `k5` is not a legal action for blue; legal now: "),
        "{stderr}"
    );
    assert_eq!(lines[2], "error: unknown command `shw`; try `help`");
}

/// Item 9, over `--json`: the same refusal, and the game unchanged.
#[test]
fn i20_9_the_protocol_refuses_a_verb_as_illegal() {
    let dir = tempfile::tempdir().unwrap();
    let pos = nemesis_position(dir.path());
    let mut args = NEMESIS_ARGS.to_vec();
    args.extend(["--position", &pos]);
    let mut p = Proc::start_in("nemesis", &scripts_dir(), &args);
    let before = p.state();
    let err = p.refused("melee adult-41");
    assert!(
        err.starts_with(
            "`melee adult-41` is not a legal action for p1: no `melee` action is legal now"
        ),
        "{err}"
    );
    assert_eq!(p.state(), before);
    p.finish();
}

/// Item 9: `verbs` must be words of action notation, each once; else the game does not
/// load, naming its manifest.
#[test]
fn i20_9_declared_verbs_are_checked_at_load() {
    let dir = tempfile::tempdir().unwrap();
    let rules = "fn setup(g) { }\nfn legal_actions(g, seat) { [\"go\"] }\nfn apply(g, seat, action) { }\nfn winners(g) { [] }\n";
    for (verbs, why) in [
        (
            r#"["shoot it"]"#,
            "verbs: `shoot it` is not one word of action notation",
        ),
        (
            r#"["@me"]"#,
            "verbs: `@me` is not one word of action notation",
        ),
        (r#"["go", "go"]"#, "verbs: `go` is listed twice"),
    ] {
        write_game(dir.path(), "v", &format!("verbs = {verbs}\n"), rules);
        let out = run(dir.path(), &["play", "v"], "");
        let (_, stderr) = texts(&out);
        assert_eq!(out.status.code(), Some(2), "{verbs}: {stderr}");
        assert!(
            stderr.contains("game.toml: ") && stderr.contains(why),
            "{verbs}: {stderr}"
        );
    }
}

/// A game whose `apply` calls a misspelt grid method and whose `winners` lacks a `;`.
fn connect_four_with(dir: &Path, edit: impl Fn(&str) -> String) {
    let src = scripts_dir().join("connect-four");
    let game = dir.join("cf");
    std::fs::create_dir_all(&game).unwrap();
    for f in ["game.toml", "rules.rhai"] {
        let text = std::fs::read_to_string(src.join(f)).unwrap();
        let text = if f == "rules.rhai" { edit(&text) } else { text };
        std::fs::write(game.join(f), text).unwrap();
    }
}

/// Item 13: a missing `;` is reported at the end of the statement that lacks it, with the
/// caret there, not at the start of the next line.
#[test]
fn i20_13_a_missing_semicolon_points_at_the_end_of_its_statement() {
    let dir = tempfile::tempdir().unwrap();
    connect_four_with(dir.path(), |t| {
        t.replacen(
            "let cell = board.drop(column, seat);",
            "let cell = board.drop(column, seat) // falls \"down\"",
            1,
        )
    });
    let out = run(dir.path(), &["play", "cf"], "");
    let (_, stderr) = texts(&out);
    let rules = std::fs::read_to_string(dir.path().join("cf/rules.rhai")).unwrap();
    let line = rules
        .lines()
        .position(|l| l.contains("falls \"down\""))
        .unwrap()
        + 1;
    let column = "    let cell = board.drop(column, seat)".len() + 1;
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines[0].ends_with(&format!(
            "rules.rhai:{line}:{column}: syntax error: missing `;` at the end of this statement"
        )),
        "{stderr}"
    );
    let pad = " ".repeat(line.to_string().len());
    assert_eq!(
        lines[2],
        format!(" {pad} | {}^", " ".repeat(column - 1)),
        "{stderr}"
    );
}

/// Item 13: a call to a function that does not exist names the argument types as scripts
/// know them and the closest name, among the engine's methods for that type and the script's
/// own functions.
#[test]
fn i20_13_an_unknown_function_suggests_the_name_meant() {
    let dir = tempfile::tempdir().unwrap();
    connect_four_with(dir.path(), |t| {
        t.replacen("board.longest_line(cell)", "board.longest_lin(cell)", 1)
    });
    let mut p = Proc::start_in("cf", dir.path(), &["--seed", "1"]);
    let err = p.refused("do a");
    assert!(
        err.ends_with(
            "in `apply`: no function `longest_lin` takes (Grid, string); did you mean `longest_line`?"
        ),
        "{err}"
    );
    // The script's own functions are candidates too, and the standard library's.
    let err = p.refused("eval winers(g)");
    assert_eq!(
        err,
        "eval:1:1: in `eval`: no function `winers` takes (Game); did you mean `winners`?"
    );
    let err = p.refused("eval [1, 2].lenght()");
    assert!(
        err.ends_with("no function `lenght` takes (array); did you mean `len`?"),
        "{err}"
    );
    // A name that exists, with other arguments: how it is called.
    let err = p.refused("eval g.grid(\"board\").get(1)");
    assert!(
        err.ends_with("no function `get` takes (Grid, integer); `get` takes (Grid, string)"),
        "{err}"
    );
    let err = p.refused("eval winners()");
    assert!(
        err.ends_with("no function `winners` takes (); `winners` takes (g)"),
        "{err}"
    );
    // Nothing close: no guess.
    let err = p.refused("eval g.frobnicate(1)");
    assert!(
        err.ends_with("no function `frobnicate` takes (Game, integer)"),
        "{err}"
    );
    p.finish();
}
