//! The board primitives as scripts call them: coordinates and directions, lines, connections,
//! hex grids and move patterns, with their mistakes refused at the script's line.

use boardscript_interpreter::{Game, Setup};
use boardscript_tests::inline_game;

const RULES: &str = r#"
fn setup(g) {
    let b = g.new_grid("board", 4, 4, ".bw");
    b.read_diagram("4 . . . .\n3 . w . .\n2 . . b .\n1 b . . .");
    g.new_grid("hex", 3, 3, ".x", "hex");
}
fn legal_actions(g, seat) { ["go"] }
fn apply(g, seat, action) {}
fn winners(g) { [] }
"#;

fn game() -> (tempfile::TempDir, Game) {
    let (dir, game) = inline_game("boards", "[seats]\nnames = [\"one\", \"two\"]\n", RULES);
    (dir, game.unwrap())
}

fn eval(expr: &str) -> String {
    let (_dir, game) = game();
    let state = game.start(&Setup::default()).unwrap();
    game.eval(&state, expr)
        .unwrap_or_else(|e| format!("error: {e}"))
}

#[test]
fn cells_by_coordinates_and_direction() {
    assert_eq!(eval(r#"g.grid("board").cell_at(2, 3)"#), "\"c3\"");
    assert_eq!(eval(r#"g.grid("board").cell_at(4, 1) == ()"#), "true");
    assert_eq!(
        eval(r#"[g.grid("board").x("c3"), g.grid("board").y("c3")]"#),
        "[2, 3]"
    );
    assert_eq!(eval(r#"g.grid("board").step("c2", "nw")"#), "\"b3\"");
    assert_eq!(eval(r#"g.grid("board").step("a1", "ne", 3)"#), "\"d4\"");
    assert_eq!(eval(r#"g.grid("board").step("a1", "s") == ()"#), "true");
    assert!(eval(r#"g.grid("board").step("a1", "up")"#).contains("no direction `up`"));
    assert_eq!(
        eval(r#"g.grid("hex").directions()"#),
        r#"["n", "e", "se", "s", "w", "nw"]"#
    );
}

#[test]
fn lines_runs_and_connections() {
    // The `b` pieces on a1 and c2 do not line up; the empty d4, c3, b2 do (a1 ends the run).
    // On the hex grid the se diagonal a3-b2-c1 is a line.
    assert_eq!(eval(r#"g.grid("board").longest_line("a1")"#), "1");
    assert_eq!(eval(r#"g.grid("board").run("d4", "sw")"#), "2");
    let hex = r#"let h = g.grid("hex"); h.set("a3", "x"); h.set("b2", "x"); h.set("c1", "x");"#;
    assert_eq!(eval(&format!("{hex} h.longest_line(\"b2\")")), "3");
    assert_eq!(
        eval(&format!("{hex} h.joins(\"b2\", \"n\", \"s\")")),
        "true"
    );
    assert_eq!(
        eval(&format!(
            "{hex} h.set(\"b2\", \".\"); h.joins(\"a3\", \"n\", \"s\")"
        )),
        "false"
    );
    assert!(eval(r#"g.grid("hex").joins("a1", "top", "s")"#).contains("no board edge `top`"));
}

#[test]
fn move_patterns_list_moves_and_move_pieces() {
    assert_eq!(
        eval(r#"g.grid("board").moves("b", "step n onto .; step ne nw onto .w")"#),
        r#"["a1a2", "a1b2", "c2c3", "c2d3", "c2b3"]"#
    );
    assert_eq!(
        eval(r#"g.grid("board").moves("w", "slide s e through . onto b")"#),
        r#"["b3b2", "b3b1", "b3c3", "b3d3"]"#
    );
    // `move` returns what it took and leaves the first symbol behind.
    assert_eq!(
        eval(r#"let b = g.grid("board"); let t = b.move("c2b3"); [t, b.get("c2"), b.get("b3")]"#),
        r#"["w", ".", "b"]"#
    );
    assert_eq!(
        eval(r#"g.grid("board").move_cells("a1b2")"#),
        r#"["a1", "b2"]"#
    );
    let bad = eval(r#"g.grid("board").moves("b", "step n onto .; jump n onto .")"#);
    assert!(bad.contains("move rule 2 (`jump n onto .`)"), "{bad}");
    assert!(eval(r#"g.grid("board").move("a1")"#).contains("two cells"));
    assert!(eval(r#"g.new_grid("x", 2, 2, ".", "round")"#).contains("no grid shape `round`"));
}

/// A hex grid stays hex through a save: the shape is part of the state (and square grids,
/// as saved before shapes existed, load as square).
#[test]
fn the_shape_survives_a_save() {
    let (_dir, game) = game();
    let state = game.start(&Setup::default()).unwrap();
    let json = state.to_json();
    assert_eq!(json["grids"][1]["shape"], "hex");
    assert!(json["grids"][0].get("shape").is_none());
    let back: boardscript_interpreter::State = serde_json::from_value(json).unwrap();
    assert_eq!(back, state);
    assert_eq!(
        game.eval(&back, r#"[g.grid("hex").shape, g.grid("board").shape]"#)
            .unwrap(),
        r#"["hex", "square"]"#
    );
}

/// Listing moves is paid for before it starts: a pattern that would look at hundreds of
/// millions of cells is refused at once, not computed.
#[test]
fn a_huge_move_listing_is_refused_before_it_runs() {
    let expr = format!(
        r#"let b = g.new_grid("big", 26, 99, ".x"); b.moves(".", "slide {}through .").len()"#,
        "n e s w ".repeat(80)
    );
    let out = eval(&expr);
    assert!(out.contains("moves"), "{out}");
    assert!(out.starts_with("error"), "{out}");
    // An ordinary pattern on the same board is listed.
    assert_eq!(
        eval(
            r#"let b = g.new_grid("big", 26, 99, ".x"); b.set("a1", "x"); b.moves("x", "slide n e through .").len()"#
        ),
        "123"
    );
}
