//! Issue 20, item 5: a log line never names a card its reader may not see. A word that is the
//! name of exactly one card names that card; a seat reads it only if it could see the card
//! before or after the action that wrote the line, and reads "a card" otherwise. Checked in a
//! small game made for it, and over random playouts of every shipped game against each
//! seat's own views (an oracle independent of how the engine marks the names).

use boardscript_interpreter::bots::random;
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::{Game, Setup, State};
use boardscript_tests::{check_log_names, inline_game, load};

const MANIFEST: &str = "log_actions = \"all\"\n[seats]\nnames = [\"p1\", \"p2\"]\n";

/// p1 keeps one of the two cards of a face-down deck (the other goes to a public discard
/// pile), logs what it keeps, then may show the kept card to p2.
const RULES: &str = r#"
fn setup(g) {
    g.new_zone("deck", "none");
    g.new_seat_zones("hand", "owner");
    g.new_zone("discard", "all");
    for name in ["green-bandages-7", "red-knife-2"] {
        g.zone("deck").put(g.new_card(name, #{}));
    }
}
fn legal_actions(g, seat) {
    if seat != "p1" { return []; }
    if g.zone("deck").len > 0 {
        g.zone("deck").cards().map(|c| `keep ${c.name}`) + ["flash"]
    } else if g.counter("shown") == 0 { ["show"] } else { [] }
}
fn apply(g, seat, action) {
    if action == "flash" {
        // Face up for a moment, then shuffled back: seen by nobody after the action.
        let c = g.zone("deck").top();
        g.zone("discard").take(c);
        g.log(`p1 flashes ${c.name}`);
        g.zone("deck").take(c);
        g.zone("deck").shuffle();
        return;
    }
    if action == "show" {
        g.reveal_card(g.zone("hand", "p1").cards()[0], "p2");
        g.log(`p1 shows ${g.zone("hand", "p1").cards()[0].name} to p2`);
        g.set_counter("shown", 1);
        return;
    }
    let name = action.sub_string(5);
    for c in g.zone("deck").cards() {
        if c.name == name { g.zone("hand", "p1").take(c); } else { g.zone("discard").take(c); }
    }
    g.log(`p1 keeps ${name} and discards the other`);
    g.log_to("p1", `you keep ${name}`);
}
fn winners(g) { [] }
"#;

fn log_of(state: &State, seat: Option<usize>) -> Vec<String> {
    state
        .view(seat)
        .log
        .iter()
        .map(|e| e.text.clone())
        .collect()
}

#[test]
fn a_kept_card_is_named_only_to_its_keeper_until_shown() {
    let (_dir, game) = inline_game("keep", MANIFEST, RULES);
    let game = game.unwrap();
    let mut s = game.start(&Setup::default()).unwrap();
    game.apply(&mut s, 0, "keep green-bandages-7").unwrap();
    assert_eq!(
        log_of(&s, Some(0)),
        [
            "p1: keep green-bandages-7",
            "p1 keeps green-bandages-7 and discards the other",
            "you keep green-bandages-7",
        ]
    );
    let hidden = ["p1: keep a card", "p1 keeps a card and discards the other"];
    assert_eq!(log_of(&s, Some(1)), hidden);
    assert_eq!(log_of(&s, None), hidden);
    // The god view (the rules' own state) keeps every name.
    assert_eq!(s.log[0].text, "p1: keep green-bandages-7");

    // Shown to p2 by the rules: from then on p2's view and log agree that it knows the card;
    // the earlier lines stay as p2 read them then.
    game.apply(&mut s, 0, "show").unwrap();
    let p2 = log_of(&s, Some(1));
    assert_eq!(p2[..2], hidden);
    assert_eq!(p2[2], "p1: show");
    assert_eq!(p2[3], "p1 shows green-bandages-7 to p2");
    assert_eq!(log_of(&s, None)[3], "p1 shows a card to p2");
}

#[test]
fn a_card_that_ends_face_up_is_named_to_everyone() {
    let (_dir, game) = inline_game("keep", MANIFEST, RULES);
    let game = game.unwrap();
    let mut s = game.start(&Setup::default()).unwrap();
    game.apply(&mut s, 0, "keep red-knife-2").unwrap();
    // "red-knife-2" is hidden from p2; "green-bandages-7" is not named at all.
    assert_eq!(log_of(&s, Some(1))[0], "p1: keep a card");
    let redacted = s.view(Some(1));
    assert!(redacted.log.iter().all(|e| !e.text.contains("red-knife-2")));
}

#[test]
fn a_card_shown_only_in_the_middle_of_an_action_is_not_named() {
    let (_dir, game) = inline_game("keep", MANIFEST, RULES);
    let game = game.unwrap();
    let mut s = game.start(&Setup::default()).unwrap();
    game.apply(&mut s, 0, "flash").unwrap();
    assert!(s.log[1].text.starts_with("p1 flashes "), "{:?}", s.log);
    for seat in [Some(0), Some(1), None] {
        assert_eq!(log_of(&s, seat)[1], "p1 flashes a card");
    }
}

#[test]
fn marks_survive_the_json_round_trip_of_a_state() {
    let (_dir, game) = inline_game("keep", MANIFEST, RULES);
    let game = game.unwrap();
    let mut s = game.start(&Setup::default()).unwrap();
    game.apply(&mut s, 0, "keep green-bandages-7").unwrap();
    let back: State = serde_json::from_value(s.to_json()).unwrap();
    assert_eq!(log_of(&back, Some(1))[0], "p1: keep a card");
}

/// Plays `games` random games of `id`, checking after every action that every seat's new log
/// lines name only cards that seat saw before the action or sees after it
/// (`check_log_names`). Returns how many names were checked, so that a game whose log names
/// no card is noticed.
fn walk(id: &str, seats: usize, games: u64) -> usize {
    let game: Game = load(id);
    let mut checked = 0;
    for g in 0..games {
        let setup = Setup {
            seed: 1000 + g,
            seats: Some(seats),
            ..Setup::default()
        };
        let mut state = game.start(&setup).unwrap();
        let mut bot = rng::seeded(g);
        for step in 0..3000 {
            let d = game.decisions(&state).unwrap();
            let Some((seat, action)) = random::choose(&d, &mut bot) else {
                break;
            };
            let before = state.clone();
            game.apply(&mut state, seat, &action)
                .unwrap_or_else(|e| panic!("{id} game {g} step {step}: {e}"));
            checked += check_log_names(&before, &state)
                .unwrap_or_else(|e| panic!("{id} game {g} step {step} ({action}): {e}"));
        }
    }
    checked
}

#[test]
fn nemesis_logs_name_no_card_a_seat_cannot_see() {
    let checked = walk("nemesis", 4, 6);
    assert!(checked > 100, "only {checked} card names checked");
}

#[test]
fn card_game_logs_name_no_card_a_seat_cannot_see() {
    for (id, seats) in [
        ("virus-war-fr", 4),
        ("virus-war-kr", 4),
        ("cosmic-disaster", 3),
    ] {
        walk(id, seats, 6);
    }
}
