//! The line editor: rustyline with persistent history and tab completion of commands and of
//! the legal actions of the moment.

use super::{handle_line, Session};
use crate::watch::Watcher;
use boardscript_grammar::COMMANDS;
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::{Context, Editor, Helper, Highlighter, Hinter, Validator};
use std::cell::RefCell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;

/// Completes the first word from the command list and, after `do `, the legal actions.
#[derive(Helper, Hinter, Highlighter, Validator)]
struct BoardHelper {
    actions: Rc<RefCell<Vec<String>>>,
}

impl Completer for BoardHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let pair = |s: &str| Pair {
            display: s.to_string(),
            replacement: s.to_string(),
        };
        if let Some(rest) = before.strip_prefix("do ") {
            // Skip an `@seat ` prefix; complete the whole action text after it.
            let offset = if rest.starts_with('@') {
                rest.find(' ').map_or(rest.len(), |i| i + 1)
            } else {
                0
            };
            let typed = &rest[offset..];
            let hits = self
                .actions
                .borrow()
                .iter()
                .filter(|a| a.starts_with(typed))
                .map(|a| pair(a))
                .collect();
            return Ok((3 + offset, hits));
        }
        if !before.contains(' ') {
            let mut hits: Vec<Pair> = COMMANDS
                .iter()
                .filter(|c| c.name.starts_with(before))
                .map(|c| pair(c.name))
                .collect();
            hits.extend(
                self.actions
                    .borrow()
                    .iter()
                    .filter(|a| !before.is_empty() && a.starts_with(before))
                    .map(|a| pair(a)),
            );
            return Ok((0, hits));
        }
        Ok((pos, vec![]))
    }
}

fn history_path() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".boardscript_history"))
}

pub fn run(mut session: Session, watcher: Option<Watcher>) -> anyhow::Result<ExitCode> {
    let actions = Rc::new(RefCell::new(vec![]));
    let mut editor: Editor<BoardHelper, _> = Editor::new()?;
    editor.set_helper(Some(BoardHelper {
        actions: actions.clone(),
    }));
    let history = history_path();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    println!(
        "{} — type `help` for commands, `show` for the board, `actions` for legal actions.",
        session.m.game.spec.title
    );
    match session.seat {
        // The seed would tell a player the hidden cards: only the all-seeing REPL shows it.
        None => println!(
            "seed {} (`--seed {}` plays this deal again)",
            session.m.setup.seed, session.m.setup.seed
        ),
        Some(me) => println!(
            "you play {}; the bot plays the other seats",
            session.m.state.seat_name(me)
        ),
    }
    let mut interrupted = false;
    loop {
        if let Some(w) = &watcher {
            w.reload_if_changed(&mut session, &mut |text| println!("{text}"));
        }
        *actions.borrow_mut() = session.completions();
        let deciding = session.deciding_names();
        let who = if deciding.is_empty() {
            "over".to_string()
        } else {
            deciding.join(",")
        };
        let prompt = format!("{} ({who})> ", session.m.game.spec.id);
        match editor.readline(&prompt) {
            Ok(line) => {
                interrupted = false;
                // A script saved while the prompt waited applies to this very line.
                if let Some(w) = &watcher {
                    w.reload_if_changed(&mut session, &mut |text| println!("{text}"));
                }
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                if !handle_line(&mut session, &line) {
                    break;
                }
            }
            // First Ctrl-C clears the line; a second one in a row leaves.
            Err(ReadlineError::Interrupted) if !interrupted => {
                interrupted = true;
                println!("(Ctrl-C again or Ctrl-D to leave)");
            }
            Err(ReadlineError::Interrupted | ReadlineError::Eof) => break,
            Err(e) => return Err(e.into()),
        }
    }
    if let Some(h) = &history {
        let _ = editor.save_history(h);
    }
    Ok(ExitCode::SUCCESS)
}
