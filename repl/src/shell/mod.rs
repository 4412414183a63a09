//! The interactive REPL: a line editor on a terminal (history, tab completion), plain lines
//! otherwise. Every line goes through `Session::execute`; errors are printed and the loop
//! goes on with the game unchanged.

mod complete;
mod editor;
mod prompt;

use crate::cli::PlayArgs;
use crate::files;
use crate::panics;
use crate::protocol;
use crate::seat_bots::Interrupt;
use crate::session::{Failure, Outcome, Session};
use crate::watch::Watcher;
use anyhow::Context;
use boardscript_grammar::{parse_command, Command};
use boardscript_interpreter::text::one_line;
use boardscript_interpreter::Setup;
use std::io::{BufRead, IsTerminal, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;

pub fn play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let position = match &args.position {
        Some(p) => Some(
            files::read_text(&p.to_string_lossy())
                .map_err(anyhow::Error::msg)
                .context("--position")?,
        ),
        None => None,
    };
    let setup = Setup {
        seats: args.game.seats,
        seed: args.seed.unwrap_or_else(random_seed),
        options: args.game.option_pairs()?,
        position,
    };
    let searching = std::sync::Arc::default();
    let interrupt = Interrupt {
        stop: crate::interrupt::search_flag(std::sync::Arc::clone(&searching)),
        searching,
    };
    let session = Session::start(
        args.game.clone(),
        setup,
        args.seat.as_deref(),
        &args.bot,
        interrupt,
    )?;
    let watcher = if args.watch {
        Some(Watcher::new(session.source.spec())?)
    } else {
        None
    };
    if args.json {
        protocol::run(session, watcher)
    } else if !args.plain && std::io::stdin().is_terminal() {
        editor::run(session, watcher)
    } else {
        run_plain(session, watcher)
    }
}

/// A seed for a game started without `--seed`, so two games never deal the same hidden
/// cards. Below 2^53 so that it survives any JSON reader as a number.
fn random_seed() -> u64 {
    rand::random::<u64>() >> 11
}

/// Lines from a pipe or file: no prompt, output only, so a transcript can be compared.
fn run_plain(mut session: Session, watcher: Option<Watcher>) -> anyhow::Result<ExitCode> {
    // With --seat, what the bots played before the client's first decision.
    for line in &session.opening {
        anstream::println!("{line}");
    }
    for line in input_lines() {
        if let Some(w) = &watcher {
            let reloaded = w.reload_if_changed(&mut session);
            say_reloaded(reloaded);
        }
        match line {
            Ok(line) => {
                if !handle_line(&mut session, &line) {
                    break;
                }
            }
            Err(e) => anstream::eprintln!("error: {e}"),
        }
        std::io::stdout().flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints what a reload the watcher ran says (nothing when it did not run).
pub fn say_reloaded(outcome: Option<Outcome>) {
    match outcome {
        None => {}
        Some(Ok(reply)) => anstream::println!("(scripts changed) {}", reply.text),
        Some(Err(f)) => anstream::println!("(scripts changed) {}", format_failure(&f)),
    }
}

/// Lines of standard input; a line that is not UTF-8 (or a read error) is an `Err` with a
/// message, so the caller refuses it and goes on.
pub fn input_lines() -> impl Iterator<Item = Result<String, String>> {
    let mut stdin = std::io::stdin().lock();
    std::iter::from_fn(move || {
        let mut buf = Vec::new();
        match stdin.read_until(b'\n', &mut buf) {
            Ok(0) => None,
            Ok(_) => {
                while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                    buf.pop();
                }
                Some(
                    String::from_utf8(buf).map_err(|_| "input line is not valid UTF-8".to_string()),
                )
            }
            Err(e) => Some(Err(format!("cannot read input: {e}"))),
        }
    })
}

/// Runs one line and prints its answer; false when the user asked to quit.
pub fn handle_line(session: &mut Session, line: &str) -> bool {
    let outcome = run_line(session, line);
    match outcome {
        Ok(reply) => {
            if !reply.text.is_empty() {
                anstream::println!("{}", reply.text);
            }
            !reply.quit
        }
        Err(f) => {
            anstream::eprintln!("{}", format_failure(&f));
            true
        }
    }
}

/// Parses and executes a line; a panic inside is caught, reported, and the game restored.
pub fn run_line(session: &mut Session, line: &str) -> Outcome {
    guarded(session, |session| {
        let cmd = match parse_command(line) {
            Ok(Some(cmd)) => cmd,
            Ok(None) => return Ok(Default::default()),
            // A line whose first word begins an action of this game (`c3`, `rescue 3+5-2`,
            // `stop`) is played as if it began with `do`, so one not legal now is refused as
            // `do` refuses it, not as an unknown command.
            Err(_) if starts_like_an_action(session, line) => Command::Do {
                seat: None,
                action: line.trim().to_string(),
            },
            Err(e) => {
                return Err(Failure::from(format!(
                    "{}{}",
                    e.message,
                    column_hint(e.column)
                )))
            }
        };
        session.execute(cmd)
    })
}

/// Runs `work` all or nothing: whatever fails, even half-way through (`bot 5` on its third
/// action, a `do` whose next position the script cannot list, a reload), the game and its
/// undo and redo history go back to what they were; a panic is reported as an error.
pub fn guarded(session: &mut Session, work: impl FnOnce(&mut Session) -> Outcome) -> Outcome {
    let checkpoint = session.checkpoint()?;
    match catch_unwind(AssertUnwindSafe(|| work(session))) {
        Ok(Ok(reply)) => Ok(reply),
        Ok(Err(failure)) => {
            session.restore(checkpoint);
            Err(failure)
        }
        Err(panic) => {
            session.restore(checkpoint);
            Err(Failure::from(format!(
                "internal error: {}; the game is unchanged",
                panics::message(&*panic)
            )))
        }
    }
}

/// Whether the first word of `line` is the first word of an action of this game (legal now,
/// listed earlier, or in the game's log); a typo of a command is not.
fn starts_like_an_action(session: &Session, line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|word| session.is_action_word(word))
}

fn column_hint(column: usize) -> String {
    if column > 1 {
        format!(" (column {column})")
    } else {
        String::new()
    }
}

/// `error: ...`, and for script errors the source line with a caret under the column.
pub fn format_failure(f: &Failure) -> String {
    let mut out = format!("error: {}", one_line(&f.message));
    if let Some(excerpt) = &f.excerpt {
        out.push('\n');
        out.push_str(excerpt);
    }
    out
}
