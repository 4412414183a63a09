//! `boardscript`: play games written as Rhai scripts in a REPL or over a JSON line protocol,
//! simulate them with random bots, list and check them.

mod cli;
mod games;
mod protocol;
mod session;
mod shell;
mod sim;
mod watch;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run(cli::Cli::parse()) {
        Ok(code) => code,
        // A reader that stopped early (`boardscript list | head`) is not an error.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
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
        cli::Command::Check(args) => sim::check(args),
        cli::Command::List(args) => games::list(args),
    }
}
