//! Nemesis positions (issue 22): every directive of `position.rhai` sets the state a
//! scenario of the rulebook needs (read here in the rulebook's terms), and refuses bad input
//! with a message naming the line. Then a few scenarios that no position could set up before:
//! an encounter drawing a chosen token against a hand of 3 (rules §8.1 step 4), a trade of
//! another character's weapon (§6.2), and a Shoot at one of two wounded adults (§8.3, §8.6).

use boardscript_interpreter::{Match, Setup};
use boardscript_tests::{load, Table};

mod nemesis_support;
use nemesis_support::{act, act_settled, eval_int, table, ID};

/// The error of starting a 2-seat game (draft at random) from `position`.
fn refusal(position: &str) -> String {
    let mut setup = Setup {
        seats: Some(2),
        seed: 1,
        position: Some(position.into()),
        ..Setup::default()
    };
    setup.options.insert("draft".into(), "random".into());
    match Match::new(load(ID), setup) {
        Ok(_) => panic!("{position:?} was accepted"),
        Err(e) => e.to_string(),
    }
}

/// Asserts that `position` is refused with `message` (after the file and line it names).
fn refused(position: &str, message: &str) {
    let e = refusal(position);
    assert!(e.contains(message), "wanted {message:?}, got: {e}");
}

fn names(t: &Table, zone: &str) -> String {
    t.eval(&format!("g.zone({zone}).names()"))
}

/// The tokens of bag `bag` ("bag" or "supply"), sorted, as a Rhai array.
fn tokens(t: &Table, bag: &str) -> String {
    t.eval(&format!("let k = g.bag(\"{bag}\").kinds(); k.sort(); k"))
}

// ---------------------------------------------------------------- The bag and the supply

/// §4.1 step 10, §5.3: `bag` sets the Intruder bag's exact tokens, by type, by type and back
/// number (`adult:3`), or by id; every other token is in the supply.
#[test]
fn bag_holds_exactly_the_tokens_named() {
    let t = table(1, "bag adult:3 adult:4 larva blank token-queen");
    assert_eq!(
        tokens(&t, "bag"),
        "[\"token-adult-05\", \"token-adult-10\", \"token-blank\", \"token-larva-1\", \"token-queen\"]"
    );
    assert_eq!(eval_int(&t, "g.bag(\"supply\").len"), 27 - 5);
    refused(
        "bag queen queen",
        "position: line 1: no queen token left for the bag",
    );
    refused("\nbag dog", "position: line 2: no Intruder token \"dog\"");
}

/// `supply` sets the supply's exact tokens (from the supply or out of the game); the bag stays.
#[test]
fn supply_holds_exactly_the_tokens_named() {
    let t = table(1, "bag adult adult\nsupply adult:4 creeper");
    assert_eq!(
        tokens(&t, "supply"),
        "[\"token-adult-10\", \"token-creeper-1\"]"
    );
    assert_eq!(
        tokens(&t, "bag"),
        "[\"token-adult-01\", \"token-adult-02\"]"
    );
    refused(
        "bag queen\nsupply queen",
        "position: line 2: no queen token outside the bag",
    );
}

/// §8.1 step 2: `next bag adult:3` (or an id) names the very token the next draw takes.
#[test]
fn next_bag_names_a_token_by_back_number_or_id() {
    let t = table(
        1,
        "bag adult:4 adult larva larva\nnext bag adult:4 token-larva-2 adult",
    );
    let queue = t.eval("g.get(\"force_bag\")");
    assert!(queue.starts_with("[\"token-adult-1"), "{queue}");
    assert!(queue.ends_with("\"token-larva-2\", \"adult\"]"), "{queue}");
    // A type draws any token of it but one named for a later draw.
    let t = table(1, "bag adult:3 adult:4\nnext bag adult adult:3");
    assert_eq!(
        t.eval("[draw_token(g), draw_token(g)]"),
        "[\"token-adult-10\", \"token-adult-05\"]"
    );
    refused(
        "bag adult:2\nnext bag adult:3",
        "position: line 2: no adult:3 token in the bag",
    );
}

/// §8.1 with a chosen token: an encounter against a hand of 3 (the Move paid from 4) draws
/// the adult with back number 3: 3 cards are not fewer than 3, so no surprise attack; the
/// adult with back number 4 makes one (an attack card is drawn).
#[test]
fn encounter_draws_the_chosen_token_and_checks_surprise_against_its_back() {
    for (token, attacks) in [("adult:3", 0), ("adult:4", 1)] {
        let mut t = table(
            1,
            &format!(
                "explore 9\nnoise 9 1\nbag adult:3 adult:4 larva blank\nnext noise 1\nnext bag {token}\nhand p1 4"
            ),
        );
        act_settled(&mut t, "p1", "move 9");
        assert_eq!(
            t.eval("g.zone(`room/${room_id(9)}`).names()"),
            "[\"adult\"]"
        );
        assert_eq!(eval_int(&t, "g.zone(\"hand\", \"p1\").len"), 3);
        assert_eq!(
            eval_int(&t, "g.zone(\"attacks_discard\").len"),
            attacks,
            "{token} against a hand of 3"
        );
        let back = if token == "adult:3" { "05" } else { "10" };
        assert_eq!(
            eval_int(
                &t,
                &format!("g.bag(\"supply\").count(\"token-adult-{back}\")")
            ),
            1
        );
    }
}

// ---------------------------------------------------------------- Decks and discard piles

/// `deck red top a b`: the named cards on top of the red item deck, `a` drawn first.
#[test]
fn deck_top_puts_named_cards_in_draw_order() {
    let t = table(1, "deck red top grenade energy-charge");
    let top = t.eval("let c = g.zone(\"red\").cards(); [c[-1].name, c[-2].name]");
    assert!(top.starts_with("[\"red-grenade-"), "{top}");
    assert!(top.contains(", \"red-energy-charge-"), "{top}");
    refused(
        "\n\ndeck red top foo",
        "position: line 3: no card \"foo\" in the red deck, its discard pile or the box",
    );
    refused(
        "deck purple top foo",
        "position: line 1: no deck \"purple\"",
    );
}

/// Every deck of the game by name: events, attacks, serious wounds, contamination and a seat's
/// action deck (its card found in its hand, deck or discard pile).
#[test]
fn deck_top_covers_every_deck() {
    let t = table(
        2,
        "deck events top hatching\ndeck attacks top scratch-2\ndeck wounds top leg\n\
         deck contamination top infected\ndeck p2 top rest\ndeck blue top taser",
    );
    assert_eq!(
        t.eval("g.zone(\"events\").top().name"),
        "\"event-hatching\""
    );
    assert_eq!(
        t.eval("g.zone(\"attacks\").top().name"),
        "\"attack-scratch-2\""
    );
    assert_eq!(t.eval("g.zone(\"wound_deck\").top().kind"), "\"leg\"");
    assert_eq!(t.eval("g.zone(\"contamination\").top().infected"), "true");
    assert_eq!(t.eval("g.zone(\"deck\", \"p2\").top().kind"), "\"rest\"");
    refused(
        "deck p1 top sprint-99",
        "position: line 1: no card \"sprint-99\" in p1's deck, discard pile or hand",
    );
}

/// `deck X only ...`: the deck holds exactly these (the rest to the box); `deck X empty`: its
/// cards onto its discard pile (content §18: the reshuffle then has something to take).
#[test]
fn deck_only_and_empty() {
    let t = table(1, "deck events only hunt-1 hatching\ndeck red empty");
    assert_eq!(
        names(&t, "\"events\""),
        "[\"event-hatching\", \"event-hunt-1\"]"
    );
    assert_eq!(eval_int(&t, "g.zone(\"red\").len"), 0);
    assert!(eval_int(&t, "g.zone(\"red_discard\").len") > 0);
    refused(
        "deck red sideways",
        "position: line 1: deck: \"sideways\" is not top, only or empty (deck red top grenade)",
    );
}

/// `discard X ...`: the discard pile's exact cards, the last named on top; `empty` for none.
#[test]
fn discard_sets_a_discard_pile() {
    let t = table(
        1,
        "discard red grenade decoy\ndiscard events hatching\ndiscard attacks empty",
    );
    let red = names(&t, "\"red_discard\"");
    assert!(red.starts_with("[\"red-grenade-"), "{red}");
    assert_eq!(eval_int(&t, "g.zone(\"red_discard\").len"), 2);
    assert_eq!(names(&t, "\"events_discard\""), "[\"event-hatching\"]");
    assert_eq!(eval_int(&t, "g.zone(\"attacks_discard\").len"), 0);
    refused(
        "discard contamination clean",
        "position: line 1: the contamination deck has no discard pile",
    );
}

/// Objectives (§4.2 step 16): `objectives p1 necropsy` leaves p1 exactly that card.
#[test]
fn objectives_are_named() {
    let t = table(2, "objectives p1 necropsy");
    assert_eq!(
        names(&t, "\"objectives\", \"p1\""),
        "[\"objective-necropsy\"]"
    );
    refused(
        "objectives p1 world-peace",
        "position: line 1: no card \"world-peace\" in the objectives (box and seats)",
    );
}

/// Coordinates (§4.1 step 5): the card beside the Cockpit; an unknown number is refused.
#[test]
fn coordinates_are_named() {
    let t = table(1, "coordinates 3");
    assert_eq!(
        t.eval("g.zone(\"coordinates\").top().name"),
        "\"coordinates-3\""
    );
    refused(
        "coordinates 99",
        "position: line 1: no coordinates card \"coordinates-99\"",
    );
}

// ---------------------------------------------------------------- Tiles and tokens

/// §7.1 step 3: a face-down tile with its exploration token; entering turns both up, and the
/// token's effect (a fire) happens then.
#[test]
fn hidden_tile_and_token_turn_up_on_entering() {
    let mut t = table(1, "tile 9 armory hidden\ntoken 9 fire-1\nnext noise 1");
    assert_eq!(t.eval("g.graph(\"ship\").mark(room_id(9))"), "\"u\"");
    assert_eq!(
        t.eval("g.zone(`tile/${room_id(9)}`).top().name"),
        "\"armory\""
    );
    assert_eq!(
        t.eval("g.zone(`token/${room_id(9)}`).top().name"),
        "\"exp-fire-1\""
    );
    act_settled(&mut t, "p1", "move 9");
    assert_eq!(t.eval("tile_of(g, room_id(9))"), "\"armory\"");
    assert_eq!(t.eval("on_fire(g, room_id(9))"), "true");
    refused(
        "explore 9\ntoken 9 fire-1",
        "position: line 2: room 9 has no face-down tile for a token",
    );
    refused(
        "tile 9 armory hidden\ntoken 9 fire-7",
        "position: line 2: no exploration token \"exp-fire-7\"",
    );
}

/// `tile N name` after `explore N` turns the room over as the named tile (it failed with
/// `Function not found: take (Zone, ())`); exploring twice is refused.
#[test]
fn tile_after_explore_and_explore_twice() {
    let t = table(1, "explore 5\ntile 5 nest");
    assert_eq!(t.eval("tile_of(g, room_id(5))"), "\"nest\"");
    assert_eq!(t.eval("g.graph(\"ship\").mark(room_id(5))"), "\"e\"");
    let t = table(1, "explore 5\ntile 5 nest hidden");
    assert_eq!(t.eval("g.graph(\"ship\").mark(room_id(5))"), "\"u\"");
    assert_eq!(eval_int(&t, "g.zone(`token/${room_id(5)}`).len"), 1);
    refused(
        "explore 5\nexplore 5",
        "position: line 2: room 5 is already explored",
    );
    refused(
        "tile 5 ballroom",
        "position: line 1: no room tile \"ballroom\"",
    );
    refused(
        "tile 5 nest\ntile 6 nest",
        "position: line 2: the nest tile is already face up",
    );
}

// ---------------------------------------------------------------- Turn order

/// §5.1: `first p2` gives p2 the first-player token (and the round's first turn); `round 3`.
#[test]
fn first_player_and_round() {
    let t = table(2, "first p2\nround 3");
    assert_eq!(t.eval("g.get(\"first\")"), "\"p2\"");
    assert_eq!(t.deciding(), ["p2"]);
    assert_eq!(eval_int(&t, "g.counter(\"round\")"), 3);
    refused(
        "first p9",
        "position: line 1: first: a seat (p1, p2) expected, not \"p9\"",
    );
    refused(
        "round three",
        "position: line 1: round: a round number expected, not \"three\"",
    );
}

// ---------------------------------------------------------------- Hands

/// `hand p1 <cards>`: exactly these cards in hand (by kind, name, or `infected`/`clean` for a
/// contamination card); the others go onto the deck.
#[test]
fn hand_holds_exactly_the_cards_named() {
    let t = table(1, "hand p1 search rest infected");
    let kinds = t.eval(
        "let k = []; for c in g.zone(\"hand\", \"p1\").cards() { k.push(if c.name == \"contamination\" { c.infected } else { c.kind }) } k",
    );
    assert_eq!(kinds, "[\"search\", \"rest\", true]");
    assert_eq!(
        eval_int(
            &t,
            "g.zone(\"deck\", \"p1\").len + g.zone(\"hand\", \"p1\").len"
        ),
        11
    );
    refused(
        "hand p1 search zzz",
        "position: line 1: no card \"zzz\" in p1's hand, deck or discard pile (nor the contamination deck)",
    );
    refused(
        "hand p1 9",
        "position: line 1: p1 holds 5 cards, so it cannot keep 9",
    );
}

/// `draw p1 search` draws one more each time (it did nothing when one was held); with none
/// left it is refused.
#[test]
fn draw_always_draws_one_more() {
    let t = table(1, "hand p1 0\ndraw p1 search\ndraw p1 search");
    assert_eq!(
        t.eval("g.zone(\"hand\", \"p1\").cards().map(|c| c.kind)"),
        "[\"search\", \"search\"]"
    );
    refused(
        "hand p1 search search\ndraw p1 search",
        "position: line 2: no search card left in p1's deck or discard pile (2 in hand)",
    );
}

// ---------------------------------------------------------------- Weapons and Intruders

/// §6.2 Trade of another character's weapon: p2 (the Captain) holds the Scout's rifle with 2
/// ammo and gives it to p1, who pays; it keeps its ammo.
#[test]
fn trade_of_another_characters_weapon() {
    let mut t = table(
        2,
        "character p1 mechanic\ncharacter p2 captain\nweapon p2 scout-rifle ammo 2\np1 at 5\np2 at 5\ntile 5 armory",
    );
    assert_eq!(
        names(&t, "\"hands\", \"p2\""),
        "[\"captain-revolver\", \"scout-rifle\"]"
    );
    act(&mut t, "p1", "trade p2");
    t.play("p1", "done");
    t.play("p2", "give scout-rifle");
    t.play("p2", "done");
    t.play("p2", "accept");
    t.play("p1", "accept");
    assert!(names(&t, "\"hands\", \"p1\"").contains("scout-rifle"));
    assert_eq!(
        eval_int(
            &t,
            "weapon_ammo(g, g.zone(\"hands\", \"p1\").find(\"scout-rifle\"))"
        ),
        2
    );
    refused(
        "weapon p1 banana",
        "position: line 1: no weapon \"banana\" in the box, the item decks or anyone's hands",
    );
    refused(
        "character p1 captain\nweapon p1 scout-rifle\nweapon p1 mechanic-sawed-off-shotgun",
        "position: line 3: p1's hands are full",
    );
}

/// The miniature's id for `wounds`, as actions name it (`adult-42`), of the only adult in room 5.
fn adult_in_5(t: &Table) -> String {
    t.eval("let m = g.zone(`room/${room_id(5)}`).cards()[0]; `${m.name}-${m.id}`")
        .trim_matches('"')
        .to_string()
}

/// `wounds adult-42 2`: injury markers on one miniature, named as actions name it.
#[test]
fn wounds_on_one_miniature() {
    let name = adult_in_5(&table(1, "intruder adult 5"));
    let id = name.split('-').nth(1).unwrap();
    let t = table(1, &format!("intruder adult 5\nwounds {name} 2"));
    assert_eq!(eval_int(&t, &format!("g.counter(\"inj/{id}\")")), 2);
    refused(
        "wounds adult-9999 2",
        "position: line 1: wounds: no Intruder \"adult-9999\" on the board",
    );
    refused(
        "intruder dog 5",
        "position: line 1: intruder: no miniature \"dog\"",
    );
}

/// §8.3, §8.6: two adults in one room with 1 and 2 wounds; a Shoot of "1 hit" at the one with
/// 2 makes 3, and the attack card's 3 blood kill it; the other keeps its 1 wound.
#[test]
fn shoot_kills_the_right_one_of_two_wounded_adults() {
    let mut t = table(
        1,
        "character p1 captain\ntile 5 armory\np1 at 5\nintruder adult 5 wounds 1\n\
         intruder adult 5 wounds 2\ndeck attacks top scratch-2\nnext combat 5",
    );
    let by_wounds = |t: &Table, n: i64| -> String {
        t.eval(&format!(
            "let out = \"\"; for m in g.zone(`room/${{room_id(5)}}`).cards() {{ if g.counter(`inj/${{m.id}}`) == {n} {{ out = `${{m.name}}-${{m.id}}`; }} }} out"
        ))
        .trim_matches('"')
        .to_string()
    };
    let one = by_wounds(&t, 1);
    let two = by_wounds(&t, 2);
    assert!(
        one.starts_with("adult-") && two.starts_with("adult-"),
        "{one} {two}"
    );
    act(&mut t, "p1", &format!("shoot {two}"));
    assert_eq!(
        t.eval("g.zone(`room/${room_id(5)}`).names()"),
        "[\"adult\"]"
    );
    assert_eq!(
        by_wounds(&t, 1),
        one,
        "the adult with 1 wound is still there"
    );
    assert_eq!(t.eval("carcasses_in(g, room_id(5))"), "1");
}
