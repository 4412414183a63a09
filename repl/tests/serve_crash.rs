//! `boardscript serve` killed hard (`kill -9`) in the middle of 20 matches: restarted on the
//! same data folder, every acknowledged action is there, and every seat resumes.

use boardscript_server::client::{self, play_randomly, Acked};
use boardscript_server::{SqliteStore, Store, STORE_FILE};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;

const MATCHES: usize = 20;
/// Acknowledged actions, over all matches, before the kill.
const BEFORE_KILL: usize = 60;

/// Starts `boardscript serve` on a free port; the child and the address it printed.
fn serve(data: &Path) -> (Child, SocketAddr) {
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardscript"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(data)
        .arg("--scripts")
        .arg(scripts)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("not the address: {line:?}"))
        .parse()
        .unwrap();
    (child, addr)
}

fn tokens(created: &Value) -> Vec<String> {
    let seats = created["seats"].as_array().unwrap();
    seats
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_killed_server_loses_no_acknowledged_action_and_seats_resume() {
    let data = tempfile::tempdir().unwrap();
    let (mut server, addr) = serve(data.path());
    let mut matches = vec![];
    for i in 0..MATCHES {
        let body = json!({"game": "connect-four", "seed": i});
        let (status, created) = client::post(addr, "/api/matches", &body).unwrap();
        assert_eq!(status, 201, "{created}");
        matches.push(created);
    }
    // Two seats per match, each on its own thread and socket, playing at random until the
    // server dies under them.
    let (acks, acked) = mpsc::channel::<(usize, Acked)>();
    let mut players = vec![];
    for (m, created) in matches.iter().enumerate() {
        let id = created["match"].as_str().unwrap().to_string();
        for (s, token) in tokens(created).into_iter().enumerate() {
            let (acks, id) = (acks.clone(), id.clone());
            players.push(std::thread::spawn(move || {
                let seed = (m * 2 + s) as u64;
                let _ = play_randomly(addr, &id, &token, seed, u64::MAX, |a| {
                    let _ = acks.send((m, a));
                });
            }));
        }
    }
    drop(acks);
    let mut kept: Vec<BTreeMap<u64, Acked>> = vec![BTreeMap::new(); MATCHES];
    for (m, a) in acked.iter().take(BEFORE_KILL) {
        kept[m].insert(a.seq, a);
    }
    server.kill().unwrap(); // SIGKILL
    server.wait().unwrap();
    for p in players {
        p.join().unwrap();
    }
    // Acknowledged just before the kill, but read after it: kept too.
    for (m, a) in acked.try_iter() {
        kept[m].insert(a.seq, a);
    }
    assert!(kept.iter().map(BTreeMap::len).sum::<usize>() >= BEFORE_KILL);

    let store = SqliteStore::open(&data.path().join(STORE_FILE)).unwrap();
    let mut stored = vec![];
    for (m, created) in matches.iter().enumerate() {
        let id = created["match"].as_str().unwrap();
        let actions = store.actions(id).unwrap().expect("the match is kept");
        for (seq, a) in &kept[m] {
            let row = &actions[*seq as usize - 1];
            assert_eq!(
                (row.seq + 1, row.action.as_str()),
                (*seq, a.action.as_str()),
                "match {m}"
            );
        }
        // At most the action in flight when the server died was kept but not acknowledged.
        assert!(
            actions.len() <= kept[m].len() + 1,
            "match {m}: {} kept, {} acknowledged",
            actions.len(),
            kept[m].len()
        );
        stored.push(actions.len() as u64);
    }
    drop(store);

    let (mut server, addr) = serve(data.path());
    for (m, created) in matches.iter().enumerate() {
        let id = created["match"].as_str().unwrap();
        let (status, now) = client::get(addr, &format!("/api/matches/{id}")).unwrap();
        assert_eq!(
            (status, now["seq"].as_u64()),
            (200, Some(stored[m])),
            "match {m}: {now}"
        );
    }
    // Every seat resumes with its token and the matches play on to the end.
    let mut players = vec![];
    for (m, created) in matches.iter().enumerate() {
        let id = created["match"].as_str().unwrap().to_string();
        for (s, token) in tokens(created).into_iter().enumerate() {
            let id = id.clone();
            players.push(std::thread::spawn(move || {
                play_randomly(
                    addr,
                    &id,
                    &token,
                    (100 + m * 2 + s) as u64,
                    u64::MAX,
                    |_| {},
                )
                .unwrap()
            }));
        }
    }
    for p in players {
        let last = p.join().unwrap();
        assert!(!last["outcome"].is_null(), "{last}");
    }
    server.kill().unwrap();
    server.wait().unwrap();
}
