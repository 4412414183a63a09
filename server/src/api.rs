//! The HTTP routes: the games, creating a match, a match's status, and the WebSocket.

use crate::hall::{Hall, NewMatch, Refused};
use crate::room::Room;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::sync::Arc;

pub fn router(hall: Arc<Hall>) -> Router {
    let body_limit = hall.limits.message_bytes;
    let designer = hall.designer;
    let router = Router::new()
        .route("/api/games", get(games))
        .route("/api/matches", post(create))
        .route("/api/matches/{id}", get(status))
        .route("/", get(crate::page::lobby))
        .route("/assets/{name}", get(crate::page::file))
        .route("/m/{id}", get(page))
        .route("/m/{id}/ws", get(crate::socket::upgrade));
    // Without `--designer` there is no designer's page or socket at all.
    let router = match designer {
        true => router
            .route("/designer/{id}", get(crate::designer_socket::page))
            .route("/designer/{id}/ws", get(crate::designer_socket::upgrade)),
        false => router,
    };
    router
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(hall)
}

/// An error reply: `{"error": message}` with its status.
pub fn error(status: u16, message: impl Into<String>) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, Json(json!({"error": message.into()}))).into_response()
}

async fn games(State(hall): State<Arc<Hall>>) -> Json<Value> {
    let games: Vec<Value> = hall
        .games()
        .iter()
        .map(|g| {
            let spec = g.spec();
            let (min, max) = spec.seats.range();
            let options: Vec<Value> = spec
                .options
                .iter()
                .map(
                    |o| json!({"name": o.name, "default": o.default.to_string(), "about": o.about}),
                )
                .collect();
            json!({
                "id": spec.id,
                "title": spec.title,
                "about": spec.about,
                "seats": {"min": min, "max": max, "names": spec.seats.names},
                "options": options,
                "layout": spec.layout,
            })
        })
        .collect();
    Json(json!({ "games": games, "designer": hall.designer }))
}

async fn create(
    State(hall): State<Arc<Hall>>,
    headers: HeaderMap,
    body: Result<Json<NewMatch>, JsonRejection>,
) -> Response {
    let req = match body {
        Ok(Json(req)) => req,
        Err(e) => return error(e.status().as_u16(), e.body_text()),
    };
    let made = {
        let hall = hall.clone();
        tokio::task::spawn_blocking(move || hall.create(req)).await
    };
    let room = match made {
        Ok(Ok(room)) => room,
        Ok(Err(Refused { status, message })) => return error(status, message),
        Err(e) => return error(500, format!("internal error: {e}")),
    };
    tokio::spawn(room.clone().drive_bots());
    let base = base_url(&headers);
    (StatusCode::CREATED, Json(created(&room, &base))).into_response()
}

/// The reply to a creation: each seat's join link (people's seats) or bot, and the
/// spectators' link.
fn created(room: &Room, base: &str) -> Value {
    let id = room.id();
    let mut reply = json!({});
    if let Some(desk) = &room.designer {
        reply["designer"] = json!(format!("http://{base}/designer/{id}?key={}", desk.key));
    }
    let seats: Vec<Value> = room
        .seat_names
        .iter()
        .map(|name| match room.record.tokens.get(name) {
            Some(token) => json!({
                "seat": name,
                "token": token,
                "join": format!("http://{base}/m/{id}?token={token}"),
            }),
            None => json!({"seat": name, "bot": room.record.bots.get(name)}),
        })
        .collect();
    reply["match"] = json!(id);
    reply["game"] = json!(room.record.game);
    reply["seats"] = json!(seats);
    reply["spectate"] = json!(format!("http://{base}/m/{id}"));
    reply["socket"] = json!(format!("ws://{base}/m/{id}/ws"));
    reply
}

/// The host the client reached us by, for links that work from where it stands.
fn base_url(headers: &HeaderMap) -> String {
    headers
        .get("host")
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            h.chars()
                .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
        })
        .unwrap_or("localhost")
        .to_string()
}

async fn status(State(hall): State<Arc<Hall>>, Path(id): Path<String>) -> Response {
    let Some(room) = hall.room(&id) else {
        return error(404, "no such match");
    };
    let now = room.current();
    let seats: Vec<Value> = room
        .seat_names
        .iter()
        .map(|name| json!({"seat": name, "bot": room.record.bots.get(name)}))
        .collect();
    let mut v = now.public.clone();
    v["match"] = json!(room.id());
    v["game"] = json!(room.record.game);
    v["seats"] = json!(seats);
    v["over"] = json!(now.over);
    v["connections"] = json!(room.connections.load(Ordering::Relaxed));
    Json(v).into_response()
}

/// The match's page (`page.rs`), for a match the server holds.
async fn page(State(hall): State<Arc<Hall>>, Path(id): Path<String>) -> Response {
    if hall.room(&id).is_none() {
        return error(404, "no such match");
    }
    crate::page::match_page()
}
