//! `boardscript sim` (many bot games on every core) and `boardscript check`.

use crate::cli::{CheckArgs, SimArgs};
use crate::games;
use crate::interrupt;
use crate::{lineup, matchplay, stats};
use boardscript_interpreter::bots::{catch_panic, replay, sim, BotSpec};
use boardscript_interpreter::script::excerpt_in_message;
use boardscript_interpreter::{Action, GameSource, Setup};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use std::ops::Range;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// More threads than this per core only adds compiles of the game (one per thread).
const THREADS_PER_CORE: usize = 4;

pub fn sim(args: SimArgs) -> anyhow::Result<ExitCode> {
    let dir = games::game_dir(&args.game)?;
    let id = args.game.game.clone();
    let setup = args.game.setup(args.seed)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = args.threads.unwrap_or(cores).min(THREADS_PER_CORE * cores);
    let bar = progress_bar(args.games, args.quiet);
    // Read once: every thread compiles these same texts, whatever happens to the files.
    let source = Arc::new(GameSource::read(&dir, &id).map_err(|e| anyhow::anyhow!("{e}"))?);
    let load = || source.compile().map_err(|e| e.to_string());
    let stop = interrupt::flag();
    let games = args.skip..args.skip.saturating_add(args.games);
    let progress = |n| {
        bar.set_position(n);
        !stop.load(Ordering::Relaxed)
    };
    let (report, bots) = match &args.bots {
        None => (
            sim::simulate(&load, &setup, games, threads, args.max_actions, &progress),
            None,
        ),
        Some(list) => {
            let (report, specs) = simulate_bots(
                &source,
                &setup,
                list,
                games,
                threads,
                args.max_actions,
                &progress,
            )?;
            (report, Some(specs))
        }
    };
    let report = report.map_err(|e| anyhow::anyhow!(e))?;
    bar.finish_and_clear();
    let t = &report.tally;
    let percent = |wins: u64| 100.0 * wins as f64 / t.games.max(1) as f64;
    let from = if args.skip > 0 {
        format!(" from game {}", args.skip)
    } else {
        String::new()
    };
    println!(
        "{}: {} games{from}, seed {}, {} thread(s)",
        id, t.games, args.seed, report.threads
    );
    if let Some(specs) = &bots {
        let list: Vec<String> = report
            .seats
            .iter()
            .zip(specs)
            .map(|(seat, spec)| format!("{seat} {spec}"))
            .collect();
        println!("  bots: {}", list.join(", "));
    }
    let interrupted = t.games < args.games;
    if interrupted {
        // The games played are always the first ones: the rest is a run of its own.
        println!(
            "  interrupted (Ctrl-C) after {} of {} games; `--seed {} --skip {} --games {}` plays the rest",
            t.games,
            args.games,
            args.seed,
            args.skip + t.games,
            args.games - t.games
        );
    }
    for (seat, &wins) in report.seats.iter().zip(&t.wins) {
        match bots {
            None => println!("  {seat:<12} {wins:>8} wins  {:>5.1}%", percent(wins)),
            Some(_) => {
                let (lo, hi) = stats::wilson(wins as f64, t.games as f64);
                println!(
                    "  {seat:<12} {wins:>8} wins  {:>5.1}%  95% CI [{:.1}%, {:.1}%]",
                    percent(wins),
                    100.0 * lo,
                    100.0 * hi
                );
            }
        }
    }
    for (team, &wins) in t.teams.iter().zip(&t.team_wins) {
        let names: Vec<&str> = team.iter().map(|&s| report.seats[s].as_str()).collect();
        println!(
            "  team {:<7} {wins:>8} wins  {:>5.1}%",
            names.join("+"),
            percent(wins)
        );
    }
    println!("  no winner    {:>8}", t.no_winner);
    if bots.is_some() && report.seats.len() == 2 {
        // Draws count half, so equal seats are at 0 whatever the draw rate.
        let score = t.wins[0] as f64 + t.no_winner as f64 / 2.0;
        let (lo, hi) = stats::wilson(score, t.games as f64);
        let rate = score / t.games.max(1) as f64;
        println!(
            "  first-seat advantage ({}, draws half): {:+.1}%  95% CI [{:+.1}%, {:+.1}%]",
            report.seats[0],
            100.0 * (rate - 0.5),
            100.0 * (lo - 0.5),
            100.0 * (hi - 0.5)
        );
    }
    print_endings(t, args.max_actions);
    print_tallies(&t.tallies, t.other_tallies, t.games);
    println!(
        "  length: mean {:.1}, max {} actions",
        t.mean_length(),
        t.max_length
    );
    println!(
        "  speed: {:.1} games/s ({:.2}s)",
        report.games_per_second(),
        report.seconds
    );
    let Some(first) = t.failures.first() else {
        return Ok(if interrupted {
            ExitCode::from(interrupt::EXIT_STATUS)
        } else {
            ExitCode::SUCCESS
        });
    };
    println!(
        "  {} game(s) failed; first (seed {}): {}",
        t.failed,
        first.outcome.seed,
        first.outcome.error.as_deref().unwrap_or("")
    );
    for more in &t.failures[1..] {
        println!(
            "    also game {} (seed {}): {}",
            more.index,
            more.outcome.seed,
            more.outcome.error.as_deref().unwrap_or("")
        );
    }
    Ok(ExitCode::from(if interrupted {
        interrupt::EXIT_STATUS
    } else {
        1
    }))
}

/// The progress bar of `sim` and `arena`: games done of `games`, hidden with `--quiet`.
pub fn progress_bar(games: u64, quiet: bool) -> ProgressBar {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(games)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {rate}  eta {eta}")
            .expect("valid template")
            // indicatif's `{per_sec}` prints `155.2086/s`: whole games are enough.
            .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate(s.per_sec()));
            }),
    );
    bar
}

/// `sim --bots`: the games played by a bot per seat (seats the list leaves out play
/// `random`), on `threads` threads each with its own compiled game; returns the report and
/// each seat's bot. A list naming no seat of the game, an unknown bot or an unknown setting
/// is refused before any game starts.
fn simulate_bots(
    source: &Arc<GameSource>,
    setup: &Setup,
    list: &str,
    games: Range<u64>,
    threads: usize,
    max_actions: usize,
    progress: &(dyn Fn(u64) -> bool + Sync),
) -> anyhow::Result<(Result<sim::Report, String>, Vec<BotSpec>)> {
    let (seats, teams) = sim::on_script_stack(|| {
        let first = source
            .compile()
            .map_err(|e| e.to_string())?
            .start(setup)
            .map_err(|e| e.to_string())?;
        Ok::<_, String>((first.seats.to_vec(), first.teams))
    })
    .and_then(|r| r)
    .map_err(|e| anyhow::anyhow!(e))?;
    let items = lineup::parse_seated(list, &seats).map_err(|e| anyhow::anyhow!("--bots: {e}"))?;
    let random = BotSpec::parse("random").expect("a bot name");
    let specs: Vec<BotSpec> = lineup::per_seat(&items, &seats)
        .into_iter()
        .map(|s| s.unwrap_or_else(|| random.clone()))
        .collect();
    for spec in &specs {
        lineup::check(spec).map_err(|e| anyhow::anyhow!("--bots: {e}"))?;
    }
    let started = std::time::Instant::now();
    let empty = sim::Tally::new(seats.len(), teams);
    let load = || source.compile().map_err(|e| e.to_string());
    let play = |game: &boardscript_interpreter::Game, seed: u64| {
        let s = Setup {
            seed,
            ..setup.clone()
        };
        matchplay::play(game, &s, &specs, Some(source), max_actions)
    };
    let report = sim::tally_games(games, setup.seed, threads, &empty, &load, &play, progress).map(
        |(tally, threads)| sim::Report {
            seats,
            tally,
            threads,
            seconds: started.elapsed().as_secs_f64(),
        },
    );
    Ok((report, specs))
}

/// How the games ended: by ending (a win or none, and the reason the rules gave), then
/// those stopped at the action limit.
fn print_endings(t: &sim::Tally, max_actions: usize) {
    let percent = |n: u64| 100.0 * n as f64 / t.games.max(1) as f64;
    println!("  ended by:");
    // At least as wide as `no winner    `, so the counts line up with the lines above.
    let width = t
        .endings
        .iter()
        .map(|(e, _)| e.chars().count())
        .fold(10, usize::max);
    let line = |label: &str, n: u64| {
        println!("    {label:<width$} {n:>8}  {:>5.1}%", percent(n));
    };
    for (ending, n) in &t.endings {
        line(ending, *n);
    }
    if t.other_endings > 0 {
        line("other endings", t.other_endings);
    }
    if t.at_limit > 0 {
        line(
            &format!("action limit ({max_actions}), not ended"),
            t.at_limit,
        );
    }
}

/// What the games counted with `g.tally`, summed over `games`: the sum and the mean per game,
/// by name (nothing when no game tallied anything).
fn print_tallies(tallies: &[(String, i64)], other: i64, games: u64) {
    if tallies.is_empty() {
        return;
    }
    println!("  tallies:");
    let width = tallies
        .iter()
        .map(|(e, _)| e.chars().count())
        .fold(10, usize::max);
    let line = |label: &str, n: i64| {
        let mean = n as f64 / games.max(1) as f64;
        println!("    {label:<width$} {n:>8}  {mean:>7.2} a game");
    };
    for (name, n) in tallies {
        line(name, *n);
    }
    if other != 0 {
        line("other tallies", other);
    }
}

/// Compiles the game, then plays random playouts and replays each from its actions: a
/// playout fails on an error, a panic of the engine, or a replay that ends elsewhere.
pub fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    // Scripts get the stack they get in `play`, so deep recursion fails (or not) alike.
    sim::on_script_stack(|| check_here(&args)).map_err(|e| anyhow::anyhow!(e))?
}

fn check_here(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let mut game = games::load(&args.game)?;
    let options = args.game.option_pairs()?;
    let setup = |seed| Setup {
        seats: args.game.seats,
        seed,
        options: options.clone(),
        position: None,
    };
    let first = game.start(&setup(1)).map_err(|e| anyhow::anyhow!("{e}"))?;
    let seats = first.seats.clone();
    // What the playouts are played with, defaults included, for the warnings.
    let played_with = played_with(seats.len(), &first.options);
    println!(
        "{}: compiled {} script file(s)",
        game.spec.id,
        game.spec.scripts.len()
    );
    let mut failures = 0;
    // Each distinct error is shown once, with its source line: one bug in the rules would
    // otherwise fill the screen with the same error for every playout.
    let mut errors: Vec<(String, u64, Vec<u64>)> = vec![];
    // Playouts in which one seat of several made every move (at least `LONE_MOVES` of them):
    // in a turn-based game, turns that never pass (issue 11). Warned about, not failed: a
    // game may rightly let one seat act alone for a while.
    const LONE_MOVES: usize = 8;
    let mut lone: Option<(u64, usize, String)> = None;
    let mut lone_count = 0;
    // Playouts that ended with no winner and no reason (nobody could act), and the first.
    let mut stuck: Option<(u64, usize)> = None;
    let mut stuck_count = 0;
    // The playouts' tallies (`g.tally`), summed as `sim` sums them.
    let mut tallies = sim::Tally::new(seats.len(), vec![]);
    let stop = interrupt::flag();
    let mut run = 0;
    for i in args.skip..args.skip.saturating_add(args.games) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        run += 1;
        let seed = sim::game_seed(1, i);
        let s = setup(seed);
        let checked = catch_panic(|| {
            let rec = replay::record(&game, &s, args.max_actions);
            match one_seat_moves(&rec.actions, LONE_MOVES) {
                Some(seat) if seats.len() > 1 => {
                    lone_count += 1;
                    lone.get_or_insert((seed, rec.actions.len(), seats[seat].clone()));
                }
                _ => {}
            }
            let o = &rec.outcome;
            tallies.add(i, o.clone());
            if o.error.is_none() && o.winners.is_empty() && o.reason.is_empty() {
                stuck_count += 1;
                stuck.get_or_insert((seed, o.length));
            }
            let replayed = replay::replay(&game, &s, &rec);
            // A game that someone won but that goes on is the cause of a long game, so it is
            // named before the action limit it then runs into.
            if let Err(
                d @ (replay::Divergence::WonButGoesOn { .. } | replay::Divergence::Winners { .. }),
            ) = &replayed
            {
                return Some(("does not end when won".to_string(), d.to_string()));
            }
            if let Some(e) = &rec.outcome.error {
                return Some((
                    format!("failed after {} action(s)", rec.outcome.length),
                    e.clone(),
                ));
            }
            if let Err(d) = replayed {
                return Some((
                    format!(
                        "is not deterministic: replaying its {} action(s)",
                        rec.actions.len()
                    ),
                    d.to_string(),
                ));
            }
            let leak = args
                .peek
                .then(|| crate::peek::check_playout(&game, &s, &rec.actions));
            leak.flatten().map(|e| ("leaks".to_string(), e))
        });
        let problem = checked.unwrap_or_else(|panic| {
            // The panic may have left the rules half-way through a call: start them afresh.
            if let Ok(fresh) = games::load(&args.game) {
                game = fresh;
            }
            Some(("failed".into(), format!("internal error: {panic}")))
        });
        let Some((what, error)) = problem else {
            continue;
        };
        failures += 1;
        match errors.iter_mut().find(|(e, _, _)| *e == error) {
            Some((_, _, again)) => again.push(i),
            None => {
                println!("  playout {i} (seed {seed}) {what}: {error}");
                if let Some(excerpt) = excerpt_in_message(&error, game.rules().sources()) {
                    println!("{excerpt}");
                }
                errors.push((error, i, vec![]));
            }
        }
    }
    for (_, first, again) in errors.iter().filter(|(_, _, again)| !again.is_empty()) {
        const LISTED: usize = 10;
        let mut list: Vec<String> = again.iter().take(LISTED).map(u64::to_string).collect();
        if again.len() > LISTED {
            list.push("...".into());
        }
        println!(
            "  {} more playout(s) failed with the same error as playout {first}: {}",
            again.len(),
            list.join(", ")
        );
    }
    if let Some((seed, moves, seat)) = lone {
        println!(
            "  warning: in {lone_count} playout(s) one seat made every move (seed {seed}: {seat} made all {moves}); if turns should pass, call `g.set_steps(1)` in `setup` or pass the turn in `apply` (`g.next_turn()`)"
        );
    }
    if let Some((seed, length)) = stuck.filter(|_| 2 * stuck_count > run) {
        println!(
            "  warning: {stuck_count} of {run} playout(s) ended with no winner and no end reason, because nobody could act (seed {seed}: after {length} action(s)), with {played_with}; if the rules should go on, an action may be impossible with these options (or end the game with `g.end_game([], reason)`)"
        );
    }
    print_tallies(&tallies.tallies, tallies.other_tallies, run);
    let interrupted = run < args.games;
    if interrupted {
        println!(
            "  interrupted (Ctrl-C) after {run} of {} playout(s); `--skip {} --games {}` checks the rest",
            args.games,
            args.skip + run,
            args.games - run
        );
    }
    let status = if failures == 0 {
        println!("  {run} random playout(s) finished without error");
        ExitCode::SUCCESS
    } else {
        println!("  {failures} of {run} playout(s) failed");
        ExitCode::from(1)
    };
    Ok(if interrupted {
        ExitCode::from(interrupt::EXIT_STATUS)
    } else {
        status
    })
}

/// `2 seats and options coop=true, size=11` (`no options` when the game has none).
fn played_with(
    seats: usize,
    options: &std::collections::BTreeMap<String, boardscript_interpreter::value::Value>,
) -> String {
    let options: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let options = if options.is_empty() {
        "no options".to_string()
    } else {
        format!("options {}", options.join(", "))
    };
    format!("{seats} seat(s) and {options}")
}

/// The seat that made every one of `actions`, when there are at least `min` of them.
fn one_seat_moves(actions: &[(usize, Action)], min: usize) -> Option<usize> {
    let first = actions.first()?.0;
    (actions.len() >= min && actions.iter().all(|(s, _)| *s == first)).then_some(first)
}

/// The progress bar's speed: `155 games/s`.
fn rate(per_second: f64) -> String {
    format!("{per_second:.0} games/s")
}

#[cfg(test)]
mod tests {
    /// i10-19: the progress bar shows whole games per second, not `155.2086/s`.
    #[test]
    fn the_rate_is_rounded() {
        assert_eq!(super::rate(155.2086), "155 games/s");
    }
}
