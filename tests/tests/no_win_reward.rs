//! Issue 23: a game nobody wins is scored by the game's `evaluate` of its final state, scaled
//! below any win (`bots::reward::NO_WIN_CEILING`), so a bot prefers surviving a lost game to
//! dying in it, and still prefers a win to both. Without `evaluate`, it is a draw (1/n each).

use boardscript_interpreter::bots::{self, Bot, BotEnv, BotSpec};
use boardscript_interpreter::{Game, Setup};
use boardscript_tests::inline_game;

const MANIFEST: &str = "[seats]\nnames = [\"a\", \"b\"]\n";

/// Seat a's one decision ends the game: `die` (a dead), `live` (a alive) with no winner, or
/// `win`. `evaluate` says how a seat fares: 1 alive, 0 dead.
const LAST_STAND: &str = r#"
fn setup(g) { g.set_counter("a", "alive", 1); g.set_counter("b", "alive", 1); }
fn legal_actions(g, seat) { ACTIONS }
fn apply(g, seat, act) {
    switch act {
        "die" => { g.set_counter(seat, "alive", 0); g.end_game("nobody is left"); }
        "live" => g.end_game("time is up"),
        "win" => g.end_game([seat], "the objective"),
    }
}
fn winners(g) { [] }
EVALUATE
"#;

const EVALUATE: &str =
    r#"fn evaluate(g) { [g.counter("a", "alive") * 1.0, g.counter("b", "alive") * 1.0] }"#;

fn last_stand(actions: &str, evaluate: &str) -> (tempfile::TempDir, Game) {
    let rules = LAST_STAND
        .replace("ACTIONS", actions)
        .replace("EVALUATE", evaluate);
    let (dir, game) = inline_game("last-stand", MANIFEST, &rules);
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

fn bot(spec: &str) -> Box<dyn Bot> {
    bots::make(&BotSpec::parse(spec).unwrap(), &BotEnv::new(1)).unwrap_or_else(|e| panic!("{e}"))
}

/// Seat a's move as `spec` chooses it.
fn choice(game: &Game, spec: &str) -> String {
    let state = game.start(&Setup::default()).unwrap();
    let d = game.decisions(&state).unwrap();
    let i = bots::choose_for(&mut *bot(spec), game, &state, &d, 0).unwrap();
    d.seats[0].1[i].to_string()
}

/// Dying is listed first: a bot that saw no difference (the old 1/n each) would pick it.
#[test]
fn bots_survive_a_game_nobody_wins() {
    let (_dir, game) = last_stand(r#"["die", "live"]"#, EVALUATE);
    for spec in ["greedy", "mcts:iters=50", "mcts:iters=50,depth=3"] {
        assert_eq!(choice(&game, spec), "live", "{spec}");
    }
}

/// A win still beats surviving without one, though `evaluate` rates surviving at 1.
#[test]
fn a_win_beats_surviving_a_game_nobody_wins() {
    let (_dir, game) = last_stand(r#"["live", "win", "die"]"#, EVALUATE);
    for spec in ["greedy", "mcts:iters=60"] {
        assert_eq!(choice(&game, spec), "win", "{spec}");
    }
}

/// The reward of each ending, read through the search's own scoring: a survivor gets the
/// ceiling, the dead 0, the winner 1; without `evaluate`, 1/2 each for no winner.
#[test]
fn each_ending_is_rewarded_as_documented() {
    let ceiling = bots::reward::NO_WIN_CEILING;
    let (_dir, game) = last_stand(r#"["die", "live", "win"]"#, EVALUATE);
    let (_plain_dir, plain) = last_stand(r#"["die", "live", "win"]"#, "");
    let ended = |game: &Game, act: usize| {
        let mut state = game.start(&Setup::default()).unwrap();
        let d = game.decisions(&state).unwrap();
        game.play_listed_in_place(&mut state, &d, 0, act).unwrap();
        bots::reward::of_finished(game, &state).unwrap()
    };
    assert_eq!(ended(&game, 0), [0.0, ceiling]);
    assert_eq!(ended(&game, 1), [ceiling, ceiling]);
    assert_eq!(ended(&game, 2), [1.0, 0.0]);
    assert_eq!(ended(&plain, 0), [0.5, 0.5]);
    assert_eq!(ended(&plain, 2), [1.0, 0.0]);
}
