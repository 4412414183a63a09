//! Nemesis (scripts/nemesis), part 1: scenario tests for the rules the script plays so far
//! (noise rolls, encounters, Danger, doors, technical corridors, Careful Movement, fire and
//! wounds, bag development, the time track), from positions with forced dice and bag draws
//! (`next noise 3`, `next bag adult`: see scripts/nemesis/position.rhai), and seeded random
//! playouts with the game's invariants.

use boardscript_interpreter::State;
use boardscript_tests::{PlayoutStats, Playouts, Step, Table};
use std::collections::BTreeMap;

mod nemesis_support;
use nemesis_support::{
    act_settled, bag_types, board_holds, eval_int, intruders, noisy, seat_counter, settle, table,
    ENDINGS, ID,
};

// ---------------------------------------------------------------- Helpers

fn noise_count(t: &Table, room: i64) -> usize {
    (1..=4).filter(|&e| noisy(t, room, e)).count()
}

// ---------------------------------------------------------------- §4 Setup

/// §4.1-4.2: 16 face-down rooms of 21, the bag for 3 players (1 blank, 4 larvae, 1 creeper,
/// 3+3 adults, 1 queen), every character in the Hibernatorium with 5 cards.
#[test]
fn setup_deals_the_side_a_board_and_the_bag() {
    let t = table(3, "");
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").nodes_with(\"u\").len()"),
        16
    );
    let bag = bag_types(t.state(), "bag");
    let want: BTreeMap<String, u32> = [
        ("blank", 1),
        ("larva", 4),
        ("creeper", 1),
        ("adult", 6),
        ("queen", 1),
    ]
    .iter()
    .map(|(k, n)| (k.to_string(), *n))
    .collect();
    assert_eq!(bag, want);
    for seat in ["p1", "p2", "p3"] {
        assert_eq!(seat_counter(&t, seat, "room"), 10);
        assert_eq!(
            eval_int(&t, &format!("g.zone(\"hand\", \"{seat}\").len")),
            5
        );
    }
    assert_eq!(t.deciding(), ["p1"]);
}

/// §4.2 step 17: the draft offers two characters to each player in turn.
#[test]
fn draft_offers_two_characters() {
    let t = Table::new(ID).seats(2).seed(4).start();
    let picks = t.legal("p1");
    assert_eq!(picks.len(), 2);
    assert!(picks.iter().all(|a| a.starts_with("pick ")));
}

// ---------------------------------------------------------------- §7.1 Move, §7.3 noise

/// §7.3: a number puts a noise marker on that corridor of the room.
#[test]
fn noise_roll_number_marks_that_corridor() {
    let mut t = table(1, "explore 9\nnext noise 1");
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(seat_counter(&t, "p1", "room"), 9);
    assert!(noisy(&t, 9, 1));
    assert_eq!(noise_count(&t, 9), 1);
}

/// §6.2: Move costs one card.
#[test]
fn move_costs_one_card() {
    let mut t = table(1, "explore 9\nnext noise 10");
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(eval_int(&t, "g.zone(\"discard\", \"p1\").len"), 1);
    assert_eq!(eval_int(&t, "g.zone(\"hand\", \"p1\").len"), 4);
}

/// §7.3: a number naming a corridor that already has noise makes an encounter: the room's
/// noise is cleared, an Intruder of the drawn token's type appears, the token goes to the supply.
#[test]
fn noise_on_a_marked_corridor_makes_an_encounter() {
    let mut t = table(
        1,
        "explore 9\nnoise 9 1\nnoise 9 3\nnext noise 1\nnext bag adult",
    );
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(intruders(&t, 9), "[\"adult\"]");
    assert_eq!(noise_count(&t, 9), 0);
    assert_eq!(bag_types(t.state(), "bag")["adult"], 3);
    assert_eq!(bag_types(t.state(), "supply")["adult"], 9);
}

/// §8.1 step 4: fewer cards in hand than the token's back number: a surprise attack (an
/// attack card is drawn).
#[test]
fn few_cards_in_hand_means_a_surprise_attack() {
    let mut t = table(
        1,
        "explore 9\nnoise 9 1\nhand p1 1\nnext noise 1\nnext bag adult",
    );
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(eval_int(&t, "g.zone(\"attacks_discard\").len"), 1);
}

/// §8.1 step 4: as many cards as the back number: no surprise attack.
#[test]
fn enough_cards_in_hand_means_no_surprise_attack() {
    let mut t = table(1, "explore 9\nnoise 9 1\nnext noise 1\nnext bag adult");
    act_settled(&mut t, "p1", "move 9"); // 4 cards left; adult backs are 2-4
    assert_eq!(eval_int(&t, "g.zone(\"attacks_discard\").len"), 0);
}

/// §8.1: a blank token: no Intruder, noise on every corridor, the blank back in the bag.
#[test]
fn blank_encounter_fills_the_corridors_with_noise() {
    let mut t = table(1, "explore 9\nnoise 9 1\nnext noise 1\nnext bag blank");
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(intruders(&t, 9), "[]");
    assert_eq!(noise_count(&t, 9), 4);
    assert_eq!(bag_types(t.state(), "bag")["blank"], 1);
}

/// §7.3 Danger: the Intruders of an adjacent room not in combat move in.
#[test]
fn danger_draws_adjacent_intruders() {
    let mut t = table(1, "explore 9\nintruder adult 5\nnext noise 9");
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(intruders(&t, 9), "[\"adult\"]");
    assert_eq!(intruders(&t, 5), "[]");
}

/// §3.4: an Intruder answering Danger through a closed door breaks it and stays.
#[test]
fn danger_breaks_a_closed_door_instead() {
    let mut t = table(
        1,
        "explore 9\nintruder adult 5\ndoor 9 2 closed\nnext noise 9",
    );
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(intruders(&t, 5), "[\"adult\"]");
    assert_eq!(
        t.eval("g.graph(\"ship\").edge_value(exit_edge(g, room_id(9), 2), \"door\")"),
        "2"
    );
}

/// §7.3 Danger with no Intruder near: noise on every corridor, the technical space too.
#[test]
fn danger_without_intruders_puts_noise_everywhere() {
    let mut t = table(1, "explore 9\nnext noise 9");
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(noise_count(&t, 9), 4);
    assert_eq!(eval_int(&t, "g.counter(\"noise_tech\")"), 1);
}

/// §7.3 Silence: nothing happens.
#[test]
fn silence_does_nothing() {
    let mut t = table(1, "explore 9\nnext noise 10");
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(noise_count(&t, 9), 0);
}

/// §3.5: a slimed character treats Silence as Danger.
#[test]
fn slimed_character_hears_silence_as_danger() {
    let mut t = table(1, "explore 9\nslime p1\nnext noise 10");
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(noise_count(&t, 9), 4);
}

/// §3.3: noise for a technical entrance goes on the technical corridor space.
#[test]
fn noise_on_a_technical_entrance_goes_to_the_technical_space() {
    let mut t = table(1, "explore 9\nnext noise 7"); // room 9's exit 4 is an entrance
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(eval_int(&t, "g.counter(\"noise_tech\")"), 1);
    assert_eq!(t.eval("g.graph(\"ship\").edges_where(\"noise\", 1)"), "[]");
}

/// §3.3: the technical space's marker counts at every entrance: rolling an entrance of
/// another room makes an encounter.
#[test]
fn technical_noise_counts_at_every_entrance() {
    let mut t = table(1, "explore 9\nnoise 2 1\nnext noise 7\nnext bag larva");
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(intruders(&t, 9), "[\"larva\"]");
    assert_eq!(eval_int(&t, "g.counter(\"noise_tech\")"), 0);
}

/// §7.1 step 4: entering a room with someone in it makes no noise roll.
#[test]
fn entering_an_occupied_room_makes_no_noise_roll() {
    let mut t = table(2, "explore 9\np2 at 9\nnext noise 9");
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(noise_count(&t, 9), 0);
}

/// §7.1 step 3, §7.2: entering an unexplored room turns its tile and token up.
#[test]
fn exploring_turns_the_tile_and_token_up() {
    let mut t = table(1, "next noise 10");
    let before = eval_int(&t, "g.zone(\"used_tokens\").len");
    act_settled(&mut t, "p1", "move 17");
    assert_eq!(t.eval("g.graph(\"ship\").mark(room_id(17))"), "\"e\"");
    assert_eq!(eval_int(&t, "g.zone(\"used_tokens\").len"), before + 1);
    assert_ne!(t.eval("tile_of(g, room_id(17))"), "()");
}

/// §6.2: Careful Movement costs 2 cards and places the chosen marker instead of a roll.
#[test]
fn careful_movement_places_the_chosen_marker() {
    let mut t = table(1, "explore 9\nnext noise 9");
    t.play("p1", "careful 9");
    settle(&mut t, "p1");
    assert_eq!(t.legal("p1"), ["exit 1", "exit 2", "exit 3", "exit 4"]);
    t.play("p1", "exit 2");
    assert_eq!(eval_int(&t, "g.zone(\"discard\", \"p1\").len"), 2);
    assert!(noisy(&t, 9, 2));
    assert_eq!(noise_count(&t, 9), 1);
}

/// §6.2: no Careful Movement into a room whose every corridor has noise.
#[test]
fn no_careful_movement_into_a_room_full_of_noise() {
    let t = table(1, "noise 9 1\nnoise 9 2\nnoise 9 3\nnoise 9 4");
    let legal = t.legal("p1");
    assert!(legal.contains(&"move 9".to_string()));
    assert!(!legal.contains(&"careful 9".to_string()));
    assert!(legal.contains(&"careful 3".to_string()));
}

/// §3.4: a closed door blocks movement; a destroyed one does not.
#[test]
fn closed_doors_block_movement() {
    let t = table(1, "door 10 4 closed\ndoor 10 2 destroyed");
    let legal = t.legal("p1");
    assert!(!legal.contains(&"move 9".to_string()));
    assert!(legal.contains(&"move 3".to_string()));
}

/// §3.3: characters never enter the technical corridors.
#[test]
fn no_move_into_the_technical_corridors() {
    let t = table(1, "p1 at 9");
    assert_eq!(
        t.legal("p1")
            .iter()
            .filter(|a| a.starts_with("move"))
            .count(),
        3
    );
}

// ---------------------------------------------------------------- §5.1 Turns, §3.5 fire, §10

/// §5.1: a turn is 2 actions; then the next seat plays.
#[test]
fn two_actions_then_the_next_seat() {
    let mut t = table(2, "explore 9\nexplore 17\nnext noise 10 10");
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(t.deciding(), ["p1"]);
    act_settled(&mut t, "p1", "move 10");
    assert_eq!(t.deciding(), ["p2"]);
}

/// §3.5 rule 1: a character in a fire room takes a light wound at the end of its turn.
#[test]
fn fire_wounds_at_the_end_of_a_turn() {
    let mut t = table(2, "fire 10");
    act_settled(&mut t, "p1", "pass");
    assert_eq!(seat_counter(&t, "p1", "light"), 1);
    assert_eq!(seat_counter(&t, "p2", "light"), 0);
}

/// §10.1: the third light wound becomes a serious wound.
#[test]
fn third_light_wound_becomes_serious() {
    let mut t = table(2, "fire 10\nlight p1 2");
    act_settled(&mut t, "p1", "pass");
    assert_eq!(seat_counter(&t, "p1", "light"), 0);
    assert_eq!(eval_int(&t, "g.zone(\"wounds\", \"p1\").len"), 1);
}

/// §10.2: with 3 serious wounds, any further wound kills; with everyone dead the game ends
/// and nobody wins.
#[test]
fn a_fourth_wound_kills() {
    let mut t = table(1, "fire 10\nserious p1 3");
    act_settled(&mut t, "p1", "pass");
    assert_eq!(seat_counter(&t, "p1", "dead"), 1);
    assert!(t.is_over());
    assert!(t.winners().is_empty());
}

/// §5.1: passing lets a player discard any cards.
#[test]
fn passing_offers_discards() {
    let mut t = table(1, "");
    t.play("p1", "pass");
    let legal = t.legal("p1");
    assert!(legal.contains(&"done".to_string()));
    assert_eq!(legal.len(), 6);
}

// ---------------------------------------------------------------- §5.2 Event phase

/// §5.2 step 4, §15.2 item 1: the last time space ends the game; the ship jumps and every
/// character still aboard and awake dies with it.
#[test]
fn the_game_ends_when_time_runs_out() {
    let mut t = table(1, "time 14");
    act_settled(&mut t, "p1", "pass");
    assert!(t.is_over());
    assert!(t.winners().is_empty());
    assert_eq!(seat_counter(&t, "p1", "dead"), 1);
}

/// §5.2: after the event phase a new round starts with hands drawn to 5.
#[test]
fn a_new_round_draws_hands_back_to_five() {
    let mut t = table(1, "explore 9\nnext noise 10\nnext bag adult\nnext noise 10");
    act_settled(&mut t, "p1", "move 9");
    act_settled(&mut t, "p1", "pass");
    assert_eq!(eval_int(&t, "g.counter(\"round\")"), 2);
    assert_eq!(eval_int(&t, "g.counter(\"time\")"), 2);
    assert_eq!(eval_int(&t, "g.zone(\"hand\", \"p1\").len"), 5);
}

fn after_bag(token: &str, extra: &str) -> Table {
    let mut t = table(1, &format!("next bag {token}\n{extra}"));
    act_settled(&mut t, "p1", "pass");
    t
}

/// §5.3 Larva: the larva leaves the bag and an adult comes in.
#[test]
fn bag_larva_becomes_an_adult() {
    let before = bag_types(table(1, "").state(), "bag");
    let t = after_bag("larva", "");
    let bag = bag_types(t.state(), "bag");
    assert_eq!(bag["larva"], before["larva"] - 1);
    assert_eq!(bag["adult"], before["adult"] + 1);
}

/// §5.3 Creeper: the creeper leaves the bag and a breeder comes in.
#[test]
fn bag_creeper_becomes_a_breeder() {
    let t = after_bag("creeper", "");
    let bag = bag_types(t.state(), "bag");
    assert_eq!(bag.get("creeper"), None);
    assert_eq!(bag["breeder"], 1);
}

/// §5.3 Adult: the token goes back and every character not in combat rolls for noise.
#[test]
fn bag_adult_makes_everyone_roll_noise() {
    let before = bag_types(table(1, "").state(), "bag");
    let t = after_bag("adult", "next noise 1");
    assert_eq!(bag_types(t.state(), "bag"), before);
    assert!(noisy(&t, 10, 1));
}

/// §5.3 Queen with nobody in the Nest: one more egg, the queen back in the bag.
#[test]
fn bag_queen_adds_an_egg() {
    let t = after_bag("queen", "");
    assert_eq!(eval_int(&t, "g.zone(\"nest_eggs\").len"), 6);
    assert_eq!(bag_types(t.state(), "bag")["queen"], 1);
}

/// §5.3 Queen with a character in the Nest: the Queen appears there.
#[test]
fn bag_queen_comes_to_a_character_in_the_nest() {
    let t = after_bag("queen", "tile 9 nest\np1 at 9");
    assert_eq!(intruders(&t, 9), "[\"queen\"]");
}

/// §5.3 Blank: an adult comes into the bag, the blank goes back.
#[test]
fn bag_blank_adds_an_adult() {
    let before = bag_types(table(1, "").state(), "bag");
    let t = after_bag("blank", "");
    let bag = bag_types(t.state(), "bag");
    assert_eq!(bag["adult"], before["adult"] + 1);
    assert_eq!(bag["blank"], 1);
}

// ---------------------------------------------------------------- Random playouts

/// After every action: `board_holds` (scripts/nemesis, rules §2-§3, §15).
fn invariant(step: &Step) -> Result<(), String> {
    board_holds(step.after)
}

/// The 300 seeded random games per seat count, every action checked against the
/// engine's invariants and `invariant` (about 12 s a seat count on 2 cores): every game
/// ends within 10,000 actions (the time track runs out long before), by one of §15.2's
/// endings, and not always the same one, through §15.3's victory check (`victory_checked`).
fn playouts(seats: usize, games: usize) -> PlayoutStats {
    let stats = Playouts::new(ID)
        .seats(seats)
        .seed(12)
        .games(games)
        .max_length(10_000)
        .check(&invariant)
        .run();
    stats.assert_all_end().assert_endings_among(&ENDINGS);
    assert!(stats.endings.len() >= 2, "{stats:?}");
    stats
}

#[test]
fn random_playouts_1_seat() {
    playouts(1, 300);
}

#[test]
fn random_playouts_2_seats() {
    playouts(2, 300);
}

#[test]
fn random_playouts_5_seats() {
    playouts(5, 300);
}

/// §9.1-9.2: whether a contamination card is infected is a secret of the card: the rules read
/// it (7 of the 27 cards), and before any scan no view shows it, its holder's included.
#[test]
fn the_infected_mark_is_in_no_view() {
    let t = table(3, "");
    let infected = |s: &State| {
        s.cards
            .iter()
            .filter(|d| d.name == "contamination")
            .filter(|d| d.props.contains_key("infected") || d.secrets.contains_key("infected"))
            .count()
    };
    assert_eq!(infected(t.state()), 27);
    assert_eq!(
        eval_int(
            &t,
            "g.zone(\"contamination\").cards().filter(|c| c.infected).len()"
        ),
        7
    );
    for seat in [None, Some(0), Some(1), Some(2)] {
        assert_eq!(infected(&t.state().view(seat)), 0, "view of {seat:?}");
    }
}

/// Every seat's view after every action of a few games: no hidden card, token, secret or
/// other seat's private data leaks (`check_views`: a secret such as the infected mark shows
/// only to the seats a scan revealed it to), and the mark is never a plain property.
#[test]
fn views_leak_nothing_hidden() {
    let no_infected_mark = |step: &Step| {
        let s = step.after;
        for seat in [None, Some(0), Some(1), Some(2)] {
            let v = s.view(seat);
            if v.cards.iter().any(|d| d.props.contains_key("infected")) {
                return Err(format!("the view of {seat:?} shows an infected mark"));
            }
        }
        Ok(())
    };
    let p = Playouts::new(ID).seats(3).seed(5).games(3).views();
    let stats = p.check(&no_infected_mark).run();
    stats.assert_all_end().assert_endings_among(&ENDINGS);
}

/// §8.2-8.4: with an Intruder in the room, the character is in combat: it may Shoot it (the
/// starting weapon has ammo) or fight it in Melee, and Careful Movement is not offered.
#[test]
fn an_intruder_in_the_room_offers_shoot_and_melee() {
    let t = table(1, "intruder adult 10");
    let legal = t.legal("p1");
    let has = |prefix: &str| legal.iter().any(|a| a.starts_with(prefix));
    assert!(has("shoot adult-"), "{legal:?}");
    assert!(has("melee adult-"), "{legal:?}");
    assert!(!has("careful "), "{legal:?}");
}
