//! Cosmic Disaster (scripts/cosmic-disaster): the scenario checks CD-1 to CD-12 of
//! shared/rules/cosmic-disaster.md as positions, rescue expressions typed by hand, views,
//! bad input, determinism, save and load, and seeded random playouts with the game's
//! conservation invariants.

use boardscript_interpreter::primitives::zone::CardId;
use boardscript_interpreter::value::Value;
use boardscript_interpreter::{Game, Match, PlayError, Setup, State};
use boardscript_tests::{load, play_random, PlayoutStats, Playouts, Step, Table};

const ID: &str = "cosmic-disaster";

// ---------------------------------------------------------------- Helpers

fn counter(s: &State, name: &str) -> i64 {
    s.counters.get(name).copied().unwrap_or(0)
}

fn star(t: &Table, n: usize) -> i64 {
    counter(t.state(), &format!("star{n}"))
}

fn score(t: &Table, seat: &str) -> i64 {
    let i = t.state().seat_index(seat).unwrap();
    t.state().seat_counters[i]
        .get("score")
        .copied()
        .unwrap_or(0)
}

fn pawn(t: &Table, seat: &str) -> i64 {
    let i = t.state().seat_index(seat).unwrap();
    t.state().seat_counters[i]["star"]
}

fn zone_cards(s: &State, name: &str, owner: Option<usize>) -> Vec<String> {
    let z = s
        .zones
        .iter()
        .find(|z| z.name == name && z.owner == owner)
        .unwrap();
    z.cards
        .iter()
        .map(|c| s.cards[c.0 as usize].name.clone())
        .collect()
}

fn hand(t: &Table, seat: &str) -> Vec<String> {
    let i = t.state().seat_index(seat).unwrap();
    zone_cards(t.state(), "hand", Some(i))
}

fn pile(t: &Table, name: &str) -> usize {
    zone_cards(t.state(), name, None).len()
}

/// The destroyed stars, ascending.
fn destroyed(t: &Table) -> Vec<usize> {
    let ring = t.state().graphs.iter().find(|g| g.name == "ring").unwrap();
    (0..15)
        .filter(|&i| ring.marks[i] == 1)
        .map(|i| i + 1)
        .collect()
}

/// Stars holding tokens, as (star, tokens).
fn occupied(t: &Table) -> Vec<(usize, i64)> {
    (1..=15)
        .map(|n| (n, star(t, n)))
        .filter(|&(_, k)| k > 0)
        .collect()
}

fn table(seats: usize, options: &[(&str, &str)], position: &str) -> Table {
    let mut b = Table::new(ID).seed(5).seats(seats);
    for (k, v) in options {
        b = b.option(k, v);
    }
    b.position(position).start()
}

fn phase(t: &Table) -> String {
    t.state().phase.clone()
}

/// Plays `pass` (or the first flee or odd choice) until the game ends or `stop` holds.
fn pass_until(t: &mut Table, stop: impl Fn(&Table) -> bool) {
    for _ in 0..500 {
        if t.is_over() || stop(t) {
            return;
        }
        let seat = t.deciding()[0].clone();
        let legal = t.legal(&seat);
        let a = if legal.contains(&"pass".to_string()) {
            "pass".to_string()
        } else {
            legal[0].clone()
        };
        t.play(&seat, &a);
    }
    panic!("no end after 500 passes");
}

// ---------------------------------------------------------------- §10 Scenario checks

/// CD-1 §2.2: the deck has 52 cards; after 6 cards to each of 3 seats it holds 34 (the
/// first proliferation and any J dealt only moved cards to the discard pile).
#[test]
fn cd_1_deck_counts() {
    let t = Table::new(ID).seed(1).seats(3).start();
    assert_eq!(pile(&t, "ring"), 15);
    assert_eq!(
        pile(&t, "deck") + pile(&t, "discard") + pile(&t, "shown"),
        34
    );
    for s in ["p1", "p2", "p3"] {
        assert_eq!(hand(&t, s).len(), 6);
    }
    let all: Vec<String> = t.state().cards.iter().map(|c| c.name.clone()).collect();
    assert_eq!(all.len(), 15 + 52);
    assert_eq!(all.iter().filter(|c| *c == "J").count(), 3);
    assert_eq!(all.iter().filter(|c| *c == "8").count(), 8);
    assert_eq!(all.iter().filter(|c| *c == "1").count(), 1);
}

/// CD-1 §2.3: capacities are copies less one and add up to 49.
#[test]
fn cd_1_capacities() {
    let t = Table::new(ID).seed(1).start();
    let caps: Vec<i64> = (1..=15)
        .map(|n| t.eval(&format!("capacity(g, {n})")).parse().unwrap())
        .collect();
    assert_eq!(caps, [0, 1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1, 0]);
    assert_eq!(caps.iter().sum::<i64>(), 49);
}

/// CD-1 §4.2: from Earth a pawn may go to its neighbours and the stars of its colour or
/// shape; a destroyed neighbour is skipped.
#[test]
fn cd_1_movement() {
    let moves = |t: &Table| t.legal("p1");
    let t = table(3, &[], "pawn p1 8\nstep move");
    let want = |l: &[u32]| {
        let mut v: Vec<String> = l.iter().map(|n| format!("move {n}")).collect();
        v.push("pass".into());
        v.sort();
        v
    };
    assert_eq!(moves(&t), want(&[2, 3, 5, 7, 9, 11, 13, 14]));
    let t = table(3, &[], "pawn p1 8\ndestroyed 9\nstep move");
    assert_eq!(moves(&t), want(&[2, 3, 5, 7, 10, 11, 13, 14]));
}

/// CD-2 §4.5: a 5 overflows star 5; 2 die, P2 flees, 2 migrate 3 stars to Earth; then the
/// proliferation goes on.
#[test]
fn cd_2_simple_overflow() {
    let mut t = table(
        3,
        &[],
        "tokens 5:4 8:4\npawn p1 12\npawn p2 5\npawn p3 12\ndeck 5 3 2 13\nturn p1",
    );
    assert_eq!(destroyed(&t), [5]);
    // Step 3 (P2 flees) comes before step 5 (the survivors migrate): P2 is asked at once.
    assert_eq!(occupied(&t), [(8, 4)]);
    assert_eq!(counter(t.state(), "transit"), 2);
    assert_eq!(counter(t.state(), "bag"), 100 - 8 + 2);
    assert_eq!(t.deciding(), ["p2"]);
    assert_eq!(t.legal("p2"), ["flee 4", "flee 6"]);
    t.play("p2", "flee 6");
    assert_eq!(pawn(&t, "p2"), 6);
    assert_eq!(zone_cards(t.state(), "discard", None)[..2], ["3", "5"]);
    // The two remaining reveals: 2 and 13.
    assert_eq!(occupied(&t), [(2, 1), (8, 6), (13, 1)]);
    assert_eq!(t.deciding(), ["p1"]);
    assert_eq!(phase(&t), "move");
}

/// CD-3 §4.5-4.7: a chain through star 4 to the Moon, which takes Earth with it.
#[test]
fn cd_3_chain_through_the_moon_to_earth() {
    let t = table(
        3,
        &[("reveals", "1")],
        "tokens 6:5 4:2 8:5\npawn p1 12\npawn p2 12\npawn p3 12\ndeck 6 13 10 2\nturn p1",
    );
    assert_eq!(destroyed(&t), [4, 6, 8, 15]);
    assert_eq!(occupied(&t), [(10, 3)]);
    assert_eq!(counter(t.state(), "bag"), 100 - 12 + 9);
    assert_eq!(phase(&t), "move");
}

/// CD-4 §4.6: Great Prosperity from the lowest star up; migrants get no extra token.
#[test]
fn cd_4_great_prosperity_order() {
    let mut t = table(
        3,
        &[("reveals", "1")],
        "tokens 3:1 8:7 12:3\npawn p1 2\npawn p2 2\npawn p3 12\ndeck J 2 10\nturn p1",
    );
    assert_eq!(destroyed(&t), [8, 12]);
    // P3 is asked when 12 dies, before its survivors migrate.
    assert_eq!(occupied(&t), [(3, 2), (10, 4)]);
    assert_eq!(counter(t.state(), "bag"), 100 - 11 - 1 + 4);
    assert_eq!(t.legal("p3"), ["flee 11", "flee 13"]);
    t.play("p3", "flee 13");
    assert_eq!(occupied(&t), [(3, 2), (7, 2), (10, 4)]);
    assert_eq!(t.deciding(), ["p1"]);
    assert_eq!(counter(t.state(), "reveals"), 0);
}

/// CD-5 (a) §4.3: rescues by sums and differences; the token, the draw, and step 2 again.
#[test]
fn cd_5a_rescue_arithmetic() {
    let mut t = table(
        3,
        &[],
        "tokens 6:2 8:4\npawn p1 6\nhand p1 2 3 5 9 11 14\ndeck 4\nturn p1\nstep rescue",
    );
    let legal = t.legal("p1");
    for r in ["9-3", "11-5", "5+3-2", "11-3-2", "14-5-3"] {
        assert!(legal.contains(&format!("rescue {r}")), "{r} in {legal:?}");
    }
    assert!(!legal.iter().any(|a| a == "rescue 9"));
    for (bad, value) in [("3-2", 1), ("5-2", 3), ("2+5", 7), ("9", 9)] {
        let err = t.refusal("p1", &format!("rescue {bad}"));
        let why = format!("{bad} makes {value}, not 6");
        assert!(err.contains(&why), "{bad}: {err}");
    }
    t.play("p1", "rescue 9-3");
    assert_eq!(star(&t, 6), 1);
    assert_eq!(score(&t, "p1"), 1);
    let mut h = hand(&t, "p1");
    h.sort();
    assert_eq!(h, ["11", "14", "2", "4", "5"]);
    assert_eq!(phase(&t), "move");
    assert_eq!(counter(t.state(), "reveals"), 0);
}

/// CD-5 (b) §4.3-4.4: emptying the hand earns a reward token; the refill draws 4 cards of
/// which two J, each a Great Prosperity, and the hand ends at 3 cards.
#[test]
fn cd_5b_reward_and_refill_with_j() {
    let mut t = table(
        4,
        &[],
        "tokens 7:1 9:1\npawn p2 7\nhand p2 3 4\ndeck 10 8 J 12 J\nturn p2\nstep rescue\nrescues 2",
    );
    assert_eq!(t.legal("p2"), ["pass", "rescue 4+3"]);
    t.play("p2", "rescue 4+3");
    assert_eq!(score(&t, "p2"), 2);
    assert_eq!(hand(&t, "p2"), ["10"]);
    t.play("p2", "pass");
    // Star 7 is empty now: step 3 has nothing to offer, so the refill follows at once.
    assert_eq!(hand(&t, "p2"), ["10", "8", "12"]);
    assert!(
        star(&t, 9) >= 3,
        "two Great Prosperities (and P3's proliferation)"
    );
    assert_eq!(t.state().turn.current, 2);
    assert_eq!(counter(t.state(), "h0"), 5);
}

/// CD-6 (a) §5 E1: the 8th destroyed star ends the game at once, without its migration;
/// everybody loses.
#[test]
fn cd_6a_cosmic_disaster() {
    let t = table(
        3,
        &[],
        "destroyed 2 3 4 5 6 7 9\ntokens 10:5 8:1\npawn p1 12\npawn p2 12\npawn p3 12\ndeck 10 13\nturn p1",
    );
    assert!(t.is_over());
    assert_eq!(destroyed(&t).len(), 8);
    assert_eq!(zone_cards(t.state(), "deck", None).last().unwrap(), "13");
    assert!(t.winners().is_empty());
}

/// CD-6 (b) §5 E3: P2 reaches 25 and finishes its turn, P3 and P1 play one more turn; a tie
/// goes to the owner.
#[test]
fn cd_6b_target_and_one_more_turn_each() {
    let mut t = table(
        3,
        &[],
        "tokens 6:2 8:7 10:5 12:3\nscore p1 26\nscore p2 24\nscore p3 20\npawn p1 12\npawn p2 6\npawn p3 12\nhand p2 6\nhand p1 10\nhand p3 11\nturn p2\nstep rescue",
    );
    t.play("p2", "rescue 6");
    assert_eq!(score(&t, "p2"), 26, "the token and the empty-hand reward");
    assert_eq!(counter(t.state(), "final"), 3);
    let turns = std::cell::RefCell::new(vec![]);
    pass_until(&mut t, |t| {
        let cur = t.state().turn.current;
        let mut v = turns.borrow_mut();
        if v.last() != Some(&cur) {
            v.push(cur);
        }
        false
    });
    assert_eq!(*turns.borrow(), [1, 2, 0]);
    assert_eq!(
        (score(&t, "p1"), score(&t, "p2"), score(&t, "p3")),
        (26, 26, 20)
    );
    assert_eq!(t.winners(), ["p1"]);
}

/// CD-6 (b) G21: the owner not tied: the first tied seat after the owner; `literal`: the owner.
#[test]
fn cd_6b_owner_tiebreak() {
    let pos = "tokens 8:5\nscore p1 20\nscore p2 26\nscore p3 26\nfinal 1\nturn p1\nstep refill";
    let t = table(3, &[], pos);
    assert!(t.is_over());
    assert_eq!(t.winners(), ["p2"]);
    let t = table(3, &[("owner_tiebreak", "literal")], pos);
    assert_eq!(t.winners(), ["p1"]);
    let t = table(3, &[("owner", "p3")], pos);
    assert_eq!(t.winners(), ["p3"]);
}

/// CD-6 (c) §5 E2: a rescue of the last token on the board ends the game at once.
#[test]
fn cd_6c_extinction_by_rescue() {
    let mut t = table(
        3,
        &[],
        "tokens 6:1\nscore p2 3\npawn p1 6\nhand p1 6 2\nturn p1\nstep rescue",
    );
    t.play("p1", "rescue 6");
    assert!(t.is_over());
    assert_eq!(t.eval("g.get(\"end\")"), "\"extinction\"");
    assert_eq!(t.winners(), ["p2"]);
}

/// CD-7 §4.1: numbers of a destroyed star are discarded and do not count; a J counts.
#[test]
fn cd_7_destroyed_star_and_j_in_proliferation() {
    let t = table(
        3,
        &[],
        "destroyed 5\ntokens 3:1 8:4\npawn p1 12\npawn p2 12\npawn p3 12\ndeck 5 9 J 5 12\nturn p1",
    );
    assert_eq!(occupied(&t), [(3, 2), (8, 5), (9, 2), (12, 1)]);
    assert_eq!(pile(&t, "discard"), 5);
    assert_eq!(phase(&t), "move");
}

/// CD-8 §4.5, §4.7: a J drawn for a migration is discarded and redrawn; the Sun falls, Earth
/// is already gone, the Moon survives.
#[test]
fn cd_8_sun_falls_after_earth() {
    let mut t = table(
        3,
        &[("reveals", "1")],
        "destroyed 8\ntokens 14:1 5:1\npawn p1 12\npawn p2 1\npawn p3 12\ndeck 14 J 2\nturn p1",
    );
    assert_eq!(destroyed(&t), [1, 8, 14]);
    // The 14 being resolved goes to the discard pile once the chain is over.
    assert_eq!(zone_cards(t.state(), "discard", None), ["J", "2"]);
    assert_eq!(t.legal("p2"), ["flee 15", "flee 2"]);
    t.play("p2", "flee 15");
    assert_eq!(zone_cards(t.state(), "discard", None), ["J", "2", "14"]);
    assert_eq!(pawn(&t, "p2"), 15);
    assert_eq!(t.deciding(), ["p1"]);
}

/// CD-9 §5 E2: extinction in the middle of a proliferation; the most tokens wins.
#[test]
fn cd_9_extinction_through_a_disaster() {
    let t = table(
        3,
        &[],
        "tokens 14:1\nscore p1 10\nscore p2 12\nscore p3 9\npawn p1 12\npawn p2 12\npawn p3 12\ndeck 14 2\nturn p3",
    );
    assert_eq!(destroyed(&t), [1, 8, 14]);
    assert!(t.is_over());
    assert_eq!(t.winners(), ["p2"]);
}

/// CD-10 §6: the science game allows multiplication and exact division; add-sub does not.
#[test]
fn cd_10_science_game() {
    let pos = |h: &str| {
        format!("tokens 12:2 8:4\npawn p1 12\nhand p1 {h} 12\ndeck 10\nturn p1\nstep rescue")
    };
    let four = [("arithmetic", "four-ops")];
    let t = table(3, &four, &pos("3 4"));
    assert!(t.legal("p1").contains(&"rescue 3*4".to_string()));
    let t = table(3, &[], &pos("3 4"));
    assert_eq!(t.legal("p1"), ["pass", "rescue 12"]);
    let mut t = table(3, &four, &pos("2 6 9"));
    // `×` may be typed for `*`; the action is stored with `*`.
    let played = t.m.play(Some("p1"), "rescue 9×2-6").unwrap();
    assert_eq!(played.action, "rescue 9*2-6");
    assert_eq!(score(&t, "p1"), 1);
    let mut t = table(3, &[], &pos("2 6 9"));
    let err = t.try_play("p1", "rescue 9*2-6").unwrap_err().to_string();
    assert!(err.contains("not allowed"), "{err}");
    for opts in [&four[..], &[]] {
        let mut t = table(3, opts, &pos("2 7"));
        assert!(!t.legal("p1").iter().any(|a| a.contains('7')), "{opts:?}");
        let product = if opts.is_empty() {
            "not allowed"
        } else {
            "2*7 makes 14, not 12"
        };
        for (bad, why) in [
            ("rescue 7+2", "7+2 makes 9, not 12"),
            ("rescue 2*7", product),
        ] {
            let err = t.refusal("p1", bad);
            assert!(err.contains(why), "{bad}: {err}");
        }
        t.play("p1", "rescue 12");
    }
    let mut t = table(3, &four, &pos("2 7"));
    let err = t.try_play("p1", "rescue 7/2").unwrap_err().to_string();
    assert!(err.contains("not a whole number"), "{err}");
}

/// CD-11 §6: team game: a card to the partner after the refill; the team target and one more
/// turn for every other seat; the team with more tokens wins.
#[test]
fn cd_11_team_game() {
    let team = [("team", "true")];
    let mut t = table(
        4,
        &team,
        "tokens 8:4\nhand p1 13 2\nhand p3 3 3 5 5 5\ndeck 4 4 4\nturn p1\nstep refill",
    );
    assert_eq!(hand(&t, "p1").len(), 5);
    assert_eq!(phase(&t), "give");
    t.play("p1", "give 4");
    assert_eq!((hand(&t, "p1").len(), hand(&t, "p3").len()), (4, 6));
    let mut t = table(
        4,
        &team,
        "tokens 6:3 8:7 10:5\nscore p1 24\nscore p3 24\nscore p2 23\nscore p4 24\npawn p3 6\nhand p3 6 6 2\ndeck 13\nturn p3\nstep rescue",
    );
    t.play("p3", "rescue 6")
        .play("p3", "pass")
        .play("p3", "rescue 6");
    assert_eq!(score(&t, "p3"), 26);
    assert_eq!(counter(t.state(), "final"), 4);
    let turns = std::cell::RefCell::new(vec![]);
    pass_until(&mut t, |t| {
        let cur = t.state().turn.current;
        let mut v = turns.borrow_mut();
        if v.last() != Some(&cur) {
            v.push(cur);
        }
        false
    });
    assert_eq!(*turns.borrow(), [2, 3, 0, 1]);
    assert_eq!(t.winners(), ["p1", "p3"]);
}

/// CD-12 §7 V2 (`migration = split`): the lone migrant of star 2 goes where the active seat
/// chooses; an even number splits, the left group first.
#[test]
fn cd_12_split_migration() {
    let split = [("migration", "split"), ("reveals", "1")];
    let mut t = table(
        3,
        &split,
        "tokens 2:1 8:4\npawn p2 12\npawn p3 12\npawn p1 12\ndeck 2\nturn p1",
    );
    assert_eq!(t.deciding(), ["p1"]);
    assert_eq!(t.legal("p1"), ["odd 1", "odd 3"]);
    t.play("p1", "odd 3");
    assert_eq!(occupied(&t), [(3, 1), (8, 4)]);
    assert_eq!(phase(&t), "move");
    let t = table(
        3,
        &split,
        "tokens 5:4 8:4\npawn p2 12\npawn p3 12\npawn p1 12\ndeck 5\nturn p1",
    );
    assert_eq!(occupied(&t), [(4, 1), (6, 1), (8, 4)]);
    let mut t = table(
        3,
        &split,
        "tokens 2:1 8:4\npawn p2 12\npawn p3 12\npawn p1 12\ndeck 2\nturn p1",
    );
    t.play("p1", "odd 1");
    assert_eq!(destroyed(&t), [1, 2, 8]);
}

// ---------------------------------------------------------------- Rescues typed by hand

fn rescue_table(hand: &str, star: usize, options: &[(&str, &str)]) -> Table {
    table(
        3,
        options,
        &format!(
            "tokens {star}:1 8:4\npawn p1 {star}\nhand p1 {hand}\ndeck 10\nturn p1\nstep rescue"
        ),
    )
}

/// §4.3 Any valid expression over cards in hand is accepted and written canonically.
#[test]
fn rescue_expressions_typed_by_hand() {
    for (text, canonical) in [
        ("rescue (9-4)+2", "rescue 9-4+2"),
        ("rescue 9 - (4 - 2)", "rescue 9-(4-2)"),
        ("rescue 2+(9-4)", "rescue 2+(9-4)"),
        ("rescue  (2) - 4 + 9", "rescue 2-4+9"),
    ] {
        let mut t = rescue_table("9 4 2 3", 7, &[]);
        let played = t.m.play(Some("p1"), text).unwrap();
        assert_eq!(played.action, canonical);
        assert_eq!(score(&t, "p1"), 1);
        assert_eq!(hand(&t, "p1").len(), 2, "7 and the card drawn");
    }
    // In the engineering mode `×` and `÷` may be typed for `*` and `/`.
    let mut t = rescue_table("9 4 2 3", 6, &[("arithmetic", "four-ops")]);
    let played = t.m.play(Some("p1"), "rescue 9×2÷3").unwrap();
    assert_eq!(played.action, "rescue 9*2/3");
}

/// §4.3 Refused expressions say why, and leave the state as it was.
#[test]
fn rescue_expressions_refused_with_clear_errors() {
    let four = [("arithmetic", "four-ops")];
    for (hand, opts, text, why) in [
        ("2 3 5", &[][..], "rescue 7-1", "no 7 in your hand"),
        (
            "2 3 5",
            &[],
            "rescue 3+3",
            "uses 3 2 times but you hold one",
        ),
        (
            "3 3 9",
            &[],
            "rescue 3+3+3-3",
            "uses 3 3 times but you hold 2",
        ),
        ("2 3 5", &[], "rescue 5+2", "makes 7, not 6"),
        (
            "2 3 5",
            &[],
            "rescue 3+",
            "expected a number or `(` (column 3)",
        ),
        ("2 3 5", &[], "rescue 2*3", "not allowed here (column 2)"),
        ("2 3 5", &[], "rescue (5+3-2", "column"),
        ("6 3 3", &four, "rescue 6/(3-3)", "division by zero"),
        ("7 2 5", &four, "rescue 7/2+3", "7/2 is not a whole number"),
    ] {
        let mut t = rescue_table(hand, 6, opts);
        let before = t.state().clone();
        let err = t.try_play("p1", text).expect_err(text).to_string();
        assert!(err.contains(why), "{text}: {err}");
        // A refusal for the player, not a script failure with a place in the source.
        assert!(
            err.contains("is refused for p1:") && !err.contains(".rhai:"),
            "{text}: {err}"
        );
        assert_eq!(t.state(), &before, "{text} changed the state");
    }
}

/// §4.3 The listed rescues: one per distinct set of cards, fewest first, bounded.
#[test]
fn listed_rescues_are_deduplicated_and_bounded() {
    let t = rescue_table("7 7 7 7 2 12 14", 14, &[]);
    let legal = t.m.game.legal_actions(&t.m.state, 0).unwrap();
    assert_eq!(
        &legal[..4],
        ["pass", "rescue 14", "rescue 12+2", "rescue 7+7"]
    );
    let set: std::collections::BTreeSet<_> = legal.iter().collect();
    assert_eq!(set.len(), legal.len());
    let t = rescue_table("2 3 4 5 6 7 9 10 11 12 13", 6, &[("search_results", "10")]);
    assert_eq!(t.legal("p1").len(), 11);
}

// ---------------------------------------------------------------- Views, bad input

/// Every seat sees its own hand and no other, nor the order of the deck.
#[test]
fn views_hide_other_hands_and_the_deck() {
    for seats in [2, 4] {
        let mut m = Match::new(
            load(ID),
            Setup {
                seats: Some(seats),
                seed: 8,
                ..Setup::default()
            },
        )
        .unwrap();
        for step in 0..40 {
            check_views(&m.game, &m.state);
            play_random(&mut m, 3, step, |_| false);
        }
    }
}

fn check_views(game: &Game, s: &State) {
    for viewer in 0..s.seats.len() {
        let v = s.view(Some(viewer));
        for (z, vz) in s.zones.iter().zip(v.zones.iter()) {
            let hidden = (z.name == "hand" && z.owner != Some(viewer)) || z.name == "deck";
            if hidden {
                assert!(vz.cards.iter().all(|&c| c == CardId::HIDDEN));
                for c in &z.cards {
                    assert_eq!(v.cards[c.0 as usize].name, "?");
                }
            } else {
                assert_eq!(vz.cards, z.cards);
            }
        }
        let text = game.render(s, Some(viewer)).unwrap();
        assert!(text.contains("your hand:"));
    }
    assert!(!game.render(s, None).unwrap().contains("your hand"));
}

/// Bad input is refused and changes nothing: a seat not deciding, a move off the list, a
/// rescue at the wrong time, nonsense.
#[test]
fn bad_input_is_refused_state_unchanged() {
    let mut t = table(3, &[], "pawn p1 8\nhand p1 8 3 5\nturn p1\nstep move");
    let before = t.state().clone();
    for (seat, a) in [
        ("p2", "pass"),
        ("p1", "move 8"),
        ("p1", "move 4"),
        ("p1", "move 99"),
        ("p1", "rescue 8"),
        ("p1", "flee 7"),
        ("p1", "give 8"),
        ("p1", "move"),
        ("p1", "%%"),
    ] {
        let err = t.try_play(seat, a).expect_err(a);
        assert!(
            matches!(
                err,
                PlayError::NotDeciding { .. } | PlayError::Illegal { .. } | PlayError::Notation(_)
            ),
            "{a}: {err}"
        );
        assert_eq!(t.state(), &before, "{a} changed the state");
    }
}

// ---------------------------------------------------------------- Determinism, save and load

/// The same seed, options and actions give byte-identical states and saves.
#[test]
fn determinism_same_actions_same_bytes() {
    for seats in [1, 3] {
        let mut a = Match::new(
            load(ID),
            Setup {
                seats: Some(seats),
                seed: 42,
                ..Setup::default()
            },
        )
        .unwrap();
        play_random(&mut a, 200, 9, |_| false);
        boardscript_tests::assert_replays_identically(&a);
    }
}

/// A save taken while a pawn must flee a destroyed star loads as the same state, with the
/// same seat deciding, and both games finish identically.
#[test]
fn save_load_in_the_middle_of_a_flight() {
    let setup = Setup {
        seats: Some(4),
        seed: 3,
        ..Setup::default()
    };
    let mut a = Match::new(load(ID), setup.clone()).unwrap();
    let fleeing = |m: &Match| m.state.agenda.question().is_some_and(|q| q.then == "flee");
    play_random(&mut a, 5000, 11, fleeing);
    assert!(fleeing(&a), "a pawn must flee at some point");
    boardscript_tests::assert_save_load_resumes(&mut a);
}

// ---------------------------------------------------------------- Playouts

/// After every action: 52 cards in deck, discard, hands and the card being resolved, 15 in
/// the ring (plus a variant's extra cards); tokens conserved between bag, stars and scores;
/// the board counter right; a destroyed star holds no token and never comes back.
pub fn invariant(step: &Step) -> Result<(), String> {
    let (before, s) = (step.before, step.after);
    let zone_len = |name: &str| -> usize {
        s.zones
            .iter()
            .filter(|z| z.name == name)
            .map(|z| z.cards.len())
            .sum()
    };
    if zone_len("ring") != 15 {
        return Err(format!("{} cards in the ring", zone_len("ring")));
    }
    let loose = zone_len("deck") + zone_len("discard") + zone_len("hand") + zone_len("shown");
    if loose + 15 != s.cards.len() {
        return Err(format!(
            "{loose} cards out of the ring, {} in all",
            s.cards.len()
        ));
    }
    let ring = &s.graphs[0];
    let before_ring = &before.graphs[0];
    let mut board = 0;
    for i in 0..15 {
        let t = counter(s, &format!("star{}", i + 1));
        if t < 0 {
            return Err(format!("star {} holds {t}", i + 1));
        }
        if ring.marks[i] == 1 && t != 0 {
            return Err(format!("destroyed star {} holds {t}", i + 1));
        }
        if before_ring.marks[i] == 1 && ring.marks[i] == 0 {
            return Err(format!("star {} came back", i + 1));
        }
        board += t;
    }
    if board != counter(s, "board") {
        return Err(format!("board {board} != {}", counter(s, "board")));
    }
    let scores: i64 = s.seat_counters.iter().map(|c| c["score"]).sum();
    // Migrants on their way (a chain waiting for a pawn's flight or the odd migrant's side).
    let flying = counter(s, "transit");
    let bag = counter(s, "bag");
    if counter(s, "unlimited") == 0 {
        let supply = match s.options.get("token_supply") {
            Some(Value::Int(n)) => *n,
            other => return Err(format!("token_supply {other:?}")),
        };
        if bag < 0 || bag + board + scores + flying != supply {
            return Err(format!(
                "bag {bag} + board {board} + scores {scores} + migrating {flying} != {supply}"
            ));
        }
    }
    Ok(())
}

/// §5: how a game ends (`g.end_game`'s reasons).
const DISASTER: &str = "8 stars are destroyed: cosmic disaster, everybody loses";
const EXTINCTION: &str = "no Earthling is left on any star";
const TARGET: &str = "the target is reached";

/// Random games end within this many actions (the longest of 4,000 base games took 38): a
/// game that no longer runs out of stars or Earthlings shows here.
const MAX_LENGTH: usize = 200;

/// Plays `games` random games of `id`, checked after every action by `invariant`: every game
/// ends, within `MAX_LENGTH` actions, by one of §5's endings, and a disaster is won by nobody.
fn playouts(
    id: &str,
    seats: usize,
    options: &[(&str, &str)],
    games: usize,
    seed: u64,
) -> PlayoutStats {
    let stats = Playouts::new(id)
        .seats(seats)
        .options(options)
        .seed(seed)
        .games(games)
        .max_length(MAX_LENGTH)
        .check(&invariant)
        .run();
    stats
        .assert_all_end()
        .assert_endings_among(&[DISASTER, EXTINCTION, TARGET]);
    let no_winner = stats.winner_counts.get(&0).copied().unwrap_or(0);
    assert!(
        no_winner >= stats.endings.get(DISASTER).copied().unwrap_or(0),
        "{stats:?}"
    );
    stats
}

/// 1,000 games of `seats` seats with the base rules. Random play rescues too little to reach
/// the target: nearly every game ends in disaster, and none has two winners.
fn base_game_playouts(seats: usize, seed: u64) {
    let stats = playouts(ID, seats, &[], 1000, seed);
    assert!(stats.endings.get(DISASTER) >= Some(&990), "{stats:?}");
    assert!(stats.winner_counts.keys().all(|&n| n <= 1), "{stats:?}");
}

/// 1,000 seeded random games with 1 seat (the solo game).
#[test]
fn random_playouts_1_seat() {
    base_game_playouts(1, 1);
}

/// 1,000 seeded random games with 2 seats.
#[test]
fn random_playouts_2_seats() {
    base_game_playouts(2, 2);
}

/// 1,000 seeded random games with 3 seats.
#[test]
fn random_playouts_3_seats() {
    base_game_playouts(3, 3);
}

/// 1,000 seeded random games with 4 seats.
#[test]
fn random_playouts_4_seats() {
    base_game_playouts(4, 4);
}

/// Options play out too: team game, science game, split migration, an unlimited supply,
/// the designer's capacities, limited chaining.
#[test]
fn random_playouts_options() {
    playouts(ID, 4, &[("team", "true")], 50, 10);
    playouts(ID, 2, &[("arithmetic", "four-ops")], 20, 11);
    playouts(ID, 3, &[("migration", "split")], 50, 12);
    playouts(
        ID,
        2,
        &[("token_supply", "0"), ("capacity", "copies-2")],
        50,
        13,
    );
    playouts(
        ID,
        3,
        &[
            ("max_rescues_per_turn", "2"),
            ("jokers", "0"),
            ("reveals", "5"),
        ],
        50,
        14,
    );
}

// ---------------------------------------------------------------- Variants

const BLAME: &str = "cosmic-disaster/blame";
const PAID: &str = "cosmic-disaster/paid-movement";
const CHOSEN: &str = "cosmic-disaster/chosen-proliferation";
const SPECIAL: &str = "cosmic-disaster/special-cards";

fn variant(id: &str, position: &str) -> Table {
    Table::new(id).seed(5).seats(3).position(position).start()
}

/// V4: a star destroyed by proliferation costs 2 points to a player on it and 1 to a player
/// on a neighbour, never to the active player; the base game blames nobody.
#[test]
fn v4_blame_for_a_destroyed_star() {
    let pos = "tokens 5:4 8:4\npawn p1 6\npawn p2 5\npawn p3 4\nscore p1 5\nscore p2 5\nscore p3 5\ndeck 5 3 2 13\nturn p1";
    let t = variant(BLAME, pos);
    assert_eq!(destroyed(&t), [5]);
    assert_eq!(
        (score(&t, "p1"), score(&t, "p2"), score(&t, "p3")),
        (5, 3, 4)
    );
    assert_eq!(counter(t.state(), "bag"), 100 - 8 - 15 + 2 + 3);
    let t = variant(ID, pos);
    assert_eq!(destroyed(&t), [5]);
    assert_eq!(
        (score(&t, "p1"), score(&t, "p2"), score(&t, "p3")),
        (5, 5, 5)
    );
}

/// V5: every move costs a card, and a pawn moves as often as it pays; the base game moves
/// once, for free.
#[test]
fn v5_paid_movement() {
    let pos = "pawn p1 8\nhand p1 3 5\nturn p1\nstep move";
    let mut t = variant(PAID, pos);
    let legal = t.legal("p1");
    assert!(legal.contains(&"move 9 pay 3".to_string()));
    assert!(!legal.contains(&"move 9".to_string()));
    t.play("p1", "move 9 pay 3");
    assert_eq!((pawn(&t, "p1"), hand(&t, "p1")), (9, vec!["5".to_string()]));
    t.play("p1", "move 10 pay 5");
    assert_eq!(pawn(&t, "p1"), 10);
    assert_eq!(t.legal("p1"), ["pass"], "no card left to pay with");
    let mut t = variant(ID, pos);
    assert!(t.legal("p1").contains(&"move 9".to_string()));
    t.play("p1", "move 9");
    assert_eq!(pawn(&t, "p1"), 9);
    let h = hand(&t, "p1");
    assert!(
        h.contains(&"3".into()) && h.contains(&"5".into()),
        "nothing paid: {h:?}"
    );
}

/// V3: the active player draws one card per player (a J is Great Prosperity and one card
/// fewer) and proliferates with cards chosen from the hand; the base game reveals.
#[test]
fn v3_chosen_proliferation() {
    let pos =
        "tokens 8:4\npawn p1 12\npawn p2 12\npawn p3 12\nhand p1 9 10 11 12\ndeck 5 6 J\nturn p1";
    let mut t = variant(CHOSEN, pos);
    assert_eq!(phase(&t), "choose");
    assert_eq!(star(&t, 8), 5, "the J drawn was Great Prosperity");
    assert_eq!(
        t.legal("p1"),
        [
            "proliferate 10",
            "proliferate 11",
            "proliferate 12",
            "proliferate 5",
            "proliferate 6",
            "proliferate 9"
        ]
    );
    t.play("p1", "proliferate 12").play("p1", "proliferate 9");
    assert_eq!(occupied(&t), [(8, 5), (9, 1), (12, 1)]);
    assert_eq!(phase(&t), "move");
    assert_eq!(hand(&t, "p1").len(), 4);
    let t = variant(ID, pos);
    assert_eq!(occupied(&t), [(5, 2), (6, 2), (8, 5)]);
    assert_eq!(hand(&t, "p1").len(), 4);
}

/// V6: Double, Close, Majority, Blackhole and Retrograde in play; the base game has none.
#[test]
fn v6_special_cards() {
    let pos = "tokens 6:2 7:1 8:4\npawn p1 6\npawn p2 3\npawn p3 12\nhand p1 double close 2 4 3\ndeck 10 10\nturn p1\nstep rescue";
    let t = variant(SPECIAL, pos);
    let legal = t.legal("p1");
    for a in ["rescue 4+2", "rescue 4+2 double", "close 7 4+3"] {
        assert!(legal.contains(&a.to_string()), "{a} in {legal:?}");
    }
    assert!(!legal.contains(&"majority".to_string()));
    let mut t = variant(SPECIAL, pos);
    let played = t.m.play(Some("p1"), "rescue (4 + 2) double").unwrap();
    assert_eq!(played.action, "rescue 4+2 double");
    assert_eq!((score(&t, "p1"), star(&t, 6)), (2, 0));
    let mut t = variant(SPECIAL, pos);
    let err = t.try_play("p1", "close 5 3+2").unwrap_err().to_string();
    assert!(err.contains("no Earthling"), "{err}");
    t.play("p1", "close 7 3+4");
    assert_eq!((score(&t, "p1"), star(&t, 7), star(&t, 6)), (1, 0, 2));

    let pos = "tokens 6:5 8:4\npawn p1 7\npawn p2 3\npawn p3 12\nhand p1 majority blackhole retrograde\ndeck 10 10 10\nturn p1\nstep move";
    let mut t = variant(SPECIAL, pos);
    t.play("p1", "blackhole");
    assert_eq!((pawn(&t, "p2"), pawn(&t, "p3")), (7, 7));
    t.play("p1", "move 6");
    assert!(t.legal("p1").contains(&"majority".to_string()));
    t.play("p1", "majority");
    assert_eq!((score(&t, "p1"), star(&t, 6)), (1, 4));
    t.play("p1", "pass");
    t.play("p1", "retrograde");
    assert_eq!(pawn(&t, "p1"), 7);

    let base = Table::new(ID).seed(5).seats(3).start();
    assert_eq!(base.state().cards.len(), 67);
    let special = Table::new(SPECIAL).seed(5).seats(3).start();
    assert_eq!(special.state().cards.len(), 77);
    let err = Match::new(
        load(ID),
        Setup {
            seats: Some(3),
            position: Some("hand p1 double".into()),
            ..Setup::default()
        },
    )
    .err()
    .unwrap()
    .to_string();
    assert!(err.contains("no 'double' card"), "{err}");
}

/// 1,000 seeded random games of each variant, 3 seats.
#[test]
fn random_playouts_variants() {
    for (i, id) in [BLAME, PAID, CHOSEN, SPECIAL].iter().enumerate() {
        playouts(id, 3, &[], 1000, 20 + i as u64);
    }
}

/// §4.5 in rule order (issue 10): a pawn flees the moment its star dies (step 3), before the
/// survivors migrate (step 5); when it fled onto a star the same chain destroys next, it is
/// blamed there too (V4) and flees again.
#[test]
fn a_pawn_flees_when_its_star_dies_and_again_if_the_chain_follows_it() {
    let pos = "tokens 5:4 4:3 8:4\npawn p1 12\npawn p2 5\npawn p3 12\nscore p2 5\n\
               deck 5 14 2\nturn p1";
    let mut t = Table::new(BLAME)
        .seed(5)
        .seats(3)
        .option("reveals", "1")
        .position(pos)
        .start();
    assert_eq!(destroyed(&t), [5]);
    assert_eq!(score(&t, "p2"), 3, "blamed 2 for standing on 5");
    assert_eq!(star(&t, 4), 3, "nothing has migrated yet");
    assert_eq!(t.legal("p2"), ["flee 4", "flee 6"]);
    t.play("p2", "flee 4");
    // The two migrants of 5 draw a 14: star 4 overflows and dies with P2's pawn on it.
    assert_eq!(destroyed(&t), [4, 5]);
    assert_eq!(score(&t, "p2"), 1, "blamed again, on 4");
    assert_eq!(t.deciding(), ["p2"]);
    assert_eq!(t.legal("p2"), ["flee 3", "flee 6"]);
    t.play("p2", "flee 6");
    assert_eq!(pawn(&t, "p2"), 6);
    // 4's two survivors draw a 2: 6, 7.
    assert_eq!(occupied(&t), [(7, 2), (8, 4)]);
    assert_eq!(t.deciding(), ["p1"]);
}

// ---------------------------------------------------------------- Issue 10

/// i10 item 3, §4.3 (G15): holding Blackhole, Retrograde or Close opens step 3, but a rescue
/// still needs a token on the star it takes from; with Close, on the neighbour named.
#[test]
fn i10_special_cards_rescue_needs_a_token() {
    // The game: p2 on star 14 (no token) holds 5 8 9 Blackhole Retrograde.
    let mut t = Table::new(SPECIAL).seed(28).seats(4).start();
    t.play("p2", "move 14");
    assert_eq!((phase(&t), star(&t, 14)), ("rescue".to_string(), 0));
    let before = t.state().clone();
    let err = t.try_play("p2", "rescue 9+5").unwrap_err().to_string();
    assert!(
        err.contains("star 14 holds no Earthling") && !err.contains(".rhai:"),
        "{err}"
    );
    assert_eq!(t.state(), &before);

    // Close names the neighbour: that star must hold the token, whatever one's own holds.
    let pos = "tokens 6:2 8:4\npawn p1 6\npawn p2 3\npawn p3 12\nhand p1 close double blackhole 5 2 7\ndeck 10 10\nturn p1\nstep rescue";
    let mut t = variant(SPECIAL, pos);
    for (text, why) in [
        ("close 7 5+2", "star 7 holds no Earthling"),
        ("close 5 7-2", "star 5 holds no Earthling"),
        ("rescue 5+2-1", "no 1 in your hand"),
        ("close x 5+2", "close names a star by its number, not 'x'"),
        ("close 99999999999999999999 5+2", "by its number"),
    ] {
        let err = t.try_play("p1", text).expect_err(text).to_string();
        assert!(err.contains(why), "{text}: {err}");
    }
    let pos = "tokens 7:1 8:4\npawn p1 6\npawn p2 3\npawn p3 12\nhand p1 close double blackhole 5 2 4\ndeck 10 10\nturn p1\nstep rescue";
    let mut t = variant(SPECIAL, pos);
    assert_eq!(phase(&t), "rescue", "Close and Blackhole open step 3");
    for (text, why) in [
        ("rescue 4+2", "star 6 holds no Earthling"),
        ("rescue 5+2-1", "star 6 holds no Earthling"),
        ("rescue 4+2 double", "Double needs 2 Earthlings"),
    ] {
        let err = t.try_play("p1", text).expect_err(text).to_string();
        assert!(err.contains(why), "{text}: {err}");
    }
    t.play("p1", "close 7 5+2");
    assert_eq!((score(&t, "p1"), star(&t, 7)), (1, 0));
}

/// i10 item 4, V1 (§7): after the last rescue allowed (`max_rescues_per_turn`) the turn goes
/// straight to step 4: no card drawn for the rescue, no move offered; base game and V6.
#[test]
fn i10_limited_chaining_goes_straight_to_refill() {
    // The game.
    let mut t = Table::new(ID)
        .seed(2)
        .seats(3)
        .option("max_rescues_per_turn", "2")
        .start();
    t.play("p1", "move 11")
        .play("p1", "rescue 9+9+4-11")
        .play("p1", "move 12")
        .play("p1", "rescue 6+6");
    assert_eq!(score(&t, "p1"), 2);
    assert_eq!(t.deciding(), ["p2"], "p1's turn ended with the refill");
    assert!(t.legal("p1").is_empty());

    for id in [ID, SPECIAL] {
        let pos = "tokens 6:3 8:4\npawn p1 6\npawn p2 3\npawn p3 12\nhand p1 6 6 3 9\ndeck 10 11 12 13\nturn p1\nstep rescue\nrescues 1";
        let mut t = Table::new(id)
            .seed(5)
            .seats(3)
            .option("max_rescues_per_turn", "2")
            .position(pos)
            .start();
        t.play("p1", "rescue 6");
        assert_eq!(t.deciding(), ["p2"], "{id}");
        // Refilled to H0 = 6 from 3 cards: 10, 11, 12; no separate draw for the rescue.
        let mut h = hand(&t, "p1");
        h.sort();
        assert_eq!(h, ["10", "11", "12", "3", "6", "9"], "{id}");
        // One rescue short of the limit, the turn goes on as usual.
        let pos = pos.replace("rescues 1", "rescues 0");
        let mut t = Table::new(id)
            .seed(5)
            .seats(3)
            .option("max_rescues_per_turn", "2")
            .position(&pos)
            .start();
        t.play("p1", "rescue 6");
        assert_eq!(
            (t.deciding(), phase(&t)),
            (vec!["p1".to_string()], "move".into())
        );
    }
}

/// i10 item 5, §4.3, CD-10: with more number cards than the full search takes, every
/// single-card and two-card rescue is still listed, and `show` says the listing is cut.
#[test]
fn i10_big_hands_list_every_small_rescue() {
    let four = [("arithmetic", "four-ops")];
    let t = rescue_table("3 4 5 6 7 9 12", 12, &four);
    let legal = t.m.game.legal_actions(&t.m.state, 0).unwrap();
    assert_eq!(
        &legal[..5],
        [
            "pass",
            "rescue 12",
            "rescue 3*4",
            "rescue 3+9",
            "rescue 5+7"
        ]
    );
    assert!(legal.contains(&"rescue 3*(9-5)".into()), "{legal:?}");
    let shown = t.m.game.render(&t.m.state, Some(0)).unwrap();
    assert!(shown.contains("more than 6 number cards"), "{shown}");
    // Pairs with cards beyond the lowest 6, which the full search takes.
    let t = rescue_table("3 4 5 6 7 9 12 14", 2, &four);
    let legal = t.legal("p1");
    for a in ["rescue 14-12", "rescue 14/7", "rescue 5-3"] {
        assert!(legal.contains(&a.to_string()), "{a} in {legal:?}");
    }
    // The same holds past the add-sub search's 12 cards; a normal hand says nothing.
    let t = rescue_table("2 3 3 4 4 5 5 6 9 9 13 13 14", 14, &[]);
    let legal = t.legal("p1");
    assert!(legal.contains(&"rescue 14".to_string()), "{legal:?}");
    let t = rescue_table("9 4 2 3", 7, &[]);
    let shown = t.m.game.render(&t.m.state, Some(0)).unwrap();
    assert!(!shown.contains("number cards:"), "{shown}");
}

/// i10 item 6, §4.3: words with no operator between them are two cards, refused with the
/// reason, never read as one number (`rescue 1 1` is not `rescue 11`).
#[test]
fn i10_numbers_without_an_operator_are_refused() {
    for (text, why) in [
        ("rescue 1 1", "no operator between 1 and 1"),
        ("rescue 3+3 2", "no operator between 3 and 2"),
        (
            "rescue (3) 3",
            "expected an operator or end of expression (column 5)",
        ),
    ] {
        let mut t = rescue_table("11 3 3 2", 11, &[]);
        let before = t.state().clone();
        let err = t.try_play("p1", text).expect_err(text).to_string();
        assert!(
            err.contains(why) && err.contains("is refused for p1:"),
            "{text}: {err}"
        );
        assert_eq!(t.state(), &before, "{text}");
    }
    let mut t = rescue_table("11 3 3 2", 11, &[]);
    assert_eq!(
        t.m.play(Some("p1"), "rescue 11").unwrap().action,
        "rescue 11"
    );
    let pos = "tokens 6:2 7:1 8:4\npawn p1 6\npawn p2 3\npawn p3 12\nhand p1 close 3 4 11\ndeck 10\nturn p1\nstep rescue";
    let mut t = variant(SPECIAL, pos);
    let err = t.try_play("p1", "close 7 3 4").unwrap_err().to_string();
    assert!(err.contains("no operator between 3 and 4"), "{err}");
}

/// i10 item 19: the board explains its marks, and the hand is shown sorted.
#[test]
fn i10_board_has_a_legend_and_a_sorted_hand() {
    let pos = "tokens 6:2 8:4\npawn p1 6\nhand p1 double 12 close 4 J 2 9\nturn p1\nstep move";
    let t = variant(SPECIAL, pos);
    let shown = t.m.game.render(&t.m.state, Some(0)).unwrap();
    assert!(
        shown.contains("R red, Y yellow, G green, B blue, P purple")
            && shown.contains("C circle, T triangle, S square"),
        "{shown}"
    );
    assert!(
        shown.contains("your hand: 2 4 9 12 J close double"),
        "{shown}"
    );
    let t = Table::new(ID)
        .seats(2)
        .option("colours", "RRRRRRRRRRRRRRZ")
        .start();
    let shown = t.m.game.render(&t.m.state, None).unwrap();
    assert!(shown.contains("marks: R red, Z | C circle"), "{shown}");
}
