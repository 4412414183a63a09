//! Nemesis (`scripts/nemesis`), the largest game: random playouts per second at 4 seats,
//! through the scripts, and the cost of one seat's view of a game in its middle (bots and
//! tests build one after every action).
//!
//! Before measuring, a few seeds must play to the end; the mean length in actions is
//! printed, so playouts per second convert to actions per second.

use boardscript_interpreter::bots::random;
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::{Game, Setup};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

mod support;
use std::time::Duration;

/// The allocator `boardscript` runs with (repl/src/main.rs), so figures match `sim`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const MAX_ACTIONS: usize = 100_000;
const SEATS: usize = 4;

fn setup(seed: u64) -> Setup {
    Setup {
        seats: Some(SEATS),
        seed,
        options: Default::default(),
        position: None,
    }
}

/// One random playout from a fresh start; returns the actions played.
fn playout(game: &Game, seed: u64) -> usize {
    let mut state = game.start(&setup(seed)).expect("starts");
    let mut bot = rng::seeded(seed);
    random::playout(game, &mut state, &mut bot, MAX_ACTIONS).expect("playout ends")
}

fn benches(c: &mut Criterion) {
    let game = support::load("nemesis");
    const SEEDS: u64 = 10;
    let total: usize = (0..SEEDS).map(|seed| playout(&game, seed)).sum();
    println!(
        "sanity: nemesis/{SEATS}-seats: {SEEDS} games, mean length {:.1} actions",
        total as f64 / SEEDS as f64
    );

    let mut group = c.benchmark_group("nemesis");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function(format!("playout/{SEATS}-seats"), |b| {
        b.iter(|| {
            seed += 1;
            black_box(playout(&game, seed))
        })
    });
    group.throughput(Throughput::Elements(1));
    let mid = support::mid_game(&game, &setup(7), 60);
    group.bench_function("view/one-seat", |b| {
        b.iter(|| black_box(&mid).view(Some(1)))
    });
    group.finish();
}

criterion_group!(nemesis, benches);
criterion_main!(nemesis);
