//! The `Hall`: the games the server offers, the matches it holds (bounded), and the store
//! behind them. Creating a match and reloading the unfinished ones on start happen here.

use crate::limits::Limits;
use crate::room::Room;
use crate::store::{MatchRecord, Store};
use crate::token::{new_match_id, new_token};
use boardscript_interpreter::{check_bot, BotSpec, GameSource};
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// A request to create a match (`POST /api/matches`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewMatch {
    pub game: String,
    #[serde(default)]
    pub seats: Option<usize>,
    /// Default: a random one (never told to a seat).
    #[serde(default)]
    pub seed: Option<u64>,
    /// The game's options, `{"size": 13}`.
    #[serde(default)]
    pub options: BTreeMap<String, Value>,
    /// A bot per seat name, `{"p2": "mcts:iters=200"}`.
    #[serde(default)]
    pub bots: BTreeMap<String, String>,
    /// A designer's match (`designer.rs`): only on a server started with `--designer`.
    #[serde(default)]
    pub designer: bool,
}

/// Why a request was refused: an HTTP status and the message.
#[derive(Debug)]
pub struct Refused {
    pub status: u16,
    pub message: String,
}

fn refused(status: u16, message: impl Into<String>) -> Refused {
    Refused {
        status,
        message: message.into(),
    }
}

/// Where a game was read from, to read it again after a save.
enum Origin {
    /// A game's own folder.
    Folder(PathBuf),
    /// A scripts folder holding it.
    Scripts(PathBuf),
}

impl Origin {
    fn read(&self, id: &str) -> Result<GameSource, String> {
        match self {
            Origin::Folder(dir) => GameSource::read(dir, id),
            Origin::Scripts(root) => GameSource::find(root, id),
        }
        .map_err(|e| e.to_string())
    }
}

pub struct Hall {
    /// Replaced one by one as their files are saved, with `--watch`.
    games: RwLock<BTreeMap<String, Arc<GameSource>>>,
    origins: BTreeMap<String, Origin>,
    /// Designer's matches may be made (`--designer`).
    pub designer: bool,
    rooms: Mutex<HashMap<String, Arc<Room>>>,
    store: Arc<dyn Store>,
    pub limits: Limits,
    /// WebSocket connections open now.
    pub connections: AtomicUsize,
    /// Matches being opened, counted against `limits.matches` until held.
    opening: AtomicUsize,
}

impl Hall {
    /// The games found under `roots` (a scripts folder, or one game's own folder), in order;
    /// the first folder holding an id wins. A game that does not read is reported and left
    /// out.
    pub fn new(roots: &[PathBuf], store: Arc<dyn Store>, limits: Limits) -> Hall {
        let mut games = BTreeMap::new();
        let mut origins = BTreeMap::new();
        for root in roots {
            let found: Vec<(String, Origin)> = if root.join("game.toml").is_file() {
                let id = root
                    .canonicalize()
                    .ok()
                    .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .unwrap_or_default();
                vec![(id, Origin::Folder(root.clone()))]
            } else {
                GameSource::list(root)
                    .into_iter()
                    .map(|id| (id, Origin::Scripts(root.clone())))
                    .collect()
            };
            for (id, origin) in found {
                if games.contains_key(&id) {
                    continue;
                }
                match origin.read(&id) {
                    Ok(source) => {
                        games.insert(id.clone(), Arc::new(source));
                        origins.insert(id, origin);
                    }
                    Err(e) => eprintln!("warning: game {id} left out: {e}"),
                }
            }
        }
        Hall {
            games: RwLock::new(games),
            origins,
            designer: false,
            rooms: Mutex::default(),
            store,
            limits,
            connections: AtomicUsize::new(0),
            opening: AtomicUsize::new(0),
        }
    }

    /// The games offered now, by id.
    pub fn games(&self) -> Vec<Arc<GameSource>> {
        self.games_now().values().cloned().collect()
    }

    fn games_now(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, Arc<GameSource>>> {
        self.games.read().unwrap_or_else(|p| p.into_inner())
    }

    /// Game `id` as read last.
    pub fn game(&self, id: &str) -> Option<Arc<GameSource>> {
        self.games_now().get(id).cloned()
    }

    /// Reads game `id` again from its files (after a save). If its rules compile, new
    /// matches use them; either way each designer's match of that game reloads them (a
    /// failure is shown there, the match unchanged). Blocking; the reloads are started on
    /// `runtime`.
    pub fn reread(&self, id: &str, runtime: &tokio::runtime::Handle) {
        let Some(origin) = self.origins.get(id) else {
            return;
        };
        let read = origin.read(id).map(Arc::new);
        if let Ok(source) = &read {
            if source.compile().is_ok() {
                let mut games = self.games.write().unwrap_or_else(|p| p.into_inner());
                games.insert(id.to_string(), source.clone());
            }
        }
        let rooms: Vec<Arc<Room>> = self
            .rooms()
            .values()
            .filter(|r| r.designer.is_some() && r.record.game == id)
            .cloned()
            .collect();
        for room in rooms {
            let read = read.clone();
            runtime.spawn(async move { room.reload(read).await });
        }
    }

    /// The ids of the games, each with its rules' folders (for a watcher).
    pub fn specs(&self) -> Vec<(String, boardscript_interpreter::GameSpec)> {
        self.games_now()
            .iter()
            .map(|(id, g)| (id.clone(), g.spec().clone()))
            .collect()
    }

    /// Game `id`'s layout hints for a page (`[layout]` of its manifest, checked at load).
    pub fn layout(&self, id: &str) -> Value {
        self.game(id)
            .and_then(|g| serde_json::to_value(&g.spec().layout).ok())
            .unwrap_or(Value::Null)
    }

    pub fn room(&self, id: &str) -> Option<Arc<Room>> {
        self.rooms().get(id).cloned()
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Room>>> {
        self.rooms.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Opens every match the store holds unfinished, replaying its actions. Returns how many
    /// opened; a match that does not replay (its rules changed) is reported and left in the
    /// store. Blocking.
    pub fn restore(&self) -> anyhow::Result<Vec<Arc<Room>>> {
        let mut opened = vec![];
        for (record, actions) in self.store.unfinished()? {
            let Some(source) = self.game(&record.game) else {
                eprintln!(
                    "warning: match {} not reopened: no game `{}`",
                    record.id, record.game
                );
                continue;
            };
            let id = record.id.clone();
            match Room::open(&source, record, self.store.clone(), &actions) {
                Ok(room) => {
                    let room = Arc::new(room);
                    self.rooms().insert(id, room.clone());
                    opened.push(room);
                }
                Err(e) => eprintln!("warning: match {id} not reopened: {e}"),
            }
        }
        Ok(opened)
    }

    /// Creates a match: checks the request, sets the table up, keeps the match, and holds
    /// it. Blocking.
    pub fn create(&self, req: NewMatch) -> Result<Arc<Room>, Refused> {
        if req.designer && !self.designer {
            return Err(refused(
                403,
                "this server makes no designer's matches (start it with `boardscript serve --designer`)",
            ));
        }
        let Some(source) = self.game(&req.game) else {
            let known: Vec<String> = self.games_now().keys().cloned().collect();
            return Err(refused(
                404,
                format!(
                    "no game `{}` (games: {})",
                    excerpt(&req.game),
                    known.join(", ")
                ),
            ));
        };
        for (seat, bot) in &req.bots {
            BotSpec::parse(bot)
                .and_then(|spec| check_bot(&spec).and_then(|()| self.limits.check_bot(&spec)))
                .map_err(|e| refused(400, format!("the bot for {}: {e}", excerpt(seat))))?;
        }
        let mut options = BTreeMap::new();
        for (k, v) in req.options {
            let text = match v {
                Value::String(s) => s,
                Value::Number(_) | Value::Bool(_) => v.to_string(),
                _ => {
                    return Err(refused(
                        400,
                        format!("option {}: give a string, number or boolean", excerpt(&k)),
                    ))
                }
            };
            options.insert(k, text);
        }
        let _place = self.make_room_for_one()?;
        let record = MatchRecord {
            id: new_match_id(),
            game: req.game,
            seats: req.seats,
            seed: req.seed.unwrap_or_else(rand::random),
            options,
            bots: req.bots,
            tokens: BTreeMap::new(),
        };
        // A designer's match is a scratch table: kept nowhere.
        let store = match req.designer {
            true => Arc::new(crate::designer::Unkept) as Arc<dyn Store>,
            false => self.store.clone(),
        };
        let mut room = Room::open(&source, record, store, &[]).map_err(|e| refused(400, e))?;
        if let Some(seat) = room
            .record
            .bots
            .keys()
            .find(|s| !room.seat_names.contains(s))
        {
            return Err(refused(
                400,
                format!(
                    "a bot for seat `{}`, which this game does not have (seats: {})",
                    excerpt(seat),
                    room.seat_names.join(", ")
                ),
            ));
        }
        for seat in room.seat_names.clone() {
            if !room.record.bots.contains_key(&seat) {
                room.record.tokens.insert(seat, new_token());
            }
        }
        if req.designer {
            room.designer = Some(crate::designer::Desk::new(new_token()));
            room.publish()
                .map_err(|e| refused(400, format!("the match cannot be shown: {e}")))?;
        } else {
            // Kept before it is offered: a match the store refused is never played.
            self.store
                .create(&room.record)
                .map_err(|e| refused(500, format!("the match was not kept: {e:#}")))?;
        }
        let room = Arc::new(room);
        self.rooms().insert(room.id().to_string(), room.clone());
        Ok(room)
    }

    /// Frees a place for one more match if the hall is full, by letting go finished
    /// matches nobody watches; refused if none. The place is held until the guard drops
    /// (by then the match is in `rooms`, or was refused).
    fn make_room_for_one(&self) -> Result<Place<'_>, Refused> {
        let mut rooms = self.rooms();
        let held =
            |rooms: &HashMap<String, Arc<Room>>| rooms.len() + self.opening.load(Ordering::SeqCst);
        if held(&rooms) >= self.limits.matches {
            rooms.retain(|_, r| !(r.current().over && r.connections.load(Ordering::SeqCst) == 0));
        }
        if held(&rooms) >= self.limits.matches {
            return Err(refused(
                503,
                format!(
                    "the server holds its most matches ({}); try again later",
                    self.limits.matches
                ),
            ));
        }
        self.opening.fetch_add(1, Ordering::SeqCst);
        Ok(Place(&self.opening))
    }
}

/// A place held for a match being opened.
struct Place<'a>(&'a AtomicUsize);

impl Drop for Place<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A client's text shown back in a message, cut short and on one line.
fn excerpt(text: &str) -> String {
    boardscript_interpreter::text::excerpt(text)
}
