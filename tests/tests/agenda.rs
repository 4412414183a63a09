//! The agenda: effects that schedule the rest of their work (`g.then`) and ask seats in the
//! middle (`g.ask`), resolved by the engine in order, with the pending work held in the state
//! so that undo, saves, replays, views and bots need no game code.

use boardscript_interpreter::bots::random;
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::{Game, Match, PlayError, SaveFile, Setup};
use boardscript_tests::inline_game;

fn game(rules: &str) -> (tempfile::TempDir, Result<Game, String>) {
    let (dir, game) = inline_game("chain", "[seats]\nnames = [\"east\", \"west\"]\n", rules);
    (dir, game.map_err(|e| e.to_string()))
}

/// `boom` sets off two hits; the first asks west to dodge in the middle and then hits again.
/// The order of `trace` shows where each step ran.
const CHAIN: &str = r#"
fn setup(g) { g.set("trace", []); }
fn legal_actions(g, seat) { if g.get("trace").len() > 12 { [] } else { ["boom", "fizz"] } }
fn apply(g, seat, action) {
    if action == "boom" {
        g.then("hit", 1);
        g.then("hit", 2);
    }
    g.next_turn();
}
fn note(g, what) { let t = g.get("trace"); t.push(what); g.set("trace", t); }
fn hit(g, n) {
    note(g, `hit ${n}`);
    if n == 1 {
        g.ask(#{ seat: "west", options: ["left", "right"], then: "dodge", data: n,
                 prompt: "dodge the first hit" });
        g.then("hit", 10);
    }
}
fn dodge(g, seat, answer, n) { note(g, `${seat} ${answer} ${n}`); }
fn winners(g) { [] }
"#;

fn trace(m: &Match) -> String {
    m.game.eval(&m.state, "g.get(\"trace\")").unwrap()
}

#[test]
fn an_effect_stops_for_a_question_and_goes_on_in_order() {
    let (_dir, game) = game(CHAIN);
    let mut m = Match::new(game.unwrap(), Setup::default()).unwrap();
    m.play(Some("east"), "boom").unwrap();
    assert_eq!(trace(&m), r#"["hit 1"]"#, "the chain stops at the question");
    let d = m.game.decisions(&m.state).unwrap();
    assert_eq!(d.seats.len(), 1);
    assert_eq!(
        d.seats[0].0, 1,
        "west is asked, though it is west's turn anyway"
    );
    assert_eq!(d.seats[0].1, ["left", "right"]);
    // East may not answer, west may not play a normal action, nor an unlisted answer.
    let before = m.state.clone();
    assert!(matches!(
        m.play(Some("east"), "left"),
        Err(PlayError::NotDeciding { .. })
    ));
    assert!(matches!(
        m.play(Some("west"), "boom"),
        Err(PlayError::Illegal { .. })
    ));
    assert_eq!(m.state, before, "a refused answer changes nothing");
    m.play(Some("west"), "right").unwrap();
    assert_eq!(
        trace(&m),
        r#"["hit 1", "west right 1", "hit 10", "hit 2"]"#,
        "the answer, then the rest of the first hit, then the second"
    );
    assert!(m.state.agenda.is_empty());
    assert_eq!(m.game.deciding(&m.state).unwrap(), [1], "west's turn now");
    assert!(m.state.log.iter().any(|e| e.text == "west: right"));
}

#[test]
fn the_open_question_survives_undo_save_load_and_replay() {
    let (_dir, game) = game(CHAIN);
    let mut m = Match::new(game.unwrap(), Setup::default()).unwrap();
    m.play(Some("east"), "boom").unwrap();
    let asked = m.state.clone();
    let save = m.save_json();
    m.play(Some("west"), "left").unwrap();
    let after = m.state.clone();
    assert_eq!(m.undo(1), 1);
    assert_eq!(m.state, asked, "undo returns to the open question");
    assert_eq!(m.redo(1), 1);
    assert_eq!(m.state, after);
    let parsed = SaveFile::parse(&save, "chain").unwrap();
    m.load(&parsed).unwrap();
    assert_eq!(
        m.state, asked,
        "a save taken mid-question loads to the same question"
    );
    m.play(Some("west"), "left").unwrap();
    assert_eq!(m.state, after, "and plays on the same way");
}

#[test]
fn a_view_shows_who_is_asked_but_only_the_asked_seat_sees_the_options() {
    let (_dir, game) = game(CHAIN);
    let mut m = Match::new(game.unwrap(), Setup::default()).unwrap();
    m.play(Some("east"), "boom").unwrap();
    let east = m.state.view(Some(0));
    let q = east
        .agenda
        .question()
        .expect("east sees that a question is open");
    assert_eq!(q.prompt, "dodge the first hit");
    assert_eq!(q.options_of(1), Some(&[][..]), "but not west's options");
    assert_eq!(q.data, None, "nor the data held for the answer");
    let west = m.state.view(Some(1));
    assert_eq!(
        west.agenda.question().unwrap().options_of(1).unwrap(),
        ["left", "right"]
    );
    assert_eq!(
        m.game.eval(&east, "g.asking().prompt").unwrap(),
        "\"dodge the first hit\""
    );
}

#[test]
fn random_bots_answer_questions_and_replays_agree() {
    let (_dir, game) = game(CHAIN);
    let game = game.unwrap();
    let mut states = vec![];
    for _ in 0..2 {
        let mut state = game
            .start(&Setup {
                seed: 5,
                ..Setup::default()
            })
            .unwrap();
        let mut bot = rng::seeded(9);
        let mut n = 0;
        while random::step(&game, &mut state, &mut bot).unwrap().is_some() {
            n += 1;
            assert!(n < 100);
        }
        assert!(state.log.iter().any(|e| e.text.starts_with("west: ")));
        states.push(state);
    }
    assert_eq!(states[0], states[1]);
}

/// Several seats asked at once answer in secret; the answers apply together, in the order
/// the seats were asked, and what each schedules runs in that order.
#[test]
fn several_seats_answer_at_once_in_secret() {
    let rules = r#"
fn setup(g) { g.set("trace", []); }
fn legal_actions(g, seat) { if g.get("trace").len() > 0 { [] } else { ["vote"] } }
fn apply(g, seat, action) {
    g.ask(#{ seat: ["west", "east"], options: #{ west: ["w1", "w2"], east: ["e1"] },
             then: "voted" });
}
fn note(g, what) { let t = g.get("trace"); t.push(what); g.set("trace", t); }
fn voted(g, seat, answer) { note(g, answer); g.then("after", seat); }
fn after(g, seat) { note(g, `after ${seat}`); }
fn winners(g) { [] }
"#;
    let (_dir, game) = game(rules);
    let mut m = Match::new(game.unwrap(), Setup::default()).unwrap();
    m.play(Some("east"), "vote").unwrap();
    assert_eq!(m.game.deciding(&m.state).unwrap(), [1, 0]);
    m.play(Some("east"), "e1").unwrap();
    assert_eq!(trace(&m), "[]", "held until west answers");
    let west_view = serde_json::to_string(&m.state.view(Some(1))).unwrap();
    assert!(!west_view.contains("e1"), "west does not see east's answer");
    assert_eq!(m.game.deciding(&m.state).unwrap(), [1]);
    m.play(Some("west"), "w2").unwrap();
    assert_eq!(trace(&m), r#"["w2", "e1", "after west", "after east"]"#);
}

#[test]
fn scheduling_mistakes_are_errors_at_their_line() {
    let cases = [
        (
            r#"fn legal_actions(g, seat) { g.then("nothing"); ["go"] } fn apply(g, s, a) {}"#,
            "only `setup`, `position`, `apply`",
        ),
        (
            r#"fn legal_actions(g, seat) { ["go"] } fn apply(g, s, a) { g.then("nope", 1); }"#,
            "no function `nope` to call as `nope(g, data)`",
        ),
        (
            r#"fn legal_actions(g, seat) { ["go"] } fn apply(g, s, a) { g.ask("west", [], "x"); }
               fn x(g, s, a) {}"#,
            "has nothing to choose from",
        ),
        (
            r#"fn legal_actions(g, seat) { ["go"] } fn apply(g, s, a) { g.ask("west", ["a b "], "x"); }
               fn x(g, s, a) {}"#,
            "g.ask: option",
        ),
        (
            r#"fn legal_actions(g, seat) { ["go"] } fn apply(g, s, a) { g.then("again"); }
               fn again(g) { g.then("again"); }"#,
            "scheduled steps ran for one action",
        ),
    ];
    for (body, expected) in cases {
        let rules = format!("fn setup(g) {{}}\nfn winners(g) {{ [] }}\n{body}");
        let (_dir, game) = game(&rules);
        let mut m = Match::new(game.unwrap(), Setup::default()).unwrap();
        let before = m.state.clone();
        let err = m.play(Some("east"), "go").unwrap_err().to_string();
        assert!(err.contains(expected), "{body}\n gave: {err}");
        assert!(
            err.contains("rules.rhai:"),
            "{body}: names the place: {err}"
        );
        assert_eq!(m.state, before, "{body}: nothing changed");
    }
}

/// `setup` may ask (a draft, say): the game starts with the question open.
#[test]
fn setup_may_ask() {
    let rules = r#"
fn setup(g) { g.ask("west", ["red", "blue"], "pick"); }
fn pick(g, seat, colour) { g.set("colour", colour); }
fn legal_actions(g, seat) { if g.has("colour") { [] } else { ["wait"] } }
fn apply(g, seat, action) {}
fn winners(g) { [] }
"#;
    let (_dir, game) = game(rules);
    let mut m = Match::new(game.unwrap(), Setup::default()).unwrap();
    assert_eq!(m.game.deciding(&m.state).unwrap(), [1]);
    m.play(None, "blue").unwrap();
    assert!(m.game.is_over(&m.state).unwrap());
}
