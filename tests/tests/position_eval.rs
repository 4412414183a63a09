//! A position's `eval <expression>` lines (the engine's, for every game): run on the live
//! state in order with the game's own lines, with the script's functions and a call's
//! limits, errors naming the position's line.

use boardscript_interpreter::{Match, Setup};
use boardscript_tests::{load, Table};

const BOARD: &str = "6  . . . . . . .
5  . . . . . . .
4  . . . . . . .
3  . . . . . . .
2  . . . . . . .
1  . . x o . . .
   a b c d e f g";

/// The error of starting `id` from `position`.
fn refusal(id: &str, position: &str) -> String {
    let setup = Setup {
        position: Some(position.into()),
        ..Setup::default()
    };
    match Match::new(load(id), setup) {
        Ok(_) => panic!("{position:?} was accepted"),
        Err(e) => e.to_string(),
    }
}

/// The game's diagram is read as before, and the `eval` line after it changes the live state.
#[test]
fn eval_after_the_game_lines_changes_the_state() {
    let t = Table::new("connect-four")
        .position(&format!("{BOARD}\neval g.set(\"note\", 7)"))
        .start();
    assert_eq!(t.eval("g.get(\"note\")"), "7");
    assert_eq!(t.eval("g.grid(\"board\").get(\"c1\")"), "\"x\"");
    assert_eq!(t.deciding(), ["x"]);
}

/// Lines run in order: an `eval` before the game's lines is seen by them (5 of the 8 fire
/// markers taken by the first `eval`, one more by `fire 5`: the last `eval` reads 2 left).
#[test]
fn eval_lines_run_in_order_with_the_game_lines() {
    let t = Table::new("nemesis")
        .seats(2)
        .seed(1)
        .option("draft", "random")
        .position("eval g.supply(\"fire\").place(5)\nfire 5\neval g.set(\"left\", g.supply(\"fire\").left)")
        .start();
    assert_eq!(t.eval("g.get(\"left\")"), "2");
    assert_eq!(t.eval("on_fire(g, room_id(5))"), "true");
}

/// The game's own errors still count the file's lines when `eval` lines come before.
#[test]
fn game_errors_keep_their_line_numbers_after_an_eval() {
    let e = refusal("nemesis", "eval g.set(\"x\", 1)\n\nfrob 3");
    assert!(e.contains("position: line 3: cannot read: frob 3"), "{e}");
}

/// An `eval` error names the position's line, then the expression's place and message.
#[test]
fn eval_errors_name_the_line() {
    let e = refusal("connect-four", &format!("{BOARD}\neval nosuch(g)"));
    assert!(
        e.starts_with("position: line 8: eval:1:1: in `eval`: no function `nosuch`"),
        "{e}"
    );
    let e = refusal("connect-four", &format!("{BOARD}\neval g.set(\"a\" 1)"));
    assert!(e.starts_with("position: line 8: eval:1:"), "{e}");
    assert!(e.contains("syntax error"), "{e}");
}

/// An `eval` runs under a call's limits: an endless loop stops with the operations limit.
#[test]
fn eval_runs_under_the_call_limits() {
    let e = refusal("connect-four", &format!("{BOARD}\neval loop {{}}"));
    assert!(e.starts_with("position: line 8: eval:1:"), "{e}");
    assert!(e.contains("operations"), "{e}");
}

/// A word that only begins with `eval` is the game's.
#[test]
fn evaluate_is_not_eval() {
    let e = refusal("nemesis", "evaluate 3");
    assert!(
        e.contains("position: line 1: cannot read: evaluate 3"),
        "{e}"
    );
}
