//! What a client may not do: a wrong token, a malformed or oversized message, too many
//! messages, matches or connections. Each is refused with its own code, changes nothing,
//! and the server stays up.

mod common;

use boardscript_server::client::{self, Socket};
use boardscript_server::Limits;
use common::{action, id, token, Server};
use serde_json::json;

#[test]
fn a_wrong_token_is_refused_at_hello_and_on_every_action() {
    let server = Server::start();
    let created = server.create(json!({"game": "connect-four", "seed": 1}));
    let (xt, ot) = (token(&created, "x"), token(&created, "o"));
    let mut s = Socket::connect(server.addr(), id(&created)).unwrap();
    s.send(&json!({"type": "hello", "token": "0".repeat(32)}))
        .unwrap();
    assert_eq!(s.recv().unwrap()["code"], "bad_token");
    s.send(&action(&xt, "a")).unwrap();
    assert_eq!(s.recv().unwrap()["code"], "hello_first");

    // Joined as x, an action carrying o's token (or none that fits) is refused.
    let (mut x, _) = server.join(&created, "x");
    x.send(&action(&ot, "a")).unwrap();
    assert_eq!(x.recv().unwrap()["code"], "bad_token");
    x.send(&action(&format!("{xt}0"), "a")).unwrap();
    assert_eq!(x.recv().unwrap()["code"], "bad_token");
    // A spectator plays no seat, whatever token it sends.
    let (mut watcher, _) = server.spectate(&created);
    watcher.send(&action(&xt, "a")).unwrap();
    assert_eq!(watcher.recv().unwrap()["code"], "spectator");
    assert_eq!(server.status(id(&created))["seq"], 0);
    x.send(&action(&xt, "a")).unwrap();
    assert_eq!(x.recv_type("ack").unwrap()["seq"], 1);
}

#[test]
fn malformed_and_oversized_messages_are_refused_and_the_server_stays_up() {
    let server = Server::start();
    let created = server.create(json!({"game": "connect-four", "seed": 1}));
    let xt = token(&created, "x");
    let (mut x, before) = server.join(&created, "x");
    for bad in [
        "not json".to_string(),
        json!({"type": "undo"}).to_string(),
        json!({"type": "eval", "expr": "g"}).to_string(),
        json!({"type": "action"}).to_string(),
        json!({"type": "action", "token": xt}).to_string(),
        json!({"type": "action", "token": xt, "action": "a", "option": 0}).to_string(),
        "[1,2".to_string(),
    ] {
        x.send_text(&bad).unwrap();
        let reply = x.recv().unwrap();
        assert_eq!(reply["code"], "malformed", "{bad}: {reply}");
    }
    let long = json!({"type": "action", "token": xt, "action": "a".repeat(17 * 1024)});
    x.send(&long).unwrap();
    assert_eq!(x.recv().unwrap()["code"], "too_big");
    // Nothing changed, and the socket still answers.
    x.send(&json!({"type": "ping"})).unwrap();
    assert_eq!(x.recv().unwrap(), before);

    // Past the socket's own limit the connection is closed, unread; the server goes on.
    x.send_text(&"x".repeat(100 * 1024)).unwrap();
    assert!(x.recv().is_err(), "closed");
    let (mut again, state) = server.join(&created, "x");
    assert_eq!(state, before);
    again.send(&action(&xt, "a")).unwrap();
    assert_eq!(again.recv_type("ack").unwrap()["seq"], 1);
}

#[test]
fn a_connection_past_its_burst_is_refused_until_it_slows_down() {
    // No refill: the count is exact, whatever the clock does.
    let server = Server::with_limits(Limits {
        burst: 5,
        per_second: 0.0,
        ..Limits::default()
    });
    let created = server.create(json!({"game": "connect-four", "seed": 1}));
    let (mut x, _) = server.join(&created, "x"); // the hello is the first of five
    let mut codes = vec![];
    for _ in 0..7 {
        x.send(&json!({"type": "ping"})).unwrap();
        let reply = x.recv().unwrap();
        codes.push(reply["code"].as_str().unwrap_or("state").to_string());
    }
    assert_eq!(
        codes,
        [
            "state",
            "state",
            "state",
            "state",
            "rate_limited",
            "rate_limited",
            "rate_limited"
        ]
    );
    // Another connection has its own allowance.
    let (mut o, _) = server.join(&created, "o");
    o.send(&json!({"type": "ping"})).unwrap();
    assert_eq!(o.recv().unwrap()["type"], "state");
}

#[test]
fn matches_and_connections_are_bounded() {
    let server = Server::with_limits(Limits {
        matches: 2,
        connections: 2,
        ..Limits::default()
    });
    let first = server
        .create(json!({"game": "connect-four", "seed": 1, "bots": {"x": "random", "o": "random"}}));
    server.create(json!({"game": "connect-four", "seed": 2}));
    let body = json!({"game": "connect-four"});
    let (status, reply) = client::post(server.addr(), "/api/matches", &body).unwrap();
    assert_eq!(status, 503);
    assert!(
        reply["error"]
            .as_str()
            .unwrap()
            .contains("most matches (2)"),
        "{reply}"
    );

    let (mut one, mut state) = server.spectate(&first);
    let (two, _) = server.spectate(&first);
    let third = Socket::connect(server.addr(), id(&first));
    let refused = third
        .err()
        .expect("a third connection is refused")
        .to_string();
    assert!(refused.contains("503"), "{refused}");

    // Once the first match is over and nobody watches it, it makes room for a new one.
    while state["outcome"].is_null() {
        state = one.recv_type("state").unwrap();
    }
    one.close();
    two.close();
    let mut made = None;
    for _ in 0..1000 {
        if server.status(id(&first))["connections"] == 0 {
            made = Some(client::post(server.addr(), "/api/matches", &body).unwrap());
            break;
        }
        std::thread::yield_now();
    }
    assert_eq!(made.expect("the watchers left").0, 201);
}

#[test]
fn bad_requests_to_create_a_match_are_refused_with_their_reason() {
    let server = Server::start();
    let addr = server.addr();
    let cases = [
        ("{\"game\":", 400, "parse"),
        (
            "{\"game\": \"connect-four\", \"sneaky\": 1}",
            422,
            "unknown field `sneaky`",
        ),
        (
            "{\"game\": \"no-such-game\"}",
            404,
            "no game `no-such-game`",
        ),
        (
            "{\"game\": \"connect-four\", \"bots\": {\"o\": \"mcts:iters=x\"}}",
            400,
            "the bot for o",
        ),
        (
            "{\"game\": \"connect-four\", \"bots\": {\"z\": \"random\"}}",
            400,
            "no seat|does not have",
        ),
        ("{\"game\": \"connect-four\", \"seats\": 9}", 400, "seat"),
        (
            "{\"game\": \"fibs\", \"options\": {\"top\": 99}}",
            400,
            "top",
        ),
    ];
    for (body, status, why) in cases {
        let (got, reply) = client::request(addr, "POST", "/api/matches", body).unwrap();
        let message = reply["error"].as_str().unwrap_or_default();
        assert_eq!(got, status, "{body}: {reply}");
        assert!(
            why.split('|').any(|w| message.contains(w)),
            "{body}: {message}"
        );
    }
    let huge = json!({"game": "connect-four", "options": {"x": "y".repeat(20 * 1024)}}).to_string();
    let (got, _) = client::request(addr, "POST", "/api/matches", &huge).unwrap();
    assert_eq!(got, 413);
    let (got, reply) = client::get(addr, "/api/games").unwrap();
    assert_eq!(got, 200, "still up");
    assert!(reply["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == "connect-four"));
}
