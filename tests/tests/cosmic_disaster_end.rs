//! Cosmic Disaster's end checks (the rules reference's §5, "End checks"): a rescue
//! that takes the last token on the board ends the game at once (E2, scenario (c)), before
//! the empty-hand reward (G17) and the draw, in the base game and in every variant.

use boardscript_tests::Table;

/// Every way to play the game: the base and its variants (each must end the same way).
const IDS: [&str; 5] = [
    "cosmic-disaster",
    "cosmic-disaster/blame",
    "cosmic-disaster/chosen-proliferation",
    "cosmic-disaster/paid-movement",
    "cosmic-disaster/special-cards",
];

/// p1 on star 7 holding only a 7; p2 ahead by one token; `tokens` says what the stars hold.
fn rescue_position(tokens: &str) -> String {
    format!(
        "tokens {tokens}\npawn p1 7\npawn p2 3\nhand p1 7\nhand p2 4 5\nscore p2 1\nturn p1\nstep rescue\n"
    )
}

fn seat_counter(t: &Table, seat: &str, name: &str) -> i64 {
    let i = t.state().seat_index(seat).unwrap();
    t.state().seat_counters[i].get(name).copied().unwrap_or(0)
}

fn hand_len(t: &Table, seat: &str) -> usize {
    let i = t.state().seat_index(seat).unwrap();
    let hand = t
        .state()
        .zones
        .iter()
        .find(|z| z.name == "hand" && z.owner == Some(i));
    hand.unwrap().cards.len()
}

fn start(id: &str, tokens: &str) -> Table {
    Table::new(id)
        .seed(1)
        .seats(2)
        .option("owner", "p2")
        .position(&rescue_position(tokens))
        .start()
}

/// §5 E2, end check (c): p1 empties the board and its hand with `rescue 7`. The game ends at
/// once on 1 against 1, before the reward for the empty hand, so the owner (p2) wins the tie.
#[test]
fn cd_end_c_last_token_rescued_ends_before_the_reward() {
    for id in IDS {
        let mut t = start(id, "7:1");
        t.play("p1", "rescue 7");
        assert!(t.is_over(), "{id}: the board is empty");
        assert_eq!(
            (
                seat_counter(&t, "p1", "score"),
                seat_counter(&t, "p2", "score")
            ),
            (1, 1),
            "{id}: no reward after extinction"
        );
        assert_eq!(hand_len(&t, "p1"), 0, "{id}: no draw after extinction");
        assert_eq!(t.winners(), ["p2"], "{id}: the tie goes to the owner");
        let outcome = t.m.game.outcome(t.state()).unwrap();
        assert_eq!(outcome.reason, "no Earthling is left on any star", "{id}");
    }
}

/// The same rescue with a token left elsewhere: the game goes on and the empty hand earns its
/// token (G17), so the check above is about the empty board and nothing else.
#[test]
fn cd_end_c_a_token_left_elsewhere_keeps_the_reward() {
    for id in IDS {
        let mut t = start(id, "7:1 3:1");
        t.play("p1", "rescue 7");
        assert!(!t.is_over(), "{id}: star 3 still holds a token");
        assert_eq!(
            (
                seat_counter(&t, "p1", "score"),
                seat_counter(&t, "p2", "score")
            ),
            (2, 1),
            "{id}: the empty hand is rewarded"
        );
    }
}
