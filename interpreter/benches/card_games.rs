//! Random playouts per second of the two Virus War card games at 4 seats, through the scripts:
//! the French game (`virus-war-fr`, reaction windows; also in its co-op mode) and the Korean
//! rule sheet's (`virus-war-kr`, simultaneous choices). Plus the cost of one seat's view, which
//! tests and bots build often.
//!
//! Before measuring, each game plays a few seeds that must end with a winner; the mean length
//! in actions is printed, so playouts per second convert to actions per second.

use boardscript_interpreter::bots::random;
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::{Game, Setup};
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use std::collections::BTreeMap;
use std::hint::black_box;

mod support;
use std::time::Duration;

/// The allocator `boardscript` runs with (repl/src/main.rs), so figures match `sim`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const MAX_ACTIONS: usize = 100_000;

/// Option pairs given to a game.
type Options = &'static [(&'static str, &'static str)];

/// (label, game, options), all at 4 seats.
const GAMES: [(&str, &str, Options); 3] = [
    ("virus-war-fr/4-seats", "virus-war-fr", &[]),
    (
        "virus-war-fr/4-seats-coop",
        "virus-war-fr",
        &[("coop", "true")],
    ),
    ("virus-war-kr/4-seats", "virus-war-kr", &[]),
];

fn setup(options: &[(&str, &str)], seed: u64) -> Setup {
    Setup {
        seats: Some(4),
        seed,
        options: options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<BTreeMap<_, _>>(),
        position: None,
    }
}

/// One random playout from a fresh start; returns (actions played, winners).
fn playout(game: &Game, options: &[(&str, &str)], seed: u64) -> (usize, Vec<usize>) {
    let mut state = game.start(&setup(options, seed)).expect("starts");
    let mut bot = rng::seeded(seed);
    let n = random::playout(game, &mut state, &mut bot, MAX_ACTIONS).expect("playout ends");
    (n, game.winners(&state).expect("winners"))
}

fn sanity(label: &str, game: &Game, options: &[(&str, &str)]) {
    const SEEDS: u64 = 20;
    let mut sum = 0;
    for seed in 0..SEEDS {
        let (len, winners) = playout(game, options, seed);
        assert!(!winners.is_empty(), "{label} seed {seed}: no winner");
        sum += len;
    }
    println!(
        "sanity: {label}: {SEEDS} games, mean length {:.1} actions",
        sum as f64 / SEEDS as f64
    );
}

/// A group with modest timing, so the whole bench runs in about a minute.
fn timed_group<'a>(c: &'a mut Criterion, name: &str, secs: u64) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(secs));
    g
}

fn benches(c: &mut Criterion) {
    let games: Vec<Game> = GAMES.iter().map(|(_, id, _)| support::load(id)).collect();
    for ((label, _, options), game) in GAMES.iter().zip(&games) {
        sanity(label, game, options);
    }

    let mut group = timed_group(c, "playout", 8);
    group.throughput(Throughput::Elements(1));
    for ((label, _, options), game) in GAMES.iter().zip(&games) {
        let mut seed = 0u64;
        group.bench_function(*label, |b| {
            b.iter(|| {
                seed += 1;
                black_box(playout(game, options, seed))
            })
        });
    }
    group.finish();

    let mut group = timed_group(c, "view", 3);
    for (id, game) in [("virus-war-fr", &games[0]), ("virus-war-kr", &games[2])] {
        let mid = support::mid_game(game, &setup(&[], 7), 40);
        group.bench_function(format!("{id}/one-seat"), |b| {
            b.iter(|| black_box(&mid).view(Some(1)))
        });
    }
    group.finish();
}

criterion_group!(card_games, benches);
criterion_main!(card_games);
