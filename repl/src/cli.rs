//! The command line, as clap types.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "boardscript",
    version,
    about = "A rules interpreter for card and board games written in Rhai"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a game in the REPL (or, with --json, over the machine protocol).
    Play(PlayArgs),
    /// Bots play many games (random ones unless --bots); prints wins per seat, lengths and
    /// speed.
    Sim(SimArgs),
    /// A round robin between bots: every pair plays N games, seats alternated; prints a
    /// results table and Elo ratings.
    Arena(ArenaArgs),
    /// Compile a game and run a few random playouts, reporting problems with file:line:column.
    Check(CheckArgs),
    /// List every game and variant with its seats and options.
    List(ListArgs),
    /// Serve matches over HTTP and WebSocket: seat links, spectators, bots, kept on disk.
    Serve(ServeArgs),
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Where to listen (port 0: any free port; the address bound is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// The folder matches are kept in (made if missing).
    #[arg(long, value_name = "DIR", default_value = "boardscript-data")]
    pub data: PathBuf,
    /// The folder holding games, or one game's own folder; only there (default:
    /// $BOARDSCRIPT_SCRIPTS, else ./scripts, the current folder, then the built-in games).
    #[arg(long, value_name = "DIR")]
    pub scripts: Option<PathBuf>,
    /// Matches held at once.
    #[arg(long, default_value_t = 256, value_parser = at_least_one())]
    pub max_matches: usize,
    /// WebSocket connections at once.
    #[arg(long, default_value_t = 1024, value_parser = at_least_one())]
    pub max_connections: usize,
    /// Offer the designer's page: every seat side by side, undo, the whole state as JSON
    /// (loopback addresses only).
    #[arg(long)]
    pub designer: bool,
    /// Read a game again when its files are saved: new matches use the new rules, and
    /// designer's matches reload them and redraw.
    #[arg(long)]
    pub watch: bool,
    /// The most a match's bot may ask of a setting, e.g. `--bot-cap iters=5000`
    /// (repeatable; defaults: iters=20000, time=5000, threads=2, samples=64).
    #[arg(long = "bot-cap", value_name = "SETTING=MAX", value_parser = bot_cap)]
    pub bot_caps: Vec<(String, u64)>,
}

/// `SETTING=MAX`, a whole number.
fn bot_cap(text: &str) -> Result<(String, u64), String> {
    let (key, max) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}`: write SETTING=MAX, as `iters=5000`"))?;
    let max = max
        .trim()
        .parse()
        .map_err(|_| format!("`{text}`: the cap is a whole number"))?;
    Ok((key.trim().to_string(), max))
}

/// Which game, from where, with what seats and options.
#[derive(Debug, Clone, Args)]
pub struct GameArgs {
    /// Game id: a folder under the scripts folder, or `game/variant` for one of its variants;
    /// `boardscript list` shows them.
    pub game: String,
    /// Number of seats (default: the game's).
    #[arg(long)]
    pub seats: Option<usize>,
    /// Set an option, e.g. `--option size=13` (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// The folder holding games, or one game's own folder; only there (default:
    /// $BOARDSCRIPT_SCRIPTS, else ./scripts, the current folder, then the built-in games).
    #[arg(long, value_name = "DIR")]
    pub scripts: Option<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Seed of the game's random number generator (default: a new random one, shown by
    /// `status` and kept in saves).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Play only this seat: the client sees only its view and acts only for it, god-mode
    /// commands are refused, and the built-in bot plays the other seats.
    #[arg(long, value_name = "NAME")]
    pub seat: Option<String>,
    /// Start from a position file, in the game's own format.
    #[arg(long, value_name = "FILE")]
    pub position: Option<PathBuf>,
    /// Machine mode: one command per line in, one line of JSON out.
    #[arg(long)]
    pub json: bool,
    /// Reload the rules on their own whenever a script file is saved.
    #[arg(long)]
    pub watch: bool,
    /// Read plain lines from stdin even on a terminal (no line editor).
    #[arg(long)]
    pub plain: bool,
    /// A bot for a seat, `red=mcts:iters=2000` (repeatable): it answers at once whenever its
    /// seat must decide. A bot naming no seat (`mcts`) plays every seat but yours with
    /// --seat, and is the bot `bot` uses otherwise.
    #[arg(long, value_name = "[SEAT=]BOT")]
    pub bot: Vec<String>,
}

#[derive(Debug, Clone, Args)]
pub struct SimArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Number of games (at least 1).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Base seed; game i is seeded from it and i alone.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Start at game N of the run (games 0 to N-1 are not played): a run stopped by Ctrl-C
    /// after N games goes on with `--skip N`.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub skip: u64,
    /// Worker threads (default: every core; never more than the games, nor 4 per core).
    #[arg(long, value_parser = at_least_one())]
    pub threads: Option<usize>,
    /// Give up on a game after this many actions (at least 1).
    #[arg(long, default_value_t = 100_000, value_parser = at_least_one())]
    pub max_actions: usize,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Bots per seat, `blue=mcts:iters=500,red=random`, or one for every seat
    /// (`mcts:iters=200`); reports win rates with 95% intervals (default: random play).
    #[arg(long, value_name = "BOTS")]
    pub bots: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct ArenaArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The entrants, `random,mcts:iters=200,mcts:iters=2000` (a bare `k=v` continues the
    /// settings of the entrant before it); at least two.
    #[arg(long, value_name = "BOTS")]
    pub bots: String,
    /// Games per pair of entrants (at least 1).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Base seed; game i of the round robin is seeded from it and i alone.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: every core; never more than the games).
    #[arg(long, value_parser = at_least_one())]
    pub threads: Option<usize>,
    /// Give up on a game after this many actions (at least 1).
    #[arg(long, default_value_t = 100_000, value_parser = at_least_one())]
    pub max_actions: usize,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Random playouts to run (at least 1), each replayed to check it is deterministic.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Start at playout N (playouts 0 to N-1 are not run): a check stopped by Ctrl-C after N
    /// playouts goes on with `--skip N`.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub skip: u64,
    /// Give up on a playout after this many actions (at least 1).
    #[arg(long, default_value_t = 100_000, value_parser = at_least_one())]
    pub max_actions: usize,
    /// Also the leak check: along each playout, deal again what each seat cannot see and
    /// fail if that changes what the seat is shown next (README, "Leak check").
    #[arg(long)]
    pub peek: bool,
}

/// A count that must be positive: clap refuses 0 with a message naming the flag.
fn at_least_one() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..)
}

#[derive(Debug, Clone, Args)]
pub struct ListArgs {
    /// The folder holding games; only there (default: $BOARDSCRIPT_SCRIPTS, else ./scripts,
    /// the current folder, then the built-in games).
    #[arg(long, value_name = "DIR")]
    pub scripts: Option<PathBuf>,
}

impl GameArgs {
    /// How `sim`, `arena` and `check` start each game: these seats and options, `seed`.
    pub fn setup(&self, seed: u64) -> anyhow::Result<boardscript_interpreter::Setup> {
        Ok(boardscript_interpreter::Setup {
            seats: self.seats,
            seed,
            options: self.option_pairs()?,
            position: None,
        })
    }

    /// `--option k=v` pairs, checked for shape (the game checks names and values).
    pub fn option_pairs(&self) -> anyhow::Result<std::collections::BTreeMap<String, String>> {
        self.options
            .iter()
            .map(|kv| {
                kv.split_once('=')
                    .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                    .ok_or_else(|| anyhow::anyhow!("--option wants KEY=VALUE, not `{kv}`"))
            })
            .collect()
    }
}
