//! Issue 24, typed actions: declared shapes (`[actions] shapes`) are read and refused at
//! their place; every listed action says what its arguments name, a hidden card only as the
//! seat sees it; `apply` and answer functions may take the action parsed; a verbs table lists
//! and dispatches.

use boardscript_interpreter::shape::Kind;
use boardscript_interpreter::{Game, Match, Setup};
use boardscript_tests::inline_game;

const SEATS: &str = "[seats]\nnames = [\"red\", \"blue\"]\n";

/// A game with one grid, a hand each (seen by its owner) and a shared pile; red's actions name
/// cards of both hands.
const RULES: &str = r#"
fn setup(g) {
    g.new_grid("board", 3, 3, ".x");
    g.zone("hand", "red").put(g.new_card("apple", #{}));
    g.zone("hand", "blue").put(g.new_card("plum", #{}));
    g.set("got", "");
}
fn legal_actions(g, seat) {
    if g.get("got") != "" { return []; }
    ["b2", "give 2 blue", "eat apple", "eat plum", "wave"]
}
fn apply(g, seat, action, parsed) {
    g.set("got", `${parsed.verb}|${parsed.text}|` + parsed.args.map(|x| show(x)).join(","));
}
fn show(m) { let keys = m.keys(); keys.sort(); keys.map(|k| `${k}=${m[k]}`).join(";") }
fn winners(g) { [] }
"#;

fn manifest(extra: &str) -> String {
    format!("{SEATS}[zones.hand]\nper_seat = true\nvisible_to = \"owner\"\n{extra}")
}

fn load(extra: &str, rules: &str) -> (tempfile::TempDir, Result<Game, String>) {
    let (dir, game) = inline_game("typed", &manifest(extra), rules);
    (dir, game.map_err(|e| e.to_string()))
}

fn start(game: Game) -> Match {
    Match::new(game, Setup::default()).unwrap()
}

const SHAPES: &str = "[actions]\nshapes = [\"{cell}\", \"give {number} {seat}\", \"eat {card}\"]\n";

#[test]
fn declared_shapes_type_every_argument_and_name_the_verbs() {
    let (_dir, game) = load(SHAPES, RULES);
    let game = game.unwrap();
    // The shapes' first words are verbs: the REPL reads `give` and `eat` as actions.
    assert_eq!(game.spec.verbs, ["give", "eat"]);
    let m = start(game);
    let legal = m.game.legal_actions(&m.state, 0).unwrap();
    let typed = m.game.typed_actions(&m.state, 0, &legal);
    let b2 = &typed[0];
    assert_eq!(
        (b2.verb.as_str(), b2.shape.as_deref()),
        ("", Some("{cell}"))
    );
    assert_eq!(b2.args[0].kind, Kind::Cell);
    assert_eq!(
        (b2.args[0].grid.as_deref(), b2.args[0].x, b2.args[0].y),
        (Some("board"), Some(1), Some(1))
    );
    let give = &typed[1];
    assert_eq!(give.verb, "give");
    assert_eq!(
        (give.args[0].kind, give.args[0].number),
        (Kind::Number, Some(2))
    );
    assert_eq!(
        (give.args[1].kind, give.args[1].seat),
        (Kind::Seat, Some(1))
    );
    // `wave` fits no shape: read by its words, and said to be.
    assert_eq!(
        (typed[4].verb.as_str(), typed[4].shape.as_deref()),
        ("wave", None)
    );
}

#[test]
fn a_hidden_card_argument_stays_hidden_from_the_seat_that_does_not_see_it() {
    let (_dir, game) = load(SHAPES, RULES);
    let m = start(game.unwrap());
    let legal = m.game.legal_actions(&m.state, 0).unwrap();
    let red = m.game.typed_actions(&m.state, 0, &legal);
    let (apple, plum) = (&red[2].args[0], &red[3].args[0]);
    // Red's own card: named, with where it lies and whose it is.
    assert_eq!(apple.kind, Kind::Card);
    assert!(apple.card.is_some());
    assert_eq!((apple.zone.as_deref(), apple.seat), (Some("hand"), Some(0)));
    // Blue's card, in a hand red may not see: a card slot, and nothing more.
    assert_eq!(plum.kind, Kind::Card);
    assert_eq!((plum.card, &plum.name, &plum.zone), (None, &None, &None));
    // Read for blue, the same text names blue's card and not red's.
    let blue = m.game.typed_actions(&m.state, 1, &legal);
    assert!(blue[3].args[0].card.is_some());
    assert_eq!(blue[2].args[0].card, None);
    let json = serde_json::to_string(&red[3]).unwrap();
    assert_eq!(
        json,
        r#"{"text":"eat plum","verb":"eat","args":[{"kind":"card","text":"plum"}],"shape":"eat {card}"}"#
    );
}

#[test]
fn apply_with_four_parameters_receives_the_action_parsed() {
    let (_dir, game) = load(SHAPES, RULES);
    let mut m = start(game.unwrap());
    m.play(Some("red"), "give 2 blue").unwrap();
    assert_eq!(
        m.game.eval(&m.state, "g.get(\"got\")").unwrap(),
        "\"give|give 2 blue|kind=number;number=2;text=2,kind=seat;seat=1;text=blue\""
    );
    let (_dir, game) = load(SHAPES, RULES);
    let mut m = start(game.unwrap());
    m.play(Some("red"), "b2").unwrap();
    assert_eq!(
        m.game.eval(&m.state, "g.get(\"got\")").unwrap(),
        "\"|b2|grid=board;kind=cell;text=b2;x=1;y=1\""
    );
}

#[test]
fn without_shapes_each_word_gets_a_best_reading() {
    let (_dir, game) = load("", RULES);
    let m = start(game.unwrap());
    let legal = m.game.legal_actions(&m.state, 0).unwrap();
    let typed = m.game.typed_actions(&m.state, 0, &legal);
    let kinds = |i: usize| -> Vec<Kind> { typed[i].args.iter().map(|a| a.kind).collect() };
    assert_eq!((typed[0].verb.as_str(), kinds(0)), ("", vec![Kind::Cell]));
    assert_eq!(kinds(1), [Kind::Number, Kind::Seat]);
    // A card the seat sees is read as a card; one it does not see is only a word.
    assert_eq!(kinds(2), [Kind::Card]);
    assert_eq!(kinds(3), [Kind::Word]);
    assert!(typed.iter().all(|t| t.shape.is_none()));
}

#[test]
fn a_bad_kind_is_refused_at_its_file_line_and_column() {
    let (_dir, err) = load("[actions]\nshapes = [\"{cell}\", \"move {room}\"]\n", RULES);
    let err = err.err().expect("refused");
    // Line 7 of the manifest; `{room}` starts at column 27.
    assert!(err.contains("game.toml:7:27: actions:"), "{err}");
    assert!(err.contains("no kind `room`"), "{err}");
    assert!(
        err.contains("cell, column, cells, card, piece, node, edge, seat, number, word"),
        "{err}"
    );
}

#[test]
fn a_slot_naming_no_grid_is_refused_at_its_place_when_the_game_starts() {
    let (_dir, game) = load("[actions]\nshapes = [\"{cell:map}\"]\n", RULES);
    let err = Match::new(game.unwrap(), Setup::default())
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("game.toml:7:12: actions: shape `{cell:map}`"),
        "{err}"
    );
    assert!(err.contains("names no grid (grids: board)"), "{err}");
    // A bare `{node}` in a game with no graph.
    let (_dir, game) = load("[actions]\nshapes = [\"go {node}\"]\n", RULES);
    let err = Match::new(game.unwrap(), Setup::default())
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("the game has no graph"), "{err}");
}

#[test]
fn a_verb_shape_must_start_with_its_verb_and_its_functions_exist() {
    let (_dir, err) = load("[actions.verbs.take]\nshape = \"grab {number}\"\n", TAKE);
    let err = err.err().expect("refused");
    assert!(err.contains("game.toml:7:10"), "{err}");
    assert!(err.contains("does not start with `take`"), "{err}");
    let (_dir, err) = load(
        "[actions.verbs.take]\nshape = \"take {number}\"\n[actions.verbs.drop]\nshape = \"drop\"\n",
        TAKE,
    );
    let err = err.err().expect("refused");
    assert!(
        err.contains("actions.verbs.drop: the script must define `drop_apply(g, seat, parsed)`"),
        "{err}"
    );
}

/// A game of verbs only: no `legal_actions`, no `apply`.
const TAKE: &str = r#"
fn setup(g) { g.set("left", 5); }
fn take_legal(g, seat) {
    let left = g.get("left");
    if left == 0 { return []; }
    let out = [];
    for n in 1..=min(left, 2) { out.push(`take ${n}`); }
    out
}
fn take_apply(g, seat, parsed) {
    g.set("left", g.get("left") - parsed.args[0].number);
    if g.get("left") == 0 { g.end_game([seat], "took the last"); }
    g.next_turn();
}
fn pass_legal(g, seat) { if g.get("left") > 0 { ["pass"] } else { [] } }
fn pass_apply(g, seat, parsed) {
    g.ask(#{ seat: seat, options: ["say 1", "say 2"], then: "said" });
}
fn said(g, seat, answer, parsed) { g.set("said", parsed.args[0].number); g.next_turn(); }
"#;

const VERBS: &str = "[actions.verbs.take]\nshape = \"take {number}\"\n\n[actions.verbs.pass]\nshapes = [\"pass\"]\n";

#[test]
fn the_verbs_table_lists_and_dispatches_in_the_order_declared() {
    let (_dir, game) = load(VERBS, TAKE);
    let game = game.unwrap();
    assert_eq!(game.spec.verbs, ["take", "pass"]);
    let mut m = start(game);
    assert_eq!(
        m.game.legal_actions(&m.state, 0).unwrap(),
        ["take 1", "take 2", "pass"]
    );
    m.play(Some("red"), "take 2").unwrap();
    m.play(Some("blue"), "take 2").unwrap();
    assert_eq!(m.game.eval(&m.state, "g.get(\"left\")").unwrap(), "1");
    // `pass` asks a question; its answer function takes the answer parsed.
    m.play(Some("red"), "pass").unwrap();
    m.play(Some("red"), "say 2").unwrap();
    assert_eq!(m.game.eval(&m.state, "g.get(\"said\")").unwrap(), "2");
    m.play(Some("blue"), "take 1").unwrap();
    assert_eq!(m.game.winners(&m.state).unwrap(), [1]);
}

/// `g.parse_action(seat, text)`: any text read as the engine reads it for that seat (a script
/// resolving an answer it chose itself, without asking).
#[test]
fn scripts_parse_any_text_with_parse_action() {
    let (_dir, game) = load(SHAPES, RULES);
    let m = start(game.unwrap());
    let parsed = |seat: &str, text: &str| {
        m.game
            .eval(
                &m.state,
                &format!("let p = g.parse_action(\"{seat}\", \"{text}\"); `${{p.shape}}|${{p.args.map(|a| show(a)).join(\",\")}}`"),
            )
            .unwrap()
    };
    assert_eq!(
        parsed("red", "give 3 red"),
        "\"give {number} {seat}|kind=number;number=3;text=3,kind=seat;seat=0;text=red\""
    );
    // Blue's plum for red: a card, unnamed; for blue, its own.
    assert_eq!(
        parsed("red", "eat plum"),
        "\"eat {card}|kind=card;text=plum\""
    );
    assert!(parsed("blue", "eat plum").contains("name=plum;seat=1;text=plum;zone=hand"));
    let err = m
        .game
        .eval(&m.state, "g.parse_action(\"green\", \"eat plum\")")
        .unwrap_err();
    assert!(err.to_string().contains("no seat `green`"), "{err}");
}
