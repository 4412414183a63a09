//! `Table::returns` (issue 26): each seat's reward once the game is over, as the bots score
//! it, and nothing while it goes on.

use boardscript_interpreter::{GameSource, Setup, Table};
use std::path::PathBuf;

fn table(id: &str, seed: u64) -> Table {
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    let source = GameSource::find(&scripts, id).unwrap();
    Table::new(
        &source,
        Setup {
            seed,
            ..Setup::default()
        },
    )
    .unwrap()
}

#[test]
fn returns_are_one_for_the_winners_and_zero_for_the_others() {
    let mut decisive = 0;
    for seed in 0..6 {
        let t = table("connect-four", seed);
        assert_eq!(t.returns().unwrap(), None, "no returns before the end");
        while let Some(&seat) = t.deciding().unwrap().first() {
            t.play_bot(seat, "random").unwrap();
        }
        let winners = t.outcome().unwrap().unwrap().winners;
        let returns = t.returns().unwrap().expect("over");
        assert_eq!(returns.len(), 2);
        if winners.is_empty() {
            assert_eq!(
                returns,
                vec![0.5, 0.5],
                "a draw splits the game (seed {seed})"
            );
            continue;
        }
        decisive += 1;
        for seat in t.seats() {
            let want = if winners.contains(&seat) { 1.0 } else { 0.0 };
            assert_eq!(returns[seat.index()], want, "seed {seed}");
        }
    }
    assert!(
        decisive > 0,
        "some random game of Connect Four has a winner"
    );
}
