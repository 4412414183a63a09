//! A searching bot on several threads from the REPL and the protocol: the session hands it the
//! game's sources, so `threads=N` works wherever a bot is named, and its settings are checked
//! before any game starts.

mod common;

use common::*;

#[test]
fn a_bot_on_two_threads_plays_and_hints_over_the_protocol() {
    let mut p = Proc::start_in("connect-four", &scripts_dir(), &["--seed", "2"]);
    let legal = p.legal("x");
    let v = p.ok("bot 1 mcts:iters=40,threads=2");
    let action = v["played"][0]["action"].as_str().unwrap().to_string();
    assert!(legal.contains(&action), "{v}");
    let v = p.ok("hint mcts:iters=40,threads=2");
    let visits: u64 = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["visits"].as_u64().unwrap())
        .sum();
    assert_eq!(v["iterations"], 40, "{v}");
    assert!(visits > 0 && visits <= 40, "{v}");
    let e = p.refused("bot 1 mcts:threads=0");
    assert!(e.contains("`threads=0`: from 1 to"), "{e}");
}
