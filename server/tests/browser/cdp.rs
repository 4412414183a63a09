//! Just enough of the Chrome DevTools Protocol to drive headless Chromium from a test: open
//! a page, evaluate JavaScript, click at an element's centre with real mouse events, type,
//! and take a screenshot. It speaks CDP over `tungstenite`, the WebSocket crate the server
//! already uses, so the test adds no browser-driving dependency tree to build. (The
//! `headless_chrome` crate was tried instead and measured: its build, with the `url` stack
//! that makes `cargo test` rebuild what `cargo build` built, cost many minutes on two cores,
//! and the browser tests ran four to eight times slower.)

use anyhow::{anyhow, bail, Context};
use base64::Engine;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// How long one reply may take before the browser counts as stuck (the test then fails
/// instead of hanging).
const PATIENCE: Duration = Duration::from_secs(60);

/// A DevTools socket at `url` whose reads give up after `PATIENCE`.
fn connect(url: &str) -> anyhow::Result<Socket> {
    let (mut socket, _) = tungstenite::connect(url)?;
    if let MaybeTlsStream::Plain(s) = socket.get_mut() {
        s.set_read_timeout(Some(PATIENCE))?;
    }
    Ok(socket)
}

/// How many times `Page::wait_for` looks, `POLL` apart, before it gives up.
const LOOKS: u32 = 600;
const POLL: Duration = Duration::from_millis(25);

/// Chromium on this machine: `$BOARDSCRIPT_CHROMIUM`, else the first of the usual names on
/// the `PATH`.
pub fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("BOARDSCRIPT_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// A headless Chromium with its own throw-away profile, killed when dropped.
pub struct Browser {
    child: Child,
    socket: Socket,
    /// `127.0.0.1:port` of its DevTools endpoint.
    host: String,
    next_id: u64,
    _profile: tempfile::TempDir,
}

impl Browser {
    pub fn launch(chromium: &Path) -> anyhow::Result<Browser> {
        let profile = tempfile::tempdir()?;
        let mut child = Command::new(chromium)
            .args([
                "--headless=new",
                // The tests may run as root (containers), where the sandbox cannot start.
                "--no-sandbox",
                "--disable-gpu",
                // Containers give /dev/shm little room; no crash reports on disk.
                "--disable-dev-shm-usage",
                "--disable-breakpad",
                "--no-first-run",
                "--no-default-browser-check",
                "--window-size=1280,900",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {}", chromium.display()))?;
        // Chromium prints its DevTools address on stderr; the rest of stderr is drained so
        // the pipe never fills.
        let stderr = child.stderr.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("DevTools listening on ") {
                    let _ = tx.send(url.trim().to_string());
                }
            }
        });
        let url = match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(url) => url,
            Err(_) => {
                let _ = child.kill();
                bail!("chromium did not print its DevTools address");
            }
        };
        let host = url
            .strip_prefix("ws://")
            .and_then(|rest| rest.split('/').next())
            .ok_or_else(|| anyhow!("odd DevTools address {url}"))?
            .to_string();
        let socket = connect(&url)?;
        Ok(Browser {
            child,
            socket,
            host,
            next_id: 0,
            _profile: profile,
        })
    }

    /// A new tab showing `url`, driven over its own socket.
    pub fn open(&mut self, url: &str) -> anyhow::Result<Page> {
        self.next_id += 1;
        let reply = call(
            &mut self.socket,
            self.next_id,
            "Target.createTarget",
            json!({ "url": url }),
        )?;
        let target = reply["targetId"].as_str().context("no targetId")?;
        let page_url = format!("ws://{}/devtools/page/{target}", self.host);
        Ok(Page {
            socket: connect(&page_url)?,
            next_id: 0,
        })
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One tab.
pub struct Page {
    socket: Socket,
    next_id: u64,
}

impl Page {
    pub fn call(&mut self, method: &str, params: Value) -> anyhow::Result<Value> {
        self.next_id += 1;
        call(&mut self.socket, self.next_id, method, params)
    }

    /// The value of the JavaScript expression `expr` (JSON-able).
    pub fn eval(&mut self, expr: &str) -> anyhow::Result<Value> {
        let reply = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true}),
        )?;
        if let Some(e) = reply.get("exceptionDetails") {
            bail!("`{expr}` threw: {e}");
        }
        Ok(reply["result"]["value"].clone())
    }

    /// The text of the element `selector` ("" when there is none).
    pub fn text(&mut self, selector: &str) -> String {
        let expr = format!(
            "(document.querySelector({}) || {{}}).textContent || ''",
            json!(selector)
        );
        self.eval(&expr)
            .unwrap()
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Waits (a bounded number of looks) until `expr` is true; the failure says what the
    /// page showed. An expression that throws (the page still loading) is not true yet.
    pub fn wait_for(&mut self, expr: &str) {
        for _ in 0..LOOKS {
            if self.eval(expr).ok() == Some(Value::Bool(true)) {
                return;
            }
            std::thread::sleep(POLL);
        }
        let shown = self.eval("document.body ? document.body.innerText : ''");
        panic!("the page never came to `{expr}`; it shows:\n{shown:?}");
    }

    /// Clicks the centre of the element `selector` with the mouse, as a person would: of its
    /// first box, as a link that wraps onto two lines has two and its bounds' centre may be
    /// in neither.
    pub fn click(&mut self, selector: &str) {
        self.call("Page.bringToFront", json!({})).unwrap();
        let expr = format!(
            "(() => {{ const e = document.querySelector({}); if (!e) return null;
               e.scrollIntoView({{block: 'center'}});
               const r = e.getClientRects()[0] || e.getBoundingClientRect();
               return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            json!(selector)
        );
        let at = self.eval(&expr).unwrap();
        let (x, y) = match (at[0].as_f64(), at[1].as_f64()) {
            (Some(x), Some(y)) => (x, y),
            _ => panic!("no element {selector} to click"),
        };
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            )
            .unwrap();
        }
    }

    /// Types `text` into the focused element.
    pub fn type_text(&mut self, text: &str) {
        self.call("Input.insertText", json!({ "text": text }))
            .unwrap();
    }

    /// Saves what the tab shows as a PNG.
    pub fn screenshot(&mut self, path: &Path) {
        // A tab in the background is not drawn, and its screenshot never comes.
        self.call("Page.bringToFront", json!({})).unwrap();
        let shot = self
            .call("Page.captureScreenshot", json!({"format": "png"}))
            .unwrap();
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("data"))
            .unwrap();
        std::fs::write(path, png).unwrap();
    }
}

/// Sends command `id` and returns its result, passing over the events in between.
fn call(socket: &mut Socket, id: u64, method: &str, params: Value) -> anyhow::Result<Value> {
    let msg = json!({"id": id, "method": method, "params": params});
    socket.send(Message::text(msg.to_string()))?;
    loop {
        let text = match socket.read()? {
            Message::Text(t) => t,
            Message::Close(_) => bail!("the browser closed the connection"),
            _ => continue,
        };
        let reply: Value = serde_json::from_str(&text)?;
        if reply["id"] != json!(id) {
            continue;
        }
        if let Some(e) = reply.get("error") {
            bail!("{method}: {e}");
        }
        return Ok(reply["result"].clone());
    }
}
