//! Nemesis (scripts/nemesis/events.rhai), part 1: scenario tests for the event cards (rules
//! §5.2 step 7, §5.4, §7.4; content §8): the movement of the Intruders, each card's effect,
//! then what becomes of the card. Each test chooses the card with `next event <id>` and the
//! bag development with `next bag ...`, then p1 passes so that the event phase runs.

use boardscript_tests::Table;

mod nemesis_support;
use nemesis_support::{eval_int, intruders, noisy, seat_counter, settle, table, table_with};

// ---------------------------------------------------------------- Helpers

/// A game of `seats` from `position`, every seat passing so that the event phase runs.
fn after_event(seats: usize, position: &str) -> Table {
    let mut t = table(seats, position);
    for seat in ["p1", "p2", "p3", "p4", "p5"].iter().take(seats) {
        t.play(seat, "pass");
        settle(&mut t, seat);
    }
    t
}

/// One seat, the event `card`, a blank from the bag (no noise rolls), then `extra`.
fn event(card: &str, extra: &str) -> Table {
    after_event(1, &format!("next event {card}\nnext bag blank\n{extra}"))
}

/// A counter of a room: `fire`, `malf`, `items`.
fn room_counter(t: &Table, kind: &str, room: i64) -> i64 {
    eval_int(
        t,
        &format!("g.graph(\"ship\").node_value(room_id({room}), \"{kind}\")"),
    )
}

fn door(t: &Table, room: i64, exit: i64) -> i64 {
    eval_int(
        t,
        &format!("g.graph(\"ship\").edge_value(exit_edge(g, room_id({room}), {exit}), \"door\")"),
    )
}

/// Intruder tokens of `kind` in the bag.
fn in_bag(t: &Table, kind: &str) -> i64 {
    eval_int(
        t,
        &format!("g.bag(\"bag\").kinds().filter(|x| TOKEN_TYPE[x] == \"{kind}\").len()"),
    )
}

/// The zone holding event card `id`: `events`, `events_discard` or `box`.
fn event_zone(t: &Table, id: &str) -> String {
    t.eval(&format!(
        "if g.zone(\"events\").find(\"{id}\") != () {{ \"events\" }} \
         else if g.zone(\"events_discard\").find(\"{id}\") != () {{ \"events_discard\" }} \
         else {{ \"box\" }}"
    ))
    .trim_matches('"')
    .to_string()
}

// ---------------------------------------------------------------- §5.2 step 7a Movement

/// §5.2 7a: an Intruder showing a symbol of the card leaves by the card's corridor number
/// ([Damaging Fire]: adult, corridor 1; room 3's exit 1 leads to room 6), and moves only
/// once although room 6's exit 1 leads on to room 5.
#[test]
fn intruders_follow_the_card_once() {
    let t = event("damaging-fire", "intruder adult 3");
    assert_eq!(intruders(&t, 3), "[]");
    assert_eq!(intruders(&t, 6), "[\"adult\"]");
    assert_eq!(intruders(&t, 5), "[]");
}

/// §5.2 7a: only the types on the card move ([Damaging Fire] shows creeper and adult).
#[test]
fn intruders_without_the_symbol_stay() {
    let t = event("damaging-fire", "intruder breeder 3");
    assert_eq!(intruders(&t, 3), "[\"breeder\"]");
}

/// §5.2 7a, §7.4: Intruders in a room with a character are in combat and do not move.
#[test]
fn intruders_in_combat_do_not_move() {
    // [Hatching]: adult, corridor 3; p1 stands in room 10 with the adult.
    let t = event("hatching", "intruder adult 10");
    assert_eq!(intruders(&t, 10), "[\"adult\"]");
}

/// §3.4: Intruders that must pass a closed door stay; the door is destroyed, once for all.
#[test]
fn a_closed_door_is_destroyed_instead() {
    // Room 9's exit 3 leads to room 6.
    let t = event(
        "hatching",
        "intruder adult 9\nintruder adult 9\ndoor 9 3 closed",
    );
    assert_eq!(intruders(&t, 9), "[\"adult\", \"adult\"]");
    assert_eq!(door(&t, 9, 3), 2);
    assert_eq!(intruders(&t, 6), "[]");
}

/// §3.3, §7.4: an Intruder leaving by a technical corridor entrance leaves the board and a
/// token of its type enters the bag ([Flammable Compounds]: adult, corridor 4; room 9's exit
/// 4 is an entrance).
#[test]
fn an_intruder_entering_the_technical_corridors_goes_to_the_bag() {
    let before = in_bag(&table(1, ""), "adult");
    let t = event("flammable-compounds", "intruder adult 9");
    assert_eq!(intruders(&t, 9), "[]");
    // +1 by the technical corridors, +1 by the blank drawn from the bag.
    assert_eq!(in_bag(&t, "adult"), before + 2);
}

// ---------------------------------------------------------------- Content §8: after

/// Content §8: a card is discarded after its effect unless it says otherwise.
#[test]
fn an_event_card_is_discarded() {
    let t = event("hatching", "");
    assert_eq!(event_zone(&t, "event-hatching"), "events_discard");
}

/// Content §8: a removed card leaves the game and the discard pile is shuffled back into the
/// deck ([Life Support Failure], after [Hatching] was discarded by a first round).
#[test]
fn a_removed_card_leaves_and_the_discard_pile_returns() {
    let mut t = event(
        "hatching",
        "next event life-support-failure\nnext bag blank",
    );
    t.play("p1", "pass");
    settle(&mut t, "p1");
    assert_eq!(event_zone(&t, "event-life-support-failure"), "box");
    assert_eq!(event_zone(&t, "event-hatching"), "events");
    assert_eq!(eval_int(&t, "g.zone(\"events\").len"), 19);
    assert_eq!(eval_int(&t, "g.zone(\"events_discard\").len"), 0);
}

/// Content §8: [Malfunction] is shuffled back into the deck instead of discarded.
#[test]
fn malfunction_is_shuffled_back() {
    let t = event("malfunction", "");
    assert_eq!(event_zone(&t, "event-malfunction"), "events");
    assert_eq!(eval_int(&t, "g.zone(\"events\").len"), 20);
}

// ---------------------------------------------------------------- Content §8: effects

/// [Regeneration]: every Intruder discards up to 2 injury markers.
#[test]
fn regeneration_heals_two_injuries() {
    let t = event(
        "regeneration",
        "intruder adult 5\ninjuries 5 3\nintruder creeper 7\ninjuries 7 1",
    );
    let inj = |room: i64| {
        eval_int(
            &t,
            &format!(
                "let m = g.zone(`room/${{room_id({room})}}`).cards()[0]; g.counter(`inj/${{m.id}}`)"
            ),
        )
    };
    assert_eq!(inj(5), 1);
    assert_eq!(inj(7), 0);
}

/// [Hatching], nobody in the Nest: 1 egg leaves the Intruder board and a larva enters the bag.
#[test]
fn hatching_takes_an_egg_and_adds_a_larva() {
    let before = in_bag(&table(1, ""), "larva");
    let t = event("hatching", "");
    assert_eq!(eval_int(&t, "g.zone(\"nest_eggs\").len"), 4);
    assert_eq!(in_bag(&t, "larva"), before + 1);
}

/// [Hatching]: the last egg on the Intruder board never hatches.
#[test]
fn hatching_leaves_the_last_egg() {
    let t = event("hatching", "nest eggs 1");
    assert_eq!(eval_int(&t, "g.zone(\"nest_eggs\").len"), 1);
}

/// [Hatching] (rules §8.1): a character in the Nest has an encounter there.
#[test]
fn hatching_makes_an_encounter_in_the_nest() {
    let before = in_bag(&table(1, ""), "larva");
    let t = after_event(
        1,
        "tile 9 nest\np1 at 9\nnext event hatching\nnext bag adult blank",
    );
    assert_eq!(intruders(&t, 9), "[\"adult\"]");
    assert_eq!(in_bag(&t, "larva"), before);
}

/// [Nest Alarm]: every corridor of the explored Nest gets a noise marker (its technical
/// entrance: the technical corridor space).
#[test]
fn nest_alarm_fills_the_nests_corridors() {
    let t = event("nest-alarm", "tile 9 nest");
    assert!((1..=4).all(|e| noisy(&t, 9, e)));
    assert_eq!(eval_int(&t, "g.counter(\"noise_tech\")"), 1);
}

/// [Nest Alarm]: nothing while the Nest is unexplored.
#[test]
fn nest_alarm_without_a_nest_does_nothing() {
    let t = event("nest-alarm", "");
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").edges_where(\"noise\", 1).len()"),
        0
    );
}

/// [Lurking]: every Intruder not in combat leaves the board, a token of its type enters the
/// bag; an Intruder with a character stays.
#[test]
fn lurking_sends_free_intruders_to_the_bag() {
    let start = table(1, "");
    let (adults, creepers) = (in_bag(&start, "adult"), in_bag(&start, "creeper"));
    // Adult from the bag development: put back, and p1 is in combat so nobody rolls.
    let t = after_event(
        1,
        "next event lurking\nnext bag adult\nintruder adult 5\nintruder creeper 7\nintruder adult 10",
    );
    for room in 1..=21 {
        let want = if room == 10 { "[\"adult\"]" } else { "[]" };
        assert_eq!(intruders(&t, room), want, "room {room}");
    }
    assert_eq!(in_bag(&t, "adult"), adults + 1);
    assert_eq!(in_bag(&t, "creeper"), creepers + 1);
}

/// [Eclosion]: a character with a larva dies and a creeper appears in its room; another
/// reveals its top 4 cards, scans the contamination among them and, finding an infected
/// card, gets a larva (rules §9.3); the revealed cards go to its discard pile.
#[test]
fn eclosion_kills_larva_carriers_and_scans_the_others() {
    let t = after_event(
        2,
        "encountered\nlarva p1\ndeck p2 infected\nnext event eclosion\nnext bag blank",
    );
    assert_eq!(seat_counter(&t, "p1", "dead"), 1);
    assert_eq!(intruders(&t, 10), "[\"creeper\"]");
    assert_eq!(seat_counter(&t, "p2", "larva"), 1);
    assert_eq!(eval_int(&t, "g.zone(\"discard\", \"p2\").len"), 4);
    assert_eq!(
        eval_int(&t, "g.zone(\"discard\", \"p2\").count(\"contamination\")"),
        1
    );
}

/// [Eclosion]: clean contamination cards give no larva.
#[test]
fn eclosion_with_clean_cards_infects_nobody() {
    let t = event("eclosion", "deck p1 clean");
    assert_eq!(seat_counter(&t, "p1", "larva"), 0);
    assert_eq!(seat_counter(&t, "p1", "dead"), 0);
}

/// [Egg Protection]: a character carrying an egg has an encounter in its room.
#[test]
fn egg_protection_attacks_egg_carriers() {
    let t = after_event(
        1,
        "carry p1 egg\nnext event egg-protection\nnext bag adult blank",
    );
    assert_eq!(intruders(&t, 10), "[\"adult\"]");
}

/// [Egg Protection]: nobody in the Nest and no egg carried: no encounter.
#[test]
fn egg_protection_spares_the_others() {
    let t = event("egg-protection", "tile 9 nest");
    assert_eq!(intruders(&t, 10), "[]");
}

/// [Hunt]: an adult not in combat moves into the adjacent room with a character.
#[test]
fn hunt_brings_adults_to_the_crew() {
    let t = event("hunt-1", "intruder adult 9");
    assert_eq!(intruders(&t, 9), "[]");
    assert_eq!(intruders(&t, 10), "[\"adult\"]");
}

/// [Hunt]: of several rooms with characters, the lowest room number.
#[test]
fn hunt_takes_the_lowest_room() {
    // Room 9 touches room 5 (p2) and room 10 (p1).
    let t = after_event(
        2,
        "explore 5\np2 at 5\nintruder adult 9\nnext event hunt-2\nnext bag blank",
    );
    assert_eq!(intruders(&t, 5), "[\"adult\"]");
    assert_eq!(intruders(&t, 10), "[]");
}

/// [Hunt], rules §3.4: a closed door on the way is destroyed and the adult stays.
#[test]
fn hunt_breaks_a_closed_door() {
    let t = event("hunt-1", "intruder adult 9\ndoor 9 1 closed");
    assert_eq!(intruders(&t, 9), "[\"adult\"]");
    assert_eq!(door(&t, 9, 1), 2);
}

/// [Flammable Compounds]: fire in the Hibernatorium when it has none.
#[test]
fn flammable_compounds_lights_the_hibernatorium() {
    let t = event("flammable-compounds", "");
    assert_eq!(room_counter(&t, "fire", 10), 1);
    assert_eq!(room_counter(&t, "fire", 9), 0);
}

/// [Flammable Compounds], content §8 fire spread: from a burning Hibernatorium, fire goes
/// into every adjacent room, but not through a closed door.
#[test]
fn fire_spreads_but_not_through_closed_doors() {
    // The Hibernatorium's exits: 1 room 17, 2 room 3, 3 room 11, 4 room 9.
    let t = event("flammable-compounds", "fire 10\ndoor 10 1 closed");
    assert_eq!(room_counter(&t, "fire", 17), 0);
    for room in [3, 11, 9] {
        assert_eq!(room_counter(&t, "fire", room), 1, "room {room}");
    }
    assert_eq!(eval_int(&t, "g.supply(\"fire\").left"), 4);
}

/// Content §8 fire spread: never through the technical corridors (room 9's exit 4), and only
/// from the rooms that burned before the card.
#[test]
fn fire_spreads_one_step_not_through_the_ducts() {
    let t = event("consuming-fire", "fire 9");
    for room in [10, 5, 6] {
        assert_eq!(room_counter(&t, "fire", room), 1, "room {room}");
    }
    for room in [1, 2, 4, 17, 3, 11, 12] {
        assert_eq!(room_counter(&t, "fire", room), 0, "room {room}");
    }
}

/// [Consuming Fire]: the item counter of every room with fire drops to 0.
#[test]
fn consuming_fire_burns_the_items() {
    let t = event("consuming-fire", "explore 5\nitems 5 3\nfire 5");
    assert_eq!(room_counter(&t, "items", 5), 0);
    assert_eq!(room_counter(&t, "fire", 12), 1);
}

/// [Damaging Fire]: a malfunction in every room with fire where allowed (not unexplored),
/// then the fire spreads.
#[test]
fn damaging_fire_breaks_burning_rooms() {
    let t = event("damaging-fire", "tile 5 armory\nfire 5\nfire 12");
    assert_eq!(room_counter(&t, "malf", 5), 1);
    assert_eq!(room_counter(&t, "malf", 12), 0);
    assert_eq!(room_counter(&t, "fire", 6), 1);
    assert_eq!(room_counter(&t, "fire", 13), 1);
}

/// Rules §3.5: a 9th fire marker destroys the ship and ends the game.
#[test]
fn a_ninth_fire_destroys_the_ship() {
    let fires: String = (1..=8).map(|r| format!("fire {r}\n")).collect();
    let t = event("flammable-compounds", &fires);
    assert!(t.is_over());
}

/// [Life Support Failure]: a malfunction in every explored green room (a red room is spared).
#[test]
fn life_support_failure_breaks_green_rooms() {
    let t = event(
        "life-support-failure",
        "tile 5 laboratory\ntile 6 canteen\ntile 9 armory",
    );
    assert_eq!(room_counter(&t, "malf", 5), 1);
    assert_eq!(room_counter(&t, "malf", 6), 1);
    assert_eq!(room_counter(&t, "malf", 9), 0);
}

/// [Short Circuit]: a malfunction in every explored yellow room with a computer; removed.
#[test]
fn short_circuit_breaks_yellow_computer_rooms() {
    let t = event("short-circuit", "tile 5 generator\ntile 9 monitoring-room");
    assert_eq!(room_counter(&t, "malf", 5), 1);
    assert_eq!(room_counter(&t, "malf", 9), 0);
    assert_eq!(event_zone(&t, "event-short-circuit"), "box");
}

/// [Malfunction]: the explored room with the lowest number that can take one and has none
/// (the Cockpit has one, the Nest never takes one, rooms 3-9 are unexplored: room 10).
#[test]
fn malfunction_takes_the_lowest_room_that_can_have_one() {
    let t = event("malfunction", "malfunction 1\ntile 2 nest");
    assert_eq!(room_counter(&t, "malf", 2), 0);
    assert_eq!(room_counter(&t, "malf", 10), 1);
}

/// [Rampage]: a malfunction in every explored room with an adult, breeder or queen.
#[test]
fn rampage_breaks_the_rooms_of_big_intruders() {
    // Breeders and queens do not move on [Rampage].
    let t = event(
        "rampage",
        "explore 5\nintruder breeder 5\nintruder queen 7\nexplore 12\nintruder creeper 12\ndoor 12 2 closed",
    );
    assert_eq!(room_counter(&t, "malf", 5), 1);
    assert_eq!(room_counter(&t, "malf", 7), 0);
    assert_eq!(room_counter(&t, "malf", 12), 0);
}

/// Rules §3.5: a 9th malfunction marker destroys the ship and ends the game.
#[test]
fn a_ninth_malfunction_destroys_the_ship() {
    let malf: String = (1..=8).map(|r| format!("malfunction {r}\n")).collect();
    let t = event("rampage", &format!("{malf}intruder breeder 10"));
    assert!(t.is_over());
}

/// [Coolant Leak]: with the Generator explored and broken down, the self-destruct starts
/// (on its first space, after this event phase's time step); the card leaves the game. Not
/// while anyone hibernates (option `coolant_leak_hibernation`, default true).
#[test]
fn coolant_leak_starts_the_self_destruct() {
    let t = event("coolant-leak", "tile 5 generator\nmalfunction 5");
    assert_eq!(event_zone(&t, "event-coolant-leak"), "box");
    assert_eq!(eval_int(&t, "g.counter(\"destruct\")"), 1);
    let t = event("coolant-leak", "tile 5 generator");
    assert_eq!(eval_int(&t, "g.counter(\"destruct\")"), 0);
    let mut t = table(
        2,
        "next event coolant-leak\nnext bag blank\ntile 5 generator\nmalfunction 5\nhibernating p2",
    );
    t.play("p1", "pass");
    settle(&mut t, "p1");
    assert_eq!(eval_int(&t, "g.counter(\"round\")"), 2);
    assert_eq!(eval_int(&t, "g.counter(\"destruct\")"), 0);
    let mut t = table_with(
        2,
        &[("coolant_leak_hibernation", "false")],
        "next event coolant-leak\nnext bag blank\ntile 5 generator\nmalfunction 5\nhibernating p2",
    );
    t.play("p1", "pass");
    settle(&mut t, "p1");
    assert_eq!(eval_int(&t, "g.counter(\"destruct\")"), 1);
}

/// [Bulkheads Open]: every closed door opens; destroyed doors stay destroyed.
#[test]
fn bulkheads_open_opens_closed_doors() {
    let t = event(
        "bulkheads-open",
        "door 5 1 closed\ndoor 9 3 closed\ndoor 12 1 destroyed",
    );
    assert_eq!(door(&t, 5, 1), 0);
    assert_eq!(door(&t, 9, 3), 0);
    assert_eq!(door(&t, 12, 1), 2);
}

/// [Escape Pod Ejection]: the lowest pod on the board launches, closed or not, and whoever
/// waits in it escapes; the card leaves the game.
#[test]
fn pod_ejection_launches_the_lowest_pod() {
    let t = after_event(2, "next event pod-ejection\nnext bag blank\nboard p2 1");
    assert_eq!(event_zone(&t, "event-pod-ejection"), "box");
    assert_eq!(eval_int(&t, "g.counter(\"pod_sec/1\")"), 0);
    assert_eq!(eval_int(&t, "g.counter(\"p2\", \"out\")"), 2);
    assert!(eval_int(&t, "g.counter(\"pod_sec/2\")") > 0);
}

/// [Scent of Prey]: noise on every corridor of a room holding a slimed character.
#[test]
fn scent_of_prey_follows_slime() {
    let t = after_event(
        2,
        "explore 5\nslime p2\np2 at 5\nnext event scent-of-prey\nnext bag blank",
    );
    assert!((1..=4).all(|e| noisy(&t, 5, e)));
    assert!((1..=4).all(|e| !noisy(&t, 10, e)));
}

/// [Noise in the Ducts]: a noise marker on the technical corridor space when it has none.
#[test]
fn noise_in_the_ducts_marks_the_ducts() {
    let t = event("noise-in-the-ducts", "");
    assert_eq!(eval_int(&t, "g.counter(\"noise_tech\")"), 1);
}

/// [Noise in the Ducts]: with noise already in the ducts, every character in a room with a
/// technical entrance makes a noise roll (room 2; the die shows 3: corridor 2).
#[test]
fn noise_in_the_ducts_makes_duct_rooms_roll() {
    let t = event(
        "noise-in-the-ducts",
        "explore 2\np1 at 2\nnoise 2 1\nnext noise 3",
    );
    assert!(noisy(&t, 2, 2));
}

/// Rules §21.6, option `queen_surprise`: a Queen bag result with two characters in the Nest
/// makes one surprise check, against the one with the fewer cards (`fewest-cards`), or one
/// against each (`everyone`). Both hold fewer cards than the Queen token's 4.
#[test]
fn queen_surprise_option() {
    let position =
        "encountered\ntile 9 nest\np1 at 9\np2 at 9\nhand p1 1\nhand p2 2\nnext event hunt-1\nnext bag queen";
    let attacks = |value: &str| {
        let mut t = table_with(2, &[("queen_surprise", value)], position);
        for seat in ["p1", "p2"] {
            t.play(seat, "pass");
            settle(&mut t, seat);
        }
        assert!(intruders(&t, 9).contains("queen"));
        eval_int(&t, "g.zone(\"attacks_discard\").len")
    };
    assert_eq!(attacks("fewest-cards"), 1);
    assert_eq!(attacks("everyone"), 2);
}
