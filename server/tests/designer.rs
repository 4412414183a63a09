//! The designer's match over loopback (`serve --designer`): its socket sees every seat's
//! token, the whole log and state, takes actions back and forth; a seat's or a spectator's
//! socket has none of that; with `--watch` a save reloads the rules and a syntax error
//! changes nothing.

mod common;

use boardscript_server::client::{self, Socket};
use boardscript_server::{Config, Running, SqliteStore, Store};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

fn designer_server(data: &Path, scripts: PathBuf, watch: bool) -> Running {
    boardscript_server::spawn(Config {
        addr: "127.0.0.1:0".into(),
        data: data.to_path_buf(),
        scripts: vec![scripts],
        designer: true,
        watch,
        ..Config::default()
    })
    .unwrap()
}

fn create(addr: SocketAddr, body: Value) -> Value {
    let (status, reply) = client::post(addr, "/api/matches", &body).unwrap();
    assert_eq!(status, 201, "{reply}");
    reply
}

/// The designer key from the designer's link of a creation reply.
fn key(created: &Value) -> String {
    let link = created["designer"].as_str().expect("a designer's link");
    link.split_once("?key=").unwrap().1.to_string()
}

/// The designer's socket, welcomed; the welcome and the first designer message.
fn designer(addr: SocketAddr, id: &str, key: &str) -> (Socket, Value, Value) {
    let mut s = Socket::open(addr, &format!("/designer/{id}/ws")).unwrap();
    s.send(&json!({"type": "hello", "key": key})).unwrap();
    let welcome = s.recv().unwrap();
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let first = s.recv_type("designer").unwrap();
    (s, welcome, first)
}

fn seat_token(welcome: &Value, seat: &str) -> String {
    let seats = welcome["seats"].as_array().unwrap();
    let entry = seats.iter().find(|s| s["seat"] == seat).unwrap();
    entry["token"].as_str().unwrap().to_string()
}

/// The next designer message that says `pred`, within a bounded number of messages.
fn designer_until(s: &mut Socket, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..50 {
        let msg = s.recv_type("designer").unwrap();
        if pred(&msg) {
            return msg;
        }
    }
    panic!("the designer was never told what was awaited");
}

#[test]
fn designer_matches_need_the_flag_and_a_loopback_address() {
    let data = tempfile::tempdir().unwrap();
    let refused = boardscript_server::spawn(Config {
        addr: "0.0.0.0:0".into(),
        data: data.path().to_path_buf(),
        scripts: vec![common::scripts()],
        designer: true,
        ..Config::default()
    })
    .err()
    .expect("a designer's server refuses a public address");
    let said = format!("{refused:#}");
    assert!(said.contains("listen on a loopback address"), "{said}");

    let plain = common::Server::start();
    let (status, reply) = client::post(
        plain.addr(),
        "/api/matches",
        &json!({"game": "connect-four", "designer": true}),
    )
    .unwrap();
    assert_eq!(status, 403, "{reply}");
    assert!(reply["error"].as_str().unwrap().contains("--designer"));
    let created = plain.create(json!({"game": "connect-four"}));
    let path = format!("/designer/{}/ws", common::id(&created));
    assert!(
        Socket::open(plain.addr(), &path).is_err(),
        "no designer's socket without --designer"
    );
}

#[test]
fn the_designer_plays_every_seat_undoes_redoes_and_reads_the_state() {
    let data = tempfile::tempdir().unwrap();
    let server = designer_server(data.path(), common::scripts(), false);
    let addr = server.addr;
    let created = create(
        addr,
        json!({"game": "connect-four", "seed": 5, "designer": true}),
    );
    let id = common::id(&created).to_string();

    let mut wrong = Socket::open(addr, &format!("/designer/{id}/ws")).unwrap();
    wrong
        .send(&json!({"type": "hello", "key": "nope"}))
        .unwrap();
    assert_eq!(wrong.recv().unwrap()["code"], "bad_token");
    wrong.send(&json!({"type": "undo"})).unwrap();
    assert_eq!(wrong.recv().unwrap()["code"], "hello_first");

    let (mut desk, welcome, first) = designer(addr, &id, &key(&created));
    assert_eq!(welcome["seed"], 5);
    assert_eq!(first["seq"], 0);
    assert_eq!(first["deciding"], json!(["x"]));
    assert!(first["state"].is_object(), "{first}");
    // Nothing to take back yet: refused, nothing changes.
    desk.send(&json!({"type": "undo"})).unwrap();
    let refused = desk.recv().unwrap();
    assert_eq!(refused["message"], "nothing to undo", "{refused}");

    // Every seat's view, through the tokens only the designer was told.
    let x_token = seat_token(&welcome, "x");
    let o_token = seat_token(&welcome, "o");
    let (mut x, xw, _) = Socket::join(addr, &id, Some(&x_token)).unwrap();
    let (mut o, ow, _) = Socket::join(addr, &id, Some(&o_token)).unwrap();
    assert_eq!(
        (xw["seat"].as_str(), ow["seat"].as_str()),
        (Some("x"), Some("o"))
    );
    x.send(&common::action(&x_token, "d")).unwrap();
    assert_eq!(x.recv_type("ack").unwrap()["seq"], 1);
    o.state_at(1).unwrap();
    o.send(&common::action(&o_token, "c")).unwrap();
    assert_eq!(o.recv_type("ack").unwrap()["seq"], 2);
    let two = designer_until(&mut desk, |m| m["seq"] == 2);
    assert_eq!(
        two["actions"],
        json!([{"seat": "x", "action": "d"}, {"seat": "o", "action": "c"}])
    );
    assert!(two["state"].to_string().contains("\"x\""), "{two}");

    // Undo: every client is sent the older state, the seat to move decides again.
    desk.send(&json!({"type": "undo"})).unwrap();
    assert_eq!(desk.recv_type("ack").unwrap()["seq"], 1);
    let back = designer_until(&mut desk, |m| m["seq"] == 1);
    assert_eq!(back["deciding"], json!(["o"]));
    assert_eq!(back["actions"].as_array().unwrap().len(), 1);
    let o_back = loop {
        let s = o.recv_type("state").unwrap();
        if s["seq"] == 1 {
            break s;
        }
    };
    assert_eq!(o_back["designer"], true);
    assert!(common::options(&o_back).contains(&"c".to_string()));
    // Redo plays it again; undo once more, and o plays another column instead.
    desk.send(&json!({"type": "redo"})).unwrap();
    assert_eq!(desk.recv_type("ack").unwrap()["seq"], 2);
    desk.send(&json!({"type": "undo"})).unwrap();
    assert_eq!(desk.recv_type("ack").unwrap()["seq"], 1);
    o.send(&common::action(&o_token, "e")).unwrap();
    assert_eq!(o.recv_type("ack").unwrap()["seq"], 2);
    let replayed = designer_until(&mut desk, |m| m["seq"] == 2);
    assert_eq!(replayed["actions"][1], json!({"seat": "o", "action": "e"}));

    // Kept nowhere: the store never held the match, so a restart replays no undone action
    // (nor any other): the match is gone with the server.
    let store = SqliteStore::open(&data.path().join(boardscript_server::STORE_FILE)).unwrap();
    assert_eq!(store.actions(&id).unwrap(), None);
    drop(server);
    let server = designer_server(data.path(), common::scripts(), false);
    let (status, _) = client::get(server.addr, &format!("/api/matches/{id}")).unwrap();
    assert_eq!(status, 404);
}

/// A seat's or a spectator's socket asking for the designer's powers is refused and is sent
/// nothing more than its own view.
#[test]
fn seat_and_spectator_sockets_get_no_designer_powers() {
    let data = tempfile::tempdir().unwrap();
    let server = designer_server(data.path(), common::scripts(), false);
    let addr = server.addr;
    for designer_match in [true, false] {
        let created = create(
            addr,
            json!({"game": "connect-four", "seed": 2, "designer": designer_match}),
        );
        let id = common::id(&created).to_string();
        let x_token = if designer_match {
            let (_desk, welcome, _) = designer(addr, &id, &key(&created));
            seat_token(&welcome, "x")
        } else {
            assert!(created.get("designer").is_none(), "{created}");
            assert!(Socket::open(addr, &format!("/designer/{id}/ws")).is_err());
            common::token(&created, "x")
        };
        let (mut x, _, _) = Socket::join(addr, &id, Some(&x_token)).unwrap();
        x.send(&common::action(&x_token, "a")).unwrap();
        assert_eq!(x.recv_type("ack").unwrap()["seq"], 1);
        let (mut watcher, _, _) = Socket::join(addr, &id, None).unwrap();
        for sock in [&mut x, &mut watcher] {
            for ask in [
                json!({"type": "undo"}),
                json!({"type": "redo"}),
                json!({"type": "hello", "key": "anything"}),
            ] {
                sock.send(&ask).unwrap();
                let reply = sock.recv_type("error").unwrap();
                assert_eq!(reply["code"], "malformed", "{ask} -> {reply}");
            }
            sock.send(&json!({"type": "ping"})).unwrap();
            let state = sock.recv().unwrap();
            assert_eq!(state["type"], "state", "{state}");
            assert_eq!(state["seq"], 1, "nothing was undone");
            assert!(state.get("actions").is_none() && state.get("state").is_none());
        }
    }
}

#[test]
fn a_save_reloads_designer_matches_and_a_syntax_error_changes_nothing() {
    let data = tempfile::tempdir().unwrap();
    let (scripts, game) = common::connect_four_copy();
    let rules = game.join("rules.rhai");
    let original = std::fs::read_to_string(&rules).unwrap();
    assert!(original.contains("board.set_color(\"x\", \"red\");"));

    let server = designer_server(data.path(), scripts.path().to_path_buf(), true);
    let addr = server.addr;
    let created = create(
        addr,
        json!({"game": "connect-four", "seed": 1, "designer": true}),
    );
    let id = common::id(&created).to_string();
    let (mut desk, welcome, _) = designer(addr, &id, &key(&created));
    let x_token = seat_token(&welcome, "x");
    let (mut x, _, _) = Socket::join(addr, &id, Some(&x_token)).unwrap();
    x.send(&common::action(&x_token, "d")).unwrap();
    x.recv_type("ack").unwrap();
    designer_until(&mut desk, |m| m["seq"] == 1);

    // A save: the rules reload, the position is kept, every page is sent the new state.
    std::fs::write(&rules, original.replace("\"red\"", "\"green\"")).unwrap();
    let reloaded = designer_until(&mut desk, |m| m["reload"]["ok"] == true);
    assert_eq!(reloaded["reload"]["text"], "reloaded: 1 action(s) replayed");
    assert_eq!(reloaded["seq"], 1);
    let x_now = loop {
        let s = x.recv_type("state").unwrap();
        if s["view"].to_string().contains("green") {
            break s;
        }
    };
    assert_eq!(x_now["seq"], 1);

    // A syntax error: shown with its file:line:column, the match unchanged and playable.
    let broken = original.replace("\"red\"", "\"green\"") + "\nfn broken( {\n";
    std::fs::write(&rules, broken).unwrap();
    let failed = designer_until(&mut desk, |m| m["reload"]["ok"] == false);
    let text = failed["reload"]["text"].as_str().unwrap();
    let line = original.lines().count() + 2;
    assert!(
        text.contains(&format!("rules.rhai:{line}:12: syntax error")),
        "{text}"
    );
    assert!(text.contains("old rules kept"), "{text}");
    assert_eq!(failed["seq"], 1);
    assert_eq!(failed["actions"], reloaded["actions"]);
    assert_eq!(failed["state"], reloaded["state"]);
    let (mut o, _, o_state) = Socket::join(addr, &id, Some(&seat_token(&welcome, "o"))).unwrap();
    assert!(o_state["view"].to_string().contains("green"));
    o.send(&common::action(&seat_token(&welcome, "o"), "e"))
        .unwrap();
    assert_eq!(o.recv_type("ack").unwrap()["seq"], 2);

    // New matches use the last rules that compiled.
    let fresh = create(addr, json!({"game": "connect-four"}));
    let (_, _, state) =
        Socket::join(addr, common::id(&fresh), Some(&common::token(&fresh, "x"))).unwrap();
    assert!(state["view"].to_string().contains("green"), "{state}");
}

/// Undo takes back the bots' actions too, down to a person's decision (a bot would
/// otherwise play straight back); redo plays the person's action again and the bot answers.
#[test]
fn undo_takes_back_a_bots_reply_with_the_move_it_answered() {
    let data = tempfile::tempdir().unwrap();
    let server = designer_server(data.path(), common::scripts(), false);
    let addr = server.addr;
    let created = create(
        addr,
        json!({"game": "connect-four", "seed": 3, "designer": true, "bots": {"o": "random"}}),
    );
    let id = common::id(&created).to_string();
    let (mut desk, welcome, _) = designer(addr, &id, &key(&created));
    assert_eq!(welcome["seats"][1], json!({"seat": "o", "bot": "random"}));
    let x_token = seat_token(&welcome, "x");
    let (mut x, _, _) = Socket::join(addr, &id, Some(&x_token)).unwrap();
    x.send(&common::action(&x_token, "d")).unwrap();
    x.recv_type("ack").unwrap();
    designer_until(&mut desk, |m| m["seq"] == 2);

    desk.send(&json!({"type": "undo"})).unwrap();
    assert_eq!(desk.recv_type("ack").unwrap()["seq"], 0);
    let back = designer_until(&mut desk, |m| m["seq"] == 0);
    assert_eq!(back["deciding"], json!(["x"]));
    // The bot does not play on by itself: the match waits for x.
    desk.send(&json!({"type": "ping"})).unwrap();
    assert_eq!(desk.recv_type("designer").unwrap()["seq"], 0);

    desk.send(&json!({"type": "redo"})).unwrap();
    assert_eq!(desk.recv_type("ack").unwrap()["seq"], 1);
    let answered = designer_until(&mut desk, |m| m["seq"] == 2);
    assert_eq!(answered["actions"][0], json!({"seat": "x", "action": "d"}));
    assert_eq!(answered["deciding"], json!(["x"]));
}

#[test]
fn a_designer_socket_that_never_says_hello_is_closed() {
    let data = tempfile::tempdir().unwrap();
    let server = boardscript_server::spawn(Config {
        addr: "127.0.0.1:0".into(),
        data: data.path().to_path_buf(),
        scripts: vec![common::scripts()],
        designer: true,
        limits: boardscript_server::Limits {
            hello_within: std::time::Duration::from_millis(300),
            ..Default::default()
        },
        ..Config::default()
    })
    .unwrap();
    let created = create(
        server.addr,
        json!({"game": "connect-four", "designer": true}),
    );
    let path = format!("/designer/{}/ws", common::id(&created));
    let mut silent = Socket::open(server.addr, &path).unwrap();
    let closed = silent.recv().unwrap_err().to_string();
    assert!(closed.contains("no hello within 300 ms"), "{closed}");
}
