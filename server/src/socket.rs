//! One client's WebSocket: it says who it is (`hello`), sends actions, and is sent its own
//! seat's state after every change.

use crate::api::error;
use crate::hall::Hall;
use crate::limits::{Limits, RateLimit};
use crate::messages::{ClientMsg, Code, Refusal};
use crate::room::{Act, Room};
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::sync::Arc;

pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(hall): State<Arc<Hall>>,
    Path(id): Path<String>,
) -> Response {
    let Some(room) = hall.room(&id) else {
        return error(404, "no such match");
    };
    let Some(guard) = Connection::open(&hall, &room) else {
        return error(
            503,
            format!(
                "the server has its most connections ({}); try again later",
                hall.limits.connections
            ),
        );
    };
    bounded(ws, &hall.limits).on_upgrade(move |socket| serve(socket, hall, room, guard))
}

/// The upgrade with the socket's own size bound: past four times the message limit the
/// socket itself refuses, and closes, so such a message is not read into memory. Up to it,
/// a long message gets an error reply (`admit`).
pub(crate) fn bounded(ws: WebSocketUpgrade, limits: &Limits) -> WebSocketUpgrade {
    let hard = limits.message_bytes * 4;
    ws.max_message_size(hard).max_frame_size(hard)
}

/// What a socket's next frame is to its connection.
pub(crate) enum Frame {
    /// A message's text (a binary frame read as UTF-8).
    Text(String),
    /// A ping or pong: nothing to answer.
    Skip,
    /// Closed, or a message past the socket's own limit: the connection ends.
    End,
}

pub(crate) fn frame(incoming: Option<Result<Message, axum::Error>>) -> Frame {
    match incoming {
        Some(Ok(Message::Text(text))) => Frame::Text(text.to_string()),
        Some(Ok(Message::Binary(bytes))) => {
            Frame::Text(String::from_utf8_lossy(&bytes).into_owned())
        }
        Some(Ok(Message::Ping(_) | Message::Pong(_))) => Frame::Skip,
        Some(Ok(Message::Close(_))) | Some(Err(_)) | None => Frame::End,
    }
}

/// Refuses a message over the size limit, or one past the connection's rate.
pub(crate) fn admit(text: &str, limits: &Limits, rate: &mut RateLimit) -> Result<(), Refusal> {
    if text.len() > limits.message_bytes {
        let limit = limits.message_bytes;
        return Err(Refusal::new(
            Code::TooBig,
            format!("a message may hold at most {limit} bytes"),
        ));
    }
    if !rate.allow() {
        return Err(Refusal::new(
            Code::RateLimited,
            "too many messages: slow down",
        ));
    }
    Ok(())
}

/// A connection counted against the hall's and the room's, until dropped.
pub(crate) struct Connection {
    hall: Arc<Hall>,
    room: Arc<Room>,
}

impl Connection {
    pub(crate) fn open(hall: &Arc<Hall>, room: &Arc<Room>) -> Option<Connection> {
        let max = hall.limits.connections;
        let taken = hall
            .connections
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < max).then_some(n + 1)
            });
        taken.ok()?;
        room.connections.fetch_add(1, Ordering::SeqCst);
        Some(Connection {
            hall: hall.clone(),
            room: room.clone(),
        })
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.hall.connections.fetch_sub(1, Ordering::SeqCst);
        self.room.connections.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Who the client said it is.
#[derive(Clone, Copy)]
enum Client {
    /// No `hello` yet.
    Unknown,
    Spectator,
    Seat(usize),
}

async fn serve(mut socket: WebSocket, hall: Arc<Hall>, room: Arc<Room>, _guard: Connection) {
    let mut client = Client::Unknown;
    let mut updates = room.subscribe();
    let mut rate = RateLimit::new(&hall.limits);
    let hello_by = tokio::time::Instant::now() + hall.limits.hello_within;
    loop {
        tokio::select! {
            _ = tokio::time::sleep_until(hello_by), if matches!(client, Client::Unknown) => {
                close_unnamed(&mut socket, &hall.limits).await;
                break;
            }
            incoming = socket.recv() => {
                let text = match frame(incoming) {
                    Frame::Text(text) => text,
                    Frame::Skip => continue,
                    Frame::End => break,
                };
                let (replies, then_state) = handle(&text, &mut client, &room, &hall, &mut rate).await;
                for reply in replies {
                    if socket.send(reply).await.is_err() {
                        return;
                    }
                }
                if then_state {
                    let now = updates.borrow_and_update().clone();
                    if socket.send(state_message(&now, client)).await.is_err() {
                        return;
                    }
                }
            }
            changed = updates.changed(), if !matches!(client, Client::Unknown) => {
                if changed.is_err() {
                    break;
                }
                let now = updates.borrow_and_update().clone();
                if socket.send(state_message(&now, client)).await.is_err() {
                    break;
                }
            }
        }
    }
}

fn state_message(now: &crate::room::Snapshot, client: Client) -> Message {
    let seat = match client {
        Client::Seat(i) => Some(i),
        _ => None,
    };
    Message::Text(now.message(seat).as_ref().into())
}

fn reply(v: Value) -> Message {
    Message::Text(v.to_string().into())
}

/// The replies to one message from the client, and whether its state follows them.
async fn handle(
    text: &str,
    client: &mut Client,
    room: &Arc<Room>,
    hall: &Hall,
    rate: &mut RateLimit,
) -> (Vec<Message>, bool) {
    let refuse = |code, message: &str| {
        (
            vec![reply(Refusal::new(code, message).to_json(None))],
            false,
        )
    };
    if let Err(refusal) = admit(text, &hall.limits, rate) {
        return (vec![reply(refusal.to_json(None))], false);
    }
    let msg: ClientMsg = match serde_json::from_str(text) {
        Ok(msg) => msg,
        Err(e) => return refuse(Code::Malformed, &format!("not a message: {e}")),
    };
    match msg {
        ClientMsg::Hello { token, seq: seen } => {
            *client = match token {
                None => Client::Spectator,
                Some(token) => match room.seat_of_token(&token) {
                    Some(seat) => Client::Seat(seat),
                    None => return refuse(Code::BadToken, "no seat of this match has that token"),
                },
            };
            let seat = match *client {
                Client::Seat(i) => Some(room.seat_names[i].as_str()),
                _ => None,
            };
            let welcome = json!({
                "type": "welcome",
                "match": room.id(),
                "game": room.record.game,
                "seat": seat,
                "seats": room.seat_names,
                // The game's layout hints (colours by seat, cell symbol, card name).
                "layout": hall.layout(&room.record.game),
                // Actions played since the state the client saw last, when it said.
                "missed": seen.map(|s| room.current().seq.saturating_sub(s)),
            });
            // The state now follows, whatever the client saw last: a view is whole, not a
            // diff, so resuming needs nothing more.
            (vec![reply(welcome)], true)
        }
        ClientMsg::Ping {} => match *client {
            Client::Unknown => refuse(Code::HelloFirst, "say hello first"),
            _ => (vec![], true),
        },
        ClientMsg::Action {
            token,
            action,
            option,
            seq,
            id,
        } => {
            let refuse = |code, message: &str| {
                (
                    vec![reply(Refusal::new(code, message).to_json(id.as_ref()))],
                    false,
                )
            };
            let seat = match *client {
                Client::Unknown => return refuse(Code::HelloFirst, "say hello first"),
                Client::Spectator => return refuse(Code::Spectator, "a spectator plays no seat"),
                Client::Seat(seat) => seat,
            };
            if !room.token_is(seat, &token) {
                return refuse(Code::BadToken, "that is not this seat's token");
            }
            let act = match (action, option) {
                (Some(text), None) => Act::Text(text),
                (None, Some(index)) => Act::Option { index, seq },
                _ => {
                    return refuse(
                        Code::Malformed,
                        "give either `action` (its text) or `option` (an index)",
                    )
                }
            };
            match room.act(seat, act).await {
                Ok((seq, action)) => {
                    tokio::spawn(room.clone().drive_bots());
                    let mut ack = json!({"type": "ack", "seq": seq, "action": action});
                    if let Some(id) = id {
                        ack["id"] = id;
                    }
                    (vec![reply(ack)], false)
                }
                Err(refusal) => (vec![reply(refusal.to_json(id.as_ref()))], false),
            }
        }
    }
}

/// Closes a socket that has not said `hello` within `limits.hello_within`, with the reason:
/// a socket that never says who it is would hold its connection slot forever.
pub(crate) async fn close_unnamed(socket: &mut WebSocket, limits: &crate::limits::Limits) {
    let within = limits.hello_within.as_millis();
    let close = CloseFrame {
        code: close_code::POLICY,
        reason: format!("no hello within {within} ms").into(),
    };
    let _ = socket.send(Message::Close(Some(close))).await;
}
