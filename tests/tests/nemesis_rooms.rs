//! Nemesis (scripts/nemesis/rooms.rhai), part 1: scenario tests for the room actions (rules
//! §13), the ship's systems (engines, coordinates, pods, self-destruct, hibernation) and the
//! turning points they reach (§14 items 2-4, §15.2, §15.4-15.6). Positions place tiles
//! (`tile 5 generator`) and set the systems (`pods 1 2`, `pod 1 open`, `destruct 2`,
//! `engine 1 damaged`, `board p1 1`, `hibernating p1`: see rooms.rhai's `room_position`).

use boardscript_interpreter::State;
use boardscript_tests::Table;

mod nemesis_support;
use nemesis_support::{act, eval_int, pass_round, seat_counter, table};

fn has(t: &Table, seat: &str, action: &str) -> bool {
    t.legal(seat).iter().any(|a| a == action)
}

fn counter(t: &Table, name: &str) -> i64 {
    eval_int(t, &format!("g.counter(\"{name}\")"))
}

fn room_counter(t: &Table, what: &str, room: i64) -> i64 {
    eval_int(
        t,
        &format!("g.graph(\"ship\").node_value(room_id({room}), \"{what}\")"),
    )
}

fn truth(t: &Table, expr: &str) -> bool {
    t.eval(expr) == "true"
}

/// §4.1 steps 5-9: 3 engines of a working and a damaged token, 1 coordinates card, the
/// destination on B, 3 closed pods for 3 players sorted into A, B, A, a weakness per slot,
/// no self-destruct.
#[test]
fn setup_builds_the_ships_systems() {
    let t = table(3, "");
    for n in 1..=3 {
        assert_eq!(eval_int(&t, &format!("g.zone(\"engine/{n}\").len")), 2);
        assert_eq!(
            eval_int(
                &t,
                &format!("g.zone(\"engine/{n}\").cards().filter(|c| c.working).len()")
            ),
            1
        );
    }
    assert_eq!(eval_int(&t, "g.zone(\"coordinates\").len"), 1);
    assert_eq!(counter(&t, "destination"), 2);
    assert_eq!(counter(&t, "destruct"), 0);
    let sections: Vec<i64> = (1..=4)
        .map(|n| counter(&t, &format!("pod_sec/{n}")))
        .collect();
    let mut placed: Vec<i64> = sections.iter().copied().filter(|&s| s > 0).collect();
    assert_eq!(placed.len(), 3, "{sections:?}");
    assert_eq!(placed, vec![1, 2, 1], "lowest first, alternating");
    placed.clear();
    assert!((1..=4).all(|n| counter(&t, &format!("pod_open/{n}")) == 0));
    for slot in ["corpse", "egg", "carcass"] {
        assert_eq!(eval_int(&t, &format!("g.zone(\"weak/{slot}\").len")), 1);
    }
}

fn engine_cards_seen(s: &State, seat: usize) -> usize {
    let secret = ["engine-working", "engine-damaged", "coordinates-"];
    s.view(Some(seat))
        .cards
        .iter()
        .filter(|d| secret.iter().any(|p| d.name.starts_with(p)))
        .count()
}

/// §3.6, §13.3: nobody knows an engine's state or the coordinates; checking an engine room
/// shows its top token to the checker only.
#[test]
fn engine_check_shows_the_top_token_to_the_checker_only() {
    let mut t = table(2, "p1 at 19");
    assert_eq!(engine_cards_seen(t.state(), 0), 0);
    assert_eq!(engine_cards_seen(t.state(), 1), 0);
    assert!(has(&t, "p1", "room"));
    act(&mut t, "p1", "room");
    assert!(truth(&t, "knows(g, \"p1\", g.zone(\"engine/1\").top())"));
    assert_eq!(engine_cards_seen(t.state(), 0), 1);
    assert_eq!(engine_cards_seen(t.state(), 1), 0);
    assert!(!has(&t, "p1", "room"), "nothing left to learn here");
}

/// §13.3 Cockpit: check the coordinates (secretly) or set the destination to any letter.
#[test]
fn cockpit_checks_coordinates_or_sets_the_destination() {
    let mut t = table(2, "p1 at 1");
    act(&mut t, "p1", "room");
    let legal = t.legal("p1");
    assert_eq!(
        legal,
        [
            "coordinates",
            "destination A",
            "destination C",
            "destination D"
        ]
    );
    t.play("p1", "destination D");
    assert_eq!(counter(&t, "destination"), 4);
    act(&mut t, "p1", "room");
    t.play("p1", "coordinates");
    assert!(truth(&t, "knows(g, \"p1\", g.zone(\"coordinates\").top())"));
    assert_eq!(engine_cards_seen(t.state(), 0), 1);
    assert_eq!(engine_cards_seen(t.state(), 1), 0);
}

/// §13.3: while anyone hibernates, the destination cannot change and self-destruct cannot
/// start.
#[test]
fn hibernation_blocks_destination_and_self_destruct() {
    // In the Cockpit only the coordinates are left: the one choice is taken.
    let mut t = table(2, "p1 at 1\nhibernating p2");
    act(&mut t, "p1", "room");
    assert_eq!(counter(&t, "destination"), 2);
    assert!(truth(&t, "knows(g, \"p1\", g.zone(\"coordinates\").top())"));
    let t = table(2, "tile 5 generator\np1 at 5\nhibernating p2");
    assert!(!has(&t, "p1", "room"));
}

/// §13.1 Generator: start puts the marker on space 1; cancel takes it off while green.
#[test]
fn generator_starts_and_cancels_self_destruct() {
    let mut t = table(1, "tile 5 generator\np1 at 5");
    act(&mut t, "p1", "room");
    assert_eq!(counter(&t, "destruct"), 1);
    act(&mut t, "p1", "room");
    assert_eq!(counter(&t, "destruct"), 0);
}

/// §14 item 4: the marker moves with the time; on the first yellow space every pod opens,
/// and nothing can cancel it any more.
#[test]
fn self_destruct_yellow_opens_pods_and_cannot_be_cancelled() {
    let mut t = table(1, "tile 5 generator\np1 at 5\ndestruct 2");
    assert!(has(&t, "p1", "room"), "green: cancellable");
    pass_round(&mut t);
    assert_eq!(counter(&t, "destruct"), 3);
    assert_eq!(counter(&t, "pod_open/1") + counter(&t, "pod_open/2"), 2);
    assert!(!has(&t, "p1", "room"), "yellow: no cancel");
}

/// §15.2 item 2: the self-destruct marker reaching the skull destroys the ship.
#[test]
fn self_destruct_skull_destroys_the_ship() {
    let mut t = table(1, "destruct 5");
    pass_round(&mut t);
    assert!(t.is_over());
    assert!(t.winners().is_empty());
}

/// §3.6, §14 item 3: hibernation only while the time marker is on a blue space; the noise
/// roll is made, and the character leaves the board (counter `out` 1).
#[test]
fn hibernation_opens_on_the_first_blue_space() {
    let t = table(2, "time 7");
    assert!(!has(&t, "p1", "room"));
    let mut t = table(2, "time 8\nnext noise 10");
    act(&mut t, "p1", "room");
    assert_eq!(seat_counter(&t, "p1", "out"), 1);
    assert_eq!(seat_counter(&t, "p1", "room"), 0);
    assert!(!t.is_over());
    assert_eq!(t.deciding(), ["p2"]);
}

/// §15.2 item 3: the last character aboard going to sleep makes the ship jump at once.
#[test]
fn the_last_one_hibernating_ends_the_game() {
    let mut t = table(1, "time 8\nnext noise 10");
    act(&mut t, "p1", "room");
    assert!(t.is_over());
}

/// §21.7: an Intruder appearing in the room during the noise roll makes hibernation fail.
#[test]
fn hibernation_fails_when_an_intruder_appears() {
    let mut t = table(2, "time 8\nnoise 10 1\nnext noise 1\nnext bag adult");
    act(&mut t, "p1", "room");
    assert_eq!(seat_counter(&t, "p1", "out"), 0);
}

const EVAC_A: &str = "tile 5 evacuation-section-a\np1 at 5\npods 1 2\n";

/// §15.6: all pods start closed: no boarding.
#[test]
fn closed_pods_cannot_be_boarded() {
    let t = table(2, EVAC_A);
    assert!(!has(&t, "p1", "room"));
}

/// §14 item 2: the first character death opens every escape pod.
#[test]
fn the_first_death_opens_every_pod() {
    let mut t = table(2, &format!("{EVAC_A}serious p1 3\nfire 5"));
    assert_eq!(counter(&t, "pod_open/1"), 0);
    t.play("p1", "pass");
    while t.legal("p1").iter().any(|a| a.starts_with("discard")) {
        t.play("p1", "done");
    }
    assert_eq!(seat_counter(&t, "p1", "dead"), 1);
    assert_eq!(counter(&t, "pod_open/1"), 1);
    assert_eq!(counter(&t, "pod_open/2"), 1);
}

/// §15.6: boarding an open pod of the room's section after a quiet noise roll, then
/// launching: the character escapes (counter `out` 2).
#[test]
fn boarding_and_launching_a_pod_escapes() {
    let mut t = table(2, &format!("{EVAC_A}pod 1 open\nnext noise 10"));
    act(&mut t, "p1", "room");
    assert_eq!(seat_counter(&t, "p1", "pod"), 1);
    assert_eq!(t.legal("p1"), ["launch", "wait"]);
    t.play("p1", "launch");
    assert_eq!(seat_counter(&t, "p1", "out"), 2);
    assert_eq!(counter(&t, "pod_sec/1"), 0, "the pod left the board");
    assert_eq!(t.deciding(), ["p2"]);
}

/// §15.6: waiting in a pod, the character's next turn offers launch, leave, or pass.
#[test]
fn waiting_in_a_pod_offers_launch_leave_or_pass() {
    let t = table(2, &format!("{EVAC_A}pod 1 open\nboard p1 1"));
    assert_eq!(t.legal("p1"), ["pass", "room launch", "room leave"]);
    let mut t = t;
    t.play("p1", "room leave");
    assert_eq!(seat_counter(&t, "p1", "pod"), 0);
    assert!(t.legal("p1").iter().any(|a| a.starts_with("move ")));
}

/// §15.6: an Intruder appearing in the Evacuation room puts the pod's riders back in it.
#[test]
fn an_intruder_appearing_puts_the_riders_back() {
    let t = table(
        2,
        &format!("{EVAC_A}pod 1 open\nboard p1 1\nintruder adult 5"),
    );
    assert_eq!(seat_counter(&t, "p1", "pod"), 0);
}

/// §15.6, §21.7: an encounter during the boarding's noise roll makes boarding fail.
#[test]
fn boarding_fails_when_an_intruder_appears() {
    let mut t = table(
        2,
        &format!("{EVAC_A}pod 1 open\nnoise 5 1\nnext noise 1\nnext bag adult"),
    );
    act(&mut t, "p1", "room");
    assert_eq!(seat_counter(&t, "p1", "pod"), 0);
    assert!(eval_int(&t, "g.zone(`room/${room_id(5)}`).len") > 0);
}

/// §13.2 Hatch Control System: opens or closes one pod.
#[test]
fn hatch_control_opens_a_pod() {
    let mut t = table(
        2,
        "tile 5 hatch-control-system\np1 at 5\npods 1 2\npod 2 open",
    );
    act(&mut t, "p1", "room");
    assert_eq!(t.legal("p1"), ["close 2", "open 1"]);
    t.play("p1", "open 1");
    assert_eq!(counter(&t, "pod_open/1"), 1);
}

/// §6.4, §13: no room action in combat or with a malfunction in the room.
#[test]
fn no_room_action_in_combat_or_with_a_malfunction() {
    let t = table(1, "tile 5 comms-room\np1 at 5");
    assert!(has(&t, "p1", "room"));
    let t = table(1, "tile 5 comms-room\np1 at 5\nmalfunction 5");
    assert!(!has(&t, "p1", "room"));
    let t = table(1, "tile 5 comms-room\np1 at 5\nintruder adult 5");
    assert!(!has(&t, "p1", "room"));
    let t = table(1, "tile 5 comms-room\np1 at 5\nhand p1 1");
    assert!(!has(&t, "p1", "room"), "2 cards");
}

/// §13.1 Comms Room: the signal marker on the character board, once.
#[test]
fn comms_room_sends_the_signal() {
    let mut t = table(1, "tile 5 comms-room\np1 at 5");
    act(&mut t, "p1", "room");
    assert_eq!(seat_counter(&t, "p1", "signal"), 1);
    assert!(!has(&t, "p1", "room"));
}

/// §13.1 Armory: 2 ammo into an energy weapon, not above its capacity.
#[test]
fn armory_recharges_an_energy_weapon() {
    let mut t = table(1, "tile 5 armory\np1 at 5\ngive p1 prototype-pistol");
    act(&mut t, "p1", "room");
    let fill = t
        .legal("p1")
        .into_iter()
        .find(|a| a.starts_with("fill red-prototype-pistol"));
    if let Some(f) = fill {
        t.play("p1", &f);
    }
    let got = eval_int(
        &t,
        "let c = (); for w in g.zone(\"hands\", \"p1\").cards() { if w.name.starts_with(\"red-prototype-pistol\") { c = w; } } g.counter(`ammo/${c.id}`)",
    );
    let cap = eval_int(
        &t,
        "let c = (); for w in g.zone(\"hands\", \"p1\").cards() { if w.name.starts_with(\"red-prototype-pistol\") { c = w; } } c.capacity",
    );
    assert_eq!(got, 3.min(cap));
}

/// §13.1 Fire Control System: any room's fire goes out.
#[test]
fn fire_control_puts_out_a_remote_fire() {
    let mut t = table(1, "tile 5 fire-control-system\np1 at 5\nfire 12");
    act(&mut t, "p1", "room");
    assert_eq!(room_counter(&t, "fire", 12), 0);
    assert_eq!(eval_int(&t, "g.supply(\"fire\").left"), 8);
}

/// §13.1 Fire Control System: the Intruders of the chosen room retreat.
#[test]
fn fire_control_drives_the_intruders_out() {
    let mut t = table(1, "tile 5 fire-control-system\np1 at 5\nintruder adult 12");
    act(&mut t, "p1", "room");
    assert_eq!(eval_int(&t, "g.zone(`room/${room_id(12)}`).len"), 0);
}

/// §13.1 Laboratory, §11: an object on the floor turns up its slot's weakness card for all.
#[test]
fn laboratory_discovers_a_weakness() {
    let mut t = table(2, "tile 5 laboratory\np1 at 5\nfloor 5 corpse 1");
    act(&mut t, "p1", "room");
    assert_eq!(counter(&t, "weakness/corpse"), 1);
    assert!(truth(&t, "knows(g, \"p2\", g.zone(\"weak/corpse\").top())"));
    assert_eq!(room_counter(&t, "corpses", 5), 1, "the object stays");
    assert!(!has(&t, "p1", "room"));
}

/// §21.9 `lab_object = "own-or-floor"`: nothing to analyse without an object.
#[test]
fn laboratory_needs_an_object() {
    let t = table(1, "tile 5 laboratory\np1 at 5");
    assert!(!has(&t, "p1", "room"));
}

/// §13.1 Nest: an egg from the Intruder board into a hand, then a noise roll.
#[test]
fn nest_gives_an_egg_and_a_noise_roll() {
    let mut t = table(1, "tile 5 nest\np1 at 5\nnext noise 1");
    act(&mut t, "p1", "room");
    assert_eq!(eval_int(&t, "g.zone(\"nest_eggs\").len"), 4);
    assert_eq!(eval_int(&t, "g.zone(\"hands\", \"p1\").count(\"egg\")"), 1);
    assert!(truth(&t, "has_noise(g, exit_edge(g, room_id(5), 1))"));
}

/// §13.1 Surgery: 1 light wound, the seat passes, every card shuffled into a new deck.
#[test]
fn surgery_wounds_and_passes_with_an_empty_hand() {
    let mut t = table(2, "tile 5 surgery\np1 at 5");
    act(&mut t, "p1", "room");
    assert_eq!(seat_counter(&t, "p1", "light"), 1);
    assert_eq!(seat_counter(&t, "p1", "passed"), 1);
    assert_eq!(eval_int(&t, "g.zone(\"hand\", \"p1\").len"), 0);
    assert_eq!(eval_int(&t, "g.zone(\"discard\", \"p1\").len"), 0);
    assert_eq!(t.deciding(), ["p2"]);
}

/// §13.1 Storage: a deck is chosen, 2 drawn, 1 kept; the item counter does not drop.
#[test]
fn storage_draws_from_a_chosen_deck() {
    let mut t = table(1, "tile 5 storage\np1 at 5\nitems 5 1");
    act(&mut t, "p1", "room");
    assert_eq!(t.legal("p1"), ["deck green", "deck red", "deck yellow"]);
    t.play("p1", "deck yellow");
    let keep = t.legal("p1")[0].clone();
    assert!(keep.starts_with("keep yellow-"));
    t.play("p1", &keep);
    assert_eq!(room_counter(&t, "items", 5), 1);
    assert_eq!(
        eval_int(
            &t,
            "g.zone(\"inventory\", \"p1\").len + g.zone(\"hands\", \"p1\").len"
        ),
        2
    );
}

/// §13.1 Emergency Room: heal all light wounds (the only choice here).
#[test]
fn emergency_room_heals_light_wounds() {
    let mut t = table(1, "tile 5 emergency-room\np1 at 5\nlight p1 2");
    act(&mut t, "p1", "room");
    assert_eq!(seat_counter(&t, "p1", "light"), 0);
}

/// §13.1 Emergency Room: dress all serious wounds, or heal light ones.
#[test]
fn emergency_room_dresses_serious_wounds() {
    let mut t = table(
        1,
        "tile 5 emergency-room\np1 at 5\nlight p1 1\nserious p1 2",
    );
    act(&mut t, "p1", "room");
    assert_eq!(t.legal("p1"), ["dress all", "heal light"]);
    t.play("p1", "dress all");
    assert_eq!(eval_int(&t, "g.zone(\"dressed\", \"p1\").len"), 2);
    assert_eq!(eval_int(&t, "g.zone(\"wounds\", \"p1\").len"), 0);
}

/// §13.2 Canteen: heal 1 light wound.
#[test]
fn canteen_heals_one_light_wound() {
    let mut t = table(1, "tile 5 canteen\np1 at 5\nlight p1 2");
    act(&mut t, "p1", "room");
    assert_eq!(seat_counter(&t, "p1", "light"), 1);
}

/// §13.2 Shower Room: the slime marker goes.
#[test]
fn shower_removes_slime() {
    let mut t = table(1, "tile 5 shower-room\np1 at 5\nslime p1");
    act(&mut t, "p1", "room");
    assert_eq!(seat_counter(&t, "p1", "slime"), 0);
}

/// §13.2 Slime-Covered Room: entering it, explored already, puts on a slime marker.
#[test]
fn entering_the_slime_covered_room_slimes() {
    let t0 = table(1, "p1 at 5");
    let to = t0.eval("move_targets(g, room_id(5))[0]");
    let mut t = table(
        1,
        &format!("tile {to} slime-covered-room\np1 at 5\nnext noise 10"),
    );
    act(&mut t, "p1", &format!("move {to}"));
    assert_eq!(seat_counter(&t, "p1", "slime"), 1);
}

/// §13.2 Command Center: the doors of any one room, one by one, then done.
#[test]
fn command_center_closes_a_remote_door() {
    let mut t = table(1, "tile 5 command-center\np1 at 5");
    act(&mut t, "p1", "room");
    t.play("p1", "room 12");
    assert!(has(&t, "p1", "close 1"));
    t.play("p1", "close 1");
    t.play("p1", "done");
    assert!(truth(
        &t,
        "g.graph(\"ship\").edge_value(exit_edge(g, room_id(12), 1), \"door\") == 1"
    ));
}

/// §13.2 Engine Control Room: a secret look at all 3 engines.
#[test]
fn engine_control_room_shows_all_engines() {
    let mut t = table(2, "tile 5 engine-control-room\np1 at 5");
    act(&mut t, "p1", "room");
    for n in 1..=3 {
        assert!(truth(
            &t,
            &format!("knows(g, \"p1\", g.zone(\"engine/{n}\").top())")
        ));
    }
    assert_eq!(engine_cards_seen(t.state(), 0), 3);
    assert_eq!(engine_cards_seen(t.state(), 1), 0);
}

/// §13.2 Monitoring Room: a secret look at an unexplored room's tile and token.
#[test]
fn monitoring_room_shows_an_unexplored_room() {
    let mut t = table(2, "tile 5 monitoring-room\np1 at 5");
    act(&mut t, "p1", "room");
    t.play("p1", "room 12");
    assert!(truth(
        &t,
        "knows(g, \"p1\", g.zone(`tile/${room_id(12)}`).top())"
    ));
    assert!(truth(
        &t,
        "knows(g, \"p1\", g.zone(`token/${room_id(12)}`).top())"
    ));
    assert!(!truth(
        &t,
        "knows(g, \"p2\", g.zone(`tile/${room_id(12)}`).top())"
    ));
}

/// §13.2 Airlock Control: another yellow room sealed; at the end of the player phase
/// everything in it dies (a carcass for an adult, rules §21.13) and its fire goes out.
#[test]
fn airlock_kills_what_is_sealed_in() {
    let mut t = table(
        1,
        "tile 5 airlock-control\ntile 12 generator\np1 at 5\nintruder adult 12\nfire 12",
    );
    act(&mut t, "p1", "room");
    assert!(truth(
        &t,
        "g.graph(\"ship\").edge_value(exit_edge(g, room_id(12), 1), \"door\") == 1"
    ));
    t.play("p1", "pass");
    while t.legal("p1").iter().any(|a| a.starts_with("discard")) {
        t.play("p1", "done");
    }
    assert_eq!(eval_int(&t, "g.zone(`room/${room_id(12)}`).len"), 0);
    assert_eq!(room_counter(&t, "carcasses", 12), 1);
    assert_eq!(room_counter(&t, "fire", 12), 0);
    assert_eq!(counter(&t, "airlock"), 0);
}

/// §13.3 repairs (action cards): the malfunction of your room, or the engine of an engine
/// room even with a malfunction there.
#[test]
fn repair_choices_follow_the_room() {
    let t = table(1, "p1 at 19\nmalfunction 19");
    assert_eq!(
        t.eval("room_card_choices(g, \"p1\", #{ kind: \"repair\" })"),
        "[\"malfunction\", \"engine\"]"
    );
    let t = table(1, "p1 at 1");
    assert_eq!(
        t.eval("room_card_choices(g, \"p1\", #{ kind: \"repair\" })"),
        "[]"
    );
}
