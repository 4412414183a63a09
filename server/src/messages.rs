//! The WebSocket messages, as JSON: what a client sends and the replies that are not a
//! state (those are made in `room.rs`).

use boardscript_interpreter::TableError;
use serde::Deserialize;
use serde_json::{json, Value};

/// A message from a client.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Who the client is: a seat's token, or none for a spectator; `seq`, the last state it
    /// saw (it is sent the state now either way).
    Hello {
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        seq: Option<u64>,
    },
    /// An action for the client's seat: its text (`action`), or the index of one of the
    /// options of the state `seq` (`option`). The seat's token comes with every action.
    Action {
        token: String,
        #[serde(default)]
        action: Option<String>,
        #[serde(default)]
        option: Option<usize>,
        #[serde(default)]
        seq: Option<u64>,
        /// Echoed in the reply, for a client that matches replies to what it sent.
        #[serde(default)]
        id: Option<Value>,
    },
    /// Asks for the state again.
    Ping {},
}

/// Why the server refused a message, as a code a client can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    Malformed,
    TooBig,
    RateLimited,
    HelloFirst,
    BadToken,
    Spectator,
    Stale,
    /// The engine refused the action (`TableError`): its own code below.
    Engine(&'static str),
    Store,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Malformed => "malformed",
            Code::TooBig => "too_big",
            Code::RateLimited => "rate_limited",
            Code::HelloFirst => "hello_first",
            Code::BadToken => "bad_token",
            Code::Spectator => "spectator",
            Code::Stale => "stale",
            Code::Engine(code) => code,
            Code::Store => "store",
        }
    }
}

/// A refusal: its code and the message a person reads.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub code: Code,
    pub message: String,
}

impl Refusal {
    pub fn new(code: Code, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    /// The reply: `{"type":"error","code":...,"message":...}`, with the id of the message
    /// refused when it had one.
    pub fn to_json(&self, id: Option<&Value>) -> Value {
        let mut v = json!({"type": "error", "code": self.code.as_str(), "message": self.message});
        if let Some(id) = id {
            v["id"] = id.clone();
        }
        v
    }
}

impl From<TableError> for Refusal {
    /// The engine's refusal, already fit for the seat that tried it.
    fn from(e: TableError) -> Refusal {
        let code = match &e {
            TableError::NoSeat { .. } | TableError::NoSeatNamed { .. } => "no_seat",
            TableError::NotDeciding { .. } => "not_deciding",
            TableError::Over => "over",
            TableError::Illegal { .. } => "illegal",
            TableError::Refused { .. } => "refused",
            TableError::Script { .. } => "script",
            TableError::Rules(_) => "rules",
            TableError::Interrupted | TableError::Bot(_) => "bot",
            _ => "stopped",
        };
        Refusal::new(Code::Engine(code), e.to_string())
    }
}
