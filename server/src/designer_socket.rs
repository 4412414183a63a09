//! The designer's socket (`/designer/{id}/ws`): opened with the match's designer key, it
//! is told every seat's token, the seed and the options, then the `designer` message after
//! every change; it may `undo` and `redo`. Only a designer's match on a server started
//! with `--designer` has one.

use crate::api::error;
use crate::hall::Hall;
use crate::limits::RateLimit;
use crate::messages::{Code, Refusal};
use crate::room::Room;
use crate::socket::{admit, bounded, frame, Connection, Frame};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// A message from the designer's page.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum DesignerMsg {
    Hello { key: String },
    Undo {},
    Redo {},
    Ping {},
}

/// The designer's match `id`.
fn designer_room(hall: &Hall, id: &str) -> Option<Arc<Room>> {
    hall.room(id).filter(|room| room.designer.is_some())
}

fn no_such_match() -> Response {
    error(404, "no such designer's match")
}

pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(hall): State<Arc<Hall>>,
    Path(id): Path<String>,
) -> Response {
    let Some(room) = designer_room(&hall, &id) else {
        return no_such_match();
    };
    let Some(guard) = Connection::open(&hall, &room) else {
        return error(503, "the server has its most connections; try again later");
    };
    bounded(ws, &hall.limits).on_upgrade(move |socket| serve(socket, hall, room, guard))
}

/// The designer's page, for a designer's match.
pub async fn page(State(hall): State<Arc<Hall>>, Path(id): Path<String>) -> Response {
    match designer_room(&hall, &id) {
        Some(_) => crate::page::designer_page(),
        None => no_such_match(),
    }
}

async fn serve(mut socket: WebSocket, hall: Arc<Hall>, room: Arc<Room>, _guard: Connection) {
    let mut known = false;
    let mut updates = room.subscribe();
    let mut rate = RateLimit::new(&hall.limits);
    let hello_by = tokio::time::Instant::now() + hall.limits.hello_within;
    loop {
        tokio::select! {
            _ = tokio::time::sleep_until(hello_by), if !known => {
                crate::socket::close_unnamed(&mut socket, &hall.limits).await;
                break;
            }
            incoming = socket.recv() => {
                let text = match frame(incoming) {
                    Frame::Text(text) => text,
                    Frame::Skip => continue,
                    Frame::End => break,
                };
                let (reply, then_state) = handle(&text, &mut known, &room, &hall, &mut rate).await;
                if let Some(reply) = reply {
                    if socket.send(Message::Text(reply.to_string().into())).await.is_err() {
                        return;
                    }
                }
                if then_state && send_state(&mut socket, &mut updates).await.is_err() {
                    return;
                }
            }
            changed = updates.changed(), if known => {
                if changed.is_err() || send_state(&mut socket, &mut updates).await.is_err() {
                    break;
                }
            }
        }
    }
}

async fn send_state(
    socket: &mut WebSocket,
    updates: &mut tokio::sync::watch::Receiver<Arc<crate::room::Snapshot>>,
) -> Result<(), axum::Error> {
    let now = updates.borrow_and_update().clone();
    match &now.designer {
        Some(msg) => socket.send(Message::Text(msg.as_ref().into())).await,
        None => Ok(()),
    }
}

/// The reply to one message, and whether the designer's state follows it.
async fn handle(
    text: &str,
    known: &mut bool,
    room: &Arc<Room>,
    hall: &Hall,
    rate: &mut RateLimit,
) -> (Option<Value>, bool) {
    let refuse = |code, message: &str| (Some(Refusal::new(code, message).to_json(None)), false);
    if let Err(refusal) = admit(text, &hall.limits, rate) {
        return (Some(refusal.to_json(None)), false);
    }
    let msg: DesignerMsg = match serde_json::from_str(text) {
        Ok(msg) => msg,
        Err(e) => return refuse(Code::Malformed, &format!("not a message: {e}")),
    };
    if let DesignerMsg::Hello { key } = &msg {
        let right = room
            .designer
            .as_ref()
            .is_some_and(|d| crate::token::same(key, &d.key));
        if !right {
            return refuse(Code::BadToken, "that is not this match's designer key");
        }
        *known = true;
        return (Some(welcome(room)), true);
    }
    if !*known {
        return refuse(Code::HelloFirst, "say hello with the designer key first");
    }
    let done = match msg {
        DesignerMsg::Undo {} => room.undo().await,
        DesignerMsg::Redo {} => room.redo().await,
        DesignerMsg::Ping {} | DesignerMsg::Hello { .. } => return (None, true),
    };
    match done {
        Ok(seq) => (Some(json!({"type": "ack", "seq": seq})), false),
        Err(refusal) => (Some(refusal.to_json(None)), false),
    }
}

/// Who plays each seat (a token the page joins with, or a bot), the seed and the options.
fn welcome(room: &Room) -> Value {
    let seats: Vec<Value> = room
        .seat_names
        .iter()
        .map(|name| match room.record.tokens.get(name) {
            Some(token) => json!({"seat": name, "token": token}),
            None => json!({"seat": name, "bot": room.record.bots.get(name)}),
        })
        .collect();
    json!({
        "type": "welcome",
        "match": room.id(),
        "game": room.record.game,
        "seats": seats,
        "seed": room.record.seed,
        "options": room.record.options,
    })
}
