//! Load on loopback: 200 clients over 50 matches of Fibs (four seats each, every seat its own
//! thread and socket) play random legal actions, a fixed number per match. No action is lost
//! or counted twice: the acknowledgements of each match are exactly its actions 1..N, and
//! the store holds exactly those. Prints latency and throughput (not asserted).

mod common;

use boardscript_server::client::{play_randomly, Acked};
use boardscript_server::{SqliteStore, Store, STORE_FILE};
use common::{id, Server};
use serde_json::json;
use std::sync::mpsc;
use std::time::{Duration, Instant};

const MATCHES: usize = 50;
const SEATS: usize = 4;
/// Actions each match plays (fewer if the game ends first).
const ACTIONS: u64 = 24;

#[test]
fn two_hundred_clients_lose_and_double_no_action() {
    let server = Server::start();
    let addr = server.addr();
    let matches: Vec<_> = (0..MATCHES)
        .map(|i| server.create(json!({"game": "fibs", "seats": SEATS, "seed": i})))
        .collect();
    let (acks, acked) = mpsc::channel::<(usize, Acked)>();
    let started = Instant::now();
    let mut clients = vec![];
    for (m, created) in matches.iter().enumerate() {
        for (s, seat) in created["seats"].as_array().unwrap().iter().enumerate() {
            let id = id(created).to_string();
            let token = seat["token"].as_str().unwrap().to_string();
            let acks = acks.clone();
            clients.push(std::thread::spawn(move || {
                play_randomly(addr, &id, &token, (m * SEATS + s) as u64, ACTIONS, |a| {
                    acks.send((m, a)).unwrap()
                })
                .unwrap()
            }));
        }
    }
    drop(acks);
    assert_eq!(clients.len(), 200);
    for c in clients {
        c.join().unwrap();
    }
    let elapsed = started.elapsed();
    let mut per_match: Vec<Vec<Acked>> = vec![vec![]; MATCHES];
    for (m, a) in acked.iter() {
        per_match[m].push(a);
    }

    let store = SqliteStore::open(&server.data.path().join(STORE_FILE)).unwrap();
    let mut latencies: Vec<Duration> = vec![];
    let mut total = 0;
    for (m, created) in matches.iter().enumerate() {
        let mut acks = std::mem::take(&mut per_match[m]);
        acks.sort_by_key(|a| a.seq);
        let seqs: Vec<u64> = acks.iter().map(|a| a.seq).collect();
        let played = server.status(id(created))["seq"].as_u64().unwrap();
        assert_eq!(
            seqs,
            (1..=played).collect::<Vec<_>>(),
            "match {m}: each action acknowledged once"
        );
        assert!(
            played >= ACTIONS || server.status(id(created))["over"] == true,
            "match {m}"
        );
        let kept = store.actions(id(created)).unwrap().unwrap();
        let seat_names: Vec<&str> = created["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["seat"].as_str().unwrap())
            .collect();
        let kept: Vec<(u64, &str, &str)> = kept
            .iter()
            .map(|r| (r.seq + 1, seat_names[r.seat], r.action.as_str()))
            .collect();
        let acked: Vec<(u64, &str, &str)> = acks
            .iter()
            .map(|a| (a.seq, a.seat.as_str(), a.action.as_str()))
            .collect();
        assert_eq!(
            kept, acked,
            "match {m}: the store holds exactly the acknowledged actions"
        );
        total += acks.len();
        latencies.extend(acks.iter().map(|a| a.latency));
    }
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    println!(
        "load: {MATCHES} matches, 200 clients, {total} actions in {:.2}s: {:.0} actions/s, latency p50 {:.1} ms, p99 {:.1} ms",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
    );
}
