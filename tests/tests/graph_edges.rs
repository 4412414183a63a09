//! issue 12: graph edges with a label at each end (a room's exit numbers), and state on
//! edges (a door, a marker) kept per game state, through a throwaway game of four rooms.

use boardscript_interpreter::primitives::graph::Topology;
use boardscript_interpreter::{Game, Match, SaveFile, Setup, State};
use boardscript_tests::inline_game;

const MANIFEST: &str = "[seats]\nnames = [\"one\", \"two\"]\n";

/// Rooms a b c d. a's exit 2 meets b's exit 4 (edge 0) and a's exit 3 b's exit 1 (edge 1,
/// parallel); b 2 - c 2 (edge 2); c 1 - d 3 (edge 3); a 1 - d 1 (edge 4); c's exit 1 again
/// to a's exit 5 (edge 5). Door values: 1 open, 2 closed, 3 destroyed. `close` shuts the
/// door between a and d; `noise` puts a marker on edge 2.
const RULES: &str = r#"
fn setup(g) {
    let s = g.new_graph("ship", ".f");
    for r in ["a", "b", "c", "d"] { s.add_node(r); }
    s.connect("a", "b", "2", "4");
    s.connect("a", "b", "3", "1");
    s.connect("b", "c", "2", "2");
    s.connect("c", "d", "1", "3");
    s.connect("a", "d", "1", "1");
    s.connect("c", "a", "1", "5");
    for e in s.edges() { s.set_edge_value(e, "door", 1); }
}
fn to_decide(g) { if g.actions_applied() >= 3 { [] } else { [g.turn()] } }
fn legal_actions(g, seat) { ["close", "noise", "go"] }
fn apply(g, seat, act) {
    let s = g.graph("ship");
    if act == "close" { s.set_edge_value(s.edge_between("a", "d"), "door", 2); }
    if act == "noise" { s.set_edge_value(2, "noise", 1); }
    g.next_turn();
}
fn winners(g) { [] }
"#;

fn game() -> (tempfile::TempDir, Game) {
    let (dir, game) = inline_game("ship", MANIFEST, RULES);
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

fn eval_in(game: &Game, state: &State, expr: &str) -> String {
    game.eval(state, &format!(r#"let s = g.graph("ship"); {expr}"#))
        .unwrap_or_else(|e| format!("error: {e}"))
}

fn eval(expr: &str) -> String {
    let (_dir, game) = game();
    let state = game.start(&Setup::default()).unwrap();
    eval_in(&game, &state, expr)
}

#[test]
fn edges_are_numbered_and_labelled_at_both_ends() {
    assert_eq!(eval("s.edges()"), "[0, 1, 2, 3, 4, 5]");
    assert_eq!(eval("s.ends(0)"), r#"["a", "b"]"#);
    assert_eq!(
        eval(r#"[s.label(0, "a"), s.label(0, "b")]"#),
        r#"["2", "4"]"#
    );
    assert_eq!(eval(r#"s.other_end(3, "d")"#), r#""c""#);
    // A plain connect gives the edge's number too, and joins no pair twice.
    assert_eq!(
        eval(r#"s.add_node("e"); [s.connect("d", "e"), s.connect("e", "d"), s.label(6, "e")]"#),
        r#"[6, 6, ""]"#
    );
    assert_eq!(eval(r#"s.connect("a", "a") == ()"#), "true");
}

#[test]
fn parallel_edges_count_once_as_neighbours() {
    assert_eq!(
        eval(r#"s.edges_of("a")"#),
        "[4, 0, 1, 5]",
        "by label: 1 2 3 5"
    );
    assert_eq!(eval(r#"s.edges_of("b")"#), "[1, 2, 0]");
    assert_eq!(eval(r#"s.neighbours("a")"#), r#"["b", "c", "d"]"#);
    assert_eq!(eval(r#"s.edge_between("b", "a")"#), "0");
    assert_eq!(eval(r#"s.edge_between("b", "d") == ()"#), "true");
}

#[test]
fn exits_by_label() {
    assert_eq!(
        eval(r#"s.exits("c", "1")"#),
        "[3, 5]",
        "two exits share a number"
    );
    assert_eq!(eval(r#"s.exits("c", "4")"#), "[]");
    assert_eq!(eval(r#"s.labels("c")"#), r#"["1", "2"]"#);
    assert_eq!(eval(r#"s.labels("a")"#), r#"["1", "2", "3", "5"]"#);
}

#[test]
fn edge_state_set_get_and_where() {
    assert_eq!(eval(r#"s.edge_value(4, "door")"#), "1");
    assert_eq!(eval(r#"s.edge_value(4, "noise")"#), "0", "0 until set");
    assert_eq!(
        eval(
            r#"s.set_edge_value(4, "door", 3); [s.edge_value(4, "door"), s.edges_where("door", 3)]"#
        ),
        "[3, [4]]"
    );
    assert_eq!(eval(r#"s.edges_where("noise", 0)"#), "[0, 1, 2, 3, 4, 5]");
    assert_eq!(eval(r#"s.edges_where("door", 2)"#), "[]");
}

#[test]
fn closed_doors_block_neighbours_and_distance() {
    let close = r#"s.set_edge_value(4, "door", 2);"#;
    assert_eq!(
        eval(&format!(
            r#"{close} s.open_neighbours("a", "door", [2, 3])"#
        )),
        r#"["b", "c"]"#
    );
    assert_eq!(
        eval(&format!(
            r#"{close} s.open_neighbours("d", "door", [2, 3])"#
        )),
        r#"["c"]"#
    );
    assert_eq!(
        eval(&format!(
            r#"{close} s.set_edge_value(3, "door", 3);
               [s.open_distance("a", "d", ".", "door", [2]), s.open_distance("a", "d", ".", "door", [2, 3]), s.distance("a", "d", ".")]"#
        )),
        "[2, -1, 1]"
    );
    // Marks still bound the rooms a path may cross.
    assert_eq!(
        eval(&format!(
            r#"{close} s.set_mark("c", "f"); s.open_distance("a", "d", ".", "door", [2])"#
        )),
        "-1"
    );
}

#[test]
fn mistakes_are_errors_at_the_script_line() {
    for (expr, message) in [
        (
            "s.ends(6)",
            "no edge 6 in graph `ship` (its edges are 0 to 5)",
        ),
        ("s.label(-1, \"a\")", "no edge -1"),
        (r#"s.other_end(2, "a")"#, "edge 2 does not touch node `a`"),
        (r#"s.connect("a", "a", "1", "2")"#, "two different nodes"),
        (r#"s.set_edge_value(0, "door", 9999999999)"#, "out of range"),
        (
            r#"s.open_neighbours("a", "door", ["x"])"#,
            "must be integers",
        ),
        (
            r#"for k in 0..16 { s.set_edge_value(0, `k${k}`, 1); }"#,
            "16 kinds of edge state",
        ),
    ] {
        let got = eval(expr);
        assert!(
            got.starts_with("error: ") && got.contains(message),
            "{expr}: {got}"
        );
        assert!(got.contains(":1:"), "names the line: {got}");
    }
}

/// A state made from another shares the topology while their edge values differ; both
/// survive a save as JSON, and a save with an edge to a missing node is an error.
#[test]
fn edge_state_lives_in_each_state_and_in_saves() {
    let (_dir, rules) = game();
    let mut m = Match::new(rules, Setup::default()).unwrap();
    let start = m.state.clone();
    m.play(Some("one"), "close").unwrap();
    let closed = m.state.clone();
    m.play(Some("two"), "noise").unwrap();
    let topology = |s: &State| -> *const Topology { &*s.graphs[0] };
    let door = |s: &State| s.graphs[0].edge_value(4, "door");
    assert_eq!((door(&start), door(&closed)), (1, 2));
    assert!(
        std::ptr::eq(topology(&start), topology(&closed)),
        "closing a door names no new key, so it copies no topology"
    );
    assert!(
        !std::ptr::eq(topology(&closed), topology(&m.state)),
        "`noise` is new"
    );
    assert_eq!(m.state.graphs[0].edge_value(2, "noise"), 1);

    let json = m.state.to_json();
    let ship = &json["graphs"][0];
    assert_eq!(ship["links"][0]["labels"], serde_json::json!(["2", "4"]));
    assert_eq!(ship["edge_state"][0]["key"], "door");
    assert_eq!(
        ship["edge_state"][0]["values"],
        serde_json::json!([1, 1, 1, 1, 2, 1])
    );
    let back: State = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, m.state);
    assert_eq!(
        eval_in(
            &m.game,
            &back,
            r#"[s.edge_value(4, "door"), s.exits("c", "1")]"#
        ),
        "[2, [3, 5]]"
    );

    let mut bad = json.clone();
    bad["graphs"][0]["links"][3]["ends"] = serde_json::json!([2, 9]);
    let err = serde_json::from_value::<State>(bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("an edge to no node"), "{err}");
    let mut bad = json;
    bad["graphs"][0]["edge_state"][0]["values"] = serde_json::json!([1]);
    let err = serde_json::from_value::<State>(bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("1 values for 6 edges"), "{err}");

    let save = m.save_json();
    let (_dir2, game2) = game();
    let mut again = Match::new(game2, Setup::default()).unwrap();
    again
        .load(&SaveFile::parse(&save, "ship").unwrap())
        .unwrap();
    assert_eq!(again.state, m.state);
}

/// A game without `render` shows its graphs in `show`: nodes with their marks, each edge
/// with the labels at its ends and its values that are not 0.
#[test]
fn show_without_render_lists_nodes_and_edges() {
    let (_d, rules) = game();
    let mut m = Match::new(rules, Setup::default()).unwrap();
    m.play(Some("one"), "close").unwrap();
    let text = m.game.render(&m.state, Some(0)).unwrap();
    assert!(text.contains("graph ship: a:. b:. c:. d:."), "{text}");
    assert!(text.contains("a(2)-b(4) door=1\n"), "{text}");
    assert!(text.contains("a(1)-d(1) door=2\n"), "{text}");
}
