//! Nemesis (scripts/nemesis) on the engine's own pieces (issue 22): door tokens and carcass
//! tokens as bounded supplies (rules §2.2, §3.4), Trade among everyone in the room (rules
//! §6.2), the Nest's egg with both hands full (rules §13.1, §12.2).

use boardscript_tests::Table;

mod nemesis_support;
use nemesis_support::{act, eval_int, table, the_option};

// ---------------------------------------------------------------- Helpers

/// The door of corridor `exit` of room `room`: 0 open, 1 closed, 2 destroyed.
fn door(t: &Table, room: i64, exit: i64) -> i64 {
    eval_int(
        t,
        &format!("g.graph(\"ship\").edge_value(exit_edge(g, room_id({room}), {exit}), \"door\")"),
    )
}

fn supply_left(t: &Table, name: &str) -> i64 {
    eval_int(t, &format!("g.supply(\"{name}\").left"))
}

/// Twelve closed doors, none on a corridor of room 12 (the corridors 1-2, 1-3, 1-4, 2-5,
/// 2-6, 3-6, 3-7, 3-10, 4-7, 4-8, 5-6, 5-9): every door token is on the board.
const TWELVE_DOORS: &str = "door 1 4 closed\ndoor 1 2 closed\ndoor 1 1 closed\n\
    door 2 3 closed\ndoor 2 4 closed\ndoor 3 1 closed\ndoor 3 4 closed\ndoor 3 3 closed\n\
    door 4 3 closed\ndoor 4 1 closed\ndoor 5 1 closed\ndoor 5 2 closed";

// ---------------------------------------------------------------- §2.2, §3.4 Door tokens

/// Rules §2.2: 12 door tokens; closing a door takes one from the supply, opening it gives it
/// back.
#[test]
fn closing_a_door_takes_a_token_and_opening_returns_it() {
    let mut t = table(1, "tile 5 command-center\np1 at 5");
    assert_eq!(supply_left(&t, "doors"), 12);
    act(&mut t, "p1", "room");
    t.play("p1", "room 12");
    t.play("p1", "close 1");
    assert_eq!(door(&t, 12, 1), 1);
    assert_eq!(supply_left(&t, "doors"), 11);
    t.play("p1", "open 1");
    assert_eq!(door(&t, 12, 1), 0);
    assert_eq!(supply_left(&t, "doors"), 12);
}

/// Rules §3.4: with all 12 tokens on the board, the Command Center closing a door asks the
/// player which closed door to take; that corridor opens and the new one closes.
#[test]
fn with_no_door_token_left_the_player_takes_a_closed_door() {
    let mut t = table(
        1,
        &format!("tile 5 command-center\np1 at 5\n{TWELVE_DOORS}"),
    );
    assert_eq!(supply_left(&t, "doors"), 0);
    act(&mut t, "p1", "room");
    t.play("p1", "room 12");
    t.play("p1", "close 1");
    let legal = t.legal("p1");
    assert_eq!(legal.len(), 12, "{legal:?}");
    assert!(legal.contains(&"take 4-8".to_string()), "{legal:?}");
    t.play("p1", "take 4-8");
    assert_eq!(door(&t, 12, 1), 1);
    assert_eq!(door(&t, 4, 1), 0, "the door of 4-8 moved");
    assert_eq!(supply_left(&t, "doors"), 0);
    assert_eq!(door(&t, 1, 4), 1, "the others stay closed");
}

/// Rules §3.4: a destroyed door is a token lying flat: it never goes back to the supply,
/// and it is never the one taken up.
#[test]
fn a_destroyed_door_keeps_its_token_and_is_never_taken() {
    let pos = TWELVE_DOORS.replace("door 5 2 closed", "door 5 2 destroyed");
    let mut t = table(1, &format!("tile 5 command-center\np1 at 5\n{pos}"));
    assert_eq!(supply_left(&t, "doors"), 0);
    act(&mut t, "p1", "room");
    t.play("p1", "room 12");
    t.play("p1", "close 1");
    assert!(!t.legal("p1").contains(&"take 5-9".to_string()));
    assert_eq!(t.legal("p1").len(), 11);
}

/// Rules §3.4 when nobody chooses (`close_door` with no seat): the script takes the lowest
/// corridor touching neither room of the door it closes (here 1-2, corridor 0, for 12-13).
#[test]
fn with_nobody_to_choose_the_script_takes_the_lowest_door_away() {
    let t = table(1, TWELVE_DOORS);
    let expr = "let e = exit_edge(g, room_id(12), 2); close_door(g, (), e); \
        let s = g.graph(\"ship\"); \
        `${s.edge_value(e, \"door\")} ${s.edge_value(0, \"door\")} ${g.supply(\"doors\").left}`";
    assert_eq!(t.eval(expr), "\"1 0 0\"");
    // Corridor 1-2 open, 12-13 closed instead: closing 1-2 (room 1's exit 4) passes over
    // 1-3, 1-4, 2-5 and 2-6 (they touch room 1 or 2) and takes 3-6 (corridor 5).
    let pos = TWELVE_DOORS.replace("door 1 4 closed", "door 12 2 closed");
    let t = table(1, &pos);
    let expr = "let e = exit_edge(g, room_id(1), 4); close_door(g, (), e); \
        let s = g.graph(\"ship\"); \
        `${s.edge_value(e, \"door\")} ${s.edge_value(1, \"door\")} ${s.edge_value(5, \"door\")}`";
    assert_eq!(t.eval(expr), "\"1 1 0\"");
}

// ---------------------------------------------------------------- §2.2 Carcass tokens

/// Rules §2.2, §8.7: 8 carcass tokens. A dead adult leaves one while any is left; the 9th
/// kill places none (the rules are silent: README, defaults), and the board keeps 8.
#[test]
fn a_kill_with_no_carcass_token_left_places_none() {
    // An adult in room 5 takes 4 wounds; the attack card drawn shows 4 blood: it dies.
    let pos = "intruder adult 5\nnext attack attack-bite-1\nfloor 1 carcass 4\nfloor 2 carcass 3";
    let kill = "let room = room_id(5); \
        wound_intruder(g, g.zone(`room/${room}`).top(), room, 4); \
        `${g.zone(`room/${room}`).len} ${carcasses_in(g, room)} ${g.supply(\"carcasses\").left}`";
    let t = table(1, pos);
    assert_eq!(supply_left(&t, "carcasses"), 1);
    assert_eq!(t.eval(kill), "\"0 1 0\"");
    let t = table(1, &format!("{pos}\nfloor 3 carcass 1"));
    assert_eq!(supply_left(&t, "carcasses"), 0);
    assert_eq!(t.eval(kill), "\"0 0 0\"", "dead, and no carcass");
}

// ---------------------------------------------------------------- §13.1 The Nest's egg

/// Rules §13.1, §12.2: the Nest's egg goes into a free hand; with both hands full (the
/// starting weapon and a Fire Extinguisher) the room action is refused, as the basic
/// pick-up is, until something is dropped.
#[test]
fn nest_egg_needs_a_free_hand() {
    let mut t = table(1, "tile 5 nest\np1 at 5\ngive p1 fire-extinguisher");
    assert!(!t.legal("p1").contains(&"room".to_string()));
    let refused = t.refusal("p1", "room");
    assert!(
        refused.contains("`room` is not a legal action"),
        "{refused}"
    );
    assert_eq!(eval_int(&t, "g.zone(\"nest_eggs\").len"), 5);
    // With a free hand it is offered again.
    let t = table(1, "tile 5 nest\np1 at 5");
    assert!(t.legal("p1").contains(&"room".to_string()));
}

// ---------------------------------------------------------------- §6.2 Trade

fn names(t: &Table, zone: &str, seat: &str) -> String {
    t.eval(&format!("g.zone(\"{zone}\", \"{seat}\").names()"))
}

fn hand(t: &Table, seat: &str) -> i64 {
    eval_int(t, &format!("g.zone(\"hand\", \"{seat}\").len"))
}

const THREE_IN_ROOM: &str = "tile 5 armory\np1 at 5\np2 at 5\np3 at 5\ngive p2 grenade";

/// Rules §6.2: everyone in the room may exchange, two by two, each side agreeing; only the
/// active player pays. p1 trades: p2 gives p3 a grenade, then p3 gives it to p1.
#[test]
fn trade_lets_every_pair_in_the_room_exchange() {
    let mut t = table(3, THREE_IN_ROOM);
    let legal = t.legal("p1");
    for a in ["trade p2", "trade p3", "trade p2 p3"] {
        assert!(legal.contains(&a.to_string()), "{a} in {legal:?}");
    }
    let (p1, p2, p3) = (hand(&t, "p1"), hand(&t, "p2"), hand(&t, "p3"));
    act(&mut t, "p1", "trade p2 p3");
    assert_eq!(hand(&t, "p1"), p1 - 1, "the active player pays 1 card");
    let give = the_option(&t, "p2", "give red-grenade");
    t.play("p2", &give);
    t.play("p2", "done");
    t.play("p3", "done");
    t.play("p3", "accept");
    t.play("p2", "accept");
    assert!(names(&t, "inventory", "p3").contains("red-grenade"));
    // The active player names the next pair; p2 and p3 have had theirs.
    let mut next = t.legal("p1");
    next.sort();
    assert_eq!(next, ["done", "trade p1 p2", "trade p1 p3"]);
    t.play("p1", "trade p1 p3");
    t.play("p1", "done");
    let give = the_option(&t, "p3", "give red-grenade");
    t.play("p3", &give);
    t.play("p3", "done");
    t.play("p3", "accept");
    t.play("p1", "accept");
    assert!(names(&t, "inventory", "p1").contains("red-grenade"));
    assert!(!names(&t, "inventory", "p3").contains("red-grenade"));
    // One pair left (p1 and p2): asked again, `done` ends the trade.
    assert_eq!(t.legal("p1"), ["done", "trade p1 p2"]);
    t.play("p1", "done");
    assert_eq!((hand(&t, "p2"), hand(&t, "p3")), (p2, p3), "only p1 paid");
}

/// Rules §6.2: an exchange needs both sides; a refusal moves nothing, and the trade goes on
/// with the next pair.
#[test]
fn a_refused_exchange_moves_nothing_and_the_trade_goes_on() {
    let mut t = table(3, THREE_IN_ROOM);
    act(&mut t, "p1", "trade p2");
    t.play("p1", "done");
    let give = the_option(&t, "p2", "give red-grenade");
    t.play("p2", &give);
    t.play("p2", "done");
    t.play("p2", "accept");
    t.play("p1", "refuse");
    assert!(names(&t, "inventory", "p2").contains("red-grenade"));
    assert_eq!(names(&t, "inventory", "p1"), "[]");
    let mut next = t.legal("p1");
    next.sort();
    assert_eq!(next, ["done", "trade p1 p3", "trade p2 p3"]);
}

// ---------------------------------------------------------------- §5.1 Reshuffles

/// Rules §5.1: drawing up to the hand size from an empty action deck takes in the discard
/// pile, shuffled (the engine's reshuffle: the deck's discard is `discard`).
#[test]
fn an_empty_action_deck_takes_its_discard_pile_when_drawn() {
    let t = table(1, "");
    let expr = "let deck = g.zone(\"deck\", \"p1\"); let discard = g.zone(\"discard\", \"p1\"); \
        let hand = g.zone(\"hand\", \"p1\"); \
        deck.move_all_to(discard); hand.draw_to(discard, 2); \
        let before = [hand.len, deck.len, discard.len]; \
        draw_to_hand(g, \"p1\"); \
        `${before} ${[hand.len, deck.len, discard.len]}`";
    assert_eq!(t.eval(expr), "\"[3, 0, 7] [5, 5, 0]\"");
}

/// Content §18: the serious wound deck, drawn empty, takes in its discard pile.
#[test]
fn an_empty_wound_deck_takes_its_discard_pile() {
    let t = table(1, "");
    let expr = "let deck = g.zone(\"wound_deck\"); let n = deck.len; \
        deck.move_all_to(g.zone(\"wound_discard\")); \
        serious_wound(g, \"p1\"); \
        `${n} ${g.zone(\"wounds\", \"p1\").len} ${deck.len} ${g.zone(\"wound_discard\").len}`";
    assert_eq!(t.eval(expr), "\"16 1 15 0\"");
}

/// Rules §7.2, §3.4: exploration's Door token closes the corridor the character came by
/// through the same rule: with every token on the board and one door closed, that door is
/// taken up (no question: there is no choice).
#[test]
fn exploration_door_token_with_no_token_left_moves_the_closed_door() {
    // Eleven doors destroyed and 4-8 closed: every token is out.
    let pos = TWELVE_DOORS
        .replace(" closed", " destroyed")
        .replace("door 4 1 destroyed", "door 4 1 closed")
        .replace("door 5 2 destroyed", "door 12 2 destroyed");
    let t = table(1, &format!("p1 at 5\n{pos}"));
    // Room 9's token becomes a Door token, then p1 explores it from room 5 (corridor 5-9).
    let expr = "let room = room_id(9); let here = g.zone(`token/${room}`); \
        for r in BOARD.room { if r.kind != \"special\" { let z = g.zone(`token/${r.id}`); \
            let c = z.find(\"exp-door-4\"); if c != () && r.id != room { z.take(here.top()); here.take(c); } } } \
        let ship = g.graph(\"ship\"); let e = ship.edge_between(room_id(5), room); \
        explore(g, \"p1\", room, e, false); \
        let d48 = ship.edge_value(exit_edge(g, room_id(4), 1), \"door\"); \
        `${here.len} ${ship.edge_value(e, \"door\")} ${d48} ${g.supply(\"doors\").left}`";
    assert_eq!(t.eval(expr), "\"0 1 0 0\"");
}

/// Two eggs held are one option, `give egg`, offered while an egg is left to offer: each
/// answer offers another egg (found by a 4-seat random game, where a second `give egg` was
/// refused as a duplicate option).
#[test]
fn two_eggs_are_offered_one_by_one() {
    let mut t = table(
        2,
        "tile 5 armory\np1 at 5\np2 at 5\ncarry p2 egg\ncarry p2 egg",
    );
    act(&mut t, "p1", "trade p2");
    t.play("p1", "done");
    let eggs = |t: &Table| t.legal("p2").iter().filter(|a| *a == "give egg").count();
    assert_eq!(eggs(&t), 1);
    t.play("p2", "give egg");
    assert_eq!(eggs(&t), 1, "the second egg is still on offer");
    t.play("p2", "give egg");
    assert_eq!(eggs(&t), 0, "both eggs are offered");
    assert_eq!(
        t.eval("g.zone(\"hands\", \"p2\").find_all(\"egg\").len()"),
        "2"
    );
}

/// Rules §2.2, §3.4: with every door token destroyed (none in the supply, none closed to take
/// up) no door can be closed: the Command Center offers no `close` (before, it offered four
/// that did nothing).
#[test]
fn with_every_door_token_destroyed_no_close_is_offered() {
    let pos = TWELVE_DOORS.replace(" closed", " destroyed");
    let mut t = table(1, &format!("tile 5 command-center\np1 at 5\n{pos}"));
    assert_eq!(supply_left(&t, "doors"), 0);
    act(&mut t, "p1", "room");
    t.play("p1", "room 12");
    let legal = t.legal("p1");
    assert!(!legal.iter().any(|a| a.starts_with("close")), "{legal:?}");
}
