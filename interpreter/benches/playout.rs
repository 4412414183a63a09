//! Random playouts of Virus Wars (11x11) through the scripts, beside a native Rust playout of
//! the same rules as the speed-of-light baseline; random playouts of the three classic games
//! that `bench/peers` measures against OpenSpiel (Connect Four, Breakthrough, Hex 11x11); plus
//! the engine's per-step building blocks (state clone, decisions + play, legal actions) on a
//! mid-game state.
//!
//! Before measuring, both implementations play the same seeds and must finish with exactly
//! one winner in a plausible number of actions; their mean lengths are printed. The native
//! playout lists legal cells in index order and draws from the bot RNG exactly as
//! `bots::random::choose` does, so while the engine keeps that order the two play the very
//! same games move for move (reported as a count, not asserted).

use boardscript_interpreter::bots::random;
use boardscript_interpreter::primitives::rng::{self, GameRng};
use boardscript_interpreter::{Game, Setup, State};
use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BatchSize, BenchmarkGroup, Criterion, Throughput,
};
use std::hint::black_box;

mod support;
use std::time::Duration;

/// The allocator `boardscript` runs with (repl/src/main.rs), so figures match `sim`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const W: usize = 11;
const H: usize = 11;
const N: usize = W * H;
const STEPS: usize = 5;
const MAX_ACTIONS: usize = 10_000;

// ---------------------------------------------------------------------------------------
// Native Virus Wars: cells indexed y * W + x (a1 = 0, bottom-left), as the engine's grid.

const EMPTY: u8 = 0;
/// Live virus of seat s is `LIVE + s`, its zombie `ZOMBIE + s` (seat 0 blue, 1 red).
const LIVE: u8 = 1;
const ZOMBIE: u8 = 3;

struct Native {
    /// The up-to-8 neighbours of each cell.
    nbrs: Vec<Vec<u8>>,
    board: [u8; N],
    placed: [bool; 2],
    turn: usize,
    steps_left: usize,
    // Scratch reused between steps.
    region: [bool; N],
    mark: [bool; N],
    queue: Vec<u8>,
    legal: Vec<u8>,
}

impl Native {
    fn new() -> Native {
        let nbrs = (0..N)
            .map(|i| {
                let (x, y) = ((i % W) as i32, (i / W) as i32);
                let mut v = vec![];
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let (nx, ny) = (x + dx, y + dy);
                        if (dx, dy) != (0, 0)
                            && (0..W as i32).contains(&nx)
                            && (0..H as i32).contains(&ny)
                        {
                            v.push((ny as usize * W + nx as usize) as u8);
                        }
                    }
                }
                v
            })
            .collect();
        Native {
            nbrs,
            board: [EMPTY; N],
            placed: [false; 2],
            turn: 0,
            steps_left: STEPS,
            region: [false; N],
            mark: [false; N],
            queue: Vec::with_capacity(N),
            legal: Vec::with_capacity(N),
        }
    }

    fn reset(&mut self) {
        self.board = [EMPTY; N];
        self.placed = [false; 2];
        self.turn = 0;
        self.steps_left = STEPS;
    }

    /// Fills `self.legal` with the cells the seat to move may act on, in index order.
    fn legal_actions(&mut self) {
        let seat = self.turn as u8;
        let (live, zombie, enemy) = (LIVE + seat, ZOMBIE + seat, LIVE + 1 - seat);
        self.legal.clear();
        if !self.placed[self.turn] {
            // Edge rule: an empty cell of the seat's own edge column.
            let x = if seat == 0 { 0 } else { W - 1 };
            self.legal.extend(
                (0..H)
                    .map(|y| (y * W + x) as u8)
                    .filter(|&c| self.board[c as usize] == EMPTY),
            );
            return;
        }
        // Sources: flood from own live viruses through own live viruses and zombies.
        self.region = [false; N];
        self.mark = [false; N];
        self.queue.clear();
        for i in 0..N {
            if self.board[i] == live {
                self.region[i] = true;
                self.queue.push(i as u8);
            }
        }
        let mut k = 0;
        while k < self.queue.len() {
            let i = self.queue[k] as usize;
            k += 1;
            for &n in &self.nbrs[i] {
                let v = self.board[n as usize];
                if !self.region[n as usize] && (v == live || v == zombie) {
                    self.region[n as usize] = true;
                    self.queue.push(n);
                }
            }
        }
        // Targets: empty cells and enemy live viruses next to a source.
        for &i in &self.queue {
            for &n in &self.nbrs[i as usize] {
                let v = self.board[n as usize];
                if v == EMPTY || v == enemy {
                    self.mark[n as usize] = true;
                }
            }
        }
        self.legal
            .extend((0..N as u8).filter(|&c| self.mark[c as usize]));
    }

    fn apply(&mut self, cell: u8) {
        let seat = self.turn as u8;
        let c = &mut self.board[cell as usize];
        if *c == EMPTY {
            *c = LIVE + seat;
            self.placed[self.turn] = true;
        } else {
            *c = ZOMBIE + seat;
        }
        self.steps_left -= 1;
        if self.steps_left == 0 {
            self.turn = 1 - self.turn;
            self.steps_left = STEPS;
        }
    }

    /// A uniformly random playout from the start; returns (actions played, winner).
    fn playout(&mut self, rng: &mut GameRng) -> (usize, usize) {
        self.reset();
        for n in 0..MAX_ACTIONS {
            self.legal_actions();
            if self.legal.is_empty() {
                return (n, 1 - self.turn);
            }
            // Same draws as `random::choose`: a deciding seat (one here), then an action.
            let _ = rng::below(rng, 1);
            let cell = self.legal[rng::below(rng, self.legal.len())];
            self.apply(cell);
        }
        panic!("native playout did not end after {MAX_ACTIONS} actions");
    }
}

// ---------------------------------------------------------------------------------------
// Scripted side.

fn load() -> Game {
    load_game("virus-wars")
}

fn load_game(id: &str) -> Game {
    support::load(id)
}

/// The classic games of `bench/peers`, written with OpenSpiel's rules; elements/s is games/s,
/// to set beside the targets in the README (Benchmarks).
const CLASSICS: [&str; 3] = ["connect-four", "breakthrough", "hex"];

fn start(game: &Game, seed: u64) -> State {
    game.start(&Setup {
        seed,
        ..Setup::default()
    })
    .expect("the game starts")
}

/// One random playout from a fresh start; returns (actions played, winners).
fn scripted_playout(game: &Game, seed: u64) -> (usize, Vec<usize>) {
    let mut state = start(game, seed);
    let mut bot = rng::seeded(seed);
    let n = random::playout(game, &mut state, &mut bot, MAX_ACTIONS).expect("playout ends");
    (n, game.winners(&state).expect("winners"))
}

fn sanity(game: &Game) {
    const GAMES: u64 = 50;
    let plausible = 10..=2 * N;
    let mut native = Native::new();
    let (mut sum_s, mut sum_n, mut same) = (0, 0, 0);
    for seed in 0..GAMES {
        let (len_s, winners) = scripted_playout(game, seed);
        assert_eq!(
            winners.len(),
            1,
            "scripted seed {seed}: winners {winners:?}"
        );
        assert!(
            plausible.contains(&len_s),
            "scripted seed {seed}: {len_s} actions"
        );
        let (len_n, winner) = native.playout(&mut rng::seeded(seed));
        assert!(
            plausible.contains(&len_n),
            "native seed {seed}: {len_n} actions"
        );
        assert!(winner < 2);
        sum_s += len_s;
        sum_n += len_n;
        same += usize::from(len_s == len_n && winners[0] == winner);
    }
    println!(
        "sanity: {GAMES} games each, mean length scripted {:.1}, native {:.1}; \
         {same}/{GAMES} seeds gave the same length and winner",
        sum_s as f64 / GAMES as f64,
        sum_n as f64 / GAMES as f64,
    );
}

// ---------------------------------------------------------------------------------------

/// A group with modest timing, so the whole bench runs in about a minute.
fn timed_group<'a>(c: &'a mut Criterion, name: &str, secs: u64) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(secs));
    g
}

fn benches(c: &mut Criterion) {
    let game = load();
    sanity(&game);

    let mut group = timed_group(c, "playout", 5);
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function("virus-wars-11x11/scripted", |b| {
        b.iter(|| {
            seed += 1;
            black_box(scripted_playout(&game, seed))
        })
    });
    let mut native = Native::new();
    let mut seed = 0u64;
    group.bench_function("virus-wars-11x11/native", |b| {
        b.iter(|| {
            seed += 1;
            black_box(native.playout(&mut rng::seeded(seed)))
        })
    });
    group.finish();

    let mut group = timed_group(c, "classics", 5);
    group.throughput(Throughput::Elements(1));
    for id in CLASSICS {
        let classic = load_game(id);
        let mut seed = 0u64;
        group.bench_function(id, |b| {
            b.iter(|| {
                seed += 1;
                let (length, winners) = scripted_playout(&classic, seed);
                assert!(length > 0 && winners.len() <= 1);
                black_box(length)
            })
        });
    }
    group.finish();

    let mid = support::mid_game(
        &game,
        &Setup {
            seed: 7,
            ..Setup::default()
        },
        60,
    );
    let seat = game.to_decide(&mid).expect("to_decide")[0];

    let mut group = timed_group(c, "state", 3);
    group.bench_function("clone", |b| b.iter(|| black_box(&mid).clone()));
    group.finish();

    let mut group = timed_group(c, "apply", 3);
    let mut bot = rng::seeded(99);
    group.bench_function("step", |b| {
        b.iter_batched(
            || mid.clone(),
            |mut state| {
                let d = game.decisions(&state).unwrap();
                let (s, action) = random::choose(&d, &mut bot).unwrap();
                game.play(&mut state, &d, s, &action).unwrap();
                state
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();

    let mut group = timed_group(c, "legal", 3);
    group.bench_function("virus-wars-11x11", |b| {
        b.iter(|| game.legal_actions(black_box(&mid), seat).unwrap())
    });
    group.finish();
}

criterion_group!(playout, benches);
criterion_main!(playout);
