//! `boardscript sim` (many bot games on every core) and `boardscript check`.

use crate::cli::{CheckArgs, SimArgs};
use crate::games;
use crate::interrupt;
use crate::{lineup, stats};
use boardscript_interpreter::batch::{Batch, Checked, Tally};
use boardscript_interpreter::BotSpec;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// More threads than this per core only adds compiles of the game (one per thread).
const THREADS_PER_CORE: usize = 4;

pub fn sim(args: SimArgs) -> anyhow::Result<ExitCode> {
    let id = args.game.game.clone();
    let setup = args.game.setup(args.seed)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = args.threads.unwrap_or(cores).min(THREADS_PER_CORE * cores);
    let bar = progress_bar(args.games, args.quiet);
    // Read once: every thread compiles these same texts, whatever happens to the files.
    let source = Arc::new(games::source(&args.game)?);
    let batch = Batch::new(source, setup)
        .threads(threads)
        .max_actions(args.max_actions);
    let stop = interrupt::flag();
    let games = args.skip..args.skip.saturating_add(args.games);
    let progress = |n| {
        bar.set_position(n);
        !stop.load(Ordering::Relaxed)
    };
    let (report, bots) = match &args.bots {
        None => (batch.random(games, &progress)?, None),
        Some(list) => {
            let specs = lineup_of(&batch, list)?;
            (batch.bots(games, &specs, &progress)?, Some(specs))
        }
    };
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

/// `sim --bots`: the bot of each seat (seats the list leaves out play `random`). A list
/// naming no seat of the game, an unknown bot or an unknown setting is refused before any
/// game starts.
fn lineup_of(batch: &Batch, list: &str) -> anyhow::Result<Vec<BotSpec>> {
    let seats = batch.seating()?.seats;
    let items = lineup::parse_seated(list, &seats).map_err(|e| anyhow::anyhow!("--bots: {e}"))?;
    let random = BotSpec::parse("random").expect("a bot name");
    let specs: Vec<BotSpec> = lineup::per_seat(&items, &seats)
        .into_iter()
        .map(|s| s.unwrap_or_else(|| random.clone()))
        .collect();
    for spec in &specs {
        lineup::check(spec).map_err(|e| anyhow::anyhow!("--bots: {e}"))?;
    }
    Ok(specs)
}

/// How the games ended: by ending (a win or none, and the reason the rules gave), then
/// those stopped at the action limit.
fn print_endings(t: &Tally, max_actions: usize) {
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
    let source = Arc::new(games::source(&args.game)?);
    let setup = args.game.setup(1)?;
    let (id, files) = (source.spec().id.clone(), source.spec().scripts.len());
    let batch = Batch::new(source, setup).max_actions(args.max_actions);
    let seating = batch.seating()?;
    println!("{id}: compiled {files} script file(s)");
    let mut report = CheckReport::new(seating.seats.len());
    let stop = interrupt::flag();
    let games = args.skip..args.skip.saturating_add(args.games);
    batch.check(games, args.peek, &mut |checked| {
        report.add(checked, &seating.seats);
        !stop.load(Ordering::Relaxed)
    })?;
    report.print_summary(&played_with(&seating.seats, &seating.options));
    let run = report.run;
    let interrupted = run < args.games;
    if interrupted {
        println!(
            "  interrupted (Ctrl-C) after {run} of {} playout(s); `--skip {} --games {}` checks the rest",
            args.games,
            args.skip + run,
            args.games - run
        );
    }
    let status = if report.failures == 0 {
        println!("  {run} random playout(s) finished without error");
        ExitCode::SUCCESS
    } else {
        println!("  {} of {run} playout(s) failed", report.failures);
        ExitCode::from(1)
    };
    Ok(if interrupted {
        ExitCode::from(interrupt::EXIT_STATUS)
    } else {
        status
    })
}

/// Playouts in which one seat of several made every move, at least this many: in a
/// turn-based game, turns that never pass (issue 11). Warned about, not failed: a game may
/// rightly let one seat act alone for a while.
const LONE_MOVES: usize = 8;

/// What `check` has seen so far: each distinct error once (one bug in the rules would
/// otherwise fill the screen with the same error for every playout), and what it warns of.
struct CheckReport {
    run: u64,
    failures: u64,
    /// Each error, the playout that first had it, and the others that had it again.
    errors: Vec<(String, u64, Vec<u64>)>,
    /// The first playout in which one seat made every move (seed, moves, seat), and how many.
    lone: Option<(u64, usize, String)>,
    lone_count: u64,
    /// The first playout that ended with no winner and no reason (nobody could act).
    stuck: Option<(u64, usize)>,
    stuck_count: u64,
    /// The playouts' tallies (`g.tally`), summed as `sim` sums them.
    tallies: Tally,
}

impl CheckReport {
    fn new(seats: usize) -> CheckReport {
        CheckReport {
            run: 0,
            failures: 0,
            errors: vec![],
            lone: None,
            lone_count: 0,
            stuck: None,
            stuck_count: 0,
            tallies: Tally::new(seats, vec![]),
        }
    }

    /// Counts a playout, printing its problem when it is a new one.
    fn add(&mut self, c: Checked, seats: &[String]) {
        self.run += 1;
        let o = &c.outcome;
        match c.only_mover {
            Some(seat) if seats.len() > 1 && o.length >= LONE_MOVES => {
                self.lone_count += 1;
                self.lone
                    .get_or_insert((c.seed, o.length, seats[seat].clone()));
            }
            _ => {}
        }
        if o.error.is_none() && o.winners.is_empty() && o.reason.is_empty() {
            self.stuck_count += 1;
            self.stuck.get_or_insert((c.seed, o.length));
        }
        self.tallies.add(c.index, c.outcome.clone());
        let Some(problem) = c.problem else {
            return;
        };
        self.failures += 1;
        match self.errors.iter_mut().find(|(e, _, _)| *e == problem.error) {
            Some((_, _, again)) => again.push(c.index),
            None => {
                println!(
                    "  playout {} (seed {}) {}: {}",
                    c.index, c.seed, problem.what, problem.error
                );
                if let Some(excerpt) = &problem.excerpt {
                    println!("{excerpt}");
                }
                self.errors.push((problem.error, c.index, vec![]));
            }
        }
    }

    /// The repeated errors, the warnings and the tallies.
    fn print_summary(&self, played_with: &str) {
        for (_, first, again) in self.errors.iter().filter(|(_, _, a)| !a.is_empty()) {
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
        if let Some((seed, moves, seat)) = &self.lone {
            println!(
                "  warning: in {} playout(s) one seat made every move (seed {seed}: {seat} made all {moves}); if turns should pass, call `g.set_steps(1)` in `setup` or pass the turn in `apply` (`g.next_turn()`)",
                self.lone_count
            );
        }
        if let Some((seed, length)) = self.stuck.filter(|_| 2 * self.stuck_count > self.run) {
            println!(
                "  warning: {} of {} playout(s) ended with no winner and no end reason, because nobody could act (seed {seed}: after {length} action(s)), with {played_with}; if the rules should go on, an action may be impossible with these options (or end the game with `g.end_game([], reason)`)",
                self.stuck_count, self.run
            );
        }
        print_tallies(&self.tallies.tallies, self.tallies.other_tallies, self.run);
    }
}

/// `2 seats and options coop=true, size=11` (`no options` when the game has none).
fn played_with(seats: &[String], options: &[(String, String)]) -> String {
    let options: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let options = if options.is_empty() {
        "no options".to_string()
    } else {
        format!("options {}", options.join(", "))
    };
    format!("{} seat(s) and {options}", seats.len())
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
