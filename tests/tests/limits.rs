//! Issue 20: resource limits that hold across values and calls. A frozen value cannot grow
//! past what one call may copy, walking or comparing data is paid from the call's work budget,
//! and a game's whole state has a budget checked when an action commits.

use boardscript_interpreter::{Game, Match, PlayError, Setup, State};
use boardscript_tests::inline_game;

const MANIFEST: &str = "[seats]\nnames = [\"a\", \"b\"]\n";

/// A two-seat game whose only legal action is `go`; `apply` runs `effect` (with `g` in scope)
/// and `before` comes first (helper functions, constants).
fn game_with(before: &str, effect: &str) -> (tempfile::TempDir, Game) {
    let rules = format!(
        "{before}\nfn setup(g) {{}}\nfn legal_actions(g, seat) {{ [\"go\"] }}\n\
         fn apply(g, seat, action) {{ {effect} }}\nfn winners(g) {{ [] }}\n"
    );
    let (dir, game) = inline_game("g", MANIFEST, &rules);
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

/// The error `go` meets, with the state checked unchanged by it.
fn refusal(game: &Game) -> String {
    let mut state = game.start(&Setup::default()).unwrap();
    let before = state.clone();
    let err = game.apply(&mut state, 0, "go").unwrap_err().to_string();
    assert_eq!(state, before, "a refused action changed the state");
    err
}

/// Doubling a frozen value 40 times (the issue's `d = freeze([d, d])`) is refused once a copy
/// of it would weigh more than a call may spend, long before it is 2^40 entries.
#[test]
fn freeze_refuses_a_value_doubled_past_what_a_call_may_copy() {
    let (_dir, game) = game_with(
        "",
        "let d = freeze([1]); for i in 0..40 { d = freeze([d, d]); } d.copy();",
    );
    let err = refusal(&game);
    assert!(
        err.contains("rules.rhai:4:")
            && err.contains("`freeze`: this value would weigh")
            && err.contains("over the limit of 67108864"),
        "{err}"
    );
}

/// Nesting counts the levels of the data handles a value holds, not only the plain levels
/// down to the first handle.
#[test]
fn freeze_counts_the_levels_inside_the_handles_it_holds() {
    let (_dir, game) = game_with(
        "",
        "let d = freeze([1]); for i in 0..1000 { d = freeze([d]); }",
    );
    let err = refusal(&game);
    assert!(err.contains("nested more than 32 levels deep"), "{err}");
}

/// Each walk of a frozen value (copy, to_string) is paid from the call's budget: many copies
/// of a value that a call may copy once end in a clear error, not an unbounded allocation.
#[test]
fn walking_frozen_data_is_paid_from_the_call_budget() {
    let grow = "fn grown() { let d = freeze([1]); for i in 0..13 { d = freeze([d, d]); } d }";
    for (walk, function) in [
        ("d.copy().len()", "copy"),
        ("d.to_string().len()", "to_string"),
    ] {
        let (_dir, game) = game_with(
            grow,
            &format!("let d = grown(); let n = 0; for i in 0..1000 {{ n += {walk}; }}"),
        );
        let err = refusal(&game);
        assert!(
            err.contains(&format!("{function}: too much work in one call")),
            "{walk}: {err}"
        );
    }
}

/// Storing data in the state weighs it before building the copy: an array holding one
/// handle many times is refused for its weight.
#[test]
fn storing_many_copies_of_a_handle_is_refused_before_it_is_built() {
    let (_dir, game) = game_with(
        "fn grown() { let d = freeze([1]); for i in 0..15 { d = freeze([d, d]); } d }",
        "let d = grown(); let all = []; for i in 0..10000 { all.push(d); } g.set(\"k\", all);",
    );
    let err = refusal(&game);
    assert!(
        err.contains("cannot store `k`: it weighs more than the")
            && err.contains("units left of this call's work budget"),
        "{err}"
    );
}

/// Issue 20 item 2: writing a value into frozen data compares it with what is there (the
/// write-back of an unchanged value is let through). The 60 doublings are refused at
/// `freeze`; equal values built apart are compared on the call's budget, so comparing them
/// again and again ends in a clear error, never a hang.
#[test]
fn comparing_frozen_values_built_apart_is_bounded() {
    let (_dir, game) = game_with(
        "",
        "let a = freeze([1]); let b = freeze([1]);
         for i in 0..60 { a = freeze([a, a]); b = freeze([b, b]); }
         let x = freeze([a]); x[0] = b;",
    );
    assert!(refusal(&game).contains("`freeze`: this value would weigh"));
    let (_dir, game) = game_with(
        "",
        "let a = freeze([1]); let b = freeze([1]);
         for i in 0..14 { a = freeze([a, a]); b = freeze([b, b]); }
         let x = freeze([a]);
         for i in 0..1000 { x[0] = b; }",
    );
    let err = refusal(&game);
    assert!(
        err.contains("comparing data: too much work in one call"),
        "{err}"
    );
}

/// A top-level constant is bounded the same way: loading fails at its line, naming the limit.
#[test]
fn a_constant_doubled_past_the_limit_fails_to_load_at_its_line() {
    let rules = "fn grown() { let d = freeze([1]); for i in 0..40 { d = freeze([d, d]); } d }\n\
                 const D = grown();\n\
                 fn setup(g) {}\nfn legal_actions(g, seat) { [] }\nfn apply(g, seat, action) {}\n\
                 fn winners(g) { [] }\n";
    let (_dir, game) = inline_game("g", MANIFEST, rules);
    let err = game.err().expect("the constant should fail").to_string();
    assert!(
        err.contains("rules.rhai:1:") && err.contains("`freeze`: this value would weigh"),
        "{err}"
    );
}

/// A game whose every `go` stores a list of `n` numbers: under a new key each time
/// (`fresh`: the state grows), or always the same key (the state stays, its history grows).
fn hoarder(state_size: u64, n: usize, fresh: bool) -> (tempfile::TempDir, Game) {
    let key = if fresh { "`k${g.get(\"n\")}`" } else { "\"k\"" };
    let rules = format!(
        "fn setup(g) {{ g.set(\"n\", 0); }}\nfn legal_actions(g, seat) {{ [\"go\"] }}\n\
         fn apply(g, seat, action) {{ let row = []; row.pad({n}, g.get(\"n\")); g.set({key}, row); g.set(\"n\", g.get(\"n\") + 1); }}\n\
         fn winners(g) {{ [] }}\n"
    );
    let manifest = format!("{MANIFEST}\n[limits]\nstate_size = {state_size}\n");
    let (dir, game) = inline_game("g", &manifest, &rules);
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

/// Issue 20 item 3: each call is bounded, and so is their sum. The action that would take the
/// state past `state_size` is refused with an error naming the budget, and the match (state,
/// its actions, undo) is as it was.
#[test]
fn an_action_past_the_state_budget_is_refused_and_changes_nothing() {
    // 1,000 numbers weigh about 32,000 units: the fourth list is one too many.
    let (_dir, game) = hoarder(120_000, 1_000, true);
    let mut m = Match::new(game, Setup::default()).unwrap();
    for _ in 0..3 {
        m.play(None, "go").unwrap();
    }
    let (state, save) = (m.state.clone(), m.save_json());
    let err = m.play(None, "go").unwrap_err();
    assert!(
        matches!(
            err,
            PlayError::StateBudget {
                what: "state",
                budget: 120_000,
                weight,
            } if weight > 120_000
        ),
        "{err}"
    );
    assert!(
        err.to_string().contains(
            "over its budget of 120000 (`state_size` in [limits]); the action is refused"
        ),
        "{err}"
    );
    assert_eq!(m.state, state);
    assert_eq!(m.save_json(), save);
    assert_eq!(m.undo(5), 3);
}

/// Writing the same key again and again keeps the state small, but every earlier state is
/// kept for undo: the match counts what its history holds against the same budget.
#[test]
fn the_undo_history_counts_against_the_state_budget() {
    let (_dir, game) = hoarder(120_000, 1_000, false);
    let mut m = Match::new(game, Setup::default()).unwrap();
    let mut played = 0;
    let err = loop {
        match m.play(None, "go") {
            Ok(_) => played += 1,
            Err(e) => break e,
        }
        assert!(played < 10, "the history grew past its budget");
    };
    assert!(
        matches!(
            err,
            PlayError::StateBudget {
                what: "state and undo history",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(m.actions().len(), played);
    assert_eq!(m.undo(played), played);
}

/// `sim` and other playouts that play in place meet the same refusal.
#[test]
fn playouts_in_place_meet_the_state_budget() {
    let (_dir, game) = hoarder(120_000, 1_000, true);
    let mut state = game.start(&Setup::default()).unwrap();
    let err = (0..10)
        .find_map(|_| {
            let decisions = game.decisions(&state).unwrap();
            game.play_listed_in_place(&mut state, &decisions, 0, 0)
                .err()
        })
        .expect("the state grew past its budget");
    assert!(
        matches!(err, PlayError::StateBudget { what: "state", .. }),
        "{err}"
    );
}

/// A manifest may lower the state budget, not raise it past the cap or make it 0.
#[test]
fn the_state_budget_may_be_lowered_not_raised() {
    for (size, ok) in [
        (1u64, true),
        (1 << 30, true),
        ((1 << 30) + 1, false),
        (0, false),
    ] {
        let manifest = format!("{MANIFEST}\n[limits]\nstate_size = {size}\n");
        let rules = "fn setup(g) {}\nfn legal_actions(g, seat) { [] }\nfn apply(g, seat, action) {}\nfn winners(g) { [] }\n";
        let (_dir, game) = inline_game("g", &manifest, rules);
        match (game, ok) {
            (Ok(_), true) => {}
            (Err(e), false) => assert!(
                e.to_string().contains(&format!(
                    "[limits] state_size = {size}: must be from 1 to 1073741824"
                )),
                "{e}"
            ),
            (game, _) => panic!("state_size = {size}: {:?}", game.err()),
        }
    }
}

/// The weight kept up to date as the state changes is what measuring the state afresh
/// gives, all through seeded random games of every kind of state (cards, grids, graphs,
/// bags, script data, the agenda).
#[test]
fn the_state_weight_kept_up_to_date_matches_a_fresh_measure() {
    for id in [
        "virus-wars",
        "virus-war-fr",
        "cosmic-disaster",
        "nemesis",
        "hex",
    ] {
        let game = boardscript_tests::load(id);
        for seed in 0..3 {
            let mut state = game
                .start(&Setup {
                    seed,
                    ..Setup::default()
                })
                .unwrap();
            let mut rng = seed;
            for step in 0..150 {
                let decisions = game.decisions(&state).unwrap();
                let Some((seat, legal)) = decisions.seats.first() else {
                    break;
                };
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let pick = (rng >> 33) as usize % legal.len();
                game.play_listed(&mut state, &decisions, *seat, pick)
                    .unwrap();
                let kept = state.weigh();
                let mut fresh: State = serde_json::from_value(state.to_json()).unwrap();
                assert_eq!(kept, fresh.weigh(), "{id} seed {seed} step {step}");
            }
        }
    }
}
