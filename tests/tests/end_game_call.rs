//! issue 21: `g.end_game` ends the script call that made it, wherever the engine called the
//! script (apply, an agenda step, an answer, setup): nothing after it runs, in its function or
//! in the functions that called it, not even past a `try`/`catch`; what was done before is kept.

use boardscript_interpreter::{Game, Match, PlayError, Setup, State};
use boardscript_tests::inline_game;

const MANIFEST: &str = "[seats]\nnames = [\"a\", \"b\"]\n";

/// A game whose `apply` runs the action's words as a small program: `finish` ends the game in
/// a helper, `catch` inside a `try`, `mapped` inside a closure inside a `try`, `later` in an
/// agenda step, `ask` in a question's answer. Each logs `after ...` when it goes on past the end.
const RULES: &str = r#"
fn setup(g) { g.set_counter("moves", 0); }
fn legal_actions(g, seat) { ["finish", "catch", "mapped", "later", "ask", "twice", "go"] }
fn finish(g, seat) {
    g.add_counter("moves", 1);
    g.end_game([seat], "finished");
    g.log("after end_game, in the helper");
}
fn step(g) {
    g.add_counter("steps", 1);
    g.end_game("in a step");
    g.log("after end_game, in the step");
}
fn answered(g, seat, answer) {
    g.end_game([seat], `answered ${answer}`);
    g.log("after end_game, in the answer");
}
fn apply(g, seat, act) {
    switch act {
        "finish" => { finish(g, seat); g.log("after the helper, in apply"); }
        "catch" => {
            try { g.end_game([seat], "caught?"); g.log("after end_game, in try"); }
            catch (e) { g.log(`caught ${e}`); }
            g.log("after the try, in apply");
        }
        "mapped" => {
            try { [1, 2].map(|x| { g.end_game([seat], "in a closure"); x }); }
            catch (e) { g.log(`caught ${e}`); }
            g.log("after the try, in apply");
        }
        "later" => { g.then("step"); g.then("step"); g.log("scheduled"); }
        "ask" => { g.ask("b", ["yes", "no"], "answered"); }
        "twice" => { g.end_game("first"); g.end_game("second"); }
        _ => { g.next_turn(); }
    }
}
fn winners(g) { [] }
"#;

fn game(rules: &str) -> (tempfile::TempDir, Game) {
    let (dir, game) = inline_game("ending", MANIFEST, rules);
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

fn log(state: &State) -> Vec<String> {
    state.log.iter().map(|e| e.text.clone()).collect()
}

/// Plays `action` for `a` and returns the log and the end's reason.
fn play(action: &str) -> (Vec<String>, String, State) {
    let (_dir, game) = game(RULES);
    let mut state = game.start(&Setup::default()).unwrap();
    game.apply(&mut state, 0, action).unwrap();
    let reason = game.outcome(&state).unwrap().reason;
    (log(&state), reason, state)
}

#[test]
fn end_game_in_a_helper_stops_apply_and_keeps_what_came_before() {
    let (log, reason, state) = play("finish");
    assert_eq!(log, ["a: finish"]);
    assert_eq!(reason, "finished");
    assert_eq!(
        state.counters.get("moves"),
        Some(&1),
        "the change before is kept"
    );
}

#[test]
fn a_try_does_not_catch_the_end() {
    let (log, reason, _) = play("catch");
    assert_eq!(log, ["a: catch"]);
    assert_eq!(reason, "caught?");
}

/// Rhai wraps an error raised in a closure that a native function calls in a catchable
/// one; the end still stops the call at its next operation.
#[test]
fn a_try_does_not_catch_the_end_in_a_closure() {
    let (log, reason, _) = play("mapped");
    assert_eq!(log, ["a: mapped"]);
    assert_eq!(reason, "in a closure");
}

#[test]
fn end_game_in_an_agenda_step_drops_the_rest_of_the_agenda() {
    let (log, reason, state) = play("later");
    assert_eq!(log, ["a: later", "scheduled"]);
    assert_eq!(reason, "in a step");
    assert_eq!(
        state.counters.get("steps"),
        Some(&1),
        "the second step never ran"
    );
    assert!(state.agenda.is_empty());
}

#[test]
fn end_game_in_an_answer_stops_it() {
    let (_dir, game) = game(RULES);
    let mut state = game.start(&Setup::default()).unwrap();
    game.apply(&mut state, 0, "ask").unwrap();
    game.apply(&mut state, 1, "no").unwrap();
    assert_eq!(log(&state), ["a: ask", "b: no"]);
    assert_eq!(game.outcome(&state).unwrap().reason, "answered no");
    assert!(matches!(
        game.apply(&mut state, 0, "go"),
        Err(PlayError::Over)
    ));
}

/// A second `g.end_game` in the same call is never reached: the first one stands.
#[test]
fn the_first_end_stands() {
    let (log, reason, _) = play("twice");
    assert_eq!(log, ["a: twice"]);
    assert_eq!(reason, "first");
}

#[test]
fn end_game_in_setup_ends_the_game_before_it_starts() {
    let rules = RULES.replace(
        r#"fn setup(g) { g.set_counter("moves", 0); }"#,
        r#"fn setup(g) { g.set_counter("moves", 7); g.end_game("no players"); g.log("after"); }"#,
    );
    let (_dir, game) = game(&rules);
    let state = game.start(&Setup::default()).unwrap();
    assert!(log(&state).is_empty(), "{:?}", log(&state));
    assert_eq!(state.counters.get("moves"), Some(&7));
    assert!(game.is_over(&state).unwrap());
    assert_eq!(game.outcome(&state).unwrap().reason, "no players");
}

/// The end is kept through save and load, and replaying the log ends the same way.
#[test]
fn an_ended_game_saves_and_replays() {
    let (_dir, game) = game(RULES);
    let mut m = Match::new(game, Setup::default()).unwrap();
    m.play(Some("a"), "go").unwrap();
    m.play(Some("b"), "finish").unwrap();
    let json = serde_json::to_string(&m.state).unwrap();
    let back: State = serde_json::from_str(&json).unwrap();
    assert_eq!(back, m.state);
    assert_eq!(back.result.as_ref().unwrap().winners, [1]);
}

/// The end of one call stops nothing run after it on the same thread: a game loaded right
/// after evaluates its constants (a closure included) and plays.
#[test]
fn the_end_of_a_call_does_not_outlive_it() {
    let (_dir, first) = game(RULES);
    let mut state = first.start(&Setup::default()).unwrap();
    first.apply(&mut state, 0, "mapped").unwrap();
    assert!(first.is_over(&state).unwrap());
    let rules = format!("const DOUBLED = [1, 2].map(|x| x * 2);\n{RULES}");
    let (_next_dir, next) = game(&rules);
    let mut state = next.start(&Setup::default()).unwrap();
    next.apply(&mut state, 0, "go").unwrap();
    assert_eq!(next.eval(&state, "DOUBLED").unwrap(), "[2, 4]");
}

/// The clock's termination stays an error: only `g.end_game`'s is a return.
#[test]
fn a_call_out_of_time_is_still_an_error() {
    let (_dir, game) = inline_game(
        "slow",
        "[limits]\ntime_ms = 20\n",
        "fn setup(g) { }\nfn legal_actions(g, seat) { [\"x\"] }\n\
         fn apply(g, seat, act) { loop { g.add_counter(\"n\", 1); } }\nfn winners(g) { [] }\n",
    );
    let game = game.unwrap();
    let mut state = game.start(&Setup::default()).unwrap();
    let err = game.apply(&mut state, 0, "x").unwrap_err().to_string();
    assert!(err.contains("stopped after 20 ms"), "{err}");
    assert_eq!(state.result, None);
}
