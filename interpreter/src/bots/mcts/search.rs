//! One search: single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012).
//! Each iteration draws a state the seat cannot tell from the real one (for a seat that sees
//! everything, the position with a fresh RNG: plain UCT), descends the tree among the
//! children legal there, adds one, plays at random to the end (or to the depth cut, scored by
//! the game's `evaluate`) and adds each seat's reward to the nodes where that seat chose.

use super::tree::{Pick, Tree, ROOT};
use super::Settings;
use crate::bots::reward;
use crate::bots::sample;
use crate::bots::{BotError, SeatView};
use crate::game::{Action, Game};
use crate::primitives::rng::{self, GameRng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How long a search runs.
#[derive(Debug, Clone, Copy)]
pub enum Budget {
    Iterations(u64),
    Until(Instant),
}

/// What a search found at the root: for each legal action (in the caller's order) its visits
/// and summed reward for the deciding seat, and the iterations run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RootStats {
    pub moves: Vec<(u64, f64)>,
    pub iterations: u64,
}

impl RootStats {
    /// Adds another search's statistics of the same decision.
    pub fn add(&mut self, other: &RootStats) {
        if self.moves.is_empty() {
            self.moves = vec![(0, 0.0); other.moves.len()];
        }
        for (m, o) in self.moves.iter_mut().zip(&other.moves) {
            m.0 += o.0;
            m.1 += o.1;
        }
        self.iterations += other.iterations;
    }
}

/// A search with its tree and RNG, kept from move to move.
pub struct Searcher {
    tree: Tree,
    rng: GameRng,
    path: Vec<u32>,
}

impl Searcher {
    pub fn new(seed: u64) -> Searcher {
        Searcher {
            tree: Tree::new(),
            rng: rng::seeded(seed),
            path: Vec::new(),
        }
    }

    /// Forgets the tree.
    pub fn reset(&mut self) {
        self.tree.clear();
    }

    /// Searches `view`'s decision among `legal` within `budget`, or until `stop` is set.
    pub fn search(
        &mut self,
        game: &Game,
        view: &SeatView,
        legal: &[Action],
        settings: &Settings,
        budget: Budget,
        stop: &AtomicBool,
    ) -> Result<RootStats, BotError> {
        self.start_at(view, settings);
        let cut = settings.depth.filter(|_| game.has_evaluate());
        let mut iterations = 0;
        loop {
            let more = match budget {
                Budget::Iterations(n) => iterations < n,
                Budget::Until(t) => iterations == 0 || Instant::now() < t,
            };
            if !more || stop.load(Ordering::Relaxed) {
                break;
            }
            self.iterate(game, view, settings, cut)?;
            iterations += 1;
        }
        Ok(self.root_stats(view.seat(), legal, iterations))
    }

    /// Goes on from the node of the kept tree that is this position, or starts afresh.
    fn start_at(&mut self, view: &SeatView, settings: &Settings) {
        let found = match settings.reuse && view.sees_everything() {
            true => self.tree.find(view.state()),
            false => None,
        };
        match found {
            Some(node) => self.tree.reroot(node),
            None => self.tree.clear(),
        }
    }

    fn iterate(
        &mut self,
        game: &Game,
        view: &SeatView,
        settings: &Settings,
        cut: Option<usize>,
    ) -> Result<(), BotError> {
        let mut st = sample::determinize(game, view, &mut self.rng)?;
        if settings.reuse && self.tree.wants_state(ROOT) {
            self.tree.keep_state(ROOT, st.clone());
        }
        self.path.clear();
        let mut at = ROOT;
        let rewards = loop {
            let decisions = game.decisions(&st)?;
            if decisions.seats.is_empty() {
                break reward::of_finished(game, &st)?;
            }
            // The tree follows the seat the engine lists first (the bot's own at the root);
            // the rest of a simultaneous decision, once one seat holds a choice, is played at
            // random: no seat's node may depend on another's hidden choice.
            let seat = if at == ROOT && self.path.is_empty() {
                view.seat()
            } else if !st.pending.is_empty() {
                let k = rng::below(&mut self.rng, decisions.seats.len());
                let (s, legal) = &decisions.seats[k];
                let i = rng::below(&mut self.rng, legal.len());
                game.play_listed_in_place(&mut st, &decisions, *s, i)?;
                continue;
            } else {
                decisions.seats[0].0
            };
            let Some((_, legal)) = decisions.seats.iter().find(|(s, _)| *s == seat) else {
                return Err(BotError::Other(format!(
                    "in a sampled state {} does not decide",
                    st.seat_name(seat)
                )));
            };
            match self.tree.select(at, seat, legal, settings.c, &mut self.rng) {
                Pick::Child(child, j) => {
                    game.play_listed_in_place(&mut st, &decisions, seat, j)?;
                    self.path.push(child);
                    at = child;
                    if settings.reuse && self.tree.wants_state(child) {
                        self.tree.keep_state(child, st.clone());
                    }
                }
                Pick::New(j) => {
                    let child = self.tree.add(at, seat, legal, j);
                    game.play_listed_in_place(&mut st, &decisions, seat, j)?;
                    self.path.push(child);
                    if settings.reuse && self.tree.wants_state(child) {
                        self.tree.keep_state(child, st.clone());
                    }
                    break reward::playout(game, &mut st, &mut self.rng, cut)?;
                }
                Pick::Off(j) => {
                    game.play_listed_in_place(&mut st, &decisions, seat, j)?;
                    break reward::playout(game, &mut st, &mut self.rng, cut)?;
                }
            }
        };
        self.tree.back_up(&self.path, &rewards);
        Ok(())
    }

    /// The root's children for `seat`, in the order of `legal`.
    fn root_stats(&self, seat: usize, legal: &[Action], iterations: u64) -> RootStats {
        let mut moves = vec![(0, 0.0); legal.len()];
        for child in self.tree.children(ROOT) {
            let n = self.tree.node(child);
            if n.seat as usize != seat {
                continue;
            }
            if let Some(j) = legal.iter().position(|a| a.as_str() == &*n.action) {
                moves[j] = (n.visits as u64, n.total);
            }
        }
        RootStats { moves, iterations }
    }
}
