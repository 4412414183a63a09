//! Boardscript's match server (`boardscript serve`): matches created over HTTP, each seat
//! joined by an unguessable token, spectators, bots playing their seats on the server, one
//! WebSocket per client pushing that client's own view after every change, and every action
//! kept in a store (SQLite) before it is acknowledged, so a restart loses none.
//!
//! Built on the engine's facade only (`GameSource`, `Table`, `Seat`, `View`, `Decision`).
//! `docs/server.md` describes the HTTP API and the messages. A server on a free port, a
//! match created and its status read:
//!
//! ```no_run
//! use boardscript_server::{client, Config};
//!
//! let server = boardscript_server::spawn(Config {
//!     addr: "127.0.0.1:0".into(),
//!     data: "boardscript-data".into(),
//!     scripts: vec!["scripts".into()],
//!     ..Config::default()
//! })?;
//! let created = client::post(server.addr, "/api/matches", &serde_json::json!({"game": "connect-four"}))?;
//! let id = created.1["match"].as_str().unwrap().to_string();
//! println!("{}", client::get(server.addr, &format!("/api/matches/{id}"))?.1);
//! # Ok::<(), anyhow::Error>(())
//! ```

mod api;
pub mod client;
mod designer;
mod designer_socket;
mod hall;
pub mod limits;
mod messages;
mod page;
mod room;
mod socket;
pub mod store;
mod token;
pub mod watch;

pub use limits::Limits;
pub use store::{SqliteStore, Store};

use anyhow::Context;
use hall::Hall;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// How to run the server.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen, `127.0.0.1:8080` (port 0: any free port).
    pub addr: String,
    /// The folder the store lives in (made if missing).
    pub data: PathBuf,
    /// Where games are found, in order: scripts folders, or one game's own folder.
    pub scripts: Vec<PathBuf>,
    pub limits: Limits,
    /// Designer's matches and their page (`docs/server.md`); only on a loopback address.
    pub designer: bool,
    /// Reads a game again whenever its files are saved: new matches use the new rules,
    /// designer's matches reload them.
    pub watch: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: "127.0.0.1:8080".into(),
            data: PathBuf::from("boardscript-data"),
            scripts: vec![],
            limits: Limits::default(),
            designer: false,
            watch: false,
        }
    }
}

/// The store's file in the data folder.
pub const STORE_FILE: &str = "matches.sqlite";

/// Runs the server until Ctrl-C: reopens the unfinished matches, then prints
/// `listening on http://ADDR` (the address bound, so a caller that asked for port 0 learns
/// it) and serves.
pub fn run(config: Config) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("starting the server's runtime")?;
    runtime.block_on(async {
        let (hall, listener) = open(&config).await?;
        announce(listener.local_addr()?)?;
        axum::serve(listener, api::router(hall))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .context("serving")
    })
}

/// A server running on a thread of its own (tests, embedders); stopped when dropped.
pub struct Running {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Starts a server on a thread of its own and returns once it listens.
pub fn spawn(config: Config) -> anyhow::Result<Running> {
    let (ready, started) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("boardscript server".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Runtime::new() {
                Ok(r) => r,
                Err(e) => return drop(ready.send(Err(anyhow::Error::new(e)))),
            };
            runtime.block_on(async move {
                let (hall, listener) = match open(&config).await {
                    Ok(opened) => opened,
                    Err(e) => return drop(ready.send(Err(e))),
                };
                let addr = listener.local_addr().map_err(anyhow::Error::new);
                let _ = ready.send(addr);
                let _ = axum::serve(listener, api::router(hall))
                    .with_graceful_shutdown(async {
                        let _ = stopped.await;
                    })
                    .await;
            });
            // Connections still open (and their bots) are dropped with the runtime.
            runtime.shutdown_background();
        })?;
    let addr = started
        .recv()
        .map_err(|_| anyhow::anyhow!("the server's thread ended"))??;
    Ok(Running {
        addr,
        stop: Some(stop),
        thread: Some(thread),
    })
}

/// Opens the store and the games, reopens the unfinished matches and binds the address.
async fn open(config: &Config) -> anyhow::Result<(Arc<Hall>, tokio::net::TcpListener)> {
    std::fs::create_dir_all(&config.data)
        .with_context(|| format!("making the data folder {}", config.data.display()))?;
    let path = config.data.join(STORE_FILE);
    if config.designer {
        only_loopback(&config.addr).await?;
    }
    let store = SqliteStore::open(&path).with_context(|| format!("opening {}", path.display()))?;
    let mut hall = Hall::new(&config.scripts, Arc::new(store), config.limits.clone());
    hall.designer = config.designer;
    let hall = Arc::new(hall);
    if config.watch {
        watch_games(&hall)?;
    }
    let reopened = {
        let hall = hall.clone();
        tokio::task::spawn_blocking(move || hall.restore()).await??
    };
    for room in reopened {
        // A bot whose move was not yet played when the server stopped plays it now.
        tokio::spawn(room.drive_bots());
    }
    let listener = tokio::net::TcpListener::bind(&config.addr)
        .await
        .with_context(|| format!("listening on {}", config.addr))?;
    Ok((hall, listener))
}

/// Refuses an address that is not loopback: the designer's page plays every seat and
/// shows the hidden state, so it is for this machine only.
async fn only_loopback(addr: &str) -> anyhow::Result<()> {
    let found: Vec<SocketAddr> = tokio::net::lookup_host(addr)
        .await
        .with_context(|| format!("resolving {addr}"))?
        .collect();
    if found.is_empty() || found.iter().any(|a| !a.ip().is_loopback()) {
        anyhow::bail!(
            "--designer shows every seat's cards and takes actions back, so it serves this \
             machine only: listen on a loopback address (--addr 127.0.0.1:8080 or [::1]:8080), \
             not {addr}"
        );
    }
    Ok(())
}

/// How often the watcher looks for saved files.
const WATCH_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// Watches every game's files on a thread of its own, which ends with the hall.
fn watch_games(hall: &Arc<Hall>) -> anyhow::Result<()> {
    let mut watchers = vec![];
    for (id, spec) in hall.specs() {
        let watcher =
            watch::Watcher::new(&spec).with_context(|| format!("watching the files of {id}"))?;
        watchers.push((id, watcher));
    }
    let hall = Arc::downgrade(hall);
    let runtime = tokio::runtime::Handle::current();
    std::thread::Builder::new()
        .name("boardscript watch".into())
        .spawn(move || loop {
            std::thread::sleep(WATCH_EVERY);
            let Some(hall) = hall.upgrade() else { return };
            for (id, watcher) in &watchers {
                if watcher.changed() {
                    hall.reread(id, &runtime);
                }
            }
        })?;
    Ok(())
}

fn announce(addr: SocketAddr) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "listening on http://{addr}")?;
    out.flush()?;
    Ok(())
}
