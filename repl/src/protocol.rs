//! Machine mode (`play --json`), in the spirit of UCI and GTP: one command per input line,
//! exactly one line of JSON per reply, `{"ok":true,...}` or `{"ok":false,"error":"..."}`.
//! The commands are the REPL's; see docs/protocol.md.

use crate::session::{Outcome, Session};
use crate::shell::run_line;
use crate::watch::Watcher;
use boardscript_interpreter::text::one_line;
use serde_json::{json, Value};
use std::io::Write;
use std::process::ExitCode;

pub fn run(mut session: Session, watcher: Option<Watcher>) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    for line in crate::shell::input_lines() {
        // A reload the watcher runs is reported in the reply to the command it ran before
        // (stdout carries exactly one reply per command), and noted on stderr for people.
        let reloaded = watcher
            .as_ref()
            .and_then(|w| w.reload_if_changed(&mut session))
            .map(|outcome| {
                let (reply, _) = to_json(outcome);
                eprintln!(
                    "(scripts changed) {}",
                    reply["text"]
                        .as_str()
                        .or(reply["error"].as_str())
                        .unwrap_or("")
                );
                reply
            });
        let (mut reply, quit) = match line {
            Ok(line) => answer(&mut session, &line),
            Err(e) => (json!({"ok": false, "error": e}), false),
        };
        if let (Some(r), Some(obj)) = (reloaded, reply.as_object_mut()) {
            obj.insert("reloaded".into(), r);
        }
        writeln!(out, "{reply}")?;
        out.flush()?;
        if quit {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One reply line for one command line.
pub fn answer(session: &mut Session, line: &str) -> (Value, bool) {
    to_json(run_line(session, line))
}

/// A command's outcome as its JSON reply, and whether it asked to quit.
fn to_json(outcome: Outcome) -> (Value, bool) {
    match outcome {
        Ok(reply) => {
            let mut obj = serde_json::Map::new();
            obj.insert("ok".into(), json!(true));
            for (k, v) in reply.json {
                let v = match v {
                    // Colours are for terminals only.
                    Value::String(s) if k == "text" => {
                        Value::String(anstream::adapter::strip_str(&s).to_string())
                    }
                    other => other,
                };
                obj.insert(k, v);
            }
            (Value::Object(obj), reply.quit)
        }
        Err(f) => (json!({"ok": false, "error": one_line(&f.message)}), false),
    }
}
