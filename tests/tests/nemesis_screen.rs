//! Nemesis (scripts/nemesis/render.rhai), issue 22 "A screen a person can play from": what
//! `show`/`view` print for a seat (its own items, what it alone knows, Intruders by the id the
//! actions use, a legend, no empty fields) and the log in the rulebook's words, each seat
//! reading only what it may know.

use boardscript_tests::Table;

mod nemesis_support;
use nemesis_support::{act, act_settled, pass_round, table, ID};

/// The screen as seat number `seat` (0 = p1) sees it.
fn screen(t: &Table, seat: usize) -> String {
    t.m.game
        .render(t.state(), Some(seat))
        .unwrap_or_else(|e| panic!("render: {e}"))
}

/// The log as seat number `seat` reads it.
fn log_of(t: &Table, seat: usize) -> Vec<String> {
    t.state()
        .view(Some(seat))
        .log
        .iter()
        .map(|e| e.text.clone())
        .collect()
}

/// A Rhai expression's string value, without its quotes.
fn text(t: &Table, expr: &str) -> String {
    t.eval(expr).trim_matches('"').to_string()
}

fn has_line(log: &[String], part: &str) -> bool {
    log.iter().any(|l| l.contains(part))
}

/// Item 1: an item kept goes on its owner's board by name; the other seat sees the card
/// counted (its back), never named.
#[test]
fn the_own_inventory_is_on_the_board_and_counted_for_others() {
    let t = table(2, "give p1 energy-charge");
    let name = text(&t, "g.zone(\"inventory\", \"p1\").top().name");
    assert!(name.contains("energy-charge"), "{name}");
    let own = screen(&t, 0);
    assert!(own.contains(&format!("inventory: {name}")), "{own}");
    let other = screen(&t, 1);
    assert!(other.contains("inventory: 1 card\n"), "{other}");
    assert!(!other.contains(&name), "{other}");
}

/// Item 2: the Cockpit's coordinates check shows the card and where Earth lies to the seat
/// that looked, in its view and its log; the other seat reads only that the Cockpit was used.
#[test]
fn the_coordinates_are_known_to_the_seat_that_looked_only() {
    let mut t = table(2, "p1 at 1");
    act(&mut t, "p1", "room");
    t.play("p1", "coordinates");
    let card = text(&t, "g.zone(\"coordinates\").top().name");
    let earth = text(
        &t,
        "{ let c = g.zone(\"coordinates\").top(); LETTERS.filter(|l| c[l] == \"earth\")[0] }",
    );
    let known = format!("coordinates {card}: Earth is {earth}");
    let own = screen(&t, 0);
    assert!(own.contains("You know:"), "{own}");
    assert!(own.contains(&known), "{own}");
    assert!(has_line(
        &log_of(&t, 0),
        &format!("You look at the {known}")
    ));
    let other = screen(&t, 1);
    assert!(!other.contains(&card), "{other}");
    assert!(!other.contains("Earth is"), "{other}");
    let theirs = log_of(&t, 1);
    assert!(has_line(&theirs, "uses the Cockpit (coordinates)"));
    assert!(!has_line(&theirs, "Earth"), "{theirs:?}");
    assert!(!has_line(&theirs, "You look"), "{theirs:?}");
}

/// Item 2: an engine room's check tells the checker the top token; the other seat's view
/// and log say nothing of it.
#[test]
fn an_engine_check_is_known_to_the_checker_only() {
    let mut t = table(2, "p1 at 19\nengine 1 damaged");
    act(&mut t, "p1", "room");
    let own = screen(&t, 0);
    assert!(own.contains("engine 1: top token DAMAGED"), "{own}");
    assert!(has_line(
        &log_of(&t, 0),
        "You look at engine 1: top token DAMAGED"
    ));
    assert!(!screen(&t, 1).contains("top token"));
    assert!(!has_line(&log_of(&t, 1), "top token"));
}

/// Item 2: the Monitoring Room shows an unexplored room's tile and token to the seat that
/// used it.
#[test]
fn a_monitored_room_is_known_to_the_watcher_only() {
    let mut t = table(2, "p1 at 5\ntile 5 monitoring-room");
    act(&mut t, "p1", "room");
    let answer = t.legal("p1")[0].clone();
    let n: i64 = answer.split(' ').nth(1).unwrap().parse().unwrap();
    t.play("p1", &answer);
    let tile = text(
        &t,
        &format!("tile_title(g.zone(`tile/${{room_id({n})}}`).top().name)"),
    );
    let known = format!("room {n} is the {tile}; its token: ");
    assert!(screen(&t, 0).contains(&known), "{}", screen(&t, 0));
    assert!(has_line(&log_of(&t, 0), &known));
    assert!(!screen(&t, 1).contains(&known));
    assert!(!has_line(&log_of(&t, 1), &known));
}

/// Item 2: objectives are the owner's own knowledge.
#[test]
fn objectives_are_shown_to_their_owner_only() {
    let t = table(2, "");
    let first = text(&t, "g.zone(\"objectives\", \"p1\").top().name");
    assert!(screen(&t, 0).contains(&first), "{}", screen(&t, 0));
    assert!(!screen(&t, 1).contains(&first));
}

/// Item 3: Intruders are named as the actions name them, with their wounds.
#[test]
fn intruders_show_their_ids_and_wounds() {
    let t = table(2, "p1 at 5\nexplore 5\nintruder adult 5\ninjuries 5 2");
    let id = text(
        &t,
        "{ let m = g.zone(`room/${room_id(5)}`).top(); `${m.name}-${m.id}` }",
    );
    assert!(t.legal("p1").contains(&format!("melee {id}")));
    let own = screen(&t, 0);
    assert!(own.contains(&format!("INTRUDERS {id} (2 wounds)")), "{own}");
}

/// Item 4: a noise roll says which corridor of which room got the marker.
#[test]
fn a_noise_roll_names_its_corridor() {
    let mut t = table(2, "explore 9\nnext noise 5");
    act_settled(&mut t, "p1", "move 9");
    let tile = text(&t, "tile_title(tile_of(g, room_id(9)))");
    let log = log_of(&t, 1);
    assert!(
        has_line(&log, "rolls the noise die: corridor 3."),
        "{log:?}"
    );
    let marked = format!("A noise marker goes on corridor 3 of room 9 ({tile}).");
    assert!(has_line(&log, &marked), "{log:?}");
}

/// Item 4: an attack says the card's name and what it did; an event card is told by its
/// name, not its internals.
#[test]
fn an_attack_and_an_event_are_told_in_words() {
    let mut t = table(
        2,
        "p1 at 5\nexplore 5\nintruder adult 5\nnext attack attack-slime\nnext event event-hatching",
    );
    let id = text(
        &t,
        "{ let m = g.zone(`room/${room_id(5)}`).top(); `${m.name}-${m.id}` }",
    );
    pass_round(&mut t);
    let log = log_of(&t, 1);
    assert!(
        has_line(&log, &format!("{id} attacks p1 (")) && has_line(&log, "with Slime Spray."),
        "{log:?}"
    );
    assert!(
        log.iter().any(|l| l.starts_with("Slime Spray: p1 (")
            && l.ends_with(") is slimed and takes a contamination card.")),
        "{log:?}"
    );
    assert!(has_line(&log, "Event card Hatching: "), "{log:?}");
    assert!(!has_line(&log, "[\""), "no internals: {log:?}");
    assert!(!has_line(&log, " a adult"), "{log:?}");
}

/// Item 5: a legend once, a readable header, and before the draft no empty fields.
#[test]
fn before_the_draft_the_screen_has_a_legend_and_no_empty_fields() {
    let t = Table::new(ID).seats(2).seed(1).start();
    let s = screen(&t, 0);
    assert!(s.starts_with("Setup: the character draft | time 1/"), "{s}");
    assert_eq!(s.matches("Legend:").count(), 1, "{s}");
    assert!(!s.contains("hand"), "{s}");
    assert!(!s.contains("deck 0"), "{s}");
    assert!(
        !s.contains("self-destruct") && !s.contains("SELF-DESTRUCT"),
        "{s}"
    );
}

/// Item 5: the board is split over short lines, none of them long.
#[test]
fn a_board_is_short_lines() {
    let t = table(2, "give p1 energy-charge\nslime p1\nlight p1 2");
    let s = screen(&t, 0);
    let board: Vec<&str> = s
        .lines()
        .skip_while(|l| !l.starts_with("p1 ("))
        .take_while(|l| !l.starts_with("p2 ("))
        .collect();
    assert!(board.len() >= 4, "{s}");
    assert!(board.iter().any(|l| l.trim() == "slimed"), "{s}");
    assert!(board.iter().any(|l| l.trim() == "wounds: 2 light"), "{s}");
    assert!(board.iter().all(|l| l.len() <= 160), "{s}");
}

/// After the end the screen says how the game ended.
#[test]
fn the_screen_shows_the_result_at_the_end() {
    let mut t = table(1, "time 14");
    act_settled(&mut t, "p1", "pass");
    assert!(t.is_over());
    let s = screen(&t, 0);
    assert!(s.contains("Game over: "), "{s}");
}

/// A weakness found in the Laboratory is told by its name and effect, in the log and on
/// everyone's screen.
#[test]
fn a_found_weakness_is_named_for_everyone() {
    let mut t = table(2, "tile 5 laboratory\np1 at 5\nfloor 5 corpse 1");
    act(&mut t, "p1", "room");
    let id = text(&t, "g.zone(\"weak/corpse\").top().name");
    let words = text(&t, &format!("card_words(\"{id}\")"));
    assert!(!words.starts_with("weakness-"), "{words}");
    let line = format!("Weakness found (corpse): {words}");
    assert!(screen(&t, 1).contains(&line), "{}", screen(&t, 1));
    let log = log_of(&t, 1);
    let told = format!("The corpse reveals a weakness of the Intruders: {words}");
    assert!(has_line(&log, &told), "{log:?}");
}

/// Item 2: a scanned contamination card shows its mark to the scanner only.
#[test]
fn a_scanned_card_is_known_to_the_scanner_only() {
    let t = table(2, "contamination p1 discard infected\nscan p1");
    let own = screen(&t, 0);
    assert!(own.contains("scanned: contamination INFECTED"), "{own}");
    let other = screen(&t, 1);
    assert!(
        !other.contains("scanned") && !other.contains("INFECTED"),
        "{other}"
    );
}
