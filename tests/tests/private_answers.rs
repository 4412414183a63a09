//! Issue 21: the answer to a question is logged only to the seats asked (and to those the
//! question names with `log:`), whatever `log_actions` says.

use boardscript_interpreter::{Game, Match, Setup};
use boardscript_tests::inline_game;

const MANIFEST: &str = "log_actions = \"all\"\n[seats]\nnames = [\"p1\", \"p2\", \"p3\"]\n";

/// `tax` asks p2 and p3 whether they challenge (answers for them only); `swap` asks p1
/// alone, its answer read by p2 too (`log: ["p2"]`); `shout` asks p1, its answer read by all.
const RULES: &str = r#"
fn setup(g) {}
fn legal_actions(g, seat) { ["tax", "swap", "shout"] }
fn apply(g, seat, action) {
    switch action {
        "tax" => g.ask(#{ seat: ["p2", "p3"], options: ["challenge", "pass"], then_all: "settle" }),
        "swap" => g.ask(#{ seat: seat, options: ["swap duke", "keep duke"], then: "done", log: ["p2"] }),
        "shout" => g.ask(#{ seat: seat, options: ["boo"], then: "done", log: "all" }),
    }
}
fn settle(g, answers) { g.log("the window closes"); }
fn done(g, seat, answer) {}
fn winners(g) { [] }
"#;

fn secrets(rules: &str) -> (tempfile::TempDir, Game) {
    let (dir, game) = inline_game("secrets", MANIFEST, rules);
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

/// Each seat's log lines from line `from` on, as its view reads them.
fn lines_of(m: &Match, seat: usize, from: usize) -> Vec<String> {
    let view = m.state.view(Some(seat));
    view.log.iter().skip(from).map(|e| e.text.clone()).collect()
}

fn logs(m: &Match, from: [usize; 3]) -> [Vec<String>; 3] {
    [0, 1, 2].map(|s| lines_of(m, s, from[s]))
}

fn lens(m: &Match) -> [usize; 3] {
    [0, 1, 2].map(|s| m.state.view(Some(s)).log.len())
}

/// The answers of a window asked of p2 and p3 reach p2's and p3's logs only, though
/// `log_actions = "all"`; the action that opened it stays public.
#[test]
fn answers_are_logged_to_the_asked_seats_only() {
    let (_dir, game) = secrets(RULES);
    let mut m = Match::new(game, Setup::default()).unwrap();
    let from = lens(&m);
    m.play(Some("p1"), "tax").unwrap();
    m.play(Some("p3"), "pass").unwrap();
    m.play(Some("p2"), "challenge").unwrap();
    assert_eq!(
        logs(&m, from),
        [
            vec!["p1: tax", "the window closes"],
            vec!["p1: tax", "p2: challenge", "p3: pass", "the window closes"],
            vec!["p1: tax", "p2: challenge", "p3: pass", "the window closes"],
        ]
    );
    let spectator: Vec<String> = m
        .state
        .view(None)
        .log
        .iter()
        .map(|e| e.text.clone())
        .collect();
    assert_eq!(spectator, ["p1: tax", "the window closes"]);
}

/// `log: [seats]` adds readers to the asked seat; `log: "all"` makes the answer public.
#[test]
fn a_question_may_name_more_readers_or_everyone() {
    let (_dir, game) = secrets(RULES);
    let mut m = Match::new(game, Setup::default()).unwrap();
    let from = lens(&m);
    m.play(Some("p1"), "swap").unwrap();
    m.play(Some("p1"), "swap duke").unwrap();
    assert_eq!(
        logs(&m, from),
        [
            vec!["p1: swap", "p1: swap duke"],
            vec!["p1: swap", "p1: swap duke"],
            vec!["p1: swap"],
        ]
    );
    let from = lens(&m);
    m.play(Some("p1"), "shout").unwrap();
    m.play(Some("p1"), "boo").unwrap();
    assert_eq!(
        logs(&m, from),
        [0, 1, 2].map(|_| vec!["p1: shout", "p1: boo"])
    );
}

/// A `log` that is neither "all" nor seats is refused where `g.ask` is called.
#[test]
fn a_log_naming_no_seats_is_refused() {
    let rules = RULES.replace(r#"log: ["p2"]"#, r#"log: "p2""#);
    let (_dir, game) = secrets(&rules);
    let mut m = Match::new(game, Setup::default()).unwrap();
    let err = m.play(Some("p1"), "swap").unwrap_err().to_string();
    assert!(
        err.contains(
            r#"g.ask: `log` is "all", "own" or an array of seats that read the answers, not "p2""#
        ),
        "{err}"
    );
    let rules = RULES.replace(r#"log: ["p2"]"#, r#"log: ["p9"]"#);
    let (_dir, game) = secrets(&rules);
    let mut m = Match::new(game, Setup::default()).unwrap();
    let err = m.play(Some("p1"), "swap").unwrap_err().to_string();
    assert!(err.contains("no seat `p9`"), "{err}");
}

/// A prompt may differ per seat: each asked seat reads its own, in its view and with
/// `g.asking().prompts`; no other view holds it.
const PROMPTS: &str = r#"
fn setup(g) {}
fn legal_actions(g, seat) { ["claim"] }
fn apply(g, seat, action) {
    g.ask(#{ seat: ["p2", "p3"], options: ["swap", "keep"], then_all: "settled",
             prompt: #{ p2: "p1 shows you the Duke: make them swap it?", p3: "p1 claims the Duke: doubt it?" } });
}
fn settled(g, answers) { g.next_turn(); }
fn winners(g) { [] }
"#;

#[test]
fn a_per_seat_prompt_is_in_its_seat_view_only() {
    let (_dir, game) = secrets(PROMPTS);
    let mut m = Match::new(game, Setup::default()).unwrap();
    m.play(Some("p1"), "claim").unwrap();
    let shows = "p1 shows you the Duke";
    let doubt = "p1 claims the Duke";
    assert_eq!(
        m.state.agenda.prompt_for(1),
        Some("p1 shows you the Duke: make them swap it?")
    );
    assert_eq!(
        m.state.agenda.prompt_for(2),
        Some("p1 claims the Duke: doubt it?")
    );
    assert_eq!(m.state.agenda.prompt_for(0), None, "p1 is not asked");
    for (seat, own, other) in [(1, shows, doubt), (2, doubt, shows)] {
        let view = m.state.view(Some(seat));
        let json = serde_json::to_string(&view).unwrap();
        assert!(
            json.contains(own) && !json.contains(other),
            "{seat}: {json}"
        );
        assert!(view.agenda.prompt_for(seat).unwrap().starts_with(own));
        let read = m.game.eval(&view, "g.asking().prompts").unwrap();
        assert!(read.contains(own) && !read.contains(other), "{read}");
    }
    for seat in [Some(0), None] {
        let json = serde_json::to_string(&m.state.view(seat)).unwrap();
        assert!(
            !json.contains(shows) && !json.contains(doubt),
            "{seat:?}: {json}"
        );
    }
}

/// A prompt for a seat that is not asked is refused where `g.ask` is called.
#[test]
fn a_prompt_for_a_seat_not_asked_is_refused() {
    let (_dir, game) = secrets(&PROMPTS.replace("p3: \"p1 claims", "p1: \"p1 claims"));
    let mut m = Match::new(game, Setup::default()).unwrap();
    let err = m.play(Some("p1"), "claim").unwrap_err().to_string();
    assert!(
        err.contains("g.ask: a prompt for `p1`, which is not asked (asked: p2, p3)"),
        "{err}"
    );
}

/// `log_actions` by verb: `peek` lines are the actor's own, the rest public.
#[test]
fn log_actions_may_be_set_per_verb() {
    let manifest = MANIFEST.replace(
        "log_actions = \"all\"",
        "log_actions = { default = \"all\", peek = \"seat\" }",
    );
    let rules = r#"
fn setup(g) {}
fn legal_actions(g, seat) { ["peek 3", "tax"] }
fn apply(g, seat, action) { g.next_turn(); }
fn winners(g) { [] }
"#;
    let (_dir, game) = inline_game("verbs", &manifest, rules);
    let mut m = Match::new(game.unwrap(), Setup::default()).unwrap();
    let from = lens(&m);
    m.play(Some("p1"), "peek 3").unwrap();
    m.play(Some("p2"), "tax").unwrap();
    assert_eq!(
        logs(&m, from),
        [
            vec!["p1: peek 3", "p2: tax"],
            vec!["p2: tax"],
            vec!["p2: tax"],
        ]
    );
    let manifest = manifest.replace("default = \"all\"", "default = \"seat\", tax = \"all\"");
    let (_dir, game) = inline_game("verbs", &manifest, rules);
    let mut m = Match::new(game.unwrap(), Setup::default()).unwrap();
    m.play(Some("p1"), "tax").unwrap();
    m.play(Some("p2"), "peek 3").unwrap();
    assert_eq!(lines_of(&m, 2, 0), ["p1: tax"]);
}

/// A table's values are `all` or `seat` and its keys single verbs; a breach is a load error
/// naming game.toml.
#[test]
fn a_malformed_log_actions_table_names_game_toml() {
    let cases = [
        (
            "{ peek = \"some\" }",
            "log_actions.peek is `all` or `seat`, not `some`",
        ),
        (
            "{ \"two words\" = \"seat\" }",
            "log_actions: verbs: `two words` is not one word of action notation",
        ),
        (
            "{ default = 3 }",
            "log_actions.default is `all` or `seat`, not an integer",
        ),
        ("\"none\"", "log_actions is `all` or `seat`, not `none`"),
    ];
    for (value, message) in cases {
        let manifest = MANIFEST.replace("\"all\"", value);
        let (_dir, game) = inline_game("verbs", &manifest, RULES);
        let err = game.err().expect("refused").to_string();
        assert!(
            err.contains("game.toml: ") && err.ends_with(message),
            "{value}: {err}"
        );
    }
}
