//! Issue 21: a reaction window in one callback. A question asked of several seats may name
//! one function (`then_all`) that receives every answer at once, in the order the seats were
//! asked, after the last seat has answered.

use boardscript_interpreter::{Game, Match, Setup};
use boardscript_tests::inline_game;

const MANIFEST: &str = "log_actions = \"all\"\n[seats]\nnames = [\"p1\", \"p2\", \"p3\"]\n";

/// A claim any other seat may challenge: `tax` asks the others, last seat first, and
/// `settle` sees every answer at once. `blunt` asks with both `then` and `then_all`, `lost`
/// with a `then_all` function that does not exist.
const WINDOW: &str = r#"
fn setup(g) { g.set("trace", []); }
fn legal_actions(g, seat) { ["tax", "income", "blunt", "lost"] }
fn apply(g, seat, action) {
    let others = g.seats().filter(|s| s != seat);
    others.reverse();
    switch action {
        "tax" => g.ask(#{ seat: others, options: ["challenge", "pass"], then_all: "settle",
                          data: seat, prompt: `${seat} claims the Duke: challenge?` }),
        "blunt" => g.ask(#{ seat: others, options: ["pass"], then: "one", then_all: "settle" }),
        "lost" => g.ask(#{ seat: others, options: ["pass"], then_all: "nowhere" }),
        _ => g.next_turn(),
    }
}
fn settle(g, answers, claimant) {
    let t = g.get("trace");
    let said = [];
    for a in answers { said.push(`${a.seat} ${a.answer}`); }
    t.push(`${claimant}: ${said}`);
    g.set("trace", t);
    g.next_turn();
}
fn one(g, seat, answer) {}
fn winners(g) { [] }
"#;

fn window() -> (tempfile::TempDir, Game) {
    let (dir, game) = inline_game("window", MANIFEST, WINDOW);
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

fn trace(m: &Match) -> String {
    m.game.eval(&m.state, "g.get(\"trace\")").unwrap()
}

/// `then_all` runs once, after the last answer, with the answers in asked order (p3 was
/// asked first, though p2 answered first) and the question's data.
#[test]
fn then_all_receives_every_answer_in_asked_order() {
    let (_dir, game) = window();
    let mut m = Match::new(game, Setup::default()).unwrap();
    m.play(Some("p1"), "tax").unwrap();
    m.play(Some("p2"), "challenge").unwrap();
    assert_eq!(trace(&m), "[]", "nothing runs before the last answer");
    m.play(Some("p3"), "pass").unwrap();
    assert_eq!(trace(&m), r#"["p1: [\"p3 pass\", \"p2 challenge\"]"]"#);
    assert!(m.state.agenda.is_empty());
    assert_eq!(m.game.deciding(&m.state).unwrap(), [1], "p2's turn");
    assert_eq!(
        m.state.actions_applied, 3,
        "each answer counts as an action"
    );
}

/// `then` and `then_all` together are refused where `g.ask` is called.
#[test]
fn then_and_then_all_together_are_refused() {
    let (_dir, game) = window();
    let mut m = Match::new(game, Setup::default()).unwrap();
    let err = m.play(Some("p1"), "blunt").unwrap_err().to_string();
    assert!(
        err.contains("g.ask: `then` (one call per answer) or `then_all` (one call with every answer), not both"),
        "{err}"
    );
    assert!(err.contains("rules.rhai:"), "names the script: {err}");
}

/// A `then_all` function that does not exist is refused where `g.ask` is called, with the
/// parameters it must take.
#[test]
fn a_missing_then_all_function_is_named_with_its_parameters() {
    let (_dir, game) = window();
    let mut m = Match::new(game, Setup::default()).unwrap();
    let err = m.play(Some("p1"), "lost").unwrap_err().to_string();
    assert!(
        err.contains("no function `nowhere` to call as `nowhere(g, answers)`"),
        "{err}"
    );
}
