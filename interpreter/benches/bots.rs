//! MCTS iterations per second from the opening of every shipped game: one move of N
//! iterations per sample, on one thread (and on two for Connect Four, root-parallel).
//! Information-set games pay for a determinization per iteration.
//!
//! `cargo bench -p boardscript-interpreter --bench bots -- --quick`

use boardscript_interpreter::bots::{self, BotEnv, BotSpec, SeatView};
use boardscript_interpreter::{GameSource, Setup};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

// Only `load` is used here.
#[allow(dead_code)]
mod support;

/// The allocator `boardscript` runs with (repl/src/main.rs), so figures match `sim`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// (game, iterations per move).
const GAMES: [(&str, u64); 9] = [
    ("connect-four", 200),
    ("breakthrough", 200),
    ("hex", 200),
    ("virus-wars", 200),
    ("fibs", 200),
    ("virus-war-kr", 200),
    ("virus-war-fr", 200),
    ("cosmic-disaster", 100),
    ("nemesis", 20),
];

fn source(id: &str) -> Arc<GameSource> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scripts")
        .join(id);
    Arc::new(GameSource::read(&dir, id).unwrap_or_else(|e| panic!("{id}: {e}")))
}

fn one_move(c: &mut Criterion, id: &str, iters: u64, threads: usize) {
    let game = support::load(id);
    let state = game.start(&Setup::default()).expect("the game starts");
    let decisions = game.decisions(&state).expect("decisions");
    let (seat, legal) = decisions.seats[0].clone();
    let view = SeatView::of(&state, seat);
    // No reuse: every sample searches the opening afresh.
    let spec = format!("mcts:iters={iters},threads={threads},reuse=false");
    let env = BotEnv {
        source: Some(source(id)),
        ..BotEnv::new(1)
    };
    let mut bot = bots::make(&BotSpec::parse(&spec).unwrap(), &env).unwrap();
    // A game the sampler cannot serve yet is reported and left out, not a failed run.
    if let Err(e) = bot.analyse(&game, &view, &legal) {
        eprintln!("mcts/{id}: left out: {e}");
        return;
    }
    let mut group = c.benchmark_group("mcts");
    group
        .throughput(Throughput::Elements(iters))
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    let label = match threads {
        1 => id.to_string(),
        n => format!("{id}/threads={n}"),
    };
    group.bench_function(label, |b| {
        b.iter(|| {
            bot.analyse(&game, &view, &legal)
                .unwrap_or_else(|e| panic!("{id}: {e}"))
        })
    });
    group.finish();
}

fn bench(c: &mut Criterion) {
    for (id, iters) in GAMES {
        one_move(c, id, iters, 1);
    }
    one_move(c, "connect-four", 200, 2);
}

criterion_group!(benches, bench);
criterion_main!(benches);
