//! One `play --json` process driven through pipes, every wait bounded, every reply checked
//! against the protocol's shape: one line, one JSON object, a boolean `ok`, a refusal exactly
//! `{"ok":false,"error":"<one line>"}`.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

/// Issue 9: a save's refusal still quotes the file's own text raw, newlines included (see
/// the ignored `save_refusals_are_one_line_whatever_the_file_holds`). Until that is fixed the
/// fuzz lets a `load` refusal span lines, so it can go on checking everything else; set this
/// to true with the fix.
pub const SAVE_REFUSALS_ARE_ONE_LINE: bool = true;

/// Generous: a reply that never comes fails the case instead of hanging the suite.
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

pub fn scripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("scripts")
}

/// One `play --json` process in its own temporary folder (so any file a command writes lands
/// there), read by threads so that every wait is bounded.
pub struct Proc {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<Vec<u8>>,
    pub stderr: Receiver<Vec<u8>>,
    pub dir: tempfile::TempDir,
    /// Every line sent, for the failure message.
    pub sent: Vec<String>,
}

/// A game whose script fails now and then: `legal_actions` throws when `moves % 7 == 5`, and
/// `apply` throws on a `jump` from a multiple of 3. Its refusals come from script errors, in
/// the middle of `do` and `bot`, where "a refused command changes nothing" is hardest to keep.
pub const TRAP: &str = "trap";

/// A small state budget: the lists `apply` keeps (issue 20's state growth) pass it part-way
/// through a game, so `do` and `bot` also meet its refusals.
const TRAP_TOML: &str =
    "title = \"Trap\"\n[seats]\nnames = [\"north\", \"south\"]\n[limits]\nstate_size = 30000\n";

const TRAP_RULES: &str = r#"
fn setup(g) { g.set_counter("moves", 0); }
fn to_decide(g) {
    let n = g.counter("moves");
    if n >= 40 { [] } else if n % 2 == 0 { ["north"] } else { ["south"] }
}
fn legal_actions(g, seat) {
    if g.counter("moves") % 7 == 5 { throw "trap in legal_actions"; }
    ["step", "jump"]
}
fn apply(g, seat, action) {
    let n = g.counter("moves");
    if action == "jump" && n % 3 == 0 { throw "trap in apply"; }
    g.set_counter("moves", n + if action == "jump" { 2 } else { 1 });
    let kept = []; kept.pad(40, n);
    g.set(`kept${n}`, kept);
}
fn winners(g) { [] }
"#;

impl Proc {
    pub fn start(game: &str, seed: u64) -> Proc {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let scripts = if game == TRAP {
            let folder = dir.path().join("scripts").join(TRAP);
            std::fs::create_dir_all(&folder).unwrap();
            std::fs::write(folder.join("game.toml"), TRAP_TOML).unwrap();
            std::fs::write(folder.join("rules.rhai"), TRAP_RULES).unwrap();
            dir.path().join("scripts")
        } else {
            scripts_dir()
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_boardscript"))
            .args(["play", game, "--json", "--seed", &seed.to_string()])
            .arg("--scripts")
            .arg(scripts)
            .env_remove("BOARDSCRIPT_SCRIPTS")
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start boardscript");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut err_pipe = child.stderr.take().unwrap();
        let (etx, stderr) = channel();
        std::thread::spawn(move || {
            let mut all = Vec::new();
            let _ = err_pipe.read_to_end(&mut all);
            let _ = etx.send(all);
        });
        Proc {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            dir,
            sent: vec![],
        }
    }

    pub fn history(&self) -> String {
        let shown: Vec<String> = self.sent.iter().map(|l| short(l)).collect();
        shown.join("\n  ")
    }

    /// Sends one line (raw bytes, so it may be invalid UTF-8) and returns its reply, which
    /// must be one line of JSON: an object with a boolean `ok`, and a refusal exactly
    /// `{"ok":false,"error":"<one line>"}`.
    pub fn send(&mut self, line: &[u8]) -> Value {
        assert!(!line.contains(&b'\n'), "a test line holds a newline");
        let shown = String::from_utf8_lossy(line).into_owned();
        self.sent.push(shown.clone());
        let stdin = self.stdin.as_mut().expect("stdin open");
        let written = stdin
            .write_all(line)
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        if let Err(e) = written {
            panic!(
                "cannot send `{}` ({e}); the process died? sent:\n  {}",
                short(&shown),
                self.history()
            );
        }
        let raw = match self.lines.recv_timeout(REPLY_TIMEOUT) {
            Ok(raw) => raw,
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                panic!(
                    "no reply within {REPLY_TIMEOUT:?}; sent:\n  {}",
                    self.history()
                );
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.child.wait().ok();
                panic!(
                    "the process ended ({status:?}) without replying; stderr: {}; sent:\n  {}",
                    self.stderr_text(),
                    self.history()
                );
            }
        };
        let raw = raw
            .strip_suffix(b"\n")
            .unwrap_or_else(|| panic!("a reply is not a whole line; sent:\n  {}", self.history()));
        let v: Value = serde_json::from_slice(raw).unwrap_or_else(|e| {
            panic!(
                "reply is not JSON ({e}): {}; sent:\n  {}",
                String::from_utf8_lossy(raw),
                self.history()
            )
        });
        let obj = v
            .as_object()
            .unwrap_or_else(|| panic!("reply is not an object: {v}; sent:\n  {}", self.history()));
        match obj.get("ok") {
            Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => {
                let error = obj.get("error").and_then(Value::as_str).unwrap_or("");
                assert!(
                    !error.is_empty() && obj.len() == 2,
                    "a refusal is not {{ok, error}}: {v}; sent:\n  {}",
                    self.history()
                );
                let known_bug = !SAVE_REFUSALS_ARE_ONE_LINE && line.starts_with(b"load ");
                assert!(
                    known_bug || !error.contains(['\n', '\r']),
                    "a refusal is not one line: {error:?}; sent:\n  {}",
                    self.history()
                );
            }
            _ => panic!("reply has no boolean ok: {v}; sent:\n  {}", self.history()),
        }
        v
    }

    pub fn line(&mut self, line: &str) -> Value {
        self.send(line.as_bytes())
    }

    /// The full state, as the exact text of the reply's `state` field.
    pub fn state(&mut self) -> String {
        let v = self.line("state");
        assert_eq!(v["ok"], true, "`state` was refused: {v}");
        v["state"].to_string()
    }

    pub fn stderr_text(&mut self) -> String {
        let _ = self.child.kill();
        let bytes = self.stderr.recv_timeout(REPLY_TIMEOUT).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// `quit`: its reply is the last line, the process exits with status 0, and stderr stayed
    /// silent all along.
    pub fn finish(mut self) {
        let reply = self.line("quit");
        assert_eq!(reply, json!({"ok": true}), "reply to quit");
        drop(self.stdin.take());
        match self.lines.recv_timeout(REPLY_TIMEOUT) {
            Err(RecvTimeoutError::Disconnected) => {}
            Ok(extra) => panic!(
                "a line after the reply to quit: {}",
                String::from_utf8_lossy(&extra)
            ),
            Err(RecvTimeoutError::Timeout) => panic!("the process did not end after quit"),
        }
        let status = self.child.wait().expect("wait for boardscript");
        assert!(status.success(), "exit status {status}");
        let stderr = self.stderr.recv_timeout(REPLY_TIMEOUT).unwrap_or_default();
        assert!(
            stderr.is_empty(),
            "stderr is not silent: {}; sent:\n  {}",
            String::from_utf8_lossy(&stderr),
            self.history()
        );
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub fn short(line: &str) -> String {
    if line.chars().count() > 60 {
        let head: String = line.chars().take(60).collect();
        format!("{head:?}... ({} bytes)", line.len())
    } else {
        format!("{line:?}")
    }
}
