//! The script sandbox seen from outside (issue 9): a hostile `eval` or manifest gets one clear
//! error, fast, and the process answers the next command. Each test drives `play --json` as a
//! child under a memory limit, with every wait bounded.

mod common;

use common::{boardscript, scripts_dir};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// Longer than any reply may take (the slowest stops on a 300 ms clock); a hang fails here.
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

/// Virtual memory for the child, in KiB: room for the script thread's 256 MiB stack, not for
/// a runaway search.
const MEMORY_KIB: u64 = 2 << 20;

struct Play {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Play {
    fn start(scripts: &Path) -> Play {
        let prelude = format!("ulimit -v {MEMORY_KIB};");
        let args = ["play", "virus-wars", "--json"];
        let mut child = boardscript(scripts, &prelude, &args, Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start boardscript");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take().expect("stdin");
        Play {
            child,
            stdin,
            lines,
        }
    }

    /// Sends one command; its one reply.
    fn send(&mut self, command: &str) -> Value {
        writeln!(self.stdin, "{command}").expect("write a command");
        self.stdin.flush().expect("flush");
        let line = match self.lines.recv_timeout(REPLY_TIMEOUT) {
            Ok(line) => line,
            Err(e) => {
                let _ = self.child.kill();
                panic!("no reply to `{command}` ({e:?}): the process hung or died");
            }
        };
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("`{line}` is not JSON: {e}"))
    }

    /// Sends a command that must be refused; the error.
    fn refused(&mut self, command: &str) -> String {
        let reply = self.send(command);
        assert_eq!(reply["ok"], false, "`{command}` was accepted: {reply}");
        reply["error"].as_str().expect("an error").to_string()
    }

    /// The process still answers, then quits cleanly.
    fn still_answers(mut self) {
        let reply = self.send("eval 40 + 2");
        assert_eq!(reply["value"], "42", "{reply}");
        assert_eq!(self.send("quit")["ok"], true);
        let status = self.child.wait().expect("exit");
        assert!(status.success(), "{status}");
    }
}

/// A copy of virus-wars whose `game.toml` ends with `extra`.
fn game_with(extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let game = dir.path().join("virus-wars");
    std::fs::create_dir(&game).expect("game dir");
    let from = scripts_dir().join("virus-wars");
    let toml = std::fs::read_to_string(from.join("game.toml")).expect("game.toml");
    std::fs::write(game.join("game.toml"), format!("{toml}\n{extra}\n")).expect("write");
    std::fs::copy(from.join("rules.rhai"), game.join("rules.rhai")).expect("copy rules");
    dir
}

/// issue 9 (1): a native search given 30 numbers (2^30 sets) used to eat all memory.
#[test]
fn i9_native_search_is_bounded() {
    let mut p = Play::start(&scripts_dir());
    let err =
        p.refused("eval let a=[]; for i in 1..31 { a.push(i*7919) } arith_search(a,3,false,1,30)");
    assert!(
        err.contains("arith_search") && err.contains("steps"),
        "{err}"
    );
    p.still_answers();
}

/// issue 9 (2): a value nested thousands deep is refused when stored, and is neither shown
/// nor dropped recursively when `eval` returns it.
#[test]
fn i9_deeply_nested_values_are_refused() {
    let mut p = Play::start(&scripts_dir());
    let err = p.refused("eval let a=[]; for i in 0..3000 { a=[a]; } g.set(\"x\",a); 1");
    assert!(
        err.contains("cannot store `x`") && err.contains("64 levels"),
        "{err}"
    );
    let err = p.refused("eval let a=[]; for i in 0..3000 { a=[a]; } a");
    assert!(err.contains("cannot be shown"), "{err}");
    p.still_answers();
}

/// issue 9 (5, 12): nothing that sleeps or reads the clock is there to call.
#[test]
fn i9_no_sleep_and_no_clock() {
    let mut p = Play::start(&scripts_dir());
    for call in [
        "sleep(1)",
        "sleep(1e20)",
        "timestamp()",
        "timestamp().elapsed",
    ] {
        let err = p.refused(&format!("eval {call}"));
        assert!(err.contains("no function `"), "{call}: {err}");
    }
    p.still_answers();
}

/// issue 9 (6): a manifest may lower limits, never lift or remove them (0 is "unlimited" to
/// Rhai); the error names the file and the field.
#[test]
fn i9_manifest_limits_cannot_be_lifted_or_zero() {
    for (field, value) in [
        ("operations", "0"),
        ("string_size", "0"),
        ("array_size", "0"),
        ("call_depth", "1000000"),
        ("time_ms", "600000"),
    ] {
        let dir = game_with(&format!("[limits]\n{field} = {value}"));
        let out = Command::new(env!("CARGO_BIN_EXE_boardscript"))
            .args(["play", "virus-wars", "--json", "--scripts"])
            .arg(dir.path())
            .env_remove("BOARDSCRIPT_SCRIPTS")
            .stdin(Stdio::null())
            .output()
            .expect("run");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{field}: {stderr}");
        assert!(
            stderr.contains("game.toml") && stderr.contains(&format!("{field} = {value}")),
            "{field}: {stderr}"
        );
    }
}

/// issue 9 (7): a call that is slow inside every other limit (copying a deeper array each
/// time round) stops on the wall clock, which a manifest may set lower.
#[test]
fn i9_a_slow_call_stops_on_the_clock() {
    let dir = game_with("[limits]\ntime_ms = 300");
    let mut p = Play::start(dir.path());
    let err = p.refused("eval let a=[]; for i in 0..20000 { a=[a]; } 1");
    assert!(err.contains("in `eval`: stopped after 300 ms"), "{err}");
    p.still_answers();
}

/// issue 9 (17): a long list of short strings is not "a string too large"; one huge string
/// still is, and a string over `string_size` is not stored.
#[test]
fn i9_string_limit_means_one_string() {
    let mut p = Play::start(&scripts_dir());
    // 8,000 actions of 20 bytes and more: 160 KB of text, over `string_size`.
    let reply =
        p.send("eval let a=[]; for i in 0..8000 { a.push(`a long action ${i + 100000}`) } a.len()");
    assert_eq!(reply["value"], "8000", "{reply}");
    let err = p.refused("eval let s=\"x\"; for i in 0..26 { s += s } s.len()");
    assert!(err.contains("Length of string too large"), "{err}");
    let err = p.refused("eval let s=\"\"; s.pad(200000, \"x\"); g.set(\"s\", s)");
    assert!(err.contains("longer than the limit of 100000"), "{err}");
    p.still_answers();
}

/// issue 9 (20): counters never wrap or panic.
#[test]
fn i9_counter_overflow_is_a_script_error() {
    let mut p = Play::start(&scripts_dir());
    let err = p.refused("eval g.add_counter(\"c\", 9223372036854775807); g.add_counter(\"c\", 1)");
    assert!(err.contains("overflows"), "{err}");
    let err = p.refused("eval g.set_step(-9223372036854775807)");
    assert!(err.contains("no such step"), "{err}");
    p.still_answers();
}
