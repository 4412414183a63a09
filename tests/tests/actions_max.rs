//! Issue 26: `[actions] max` in game.toml, the most legal actions one decision may offer
//! (a bound for fixed-size action spaces, as PettingZoo's): read into the spec, a
//! variant's replacing its base's, refused unless at least 1, and held to by the table.

use boardscript_interpreter::{GameSource, Setup, Table, TableError};
use std::path::Path;

/// Three legal actions a turn, for ten turns.
const RULES: &str = r#"
fn setup(g) { }
fn legal_actions(g, seat) { if g.actions_applied() >= 10 { [] } else { ["a", "b", "c"] } }
fn apply(g, seat, action) { }
fn winners(g) { [] }
"#;

fn write_game(root: &Path, folder: &str, max: &str) {
    let dir = root.join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    let manifest =
        format!("title = \"Three\"\nscripts = [\"rules.rhai\"]\n[actions]\n{max}\n[seats]\nnames = [\"n\", \"s\"]\n");
    std::fs::write(dir.join("game.toml"), manifest).unwrap();
    std::fs::write(dir.join("rules.rhai"), RULES).unwrap();
}

fn table(root: &Path, id: &str) -> Table {
    let source = GameSource::find(root, id).unwrap();
    Table::new(&source, Setup::default()).unwrap()
}

#[test]
fn the_declared_bound_is_read_and_a_variant_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    write_game(dir.path(), "three", "max = 3");
    let variant = dir.path().join("three/variants/wide");
    std::fs::create_dir_all(&variant).unwrap();
    std::fs::write(
        variant.join("game.toml"),
        "title = \"Wide\"\nbase = \"three\"\n[actions]\nmax = 40\n",
    )
    .unwrap();
    let base = GameSource::find(dir.path(), "three").unwrap();
    assert_eq!(base.spec().max_actions, Some(3));
    let wide = GameSource::find(dir.path(), "three/wide").unwrap();
    assert_eq!(wide.spec().max_actions, Some(40));
    write_game(dir.path(), "open", "");
    let open = GameSource::find(dir.path(), "open").unwrap();
    assert_eq!(open.spec().max_actions, None);
}

#[test]
fn a_bound_below_one_is_refused_where_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    for (folder, max) in [("zero", "max = 0"), ("minus", "max = -2")] {
        write_game(dir.path(), folder, max);
        let error = GameSource::find(dir.path(), folder)
            .err()
            .unwrap_or_else(|| panic!("{max} was accepted"))
            .to_string();
        assert!(error.contains("game.toml:4:7"), "{error}");
        assert!(error.contains("at least 1"), "{error}");
    }
}

#[test]
fn a_decision_within_the_bound_is_given_and_one_beyond_it_is_a_rules_fault() {
    let dir = tempfile::tempdir().unwrap();
    write_game(dir.path(), "three", "max = 3");
    write_game(dir.path(), "two", "max = 2");
    let within = table(dir.path(), "three");
    assert_eq!(
        within.decision(within.seat_at(0).unwrap()).unwrap().options,
        ["a", "b", "c"]
    );
    let beyond = table(dir.path(), "two");
    match beyond.decision(beyond.seat_at(0).unwrap()) {
        Err(TableError::Rules(why)) => {
            assert!(why.contains("n has 3 legal actions"), "{why}");
            assert!(why.contains("`[actions] max = 2`"), "{why}");
        }
        other => panic!("expected a rules fault, got {other:?}"),
    }
    // Refused, nothing changed: the game still plays.
    assert_eq!(beyond.apply(beyond.seat_at(0).unwrap(), "b").unwrap(), "b");
}

/// The shipped games that declare a bound keep to it in a random game, and Hex's largest
/// board offers exactly its bound at the first move.
#[test]
fn shipped_games_keep_to_their_declared_bound() {
    let scripts = boardscript_tests::scripts_dir();
    let cases = [
        ("connect-four", vec![]),
        ("breakthrough", vec![]),
        ("hex", vec![("size", "26")]),
        ("virus-wars", vec![]),
        ("virus-wars/blitz", vec![]),
    ];
    for (id, options) in cases {
        let source = GameSource::find(&scripts, id).unwrap();
        let max = source.spec().max_actions.expect(id);
        let setup = Setup {
            seed: 5,
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Setup::default()
        };
        let table = Table::new(&source, setup).unwrap();
        let mut most = 0;
        for turn in 0..400u64 {
            let Some(&seat) = table.deciding().unwrap().first() else {
                break;
            };
            let options = table.decision(seat).unwrap().options;
            most = most.max(options.len());
            let pick = (turn * 7919 % options.len() as u64) as usize;
            table.apply(seat, &options[pick]).unwrap();
        }
        assert!(most <= max, "{id}: {most} > {max}");
        if id == "hex" {
            assert_eq!(most, max, "hex 26x26 opens with every cell");
        }
    }
}
