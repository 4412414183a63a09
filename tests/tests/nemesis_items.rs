//! Nemesis (scripts/nemesis/items.rhai), part 1: scenario tests for items (rules §12) and
//! Trade (§6.2), from positions that stack the item decks and hand out items (`stack red
//! grenade`, `give p1 tools`, `items 5 2`: see items.rhai's `item_position`).

use boardscript_tests::Table;

mod nemesis_support;
use nemesis_support::{eval_int, table, ID};

/// Plays `action`, then answers the cost questions (`pay ...`) with the first option.
fn act(t: &mut Table, seat: &str, action: &str) {
    t.play(seat, action);
    loop {
        let legal = t.legal(seat);
        match legal.iter().find(|a| a.starts_with("pay ")) {
            Some(a) => {
                let a = a.clone();
                t.play(seat, &a);
            }
            None => return,
        }
    }
}

/// The one option starting with `prefix` (`keep red-grenade`).
fn option(t: &Table, seat: &str, prefix: &str) -> String {
    let found: Vec<String> = t
        .legal(seat)
        .into_iter()
        .filter(|a| a.starts_with(prefix))
        .collect();
    assert_eq!(found.len(), 1, "{prefix} in {:?}", t.legal(seat));
    found[0].clone()
}

fn names(t: &Table, zone: &str, seat: &str) -> String {
    t.eval(&format!("g.zone(\"{zone}\", \"{seat}\").names()"))
}

fn items_left(t: &Table, room: i64) -> i64 {
    eval_int(t, &format!("g.counter(`items/${{room_id({room})}}`)"))
}

const RED_ROOM: &str = "tile 5 armory\np1 at 5\nitems 5 2\ndraw p1 search\n";

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
    let keep = option(&t, "p1", "keep red-energy-charge");
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
    let mut t = table(1, "tile 5 cabins\np1 at 5\nitems 5 1\ndraw p1 search");
    act(&mut t, "p1", "search");
    assert_eq!(t.legal("p1"), ["deck green", "deck red", "deck yellow"]);
    t.play("p1", "deck yellow");
    assert!(t.legal("p1").iter().all(|k| k.starts_with("keep yellow-")));
}

/// §12.5 step 1: an item counter of 0 means no Search; the last Search leaves it at 0.
#[test]
fn empty_item_counter_means_no_search() {
    let t = table(1, "tile 5 armory\np1 at 5\nitems 5 0\ndraw p1 search");
    assert!(!t.legal("p1").contains(&"search".to_string()));
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\nitems 5 1\ndraw p1 search\ndraw p1 search",
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
    let t = table(1, "tile 5 nest\np1 at 5\nitems 5 2\ndraw p1 search");
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
    let keep = option(&t, "p1", "keep red-prototype-pistol");
    t.play("p1", &keep);
    let drops = t.legal("p1");
    assert_eq!(drops.len(), 3, "{drops:?}");
    assert!(drops.iter().all(|d| d.starts_with("drop ")));
    let drop = option(&t, "p1", "drop yellow-fire-extinguisher");
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
    assert_eq!(eval_int(&t, "g.counter(`carcasses/${room_id(5)}`)"), 0);
    assert_eq!(eval_int(&t, "g.counter(\"p1\", \"acts\")"), 1);
    t.play("p1", "drop carcass");
    assert_eq!(eval_int(&t, "g.counter(`carcasses/${room_id(5)}`)"), 1);
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
    let charge = option(&t, "p1", "use ");
    act(&mut t, "p1", &charge);
    let fill = option(&t, "p1", "fill red-prototype-pistol");
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
    let give = option(&t, "p1", "give red-grenade");
    t.play("p1", &give);
    t.play("p1", "done");
    let give2 = option(&t, "p2", "give yellow-tools");
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
    let give = option(&t, "p1", "give red-grenade");
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
    use boardscript_interpreter::Setup;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let searches = AtomicUsize::new(0);
    let items = |s: &boardscript_interpreter::State| -> Result<i64, String> {
        let mut sum = 0;
        for (k, v) in s.counters.iter().filter(|(k, _)| k.starts_with("items/")) {
            if *v < 0 {
                return Err(format!("{k} = {v}"));
            }
            sum += v;
        }
        Ok(sum)
    };
    let setup = Setup {
        seats: Some(3),
        seed: 5,
        options: Default::default(),
        position: None,
    };
    let check = |_: &boardscript_interpreter::Game,
                 before: &boardscript_interpreter::State,
                 after: &boardscript_interpreter::State| {
        if items(after)? < items(before)? {
            searches.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    };
    boardscript_tests::random_playouts(ID, &setup, 6, 97, &check);
    assert!(searches.load(Ordering::Relaxed) > 0);
}
