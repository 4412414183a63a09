//! Issue 23: in a simultaneous decision the bot chooses from its own options without the
//! others' held choices: its reading of the decision is the same whatever they hold.

use boardscript_interpreter::bots::{self, BotEnv, BotSpec, SeatView};
use boardscript_interpreter::{Game, Setup};
use boardscript_tests::inline_game;

/// Matching pennies: both seats show a side at once; `same` wins on a match, `odd` otherwise.
const PENNIES: &str = r#"
fn setup(g) { g.set("shown", 0); }
fn to_decide(g) { if g.get("shown") < 2 { g.seats() } else { [] } }
fn legal_actions(g, seat) { ["heads", "tails"] }
fn apply(g, seat, side) {
    g.set(seat, side);
    g.set("shown", g.get("shown") + 1);
}
fn winners(g) { if g.get("same") == g.get("odd") { ["same"] } else { ["odd"] } }
"#;

fn pennies() -> (tempfile::TempDir, Game) {
    let (dir, game) = inline_game("pennies", "[seats]\nnames = [\"same\", \"odd\"]\n", PENNIES);
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn a_held_choice_is_not_seen_by_the_search() {
    let (_dir, game) = pennies();
    let mut readings = vec![];
    for held in ["heads", "tails"] {
        let mut state = game.start(&Setup::default()).unwrap();
        game.apply(&mut state, 0, held).unwrap();
        let d = game.decisions(&state).unwrap();
        assert_eq!(d.seats.len(), 1, "only `odd` decides now");
        let mut bot =
            bots::make(&BotSpec::parse("mcts:iters=300").unwrap(), &BotEnv::new(7)).unwrap();
        let a = bots::analyse_for(&mut *bot, &game, &state, &d, 1).unwrap();
        // A search that read the held choice would find a sure win (value 1).
        assert!(a.moves.iter().all(|m| m.value < 0.9), "{held}: {a:?}");
        readings.push(a);
    }
    assert_eq!(readings[0], readings[1]);
    // The same from the first seat, before anyone chose: the root is its own decision.
    let state = game.start(&Setup::default()).unwrap();
    let legal = game.legal_actions(&state, 0).unwrap();
    let mut bot = bots::make(&BotSpec::parse("mcts:iters=100").unwrap(), &BotEnv::new(7)).unwrap();
    let a = bot
        .analyse(&game, &SeatView::of(&state, 0), &legal)
        .unwrap();
    assert_eq!(a.moves.iter().map(|m| m.visits).sum::<u64>(), 100);
}
