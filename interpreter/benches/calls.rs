//! The fixed costs of scripts: one protocol call of an empty function (`fn noop(g) {}`), one
//! native call from a script (`g.seat_count()`), one call of a script helper, reading a
//! top-level constant inside a function, and reading one field of one row of a 400-row data
//! file: through a constant holding the rows (`ROWS[i].cost`), through a data path
//! (`data("deck", "card", i, "cost")`) and through a path to the row (`data(...).cost`).
//!
//! `cargo bench -p boardscript-interpreter --bench calls` measures time.
//! KIND is one of noop, plain, native, scripted, constant, literal, rows_constant, data_field,
//! data_row. For instruction
//! counts, run the built bench binary with `CALLS=<n> KIND=<kind>` under callgrind twice (two
//! values of n) and divide the difference by the difference in calls: that cancels loading.

use boardscript_interpreter::script::bindings::{Data, DataSet};
use boardscript_interpreter::script::{Limits, Rules, Source};
use boardscript_interpreter::value::Value;
use boardscript_interpreter::State;
use criterion::Criterion;
use rhai::Dynamic;
use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;

/// The allocator `boardscript` runs with (repl/src/main.rs), so figures match `sim`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Each loop makes 100 calls of one kind; `plain` is the bare loop to subtract.
const SCRIPT: &str = r#"
fn noop(g) { }
fn plain(g) { let n = 0; for i in 0..100 { n += i; } n }
fn native(g) { let n = 0; for i in 0..100 { n += g.seat_count(); } n }
fn helper(x) { x }
fn echo(g, x) { x }
fn scripted(g) { let n = 0; for i in 0..100 { n += helper(i); } n }
fn constant(g) { let n = 0; for i in 0..100 { n += LIMIT; } n }
fn literal(g) { let n = 0; for i in 0..100 { n += 100; } n }
fn rows_constant(g) { let n = 0; for i in 0..100 { n += ROWS[i * 3].cost; } n }
fn data_field(g) { let n = 0; for i in 0..100 { n += data("deck", "card", i * 3, "cost"); } n }
fn data_row(g) { let n = 0; for i in 0..100 { n += data("deck", "card", i * 3).cost; } n }
"#;

/// Rows in the benchmark's deck: a large game's biggest deck.
const DECK_ROWS: i64 = 400;

/// A deck of `DECK_ROWS` cards of seven fields, as a data file reads.
fn deck() -> DataSet {
    let card = |i: i64| {
        let text = |s: &str| Value::Str(format!("{s} {i}"));
        Value::Record(BTreeMap::from([
            ("name".into(), text("card")),
            ("kind".into(), text("kind")),
            (
                "text".into(),
                text("Deal one light wound to a character in the room"),
            ),
            ("cost".into(), Value::Int(i % 3)),
            ("copies".into(), Value::Int(1)),
            ("number".into(), Value::Int(i)),
            ("tags".into(), Value::List(vec![text("a"), text("b")])),
        ]))
    };
    let rows = Value::List((0..DECK_ROWS).map(card).collect());
    let file = Value::Record(BTreeMap::from([("card".into(), rows)]));
    Arc::new(BTreeMap::from([(
        "deck".to_string(),
        Data::from_value(&file),
    )]))
}

/// The script, and with `constants` an overlay defining `LIMIT` (a game without constants
/// pays nothing for them, so it is measured without).
fn rules(constants: bool) -> Rules {
    let mut sources = vec![Source {
        name: "calls.rhai".into(),
        text: SCRIPT.into(),
    }];
    if constants {
        sources.push(Source {
            name: "constants.rhai".into(),
            text: "const LIMIT = 100;\nconst ROWS = data(\"deck\").card;".into(),
        });
    }
    Rules::compile_with_data(sources, Limits::default(), &[], deck()).expect("compiles")
}

fn state() -> State {
    State::new(vec!["a".into(), "b".into()], Default::default(), 1)
}

/// `n` calls of `function`, as the engine makes them (`call_read` clones the state).
fn run(rules: &Rules, state: &State, function: &str, n: usize) {
    for _ in 0..n {
        let _ = black_box(rules.call_read(state, function, &[]).expect("runs"));
    }
}

fn main() {
    let (rules, with_constants, state) = (rules(false), rules(true), state());
    let rules_for = |kind: &str| {
        if matches!(kind, "constant" | "rows_constant") {
            &with_constants
        } else {
            &rules
        }
    };
    if let Ok(n) = std::env::var("CALLS") {
        let kind = std::env::var("KIND").unwrap_or_else(|_| "noop".into());
        run(
            rules_for(&kind),
            &state,
            &kind,
            n.parse().expect("CALLS is a count"),
        );
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("calls");
    for function in [
        "noop",
        "plain",
        "native",
        "scripted",
        "constant",
        "literal",
        "rows_constant",
        "data_field",
        "data_row",
    ] {
        group.bench_function(function, |b| {
            b.iter(|| run(rules_for(function), &state, function, 1))
        });
    }
    group.bench_function("noop/in_a_game_with_constants", |b| {
        b.iter(|| run(&with_constants, &state, "noop", 1))
    });
    group.bench_function("noop/with_argument", |b| {
        let arg = [Dynamic::from(7_i64)];
        b.iter(|| black_box(rules.call_read(&state, "echo", &arg).expect("runs")))
    });
    group.finish();
    c.final_summary();
}
