//! Nemesis (scripts/nemesis) game modes, rules §16, besides their objectives: the seat counts
//! each mode plays, solo's halved item counters (§16.2, content §3), the co-operative
//! resurrection and belongings (§16.3), the Intruder player (§16.4, content §19.1); then 300
//! seeded random playouts per mode. Positions: scripts/nemesis/position.rhai's header and
//! `mode_position` in modes.rhai (`token`, `die`, `ip`, `ip-hand`).

use boardscript_interpreter::state::Counters;
use boardscript_interpreter::{Match, Setup};
use boardscript_tests::{load, Check, PlayoutStats, Playouts, Step, Table};
use std::sync::atomic::{AtomicUsize, Ordering};

mod nemesis_support;
use nemesis_support::{
    act, act_settled, board_holds, eval_int, noisy, seat_counter, settle, table_with, zone_len,
    ENDINGS, ID,
};

// ---------------------------------------------------------------- Helpers

const SOLO: [(&str, &str); 1] = [("mode", "solo")];
const COOP: [(&str, &str); 1] = [("mode", "coop")];
const IP: [(&str, &str); 1] = [("intruder_player", "true")];

/// Why setup refuses these seats and options.
fn setup_refusal(seats: usize, options: &[(&str, &str)]) -> String {
    let setup = Setup {
        seats: Some(seats),
        seed: 1,
        options: options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        position: None,
    };
    match Match::new(load(ID), setup) {
        Ok(_) => panic!("setup accepted {seats} seats with {options:?}"),
        Err(e) => e.to_string(),
    }
}

/// Room `n`'s item counter, read as the rules read it.
fn items(t: &Table, n: i64) -> i64 {
    eval_int(t, &format!("items_in(g, room_id({n}))"))
}

/// Every seat passes in turn order until the seat `until` is to play, or the next round
/// begins (`until` = "round"), answering the discard and keep questions with their first
/// option ("done", or the first card kept).
fn pass_round(t: &mut Table) {
    let round = eval_int(t, "g.counter(\"round\")");
    while eval_int(t, "g.counter(\"round\")") == round && !t.is_over() {
        let seat = t.deciding()[0].clone();
        let legal = t.legal(&seat);
        let a = if legal.contains(&"pass".to_string()) {
            "pass".to_string()
        } else {
            legal[0].clone()
        };
        t.play(&seat, &a);
        settle(t, &seat);
    }
}

fn hand(t: &Table, seat: &str) -> String {
    t.eval(&format!("g.zone(\"hand\", \"{seat}\").names()"))
}

/// The Rhai reference of the first Intruder miniature in room `n` (`adult-42`).
fn mini_in(t: &Table, n: i64) -> String {
    t.eval(&format!("mini_ref(g.zone(`room/${{room_id({n})}}`).top())"))
        .trim_matches('"')
        .to_string()
}

// ---------------------------------------------------------------- §16.2-16.4 seat counts

/// §16.2: solo is the 1-seat game; §16.3: co-op needs company (1 seat plays solo); §16.4:
/// no Intruder player in solo or alone.
#[test]
fn setup_refuses_a_mode_without_its_seat_count() {
    let e = setup_refusal(2, &SOLO);
    assert!(
        e.contains("mode solo is the 1-seat game (rules §16.2), this game has 2 seats"),
        "{e}"
    );
    assert!(e.contains("modes.rhai:"), "{e}");
    let e = setup_refusal(1, &COOP);
    assert!(
        e.contains("mode coop needs 2 or more seats (rules §16.3)"),
        "{e}"
    );
    let e = setup_refusal(1, &[("mode", "solo"), ("intruder_player", "true")]);
    assert!(
        e.contains("option intruder_player needs 2 or more seats"),
        "{e}"
    );
    let e = setup_refusal(1, &IP);
    assert!(
        e.contains("option intruder_player needs 2 or more seats"),
        "{e}"
    );
}

// ---------------------------------------------------------------- §16.2 Solo

/// Content §3 (room 11: the Command Center with this seed): in solo a token's item count is halved rounding up: 1 -> 1, 3 -> 2, 4 -> 2
/// (and 2 -> 1); the standard game keeps it.
#[test]
fn solo_halves_item_counters_rounding_up() {
    for (token, want) in [(1, 1), (2, 1), (3, 2), (4, 2)] {
        let t = table_with(1, &SOLO, &format!("token 11 {token}\nexplore 11"));
        assert_eq!(items(&t, 11), want, "{token}");
    }
    let t = table_with(1, &[], "token 11 3\nexplore 11");
    assert_eq!(items(&t, 11), 3);
}

/// Solo in play: a room explored by moving shows the halved count (a 4 shows 2).
#[test]
fn solo_exploring_a_room_finds_half_the_items() {
    let mut t = table_with(1, &SOLO, "token 11 4\nnext noise 10");
    act_settled(&mut t, "p1", "move 11");
    assert_eq!(items(&t, 11), 2);
}

/// §16.2: otherwise the setup for 1 player: 2 escape pods, bag adults 3 + 1.
#[test]
fn solo_sets_up_two_pods_and_four_adults() {
    let t = table_with(1, &SOLO, "");
    assert_eq!(eval_int(&t, "pods_on_board(g).len()"), 2);
    let adults = t
        .state()
        .bags
        .iter()
        .find(|b| &*b.name == "bag")
        .unwrap()
        .counts()
        .filter(|(id, _)| id.starts_with("token-adult"))
        .map(|(_, n)| n)
        .sum::<u32>();
    assert_eq!(adults, 4);
}

// ---------------------------------------------------------------- §16.3 Full co-operative

/// §16.3: a dead co-op character drops heavy objects but keeps its weapons and items (and
/// its cards); in the standard game they leave the game (§10.4).
#[test]
fn a_dead_coop_character_keeps_weapons_and_items() {
    let pos = "p2 at 4\ngive p2 fire-extinguisher\ngive p2 bandages\ndie p2";
    let t = table_with(3, &COOP, pos);
    assert_eq!(seat_counter(&t, "p2", "dead"), 1);
    let held = t.eval("g.zone(\"hands\", \"p2\").names()");
    assert!(held.contains("fire-extinguisher"), "{held}");
    assert_eq!(zone_len(&t, "hands", "p2"), 2, "{held}"); // with its starting weapon
    assert!(t
        .eval("g.zone(\"inventory\", \"p2\").names()")
        .contains("bandages"));
    assert_eq!(zone_len(&t, "hand", "p2"), 5);
    let t = table_with(3, &[], pos);
    assert_eq!(zone_len(&t, "hands", "p2"), 0);
    assert_eq!(zone_len(&t, "inventory", "p2"), 0);
    // A carried carcass falls in the room in both modes.
    let t = table_with(3, &COOP, "p2 at 4\nfloor 4 carcass 1\ndie p2");
    assert_eq!(eval_int(&t, "carcasses_in(g, room_id(4))"), 1);
}

/// The co-op position of the resurrection tests: the Emergency Room in room 5, p2 died there
/// with 1 light and 2 serious wounds; a quiet event phase follows.
const REVIVE: &str = "tile 5 emergency-room\np2 at 5\nlight p2 1\nserious p2 2\ndie p2\n\
                      next event regeneration\nnext bag blank";

/// §16.3: at the start of the next player phase the character whose corpse lies in a working
/// Emergency Room stands there again, light wounds healed, serious wounds dressed.
#[test]
fn coop_emergency_room_revives_the_corpse_lying_there() {
    let mut t = table_with(3, &COOP, REVIVE);
    assert_eq!(eval_int(&t, "corpses_in(g, room_id(5))"), 1);
    pass_round(&mut t);
    assert_eq!(seat_counter(&t, "p2", "dead"), 0);
    assert_eq!(seat_counter(&t, "p2", "room"), 5);
    assert_eq!(seat_counter(&t, "p2", "light"), 0);
    assert_eq!(zone_len(&t, "wounds", "p2"), 0);
    assert_eq!(zone_len(&t, "dressed", "p2"), 2);
    assert_eq!(eval_int(&t, "corpses_in(g, room_id(5))"), 0);
    assert_eq!(zone_len(&t, "hand", "p2"), 5);
    // The standard game revives nobody.
    let mut t = table_with(3, &[], REVIVE);
    pass_round(&mut t);
    assert_eq!(seat_counter(&t, "p2", "dead"), 1);
}

/// §16.3: the robot doctor does not work with an Intruder or a malfunction in the room.
#[test]
fn coop_no_resurrection_with_an_intruder_or_a_malfunction_there() {
    for extra in ["intruder adult 5", "malfunction 5"] {
        let mut t = table_with(3, &COOP, &format!("{REVIVE}\n{extra}"));
        pass_round(&mut t);
        assert_eq!(seat_counter(&t, "p2", "dead"), 1, "{extra}");
        assert_eq!(eval_int(&t, "corpses_in(g, room_id(5))"), 1, "{extra}");
    }
}

/// §16.3: a corpse carried into the Emergency Room and dropped there is the dead
/// character's own: it comes back at the next player phase.
#[test]
fn coop_corpse_carried_to_the_emergency_room_revives() {
    let pos = "tile 5 emergency-room\nexplore 6\np1 at 6\np2 at 6\ndie p2\nnext noise 10\n\
               next event regeneration\nnext bag blank";
    let mut t = table_with(3, &COOP, pos);
    act(&mut t, "p1", "pickup corpse");
    act_settled(&mut t, "p1", "move 5"); // room 6's exit 1
    assert_eq!(seat_counter(&t, "p1", "room"), 5);
    act_settled(&mut t, "p3", "pass");
    t.play("p1", "drop corpse");
    assert_eq!(eval_int(&t, "corpses_in(g, room_id(5))"), 1);
    pass_round(&mut t);
    assert_eq!(seat_counter(&t, "p2", "dead"), 0);
    assert_eq!(seat_counter(&t, "p2", "room"), 5);
}

// ---------------------------------------------------------------- §16.4 The Intruder player

/// §16.4: the first dead player takes the Intruders from the next round's player phase: its
/// character's components leave, and it draws 3 of the 10 cards.
#[test]
fn intruder_player_takes_over_at_the_next_round() {
    let mut t = table_with(
        3,
        &IP,
        "give p2 bandages\ndie p2\nnext event regeneration\nnext bag blank",
    );
    assert_eq!(seat_counter(&t, "p2", "ip"), 1);
    assert_eq!(zone_len(&t, "inventory", "p2"), 0);
    pass_round(&mut t);
    assert_eq!(seat_counter(&t, "p2", "ip"), 2);
    assert_eq!(zone_len(&t, "hand", "p2"), 3);
    assert_eq!(zone_len(&t, "deck", "p2"), 7);
    // Only the first: p4 dies, then p2 burns to death at the end of its turn.
    let mut t = table_with(4, &IP, "die p4\np2 at 4\nfire 4\nserious p2 3");
    act_settled(&mut t, "p1", "pass");
    act_settled(&mut t, "p2", "pass");
    assert_eq!(seat_counter(&t, "p2", "dead"), 1);
    assert_eq!(seat_counter(&t, "p4", "ip"), 1);
    assert_eq!(seat_counter(&t, "p2", "ip"), 0);
}

/// §16.4: two deaths at the same time (in one action): the lower player number plays.
#[test]
fn intruder_player_tie_goes_to_the_lower_number() {
    // A position's deaths happen before any action: at the same time.
    let t = table_with(3, &IP, "die p3\ndie p2");
    assert_eq!(seat_counter(&t, "p2", "ip"), 1);
    assert_eq!(seat_counter(&t, "p3", "ip"), 0);
}

/// §16.4 draw: 3 cards up to a hand limit of 4; passing keeps at most 1 card.
#[test]
fn intruder_player_draws_three_to_a_limit_of_four() {
    let mut t = table_with(3, &IP, "ip p2\nnext event regeneration");
    assert_eq!(zone_len(&t, "hand", "p2"), 3);
    act_settled(&mut t, "p1", "pass");
    t.play("p2", "pass");
    let keep = t.legal("p2");
    assert_eq!(keep.len(), 4, "{keep:?}");
    assert!(keep.contains(&"keep nothing".to_string()));
    let kept = keep[0].clone();
    t.play("p2", &kept);
    assert_eq!(zone_len(&t, "hand", "p2"), 1);
    assert_eq!(zone_len(&t, "discard", "p2"), 2);
    pass_round(&mut t);
    assert_eq!(zone_len(&t, "hand", "p2"), 4);
    assert!(hand(&t, "p2").contains(&kept["keep ".len()..]));
    // Keeping nothing: 3 again.
    let mut t = table_with(3, &IP, "ip p2");
    act_settled(&mut t, "p1", "pass");
    t.play("p2", "pass");
    t.play("p2", "keep nothing");
    pass_round(&mut t);
    assert_eq!(zone_len(&t, "hand", "p2"), 3);
}

/// §16.4: the first-player token skips the Intruder player.
#[test]
fn the_first_player_token_skips_the_intruder_player() {
    let mut t = table_with(3, &IP, "ip p2");
    assert_eq!(t.eval("g.get(\"first\")"), "\"p1\"");
    pass_round(&mut t);
    assert_eq!(t.eval("g.get(\"first\")"), "\"p3\"");
    pass_round(&mut t);
    assert_eq!(t.eval("g.get(\"first\")"), "\"p1\"");
}

/// §16.4 turns: exactly 1 card played (a Move: any Intruder through the card's corridor),
/// then the next seat plays; or pass.
#[test]
fn intruder_player_plays_one_card_a_turn() {
    let mut t = table_with(
        3,
        &IP,
        "ip p2\nip-hand p2 pursuit-2 planning-1\nintruder adult 7",
    );
    act_settled(&mut t, "p1", "pass");
    let legal = t.legal("p2");
    assert!(
        legal.iter().all(|a| ["move ", "special ", "attack "]
            .iter()
            .any(|v| a.starts_with(v))
            || a == "pass"),
        "{legal:?}"
    );
    let adult = mini_in(&t, 7);
    assert!(
        legal.contains(&format!("move {adult} pursuit-2")),
        "{legal:?}"
    );
    t.play("p2", &format!("move {adult} pursuit-2"));
    // Room 7's exit 2 leads to room 3.
    assert_eq!(mini_in(&t, 3), adult);
    assert_eq!(hand(&t, "p2"), "[\"planning-1\"]");
    assert_eq!(t.deciding(), ["p3"]);
    assert!(t
        .eval("g.zone(\"discard\", \"p2\").names()")
        .contains("pursuit-2"));
}

/// §16.4 attack: as many attack cards as the card's number drawn, 1 chosen and resolved,
/// the others to the bottom of the attack deck in the order drawn.
#[test]
fn intruder_player_attack_draws_n_and_keeps_one() {
    let pos = "ip p2\nip-hand p2 pursuit-4\np3 at 7\nintruder adult 7\n\
               next attack attack-bite-1 attack-bite-2 attack-bite-3";
    let mut t = table_with(3, &IP, pos);
    act_settled(&mut t, "p1", "pass");
    let adult = mini_in(&t, 7);
    let deck = eval_int(&t, "g.zone(\"attacks\").len");
    t.play("p2", &format!("attack {adult} p3 pursuit-4"));
    assert_eq!(
        t.legal("p2"),
        [
            "keep attack-bite-1",
            "keep attack-bite-2",
            "keep attack-bite-3"
        ]
    );
    t.play("p2", "keep attack-bite-2");
    assert_eq!(
        t.eval("g.zone(\"attacks_discard\").top().name"),
        "\"attack-bite-2\""
    );
    // The last card of `cards()` is the top: the bottom two are bite-1 over bite-3.
    assert_eq!(
        t.eval("g.zone(\"attacks\").cards().extract(0, 2).map(|c| c.name)"),
        "[\"attack-bite-3\", \"attack-bite-1\"]"
    );
    assert_eq!(eval_int(&t, "g.zone(\"attacks\").len"), deck - 1);
    assert!(zone_len(&t, "wounds", "p3") > 0 || seat_counter(&t, "p3", "light") > 0);
}

/// §16.4 event phase: only the time track and the fire damage: no attack, no event card,
/// no bag development; an egg still burns.
#[test]
fn intruder_player_event_phase_is_time_and_fire() {
    let pos = "ip p2\np3 at 8\nintruder adult 8\nexplore 7\nfire 7\nfloor 7 egg 1";
    let mut t = table_with(3, &IP, pos);
    let time = eval_int(&t, "g.counter(\"time\")");
    let events = eval_int(&t, "g.zone(\"events\").len");
    let bag = t.eval("g.bag(\"bag\").kinds()");
    pass_round(&mut t);
    assert_eq!(eval_int(&t, "g.counter(\"time\")"), time + 1);
    assert_eq!(eval_int(&t, "g.zone(\"events\").len"), events);
    assert_eq!(eval_int(&t, "g.zone(\"events_discard\").len"), 0);
    assert_eq!(t.eval("g.bag(\"bag\").kinds()"), bag);
    assert_eq!(seat_counter(&t, "p3", "light"), 0);
    assert_eq!(zone_len(&t, "wounds", "p3"), 0);
    assert_eq!(eval_int(&t, "eggs_in(g, room_id(7))"), 0);
}

/// §16.4 special effects (content §19.1): Self-Healing discards up to 2 injuries of one
/// Intruder.
#[test]
fn intruder_player_self_healing() {
    let pos = "ip p2\nip-hand p2 self-healing planning-1\nintruder adult 7\ninjuries 7 3";
    let mut t = table_with(3, &IP, pos);
    let adult = mini_in(&t, 7);
    let id = &adult["adult-".len()..];
    act_settled(&mut t, "p1", "pass");
    t.play("p2", "special self-healing");
    assert_eq!(t.legal("p2"), [format!("target {adult}")]);
    t.play("p2", &format!("target {adult}"));
    assert_eq!(eval_int(&t, &format!("g.counter(\"inj/{id}\")")), 1);
}

// ---------------------------------------------------------------- Random playouts

fn counter(c: &Counters, key: &str) -> i64 {
    c.get(key).copied().unwrap_or(0)
}

/// After every action, in every mode: `board_holds` (as nemesis.rs checks); the Intruder
/// player (`ip` 2) dead, off the board, holding at most 4 of its own cards and only them; at
/// most one Intruder player; no dead seat (the Intruder player's) among the winners.
fn mode_invariant(step: &Step) -> Result<(), String> {
    let s = step.after;
    board_holds(s)?;
    let mut players = 0;
    for (i, c) in s.seat_counters.iter().enumerate() {
        let dead = counter(c, "dead");
        if counter(c, "ip") == 2 {
            players += 1;
            let hand = s.zone_index("hand", Some(i)).ok_or("no hand")?;
            let names = s.card_names(hand);
            if dead != 1 || names.len() > 4 {
                return Err(format!("Intruder player {i}: dead {dead}, hand {names:?}"));
            }
            if let Some(n) = names.iter().find(|n| !IP_CARD_NAMES.contains(n)) {
                return Err(format!("Intruder player {i} holds {n}"));
            }
        }
    }
    if players > 1 {
        return Err(format!("{players} Intruder players"));
    }
    // §16.4: the Intruder player never wins (nor does any dead character).
    if let Some(w) = s.result.iter().flat_map(|o| &o.winners).find(|&&w| {
        counter(&s.seat_counters[w], "ip") > 0 || counter(&s.seat_counters[w], "dead") > 0
    }) {
        return Err(format!("dead seat {w} wins"));
    }
    Ok(())
}

/// `mode_invariant`, and in solo no room with more than 2 items (content §3 halves 4 to 2).
fn solo_invariant(step: &Step) -> Result<(), String> {
    mode_invariant(step)?;
    let ship = step
        .after
        .graphs
        .iter()
        .find(|g| g.name == "ship")
        .ok_or("no ship")?;
    match (0..ship.nodes.len()).find(|&n| ship.node_value(n, "items") > 2) {
        Some(n) => Err(format!(
            "solo: node {n} holds {} items",
            ship.node_value(n, "items")
        )),
        None => Ok(()),
    }
}

/// Content §19.1's 10 cards, as the Intruder player holds them.
const IP_CARD_NAMES: [&str; 10] = [
    "pursuit-1",
    "pursuit-2",
    "pursuit-3",
    "pursuit-4",
    "coordinated-hunt-1",
    "coordinated-hunt-2",
    "metamorphosis",
    "planning-1",
    "planning-2",
    "self-healing",
];

/// 300 seeded random games of a mode: every action checked against the engine's
/// invariants and `check`; every game ends by one of §15.2's endings within 10,000 actions,
/// not always the same one.
fn playouts(seats: usize, options: &[(&str, &str)], check: &Check) -> PlayoutStats {
    let stats = Playouts::new(ID)
        .seats(seats)
        .options(options)
        .seed(22)
        .games(300)
        .max_length(10_000)
        .check(check)
        .run();
    stats.assert_all_end().assert_endings_among(&ENDINGS);
    assert!(stats.endings.len() >= 2, "{stats:?}");
    stats
}

#[test]
fn random_playouts_solo() {
    playouts(1, &SOLO, &solo_invariant);
}

/// Co-op at 3 seats; counts the characters brought back (dead before the action, alive
/// after).
#[test]
fn random_playouts_coop_3_seats() {
    let revived = AtomicUsize::new(0);
    let check = |step: &Step| {
        let back = (0..step.after.seat_counters.len()).filter(|&i| {
            counter(&step.before.seat_counters[i], "dead") == 1
                && counter(&step.after.seat_counters[i], "dead") == 0
        });
        revived.fetch_add(back.count(), Ordering::Relaxed);
        mode_invariant(step)
    };
    let stats = playouts(3, &COOP, &check);
    eprintln!(
        "co-op: {} revived in {} games",
        revived.into_inner(),
        stats.games
    );
}

/// The Intruder player at 4 seats: somebody dies first in most games, then plays cards
/// (counted: actions of a seat with `ip` 2 other than passing and keeping).
#[test]
fn random_playouts_intruder_player_4_seats() {
    let plays = AtomicUsize::new(0);
    let check = |step: &Step| {
        let ip = counter(&step.before.seat_counters[step.seat], "ip") == 2;
        if ip
            && ["move ", "attack ", "special "]
                .iter()
                .any(|v| step.action.starts_with(v))
        {
            plays.fetch_add(1, Ordering::Relaxed);
        }
        mode_invariant(step)
    };
    let stats = playouts(4, &IP, &check);
    let plays = plays.into_inner();
    eprintln!(
        "Intruder player: {plays} cards played in {} games",
        stats.games
    );
    assert!(plays > 300, "{plays}");
}

/// The same seed plays the same games, in every mode; the views stay seat-restricted (the
/// Intruder player's hand and choices included).
#[test]
fn modes_are_deterministic_and_views_leak_nothing() {
    for (seats, options) in [(1, &SOLO[..]), (3, &COOP[..]), (4, &IP[..])] {
        let run = || {
            Playouts::new(ID)
                .seats(seats)
                .options(options)
                .seed(7)
                .games(4)
                .views()
                .check(&mode_invariant)
                .run()
        };
        let (a, b) = (run(), run());
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{options:?}");
    }
}

/// Content §19.1 Planning: 3 event cards drawn, 1 resolved fully (its Intruder movement, then
/// its effect), the others discarded.
#[test]
fn intruder_player_planning_resolves_one_of_three_events() {
    let pos = "ip p2\nip-hand p2 planning-1\nintruder adult 7\n\
               next event hunt-1 lurking regeneration";
    let mut t = table_with(3, &IP, pos);
    act_settled(&mut t, "p1", "pass");
    t.play("p2", "special planning-1");
    assert_eq!(
        t.legal("p2"),
        [
            "keep event-hunt-1",
            "keep event-lurking",
            "keep event-regeneration"
        ]
    );
    t.play("p2", "keep event-lurking");
    // [Lurking]: the adult moves by corridor 3 (room 7 -> 8), then vanishes into the bag.
    assert_eq!(eval_int(&t, "board_minis(g).len()"), 0);
    assert_eq!(eval_int(&t, "g.zone(\"events_discard\").len"), 3);
    assert_eq!(eval_int(&t, "g.zone(\"ip_drawn\", \"p2\").len"), 0);
    assert_eq!(t.deciding(), ["p3"]);
}

/// Content §19.1 Pursuit: one chosen character (aboard, not in combat) makes a noise roll.
#[test]
fn intruder_player_pursuit_makes_a_noise_roll() {
    let mut t = table_with(3, &IP, "ip p2\nip-hand p2 pursuit-1\nnext noise 1");
    act_settled(&mut t, "p1", "pass");
    t.play("p2", "special pursuit-1");
    assert_eq!(t.legal("p2"), ["target p1", "target p3"]);
    t.play("p2", "target p3");
    assert!(noisy(&t, 10, 1));
    assert_eq!(t.deciding(), ["p3"]);
}
