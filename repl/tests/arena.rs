//! Issue 23: `sim --bots` (a bot per seat, win rates with 95% intervals) and `arena` (a
//! round robin with a results table and Elo ratings).

mod common;

use common::*;
use std::process::Output;
use std::time::Duration;

fn run(args: &[&str]) -> Output {
    run_fed(&scripts_dir(), "", args, "", Duration::from_secs(120))
}

/// The report without its speed line (the only line that depends on the machine) and with
/// the thread count taken out of the first line.
fn steady(out: &str) -> String {
    out.lines()
        .filter(|l| !l.trim_start().starts_with("speed:"))
        .map(|l| l.split(", seed").next().unwrap_or(l).to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn sim_bots_reports_intervals_and_the_first_seats_advantage() {
    let args = [
        "sim",
        "connect-four",
        "--games",
        "20",
        "--quiet",
        "--threads",
        "2",
        "--bots",
        "o=random",
    ];
    let out = run(&args);
    let (stdout, stderr) = texts(&out);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    // The seat left out plays random.
    assert_eq!(lines[1], "  bots: x random, o random", "{stdout}");
    for seat in ["x", "o"] {
        let line = lines
            .iter()
            .find(|l| l.trim_start().starts_with(&format!("{seat} ")))
            .unwrap_or_else(|| panic!("no {seat} line:\n{stdout}"));
        assert!(line.contains("wins") && line.contains("95% CI ["), "{line}");
    }
    assert!(
        stdout.contains("  first-seat advantage (x, draws half): "),
        "{stdout}"
    );
    // The same seed gives the same games, on any number of threads.
    let mut again = args;
    again[6] = "1";
    let (stdout2, _) = texts(&run(&again));
    assert_eq!(steady(&stdout), steady(&stdout2));
}

#[test]
fn sim_without_bots_prints_no_intervals() {
    let out = run(&["sim", "connect-four", "--games", "5", "--quiet"]);
    let (stdout, _) = texts(&out);
    assert!(out.status.success());
    assert!(
        !stdout.contains("CI") && !stdout.contains("bots:"),
        "{stdout}"
    );
}

#[test]
fn sim_bots_lists_are_parsed_and_checked() {
    let cases: [(&str, &str); 4] = [
        (
            "x=random,z=random:a=1",
            "error: --bots: no seat `z` in `x=random,z=random:a=1` (seats: x, o)",
        ),
        (
            "x=random,y=1",
            "error: --bots: the random bot takes no settings (`y`)",
        ),
        ("o=mctz", "error: --bots: no bot `mctz`"),
        ("x=random,,", ""),
    ];
    for (list, expected) in cases {
        let out = run(&[
            "sim",
            "connect-four",
            "--games",
            "2",
            "--quiet",
            "--bots",
            list,
        ]);
        let (stdout, stderr) = texts(&out);
        if expected.is_empty() {
            assert!(out.status.success(), "{list}: {stderr}");
            assert!(stdout.contains("  bots: x random, o random"), "{stdout}");
        } else {
            assert_eq!(out.status.code(), Some(2), "{list}: {stdout}");
            assert!(stderr.starts_with(expected), "{list}: {stderr}");
        }
    }
}

#[test]
fn arena_prints_a_table_and_elo_and_is_deterministic() {
    let args = [
        "arena",
        "connect-four",
        "--bots",
        "random,random",
        "--games",
        "6",
        "--seed",
        "5",
        "--threads",
        "2",
        "--quiet",
    ];
    let out = run(&args);
    let (stdout, stderr) = texts(&out);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("connect-four: arena of 2 bots, 6 games per pair (6 games), seed 5"),
        "{stdout}"
    );
    assert_eq!(lines[1], "  pairs: wins, draws, losses of the first");
    let counts: Vec<u64> = lines[2]
        .split_whitespace()
        .rev()
        .take(3)
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u64>(), 6, "{stdout}");
    assert!(lines[3].starts_with("  Elo (95% interval; 1. random anchored at 0"));
    assert!(lines[4].trim_start().starts_with("1. random") && lines[4].contains("± 0"));
    assert!(lines[5].trim_start().starts_with("2. random") && lines[5].contains("score "));
    let mut one_thread = args;
    one_thread[9] = "1";
    let (again, _) = texts(&run(&one_thread));
    assert_eq!(steady(&stdout), steady(&again));
}

#[test]
fn arena_refuses_too_few_or_unknown_entrants() {
    for (list, expected) in [
        ("random", "error: --bots: an arena needs at least two bots"),
        (
            "random,iters=2",
            "error: --bots: the random bot takes no settings (`iters`)",
        ),
        ("random,mctz", "error: --bots: no bot `mctz`"),
    ] {
        let out = run(&["arena", "connect-four", "--bots", list, "--games", "2"]);
        let (_, stderr) = texts(&out);
        assert_eq!(out.status.code(), Some(2), "{list}");
        assert!(stderr.starts_with(expected), "{list}: {stderr}");
    }
}

/// Stronger settings beat weaker ones: not assertable at test sizes, so only that a
/// searching entrant plays.
#[test]
fn arena_with_a_searching_bot_plays() {
    let out = run(&[
        "arena",
        "connect-four",
        "--bots",
        "random,mcts:iters=50",
        "--games",
        "2",
        "--quiet",
    ]);
    let (stdout, stderr) = texts(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("2. mcts:iters=50"), "{stdout}");
}
