//! A bot asked to play for a seat that is not deciding is refused as that seat's own action
//! would be (`NotDeciding`, or `Over`), not as a failing bot (issue 26: Python callers catch
//! the refusal by its class).

use boardscript_interpreter::{GameSource, Setup, Table, TableError};
use std::path::PathBuf;

#[test]
fn a_bot_for_a_seat_not_deciding_is_refused_as_not_deciding() {
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    let source = GameSource::find(&scripts, "connect-four").unwrap();
    let t = Table::new(&source, Setup::default()).unwrap();
    let (x, o) = (t.seat("x").unwrap(), t.seat("o").unwrap());
    let before = t.save().unwrap();
    assert_eq!(
        t.play_bot(o, "random"),
        Err(TableError::NotDeciding {
            seat: "o".into(),
            waiting: "x".into()
        })
    );
    assert_eq!(t.save().unwrap(), before);
    for column in ["a", "b", "a", "b", "a", "b", "a"] {
        t.apply(t.deciding().unwrap()[0], column).unwrap();
    }
    assert_eq!(t.outcome().unwrap().unwrap().winners, vec![x]);
    assert_eq!(t.play_bot(o, "random"), Err(TableError::Over));
}

#[test]
fn a_bots_choice_is_what_it_plays_and_plays_nothing() {
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    let source = GameSource::find(&scripts, "fibs").unwrap();
    for seed in 0..4 {
        let t = Table::new(
            &source,
            Setup {
                seed,
                ..Setup::default()
            },
        )
        .unwrap();
        for _ in 0..3 {
            let seat = t.deciding().unwrap()[0];
            t.play_bot(seat, "random").unwrap();
        }
        let seat = t.deciding().unwrap()[0];
        let before = t.save().unwrap();
        let choice = t.bot_choice(seat, "mcts:iters=30").unwrap();
        assert_eq!(t.save().unwrap(), before, "a choice plays nothing");
        assert!(t.decision(seat).unwrap().options.contains(&choice));
        assert_eq!(t.bot_choice(seat, "mcts:iters=30").unwrap(), choice);
        assert_eq!(
            t.play_bot(seat, "mcts:iters=30").unwrap(),
            choice,
            "seed {seed}"
        );
    }
    let t = Table::new(&source, Setup::default()).unwrap();
    let idle = t
        .seats()
        .into_iter()
        .find(|s| !t.deciding().unwrap().contains(s));
    assert!(matches!(
        t.bot_choice(idle.unwrap(), "random"),
        Err(TableError::NotDeciding { .. })
    ));
}
