//! Issue 21: the list built-ins games used to write themselves: `join(list, sep)`,
//! `choose(list, k)` (every k-element combination) and `distinct(list)`, native and bounded by
//! the call's limits.

use boardscript_interpreter::{Match, Setup};
use boardscript_tests::{inline_game, Table};

/// A game whose one seat keeps two of its cards: the options are `choose`'s pairs, written
/// with `join`, without repeats of the same pair of names (`distinct`).
const KEEP: &str = r#"
fn setup(g) { g.set("hand", ["ace", "king", "king", "two"]); }
fn legal_actions(g, seat) {
    if g.has("kept") { return []; }
    distinct(choose(g.get("hand"), 2).map(|pair| "keep " + pair.join(" ")))
}
fn apply(g, seat, action) {
    let kept = words(action);
    kept.remove(0);
    g.set("kept", kept);
    g.log(`${seat} keeps ${join(kept, " and ")}`);
}
fn winners(g) { [] }
"#;

const SOLO: &str = "[seats]\nnames = [\"solo\"]\n";

fn keep_game(manifest: &str) -> (tempfile::TempDir, Match) {
    let (dir, game) = inline_game("keep", manifest, KEEP);
    let m = Match::new(game.unwrap(), Setup::default()).unwrap();
    (dir, m)
}

fn eval(m: &Match, expr: &str) -> String {
    m.game
        .eval(&m.state, expr)
        .unwrap_or_else(|e| panic!("eval {expr}: {e}"))
}

fn eval_err(m: &Match, expr: &str) -> String {
    match m.game.eval(&m.state, expr) {
        Ok(v) => panic!("eval {expr} gave {v}, not an error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn keep_two_options_are_combinations_without_repeats() {
    let (_dir, mut m) = keep_game(SOLO);
    let legal = m.game.decisions(&m.state).unwrap().seats[0].1.clone();
    let legal: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
    assert_eq!(
        legal,
        [
            "keep ace king",
            "keep ace two",
            "keep king king",
            "keep king two"
        ]
    );
    m.play(Some("solo"), "keep king two").unwrap();
    let log: Vec<&str> = m.state.log.iter().map(|e| e.text.as_str()).collect();
    assert!(log.contains(&"solo keeps king and two"), "{log:?}");
}

#[test]
fn join_writes_each_item_as_interpolation_does() {
    let (_dir, m) = keep_game(SOLO);
    assert_eq!(eval(&m, r#"join(["a", "b", "c"], ", ")"#), r#""a, b, c""#);
    assert_eq!(
        eval(&m, r#"[1, "x", true, 'c'].join("-")"#),
        r#""1-x-true-c""#
    );
    assert_eq!(eval(&m, r#"join([], "-")"#), r#""""#);
    assert_eq!(eval(&m, r#"join([[1, 2], 2.5], "; ")"#), r#""[1, 2]; 2.5""#);
    // The same text a script's own `${x}` loop writes.
    assert_eq!(
        eval(
            &m,
            r#"{ let a = [1, [2], "x", ()]; let s = ""; for x in a { s += `${x}|`; } s == join(a, "|") + "|" }"#
        ),
        "true"
    );
}

#[test]
fn join_writes_cards_by_name() {
    let t = Table::new("virus-war-fr").seed(3).seats(2).start();
    assert_eq!(
        t.eval(r#"g.zone("hand", "p1").cards().join(" ")"#),
        t.eval(r#"g.zone("hand", "p1").cards().map(|c| c.name).join(" ")"#)
    );
}

#[test]
fn choose_lists_every_combination_in_order() {
    let (_dir, m) = keep_game(SOLO);
    assert_eq!(
        eval(&m, "choose([1, 2, 3, 4], 2)"),
        "[[1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]]"
    );
    assert_eq!(eval(&m, "choose([1, 2, 3], 3)"), "[[1, 2, 3]]");
    assert_eq!(eval(&m, "choose([1, 2, 3], 0)"), "[[]]");
    assert_eq!(eval(&m, "choose([1, 2], 3)"), "[]");
    assert_eq!(
        eval(&m, "[\"a\", \"b\", \"c\"].choose(1)"),
        r#"[["a"], ["b"], ["c"]]"#
    );
    assert_eq!(
        eval_err(&m, "choose([1, 2], -1)"),
        "eval:1:1: in `eval`: choose: k must be 0 or more, not -1"
    );
}

/// 30 items taken 15 at a time are 155 million combinations: refused at once, before any is
/// built, with the count and the limit it breaks.
#[test]
fn choose_refuses_more_combinations_than_an_array_holds() {
    let (_dir, m) = keep_game(SOLO);
    let thirty = "{ let a = []; for i in 0..30 { a.push(i) } a }";
    assert_eq!(
        eval_err(&m, &format!("choose({thirty}, 15)")),
        "eval:1:1: in `eval`: choose: 15 of 30 items make 155117520 combinations; an array holds at most 3125 of 15 (array_size 50000, each counting 16 elements)"
    );
    // Far past what any number type holds.
    let hundred = "{ let a = []; for i in 0..100 { a.push(i) } a }";
    let e = eval_err(&m, &format!("choose({hundred}, 50)"));
    assert!(
        e.contains("choose: 50 of 100 items make 100891344545564193334812497256 combinations"),
        "{e}"
    );
    // Items that are arrays are copied whole into each combination: counted before any is.
    let wide = "{ let a = []; for i in 0..10 { let row = []; row.pad(1000, i); a.push(row) } a }";
    assert_eq!(
        eval_err(&m, &format!("choose({wide}, 2)")),
        "eval:1:1: in `eval`: choose: the 45 combinations of 2 would hold 90135 elements in all (the items hold arrays or maps), more than array_size 50000"
    );
    assert_eq!(eval(&m, &format!("choose({wide}, 1).len()")), "10");
    // A game's lower `array_size` is the bound.
    let (_dir, small) = keep_game(&format!("{SOLO}[limits]\narray_size = 30\n"));
    assert_eq!(eval(&small, "choose([1, 2, 3, 4, 5], 2).len()"), "10");
    assert_eq!(
        eval_err(&small, "choose([1, 2, 3, 4, 5, 6], 2)"),
        "eval:1:1: in `eval`: choose: 2 of 6 items make 15 combinations; an array holds at most 10 of 2 (array_size 30, each counting 3 elements)"
    );
}

#[test]
fn distinct_keeps_first_occurrences_in_order() {
    let (_dir, m) = keep_game(SOLO);
    assert_eq!(
        eval(&m, r#"distinct([3, 1, 3, "a", "a", 'a', true, true, 2])"#),
        r#"[3, 1, "a", true, 2]"#
    );
    assert_eq!(
        eval(
            &m,
            "distinct([[1, 2], [1, 2], [2, 1], #{a: 1}, #{a: 1}, 1.5, 1.5])"
        ),
        "[[1, 2], [2, 1], #{\"a\": 1}, 1.5]"
    );
    assert_eq!(eval(&m, "[].distinct()"), "[]");
    let t = Table::new("virus-war-fr").seed(3).seats(2).start();
    assert_eq!(
        t.eval(r#"{ let c = g.zone("hand", "p1").cards(); distinct([c[0], c[1], c[0]]).len() }"#),
        "2"
    );
}

/// `join` stops at the string limit while it builds, with its own name in the error.
#[test]
fn join_refuses_text_past_the_string_limit() {
    let (_dir, m) = keep_game(&format!("{SOLO}[limits]\nstring_size = 20\n"));
    assert_eq!(
        eval_err(&m, r#"join(["0123456789", "0123456789", "x"], "")"#),
        "eval:1:1: in `eval`: join: the text would be longer than the limit of 20 bytes"
    );
}

/// An error in a built-in called from the rules names the script's file, line and column.
#[test]
fn a_refused_built_in_names_its_call_site() {
    let rules = KEEP.replace("choose(g.get(\"hand\"), 2)", "choose(g.get(\"hand\"), -2)");
    let (_dir, game) = inline_game("keep", SOLO, &rules);
    let m = Match::new(game.unwrap(), Setup::default()).unwrap();
    let e = m.game.decisions(&m.state).err().map(|e| e.to_string());
    let e = e.expect("legal_actions fails");
    assert!(
        e.ends_with("rules.rhai:5:14: in `legal_actions`: choose: k must be 0 or more, not -2"),
        "{e}"
    );
}
