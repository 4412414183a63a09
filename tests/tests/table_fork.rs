//! `Table::fork` (issue 26): a copy of a live game made on its table's thread, with no
//! compiling and no replay. The fork goes on exactly as the original would (hidden cards,
//! deck order and RNG carried), its history is the original's, neither sees the other's
//! later moves, and the fork keeps the game's limits.

use boardscript_interpreter::{GameSource, Seat, Setup, Table, TableError};
use std::path::{Path, PathBuf};

fn source_in(root: &Path, id: &str) -> GameSource {
    GameSource::find(root, id).unwrap_or_else(|e| panic!("reading {id}: {e}"))
}

fn table(id: &str, seats: Option<usize>, seed: u64) -> Table {
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    let setup = Setup {
        seats,
        seed,
        ..Setup::default()
    };
    Table::new(&source_in(&scripts, id), setup).unwrap()
}

/// A small deterministic choice among `n` (a linear congruential step): the same `state`
/// picks the same actions on two tables.
fn pick(state: &mut u64, n: usize) -> usize {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    ((*state >> 33) % n as u64) as usize
}

/// Plays up to `n` actions chosen by `rng` among the first deciding seat's options; returns
/// them.
fn advance(t: &Table, rng: &mut u64, n: usize) -> Vec<(Seat, String)> {
    let mut played = vec![];
    for _ in 0..n {
        let Some(&seat) = t.deciding().unwrap().first() else {
            break;
        };
        let options = t.decision(seat).unwrap().options;
        let action = options[pick(rng, options.len())].clone();
        t.apply(seat, &action).unwrap();
        played.push((seat, action));
    }
    played
}

/// Every seat's view as JSON, and the whole state (hidden cards, deck order, RNG).
fn everything(t: &Table) -> (Vec<serde_json::Value>, serde_json::Value) {
    let views = t.seats().into_iter().map(|s| t.view(s).unwrap().to_json());
    (views.collect(), t.referee_json().unwrap())
}

/// The fork, given the same actions, goes on exactly as its original: every view and the
/// whole state (so hidden cards and the RNG) equal after each action, the same ending.
/// Fibs reshuffles its discard pile mid-game and Cosmic Disaster rolls as it goes, so a
/// fork with another RNG would part from its original.
#[test]
fn a_fork_given_the_same_actions_goes_on_as_its_original() {
    for (id, seats, seed, before) in [
        ("fibs", Some(3), 4, 20),
        ("cosmic-disaster", Some(2), 1, 6),
        ("virus-war-kr", None, 2, 10),
    ] {
        let t = table(id, seats, seed);
        advance(&t, &mut 7, before);
        let fork = t.fork().unwrap();
        assert_eq!(
            everything(&fork),
            everything(&t),
            "{id}: the fork starts equal"
        );
        let mut rng = 99;
        for step in 0..10_000 {
            let Some(&seat) = t.deciding().unwrap().first() else {
                break;
            };
            assert_eq!(fork.decision(seat).unwrap(), t.decision(seat).unwrap());
            let options = t.decision(seat).unwrap().options;
            let action = &options[pick(&mut rng, options.len())];
            assert_eq!(
                t.apply(seat, action),
                fork.apply(seat, action),
                "{id} {step}"
            );
            assert_eq!(everything(&fork), everything(&t), "{id} after {step}");
        }
        let ending = t.outcome().unwrap();
        assert!(ending.is_some(), "{id}: the game ended");
        assert_eq!(fork.outcome().unwrap(), ending, "{id}");
        assert_eq!(fork.save().unwrap(), t.save().unwrap(), "{id}");
    }
}

/// A fork that goes its own way changes nothing of the original, nor the other way round;
/// a fork of the fork is a third game.
#[test]
fn a_fork_and_its_original_go_their_own_ways() {
    let t = table("fibs", Some(3), 6);
    advance(&t, &mut 1, 15);
    let before = (everything(&t), t.save().unwrap());
    let fork = t.fork().unwrap();
    let played = advance(&fork, &mut 2, 12);
    assert_eq!(played.len(), 12);
    assert_eq!((everything(&t), t.save().unwrap()), before);
    assert_ne!(everything(&fork), before.0);

    let after_fork = (everything(&fork), fork.save().unwrap());
    advance(&t, &mut 3, 5);
    assert_eq!((everything(&fork), fork.save().unwrap()), after_fork);

    let third = fork.fork().unwrap();
    advance(&third, &mut 4, 5);
    assert_eq!((everything(&fork), fork.save().unwrap()), after_fork);
}

/// The fork's history is the original's: the same actions, and its undo takes back moves
/// played before the fork (the original keeps them). Redo is carried too.
#[test]
fn a_fork_carries_the_history_its_undo_takes_back() {
    let t = table("connect-four", None, 1);
    let start = everything(&t);
    for (seat, action) in [(0, "d"), (1, "c"), (0, "d")] {
        t.apply(t.seat_at(seat).unwrap(), action).unwrap();
    }
    assert_eq!(t.undo(1).unwrap(), 1);
    let fork = t.fork().unwrap();
    assert_eq!(fork.actions().unwrap(), t.actions().unwrap());
    assert_eq!(
        fork.redo(5).unwrap(),
        1,
        "the undone move can be played again"
    );
    assert_eq!(fork.undo(10).unwrap(), 3);
    assert_eq!(everything(&fork), start);
    assert_eq!(
        t.actions().unwrap().len(),
        2,
        "the original keeps its moves"
    );
    assert_eq!(t.redo(1).unwrap(), 1, "and its own redo");
}

/// A fork of a finished game is finished alike: the same outcome, nobody deciding, an
/// action refused as after the end; its undo reopens only the fork.
#[test]
fn a_fork_of_a_finished_game_is_over_too() {
    let t = table("connect-four", None, 3);
    advance(&t, &mut 5, 1_000);
    let ending = t
        .outcome()
        .unwrap()
        .expect("connect-four ends within 42 moves");
    let fork = t.fork().unwrap();
    assert_eq!(fork.outcome().unwrap(), Some(ending.clone()));
    assert_eq!(fork.deciding().unwrap(), vec![]);
    assert_eq!(fork.returns().unwrap(), t.returns().unwrap());
    assert_eq!(
        fork.apply(fork.seat_at(0).unwrap(), "a"),
        Err(TableError::Over)
    );
    assert_eq!(fork.undo(1).unwrap(), 1);
    assert_eq!(fork.outcome().unwrap(), None);
    assert_eq!(t.outcome().unwrap(), Some(ending));
}

/// The fork runs on the rules of its original, limits included: the action the original's
/// state budget refuses is refused on the fork too, with the same error, and changes
/// nothing there.
#[test]
fn a_fork_keeps_the_games_limits() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("hoard");
    std::fs::create_dir_all(&game).unwrap();
    // Each `go` stores 1,000 more numbers (about 32,000 units): the fourth is over budget.
    std::fs::write(
        game.join("game.toml"),
        "[seats]\nnames = [\"a\", \"b\"]\n[limits]\nstate_size = 120000\n",
    )
    .unwrap();
    std::fs::write(
        game.join("rules.rhai"),
        "fn setup(g) { g.set(\"n\", 0); }\nfn legal_actions(g, seat) { [\"go\"] }\n\
         fn apply(g, seat, action) { let row = []; row.pad(1000, g.get(\"n\")); \
         g.set(`k${g.get(\"n\")}`, row); g.set(\"n\", g.get(\"n\") + 1); }\n\
         fn winners(g) { [] }\n",
    )
    .unwrap();
    let t = Table::new(&source_in(dir.path(), "hoard"), Setup::default()).unwrap();
    for _ in 0..3 {
        t.play(None, "go").unwrap();
    }
    let refused = t.play(None, "go").unwrap_err();
    assert!(refused.to_string().contains("`state_size`"), "{refused}");
    let fork = t.fork().unwrap();
    let before = everything(&fork);
    assert_eq!(fork.play(None, "go").unwrap_err(), refused);
    assert_eq!(everything(&fork), before);
    // Taken back on the fork, the budget has room again there.
    fork.undo(1).unwrap();
    assert!(fork.play(None, "go").is_ok());
}

/// A fork outlives its original: the thread they share stays while either is held, and
/// each dropped game is gone from it.
#[test]
fn a_fork_outlives_its_original() {
    let t = table("fibs", Some(3), 2);
    advance(&t, &mut 8, 5);
    let saved = t.save().unwrap();
    let forks: Vec<Table> = (0..3).map(|_| t.fork().unwrap()).collect();
    drop(t);
    for fork in &forks {
        assert_eq!(fork.save().unwrap(), saved);
        assert_eq!(advance(fork, &mut 9, 4).len(), 4);
    }
    let kept = forks.into_iter().last().unwrap();
    assert_eq!(kept.actions().unwrap().len(), saved.actions.len() + 4);
}
