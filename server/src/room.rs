//! A `Room`: one match on the server. Its table, its record in the store, and the state it
//! last published to each seat and to spectators. Changes go one at a time: each action is
//! applied, kept in the store, and only then acknowledged and published.

use crate::messages::{Code, Refusal};
use crate::store::{ActionRecord, MatchRecord, Store};
use boardscript_interpreter::{Decision, GameSource, Outcome, Seat, Setup, Table, TableError};
use serde_json::{json, Value};
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use tokio::sync::{watch, Mutex};

/// What one state of the match says to each seat and to a spectator, made once per change.
pub struct Snapshot {
    /// Actions played so far.
    pub seq: u64,
    pub over: bool,
    /// The `state` message for each seat, in turn order, as sent.
    seats: Vec<Arc<str>>,
    spectator: Arc<str>,
    /// The designer's message (`designer.rs`), for a designer's match only.
    pub designer: Option<Arc<str>>,
    /// Public facts for the HTTP status: who decides, the outcome.
    pub public: Value,
}

impl Snapshot {
    /// The message for `seat` (None: a spectator).
    pub fn message(&self, seat: Option<usize>) -> Arc<str> {
        match seat {
            Some(i) => self.seats[i].clone(),
            None => self.spectator.clone(),
        }
    }
}

/// An action as a client gave it.
pub enum Act {
    /// Its text (`d4`, `play 3`).
    Text(String),
    /// Option `index` of the seat's decision in the state `seq`.
    Option { index: usize, seq: Option<u64> },
}

pub struct Room {
    pub record: MatchRecord,
    pub seat_names: Vec<String>,
    pub(crate) table: Table,
    store: Arc<dyn Store>,
    /// Held while a change is made and kept: one at a time.
    pub(crate) turn: Mutex<()>,
    published: watch::Sender<Arc<Snapshot>>,
    /// Clients connected now.
    pub connections: AtomicUsize,
    /// Set for a designer's match (`designer.rs`): its key and its last reload.
    pub designer: Option<crate::designer::Desk>,
}

impl Room {
    /// Sets the match up and replays `actions` (those kept before a restart). Blocking.
    pub fn open(
        source: &GameSource,
        record: MatchRecord,
        store: Arc<dyn Store>,
        actions: &[ActionRecord],
    ) -> Result<Room, String> {
        let setup = Setup {
            seats: record.seats,
            seed: record.seed,
            options: record.options.clone(),
            ..Setup::default()
        };
        let table = Table::new(source, setup).map_err(|e| e.to_string())?;
        for a in actions {
            let seat = table.seat_at(a.seat).map_err(|e| e.to_string())?;
            table
                .apply(seat, &a.action)
                .map_err(|e| format!("action {} ({}) does not replay: {e}", a.seq, a.action))?;
        }
        let seat_names = table.seat_names().to_vec();
        let first = snapshot(&table, &record.id, &seat_names, None).map_err(|e| e.to_string())?;
        Ok(Room {
            record,
            seat_names,
            table,
            store,
            turn: Mutex::new(()),
            published: watch::channel(Arc::new(first)).0,
            connections: AtomicUsize::new(0),
            designer: None,
        })
    }

    pub fn id(&self) -> &str {
        &self.record.id
    }

    /// The state published last.
    pub fn current(&self) -> Arc<Snapshot> {
        self.published.borrow().clone()
    }

    /// Told of each state published from now on.
    pub fn subscribe(&self) -> watch::Receiver<Arc<Snapshot>> {
        self.published.subscribe()
    }

    /// The seat a person plays with `token`, compared with every seat's in constant time.
    pub fn seat_of_token(&self, token: &str) -> Option<usize> {
        let mut found = None;
        for (i, name) in self.seat_names.iter().enumerate() {
            if let Some(t) = self.record.tokens.get(name) {
                if crate::token::same(token, t) {
                    found = Some(i);
                }
            }
        }
        found
    }

    /// Whether `token` is `seat`'s, in constant time.
    pub fn token_is(&self, seat: usize, token: &str) -> bool {
        let expected = self
            .seat_names
            .get(seat)
            .and_then(|name| self.record.tokens.get(name));
        expected.is_some_and(|t| crate::token::same(token, t))
    }

    /// `seat` plays `act`: applied, kept, then published. Returns the actions played since
    /// the start and the action as logged.
    pub async fn act(self: &Arc<Self>, seat: usize, act: Act) -> Result<(u64, String), Refusal> {
        let _turn = self.turn.lock().await;
        let room = self.clone();
        tokio::task::spawn_blocking(move || room.act_now(seat, act))
            .await
            .map_err(|e| Refusal::new(Code::Engine("stopped"), e.to_string()))?
    }

    fn act_now(&self, seat: usize, act: Act) -> Result<(u64, String), Refusal> {
        let seat = self.table.seat_at(seat)?;
        let seq = self.current().seq;
        let text = match act {
            Act::Text(text) => text,
            Act::Option { index, seq: seen } => {
                if seen.is_some_and(|s| s != seq) {
                    return Err(Refusal::new(
                        Code::Stale,
                        format!("option {index} was of an older state; the state is now {seq}"),
                    ));
                }
                let options = self.table.decision(seat)?.options;
                options.get(index).cloned().ok_or_else(|| {
                    Refusal::new(
                        Code::Engine("illegal"),
                        format!(
                            "there is no option {index}: {} has {}",
                            self.seat_names[seat.index()],
                            options.len()
                        ),
                    )
                })?
            }
        };
        let logged = self.table.apply(seat, &text)?;
        self.keep(seat, seq, logged)
    }

    /// Plays the bots' moves while a bot's seat decides, each kept and published like a
    /// person's. A bot that fails stops the bots (reported); the match waits.
    pub async fn drive_bots(self: Arc<Self>) {
        if self.record.bots.is_empty() {
            return;
        }
        loop {
            let _turn = self.turn.lock().await;
            let room = self.clone();
            let moved = tokio::task::spawn_blocking(move || room.bot_move()).await;
            match moved {
                Ok(Ok(true)) => continue,
                Ok(Ok(false)) => break,
                Ok(Err(e)) => {
                    eprintln!("match {}: a bot stopped: {}", self.id(), e.message);
                    break;
                }
                Err(e) => {
                    eprintln!("match {}: a bot stopped: {e}", self.id());
                    break;
                }
            }
        }
    }

    /// One bot move, if a bot's seat decides now.
    fn bot_move(&self) -> Result<bool, Refusal> {
        let deciding = self.table.deciding()?;
        let bot = deciding.into_iter().find_map(|seat| {
            let name = &self.seat_names[seat.index()];
            self.record.bots.get(name).map(|spec| (seat, spec))
        });
        let Some((seat, spec)) = bot else {
            return Ok(false);
        };
        let seq = self.current().seq;
        let logged = self.table.play_bot(seat, spec)?;
        self.keep(seat, seq, logged)?;
        Ok(true)
    }

    /// Keeps the action just applied as action `seq`, then publishes. If the store refuses
    /// it, the table takes it back: nothing acknowledged is lost, nothing lost was shown.
    fn keep(&self, seat: Seat, seq: u64, logged: String) -> Result<(u64, String), Refusal> {
        let record = ActionRecord {
            seq,
            seat: seat.index(),
            action: logged.clone(),
        };
        if let Err(e) = self.store.append(self.id(), &record) {
            let _ = self.table.undo(1);
            return Err(Refusal::new(
                Code::Store,
                format!("the action was not kept: {e:#}"),
            ));
        }
        let next = match self.snapshot() {
            Ok(next) => next,
            Err(e) => {
                // Kept but not shown: take it back from both, as if never played.
                let _ = self.table.undo(1);
                let _ = self.store.remove(self.id(), seq);
                return Err(e.into());
            }
        };
        if next.over {
            let result = next.public["outcome"]["text"].as_str().unwrap_or("over");
            if let Err(e) = self.store.finish(self.id(), result) {
                eprintln!("match {}: its end was not kept: {e:#}", self.id());
            }
        }
        let seq = next.seq;
        self.published.send_replace(Arc::new(next));
        Ok((seq, logged))
    }
}

impl Room {
    /// The match's state now, as each client sees it. Blocking.
    pub(crate) fn snapshot(&self) -> Result<Snapshot, TableError> {
        snapshot(
            &self.table,
            self.id(),
            &self.seat_names,
            self.designer.as_ref(),
        )
    }

    /// Publishes the state now (after a change that is not an action: a designer's undo or
    /// reload). Blocking.
    pub(crate) fn publish(&self) -> Result<(), TableError> {
        self.published.send_replace(Arc::new(self.snapshot()?));
        Ok(())
    }
}

/// The match's state as each seat and a spectator see it (and its designer, if it has one).
/// Blocking.
fn snapshot(
    table: &Table,
    id: &str,
    names: &[String],
    desk: Option<&crate::designer::Desk>,
) -> Result<Snapshot, TableError> {
    let status = table.status()?;
    let seq = status.actions as u64;
    let name = |s: &Seat| names[s.index()].clone();
    let deciding: Vec<String> = status.deciding.iter().map(name).collect();
    let outcome = status.outcome.as_ref().map(|o| outcome_json(o, names));
    let message =
        |seat: Option<Seat>, decision: Option<Decision>| -> Result<Arc<str>, TableError> {
            let view = table.view_as(seat)?;
            let decision = decision
                .filter(|d| !d.options.is_empty())
                .map(|d| json!({"prompt": d.prompt, "options": d.options, "typed": d.typed}));
            let mut msg = json!({
                "type": "state",
                "match": id,
                "seq": seq,
                "seat": seat.map(|s| name(&s)),
                "deciding": deciding,
                "question": status.question,
                "decision": decision,
                "log": view.log(),
                "text": table.render(seat).ok(),
                "view": view.to_json(),
                "outcome": outcome,
            });
            if desk.is_some() {
                // Its designer may take actions back: a page then accepts an older state.
                msg["designer"] = json!(true);
            }
            Ok(Arc::from(msg.to_string()))
        };
    let mut seats = vec![];
    for seat in table.seats() {
        let decision = status
            .deciding
            .contains(&seat)
            .then(|| table.decision(seat))
            .transpose()?;
        seats.push(message(Some(seat), decision)?);
    }
    let spectator = message(None, None)?;
    let designer = desk
        .map(|d| crate::designer::message(table, id, names, &status, d))
        .transpose()?;
    Ok(Snapshot {
        seq,
        over: status.outcome.is_some(),
        seats,
        spectator,
        designer,
        public: json!({"seq": seq, "deciding": deciding, "question": status.question, "outcome": outcome}),
    })
}

fn outcome_json(o: &Outcome, names: &[String]) -> Value {
    let winners: Vec<&str> = o
        .winners
        .iter()
        .map(|s| names[s.index()].as_str())
        .collect();
    json!({"winners": winners, "text": o.text, "reason": o.reason})
}
