//! Issue 23: `greedy` scores an action once its effect is done: the questions it raises of
//! the same seat (a payment, a target) are answered first (at random), so an action that
//! asks before it pays off is not mistaken for one that does nothing.

use boardscript_interpreter::bots::{self, BotEnv, BotSpec};
use boardscript_interpreter::Setup;
use boardscript_tests::inline_game;

const MANIFEST: &str = "[seats]\nnames = [\"a\", \"b\"]\n";

/// `wait` scores 1 at once; `build` asks which material, and either answer scores 3.
const BUILDERS: &str = r#"
fn setup(g) { g.set_counter("a", 0); g.set_counter("b", 0); }
fn legal_actions(g, seat) { ["wait", "build"] }
fn apply(g, seat, act) {
    if act == "build" {
        g.ask(#{ seat: seat, options: ["brick", "stone"], then: "built", data: 0, prompt: "With what?" });
    } else {
        score(g, seat, 1);
    }
}
fn built(g, seat, answer, data) { score(g, seat, 3); }
fn score(g, seat, n) {
    g.add_counter(seat, n);
    if g.counter(seat) >= 5 { g.end_game([seat], "five"); } else { g.next_turn(); }
}
fn winners(g) { [] }
fn evaluate(g) { [g.counter("a") / 5.0, g.counter("b") / 5.0] }
"#;

#[test]
fn greedy_answers_its_own_follow_up_questions_before_scoring() {
    let (_dir, game) = inline_game("builders", MANIFEST, BUILDERS);
    let game = game.unwrap_or_else(|e| panic!("{e}"));
    let state = game.start(&Setup::default()).unwrap();
    let d = game.decisions(&state).unwrap();
    let mut bot = bots::make(&BotSpec::parse("greedy").unwrap(), &BotEnv::new(1)).unwrap();
    let i = bots::choose_for(&mut *bot, &game, &state, &d, 0).unwrap();
    // Scored right after `build`, before the answer, it would be worth 0 to `wait`'s 1.
    assert_eq!(d.seats[0].1[i].to_string(), "build");
}
