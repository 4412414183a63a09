//! `boardscript arena`: a round robin between bots. Every pair of entrants plays `--games`
//! games, seats alternated; the report is a results table and Elo ratings with 95% intervals.
//!
//! The round robin is the engine's (`batch::arena`): game `i` belongs to pair `i % pairs` (so
//! a run stopped by Ctrl-C has played every pair about as often), on the shared worker pool
//! of `sim`, whose tally is a sum and so the same for any thread count.

use crate::cli::ArenaArgs;
use crate::sim::progress_bar;
use crate::stats::{self, Pairing};
use crate::{games, interrupt, lineup};
use boardscript_interpreter::batch::arena::pairs;
use boardscript_interpreter::batch::{Batch, Tally};
use boardscript_interpreter::BotSpec;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// More threads than this per core only adds compiles of the game (one per thread).
const THREADS_PER_CORE: usize = 4;

/// Virtual draws added to every pair for the Elo estimate, so an entrant that won every game
/// still gets a finite rating.
const PRIOR_DRAWS: f64 = 1.0;

pub fn arena(args: ArenaArgs) -> anyhow::Result<ExitCode> {
    let id = args.game.game.clone();
    let setup = args.game.setup(args.seed)?;
    let entrants = lineup::parse_plain(&args.bots).map_err(|e| anyhow::anyhow!("--bots: {e}"))?;
    for spec in &entrants {
        lineup::check(spec).map_err(|e| anyhow::anyhow!("--bots: {e}"))?;
    }
    if entrants.len() < 2 {
        anyhow::bail!("--bots: an arena needs at least two bots, as `random,mcts:iters=200`");
    }
    let pairs = pairs(entrants.len());
    let total = args.games.saturating_mul(pairs.len() as u64);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = args.threads.unwrap_or(cores).min(THREADS_PER_CORE * cores);
    let source = Arc::new(games::source(&args.game)?);
    let batch = Batch::new(source, setup)
        .threads(threads)
        .max_actions(args.max_actions);
    batch.seating()?; // a game that does not start is refused before the bar shows
    let bar = progress_bar(total, args.quiet);
    let stop = interrupt::flag();
    let progress = |n| {
        bar.set_position(n);
        !stop.load(Ordering::Relaxed)
    };
    let (tally, threads) = batch.arena(0..total, &entrants, &progress)?;
    bar.finish_and_clear();
    print_report(&args, &id, &entrants, &pairs, &tally, total, threads);
    let interrupted = tally.games < total;
    Ok(ExitCode::from(if interrupted {
        interrupt::EXIT_STATUS
    } else if tally.failed > 0 {
        1
    } else {
        0
    }))
}

fn print_report(
    args: &ArenaArgs,
    id: &str,
    entrants: &[BotSpec],
    pairs: &[(usize, usize)],
    t: &Tally,
    total: u64,
    threads: usize,
) {
    println!(
        "{id}: arena of {} bots, {} games per pair ({total} games), seed {}, {threads} thread(s)",
        entrants.len(),
        args.games,
        args.seed
    );
    if t.games < total {
        println!(
            "  interrupted (Ctrl-C) after {} of {total} games: the table holds those",
            t.games
        );
    }
    let names: Vec<String> = entrants
        .iter()
        .enumerate()
        .map(|(e, s)| format!("{}. {s}", e + 1))
        .collect();
    let width = names.iter().map(|n| n.chars().count()).fold(12, usize::max);
    println!("  pairs: wins, draws, losses of the first");
    let mut score = vec![0.0; entrants.len()];
    let mut played = vec![0u64; entrants.len()];
    let mut pairings = vec![];
    for (p, &(a, b)) in pairs.iter().enumerate() {
        let (w, d, l) = (t.wins[3 * p], t.wins[3 * p + 1], t.wins[3 * p + 2]);
        println!(
            "    {:<width$} vs {:<width$} {w:>5} {d:>5} {l:>5}",
            names[a], names[b]
        );
        score[a] += w as f64 + d as f64 / 2.0;
        score[b] += l as f64 + d as f64 / 2.0;
        played[a] += w + d + l;
        played[b] += w + d + l;
        pairings.push(Pairing {
            a,
            b,
            score: w as f64 + d as f64 / 2.0,
            games: (w + d + l) as f64,
        });
    }
    let r = stats::elo(entrants.len(), &pairings, PRIOR_DRAWS);
    println!(
        "  Elo (95% interval; {} anchored at 0; {PRIOR_DRAWS} virtual draw per pair):",
        names[0]
    );
    for e in 0..entrants.len() {
        let interval = if r.interval[e].is_finite() {
            format!("± {:.0}", r.interval[e])
        } else {
            "± ?".to_string()
        };
        println!(
            "    {:<width$} {:>+6.0} {interval:<7} score {:.1} of {}",
            names[e], r.elo[e], score[e], played[e]
        );
    }
    if let Some(first) = t.failures.first() {
        println!(
            "  {} game(s) failed; first (game {}, seed {}): {}",
            t.failed,
            first.index,
            first.outcome.seed,
            first.outcome.error.as_deref().unwrap_or("")
        );
    }
}
