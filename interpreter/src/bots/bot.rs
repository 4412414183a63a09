//! The `Bot` interface every player program implements, bot specifications as people write
//! them (`mcts:iters=2000,threads=2`), and the registry that makes a bot from one.
//!
//! A bot is handed a `SeatView` and nothing else: the only way from a real state to a bot is
//! `choose_for`, which redacts it first, so no bot can be written that reads another seat's
//! hand, a deck's order or the RNG.

use super::sample::SampleError;
use super::seat_view::SeatView;
use crate::game::{Action, Decisions, Game, GameSource, PlayError};
use crate::primitives::rng::{self, GameRng};
use crate::state::State;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[derive(Debug, Clone, thiserror::Error)]
pub enum BotError {
    #[error("{0}")]
    Play(#[from] PlayError),
    #[error("{0}")]
    Sample(#[from] SampleError),
    /// The search was interrupted (Ctrl-C) before it chose.
    #[error("interrupted")]
    Stopped,
    #[error("{0}")]
    Other(String),
}

/// One move as a search saw it: how often it was tried and how it did for the deciding seat
/// (mean reward, 0 a loss, 1 a win).
#[derive(Debug, Clone, PartialEq)]
pub struct MoveStat {
    pub action: Action,
    pub visits: u64,
    pub value: f64,
}

/// A bot's reading of one decision, best move first.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Analysis {
    pub moves: Vec<MoveStat>,
    /// Search iterations (playouts) run; 0 for a bot that does not search.
    pub iterations: u64,
}

pub trait Bot: Send {
    /// The index in `legal` (the seat's legal actions, never empty) of the action the bot
    /// plays for `view.seat()`.
    fn choose(&mut self, game: &Game, view: &SeatView, legal: &[Action])
        -> Result<usize, BotError>;

    /// The bot's reading of the decision, best first (`hint`). A bot that does not search
    /// gives the move it would play, tried 0 times.
    fn analyse(
        &mut self,
        game: &Game,
        view: &SeatView,
        legal: &[Action],
    ) -> Result<Analysis, BotError> {
        let i = self.choose(game, view, legal)?;
        Ok(Analysis {
            moves: vec![MoveStat {
                action: legal[i].clone(),
                visits: 0,
                value: 0.0,
            }],
            iterations: 0,
        })
    }

    /// The game changed other than by play (undo, load, reload): forget what was kept.
    fn reset(&mut self) {}
}

/// The only way from a real state to a bot: `seat`'s legal actions in `decisions` and its
/// redacted view. Returns the index of the chosen action in that list.
pub fn choose_for(
    bot: &mut dyn Bot,
    game: &Game,
    state: &State,
    decisions: &Decisions,
    seat: usize,
) -> Result<usize, BotError> {
    let legal = legal_of(decisions, seat)?;
    let view = SeatView::of(state, seat);
    let i = bot.choose(game, &view, legal)?;
    if i >= legal.len() {
        return Err(BotError::Other(format!(
            "the bot chose action {} of {}",
            i + 1,
            legal.len()
        )));
    }
    Ok(i)
}

/// `analyse` of `seat`'s decision, from its view only.
pub fn analyse_for(
    bot: &mut dyn Bot,
    game: &Game,
    state: &State,
    decisions: &Decisions,
    seat: usize,
) -> Result<Analysis, BotError> {
    let legal = legal_of(decisions, seat)?;
    bot.analyse(game, &SeatView::of(state, seat), legal)
}

fn legal_of(decisions: &Decisions, seat: usize) -> Result<&[Action], BotError> {
    decisions
        .seats
        .iter()
        .find(|(s, _)| *s == seat)
        .map(|(_, legal)| legal.as_slice())
        .ok_or_else(|| BotError::Other(format!("seat {seat} is not deciding")))
}

/// A bot as written on a command line: a name and `key=value` settings,
/// `mcts:iters=2000,threads=2`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BotSpec {
    pub name: String,
    pub params: BTreeMap<String, String>,
}

impl BotSpec {
    pub fn parse(text: &str) -> Result<BotSpec, String> {
        let text = text.trim();
        let (name, rest) = text.split_once(':').unwrap_or((text, ""));
        let name = name.trim();
        if name.is_empty() {
            return Err(format!(
                "a bot is a name, as `random` or `mcts:iters=500`, not `{text}`"
            ));
        }
        let mut params = BTreeMap::new();
        for kv in rest.split(',').map(str::trim).filter(|kv| !kv.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("bot setting `{kv}`: write KEY=VALUE, as `iters=500`"))?;
            params.insert(k.trim().to_string(), v.trim().to_string());
        }
        Ok(BotSpec {
            name: name.to_string(),
            params,
        })
    }

    /// Setting `key` as a number, or `default`; refuses a value that is not one.
    pub fn number<T: std::str::FromStr>(&self, key: &str, default: T) -> Result<T, String> {
        match self.params.get(key) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| format!("{} bot: `{key}={v}` is not a valid number", self.name)),
        }
    }

    /// Refuses settings other than `known`.
    pub fn only(&self, known: &[&str]) -> Result<(), String> {
        match self.params.keys().find(|k| !known.contains(&k.as_str())) {
            None => Ok(()),
            Some(k) if known.is_empty() => {
                Err(format!("the {} bot takes no settings (`{k}`)", self.name))
            }
            Some(k) => Err(format!(
                "the {} bot has no setting `{k}` (settings: {})",
                self.name,
                known.join(", ")
            )),
        }
    }
}

impl std::fmt::Display for BotSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// What a bot may be made with besides its settings.
#[derive(Clone)]
pub struct BotEnv {
    /// The game's sources, for bots that search on several threads (one compiled game per
    /// thread); None: they search on the calling thread only.
    pub source: Option<Arc<GameSource>>,
    /// The bot's own seed (never the game's RNG).
    pub seed: u64,
    /// Set to stop a search early (Ctrl-C); the bot then plays the best move found so far,
    /// or, before any, returns `BotError::Stopped`.
    pub stop: Arc<AtomicBool>,
}

impl BotEnv {
    pub fn new(seed: u64) -> BotEnv {
        BotEnv {
            source: None,
            seed,
            stop: Arc::default(),
        }
    }
}

/// The bots there are, with a line on each (`help bot`).
pub const BOTS: &[(&str, &str)] = &[
    ("random", "a legal action at random"),
    (
        "mcts",
        "Monte Carlo tree search (information-set MCTS when the seat cannot see everything): \
         iters=N (1000), time=MS, threads=N (1), c=X (1.41), depth=N, reuse=true|false",
    ),
    (
        "greedy",
        "one ply: the move whose result the game's `evaluate` (else a random playout) scores \
         best; samples=N",
    ),
];

/// Makes the bot `spec` names.
pub fn make(spec: &BotSpec, env: &BotEnv) -> Result<Box<dyn Bot>, String> {
    match spec.name.as_str() {
        "random" => {
            spec.only(&[])?;
            Ok(Box::new(RandomBot {
                rng: rng::seeded(env.seed),
            }))
        }
        "mcts" => Ok(Box::new(super::mcts::MctsBot::new(spec, env)?)),
        "greedy" => Ok(Box::new(super::greedy::GreedyBot::new(spec, env)?)),
        other => {
            let names: Vec<&str> = BOTS.iter().map(|(n, _)| *n).collect();
            Err(format!("no bot `{other}` (bots: {})", names.join(", ")))
        }
    }
}

/// Checks that `spec` names a bot and settings it takes, for a caller that makes the bot later
/// (a command line checked before the game starts, when no game's sources are at hand).
pub fn check(spec: &BotSpec) -> Result<(), String> {
    match spec.name.as_str() {
        "mcts" => super::mcts::Settings::from_spec(spec).map(drop),
        _ => make(spec, &BotEnv::new(0)).map(drop),
    }
}

/// Uniformly random among the legal actions, from its own RNG.
pub struct RandomBot {
    rng: GameRng,
}

impl Bot for RandomBot {
    fn choose(&mut self, _: &Game, _: &SeatView, legal: &[Action]) -> Result<usize, BotError> {
        Ok(rng::below(&mut self.rng, legal.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_is_a_name_and_settings() {
        let s = BotSpec::parse(" mcts:iters=2000, threads=2 ").unwrap();
        assert_eq!(s.name, "mcts");
        assert_eq!(s.params["iters"], "2000");
        assert_eq!(s.number("threads", 1usize), Ok(2));
        assert_eq!(s.number("c", 1.5f64), Ok(1.5));
        assert_eq!(s.to_string(), "mcts:iters=2000,threads=2");
        assert_eq!(BotSpec::parse("random").unwrap().to_string(), "random");
    }

    #[test]
    fn bad_specs_and_settings_are_refused_by_name() {
        assert!(BotSpec::parse(":iters=3")
            .unwrap_err()
            .contains("a bot is a name"));
        let e = BotSpec::parse("mcts:iters").unwrap_err();
        assert!(e.contains("`iters`: write KEY=VALUE"), "{e}");
        let s = BotSpec::parse("mcts:iters=lots").unwrap();
        assert!(s
            .number("iters", 1u64)
            .unwrap_err()
            .contains("`iters=lots` is not a valid number"));
        let e = make(&BotSpec::parse("random:depth=3").unwrap(), &BotEnv::new(1))
            .err()
            .unwrap();
        assert!(
            e.contains("the random bot takes no settings (`depth`)"),
            "{e}"
        );
        let e = make(&BotSpec::parse("alphazero").unwrap(), &BotEnv::new(1))
            .err()
            .unwrap();
        assert!(e.contains("no bot `alphazero` (bots: random"), "{e}");
    }
}
