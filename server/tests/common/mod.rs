//! Helpers for the server's tests: a server on a free loopback port with its own data
//! folder, matches created over HTTP, seats joined over real sockets.
#![allow(dead_code)]

use boardscript_server::client::{self, Socket};
use boardscript_server::{Config, Limits, Running};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

pub fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts")
}

/// A scripts folder of its own holding a copy of Connect Four (its manifest and rules), for
/// a test that edits them; and the copy's folder.
#[allow(dead_code)] // not every test file edits a game
pub fn connect_four_copy() -> (tempfile::TempDir, PathBuf) {
    let folder = tempfile::tempdir().unwrap();
    let game = folder.path().join("connect-four");
    std::fs::create_dir(&game).unwrap();
    for file in ["game.toml", "rules.rhai"] {
        std::fs::copy(scripts().join("connect-four").join(file), game.join(file)).unwrap();
    }
    (folder, game)
}

/// A running server and the data folder it keeps matches in.
pub struct Server {
    pub running: Option<Running>,
    pub data: tempfile::TempDir,
    pub limits: Limits,
}

impl Server {
    pub fn start() -> Server {
        Server::with_limits(Limits::default())
    }

    pub fn with_limits(limits: Limits) -> Server {
        let data = tempfile::tempdir().unwrap();
        let running = Some(launch(data.path(), &limits));
        Server {
            running,
            data,
            limits,
        }
    }

    pub fn addr(&self) -> SocketAddr {
        self.running.as_ref().expect("running").addr
    }

    /// Stops the server and starts another on the same data folder (a new port).
    pub fn restart(&mut self) {
        drop(self.running.take());
        self.running = Some(launch(self.data.path(), &self.limits));
    }

    /// Creates a match (`body` as the API takes it); the reply.
    pub fn create(&self, body: Value) -> Value {
        let (status, reply) = client::post(self.addr(), "/api/matches", &body).unwrap();
        assert_eq!(status, 201, "{reply}");
        reply
    }

    pub fn status(&self, id: &str) -> Value {
        let (status, reply) = client::get(self.addr(), &format!("/api/matches/{id}")).unwrap();
        assert_eq!(status, 200, "{reply}");
        reply
    }

    /// Joins match `created` as `seat` with its token: the socket and the first state.
    pub fn join(&self, created: &Value, seat: &str) -> (Socket, Value) {
        let (sock, welcome, state) =
            Socket::join(self.addr(), id(created), Some(&token(created, seat))).unwrap();
        assert_eq!(welcome["seat"], seat);
        (sock, state)
    }

    pub fn spectate(&self, created: &Value) -> (Socket, Value) {
        let (sock, welcome, state) = Socket::join(self.addr(), id(created), None).unwrap();
        assert_eq!(welcome["seat"], Value::Null);
        (sock, state)
    }
}

fn launch(data: &Path, limits: &Limits) -> Running {
    boardscript_server::spawn(Config {
        addr: "127.0.0.1:0".into(),
        data: data.to_path_buf(),
        scripts: vec![scripts()],
        limits: limits.clone(),
        ..Config::default()
    })
    .unwrap()
}

pub fn id(created: &Value) -> &str {
    created["match"].as_str().unwrap()
}

pub fn token(created: &Value, seat: &str) -> String {
    let seats = created["seats"].as_array().unwrap();
    let entry = seats.iter().find(|s| s["seat"] == seat).unwrap();
    entry["token"].as_str().unwrap().to_string()
}

/// The action message for `action` by the holder of `token`.
pub fn action(token: &str, action: &str) -> Value {
    json!({"type": "action", "token": token, "action": action})
}

/// The options of the seat's decision in `state` (empty: not deciding).
pub fn options(state: &Value) -> Vec<String> {
    state["decision"]["options"]
        .as_array()
        .map(|o| o.iter().map(|a| a.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

pub fn seq(state: &Value) -> u64 {
    state["seq"].as_u64().unwrap()
}
