//! Engine mechanisms that no shipped game exercises fully yet, on small games written here:
//! simultaneous decisions (held, hidden, resolved together) and turn-order defaults.

use boardscript_interpreter::script::ScriptError;
use boardscript_interpreter::{Game, Match, PlayError, Setup};
use boardscript_tests::inline_game;

/// Writes a two-seat game whose rules are `rules` into a temp folder and loads it.
fn game(rules: &str) -> (tempfile::TempDir, Game) {
    let (dir, game) = try_game(rules);
    (dir, game.unwrap())
}

fn try_game(rules: &str) -> (tempfile::TempDir, Result<Game, ScriptError>) {
    let manifest = "phases = [\"draft\", \"main\"]\n[seats]\nnames = [\"east\", \"west\"]\n";
    inline_game("duel", manifest, rules)
}

/// Both seats pick a number at once; the higher wins. `west` may be out of choices.
const DUEL: &str = r#"
fn setup(g) { g.set("round", 0); }
fn to_decide(g) { if g.get("round") == 0 { g.seats() } else { [] } }
fn legal_actions(g, seat) {
    if seat == "west" && g.has("west_out") { return []; }
    ["pick 1", "pick 2", "pick 3"]
}
fn apply(g, seat, action) {
    g.set_counter(seat, "picked", parse_int(words(action)[1]));
    g.set("round", 1);
}
fn winners(g) {
    let e = g.counter("east", "picked");
    let w = g.counter("west", "picked");
    if e > w { ["east"] } else if w > e { ["west"] } else { [] }
}
fn position(g, text) { if text == "west out" { g.set("west_out", true); } }
"#;

/// A choice is held (and hidden from the other seat's view) until every seat has chosen,
/// then both apply together.
#[test]
fn simultaneous_choices_are_held_hidden_and_resolved_together() {
    let (_dir, game) = game(DUEL);
    let mut m = Match::new(game, Setup::default()).unwrap();
    assert_eq!(m.game.deciding(&m.state).unwrap(), [0, 1]);
    m.play(Some("east"), "pick 3").unwrap();
    assert_eq!(m.state.pending.len(), 1, "east's choice is held");
    assert_eq!(
        m.state.seat_counters[0].get("picked"),
        None,
        "not applied yet"
    );
    assert_eq!(
        m.game.deciding(&m.state).unwrap(),
        [1],
        "only west still decides"
    );
    let west_view = serde_json::to_string(&m.state.view(Some(1))).unwrap();
    assert!(
        !west_view.contains("pick 3"),
        "west must not see east's choice"
    );
    let err = m.play(Some("east"), "pick 1").unwrap_err();
    assert!(
        matches!(&err, PlayError::NotDeciding { seat, .. } if seat == "east"),
        "east chose already: {err}"
    );
    m.play(Some("west"), "pick 2").unwrap();
    assert!(m.state.pending.is_empty());
    assert!(m.game.is_over(&m.state).unwrap());
    assert_eq!(m.game.winners(&m.state).unwrap(), [0]);
}

/// A seat asked to decide but with no legal action takes no part: the other seat's choice
/// applies at once instead of waiting for ever.
#[test]
fn a_seat_without_choices_does_not_strand_a_simultaneous_decision() {
    let (_dir, game) = game(DUEL);
    let setup = Setup {
        position: Some("west out".into()),
        ..Setup::default()
    };
    let mut m = Match::new(game, setup).unwrap();
    assert_eq!(m.game.deciding(&m.state).unwrap(), [0]);
    m.play(Some("east"), "pick 2").unwrap();
    assert!(m.state.pending.is_empty());
    assert_eq!(m.state.seat_counters[0].get("picked"), Some(&2));
    assert!(m.game.is_over(&m.state).unwrap());
}

/// Without `to_decide`, the seat whose turn it is decides.
#[test]
fn without_to_decide_the_turn_seat_decides() {
    let rules = r#"
fn setup(g) { }
fn legal_actions(g, seat) { if g.round() > 2 { [] } else { ["go"] } }
fn apply(g, seat, action) { g.next_turn(); }
fn winners(g) { [] }
"#;
    let (_dir, game) = game(rules);
    let mut m = Match::new(game, Setup::default()).unwrap();
    assert_eq!(m.game.deciding(&m.state).unwrap(), [0]);
    m.play(None, "go").unwrap();
    assert_eq!(m.game.deciding(&m.state).unwrap(), [1]);
    for _ in 0..3 {
        m.play(None, "go").unwrap();
    }
    assert!(m.game.is_over(&m.state).unwrap(), "round 3 has no actions");
}

/// Steps: the engine counts the actions of a turn and passes it after the last one; a
/// shorter first turn, a script passing the turn early, and the step read back.
#[test]
fn the_engine_counts_steps_and_passes_the_turn() {
    let (_dir, game) = game(
        r#"
fn setup(g) { g.set_steps(3); g.set_turn_steps(1); }
fn legal_actions(g, seat) { ["go", "stop"] }
fn apply(g, seat, action) { if action == "stop" { g.next_turn(); } }
fn winners(g) { [] }
"#,
    );
    let mut m = Match::new(game, Setup::default()).unwrap();
    let seat = |m: &Match| m.state.turn.current;
    m.play(None, "go").unwrap();
    assert_eq!(seat(&m), 1, "the one-step first turn is over");
    assert_eq!((m.state.turn.step(), m.state.turn.steps_left), (1, 3));
    m.play(None, "go").unwrap();
    m.play(None, "go").unwrap();
    assert_eq!(seat(&m), 1, "two of three steps taken");
    assert_eq!(m.state.turn.step(), 3);
    m.play(None, "go").unwrap();
    assert_eq!(seat(&m), 0, "passed after the third");
    m.play(None, "stop").unwrap();
    assert_eq!(seat(&m), 1, "the script passed the turn itself");
    assert_eq!(
        m.state.turn.steps_left, 3,
        "and the new turn has all its steps"
    );
}

/// Phase-scoped protocol functions stand in for the plain ones while their phase lasts.
#[test]
fn phase_functions_replace_the_plain_ones_in_their_phase() {
    let (_dir, game) = game(
        r#"
fn setup(g) { g.set_phase("draft"); }
fn legal_actions(g, seat) { ["play"] }
fn apply(g, seat, action) { g.add_counter("played", 1); g.next_turn(); }
fn draft_legal_actions(g, seat) { ["pick", "done"] }
fn draft_apply(g, seat, action) {
    if action == "done" { g.set_phase("main"); } else { g.add_counter("picked", 1); }
    g.next_turn();
}
fn winners(g) { [] }
"#,
    );
    let mut m = Match::new(game, Setup::default()).unwrap();
    assert_eq!(m.game.legal_actions(&m.state, 0).unwrap(), ["pick", "done"]);
    m.play(None, "pick").unwrap();
    let err = m.play(None, "play").unwrap_err();
    assert!(
        matches!(&err, PlayError::Illegal { action, .. } if action == "play"),
        "`play` is not a draft action: {err}"
    );
    m.play(None, "done").unwrap();
    assert_eq!(m.state.phase, "main");
    assert_eq!(m.game.legal_actions(&m.state, 0).unwrap(), ["play"]);
    m.play(None, "play").unwrap();
    let c = &m.state.counters;
    assert_eq!((c.get("picked"), c.get("played")), (Some(&1), Some(&1)));
}

/// A phase function must take the parameters of the function it replaces.
#[test]
fn a_phase_function_with_the_wrong_parameters_is_refused_at_load() {
    let rules = "fn setup(g) {}\nfn legal_actions(g, s) { [] }\nfn apply(g, s, a) {}\n\
                 fn winners(g) { [] }\nfn draft_apply(g, a) {}\n";
    let (_dir, game) = try_game(rules);
    let err = game.err().expect("refused").to_string();
    assert!(
        err.contains("draft_apply") && err.contains("3 parameters"),
        "{err}"
    );
}

/// `replace(c, from, to)` maps a cell's symbol like `tr`, and refuses a symbol not in `from`.
#[test]
fn grid_replace_maps_symbols_like_tr() {
    let (_dir, game) = game(
        r#"
fn setup(g) { let b = g.new_grid("board", 3, 1, ".BRb"); b.set("b1", "R"); }
fn legal_actions(g, seat) { ["a1", "b1", "c1"] }
fn apply(g, seat, cell) { g.replace("board", cell, ".R", "Bb"); }
fn winners(g) { [] }
"#,
    );
    let mut m = Match::new(game, Setup::default()).unwrap();
    m.play(None, "a1").unwrap();
    m.play(None, "b1").unwrap();
    let board = m.game.eval(
        &m.state,
        r#"let b = g.grid("board"); b.get("a1") + b.get("b1")"#,
    );
    assert_eq!(board.unwrap(), "\"Bb\"");
    let before = m.state.clone();
    let err = m.play(None, "a1").unwrap_err().to_string();
    assert!(err.contains("holds `B`, none of `.R`"), "{err}");
    assert_eq!(m.state, before, "a refused action changes nothing");
}
