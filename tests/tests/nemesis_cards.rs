//! Nemesis (scripts/nemesis/cards.rhai), part 1: scenario tests for the action cards (rules
//! §6.1, §6.3; content §13). Positions give p1 a character (`character p1 scout`), an exact
//! hand (`hand p1 0`, then `draw p1 <kind>`), ammo (`loaded p1 2`) and contamination cards
//! (`contamination p1 hand clean`): see cards.rhai's `card_position`.

use boardscript_tests::Table;

mod nemesis_support;
use nemesis_support::{act, eval_int, seat_counter, table, zone_len};

fn offers(t: &Table, seat: &str, action: &str) -> bool {
    t.legal(seat).iter().any(|a| a == action)
}

fn room(t: &Table, seat: &str) -> i64 {
    seat_counter(t, seat, "room")
}

/// A position where p1 plays `character` with exactly the cards of `kinds` in hand.
fn hand_of(character: &str, kinds: &[&str]) -> String {
    let mut p = format!("character p1 {character}\nhand p1 0\n");
    for k in kinds {
        p += &format!("draw p1 {k}\n");
    }
    p
}

// ---------------------------------------------------------------- §6.1 costs and icons

/// §6.3: a card costs itself plus its printed cost; it is not offered when the hand cannot
/// pay both (Motivation, cost 1, with no other card in hand).
#[test]
fn a_card_needs_its_printed_cost_in_other_cards() {
    let t = table(1, &hand_of("captain", &["motivation"]));
    assert!(
        !offers(&t, "p1", "play captain-motivation"),
        "{:?}",
        t.legal("p1")
    );
    let mut t = table(1, &hand_of("captain", &["motivation", "search"]));
    act(&mut t, "p1", "play captain-motivation");
    // The card and the cost in the discard pile, then 1 card drawn.
    assert_eq!(zone_len(&t, "discard", "p1"), 2);
    assert_eq!(zone_len(&t, "hand", "p1"), 1);
    assert_eq!(seat_counter(&t, "p1", "acts"), 1);
}

/// §6.3: contamination cards never pay a cost (rules §6.1).
#[test]
fn contamination_cards_do_not_pay_costs() {
    let t = table(
        1,
        &(hand_of("captain", &["motivation"]) + "contamination p1 hand clean\n"),
    );
    assert!(!offers(&t, "p1", "play captain-motivation"));
}

/// The ammo of `seat`'s starting weapon.
fn ammo_of(t: &Table, seat: &str) -> i64 {
    eval_int(
        t,
        &format!("weapon_ammo(g, starting_weapon(g, \"{seat}\"))"),
    )
}

/// §6.1: a combat-only card is not offered out of combat, a non-combat card not in combat.
#[test]
fn combat_and_non_combat_icons() {
    let quiet = table(1, &hand_of("soldier", &["drive-back", "rest", "search"]));
    assert!(!offers(&quiet, "p1", "play soldier-drive-back"));
    let fight = table(
        1,
        &(hand_of("soldier", &["drive-back", "rest", "search"])
            + "contamination p1 hand clean\nintruder adult 10\n"),
    );
    assert!(offers(&fight, "p1", "play soldier-drive-back"));
    assert!(!offers(&fight, "p1", "play soldier-rest"));
}

// ---------------------------------------------------------------- §13.1 every character's

/// Rest: the clean contamination cards in hand leave the game (`box`).
#[test]
fn rest_removes_clean_contamination_from_the_hand() {
    let t = table(1, &hand_of("scout", &["rest"]));
    assert!(
        !offers(&t, "p1", "play scout-rest"),
        "no contamination: no effect"
    );
    let mut t = table(
        1,
        &(hand_of("scout", &["rest"])
            + "contamination p1 hand clean\ncontamination p1 hand clean\n"),
    );
    act(&mut t, "p1", "play scout-rest");
    assert_eq!(zone_len(&t, "hand", "p1"), 0);
    assert_eq!(seat_counter(&t, "p1", "larva"), 0);
    assert_eq!(eval_int(&t, "g.zone(\"box\").count(\"contamination\")"), 2);
}

/// Rest: an infected card stays in hand and the infection rule applies (§9.3: a larva).
#[test]
fn rest_keeps_an_infected_card_and_infects() {
    let mut t = table(
        1,
        &(hand_of("scout", &["rest"]) + "contamination p1 hand infected\n"),
    );
    act(&mut t, "p1", "play scout-rest");
    assert_eq!(zone_len(&t, "hand", "p1"), 1);
    assert_eq!(seat_counter(&t, "p1", "larva"), 1);
}

/// Self-Diagnosis (cost 1): the discard pile's clean contamination cards leave the game.
#[test]
fn self_diagnosis_scans_the_discard_pile() {
    let mut t = table(
        1,
        &(hand_of("scientist", &["self-diagnosis", "search"]) + "contamination p1 discard clean\n"),
    );
    act(&mut t, "p1", "play scientist-self-diagnosis");
    assert_eq!(
        eval_int(&t, "g.zone(\"discard\", \"p1\").count(\"contamination\")"),
        0
    );
    assert_eq!(zone_len(&t, "discard", "p1"), 2, "the card and its cost");
}

/// Demolition: a closed door of your room destroyed (in combat too: no icon).
#[test]
fn demolition_destroys_a_closed_door() {
    let mut t = table(
        1,
        &(hand_of("pilot", &["demolition"]) + "door 10 1 closed\nintruder adult 10\n"),
    );
    act(&mut t, "p1", "play pilot-demolition");
    // The Hibernatorium may take a malfunction too: both answers are asked.
    assert_eq!(t.legal("p1"), ["destroy 1", "malfunction"]);
    t.play("p1", "destroy 1");
    assert_eq!(
        eval_int(
            &t,
            "g.graph(\"ship\").edge_value(exit_edge(g, room_id(10), 1), \"door\")"
        ),
        2
    );
}

/// Demolition: or a malfunction marker in your room.
#[test]
fn demolition_places_a_malfunction() {
    let mut t = table(1, &hand_of("pilot", &["demolition"]));
    act(&mut t, "p1", "play pilot-demolition");
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(10), \"malf\")"),
        1
    );
    assert!(!offers(&t, "p1", "play pilot-demolition"));
}

// ---------------------------------------------------------------- §13.2 Captain

/// Order: another character moves where the Captain says, explores, and its player pays
/// nothing.
#[test]
fn order_moves_another_character() {
    let mut t = table(
        2,
        &(hand_of("captain", &["order"]) + "p2 at 10\nnext noise 1\n"),
    );
    let p2_hand = zone_len(&t, "hand", "p2");
    act(&mut t, "p1", "play captain-order");
    // p2 is the only other character here: taken without asking.
    assert_eq!(t.legal("p1"), ["room 11", "room 17", "room 3", "room 9"]);
    t.play("p1", "room 9");
    assert_eq!(room(&t, "p2"), 9);
    assert_eq!(room(&t, "p1"), 10);
    assert_eq!(zone_len(&t, "hand", "p2"), p2_hand);
    assert_eq!(
        eval_int(
            &t,
            "if g.graph(\"ship\").mark(room_id(9)) == \"e\" { 1 } else { 0 }"
        ),
        1
    );
}

/// Suppressive Fire: 1 ammo spent; the chosen character leaves combat without any attack.
#[test]
fn suppressive_fire_flees_without_attacks() {
    let mut t = table(
        2,
        &(hand_of("captain", &["suppressive-fire"]) + "p2 at 10\nintruder adult 10\nloaded p1 3\n"),
    );
    act(&mut t, "p1", "play captain-suppressive-fire");
    assert_eq!(t.legal("p1"), ["move p1", "move p2"]);
    t.play("p1", "move p2");
    t.play("p1", "room 3");
    assert_eq!(room(&t, "p2"), 3);
    assert_eq!(ammo_of(&t, "p1"), 2);
    assert_eq!(eval_int(&t, "g.zone(\"attacks_discard\").len"), 0);
}

/// Suppressive Fire needs ammo in a weapon in your hands.
#[test]
fn suppressive_fire_needs_ammo() {
    let t = table(
        1,
        &(hand_of("captain", &["suppressive-fire"]) + "intruder adult 10\nloaded p1 0\n"),
    );
    assert!(!offers(&t, "p1", "play captain-suppressive-fire"));
}

/// Reload: +1 ammo in the Revolver, never above its capacity (6).
#[test]
fn reload_adds_one_ammo_to_the_revolver() {
    let full = table(1, &hand_of("captain", &["reload"]));
    assert!(
        !offers(&full, "p1", "play captain-reload"),
        "loaded to capacity"
    );
    let mut t = table(1, &(hand_of("captain", &["reload"]) + "loaded p1 4\n"));
    act(&mut t, "p1", "play captain-reload");
    assert_eq!(ammo_of(&t, "p1"), 5);
}

/// Motivation: you and every other character in your room draw 1 card.
#[test]
fn motivation_draws_for_everyone_in_the_room() {
    let mut t = table(
        3,
        &(hand_of("captain", &["motivation", "search"]) + "p2 at 10\np3 at 3\n"),
    );
    let (h2, h3) = (zone_len(&t, "hand", "p2"), zone_len(&t, "hand", "p3"));
    act(&mut t, "p1", "play captain-motivation");
    assert_eq!(zone_len(&t, "hand", "p1"), 1);
    assert_eq!(zone_len(&t, "hand", "p2"), h2 + 1);
    assert_eq!(zone_len(&t, "hand", "p3"), h3);
}

/// Lead the Way: each other character decides; one noise roll, by the leader, in an empty room.
#[test]
fn lead_the_way_moves_the_followers_with_one_noise_roll() {
    let mut t = table(
        3,
        &(hand_of("captain", &["lead-the-way", "search"])
            + "p2 at 10\np3 at 10\nexplore 9\nnext noise 1 3\n"),
    );
    act(&mut t, "p1", "play captain-lead-the-way");
    t.play("p1", "room 9");
    assert_eq!(t.legal("p2"), ["follow", "stay"]);
    t.play("p2", "follow");
    t.play("p3", "stay");
    assert_eq!((room(&t, "p1"), room(&t, "p2"), room(&t, "p3")), (9, 9, 10));
    // One die used of the two queued.
    assert_eq!(eval_int(&t, "g.get(\"force_noise\").len()"), 1);
}

// ---------------------------------------------------------------- §13.3 Pilot

/// Knowledge of the Ship: close (or open) a door of your room.
#[test]
fn knowledge_of_the_ship_closes_a_door() {
    let mut t = table(1, &hand_of("pilot", &["knowledge-of-the-ship"]));
    act(&mut t, "p1", "play pilot-knowledge-of-the-ship");
    assert!(offers(&t, "p1", "close 2") && offers(&t, "p1", "look 9"));
    t.play("p1", "close 2");
    assert_eq!(
        eval_int(
            &t,
            "g.graph(\"ship\").edge_value(exit_edge(g, room_id(10), 2), \"door\")"
        ),
        1
    );
}

/// Knowledge of the Ship: a secret look at an unexplored tile, not its token; only the
/// player's view shows it.
#[test]
fn knowledge_of_the_ship_shows_a_tile_to_its_player_only() {
    let mut t = table(2, &hand_of("pilot", &["knowledge-of-the-ship"]));
    let tile = t.eval("g.zone(`tile/${room_id(18)}`).top().name");
    let token = t.eval("g.zone(`token/${room_id(18)}`).top().name");
    act(&mut t, "p1", "play pilot-knowledge-of-the-ship");
    t.play("p1", "look 18");
    let shows = |seat: usize, name: &str| {
        t.state()
            .view(Some(seat))
            .cards
            .iter()
            .any(|c| format!("{:?}", c.name) == name)
    };
    assert!(shows(0, &tile));
    assert!(!shows(1, &tile));
    assert!(!shows(0, &token));
}

/// Quick Exit: a flee in which only breeders and the queen attack (an adult does not).
#[test]
fn quick_exit_escapes_an_adult_unharmed() {
    let mut t = table(
        1,
        &(hand_of("pilot", &["quick-exit", "search"]) + "intruder adult 10\nexplore 3\n"),
    );
    act(&mut t, "p1", "play pilot-quick-exit");
    t.play("p1", "room 3");
    assert_eq!(room(&t, "p1"), 3);
    assert_eq!(eval_int(&t, "g.zone(\"attacks_discard\").len"), 0);
}

/// Quick Exit: a breeder still attacks.
#[test]
fn quick_exit_still_meets_a_breeder() {
    let mut t = table(
        1,
        &(hand_of("pilot", &["quick-exit", "search"]) + "intruder breeder 10\nexplore 3\n"),
    );
    act(&mut t, "p1", "play pilot-quick-exit");
    t.play("p1", "room 3");
    assert_eq!(eval_int(&t, "g.zone(\"attacks_discard\").len"), 1);
}

// ---------------------------------------------------------------- §13.4 Scientist

/// Risk Assessment: in a room with a computer, the top event card goes to the bottom.
#[test]
fn risk_assessment_puts_the_top_event_at_the_bottom() {
    let mut t = table(
        1,
        &(hand_of("scientist", &["risk-assessment"]) + "tile 9 comms-room\np1 at 9\n"),
    );
    let top = t.eval("g.zone(\"events\").top().name");
    act(&mut t, "p1", "play scientist-risk-assessment");
    assert_eq!(t.legal("p1"), ["bottom", "top"]);
    t.play("p1", "bottom");
    assert_eq!(t.eval("g.zone(\"events\").cards()[0].name"), top);
    assert_ne!(t.eval("g.zone(\"events\").top().name"), top);
}

/// Risk Assessment needs a computer, and a malfunction removes it (rules §3.2).
#[test]
fn risk_assessment_needs_a_working_computer() {
    let t = table(
        1,
        &(hand_of("scientist", &["risk-assessment"]) + "tile 9 cabins\np1 at 9\n"),
    );
    assert!(!offers(&t, "p1", "play scientist-risk-assessment"));
    let t = table(
        1,
        &(hand_of("scientist", &["risk-assessment"])
            + "tile 9 comms-room\np1 at 9\nmalfunction 9\n"),
    );
    assert!(!offers(&t, "p1", "play scientist-risk-assessment"));
}

// ---------------------------------------------------------------- §13.5 Scout

/// Scavenging: a Search with the item counter at 0, which stays at 0.
#[test]
fn scavenging_searches_an_empty_room() {
    let mut t = table(
        1,
        &(hand_of("scout", &["scavenging", "search"]) + "tile 9 armory\np1 at 9\nitems 9 0\n"),
    );
    act(&mut t, "p1", "play scout-scavenging");
    assert!(
        t.legal("p1").iter().all(|a| a.starts_with("keep red-")),
        "{:?}",
        t.legal("p1")
    );
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(9), \"items\")"),
        0
    );
}

/// Scavenging reduces a counter above 0 as usual, and never works in the Nest.
#[test]
fn scavenging_reduces_the_counter_and_keeps_search_limits() {
    let mut t = table(
        1,
        &(hand_of("scout", &["scavenging", "search"]) + "tile 9 armory\np1 at 9\nitems 9 2\n"),
    );
    act(&mut t, "p1", "play scout-scavenging");
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(9), \"items\")"),
        1
    );
    let nest = table(
        1,
        &(hand_of("scout", &["scavenging", "search"]) + "tile 9 nest\np1 at 9\n"),
    );
    assert!(!offers(&nest, "p1", "play scout-scavenging"));
}

/// Reconnaissance: a move with no noise roll that ignores a Danger token.
#[test]
fn reconnaissance_makes_no_noise() {
    let mut t = table(
        1,
        &(hand_of("scout", &["reconnaissance", "search"]) + "next noise 1\n"),
    );
    act(&mut t, "p1", "play scout-reconnaissance");
    t.play("p1", "room 9");
    assert_eq!(room(&t, "p1"), 9);
    assert_eq!(
        eval_int(&t, "g.get(\"force_noise\").len()"),
        1,
        "no die rolled"
    );
    assert_eq!(eval_int(&t, "g.zone(`room/${room_id(9)}`).len"), 0);
}

/// Adrenaline: a normal flee (the Intruder attacks), then 1 card drawn.
#[test]
fn adrenaline_moves_then_draws() {
    let mut t = table(
        1,
        &(hand_of("scout", &["adrenaline"]) + "intruder adult 10\nexplore 3\n"),
    );
    act(&mut t, "p1", "play scout-adrenaline");
    assert!(offers(&t, "p1", "move 3"));
    t.play("p1", "move 3");
    assert_eq!(room(&t, "p1"), 3);
    assert_eq!(eval_int(&t, "g.zone(\"attacks_discard\").len"), 1);
    assert_eq!(zone_len(&t, "hand", "p1"), 1);
}

/// Lookout: the tile and the token of an adjacent unexplored room, shown to the player only.
#[test]
fn lookout_shows_tile_and_token() {
    let mut t = table(2, &hand_of("scout", &["lookout"]));
    let tile = t.eval("g.zone(`tile/${room_id(9)}`).top().name");
    let token = t.eval("g.zone(`token/${room_id(9)}`).top().name");
    act(&mut t, "p1", "play scout-lookout");
    assert!(!offers(&t, "p1", "look 18"), "not adjacent");
    t.play("p1", "look 9");
    for (seat, seen) in [(0, true), (1, false)] {
        let v = t.state().view(Some(seat));
        for name in [&tile, &token] {
            let found = v.cards.iter().any(|c| format!("{:?}", c.name) == *name);
            assert_eq!(found, seen, "{name} in the view of seat {seat}");
        }
    }
}

/// Sprint: two moves, each with its own rules.
#[test]
fn sprint_moves_twice() {
    let mut t = table(
        1,
        &(hand_of("scout", &["sprint", "search"]) + "explore 9\nexplore 5\nnext noise 1 1\n"),
    );
    act(&mut t, "p1", "play scout-sprint");
    t.play("p1", "room 9");
    assert!(
        !offers(&t, "p1", "stay"),
        "the second move is required by default"
    );
    t.play("p1", "room 5");
    assert_eq!(room(&t, "p1"), 5);
}

/// Sprint: the second move is lost when the first ends in combat.
#[test]
fn sprint_stops_in_combat() {
    let mut t = table(
        1,
        &(hand_of("scout", &["sprint", "search"]) + "explore 9\nintruder adult 9\n"),
    );
    act(&mut t, "p1", "play scout-sprint");
    t.play("p1", "room 9");
    assert!(!t.legal("p1").iter().any(|a| a.starts_with("room ")));
    assert_eq!(room(&t, "p1"), 9);
}

// ---------------------------------------------------------------- §13.6 Soldier

/// Covering Fire: you and another character move together without attacks, 1 ammo spent.
#[test]
fn covering_fire_moves_two_together() {
    let mut t = table(
        2,
        &(hand_of("soldier", &["covering-fire"])
            + "p2 at 10\nintruder adult 10\nexplore 3\nnext noise 1\n"),
    );
    let ammo = ammo_of(&t, "p1");
    act(&mut t, "p1", "play soldier-covering-fire");
    t.play("p1", "move p1 p2");
    t.play("p1", "room 3");
    assert_eq!((room(&t, "p1"), room(&t, "p2")), (3, 3));
    assert_eq!(ammo_of(&t, "p1"), ammo - 1);
    assert_eq!(eval_int(&t, "g.zone(\"attacks_discard\").len"), 0);
    assert_eq!(
        eval_int(&t, "g.get(\"force_noise\").len()"),
        0,
        "one roll, by the first"
    );
}

/// Taking Aim: one Shoot with an energy weapon and one reroll of the die.
#[test]
fn taking_aim_rerolls_once() {
    let mut t = table(
        1,
        &(hand_of("soldier", &["taking-aim"]) + "intruder larva 10\nnext combat 1 6\n"),
    );
    let ammo = ammo_of(&t, "p1");
    act(&mut t, "p1", "play soldier-taking-aim");
    assert_eq!(t.legal("p1"), ["keep", "reroll"]);
    t.play("p1", "reroll");
    assert_eq!(ammo_of(&t, "p1"), ammo - 1);
    assert_eq!(
        eval_int(&t, "g.zone(`room/${room_id(10)}`).len"),
        0,
        "the larva dies"
    );
}

/// Full Auto: all the Assault Rifle's ammo (at least 2), 1 extra wound per 2 even on a miss.
#[test]
fn full_auto_wounds_even_when_it_misses() {
    let low = table(
        1,
        &(hand_of("soldier", &["full-auto"]) + "intruder larva 10\nloaded p1 1\n"),
    );
    assert!(!offers(&low, "p1", "play soldier-full-auto"));
    let mut t = table(
        1,
        &(hand_of("soldier", &["full-auto"]) + "intruder larva 10\nloaded p1 3\nnext combat 1\n"),
    );
    act(&mut t, "p1", "play soldier-full-auto");
    assert_eq!(ammo_of(&t, "p1"), 0);
    assert_eq!(
        eval_int(&t, "g.zone(`room/${room_id(10)}`).len"),
        0,
        "a blank, and 1 wound"
    );
}

/// Drive Back: an Intruder in your room retreats by an event card's corridor.
#[test]
fn drive_back_makes_an_intruder_retreat() {
    let mut t = table(
        1,
        &(hand_of("soldier", &["drive-back", "search"]) + "intruder adult 10\n"),
    );
    let events = eval_int(&t, "g.zone(\"events_discard\").len");
    act(&mut t, "p1", "play soldier-drive-back");
    assert_eq!(eval_int(&t, "g.zone(`room/${room_id(10)}`).len"), 0);
    assert_eq!(eval_int(&t, "g.zone(\"events_discard\").len"), events + 1);
}

/// Field Reload (cost 1): +2 ammo in an energy weapon, not above its capacity (5).
#[test]
fn field_reload_adds_two_ammo() {
    let mut t = table(
        1,
        &(hand_of("soldier", &["field-reload", "search"]) + "loaded p1 4\n"),
    );
    act(&mut t, "p1", "play soldier-field-reload");
    assert_eq!(ammo_of(&t, "p1"), 5);
    assert_eq!(zone_len(&t, "discard", "p1"), 2);
}

// ---------------------------------------------------------------- §13.7 Mechanic

/// Technical Corridor: from a room with an entrance to any other, then the turn is passed.
#[test]
fn technical_corridor_moves_then_passes() {
    let mut t = table(
        2,
        &(hand_of("mechanic", &["technical-corridor", "search"])
            + "explore 9\np1 at 9\nexplore 18\nnext noise 1\n"),
    );
    act(&mut t, "p1", "play mechanic-technical-corridor");
    assert!(offers(&t, "p1", "room 18") && !offers(&t, "p1", "room 9"));
    t.play("p1", "room 18");
    assert_eq!(room(&t, "p1"), 18);
    assert_eq!(seat_counter(&t, "p1", "passed"), 1);
}

/// Pyrotechnics: an item held burns into a fire in your room; or the fire is put out.
#[test]
fn pyrotechnics_lights_and_puts_out_a_fire() {
    let mut t = table(
        1,
        &(hand_of("mechanic", &["pyrotechnics", "search"]) + "give p1 tools\n"),
    );
    act(&mut t, "p1", "play mechanic-pyrotechnics");
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(10), \"fire\")"),
        1
    );
    assert_eq!(zone_len(&t, "inventory", "p1"), 0);
    let mut t = table(
        1,
        &(hand_of("mechanic", &["pyrotechnics", "search"]) + "fire 10\n"),
    );
    act(&mut t, "p1", "play mechanic-pyrotechnics");
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(10), \"fire\")"),
        0
    );
}

/// Barricade: close an open door of your room.
#[test]
fn barricade_closes_an_open_door() {
    let mut t = table(1, &hand_of("mechanic", &["barricade"]));
    act(&mut t, "p1", "play mechanic-barricade");
    assert_eq!(t.legal("p1"), ["close 1", "close 2", "close 3", "close 4"]);
    t.play("p1", "close 3");
    assert_eq!(
        eval_int(
            &t,
            "g.graph(\"ship\").edge_value(exit_edge(g, room_id(10), 3), \"door\")"
        ),
        1
    );
}

/// Ingenuity: not offered when neither its repair nor its craft half has anything to do.
#[test]
fn ingenuity_needs_something_to_repair_or_craft() {
    let t = table(1, &hand_of("mechanic", &["ingenuity"]));
    assert!(!offers(&t, "p1", "play mechanic-ingenuity"));
}

/// Sprint with `sprint_second=optional`: the player may stay after the first move.
#[test]
fn sprint_second_move_may_be_optional() {
    let mut t = Table::new(nemesis_support::ID)
        .seats(1)
        .seed(1)
        .option("draft", "random")
        .option("sprint_second", "optional")
        .position(&(hand_of("scout", &["sprint", "search"]) + "explore 9\nnext noise 1\n"))
        .start();
    act(&mut t, "p1", "play scout-sprint");
    t.play("p1", "room 9");
    assert!(offers(&t, "p1", "stay") && offers(&t, "p1", "room 5"));
    t.play("p1", "stay");
    assert_eq!(room(&t, "p1"), 9);
}

// ---------------------------------------------------------------- cards that act through a room

/// Repair (rules §13.3, content §13): the malfunction of your room is discarded.
#[test]
fn repair_discards_the_malfunction_here() {
    let mut t = table(
        1,
        &(hand_of("pilot", &["repair", "search"]) + "tile 5 armory\np1 at 5\nmalfunction 5\n"),
    );
    act(&mut t, "p1", "play pilot-repair");
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(5), \"malf\")"),
        0
    );
    assert_eq!(zone_len(&t, "hand", "p1"), 0, "the card and its cost of 1");
}

/// Repair in an engine room (rules §13.3): both tokens are shown to the seat, which keeps or
/// swaps them; swapping a damaged engine makes it work, and nobody else knows the tokens.
#[test]
fn repair_fixes_an_engine_by_swapping_its_tokens() {
    let mut t = table(
        2,
        &(hand_of("pilot", &["repair", "search"]) + "p1 at 19\nengine 1 damaged\n"),
    );
    assert_eq!(
        t.eval("g.zone(\"engine/1\").top().name"),
        "\"engine-damaged\""
    );
    act(&mut t, "p1", "play pilot-repair");
    let legal = t.legal("p1");
    assert!(legal.contains(&"order swap".to_string()), "{legal:?}");
    t.play("p1", "order swap");
    assert_eq!(
        t.eval("g.zone(\"engine/1\").top().name"),
        "\"engine-working\""
    );
    assert_eq!(
        t.eval("g.card_known_by(g.zone(\"engine/1\").top()).contains(\"p2\")"),
        "false"
    );
}

/// Computer Skills (content §13): in a room with a computer, a free room action: the
/// Cockpit's destination set with no card paid.
#[test]
fn computer_skills_gives_a_free_room_action() {
    let mut t = table(1, &(hand_of("pilot", &["computer-skills"]) + "p1 at 1\n"));
    act(&mut t, "p1", "play pilot-computer-skills");
    if t.legal("p1").contains(&"room".to_string()) {
        t.play("p1", "room");
    }
    let legal = t.legal("p1");
    assert!(legal.contains(&"destination C".to_string()), "{legal:?}");
    t.play("p1", "destination C");
    assert_eq!(eval_int(&t, "g.counter(\"destination\")"), 3);
    assert_eq!(zone_len(&t, "discard", "p1"), 1, "only the card itself");
}

/// Old Friend (content §13): a free room action only in a room without a computer.
#[test]
fn old_friend_needs_a_room_without_a_computer() {
    let cockpit = table(1, &(hand_of("pilot", &["old-friend"]) + "p1 at 1\n"));
    assert!(!offers(&cockpit, "p1", "play pilot-old-friend"));
    let armory = table(
        1,
        &(hand_of("pilot", &["old-friend"]) + "tile 5 armory\np1 at 5\nloaded p1 0\n"),
    );
    assert!(offers(&armory, "p1", "play pilot-old-friend"));
}
