//! What a match creator or a silent client could hold too long: a bot asked to think for
//! hours is refused at creation (nothing kept), and a socket that never says `hello` is
//! closed and its connection slot freed.

mod common;

use boardscript_server::client::{self, Socket};
use boardscript_server::{Limits, SqliteStore, Store, STORE_FILE};
use common::{id, Server};
use serde_json::json;
use std::time::Duration;

#[test]
fn a_bot_over_the_servers_cap_is_refused_and_nothing_is_kept() {
    let server = Server::with_limits(Limits {
        matches: 1,
        ..Limits::default()
    });
    for (bot, named) in [
        ("mcts:iters=10000000", "iters at most 20000"),
        ("mcts:time=3600000", "time at most 5000"),
        ("mcts:threads=16", "threads at most 2"),
        ("greedy:samples=100000", "samples at most 64"),
    ] {
        let body = json!({"game": "connect-four", "bots": {"o": bot}});
        let (status, reply) = client::post(server.addr(), "/api/matches", &body).unwrap();
        assert_eq!(status, 400, "{bot}: {reply}");
        let message = reply["error"].as_str().unwrap();
        assert!(
            message.starts_with("the bot for o:") && message.contains(named),
            "{bot}: {message}"
        );
    }
    let store = SqliteStore::open(&server.data.path().join(STORE_FILE)).unwrap();
    assert_eq!(store.unfinished().unwrap().len(), 0, "nothing kept");
    // Nor is a place held: the one match this server may hold is still free, and a bot at
    // its caps is taken.
    server.create(json!({"game": "connect-four", "bots": {"o": "mcts:iters=20000,threads=2"}}));
}

#[test]
fn the_caps_are_the_servers_own() {
    let mut limits = Limits::default();
    limits.bot_caps.insert("iters".into(), 50);
    let server = Server::with_limits(limits);
    let body = json!({"game": "connect-four", "bots": {"o": "mcts:iters=51"}});
    let (status, reply) = client::post(server.addr(), "/api/matches", &body).unwrap();
    assert_eq!(status, 400);
    assert!(
        reply["error"]
            .as_str()
            .unwrap()
            .contains("iters at most 50"),
        "{reply}"
    );
    server.create(json!({"game": "connect-four", "bots": {"o": "mcts:iters=50"}}));
}

#[test]
fn a_socket_that_never_says_hello_is_closed_and_its_slot_reused() {
    let server = Server::with_limits(Limits {
        connections: 1,
        hello_within: Duration::from_millis(300),
        ..Limits::default()
    });
    let created = server.create(json!({"game": "connect-four", "seed": 1}));
    let mut silent = Socket::connect(server.addr(), id(&created)).unwrap();
    // The one slot is taken while it is silent.
    let refused = Socket::connect(server.addr(), id(&created)).err().unwrap();
    assert!(refused.to_string().contains("503"), "{refused}");
    // Closed by the server (before the client's own read timeout), with the reason.
    let closed = silent.recv().unwrap_err().to_string();
    assert!(closed.contains("no hello within 300 ms"), "{closed}");
    // Its slot is freed: a new client gets in and plays.
    let mut joined = None;
    for _ in 0..1000 {
        if server.status(id(&created))["connections"] == 0 {
            joined = Some(server.join(&created, "x"));
            break;
        }
        std::thread::yield_now();
    }
    let (mut x, _) = joined.expect("the slot was freed");
    x.send(&common::action(&common::token(&created, "x"), "a"))
        .unwrap();
    assert_eq!(x.recv_type("ack").unwrap()["seq"], 1);
}

#[test]
fn a_client_that_said_hello_is_not_closed_for_its_silence() {
    let server = Server::with_limits(Limits {
        hello_within: Duration::from_millis(100),
        ..Limits::default()
    });
    let created = server.create(json!({"game": "connect-four", "seed": 1}));
    let (mut x, before) = server.join(&created, "x");
    // Longer than the hello's allowance; then it still answers.
    std::thread::sleep(Duration::from_millis(300));
    x.send(&json!({"type": "ping"})).unwrap();
    assert_eq!(x.recv().unwrap(), before);
}
