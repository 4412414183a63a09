//! `boardscript`: play games written as Rhai scripts in a REPL or over a JSON line protocol,
//! simulate them with random bots, list and check them.

mod allocator;
mod arena;
mod cli;
mod files;
mod games;
mod interrupt;
mod lineup;
mod panics;
mod protocol;
mod seat_bots;
mod session;
mod shell;
mod sim;
mod stats;
mod watch;

use boardscript_interpreter::TableError;
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    panics::install();
    // Scripts run on the engine's own threads (a `Table`'s, a `Batch`'s), with the stack
    // they need; this one reads commands and prints. It is a thread so that a panic is
    // reported as an internal error with an exit status, like any other error.
    let worker = std::thread::Builder::new()
        .name("boardscript".into())
        .spawn(move || run(cli));
    let result = match worker {
        Ok(handle) => handle.join().unwrap_or_else(|p| {
            let message = panics::message(&*p);
            // `println!` panics when the reader has gone (`boardscript sim ... | head`).
            if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
                return Ok(ExitCode::SUCCESS);
            }
            Err(anyhow::anyhow!("internal error: {message}"))
        }),
        Err(e) => Err(anyhow::anyhow!("cannot start the session thread: {e}")),
    };
    match result {
        Ok(code) => code,
        // A reader that stopped early (`boardscript list | head`) is not an error.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            if let Some(excerpt) = script_excerpt(&err) {
                eprintln!("{excerpt}");
            }
            ExitCode::from(2)
        }
    }
}

/// The source line and caret of a script error behind `err` (a game that does not compile,
/// or whose setup fails), as the REPL draws them.
fn script_excerpt(err: &anyhow::Error) -> Option<String> {
    err.chain().find_map(|e| match e.downcast_ref() {
        Some(TableError::Script { excerpt, .. }) => excerpt.clone(),
        _ => None,
    })
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: cli::Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        cli::Command::Play(args) => shell::play(args),
        cli::Command::Sim(args) => sim::sim(args),
        cli::Command::Arena(args) => arena::arena(args),
        cli::Command::Check(args) => sim::check(args),
        cli::Command::List(args) => games::list(args),
        cli::Command::Serve(args) => {
            let scripts = match &args.scripts {
                Some(dir) if dir.join("game.toml").is_file() => vec![dir.clone()],
                given => games::sources(given.as_deref())
                    .into_iter()
                    .map(|s| s.root)
                    .collect(),
            };
            let mut limits = boardscript_server::Limits {
                matches: args.max_matches,
                connections: args.max_connections,
                ..Default::default()
            };
            limits.bot_caps.extend(args.bot_caps);
            boardscript_server::run(boardscript_server::Config {
                addr: args.addr,
                data: args.data,
                scripts,
                limits,
                designer: args.designer,
                watch: args.watch,
            })?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
