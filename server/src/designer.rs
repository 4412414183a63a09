//! The designer's match (`serve --designer`, loopback only): one person plays every seat
//! from one page, sees the whole state as JSON, takes actions back, and with `--watch` the
//! rules reload on every save. Its powers live on a socket of their own
//! (`/designer/{id}/ws`), opened with the match's designer key: a seat's or a spectator's
//! socket has no such message. A designer's match is never kept in the store: it is a
//! scratch table, gone when the server stops.

use crate::messages::{Code, Refusal};
use crate::room::Room;
use crate::store::{ActionRecord, MatchRecord, Store};
use boardscript_interpreter::{GameSource, Status, Table, TableError};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

/// What a designer's match holds beyond a match: the key to its designer's socket and
/// what the last reload said.
pub struct Desk {
    pub key: String,
    reload: Mutex<Value>,
}

impl Desk {
    pub fn new(key: String) -> Desk {
        Desk {
            key,
            reload: Mutex::new(Value::Null),
        }
    }

    fn note(&self, reload: Value) {
        *self.reload.lock().unwrap_or_else(|p| p.into_inner()) = reload;
    }

    fn reload(&self) -> Value {
        self.reload
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

/// The designer's `designer` message: the whole log with its seats, the referee's state as
/// JSON (hidden cards and all), who decides, and the last reload. Blocking.
pub fn message(
    table: &Table,
    id: &str,
    names: &[String],
    status: &Status,
    desk: &Desk,
) -> Result<std::sync::Arc<str>, TableError> {
    let log: Vec<Value> = table
        .actions()?
        .into_iter()
        .map(|p| json!({"seat": p.seat, "action": p.action}))
        .collect();
    let deciding: Vec<&str> = status
        .deciding
        .iter()
        .map(|s| names[s.index()].as_str())
        .collect();
    let msg = json!({
        "type": "designer",
        "match": id,
        "seq": status.actions,
        "deciding": deciding,
        "outcome": status.outcome.as_ref().map(|o| o.text.clone()),
        "actions": log,
        "state": table.referee_json()?,
        "reload": desk.reload(),
    });
    Ok(Arc::from(msg.to_string()))
}

/// The store of designer's matches: keeps nothing (a designer's match is a scratch table;
/// an undone action is never replayed after a restart, because nothing is replayed).
pub struct Unkept;

impl Store for Unkept {
    fn create(&self, _: &MatchRecord) -> anyhow::Result<()> {
        Ok(())
    }
    fn append(&self, _: &str, _: &ActionRecord) -> anyhow::Result<()> {
        Ok(())
    }
    fn remove(&self, _: &str, _: u64) -> anyhow::Result<()> {
        Ok(())
    }
    fn finish(&self, _: &str, _: &str) -> anyhow::Result<()> {
        Ok(())
    }
    fn unfinished(&self) -> anyhow::Result<Vec<(MatchRecord, Vec<ActionRecord>)>> {
        Ok(vec![])
    }
    fn actions(&self, _: &str) -> anyhow::Result<Option<Vec<ActionRecord>>> {
        Ok(None)
    }
}

fn desk(room: &Room) -> Result<&Desk, Refusal> {
    room.designer
        .as_ref()
        .ok_or_else(|| Refusal::new(Code::BadToken, "not a designer's match"))
}

impl Room {
    /// Takes back the last action, and the bots' actions before it, so a person's seat
    /// decides again (a bot would otherwise play straight back). Returns the actions left.
    pub async fn undo(self: &Arc<Self>) -> Result<u64, Refusal> {
        desk(self)?;
        let _turn = self.turn.lock().await;
        let room = self.clone();
        blocking(move || {
            if room.table.undo(1)? == 0 {
                return Err(Refusal::new(Code::Engine("refused"), "nothing to undo"));
            }
            while room.bot_decides()? && room.table.undo(1)? == 1 {}
            room.publish()?;
            Ok(room.table.status()?.actions as u64)
        })
        .await
    }

    /// Plays again the last action taken back; the bots then play on.
    pub async fn redo(self: &Arc<Self>) -> Result<u64, Refusal> {
        desk(self)?;
        let seq = {
            let _turn = self.turn.lock().await;
            let room = self.clone();
            blocking(move || {
                if room.table.redo(1)? == 0 {
                    return Err(Refusal::new(Code::Engine("refused"), "nothing to redo"));
                }
                room.publish()?;
                Ok(room.table.status()?.actions as u64)
            })
            .await?
        };
        tokio::spawn(self.clone().drive_bots());
        Ok(seq)
    }

    /// Swaps in the rules `source` (read again after a save), keeping the position as far
    /// as it replays, or notes why not (the match unchanged); either way the designer is
    /// told. The bots then play on.
    pub async fn reload(self: &Arc<Self>, source: Result<Arc<GameSource>, String>) {
        let Some(desk) = &self.designer else { return };
        {
            let _turn = self.turn.lock().await;
            let room = self.clone();
            let note = tokio::task::spawn_blocking(move || {
                let note = match source {
                    Err(e) => json!({"ok": false, "text": format!("{e}; old rules kept")}),
                    Ok(source) => match room.table.reload(&source) {
                        Ok(report) => json!({"ok": true, "text": reload_text(&report)}),
                        Err(e) => json!({"ok": false, "text": error_text(&e)}),
                    },
                };
                if let Some(desk) = &room.designer {
                    desk.note(note);
                }
                room.publish()
            })
            .await;
            if !matches!(note, Ok(Ok(()))) {
                desk.note(json!({"ok": false, "text": "the reload could not be shown"}));
            }
        }
        tokio::spawn(self.clone().drive_bots());
    }

    fn bot_decides(&self) -> Result<bool, TableError> {
        Ok(self
            .table
            .deciding()?
            .iter()
            .any(|s| self.record.bots.contains_key(&self.seat_names[s.index()])))
    }
}

fn reload_text(r: &boardscript_interpreter::ReloadReport) -> String {
    match &r.refused {
        None => format!("reloaded: {} action(s) replayed", r.replayed),
        Some((i, p, why)) => format!(
            "reloaded: {} action(s) replayed; action {} ({} {}) is refused by the new rules: {why} ({} kept aside for the next reload)",
            r.replayed,
            i + 1,
            p.seat,
            p.action,
            r.kept_aside
        ),
    }
}

/// A script error with its file:line:column, and the line itself when known.
fn error_text(e: &TableError) -> String {
    match e {
        TableError::Script {
            excerpt: Some(excerpt),
            ..
        } => format!("{e}; old rules kept\n{excerpt}"),
        _ => format!("{e}; old rules kept"),
    }
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, Refusal> + Send + 'static,
) -> Result<T, Refusal> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Refusal::new(Code::Engine("stopped"), e.to_string()))?
}
