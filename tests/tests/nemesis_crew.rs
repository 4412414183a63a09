//! Nemesis (scripts/nemesis), part 1: the crew's body and the Intruders' attacks: serious
//! wound effects (content §9), attack card effects (content §7, rules §8.7), the infection
//! rule (§9.3), the end of the game (§15.2) and the options of content §20.1 on wounds,
//! contamination and tokens. Positions force the attack cards (`next attack <id>`).

use boardscript_tests::Table;

mod nemesis_support;
use nemesis_support::{act_settled, eval_int, seat_counter, settle, table, table_with, zone_len};

/// The contamination cards of `seat` in its discard pile.
fn contamination_in_discard(t: &Table, seat: &str) -> i64 {
    eval_int(
        t,
        &format!("g.zone(\"discard\", \"{seat}\").count(\"contamination\")"),
    )
}

// ---------------------------------------------------------------- §10.2 serious wound effects

/// A game where p1's face-up serious wound is of `kind` (wound cards are drawn from the top
/// of the wound deck, so the position stacks one of that kind first).
fn with_wound_kind(seats: usize, kind: &str, more: &str) -> Table {
    table(seats, &format!("woundtop {kind}\nserious p1 1\n{more}"))
}

/// Content §9 Bleeding: passing costs 1 light wound.
#[test]
fn bleeding_wounds_on_pass() {
    let mut t = with_wound_kind(2, "bleeding", "");
    act_settled(&mut t, "p1", "pass");
    assert_eq!(seat_counter(&t, "p1", "light"), 1);
}

/// Content §9 Crushed Ribs (body): the hand is drawn to 4 (a hand of 2 at the pass).
#[test]
fn body_wound_draws_to_four() {
    let mut t = with_wound_kind(1, "body", "hand p1 2\nnext noise 10 10");
    act_settled(&mut t, "p1", "pass");
    assert_eq!(eval_int(&t, "g.counter(\"round\")"), 2);
    assert_eq!(zone_len(&t, "hand", "p1"), 4);
}

/// Content §9 leg wound: fleeing costs 2 cards, so with 1 card in hand there is no flee.
#[test]
fn leg_wound_makes_fleeing_cost_two() {
    let t = with_wound_kind(1, "leg", "explore 9\nintruder adult 10\nhand p1 1");
    assert!(!t.legal("p1").iter().any(|a| a.starts_with("move ")));
    let t = table(1, "explore 9\nintruder adult 10\nhand p1 1");
    assert!(t.legal("p1").iter().any(|a| a.starts_with("move ")));
}

/// Content §9 Broken Arm: one hand slot.
#[test]
fn arm_wound_leaves_one_hand_slot() {
    let t = with_wound_kind(1, "arm", "");
    assert_eq!(eval_int(&t, "hand_slots(g, \"p1\")"), 1);
    assert_eq!(eval_int(&t, "item_cost(g, \"p1\", 1)"), 1);
    let t = with_wound_kind(1, "hand", "");
    assert_eq!(eval_int(&t, "hand_slots(g, \"p1\")"), 2);
    assert_eq!(eval_int(&t, "item_cost(g, \"p1\", 1)"), 2);
}

/// §10.2: the limit of 3 counts dressed wound cards too.
#[test]
fn dressed_wounds_still_count_toward_death() {
    let mut t = table(1, "fire 10\nserious p1 3\ndress p1");
    assert_eq!(zone_len(&t, "dressed", "p1"), 3);
    act_settled(&mut t, "p1", "pass");
    assert_eq!(seat_counter(&t, "p1", "dead"), 1);
}

/// Option `serious_wounds = engine` (content §20.1): 4 arm, leg, body and bleeding cards and
/// no hand wound.
#[test]
fn engine_wound_deck_has_four_of_four_kinds() {
    let t = table_with(1, &[("serious_wounds", "engine")], "");
    for kind in ["arm", "leg", "body", "bleeding"] {
        let n = eval_int(
            &t,
            &format!("g.zone(\"wound_deck\").cards().filter(|c| c.kind == \"{kind}\").len()"),
        );
        assert_eq!(n, 4, "{kind}");
    }
    assert_eq!(eval_int(&t, "g.zone(\"wound_deck\").len"), 16);
}

// ---------------------------------------------------------------- §8.7 attack card effects

/// Content §7 Scratch: 1 light wound and 1 contamination card.
#[test]
fn scratch_wounds_and_contaminates() {
    let mut t = table(
        1,
        "explore 9\nintruder adult 10\nnext attack attack-scratch-1\nhand p1 3",
    );
    let before = contamination_in_discard(&t, "p1");
    act_settled(&mut t, "p1", "move 9"); // a flee: the adult attacks first
    assert_eq!(seat_counter(&t, "p1", "light"), 1);
    assert_eq!(contamination_in_discard(&t, "p1"), before + 1);
}

/// Content §7 Bite against a character with 2 serious wounds: death.
#[test]
fn bite_kills_with_two_serious_wounds() {
    let mut t = table(
        1,
        "explore 9\nintruder adult 10\nnext attack attack-bite-1\nserious p1 2",
    );
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(seat_counter(&t, "p1", "dead"), 1);
}

/// A card without the attacker's symbol misses (Tail Strike is the queen's).
#[test]
fn an_attack_without_the_symbol_misses() {
    let mut t = table(
        1,
        "explore 9\nintruder adult 10\nnext attack attack-tail-1\nnext noise 10",
    );
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(seat_counter(&t, "p1", "light"), 0);
    assert_eq!(zone_len(&t, "wounds", "p1"), 0);
}

/// Content §7 Transformation: the creeper becomes a breeder with its injuries.
#[test]
fn transformation_turns_a_creeper_into_a_breeder() {
    let mut t = table(
        1,
        "explore 9\nintruder creeper 10\ninjuries 10 1\nnext attack attack-transformation-1\nnext noise 10",
    );
    act_settled(&mut t, "p1", "move 9");
    let room = t.eval("g.zone(`room/${room_id(10)}`).names()");
    assert!(
        room.contains("breeder") && !room.contains("creeper"),
        "{room}"
    );
    let breeder = t.eval("g.zone(`room/${room_id(10)}`).cards()[0].id");
    assert_eq!(eval_int(&t, &format!("g.counter(\"inj/{breeder}\")")), 1);
}

/// Content §7 Summoning: an encounter in the attacker's room, without a surprise attack.
#[test]
fn summoning_brings_an_encounter_without_surprise() {
    let mut t = table(
        1,
        "explore 9\nintruder creeper 10\nnext attack attack-summoning\nnext bag adult\nhand p1 1\nnext noise 10",
    );
    act_settled(&mut t, "p1", "move 9");
    let room = t.eval("g.zone(`room/${room_id(10)}`).names()");
    assert!(room.contains("adult"), "{room}");
    assert_eq!(zone_len(&t, "wounds", "p1"), 0);
    assert_eq!(seat_counter(&t, "p1", "light"), 0);
}

/// §8.7 Larva attack: the larva goes on the character board and the target takes 1
/// contamination card; a second larva adds a card but no second larva (§21.5).
#[test]
fn larva_attack_infests_and_contaminates() {
    let mut t = table(
        1,
        "explore 9\nintruder larva 10\nintruder larva 10\nnext noise 10",
    );
    let before = contamination_in_discard(&t, "p1");
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(seat_counter(&t, "p1", "larva"), 1);
    assert_eq!(contamination_in_discard(&t, "p1"), before + 2);
    assert_eq!(eval_int(&t, "g.zone(`room/${room_id(10)}`).len"), 0);
}

// ---------------------------------------------------------------- §9.3 infection

/// §9.3: a scan that finds an infected card puts a larva on the board and keeps the card; a
/// second kills and a creeper appears.
#[test]
fn infection_rule_larva_then_death() {
    let t = table(
        1,
        "contamination p1 discard infected\ncontamination p1 discard clean\nscan p1",
    );
    assert_eq!(seat_counter(&t, "p1", "larva"), 1);
    assert_eq!(contamination_in_discard(&t, "p1"), 1);
    let t = table(2, "contamination p1 discard infected\nscan p1\nscan p1");
    assert_eq!(seat_counter(&t, "p1", "dead"), 1);
    assert!(t
        .eval("g.zone(`room/${room_id(10)}`).names()")
        .contains("creeper"));
    let t = table(1, "contamination p1 discard clean\nscan p1");
    assert_eq!(seat_counter(&t, "p1", "larva"), 0);
    assert_eq!(contamination_in_discard(&t, "p1"), 0);
}

/// Option `infected_cards` (content §20.1): the number of infected contamination cards.
#[test]
fn infected_cards_option_sets_the_count() {
    for n in [0, 7, 27] {
        let t = table_with(1, &[("infected_cards", &n.to_string())], "");
        let got = eval_int(
            &t,
            "g.zone(\"contamination\").cards().filter(|c| c.infected).len()",
        );
        assert_eq!(got, n);
    }
}

// ---------------------------------------------------------------- §15.2 the end

/// Working engines, the destination Earth, and p2 holding an objective met on Earth: the
/// victory check (victory.rhai) lets a hibernating p2 win.
const SAFE_LANDING: &str = "engine 1 working\nengine 2 working\nengine 3 working\ncoordinates 1\ndestination A\nobjective p2 objective-prime-asset\n";

/// §15.2 item 1: at the jump a hibernating character survives, an awake one dies.
#[test]
fn the_jump_spares_only_the_hibernating() {
    let mut t = table(2, &format!("{SAFE_LANDING}time 14\nout p2 1"));
    act_settled(&mut t, "p1", "pass");
    assert!(t.is_over());
    assert_eq!(t.winners(), ["p2"]);
    assert_eq!(seat_counter(&t, "p1", "dead"), 1);
}

/// §15.2 item 3: when the last character aboard leaves, the ship jumps at once.
#[test]
fn the_last_character_gone_ends_the_game() {
    let mut t = table(2, &format!("{SAFE_LANDING}fire 10\nserious p1 3\nout p2 1"));
    act_settled(&mut t, "p1", "pass");
    assert!(t.is_over());
    assert_eq!(t.winners(), ["p2"]);
}

// ---------------------------------------------------------------- options on tokens

/// Options `adult_backs` and `breeder_backs` (content §20.1).
#[test]
fn token_back_options() {
    let t = table(1, "");
    assert_eq!(eval_int(&t, "token_back(g, \"token-adult-05\")"), 3);
    assert_eq!(eval_int(&t, "token_back(g, \"token-breeder-2\")"), 4);
    let t = table_with(
        1,
        &[("adult_backs", "engine"), ("breeder_backs", "3-3")],
        "",
    );
    assert_eq!(eval_int(&t, "token_back(g, \"token-adult-05\")"), 1);
    assert_eq!(eval_int(&t, "token_back(g, \"token-breeder-2\")"), 3);
}

// ---------------------------------------------------------------- §7.5 component limits

/// §7.5: no creeper miniature left: the current player chooses one on the board not in
/// combat, and it comes to the encounter.
#[test]
fn out_of_creepers_the_current_player_chooses_one() {
    let mut t = table(
        1,
        "explore 9\nintruder creeper 1\nintruder creeper 2\nintruder creeper 3\n\
         noise 9 1\nnext noise 1\nnext bag creeper",
    );
    act_settled(&mut t, "p1", "move 9");
    let legal = t.legal("p1");
    assert_eq!(legal.len(), 3, "{legal:?}");
    assert!(legal.iter().all(|a| a.starts_with("take creeper-")));
    let chosen = legal[1].clone();
    t.play("p1", &chosen);
    let id = chosen.rsplit('-').next().unwrap().to_string();
    assert_eq!(t.eval("g.zone(`room/${room_id(2)}`).len"), "0");
    assert_eq!(
        t.eval(&format!(
            "g.zone(`room/${{room_id(9)}}`).contains(g.card({id}))"
        )),
        "true"
    );
}

/// §7.5: no adult miniature left: every adult not in combat goes back to the bag as a token,
/// and one comes to the encounter; an adult in combat stays.
#[test]
fn out_of_adults_the_free_ones_go_back_to_the_bag() {
    let mut pos = String::from("explore 9\nintruder adult 10\n");
    for room in 1..=7 {
        pos += &format!("intruder adult {room}\n");
    }
    pos += "noise 9 1\nnext noise 1\nnext bag adult";
    let mut t = table(2, &pos);
    t.play("p1", "move 9");
    settle(&mut t, "p1");
    assert_eq!(
        t.eval("g.zone(`room/${room_id(10)}`).names()"),
        "[\"adult\"]"
    );
    for room in 1..=7 {
        assert_eq!(
            t.eval(&format!("g.zone(`room/${{room_id({room})}}`).len")),
            "0"
        );
    }
    assert_eq!(
        t.eval("g.zone(`room/${room_id(9)}`).names()"),
        "[\"adult\"]"
    );
}

// ---------------------------------------------------------------- noise marker supply

/// The position lines that put a noise marker on the first `n` corridors of the board data.
fn noise_on_corridors(n: usize) -> String {
    let t = table(1, "");
    (0..n)
        .map(|i| {
            t.eval(&format!(
                "let c = BOARD.corridor[{i}]; `noise ${{ROOM_NUMBER[c.room_a]}} ${{c.exit_a}}`"
            ))
            .trim_matches('"')
            .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn noise_markers_out(t: &Table) -> i64 {
    eval_int(
        t,
        "g.graph(\"ship\").edges_where(\"noise\", 1).len() + g.counter(\"noise_tech\")",
    )
}

/// Rules §2.2 (30 noise markers) and option `noise_shortage`: with all 30 out, a new one is
/// moved from a corridor away from the room (`move`), or not placed (`none`).
#[test]
fn thirty_noise_markers_at_most() {
    let pos = noise_on_corridors(30) + "\nexplore 9\ndoor 9 1 open\nnext noise 10";
    let t = table(1, &pos);
    assert_eq!(noise_markers_out(&t), 30);
    let quiet: Vec<i64> = (1..=4)
        .filter(|e| t.eval(&format!("has_noise(g, exit_edge(g, room_id(9), {e}))")) == "false")
        .collect();
    assert!(!quiet.is_empty());
    let face = quiet[0] * 2; // faces 2k-1 and 2k name exit k
    let mut t = table(
        1,
        &pos.replace("next noise 10", &format!("next noise {face}")),
    );
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(noise_markers_out(&t), 30);
    let here = format!("has_noise(g, exit_edge(g, room_id(9), {}))", quiet[0]);
    assert_eq!(t.eval(&here), "true");

    let mut t = table_with(
        1,
        &[("noise_shortage", "none")],
        &pos.replace("next noise 10", &format!("next noise {face}")),
    );
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(noise_markers_out(&t), 30);
    assert_eq!(t.eval(&here), "false");
}

/// Option `room_colours` (content §20.1): the Command Center is red as the data, yellow with
/// `engine`.
#[test]
fn room_colours_option_paints_the_command_center() {
    let colour = |value: &str| {
        let t = table_with(1, &[("room_colours", value)], "tile 9 command-center");
        t.eval("room_colour(g, room_id(9))")
    };
    assert_eq!(colour("kb"), "\"red\"");
    assert_eq!(colour("engine"), "\"yellow\"");
}

/// Rules §21.17, option `jump_ends_phase`: by default the jump ends the game at once (the
/// bag does not develop); with false, the event phase is finished first (a blank drawn in
/// bag development brings an adult token into the bag).
#[test]
fn jump_ends_phase_option() {
    let bag = |t: &Table| eval_int(t, "g.bag(\"bag\").len");
    let mut t = table(1, "time 14\nnext bag blank");
    let before = bag(&t);
    act_settled(&mut t, "p1", "pass");
    assert!(t.is_over());
    assert_eq!(bag(&t), before);
    let mut t = table_with(
        1,
        &[("jump_ends_phase", "false")],
        "time 14\nnext bag blank",
    );
    act_settled(&mut t, "p1", "pass");
    assert!(t.is_over());
    assert_eq!(bag(&t), before + 1);
    assert_eq!(eval_int(&t, "g.counter(\"p1\", \"dead\")"), 1);
}

/// §4.2 step 16: each seat holds 1 corporate and 1 personal objective, none numbered above
/// the player count, seen by its owner only; step 20: the blue corpse lies in the
/// Hibernatorium.
#[test]
fn setup_deals_objectives_and_the_blue_corpse() {
    let t = table(2, "");
    for seat in ["p1", "p2"] {
        let kinds = t.eval(&format!(
            "g.zone(\"objectives\", \"{seat}\").cards().map(|c| c.kind)"
        ));
        assert_eq!(kinds, "[\"corporate\", \"personal\"]");
    }
    let over = "let n = 0; for s in g.seats() { for c in g.zone(\"objectives\", s).cards() { \
                for o in data(\"objectives\")[c.kind] { if o.id == c.name && o.players > 2 { n += 1; } } } } n";
    assert_eq!(eval_int(&t, over), 0);
    assert_eq!(eval_int(&t, "corpses_in(g, \"hibernatorium\")"), 1);
}

/// Content §9 Broken Arm taken with both hands full: one heavy thing must go at once, the
/// character's choice.
#[test]
fn a_broken_arm_drops_one_of_two_held_things() {
    let mut t = table(
        1,
        "explore 9\nintruder adult 10\ngive p1 fire-extinguisher\nwoundtop arm\n\
         next attack attack-bite-1\nnext noise 10",
    );
    assert_eq!(zone_len(&t, "hands", "p1"), 2);
    t.play("p1", "move 9");
    settle(&mut t, "p1");
    let legal = t.legal("p1");
    assert!(
        legal.len() == 2 && legal.iter().all(|a| a.starts_with("drop ")),
        "{legal:?}"
    );
    t.play("p1", &legal[0].clone());
    assert_eq!(zone_len(&t, "hands", "p1"), 1);
}

/// §9.2: a scan shows the scanned cards' mark to the scanning seat only.
#[test]
fn a_scan_shows_the_mark_to_the_scanner_only() {
    let t = table(2, "contamination p1 discard infected\nscan p1");
    let marks = |seat: Option<usize>| {
        t.state()
            .view(seat)
            .cards
            .iter()
            .filter(|d| d.secrets.contains_key("infected"))
            .count()
    };
    assert_eq!(marks(Some(0)), 1);
    assert_eq!(marks(Some(1)), 0);
    assert_eq!(marks(None), 0);
}

/// The Soldier's Combat Armor (content §14.2, passive by content §20.2): the first attack
/// effect on its holder is ignored and the armour is discarded; the next one applies.
#[test]
fn combat_armor_takes_the_first_blow() {
    let mut t = table(
        1,
        "character p1 soldier\nexplore 9\nintruder adult 10\nactivated p1 soldier-armor\n\
         next attack attack-bite-1\nnext noise 10",
    );
    assert_eq!(
        t.eval("held(g, \"p1\").some(|c| c.name == \"soldier-armor\")"),
        "true"
    );
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(zone_len(&t, "wounds", "p1"), 0);
    assert_eq!(
        t.eval("held(g, \"p1\").some(|c| c.name == \"soldier-armor\")"),
        "false"
    );
    let mut t = table(
        1,
        "character p1 soldier\nexplore 9\nintruder adult 10\nnext attack attack-bite-1\nnext noise 10",
    );
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(zone_len(&t, "wounds", "p1"), 1);
}
