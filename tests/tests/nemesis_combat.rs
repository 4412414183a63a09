//! Nemesis (scripts/nemesis/combat.rhai), part 1: scenario tests for Shoot (rules §8.3) with
//! each weapon's special rule (content §14.1, §15.3, §15.4), Melee (§8.4), eggs and the Nest
//! (§8.8), and the combat die (content §4.2, §20.1). The die is chosen with `next combat
//! <face>` (1-2 blank, 3 creeper, 4 adult, 5 "1 hit", 6 "2 hits"); `attacks attack-bite-3`
//! puts a blood-6 card on top of the attack deck so a wounded Intruder survives its check.

use boardscript_tests::Table;

mod nemesis_support;
use nemesis_support::{act, eval_int, table};

/// Room 5 explored, p1 there with an adult; every weapon of p1 emptied but `weapon`, which
/// p1 holds with `ammo` (the starting weapon is dropped when `weapon` is a found one).
fn shooting(weapon: &str, ammo: u32, extra: &str) -> Table {
    let mut pos = String::from("tile 5 armory\np1 at 5\nintruder adult 5\nattacks attack-bite-3\n");
    pos += "ammo p1 all 0\n";
    if !weapon.is_empty() {
        pos += &format!("give p1 {weapon}\nammo p1 {weapon} {ammo}\n");
    }
    pos += extra;
    table(1, &pos)
}

fn adult(t: &Table) -> String {
    t.eval("let m = g.zone(`room/${room_id(5)}`).cards()[0]; `${m.name}-${m.id}`")
        .trim_matches('"')
        .to_string()
}

fn injuries(t: &Table, target: &str) -> i64 {
    let id = target.split('-').nth(1).unwrap();
    eval_int(t, &format!("g.counter(\"inj/{id}\")"))
}

fn ammo_of(t: &Table, weapon: &str) -> i64 {
    eval_int(
        t,
        &format!(
            "let w = g.zone(\"hands\", \"p1\").cards().filter(|c| weapon_id(c) == \"{weapon}\")[0]; weapon_ammo(g, w)"
        ),
    )
}

/// Wounds for combat die faces 1-6.
type Faces = [i64; 6];

/// §8.3 and each weapon's special rule: the wounds each face of the die deals an adult, a
/// creeper, a queen and eggs, for every weapon of the data (starting, red and blue decks).
#[test]
fn shoot_wounds_per_face_per_weapon() {
    let t = table(1, "");
    // Faces 1-6: blank, blank, creeper, adult, 1 hit, 2 hits.
    let cases: &[(&str, Faces, Faces, Faces, Faces)] = &[
        // weapon, vs adult, vs creeper, vs queen, vs eggs
        (
            "pilot-compact-pistol",
            [0, 0, 0, 1, 1, 2],
            [0, 0, 1, 1, 1, 2],
            [0, 0, 0, 0, 1, 2],
            [0, 0, 1, 1, 1, 2],
        ),
        (
            "scout-rifle",
            [0, 0, 0, 1, 1, 2],
            [0, 0, 1, 1, 1, 2],
            [0, 0, 0, 0, 1, 2],
            [0, 0, 1, 1, 1, 2],
        ),
        // "2 hits" deals 3.
        (
            "captain-revolver",
            [0, 0, 0, 1, 1, 3],
            [0, 0, 1, 1, 1, 3],
            [0, 0, 0, 0, 1, 3],
            [0, 0, 1, 1, 1, 3],
        ),
        // "2 hits" counts as "1 hit".
        (
            "scientist-pistol",
            [0, 0, 0, 1, 1, 1],
            [0, 0, 1, 1, 1, 1],
            [0, 0, 0, 0, 1, 1],
            [0, 0, 1, 1, 1, 1],
        ),
        // +1 once it wounds.
        (
            "soldier-assault-rifle",
            [0, 0, 0, 2, 2, 3],
            [0, 0, 2, 2, 2, 3],
            [0, 0, 0, 0, 2, 3],
            [0, 0, 2, 2, 2, 3],
        ),
        // "1 hit" counts as "2 hits".
        (
            "mechanic-sawed-off-shotgun",
            [0, 0, 0, 1, 2, 2],
            [0, 0, 1, 1, 2, 2],
            [0, 0, 0, 0, 2, 2],
            [0, 0, 1, 1, 2, 2],
        ),
        (
            "prototype-pistol",
            [0, 0, 0, 1, 1, 2],
            [0, 0, 1, 1, 1, 2],
            [0, 0, 0, 0, 1, 2],
            [0, 0, 1, 1, 1, 2],
        ),
        (
            "prototype-rifle",
            [0, 0, 0, 1, 1, 2],
            [0, 0, 1, 1, 1, 2],
            [0, 0, 0, 0, 1, 2],
            [0, 0, 1, 1, 1, 2],
        ),
        // Non-blank: at least 1; "1 hit" / "2 hits" one more.
        (
            "prototype-shotgun",
            [0, 0, 1, 1, 2, 3],
            [0, 0, 1, 1, 2, 3],
            [0, 0, 1, 1, 2, 3],
            [0, 0, 1, 1, 2, 3],
        ),
        // Non-blank: at least 1.
        (
            "flamethrower",
            [0, 0, 1, 1, 1, 2],
            [0, 0, 1, 1, 1, 2],
            [0, 0, 1, 1, 1, 2],
            [0, 0, 1, 1, 1, 2],
        ),
    ];
    for (weapon, adult, creeper, queen, eggs) in cases {
        for (kind, want) in [
            ("adult", adult),
            ("creeper", creeper),
            ("queen", queen),
            ("egg", eggs),
        ] {
            for face in 1..=6 {
                let got = eval_int(
                    &t,
                    &format!("shot_wounds(WEAPON_STATS[\"{weapon}\"], combat_die(g)[{face} - 1], \"{kind}\")"),
                );
                assert_eq!(got, want[face - 1], "{weapon} vs {kind}, face {face}");
            }
        }
    }
}

/// §8.3 steps 2-4: Shoot spends 1 ammo of the weapon fired and places the face's wounds.
#[test]
fn shoot_spends_one_ammo_and_places_the_wounds() {
    let mut t = shooting("prototype-pistol", 2, "next combat 5");
    let target = adult(&t);
    act(&mut t, "p1", &format!("shoot {target}"));
    t.play("p1", "keep"); // the Prototype Pistol may reroll
    assert_eq!(ammo_of(&t, "prototype-pistol"), 1);
    assert_eq!(injuries(&t, &target), 1);
}

/// §8.3 step 1: a weapon needs 1 ammo: with every weapon empty there is no Shoot, Melee stays.
#[test]
fn no_shoot_without_ammo() {
    let t = shooting("", 0, "");
    let target = adult(&t);
    let legal = t.legal("p1");
    assert!(!legal.contains(&format!("shoot {target}")), "{legal:?}");
    assert!(legal.contains(&format!("melee {target}")), "{legal:?}");
}

/// §8.3 step 1: with two loaded weapons the shooter names one (`with <card>`); only that one
/// loses ammo.
#[test]
fn two_loaded_weapons_ask_which_fires() {
    let mut t2 = shooting(
        "prototype-shotgun",
        2,
        "give p1 prototype-rifle\nammo p1 prototype-rifle 3\nnext combat 1",
    );
    let target = adult(&t2);
    act(&mut t2, "p1", &format!("shoot {target}"));
    let legal = t2.legal("p1");
    assert_eq!(legal.len(), 2, "{legal:?}");
    assert!(legal.iter().all(|a| a.starts_with("with red-prototype-")));
    t2.play("p1", "with red-prototype-rifle-1");
    assert_eq!(ammo_of(&t2, "prototype-rifle"), 2);
    assert_eq!(ammo_of(&t2, "prototype-shotgun"), 2);
}

/// Content §15.3 [Prototype Pistol]: each combat roll may be rerolled once.
#[test]
fn prototype_pistol_rerolls_once() {
    let mut t = shooting("prototype-pistol", 1, "next combat 1 6");
    let target = adult(&t);
    act(&mut t, "p1", &format!("shoot {target}"));
    assert_eq!(t.legal("p1"), ["keep", "reroll"]);
    t.play("p1", "reroll");
    assert_eq!(injuries(&t, &target), 2);
}

/// Content §15.3 [Prototype Rifle]: on "2 hits", 1 more ammo buys 1 more wound.
#[test]
fn prototype_rifle_spends_ammo_for_a_wound() {
    let mut t = shooting("prototype-rifle", 3, "next combat 6");
    let target = adult(&t);
    act(&mut t, "p1", &format!("shoot {target}"));
    assert_eq!(t.legal("p1"), ["extra ammo", "no"]);
    t.play("p1", "extra ammo");
    assert_eq!(ammo_of(&t, "prototype-rifle"), 1);
    assert_eq!(injuries(&t, &target), 3);
}

/// Content §15.4 [Flamethrower]: "2 hits" also sets the shooter's room on fire.
#[test]
fn flamethrower_sets_fire_on_two_hits() {
    let mut t = shooting("flamethrower", 2, "next combat 6");
    let target = adult(&t);
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(5), \"fire\")"),
        0
    );
    act(&mut t, "p1", &format!("shoot {target}"));
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(5), \"fire\")"),
        1
    );
    assert_eq!(injuries(&t, &target), 2);
}

/// §8.4: Melee takes a contamination card first; a face that misses the target costs a
/// serious wound; "2 hits" wounds only once.
#[test]
fn melee_per_face() {
    for face in 1..=6 {
        let mut t = shooting("", 0, &format!("next combat {face}"));
        let target = adult(&t);
        let discard = eval_int(&t, "g.zone(\"discard\", \"p1\").count(\"contamination\")");
        act(&mut t, "p1", &format!("melee {target}"));
        assert_eq!(
            eval_int(&t, "g.zone(\"discard\", \"p1\").count(\"contamination\")"),
            discard + 1
        );
        let hit = face >= 4;
        assert_eq!(
            injuries(&t, &target),
            if hit { 1 } else { 0 },
            "face {face}"
        );
        assert_eq!(
            eval_int(&t, "serious_count(g, \"p1\")"),
            if hit { 0 } else { 1 },
            "face {face}"
        );
    }
}

/// §8.8: eggs on the floor can be shot out of combat; each wound breaks one, and the attempt
/// costs a noise roll (here Silence).
#[test]
fn shooting_eggs_breaks_one_per_wound_and_rolls_noise() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\neggs 5 3\ngive p1 prototype-rifle\nammo p1 all 0\nammo p1 prototype-rifle 2\nnext combat 6\nnext noise 1",
    );
    act(&mut t, "p1", "shoot eggs");
    t.play("p1", "no");
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(5), \"eggs\")"),
        1
    );
    // The noise roll: face 1 puts a marker on corridor 1.
    assert_eq!(
        eval_int(
            &t,
            "g.graph(\"ship\").edge_value(exit_edge(g, room_id(5), 1), \"noise\")"
        ),
        1
    );
}

/// §8.8: Melee on eggs takes no contamination card and gives no wound; a blank breaks none
/// but the noise roll is still made.
#[test]
fn melee_on_eggs_is_safe() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\neggs 5 2\nnext combat 1\nnext noise 1",
    );
    let discard = eval_int(&t, "g.zone(\"discard\", \"p1\").count(\"contamination\")");
    act(&mut t, "p1", "melee eggs");
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(5), \"eggs\")"),
        2
    );
    assert_eq!(eval_int(&t, "serious_count(g, \"p1\")"), 0);
    assert_eq!(
        eval_int(&t, "g.zone(\"discard\", \"p1\").count(\"contamination\")"),
        discard
    );
    assert_eq!(
        eval_int(
            &t,
            "g.graph(\"ship\").edge_value(exit_edge(g, room_id(5), 1), \"noise\")"
        ),
        1
    );
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\neggs 5 2\nnext combat 6\nnext noise 1",
    );
    act(&mut t, "p1", "melee eggs");
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(5), \"eggs\")"),
        1,
        "2 hits: 1 egg"
    );
}

/// §8.8: the Nest's eggs can be destroyed in the Nest, in or out of combat; with the last
/// one the Nest is destroyed.
#[test]
fn the_nest_is_destroyed_with_its_last_egg() {
    let mut t = table(
        1,
        "tile 5 nest\np1 at 5\nnest 2\nnext combat 6 6\nnext noise 10 10",
    );
    act(&mut t, "p1", "melee eggs");
    assert_eq!(eval_int(&t, "g.zone(\"nest_eggs\").len"), 1);
    assert_eq!(eval_int(&t, "g.counter(\"nest_destroyed\")"), 0);
    act(&mut t, "p1", "melee eggs");
    assert_eq!(eval_int(&t, "g.zone(\"nest_eggs\").len"), 0);
    assert_eq!(eval_int(&t, "g.counter(\"nest_destroyed\")"), 1);
    let t = table(1, "tile 5 nest\np1 at 5\nnest 0");
    assert!(!t.legal("p1").contains(&"melee eggs".to_string()));
}

/// §8.8, §3.5: in event step 6 fire destroys one uncarried egg in each burning room, a Nest
/// egg in the Nest (`burn_eggs`, called by the event phase).
#[test]
fn fire_burns_one_egg_per_room() {
    let t = table(1, "tile 5 armory\neggs 5 2\ntile 6 nest");
    assert_eq!(
        eval_int(
            &t,
            "burn_eggs(g, room_id(5)); g.graph(\"ship\").node_value(room_id(5), \"eggs\")"
        ),
        1
    );
    assert_eq!(
        eval_int(&t, "burn_eggs(g, room_id(6)); g.zone(\"nest_eggs\").len"),
        4
    );
}

/// §6.2 Pick Up Heavy Object: an egg on the floor goes into a free hand; dropped, it lies
/// on the floor again.
#[test]
fn floor_eggs_are_picked_up_and_dropped() {
    let mut t = table(1, "tile 5 armory\np1 at 5\neggs 5 1");
    act(&mut t, "p1", "pickup egg");
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(5), \"eggs\")"),
        0
    );
    assert!(t.eval("g.zone(\"hands\", \"p1\").names()").contains("egg"));
    t.play("p1", "drop egg");
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(5), \"eggs\")"),
        1
    );
}

/// Content §20.1 option `combat_die`: `two-creepers` swaps a blank for a second creeper.
#[test]
fn combat_die_option() {
    let t = table(1, "");
    assert_eq!(t.eval("combat_die(g)[1].result"), "\"blank\"");
    let t = Table::new("nemesis")
        .seats(1)
        .seed(1)
        .option("draft", "random")
        .option("combat_die", "two-creepers")
        .start();
    assert_eq!(t.eval("combat_die(g)[1].result"), "\"creeper\"");
    assert_eq!(t.eval("combat_die(g)[0].result"), "\"blank\"");
}

/// Content §11 weaknesses once discovered: Vital Spots (a blank hits an adult, Shoot and
/// Melee), Vulnerability to Energy (+1 wound with an energy weapon).
#[test]
fn weaknesses_change_the_shot() {
    let mut t = shooting("", 0, "weakness vital-spots\nnext combat 1");
    let target = adult(&t);
    act(&mut t, "p1", &format!("melee {target}"));
    assert_eq!(injuries(&t, &target), 1);
    assert_eq!(eval_int(&t, "serious_count(g, \"p1\")"), 0);
    let mut t = shooting(
        "prototype-rifle",
        2,
        "weakness energy-vulnerability\nnext combat 5",
    );
    let target = adult(&t);
    act(&mut t, "p1", &format!("shoot {target}"));
    assert_eq!(injuries(&t, &target), 2);
}

/// Content §11 Vulnerability to Fire, §8.8: a Molotov then breaks 2 eggs.
#[test]
fn fire_vulnerability_molotov_breaks_two_eggs() {
    let mut t = table(
        1,
        "tile 5 armory\np1 at 5\neggs 5 3\nweakness fire-vulnerability\ngive p1 molotov\nnext noise 10",
    );
    let u = t
        .legal("p1")
        .into_iter()
        .find(|a| a.starts_with("use "))
        .unwrap();
    act(&mut t, "p1", &u);
    assert_eq!(
        eval_int(&t, "g.graph(\"ship\").node_value(room_id(5), \"eggs\")"),
        1
    );
}
