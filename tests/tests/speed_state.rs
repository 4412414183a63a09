//! issue 11: the state's cheap-to-copy structures (script data as a persistent map, graph
//! topology shared between states) behave as the plain ones did, and top-level constants are
//! readable inside functions.

use boardscript_interpreter::script::{Limits, Rules, ScriptError, Source};
use boardscript_interpreter::{Game, Match, SaveFile, Setup, State};
use boardscript_tests::inline_game;

const MANIFEST: &str = "[seats]\nnames = [\"east\", \"west\"]\n";

fn game(rules: &str) -> (tempfile::TempDir, Game) {
    let (dir, game) = try_game(rules);
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

fn try_game(rules: &str) -> (tempfile::TempDir, Result<Game, ScriptError>) {
    inline_game("speed", MANIFEST, rules)
}

/// Many script values; each action changes, hides or removes one of them, and a graph of
/// four nodes gets one mark (and, on the third action, a new node).
const DATA: &str = r#"
fn setup(g) {
    for i in 0..200 { g.set(`k${i}`, [i, `text ${i}`]); }
    let ring = g.new_ring("ring", ".x", ["a", "b", "c", "d"]);
    g.set_steps(1);
}
fn to_decide(g) { if g.actions_applied() >= 4 { [] } else { [g.turn()] } }
fn legal_actions(g, seat) { ["go"] }
fn apply(g, seat, act) {
    let n = g.actions_applied();
    let ring = g.graph("ring");
    if n == 0 { g.set("k7", "changed"); ring.set_mark("b", "x"); }
    if n == 1 { g.set_private("secret", seat, 42); g.remove("k8"); g.remove("absent"); }
    if n == 2 { ring.add_node("e"); ring.connect("e", "a"); g.set_hidden("k9", 0); }
}
fn winners(g) { [] }
"#;

/// A write in one action leaves every earlier state (undo's snapshots) as it was, views drop
/// exactly what a seat may not see, and save then load gives the same data.
#[test]
fn script_data_and_marks_changed_in_a_copy_leave_the_original() {
    let (_dir, game) = game(DATA);
    let mut m = Match::new(game, Setup::default()).unwrap();
    let start = m.state.clone();
    m.play(Some("east"), "go").unwrap();
    let first = m.state.clone();
    m.play(Some("west"), "go").unwrap();
    m.play(Some("east"), "go").unwrap();

    assert_eq!(start.vars["k7"].value.to_string(), "[7,\"text 7\"]");
    assert_eq!(first.vars["k7"].value.to_string(), "changed");
    assert!(first.vars.contains_key("k8") && !m.state.vars.contains_key("k8"));
    assert_eq!(start.graphs[0].marks, [0, 0, 0, 0]);
    assert_eq!(first.graphs[0].marks, [0, 1, 0, 0]);
    assert_eq!(first.graphs[0].nodes.len(), 4);
    assert_eq!(m.state.graphs[0].nodes.len(), 5);
    assert_eq!(m.state.graphs[0].index("e"), Some(4));
    assert_eq!(
        m.game
            .eval(&m.state, r#"g.graph("ring").neighbours("a")"#)
            .unwrap(),
        r#"["b", "d", "e"]"#
    );

    let east = m.state.view(Some(0));
    let west = m.state.view(Some(1));
    assert!(!east.vars.contains_key("secret") && west.vars.contains_key("secret"));
    assert!(!east.vars.contains_key("k9") && !west.vars.contains_key("k9"));
    assert_eq!(west.vars.len(), m.state.vars.len() - 1);
    assert!(
        m.state.vars.contains_key("k9"),
        "the view changed its source"
    );

    assert_eq!(m.undo(1), 1);
    assert_eq!(m.state.graphs[0].nodes.len(), 4);
    assert!(m.state.vars.contains_key("secret"));
    assert_eq!(m.state.vars["k9"].seen_by, None, "k9 public again");

    let (save, saved) = (m.save_json(), m.state.clone());
    m.play(Some("east"), "go").unwrap();
    m.load(&SaveFile::parse(&save, "speed").unwrap()).unwrap();
    assert_eq!(m.state, saved);
}

/// Saves hold script data and graphs in the shape they always had: an object of
/// `{value, seen_by}` by key, and a graph's `name`, `nodes`, `edges`, `symbols` and `marks`.
#[test]
fn state_json_keeps_the_shape_of_earlier_saves() {
    let (_dir, game) = game(DATA);
    let mut m = Match::new(game, Setup::default()).unwrap();
    m.play(Some("east"), "go").unwrap();
    m.play(Some("west"), "go").unwrap();
    let json = m.state.to_json();
    assert_eq!(json["vars"]["k7"]["value"], "changed");
    assert_eq!(json["vars"]["secret"]["seen_by"], serde_json::json!([1]));
    let ring = &json["graphs"][0];
    assert_eq!(ring["name"], "ring");
    assert_eq!(ring["nodes"], serde_json::json!(["a", "b", "c", "d"]));
    assert_eq!(
        ring["edges"],
        serde_json::json!([[1, 3], [0, 2], [1, 3], [0, 2]])
    );
    assert_eq!(ring["symbols"], serde_json::json!([".", "x"]));
    assert_eq!(ring["marks"], serde_json::json!([0, 1, 0, 0]));
    let back: boardscript_interpreter::State = serde_json::from_value(json).unwrap();
    assert_eq!(back, m.state);
}

fn rules(files: &[(&str, &str)]) -> Result<Rules, ScriptError> {
    let sources = files
        .iter()
        .map(|(name, text)| Source {
            name: (*name).into(),
            text: text.to_string(),
        })
        .collect();
    Rules::compile(sources, Limits::default(), &[])
}

fn call(rules: &Rules, function: &str) -> String {
    let state = State::new(vec!["a".into(), "b".into()], Default::default(), 1);
    match rules.call_read(&state, function, &[]) {
        Ok(v) => v.to_string(),
        Err(e) => panic!("{function}: {e}"),
    }
}

/// issue 11: a constant defined at the top of a script is read by plain name in every
/// function, closures included; constants may use earlier ones.
#[test]
fn functions_read_top_level_constants() {
    let r = rules(&[(
        "rules.rhai",
        r#"
const SIZE = 3;
const CELLS = SIZE * SIZE;
const NAMES = ["x", "o"];
fn area(g) { CELLS }
fn names(g) { NAMES }
fn second(g) { NAMES[1] + NAMES.len() }
fn shifted(g) { [1, 2].map(|n| n + SIZE) }
fn shadowed(g) { let SIZE = 10; SIZE }
fn helper() { SIZE + 1 }
fn via_helper(g) { helper() }
"#,
    )])
    .unwrap();
    assert_eq!(call(&r, "area"), "9");
    assert_eq!(call(&r, "names"), r#"["x", "o"]"#);
    assert_eq!(call(&r, "second"), "o2");
    assert_eq!(call(&r, "shifted"), "[4, 5]");
    assert_eq!(call(&r, "shadowed"), "10");
    assert_eq!(call(&r, "via_helper"), "4");
    let state = State::new(vec!["a".into(), "b".into()], Default::default(), 1);
    assert_eq!(
        r.eval(&state, "CELLS + 1").unwrap(),
        "10",
        "typed expressions too"
    );
}

/// A variant overlay may redefine a constant: the later file wins, as for functions, and
/// the base's functions read the overlay's value.
#[test]
fn an_overlay_redefines_a_constant() {
    let base = "const SIZE = 11;\nconst SEATS = 2;\nfn size(g) { SIZE }\nfn seats(g) { SEATS }\n";
    let r = rules(&[("rules.rhai", base), ("small.rhai", "const SIZE = 7;\n")]).unwrap();
    assert_eq!(
        (call(&r, "size"), call(&r, "seats")),
        ("7".into(), "2".into())
    );
}

/// A constant whose expression fails is a load error at its file, line and column; so is a
/// top-level statement that reaches for the game, which only functions receive.
#[test]
fn a_failing_constant_is_a_load_error_at_its_line() {
    let err = rules(&[(
        "rules.rhai",
        "const A = 1;\n\nconst B = A / 0;\nfn f(g) { B }\n",
    )])
    .err()
    .expect("refused")
    .to_string();
    assert!(err.starts_with("rules.rhai:3:"), "{err}");
    let err = rules(&[
        ("rules.rhai", "fn f(g) { 1 }\n"),
        ("variant.rhai", "\nconst N = g.seat_count();\n"),
    ])
    .err()
    .expect("refused")
    .to_string();
    assert!(err.starts_with("variant.rhai:2:"), "{err}");
}

/// A parameter named like a constant is refused: the constant would take its place.
#[test]
fn a_parameter_may_not_take_a_constants_name() {
    let err = rules(&[("rules.rhai", "const SIZE = 3;\nfn f(g, SIZE) { SIZE }\n")])
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("parameter `SIZE`"), "{err}");
    let closure = "const SIZE = 3;\nfn f(g) {\n    [1].map(|SIZE| SIZE)\n}\n";
    let err = rules(&[("rules.rhai", closure)])
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.starts_with("rules.rhai:3:14: a closure has a parameter `SIZE`"),
        "{err}"
    );
}
