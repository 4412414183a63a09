//! Nemesis' `evaluate(g)` (scripts/nemesis/evaluate.rhai, issue 23): each seat's estimated
//! chance to win a game not yet over. Scenario positions compare one seat's value in two
//! positions that differ in one thing; playouts of every mode check the shape and range.

mod nemesis_support;

use boardscript_tests::playouts::{Playouts, Step};
use boardscript_tests::Table;
use nemesis_support::*;

/// Working engines, coordinates-1 (A Earth, B Mars): destination A jumps to Earth, B to Mars.
const EARTH: &str =
    "engine 1 working\nengine 2 working\nengine 3 working\ncoordinates 1\ndestination A\n";
const MARS: &str =
    "engine 1 working\nengine 2 working\nengine 3 working\ncoordinates 1\ndestination B\n";

/// Every seat holds the same objective, so only what a test changes tells them apart.
const SAME_OBJECTIVES: &str = "encountered\nobjective p1 objective-ab-ovo\nobjective p2 objective-ab-ovo\nobjective p3 objective-ab-ovo\n";

fn values(t: &Table) -> Vec<f64> {
    boardscript_tests::numbers(&t.eval("evaluate(g)"))
}

/// p1's value at 3 seats after `position` (on top of `SAME_OBJECTIVES`).
fn p1(position: &str) -> f64 {
    values(&table(3, &format!("{SAME_OBJECTIVES}{position}")))[0]
}

// ---------------------------------------------------------------- Survival (§9, §10, §15)

/// Rules §10: wounds bring a character's value down; a dead one is lowest of all.
#[test]
fn a_healthy_character_scores_above_a_wounded_one_and_the_dead_lowest() {
    let healthy = p1("");
    let light = p1("light p1 2");
    let serious = p1("serious p1 2\nlight p1 2");
    let dead = p1("die p1");
    assert!(
        healthy > light,
        "healthy {healthy} above 2 light wounds {light}"
    );
    assert!(
        light > serious,
        "2 light wounds {light} above 2 serious {serious}"
    );
    assert!(
        serious > dead,
        "seriously wounded {serious} above dead {dead}"
    );
    assert_eq!(dead, 0.0);
}

/// Rules §9: contamination cards and a larva count against survival.
#[test]
fn contamination_and_a_larva_lower_the_value() {
    let clean = p1("");
    let contaminated = p1("contamination p1 2");
    let larva = p1("larva p1");
    assert!(
        clean > contaminated,
        "clean {clean} above 2 contamination cards {contaminated}"
    );
    assert!(
        contaminated > larva,
        "2 contamination cards {contaminated} above a larva {larva}"
    );
}

/// Rules §15.6: escaped by pod is as safe as it gets; §15.3 step 2: a sleeper on a ship
/// bound for Mars dies, so hibernating toward Earth is worth more.
#[test]
fn escaping_and_hibernating_toward_earth_beat_a_doomed_hibernation() {
    let escaped = p1("out p1 2");
    let to_earth = p1(&format!("{EARTH}out p1 1"));
    let to_mars = p1(&format!("{MARS}out p1 1"));
    assert!(
        escaped >= to_earth,
        "escaped {escaped}, hibernating to Earth {to_earth}"
    );
    assert!(
        to_earth > to_mars,
        "hibernating to Earth {to_earth} above to Mars {to_mars}"
    );
}

/// Rules §15.2 item 1: aboard at the jump is death; with the time track nearly out, a
/// character still aboard is worth less than the same one with the whole game ahead.
#[test]
fn time_running_out_lowers_a_character_still_aboard() {
    let early = p1(EARTH);
    let late = p1(&format!("{EARTH}time 14\np1 at 12"));
    assert!(
        early > late,
        "round 1 {early} above the last round far from the Hibernatorium {late}"
    );
}

/// Rules §8.3: with no loaded weapon in hand a character has nothing to shoot with.
#[test]
fn an_unloaded_character_scores_below_an_armed_one() {
    let armed = p1("");
    let unloaded = p1("ammo p1 all 0");
    assert!(armed > unloaded, "armed {armed} above unloaded {unloaded}");
}

// ---------------------------------------------------------------- Objectives (§15.1)

/// Content §12: a met objective scores above an unmet one, other things equal.
#[test]
fn a_met_objective_scores_above_an_unmet_one() {
    let unmet = p1("");
    let met = p1("discovered egg");
    assert!(met > unmet, "Ab Ovo met {met} above unmet {unmet}");
}

/// Partial progress counts: one of the two weaknesses Extreme Field Biology asks for.
#[test]
fn half_an_objective_scores_between_none_and_all() {
    let base = "encountered\nobjective p1 objective-field-biology\n";
    let none = values(&table(3, base))[0];
    let one = values(&table(3, &format!("{base}discovered egg")))[0];
    let two = values(&table(
        3,
        &format!("{base}discovered egg\ndiscovered carcass"),
    ))[0];
    assert!(
        none < one && one < two,
        "0, 1, 2 weaknesses: {none} {one} {two}"
    );
}

/// Rules §13.1: the signal is sent from the Comms Room, a weakness discovered in the
/// Laboratory: standing there scores above standing 2 moves away (room 9 to room 12), so a
/// one-ply bot walks toward them.
#[test]
fn the_room_an_objective_needs_draws_the_character_toward_it() {
    let signal = "encountered\nobjective p1 objective-great-hunt\ntile 9 comms-room\n";
    let there = values(&table(3, &format!("{signal}p1 at 9")))[0];
    let away = values(&table(3, &format!("{signal}p1 at 12")))[0];
    assert!(
        there > away,
        "in the Comms Room {there} above 2 moves away {away}"
    );
    let egg = "encountered\nobjective p1 objective-ab-ovo\ntile 9 laboratory\ncarry p1 egg\n";
    let there = values(&table(3, &format!("{egg}p1 at 9")))[0];
    let away = values(&table(3, &format!("{egg}p1 at 12")))[0];
    let empty_handed = values(&table(
        3,
        "encountered\nobjective p1 objective-ab-ovo\ntile 9 laboratory\np1 at 12",
    ))[0];
    assert!(
        there > away && away > empty_handed,
        "egg in the Laboratory {there}, 2 moves away {away}, no egg {empty_handed}"
    );
}

/// Before the first encounter a seat holds 2 objectives (§14.1): the better one counts.
#[test]
fn the_better_of_two_objectives_counts_before_the_first_encounter() {
    let met = values(&table(
        3,
        "objective p1 objective-ab-ovo objective-hoarder\ndiscovered egg",
    ))[0];
    let unmet = values(&table(3, "objective p1 objective-ab-ovo objective-hoarder"))[0];
    assert!(met > unmet, "one of two met {met} above none {unmet}");
}

// ---------------------------------------------------------------- Modes (§16)

/// §16.3: the crew wins or loses together: every seat gets the same value, and meeting
/// the crew's objective raises it.
#[test]
fn co_op_gives_every_seat_one_value() {
    let options = [("mode", "coop")];
    let before = values(&table_with(
        3,
        &options,
        "objective p1 objective-ab-ovo\nobjective p2\nobjective p3",
    ));
    let after = values(&table_with(
        3,
        &options,
        "objective p1 objective-ab-ovo\nobjective p2\nobjective p3\ndiscovered egg",
    ));
    for v in [&before, &after] {
        assert_eq!(v.len(), 3, "{v:?}");
        assert!(
            v.iter().all(|x| *x == v[0]),
            "one value for the crew: {v:?}"
        );
    }
    assert!(after[0] > before[0], "met {after:?} above unmet {before:?}");
    // One wounded character changes nothing while another is healthy (the best survivor).
    let wounded = values(&table_with(
        3,
        &options,
        "objective p1 objective-ab-ovo\nobjective p2\nobjective p3\nserious p2 2",
    ));
    assert_eq!(wounded, before);
}

/// §16.4: the Intruder player cannot win; its value is the chance that everyone else
/// loses, at most the draw's 1/n, and it rises as the crew's chances fall.
#[test]
fn the_intruder_player_gains_when_the_crew_does_badly() {
    let options = [("intruder_player", "true")];
    let calm = values(&table_with(3, &options, &format!("{SAME_OBJECTIVES}ip p2")));
    let hurt = values(&table_with(
        3,
        &options,
        &format!("{SAME_OBJECTIVES}ip p2\nserious p1 3\nserious p3 3"),
    ));
    assert!(calm[1] <= 1.0 / 3.0, "{calm:?}");
    assert!(
        hurt[1] > calm[1],
        "crew hurt {hurt:?} against calm {calm:?}"
    );
}

// ---------------------------------------------------------------- Along random games

/// Every few actions of random games: one value per seat, each in [0, 1]; co-op, one value
/// for all. The deep checks are left to the games' own playout tests.
fn evaluate_in_range(step: &Step) -> Result<(), String> {
    let Some(v) = boardscript_tests::evaluated_every(step, 5)? else {
        return Ok(());
    };
    let coop = step
        .game
        .eval(step.after, "g.option(\"mode\")")
        .map_err(|e| e.to_string())?;
    if coop.contains("coop") && v.iter().any(|x| *x != v[0]) {
        return Err(format!("co-op values differ: {v:?}"));
    }
    Ok(())
}

fn playouts(seats: usize, options: &[(&str, &str)], games: usize) {
    let stats = Playouts::new(ID)
        .seats(seats)
        .options(options)
        .seed(23)
        .games(games)
        .deep_every(0)
        .max_length(10_000)
        .check(&evaluate_in_range)
        .run();
    stats.assert_all_end();
}

#[test]
fn evaluate_fits_every_standard_game() {
    for seats in [1, 2, 4, 5] {
        playouts(seats, &[("draft", "random")], 3);
    }
}

#[test]
fn evaluate_fits_every_solo_game() {
    playouts(1, &[("mode", "solo"), ("draft", "random")], 4);
}

#[test]
fn evaluate_fits_every_co_op_game() {
    for seats in [2, 4] {
        playouts(seats, &[("mode", "coop"), ("draft", "random")], 3);
    }
}

#[test]
fn evaluate_fits_every_intruder_player_game() {
    playouts(3, &[("intruder_player", "true"), ("draft", "random")], 4);
    playouts(
        3,
        &[
            ("intruder_player", "true"),
            ("mode", "coop"),
            ("draft", "random"),
        ],
        3,
    );
}
