//! The line editor: rustyline with persistent history and tab completion (`complete`).

use super::complete::complete;
use super::prompt::prompt_line;
use super::{handle_line, say_reloaded, Session};
use crate::session::Completions;
use crate::watch::Watcher;
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::{Context, Editor, Helper, Highlighter, Hinter, Validator};
use std::cell::RefCell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;

/// Completes from what the session offered at the last prompt (see `complete`).
#[derive(Helper, Hinter, Highlighter, Validator)]
struct BoardHelper {
    offered: Rc<RefCell<Completions>>,
}

impl Completer for BoardHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (at, hits) = complete(&self.offered.borrow(), &line[..pos]);
        let pairs = hits
            .into_iter()
            .map(|s| Pair {
                display: s.clone(),
                replacement: s,
            })
            .collect();
        Ok((at, pairs))
    }
}

fn history_path() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".boardscript_history"))
}

pub fn run(mut session: Session, watcher: Option<Watcher>) -> anyhow::Result<ExitCode> {
    let offered = Rc::new(RefCell::new(Completions::default()));
    let mut editor: Editor<BoardHelper, _> = Editor::new()?;
    editor.set_helper(Some(BoardHelper {
        offered: offered.clone(),
    }));
    let history = history_path();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    println!(
        "{} — type `help` for commands, `show` for the board, `actions` for legal actions.",
        session.source.spec().title
    );
    match session.seat {
        // The seed would tell a player the hidden cards: only the all-seeing REPL shows it.
        None => println!(
            "seed {} (`--seed {}` plays this deal again)",
            session.seed(),
            session.seed()
        ),
        Some(me) => println!(
            "you play {}; the bot plays the other seats",
            session.seat_name(me)
        ),
    }
    for line in &session.opening {
        anstream::println!("{line}");
    }
    // The board to start from, as `show` draws it (a game whose `render` fails says so).
    handle_line(&mut session, "show");
    let mut interrupted = false;
    loop {
        if let Some(w) = &watcher {
            let reloaded = w.reload_if_changed(&mut session);
            say_reloaded(reloaded);
        }
        *offered.borrow_mut() = session.completions();
        let prompt = prompt_line(
            &session.source.spec().id,
            &session.deciding_names(),
            session.shown_prompt().as_deref(),
        );
        match editor.readline(&prompt) {
            Ok(line) => {
                interrupted = false;
                // A script saved while the prompt waited applies to this very line.
                if let Some(w) = &watcher {
                    let reloaded = w.reload_if_changed(&mut session);
                    say_reloaded(reloaded);
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
