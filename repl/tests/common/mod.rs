//! The test harness of the machine protocol, shared by the test files of this crate: a real
//! `boardscript play GAME --json` process driven through pipes. A reader thread reads stdout
//! with `BufReader::read_line`, so a reply is exactly one line, and waits are bounded: a
//! missing reply fails the test instead of hanging it. `finish` sends `quit` and checks that
//! its reply is the last line the process wrote, so no command can have answered with two
//! lines.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

pub const REPLY_TIMEOUT: Duration = Duration::from_secs(60);

/// `boardscript ARGS --scripts DIR`, started through `sh` after `prelude` (a `ulimit`, or
/// nothing), with `stdin` as given and stdout and stderr piped. `$BOARDSCRIPT_SCRIPTS` is
/// removed so the tests do not depend on the environment.
pub fn boardscript(scripts: &Path, prelude: &str, args: &[&str], stdin: Stdio) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(format!("{prelude} exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_boardscript"))
        .args(args)
        .arg("--scripts")
        .arg(scripts)
        .env_remove("BOARDSCRIPT_SCRIPTS")
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Waits for `child` to exit and returns its output; a child still running after `limit` is
/// killed and the test fails (a hang fails, it does not block).
pub fn finish_within(mut child: Child, limit: Duration) -> Output {
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("no exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// `boardscript ARGS --scripts DIR` after `prelude`, fed `input` on stdin (then closed); its
/// output, once it exits within `limit`.
pub fn run_fed(
    scripts: &Path,
    prelude: &str,
    args: &[&str],
    input: &str,
    limit: Duration,
) -> Output {
    let mut child = boardscript(scripts, prelude, args, Stdio::piped())
        .spawn()
        .expect("start boardscript");
    let mut stdin = child.stdin.take().expect("stdin");
    // A process that refuses its arguments exits before reading: its input is not needed.
    match stdin.write_all(input.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.expect("write the input"),
    }
    drop(stdin);
    finish_within(child, limit)
}

/// A run's stdout and stderr, as text.
pub fn texts(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes a game folder `<dir>/<id>` with a `game.toml` and a `rules.rhai`.
pub fn write_game(dir: &Path, id: &str, manifest: &str, rules: &str) -> PathBuf {
    let game = dir.join(id);
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(game.join("game.toml"), manifest).unwrap();
    std::fs::write(game.join("rules.rhai"), rules).unwrap();
    game
}

pub fn scripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("scripts")
}

pub struct Proc {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Commands sent so far, for messages.
    sent: usize,
}

impl Proc {
    /// `play virus-wars --json` with `extra` arguments.
    pub fn start(extra: &[&str]) -> Proc {
        Proc::start_in("virus-wars", &scripts_dir(), extra)
    }

    pub fn start_in(game: &str, scripts: &Path, extra: &[&str]) -> Proc {
        let mut child = Command::new(env!("CARGO_BIN_EXE_boardscript"))
            .args(["play", game, "--json"])
            .args(extra)
            .arg("--scripts")
            .arg(scripts)
            .env_remove("BOARDSCRIPT_SCRIPTS")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start boardscript");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                match reader.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Proc {
            stdin: child.stdin.take(),
            child,
            lines,
            sent: 0,
        }
    }

    pub fn next_line(&mut self, what: &str) -> Option<String> {
        match self.lines.recv_timeout(REPLY_TIMEOUT) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                panic!("no reply to {what} within {REPLY_TIMEOUT:?}");
            }
        }
    }

    /// Sends one line and returns the raw reply line, newline stripped.
    pub fn raw(&mut self, line: &str) -> String {
        let what = format!("command {} `{}`", self.sent + 1, short(line));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write a command");
        stdin.flush().unwrap();
        self.sent += 1;
        let reply = self
            .next_line(&what)
            .unwrap_or_else(|| panic!("the process ended without replying to {what}"));
        let reply = reply
            .strip_suffix('\n')
            .unwrap_or_else(|| panic!("reply to {what} is not a whole line: {reply:?}"));
        assert!(!reply.contains('\r'), "reply to {what} has a CR");
        reply.to_string()
    }

    /// Sends one line; the reply must be one JSON object with a boolean `ok`, and a refusal
    /// exactly `{"ok":false,"error":"<non-empty>"}`.
    pub fn cmd(&mut self, line: &str) -> Value {
        let raw = self.raw(line);
        let v: Value = serde_json::from_str(&raw)
            .unwrap_or_else(|e| panic!("reply to `{}` is not JSON ({e}): {raw}", short(line)));
        let obj = v
            .as_object()
            .unwrap_or_else(|| panic!("reply to `{}` is not an object: {raw}", short(line)));
        match obj.get("ok") {
            Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => {
                let error = obj.get("error").and_then(Value::as_str).unwrap_or("");
                assert!(
                    !error.is_empty(),
                    "refusal of `{}` has no error text: {raw}",
                    short(line)
                );
                assert_eq!(obj.len(), 2, "a refusal has only ok and error: {raw}");
            }
            _ => panic!("reply to `{}` has no boolean ok: {raw}", short(line)),
        }
        if let Some(text) = obj.get("text") {
            let text = text.as_str().expect("text is a string");
            assert!(!text.contains('\x1b'), "colour codes in JSON text: {raw}");
        }
        v
    }

    /// A command that must succeed.
    pub fn ok(&mut self, line: &str) -> Value {
        let v = self.cmd(line);
        assert_eq!(v["ok"], true, "`{}` was refused: {v}", short(line));
        v
    }

    /// A command that must be refused; returns the error text.
    pub fn refused(&mut self, line: &str) -> String {
        let v = self.cmd(line);
        assert_eq!(v["ok"], false, "`{}` was accepted: {v}", short(line));
        v["error"].as_str().unwrap().to_string()
    }

    pub fn state(&mut self) -> Value {
        let v = self.ok("state");
        assert!(v["state"].is_object(), "state reply: {v}");
        v["state"].clone()
    }

    /// Legal actions of the one deciding seat.
    pub fn legal(&mut self, seat: &str) -> Vec<String> {
        let v = self.ok("actions");
        strings(&v["deciding"][seat])
    }

    /// `quit`: its reply `{"ok":true}` must be the last line, and the process must end well.
    pub fn finish(mut self) {
        let sent = self.sent;
        let reply = self.cmd("quit");
        assert_eq!(reply, json!({"ok": true}), "reply to quit");
        drop(self.stdin.take());
        if let Some(extra) = self.next_line("end of output") {
            panic!("a line after the reply to quit (after {sent} commands): {extra}");
        }
        let status = self.child.wait().expect("wait for boardscript");
        assert!(status.success(), "exit status {status}");
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
    if line.chars().count() > 40 {
        let head: String = line.chars().take(40).collect();
        format!("{head}... ({} bytes)", line.len())
    } else {
        line.to_string()
    }
}

pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().expect("a string").to_string())
        .collect()
}

pub fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}
