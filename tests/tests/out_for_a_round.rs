//! Issue 21: a seat out for a round (`g.sit_out`) until the rules bring it back: turn order,
//! `to_decide`, questions, views, saves and the state budget honour it; `g.eliminate` stays
//! permanent and apart. A small game of hands written here: a seat that folds sits out, the
//! last seat in takes a token and starts the next hand with everyone back.

use boardscript_interpreter::{Game, Match, PlayError, SaveFile, Setup};
use boardscript_tests::inline_game;

const MANIFEST: &str = "[seats]\nnames = [\"a\", \"b\", \"c\"]\n";

const HANDS: &str = r#"
fn setup(g) { g.set_steps(1); }
fn legal_actions(g, seat) { ["play", "fold", "ask b", "all out", "sit c"] }
fn apply(g, seat, action) {
    if action == "fold" {
        g.sit_out(seat);
        let left = g.active_seats();
        if left.len() == 1 {
            let w = left[0];
            g.add_counter(w, "tokens", 1);
            g.log(`${w} takes the hand`);
            g.bring_back_all();
            g.set_turn(w);
        }
    } else if action == "ask b" {
        g.ask(#{ seat: "b", options: ["yes"], then: "answered" });
    } else if action == "all out" {
        for s in g.seats() { g.sit_out(s); }
    } else if action == "sit c" {
        g.sit_out("c");
        g.set_counter("sat", 1);
    }
}
fn answered(g, seat, answer) { }
fn winners(g) { [] }
"#;

fn start(rules: &str) -> (tempfile::TempDir, Match) {
    let (dir, game) = inline_game("hands", MANIFEST, rules);
    let game = game.unwrap_or_else(|e| panic!("{e}"));
    (dir, Match::new(game, Setup::default()).unwrap())
}

fn eval(m: &Match, expr: &str) -> String {
    m.game.eval(&m.state, expr).unwrap()
}

fn deciding(m: &Match) -> Vec<&str> {
    let d = m.game.deciding(&m.state).unwrap();
    d.into_iter().map(|s| m.state.seat_name(s)).collect()
}

#[test]
fn a_seat_that_folds_is_passed_over_until_the_next_hand() {
    let (_dir, mut m) = start(HANDS);
    m.play(Some("a"), "play").unwrap();
    m.play(Some("b"), "fold").unwrap();
    assert_eq!(eval(&m, r#"g.is_out("b")"#), "true");
    assert_eq!(eval(&m, r#"g.is_eliminated("b")"#), "false");
    assert_eq!(eval(&m, "g.out_seats()"), r#"["b"]"#);
    assert_eq!(eval(&m, "g.active_seats()"), r#"["a", "c"]"#);
    assert_eq!(eval(&m, r#"g.next_seat("a")"#), r#""c""#);
    assert_eq!(deciding(&m), ["c"]);
    m.play(Some("c"), "play").unwrap();
    assert_eq!(deciding(&m), ["a"], "c passes to a, b still out");
    m.play(Some("a"), "play").unwrap();
    assert_eq!(deciding(&m), ["c"], "a passes over b");
    m.play(Some("c"), "fold").unwrap();
    // The last seat in takes the hand; everyone is back and the winner starts.
    assert_eq!(eval(&m, r#"g.counter("a", "tokens")"#), "1");
    assert_eq!(eval(&m, "g.out_seats()"), "[]");
    assert_eq!(eval(&m, "g.active_seats()"), r#"["a", "b", "c"]"#);
    assert_eq!(deciding(&m), ["a"]);
    m.play(Some("a"), "play").unwrap();
    assert_eq!(deciding(&m), ["b"], "b is back in the turn order");
}

#[test]
fn skip_counts_only_seats_that_are_in() {
    let rules = HANDS.replace(
        r#"} else if action == "sit c" {"#,
        r#"} else if action == "skip" { g.skip(); } else if action == "sit c" {"#,
    );
    let rules = rules.replace(r#""sit c"]"#, r#""sit c", "skip"]"#);
    let (_dir, mut m) = start(&rules);
    m.play(Some("a"), "sit c").unwrap();
    assert_eq!(deciding(&m), ["b"]);
    m.play(Some("b"), "skip").unwrap();
    assert_eq!(
        deciding(&m),
        ["b"],
        "skipping a (c is out) brings the turn back to b"
    );
}

#[test]
fn a_seat_that_sits_out_in_its_own_turn_ends_that_turn() {
    let rules = HANDS.replace("g.set_steps(1);", "g.set_steps(3);");
    let (_dir, mut m) = start(&rules);
    m.play(Some("a"), "play").unwrap();
    assert_eq!(deciding(&m), ["a"], "a has three actions a turn");
    m.play(Some("a"), "fold").unwrap();
    assert_eq!(deciding(&m), ["b"], "folding ends a's turn at once");
    assert_eq!(
        eval(&m, "g.step()"),
        "1",
        "b's turn starts with all its steps"
    );
}

#[test]
fn when_every_seat_is_out_nobody_decides() {
    let (_dir, mut m) = start(HANDS);
    m.play(Some("a"), "play").unwrap();
    let turn = eval(&m, "g.turn_number()");
    m.play(Some("b"), "all out").unwrap();
    assert!(m.game.is_over(&m.state).unwrap(), "nobody left to decide");
    assert_eq!(
        eval(&m, "g.turn()"),
        r#""b""#,
        "the turn stays where it was"
    );
    assert_eq!(eval(&m, "g.turn_number()"), turn);
    assert_eq!(eval(&m, "g.active_seats()"), "[]");
}

#[test]
fn to_decide_may_not_name_a_seat_that_sits_out() {
    let rules = format!("{HANDS}\nfn to_decide(g) {{ if g.counter(\"sat\") > 0 {{ [\"c\"] }} else {{ [g.turn()] }} }}\n");
    let (_dir, mut m) = start(&rules);
    m.play(Some("a"), "sit c").unwrap();
    // As for an eliminated seat: the next question of who decides is the script's error.
    let err = m.game.decisions(&m.state).unwrap_err().to_string();
    assert!(
        err.contains("`to_decide` returned seat `c`, which sits out (`g.sit_out`)"),
        "{err}"
    );
}

#[test]
fn a_question_may_not_ask_a_seat_that_sits_out() {
    let (_dir, mut m) = start(HANDS);
    m.play(Some("a"), "play").unwrap();
    m.play(Some("b"), "fold").unwrap();
    let before = m.state.clone();
    let err = m.play(Some("c"), "ask b").unwrap_err();
    assert!(matches!(err, PlayError::Script(_)), "{err:?}");
    assert!(
        err.to_string()
            .contains("g.ask: seat `b` sits out (`g.sit_out`)"),
        "{err}"
    );
    assert_eq!(m.state, before, "the refused action changes nothing");
}

#[test]
fn views_and_the_plain_rendering_show_who_is_out() {
    let (_dir, mut m) = start(HANDS);
    m.play(Some("a"), "fold").unwrap();
    for seat in [None, Some(0), Some(1), Some(2)] {
        let view = m.state.view(seat);
        assert_eq!(view.turn.out, [0], "every view shows who sits out");
    }
    let shown = m.game.render(&m.state, Some(2)).unwrap();
    let first = shown.lines().next().unwrap();
    assert_eq!(first, "turn 2 (b), round 1, out: a");
    let json = serde_json::to_value(&m.state).unwrap();
    assert_eq!(json["turn"]["out"], serde_json::json!([0]));
    m.play(Some("b"), "play").unwrap();
    m.play(Some("c"), "fold").unwrap();
    let json = serde_json::to_value(&m.state).unwrap();
    assert!(
        json["turn"].get("out").is_none(),
        "nobody out: no field (older saves stay byte-identical)"
    );
}

#[test]
fn seats_out_are_weighed() {
    let (_dir, mut m) = start(HANDS);
    m.play(Some("a"), "play").unwrap();
    let before = m.state.weigh();
    m.play(Some("b"), "fold").unwrap();
    let after = m.state.weigh();
    // One log line (`b: fold`) and one seat out.
    let line = 32 + "b: fold".len() as u64;
    assert_eq!(after - before, line + 32);
}

#[test]
fn seats_out_survive_save_load_and_undo() {
    let (dir, mut m) = start(HANDS);
    m.play(Some("a"), "play").unwrap();
    m.play(Some("b"), "fold").unwrap();
    let before = m.state.clone();
    m.play(Some("c"), "play").unwrap();
    assert_eq!(m.undo(1), 1);
    assert_eq!(m.state, before, "undo brings back the seat out");
    let text = m.save_json();
    let game = Game::load(&dir.path().join("hands"), "hands").unwrap();
    let mut b = Match::new(game, Setup::default()).unwrap();
    b.load(&SaveFile::parse(&text, "hands").unwrap()).unwrap();
    assert_eq!(b.state, m.state);
    assert_eq!(eval(&b, "g.out_seats()"), r#"["b"]"#);
    let json = serde_json::to_string(&m.state).unwrap();
    let back: boardscript_interpreter::State = serde_json::from_str(&json).unwrap();
    assert_eq!(back.turn, m.state.turn);
}

#[test]
fn eliminated_stays_apart_from_out() {
    let rules = HANDS.replace(
        r#"} else if action == "sit c" {"#,
        r#"} else if action == "drop c" { g.eliminate("c"); g.sit_out("c"); g.bring_back_all(); } else if action == "sit c" {"#,
    );
    let rules = rules.replace(r#""sit c"]"#, r#""sit c", "drop c"]"#);
    let (_dir, mut m) = start(&rules);
    m.play(Some("a"), "drop c").unwrap();
    assert_eq!(eval(&m, r#"g.is_out("c")"#), "false");
    assert_eq!(eval(&m, r#"g.is_eliminated("c")"#), "true");
    assert_eq!(
        eval(&m, "g.active_seats()"),
        r#"["a", "b"]"#,
        "brought back, still eliminated"
    );
}
