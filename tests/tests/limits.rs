//! Issue 20: resource limits that hold across values and calls. A frozen value cannot grow
//! past what one call may copy, walking or comparing data is paid from the call's work budget,
//! and a game's whole state has a budget checked when an action commits.

use boardscript_interpreter::{Game, Setup};
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
