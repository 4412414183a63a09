//! The search tree: one arena of nodes for every seat's decisions, children keyed by the
//! seat that chose and the action's text, with the availability counts of single-observer
//! information-set MCTS (a child is scored against how often it was legal, not how often
//! its parent was visited).

use crate::game::Action;
use crate::primitives::rng::{self, GameRng};
use crate::state::State;
use std::sync::Arc;

/// No node is added past this many: a long search stops growing its tree (about 60 bytes a
/// node) and plays its playouts from the leaves it has.
pub const MAX_NODES: usize = 1 << 20;

/// Nodes at most this deep keep the state first reached there, so that the next search can
/// find the position it is asked about and go on from that node (tree reuse).
pub const KEPT_DEPTH: u32 = 2;

const NONE: u32 = u32::MAX;
pub const ROOT: u32 = 0;

pub struct Node {
    /// The action that leads here from the parent, and the seat that chose it.
    pub action: Arc<str>,
    pub seat: u32,
    /// Where the action stood in its legal list when the node was made: lists usually come
    /// in the same order, so it is tried first.
    hint: u32,
    first_child: u32,
    next_sibling: u32,
    pub visits: u32,
    /// Selections at the parent in which this node's action was legal.
    avail: u32,
    /// Rewards of `seat` summed over the visits.
    pub total: f64,
    depth: u32,
    /// Whether `kept` holds this node's state.
    kept: bool,
}

/// What `select` chose at a node.
pub enum Pick {
    /// The child node for the legal action at this index.
    Child(u32, usize),
    /// A legal action with no node yet: to be added (`add`) at this index.
    New(usize),
    /// The tree is full and this action has no node: played without one.
    Off(usize),
}

pub struct Tree {
    nodes: Vec<Node>,
    /// States kept at nodes no deeper than `KEPT_DEPTH` (node index, state).
    kept: Vec<(u32, State)>,
    /// Scratch: the child matched to each legal action of the node being selected.
    matched: Vec<u32>,
}

impl Tree {
    pub fn new() -> Tree {
        let mut t = Tree {
            nodes: Vec::new(),
            kept: Vec::new(),
            matched: Vec::new(),
        };
        t.clear();
        t
    }

    /// Only a root is left.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.kept.clear();
        self.nodes.push(Node {
            action: Arc::from(""),
            seat: 0,
            hint: 0,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            avail: 0,
            total: 0.0,
            depth: 0,
            kept: false,
        });
    }

    pub fn node(&self, i: u32) -> &Node {
        &self.nodes[i as usize]
    }

    /// The children of node `i`.
    pub fn children(&self, i: u32) -> impl Iterator<Item = u32> + '_ {
        let mut next = self.nodes[i as usize].first_child;
        std::iter::from_fn(move || {
            let here = next;
            (here != NONE).then(|| {
                next = self.nodes[here as usize].next_sibling;
                here
            })
        })
    }

    /// Chooses at node `at`, where `seat` decides among `legal`: an action with no child yet
    /// (at random), else the available child with the best UCB1 score, counting every
    /// available child's availability.
    pub fn select(
        &mut self,
        at: u32,
        seat: usize,
        legal: &[Action],
        c: f64,
        rng: &mut GameRng,
    ) -> Pick {
        self.match_children(at, seat, legal);
        let untried = self.matched.iter().filter(|&&m| m == NONE).count();
        if untried > 0 {
            let mut k = rng::below(rng, untried);
            let j = self
                .matched
                .iter()
                .position(|&m| {
                    if m != NONE {
                        return false;
                    }
                    k = k.wrapping_sub(1);
                    k == usize::MAX
                })
                .expect("an untried action");
            if self.nodes.len() < MAX_NODES {
                return Pick::New(j);
            }
            if untried == legal.len() {
                return Pick::Off(j);
            }
        }
        let mut best = (f64::NEG_INFINITY, NONE, 0);
        for j in 0..self.matched.len() {
            let m = self.matched[j];
            if m == NONE {
                continue;
            }
            let n = &mut self.nodes[m as usize];
            n.avail += 1;
            let score = if n.visits == 0 {
                f64::INFINITY
            } else {
                let v = n.visits as f64;
                n.total / v + c * ((n.avail as f64).ln() / v).sqrt()
            };
            if score > best.0 {
                best = (score, m, j);
            }
        }
        Pick::Child(best.1, best.2)
    }

    /// `matched[j]`: the child of `at` for `seat` playing `legal[j]`, or NONE.
    fn match_children(&mut self, at: u32, seat: usize, legal: &[Action]) {
        self.matched.clear();
        self.matched.resize(legal.len(), NONE);
        let mut next = self.nodes[at as usize].first_child;
        while next != NONE {
            let n = &self.nodes[next as usize];
            if n.seat as usize == seat {
                let hint = n.hint as usize;
                let j = match legal.get(hint) {
                    Some(a) if a.as_str() == &*n.action => Some(hint),
                    _ => legal.iter().position(|a| a.as_str() == &*n.action),
                };
                if let Some(j) = j {
                    self.matched[j] = next;
                }
            }
            next = n.next_sibling;
        }
    }

    /// Adds the child of `at` for `seat` playing `legal[j]`; returns it.
    pub fn add(&mut self, at: u32, seat: usize, legal: &[Action], j: usize) -> u32 {
        let i = self.nodes.len() as u32;
        let parent = &mut self.nodes[at as usize];
        let node = Node {
            action: Arc::from(legal[j].as_str()),
            seat: seat as u32,
            hint: j as u32,
            first_child: NONE,
            next_sibling: parent.first_child,
            visits: 0,
            avail: 1,
            total: 0.0,
            depth: parent.depth + 1,
            kept: false,
        };
        parent.first_child = i;
        self.nodes.push(node);
        i
    }

    /// Adds each seat's reward to every node of `path` (the root's excluded).
    pub fn back_up(&mut self, path: &[u32], rewards: &[f64]) {
        for &i in path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.total += rewards.get(n.seat as usize).copied().unwrap_or(0.0);
        }
    }

    /// Whether node `i` should keep the state reached there (and has none yet).
    pub fn wants_state(&self, i: u32) -> bool {
        let n = &self.nodes[i as usize];
        n.depth <= KEPT_DEPTH && !n.kept
    }

    pub fn keep_state(&mut self, i: u32, state: State) {
        self.nodes[i as usize].kept = true;
        self.kept.push((i, state));
    }

    /// The kept node whose position is `position`'s, if any.
    pub fn find(&self, position: &State) -> Option<u32> {
        self.kept
            .iter()
            .find(|(_, s)| same_position(s, position))
            .map(|(i, _)| *i)
    }

    /// Makes node `i` the root, dropping everything outside its subtree.
    pub fn reroot(&mut self, i: u32) {
        if i == ROOT {
            return;
        }
        let mut nodes = Vec::new();
        let mut map = vec![NONE; self.nodes.len()];
        // Breadth first: a parent is copied before its children.
        let mut queue = std::collections::VecDeque::from([i]);
        while let Some(old) = queue.pop_front() {
            map[old as usize] = nodes.len() as u32;
            let n = &self.nodes[old as usize];
            nodes.push(Node {
                action: n.action.clone(),
                first_child: n.first_child,
                next_sibling: n.next_sibling,
                depth: n.depth - self.nodes[i as usize].depth,
                ..*n
            });
            queue.extend(self.children(old));
        }
        let remap = |x: u32| if x == NONE { NONE } else { map[x as usize] };
        for n in &mut nodes {
            n.first_child = remap(n.first_child);
            n.next_sibling = remap(n.next_sibling);
        }
        nodes[0].next_sibling = NONE;
        self.kept = std::mem::take(&mut self.kept)
            .into_iter()
            .filter(|(k, _)| map[*k as usize] != NONE)
            .map(|(k, s)| (map[k as usize], s))
            .collect();
        self.nodes = nodes;
    }
}

/// Whether two states are the same position: equal but for the RNG, the log, the tallies
/// and the action count (a view and a searched state differ in those, and the search draws
/// a fresh RNG anyway).
pub fn same_position(a: &State, b: &State) -> bool {
    a.seats == b.seats
        && a.teams == b.teams
        && a.options == b.options
        && a.turn == b.turn
        && a.phase == b.phase
        && a.counters == b.counters
        && a.seat_counters == b.seat_counters
        && a.vars == b.vars
        && a.cards == b.cards
        && a.zones == b.zones
        && a.grids == b.grids
        && a.graphs == b.graphs
        && a.bags == b.bags
        && a.supplies == b.supplies
        && a.pending == b.pending
        && a.agenda == b.agenda
        && a.result == b.result
}
