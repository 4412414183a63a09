//! Where matches are kept: the `Store` trait (a match's setup, then its actions one by one)
//! and its SQLite implementation.

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

/// How a match was set up: all that replaying its actions needs, and who may join it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRecord {
    pub id: String,
    /// The game's id (`game/variant` for a variant).
    pub game: String,
    pub seats: Option<usize>,
    /// Decides every hidden card: never told to a seat.
    pub seed: u64,
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// Bots by seat name (`mcts:iters=200`); their seats have no token.
    #[serde(default)]
    pub bots: BTreeMap<String, String>,
    /// Join tokens by seat name, for the seats people play.
    #[serde(default)]
    pub tokens: BTreeMap<String, String>,
}

/// One action of a match, as the game logged it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActionRecord {
    /// Its place in the match, from 0.
    pub seq: u64,
    /// The seat that played it, by index in turn order.
    pub seat: usize,
    pub action: String,
}

/// A place that keeps matches. Every call returns once what it wrote is durable: the server
/// acknowledges an action only after `append` returned.
pub trait Store: Send + Sync {
    /// Keeps a new match.
    fn create(&self, m: &MatchRecord) -> anyhow::Result<()>;
    /// Keeps action `seq` of match `id`; refused if that match already has an action `seq`.
    fn append(&self, id: &str, action: &ActionRecord) -> anyhow::Result<()>;
    /// Takes back action `seq` of match `id` (an action kept whose table then failed).
    fn remove(&self, id: &str, seq: u64) -> anyhow::Result<()>;
    /// Marks match `id` as over, with its result's text: it is not reloaded on start.
    fn finish(&self, id: &str, result: &str) -> anyhow::Result<()>;
    /// Every match not over, each with its actions in order.
    fn unfinished(&self) -> anyhow::Result<Vec<(MatchRecord, Vec<ActionRecord>)>>;
    /// One match's actions in order (None: no such match).
    fn actions(&self, id: &str) -> anyhow::Result<Option<Vec<ActionRecord>>>;
}

/// Matches in one SQLite file: a row per match (its setup as JSON) and a row per action.
pub struct SqliteStore {
    db: Mutex<Connection>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    setup TEXT NOT NULL,
    result TEXT,
    created INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE TABLE IF NOT EXISTS actions (
    match TEXT NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (match, seq)
);
";

impl SqliteStore {
    /// Opens (or makes) the store at `path`.
    pub fn open(path: &Path) -> anyhow::Result<SqliteStore> {
        let db = Connection::open(path)?;
        // WAL with `synchronous = NORMAL`: a commit is in the log file before it returns, so
        // a killed process loses nothing committed (only a power cut could lose the last).
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "synchronous", "NORMAL")?;
        db.pragma_update(None, "foreign_keys", "ON")?;
        db.busy_timeout(std::time::Duration::from_secs(5))?;
        db.execute_batch(SCHEMA)?;
        Ok(SqliteStore { db: Mutex::new(db) })
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock left no half-written row: SQLite rolled it back.
        self.db.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn read_actions(db: &Connection, id: &str) -> anyhow::Result<Vec<ActionRecord>> {
    let mut q =
        db.prepare_cached("SELECT seq, seat, action FROM actions WHERE match = ?1 ORDER BY seq")?;
    let rows = q.query_map(params![id], |r| {
        Ok(ActionRecord {
            seq: r.get::<_, i64>(0)? as u64,
            seat: r.get::<_, i64>(1)? as usize,
            action: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

impl Store for SqliteStore {
    fn create(&self, m: &MatchRecord) -> anyhow::Result<()> {
        let setup = serde_json::to_string(m)?;
        self.db().execute(
            "INSERT INTO matches (id, setup) VALUES (?1, ?2)",
            params![m.id, setup],
        )?;
        Ok(())
    }

    fn append(&self, id: &str, a: &ActionRecord) -> anyhow::Result<()> {
        self.db().execute(
            "INSERT INTO actions (match, seq, seat, action) VALUES (?1, ?2, ?3, ?4)",
            params![id, a.seq as i64, a.seat as i64, a.action],
        )?;
        Ok(())
    }

    fn remove(&self, id: &str, seq: u64) -> anyhow::Result<()> {
        self.db().execute(
            "DELETE FROM actions WHERE match = ?1 AND seq = ?2",
            params![id, seq as i64],
        )?;
        Ok(())
    }

    fn finish(&self, id: &str, result: &str) -> anyhow::Result<()> {
        self.db().execute(
            "UPDATE matches SET result = ?2 WHERE id = ?1",
            params![id, result],
        )?;
        Ok(())
    }

    fn unfinished(&self) -> anyhow::Result<Vec<(MatchRecord, Vec<ActionRecord>)>> {
        let db = self.db();
        let mut q =
            db.prepare("SELECT setup FROM matches WHERE result IS NULL ORDER BY created")?;
        let setups: Vec<String> = q.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
        let mut out = vec![];
        for setup in setups {
            let m: MatchRecord = serde_json::from_str(&setup)?;
            let actions = read_actions(&db, &m.id)?;
            out.push((m, actions));
        }
        Ok(out)
    }

    fn actions(&self, id: &str) -> anyhow::Result<Option<Vec<ActionRecord>>> {
        let db = self.db();
        let known = db
            .query_row("SELECT 1 FROM matches WHERE id = ?1", params![id], |_| {
                Ok(())
            })
            .optional()?;
        match known {
            Some(()) => Ok(Some(read_actions(&db, id)?)),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn action(seq: u64, text: &str) -> ActionRecord {
        ActionRecord {
            seq,
            seat: (seq % 2) as usize,
            action: text.into(),
        }
    }

    #[test]
    fn an_action_is_kept_once_at_its_place_and_a_finished_match_is_not_reopened() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(&dir.path().join("m.sqlite")).unwrap();
        let m = MatchRecord {
            id: "m1".into(),
            game: "connect-four".into(),
            seats: None,
            seed: 3,
            options: BTreeMap::new(),
            bots: BTreeMap::from([("o".into(), "random".into())]),
            tokens: BTreeMap::from([("x".into(), "t".into())]),
        };
        store.create(&m).unwrap();
        store.append("m1", &action(0, "d")).unwrap();
        store.append("m1", &action(1, "e")).unwrap();
        let twice = store.append("m1", &action(1, "f")).unwrap_err().to_string();
        assert!(twice.contains("UNIQUE"), "{twice}");
        assert!(
            store.append("nobody", &action(0, "d")).is_err(),
            "no such match"
        );
        drop(store);

        let store = SqliteStore::open(&dir.path().join("m.sqlite")).unwrap();
        let kept = vec![action(0, "d"), action(1, "e")];
        assert_eq!(store.unfinished().unwrap(), vec![(m, kept.clone())]);
        store.finish("m1", "x wins").unwrap();
        assert_eq!(store.unfinished().unwrap(), vec![]);
        assert_eq!(store.actions("m1").unwrap(), Some(kept));
        assert_eq!(store.actions("m2").unwrap(), None);
    }
}
