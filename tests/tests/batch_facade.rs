//! The facade's batch calls (issue 24), as `sim`, `arena` and `check` use them: many games
//! of one `GameSource` on several threads, tallied the same whatever the threads or the
//! split; bot lineups checked before any game starts; playouts checked with the failing
//! script line shown.

use boardscript_interpreter::batch::{Batch, Checked, GameOutcome, Tally};
use boardscript_interpreter::{BotSpec, GameSource, Setup, TableError};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

fn source(id: &str) -> Arc<GameSource> {
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    Arc::new(GameSource::find(&scripts, id).unwrap_or_else(|e| panic!("reading {id}: {e}")))
}

fn batch(id: &str, seed: u64) -> Batch {
    Batch::new(
        source(id),
        Setup {
            seed,
            ..Setup::default()
        },
    )
}

fn bot(spec: &str) -> BotSpec {
    BotSpec::parse(spec).expect("a bot")
}

#[test]
fn random_batches_add_up_whatever_the_threads_or_the_split() {
    let one = batch("connect-four", 5).random(0..24, &|_| true).unwrap();
    assert_eq!(one.tally.games, 24);
    assert_eq!(one.seats, ["x", "o"]);
    let ended: u64 = one.tally.wins.iter().sum::<u64>() + one.tally.no_winner;
    assert_eq!(ended, 24, "every game ends: {:?}", one.tally);
    let three = batch("connect-four", 5)
        .threads(3)
        .random(0..24, &|_| true)
        .unwrap();
    assert_eq!(three.tally, one.tally);
    assert_eq!(three.threads, 3);
    let mut split = batch("connect-four", 5)
        .random(0..10, &|_| true)
        .unwrap()
        .tally;
    split.merge(
        batch("connect-four", 5)
            .random(10..24, &|_| true)
            .unwrap()
            .tally,
    );
    assert_eq!(split, one.tally);
    let other_seed = batch("connect-four", 6).random(0..24, &|_| true).unwrap();
    assert_ne!(
        other_seed.tally, one.tally,
        "the setup's seed seeds the games"
    );
}

#[test]
fn seating_names_seats_and_options_with_their_defaults() {
    let seating = batch("virus-wars", 1).seating().unwrap();
    assert_eq!(seating.seats.len(), 2);
    assert!(
        !seating.options.is_empty(),
        "virus-wars has options, defaults included: {seating:?}"
    );
}

#[test]
fn a_bad_lineup_is_refused_before_any_game() {
    let played = |n: u64| {
        assert_eq!(n, u64::MAX, "no game may be played");
        true
    };
    let b = batch("connect-four", 1);
    match b.bots(0..3, &[bot("random")], &played) {
        Err(TableError::Bot(m)) => assert_eq!(m, "1 bot(s) for 2 seat(s)"),
        other => panic!("one bot for two seats: {other:?}"),
    }
    match b.bots(0..3, &[bot("random"), bot("mcts:itres=5")], &played) {
        Err(TableError::Bot(m)) => assert!(m.contains("itres"), "{m}"),
        other => panic!("an unknown setting: {other:?}"),
    }
}

#[test]
fn bots_play_their_seats_and_a_round_robin_scores_by_entrant() {
    let b = batch("connect-four", 2).threads(2);
    let report = b
        .bots(0..4, &[bot("greedy"), bot("random")], &|_| true)
        .unwrap();
    assert_eq!(report.tally.games, 4);
    assert_eq!(report.tally.failed, 0, "{:?}", report.tally.failures);
    // Game i seats entrant i % 2 first; the score counts the first entrant's wins in slot 0,
    // the second's in slot 1.
    let seen = Mutex::new(BTreeSet::new());
    let entrants = [bot("random"), bot("greedy")];
    let lineup = |i: u64| {
        seen.lock().unwrap().insert(i);
        let first = (i % 2) as usize;
        vec![entrants[first].clone(), entrants[1 - first].clone()]
    };
    let score = |i: u64, mut o: GameOutcome| {
        let first = (i % 2) as usize;
        o.winners = o.winners.iter().map(|&seat| seat ^ first).collect();
        o
    };
    let (tally, _) = b
        .bot_games(0..6, &Tally::new(2, vec![]), &lineup, &score, &|_| true)
        .unwrap();
    assert_eq!(tally.games, 6);
    // Every game's lineup was asked for (the first also to check it before any game).
    assert_eq!(*seen.lock().unwrap(), (0..6).collect::<BTreeSet<u64>>());
    assert_eq!(tally.wins[0] + tally.wins[1] + tally.no_winner, 6);
}

/// A game whose `apply` fails on its third action: `check` reports it with the line.
const BROKEN: &str = r#"fn setup(g) { g.set_counter("n", 0); }
fn legal_actions(g, seat) { ["go"] }
fn apply(g, seat, action) {
    g.add_counter("n", 1);
    if g.counter("n") == 3 { throw "the third go"; }
}
fn winners(g) { [] }
"#;

#[test]
fn check_reports_a_failing_playout_with_its_script_line() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("broken");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(game.join("game.toml"), "[seats]\nnames = [\"a\"]\n").unwrap();
    std::fs::write(game.join("rules.rhai"), BROKEN).unwrap();
    let source = Arc::new(GameSource::read(&game, "broken").unwrap());
    let batch = Batch::new(source, Setup::default());
    let mut seen: Vec<Checked> = vec![];
    batch
        .check(3..5, false, &mut |c| {
            seen.push(c);
            true
        })
        .unwrap();
    assert_eq!(seen.iter().map(|c| c.index).collect::<Vec<_>>(), [3, 4]);
    let problem = seen[0].problem.as_ref().expect("the third action fails");
    assert_eq!(problem.what, "failed after 2 action(s)");
    assert!(problem.error.contains("the third go"), "{}", problem.error);
    assert!(problem.error.contains("rules.rhai:5:"), "{}", problem.error);
    let excerpt = problem.excerpt.as_deref().expect("the line shown");
    assert!(excerpt.contains("throw \"the third go\""), "{excerpt}");
    assert_eq!(seen[0].only_mover, Some(0));
    // `each` returning false stops the batch after that playout.
    let mut count = 0;
    batch
        .check(0..10, false, &mut |_| {
            count += 1;
            count < 2
        })
        .unwrap();
    assert_eq!(count, 2);
}

#[test]
fn check_passes_a_sound_game_with_the_leak_check() {
    let mut problems = vec![];
    batch("fibs", 1)
        .check(0..2, true, &mut |c| {
            problems.extend(c.problem);
            true
        })
        .unwrap();
    assert_eq!(problems, []);
}
