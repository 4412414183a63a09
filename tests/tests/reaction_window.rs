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

/// Each view of the state (every seat's, then a spectator's), and the state itself.
fn every_view(m: &Match) -> Vec<boardscript_interpreter::state::State> {
    let mut views: Vec<_> = (0..3).map(|s| m.state.view(Some(s))).collect();
    views.push(m.state.view(None));
    views.push(m.state.clone());
    views
}

/// The issue's repro: once p2 has answered a window asked of p2 and p3, `g.has_chosen("p2")`
/// is true and `g.asking().seats` lists both asked seats, in god mode and in every view;
/// `waiting` lists p3 only.
#[test]
fn has_chosen_and_asking_mean_one_thing_in_every_view() {
    let (_dir, game) = window();
    let mut m = Match::new(game, Setup::default()).unwrap();
    m.play(Some("p1"), "tax").unwrap();
    m.play(Some("p2"), "challenge").unwrap();
    let expr = r#"[g.has_chosen("p2"), g.has_chosen("p3"), g.asking().seats, g.asking().waiting]"#;
    for (i, v) in every_view(&m).iter().enumerate() {
        assert_eq!(
            m.game.eval(v, expr).unwrap(),
            r#"[true, false, ["p3", "p2"], ["p3"]]"#,
            "view {i}"
        );
    }
}

/// A step and a question named after a hidden card: no view shows their names or data, only
/// that work waits and who is asked with the prompt.
const HIDDEN: &str = r#"
fn setup(g) { g.zone("hand", "p1").put(g.new_card("duke", #{})); }
fn legal_actions(g, seat) { ["claim", "pass"] }
fn apply(g, seat, action) {
    if action == "claim" {
        let card = g.zone("hand", seat).top();
        g.ask(#{ seat: ["p2", "p3"], options: ["doubt", "pass"], then: `${card.name}_answer`,
                 data: card.name, prompt: "p1 claims a character: doubt it?" });
        g.then(`${card.name}_power`, card.name);
    }
    g.next_turn();
}
fn duke_answer(g, seat, answer, name) {}
fn duke_power(g, name) {}
fn winners(g) { [] }
"#;

#[test]
fn no_view_names_a_scheduled_step_or_a_callback() {
    let manifest =
        format!("{MANIFEST}[zones]\nhand = {{ per_seat = true, visible_to = \"owner\" }}\n");
    let (_dir, game) = inline_game("hidden", &manifest, HIDDEN);
    let game = game.unwrap_or_else(|e| panic!("{e}"));
    let mut m = Match::new(game, Setup::default()).unwrap();
    m.play(Some("p1"), "claim").unwrap();
    m.play(Some("p3"), "doubt").unwrap();
    let full = serde_json::to_string(&m.state.agenda).unwrap();
    assert!(
        full.contains("duke_power") && full.contains("duke_answer"),
        "{full}"
    );
    for seat in [Some(1), Some(2), None] {
        let view = m.state.view(seat);
        let json = serde_json::to_string(&view).unwrap();
        assert!(!json.contains("duke"), "{seat:?}: {json}");
        let text = m.game.render(&m.state, seat).unwrap();
        assert!(!text.contains("duke"), "{seat:?}: {text}");
        assert_eq!(
            m.game
                .eval(&view, "[g.agenda_len(), g.asking().prompt]")
                .unwrap(),
            r#"[2, "p1 claims a character: doubt it?"]"#
        );
    }
    let own = serde_json::to_string(&m.state.view(Some(0)).agenda).unwrap();
    assert!(
        !own.contains("duke"),
        "the holder's view names no step: {own}"
    );
    // p3 sees its own answer, p2 only that p3 has answered.
    let answers = |s| {
        m.state
            .view(Some(s))
            .agenda
            .question()
            .unwrap()
            .answers
            .clone()
    };
    assert_eq!(answers(2).get(&2).map(String::as_str), Some("doubt"));
    assert_eq!(answers(1).get(&2).map(String::as_str), Some(""));
}
