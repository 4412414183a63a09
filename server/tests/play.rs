//! Matches played over loopback through the server's HTTP API and real WebSockets: create,
//! join, play to the end; refused actions change nothing; reconnecting resumes; spectators
//! see no hidden card; bots play their seats on the server.

mod common;

use boardscript_server::client::Socket;
use common::{action, id, options, seq, token, Server};
use serde_json::{json, Value};

/// Plays the first option of whichever seat decides until the game is over; returns the
/// last state each socket saw. Every action is acknowledged, then pushed to both seats.
fn play_out(sockets: &mut [(String, String, Socket)], mut states: Vec<Value>) -> Vec<Value> {
    for _ in 0..200 {
        if !states[0]["outcome"].is_null() {
            return states;
        }
        let now = seq(&states[0]);
        let turn = states
            .iter()
            .position(|s| !options(s).is_empty())
            .expect("someone decides");
        let (_, token, sock) = &mut sockets[turn];
        let chosen = options(&states[turn])[0].clone();
        sock.send(&action(token, &chosen)).unwrap();
        let ack = sock.recv().unwrap();
        assert_eq!(
            (ack["type"].as_str(), ack["seq"].as_u64()),
            (Some("ack"), Some(now + 1)),
            "{ack}"
        );
        for (i, (_, _, sock)) in sockets.iter_mut().enumerate() {
            states[i] = sock.state_at(now + 1).unwrap();
            assert_eq!(seq(&states[i]), now + 1, "one state per action");
        }
    }
    panic!("no end after 200 actions");
}

#[test]
fn connect_four_is_played_to_the_end_over_two_sockets() {
    let server = Server::start();
    let created = server.create(json!({"game": "connect-four", "seed": 7}));
    assert_eq!(created["seats"].as_array().unwrap().len(), 2);
    let (x, x_state) = server.join(&created, "x");
    let (o, o_state) = server.join(&created, "o");
    assert_eq!(options(&x_state).len(), 7, "x opens with seven columns");
    assert!(options(&o_state).is_empty(), "o waits");
    let mut sockets = vec![
        ("x".to_string(), token(&created, "x"), x),
        ("o".to_string(), token(&created, "o"), o),
    ];
    let end = play_out(&mut sockets, vec![x_state, o_state]);
    let outcome = &end[1]["outcome"];
    assert!(
        outcome["text"].as_str().unwrap().contains("wins"),
        "{outcome}"
    );
    assert_eq!(end[0]["outcome"], end[1]["outcome"]);
    let status = server.status(id(&created));
    assert_eq!(status["over"], true);
    assert_eq!(status["seq"], end[0]["seq"]);
    // Past the end, an action is refused as such.
    let (_, tok, sock) = &mut sockets[0];
    sock.send(&action(tok, "a")).unwrap();
    assert_eq!(sock.recv_type("error").unwrap()["code"], "over");
}

#[test]
fn illegal_and_out_of_turn_actions_are_refused_and_change_nothing() {
    let server = Server::start();
    let created = server.create(json!({"game": "connect-four", "seed": 3}));
    let (mut x, x_before) = server.join(&created, "x");
    let (mut o, o_before) = server.join(&created, "o");
    let o_token = token(&created, "o");
    let x_token = token(&created, "x");

    o.send(&action(&o_token, "a")).unwrap();
    let refused = o.recv().unwrap();
    assert_eq!(refused["code"], "not_deciding", "{refused}");
    assert!(refused["message"]
        .as_str()
        .unwrap()
        .contains("waiting for: x"));

    x.send(&json!({"type": "action", "token": x_token, "action": "z", "id": 9}))
        .unwrap();
    let refused = x.recv().unwrap();
    assert_eq!(
        (refused["code"].as_str(), &refused["id"]),
        (Some("illegal"), &json!(9)),
        "{refused}"
    );
    assert!(refused["message"]
        .as_str()
        .unwrap()
        .contains("legal now: a, b, c, d, e, f, g"));

    x.send(&json!({"type": "action", "token": x_token, "option": 7}))
        .unwrap();
    assert_eq!(x.recv().unwrap()["code"], "illegal");

    // Nothing changed: no state was pushed, and asked again each view is as it was.
    for (sock, before) in [(&mut x, &x_before), (&mut o, &o_before)] {
        sock.send(&json!({"type": "ping"})).unwrap();
        let now = sock.recv().unwrap();
        assert_eq!(now["type"], "state");
        assert_eq!(&now, before);
    }
    assert_eq!(server.status(id(&created))["seq"], 0);
}

#[test]
fn an_option_of_an_older_state_is_refused_as_stale() {
    let server = Server::start();
    let created = server.create(json!({"game": "connect-four", "seed": 3}));
    let (mut x, _) = server.join(&created, "x");
    let x_token = token(&created, "x");
    x.send(&json!({"type": "action", "token": x_token, "option": 2, "seq": 0}))
        .unwrap();
    assert_eq!(
        x.recv().unwrap(),
        json!({"type": "ack", "seq": 1, "action": "c"})
    );
    x.send(&json!({"type": "action", "token": x_token, "option": 2, "seq": 0}))
        .unwrap();
    assert_eq!(x.recv_type("error").unwrap()["code"], "stale");
    assert_eq!(server.status(id(&created))["seq"], 1);
}

#[test]
fn a_seat_that_reconnects_resumes_where_the_game_is() {
    let server = Server::start();
    let created = server.create(json!({"game": "connect-four", "seed": 5}));
    let (mut x, _) = server.join(&created, "x");
    let (mut o, _) = server.join(&created, "o");
    let (xt, ot) = (token(&created, "x"), token(&created, "o"));
    x.send(&action(&xt, "d")).unwrap();
    assert_eq!(x.recv_type("ack").unwrap()["seq"], 1);
    x.close();
    o.state_at(1).unwrap();
    o.send(&action(&ot, "d")).unwrap();
    assert_eq!(o.recv_type("ack").unwrap()["seq"], 2);

    let mut x = Socket::connect(server.addr(), id(&created)).unwrap();
    x.send(&json!({"type": "hello", "token": xt, "seq": 1}))
        .unwrap();
    let welcome = x.recv().unwrap();
    assert_eq!(
        (welcome["seat"].as_str(), welcome["missed"].as_u64()),
        (Some("x"), Some(1))
    );
    let state = x.recv().unwrap();
    assert_eq!(seq(&state), 2);
    assert_eq!(options(&state).len(), 7);
    x.send(&action(&xt, "e")).unwrap();
    assert_eq!(x.recv_type("ack").unwrap()["seq"], 3);
}

#[test]
fn a_bot_plays_its_seat_on_the_server() {
    let server = Server::start();
    let created =
        server.create(json!({"game": "connect-four", "seed": 9, "bots": {"o": "mcts:iters=50"}}));
    let o = &created["seats"][1];
    assert_eq!(
        (o["bot"].as_str(), o.get("token")),
        (Some("mcts:iters=50"), None)
    );
    let (mut x, _) = server.join(&created, "x");
    let xt = token(&created, "x");
    x.send(&action(&xt, "a")).unwrap();
    assert_eq!(x.recv_type("ack").unwrap()["seq"], 1);
    let after_bot = x.state_at(2).unwrap();
    assert_eq!(seq(&after_bot), 2, "the bot answered at once");
    assert_eq!(options(&after_bot).len(), 7);
    // Kept like a person's action: the store holds both.
    assert_eq!(server.status(id(&created))["seq"], 2);
}

#[test]
fn bots_on_every_seat_play_a_game_to_the_end_for_a_spectator() {
    let server = Server::start();
    let created = server
        .create(json!({"game": "connect-four", "seed": 4, "bots": {"x": "random", "o": "random"}}));
    let (mut watcher, mut state) = server.spectate(&created);
    for _ in 0..50 {
        if !state["outcome"].is_null() {
            break;
        }
        state = watcher.recv_type("state").unwrap();
    }
    assert!(!state["outcome"].is_null(), "{state}");
    assert_eq!(server.status(id(&created))["over"], true);
}

/// The cards a seat holds in its own view, as names (hidden ones left out).
fn seen_card_names(view: &Value) -> Vec<String> {
    let state = &view["view"]["state"];
    let cards = state["cards"].as_array().unwrap();
    let mut names = vec![];
    for zone in state["zones"].as_array().unwrap() {
        for c in zone["cards"].as_array().unwrap() {
            let i = c.as_u64().unwrap() as usize;
            if i != 65535 {
                names.push(format!("{}:{}", zone["name"], cards[i]["name"]));
            }
        }
    }
    names
}

/// How many cards of the view are hidden from its viewer.
fn hidden_cards(view: &Value) -> usize {
    let zones = view["view"]["state"]["zones"].as_array().unwrap();
    let all = zones.iter().flat_map(|z| z["cards"].as_array().unwrap());
    all.filter(|c| c.as_u64() == Some(65535)).count()
}

/// Reads the states `sock` is sent until `until` actions were played or the game is over,
/// checking each; returns how many it checked.
fn watch(mut sock: Socket, mut state: Value, until: u64, check: impl Fn(&Value)) -> usize {
    let mut checked = 0;
    loop {
        check(&state);
        checked += 1;
        if seq(&state) >= until || !state["outcome"].is_null() {
            return checked;
        }
        state = sock.recv_type("state").unwrap();
    }
}

/// The cards of zones called `hand` that the view shows by name.
fn hand_cards(v: &Value) -> Vec<String> {
    seen_card_names(v)
        .into_iter()
        .filter(|c| c.starts_with("\"hand\""))
        .collect()
}

/// Seat p1 of `game` plays at random (bots on the other seats) while a spectator and a second
/// socket of p1 watch: p1 sees its own hand, and in every state pushed the spectator sees no
/// hand card, only backs.
fn spectator_sees_no_hand_card(game: &str, seats: usize) {
    const UNTIL: u64 = 30;
    let server = Server::start();
    let bots: serde_json::Map<String, Value> = (2..=seats)
        .map(|i| (format!("p{i}"), json!("random")))
        .collect();
    let created = server.create(json!({"game": game, "seats": seats, "seed": 11, "bots": bots}));
    let (watcher, public) = server.spectate(&created);
    let (p1_eyes, mine) = server.join(&created, "p1");
    let (addr, id, p1t) = (
        server.addr(),
        id(&created).to_string(),
        token(&created, "p1"),
    );
    let player = std::thread::spawn(move || {
        boardscript_server::client::play_randomly(addr, &id, &p1t, 3, UNTIL, |_| {}).unwrap()
    });
    // (A hand may be empty for a moment, between an exchange's give and take.)
    let own = std::thread::spawn(move || {
        let with_hand = std::cell::Cell::new(0);
        watch(p1_eyes, mine, UNTIL, |v| {
            with_hand.set(with_hand.get() + usize::from(!hand_cards(v).is_empty()));
        });
        with_hand.get()
    });
    let checked = watch(watcher, public, UNTIL, |v| {
        assert!(
            hand_cards(v).is_empty(),
            "a spectator sees {:?}",
            hand_cards(v)
        );
        assert!(hidden_cards(v) > 0, "the hands are there, face down");
        assert!(v["decision"].is_null());
    });
    let last = player.join().unwrap();
    assert!(seq(&last) >= UNTIL || !last["outcome"].is_null());
    assert!(own.join().unwrap() >= 3, "p1 sees its own hand");
    assert!(checked >= 3, "only {checked} states checked");
}

#[test]
fn a_spectator_of_fibs_never_sees_a_hand_card() {
    spectator_sees_no_hand_card("fibs", 3);
}

#[test]
fn a_spectator_of_virus_war_kr_never_sees_a_hand_card() {
    spectator_sees_no_hand_card("virus-war-kr", 4);
}
