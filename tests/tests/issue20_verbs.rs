//! Issue 20 item 9: the words a game declares as its actions' first words (`verbs` in
//! game.toml) are what the REPL reads as actions before any was legal; a declared list that
//! missed a word would turn that action back into an "unknown command". Random playouts
//! check that every action a game lists starts with a declared word.

use boardscript_interpreter::bots::random;
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::{Match, Setup};
use boardscript_tests::load;
use std::collections::BTreeSet;

/// The first words of every action listed in `games` random playouts of `id` with `seats`.
fn listed_first_words(id: &str, seats: usize, games: u64) -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    for seed in 0..games {
        let setup = Setup {
            seats: Some(seats),
            seed,
            options: Default::default(),
            position: None,
        };
        let mut m = Match::new(load(id), setup).unwrap();
        let mut bot = rng::seeded(seed ^ 0xB07);
        for _ in 0..5_000 {
            let d = m.game.decisions(&m.state).expect("decisions");
            for (_, legal) in &d.seats {
                for a in legal {
                    words.insert(a.split_whitespace().next().unwrap().to_string());
                }
            }
            let Some((seat, action)) = random::choose(&d, &mut bot) else {
                break;
            };
            let name = m.state.seat_name(seat).to_string();
            m.play(Some(&name), &action)
                .unwrap_or_else(|e| panic!("seed {seed}: {name} {action}: {e}"));
        }
    }
    words
}

/// Nemesis declares every first word its playouts list, at every seat count.
#[test]
fn nemesis_declares_the_first_word_of_every_action() {
    let declared: BTreeSet<String> = load("nemesis").spec.verbs.iter().cloned().collect();
    assert!(declared.contains("shoot") && declared.contains("careful"));
    let mut missing = BTreeSet::new();
    for seats in 1..=5 {
        let listed = listed_first_words("nemesis", seats, 8);
        missing.extend(listed.difference(&declared).cloned());
    }
    assert!(
        missing.is_empty(),
        "listed but not in game.toml's verbs: {missing:?}"
    );
}
