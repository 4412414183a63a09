//! `Table::played_verbs` (issue 24): the first words of the actions played, each once, which
//! the REPL reads to tell an action from a command without copying the log.

use boardscript_interpreter::{GameSource, Setup, Table};
use std::collections::BTreeSet;
use std::path::PathBuf;

fn table(id: &str) -> Table {
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    let source = GameSource::find(&scripts, id).unwrap();
    let setup = Setup {
        seats: Some(2),
        seed: 9,
        ..Setup::default()
    };
    Table::new(&source, setup).unwrap()
}

#[test]
fn played_verbs_are_the_first_words_of_the_log_each_once() {
    let t = table("fibs");
    assert!(t.played_verbs().unwrap().is_empty());
    for _ in 0..8 {
        let seat = t.deciding().unwrap()[0];
        t.play_bot(seat, "random").unwrap();
    }
    let log: Vec<String> = t.actions().unwrap().into_iter().map(|p| p.action).collect();
    let first: BTreeSet<String> = log
        .iter()
        .map(|a| a.split_whitespace().next().unwrap().to_string())
        .collect();
    assert_eq!(t.played_verbs().unwrap(), first);
    assert!(first.len() < log.len(), "each verb once: {log:?}");
    // Undone actions leave the log, and their words with them.
    t.undo(8).unwrap();
    assert!(t.played_verbs().unwrap().is_empty());
}
