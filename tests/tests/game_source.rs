//! A game read once (`GameSource`: manifest and script texts) is shared by threads, each of
//! which compiles its own `Game` from it (Rhai engines are per thread).

use boardscript_interpreter::{GameSource, Setup};
use boardscript_tests::scripts_dir;

/// It crosses threads, and each thread's compiled game starts the same game.
#[test]
fn a_game_source_is_shared_between_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<GameSource>();
    let source = GameSource::read(&scripts_dir().join("virus-wars"), "virus-wars").unwrap();
    let setup = Setup::default();
    let states: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let game = source.compile().unwrap();
                    game.start(&setup).unwrap().to_json().to_string()
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    assert_eq!(states[0], states[1]);
    assert_eq!(source.spec().id, "virus-wars");
}

/// The snapshot is what compiles: a script edited after reading does not change the rules.
#[test]
fn a_game_source_keeps_the_texts_it_read() {
    let (dir, _) = boardscript_tests::inline_game(
        "snap",
        "[seats]\nnames = [\"a\", \"b\"]\n",
        "fn setup(g) {}\nfn legal_actions(g, seat) { [\"x\"] }\nfn apply(g, seat, action) {}\nfn winners(g) { [] }\n",
    );
    let game_dir = dir.path().join("snap");
    let source = GameSource::read(&game_dir, "snap").unwrap();
    std::fs::write(game_dir.join("rules.rhai"), "fn setup(g) { syntax error").unwrap();
    let game = source.compile().unwrap();
    let state = game.start(&Setup::default()).unwrap();
    assert_eq!(game.legal_actions(&state, 0).unwrap(), ["x"]);
}
