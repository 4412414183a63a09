//! Virus War (`virus-war-fr`): every scenario check of shared/rules/virus-war-fr.md (FR-1 to
//! FR-13) from positions, 1,000 random playouts per mode with invariants after every action
//! (2, 4 and 8 seats, co-op), hidden hands, bad input, determinism and save/load in the middle
//! of a reaction window.

use boardscript_interpreter::primitives::zone::CardId;
use boardscript_interpreter::value::Value;
use boardscript_interpreter::{Game, Match, PlayError, Setup, State};
use boardscript_tests::{load, play_random, PlayoutStats, Playouts, Step, Table};

const ID: &str = "virus-war-fr";

fn seat(s: &State, name: &str) -> usize {
    s.seat_index(name)
        .unwrap_or_else(|| panic!("no seat {name}"))
}

fn counter(t: &Table, name: &str, what: &str) -> i64 {
    let s = t.state();
    s.seat_counters[seat(s, name)]
        .get(what)
        .copied()
        .unwrap_or(0)
}

fn lp(t: &Table, name: &str) -> i64 {
    counter(t, name, "lp")
}

fn tokens(t: &Table, name: &str) -> i64 {
    counter(t, name, "tokens")
}

/// Names of the cards in a zone (`owner` for per-seat zones), bottom first.
fn cards(t: &Table, zone: &str, owner: Option<&str>) -> Vec<String> {
    let s = t.state();
    let owner = owner.map(|o| seat(s, o));
    let z = s
        .zones
        .iter()
        .find(|z| z.name == zone && z.owner == owner)
        .unwrap_or_else(|| panic!("no zone {zone}"));
    z.cards
        .iter()
        .map(|c| s.cards[c.0 as usize].name.clone())
        .collect()
}

fn hand(t: &Table, name: &str) -> Vec<String> {
    cards(t, "hand", Some(name))
}

fn pile(t: &Table, zone: &str) -> usize {
    cards(t, zone, None).len()
}

fn turn(t: &Table) -> String {
    let s = t.state();
    s.seat_name(s.turn.current).to_string()
}

fn phase(t: &Table) -> String {
    t.state().phase.clone()
}

/// Each seat in order must be the one deciding, and declines (`pass`).
fn all_pass(t: &mut Table, seats: &[&str]) {
    for s in seats {
        assert_eq!(t.deciding(), [*s], "expected {s} to decide");
        t.play(s, "pass");
    }
}

fn table(position: &str) -> Table {
    Table::new(ID).seats(4).seed(7).position(position).start()
}

fn coop_table(position: &str) -> Table {
    Table::new(ID)
        .seats(4)
        .seed(7)
        .option("coop", "true")
        .position(position)
        .start()
}

// ---------------------------------------------------------------- FR-1

/// §2.1: 110 cards, 43 numbers (9, 9, 9, 8, 8), 28 attack, 15 healing, 24 action cards.
#[test]
fn fr_1_deck_counts() {
    let t = Table::new(ID).seats(4).seed(1).start();
    let s = t.state();
    assert_eq!(s.cards.len(), 110);
    let count = |names: &[&str]| {
        s.cards
            .iter()
            .filter(|c| names.contains(&c.name.as_str()))
            .count()
    };
    for (v, n) in [("1", 9), ("2", 9), ("3", 9), ("4", 8), ("5", 8)] {
        assert_eq!(count(&[v]), n, "number {v}");
    }
    assert_eq!(count(&["1", "2", "3", "4", "5"]), 43);
    let attack = ["virus", "poison", "counter", "contagion", "epidemic"];
    let healing = ["vaccine", "medicine", "miracle"];
    assert_eq!(count(&attack), 28);
    assert_eq!(count(&healing), 15);
    let action = [
        "stop",
        "quarantine",
        "pickpocket",
        "uturn",
        "trap2",
        "trap3",
        "trap4",
        "trap5",
        "chance2",
        "chance3",
        "chance4",
        "chance5",
    ];
    assert_eq!(count(&action), 24);
    for (name, n) in [
        ("virus", 10),
        ("poison", 8),
        ("counter", 4),
        ("contagion", 4),
        ("epidemic", 2),
        ("vaccine", 8),
        ("medicine", 5),
        ("miracle", 2),
        ("stop", 4),
        ("quarantine", 4),
        ("pickpocket", 4),
        ("uturn", 4),
    ] {
        assert_eq!(count(&[name]), n, "{name}");
    }
    // Dealt 6 each; every seat at 50 LP (less any setup Trap), no Trap left in a hand.
    for p in ["p1", "p2", "p3", "p4"] {
        assert!(hand(&t, p).iter().all(|c| !c.starts_with("trap")));
        assert!(lp(&t, p) <= 50 && lp(&t, p) >= 36);
    }
}

const FR_1: &str = include_str!("../../scripts/virus-war-fr/positions/fr-1.txt");

/// §3.3-3.5: Traps at setup; the highest Trap starts; play goes clockwise.
#[test]
fn fr_1_setup_traps_and_first_player() {
    let mut t = table(FR_1);
    assert_eq!((lp(&t, "p2"), lp(&t, "p3")), (46, 45));
    assert_eq!((lp(&t, "p1"), lp(&t, "p4")), (50, 50));
    assert_eq!(cards(&t, "discard", None), ["trap4", "trap5"]);
    assert!(hand(&t, "p2").contains(&"virus".to_string()));
    assert!(hand(&t, "p3").contains(&"poison".to_string()));
    // After setup the draw pile had 84 cards; P3 starts and has drawn its first card.
    assert_eq!(turn(&t), "p3");
    assert_eq!(hand(&t, "p3").len(), 7);
    assert!(hand(&t, "p3").contains(&"medicine".to_string()));
    assert_eq!(pile(&t, "deck"), 84 - 1);
    for p in ["p1", "p2", "p4"] {
        assert_eq!(hand(&t, p).len(), 6);
    }
    for next in ["p4", "p1", "p2", "p3"] {
        let now = turn(&t);
        t.play(&now, "pass");
        assert_eq!(turn(&t), next);
    }
}

/// §3.3 (G7): a replacement Trap is resolved too and counts for the first player.
#[test]
fn fr_1_setup_replacement_trap() {
    let mut t = table(
        "hand p1 trap2 trap3 1 1 1 1
         hand p2 2 2 2 2 2 2
         hand p3 3 3 3 3 3 3
         hand p4 4 4 4 4 4 4
         deck virus trap5 poison medicine 1 1 1
         setup",
    );
    assert_eq!(lp(&t, "p1"), 40);
    assert_eq!(cards(&t, "discard", None), ["trap2", "trap3", "trap5"]);
    assert_eq!(turn(&t), "p1");
    let mut h = hand(&t, "p1");
    h.sort();
    assert_eq!(h, ["1", "1", "1", "1", "medicine", "poison", "virus"]);
    for next in ["p2", "p3", "p4", "p1"] {
        let now = turn(&t);
        t.play(&now, "pass");
        assert_eq!(turn(&t), next);
    }
}

/// §3.4 (G6): with no Trap dealt, option `first_player` decides (a seeded random seat by
/// default).
#[test]
fn fr_1_no_trap_first_player_option() {
    let pos = "hand p1 1 1\nhand p2 2 2\nhand p3 3 3\nhand p4 4 4\ndeck 5 5 5 5\nsetup";
    let t = Table::new(ID)
        .seats(4)
        .option("first_player", "p3")
        .position(pos)
        .start();
    assert_eq!(turn(&t), "p3");
    let first = |seed| turn(&Table::new(ID).seats(4).seed(seed).position(pos).start());
    let firsts: std::collections::BTreeSet<String> = (0..12).map(first).collect();
    assert!(firsts.len() >= 2, "random first player: {firsts:?}");
    assert_eq!(first(5), first(5), "the same seed, the same first player");
}

// ---------------------------------------------------------------- FR-2

const FR_2: &str = include_str!("../../scripts/virus-war-fr/positions/fr-2.txt");

/// §5.1, §5.3, §4.3: Virus tokens tick at the end of the victim's turns; a U-turn reverses the
/// order and spares the Virus loss of that turn.
#[test]
fn fr_2_virus_ticking_and_u_turn() {
    let mut t = table(FR_2);
    t.play("p1", "play virus 3+3 p2");
    all_pass(&mut t, &["p2", "p3", "p4"]);
    assert_eq!(phase(&t), "counter");
    all_pass(&mut t, &["p2"]);
    assert_eq!(tokens(&t, "p2"), 6);
    assert_eq!(turn(&t), "p2");
    t.play("p2", "play uturn");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    assert_eq!(turn(&t), "p1", "the next turn is P1's, not P3's");
    assert_eq!((lp(&t, "p2"), tokens(&t, "p2")), (50, 6));
    for p in ["p1", "p4", "p3"] {
        assert_eq!(turn(&t), p);
        t.play(p, "pass");
    }
    assert_eq!(turn(&t), "p2");
    t.play("p2", "pass");
    assert_eq!(lp(&t, "p2"), 44);
}

/// FR-2 variant: a stopped U-turn does nothing; the turn ends with the Virus loss.
#[test]
fn fr_2_stopped_u_turn() {
    let mut t = table(&format!("{FR_2}\nhand p3 stop"));
    t.play("p1", "play virus 3+3 p2");
    all_pass(&mut t, &["p2", "p3", "p4", "p2"]);
    t.play("p2", "play uturn");
    assert_eq!(t.deciding(), ["p3"]);
    t.play("p3", "stop");
    all_pass(&mut t, &["p4", "p1", "p2"]);
    assert_eq!(lp(&t, "p2"), 44);
    assert_eq!(turn(&t), "p3", "direction unchanged");
    assert_eq!(t.state().turn.direction, 1);
    let discard = cards(&t, "discard", None);
    assert!(discard.contains(&"uturn".to_string()) && discard.contains(&"stop".to_string()));
}

// ---------------------------------------------------------------- FR-3

/// §5.2: a partial Vaccine stays in front of the player; numbers alone finish the cure.
#[test]
fn fr_3_vaccine_partial_then_complete() {
    let mut t = table("tokens p2 5\nhand p2 vaccine 3 2\ndeck 1 1 1 1 1 1\nturn p2");
    t.play("p2", "play vaccine 3 p2");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    assert_eq!(tokens(&t, "p2"), 2);
    assert_eq!(cards(&t, "vaccine", Some("p2")), ["vaccine"]);
    assert_eq!(
        lp(&t, "p2"),
        48,
        "unchanged by the Vaccine, then 2 lost in step 3"
    );
    for p in ["p3", "p4", "p1"] {
        t.play(p, "pass");
    }
    assert!(t.legal("p2").contains(&"play dose 2 p2".to_string()));
    t.play("p2", "play dose 2 p2");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    assert_eq!(tokens(&t, "p2"), 0);
    assert!(cards(&t, "vaccine", Some("p2")).is_empty());
    assert_eq!(lp(&t, "p2"), 48, "no loss at the end of this turn");
    assert_eq!(turn(&t), "p3");
}

/// FR-3 variant: a Vaccine of 8 on 5 tokens cures at once, gains nothing and is discarded;
/// mixed values are illegal.
#[test]
fn fr_3_vaccine_complete_at_once_and_mixed_values_illegal() {
    let mut t = table("tokens p2 5\nhand p2 vaccine 4 4 2 3\nturn p2");
    assert!(!t.legal("p2").contains(&"play vaccine 2+3 p2".to_string()));
    let before = t.state().clone();
    assert!(matches!(
        t.try_play("p2", "play vaccine 2+3 p2"),
        Err(PlayError::Illegal { .. })
    ));
    assert_eq!(t.state(), &before);
    t.play("p2", "play vaccine 4+4 p2");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    assert_eq!((tokens(&t, "p2"), lp(&t, "p2")), (0, 50));
    assert!(cards(&t, "vaccine", Some("p2")).is_empty());
    assert!(cards(&t, "discard", None).contains(&"vaccine".to_string()));
}

// ---------------------------------------------------------------- FR-4

const FR_4: &str = include_str!("../../scripts/virus-war-fr/positions/fr-4.txt");

/// §5.1 (G9): a Counter-attack gives the attacker the same tokens; it loses them in its
/// step 3 of this very turn.
#[test]
fn fr_4_counter_attack() {
    let mut t = table(FR_4);
    t.play("p1", "play virus 4 p2");
    all_pass(&mut t, &["p2", "p3", "p4"]);
    assert_eq!(t.deciding(), ["p2"]);
    assert_eq!(t.legal("p2"), ["counter", "pass"]);
    t.play("p2", "counter");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    assert_eq!((tokens(&t, "p1"), tokens(&t, "p2")), (4, 4));
    assert_eq!(lp(&t, "p1"), 46);
    assert_eq!(turn(&t), "p2");
    assert_eq!(lp(&t, "p2"), 50);
    t.play("p2", "pass");
    assert_eq!(lp(&t, "p2"), 46);
}

/// FR-4 with `counter_attack_extra_loss`: the attacker also loses the LP at once.
#[test]
fn fr_4_counter_attack_extra_loss_option() {
    let mut t = Table::new(ID)
        .seats(4)
        .option("counter_attack_extra_loss", "true")
        .position(FR_4)
        .start();
    t.play("p1", "play virus 4 p2");
    all_pass(&mut t, &["p2", "p3", "p4"]);
    t.play("p2", "counter");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    assert_eq!(lp(&t, "p1"), 42);
}

/// FR-4 variant: the attacker stops the Counter-attack (not its action): only P2 is infected.
#[test]
fn fr_4_attacker_stops_the_counter_attack() {
    let mut t = table("hand p1 virus 4 stop\nhand p2 counter\ndeck 1 1 1 1\nturn p1");
    t.play("p1", "play virus 4 p2");
    all_pass(&mut t, &["p2", "p3", "p4"]);
    t.play("p2", "counter");
    all_pass(&mut t, &["p3", "p4"]);
    assert_eq!(t.legal("p1"), ["pass", "stop"]);
    t.play("p1", "stop");
    all_pass(&mut t, &["p2", "p3", "p4"]);
    assert_eq!((tokens(&t, "p1"), tokens(&t, "p2")), (0, 4));
    assert_eq!(lp(&t, "p1"), 50);
    assert_eq!(turn(&t), "p2");
}

// ---------------------------------------------------------------- FR-5

const FR_5: &str = include_str!("../../scripts/virus-war-fr/positions/fr-5.txt");

/// §6.1-6.2: a Stop on a Stop; two Stops let the Poison stand.
#[test]
fn fr_5_stop_against_stop() {
    let mut t = table(FR_5);
    t.play("p1", "play poison 5 p3");
    assert_eq!(t.deciding(), ["p2"]);
    t.play("p2", "stop");
    all_pass(&mut t, &["p3", "p4"]);
    assert_eq!(t.deciding(), ["p1"]);
    t.play("p1", "stop");
    all_pass(&mut t, &["p2", "p3", "p4"]);
    assert_eq!(lp(&t, "p3"), 45);
    let mut discard = cards(&t, "discard", None);
    discard.sort();
    assert_eq!(discard, ["5", "poison", "stop", "stop"]);
    assert_eq!(lp(&t, "p1"), 48, "P1's step 3");
    assert_eq!(turn(&t), "p2");
}

/// FR-5 variant: one Stop cancels the Poison and ends P1's turn (Virus loss, no pass draw).
#[test]
fn fr_5_single_stop_cancels() {
    let mut t = table(FR_5);
    t.play("p1", "play poison 5 p3");
    t.play("p2", "stop");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    assert_eq!(lp(&t, "p3"), 50);
    let mut discard = cards(&t, "discard", None);
    discard.sort();
    assert_eq!(discard, ["5", "poison", "stop"]);
    assert_eq!(lp(&t, "p1"), 48);
    assert_eq!(hand(&t, "p1"), ["stop"], "no pass draw");
    assert_eq!(turn(&t), "p2");
}

// ---------------------------------------------------------------- FR-6

fn contagions(t: &Table, s: &str) -> Vec<String> {
    t.legal(s)
        .into_iter()
        .filter(|a| a.starts_with("play contagion"))
        .collect()
}

/// §5.1 (G14): Contagion only reaches a neighbour of the carrier without tokens, never oneself.
#[test]
fn fr_6_contagion_targets() {
    let mut t = table("tokens p3 3\ntokens p4 2\nhand p1 contagion\nturn p1");
    assert_eq!(contagions(&t, "p1"), ["play contagion p3 p2"]);
    t.play("p1", "play contagion p3 p2");
    all_pass(&mut t, &["p2", "p3", "p4"]);
    assert_eq!((tokens(&t, "p2"), tokens(&t, "p3")), (3, 3));

    let t = table("tokens p3 3\ntokens p4 2\ntokens p2 1\nhand p1 contagion\nturn p1");
    assert!(contagions(&t, "p1").is_empty());

    let t = table("tokens p3 3\neliminated p4\nhand p1 contagion\nturn p1");
    assert_eq!(contagions(&t, "p1"), ["play contagion p3 p2"]);
}

// ---------------------------------------------------------------- FR-7

/// §5.3, §5.4 (G8): a quarantined turn is only the Virus loss; a Trap drawn in step 1 costs
/// its LP, gives no replacement and ends the turn.
#[test]
fn fr_7_quarantine_and_trap_in_play() {
    let mut t = table("tokens p1 3\nhand p4 quarantine\ndeck 1 2 3 trap5 4 5\nturn p4");
    t.play("p4", "play quarantine p1");
    all_pass(&mut t, &["p1", "p2", "p3"]);
    assert_eq!(lp(&t, "p1"), 47);
    assert!(hand(&t, "p1").is_empty(), "no draw in a skipped turn");
    assert_eq!(turn(&t), "p2");
    for p in ["p2", "p3", "p4"] {
        t.play(p, "pass");
    }
    assert_eq!(lp(&t, "p1"), 39, "Trap 5, then 3 in step 3");
    assert!(hand(&t, "p1").is_empty(), "no replacement");
    assert!(cards(&t, "discard", None).contains(&"trap5".to_string()));
    assert_eq!(turn(&t), "p2");
}

/// FR-7 variant: two Quarantines, two skipped turns.
#[test]
fn fr_7_two_quarantines_stack() {
    let mut t =
        table("tokens p1 3\nhand p2 quarantine\nhand p3 quarantine\ndeck 1 1 1 1 1 1 1 1\nturn p2");
    t.play("p2", "play quarantine p1");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    t.play("p3", "play quarantine p1");
    all_pass(&mut t, &["p4", "p1", "p2"]);
    t.play("p4", "pass");
    assert_eq!(turn(&t), "p2");
    assert_eq!(lp(&t, "p1"), 47);
    for p in ["p2", "p3", "p4"] {
        t.play(p, "pass");
    }
    assert_eq!(lp(&t, "p1"), 44);
    assert_eq!(turn(&t), "p2");
    assert_eq!(counter(&t, "p1", "quarantine"), 0);
}

// ---------------------------------------------------------------- FR-8

const FR_8: &str = include_str!("../../scripts/virus-war-fr/positions/fr-8.txt");

/// §5.3 (G16): Chance heals (capped at 50), then one more action.
#[test]
fn fr_8_chance_then_another_action() {
    let mut t = table(FR_8);
    t.play("p2", "play chance 5");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    assert_eq!(lp(&t, "p2"), 50);
    assert_eq!(phase(&t), "chance");
    assert!(t.legal("p2").contains(&"draw".to_string()));
    assert!(!t.legal("p2").contains(&"pass".to_string()));
    t.play("p2", "play poison 2+2 p3");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    assert_eq!(lp(&t, "p3"), 46);
    assert_eq!(turn(&t), "p3");
}

/// FR-8 variant: the extra action is stopped; the Chance stands and the turn ends.
#[test]
fn fr_8_extra_action_stopped() {
    let mut t = table(FR_8);
    t.play("p2", "play chance 5");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    t.play("p2", "play poison 2+2 p3");
    t.play("p3", "stop");
    all_pass(&mut t, &["p4", "p1", "p2"]);
    assert_eq!((lp(&t, "p2"), lp(&t, "p3")), (50, 50));
    let mut discard = cards(&t, "discard", None);
    discard.sort();
    assert_eq!(discard, ["2", "2", "chance5", "poison", "stop"]);
    assert_eq!(turn(&t), "p3");
}

/// FR-8 variant: the draw instead of an action is a Trap: it costs its LP and ends the turn.
#[test]
fn fr_8_draw_a_trap_after_chance() {
    let mut t = table("lp p2 47\nhand p2 chance5 poison 2 2\ndeck trap3 1 1\nturn p2");
    t.play("p2", "play chance 5");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    t.play("p2", "draw");
    assert_eq!(lp(&t, "p2"), 47);
    assert!(cards(&t, "discard", None).contains(&"trap3".to_string()));
    assert_eq!(hand(&t, "p2").len(), 3);
    assert_eq!(turn(&t), "p3");
}

// ---------------------------------------------------------------- FR-9

/// §8: Epidemic hits the partner too; a partner adds numbers of the action's value (not its
/// own action); only opponents are asked for Stops; the Counter-attack takes the full strength.
#[test]
fn fr_9_coop_epidemic_added_numbers_counter_attack() {
    let mut t = coop_table(include_str!(
        "../../scripts/virus-war-fr/positions/fr-9.txt"
    ));
    t.play("p1", "play epidemic");
    all_pass(&mut t, &["p2", "p4"]);
    for p in ["p2", "p3", "p4"] {
        assert_eq!(tokens(&t, p), 2, "{p}");
    }
    assert_eq!(tokens(&t, "p1"), 0);
    assert_eq!(turn(&t), "p2");
    t.play("p2", "play virus 3 p1");
    assert_eq!(t.deciding(), ["p4"]);
    assert_eq!(t.legal("p4"), ["add 3", "pass"], "P4 could not add a 2");
    t.play("p4", "add 3");
    all_pass(&mut t, &["p3", "p1"]);
    t.play("p1", "counter");
    all_pass(&mut t, &["p2", "p4"]);
    assert_eq!(tokens(&t, "p1"), 6);
    assert_eq!(tokens(&t, "p2"), 8);
    assert_eq!(lp(&t, "p2"), 42);
    assert_eq!(turn(&t), "p3");
}

// ---------------------------------------------------------------- FR-10

/// §8: a team falls with either partner; the last team wins at once.
#[test]
fn fr_10_team_elimination() {
    let mut t = coop_table("lp p3 4\ntokens p3 5\nlp p1 30\nturn p3");
    t.play("p3", "pass");
    let s = t.state();
    assert!(s.turn.eliminated[seat(s, "p1")] && s.turn.eliminated[seat(s, "p3")]);
    assert!(t.is_over());
    assert!(t.deciding().is_empty());
    assert_eq!(t.winners(), ["p2", "p4"]);
    assert_eq!(t.m.game.winning_teams(t.state()).unwrap(), [1]);
    assert_eq!(
        t.state().teams,
        [vec![0, 2], vec![1, 3]],
        "partners sit opposite"
    );
}

// ---------------------------------------------------------------- FR-11

/// §7 (G26): the game ends at once; the winner's step 3 is not played.
#[test]
fn fr_11_game_ends_at_once() {
    let mut t = Table::new(ID)
        .seats(2)
        .position("lp p1 3\ntokens p1 4\nlp p2 5\nhand p1 poison 5\nturn p1")
        .start();
    t.play("p1", "play poison 5 p2");
    all_pass(&mut t, &["p2"]);
    assert!(t.is_over());
    assert_eq!(t.winners(), ["p1"]);
    assert_eq!(lp(&t, "p1"), 3);
    assert_eq!(lp(&t, "p2"), 0);
}

// ---------------------------------------------------------------- FR-12

const FR_12: &str = include_str!("../../scripts/virus-war-fr/positions/fr-12.txt");

/// §5.2-5.3: Medicine mixes values (capped at 50, self only); Pick-pocket takes a random card;
/// a pass may draw.
#[test]
fn fr_12_medicine_pickpocket_pass() {
    let mut t = table(FR_12);
    let legal = t.legal("p1");
    assert!(legal.contains(&"play medicine 1+2+5 p1".to_string()));
    assert!(!legal
        .iter()
        .any(|a| a.starts_with("play medicine") && a.ends_with("p3")));
    // Typed by hand, in another order and without `play` or a target.
    t.play("p1", "medicine 5 2 1");
    assert_eq!(
        t.m.actions().last().unwrap().action,
        "play medicine 1+2+5 p1"
    );
    all_pass(&mut t, &["p2", "p3", "p4"]);
    assert_eq!(lp(&t, "p1"), 50);
    assert_eq!(turn(&t), "p2");
    let before: Vec<String> = hand(&t, "p3");
    t.play("p2", "play pickpocket p3");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    // P3 holds 3 of its cards, and the card its turn began with.
    let after = hand(&t, "p3");
    assert_eq!(turn(&t), "p3");
    assert_eq!(after.len(), 4);
    assert_eq!(after.iter().filter(|c| *c == "5").count(), 1);
    let stolen: Vec<&String> = before.iter().filter(|c| !after.contains(c)).collect();
    assert_eq!(stolen.len(), 1);
    assert!(hand(&t, "p2").contains(stolen[0]));
    t.play("p3", "pass");
    assert_eq!(turn(&t), "p4");
    let n = hand(&t, "p4").len();
    t.play("p4", "pass draw");
    assert_eq!(hand(&t, "p4").len(), n + 1);
}

/// §5.3: the stolen card is chosen uniformly at random (every card comes up over seeds).
#[test]
fn fr_12_pickpocket_takes_any_card() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..60 {
        let mut t = Table::new(ID)
            .seats(4)
            .seed(seed)
            .position("hand p2 pickpocket\nhand p3 1 2 3 4\nturn p2")
            .start();
        t.play("p2", "play pickpocket p3");
        all_pass(&mut t, &["p3", "p4", "p1"]);
        let h = hand(&t, "p2");
        assert_eq!(h.len(), 1);
        seen.insert(h[0].clone());
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
}

// ---------------------------------------------------------------- FR-13

/// §5.2 (G24, the text's tip): curing an opponent discards its Vaccine and opens it to a
/// Contagion.
#[test]
fn fr_13_cure_an_opponent_then_contagion() {
    let mut t = table(
        "tokens p2 2\nvaccine p2\ntokens p1 4\nhand p4 vaccine 2\nhand p3 contagion\ndeck 1 1 1 1\nturn p4",
    );
    t.play("p4", "play vaccine 2 p2");
    all_pass(&mut t, &["p1", "p2", "p3"]);
    assert_eq!(tokens(&t, "p2"), 0);
    assert!(cards(&t, "vaccine", Some("p2")).is_empty());
    let discard = cards(&t, "discard", None);
    assert_eq!(discard.iter().filter(|c| *c == "vaccine").count(), 2);
    t.play("p1", "pass");
    t.play("p2", "pass");
    assert!(t.legal("p3").contains(&"play contagion p1 p2".to_string()));
    t.play("p3", "play contagion p1 p2");
    all_pass(&mut t, &["p4", "p1", "p2"]);
    assert_eq!(tokens(&t, "p2"), 4);
}

// ---------------------------------------------------------------- Options and input

/// G24: a Vaccine played on a player who already has one resolves, then is discarded.
#[test]
fn g24_second_vaccine_is_discarded() {
    let mut t = table("tokens p2 6\nvaccine p2\nhand p1 vaccine 2\nturn p1");
    t.play("p1", "play vaccine 2 p2");
    all_pass(&mut t, &["p2", "p3", "p4"]);
    assert_eq!(tokens(&t, "p2"), 4);
    assert_eq!(cards(&t, "vaccine", Some("p2")), ["vaccine"]);
    let mut discard = cards(&t, "discard", None);
    discard.sort();
    assert_eq!(discard, ["2", "vaccine"]);
}

/// §5.2 (G13): Miracle removes every token and the Vaccine in front; only for oneself
/// outside co-op.
#[test]
fn miracle_cures_completely() {
    let mut t = table("tokens p1 5\nvaccine p1\ntokens p2 3\nhand p1 miracle\nturn p1");
    assert_eq!(
        t.legal("p1")
            .into_iter()
            .filter(|a| a.contains("miracle"))
            .collect::<Vec<_>>(),
        ["play miracle p1"]
    );
    t.play("p1", "play miracle p1");
    all_pass(&mut t, &["p2", "p3", "p4"]);
    assert_eq!((tokens(&t, "p1"), lp(&t, "p1")), (0, 50));
    assert!(cards(&t, "vaccine", Some("p1")).is_empty());
}

/// §8 (G11, G13, G22): in co-op, healing reaches the partner, numbers may be added to the
/// partner's Vaccine, and the partner adds any mix to a Medicine.
#[test]
fn coop_partner_heals_doses_and_adds_to_medicine() {
    let mut t = coop_table(
        "tokens p3 4\nvaccine p3\nlp p3 40\nhand p1 medicine 2 miracle 1\nhand p3 1 4\nturn p1",
    );
    let legal = t.legal("p1");
    for a in [
        "play medicine 2 p3",
        "play medicine 1+2 p1",
        "play dose 1 p3",
        "play miracle p3",
    ] {
        assert!(legal.contains(&a.to_string()), "{a} in {legal:?}");
    }
    assert!(!legal
        .iter()
        .any(|a| a.ends_with("p2") && !a.contains("pickpocket")));
    t.play("p1", "play medicine 2 p3");
    assert_eq!(t.deciding(), ["p3"]);
    assert_eq!(t.legal("p3"), ["add 1", "add 1+4", "add 4", "pass"]);
    t.play("p3", "add 1+4");
    all_pass(&mut t, &["p2", "p4"]);
    assert_eq!(lp(&t, "p3"), 47);
}

/// Option `forced_pass_draw` (G23): a turn cut short by a Stop, a Trap or a Quarantine offers
/// the draw of a pass.
#[test]
fn forced_pass_draw_option() {
    let mut t = Table::new(ID)
        .seats(4)
        .option("forced_pass_draw", "true")
        .position(
            "hand p1 poison 5\nhand p2 stop\nhand p4 quarantine\ndeck 1 trap3 2 3 4 5\nturn p1",
        )
        .start();
    t.play("p1", "play poison 5 p3");
    t.play("p2", "stop");
    all_pass(&mut t, &["p3", "p4", "p1"]);
    assert_eq!(phase(&t), "end_draw");
    assert_eq!(t.legal("p1"), ["draw", "pass"]);
    t.play("p1", "draw");
    assert_eq!(hand(&t, "p1"), ["1"]);
    // P2 draws Trap 3 in step 1: its turn is cut short, with the draw on offer.
    assert_eq!(
        (turn(&t), phase(&t), lp(&t, "p2")),
        ("p2".into(), "end_draw".into(), 47)
    );
    t.play("p2", "pass");
    assert_eq!(turn(&t), "p3");
    t.play("p3", "pass");
    t.play("p4", "play quarantine p1");
    all_pass(&mut t, &["p1", "p2", "p3"]);
    assert_eq!((turn(&t), phase(&t)), ("p1".into(), "end_draw".into()));
}

/// Option `virus_token_limit` (G19): an infection gives only what is left in the supply.
#[test]
fn virus_token_limit_option() {
    let mut t = Table::new(ID)
        .seats(4)
        .option("virus_token_limit", "10")
        .position("tokens p2 8\nhand p1 virus 3 3\nturn p1")
        .start();
    t.play("p1", "play virus 3+3 p3");
    all_pass(&mut t, &["p2", "p3", "p4", "p3"]);
    assert_eq!(tokens(&t, "p3"), 2);
}

/// Option `prompt_all = false`: only seats that can react are asked (faster, but it tells
/// who holds a Stop or a Counter-attack).
#[test]
fn prompt_all_false_asks_only_holders() {
    let mut t = Table::new(ID)
        .seats(4)
        .option("prompt_all", "false")
        .position("hand p1 virus 2 poison 5\nhand p4 stop\ndeck 1 1\nturn p1")
        .start();
    t.play("p1", "play virus 2 p3");
    assert_eq!(t.deciding(), ["p4"]);
    t.play("p4", "pass");
    assert_eq!(tokens(&t, "p3"), 2, "no Counter-attack in hand: not asked");
    assert_eq!(turn(&t), "p2");
}

/// §7: an attacker killed by the extra loss of a Counter-attack is out at once; play goes on.
#[test]
fn attacker_eliminated_by_its_counter_attacked_virus() {
    let mut t = Table::new(ID)
        .seats(3)
        .option("counter_attack_extra_loss", "true")
        .position("lp p1 3\nhand p1 virus 4 stop 1\nhand p2 counter\ndeck 2 2\nturn p1")
        .start();
    t.play("p1", "play virus 4 p2");
    all_pass(&mut t, &["p2", "p3"]);
    t.play("p2", "counter");
    all_pass(&mut t, &["p3", "p1"]);
    let s = t.state();
    assert!(s.turn.eliminated[0]);
    assert!(hand(&t, "p1").is_empty(), "its hand is discarded");
    assert_eq!(tokens(&t, "p1"), 0);
    assert!(!t.is_over());
    assert_eq!(turn(&t), "p2");
    t.play("p2", "pass");
    assert_eq!(turn(&t), "p3", "p1 is skipped");
}

/// A stopped Chance gives neither LP nor another action.
#[test]
fn stopped_chance_gives_nothing() {
    let mut t = table("lp p2 40\nhand p2 chance4 poison 2\nhand p3 stop\ndeck 1 1\nturn p2");
    t.play("p2", "play chance 4");
    t.play("p3", "stop");
    all_pass(&mut t, &["p4", "p1", "p2"]);
    assert_eq!(lp(&t, "p2"), 40);
    assert_eq!(turn(&t), "p3");
}

/// Co-op needs an even number of seats, 4 or more, and partners who are not neighbours.
#[test]
fn coop_seats_and_teams_are_checked() {
    let game = load(ID);
    let start = |seats: usize, opts: &[(&str, &str)]| {
        game.start(&Setup {
            seats: Some(seats),
            options: opts
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Setup::default()
        })
    };
    for n in [2, 5] {
        let err = start(n, &[("coop", "true")]).unwrap_err().to_string();
        let why = format!("co-op needs an even number of seats, 4 or more, not {n}");
        assert!(err.contains(&why), "{err}");
    }
    let err = start(4, &[("coop", "true"), ("teams", "p1+p2,p3+p4")])
        .unwrap_err()
        .to_string();
    assert!(err.contains("neighbours"), "{err}");
    let s = start(6, &[("coop", "true"), ("teams", "p1+p3,p2+p5,p4+p6")]).unwrap();
    assert_eq!(s.teams, [vec![0, 2], vec![1, 4], vec![3, 5]]);
    let s = start(8, &[("coop", "true")]).unwrap();
    assert_eq!(s.teams[0], [0, 4]);
    let err = game
        .start(&Setup {
            seats: Some(4),
            options: [("first_player".to_string(), "p9".to_string())].into(),
            position: Some("hand p1 1\nsetup".into()),
            ..Setup::default()
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("first_player"), "{err}");
    let err = start(4, &[("start_lp", "60")]).unwrap_err().to_string();
    assert!(err.contains("max_lp"), "{err}");
    let err = start(4, &[("trap_values", "2,x")]).unwrap_err().to_string();
    assert!(err.contains("trap_values"), "{err}");
}

/// Bad input is refused and leaves the state as it was: a seat that is not deciding, a card
/// not in hand, a reaction outside its window, a target that is not a seat.
#[test]
fn bad_input_is_refused_state_unchanged() {
    let mut t = table("hand p1 poison 5\nhand p2 stop counter\ndeck 1 1\nturn p1");
    let before = t.state().clone();
    let refused = |t: &mut Table, s: &str, a: &str| {
        let err = t.try_play(s, a).expect_err(a);
        assert_eq!(t.state(), &before, "{a} changed the state");
        err
    };
    let err = refused(&mut t, "p2", "pass");
    assert!(matches!(err, PlayError::NotDeciding { .. }));
    assert_eq!(
        err.to_string(),
        "`p2` is not deciding now; waiting for: p1",
        "a clear message"
    );
    let err = refused(&mut t, "p1", "play virus 5 p2");
    assert!(matches!(err, PlayError::Illegal { .. }));
    let text = err.to_string();
    assert!(
        text.starts_with("`play virus 5 p2` is not a legal action for p1; legal now: ")
            && text.contains("play poison 5 p2"),
        "a clear message listing the legal actions: {text}"
    );
    assert!(matches!(
        refused(&mut t, "p1", "play poison 4 p2"),
        PlayError::Illegal { .. }
    ));
    assert!(matches!(
        refused(&mut t, "p1", "stop"),
        PlayError::Illegal { .. }
    ));
    assert!(matches!(
        refused(&mut t, "p1", "counter"),
        PlayError::Illegal { .. }
    ));
    assert!(matches!(
        refused(&mut t, "p1", "play poison 5 p9"),
        PlayError::Illegal { .. }
    ));
    assert!(matches!(
        refused(&mut t, "p1", "play poison 5 p1"),
        PlayError::Illegal { .. }
    ));
    // In the window: only the asked seat, and no counter-attack on a Poison.
    t.play("p1", "play poison 5 p3");
    let before = t.state().clone();
    assert!(matches!(
        t.try_play("p3", "stop"),
        Err(PlayError::NotDeciding { .. })
    ));
    assert!(matches!(
        t.try_play("p2", "counter"),
        Err(PlayError::Illegal { .. })
    ));
    assert_eq!(t.state(), &before);
}

/// Every seat sees its own hand and no other: other hands and the draw pile show only hidden
/// cards, and the catalogue entries of those cards are blanked.
#[test]
fn views_hide_other_hands() {
    for (seats, coop) in [(4, false), (4, true), (8, false)] {
        let mut setup = Setup {
            seats: Some(seats),
            seed: 21,
            ..Setup::default()
        };
        if coop {
            setup.options.insert("coop".into(), "true".into());
        }
        let mut m = Match::new(load(ID), setup).unwrap();
        let mut bot = boardscript_interpreter::primitives::rng::seeded(2);
        for step in 0..300 {
            check_views(&m.game, &m.state);
            let d = m.game.decisions(&m.state).unwrap();
            let Some((s, a)) = boardscript_interpreter::bots::random::choose(&d, &mut bot) else {
                break;
            };
            let name = m.state.seat_name(s).to_string();
            m.play(Some(&name), &a)
                .unwrap_or_else(|e| panic!("step {step}: {e}"));
        }
    }
}

fn check_views(game: &Game, s: &State) {
    for viewer in 0..s.seats.len() {
        let v = s.view(Some(viewer));
        let json = serde_json::to_value(&v).unwrap();
        let zones = json["zones"].as_array().unwrap();
        let catalogue = json["cards"].as_array().unwrap();
        for (z, vz) in s.zones.iter().zip(zones) {
            let hidden = (z.name == "hand" && z.owner != Some(viewer)) || z.name == "deck";
            let ids: Vec<u64> = vz["cards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap())
                .collect();
            assert_eq!(ids.len(), z.cards.len());
            if hidden {
                assert!(
                    ids.iter().all(|&c| c == CardId::HIDDEN.0 as u64),
                    "seat {viewer} sees into {}",
                    z.name
                );
                for c in &z.cards {
                    assert_eq!(catalogue[c.0 as usize]["name"], "?");
                    assert!(catalogue[c.0 as usize]["props"]
                        .as_object()
                        .unwrap()
                        .is_empty());
                }
            } else {
                let real: Vec<u64> = z.cards.iter().map(|c| c.0 as u64).collect();
                assert_eq!(ids, real, "seat {viewer} must see {}", z.name);
            }
        }
        let text = game.render(s, Some(viewer)).unwrap();
        assert!(text.contains("your hand:"));
    }
    game.render(s, None).unwrap();
}

// ---------------------------------------------------------------- Playouts

fn int_option(s: &State, name: &str) -> i64 {
    match s.options.get(name) {
        Some(Value::Int(i)) => *i,
        other => panic!("option {name}: {other:?}"),
    }
}

/// After every action: 110 cards, life within bounds, tokens never negative, at most one
/// Vaccine in front of a carrier, no Trap held, the dead hold nothing, partners fall together,
/// and the table is empty outside reaction windows. (The harness checks that every card is
/// in exactly one zone and that the eliminated are never asked to decide again.)
fn invariant(step: &Step) -> Result<(), String> {
    let s = step.after;
    let total: usize = s.zones.iter().map(|z| z.cards.len()).sum();
    if s.cards.len() != 110 || total != 110 {
        return Err(format!("{} cards, {total} in zones", s.cards.len()));
    }
    let max = int_option(s, "max_lp");
    let zone = |name: &str, owner: usize| {
        s.zones
            .iter()
            .find(|z| z.name == name && z.owner == Some(owner))
            .unwrap()
    };
    for i in 0..s.seats.len() {
        let c = &s.seat_counters[i];
        let (lp, tok) = (c["lp"], c["tokens"]);
        let dead = s.turn.eliminated[i];
        if lp > max || (!dead && lp < 1) || tok < 0 || (dead && tok != 0) {
            return Err(format!("seat {i}: lp {lp}, tokens {tok}, dead {dead}"));
        }
        let vaccine = zone("vaccine", i).cards.len();
        if vaccine > 1 || (vaccine == 1 && tok == 0) {
            return Err(format!("seat {i}: {vaccine} vaccine(s) with {tok} tokens"));
        }
        let hand = &zone("hand", i).cards;
        if dead && !hand.is_empty() {
            return Err(format!("eliminated seat {i} holds cards"));
        }
        if hand
            .iter()
            .any(|c| s.cards[c.0 as usize].name.starts_with("trap"))
        {
            return Err(format!("seat {i} holds a Trap"));
        }
    }
    for team in &s.teams {
        if team.iter().any(|&i| s.turn.eliminated[i]) != team.iter().all(|&i| s.turn.eliminated[i])
        {
            return Err(format!("team {team:?} fell apart"));
        }
    }
    let table = s.zones.iter().find(|z| z.name == "table").unwrap();
    if matches!(s.phase.as_str(), "act" | "chance" | "over") && !table.cards.is_empty() {
        return Err(format!("cards left on the table in phase {}", s.phase));
    }
    Ok(())
}

/// Plays the games `p` describes with `seats` seats and `options`, checked after every
/// action by `invariant`: every game ends, with one winner (a team of two in co-op).
fn playouts(p: Playouts, seats: usize, options: &[(&str, &str)]) -> PlayoutStats {
    let stats = p.seats(seats).options(options).check(&invariant).run();
    let coop = options.contains(&("coop", "true"));
    stats
        .assert_all_end()
        .assert_winners_each(if coop { 2 } else { 1 });
    stats
}

/// 1,000 random games of `seats` seats with `options`: every seat wins some.
fn many_playouts(seats: usize, options: &[(&str, &str)], seed: u64) {
    let p = Playouts::new(ID).seed(seed).games(1000).deep_every(251);
    playouts(p, seats, options).assert_every_seat_wins();
}

/// A few random games of `seats` seats with `options`.
fn few_playouts(seats: usize, options: &[(&str, &str)], games: usize, seed: u64) {
    let p = Playouts::new(ID).seed(seed).games(games).deep_every(251);
    playouts(p, seats, options);
}

// The game invariants after every action in 1,000 games per mode; every seat's view after
// every action in the smaller set of `hidden_information_after_every_action`.

/// 1,000 seeded random games with 2 seats.
#[test]
fn random_playouts_2_seats() {
    many_playouts(2, &[], 1002);
}

/// 1,000 seeded random games with 4 seats.
#[test]
fn random_playouts_4_seats() {
    many_playouts(4, &[], 1004);
}

/// 1,000 seeded random games with 8 seats.
#[test]
fn random_playouts_8_seats() {
    many_playouts(8, &[], 1008);
}

/// 1,000 seeded random games in co-op with 4 seats, and some with 8.
#[test]
fn random_playouts_coop() {
    many_playouts(4, &[("coop", "true")], 1040);
    few_playouts(8, &[("coop", "true")], 30, 80);
}

/// Every seat's view (and a spectator's) after every action of a smaller set of games, in
/// every mode: no hidden card's identity anywhere in a view (see `check_views`).
#[test]
fn hidden_information_after_every_action() {
    for (seats, options, games) in [
        (2, &[][..], 24),
        (4, &[][..], 10),
        (8, &[][..], 3),
        (4, &[("coop", "true")][..], 8),
        (8, &[("coop", "true")][..], 2),
        (6, &[("prompt_all", "false")][..], 4),
    ] {
        let p = Playouts::new(ID).seed(500 + seats as u64).games(games);
        playouts(p.views(), seats, options);
    }
}

// ---------------------------------------------------------------- Determinism, save and load

/// The same seed, options and actions give byte-identical states and saves.
#[test]
fn determinism_same_actions_same_bytes() {
    let setup = Setup {
        seats: Some(5),
        seed: 42,
        ..Setup::default()
    };
    let mut a = Match::new(load(ID), setup.clone()).unwrap();
    play_random(&mut a, 400, 9, |_| false);
    boardscript_tests::assert_replays_identically(&a);
}

/// A save taken in the middle of a Stop window (after a Stop was played) loads as the same
/// state, with the same seat asked, and both games finish identically.
#[test]
fn save_load_in_the_middle_of_a_reaction_window() {
    let setup = Setup {
        seats: Some(4),
        seed: 3,
        options: [("coop".to_string(), "true".to_string())].into(),
        ..Setup::default()
    };
    let mut a = Match::new(load(ID), setup).unwrap();
    // Play until a window holds at least one Stop, or failing that, any Stop window.
    play_random(&mut a, 5000, 11, |m| {
        m.state.phase == "stop" && m.state.counters.get("stops").copied().unwrap_or(0) > 0
    });
    if a.state.phase != "stop" {
        let mut fresh = Match::new(load(ID), a.setup.clone()).unwrap();
        play_random(&mut fresh, 5000, 11, |m| m.state.phase == "stop");
        a = fresh;
    }
    assert_eq!(a.state.phase, "stop");
    boardscript_tests::assert_save_load_resumes(&mut a);
}

/// Other options play out too: token supply, forced pass draw, asking only seats that can
/// react, other card values.
#[test]
fn random_playouts_other_options() {
    few_playouts(4, &[("virus_token_limit", "80")], 15, 100);
    few_playouts(4, &[("forced_pass_draw", "true")], 15, 101);
    few_playouts(6, &[("prompt_all", "false")], 15, 102);
    few_playouts(
        3,
        &[
            ("number_values", "1:10,2:10,3:10,4:7,5:6"),
            ("counter_attack_extra_loss", "true"),
        ],
        15,
        103,
    );
    few_playouts(
        6,
        &[("coop", "true"), ("teams", "p1+p3,p2+p5,p4+p6")],
        15,
        104,
    );
}

/// i10 item 7, §4 (G26): a setup Trap that leaves one seat (or team) ends the game at that
/// moment: no later Trap is revealed, and the winner keeps its LP.
#[test]
fn i10_setup_traps_stop_once_the_game_is_decided() {
    let t = Table::new(ID)
        .seed(61)
        .seats(2)
        .option("start_lp", "2")
        .option("max_lp", "8")
        .start();
    assert!(t.is_over());
    assert_eq!(t.winners(), ["p2"]);
    assert_eq!((lp(&t, "p1"), lp(&t, "p2")), (-3, 2), "p2 reveals no Trap");
    assert!(!t.state().turn.eliminated[seat(t.state(), "p2")]);

    let t = Table::new(ID)
        .seed(36)
        .seats(4)
        .option("coop", "true")
        .option("start_lp", "4")
        .option("max_lp", "8")
        .start();
    assert!(t.is_over());
    assert_eq!(t.winners(), ["p1", "p3"]);
    assert_eq!((lp(&t, "p1"), lp(&t, "p3")), (4, 4), "p3 reveals no Trap");
}
