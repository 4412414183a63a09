//! Nemesis (scripts/nemesis/items.rhai), part 1: scenario tests for items (rules §12) and
//! Trade (§6.2), from positions that stack the item decks and hand out items (`stack red
//! grenade`, `give p1 tools`, `items 5 2`: see items.rhai's `item_position`).

use boardscript_tests::Table;

mod nemesis_support;
use nemesis_support::{act, eval_int, noisy, table, table_with, the_option, ID};

fn names(t: &Table, zone: &str, seat: &str) -> String {
    t.eval(&format!("g.zone(\"{zone}\", \"{seat}\").names()"))
}

fn items_left(t: &Table, room: i64) -> i64 {
    eval_int(t, &format!("items_in(g, room_id({room}))"))
}

const RED_ROOM: &str = "tile 5 armory\np1 at 5\nitems 5 2\nhand p1 search search\n";

/// §12.5: a red room draws 2 from the red deck; one is kept, the other goes face down to the
/// bottom of the red deck, and the counter goes down by 1.
#[test]
fn search_draws_two_from_the_rooms_deck_and_bottoms_one() {
    let mut t = table(1, &format!("{RED_ROOM}stack red grenade energy-charge"));
    assert!(t.legal("p1").contains(&"search".to_string()));
    act(&mut t, "p1", "search");
    let keeps: Vec<String> = t.legal("p1");
    assert_eq!(keeps.len(), 2, "{keeps:?}");
    assert!(keeps.iter().all(|k| k.starts_with("keep red-")));
    let keep = the_option(&t, "p1", "keep red-energy-charge");
    t.play("p1", &keep);
    assert!(names(&t, "inventory", "p1").contains("red-energy-charge"));
    assert!(t
        .eval("g.zone(\"red\").cards()[0].name")
        .trim_matches('"')
        .starts_with("red-grenade"));
    assert_eq!(items_left(&t, 5), 1);
}

/// §12.5: a white room lets the searcher choose red, yellow or green (never blue).
#[test]
fn white_room_asks_for_the_deck() {
    let mut t = table(
        1,
        "tile 5 cabins\np1 at 5\nitems 5 1\nhand p1 search search",
    );
    act(&mut t, "p1", "search");
    assert_eq!(t.legal("p1"), ["deck green", "deck red", "deck yellow"]);
    t.play("p1", "deck yellow");
    assert!(t.legal("p1").iter().all(|k| k.starts_with("keep yellow-")));
}

/// §12.5 step 1: an item counter of 0 means no Search; the last Search leaves it at 0.
#[test]
fn empty_item_counter_means_no_search() {
    let t = table(
        1,
        "tile 5 armory\np1 at 5\nitems 5 0\nhand p1 search search",
    );
    assert!(!t.legal("p1").contains(&"search".to_string()));
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\nitems 5 1\nhand p1 search search",
    );
    act(&mut t, "p1", "search");
    let keep = t.legal("p1")[0].clone();
    t.play("p1", &keep);
    assert_eq!(items_left(&t, 5), 0);
    assert!(!t.legal("p1").contains(&"search".to_string()));
}

/// §12.5: no Search in the Nest or the Slime-Covered Room, even with a counter.
#[test]
fn no_search_in_the_nest() {
    let t = table(1, "tile 5 nest\np1 at 5\nitems 5 2\nhand p1 search search");
    assert!(!t.legal("p1").contains(&"search".to_string()));
}

/// §12.2: a third heavy thing forces a drop (any of the three, the starting weapon too); a
/// dropped item goes to the bottom of its deck; a weapon found by Search holds 1 ammo.
#[test]
fn full_hands_force_a_drop() {
    let mut t = table(
        1,
        &format!("{RED_ROOM}give p1 fire-extinguisher\nstack red grenade prototype-pistol"),
    );
    act(&mut t, "p1", "search");
    let keep = the_option(&t, "p1", "keep red-prototype-pistol");
    t.play("p1", &keep);
    let drops = t.legal("p1");
    assert_eq!(drops.len(), 3, "{drops:?}");
    assert!(drops.iter().all(|d| d.starts_with("drop ")));
    let drop = the_option(&t, "p1", "drop yellow-fire-extinguisher");
    t.play("p1", &drop);
    assert_eq!(eval_int(&t, "g.zone(\"hands\", \"p1\").len"), 2);
    assert!(t
        .eval("g.zone(\"yellow\").cards()[0].name")
        .trim_matches('"')
        .starts_with("yellow-fire-extinguisher"));
    let pistol = keep.trim_start_matches("keep ");
    assert_eq!(
        eval_int(
            &t,
            &format!("g.counter(`ammo/${{g.zone(\"hands\", \"p1\").find(\"{pistol}\").id}}`)")
        ),
        1
    );
}

/// §6.2 Pick Up Heavy Object costs 1 and needs a free hand; dropping it is free and leaves
/// it on the floor.
#[test]
fn heavy_object_pick_up_and_drop() {
    let mut t = table(1, "tile 5 armory\np1 at 5\nfloor 5 carcass 1");
    act(&mut t, "p1", "pickup carcass");
    assert!(names(&t, "hands", "p1").contains("carcass"));
    assert_eq!(
        eval_int(
            &t,
            "g.graph(\"ship\").node_value(room_id(5), \"carcasses\")"
        ),
        0
    );
    assert_eq!(eval_int(&t, "g.counter(\"p1\", \"acts\")"), 1);
    t.play("p1", "drop carcass");
    assert_eq!(
        eval_int(
            &t,
            "g.graph(\"ship\").node_value(room_id(5), \"carcasses\")"
        ),
        1
    );
    assert_eq!(eval_int(&t, "g.counter(\"p1\", \"acts\")"), 1);
    // Both hands full (the starting weapon and a fire extinguisher): no pick-up.
    let t = table(
        1,
        "tile 5 armory\np1 at 5\nfloor 5 carcass 1\ngive p1 fire-extinguisher",
    );
    assert!(!t.legal("p1").contains(&"pickup carcass".to_string()));
}

/// §12.3: a single-use item is discarded face up after use; [Energy Charge] fills an energy
/// weapon to its capacity, never above.
#[test]
fn single_use_item_is_discarded_after_use() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\ngive p1 prototype-pistol\ngive p1 energy-charge",
    );
    let charge = the_option(&t, "p1", "use ");
    act(&mut t, "p1", &charge);
    let fill = the_option(&t, "p1", "fill red-prototype-pistol");
    t.play("p1", &fill);
    let pistol = fill.trim_start_matches("fill ");
    assert_eq!(
        eval_int(
            &t,
            &format!("g.counter(`ammo/${{g.zone(\"hands\", \"p1\").find(\"{pistol}\").id}}`)")
        ),
        3
    );
    let name = charge.trim_start_matches("use ");
    let deck = name.split('-').next().unwrap();
    assert!(t
        .eval(&format!("g.zone(\"{deck}_discard\").names()"))
        .contains(name));
    assert!(!names(&t, "inventory", "p1").contains(name));
}

/// §6.2 Trade: both sides offer, both accept, the items change hands; only the active
/// player pays.
#[test]
fn trade_moves_items_when_both_accept() {
    let mut t = table(
        2,
        "tile 5 armory\np1 at 5\np2 at 5\ngive p1 grenade\ngive p2 tools",
    );
    let p2_hand = eval_int(&t, "g.zone(\"hand\", \"p2\").len");
    act(&mut t, "p1", "trade p2");
    let give = the_option(&t, "p1", "give red-grenade");
    t.play("p1", &give);
    t.play("p1", "done");
    let give2 = the_option(&t, "p2", "give yellow-tools");
    t.play("p2", &give2);
    t.play("p2", "done");
    t.play("p2", "accept");
    t.play("p1", "accept");
    assert!(names(&t, "inventory", "p2").contains("red-grenade"));
    assert!(names(&t, "inventory", "p1").contains("yellow-tools"));
    assert_eq!(eval_int(&t, "g.zone(\"hand\", \"p2\").len"), p2_hand);
}

/// §6.2: a trade needs both to agree; a refusal moves nothing.
#[test]
fn refused_trade_moves_nothing() {
    let mut t = table(2, "tile 5 armory\np1 at 5\np2 at 5\ngive p1 grenade");
    act(&mut t, "p1", "trade p2");
    let give = the_option(&t, "p1", "give red-grenade");
    t.play("p1", &give);
    t.play("p1", "done");
    t.play("p2", "done");
    t.play("p2", "refuse");
    assert!(names(&t, "inventory", "p1").contains("red-grenade"));
    assert_eq!(names(&t, "inventory", "p2"), "[]");
}

/// Random bots reach the item rules: some Search takes place (an item counter goes down) in
/// a few seeded games, and no room's counter ever goes below 0.
#[test]
fn random_bots_search() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let searches = AtomicUsize::new(0);
    let items = |s: &boardscript_interpreter::State| -> Result<i64, String> {
        let ship = s
            .graphs
            .iter()
            .find(|g| &*g.name == "ship")
            .ok_or("no ship")?;
        let mut sum = 0;
        for (n, room) in ship.nodes.iter().enumerate() {
            let v = i64::from(ship.node_value(n, "items"));
            if v < 0 {
                return Err(format!("items of {room} = {v}"));
            }
            sum += v;
        }
        Ok(sum)
    };
    let check = |step: &boardscript_tests::Step| {
        if items(step.after)? < items(step.before)? {
            searches.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    };
    let p = boardscript_tests::Playouts::new(ID)
        .seats(3)
        .seed(5)
        .games(6);
    p.check(&check).run().assert_all_end();
    assert!(searches.load(Ordering::Relaxed) > 0);
}

// ---------------------------------------------------------------- Item effects (content §15)

fn count(t: &Table, expr: &str) -> i64 {
    eval_int(t, expr)
}

/// Uses the one `use` action of p1 (paying with the first cards), then answers `answer` if
/// a question is asked.
fn use_item(t: &mut Table, answer: Option<&str>) {
    let u = the_option(t, "p1", "use ");
    act(t, "p1", &u);
    if let Some(a) = answer {
        t.play("p1", a);
    }
}

/// The integer `expr` before and after p1 uses its one item (answering `answer`): a scenario
/// shows the change, so a count already 0 before cannot pass for an effect.
fn used_item_changes(t: &mut Table, answer: Option<&str>, expr: &str) -> (i64, i64) {
    let before = count(t, expr);
    use_item(t, answer);
    (before, count(t, expr))
}

/// Content §15.1 [First-Aid Kit]: dress a serious wound, or heal a dressed one (§10.3).
#[test]
fn first_aid_kit_dresses_then_heals() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\nserious p1 1\ngive p1 first-aid-kit",
    );
    let wounds = "g.zone(\"wounds\", \"p1\").len";
    assert_eq!(used_item_changes(&mut t, None, wounds), (1, 0));
    assert_eq!(count(&t, "g.zone(\"dressed\", \"p1\").len"), 1);
    assert_eq!(count(&t, "g.zone(\"green_discard\").len"), 1, "single use");
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\nserious p1 1\ngive p1 first-aid-kit\ngive p1 first-aid-kit",
    );
    use_item(&mut t, None);
    assert_eq!(
        used_item_changes(&mut t, None, "serious_count(g, \"p1\")"),
        (1, 0)
    );
}

/// Content §15.1 [Bandages]: heal all light wounds (non-combat).
#[test]
fn bandages_heal_every_light_wound() {
    let mut t = table(1, "tile 5 armory\np1 at 5\nlight p1 2\ngive p1 bandages");
    let light = "g.counter(\"p1\", \"light\")";
    assert_eq!(used_item_changes(&mut t, None, light), (2, 0));
    let t = table(
        1,
        "tile 5 armory\np1 at 5\nlight p1 2\ngive p1 bandages\nintruder adult 5",
    );
    assert!(
        !t.legal("p1").iter().any(|a| a.starts_with("use ")),
        "non-combat"
    );
}

/// Content §15.1 [Clothes]: discard the slime marker.
#[test]
fn clothes_clean_the_slime() {
    let mut t = table(1, "tile 5 armory\np1 at 5\nslime p1\ngive p1 clothes");
    let slime = "g.counter(\"p1\", \"slime\")";
    assert_eq!(used_item_changes(&mut t, None, slime), (1, 0));
}

/// Content §15.1 [Synthetic Food] draws 2; [Stimulant] draws 3 and gives a light wound.
#[test]
fn food_and_stimulant_draw_cards() {
    let mut t = table(1, "tile 5 armory\np1 at 5\ngive p1 synthetic-food");
    let hand = count(&t, "g.zone(\"hand\", \"p1\").len");
    use_item(&mut t, None);
    assert_eq!(count(&t, "g.zone(\"hand\", \"p1\").len"), hand + 2);
    let mut t = table(1, "tile 5 armory\np1 at 5\ngive p1 stimulant");
    use_item(&mut t, None);
    assert_eq!(count(&t, "g.zone(\"hand\", \"p1\").len"), hand + 3);
    assert_eq!(count(&t, "g.counter(\"p1\", \"light\")"), 1);
}

/// Content §15.1 [Alcohol]: one contamination card of the hand scanned; clean, it leaves the
/// game; infected, it stays and the infection rule puts a larva (§9.3).
#[test]
fn alcohol_scans_one_card() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\ncontamination p1 1\ngive p1 alcohol",
    );
    use_item(&mut t, None);
    let left = count(&t, "g.zone(\"hand\", \"p1\").count(\"contamination\")");
    let larva = count(&t, "g.counter(\"p1\", \"larva\")");
    assert_eq!(
        left, larva,
        "clean: gone and no larva; infected: stays with a larva"
    );
}

/// Content §15.1 [Military Drugs]: discard any cards, draw that many + 1.
#[test]
fn military_drugs_replace_cards() {
    let mut t = table(1, "tile 5 armory\np1 at 5\ngive p1 military-drugs");
    let hand = count(&t, "g.zone(\"hand\", \"p1\").len");
    use_item(&mut t, None);
    for _ in 0..2 {
        let d = option_first(&t, "p1", "discard ");
        t.play("p1", &d);
    }
    t.play("p1", "done");
    assert_eq!(count(&t, "g.zone(\"hand\", \"p1\").len"), hand + 1);
}

fn option_first(t: &Table, seat: &str, prefix: &str) -> String {
    t.legal(seat)
        .into_iter()
        .find(|a| a.starts_with(prefix))
        .unwrap_or_else(|| panic!("{prefix} in {:?}", t.legal(seat)))
}

/// Content §15.2 [Chemicals]: fill a Flamethrower; [Energy Charge] cannot (classic weapon).
#[test]
fn chemicals_fill_the_flamethrower() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\nammo p1 all 9\ngive p1 flamethrower\ngive p1 energy-charge",
    );
    // The starting weapon is full and the flamethrower classic: the charge can only work a door.
    let u = the_option(&t, "p1", "use ");
    act(&mut t, "p1", &u);
    assert!(
        t.legal("p1").iter().all(|a| !a.starts_with("fill")),
        "{:?}",
        t.legal("p1")
    );
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\ngive p1 flamethrower\ngive p1 chemicals",
    );
    use_item(&mut t, None);
    assert_eq!(
        count(&t, "let w = g.zone(\"hands\", \"p1\").cards().filter(|c| weapon_id(c) == \"flamethrower\")[0]; weapon_ammo(g, w)"),
        4
    );
}

/// Content §15.2 [Tools]: discard the room's malfunction, or open/close a door of the room.
#[test]
fn tools_repair_or_work_a_door() {
    let mut t = table(1, "tile 5 armory\np1 at 5\nmalfunction 5\ngive p1 tools");
    let malf = "g.graph(\"ship\").node_value(room_id(5), \"malf\")";
    assert_eq!(used_item_changes(&mut t, Some("repair"), malf), (1, 0));
    let mut t = table(1, "tile 5 armory\np1 at 5\ngive p1 tools");
    use_item(&mut t, Some("close 1"));
    assert_eq!(
        count(
            &t,
            "g.graph(\"ship\").edge_value(exit_edge(g, room_id(5), 1), \"door\")"
        ),
        1
    );
}

/// Content §15.2 [Duct Tape]: discarded to remove the room's malfunction.
#[test]
fn duct_tape_removes_a_malfunction() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\nmalfunction 5\ngive p1 duct-tape",
    );
    let malf = "g.graph(\"ship\").node_value(room_id(5), \"malf\")";
    assert_eq!(used_item_changes(&mut t, None, malf), (1, 0));
    assert_eq!(count(&t, "g.zone(\"yellow_discard\").len"), 1);
}

/// Content §15.2 [Fire Extinguisher]: put out the room's fire, or drive an Intruder out.
#[test]
fn fire_extinguisher_puts_out_fire_or_repels() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\nfire 5\ngive p1 fire-extinguisher",
    );
    let fire = "g.graph(\"ship\").node_value(room_id(5), \"fire\")";
    assert_eq!(used_item_changes(&mut t, None, fire), (1, 0));
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\nintruder adult 5\ngive p1 fire-extinguisher",
    );
    let intruders = "g.zone(`room/${room_id(5)}`).len";
    assert_eq!(used_item_changes(&mut t, None, intruders), (1, 0));
}

/// Content §15.2 [Technical Corridors Map]: from a room with a technical entrance to another.
#[test]
fn technical_corridors_map_moves_between_entrances() {
    let mut t = table(
        1,
        "tile 2 armory\np1 at 2\ngive p1 technical-corridors-map\nnext noise 10",
    );
    use_item(&mut t, Some("room 4"));
    assert_eq!(count(&t, "g.counter(\"p1\", \"room\")"), 4);
    assert!(
        names(&t, "inventory", "p1").contains("technical-corridors-map"),
        "reusable"
    );
}

/// Content §15.2 [Space Suit]: from a yellow room to another explored yellow room, the hand's
/// action cards discarded.
#[test]
fn space_suit_moves_between_yellow_rooms() {
    let mut t = table(
        1,
        "tile 2 generator\ntile 12 comms-room\np1 at 2\ngive p1 space-suit\nnext noise 10",
    );
    let hand = "g.zone(\"hand\", \"p1\").len";
    let (before, after) = used_item_changes(&mut t, None, hand);
    assert_eq!(count(&t, "g.counter(\"p1\", \"room\")"), 12);
    assert!(before > 0 && after == 0, "hand {before} -> {after}");
}

/// Content §15.2 [Nemesis Blueprints], §15.3 [Recon Drone]: unexplored tiles shown to the
/// user only (the drone: the token too).
#[test]
fn blueprints_and_drone_show_unexplored_rooms() {
    let mut t = table(2, "give p1 ship-blueprints");
    use_item(&mut t, Some("room 5"));
    let second = option_first(&t, "p1", "room ");
    t.play("p1", &second);
    assert_eq!(
        t.eval("g.card_known_by(g.zone(`tile/${room_id(5)}`).top())"),
        "[\"p1\"]"
    );
    let mut t = table(2, "give p1 recon-drone");
    use_item(&mut t, Some("room 5"));
    assert_eq!(
        t.eval("g.card_known_by(g.zone(`token/${room_id(5)}`).top())"),
        "[\"p1\"]"
    );
}

/// Content §15.3 [Decoy]: the Intruders next to the chosen room, not in combat, come in.
#[test]
fn decoy_draws_intruders() {
    let mut t = table(1, "tile 5 armory\np1 at 5\nintruder adult 3\ngive p1 decoy");
    let room_3 = "g.zone(`room/${room_id(3)}`).len";
    assert_eq!(used_item_changes(&mut t, Some("room 6"), room_3), (1, 0));
    assert_eq!(count(&t, "g.zone(`room/${room_id(6)}`).len"), 1);
}

/// Content §15.3 [Grenade]: 2 wounds to the chosen Intruder, a serious wound to every
/// character in the room, the thrower included.
#[test]
fn grenade_wounds_everyone_in_the_room() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\nintruder adult 5\nattacks attack-bite-3\ngive p1 grenade",
    );
    let id = count(&t, "g.zone(`room/${room_id(5)}`).cards()[0].id");
    use_item(&mut t, None);
    assert_eq!(count(&t, &format!("g.counter(\"inj/{id}\")")), 2);
    assert_eq!(count(&t, "serious_count(g, \"p1\")"), 1);
}

/// §8.8: a Grenade breaks 2 eggs (one noise roll); a Molotov sets fire, 1 wound each, 1 egg.
#[test]
fn grenade_and_molotov_on_eggs() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\neggs 5 3\ngive p1 grenade\nnext noise 10",
    );
    use_item(&mut t, None);
    assert_eq!(
        count(&t, "g.graph(\"ship\").node_value(room_id(5), \"eggs\")"),
        1
    );
    let mut t = table(1, "tile 5 armory\np1 at 5\neggs 5 3\nintruder adult 5\nattacks attack-bite-3\ngive p1 molotov\nnext noise 10");
    let id = count(&t, "g.zone(`room/${room_id(5)}`).cards()[0].id");
    use_item(&mut t, None);
    assert_eq!(
        count(&t, "g.graph(\"ship\").node_value(room_id(5), \"eggs\")"),
        2
    );
    assert_eq!(
        count(&t, "g.graph(\"ship\").node_value(room_id(5), \"fire\")"),
        1
    );
    assert_eq!(count(&t, &format!("g.counter(\"inj/{id}\")")), 1);
}

/// Content §15.3 [Smoke Grenade]: the others in the room discard a card; the user leaves
/// without being attacked.
#[test]
fn smoke_grenade_escapes_unharmed() {
    let mut t = table(
        2,
        "tile 5 armory\ntile 6 comms-room\np1 at 5\np2 at 5\nintruder adult 5\ngive p1 smoke-grenade\nnext noise 10",
    );
    let p2_hand = count(&t, "g.zone(\"hand\", \"p2\").len");
    use_item(&mut t, Some("room 6"));
    let d = option_first(&t, "p2", "discard ");
    t.play("p2", &d);
    assert_eq!(count(&t, "g.counter(\"p1\", \"room\")"), 6);
    assert_eq!(count(&t, "g.zone(\"hand\", \"p2\").len"), p2_hand - 1);
    assert_eq!(
        count(
            &t,
            "serious_count(g, \"p1\") + g.counter(\"p1\", \"light\")"
        ),
        0
    );
}

/// Content §15.3 [Extended Magazine]: capacity +2 and 2 ammo on an energy weapon.
#[test]
fn extended_magazine_raises_capacity() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\ngive p1 prototype-pistol\ngive p1 extended-magazine",
    );
    let u = the_option(&t, "p1", "use ");
    act(&mut t, "p1", &u);
    t.play("p1", "attach red-prototype-pistol-1");
    let w = "g.zone(\"hands\", \"p1\").find(\"red-prototype-pistol-1\")";
    assert_eq!(count(&t, &format!("weapon_capacity(g, {w})")), 5);
    assert_eq!(count(&t, &format!("weapon_ammo(g, {w})")), 3);
}

/// Content §15.4 [Antidote]: every infected card and the larva go without the infection
/// rule, one new contamination card comes, and the user passes.
#[test]
fn antidote_cures_and_passes() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\ncontamination p1 3\nlarva p1\ngive p1 antidote",
    );
    let all = "contamination_in(g, \"p1\", SEAT_CARD_ZONES)";
    let clean = count(&t, &format!("{all}.filter(|c| !c.infected).len()"));
    let larva = "g.counter(\"p1\", \"larva\")";
    assert_eq!(used_item_changes(&mut t, None, larva), (1, 0));
    // The clean cards stay, the infected ones go; one new card comes (infected or not).
    assert_eq!(count(&t, &format!("{all}.len()")), clean + 1);
    assert!(count(&t, &format!("{all}.filter(|c| c.infected).len()")) <= 1);
    assert_eq!(count(&t, "g.counter(\"p1\", \"passed\")"), 1);
}

/// Content §15.4 [Taser]: 1 wound; a survivor retreats.
#[test]
fn taser_wounds_and_drives_off() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\nintruder adult 5\nattacks attack-bite-3\ngive p1 taser",
    );
    let intruders = "g.zone(`room/${room_id(5)}`).len";
    assert_eq!(used_item_changes(&mut t, None, intruders), (1, 0));
}

// ---------------------------------------------------------------- §12.6 Crafting

/// §12.6, content §16: Craft Item takes one inventory card per icon (to the discard piles)
/// and a copy from the blue deck.
#[test]
fn craft_a_molotov() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\ngive p1 alcohol\ngive p1 bandages",
    );
    act(&mut t, "p1", "craft molotov");
    assert!(names(&t, "inventory", "p1").contains("blue-molotov"));
    assert!(!names(&t, "inventory", "p1").contains("green-"));
    assert_eq!(count(&t, "g.zone(\"green_discard\").len"), 2);
    assert_eq!(count(&t, "g.zone(\"blue\").len"), 11);
}

/// §12.6: no copy left in the blue deck, no crafting; option `craft_ingredients = remove`
/// takes the ingredients out of the game; a crafted weapon comes full.
#[test]
fn crafting_limits_and_options() {
    let t = table(
        2,
        "tile 5 armory\np1 at 5\ngive p1 alcohol\ngive p1 bandages\ngive p2 molotov\ngive p2 molotov\ngive p2 molotov",
    );
    assert!(!t.legal("p1").contains(&"craft molotov".to_string()));
    let mut t = table_with(
        1,
        &[("craft_ingredients", "remove")],
        "tile 5 armory\np1 at 5\nhand p1 5\ngive p1 chemicals\ngive p1 tools",
    );
    act(&mut t, "p1", "craft flamethrower");
    assert_eq!(count(&t, "g.zone(\"yellow_discard\").len"), 0);
    assert_eq!(
        count(&t, "let w = g.zone(\"hands\", \"p1\").cards().filter(|c| weapon_id(c) == \"flamethrower\")[0]; weapon_ammo(g, w)"),
        4
    );
}

/// The Mechanic's Ingenuity (cards.rhai calls `craft_choices` with `yellow_as_tool`): any
/// yellow item stands in for a tool icon.
#[test]
fn ingenuity_lets_a_yellow_item_be_a_tool() {
    let t = table(
        1,
        "tile 5 armory\np1 at 5\ngive p1 alcohol\ngive p1 space-suit",
    );
    assert_eq!(t.eval("craft_choices(g, \"p1\", false)"), "[]");
    assert_eq!(
        t.eval("craft_choices(g, \"p1\", true)"),
        "[\"craft flamethrower\"]"
    );
}

// ---------------------------------------------------------------- §12.7 Quest items

/// §12.7, content §14.2: the requirement action (cost 1, non-combat) turns a quest card into
/// an item: the Mechanic's Plasma Torch needs the Storage, then stands a destroyed door up.
#[test]
fn quest_item_activated_in_its_room() {
    let t = table(1, "character p1 mechanic\ntile 5 armory\np1 at 5");
    assert!(!t.legal("p1").iter().any(|a| a.starts_with("activate")));
    let mut t = table(
        1,
        "character p1 mechanic\ntile 2 storage\np1 at 2\ndoor 2 2 destroyed",
    );
    act(&mut t, "p1", "activate mechanic-plasma-torch");
    assert!(names(&t, "inventory", "p1").contains("mechanic-plasma-torch"));
    assert_eq!(count(&t, "g.zone(\"quest\", \"p1\").len"), 1);
    use_item(&mut t, Some("close 2"));
    assert_eq!(
        count(
            &t,
            "g.graph(\"ship\").edge_value(exit_edge(g, room_id(2), 2), \"door\")"
        ),
        1
    );
}

/// §12.7: a discard requirement takes the item (face up to its discard pile); the Flashlight
/// then Searches for 2 cards.
#[test]
fn quest_item_activated_by_a_discard() {
    let mut t = table(
        1,
        "character p1 mechanic\ntile 5 armory\np1 at 5\nitems 5 1\ngive p1 energy-charge",
    );
    act(&mut t, "p1", "activate mechanic-flashlight");
    assert!(names(&t, "inventory", "p1").contains("mechanic-flashlight"));
    assert_eq!(
        count(
            &t,
            "g.zone(\"red_discard\").len + g.zone(\"yellow_discard\").len"
        ),
        1
    );
    let u = the_option(&t, "p1", "use mechanic-flashlight");
    act(&mut t, "p1", &u);
    assert_eq!(items_left(&t, 5), 0);
}

/// A starting weapon can be traded like any item, its ammo with it (§6.2).
#[test]
fn starting_weapon_trades_with_its_ammo() {
    let mut t = table(2, "character p1 mechanic\ntile 5 armory\np1 at 5\np2 at 5");
    act(&mut t, "p1", "trade p2");
    t.play("p1", "give mechanic-sawed-off-shotgun");
    t.play("p1", "done");
    t.play("p2", "done");
    t.play("p2", "accept");
    t.play("p1", "accept");
    assert!(names(&t, "hands", "p2").contains("mechanic-sawed-off-shotgun"));
    assert_eq!(
        count(
            &t,
            "weapon_ammo(g, g.zone(\"hands\", \"p2\").find(\"mechanic-sawed-off-shotgun\"))"
        ),
        2
    );
}

/// Options `found_weapon_ammo` (§21.11) and `item_reshuffle` (content §18).
#[test]
fn found_weapon_ammo_and_reshuffle_options() {
    let mut t = table_with(
        1,
        &[("found_weapon_ammo", "3")],
        &format!("{RED_ROOM}stack red grenade prototype-rifle"),
    );
    act(&mut t, "p1", "search");
    let keep = the_option(&t, "p1", "keep red-prototype-rifle");
    t.play("p1", &keep);
    let drop = option_first(&t, "p1", "drop ");
    let _ = drop;
    assert_eq!(
        count(
            &t,
            "weapon_ammo(g, g.zone(\"hands\", \"p1\").find(\"red-prototype-rifle-1\"))"
        ),
        3
    );
    let empty = "let d = g.zone(\"red\"); d.move_all_to(g.zone(\"red_discard\")); d.draw(g.zone(\"drawn\")) == ()";
    assert_eq!(t.eval(empty), "false");
    let t = table_with(1, &[("item_reshuffle", "false")], "");
    assert_eq!(t.eval(empty), "true");
}

/// Content §14.2 [Security Key] (the Scout's, activated in the Cockpit): open and/or close
/// the doors of any one room, each once, then done.
#[test]
fn security_key_works_the_doors_of_any_room() {
    let mut t = table(1, "character p1 scout\np1 at 1");
    act(&mut t, "p1", "activate scout-security-key");
    use_item(&mut t, Some("room 9"));
    let first = option_first(&t, "p1", "close ");
    t.play("p1", &first);
    assert!(t.legal("p1").contains(&"done".to_string()));
    assert!(!t.legal("p1").contains(&first));
    t.play("p1", "done");
    let exit = first.trim_start_matches("close ");
    assert_eq!(
        count(
            &t,
            &format!("g.graph(\"ship\").edge_value(exit_edge(g, room_id(9), {exit}), \"door\")")
        ),
        1
    );
    assert!(
        !names(&t, "inventory", "p1").contains("security-key"),
        "single use"
    );
}

/// §12.6: when two kinds of card carry an icon the crafter names one (`with <deck>-<kind>`);
/// the other stays.
#[test]
fn crafting_asks_which_card_pays_an_icon() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\ngive p1 alcohol\ngive p1 chemicals\ngive p1 bandages",
    );
    act(&mut t, "p1", "craft molotov");
    assert_eq!(
        t.legal("p1"),
        ["with green-alcohol", "with yellow-chemicals"]
    );
    t.play("p1", "with yellow-chemicals");
    assert!(names(&t, "inventory", "p1").contains("green-alcohol"));
    assert!(names(&t, "inventory", "p1").contains("blue-molotov"));
    assert!(!names(&t, "inventory", "p1").contains("yellow-chemicals"));
}

/// Content §15 Self-Destruct Key: in a room with a computer, the Generator's start (or
/// cancel), with its rules.
#[test]
fn self_destruct_key_starts_the_sequence_from_a_computer() {
    let mut t = table(1, "p1 at 1\ngive p1 self-destruct-key");
    act(&mut t, "p1", "use red-self-destruct-key-1");
    assert_eq!(eval_int(&t, "g.counter(\"destruct\")"), 1);
    let t = table(1, "tile 5 armory\np1 at 5\ngive p1 self-destruct-key");
    assert!(!t
        .legal("p1")
        .iter()
        .any(|a| a.contains("self-destruct-key") && a.starts_with("use")));
}

/// Content §15 Pod Override Key: in an Evacuation Section, open or close one of its pods.
#[test]
fn pod_override_key_opens_a_pod_of_this_section() {
    let mut t = table(
        1,
        "tile 5 evacuation-section-a\np1 at 5\npods 1 2\ngive p1 pod-override-key",
    );
    act(&mut t, "p1", "use red-pod-override-key-1");
    assert_eq!(eval_int(&t, "g.counter(\"pod_open/1\")"), 1);
    assert_eq!(
        eval_int(&t, "g.counter(\"pod_open/2\")"),
        0,
        "pod 2 is in section B"
    );
}

/// Content §14.2 the Pilot's Jump Override: in the Cockpit, the time marker moves 1 space as
/// in event step 4, and on the last space the ship jumps at once.
#[test]
fn jump_override_moves_time_and_can_make_the_jump() {
    let pos = "character p1 pilot\np1 at 1\nactivated p1 pilot-jump-override";
    let mut t = table(1, pos);
    act(&mut t, "p1", "use pilot-jump-override");
    assert_eq!(eval_int(&t, "g.counter(\"time\")"), 2);
    let mut t = table(1, &format!("{pos}\ntime 14"));
    act(&mut t, "p1", "use pilot-jump-override");
    assert!(t.is_over());
}

/// Content §14.2 the Captain's Log Key: in a room with a computer, a secret look at one
/// objective card of another player: shown to the Captain's player only.
#[test]
fn log_key_shows_one_objective_to_its_user_only() {
    let mut t = table(
        2,
        "character p1 captain\np1 at 1\nactivated p1 captain-log-key",
    );
    act(&mut t, "p1", "use captain-log-key");
    let known = |seat: &str| {
        eval_int(
            &t,
            &format!(
                "let n = 0; for c in g.zone(\"objectives\", \"p2\").cards() {{ if g.card_known_by(c).contains(\"{seat}\") {{ n += 1; }} }} n"
            ),
        )
    };
    assert_eq!(known("p1"), 1);
    assert_eq!(known("p2"), 0, "revealed to the Log Key's user only");
}

/// Content §14.2 the Scientist's Laboratory Kit: with a carcass on the floor of any room, the
/// carcass slot's weakness turns face up, as the Laboratory does.
#[test]
fn lab_kit_analyses_an_object_anywhere() {
    let pos = "character p1 scientist\ntile 5 armory\np1 at 5\nactivated p1 scientist-lab-kit";
    let t = table(1, pos);
    assert!(!t.legal("p1").contains(&"use scientist-lab-kit".to_string()));
    let mut t = table(1, &format!("{pos}\nfloor 5 carcass 1"));
    act(&mut t, "p1", "use scientist-lab-kit");
    assert_eq!(eval_int(&t, "g.counter(\"weakness/carcass\")"), 1);
}

/// Content §15.2 [Duct Tape]: taped together, two heavy items fill one hand, so a third
/// heavy thing fits; when one of them leaves, the tape comes off to its discard pile.
#[test]
fn duct_tape_binds_two_heavy_items_into_one_hand() {
    let taped = || {
        let mut t = table(
            1,
            "tile 5 armory\np1 at 5\nfloor 5 carcass 1\ngive p1 fire-extinguisher\ngive p1 duct-tape",
        );
        assert!(!t.legal("p1").contains(&"pickup carcass".to_string()));
        assert_eq!(count(&t, "tape_options(g, \"p1\").len"), 1);
        let u = the_option(&t, "p1", "use yellow-duct-tape");
        act(&mut t, "p1", &u); // the one pair: the weapon and the extinguisher
        t
    };
    let t = taped();
    assert_eq!(count(&t, "hands_used(g, \"p1\")"), 1);
    assert!(t
        .eval("g.zone(\"attached\").names()")
        .contains("yellow-duct-tape"));
    assert!(t.legal("p1").contains(&"pickup carcass".to_string()));
    // Dropping a taped item takes the tape off (face up to its discard pile): two hands again.
    let mut t = taped();
    let drop = the_option(&t, "p1", "drop yellow-fire-extinguisher");
    t.play("p1", &drop);
    assert_eq!(count(&t, "g.zone(\"yellow_discard\").len"), 1);
    assert_eq!(count(&t, "g.zone(\"attached\").len"), 0);
    assert_eq!(count(&t, "hands_used(g, \"p1\")"), 1);
    // The third heavy thing fits, and objects are never taped.
    let mut t = taped();
    act(&mut t, "p1", "pickup carcass");
    assert_eq!(count(&t, "g.zone(\"hands\", \"p1\").len"), 3);
    assert_eq!(count(&t, "hands_used(g, \"p1\")"), 2);
    assert_eq!(count(&t, "tape_options(g, \"p1\").len"), 0);
}

/// Content §14.2 [Autoloader]: attached to the Assault Rifle (capacity +1), an Energy
/// Charge filling that rifle costs no card, though it is still an action.
#[test]
fn autoloader_makes_the_energy_charge_free() {
    let mut t = table(
        2,
        "character p1 soldier\ntile 5 armory\np1 at 5\nactivated p1 soldier-autoloader\ngive p1 energy-charge",
    );
    act(&mut t, "p1", "use soldier-autoloader");
    let rifle = "g.zone(\"hands\", \"p1\").find(\"soldier-assault-rifle\")";
    let cap = count(&t, &format!("weapon_capacity(g, {rifle})"));
    assert_eq!(
        cap,
        count(&t, "WEAPON_STATS[\"soldier-assault-rifle\"].capacity") + 1
    );
    assert!(count(&t, &format!("weapon_ammo(g, {rifle})")) < cap);
    let hand = count(&t, "g.zone(\"hand\", \"p1\").len");
    let free: Vec<String> = t
        .legal("p1")
        .into_iter()
        .filter(|a| a.starts_with("use ") && a.ends_with("-energy-charge-1 soldier-assault-rifle"))
        .collect();
    assert_eq!(free.len(), 1, "{:?}", t.legal("p1"));
    t.play("p1", &free[0]);
    assert_eq!(count(&t, "g.zone(\"hand\", \"p1\").len"), hand);
    assert_eq!(count(&t, &format!("weapon_ammo(g, {rifle})")), cap);
    assert_eq!(
        count(
            &t,
            "g.zone(\"red_discard\").len + g.zone(\"yellow_discard\").len"
        ),
        1
    );
    // It was the second action of the turn: p2 plays now.
    assert!(t.legal("p1").is_empty());
}

/// Content §14.2 [Motion Scanner]: after a noise roll its holder may pay 1 action card to
/// roll again once; the second result stands.
#[test]
fn motion_scanner_rerolls_a_noise_roll() {
    let pos = "character p1 scout\nexplore 9\nactivated p1 scout-motion-scanner\nnext noise 1 3";
    let mut t = table(1, pos);
    act(&mut t, "p1", "move 9");
    assert_eq!(t.legal("p1"), ["keep 1", "reroll"]);
    let hand = count(&t, "g.zone(\"hand\", \"p1\").len");
    act(&mut t, "p1", "reroll");
    assert_eq!(count(&t, "g.zone(\"hand\", \"p1\").len"), hand - 1);
    assert!(noisy(&t, 9, 2));
    assert!(!noisy(&t, 9, 1));
    let mut t = table(1, pos);
    act(&mut t, "p1", "move 9");
    t.play("p1", "keep 1");
    assert!(noisy(&t, 9, 1));
    // Without the scanner nothing is asked.
    let mut t = table(1, "character p1 scout\nexplore 9\nnext noise 1 3");
    act(&mut t, "p1", "move 9");
    assert!(noisy(&t, 9, 1));
}
