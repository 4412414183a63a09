//! Issue 22: `g.tally(key)` / `g.tally(key, n)`, statistics a game counts for `sim`: kept in
//! the state and its saves, weighed, and in no seat's view. And `g.ask`'s `log: "own"`: a
//! secret choice several seats make at once, each answer logged to its own seat alone.

use boardscript_interpreter::{Match, Setup, State};
use boardscript_tests::inline_game;

const MANIFEST: &str = "log_actions = \"all\"\n[seats]\nnames = [\"p1\", \"p2\", \"p3\"]\n";

/// `hit` tallies `hits` once and `damage` by 3; `pick` asks every seat a secret choice.
const RULES: &str = r#"
fn setup(g) {}
fn legal_actions(g, seat) { ["hit", "pick"] }
fn apply(g, seat, action) {
    switch action {
        "hit" => { g.tally("hits"); g.tally("damage", 3); }
        "pick" => g.ask(#{ seat: ["p1", "p2", "p3"], options: ["keep red", "keep blue"],
                           then_all: "picked", log: "own" }),
    }
}
fn picked(g, answers) { g.log("everyone has chosen"); }
fn winners(g) { [] }
"#;

fn game() -> (tempfile::TempDir, Match) {
    let (dir, game) = inline_game("tallies", MANIFEST, RULES);
    let m = Match::new(game.unwrap_or_else(|e| panic!("{e}")), Setup::default()).unwrap();
    (dir, m)
}

fn tally(s: &State, key: &str) -> i64 {
    s.tallies.get(key).copied().unwrap_or(0)
}

/// Each call adds to its tally (1, or the count given).
#[test]
fn a_tally_adds_one_or_the_count_given() {
    let (_dir, mut m) = game();
    m.play(Some("p1"), "hit").unwrap();
    m.play(Some("p1"), "hit").unwrap();
    assert_eq!(tally(&m.state, "hits"), 2);
    assert_eq!(tally(&m.state, "damage"), 6);
}

/// No view holds a tally, a spectator's included: a tally could count what only the rules
/// know.
#[test]
fn no_view_shows_a_tally() {
    let (_dir, mut m) = game();
    m.play(Some("p1"), "hit").unwrap();
    for seat in [Some(0), Some(1), Some(2), None] {
        let view = m.state.view(seat);
        assert!(view.tallies.is_empty(), "{seat:?}: {:?}", view.tallies);
        assert!(!view.to_json().to_string().contains("damage"), "{seat:?}");
    }
}

/// A save keeps the tallies, and a state that tallied weighs more than one that did not.
#[test]
fn a_save_keeps_the_tallies_and_they_are_weighed() {
    let (_dir, mut m) = game();
    let mut before = m.state.clone();
    m.play(Some("p1"), "hit").unwrap();
    let saved = serde_json::to_string(&m.state).unwrap();
    let loaded: State = serde_json::from_str(&saved).unwrap();
    assert_eq!(tally(&loaded, "hits"), 1);
    assert_eq!(tally(&loaded, "damage"), 3);
    assert_eq!(loaded, m.state);
    let mut after = m.state.clone();
    after.log = before.log.clone();
    after.actions_applied = before.actions_applied;
    after.turn = before.turn.clone();
    assert!(after.weigh() > before.weigh());
}

/// With `log: "own"`, each seat's log shows its own answer and nobody else's; the public
/// outcome the rules log reaches everyone.
#[test]
fn own_answers_are_logged_to_their_seat_alone() {
    let (_dir, mut m) = game();
    let from: Vec<usize> = (0..3).map(|s| m.state.view(Some(s)).log.len()).collect();
    m.play(Some("p1"), "pick").unwrap();
    m.play(Some("p2"), "keep blue").unwrap();
    m.play(Some("p1"), "keep red").unwrap();
    m.play(Some("p3"), "keep red").unwrap();
    let lines = |s: usize| -> Vec<String> {
        let v = m.state.view(Some(s));
        v.log.iter().skip(from[s]).map(|e| e.text.clone()).collect()
    };
    assert_eq!(
        lines(0),
        ["p1: pick", "p1: keep red", "everyone has chosen"]
    );
    assert_eq!(
        lines(1),
        ["p1: pick", "p2: keep blue", "everyone has chosen"]
    );
    assert_eq!(
        lines(2),
        ["p1: pick", "p3: keep red", "everyone has chosen"]
    );
}
