//! issue 12: bags of tokens drawn at random with the game's seeded RNG, whose contents a view
//! hides when the bag is seen by nobody, through a throwaway game.

use boardscript_interpreter::{Game, Match, Setup, State};
use boardscript_tests::inline_game;

const MANIFEST: &str = "[seats]\nnames = [\"one\", \"two\"]\n";

/// A hidden bag of 10 tokens in 4 kinds, an open one, and an empty one. `draw` takes a token
/// from the hidden bag and notes it; `overdraw` adds a token, then asks for more than there
/// are.
const RULES: &str = r#"
fn setup(g) {
    let b = g.new_bag("tokens", "none");
    b.add("larva", 4);
    b.add("adult", 3);
    b.add("queen");
    b.add("blank", 2);
    g.new_bag("open", "all").add("fuel", 5);
    g.new_bag("empty", "all");
    g.set("drawn", []);
}
fn to_decide(g) { if g.bag("tokens").is_empty() { [] } else { [g.turn()] } }
fn legal_actions(g, seat) { ["draw", "overdraw"] }
fn apply(g, seat, act) {
    let b = g.bag("tokens");
    if act == "draw" {
        let d = g.get("drawn");
        d.push(b.draw());
        g.set("drawn", d);
    }
    if act == "overdraw" {
        b.add("larva", 1);
        b.remove("adult", 4);
    }
    g.next_turn();
}
fn winners(g) { [] }
"#;

fn game() -> (tempfile::TempDir, Game) {
    let (dir, game) = inline_game("bags", MANIFEST, RULES);
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

fn start(seed: u64) -> (tempfile::TempDir, Match) {
    let (dir, rules) = game();
    let setup = Setup {
        seed,
        ..Setup::default()
    };
    (dir, Match::new(rules, setup).unwrap())
}

fn eval(m: &Match, state: &State, expr: &str) -> String {
    m.game
        .eval(state, expr)
        .unwrap_or_else(|e| format!("error: {e}"))
}

#[test]
fn counts_kinds_and_totals() {
    let (_dir, m) = start(1);
    let s = &m.state;
    assert_eq!(eval(&m, s, r#"g.bag("tokens").len"#), "10");
    assert_eq!(eval(&m, s, r#"g.bag("tokens").count("larva")"#), "4");
    assert_eq!(eval(&m, s, r#"g.bag("tokens").count("egg")"#), "0");
    assert_eq!(
        eval(&m, s, r#"g.bag("tokens").kinds()"#),
        r#"["adult", "blank", "larva", "queen"]"#
    );
    assert_eq!(
        eval(
            &m,
            s,
            r#"let b = g.bag("tokens"); b.remove("queen"); b.counts()"#
        ),
        r#"#{"adult": 3, "blank": 2, "larva": 4}"#,
        "kinds with none left are left out"
    );
    assert_eq!(
        eval(&m, s, r#"[g.bag("open").name, g.bag("empty").is_empty()]"#),
        r#"["open", true]"#
    );
    assert!(eval(&m, s, r#"g.bag("sack")"#).contains("no bag `sack`"));
    assert!(eval(&m, s, r#"g.new_bag("x", "owner")"#).contains("all or none"));
    assert!(eval(&m, s, r#"g.bag("open").add("fuel", -1)"#).contains("not a number of tokens"));
}

/// Over a seeded run, every kind comes out about as often as its share of the bag, and what
/// is drawn plus what is left is what went in.
#[test]
fn draws_follow_the_contents_and_conserve_tokens() {
    let (_dir, m) = start(7);
    let got = eval(
        &m,
        &m.state,
        r#"
        let b = g.bag("tokens");
        let seen = #{};
        for i in 0..4000 {
            let k = b.draw();
            if k in seen { seen[k] += 1; } else { seen[k] = 1; }
            b.add(k);
        }
        let order = [];
        for i in 0..6 { order.push(b.draw()); }
        [seen.adult, seen.blank, seen.larva, seen.queen, b.len, order.len]
        "#,
    );
    let n: Vec<i64> = got
        .trim_matches(['[', ']'])
        .split(", ")
        .map(|x| x.parse().unwrap_or_else(|_| panic!("{got}")))
        .collect();
    // Expected 1200, 800, 1600, 400 of 4000: allow a wide margin (a fixed seed decides).
    for (count, expected) in n[..4].iter().zip([1200, 800, 1600, 400]) {
        assert!((count - expected).abs() < expected / 5, "{got}");
    }
    assert_eq!(n[4..], [4, 6], "{got}");
}

#[test]
fn an_empty_bag_draws_nothing() {
    let (_dir, m) = start(1);
    assert_eq!(
        eval(
            &m,
            &m.state,
            r#"let b = g.bag("empty"); [b.draw() == (), b.len]"#
        ),
        "[true, 0]"
    );
    let (_dir, mut m) = start(1);
    for i in 0..10 {
        m.play(Some(if i % 2 == 0 { "one" } else { "two" }), "draw")
            .unwrap();
    }
    assert_eq!(
        eval(&m, &m.state, r#"g.bag("tokens").draw() == ()"#),
        "true"
    );
    assert_eq!(
        eval(&m, &m.state, r#"let d = g.get("drawn"); d.sort(); d"#),
        r#"["adult", "adult", "adult", "blank", "blank", "larva", "larva", "larva", "larva", "queen"]"#
    );
}

/// Taking out more than there are fails naming the kind and the counts, and the action that
/// tried it leaves the state as it was (its earlier `add` included).
#[test]
fn removing_too_many_changes_nothing() {
    let (_dir, mut m) = start(1);
    let before = m.state.clone();
    let err = m.play(Some("one"), "overdraw").unwrap_err().to_string();
    assert!(
        err.contains("bag `tokens` holds 3 `adult`, so 4 cannot be taken out"),
        "{err}"
    );
    assert!(err.contains("rules.rhai:"), "names the script line: {err}");
    assert_eq!(m.state, before);
}

/// A view of the hidden bag, for a seat or a spectator, shows its total and nothing of what
/// is inside; the open bag shows all.
#[test]
fn views_hide_what_is_in_a_hidden_bag() {
    let (_dir, mut m) = start(3);
    m.play(Some("one"), "draw").unwrap();
    for seat in [Some(0), Some(1), None] {
        let v = m.state.view(seat);
        assert_eq!(eval(&m, &v, r#"g.bag("tokens").len"#), "9");
        assert_eq!(eval(&m, &v, r#"g.bag("tokens").counts()"#), r#"#{"?": 9}"#);
        assert_eq!(eval(&m, &v, r#"g.bag("tokens").count("larva")"#), "0");
        assert_eq!(eval(&m, &v, r#"g.bag("open").counts()"#), r#"#{"fuel": 5}"#);
        let json = v.to_json()["bags"].to_string();
        for kind in ["larva", "adult", "queen", "blank"] {
            assert!(!json.contains(kind), "{seat:?} sees {kind}: {json}");
        }
        assert_eq!(v.view(seat), v, "a view of a view hides nothing more");
    }
    assert!(m.state.to_json()["bags"].to_string().contains("larva"));
}

/// The same seed gives the same draws; the bags survive a save as JSON, and saves made
/// before bags existed load with none.
#[test]
fn draws_are_deterministic_and_bags_are_saved() {
    let play = |seed| {
        let (_dir, mut m) = start(seed);
        for i in 0..5 {
            m.play(Some(if i % 2 == 0 { "one" } else { "two" }), "draw")
                .unwrap();
        }
        (eval(&m, &m.state, r#"g.get("drawn")"#), m.state)
    };
    let (a, state) = play(11);
    assert_eq!(a, play(11).0);
    assert!((12..20).any(|seed| play(seed).0 != a), "the seed decides");

    let json = state.to_json();
    let back: State = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, state);
    let mut old = json.clone();
    old.as_object_mut().unwrap().remove("bags");
    let old: State = serde_json::from_value(old).unwrap();
    assert!(old.bags.is_empty());
    assert!(old.to_json().get("bags").is_none(), "no bags, no field");
    let mut bad = json;
    bad["bags"][0]["kinds"][0][1] = serde_json::json!(0);
    let err = serde_json::from_value::<State>(bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("listed twice or with no tokens"), "{err}");
}

/// A game without `render` shows its bags in `show`: an open bag kind by kind, a hidden one
/// only as its total.
#[test]
fn show_without_render_lists_the_bags() {
    let (_d, m) = start(3);
    let text = m.game.render(&m.state, Some(0)).unwrap();
    assert!(text.contains("open: 5 fuel"), "{text}");
    assert!(text.contains("tokens: 10 ?"), "{text}");
    assert!(!text.contains("larva"), "{text}");
}
