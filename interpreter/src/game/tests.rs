//! Issue 10: a stored end of game (items 9, 17), declared phases (item 10) and a checked
//! `accept` (item 11), on small games written for the test.

use super::*;

/// Loads a game of seats a and b from `manifest` (added to the seats) and `rules`.
fn load_game(manifest: &str, rules: &str) -> Result<(tempfile::TempDir, Game), ScriptError> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("game.toml"),
        format!("{manifest}\n[seats]\nnames = [\"a\", \"b\"]\n"),
    )
    .unwrap();
    std::fs::write(dir.path().join("rules.rhai"), rules).unwrap();
    let game = Game::load(dir.path(), "t")?;
    Ok((dir, game))
}

fn start(game: &Game) -> State {
    game.start(&Setup::default()).unwrap()
}

/// Seats take turns playing `x`; `apply` runs `on_apply` after counting the action in `n`.
/// `to_decide` never ends the game and `winners` is [] until the counter reaches 9.
fn counting(on_apply: &str) -> String {
    format!(
        "fn setup(g) {{ }}\n\
         fn to_decide(g) {{ [g.turn()] }}\n\
         fn legal_actions(g, seat) {{ [\"x\"] }}\n\
         fn apply(g, seat, action) {{ g.add_counter(\"n\", 1); {on_apply} g.next_turn(); }}\n\
         fn winners(g) {{ if g.counter(\"n\") >= 9 {{ [\"a\"] }} else {{ [] }} }}\n"
    )
}

/// Item 9: `g.end_game` ends the game whatever `to_decide` says: nobody decides, the stored
/// winners and reason answer `winners` and `outcome`, and no action applies after it.
#[test]
fn i10_end_game_ends_the_game_with_its_winners_and_reason() {
    let (_d, game) = load_game(
        "",
        &counting(r#"if g.counter("n") == 2 { g.end_game(["b"], "two steps"); }"#),
    )
    .unwrap();
    let mut state = start(&game);
    game.apply(&mut state, 0, "x").unwrap();
    assert!(!game.is_over(&state).unwrap());
    assert_eq!(game.outcome(&state).unwrap().reason, "");
    game.apply(&mut state, 1, "x").unwrap();
    assert!(game.is_over(&state).unwrap());
    assert_eq!(game.winners(&state).unwrap(), [1]);
    assert_eq!(
        game.outcome(&state).unwrap(),
        Outcome {
            winners: vec![1],
            reason: "two steps".into()
        }
    );
    let before = state.clone();
    assert!(matches!(
        game.apply(&mut state, 0, "x"),
        Err(PlayError::Over)
    ));
    assert_eq!(state, before);
    // The result is saved with the state, and a save without one (an older save) loads.
    let json = state.to_json();
    assert_eq!(json["result"]["reason"], "two steps");
    let mut old = start(&game).to_json();
    assert!(old.get("result").is_none(), "{old}");
    old.as_object_mut().unwrap().remove("result");
    let loaded: State = serde_json::from_value(old).unwrap();
    assert_eq!(loaded.result, None);
}

/// Items 9 and 17: a draw or a co-operative loss is an end with no winners and a reason; an
/// unknown seat or a reason of several lines is a script error at its line. (A second
/// `end_game` in the same call is never reached: `tests/tests/end_game_call.rs`.)
#[test]
fn i10_end_game_without_winners_and_its_mistakes() {
    let (_d, game) = load_game("", &counting(r#"g.end_game("draw");"#)).unwrap();
    let mut state = start(&game);
    game.apply(&mut state, 0, "x").unwrap();
    assert!(game.is_over(&state).unwrap());
    assert_eq!(
        game.outcome(&state).unwrap(),
        Outcome {
            winners: vec![],
            reason: "draw".into()
        }
    );
    for (call, why) in [
        (r#"g.end_game(["c"], "x");"#, "no seat `c`"),
        (r#"g.end_game(["a", "a"], "x");"#, "twice"),
        (r#"g.end_game("two\nlines");"#, "one line"),
    ] {
        let (_d, game) = load_game("", &counting(call)).unwrap();
        let mut state = start(&game);
        let err = game.apply(&mut state, 0, "x").unwrap_err().to_string();
        assert!(
            err.contains("rules.rhai:4:") && err.contains(why),
            "{call}: {err}"
        );
        assert_eq!(state.result, None);
    }
}

/// Item 9 (with simultaneous choices): once a choice ends the game, the held choices after it
/// are not applied.
#[test]
fn i10_no_held_choice_is_applied_after_the_end() {
    let (_d, game) = load_game(
        "",
        "fn setup(g) { }\n\
         fn to_decide(g) { g.seats() }\n\
         fn legal_actions(g, seat) { [\"x\"] }\n\
         fn apply(g, seat, action) { g.add_counter(seat, \"played\", 1); g.end_game([seat], \"first\"); }\n\
         fn winners(g) { [] }\n",
    )
    .unwrap();
    let mut state = start(&game);
    game.apply(&mut state, 1, "x").unwrap();
    game.apply(&mut state, 0, "x").unwrap();
    assert_eq!(game.winners(&state).unwrap(), [0]);
    assert_eq!(state.seat_counters[1].get("played"), None);
}

const PHASED: &str = "fn setup(g) { }\n\
     fn legal_actions(g, seat) { [\"x\"] }\n\
     fn apply(g, seat, action) { g.set_counter(\"plain\", 1); g.set_phase(\"PHASE\"); }\n\
     fn fight_apply(g, seat, action) { g.set_counter(\"fight\", 1); }\n\
     fn card_apply(g, seat, action) { g.set_counter(\"card\", 1); }\n\
     fn winners(g) { [] }\n";

/// Item 10: only a declared phase has phase functions; `card_apply` is a helper when `card`
/// is not a phase, whatever its parameters.
#[test]
fn i10_only_declared_phases_have_phase_functions() {
    let rules = PHASED.replace("PHASE", "fight");
    let (_d, game) = load_game("phases = [\"fight\"]", &rules).unwrap();
    let mut state = start(&game);
    game.apply(&mut state, 0, "x").unwrap();
    assert_eq!(state.phase, "fight");
    game.apply(&mut state, 0, "x").unwrap();
    assert_eq!(state.counters.get("fight"), Some(&1));
    assert_eq!(state.counters.get("card"), None);
    // A two-parameter helper named like a phase function loads when `card` is no phase.
    let helper = PHASED
        .replace("card_apply(g, seat, action)", "card_apply(g, n)")
        .replace("PHASE", "");
    assert!(game_loads("phases = [\"fight\"]", &helper));
    assert!(game_loads("", &helper));
}

fn game_loads(manifest: &str, rules: &str) -> bool {
    load_game(manifest, rules).is_ok()
}

/// Item 10: a declared phase whose function has the wrong parameters is a load error at the
/// function's line; a phase `set_phase` does not know is a script error at the call's line,
/// listing the phases.
#[test]
fn i10_phase_mistakes_are_errors_at_their_line() {
    let rules = PHASED.replace("card_apply(g, seat, action)", "card_apply(g, n)");
    let err = load_game("phases = [\"card\"]", &rules)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("rules.rhai:5:1: `card_apply`"), "{err}");
    assert!(err.contains("takes 3 parameters"), "{err}");

    let rules = PHASED.replace("PHASE", "figt");
    let (_d, game) = load_game("phases = [\"fight\", \"card\"]", &rules).unwrap();
    let mut state = start(&game);
    let err = game.apply(&mut state, 0, "x").unwrap_err().to_string();
    assert!(
        err.contains("rules.rhai:3:") && err.contains("no phase `figt`; phases: fight, card"),
        "{err}"
    );
    assert_eq!(state.phase, "");
    // A game that declares no phase: every phase but "" is refused, saying how to declare.
    let rules = PHASED.replace("PHASE", "fight");
    let (_d, game) = load_game("", &rules).unwrap();
    let mut state = start(&game);
    let err = game.apply(&mut state, 0, "x").unwrap_err().to_string();
    assert!(err.contains("phases = [...]"), "{err}");
    let rules = PHASED.replace("PHASE", "");
    let (_d, game) = load_game("", &rules).unwrap();
    game.apply(&mut start(&game), 0, "x").unwrap();
}

/// Rules listing `take 1` and `take 2`, with an `accept` whose body is `body`.
fn accepting(body: &str) -> (tempfile::TempDir, Game) {
    load_game(
        "",
        &format!(
            "fn setup(g) {{ }}\n\
             fn legal_actions(g, seat) {{ [\"take 1\", \"take 2\"] }}\n\
             fn apply(g, seat, action) {{ g.set(\"took\", action); }}\n\
             fn winners(g) {{ [] }}\n\
             fn accept(g, seat, action) {{ {body} }}\n"
        ),
    )
    .unwrap()
}

/// Item 11: what `accept` returns is applied only if it is notation and either listed, the
/// action as typed, or a form `accept` accepts as it is; anything else is an error naming the
/// script file, and the state is unchanged.
#[test]
fn i10_what_accept_returns_is_checked() {
    let took = |game: &Game, typed: &str| {
        let mut state = start(game);
        let before = state.clone();
        let result = game.apply(&mut state, 0, typed);
        if result.is_err() {
            assert_eq!(state, before, "{typed}");
        }
        result.map(|_| state.vars["took"].value.to_string())
    };
    // Typed as it is, or a listed action.
    let (_d, game) = accepting("if action == \"take 1+2\" { action } else { \"take 2\" }");
    assert_eq!(took(&game, "take 1+2").unwrap(), "take 1+2");
    assert_eq!(took(&game, "take 9").unwrap(), "take 2");
    // A canonical form of what was typed, which `accept` accepts as it is.
    let (_d, game) =
        accepting("if action == \"take 1+2\" || action == \"take 3\" { \"take 3\" } else { () }");
    assert_eq!(took(&game, "take 1+2").unwrap(), "take 3");
    // A buggy `accept`: a form it refuses itself, one it would turn into a third, garbage.
    for body in [
        "if action == \"take 1+2\" { \"take 3\" } else { () }",
        "if action == \"take 1+2\" { \"take 3\" } else { \"take 4\" }",
        "if action == \"take 1+2\" { \"take 3\" } else { #{refuse: \"no\"} }",
        "\"\"",
        "\"take  3\"",
        "\"@a take 3\"",
    ] {
        let (_d, game) = accepting(body);
        let err = took(&game, "take 1+2").unwrap_err().to_string();
        assert!(
            err.contains("rules.rhai: `accept` returned "),
            "{body}: {err}"
        );
    }
}

/// A seat index the game does not have is an error naming the seats, never a panic, and it
/// changes nothing (issue 24: checked seats).
#[test]
fn a_seat_out_of_range_is_an_error() {
    let (_d, game) = load_game(
        "",
        "fn setup(g) { }\n\
         fn legal_actions(g, seat) { [\"x\"] }\n\
         fn apply(g, seat, action) { g.next_turn(); }\n\
         fn winners(g) { [] }\n",
    )
    .unwrap();
    let mut state = start(&game);
    let before = state.clone();
    let n = state.seats.len();
    for err in [
        game.apply(&mut state, 99, "x").unwrap_err(),
        game.legal_actions(&state, n).unwrap_err(),
    ] {
        assert!(
            matches!(err, PlayError::NoSeat { seats, .. } if seats == n),
            "{err}"
        );
        assert!(err.to_string().starts_with("there is no seat "), "{err}");
    }
    assert_eq!(state, before);
}
