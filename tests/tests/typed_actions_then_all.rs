//! Issue 24, typed actions: a `then_all` function (one question, several seats, one call)
//! takes every answer parsed when it has one parameter more, each read for the seat that
//! gave it, as a single question's answer function does.

use boardscript_interpreter::{Match, Setup};
use boardscript_tests::inline_game;

const MANIFEST: &str = r#"
[seats]
names = ["red", "blue"]
[zones.hand]
per_seat = true
visible_to = "owner"
[actions]
shapes = ["show {card}", "go", "go quiet", "go plain"]
"#;

/// Each seat holds a card only it sees and is asked to show it; three callbacks: with data
/// and parsed, parsed without data, and neither (the form that stays valid).
const RULES: &str = r#"
fn setup(g) {
    g.zone("hand", "red").put(g.new_card("apple", #{}));
    g.zone("hand", "blue").put(g.new_card("plum", #{}));
    g.set("got", "");
}
fn legal_actions(g, seat) {
    if g.get("got") != "" { return []; }
    ["go", "go quiet", "go plain"]
}
fn apply(g, seat, action) {
    let ask = #{ seat: ["red", "blue"], options: #{ red: ["show apple"], blue: ["show plum"] } };
    switch action {
        "go" => { ask.then_all = "shown"; ask.data = 7; }
        "go quiet" => { ask.then_all = "shown_quiet"; }
        _ => { ask.then_all = "shown_plain"; }
    }
    g.ask(ask);
}
fn cards(parsed) { parsed.map(|p| `${p.verb} ${p.args[0].seat}/${p.args[0].name}`).join(",") }
fn shown(g, answers, n, parsed) { g.set("got", `${n}:${cards(parsed)}`); }
fn shown_quiet(g, answers, parsed) {
    g.set("got", answers.map(|a| a.answer).join(",") + ":" + cards(parsed));
}
fn shown_plain(g, answers) { g.set("got", answers.map(|a| a.answer).join(",")); }
fn winners(g) { [] }
"#;

fn got_after(first: &str) -> String {
    let (_dir, game) = inline_game("then-all", MANIFEST, RULES);
    let mut m = Match::new(game.unwrap(), Setup::default()).unwrap();
    m.play(Some("red"), first).unwrap();
    m.play(Some("blue"), "show plum").unwrap();
    m.play(Some("red"), "show apple").unwrap();
    m.game.eval(&m.state, "g.get(\"got\")").unwrap()
}

#[test]
fn then_all_with_data_takes_every_answer_parsed_for_its_own_seat() {
    // Plum resolves only for blue, apple only for red: each answer read for its seat.
    assert_eq!(got_after("go"), "\"7:show 0/apple,show 1/plum\"");
}

#[test]
fn then_all_without_data_takes_the_parsed_answers_in_asked_order() {
    assert_eq!(
        got_after("go quiet"),
        "\"show apple,show plum:show 0/apple,show 1/plum\""
    );
}

#[test]
fn then_all_without_the_extra_parameter_is_called_as_before() {
    assert_eq!(got_after("go plain"), "\"show apple,show plum\"");
}
