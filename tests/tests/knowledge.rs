//! Card knowledge: secret properties hidden even from the card's holder until revealed to
//! chosen seats, and cards revealed to chosen seats in zones they may not see; in views,
//! saves, undo and replays.

use boardscript_interpreter::primitives::zone::CardId;
use boardscript_interpreter::{Game, Match, SaveFile, Setup, State};
use boardscript_tests::inline_game;

const MANIFEST: &str = "[seats]\nnames = [\"p1\", \"p2\", \"p3\"]\n";

/// Card 0 lies in p1's hand and card 1 on the table, both with the secret `infected`;
/// cards 2-4 (`engine-a` to `engine-c`) lie in a zone nobody sees.
const RULES: &str = r#"
fn setup(g) {
    g.new_seat_zones("hand", "owner");
    g.new_zone("table", "all");
    g.new_zone("engines", "none");
    let held = g.new_card("contamination", #{ kind: "contamination" });
    g.zone("hand", "p1").put(held);
    g.set_secret(held, "infected", true);
    let shown = g.new_card("contamination", #{ kind: "contamination" });
    g.zone("table").put(shown);
    g.set_secret(shown, "infected", false);
    for name in ["engine-a", "engine-b", "engine-c"] {
        g.zone("engines").put(g.new_card(name, #{ broken: name == "engine-b" }));
    }
}
fn legal_actions(g, seat) { ["scan", "announce", "check", "conceal", "shuffle", "pass"] }
fn apply(g, seat, action) {
    switch action {
        "scan" => {
            g.reveal(g.card(0), "infected", seat);
            g.reveal(g.card(1), "infected", [seat]);
        }
        "announce" => g.reveal(g.card(1), "infected", "all"),
        "check" => g.reveal_card(g.zone("engines").cards()[1], seat),
        "conceal" => g.conceal_card(g.zone("engines").cards()[1]),
        "shuffle" => g.zone("engines").shuffle(),
    }
    g.next_turn();
}
fn winners(g) { [] }
fn render(g, seat) {
    let c = g.zone("table").top();
    let scan = if c.has("infected") { `${c.infected}` } else { "unknown" };
    `table: ${scan}; engines: ${g.zone("engines").names()}`
}
"#;

fn game() -> (tempfile::TempDir, Game) {
    let (dir, game) = inline_game("knowing", MANIFEST, RULES);
    (dir, game.unwrap())
}

/// The same game compiled again, for a `Match` of its own.
fn again(dir: &tempfile::TempDir) -> Game {
    Game::load(&dir.path().join("knowing"), "knowing").unwrap()
}

/// The state after `actions`, played in turn from p1.
fn after(game: &Game, actions: &[&str]) -> State {
    let mut state = game.start(&Setup::default()).unwrap();
    for (i, a) in actions.iter().enumerate() {
        game.apply(&mut state, i % 3, a).unwrap();
    }
    state
}

/// `expr` evaluated on what `viewer` (None: a spectator) sees.
fn seen(game: &Game, state: &State, viewer: Option<usize>, expr: &str) -> String {
    game.eval(&state.view(viewer), expr)
        .unwrap_or_else(|e| format!("error: {e}"))
}

fn json(state: &State) -> String {
    serde_json::to_string(state).unwrap()
}

const VIEWERS: [Option<usize>; 4] = [Some(0), Some(1), Some(2), None];

#[test]
fn a_secret_is_read_by_the_rules_and_shown_to_nobody_not_even_its_holder() {
    let (_d, game) = game();
    let state = after(&game, &[]);
    assert_eq!(game.eval(&state, "g.card(0).infected").unwrap(), "true");
    assert_eq!(game.eval(&state, "g.card(1).infected").unwrap(), "false");
    assert_eq!(
        game.eval(&state, r#"g.card(0).has("infected")"#).unwrap(),
        "true"
    );
    // p1 holds card 0 and sees its face, but not the secret.
    assert_eq!(
        seen(&game, &state, Some(0), "g.card(0).kind"),
        "\"contamination\""
    );
    assert_eq!(
        seen(&game, &state, Some(0), r#"g.card(0).has("infected")"#),
        "false"
    );
    for viewer in VIEWERS {
        assert_eq!(
            seen(&game, &state, viewer, r#"g.card(1).has("infected")"#),
            "false"
        );
        assert!(
            !json(&state.view(viewer)).contains("infected"),
            "{viewer:?}"
        );
    }
    assert!(
        json(&state).contains("infected"),
        "`state` shows everything"
    );
}

#[test]
fn a_secret_revealed_to_one_seat_shows_in_its_view_only() {
    let (_d, game) = game();
    let state = after(&game, &["scan"]);
    assert_eq!(seen(&game, &state, Some(0), "g.card(0).infected"), "true");
    assert_eq!(seen(&game, &state, Some(0), "g.card(1).infected"), "false");
    for viewer in [Some(1), Some(2), None] {
        assert_eq!(
            seen(&game, &state, viewer, r#"g.card(1).has("infected")"#),
            "false"
        );
        assert!(
            !json(&state.view(viewer)).contains("infected"),
            "{viewer:?}"
        );
    }
    let known = r#"g.secret_known_by(g.card(1), "infected")"#;
    assert_eq!(game.eval(&state, known).unwrap(), r#"["p1"]"#);
    assert_eq!(seen(&game, &state, Some(0), known), r#"["p1"]"#);
    // The rendering a seat gets is made from its view.
    assert!(game
        .render(&state, Some(0))
        .unwrap()
        .starts_with("table: false"));
    assert!(game
        .render(&state, Some(1))
        .unwrap()
        .starts_with("table: unknown"));
}

#[test]
fn a_viewer_learns_only_its_own_knowledge_not_who_else_was_shown() {
    let (_d, game) = game();
    let state = after(&game, &["scan", "scan"]);
    let known = r#"g.secret_known_by(g.card(1), "infected")"#;
    assert_eq!(game.eval(&state, known).unwrap(), r#"["p1", "p2"]"#);
    assert_eq!(seen(&game, &state, Some(1), known), r#"["p2"]"#);
    assert_eq!(
        seen(&game, &state, Some(2), r#"g.card(1).has("infected")"#),
        "false"
    );
}

#[test]
fn a_secret_revealed_to_all_shows_to_spectators_and_the_card_stays_hidden_where_it_was() {
    let (_d, game) = game();
    let state = after(&game, &["pass", "announce"]);
    for viewer in VIEWERS {
        assert_eq!(seen(&game, &state, viewer, "g.card(1).infected"), "false");
    }
    assert_eq!(
        seen(
            &game,
            &state,
            None,
            r#"g.secret_known_by(g.card(1), "infected")"#
        ),
        r#"["p1", "p2", "p3"]"#
    );
    // Card 0, in p1's hand, is still a hidden card for the others, its secret unrevealed.
    assert_eq!(seen(&game, &state, Some(1), "g.card(0).name"), "\"?\"");
    assert_eq!(
        seen(&game, &state, Some(0), r#"g.card(0).has("infected")"#),
        "false"
    );
}

#[test]
fn a_card_revealed_to_a_seat_shows_at_its_slot_in_a_zone_nobody_sees() {
    let (_d, game) = game();
    let state = after(&game, &["pass", "check"]);
    let engines = |viewer| {
        let v = state.view(viewer);
        let z = v.zone_index("engines", None).unwrap();
        (v.zones[z].cards.clone(), v.cards[3].name.clone())
    };
    let h = CardId::HIDDEN;
    assert_eq!(engines(Some(1)), (vec![h, CardId(3), h], "engine-b".into()));
    for viewer in [Some(0), Some(2), None] {
        assert_eq!(engines(viewer), (vec![h, h, h], "?".into()), "{viewer:?}");
        assert!(!json(&state.view(viewer)).contains("engine-b"));
    }
    assert_eq!(seen(&game, &state, Some(1), "g.card(3).broken"), "true");
    assert_eq!(
        game.render(&state, Some(1)).unwrap(),
        r#"table: unknown; engines: ["?", "engine-b", "?"]"#
    );
    assert_eq!(
        game.eval(&state, "g.card_known_by(g.card(3))").unwrap(),
        r#"["p2"]"#
    );
    assert_eq!(
        seen(&game, &state, Some(1), "g.card_known_by(g.card(3))"),
        r#"["p2"]"#
    );
}

#[test]
fn conceal_and_shuffle_forget_which_seats_were_shown_a_card() {
    let (_d, game) = game();
    let hidden = |state: &State| {
        let v = state.view(Some(1));
        let z = v.zone_index("engines", None).unwrap();
        v.zones[z].cards.iter().all(|&c| c == CardId::HIDDEN)
    };
    assert!(!hidden(&after(&game, &["pass", "check"])));
    for forget in ["conceal", "shuffle"] {
        let state = after(&game, &["pass", "check", forget]);
        assert!(hidden(&state), "{forget}");
        assert_eq!(
            game.eval(&state, "g.card_known_by(g.card(3))").unwrap(),
            "[]"
        );
    }
    // Shuffling forgets where a card went, not its secrets.
    let state = after(&game, &["scan", "shuffle"]);
    assert_eq!(seen(&game, &state, Some(0), "g.card(1).infected"), "false");
}

#[test]
fn views_without_knowledge_share_the_catalogue() {
    let (_d, game) = game();
    let state = after(&game, &[]);
    // Every card visible and none with secrets or reveals: the view copies no catalogue.
    let (_d2, plain) = inline_game(
        "plain",
        MANIFEST,
        r#"fn setup(g) { g.new_zone("t", "all"); g.zone("t").put(g.new_card("a", #{})); }
           fn legal_actions(g, seat) { ["pass"] } fn apply(g, seat, a) {} fn winners(g) { [] }"#,
    );
    let plain = plain.unwrap().start(&Setup::default()).unwrap();
    assert!(std::sync::Arc::ptr_eq(
        &plain.cards,
        &plain.view(Some(0)).cards
    ));
    assert!(!std::sync::Arc::ptr_eq(
        &state.cards,
        &state.view(Some(0)).cards
    ));
}

#[test]
fn saves_and_state_json_keep_secrets_and_reveals() {
    let (d, game) = game();
    let state = after(&game, &["scan", "check", "announce"]);
    let text = json(&state);
    assert!(text.contains(r#""secrets":{"infected":{"value":false,"known_to":"all"}}"#));
    assert!(text.contains(r#""known_to":[1]"#), "{text}");
    let back: State = serde_json::from_str(&text).unwrap();
    assert_eq!(back, state);
    // A save is replayed: the same knowledge comes back.
    let mut m = Match::new(again(&d), Setup::default()).unwrap();
    for a in ["scan", "check", "announce"] {
        m.play(None, a).unwrap();
    }
    let save = SaveFile::parse(&m.save_json(), "knowing").unwrap();
    let mut loaded = Match::new(game, Setup::default()).unwrap();
    loaded.load(&save).unwrap();
    assert_eq!(loaded.state, state);
    assert_eq!(json(&loaded.state), text, "deterministic, byte for byte");
}

#[test]
fn undo_restores_the_earlier_knowledge() {
    let (d, game) = game();
    let mut m = Match::new(again(&d), Setup::default()).unwrap();
    m.play(None, "pass").unwrap();
    let before = m.state.clone();
    m.play(None, "check").unwrap();
    m.play(None, "scan").unwrap();
    assert_eq!(m.undo(2), 2);
    assert_eq!(m.state, before);
    assert_eq!(seen(&game, &m.state, Some(1), "g.card(3).name"), "\"?\"");
    assert_eq!(m.redo(2), 2);
    assert_eq!(
        seen(&game, &m.state, Some(1), "g.card(3).name"),
        "\"engine-b\""
    );
}

#[test]
fn mistakes_are_errors_at_the_scripts_line() {
    let (_d, game) = game();
    let state = after(&game, &[]);
    let err = |expr: &str| game.eval(&state, expr).unwrap_err().to_string();
    let missing = err(r#"g.reveal(g.card(1), "nothing", "p1")"#);
    assert!(missing.starts_with("eval:1:3:"), "{missing}");
    assert!(missing.contains("no secret `nothing`"), "{missing}");
    assert!(err(r#"g.reveal(g.card(1), "infected", ["p9"])"#).contains("no seat `p9`"));
    assert!(err("g.reveal_card(g.card(2), 3)").contains("seats are \"all\""));
    assert!(err("g.reveal_card(g.card(2), [1])").contains("must be strings"));
    assert!(err(r#"g.secret_known_by(g.card(2), "infected")"#).contains("no secret"));
    // In a view a hidden card can be neither read nor changed.
    let view = state.view(Some(1));
    let hidden = r#"g.set_secret(g.zone("engines").cards()[0], "x", 1)"#;
    assert!(game
        .eval(&view, hidden)
        .unwrap_err()
        .to_string()
        .contains("hidden"));
}

#[test]
fn a_card_reads_a_secret_set_after_it_was_fetched() {
    let (_d, game) = game();
    let state = after(&game, &[]);
    let expr = r#"let c = g.card(2); g.set_secret(c, "x", 7); c.x"#;
    assert_eq!(game.eval(&state, expr).unwrap(), "7");
}

#[test]
fn a_reveal_set_naming_no_seat_fails_to_load_or_names_nobody() {
    let (_d, game) = game();
    let state = after(&game, &["pass", "check"]);
    let text = json(&state);
    let bad = text.replace(r#""known_to":[1]"#, r#""known_to":[64]"#);
    let err = serde_json::from_str::<State>(&bad).unwrap_err().to_string();
    assert!(err.contains("seat 64: at most 64 seats"), "{err}");
    let bad = text.replace(r#""known_to":[1]"#, r#""known_to":"some""#);
    let err = serde_json::from_str::<State>(&bad).unwrap_err().to_string();
    assert!(err.contains("not `some`"), "{err}");
    // A seat index the game lacks (3 seats) names nobody; views and queries do not panic.
    let odd: State =
        serde_json::from_str(&text.replace(r#""known_to":[1]"#, r#""known_to":[7]"#)).unwrap();
    assert_eq!(game.eval(&odd, "g.card_known_by(g.card(3))").unwrap(), "[]");
    for viewer in VIEWERS {
        assert_eq!(odd.view(viewer).cards[3].name, "?");
    }
}

/// The shared hidden-information check (`check_views`, which every game's playouts run) holds
/// after every sequence of three actions: reveals, announcements, checks, concealing and
/// shuffling in any order.
#[test]
fn every_view_passes_the_shared_hidden_information_check() {
    let (_d, game) = game();
    let actions = ["scan", "announce", "check", "conceal", "shuffle", "pass"];
    let mut states = vec![after(&game, &[])];
    for depth in 0..3 {
        let mut next = vec![];
        for state in &states {
            boardscript_tests::check_views(state).unwrap();
            for a in actions {
                let mut s = state.clone();
                game.apply(&mut s, depth % 3, a).unwrap();
                next.push(s);
            }
        }
        states = next;
    }
    states
        .iter()
        .try_for_each(boardscript_tests::check_views)
        .unwrap();
}
