//! Matches outlive the server: a restart on the same data folder reopens every unfinished
//! match by replaying its kept actions, and its seats resume with their tokens.

mod common;

use common::{action, id, options, seq, token, Server};
use serde_json::json;

#[test]
fn a_restart_reopens_a_match_and_its_seats_play_on() {
    let mut server = Server::start();
    let created = server.create(json!({"game": "connect-four", "seed": 21}));
    let (xt, ot) = (token(&created, "x"), token(&created, "o"));
    {
        let (mut x, _) = server.join(&created, "x");
        let (mut o, _) = server.join(&created, "o");
        for (n, col) in ["d", "d", "e"].iter().enumerate() {
            let (sock, tok) = if n % 2 == 0 {
                (&mut x, &xt)
            } else {
                (&mut o, &ot)
            };
            sock.send(&action(tok, col)).unwrap();
            assert_eq!(sock.recv_type("ack").unwrap()["seq"], n as u64 + 1);
        }
    }
    server.restart();
    let (mut o, state) = server.join(&created, "o");
    assert_eq!(seq(&state), 3);
    assert_eq!(options(&state).len(), 7);
    o.send(&action(&ot, "e")).unwrap();
    assert_eq!(o.recv_type("ack").unwrap()["seq"], 4);
    assert_eq!(server.status(id(&created))["seq"], 4);
}

#[test]
fn a_card_game_with_bots_reopens_as_each_seat_saw_it() {
    let mut server = Server::start();
    let created = server.create(json!({
        "game": "fibs", "seats": 3, "seed": 5, "bots": {"p2": "random", "p3": "random"}
    }));
    let p1t = token(&created, "p1");
    let (mut p1, mut mine) = server.join(&created, "p1");
    for _ in 0..4 {
        if options(&mine).is_empty() {
            break;
        }
        p1.send(&action(&p1t, &options(&mine)[0])).unwrap();
        let at = p1.recv_type("ack").unwrap()["seq"].as_u64().unwrap();
        mine = p1.state_at(at).unwrap();
        while options(&mine).is_empty() && mine["outcome"].is_null() {
            mine = p1.recv_type("state").unwrap();
        }
    }
    assert!(seq(&mine) >= 4, "the game went on: {}", seq(&mine));
    let (_, spectator_before) = server.spectate(&created);
    server.restart();
    let (_, again) = server.join(&created, "p1");
    // Replayed action by action: the very same state, hidden cards and all.
    assert_eq!(again, mine);
    let (_, spectator_after) = server.spectate(&created);
    assert_eq!(spectator_after, spectator_before);
}

#[test]
fn a_finished_match_is_not_reopened() {
    let mut server = Server::start();
    let created = server
        .create(json!({"game": "connect-four", "seed": 2, "bots": {"x": "random", "o": "random"}}));
    let (mut watcher, mut state) = server.spectate(&created);
    while state["outcome"].is_null() {
        state = watcher.recv_type("state").unwrap();
    }
    server.restart();
    let (status, reply) =
        boardscript_server::client::get(server.addr(), &format!("/api/matches/{}", id(&created)))
            .unwrap();
    assert_eq!(
        (status, reply["error"].as_str()),
        (404, Some("no such match"))
    );
}
