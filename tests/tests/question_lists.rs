//! issue 23: a question whose options tell what a seat holds names the function that lists
//! them (`g.ask(#{list: ...})`). Another seat's bot never gets those options: its seat view
//! leaves them out, and the sampler lists them again from the cards it deals.

use boardscript_interpreter::bots::{sample, SeatView};
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::{Match, Setup};
use boardscript_tests::inline_game;

const MANIFEST: &str = r#"
[seats]
names = ["a", "b"]

[zones]
deck = { visible_to = "none" }
hand = { per_seat = true, visible_to = "owner" }
"#;

/// Eight distinct cards; each seat holds two and is asked at once which to keep, the options
/// listed by `keep_options` (or given as a list, `LISTED` replaced, to compare).
const RULES: &str = r#"
fn setup(g) {
    let deck = g.zone("deck");
    for v in ["ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen"] {
        deck.put(g.new_card(v, #{}));
    }
    deck.shuffle();
    for s in g.seats() { deck.draw_to(g.zone("hand", s), 2); }
    g.then("choose");
}
fn choose(g) {
    g.ask(#{ seat: ["a", "b"], LISTED, then: "kept" });
}
fn keep_options(g, seat) { g.zone("hand", seat).names().map(|n| `keep ${n}`) }
fn kept(g, seat, answer) { }
fn to_decide(g) { [] }
fn legal_actions(g, seat) { [] }
fn apply(g, seat, action) { }
fn winners(g) { [] }
"#;

fn start(listed: &str) -> (tempfile::TempDir, Match) {
    let rules = RULES.replace("LISTED", listed);
    let (dir, game) = inline_game("lists", MANIFEST, &rules);
    let game = game.unwrap_or_else(|e| panic!("{e}"));
    (
        dir,
        Match::new(
            game,
            Setup {
                seed: 3,
                ..Setup::default()
            },
        )
        .unwrap(),
    )
}

fn options(state: &boardscript_interpreter::State, seat: usize) -> Vec<String> {
    state
        .agenda
        .question()
        .unwrap()
        .options_of(seat)
        .unwrap()
        .to_vec()
}

fn hand(state: &boardscript_interpreter::State, seat: usize) -> Vec<String> {
    let z = state.zone_index("hand", Some(seat)).unwrap();
    let mut names: Vec<String> = state.zones[z]
        .cards
        .iter()
        .map(|c| format!("keep {}", state.cards[c.0 as usize].name))
        .collect();
    names.sort();
    names
}

#[test]
fn another_seats_listed_options_are_left_out_and_listed_again() {
    let (_dir, m) = start(r#"list: "keep_options""#);
    assert_eq!(
        options(&m.state, 1).len(),
        2,
        "the rules listed b's options"
    );
    let sv = SeatView::of(&m.state, 0);
    let q = sv.unseen().agenda.question().unwrap();
    assert_eq!(
        q.options_of(1),
        Some(&[][..]),
        "a's bot is not told b's cards"
    );
    assert_eq!(q.options_of(0).unwrap().len(), 2, "its own options stay");
    let mut r = rng::seeded(7);
    let mut other = 0;
    for _ in 0..20 {
        let d = sample::determinize(&m.game, &sv, &mut r).unwrap();
        let mut listed = options(&d, 1);
        listed.sort();
        assert_eq!(listed, hand(&d, 1), "b's options fit the cards dealt to b");
        if listed != hand(&m.state, 1) {
            other += 1;
        }
    }
    assert!(other > 0, "b is dealt other cards than it holds");
}

#[test]
fn options_given_as_a_list_stay_as_asked() {
    let (_dir, m) = start(r#"options: ["keep it", "drop it"]"#);
    let sv = SeatView::of(&m.state, 0);
    let q = sv.unseen().agenda.question().unwrap();
    assert_eq!(q.options_of(1).unwrap(), ["keep it", "drop it"]);
}

#[test]
fn a_list_and_options_together_are_refused() {
    let rules = RULES.replace("LISTED", r#"list: "keep_options", options: ["x"]"#);
    let (_dir, game) = inline_game("lists-bad", MANIFEST, &rules);
    let err = match game {
        Ok(g) => Match::new(g, Setup::default()).err().map(|e| e.to_string()),
        Err(e) => Some(e.to_string()),
    }
    .expect("refused");
    assert!(err.contains("`options` (the answers) or `list`"), "{err}");
}
