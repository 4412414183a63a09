//! `boardscript sim` (many random-bot games on every core) and `boardscript check`.

use crate::cli::{CheckArgs, SimArgs};
use crate::games;
use boardscript_interpreter::bots::sim;
use boardscript_interpreter::{Game, Setup};
use indicatif::{ProgressBar, ProgressStyle};
use std::process::ExitCode;

pub fn sim(args: SimArgs) -> anyhow::Result<ExitCode> {
    let dir = games::game_dir(&args.game)?;
    let id = args.game.game.clone();
    let setup = Setup {
        seats: args.game.seats,
        seed: args.seed,
        options: args.game.option_pairs()?,
        position: None,
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.games as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
            .expect("valid template"),
    );
    let load = || Game::load(&dir, &id).map_err(|e| e.to_string());
    let report = sim::simulate(&load, &setup, args.games, threads, args.max_actions, &|n| {
        bar.set_position(n as u64)
    })
    .map_err(|e| anyhow::anyhow!(e))?;
    bar.finish_and_clear();
    println!(
        "{}: {} games, seed {}, {threads} thread(s)",
        id, args.games, args.seed
    );
    for (seat, wins) in report.seats.iter().zip(report.wins()) {
        println!(
            "  {seat:<12} {wins:>8} wins  {:>5.1}%",
            100.0 * wins as f64 / args.games.max(1) as f64
        );
    }
    for (team, wins) in report.teams.iter().zip(report.team_wins()) {
        let names: Vec<&str> = team.iter().map(|&s| report.seats[s].as_str()).collect();
        println!(
            "  team {:<7} {wins:>8} wins  {:>5.1}%",
            names.join("+"),
            100.0 * wins as f64 / args.games.max(1) as f64
        );
    }
    println!("  no winner    {:>8}", report.no_winner());
    println!(
        "  length: mean {:.1}, max {} actions",
        report.mean_length(),
        report.max_length()
    );
    println!(
        "  speed: {:.1} games/s ({:.2}s)",
        report.games_per_second(),
        report.seconds
    );
    let errors: Vec<_> = report.errors().collect();
    if let Some(first) = errors.first() {
        println!(
            "  {} game(s) failed; first (seed {}): {}",
            errors.len(),
            first.seed,
            first.error.as_deref().unwrap_or("")
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

pub fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let game = games::load(&args.game)?;
    let options = args.game.option_pairs()?;
    let first = Setup {
        seats: args.game.seats,
        seed: 1,
        options: options.clone(),
        position: None,
    };
    game.start(&first).map_err(|e| anyhow::anyhow!("{e}"))?;
    println!(
        "{}: compiled {} script file(s)",
        game.spec.id,
        game.spec.scripts.len()
    );
    let mut failures = 0;
    for i in 0..args.games {
        let setup = Setup {
            seats: args.game.seats,
            seed: sim::game_seed(1, i),
            options: options.clone(),
            position: None,
        };
        let o = sim::play_one(&game, &setup, 100_000);
        if let Some(e) = &o.error {
            failures += 1;
            println!(
                "  playout {i} (seed {}) failed after {} action(s): {e}",
                o.seed, o.length
            );
        }
    }
    if failures == 0 {
        println!("  {} random playout(s) finished without error", args.games);
        Ok(ExitCode::SUCCESS)
    } else {
        println!("  {failures} of {} playout(s) failed", args.games);
        Ok(ExitCode::from(1))
    }
}
