//! Issue 24, typed actions: a verbs table's functions are phase-scoped as `legal_actions` and
//! `apply` are: while the phase is `<phase>`, `<phase>_<verb>_legal` and
//! `<phase>_<verb>_apply` stand in for `<verb>_legal` and `<verb>_apply` where defined.

use boardscript_interpreter::{Match, Setup};
use boardscript_tests::inline_game;

const MANIFEST: &str = r#"
phases = ["early", "late"]
[seats]
names = ["red", "blue"]
[actions.verbs.take]
shape = "take {number}"
[actions.verbs.pass]
shape = "pass"
"#;

/// `take` has its own functions in `early` (apply) and `late` (legal); `pass` has none.
const RULES: &str = r#"
fn setup(g) { g.set("said", ""); g.set_phase("early"); }
fn take_legal(g, seat) { ["take 1"] }
fn late_take_legal(g, seat) { ["take 1", "take 2"] }
fn take_apply(g, seat, parsed) { say(g, `take ${parsed.args[0].number}`); g.next_turn(); }
fn early_take_apply(g, seat, parsed) {
    say(g, `early take ${parsed.args[0].number}`);
    g.set_phase("late");
    g.next_turn();
}
fn pass_legal(g, seat) { ["pass"] }
fn pass_apply(g, seat, parsed) { say(g, `pass in ${g.phase()}`); g.end_game([seat], "passed"); }
fn say(g, what) { g.set("said", g.get("said") + what + ";"); }
"#;

fn start(rules: &str) -> Result<Match, String> {
    let (_dir, game) = inline_game("phased-verbs", MANIFEST, rules);
    Ok(Match::new(game.map_err(|e| e.to_string())?, Setup::default()).unwrap())
}

#[test]
fn a_phase_lists_and_applies_a_verb_through_its_own_functions() {
    let mut m = start(RULES).unwrap();
    let legal = |m: &Match| {
        m.game
            .legal_actions(&m.state, m.state.turn.current)
            .unwrap()
    };
    assert_eq!(legal(&m), ["take 1", "pass"]);
    m.play(Some("red"), "take 1").unwrap();
    // `late` lists `take` through `late_take_legal`, applies it through `take_apply`.
    assert_eq!(legal(&m), ["take 1", "take 2", "pass"]);
    m.play(Some("blue"), "take 2").unwrap();
    m.play(Some("red"), "pass").unwrap();
    assert_eq!(
        m.game.eval(&m.state, "g.get(\"said\")").unwrap(),
        "\"early take 1;take 2;pass in late;\""
    );
}

#[test]
fn a_verbs_own_function_may_be_left_out_when_every_phase_has_one() {
    let rules = RULES.replace("fn take_apply(", "fn late_take_apply(");
    let mut m = start(&rules).unwrap();
    m.play(Some("red"), "take 1").unwrap();
    m.play(Some("blue"), "take 2").unwrap();
    assert!(m
        .game
        .eval(&m.state, "g.get(\"said\")")
        .unwrap()
        .contains("take 2;"));
    // Without `late_take_apply` nor `take_apply`, `late` could not apply `take`.
    let rules = RULES.replace("fn take_apply(", "fn taken(");
    let err = start(&rules).err().expect("refused");
    assert!(
        err.contains("actions.verbs.take: the script must define `take_apply(g, seat, parsed)`"),
        "{err}"
    );
}

#[test]
fn a_phase_verb_function_with_other_parameters_is_refused_at_its_line() {
    let rules = RULES.replace("fn late_take_legal(g, seat)", "fn late_take_legal(g)");
    let err = start(&rules).err().expect("refused");
    assert!(
        err.contains(":4:1")
            && err
                .contains("`late_take_legal` stands in for `take_legal` while the phase is `late`")
            && err.contains("so it takes 2 parameters like `take_legal(g, seat)`"),
        "{err}"
    );
}

#[test]
fn a_phases_own_legal_actions_lists_in_place_of_the_verbs() {
    let rules = format!("{RULES}\nfn late_legal_actions(g, seat) {{ [\"pass\"] }}\n");
    let mut m = start(&rules).unwrap();
    m.play(Some("red"), "take 1").unwrap();
    assert_eq!(m.game.legal_actions(&m.state, 1).unwrap(), ["pass"]);
}
