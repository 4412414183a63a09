//! The command line: `boardscript list`, `check`, `sim`, and how `play` refuses bad arguments
//! (exit status 2 and a message on stderr naming what is wrong).

mod common;

use common::{boardscript, scripts_dir};
use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

/// Runs `boardscript ARGS --scripts <scripts>` with `input` on stdin.
fn run_in(scripts: &Path, args: &[&str], input: &str) -> Output {
    let mut child = boardscript(scripts, "", args, Stdio::piped())
        .spawn()
        .expect("start boardscript");
    // The program may exit before reading: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().expect("wait for boardscript")
}

fn run(args: &[&str]) -> Output {
    run_in(&scripts_dir(), args, "")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 stderr")
}

/// `list` output cut into one block per game: the block's first line starts with the id.
fn list_blocks(text: &str) -> Vec<(String, String)> {
    let mut blocks: Vec<(String, String)> = vec![];
    for line in text.lines() {
        if line.starts_with(' ') {
            let block = blocks
                .last_mut()
                .expect("an indented line after a game line");
            block.1.push_str(line);
            block.1.push('\n');
        } else {
            let id = line.split_whitespace().next().unwrap_or("").to_string();
            blocks.push((id, format!("{line}\n")));
        }
    }
    blocks
}

#[test]
fn list_shows_games_and_variants_with_seats_and_options() {
    let o = run(&["list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let blocks = list_blocks(&text);
    let block = |id: &str| {
        blocks
            .iter()
            .find(|(i, _)| i == id)
            .map(|(_, b)| b.clone())
            .unwrap_or_else(|| panic!("`{id}` not listed:\n{text}"))
    };

    let base = block("virus-wars");
    assert!(base.starts_with("virus-wars  Virus Wars\n"), "{base}");
    assert!(base.contains("seats: 2: blue, red"), "{base}");
    for option in [
        "--option size=11",
        "--option steps=5",
        "--option first_turn_steps=5",
        "--option width=0",
        "--option height=0",
        "--option start=edges (edges)",
    ] {
        assert!(base.contains(option), "no `{option}` in:\n{base}");
    }

    let blitz = block("virus-wars/blitz");
    assert!(blitz.contains("[variant of virus-wars]"), "{blitz}");
    assert!(blitz.contains("seats: 2: blue, red"), "{blitz}");
    // The variant's own defaults replace the base game's.
    for option in [
        "--option size=7",
        "--option steps=3",
        "--option first_turn_steps=1",
    ] {
        assert!(blitz.contains(option), "no `{option}` in:\n{blitz}");
    }
    assert!(!blitz.contains("--option size=11"), "{blitz}");
    // Options it leaves as they are are named, not repeated.
    assert!(
        blitz.contains("and the options of virus-wars: ") && !blitz.contains("--option width="),
        "{blitz}"
    );

    let orthogonal = block("virus-wars/orthogonal");
    assert!(
        orthogonal.contains("[variant of virus-wars]"),
        "{orthogonal}"
    );
    assert!(orthogonal.contains("seats: 2: blue, red"));
    assert!(
        orthogonal.contains("and the options of virus-wars: first_turn_steps, height, size,")
            && !orthogonal.contains("--option"),
        "{orthogonal}"
    );
}

#[test]
fn check_passes_on_virus_wars_and_its_variants() {
    for game in ["virus-wars", "virus-wars/blitz", "virus-wars/orthogonal"] {
        let o = run(&["check", game]);
        let out = stdout(&o);
        assert!(o.status.success(), "check {game}:\n{out}{}", stderr(&o));
        assert!(out.starts_with(&format!("{game}: compiled")), "{out}");
        assert!(
            out.contains("20 random playout(s) finished without error"),
            "{out}"
        );
    }
}

/// So that `check` exiting 0 above means something: a script that fails is reported with its
/// file, line and column, and `check` exits 1 (2 when the script does not even compile).
#[test]
fn check_reports_broken_scripts() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("broken");
    std::fs::create_dir(&game).unwrap();
    std::fs::write(
        game.join("game.toml"),
        "title = \"Broken\"\n[seats]\nnames = [\"a\", \"b\"]\n",
    )
    .unwrap();
    let rules = |apply: &str| {
        format!(
            "fn setup(g) {{ }}\nfn to_decide(g) {{ [g.turn()] }}\n\
             fn legal_actions(g, seat) {{ [\"x\"] }}\n{apply}\nfn winners(g) {{ [] }}\n"
        )
    };
    std::fs::write(
        game.join("rules.rhai"),
        rules("fn apply(g, seat, action) { g.nosuch(); }"),
    )
    .unwrap();
    let o = run_in(dir.path(), &["check", "broken", "--games", "2"], "");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("rules.rhai:4:"), "{out}");
    assert!(out.contains("nosuch"), "{out}");
    assert!(out.contains("2 of 2 playout(s) failed"), "{out}");

    std::fs::write(
        game.join("rules.rhai"),
        rules("fn apply(g, seat, action) { let y = 1 +; }"),
    )
    .unwrap();
    let o = run_in(dir.path(), &["check", "broken"], "");
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.starts_with("error: ") && err.contains("rules.rhai:4:"),
        "{err}"
    );
}

#[test]
fn sim_gives_the_same_results_on_one_thread_or_two() {
    let sim = |threads: &str| {
        let args = [
            "sim",
            "virus-wars",
            "--games",
            "20",
            "--seed",
            "5",
            "--threads",
            threads,
            "--quiet",
        ];
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).is_empty(), "--quiet: {}", stderr(&o));
        stdout(&o)
    };
    let (one, two) = (sim("1"), sim("2"));
    assert!(
        one.starts_with("virus-wars: 20 games, seed 5, 1 thread(s)\n"),
        "{one}"
    );
    assert!(
        two.starts_with("virus-wars: 20 games, seed 5, 2 thread(s)\n"),
        "{two}"
    );
    // Everything but the first line (thread count) and the speed line must match.
    let results = |text: &str| -> Vec<String> {
        text.lines()
            .skip(1)
            .filter(|l| !l.trim_start().starts_with("speed:"))
            .map(String::from)
            .collect()
    };
    assert_eq!(results(&one), results(&two));
    let results = results(&one);
    assert!(results.iter().any(|l| l.contains("length: mean")), "{one}");
    assert!(one.contains("speed:"), "{one}");
    // Wins of both seats and games without a winner add up to the 20 games.
    let mut total = 0;
    for seat in ["blue", "red"] {
        let line = results
            .iter()
            .find(|l| l.trim_start().starts_with(seat))
            .unwrap_or_else(|| panic!("no line for {seat}:\n{one}"));
        let wins: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        total += wins;
    }
    let none = results
        .iter()
        .find(|l| l.trim_start().starts_with("no winner"))
        .expect("a no-winner line");
    total += none
        .split_whitespace()
        .last()
        .unwrap()
        .parse::<usize>()
        .unwrap();
    assert_eq!(total, 20, "{one}");
}

/// In a team game `sim` also counts wins per team; every game has exactly one winning team in
/// the French game's co-operative mode, so team wins add up to the games played.
#[test]
fn sim_reports_wins_per_team() {
    let o = run(&[
        "sim",
        "virus-war-fr",
        "--games",
        "6",
        "--seats",
        "4",
        "--option",
        "coop=true",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let team_wins: Vec<usize> = out
        .lines()
        .filter(|l| l.trim_start().starts_with("team "))
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    assert_eq!(team_wins.len(), 2, "two teams:\n{out}");
    assert_eq!(team_wins.iter().sum::<usize>(), 6, "{out}");
}

/// `play` with bad arguments: exit status 2, nothing on stdout, one clear `error:` on stderr.
fn refused(args: &[&str]) -> String {
    let o = run_in(&scripts_dir(), args, "show\n");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(stdout(&o).is_empty(), "{args:?}: stdout {}", stdout(&o));
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    err
}

#[test]
fn play_of_an_unknown_game_is_refused() {
    let err = refused(&["play", "nosuch"]);
    assert!(err.contains("no game `nosuch`"), "{err}");
    assert!(
        err.contains("virus-wars"),
        "the message lists the games: {err}"
    );
    let err = refused(&["play", "virus-wars/nosuch", "--json"]);
    assert!(err.contains("virus-wars/nosuch"), "{err}");
}

#[test]
fn bad_options_are_refused() {
    let err = refused(&["play", "virus-wars", "--option", "size=abc"]);
    assert!(err.contains("size") && err.contains("abc"), "{err}");
    let err = refused(&["play", "virus-wars", "--option", "nosuch=1"]);
    assert!(err.contains("no option `nosuch`"), "{err}");
    assert!(err.contains("size"), "the message lists the options: {err}");
    let err = refused(&["play", "virus-wars", "-o", "size=99"]);
    assert!(err.contains("size") && err.contains("99"), "{err}");
    let err = refused(&["play", "virus-wars", "--option", "size"]);
    assert!(err.contains("KEY=VALUE"), "{err}");
    let err = refused(&["play", "virus-wars", "--option", "start=corners"]);
    assert!(err.contains("corners") && err.contains("edges"), "{err}");
    let err = refused(&["play", "virus-wars", "--seats", "3"]);
    assert!(err.contains("2 seats"), "{err}");
    // sim refuses them the same way (for check, see below).
    let err = refused(&["sim", "virus-wars", "--option", "nosuch=1", "--quiet"]);
    assert!(err.contains("no option `nosuch`"), "{err}");
}

#[test]
fn check_refuses_bad_options() {
    let err = refused(&["check", "virus-wars", "--option", "size=abc"]);
    assert!(err.contains("size") && err.contains("abc"), "{err}");
}

#[test]
fn good_options_are_used() {
    let o = run_in(
        &scripts_dir(),
        &["play", "virus-wars", "--option", "size=5"],
        "eval g.grid(\"board\").width\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "5\n");
}
