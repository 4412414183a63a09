//! A small blocking client of the server (HTTP requests and a match's WebSocket), for tests
//! and for programs that play a seat.

use anyhow::Context;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// How long a read may wait before the client gives up (a server that stopped answering).
const PATIENCE: Duration = Duration::from_secs(60);

/// `GET path`: the status and the JSON body.
pub fn get(addr: SocketAddr, path: &str) -> anyhow::Result<(u16, Value)> {
    request(addr, "GET", path, "")
}

/// `POST path` with a JSON body: the status and the JSON body.
pub fn post(addr: SocketAddr, path: &str, body: &Value) -> anyhow::Result<(u16, Value)> {
    request(addr, "POST", path, &body.to_string())
}

/// One HTTP/1.0 request (so the reply is never chunked) with `body` as JSON.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> anyhow::Result<(u16, Value)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(PATIENCE))?;
    write!(
        s,
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut reply = String::new();
    s.read_to_string(&mut reply)?;
    let (head, body) = reply
        .split_once("\r\n\r\n")
        .context("no end to the reply's head")?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .context("no status in the reply")?;
    let body = if body.trim_start().starts_with(['{', '[']) {
        serde_json::from_str(body)?
    } else {
        Value::String(body.to_string())
    };
    Ok((status, body))
}

/// A client's WebSocket to one match.
pub struct Socket {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
}

impl Socket {
    /// Connects to match `id`'s socket (no `hello` sent yet).
    pub fn connect(addr: SocketAddr, id: &str) -> anyhow::Result<Socket> {
        Socket::open(addr, &format!("/m/{id}/ws"))
    }

    /// Connects to the socket at `path` (`/designer/{id}/ws`).
    pub fn open(addr: SocketAddr, path: &str) -> anyhow::Result<Socket> {
        let (ws, _) = tungstenite::connect(format!("ws://{addr}{path}"))?;
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(PATIENCE))?;
        }
        Ok(Socket { ws })
    }

    /// Connects and says hello with `token` (None: a spectator); returns the socket, the
    /// welcome and the first state.
    pub fn join(
        addr: SocketAddr,
        id: &str,
        token: Option<&str>,
    ) -> anyhow::Result<(Socket, Value, Value)> {
        let mut s = Socket::connect(addr, id)?;
        s.send(&serde_json::json!({"type": "hello", "token": token}))?;
        let welcome = s.recv()?;
        anyhow::ensure!(welcome["type"] == "welcome", "not welcomed: {welcome}");
        let state = s.recv()?;
        Ok((s, welcome, state))
    }

    pub fn send(&mut self, msg: &Value) -> anyhow::Result<()> {
        self.send_text(&msg.to_string())
    }

    /// Sends `text` as it is (a test's malformed message).
    pub fn send_text(&mut self, text: &str) -> anyhow::Result<()> {
        Ok(self.ws.send(Message::text(text))?)
    }

    /// The next message from the server.
    pub fn recv(&mut self) -> anyhow::Result<Value> {
        loop {
            match self.ws.read()? {
                Message::Text(t) => return Ok(serde_json::from_str(t.as_str())?),
                Message::Close(c) => anyhow::bail!("the server closed the socket: {c:?}"),
                _ => continue,
            }
        }
    }

    /// The next message of type `kind` (`state`, `ack`, `error`), skipping others.
    pub fn recv_type(&mut self, kind: &str) -> anyhow::Result<Value> {
        loop {
            let msg = self.recv()?;
            if msg["type"] == kind {
                return Ok(msg);
            }
        }
    }

    /// The next state at least `seq` actions in.
    pub fn state_at(&mut self, seq: u64) -> anyhow::Result<Value> {
        loop {
            let msg = self.recv_type("state")?;
            if msg["seq"].as_u64().unwrap_or(0) >= seq {
                return Ok(msg);
            }
        }
    }

    pub fn close(mut self) {
        let _ = self.ws.close(None);
        let _ = self.ws.flush();
    }
}

/// An action the server acknowledged to a seat playing at random.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Acked {
    pub seq: u64,
    pub seat: String,
    pub action: String,
    /// From sending the action to its acknowledgement.
    pub latency: Duration,
}

/// Plays `token`'s seat of match `id` at random (options drawn from `seed`) until the game
/// is over or `until` actions were played, telling `on_ack` each acknowledged action.
/// Returns the last state seen; an error if the socket failed (a server that stopped).
pub fn play_randomly(
    addr: SocketAddr,
    id: &str,
    token: &str,
    seed: u64,
    until: u64,
    mut on_ack: impl FnMut(Acked),
) -> anyhow::Result<Value> {
    let (mut sock, welcome, mut state) = Socket::join(addr, id, Some(token))?;
    let seat = welcome["seat"].as_str().unwrap_or_default().to_string();
    let mut rng = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    // When the action in flight was sent, and the state it was chosen in.
    let mut sent: Option<(std::time::Instant, u64)> = None;
    loop {
        let seq = state["seq"].as_u64().unwrap_or(0);
        // Never with an action in flight: its acknowledgement is still to come.
        if sent.is_none() && (!state["outcome"].is_null() || seq >= until) {
            return Ok(state);
        }
        let options: Vec<&str> = state["decision"]["options"]
            .as_array()
            .map(|o| o.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if sent.is_none() && !options.is_empty() && seq < until {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let chosen = options[((rng >> 33) % options.len() as u64) as usize].to_string();
            sock.send(&serde_json::json!({"type": "action", "token": token, "action": chosen}))?;
            sent = Some((std::time::Instant::now(), seq));
        }
        let msg = sock.recv()?;
        match msg["type"].as_str() {
            Some("state") => state = msg,
            Some("ack") => {
                let (at, _) = sent.take().context("an ack for nothing sent")?;
                on_ack(Acked {
                    seq: msg["seq"].as_u64().context("no seq")?,
                    seat: seat.clone(),
                    action: msg["action"].as_str().unwrap_or_default().to_string(),
                    latency: at.elapsed(),
                });
            }
            // Refused: the state moved on under it (another seat was quicker). Choose again
            // from the newer state, once it is here.
            Some("error") if sent.is_some() => {
                let chosen_in = sent.take().map(|(_, seq)| seq);
                if state["seq"].as_u64() == chosen_in {
                    state = sock.recv_type("state")?;
                }
            }
            _ => anyhow::bail!("unexpected message: {msg}"),
        }
    }
}
