//! `TableError`: why a table refused a call, as the asking seat may read it.

use crate::bots::BotError;
use crate::game::PlayError;
use crate::script::{ScriptError, Source};

/// A refused call. The table is as it was before the call: nothing changed.
///
/// Already fit to show the seat that asked: the only legal actions an error lists are those
/// of the seat that tried an action ([`TableError::Illegal`]), never another seat's options.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// A seat index the game does not have.
    #[error("there is no seat {index}: this game has {seats} (0 to {last})", last = seats.saturating_sub(1))]
    NoSeat { index: usize, seats: usize },
    /// A seat name the game does not have.
    #[error("no seat `{name}` (seats: {seats})")]
    NoSeatNamed { name: String, seats: String },
    #[error("`{seat}` is not deciding now; waiting for: {waiting}")]
    NotDeciding { seat: String, waiting: String },
    #[error("the game is over")]
    Over,
    /// The action is not one of the seat's legal actions; `legal` lists that seat's own.
    #[error("`{action}` is not a legal action for {seat}{why}; legal now: {legal}")]
    Illegal {
        seat: String,
        action: String,
        why: String,
        legal: String,
    },
    /// The game's rules refused the action, with their reason.
    #[error("`{action}` is refused for {seat}: {reason}")]
    Refused {
        seat: String,
        action: String,
        reason: String,
    },
    /// A script failed: the message names the file, line and column (`at`), and `excerpt`
    /// shows that line with a caret under the column, when it can be found.
    #[error("{message}")]
    Script {
        message: String,
        at: Option<String>,
        excerpt: Option<String>,
    },
    /// The game's files are wrong, or the setup, or an action's notation; or the game
    /// outgrew its limits.
    #[error("{0}")]
    Rules(String),
    /// A bot's search was stopped (`Table::stop_flag`) before it chose: nothing was played.
    #[error("the bot was stopped before it chose")]
    Interrupted,
    /// A bot could not choose (a bad bot name or setting, or its search failed).
    #[error("{0}")]
    Bot(String),
    /// The table's script thread stopped (an engine bug): this table can do nothing more.
    #[error("the table stopped: {0}")]
    Stopped(String),
}

impl From<PlayError> for TableError {
    fn from(e: PlayError) -> TableError {
        match e {
            PlayError::NoSeat { seat, seats } => TableError::NoSeat { index: seat, seats },
            PlayError::NotDeciding { seat, waiting } => TableError::NotDeciding { seat, waiting },
            PlayError::Over => TableError::Over,
            PlayError::Illegal {
                seat,
                action,
                why,
                legal,
            } => TableError::Illegal {
                seat,
                action,
                why,
                legal,
            },
            PlayError::Refused {
                seat,
                action,
                reason,
            } => TableError::Refused {
                seat,
                action,
                reason,
            },
            PlayError::Script(e) => TableError::from_script(&e, None),
            other => TableError::Rules(other.to_string()),
        }
    }
}

impl From<ScriptError> for TableError {
    /// A game's files that do not load or compile: the excerpt read from the files.
    fn from(e: ScriptError) -> TableError {
        TableError::from_script(&e, Some(&[]))
    }
}

impl From<BotError> for TableError {
    fn from(e: BotError) -> TableError {
        match e {
            BotError::Stopped => TableError::Interrupted,
            BotError::Play(p) => p.into(),
            other => TableError::Bot(other.to_string()),
        }
    }
}

impl TableError {
    /// A script's error, its line shown from `sources` (the rules that ran) when given, else
    /// read from its file.
    pub(crate) fn from_script(e: &ScriptError, sources: Option<&[Source]>) -> TableError {
        TableError::Script {
            message: e.to_string(),
            at: e.position().map(|p| p.to_string()),
            excerpt: sources.and_then(|s| e.excerpt(s)),
        }
    }
}
