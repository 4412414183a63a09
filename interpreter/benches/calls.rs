//! The fixed costs of scripts: one protocol call of an empty function (`fn noop(g) {}`), one
//! native call from a script (`g.seat_count()`), one call of a script helper, and reading a
//! top-level constant inside a function.
//!
//! `cargo bench -p boardscript-interpreter --bench calls` measures time.
//! KIND is one of noop, plain, native, scripted, constant, literal. For instruction
//! counts, run the built bench binary with `CALLS=<n> KIND=<kind>` under callgrind twice (two
//! values of n) and divide the difference by the difference in calls: that cancels loading.

use boardscript_interpreter::script::{Limits, Rules, Source};
use boardscript_interpreter::State;
use criterion::Criterion;
use rhai::Dynamic;
use std::hint::black_box;

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
"#;

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
            text: "const LIMIT = 100;".into(),
        });
    }
    Rules::compile(sources, Limits::default(), &[]).expect("compiles")
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
        if kind == "constant" {
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
    for function in ["noop", "plain", "native", "scripted", "constant", "literal"] {
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
