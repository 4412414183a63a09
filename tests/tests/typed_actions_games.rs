//! Issue 24: every shipped game declares the shapes of its actions, so each action it lists
//! (answers to questions included) is typed exactly: random playouts check that every listed
//! action fits a declared shape.

use boardscript_interpreter::bots::random;
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::{Match, Setup};
use boardscript_tests::load;
use std::collections::BTreeSet;

/// The listed actions of `games` random playouts of `id` (at most `steps` actions each) that
/// fit none of its shapes.
fn unshaped(
    id: &str,
    seats: Option<usize>,
    options: &[(&str, &str)],
    games: u64,
    steps: usize,
) -> BTreeSet<String> {
    let mut missing = BTreeSet::new();
    for seed in 0..games {
        let setup = Setup {
            seats,
            seed,
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            position: None,
        };
        let mut m = Match::new(load(id), setup).unwrap();
        let mut bot = rng::seeded(seed ^ 0x7E9);
        for _ in 0..steps {
            let d = m.game.decisions(&m.state).expect("decisions");
            for (seat, legal) in &d.seats {
                for typed in m.game.typed_actions(&m.state, *seat, legal) {
                    if typed.shape.is_none() {
                        missing.insert(typed.text);
                    }
                }
            }
            let Some((seat, action)) = random::choose(&d, &mut bot) else {
                break;
            };
            let name = m.state.seat_name(seat).to_string();
            m.play(Some(&name), &action)
                .unwrap_or_else(|e| panic!("{id} seed {seed}: {name} {action}: {e}"));
        }
    }
    missing
}

fn assert_all_shaped(
    id: &str,
    seats: Option<usize>,
    options: &[(&str, &str)],
    games: u64,
    steps: usize,
) {
    let missing = unshaped(id, seats, options, games, steps);
    assert!(
        missing.is_empty(),
        "{id}: listed but fitting no shape: {missing:?}"
    );
}

#[test]
fn board_games_declare_every_shape() {
    for id in [
        "hex",
        "connect-four",
        "breakthrough",
        "virus-wars",
        "virus-wars/blitz",
        "virus-wars/orthogonal",
    ] {
        assert_all_shaped(id, None, &[], 2, 200);
    }
}

#[test]
fn card_games_declare_every_shape() {
    for id in [
        "fibs",
        "virus-war-kr",
        "virus-war-fr",
        "cosmic-disaster",
        "cosmic-disaster/blame",
        "cosmic-disaster/chosen-proliferation",
        "cosmic-disaster/paid-movement",
        "cosmic-disaster/special-cards",
    ] {
        assert_all_shaped(id, None, &[], 3, 300);
    }
}

#[test]
fn nemesis_declares_every_shape() {
    for seats in 1..=5 {
        assert_all_shaped("nemesis", Some(seats), &[], 3, 2_000);
    }
    assert_all_shaped("nemesis", Some(3), &[("mode", "coop")], 3, 2_000);
    assert_all_shaped("nemesis", Some(4), &[("intruder_player", "true")], 3, 2_000);
}
