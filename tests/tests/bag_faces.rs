//! issue 23: a hidden bag whose tokens show a face (`bag.set_faces`): views count the tokens
//! by face, and a bot's sampler deals tokens again only among those of the same face, each
//! bag keeping what its view shows (an Intruder bag's types are known, its back numbers not).

use boardscript_interpreter::bots::sample;
use boardscript_interpreter::bots::SeatView;
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::{Match, Setup};
use boardscript_tests::inline_game;

const MANIFEST: &str = "[seats]\nnames = [\"one\", \"two\"]\n";

/// Two hidden bags sharing a face table: `bag` holds two adults and a larva, `supply` one
/// adult and two larvae; every token has its own kind (a back number).
const RULES: &str = r#"
const FACES = #{ "adult-2": "adult", "adult-3": "adult", "adult-4": "adult",
                 "larva-1": "larva", "larva-2": "larva", "larva-3": "larva" };
fn setup(g) {
    let bag = g.new_bag("bag", "none");
    let supply = g.new_bag("supply", "none");
    bag.set_faces(FACES);
    supply.set_faces(FACES);
    for t in ["adult-2", "adult-3", "larva-1"] { bag.add(t); }
    for t in ["adult-4", "larva-2", "larva-3"] { supply.add(t); }
}
fn to_decide(g) { [g.turn()] }
fn legal_actions(g, seat) { ["draw"] }
fn apply(g, seat, act) { g.bag("bag").draw(); g.next_turn(); }
fn winners(g) { [] }
"#;

fn start() -> (tempfile::TempDir, Match) {
    let (dir, game) = inline_game("faces", MANIFEST, RULES);
    let game = game.unwrap_or_else(|e| panic!("{e}"));
    (dir, Match::new(game, Setup::default()).unwrap())
}

fn shown(state: &boardscript_interpreter::State, bag: usize) -> Vec<(String, u32)> {
    state.bags[bag]
        .counts()
        .map(|(k, n)| (k.to_string(), n))
        .collect()
}

#[test]
fn a_view_counts_hidden_tokens_by_face() {
    let (_dir, m) = start();
    let v = m.state.view(Some(0));
    assert_eq!(
        shown(&v, 0),
        [("?adult".to_string(), 2), ("?larva".to_string(), 1)]
    );
    assert_eq!(
        shown(&v, 1),
        [("?adult".to_string(), 1), ("?larva".to_string(), 2)]
    );
    assert_eq!(v.bags[0].count("adult-2"), 0, "no back number shows");
}

#[test]
fn the_sampler_keeps_each_bags_faces() {
    let (_dir, m) = start();
    let sv = SeatView::of(&m.state, 0);
    let mut r = rng::seeded(5);
    let mut moved = 0;
    for _ in 0..50 {
        let s = sample::determinize(&m.game, &sv, &mut r).unwrap();
        for b in 0..2 {
            assert_eq!(s.bags[b].view(), m.state.bags[b].view(), "faces kept");
        }
        if s.bags[0] != m.state.bags[0] {
            moved += 1;
        }
    }
    assert!(moved > 0, "back numbers are dealt again");
}

#[test]
fn a_face_table_is_checked() {
    let (dir, game) = inline_game(
        "faces-bad",
        MANIFEST,
        &RULES.replace("\"larva-3\": \"larva\"", "\"larva-3\": 3"),
    );
    drop(dir);
    let err = match game {
        Ok(g) => Match::new(g, Setup::default()).err().map(|e| e.to_string()),
        Err(e) => Some(e.to_string()),
    };
    let err = err.expect("a face that is not a string is refused");
    assert!(
        err.contains("set_faces: the face of `larva-3` is a i64, not a string"),
        "{err}"
    );
}
