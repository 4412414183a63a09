//! issue 21: values on graph nodes (a room's fire, its items), as edges have them: integers by
//! key, 0 until set, kept per state and in saves.

use boardscript_interpreter::primitives::graph::Topology;
use boardscript_interpreter::{Game, Match, Setup, State};
use boardscript_tests::inline_game;

const MANIFEST: &str = "[seats]\nnames = [\"one\", \"two\"]\n";

/// Rooms a b c in a row. `fire` lights room b; `spread` adds one fire to every room next to a
/// burning one; `loot` adds 2 items to room c.
const RULES: &str = r#"
fn setup(g) {
    let s = g.new_graph("ship", ".");
    for r in ["a", "b", "c"] { s.add_node(r); }
    s.connect("a", "b");
    s.connect("b", "c");
}
fn legal_actions(g, seat) { ["fire", "spread", "loot"] }
fn apply(g, seat, act) {
    let s = g.graph("ship");
    switch act {
        "fire" => { s.set_node_value("b", "fire", 1); }
        "spread" => {
            for r in s.nodes_where("fire", 1) {
                for n in s.neighbours(r) { s.add_node_value(n, "fire", 1); }
            }
        }
        "loot" => { g.log(`items: ${s.add_node_value("c", "items", 2)}`); }
    }
    g.next_turn();
}
fn winners(g) { [] }
"#;

fn game() -> (tempfile::TempDir, Game) {
    let (dir, game) = inline_game("ship", MANIFEST, RULES);
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

fn eval(game: &Game, state: &State, expr: &str) -> String {
    game.eval(state, &format!(r#"let s = g.graph("ship"); {expr}"#))
        .unwrap_or_else(|e| format!("error: {e}"))
}

#[test]
fn node_values_set_add_and_where() {
    let (_dir, game) = game();
    let state = game.start(&Setup::default()).unwrap();
    assert_eq!(eval(&game, &state, r#"s.node_value("a", "fire")"#), "0");
    assert_eq!(
        eval(
            &game,
            &state,
            r#"s.set_node_value("a", "fire", 2); [s.add_node_value("a", "fire", -3), s.node_value("a", "fire"), s.nodes_where("fire", -1), s.nodes_where("fire", 0)]"#
        ),
        r#"[-1, -1, ["a"], ["b", "c"]]"#
    );
    assert_eq!(
        eval(&game, &state, r#"s.nodes_where("items", 0)"#),
        r#"["a", "b", "c"]"#,
        "a key never set reads 0 everywhere"
    );
}

#[test]
fn a_scenario_spreads_fire_with_exact_values() {
    let (_dir, game) = game();
    let mut state = game.start(&Setup::default()).unwrap();
    game.apply(&mut state, 0, "fire").unwrap();
    game.apply(&mut state, 1, "spread").unwrap();
    game.apply(&mut state, 0, "loot").unwrap();
    let ship = &state.graphs[0];
    let fire: Vec<i32> = (0..3).map(|n| ship.node_value(n, "fire")).collect();
    assert_eq!(fire, [1, 1, 1]);
    assert_eq!(ship.node_value(2, "items"), 2);
    assert_eq!(state.log.last().unwrap().text, "items: 2");
    let shown = game.render(&state, None).unwrap();
    assert!(
        shown.contains("graph ship: a:.[fire=1] b:.[fire=1] c:.[fire=1 items=2]"),
        "{shown}"
    );
}

#[test]
fn mistakes_are_errors_at_the_script_line() {
    let (_dir, game) = game();
    let state = game.start(&Setup::default()).unwrap();
    for (expr, message) in [
        (r#"s.node_value("z", "fire")"#, "no node `z` in this graph"),
        (
            r#"s.set_node_value("a", "fire", 9999999999)"#,
            "node value 9999999999 is out of range (-2147483648 to 2147483647)",
        ),
        (
            r#"s.add_node_value("a", "fire", 2147483648)"#,
            "graph `ship`: node `a`'s `fire` would be 2147483648, out of range (-2147483648 to 2147483647)",
        ),
        (
            r#"s.nodes_where("fire", -2147483649)"#,
            "node value -2147483649 is out of range",
        ),
        (
            r#"for k in 0..17 { s.set_node_value("a", `k${k}`, 1); }"#,
            "graph `ship` has 16 kinds of node state (k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15), the most it may hold; `k16` would be one more",
        ),
    ] {
        let got = eval(&game, &state, expr);
        assert!(
            got.starts_with("error: eval:1:") && got.contains(message),
            "{expr}: {got}"
        );
    }
}

/// Values live in each state: a state made from another shares the topology while their
/// values differ, and only a new key copies it. They survive a save.
#[test]
fn node_values_live_in_each_state_and_in_saves() {
    let (_dir, rules) = game();
    let mut m = Match::new(rules, Setup::default()).unwrap();
    m.play(Some("one"), "fire").unwrap();
    let lit = m.state.clone();
    m.play(Some("two"), "spread").unwrap();
    let topology = |s: &State| -> *const Topology { &*s.graphs[0] };
    assert!(
        std::ptr::eq(topology(&lit), topology(&m.state)),
        "spreading names no new key, so it copies no topology"
    );
    assert_eq!(
        (
            lit.graphs[0].node_value(0, "fire"),
            m.state.graphs[0].node_value(0, "fire")
        ),
        (0, 1)
    );
    let json = m.state.to_json();
    assert_eq!(
        json["graphs"][0]["node_state"],
        serde_json::json!([{"key": "fire", "values": [1, 1, 1]}])
    );
    let back: State = serde_json::from_value(json).unwrap();
    assert_eq!(back, m.state);
    m.undo(1);
    assert_eq!(m.state.graphs[0].node_value(0, "fire"), 0);
}
