//! Virus War (Korean rule sheet): every scenario check of shared/rules/virus-war-kr.md (KR-1 to
//! KR-12) from positions, random playouts with invariants (4 seats, and special situation 2),
//! hidden information in every view, bad input, determinism and save/load mid-game, in the
//! middle of a simultaneous choice too.

use boardscript_interpreter::primitives::zone::CardId;
use boardscript_interpreter::{Match, PlayError, SaveFile, Setup, State};
use boardscript_tests::{load, PlayoutStats, Playouts, Step, Table};

const ID: &str = "virus-war-kr";
const SEATS: [&str; 4] = ["p1", "p2", "p3", "p4"];

fn seat_index(state: &State, seat: &str) -> usize {
    state.seat_index(seat).unwrap()
}

fn count(state: &State, name: &str, owner: Option<usize>) -> usize {
    state.zones[state.zone_index(name, owner).unwrap()]
        .cards
        .len()
}

/// Card names in a zone as `state` shows them (`?` for a hidden card), sorted.
fn zone(state: &State, name: &str, owner: Option<&str>) -> Vec<String> {
    let owner = owner.map(|s| seat_index(state, s));
    let z = state
        .zone_index(name, owner)
        .unwrap_or_else(|| panic!("no zone {name}"));
    let mut v: Vec<String> = state.zones[z]
        .cards
        .iter()
        .map(|c| {
            if *c == CardId::HIDDEN {
                "?".to_string()
            } else {
                state.cards[c.0 as usize].name.clone()
            }
        })
        .collect();
    v.sort();
    v
}

fn len(state: &State, name: &str, owner: Option<&str>) -> usize {
    zone(state, name, owner).len()
}

fn health(state: &State, seat: &str) -> i64 {
    state.seat_counters[seat_index(state, seat)]
        .get("health")
        .copied()
        .unwrap_or(0)
}

fn healths(t: &Table) -> Vec<i64> {
    SEATS.iter().map(|s| health(t.state(), s)).collect()
}

/// The damage the script's §5 rules give the pair `a`, `b` in the table's current round.
fn damage(t: &Table, a: &str, b: &str) -> i64 {
    t.eval(&format!(r#"pair_damage(g, "{a}", "{b}")"#))
        .parse()
        .unwrap()
}

fn words(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

fn log_text(state: &State) -> String {
    state
        .log
        .iter()
        .map(|e| e.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every deciding seat plays its first legal action (sorted), until `stop` holds.
fn play_first_until(t: &mut Table, stop: impl Fn(&Table) -> bool) {
    while !t.is_over() && !stop(t) {
        let seat = t.deciding()[0].clone();
        let action = t.legal(&seat)[0].clone();
        t.play(&seat, &action);
    }
}

/// KR-1 §4.1, §4.2 (G1): 29 cards, 2 set aside, 6 each, 3 face up; then 8 in pairs, 7 face
/// up, 12 discarded, 2 aside. 3 living: 8 each. Options reveal-all and specials=none.
#[test]
fn kr_1_deal_arithmetic() {
    let mut t = Table::new(ID).seed(1).start();
    let s = t.state();
    assert_eq!(s.cards.len(), 29 + 20, "29 cards and 20 tokens");
    for seat in SEATS {
        assert_eq!(len(s, "hand", Some(seat)), 6);
    }
    assert_eq!((len(s, "aside", None), len(s, "open", None)), (2, 3));
    assert_eq!(len(s, "deck", None), 0);
    assert_eq!(t.deciding(), SEATS);
    for seat in SEATS {
        let first = t.legal(seat)[0].clone();
        t.play(seat, &first);
    }
    // §4.2.2 Then every seat at once lays one discard beside the open cards.
    assert_eq!(t.deciding(), SEATS);
    assert_eq!(len(t.state(), "hand", Some("p1")), 4);
    for seat in SEATS {
        let first = t.legal(seat)[0].clone();
        assert!(first.starts_with("show "), "{first}");
        t.play(seat, &first);
    }
    let s = t.state();
    let pairs: usize = SEATS.iter().map(|p| len(s, "pair", Some(p))).sum();
    let discards: usize = SEATS.iter().map(|p| len(s, "discard", Some(p))).sum();
    assert_eq!(pairs, 8);
    assert_eq!(len(s, "open", None), 7, "3 leftovers + 4 reveals");
    assert_eq!(discards, 12);
    assert_eq!(len(s, "aside", None), 2);

    // A later round with 3 living players.
    let t = Table::new(ID).position("round 2\nhealth p1 0").start();
    let s = t.state();
    for seat in ["p2", "p3", "p4"] {
        assert_eq!(len(s, "hand", Some(seat)), 8);
    }
    assert_eq!(len(s, "hand", Some("p1")), 0);
    assert_eq!((len(s, "aside", None), len(s, "open", None)), (2, 3));
    assert_eq!(t.deciding(), ["p2", "p3", "p4"]);

    let t = Table::new(ID).option("deal", "reveal-all").start();
    let s = t.state();
    for seat in SEATS {
        assert_eq!(len(s, "hand", Some(seat)), 6);
    }
    assert_eq!((len(s, "aside", None), len(s, "open", None)), (0, 5));

    // G1: without specials the text's arithmetic holds exactly.
    let t = Table::new(ID).option("specials", "none").start();
    let s = t.state();
    assert_eq!(s.cards.len(), 27 + 20);
    assert_eq!(len(s, "hand", Some("p1")), 6);
    assert_eq!((len(s, "aside", None), len(s, "open", None)), (0, 3));
}

const CHAIN: &str = "
first p1
pair p1 i iii
pair p2 ii iv
pair p3 iii v
pair p4 iv vi
";

/// KR-2 §4.5, §4.6: two chains of 3 exchanges; in the second the namer does not see what it
/// gets. P4 knows 1 of its cards, P1 1, P3 1, P2 both.
#[test]
fn kr_2_exchange_chains() {
    let mut t = Table::new(ID).position(CHAIN).start();
    assert_eq!(t.deciding(), ["p1"]);
    assert_eq!(t.legal("p1"), ["name p2", "name p3", "name p4"]);
    t.play("p1", "name p3");
    assert_eq!(t.deciding(), ["p1", "p3"]);
    assert_eq!(t.legal("p1"), ["give i", "give iii"]);
    t.play("p1", "give i").play("p3", "give v");
    assert_eq!(zone(t.state(), "pair", Some("p1")), ["iii", "v"]);
    assert_eq!(zone(t.state(), "pair", Some("p3")), ["i", "iii"]);
    assert_eq!(
        t.legal("p3"),
        ["name p2", "name p4"],
        "P1 may not be named again"
    );
    t.play("p3", "name p2");
    t.play("p3", "give iii").play("p2", "give ii");
    assert_eq!(t.legal("p2"), ["name p4"]);
    t.play("p2", "name p4");
    t.play("p2", "give iv").play("p4", "give vi");
    // Phase 2 starts with the last named seat, which may name anyone.
    assert_eq!(t.deciding(), ["p4"]);
    assert_eq!(t.legal("p4"), ["name p1", "name p2", "name p3"]);
    t.play("p4", "name p1");
    t.play("p4", "give iv").play("p1", "give v");
    let p4 = t.state().view(Some(3));
    assert_eq!(zone(&p4, "pair", Some("p4")), ["iv"]);
    assert_eq!(
        zone(&p4, "unseen", Some("p4")),
        ["?"],
        "P4 does not see its new card"
    );
    assert_eq!(zone(t.state(), "unseen", Some("p4")), ["v"]);
    assert_eq!(
        zone(&t.state().view(Some(0)), "pair", Some("p1")),
        ["iii", "iv"]
    );
    assert_eq!(t.legal("p1"), ["name p2", "name p3"]);
    t.play("p1", "name p3");
    t.play("p1", "give iii").play("p3", "give i");
    let p1 = t.state().view(Some(0));
    assert_eq!(zone(&p1, "pair", Some("p1")), ["iv"]);
    assert_eq!(zone(&p1, "unseen", Some("p1")), ["?"]);
    assert_eq!(zone(&p1, "pair", Some("p3")), ["?", "?"]);
    assert_eq!(t.legal("p3"), ["name p2"]);
    t.play("p3", "name p2");
    t.play("p3", "give iii");
    // Before the last exchange resolves: P3 still knows both cards; P2 knows both.
    let p3 = t.state().view(Some(2));
    assert_eq!(zone(&p3, "pair", Some("p3")), ["ii", "iii"]);
    assert_eq!(
        zone(&t.state().view(Some(1)), "pair", Some("p2")),
        ["iii", "vi"]
    );
    t.play("p2", "give vi");
    // The last exchange: P3 gets vi face down, P2 sees iii. Then the reveal.
    let log = log_text(t.state());
    assert!(
        log.contains("p3 and p2 exchange a card; p3's new card stays face down"),
        "{log}"
    );
    assert!(log.contains("p4 reveals iv v: not infected"), "{log}");
    assert!(log.contains("p1 reveals i iv: not infected"), "{log}");
    assert!(log.contains("p3 reveals ii vi: not infected"), "{log}");
    assert!(
        log.contains("p2 reveals iii iii: infected (same kind iii -2), loses 2"),
        "{log}"
    );
    assert_eq!(healths(&t), [5, 3, 5, 5]);
    assert_eq!(t.eval("g.round()"), "2");
}

/// KR-3 §5: infection and damage on the starting board, in round 1.
#[test]
fn kr_3_infection_and_damage_on_the_starting_board() {
    let t = Table::new(ID)
        .position("pair p1 ii i\npair p2 iv iii\npair p3 vi vi\npair p4 i iii\nreveal")
        .start();
    assert_eq!(healths(&t), [2, 3, 4, 5]);
    let t = Table::new(ID).start();
    assert_eq!(damage(&t, "super-x", "iii"), 2);
    assert_eq!(damage(&t, "super-x", "iv"), 0);
    assert_eq!(damage(&t, "mutant-a", "i"), 3, "mutant-a is ii in round 1");
    assert_eq!(damage(&t, "i", "iii"), 0);
}

const ROUND_2: &str = "
round 2
first p1
pair p1 i v
pair p2 ii vi
pair p3 iii v
pair p4 iv vi
";

/// KR-4 §4.4: the first player swaps ii and iii.
#[test]
fn kr_4_token_swap() {
    let mut t = Table::new(ID).position(ROUND_2).start();
    assert_eq!(t.deciding(), ["p1"]);
    let legal = t.legal("p1");
    assert_eq!(legal.len(), 16, "15 swaps and pass");
    assert!(legal.contains(&"pass".to_string()));
    t.play("p1", "swap iii ii");
    let s = t.state();
    assert_eq!(zone(s, "slot_a", None), ["i", "iii"]);
    assert_eq!(zone(s, "slot_b", None), ["ii", "iv"]);
    assert_eq!(zone(s, "slot_c", None), ["v", "vi"]);
    assert_eq!(zone(s, "slot_d", None), ["x", "x"]);
    assert_eq!(damage(&t, "i", "ii"), 0);
    assert_eq!(damage(&t, "i", "iii"), 3);
    assert_eq!(damage(&t, "ii", "iv"), 2);
    assert_eq!(damage(&t, "iii", "iii"), 3);
    assert_eq!(t.deciding(), ["p1"], "then P1 starts the first chain");
    assert_eq!(t.legal("p1"), ["name p2", "name p3", "name p4"]);
}

const NOBODY_INFECTED: &str = "
pair p1 i iii
pair p2 i iv
pair p3 ii v
pair p4 iii vi
reveal
";

/// KR-5 §7: special situation 1 adds a combination rolled with the die, unless it exists.
#[test]
fn kr_5_special_situation_1() {
    let t = Table::new(ID)
        .position(&format!("dice iv i\n{NOBODY_INFECTED}"))
        .start();
    assert_eq!(healths(&t), [5, 5, 5, 5]);
    assert_eq!(zone(t.state(), "added_1", None), ["i", "iv"]);
    assert_eq!(t.eval("g.round()"), "2");
    assert_eq!(damage(&t, "iv", "i"), 2);
    assert_eq!(len(t.state(), "tokens", None), 10);
    for dice in ["ii i", "v v"] {
        let t = Table::new(ID)
            .position(&format!("dice {dice}\n{NOBODY_INFECTED}"))
            .start();
        assert!(zone(t.state(), "added_1", None).is_empty(), "{dice}");
        assert_eq!(len(t.state(), "tokens", None), 12);
    }
    // Again nobody infected after round 2: {ii, vi} costs 3.
    let t = Table::new(ID)
        .position(
            "round 2\nadded 1 i iv\ndice vi ii\npair p1 i iii\npair p2 ii v\npair p3 iii vi\npair p4 iv vi\nreveal",
        )
        .start();
    assert_eq!(healths(&t), [5, 5, 5, 5]);
    assert_eq!(zone(t.state(), "added_2", None), ["ii", "vi"]);
    assert_eq!(t.eval("g.round()"), "3");
    assert_eq!(damage(&t, "vi", "ii"), 3);
    assert_eq!(damage(&t, "i", "iv"), 2);
}

/// KR-6 §8.2: special situation 2 played through, and the final tie-break on the pairs.
#[test]
fn kr_6_special_situation_2_and_the_final_tie_break() {
    let mut t = Table::new(ID)
        .position(
            "round 3\nhealth p1 0 p2 2 p3 0 p4 4\nhand p2 i ii ii iii iii iv iv\nhand p4 i ii iii iii iv iv iv",
        )
        .start();
    let s = t.state();
    assert_eq!(len(s, "hand", Some("p2")), 7);
    assert_eq!(len(s, "hand", Some("p4")), 7);
    assert_eq!((len(s, "open", None), len(s, "aside", None)), (0, 0));
    assert_eq!(
        len(s, "box", None),
        6 + 7 + 2,
        "kinds v, vi and both specials"
    );
    assert_eq!(t.deciding(), ["p2", "p4"]);
    t.play("p2", "keep ii iii").play("p4", "keep iv iv");
    assert_eq!(
        len(t.state(), "discard", Some("p2")),
        5,
        "G16: no discard is revealed"
    );
    assert_eq!(t.deciding(), ["p2"], "P2 has the lowest health");
    t.play("p2", "pass");
    assert_eq!(t.legal("p2"), ["name p4"]);
    t.play("p2", "name p4");
    t.play("p2", "give iii").play("p4", "give iv");
    assert_eq!(
        zone(&t.state().view(Some(1)), "pair", Some("p2")),
        ["ii", "iv"]
    );
    assert_eq!(
        zone(&t.state().view(Some(3)), "pair", Some("p4")),
        ["iii", "iv"]
    );
    assert_eq!(t.legal("p4"), ["name p2"]);
    t.play("p4", "name p2");
    t.play("p4", "give iv").play("p2", "give iv");
    assert!(t.is_over());
    assert_eq!(healths(&t), [0, 2, 0, 2]);
    assert_eq!(zone(t.state(), "shown", Some("p2")), ["ii", "iv"]);
    assert_eq!(zone(t.state(), "shown", Some("p4")), ["iii", "iv"]);
    assert_eq!(t.winners(), ["p4"], "iii is less dangerous than ii");

    // With A = {i, v} after round 2 the deck is 2 + 6 + 4 + 5 = 17 cards.
    let t = Table::new(ID)
        .position("round 3\nhealth p1 0 p2 2 p3 0 p4 4\nslot a i v\nslot c ii vi")
        .start();
    let s = t.state();
    assert_eq!(len(s, "hand", Some("p2")), 8);
    assert_eq!(len(s, "hand", Some("p4")), 8);
    assert_eq!(len(s, "open", None), 1);
}

/// KR-7 §4.3 (G11), §4.7 (G3): a lowest-health tie rolled off; a death at 0, not below;
/// round 3 with three players.
#[test]
fn kr_7_lowest_health_tie_a_death_three_players_left() {
    let t = Table::new(ID)
        .position(&format!(
            "health p1 2 p2 5 p3 2 p4 4\ndice iv ii\n{}",
            ROUND_2.replace("first p1", "")
        ))
        .start();
    assert_eq!(
        t.deciding(),
        ["p3"],
        "P3 rolled ii, more dangerous than P1's iv"
    );
    assert!(log_text(t.state()).contains("Die roll: p1 iv, p3 ii"));
    assert!(t.legal("p3").contains(&"pass".to_string()));

    let mut t = Table::new(ID)
        .position(
            "round 2\nhealth p1 2 p2 5 p3 2 p4 4\npair p1 i ii\npair p2 iii v\npair p3 v vi\npair p4 ii iv\nreveal",
        )
        .start();
    assert_eq!(healths(&t), [0, 5, 1, 4]);
    assert_eq!(t.eval(r#"g.is_eliminated("p1")"#), "true");
    assert_eq!(t.eval("g.round()"), "3");
    let s = t.state();
    assert_eq!(len(s, "hand", Some("p1")), 0);
    for seat in ["p2", "p3", "p4"] {
        assert_eq!(len(s, "hand", Some(seat)), 8);
    }
    assert_eq!((len(s, "aside", None), len(s, "open", None)), (2, 3));
    assert_eq!(t.deciding(), ["p2", "p3", "p4"]);
    play_first_until(&mut t, |t| {
        !["\"choose\"", "\"show\""].contains(&t.eval("g.phase()").as_str())
    });
    assert_eq!(t.deciding(), ["p3"], "P3 has the lowest health");
    assert!(t.legal("p3").contains(&"pass".to_string()));
}

/// KR-8 §5 (G14), §7.4: an additional combination stays put when the base board changes.
#[test]
fn kr_8_additional_combination_meets_a_swap() {
    for (multi, both) in [("max", 3), ("sum", 5)] {
        let mut t = Table::new(ID)
            .option("multi_match", multi)
            .position(&format!("added 1 i iv\n{ROUND_2}"))
            .start();
        t.play("p1", "swap ii iv");
        let s = t.state();
        assert_eq!(zone(s, "slot_a", None), ["i", "iv"]);
        assert_eq!(zone(s, "slot_b", None), ["ii", "iii"]);
        assert_eq!(zone(s, "added_1", None), ["i", "iv"]);
        assert_eq!(damage(&t, "iv", "i"), both);
        assert_eq!(damage(&t, "i", "ii"), 0);
        assert_eq!(damage(&t, "ii", "iii"), 2);
        assert_eq!(damage(&t, "iv", "iv"), 3);
        assert_eq!(damage(&t, "ii", "ii"), 2);
    }
}

/// KR-9 §2.5, §5: Mutants change kind each round; a Super infects with the kinds on it.
#[test]
fn kr_9_special_cards_over_the_rounds() {
    let t = Table::new(ID).position("round 2").start();
    assert_eq!(damage(&t, "mutant-a", "iii"), 2);
    assert_eq!(damage(&t, "mutant-a", "iv"), 2);
    assert_eq!(damage(&t, "super-x", "mutant-a"), 0);
    let t = Table::new(ID).position("round 3").start();
    assert_eq!(damage(&t, "super-x", "mutant-a"), 0);
    assert_eq!(damage(&t, "mutant-a", "v"), 1);
    assert_eq!(damage(&t, "super-x", "v"), 1);
    assert_eq!(damage(&t, "super-x", "i"), 3);
    assert_eq!(damage(&t, "super-x", "ii"), 0);
    let t = Table::new(ID)
        .option("specials", "mutant-b,super-y")
        .position("round 3")
        .start();
    assert_eq!(damage(&t, "mutant-b", "ii"), 3);
    assert_eq!(damage(&t, "super-y", "ii"), 3);
    // Played for real: a revealed Super pair in round 1 costs its kind's slot damage.
    let t = Table::new(ID)
        .position("pair p1 super-x iii\npair p2 mutant-a i\npair p3 v v\npair p4 ii vi\nreveal")
        .start();
    assert_eq!(healths(&t), [3, 2, 4, 5]);
}

/// KR-10 §9.2 (G17, G20): health ties after round 3 go to the less dangerous pair.
#[test]
fn kr_10_round_3_tie_breaks() {
    let cases = [
        ("i vi", "ii v", "", "", "p3"),
        ("i vi", "i v", "", "", "p1"),
        ("i vi", "super-x vi", "", "", "p1"),
        ("iii v", "v iii", "dice iii v", "", "p3"),
        ("i vi", "ii iii", "", "", "p3"),
        ("i vi", "ii iii", "", "sum", "p1"),
    ];
    for (p1, p3, dice, tiebreak, winner) in cases {
        let mut b = Table::new(ID).position(&format!(
            "round 3\nhealth p1 2 p2 1 p3 2 p4 0\n{dice}\npair p1 {p1}\npair p2 iii vi\npair p3 {p3}\nreveal"
        ));
        if !tiebreak.is_empty() {
            b = b.option("tiebreak", tiebreak);
        }
        let t = b.start();
        assert!(t.is_over());
        assert_eq!(healths(&t), [2, 1, 2, 0], "{p1} / {p3}");
        assert_eq!(t.winners(), [winner], "{p1} / {p3} {tiebreak}");
        if !dice.is_empty() {
            assert!(log_text(t.state()).contains("Die roll: p1 iii, p3 v"));
        }
    }
}

/// KR-11 §8.1 (G18, G22): one survivor wins at once; if everyone dies, the tie-break.
#[test]
fn kr_11_early_end_and_everyone_dead() {
    let t = Table::new(ID)
        .position(
            "round 2\nhealth p1 1 p2 1 p3 1 p4 5\npair p1 i ii\npair p2 iii iv\npair p3 v vi\npair p4 i iii\nreveal",
        )
        .start();
    assert!(t.is_over());
    assert_eq!(t.winners(), ["p4"]);
    assert_eq!(t.eval("g.round()"), "2", "round 3 is not played");

    let t = Table::new(ID)
        .position(
            "round 3\nhealth p1 0 p2 2 p3 0 p4 2\ndice iii v\npair p2 i ii\npair p4 ii i\nreveal",
        )
        .start();
    assert!(t.is_over());
    assert_eq!(healths(&t), [0, 0, 0, 0]);
    assert_eq!(t.winners(), ["p4"]);
    assert!(log_text(t.state()).contains("Die roll: p2 iii, p4 v"));
}

/// KR-12 §4.5, §4.6: a three-player chain, 2 exchanges a phase.
#[test]
fn kr_12_a_three_player_chain() {
    let mut t = Table::new(ID)
        .position(
            "round 3\nhealth p1 0 p2 5 p3 1 p4 4\npair p2 ii v\npair p3 iii vi\npair p4 iv vi",
        )
        .start();
    assert_eq!(t.deciding(), ["p3"]);
    t.play("p3", "pass");
    assert_eq!(t.legal("p3"), ["name p2", "name p4"]);
    t.play("p3", "name p4");
    t.play("p3", "give iii").play("p4", "give iv");
    assert_eq!(t.legal("p4"), ["name p2"]);
    t.play("p4", "name p2");
    t.play("p4", "give iii").play("p2", "give v");
    assert_eq!(t.deciding(), ["p2"]);
    assert_eq!(t.legal("p2"), ["name p3", "name p4"]);
    t.play("p2", "name p3");
    t.play("p2", "give ii").play("p3", "give iv");
    assert_eq!(zone(&t.state().view(Some(1)), "unseen", Some("p2")), ["?"]);
    assert_eq!(zone(&t.state().view(Some(1)), "pair", Some("p2")), ["iii"]);
    assert_eq!(t.legal("p3"), ["name p4"]);
    t.play("p3", "name p4");
    t.play("p3", "give ii").play("p4", "give vi");
    assert!(t.is_over());
    let log = log_text(t.state());
    assert!(log.contains("p3 and p4 exchange a card; p3's new card stays face down"));
    assert_eq!(zone(t.state(), "shown", Some("p2")), ["iii", "iv"]);
    assert_eq!(zone(t.state(), "shown", Some("p3")), ["vi", "vi"]);
    assert_eq!(zone(t.state(), "shown", Some("p4")), ["ii", "v"]);
}

/// Invariants after every action: every card in exactly one zone, card and token counts
/// unchanged, health never rises nor goes below 0, dead seats never decide again, at most 2
/// cards in a pair.
fn invariant(step: &Step) -> Result<(), String> {
    let (game, before, after) = (step.game, step.before, step.after);
    if after.cards.len() != before.cards.len() {
        return Err("the card count changed".into());
    }
    let placed: usize = after.zones.iter().map(|z| z.cards.len()).sum();
    if placed != after.cards.len() {
        return Err(format!(
            "{placed} cards in zones, {} exist",
            after.cards.len()
        ));
    }
    let base: usize = ["slot_a", "slot_b", "slot_c", "slot_d"]
        .iter()
        .map(|z| count(after, z, None))
        .sum();
    if base != 8 {
        return Err(format!("{base} tokens on the base board"));
    }
    let deciding = game.to_decide(after).map_err(|e| e.to_string())?;
    for (i, seat) in after.seats.iter().enumerate() {
        let (hb, ha) = (health(before, seat), health(after, seat));
        if ha > hb || ha < 0 {
            return Err(format!("{seat}: health {hb} -> {ha}"));
        }
        if before.turn.eliminated[i] && deciding.contains(&i) {
            return Err(format!("dead {seat} decides"));
        }
        if ha == 0 && !after.turn.eliminated[i] {
            return Err(format!("{seat} at 0 is not dead"));
        }
        let held = count(after, "pair", Some(i)) + count(after, "unseen", Some(i));
        if held > 2 {
            return Err(format!("{seat} holds {held} cards in its pair"));
        }
    }
    Ok(())
}

/// Plays the games `p` describes, checked after every action by `invariant`: every game
/// ends, with one winner.
fn playouts(p: Playouts) -> PlayoutStats {
    let stats = p.check(&invariant).run();
    stats.assert_all_end().assert_winners_each(1);
    stats
}

/// 1,000 seeded random games of the 4-seat game, each within 3 rounds of at most 27
/// actions; every seat wins some.
#[test]
fn random_playouts_4_seats() {
    let p = Playouts::new(ID).seed(2024).games(1000).deep_every(53);
    playouts(p.max_length(3 * 27)).assert_every_seat_wins();
}

/// 1,000 seeded random games of special situation 2 (round 3, two players alive): only the
/// living win, each some games, within the round's 9 actions.
#[test]
fn random_playouts_special_situation_2() {
    let p = Playouts::new(ID)
        .seed(77)
        .position(SS2)
        .games(1000)
        .deep_every(11)
        .max_length(9);
    let stats = playouts(p);
    assert_eq!(
        stats.wins.keys().collect::<Vec<_>>(),
        ["p2", "p4"],
        "{stats:?}"
    );
}

/// Special situation 2: round 3 with p2 and p4 alive.
const SS2: &str = "round 3\nhealth p1 0 p2 3 p3 0 p4 2";

/// Hidden information: in every seat's view, cards of zones it may not see are hidden and
/// their catalogue entries blank (the card received face down in the second chain
/// included, for its own holder); hidden script data, others' held choices and others'
/// action lines are absent.
#[test]
fn views_hide_other_seats_cards() {
    let game = load(ID);
    let mut blind_checked = 0;
    for seed in 0..40u64 {
        let mut state = game
            .start(&Setup {
                seed,
                ..Setup::default()
            })
            .unwrap();
        let mut bot = boardscript_interpreter::primitives::rng::seeded(seed);
        loop {
            for (i, seat) in SEATS.iter().enumerate() {
                let view = state.view(Some(i));
                let json = serde_json::to_value(&view).unwrap();
                let back: State = serde_json::from_value(json).unwrap();
                for (z, vz) in state.zones.iter().zip(back.zones.iter()) {
                    if z.visible_to(Some(i)) {
                        continue;
                    }
                    assert!(
                        vz.cards.iter().all(|c| *c == CardId::HIDDEN),
                        "{seat} sees into {}",
                        z.name
                    );
                    for c in &z.cards {
                        let seen_elsewhere = state
                            .zones
                            .iter()
                            .any(|o| o.visible_to(Some(i)) && o.cards.contains(c));
                        if !seen_elsewhere {
                            assert_eq!(
                                back.cards[c.0 as usize].name, "?",
                                "{seat} reads a hidden card in {}",
                                z.name
                            );
                        }
                    }
                    if z.name == "unseen" && z.owner == Some(i) && !z.cards.is_empty() {
                        blind_checked += 1;
                    }
                }
                for key in back.vars.keys() {
                    assert!(
                        ![
                            "choices_",
                            "give_",
                            "dice",
                            "revealing",
                            "fixed",
                            "force_first"
                        ]
                        .iter()
                        .any(|k| key.starts_with(k)),
                        "{seat} reads hidden data {key}"
                    );
                }
                assert!(back.pending.iter().all(|(s, c)| *s == i || c.is_empty()));
                for e in back.log.iter() {
                    for other in SEATS.iter().filter(|o| *o != seat) {
                        assert!(
                            !e.text.starts_with(&format!("{other}: ")),
                            "{seat} reads {}",
                            e.text
                        );
                    }
                }
            }
            let d = game.decisions(&state).unwrap();
            let Some((seat, action)) = boardscript_interpreter::bots::random::choose(&d, &mut bot)
            else {
                break;
            };
            game.play(&mut state, &d, seat, &action).unwrap();
        }
    }
    assert!(
        blind_checked > 100,
        "face-down cards checked: {blind_checked}"
    );
}

/// The harness's exhaustive hidden-information check (`check_views`: no hidden card's
/// identity anywhere in any seat's view) after every action, in both modes.
#[test]
fn hidden_information_after_every_action() {
    playouts(Playouts::new(ID).seed(31).games(40).views());
    playouts(Playouts::new(ID).seed(31).position(SS2).games(40).views());
}

/// Bad input is refused with the state unchanged: a seat that is not deciding, a card not in
/// hand or pair, a name out of turn, a seat already exchanged.
#[test]
fn bad_input_is_refused_state_unchanged() {
    let mut t = Table::new(ID).position(CHAIN).start();
    let before = t.state().clone();
    let e = t.try_play("p2", "name p3").unwrap_err();
    assert!(matches!(e, PlayError::NotDeciding { .. }), "{e}");
    let e = t.try_play("p1", "name p1").unwrap_err();
    assert!(matches!(e, PlayError::Illegal { .. }), "{e}");
    let e = t.try_play("p1", "give i").unwrap_err();
    assert!(matches!(e, PlayError::Illegal { .. }), "{e}");
    assert_eq!(t.state(), &before);
    t.play("p1", "name p3");
    let before = t.state().clone();
    let e = t.try_play("p1", "give vi").unwrap_err();
    assert!(
        matches!(e, PlayError::Illegal { .. }),
        "p1 holds no vi: {e}"
    );
    let e = t.try_play("p2", "give ii").unwrap_err();
    assert!(matches!(e, PlayError::NotDeciding { .. }), "{e}");
    assert_eq!(t.state(), &before);
    t.play("p1", "give i").play("p3", "give v");
    let err = t.refusal("p3", "name p1");
    assert!(
        err.starts_with("`name p1` is not a legal action for p3"),
        "p1 has exchanged: {err}"
    );

    // The choice of a pair: cards must be in the hand.
    let mut t = Table::new(ID).position("hand p1 i ii ii iii iv v").start();
    let before = t.state().clone();
    for bad in [
        "keep vi v",
        "keep i i",
        "keep i vi",
        "keep i ii iii",
        "show i",
        "give i",
    ] {
        let e = t.try_play("p1", bad).unwrap_err();
        assert!(matches!(e, PlayError::Illegal { .. }), "{bad}: {e}");
    }
    assert_eq!(t.state(), &before);
    // Any order is accepted and written canonically.
    t.play("p1", "keep ii i");
    assert_eq!(t.m.actions()[0].action, "keep i ii");
    let before = t.state().clone();
    let e = t.try_play("p1", "keep i ii").unwrap_err();
    assert!(
        matches!(e, PlayError::NotDeciding { .. }),
        "a held choice: {e}"
    );
    assert_eq!(t.state(), &before);
    for seat in ["p2", "p3", "p4"] {
        let first = t.legal(seat)[0].clone();
        t.play(seat, &first);
    }
    assert_eq!(t.legal("p1"), ["show ii", "show iii", "show iv", "show v"]);
    let before = t.state().clone();
    for bad in ["show i", "show vi", "keep ii iii"] {
        let e = t.try_play("p1", bad).unwrap_err();
        assert!(matches!(e, PlayError::Illegal { .. }), "{bad}: {e}");
    }
    assert_eq!(t.state(), &before);
}

fn random_match(seed: u64, actions: usize, bot_seed: u64, stop: impl Fn(&Match) -> bool) -> Match {
    let mut m = Match::new(
        load(ID),
        Setup {
            seed,
            ..Setup::default()
        },
    )
    .unwrap();
    boardscript_tests::play_random(&mut m, actions, bot_seed, stop);
    m
}

/// Same seed and actions give byte-identical states and saves.
#[test]
fn determinism_same_actions_same_bytes() {
    let a = random_match(42, 200, 9, |_| false);
    assert!(a.game.is_over(&a.state).unwrap());
    let mut b = Match::new(
        load(ID),
        Setup {
            seed: 42,
            ..Setup::default()
        },
    )
    .unwrap();
    for p in a.actions().to_vec() {
        b.play(Some(&p.seat), &p.action).unwrap();
    }
    assert_eq!(
        serde_json::to_string(&a.state).unwrap(),
        serde_json::to_string(&b.state).unwrap()
    );
    assert_eq!(a.save_json(), b.save_json());
}

/// Save and load mid-game, in the middle of a simultaneous choice of pairs and of an
/// exchange, give the same state, and the game finishes the same.
#[test]
fn save_load_mid_game_and_mid_simultaneous_choice() {
    type Stop = Box<dyn Fn(&Match) -> bool>;
    let stops: [(&str, Stop); 3] = [
        ("mid-game", Box::new(|m: &Match| m.actions().len() >= 31)),
        (
            "choosing pairs, 2 held",
            Box::new(|m: &Match| m.state.pending.len() == 2 && m.state.phase == "choose"),
        ),
        (
            "exchange, 1 held",
            Box::new(|m: &Match| {
                m.state.pending.len() == 1 && m.state.phase == "give" && m.actions().len() > 30
            }),
        ),
    ];
    for (what, stop) in stops {
        let mut a = random_match(5, 500, 3, stop);
        assert!(
            !a.game.is_over(&a.state).unwrap(),
            "{what}: stopped before the end"
        );
        let text = a.save_json();
        let mut b = Match::new(load(ID), Setup::default()).unwrap();
        b.load(&SaveFile::parse(&text, ID).unwrap()).unwrap();
        assert_eq!(a.state, b.state, "{what}");
        assert_eq!(a.actions(), b.actions());
        // Held choices stay secret: each seat's view keeps only its own.
        for (seat, _) in a.state.pending.iter() {
            let other = (seat + 1) % 4;
            assert_eq!(
                b.state
                    .view(Some(other))
                    .pending
                    .get(seat)
                    .map(String::as_str),
                Some(""),
                "{what}: that the seat chose is public, not what"
            );
        }
        // Both finish with the same actions to the same end.
        let mut bot = boardscript_interpreter::primitives::rng::seeded(17);
        while let Some((seat, action)) = boardscript_interpreter::bots::random::choose(
            &a.game.decisions(&a.state).unwrap(),
            &mut bot,
        ) {
            let name = a.state.seat_name(seat).to_string();
            a.play(Some(&name), &action).unwrap();
            b.play(Some(&name), &action).unwrap();
        }
        assert_eq!(a.state, b.state, "{what}: finished");
        assert_eq!(a.game.winners(&a.state).unwrap().len(), 1);
    }
}

/// The view text names the seat's own cards, hides the others' and marks the face-down card.
#[test]
fn render_shows_own_cards_only() {
    let mut t = Table::new(ID).position(CHAIN).start();
    for (s, a) in [
        ("p1", "name p3"),
        ("p1", "give i"),
        ("p3", "give v"),
        ("p3", "name p2"),
        ("p3", "give iii"),
        ("p2", "give ii"),
        ("p2", "name p4"),
        ("p2", "give iv"),
        ("p4", "give vi"),
        ("p4", "name p1"),
        ("p4", "give iv"),
        ("p1", "give v"),
    ] {
        t.play(s, a);
    }
    let text = t.m.game.render(t.state(), Some(3)).unwrap();
    assert!(
        text.contains("p4 (you): pair iv + 1 face down, not looked at"),
        "{text}"
    );
    assert!(text.contains("p1: pair 2 face down"), "{text}");
    assert!(
        text.contains("exchange phase 2: p1 names a player"),
        "{text}"
    );
    let words_p1 = words(&t.legal("p1").join(" "));
    assert_eq!(words_p1, words("name p2 name p3"));
}

/// §10 Options: every option plays out, including low health (deaths in rounds 1 and 2, 2
/// players in round 2, special situation 2 reached in play), X swaps and all four specials.
#[test]
fn random_playouts_with_options() {
    let sets: [&[(&str, &str)]; 9] = [
        &[("health", "1")],
        &[("health", "2")],
        &[
            ("health", "3"),
            ("ss2_trigger", "round2-two-deaths"),
            ("ss2_swap", "false"),
        ],
        &[
            ("health", "2"),
            ("ss2_trigger", "never"),
            ("tiebreak", "sum"),
        ],
        &[("swap_x", "true"), ("health", "3")],
        &[("specials", "mutant-a,mutant-b,super-x,super-y")],
        &[("specials", "none"), ("deal", "reveal-all")],
        &[("same_kind_damage", "2"), ("multi_match", "sum")],
        &[
            ("deal", "reveal-all"),
            ("health", "2"),
            ("specials", "mutant-b,super-y"),
        ],
    ];
    for (i, opts) in sets.iter().enumerate() {
        let p = Playouts::new(ID).seed(100 + i as u64).options(opts);
        playouts(p.games(20).deep_every(29));
    }
}

/// G12, option swap_x: an X token may be swapped; in a base slot it reads any card, and a
/// kind whose token sits on slot D carries damage 1.
#[test]
fn swap_x_option_moves_an_x_token() {
    let mut t = Table::new(ID)
        .option("swap_x", "true")
        .position(ROUND_2)
        .start();
    let legal = t.legal("p1");
    assert_eq!(
        legal.len(),
        1 + 15 + 6,
        "pass, 15 kind swaps, 6 with the X of slot D"
    );
    t.play("p1", "swap x-d i");
    assert_eq!(zone(t.state(), "slot_a", None), ["ii", "x"]);
    assert_eq!(zone(t.state(), "slot_d", None), ["i", "x"]);
    assert_eq!(damage(&t, "ii", "vi"), 3);
    assert_eq!(
        damage(&t, "ii", "super-x"),
        0,
        "i10 item 8: an X fits no Super"
    );
    assert_eq!(damage(&t, "i", "i"), 1);
    assert_eq!(damage(&t, "iii", "v"), 0);
}

/// Bad options are refused when the game starts.
#[test]
fn bad_options_are_refused() {
    for (k, v) in [
        ("specials", "mutant-c"),
        ("specials", "super-x,super-x"),
        ("same_kind_damage", "big"),
    ] {
        let game = load(ID);
        let e = game
            .start(&Setup {
                options: [(k.to_string(), v.to_string())].into(),
                ..Setup::default()
            })
            .err()
            .unwrap_or_else(|| panic!("{k}={v} accepted"));
        assert!(e.to_string().contains(k), "{e}");
    }
}

/// i10 item 8, §5, §10 (G12): with swap_x an X reads "any kind", and a Super has no kind of
/// its own, so an X never makes a Super's pair a match; option `x_fits_super` keeps the
/// older reading, in which an X fits any card.
#[test]
fn i10_an_x_token_fits_no_super() {
    for (x_fits_super, with_x) in [("false", 0), ("true", 3)] {
        let mut t = Table::new(ID)
            .option("swap_x", "true")
            .option("x_fits_super", x_fits_super)
            .option("specials", "super-x,super-y")
            .position(ROUND_2)
            .start();
        t.play("p1", "swap x-d i");
        assert_eq!(zone(t.state(), "slot_a", None), ["ii", "x"]);
        // Slot A reads {ii, any kind}: ii with any kind is infected, a Super is no kind.
        assert_eq!(damage(&t, "ii", "vi"), 3);
        assert_eq!(
            damage(&t, "ii", "super-x"),
            with_x,
            "x_fits_super={x_fits_super}"
        );
        assert_eq!(
            damage(&t, "ii", "super-y"),
            3,
            "super-y lists ii: slot A's damage"
        );
        assert_eq!(damage(&t, "iii", "super-x"), 2, "super-x lists iii");
        // Both X on slot A: any two kinds are infected, a Super with anything by its list only.
        let both = format!("{ROUND_2}slot a x x\nslot d i ii");
        let t = Table::new(ID)
            .option("swap_x", "true")
            .option("x_fits_super", x_fits_super)
            .option("specials", "super-x,super-y")
            .position(&both)
            .start();
        assert_eq!(damage(&t, "iv", "vi"), 3);
        assert_eq!(damage(&t, "super-x", "super-y"), with_x, "two Supers");
        assert_eq!(damage(&t, "super-x", "iv"), with_x, "iv is not on super-x");
        assert_eq!(damage(&t, "super-x", "v"), if with_x > 0 { 3 } else { 1 });
    }
}

/// i10 item 18: once a seat has kept its pair (held, secret), `show` no longer lists it among
/// the seats still to choose; what it kept stays hidden from the others.
#[test]
fn i10_show_drops_a_seat_that_has_chosen() {
    let mut t = Table::new(ID).seed(3).start();
    let keep = t.legal("p1")[0].clone();
    t.play("p1", &keep);
    let shown = t.m.game.render(&t.m.state, Some(1)).unwrap();
    let line = shown
        .lines()
        .find(|l| l.contains("all at once:"))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(!line.contains("p1"), "{line}");
    assert!(line.contains("p2"), "{line}");
    let view = t.m.state.view(Some(1));
    assert_eq!(view.pending.get(&0).map(String::as_str), Some(""));
}
