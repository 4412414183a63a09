//! The pages a browser opens: the lobby at `/` (create a match, get the seat links) and a
//! match at `/m/{id}`, which draws any game from the `state` messages of the match's
//! WebSocket. Plain HTML, CSS and JavaScript from `server/assets/`, compiled into the binary:
//! nothing to build or fetch at run time.

use axum::http::header;
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("../assets/index.html");
const MATCH: &str = include_str!("../assets/match.html");
const BOARD_JS: &str = include_str!("../assets/board.js");
const LOBBY_JS: &str = include_str!("../assets/lobby.js");
const BOARD_CSS: &str = include_str!("../assets/board.css");
const DESIGNER: &str = include_str!("../assets/designer.html");
const DESIGNER_JS: &str = include_str!("../assets/designer.js");
const DESIGNER_CSS: &str = include_str!("../assets/designer.css");

/// Scripts and styles only from this server, sockets only back to it: game text drawn on
/// the page can never run as code. Framed only by this server's own pages (the designer's
/// page shows each seat's match page in a frame).
const POLICY: &str = "default-src 'self'; connect-src 'self'; img-src 'self' data:; \
                      object-src 'none'; base-uri 'none'; frame-ancestors 'self'";

fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

const HTML: &str = "text/html; charset=utf-8";

pub async fn lobby() -> Response {
    asset(HTML, INDEX)
}

pub fn match_page() -> Response {
    asset(HTML, MATCH)
}

pub fn designer_page() -> Response {
    asset(HTML, DESIGNER)
}

/// `/assets/{name}`: the pages' scripts and style.
pub async fn file(axum::extract::Path(name): axum::extract::Path<String>) -> Response {
    match name.as_str() {
        "board.js" => asset("text/javascript; charset=utf-8", BOARD_JS),
        "lobby.js" => asset("text/javascript; charset=utf-8", LOBBY_JS),
        "board.css" => asset("text/css; charset=utf-8", BOARD_CSS),
        "designer.js" => asset("text/javascript; charset=utf-8", DESIGNER_JS),
        "designer.css" => asset("text/css; charset=utf-8", DESIGNER_CSS),
        _ => crate::api::error(404, "no such file"),
    }
}
