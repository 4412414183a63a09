//! Issue 24, typed actions: a `{piece}` argument names one of several pieces of one name
//! (Nemesis' Intruder minis: cards named `adult`, told apart by their id, `adult-42`). It
//! resolves to that card, its zone and owner, only where the acting seat sees it.

mod nemesis_support;

use boardscript_interpreter::shape::Kind;
use boardscript_interpreter::{ArgInfo, Match, Setup};
use boardscript_tests::inline_game;
use nemesis_support::table;

const MANIFEST: &str = r#"
[seats]
names = ["red", "blue"]
[zones.room]
visible_to = "all"
[zones.lair]
visible_to = "none"
[actions]
shapes = ["hit eggs", "hit {piece}"]
"#;

/// Two `adult` pieces in the room, one in a hidden lair; `hit` lists them all by id.
const RULES: &str = r#"
fn setup(g) {
    g.zone("room").put(g.new_card("adult", #{}));
    g.zone("room").put(g.new_card("adult", #{}));
    g.zone("lair").put(g.new_card("adult", #{}));
}
fn legal_actions(g, seat) {
    let out = ["hit eggs"];
    for z in ["room", "lair"] {
        for c in g.zone(z).cards() { out.push(`hit adult-${c.id}`); }
    }
    out + ["hit queen-0", "hit 3-11", "zap adult-1"]
}
fn apply(g, seat, action, parsed) { g.set("hit", parsed.args[0].card); g.end_game([], "") }
"#;

fn typed(seat: usize) -> Vec<(String, Option<String>, Vec<ArgInfo>)> {
    let (_dir, game) = inline_game("pieces", MANIFEST, RULES);
    let m = Match::new(game.unwrap(), Setup::default()).unwrap();
    let legal = m.game.legal_actions(&m.state, seat).unwrap();
    m.game
        .typed_actions(&m.state, seat, &legal)
        .into_iter()
        .map(|a| (a.text, a.shape, a.args))
        .collect()
}

#[test]
fn a_piece_resolves_to_its_card_and_zone_where_the_seat_sees_it() {
    let t = typed(1);
    let (text, shape, args) = &t[1];
    assert_eq!(
        (text.as_str(), shape.as_deref()),
        ("hit adult-0", Some("hit {piece}"))
    );
    let a = &args[0];
    assert_eq!(a.kind, Kind::Piece);
    assert_eq!(
        (a.card, a.name.as_deref(), a.zone.as_deref()),
        (Some(0), Some("adult"), Some("room"))
    );
    assert_eq!(t[2].2[0].card, Some(1));
    // The lair's piece is a piece still, but the seat does not see where it lies.
    let lair = &t[3].2[0];
    assert_eq!((lair.kind, lair.text.as_str()), (Kind::Piece, "adult-2"));
    assert_eq!(
        (lair.card, lair.name.as_ref(), lair.zone.as_ref()),
        (None, None, None)
    );
    // `eggs` is a word the shapes name first; a wrong name resolves to nothing.
    assert_eq!(t[0].1.as_deref(), Some("hit eggs"));
    assert_eq!((t[4].2[0].kind, t[4].2[0].card), (Kind::Piece, None));
}

#[test]
fn a_word_that_starts_with_a_digit_is_no_piece_and_the_best_reading_finds_pieces() {
    let t = typed(0);
    // `3-11` (a corridor, say) fits no piece slot, so no shape.
    assert_eq!((t[5].0.as_str(), t[5].1.as_deref()), ("hit 3-11", None));
    assert_eq!(t[5].2[0].kind, Kind::Word);
    // No shape starts with `zap`: the best reading still finds the piece the seat sees.
    let (text, shape, args) = &t[6];
    assert_eq!((text.as_str(), shape), ("zap adult-1", &None));
    assert_eq!((args[0].kind, args[0].card), (Kind::Piece, Some(1)));
}

#[test]
fn apply_receives_the_piece_resolved() {
    let (_dir, game) = inline_game("pieces", MANIFEST, RULES);
    let mut m = Match::new(game.unwrap(), Setup::default()).unwrap();
    m.play(Some("red"), "hit adult-1").unwrap();
    assert_eq!(m.game.eval(&m.state, "g.get(\"hit\")").unwrap(), "1");
}

/// Nemesis: Melee and Shoot name the Intruder in the room as a piece, which a client reads
/// as that mini's card, in the room's zone.
#[test]
fn nemesis_melee_and_shoot_name_the_intruder_in_the_room() {
    let t = table(
        1,
        "tile 5 armory\np1 at 5\nintruder adult 5\ngive p1 prototype-pistol\nammo p1 prototype-pistol 2\n",
    );
    let m = &t.m;
    let legal = m.game.legal_actions(&m.state, 0).unwrap();
    let room = t.eval("`room/${room_id(5)}`").trim_matches('"').to_string();
    let mut seen = vec![];
    for a in m.game.typed_actions(&m.state, 0, &legal) {
        if a.verb == "melee" || a.verb == "shoot" {
            let arg = &a.args[0];
            assert_eq!(arg.kind, Kind::Piece, "{}", a.text);
            let id = arg.card.expect("resolved");
            assert_eq!(arg.text, format!("adult-{id}"));
            assert_eq!(
                (arg.name.as_deref(), arg.zone.as_deref()),
                (Some("adult"), Some(room.as_str()))
            );
            seen.push(a.verb);
        }
    }
    assert_eq!(seen, ["shoot", "melee"]);
}
