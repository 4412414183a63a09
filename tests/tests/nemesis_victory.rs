//! Nemesis part 2 (issue 22): the first encounter (rules §14.1), the objectives (rules §15.1,
//! content §12), the endings (§15.2) and the victory check (§15.3), scripts/nemesis/victory.rhai.
//!
//! Most scenarios end the game the quickest way: the other characters are out of the ship
//! (`out p2 1` hibernating, `out p3 2` escaped), the time marker on space 14, and p1, the
//! only one aboard, passes: the event phase moves the marker to the last space and the ship
//! jumps (p1 dies in it). `encountered` starts past the first encounter, so no objective
//! question interrupts; `objective p2 <id>` gives p2 exactly that objective.

mod nemesis_support;

use boardscript_interpreter::SaveFile;
use boardscript_tests::{assert_replays_identically, load, Table};
use nemesis_support::*;

/// Working engines, coordinates-1 (A Earth, B Mars) with the destination on A.
const EARTH: &str =
    "engine 1 working\nengine 2 working\nengine 3 working\ncoordinates 1\ndestination A\n";
const MARS: &str =
    "engine 1 working\nengine 2 working\nengine 3 working\ncoordinates 1\ndestination B\n";

/// The game after p1 passes with the time marker on 14: the ship jumps.
fn jump(seats: usize, position: &str) -> Table {
    jump_with(seats, &[], position)
}

fn jump_with(seats: usize, options: &[(&str, &str)], position: &str) -> Table {
    let mut t = table_with(seats, options, &format!("encountered\ntime 14\n{position}"));
    act_settled(&mut t, "p1", "pass");
    assert!(t.is_over(), "the ship jumped");
    t
}

fn dead(t: &Table, seat: &str) -> bool {
    seat_counter(t, seat, "dead") == 1
}

fn counter(t: &Table, name: &str) -> i64 {
    eval_int(t, &format!("g.counter(\"{name}\")"))
}

fn reason(t: &Table) -> String {
    text(t, "g.end_reason()")
}

/// A Rhai string expression's value, unquoted.
fn text(t: &Table, expr: &str) -> String {
    t.eval(expr).trim_matches('"').to_string()
}

fn tally(t: &Table, key: &str) -> i64 {
    t.state().tallies.get(key).copied().unwrap_or(0)
}

fn log_text(t: &Table) -> String {
    t.state()
        .log
        .iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

// ---------------------------------------------------------------- §15.3 step 1: engines

/// Step 1: 2 damaged engines: the ship explodes: the hibernating die, every Intruder dies,
/// the Nest is destroyed; the escaped survive and still win.
#[test]
fn two_damaged_engines_kill_the_hibernating_and_every_intruder() {
    let t = jump(
        3,
        "engine 1 damaged\nengine 2 damaged\nengine 3 working\nintruder adult 5\nout p2 1\nout p3 2\nobjective p3 objective-great-hunt\nsignal p3",
    );
    assert_eq!(reason(&t), "jump");
    assert!(dead(&t, "p1") && dead(&t, "p2"));
    assert!(!dead(&t, "p3"), "the escaped are not aboard");
    assert_eq!(counter(&t, "ship_destroyed"), 1);
    assert_eq!(counter(&t, "nest_destroyed"), 1);
    assert_eq!(intruders(&t, 5), "[]");
    assert_eq!(counter(&t, "killed/adult"), 1);
    // The Great Hunt: signal and (the ship destroyed or the queen dead).
    assert_eq!(t.winners(), ["p3"]);
    assert_eq!(tally(&t, "victory: engines killed"), 1);
    assert!(log_text(&t).contains("Engine check: 2 of the 3 engines damaged."));
}

/// Step 1: one damaged engine is not enough: the hibernating character lives on.
#[test]
fn one_damaged_engine_lets_the_ship_jump() {
    let t = jump(
        2,
        "engine 1 damaged\nengine 2 working\nengine 3 working\ncoordinates 1\ndestination A\nout p2 1\nobjective p2 objective-prime-asset",
    );
    assert!(!dead(&t, "p2"));
    assert_eq!(counter(&t, "ship_destroyed"), 0);
    assert_eq!(t.winners(), ["p2"]);
}

// ---------------------------------------------------------------- step 2: coordinates

/// Step 2: a destination other than Earth kills the hibernating, not the escaped (they count
/// as reaching Earth); the ship is not destroyed and the Intruders live.
#[test]
fn a_destination_not_earth_kills_the_hibernating_not_the_escaped() {
    let t = jump(
        3,
        &format!("{MARS}intruder adult 5\nout p2 1\nout p3 2\nobjective p2 objective-prime-asset\nobjective p3 objective-prime-asset"),
    );
    assert!(dead(&t, "p2"));
    assert!(!dead(&t, "p3"));
    assert_eq!(text(&t, "g.get(\"arrival\")"), "mars");
    assert_eq!(counter(&t, "ship_destroyed"), 0);
    assert_eq!(intruders(&t, 5), "[\"adult\"]");
    // Prime Asset (Earth or only survivor): the escaped p3 reached Earth.
    assert_eq!(t.winners(), ["p3"]);
    assert_eq!(tally(&t, "victory: destination killed"), 1);
}

/// Step 2: [Quarantine]'s holder survives hibernation on Mars, and wins with it.
#[test]
fn quarantine_survives_hibernation_on_mars() {
    let t = jump(
        2,
        &format!("{MARS}out p2 1\nobjective p2 objective-quarantine"),
    );
    assert!(!dead(&t, "p2"));
    assert_eq!(t.winners(), ["p2"]);
    assert!(log_text(&t).contains("survives hibernation on Mars"));
}

/// Step 2: on Earth [Quarantine] is not met: p2 survives but does not win.
#[test]
fn quarantine_on_earth_survives_but_loses() {
    let t = jump(
        2,
        &format!("{EARTH}out p2 1\nobjective p2 objective-quarantine"),
    );
    assert!(!dead(&t, "p2"));
    assert!(t.winners().is_empty());
}

// ---------------------------------------------------------------- step 3: contamination

/// Step 3 A: contamination cards but none infected: the scan passes, no card is drawn.
#[test]
fn contamination_a_passes_without_an_infected_card() {
    let t = jump(
        2,
        &format!("{EARTH}deck p2 clean\nout p2 1\nobjective p2 objective-prime-asset"),
    );
    assert!(!dead(&t, "p2"));
    assert_eq!(t.winners(), ["p2"]);
    assert!(log_text(&t).contains("has no infected card (1 scanned)"));
}

/// Step 3 B: an infected card sends p2 to B; 4 action cards drawn: it survives, luckily.
#[test]
fn contamination_b_drawing_no_contamination_survives() {
    let t = jump(
        2,
        &format!("{EARTH}deck p2 infected\nout p2 1\nobjective p2 objective-prime-asset\nnext check clean"),
    );
    assert!(!dead(&t, "p2"));
    assert_eq!(
        zone_len(&t, "discard", "p2"),
        4,
        "the 4 cards drawn lie face up"
    );
    assert_eq!(t.winners(), ["p2"]);
}

/// Step 3 B: a contamination card among the 4 kills, and a dead character never wins.
#[test]
fn contamination_b_drawing_a_contamination_card_kills() {
    let t = jump(
        2,
        &format!("{EARTH}deck p2 infected\nout p2 1\nobjective p2 objective-prime-asset\nnext check contamination"),
    );
    assert!(dead(&t, "p2"));
    assert!(t.winners().is_empty());
    assert_eq!(tally(&t, "victory: contamination killed"), 1);
}

/// Step 3: a larva on the board skips A (no infected card needed) and goes to B.
#[test]
fn a_larva_goes_straight_to_b() {
    let t = jump(
        2,
        &format!("{EARTH}larva p2\ndeck p2 clean\nout p2 1\nobjective p2 objective-prime-asset\nnext check contamination"),
    );
    assert!(dead(&t, "p2"), "the clean card drawn in B kills");
    let t = jump(
        2,
        &format!("{EARTH}larva p2\nout p2 1\nobjective p2 objective-prime-asset\nnext check clean"),
    );
    assert!(!dead(&t, "p2"));
    assert_eq!(zone_len(&t, "discard", "p2"), 4, "B drew 4 cards");
}

// ---------------------------------------------------------------- step 4: objectives

/// Step 4: a dead character never wins, even with its objective met (2 weaknesses found).
#[test]
fn a_dead_character_never_wins() {
    let t = jump(
        2,
        &format!("{EARTH}discovered carcass\ndiscovered egg\nobjective p1 objective-field-biology\nout p2 1\nobjective p2 objective-field-biology"),
    );
    assert!(dead(&t, "p1"));
    assert_eq!(t.winners(), ["p2"]);
}

/// Whether objective `id`, held by p2 (hibernating on a safe landing), wins in `position`.
fn p2_wins(seats: usize, id: &str, position: &str) -> bool {
    let t = jump(
        seats,
        &format!("{EARTH}out p2 1\nobjective p2 {id}\n{position}"),
    );
    t.winners().contains(&"p2".to_string())
}

/// Each condition word of data/objectives.toml, met and not met, at the end of a real game.
#[test]
fn each_condition_kind_is_read_at_the_end() {
    // signal + weakness-carcass
    assert!(p2_wins(
        2,
        "objective-necropsy",
        "signal p2\ndiscovered carcass"
    ));
    assert!(!p2_wins(2, "objective-necropsy", "discovered carcass"));
    assert!(!p2_wins(
        2,
        "objective-necropsy",
        "signal p2\ndiscovered egg"
    ));
    // weakness-egg
    assert!(p2_wins(2, "objective-ab-ovo", "discovered egg"));
    assert!(!p2_wins(2, "objective-ab-ovo", "discovered carcass"));
    // weaknesses-2
    assert!(p2_wins(
        2,
        "objective-field-biology",
        "discovered egg\ndiscovered corpse"
    ));
    assert!(!p2_wins(2, "objective-field-biology", "discovered egg"));
    // signal + finish-holding-egg
    assert!(p2_wins(
        2,
        "objective-my-precious",
        "signal p2\ncarry p2 egg"
    ));
    assert!(!p2_wins(2, "objective-my-precious", "signal p2"));
    // earth (or only-survivor): Mars is not met unless p2 is the only survivor
    assert!(p2_wins(2, "objective-prime-asset", ""));
    // signal + (ship-destroyed or queen-dead)
    assert!(p2_wins(
        2,
        "objective-great-hunt",
        "signal p2\nkilled queen"
    ));
    assert!(!p2_wins(2, "objective-great-hunt", "signal p2"));
    assert!(!p2_wins(2, "objective-great-hunt", "killed queen"));
    // signal + (nest-destroyed or ship-destroyed)
    assert!(p2_wins(
        5,
        "objective-aliens-on-a-spaceship",
        "signal p2\nnest 0\nout p3 1\nout p4 1\nout p5 1"
    ));
    // another-survivor: p3 hibernates too
    assert!(p2_wins(4, "objective-best-friends", "out p3 1\nout p4 2"));
    assert!(!p2_wins(4, "objective-best-friends", "dead p3\ndead p4"));
    // signal + all-rooms-explored: the rooms are not all explored
    assert!(!p2_wins(
        2,
        "objective-relentless-investigator",
        "signal p2"
    ));
    // escape-pod-holding-7-items: p2 hibernates, it did not escape
    assert!(!p2_wins(2, "objective-hoarder", ""));
}

/// The conditions that need more setting up: escaping with 7 items (Hoarder), every room
/// tile explored (Relentless Investigator), holding a character corpse (A Proper Burial).
#[test]
fn items_rooms_and_corpses_are_read_at_the_end() {
    // The starting weapon is an item too: 6 bandages make 7 items, 5 make 6.
    let bandages = |n: usize| format!("out p2 2\n{}", "give p2 bandages\n".repeat(n));
    assert!(p2_wins(2, "objective-hoarder", &bandages(6)));
    assert!(!p2_wins(2, "objective-hoarder", &bandages(5)));
    let explored: String = (2..=18)
        .filter(|n| *n != 10)
        .map(|n| format!("explore {n}\n"))
        .collect();
    assert!(p2_wins(
        2,
        "objective-relentless-investigator",
        &format!("signal p2\n{explored}")
    ));
    assert!(p2_wins(
        2,
        "objective-proper-burial",
        "signal p2\ncarry p2 corpse"
    ));
    assert!(!p2_wins(
        2,
        "objective-proper-burial",
        "signal p2\ncarry p2 egg"
    ));
}

/// Co-op: [Emergency Post-Mortem] (a corpse on the Surgery floor) and [Special Delivery]
/// (finishing in hibernation holding an egg).
#[test]
fn coop_post_mortem_and_special_delivery() {
    let coop = [("mode", "coop")];
    let pos = format!(
        "{EARTH}out p2 1\ncarry p2 egg\nobjective p1 objective-coop-post-mortem\nobjective p2 objective-coop-special-delivery\ntile 5 surgery\n"
    );
    let t = jump_with(2, &coop, &format!("{pos}floor 5 corpse 1"));
    assert_eq!(t.winners(), ["p1", "p2"]);
    let t = jump_with(2, &coop, &pos);
    assert!(t.winners().is_empty());
}

/// "Player X's character must not survive" with X relative to the holder: p1 (dead in the
/// jump) is p2's target; p2's own number means "the only survivor" (content §12.1).
#[test]
fn player_x_objectives_read_the_holder() {
    assert!(p2_wins(2, "objective-strike-player-1", ""));
    // p2 holds "player 2": it must be the only survivor; p3 escaped too.
    assert!(p2_wins(3, "objective-strike-player-2", "dead p3"));
    assert!(!p2_wins(3, "objective-strike-player-2", "out p3 2"));
    // "player 3" while p3 escaped alive: not met.
    assert!(!p2_wins(3, "objective-strike-player-3", "out p3 2"));
}

/// Option `unchosen_objectives`: no encounter ever came and p2 holds 2 objectives, one met:
/// `either` wins, `none` does not.
#[test]
fn unchosen_objectives_option() {
    let pos = format!("{EARTH}out p2 1\nobjective p2 objective-prime-asset objective-hoarder");
    let t = jump(2, &pos);
    assert_eq!(t.winners(), ["p2"]);
    let t = jump_with(2, &[("unchosen_objectives", "none")], &pos);
    assert!(t.winners().is_empty());
}

/// Co-op (rules §16.3): the objectives are shared; all met and a survivor: all win together,
/// the dead p1 included. One unmet: nobody wins.
#[test]
fn coop_wins_together_when_every_objective_is_met() {
    let coop = [("mode", "coop")];
    let pos = format!(
        "{EARTH}out p2 1\nobjective p1 objective-coop-destination-earth\nobjective p2 objective-coop-first-contact\n"
    );
    let t = jump_with(2, &coop, &format!("{pos}discovered egg\ndiscovered corpse"));
    assert_eq!(t.winners(), ["p1", "p2"]);
    let t = jump_with(2, &coop, &format!("{pos}discovered egg"));
    assert!(t.winners().is_empty());
}

/// Co-op: two "send the signal" cards need two different characters to signal.
#[test]
fn coop_signals_need_as_many_characters_as_cards() {
    let coop = [("mode", "coop")];
    let pos = format!(
        "{EARTH}out p2 1\nnest 0\nkilled queen\nobjective p1 objective-coop-clean-up-crew\nobjective p2 objective-coop-cut-off-the-head\n"
    );
    let t = jump_with(2, &coop, &format!("{pos}signal p2"));
    assert!(t.winners().is_empty(), "one signal for two cards");
    let t = jump_with(2, &coop, &format!("{pos}signal p2\nsignal p1"));
    assert_eq!(t.winners(), ["p1", "p2"]);
}

/// Co-op objectives are face up from setup: every seat sees every card; standard ones are
/// secret until the objective check reveals them to all.
#[test]
fn objectives_stay_secret_until_the_reveal() {
    let hidden_to_p1 = |t: &Table| {
        let view = t.state().view(Some(0));
        t.eval("g.zone(\"objectives\", \"p2\").cards()[0].id")
            .parse::<usize>()
            .map(|id| {
                view.cards[id].name.is_empty() || view.cards[id].name != t.state().cards[id].name
            })
            .unwrap()
    };
    let t = table(2, "encountered\nobjective p2 objective-prime-asset");
    assert!(
        hidden_to_p1(&t),
        "before the end p1 cannot read p2's objective"
    );
    let t = jump(
        2,
        &format!("{EARTH}out p2 1\nobjective p2 objective-prime-asset"),
    );
    assert!(!hidden_to_p1(&t), "the objective check reveals it to all");
    let t = table_with(2, &[("mode", "coop")], "");
    assert!(!hidden_to_p1(&t), "co-op objectives are open");
}

// ---------------------------------------------------------------- §15.2 endings

/// §15.2 item 2: the self-destruct reaching the skull kills everyone aboard, hibernating or
/// not; the escaped survive it.
#[test]
fn self_destruct_kills_the_hibernating_not_the_escaped() {
    let t = jump(
        3,
        "destruct 5\nout p2 1\nout p3 2\nobjective p3 objective-prime-asset",
    );
    assert_eq!(reason(&t), "self-destruct");
    assert!(dead(&t, "p2"));
    assert!(!dead(&t, "p3"));
    assert_eq!(counter(&t, "ship_destroyed"), 1);
    assert_eq!(t.winners(), ["p3"]);
    assert_eq!(tally(&t, "victory: killed by the ship's destruction"), 2);
}

/// §15.2 item 3: the last character aboard dies with self-destruct active: its marker moves
/// to the last space and the ship explodes.
#[test]
fn the_last_character_gone_with_self_destruct_explodes() {
    let mut t = table(
        3,
        "encountered\ndestruct 2\nfire 10\nserious p1 3\nout p2 1\nout p3 2\nobjective p3 objective-prime-asset",
    );
    act_settled(&mut t, "p1", "pass");
    assert!(t.is_over());
    assert_eq!(reason(&t), "last character gone: self-destruct");
    assert_eq!(counter(&t, "destruct"), 6);
    assert!(dead(&t, "p2"));
    assert_eq!(t.winners(), ["p3"]);
}

/// §15.2 item 3 without self-destruct: the time marker moves to the last space, the jump.
#[test]
fn the_last_character_gone_moves_the_time_marker() {
    let mut t = table(
        2,
        &format!("encountered\n{EARTH}fire 10\nserious p1 3\nout p2 1\nobjective p2 objective-prime-asset"),
    );
    act_settled(&mut t, "p1", "pass");
    assert_eq!(reason(&t), "last character gone: jump");
    assert_eq!(counter(&t, "time"), 15);
    assert_eq!(t.winners(), ["p2"]);
}

/// Everyone dead: no victory check, nobody wins.
#[test]
fn everyone_dead_ends_without_a_check() {
    let mut t = table(1, "encountered\nfire 10\nserious p1 3");
    act_settled(&mut t, "p1", "pass");
    assert_eq!(reason(&t), "everyone dead");
    assert!(t.winners().is_empty());
    assert!(!log_text(&t).contains("Engine check"));
}

/// The victory check asks nothing: the same position ends the same way, state for state.
#[test]
fn the_victory_check_is_deterministic() {
    let pos = format!("{EARTH}deck p2 infected\nout p2 1\nobjective p2 objective-prime-asset");
    let a = jump(2, &pos);
    let b = jump(2, &pos);
    assert_eq!(a.state(), b.state());
    assert_replays_identically(&a.m);
}

// ---------------------------------------------------------------- §14.1 first encounter

/// A position where p1's move makes the game's first encounter (an adult out of the bag),
/// p1 keeping enough cards for no surprise attack.
const ENCOUNTER: &str = "explore 9\nnoise 9 1\nnext noise 1\nnext bag adult\n";

fn at_first_encounter(seats: usize, options: &[(&str, &str)], extra: &str) -> Table {
    let mut t = table_with(seats, options, &format!("{ENCOUNTER}{extra}"));
    act(&mut t, "p1", "move 9");
    t
}

/// Rules §14.1: the first Intruder on the board asks every living player at once to keep 1
/// of its 2 objectives (`keep <id>`); the other goes face down to the box.
#[test]
fn the_first_encounter_asks_every_player_to_keep_one() {
    let mut t = at_first_encounter(3, &[], "");
    assert_eq!(intruders(&t, 9), "[\"adult\"]");
    assert_eq!(t.deciding(), ["p1", "p2", "p3"]);
    let options = t.legal("p2");
    assert_eq!(options.len(), 2, "{options:?}");
    assert!(options.iter().all(|o| o.starts_with("keep objective-")));
    let (kept, dropped) = (&options[0][5..], &options[1][5..]);
    for s in ["p1", "p2", "p3"] {
        let first = t.legal(s)[0].clone();
        t.play(s, &first);
    }
    assert_eq!(zone_len(&t, "objectives", "p2"), 1);
    assert_eq!(
        text(&t, "g.zone(\"objectives\", \"p2\").cards()[0].name"),
        kept
    );
    assert_eq!(
        t.eval(&format!("g.zone(\"box\").find(\"{dropped}\") != ()")),
        "true"
    );
    assert_eq!(counter(&t, "encountered"), 1);
}

/// The choice is secret: while it is open and after, no other seat's view or log names the
/// kept or the discarded objective.
#[test]
fn the_choice_is_secret() {
    let mut t = at_first_encounter(3, &[], "");
    let p2_options = t.legal("p2");
    t.play("p2", &p2_options[0].clone());
    t.play("p1", &t.legal("p1")[0].clone());
    t.play("p3", &t.legal("p3")[0].clone());
    for id in p2_options.iter().map(|o| &o[5..]) {
        for seat in [0usize, 2] {
            let view = t.state().view(Some(seat));
            let json = view.to_json().to_string();
            assert!(!json.contains(id), "seat {seat} sees {id}");
            let log: String = view.log.iter().map(|e| e.text.clone()).collect();
            assert!(!log.contains(id));
        }
    }
    assert!(log_text(&t).contains("keeps one objective"));
}

/// The question is asked once: a second Intruder asks nothing.
#[test]
fn the_first_encounter_is_asked_once() {
    let mut t = at_first_encounter(2, &[], "hand p1 5\n");
    for s in ["p1", "p2"] {
        t.play(s, &t.legal(s)[0].clone());
    }
    assert_eq!(counter(&t, "choosing"), 0);
    let again = t.eval("first_encounter(g); g.counter(\"choosing\")");
    assert_eq!(again, "0", "a later Intruder asks nothing");
}

/// The encounter resumes after the choice: with too few cards in hand p1 suffers the surprise
/// attack only once every player has kept an objective.
#[test]
fn the_encounter_resumes_after_the_choice() {
    let mut t = at_first_encounter(2, &[], "hand p1 2\n");
    assert_eq!(
        eval_int(&t, "g.zone(\"attacks_discard\").len"),
        0,
        "not yet"
    );
    t.play("p1", &t.legal("p1")[0].clone());
    assert_eq!(
        eval_int(&t, "g.zone(\"attacks_discard\").len"),
        0,
        "p2 has not chosen"
    );
    t.play("p2", &t.legal("p2")[0].clone());
    assert_eq!(
        eval_int(&t, "g.zone(\"attacks_discard\").len"),
        1,
        "the surprise attack"
    );
}

/// The dead are not asked; the hibernating are (they are still checked at the end).
#[test]
fn the_dead_are_not_asked_the_hibernating_are() {
    let t = at_first_encounter(3, &[], "out p2 1\ndead p3\n");
    assert_eq!(t.deciding(), ["p1", "p2"]);
    assert_eq!(
        zone_len(&t, "objectives", "p3"),
        2,
        "p3's cards are left alone"
    );
}

/// Solo mode: the seat keeps 1 of its 2 solo/co-op objectives; co-op asks nothing.
#[test]
fn solo_keeps_one_coop_asks_nothing() {
    let t = at_first_encounter(1, &[("mode", "solo")], "");
    let options = t.legal("p1");
    assert_eq!(options.len(), 2);
    assert!(options
        .iter()
        .all(|o| o.starts_with("keep objective-coop-")));
    let t = at_first_encounter(2, &[("mode", "coop")], "");
    assert_eq!(counter(&t, "encountered"), 1);
    assert_eq!(counter(&t, "choosing"), 0);
    assert_eq!(zone_len(&t, "objectives", "p1"), 1);
}

/// Save and load in the middle of the objective choice (one seat has answered) resume alike.
#[test]
fn save_and_load_in_the_middle_of_the_choice() {
    let mut t = at_first_encounter(3, &[], "");
    t.play("p2", &t.legal("p2")[0].clone());
    let text = t.m.save_json();
    let mut b = boardscript_interpreter::Match::new(load(ID), Default::default()).unwrap();
    b.load(&SaveFile::parse(&text, ID).unwrap()).unwrap();
    assert_eq!(b.state, t.m.state);
    for s in ["p1", "p3"] {
        let a = t.legal(s)[0].clone();
        t.play(s, &a);
        b.play(Some(s), &a).unwrap();
    }
    assert_eq!(b.state, t.m.state);
    assert_eq!(counter(&t, "choosing"), 0);
}
