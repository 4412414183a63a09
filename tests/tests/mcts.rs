//! Issue 23: the search bots. `mcts` finds wins and blocks losses in Connect Four, beats
//! random, is deterministic for a seed and thread count (threads included), reuses its tree,
//! stops when asked, and reports script errors; `greedy` takes a win; `evaluate` is read in
//! both of its shapes and a bad one is refused by name.

use boardscript_interpreter::bots::{self, Bot, BotEnv, BotError, BotSpec, SeatView};
use boardscript_interpreter::{Game, GameSource, Setup, State};
use boardscript_tests::{inline_game, load, scripts_dir};
use std::sync::atomic::Ordering;
use std::sync::Arc;

fn bot(spec: &str, seed: u64) -> Box<dyn Bot> {
    bot_in(spec, BotEnv::new(seed))
}

fn bot_in(spec: &str, env: BotEnv) -> Box<dyn Bot> {
    bots::make(&BotSpec::parse(spec).unwrap(), &env).unwrap_or_else(|e| panic!("{e}"))
}

fn refusal(spec: &str) -> String {
    match bots::make(&BotSpec::parse(spec).unwrap(), &BotEnv::new(1)) {
        Ok(_) => panic!("`{spec}` was accepted"),
        Err(e) => e,
    }
}

/// The first deciding seat's move as `bot` chooses it.
fn choose(bot: &mut dyn Bot, game: &Game, state: &State) -> Result<String, BotError> {
    let d = game.decisions(state)?;
    let seat = d.seats[0].0;
    let i = bots::choose_for(bot, game, state, &d, seat)?;
    Ok(d.seats[0].1[i].to_string())
}

fn connect_four(position: &str) -> (Game, State) {
    let game = load("connect-four");
    let setup = Setup {
        position: Some(position.into()),
        ..Setup::default()
    };
    let state = game.start(&setup).unwrap();
    (game, state)
}

/// x to move, with three in a row on the bottom and both ends open.
const X_WINS: &str = "\
6  . . . . . . .
5  . . . . . . .
4  . . . . . . .
3  . . . . . . .
2  . . o o o . .
1  . . x x x . .
   a b c d e f g
";

/// o to move; x threatens to complete the bottom row at d.
const O_MUST_BLOCK: &str = "\
6  . . . . . . .
5  . . . . . . .
4  . . . . . . .
3  . . . . . . .
2  o o . . . . .
1  x x x . . . .
   a b c d e f g
";

#[test]
fn mcts_takes_an_immediate_win() {
    let (game, state) = connect_four(X_WINS);
    for seed in 1..=3 {
        let m = choose(&mut *bot("mcts:iters=300", seed), &game, &state).unwrap();
        assert!(m == "b" || m == "f", "seed {seed}: played {m}");
    }
}

#[test]
fn mcts_blocks_an_immediate_loss() {
    let (game, state) = connect_four(O_MUST_BLOCK);
    for seed in 1..=3 {
        let m = choose(&mut *bot("mcts:iters=500", seed), &game, &state).unwrap();
        assert_eq!(m, "d", "seed {seed}");
    }
}

/// Plays a game of `bots` (by seat) from `setup`; returns the winners and the moves.
fn play_out(
    game: &Game,
    setup: &Setup,
    bots: &mut [Box<dyn Bot>],
) -> Result<(Vec<usize>, Vec<String>), BotError> {
    let mut state = game.start(setup)?;
    let mut moves = vec![];
    for _ in 0..2000 {
        let d = game.decisions(&state)?;
        let Some((seat, legal)) = d.seats.first() else {
            return Ok((game.winners(&state)?, moves));
        };
        let i = bots::choose_for(&mut *bots[*seat], game, &state, &d, *seat)?;
        assert!(i < legal.len());
        moves.push(legal[i].to_string());
        game.play_listed(&mut state, &d, *seat, i)?;
    }
    panic!("no end after 2000 actions");
}

/// 5 games from each side at 200 iterations: random play wins a game against it so rarely
/// that 9 of 10 is a clear margin.
#[test]
fn mcts_beats_random_at_connect_four_from_both_sides() {
    let game = load("connect-four");
    let mut wins = 0;
    for g in 0..10u64 {
        let me = (g % 2) as usize;
        let mut seats: Vec<Box<dyn Bot>> = vec![bot("random", g), bot("random", g)];
        seats[me] = bot("mcts:iters=200", g);
        let setup = Setup {
            seed: g,
            ..Setup::default()
        };
        let (winners, _) = play_out(&game, &setup, &mut seats).unwrap();
        wins += usize::from(winners == [me]);
    }
    assert!(wins >= 9, "mcts won {wins} of 10");
}

fn self_play(spec: &str, seed: u64, env: impl Fn(u64) -> BotEnv) -> Vec<String> {
    let game = load("connect-four");
    let mut seats = vec![bot_in(spec, env(seed)), bot_in(spec, env(seed + 1))];
    let setup = Setup {
        seed,
        ..Setup::default()
    };
    play_out(&game, &setup, &mut seats).unwrap().1
}

#[test]
fn the_same_seed_plays_the_same_moves() {
    let a = self_play("mcts:iters=60", 5, BotEnv::new);
    assert_eq!(a, self_play("mcts:iters=60", 5, BotEnv::new));
    assert_ne!(
        a,
        self_play("mcts:iters=60", 6, BotEnv::new),
        "seeds matter"
    );
}

fn with_source(seed: u64) -> BotEnv {
    let source = GameSource::read(&scripts_dir().join("connect-four"), "connect-four").unwrap();
    BotEnv {
        source: Some(Arc::new(source)),
        ..BotEnv::new(seed)
    }
}

#[test]
fn two_threads_search_and_are_deterministic() {
    let a = self_play("mcts:iters=60,threads=2", 5, with_source);
    assert_eq!(a, self_play("mcts:iters=60,threads=2", 5, with_source));
    let (game, state) = connect_four(O_MUST_BLOCK);
    let mut b = bot_in("mcts:iters=400,threads=2", with_source(3));
    let sv = SeatView::of(&state, 1);
    let legal = game.legal_actions(&state, 1).unwrap();
    let analysis = b.analyse(&game, &sv, &legal).unwrap();
    assert_eq!(analysis.iterations, 400);
    assert_eq!(analysis.moves[0].action.as_str(), "d");
    let visits: u64 = analysis.moves.iter().map(|m| m.visits).sum();
    assert_eq!(visits, 400, "both workers' roots are summed");
}

#[test]
fn threads_without_the_sources_are_refused() {
    let e = refusal("mcts:threads=2");
    assert!(e.contains("`threads=2` needs the game's sources"), "{e}");
}

#[test]
fn bad_settings_are_refused_with_their_message() {
    let cases = [
        (
            "mcts:iters=0",
            "mcts bot: `iters=0`: it needs at least 1 iteration",
        ),
        ("mcts:iters=-3", "`iters=-3` is not a valid number"),
        ("mcts:time=0", "`time=0`: give at least 1 millisecond"),
        ("mcts:iters=10,time=10", "give `iters` or `time`, not both"),
        ("mcts:threads=0", "`threads=0`: from 1 to 256"),
        ("mcts:c=-1", "`c=-1`: a number 0 or more"),
        ("mcts:depth=0", "`depth=0`: at least 1 action"),
        ("mcts:reuse=maybe", "`reuse=maybe`: true or false"),
        ("mcts:width=3", "the mcts bot has no setting `width`"),
        ("greedy:samples=0", "`samples=0`: at least 1"),
        ("greedy:iters=5", "the greedy bot has no setting `iters`"),
    ];
    for (spec, message) in cases {
        let e = refusal(spec);
        assert!(e.contains(message), "{spec}: {e}");
    }
}

/// The root's visits summed: every iteration passes through one root child.
fn root_visits(bot: &mut dyn Bot, game: &Game, state: &State) -> (u64, u64) {
    let seat = game.decisions(state).unwrap().seats[0].0;
    let legal = game.legal_actions(state, seat).unwrap();
    let a = bot
        .analyse(game, &SeatView::of(state, seat), &legal)
        .unwrap();
    (a.moves.iter().map(|m| m.visits).sum(), a.iterations)
}

#[test]
fn the_tree_is_kept_between_moves_when_asked() {
    let game = load("connect-four");
    for (spec, kept) in [
        ("mcts:iters=200", true),
        ("mcts:iters=200,reuse=false", false),
    ] {
        let mut b = bot(spec, 2);
        let mut state = game.start(&Setup::default()).unwrap();
        let m = choose(&mut *b, &game, &state).unwrap();
        game.apply(&mut state, 0, &m).unwrap();
        game.apply(&mut state, 1, "d").unwrap();
        let (visits, iterations) = root_visits(&mut *b, &game, &state);
        assert_eq!(iterations, 200);
        assert_eq!(visits > 200, kept, "{spec}: {visits} visits");
        // `reset` forgets it.
        b.reset();
        assert_eq!(
            root_visits(&mut *b, &game, &state).0,
            200,
            "{spec} after reset"
        );
    }
}

#[test]
fn a_stop_before_the_search_is_stopped() {
    let (game, state) = connect_four(O_MUST_BLOCK);
    let env = BotEnv::new(1);
    env.stop.store(true, Ordering::Relaxed);
    for spec in ["mcts:iters=100", "greedy"] {
        let e = choose(&mut *bot_in(spec, env.clone()), &game, &state).unwrap_err();
        assert!(matches!(e, BotError::Stopped), "{spec}: {e}");
    }
}

#[test]
fn a_stop_mid_search_plays_a_legal_move() {
    let (game, state) = connect_four(O_MUST_BLOCK);
    let env = BotEnv::new(1);
    let stop = env.stop.clone();
    let mut b = bot_in("mcts:iters=1000000000", env);
    let legal = game.legal_actions(&state, 1).unwrap();
    let sv = SeatView::of(&state, 1);
    let setter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        stop.store(true, Ordering::Relaxed);
    });
    let a = b.analyse(&game, &sv, &legal).unwrap();
    setter.join().unwrap();
    assert!(a.iterations > 0 && a.iterations < 1_000_000_000);
    assert!(legal.contains(&a.moves[0].action));
}

const MANIFEST: &str = "[seats]\nnames = [\"a\", \"b\"]\n";

/// A race to 5 points: each turn a seat adds 1, 2 or 3 (`boom` fails in `apply`).
const RACE: &str = r#"
fn setup(g) { g.set_counter("a", 0); g.set_counter("b", 0); }
fn legal_actions(g, seat) { ACTIONS }
fn apply(g, seat, act) {
    if act == "boom" { throw "the boom rule"; }
    g.add_counter(seat, parse_int(act));
    if g.counter(seat) >= 5 { g.end_game([seat], "five"); }
    g.next_turn();
}
fn winners(g) { [] }
EVALUATE
"#;

fn race(actions: &str, evaluate: &str) -> (tempfile::TempDir, Game) {
    let rules = RACE
        .replace("ACTIONS", actions)
        .replace("EVALUATE", evaluate);
    let (dir, game) = inline_game("race", MANIFEST, &rules);
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn a_script_error_in_a_playout_is_the_bots_error() {
    let (_dir, game) = race(r#"["1", "boom"]"#, "");
    let state = game.start(&Setup::default()).unwrap();
    for spec in ["mcts:iters=50", "greedy"] {
        let e = choose(&mut *bot(spec, 1), &game, &state).unwrap_err();
        assert!(matches!(e, BotError::Play(_)), "{spec}: {e:?}");
        assert!(e.to_string().contains("the boom rule"), "{spec}: {e}");
    }
}

#[test]
fn evaluate_reads_an_array_or_a_map_clamped() {
    let array = "fn evaluate(g) { [g.counter(\"a\") / 5.0, 2] }";
    let map = "fn evaluate(g) { #{ b: -1, a: g.counter(\"a\") / 5.0 } }";
    for (evaluate, b) in [(array, 1.0), (map, 0.0)] {
        let (_dir, game) = race(r#"["1", "2"]"#, evaluate);
        let mut state = game.start(&Setup::default()).unwrap();
        game.apply(&mut state, 0, "2").unwrap();
        assert_eq!(
            game.evaluate(&state).unwrap(),
            Some(vec![0.4, b]),
            "{evaluate}"
        );
    }
    let (_dir, game) = race(r#"["1"]"#, "");
    let state = game.start(&Setup::default()).unwrap();
    assert_eq!(game.evaluate(&state).unwrap(), None);
}

#[test]
fn a_bad_evaluate_is_refused_by_name() {
    let cases = [
        (
            "fn evaluate(g) { 0.5 }",
            "`evaluate` must return an array of numbers in seat order or a map",
        ),
        (
            "fn evaluate(g) { [0.5] }",
            "`evaluate` returned 1 numbers for 2 seats",
        ),
        (
            "fn evaluate(g) { [0.5, \"x\"] }",
            "`evaluate` must return an array of numbers",
        ),
        (
            "fn evaluate(g) { #{ a: 1 } }",
            "`evaluate` returned no score for `b`",
        ),
        (
            "fn evaluate(g) { #{ a: 1, b: 0, c: 1 } }",
            "`evaluate` returned a score for `c`, not a seat",
        ),
    ];
    for (evaluate, message) in cases {
        let (_dir, game) = race(r#"["1"]"#, evaluate);
        let state = game.start(&Setup::default()).unwrap();
        let e = game.evaluate(&state).unwrap_err().to_string();
        assert!(
            e.contains(message) && e.contains("rules.rhai"),
            "{evaluate}: {e}"
        );
    }
}

#[test]
fn greedy_takes_the_best_evaluated_move() {
    let evaluate = "fn evaluate(g) { [g.counter(\"a\") / 5.0, g.counter(\"b\") / 5.0] }";
    let (_dir, game) = race(r#"["1", "3", "2"]"#, evaluate);
    let state = game.start(&Setup::default()).unwrap();
    assert_eq!(choose(&mut *bot("greedy", 1), &game, &state).unwrap(), "3");
}

#[test]
fn greedy_takes_a_winning_move() {
    let (game, state) = connect_four(X_WINS);
    let m = choose(&mut *bot("greedy:samples=16", 4), &game, &state).unwrap();
    assert!(m == "b" || m == "f", "played {m}");
}

/// mcts cuts playouts at `depth` only where the game has `evaluate`: the race's playouts are
/// cut after one action and scored by it.
#[test]
fn a_depth_cut_scores_with_evaluate() {
    let evaluate = "fn evaluate(g) { [g.counter(\"a\") / 5.0, g.counter(\"b\") / 5.0] }";
    let (_dir, game) = race(r#"["1", "3", "2"]"#, evaluate);
    let state = game.start(&Setup::default()).unwrap();
    let m = choose(&mut *bot("mcts:iters=200,depth=1", 1), &game, &state).unwrap();
    assert_eq!(m, "3");
}

/// Information-set MCTS on a card game: the seat cannot see the others' hands, so every
/// iteration searches a state sampled from its view; it plays legal moves to the end.
#[test]
fn ismcts_plays_a_card_game_to_its_end() {
    for id in ["virus-war-fr", "fibs"] {
        let game = load(id);
        let mut seats: Vec<Box<dyn Bot>> = vec![bot("mcts:iters=20", 1)];
        let n = game.start(&Setup::default()).unwrap().seats.len();
        for s in 1..n {
            seats.push(bot("random", s as u64));
        }
        let setup = Setup {
            seed: 3,
            ..Setup::default()
        };
        play_out(&game, &setup, &mut seats).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
}

/// `time=MS` searches by the clock (so its moves are not deterministic); it runs at least
/// one iteration and plays a legal move.
#[test]
fn a_time_budget_plays_a_legal_move() {
    let (game, state) = connect_four(O_MUST_BLOCK);
    let legal = game.legal_actions(&state, 1).unwrap();
    let a = bot("mcts:time=20", 1)
        .analyse(&game, &SeatView::of(&state, 1), &legal)
        .unwrap();
    assert!(a.iterations >= 1);
    assert!(legal.contains(&a.moves[0].action));
}
