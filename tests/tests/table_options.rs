//! The cheap step path of the facade (issue 26): `Table::options` (a seat's options as text)
//! and `Table::apply_option` (one played by its place in the list), and the table's memory
//! of who decides now, which every change must forget.

use boardscript_interpreter::{GameSource, Setup, Table, TableError};
use std::path::PathBuf;

fn table(id: &str, seats: Option<usize>, seed: u64) -> Table {
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    let source = GameSource::find(&scripts, id).unwrap_or_else(|e| panic!("{id}: {e}"));
    let setup = Setup {
        seats,
        seed,
        ..Setup::default()
    };
    Table::new(&source, setup).unwrap()
}

/// Playing option `i` by index is playing its text: at every step of a random game, a fork
/// plays the text and the table the index, and the two stay equal (whole state, log, save).
#[test]
fn an_option_played_by_index_is_the_option_played_by_text() {
    for (id, seats, seed) in [
        ("connect-four", None, 1),
        ("fibs", Some(3), 2),
        ("virus-war-kr", None, 3),
        ("cosmic-disaster", Some(2), 4),
    ] {
        let t = table(id, seats, seed);
        let mut pick = seed;
        let mut steps = 0;
        while let Some(&seat) = t.deciding().unwrap().first() {
            let options = t.options(seat).unwrap();
            assert_eq!(options, t.decision(seat).unwrap().options, "{id} {steps}");
            pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1);
            let i = (pick >> 33) as usize % options.len();
            let by_text = t.fork().unwrap();
            let logged = t.apply_option(seat, i).unwrap();
            assert_eq!(by_text.apply(seat, &options[i]).unwrap(), logged);
            assert_eq!(by_text.referee_json().unwrap(), t.referee_json().unwrap());
            assert_eq!(by_text.save().unwrap(), t.save().unwrap());
            steps += 1;
            assert!(steps < 5_000, "{id} did not end");
        }
        assert!(t.outcome().unwrap().is_some(), "{id}");
    }
}

/// An index past the list, a seat not deciding, a finished game: each refused as `apply`
/// refuses, and nothing changes.
#[test]
fn a_bad_option_is_refused_and_changes_nothing() {
    let t = table("connect-four", None, 1);
    let (x, o) = (t.seat_at(0).unwrap(), t.seat_at(1).unwrap());
    let before = (t.referee_json().unwrap(), t.save().unwrap());
    assert!(matches!(
        t.apply_option(x, 7),
        Err(TableError::Illegal { action, legal, .. })
            if action == "action number 8" && legal == "7 actions"
    ));
    assert!(matches!(
        t.apply_option(o, 0),
        Err(TableError::NotDeciding { seat, .. }) if seat == "o"
    ));
    assert_eq!(t.options(o).unwrap(), Vec::<String>::new());
    assert_eq!((t.referee_json().unwrap(), t.save().unwrap()), before);
    for _ in 0..3 {
        t.apply_option(x, 0).unwrap();
        t.apply_option(o, 1).unwrap();
    }
    t.apply_option(x, 0).unwrap();
    assert!(t.outcome().unwrap().is_some(), "x wins down column a");
    assert_eq!(t.apply_option(o, 0), Err(TableError::Over));
}

/// Who decides is remembered between calls, and forgotten by every change: an action, an
/// undo, a redo, a rewind to a mark, a load.
#[test]
fn every_change_forgets_who_decided() {
    let t = table("connect-four", None, 1);
    let (x, o) = (t.seat_at(0).unwrap(), t.seat_at(1).unwrap());
    assert_eq!(t.deciding().unwrap(), vec![x]);
    t.apply_option(x, 3).unwrap();
    assert_eq!(t.deciding().unwrap(), vec![o]);
    assert_eq!(t.undo(1).unwrap(), 1);
    assert_eq!(t.deciding().unwrap(), vec![x]);
    assert_eq!(t.redo(1).unwrap(), 1);
    assert_eq!(t.deciding().unwrap(), vec![o]);
    let mark = t.mark().unwrap();
    t.apply(o, "d").unwrap();
    assert_eq!(t.deciding().unwrap(), vec![x]);
    assert_eq!(t.options(x).unwrap().len(), 7);
    t.rewind(&mark).unwrap();
    assert_eq!(t.deciding().unwrap(), vec![o]);
    let save = t.save().unwrap();
    t.apply(o, "d").unwrap();
    assert_eq!(t.deciding().unwrap(), vec![x]);
    t.load(save).unwrap();
    assert_eq!(t.deciding().unwrap(), vec![o]);
    // A full column drops out of the options once filled, not before.
    for _ in 0..5 {
        let seat = t.deciding().unwrap()[0];
        t.apply(seat, "a").unwrap();
    }
    let seat = t.deciding().unwrap()[0];
    assert!(t.options(seat).unwrap().contains(&"a".to_string()));
    t.apply(seat, "a").unwrap();
    let seat = t.deciding().unwrap()[0];
    assert!(!t.options(seat).unwrap().contains(&"a".to_string()));
}
