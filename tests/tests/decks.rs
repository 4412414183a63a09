//! Decks with their discard pile (declared in `game.toml` or set at run time), pile operations
//! (`put_bottom`, `put_at`, `find_all`, `find(name, n)`, `draw`) and cards mixed face down
//! (`g.mix_into`, `z.conceal_all`): scenarios with exact positions, views, the log, saves
//! and determinism (issue 21).

use boardscript_interpreter::primitives::zone::CardId;
use boardscript_interpreter::{Game, Match, Setup, State};
use boardscript_tests::{check_views, inline_game};

const MANIFEST: &str = r#"
seats = { names = ["p1", "p2"] }
[zones]
deck = { visible_to = "none", discard = "discard" }
discard = { visible_to = "all" }
hand = { per_seat = true, visible_to = "owner" }
"#;

/// Cards `a` (bottom) to `e` (top) in the deck; `SETUP` is replaced by a scenario's own lines.
/// Actions act for the seat whose turn it is; only `pass` ends the turn.
const RULES: &str = r#"
fn setup(g) {
    g.new_zone("pile", "none");
    for name in ["a", "b", "c", "d", "e"] { g.zone("deck").put(g.new_card(name, #{})); }
    SETUP
}
fn legal_actions(g, seat) {
    ["draw", "draw3", "draw9", "toss", "peek", "shown", "mix", "later", "pass"]
}
fn apply(g, seat, action) {
    let hand = g.zone("hand", seat);
    let deck = g.zone("deck");
    switch action {
        "draw" => {
            let c = deck.draw(hand);
            g.log(if c == () { "nothing left" } else { `drew ${c.name}` });
        }
        "draw3" => deck.draw_to(hand, 3),
        "draw9" => deck.draw_to(hand, 9),
        "toss" => hand.move_all_to(g.zone("discard")),
        "peek" => g.reveal_card(deck.top(), seat),
        "shown" => g.reveal_card(g.zone("discard").top(), seat),
        "mix" => {
            let c = deck.top();
            g.log(`${seat} mixes ${c.name} into the pile`);
            g.mix_into(c, g.zone("pile"));
        }
        "later" => g.log(`${g.zone("pile").cards()[0].name} lies in the pile`),
        "pass" => g.next_turn(),
    }
}
fn winners(g) { [] }
"#;

fn game_with(manifest: &str, setup: &str) -> (tempfile::TempDir, Game) {
    let (dir, game) = inline_game("decks", manifest, &RULES.replace("SETUP", setup));
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

fn game(setup: &str) -> (tempfile::TempDir, Game) {
    game_with(MANIFEST, setup)
}

/// A match of `game` after `actions` (seat, action), with seed `seed`.
fn played(game: Game, seed: u64, actions: &[(&str, &str)]) -> Match {
    let setup = Setup {
        seed,
        ..Setup::default()
    };
    let mut m = Match::new(game, setup).unwrap_or_else(|e| panic!("{e}"));
    for (seat, action) in actions {
        m.play(Some(seat), action)
            .unwrap_or_else(|e| panic!("{seat} {action}: {e}"));
    }
    m
}

/// The names in zone `name` (of `owner`), bottom to top.
fn names(state: &State, name: &str, owner: Option<usize>) -> Vec<String> {
    let z = state.zone_index(name, owner).expect("zone");
    state.card_names(z).iter().map(|n| n.to_string()).collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The error starting a game whose setup runs `setup`, its file named from the game folder.
fn setup_error(setup: &str) -> String {
    let (d, game) = game(setup);
    match game.start(&Setup::default()) {
        Ok(_) => panic!("`{setup}` was accepted"),
        Err(e) => {
            let folder = format!("{}/", d.path().join("decks").display());
            e.to_string().replace(&folder, "")
        }
    }
}

/// Where `needle` is in the line of `text` starting with `line_start`, as `line:column`
/// (1-based).
fn place(text: &str, line_start: &str, needle: &str) -> String {
    let line = text.find(&format!("\n{line_start}")).expect("line") + 1;
    let at = line + text[line..].find(needle).expect("needle");
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    format!("{line}:{column}")
}

#[test]
fn drawing_through_the_deck_twice_shuffles_the_discard_in() {
    let (_d, game) = game("");
    // The top card first: e, d, c; then b, a, and the deck is empty.
    let mut m = played(game, 7, &[("p1", "draw3")]);
    assert_eq!(names(&m.state, "hand", Some(0)), ["e", "d", "c"]);
    m.play(Some("p1"), "toss").unwrap();
    m.play(Some("p1"), "draw3").unwrap();
    let hand = names(&m.state, "hand", Some(0));
    assert_eq!(hand[..2], ["b", "a"]);
    // The third card came from the discard (c, d, e) shuffled in; two of them are left.
    let mut cycled = names(&m.state, "deck", None);
    cycled.push(hand[2].clone());
    assert_eq!(sorted(cycled), ["c", "d", "e"]);
    assert!(names(&m.state, "discard", None).is_empty());
    // The second time round: the deck's two, then the discard (b, a and that card) again.
    m.play(Some("p1"), "toss").unwrap();
    m.play(Some("p1"), "draw3").unwrap();
    assert_eq!(names(&m.state, "hand", Some(0)).len(), 3);
    assert_eq!(names(&m.state, "deck", None).len(), 2);
    assert!(names(&m.state, "discard", None).is_empty());
    let mut all = names(&m.state, "hand", Some(0));
    all.extend(names(&m.state, "deck", None));
    assert_eq!(sorted(all), ["a", "b", "c", "d", "e"]);
    check_views(&m.state).unwrap();
}

#[test]
fn a_draw_stops_short_only_when_deck_and_discard_are_both_empty() {
    let (_d, game) = game("");
    let m = played(game, 7, &[("p1", "draw9")]);
    assert_eq!(names(&m.state, "hand", Some(0)), ["e", "d", "c", "b", "a"]);
    let (_d, game) = game_with(MANIFEST, "");
    let actions = [
        ("p1", "draw3"),
        ("p1", "draw"),
        ("p1", "draw"),
        ("p1", "draw"),
    ];
    let m = played(game, 7, &actions);
    assert_eq!(names(&m.state, "hand", Some(0)), ["e", "d", "c", "b", "a"]);
    let log: Vec<&str> = m.state.log.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(log[log.len() - 3..], ["drew a", "p1: draw", "nothing left"]);
}

#[test]
fn the_cards_shuffled_in_are_forgotten_by_every_seat() {
    let (_d, game) = game("");
    // p2 is shown c, the discard's top; then p1 draws the deck dry and one more.
    let mut m = played(
        game,
        3,
        &[
            ("p1", "draw3"),
            ("p1", "toss"),
            ("p1", "pass"),
            ("p2", "shown"),
        ],
    );
    assert!(m.state.cards[2].known_to.includes(Some(1)));
    assert_eq!(m.state.view(Some(1)).cards[2].name, "c");
    // b, a, then c, d and e are shuffled in and one of them drawn: p2 no longer knows c,
    // whether it lies in the deck or in p1's hand.
    m.play(Some("p2"), "pass").unwrap();
    m.play(Some("p1"), "draw3").unwrap();
    assert_eq!(names(&m.state, "deck", None).len(), 2);
    assert!(m.state.cards[2].known_to.is_nobody());
    let seen = m.state.view(Some(1));
    assert_eq!(seen.cards[2].name, "?");
    assert!(!seen.zones.iter().any(|z| z.cards.contains(&CardId(2))));
    check_views(&m.state).unwrap();
}

#[test]
fn a_seats_deck_draws_from_that_seats_own_discard() {
    let manifest = format!(
        "{MANIFEST}{}",
        r#"stock = { per_seat = true, visible_to = "none", discard = "spent" }
spent = { per_seat = true }
"#
    );
    let setup = r#"
        g.zone("spent", "p2").put(g.new_card("x", #{}));
        g.zone("spent", "p1").put(g.new_card("y", #{}));
        let drawn = g.zone("stock", "p2").draw(g.zone("pile"));
        g.zone("stock", "p2").draw_to(g.zone("pile"), 1);
        if g.zone("stock", "p2").draw(g.zone("pile")) != () { throw "drew from nothing"; }
        g.zone("pile").put_bottom(g.new_card(`drew ${drawn.name}`, #{}));
    "#;
    let (_d, game) = game_with(&manifest, setup);
    let state = game.start(&Setup::default()).unwrap();
    // p2's stock was empty: its discard (x) came in and was drawn; p1's stayed.
    assert_eq!(names(&state, "pile", None), ["drew x", "x"]);
    assert_eq!(names(&state, "spent", Some(0)), ["y"]);
    assert!(names(&state, "spent", Some(1)).is_empty());
    assert!(names(&state, "stock", Some(0)).is_empty());
}

#[test]
fn a_discard_set_at_run_time_is_drawn_in_and_not_the_zone_itself() {
    let setup = r#"
        g.new_zone("stock", "none");
        g.new_zone("spent", "all");
        g.zone("stock").set_discard(g.zone("spent"));
        g.zone("deck").draw_to(g.zone("spent"), 2);
        g.zone("stock").draw_to(g.zone("pile"), 1);
    "#;
    let (_d, game) = game(setup);
    let state = game.start(&Setup::default()).unwrap();
    let pile = names(&state, "pile", None);
    let spent = names(&state, "spent", None);
    assert_eq!(pile.len(), 1);
    assert!(spent.is_empty());
    assert_eq!(
        sorted([pile, names(&state, "stock", None)].concat()),
        ["d", "e"]
    );
    assert_eq!(
        setup_error(r#"g.zone("pile").set_discard(g.zone("pile"));"#),
        "rules.rhai:5:20: in `setup`: zone `pile` cannot be its own discard"
    );
}

#[test]
fn put_bottom_and_put_at_place_a_card_exactly() {
    let cases = [
        (
            r#"let d = g.zone("deck"); d.put_bottom(d.find("e"));"#,
            "e a b c d",
        ),
        (
            r#"let d = g.zone("deck"); d.put_at(d.find("a"), 2);"#,
            "b c a d e",
        ),
        (
            r#"let d = g.zone("deck"); d.put_at(d.find("d"), 4);"#,
            "a b c e d",
        ),
        (
            r#"let d = g.zone("deck"); d.put_at(d.find("c"), 2);"#,
            "a b c d e",
        ),
        (
            r#"g.zone("deck").put_at(g.new_card("x", #{}), 5);"#,
            "a b c d e x",
        ),
        (
            r#"g.zone("deck").put_at(g.new_card("x", #{}), 1);"#,
            "a x b c d e",
        ),
        (
            r#"g.zone("deck").put_bottom(g.new_card("x", #{}));"#,
            "x a b c d e",
        ),
        // From another zone: moved, not copied.
        (
            r#"let d = g.zone("deck"); d.draw(g.zone("pile")); d.put_at(g.zone("pile").top(), 3);"#,
            "a b c e d",
        ),
    ];
    for (setup, want) in cases {
        let (_d, game) = game(setup);
        let state = game.start(&Setup::default()).unwrap();
        assert_eq!(names(&state, "deck", None).join(" "), want, "{setup}");
        assert!(names(&state, "pile", None).is_empty(), "{setup}");
        assert_eq!(
            game.eval(
                &state,
                r#"g.zone("deck").cards()[g.zone("deck").len() - 1].name"#
            )
            .unwrap(),
            format!("\"{}\"", want.split(' ').next_back().unwrap())
        );
    }
}

#[test]
fn put_at_past_the_top_is_refused_naming_the_zone_and_its_size() {
    assert_eq!(
        setup_error(r#"g.zone("deck").put_at(g.new_card("x", #{}), 6);"#),
        "rules.rhai:5:20: in `setup`: put_at: zone `deck` holds 5 card(s) besides this one, so a position is 0 to 5, not 6"
    );
    assert_eq!(
        setup_error(r#"let d = g.zone("deck"); d.put_at(d.find("a"), 5);"#),
        "rules.rhai:5:31: in `setup`: put_at: zone `deck` holds 4 card(s) besides this one, so a position is 0 to 4, not 5"
    );
    assert_eq!(
        setup_error(r#"g.zone("hand", "p2").put_at(g.zone("deck").top(), -1);"#),
        "rules.rhai:5:26: in `setup`: put_at: zone `hand` of p2 holds 0 card(s) besides this one, so a position is 0 to 0, not -1"
    );
}

#[test]
fn a_refused_put_at_changes_nothing() {
    let rules_with = |line: &str| RULES.replace(r#""pass" => g.next_turn(),"#, line);
    let (_d, game) = inline_game(
        "decks",
        MANIFEST,
        &rules_with(r#""pass" => { g.zone("deck").put_bottom(g.zone("deck").top()); g.zone("deck").put_at(g.zone("deck").top(), 9); }"#)
            .replace("SETUP", ""),
    );
    let mut m = played(game.unwrap(), 1, &[("p1", "draw")]);
    let before = m.state.clone();
    let err = m.play(Some("p1"), "pass").unwrap_err().to_string();
    assert!(
        err.ends_with(
            "put_at: zone `deck` holds 3 card(s) besides this one, so a position is 0 to 3, not 9"
        ),
        "{err}"
    );
    assert!(m.state == before);
}

#[test]
fn find_all_lists_every_card_of_a_name_and_find_the_nth() {
    let setup = r#"
        let p = g.zone("pile");
        for name in ["guard", "x", "guard", "y", "guard"] { p.put(g.new_card(name, #{})); }
    "#;
    let (_d, game) = game(setup);
    let state = game.start(&Setup::default()).unwrap();
    let eval = |e: &str| game.eval(&state, e).unwrap();
    assert_eq!(
        eval(r#"g.zone("pile").find_all("guard").map(|c| c.id)"#),
        "[5, 7, 9]"
    );
    assert_eq!(eval(r#"g.zone("pile").find("guard").id"#), "5");
    assert_eq!(eval(r#"g.zone("pile").find("guard", 0).id"#), "5");
    assert_eq!(eval(r#"g.zone("pile").find("guard", 1).id"#), "7");
    assert_eq!(eval(r#"g.zone("pile").find("guard", 2).id"#), "9");
    assert_eq!(eval(r#"g.zone("pile").find("guard", 3) == ()"#), "true");
    assert_eq!(eval(r#"g.zone("pile").find_all("z")"#), "[]");
    let err = game
        .eval(&state, r#"g.zone("pile").find("guard", -1)"#)
        .unwrap_err()
        .to_string();
    assert!(
        err.ends_with("find: the n-th card counts from 0, not -1"),
        "{err}"
    );
}

#[test]
fn mix_into_takes_a_card_an_array_or_a_zone_and_every_seat_forgets_them() {
    let cases = [
        // A card, from the deck.
        (
            r#"g.mix_into(g.zone("deck").top(), g.zone("pile"));"#,
            "a b c d",
            "e q",
        ),
        // An array, from the deck and a hand, one card twice.
        (
            r#"let d = g.zone("deck"); g.zone("hand", "p1").put(g.new_card("h", #{}));
               g.mix_into([d.find("a"), d.find("c"), g.zone("hand", "p1").top(), d.find("a")], g.zone("pile"));"#,
            "b d e",
            "a c h q",
        ),
        // A zone.
        (
            r#"g.mix_into(g.zone("deck"), g.zone("pile"));"#,
            "",
            "a b c d e q",
        ),
        // The zone itself: shuffled, its faces forgotten.
        (
            r#"g.mix_into(g.zone("pile"), g.zone("pile"));"#,
            "a b c d e",
            "q",
        ),
    ];
    for (mix, deck, pile) in cases {
        // q lies in the pile, shown to p1; every deck card was shown to p2.
        let setup = format!(
            r#"let q = g.new_card("q", #{{}}); g.zone("pile").put(q); g.reveal_card(q, "p1");
               for c in g.zone("deck").cards() {{ g.reveal_card(c, "p2"); }}
               {mix}"#
        );
        let (_d, game) = game(&setup);
        let state = game.start(&Setup::default()).unwrap();
        assert_eq!(names(&state, "deck", None).join(" "), deck, "{mix}");
        assert_eq!(sorted(names(&state, "pile", None)).join(" "), pile, "{mix}");
        assert!(names(&state, "hand", Some(0)).is_empty(), "{mix}");
        let pile = state.zone_index("pile", None).unwrap();
        for &c in &state.zones[pile].cards {
            assert!(state.cards[c.0 as usize].known_to.is_nobody(), "{mix}");
        }
        for seat in [Some(0), Some(1), None] {
            let view = state.view(seat);
            assert!(
                view.zones[pile].cards.iter().all(|&c| c == CardId::HIDDEN),
                "{mix}: {seat:?}"
            );
        }
        check_views(&state).unwrap();
    }
}

#[test]
fn mix_into_refuses_what_is_not_a_card() {
    assert_eq!(
        setup_error(r#"g.mix_into(42, g.zone("pile"));"#),
        "rules.rhai:5:7: in `setup`: mix_into: mixes a card, an array of cards or a zone, not a `i64`"
    );
    assert_eq!(
        setup_error(r#"g.mix_into([g.zone("deck").top(), "b"], g.zone("pile"));"#),
        "rules.rhai:5:7: in `setup`: mix_into: an array of cards holds no `string`"
    );
}

#[test]
fn a_mixed_card_is_hidden_from_the_seat_that_was_shown_it() {
    let (_d, game) = game("");
    // p1 is shown the deck's top (e), then mixes it into the pile, then logs its name.
    let m = played(game, 5, &[("p1", "peek")]);
    let deck = m.state.zone_index("deck", None).unwrap();
    let shown = m.state.view(Some(0));
    assert_eq!(shown.zones[deck].cards[4], CardId(4));
    assert_eq!(shown.cards[4].name, "e");
    let mut m = m;
    m.play(Some("p1"), "mix").unwrap();
    m.play(Some("p1"), "later").unwrap();
    let pile = m.state.zone_index("pile", None).unwrap();
    for seat in [Some(0), Some(1), None] {
        let v = m.state.view(seat);
        assert_eq!(v.zones[pile].cards, [CardId::HIDDEN], "{seat:?}");
        assert_eq!(v.cards[4].name, "?", "{seat:?}");
    }
    // The log names a card to a seat that could see it before or after the action that wrote
    // the line: p1 read e's name in the line of the action that mixed it, not after.
    let lines = |seat| -> Vec<String> {
        let v = m.state.view(Some(seat));
        v.log
            .iter()
            .rev()
            .take(3)
            .rev()
            .map(|e| e.text.clone())
            .collect()
    };
    assert_eq!(
        lines(0),
        [
            "p1 mixes e into the pile",
            "p1: later",
            "a card lies in the pile"
        ]
    );
    assert_eq!(
        lines(1),
        [
            "p1 mixes a card into the pile",
            "p1: later",
            "a card lies in the pile"
        ]
    );
    check_views(&m.state).unwrap();
}

#[test]
fn conceal_all_forgets_the_faces_and_keeps_the_order() {
    let setup = r#"
        for c in g.zone("deck").cards() { g.reveal_card(c, "all"); }
        g.zone("deck").conceal_all();
    "#;
    let (_d, game) = game(setup);
    let state = game.start(&Setup::default()).unwrap();
    assert_eq!(names(&state, "deck", None), ["a", "b", "c", "d", "e"]);
    assert!(state.cards.iter().all(|d| d.known_to.is_nobody()));
    let deck = state.zone_index("deck", None).unwrap();
    for seat in [Some(0), Some(1), None] {
        assert!(state.view(seat).zones[deck]
            .cards
            .iter()
            .all(|&c| c == CardId::HIDDEN));
    }
}

#[test]
fn a_deck_with_a_discard_saves_loads_and_replays_the_same() {
    let actions = [
        ("p1", "draw3"),
        ("p1", "toss"),
        ("p1", "draw3"),
        ("p1", "pass"),
        ("p2", "draw3"),
        ("p2", "toss"),
        ("p2", "draw9"),
    ];
    let (d, game) = game("");
    let m = played(game, 11, &actions);
    let deck = m.state.zone_index("deck", None).unwrap();
    let discard = m.state.zone_index("discard", None).unwrap();
    assert_eq!(m.state.zones[deck].discard, Some(discard));
    // The state carries the link, and reads it back.
    let json = serde_json::to_string(&m.state).unwrap();
    assert!(json.contains(&format!("\"discard\":{discard}")), "{json}");
    let read: State = serde_json::from_str(&json).unwrap();
    assert!(read == m.state);
    let save = m.save_json();
    // Loaded into a fresh match: the same state, the link included.
    let again = || Game::load(&d.path().join("decks"), "decks").unwrap();
    let mut loaded = Match::new(again(), Setup::default()).unwrap();
    loaded
        .load(&boardscript_interpreter::SaveFile::parse(&save, "decks").unwrap())
        .unwrap();
    assert!(loaded.state == m.state);
    assert_eq!(loaded.state.zones[deck].discard, Some(discard));
    // The same seed and actions give the same save, byte for byte.
    assert_eq!(played(again(), 11, &actions).save_json(), save);
    // The state weighs its link.
    let (_d2, plain) = game_with(&MANIFEST.replace(", discard = \"discard\"", ""), "");
    let mut with = played(again(), 11, &[]).state;
    let mut without = played(plain, 11, &[]).state;
    assert_eq!(with.weigh(), without.weigh() + 8);
}

/// The error loading a game whose `game.toml` is `manifest`, with the folder written `DIR`.
fn manifest_error(manifest: &str) -> String {
    let (dir, game) = inline_game("decks", manifest, &RULES.replace("SETUP", ""));
    let err = game.err().expect("refused").to_string();
    let path = dir.path().join("decks").join("game.toml");
    err.replace(&path.display().to_string(), "DIR/game.toml")
}

#[test]
fn a_discard_must_be_another_zone_declared_alike() {
    let cases = [
        (
            MANIFEST.replace("discard = \"discard\"", "discard = \"discrad\""),
            ("deck", "\"discrad\""),
            "zone `deck`: discard `discrad` is not a zone (zones: deck, discard, hand)",
        ),
        (
            MANIFEST.replace("discard = \"discard\"", "discard = \"deck\""),
            ("deck", "\"deck\""),
            "zone `deck`: a zone cannot be its own discard",
        ),
        (
            MANIFEST.replace("discard = \"discard\"", "discard = \"hand\""),
            ("deck", "\"hand\""),
            "zone `deck`: it is not per_seat and its discard `hand` is: both are, or neither",
        ),
        (
            MANIFEST.replace(
                "visible_to = \"owner\" }",
                "visible_to = \"owner\", discard = \"discard\" }",
            ),
            ("hand", "\"discard\""),
            "zone `hand`: it is per_seat and its discard `discard` is not: both are, or neither",
        ),
    ];
    for (manifest, (line, at), message) in cases {
        assert_eq!(
            manifest_error(&manifest),
            format!("DIR/game.toml:{}: {message}", place(&manifest, line, at))
        );
    }
    let err = manifest_error(&MANIFEST.replace("discard = \"discard\"", "discard = 3"));
    assert!(err.starts_with("DIR/game.toml:4:"), "{err}");
    assert!(
        err.contains("invalid type: integer `3`, expected a string"),
        "{err}"
    );
}

#[test]
fn a_variant_may_give_its_bases_deck_a_discard() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("decks");
    let plain = MANIFEST.replace(", discard = \"discard\"", "");
    std::fs::create_dir_all(&base).unwrap();
    std::fs::write(base.join("game.toml"), &plain).unwrap();
    std::fs::write(base.join("rules.rhai"), RULES.replace("SETUP", "")).unwrap();
    let variant = base.join("variants").join("recycled");
    std::fs::create_dir_all(&variant).unwrap();
    let write = |zones: &str| {
        let text = format!("base = \"decks\"\n[zones]\n{zones}\n");
        std::fs::write(variant.join("game.toml"), text).unwrap();
    };
    write("deck = { visible_to = \"none\", discard = \"discard\" }");
    let game = Game::load(&variant, "decks/recycled").unwrap();
    let m = played(game, 2, &[("p1", "draw3"), ("p1", "toss"), ("p1", "draw9")]);
    assert_eq!(names(&m.state, "hand", Some(0)).len(), 5);
    // Without it, the base's deck stops short.
    let m = played(
        Game::load(&base, "decks").unwrap(),
        2,
        &[("p1", "draw3"), ("p1", "toss"), ("p1", "draw9")],
    );
    assert_eq!(names(&m.state, "hand", Some(0)).len(), 2);
    // A variant that makes the pile per seat breaks its base's discard: its game.toml is named.
    std::fs::write(base.join("game.toml"), MANIFEST).unwrap();
    write("discard = { per_seat = true }");
    let err = Game::load(&variant, "decks/recycled")
        .err()
        .expect("refused")
        .to_string();
    assert_eq!(
        err,
        format!(
            "{}: zone `deck`: it is not per_seat and its discard `discard` is: both are, or neither",
            variant.join("game.toml").display()
        )
    );
}
