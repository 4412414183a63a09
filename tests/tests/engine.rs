//! Engine mechanisms that no shipped game exercises fully yet, on small games written here:
//! simultaneous decisions (held, hidden, resolved together) and turn-order defaults.

use boardscript_interpreter::{Game, Match, Setup};

/// Writes a two-seat game whose rules are `rules` into a temp folder and loads it.
fn game(rules: &str) -> (tempfile::TempDir, Game) {
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("duel");
    std::fs::create_dir_all(&g).unwrap();
    std::fs::write(
        g.join("game.toml"),
        "[seats]\nnames = [\"east\", \"west\"]\n",
    )
    .unwrap();
    std::fs::write(g.join("rules.rhai"), rules).unwrap();
    let game = Game::load(&g, "duel").unwrap();
    (dir, game)
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
    assert!(
        m.play(Some("east"), "pick 1").is_err(),
        "east chose already"
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
