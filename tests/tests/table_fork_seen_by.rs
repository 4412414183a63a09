//! `Table::fork_seen_by` (issue 26, for OpenSpiel's information-set search): a fork whose
//! hidden information is drawn anew from one seat's view. That seat sees the same game in
//! it; what the seat cannot see is redrawn (so another seat's hand differs in some draw);
//! the same seed draws the same fork; and a drawn position has no save to replay.

use boardscript_interpreter::{GameSource, Seat, Setup, Table, TableError};
use std::path::PathBuf;

fn table(id: &str, seats: Option<usize>, seed: u64) -> Table {
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    let source = GameSource::find(&scripts, id).unwrap_or_else(|e| panic!("reading {id}: {e}"));
    let setup = Setup {
        seats,
        seed,
        ..Setup::default()
    };
    Table::new(&source, setup).unwrap()
}

/// Plays `n` actions, each the first deciding seat's option `k % len` for a changing `k`.
fn advance(t: &Table, n: usize) {
    for k in 0..n {
        let Some(&seat) = t.deciding().unwrap().first() else {
            return;
        };
        let options = t.decision(seat).unwrap().options;
        t.apply(seat, &options[(k * 7 + 3) % options.len()])
            .unwrap();
    }
}

/// The zones' cards of a view (what a seat sees of every hand and pile).
fn zones(t: &Table, seat: Seat) -> serde_json::Value {
    t.view(seat).unwrap().state_json()["zones"].clone()
}

#[test]
fn the_seat_sees_the_same_game_and_the_rest_is_drawn_anew() {
    let t = table("fibs", Some(3), 7);
    advance(&t, 6);
    let me = t.seat_at(0).unwrap();
    let other = t.seat_at(1).unwrap();
    let whole = t.referee_json().unwrap();
    let mut redrawn = 0;
    for seed in 0..8 {
        let drawn = t.fork_seen_by(me, seed).unwrap();
        assert_eq!(
            zones(&drawn, me),
            zones(&t, me),
            "seed {seed}: the seat's own view"
        );
        assert_eq!(drawn.view(me).unwrap().log(), t.view(me).unwrap().log());
        assert_eq!(drawn.deciding().unwrap(), t.deciding().unwrap());
        assert_eq!(
            drawn.decision(me).unwrap().options,
            t.decision(me).unwrap().options
        );
        redrawn += usize::from(zones(&drawn, other) != zones(&t, other));
        // The same seed draws the same world.
        let again = t.fork_seen_by(me, seed).unwrap();
        assert_eq!(again.referee_json().unwrap(), drawn.referee_json().unwrap());
        // The drawn game plays on.
        advance(&drawn, 3);
    }
    assert!(
        redrawn > 0,
        "no draw changed another seat's hand in 8 seeds"
    );
    assert_eq!(
        t.referee_json().unwrap(),
        whole,
        "the original is unchanged"
    );
}

#[test]
fn a_drawn_position_has_no_save_and_no_history() {
    let t = table("fibs", Some(3), 2);
    advance(&t, 4);
    let drawn = t.fork_seen_by(t.seat_at(2).unwrap(), 1).unwrap();
    assert!(drawn.actions().unwrap().is_empty());
    assert_eq!(drawn.undo(1).unwrap(), 0);
    let refused = drawn.save().unwrap_err();
    assert!(
        matches!(&refused, TableError::Rules(m) if m.contains("drawn for a seat") && m.contains("no save")),
        "{refused}"
    );
    // A fork of a drawn position is drawn too; a load makes it a played game again.
    let copy = drawn.fork().unwrap();
    assert!(matches!(copy.save(), Err(TableError::Rules(_))));
    copy.load(t.save().unwrap()).unwrap();
    assert_eq!(copy.referee_json().unwrap(), t.referee_json().unwrap());
    assert_eq!(copy.save().unwrap().actions.len(), 4);
}

#[test]
fn a_seat_the_game_does_not_have_is_refused() {
    let t = table("fibs", Some(3), 2);
    let fifth = table("fibs", Some(5), 2).seat_at(4).unwrap();
    let refused = t.fork_seen_by(fifth, 0).err().expect("refused");
    assert!(
        matches!(refused, TableError::NoSeat { index: 4, seats: 3 }),
        "{refused}"
    );
}
