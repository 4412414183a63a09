//! End texts come from the end reason (issue 20 item 15): `render` says how a game ended in
//! the words the rules gave `g.end_game` (`g.outcome()`, `g.end_reason()`), so a variant
//! that changes the rule changes the text, and no shipped game restates its own rule.

use boardscript_interpreter::{Game, Match, Setup};
use boardscript_tests::{load, play_random, scripts_dir};
use std::path::Path;

/// Copies the folder `from` to `to`, files and subfolders.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A house rule of Connect Four written as a variant overlay in a temp folder: three in a row
/// win. Only `apply` changes; `render` is the base game's.
const THREE_IN_A_ROW: &str = r#"
fn apply(g, seat, column) {
    let board = g.grid("board");
    let cell = board.drop(column, seat);
    if board.longest_line(cell) >= 3 {
        g.set("winner", seat);
        g.end_game([seat], "three in a row");
    }
}
"#;

/// Item 15: the variant's win reads `x wins (three in a row)` in `show` and in `status`
/// alike; the base game's "four in a row" appears nowhere.
#[test]
fn i20_15_a_variant_ends_in_its_own_words() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("connect-four");
    copy_dir(&scripts_dir().join("connect-four"), &base);
    let variant = base.join("variants").join("three");
    std::fs::create_dir_all(&variant).unwrap();
    std::fs::write(
        variant.join("game.toml"),
        "title = \"Connect Three\"\nbase = \"connect-four\"\nscripts = [\"three.rhai\"]\n",
    )
    .unwrap();
    std::fs::write(variant.join("three.rhai"), THREE_IN_A_ROW).unwrap();
    let game = Game::find(dir.path(), "connect-four/three").unwrap();
    let mut m = Match::new(game, Setup::default()).unwrap();
    for (seat, column) in [("x", "a"), ("o", "b"), ("x", "a"), ("o", "b"), ("x", "a")] {
        m.play(Some(seat), column).unwrap();
    }
    assert!(m.game.is_over(&m.state).unwrap());
    let shown = m.game.render(&m.state, None).unwrap();
    let status = m.game.outcome(&m.state).unwrap().describe(&m.state.seats);
    assert_eq!(status, "x wins (three in a row)");
    assert_eq!(
        shown.lines().last(),
        Some("x wins (three in a row)"),
        "{shown}"
    );
    assert!(!shown.contains("four"), "{shown}");
    assert_eq!(
        m.game.eval(&m.state, "g.end_reason()").unwrap(),
        "\"three in a row\""
    );
}

/// While the game goes on, the outcome and the end reason are empty.
#[test]
fn i20_15_no_outcome_while_the_game_goes_on() {
    let m = Match::new(load("connect-four"), Setup::default()).unwrap();
    // `eval` shows a string quoted.
    assert_eq!(m.game.eval(&m.state, "g.outcome()").unwrap(), "\"\"");
    assert_eq!(m.game.eval(&m.state, "g.end_reason()").unwrap(), "\"\"");
}

/// Every shipped game whose rules end it with `g.end_game` shows that end, as `status` words
/// it, in every seat's `show` and a spectator's, at the end of seeded random games.
#[test]
fn i20_15_every_game_shows_the_end_it_was_given() {
    let games = [
        ("connect-four", None),
        ("hex", None),
        ("breakthrough", None),
        ("cosmic-disaster", Some(3)),
        ("virus-war-kr", Some(4)),
        ("nemesis", Some(2)),
    ];
    for (id, seats) in games {
        let mut ended = 0;
        for seed in 1..=4u64 {
            let setup = Setup {
                seats,
                seed,
                ..Setup::default()
            };
            let mut m = Match::new(load(id), setup).unwrap();
            play_random(&mut m, 100_000, seed, |_| false);
            let Some(result) = m.state.result.clone() else {
                continue;
            };
            ended += 1;
            let text = result.describe(&m.state.seats);
            let viewers = (0..m.state.seats.len()).map(Some).chain([None]);
            for seat in viewers {
                let shown = m.game.render(&m.state, seat).unwrap();
                assert!(
                    shown.contains(&text),
                    "{id} seed {seed}, seat {seat:?}: `{text}` not in\n{shown}"
                );
            }
        }
        assert!(ended > 0, "{id}: no game ended through g.end_game");
    }
}
