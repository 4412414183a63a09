//! General graphs (rooms and corridors, a ring of cards): named nodes holding one symbol each,
//! joined by numbered edges that carry a label at each end (a room's exit number); nodes and
//! edges each hold a few small integers of state by key (a door, a fire, a marker), with
//! native neighbour, reachability, component and distance queries.
//!
//! A graph is its [`Topology`] (names, edges and their labels, the symbol alphabet, the names
//! of node and edge state), shared behind one `Arc` by every state of a game, plus its marks
//! and node and edge values, which each state owns: a move that marks a node, lights a fire
//! or opens a door copies a few bytes a node and an edge, never text. The topology is copied only when a script changes it (or
//! names a new kind of edge state) while another state still holds it.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::{HashMap, VecDeque};
use std::ops::Deref;
use std::sync::Arc;

/// The most nodes a graph holds: every query may walk them all, so the count is what bounds
/// the cost of one call.
pub const MAX_NODES: usize = 4096;

/// The most edges a graph holds: with [`MAX_NODES`], the bound on any query's walk.
pub const MAX_EDGES: usize = 16_384;

/// The most kinds of edge state (`door`, `noise`) a graph holds, and of node state (`fire`,
/// `items`): each costs every edge (or node) a value in every state.
pub const MAX_KEYS: usize = 16;

/// The two things of a graph that hold values in each state.
#[derive(Debug, Clone, Copy)]
enum Part {
    Edges,
    Nodes,
}

impl Part {
    fn noun(self) -> &'static str {
        match self {
            Part::Edges => "edge",
            Part::Nodes => "node",
        }
    }
}

/// One edge: the nodes it joins (never the same node twice) and the label at each end
/// (`""`: none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub ends: [u32; 2],
    pub labels: [Arc<str>; 2],
}

impl Edge {
    /// Which end (0 or 1) is at `node`; None when the edge does not touch it.
    fn end_at(&self, node: usize) -> Option<usize> {
        self.ends.iter().position(|&n| n as usize == node)
    }

    /// The label at `node`'s end (`""` when the edge does not touch it).
    fn label_at(&self, node: usize) -> &str {
        self.end_at(node).map_or("", |end| &self.labels[end])
    }
}

/// Labels in a natural order: numbers by value first (`2` before `10`), then other text
/// (the empty label among it) by its bytes.
fn label_order(a: &str, b: &str) -> Ordering {
    match (a.parse::<i64>(), b.parse::<i64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y).then_with(|| a.cmp(b)),
        (Ok(_), Err(_)) => Ordering::Less,
        (Err(_), Ok(_)) => Ordering::Greater,
        (Err(_), Err(_)) => a.cmp(b),
    }
}

/// What does not change as a game is played: which nodes there are, how they connect, the
/// marks they may hold and the kinds of state edges hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    pub name: String,
    pub nodes: Vec<Arc<str>>,
    /// Node by name; shares the names' text with `nodes`.
    index: HashMap<Arc<str>, u32>,
    /// Sorted neighbour lists, one per node; nodes joined by several edges appear once.
    pub adjacency: Vec<Vec<u32>>,
    /// The edges by number, numbered from 0 in the order they were made.
    pub edges: Vec<Edge>,
    /// Per node, the numbers of its edges in the order of their label at this node, then by
    /// number.
    incident: Vec<Vec<u32>>,
    /// The alphabet of node marks; index 0 is the default mark.
    pub symbols: Vec<char>,
    /// The names of edge state; edge `e`'s value of key `k` is `edge_values[e * keys + k]`.
    pub edge_keys: Vec<Arc<str>>,
    /// The names of node state; node `n`'s value of key `k` is `node_values[n * keys + k]`.
    pub node_keys: Vec<Arc<str>>,
}

/// A graph in one state: the shared topology, this state's mark on each node and its values
/// on each node and edge.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(into = "GraphData", try_from = "GraphData")]
pub struct Graph {
    topology: Arc<Topology>,
    /// One per node: an index into `symbols`.
    pub marks: Vec<u8>,
    /// `edge_keys.len()` values per edge, edge by edge (0 until set).
    edge_values: Vec<i32>,
    /// `node_keys.len()` values per node, node by node (0 until set).
    node_values: Vec<i32>,
}

impl PartialEq for Graph {
    fn eq(&self, other: &Graph) -> bool {
        (Arc::ptr_eq(&self.topology, &other.topology) || self.topology == other.topology)
            && self.marks == other.marks
            && self.edge_values == other.edge_values
            && self.node_values == other.node_values
    }
}

impl Eq for Graph {}

/// Reading a graph reads its topology: `graph.nodes`, `graph.symbols`, `graph.name`.
impl Deref for Graph {
    type Target = Topology;
    fn deref(&self) -> &Topology {
        &self.topology
    }
}

impl Graph {
    /// About the bytes it holds (`State::weigh`): its topology (names, links, state keys)
    /// and this state's marks and node and edge values.
    pub fn weight(&self) -> u64 {
        let t = &self.topology;
        let names: u64 = t.nodes.iter().map(|n| 32 + n.len() as u64).sum();
        let edges: u64 = t
            .edges
            .iter()
            .map(|e| 32 + (e.labels[0].len() + e.labels[1].len()) as u64)
            .sum();
        let links: u64 = t.adjacency.iter().map(|a| 8 + 4 * a.len() as u64).sum();
        let keys: u64 = t
            .edge_keys
            .iter()
            .chain(&t.node_keys)
            .map(|k| 32 + k.len() as u64)
            .sum();
        32 + t.name.len() as u64
            + names
            + 2 * edges
            + 2 * links
            + keys
            + 4 * t.symbols.len() as u64
            + self.marks.len() as u64
            + 4 * self.edge_values.len() as u64
            + 4 * self.node_values.len() as u64
    }

    pub fn new(name: &str, symbols: &str) -> Result<Graph, String> {
        let symbols: Vec<char> = symbols.chars().collect();
        if symbols.is_empty() || symbols.len() > 64 {
            return Err("a graph needs 1 to 64 symbols".into());
        }
        Ok(Graph {
            topology: Arc::new(Topology {
                name: name.into(),
                nodes: vec![],
                index: HashMap::new(),
                adjacency: vec![],
                edges: vec![],
                incident: vec![],
                symbols,
                edge_keys: vec![],
                node_keys: vec![],
            }),
            marks: vec![],
            edge_values: vec![],
            node_values: vec![],
        })
    }

    /// A cycle through `nodes` in the order given.
    pub fn ring(name: &str, symbols: &str, nodes: &[String]) -> Result<Graph, String> {
        let mut g = Graph::new(name, symbols)?;
        for n in nodes {
            g.add_node(n)?;
        }
        for i in 0..nodes.len() {
            g.connect(i, (i + 1) % nodes.len())?;
        }
        Ok(g)
    }

    /// The topology to change: copied first if another state shares it.
    fn topology_mut(&mut self) -> &mut Topology {
        Arc::make_mut(&mut self.topology)
    }

    pub fn add_node(&mut self, name: &str) -> Result<usize, String> {
        if self.nodes.len() >= MAX_NODES {
            return Err(format!(
                "graph `{}` is full: a graph holds at most {MAX_NODES} nodes",
                self.name
            ));
        }
        if self.index(name).is_some() {
            return Err(format!("graph `{}` already has a node `{name}`", self.name));
        }
        let t = self.topology_mut();
        let name: Arc<str> = name.into();
        t.index.insert(name.clone(), t.nodes.len() as u32);
        t.nodes.push(name);
        t.adjacency.push(vec![]);
        t.incident.push(vec![]);
        self.marks.push(0);
        let keys = self.node_keys.len();
        self.node_values.extend(std::iter::repeat_n(0, keys));
        Ok(self.nodes.len() - 1)
    }

    /// Joins `a` and `b` unless they are joined already, and gives the number of the edge
    /// between them (the first, when there are several); joining a node to itself changes
    /// nothing (None). Connecting twice copies nothing.
    pub fn connect(&mut self, a: usize, b: usize) -> Result<Option<usize>, String> {
        if a == b {
            return Ok(None);
        }
        if let Some(e) = self.edge_between(a, b) {
            return Ok(Some(e));
        }
        self.link(a, b, "", "").map(Some)
    }

    /// A new edge from `a` to `b` with a label at each end, even when they are joined
    /// already (parallel edges); its number.
    pub fn link(&mut self, a: usize, b: usize, at_a: &str, at_b: &str) -> Result<usize, String> {
        if a == b {
            return Err(format!(
                "graph `{}`: an edge joins two different nodes, not `{}` to itself",
                self.name, self.nodes[a]
            ));
        }
        if self.edges.len() >= MAX_EDGES {
            return Err(format!(
                "graph `{}` is full: a graph holds at most {MAX_EDGES} edges",
                self.name
            ));
        }
        let t = self.topology_mut();
        let e = t.edges.len() as u32;
        t.edges.push(Edge {
            ends: [a as u32, b as u32],
            labels: [at_a.into(), at_b.into()],
        });
        for (x, y, label) in [(a, b, at_a), (b, a, at_b)] {
            if let Err(pos) = t.adjacency[x].binary_search(&(y as u32)) {
                t.adjacency[x].insert(pos, y as u32);
            }
            // The new edge has the highest number, so it goes after every label not above its own.
            let edges = &t.edges;
            let pos = t.incident[x].partition_point(|&f| {
                label_order(edges[f as usize].label_at(x), label) != Ordering::Greater
            });
            t.incident[x].insert(pos, e);
        }
        let keys = self.edge_keys.len();
        self.edge_values.extend(std::iter::repeat_n(0, keys));
        Ok(e as usize)
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.topology.index.get(name).map(|&i| i as usize)
    }

    pub fn mask(&self, set: &str) -> Result<u64, String> {
        set.chars().try_fold(0u64, |m, c| {
            match self.symbols.iter().position(|&s| s == c) {
                Some(i) => Ok(m | 1 << i),
                None => Err(format!("`{c}` is not a mark of graph `{}`", self.name)),
            }
        })
    }

    /// Whether node `i` holds one of the marks in `mask`.
    pub fn matches(&self, i: usize, mask: u64) -> bool {
        mask & (1 << self.marks[i]) != 0
    }

    /// Nodes marked with one of `mask`, in index order.
    pub fn nodes_with(&self, mask: u64) -> impl Iterator<Item = usize> + '_ {
        (0..self.marks.len()).filter(move |&i| self.matches(i, mask))
    }

    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.adjacency[i].iter().map(|&n| n as usize)
    }

    /// Node `n`'s edges, in the order of their label at `n`, then by number.
    pub fn edges_of(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        self.incident[n].iter().map(|&e| e as usize)
    }

    /// The other end of edge `e` from node `n`; None when `e` does not touch `n`.
    pub fn other_end(&self, e: usize, n: usize) -> Option<usize> {
        let edge = &self.edges[e];
        edge.end_at(n).map(|end| edge.ends[1 - end] as usize)
    }

    /// The label of edge `e` at node `n`; None when `e` does not touch `n`.
    pub fn label(&self, e: usize, n: usize) -> Option<&str> {
        let edge = &self.edges[e];
        edge.end_at(n).map(|end| &*edge.labels[end])
    }

    /// Node `n`'s edges whose label at `n` is `label`, by number.
    pub fn exits<'a>(&'a self, n: usize, label: &'a str) -> impl Iterator<Item = usize> + 'a {
        self.edges_of(n)
            .filter(move |&e| self.edges[e].label_at(n) == label)
    }

    /// The lowest-numbered edge joining `a` and `b`.
    pub fn edge_between(&self, a: usize, b: usize) -> Option<usize> {
        self.edges_of(a)
            .filter(|&e| self.other_end(e, a) == Some(b))
            .min()
    }

    /// The distinct labels at node `n`, in label order, without the empty one.
    pub fn labels(&self, n: usize) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .edges_of(n)
            .map(|e| self.edges[e].label_at(n))
            .filter(|l| !l.is_empty())
            .collect();
        out.dedup();
        out
    }

    /// The names of `part`'s state and its values (`keys.len()` per edge or node, in order).
    fn columns(&self, part: Part) -> (&[Arc<str>], &[i32]) {
        match part {
            Part::Edges => (&self.edge_keys, &self.edge_values),
            Part::Nodes => (&self.node_keys, &self.node_values),
        }
    }

    fn key_of(&self, part: Part, key: &str) -> Option<usize> {
        self.columns(part).0.iter().position(|k| **k == *key)
    }

    pub fn edge_key(&self, key: &str) -> Option<usize> {
        self.key_of(Part::Edges, key)
    }

    pub fn node_key(&self, key: &str) -> Option<usize> {
        self.key_of(Part::Nodes, key)
    }

    /// The index of `part`'s state key `key`, naming it first if it is new (the values of
    /// every edge or node start at 0).
    fn intern(&mut self, part: Part, key: &str) -> Result<usize, String> {
        if let Some(k) = self.key_of(part, key) {
            return Ok(k);
        }
        let (keys, _) = self.columns(part);
        let old = keys.len();
        if old >= MAX_KEYS {
            return Err(format!(
                "graph `{}` has {MAX_KEYS} kinds of {} state ({}), the most it may hold; \
                 `{key}` would be one more",
                self.name,
                part.noun(),
                keys.join(", ")
            ));
        }
        match part {
            Part::Edges => {
                self.topology_mut().edge_keys.push(key.into());
                self.edge_values = with_new_key(&self.edge_values, old, self.edges.len());
            }
            Part::Nodes => {
                self.topology_mut().node_keys.push(key.into());
                self.node_values = with_new_key(&self.node_values, old, self.nodes.len());
            }
        }
        Ok(old)
    }

    fn value_at(&self, part: Part, i: usize, key: Option<usize>) -> i32 {
        let (keys, values) = self.columns(part);
        key.map_or(0, |k| values[i * keys.len() + k])
    }

    fn set_value(&mut self, part: Part, i: usize, key: &str, value: i32) -> Result<(), String> {
        if self.key_of(part, key).is_none() && value == 0 {
            return Ok(()); // every value already reads 0: naming the key would change nothing
        }
        let k = self.intern(part, key)?;
        let keys = self.columns(part).0.len();
        match part {
            Part::Edges => self.edge_values[i * keys + k] = value,
            Part::Nodes => self.node_values[i * keys + k] = value,
        }
        Ok(())
    }

    /// Edge `e`'s value of `key` in this state (0 until set).
    pub fn edge_value(&self, e: usize, key: &str) -> i32 {
        self.value_at(Part::Edges, e, self.edge_key(key))
    }

    pub fn set_edge_value(&mut self, e: usize, key: &str, value: i32) -> Result<(), String> {
        self.set_value(Part::Edges, e, key, value)
    }

    /// Node `n`'s value of `key` in this state (0 until set).
    pub fn node_value(&self, n: usize, key: &str) -> i32 {
        self.value_at(Part::Nodes, n, self.node_key(key))
    }

    pub fn set_node_value(&mut self, n: usize, key: &str, value: i32) -> Result<(), String> {
        self.set_value(Part::Nodes, n, key, value)
    }

    /// Adds `delta` to node `n`'s value of `key`; the new value, or an error (naming the
    /// node, the key and the sum) when it leaves the range of a value.
    pub fn add_node_value(&mut self, n: usize, key: &str, delta: i64) -> Result<i32, String> {
        let sum = self.node_value(n, key) as i128 + delta as i128;
        let Ok(value) = i32::try_from(sum) else {
            return Err(format!(
                "graph `{}`: node `{}`'s `{key}` would be {sum}, out of range ({} to {})",
                self.name,
                self.nodes[n],
                i32::MIN,
                i32::MAX
            ));
        };
        self.set_node_value(n, key, value)?;
        Ok(value)
    }

    /// Nodes whose value of `key` is `value`, in index order.
    pub fn nodes_where(&self, key: &str, value: i32) -> Vec<usize> {
        let k = self.node_key(key);
        (0..self.nodes.len())
            .filter(|&n| self.value_at(Part::Nodes, n, k) == value)
            .collect()
    }

    /// A few lines for people: each node with its mark (and its non-zero values,
    /// `a:.[fire=1]`), then each edge as
    /// `a(label)-b(label)` with its non-zero values (`door=1`).
    pub fn describe(&self) -> String {
        let nodes: Vec<String> = self
            .nodes
            .iter()
            .zip(&self.marks)
            .enumerate()
            .map(|(i, (n, &m))| {
                let values: Vec<String> = self
                    .node_keys
                    .iter()
                    .map(|k| (k, self.node_value(i, k)))
                    .filter(|&(_, v)| v != 0)
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                match values.is_empty() {
                    true => format!("{n}:{}", self.symbols[m as usize]),
                    false => format!("{n}:{}[{}]", self.symbols[m as usize], values.join(" ")),
                }
            })
            .collect();
        let mut out = format!("graph {}: {}\n", self.name, nodes.join(" "));
        for (e, edge) in self.edges.iter().enumerate() {
            let end = |i: usize| {
                let name = &self.nodes[edge.ends[i] as usize];
                match &*edge.labels[i] {
                    "" => name.to_string(),
                    label => format!("{name}({label})"),
                }
            };
            let values: Vec<String> = self
                .edge_keys
                .iter()
                .map(|k| (k, self.edge_value(e, k)))
                .filter(|&(_, v)| v != 0)
                .map(|(k, v)| format!(" {k}={v}"))
                .collect();
            out.push_str(&format!("  {}-{}{}\n", end(0), end(1), values.concat()));
        }
        out
    }

    /// Edges whose value of `key` is `value`, by number.
    pub fn edges_where(&self, key: &str, value: i32) -> Vec<usize> {
        let k = self.edge_key(key);
        (0..self.edges.len())
            .filter(|&e| self.value_at(Part::Edges, e, k) == value)
            .collect()
    }

    /// Whether one may pass edge `e`: its value of `key` is none of `blocked`.
    fn is_open(&self, e: usize, key: Option<usize>, blocked: &[i32]) -> bool {
        !blocked.contains(&self.value_at(Part::Edges, e, key))
    }

    /// Nodes joined to `n` by an edge whose value of `key` is none of `blocked`, in index order.
    pub fn open_neighbours(&self, n: usize, key: &str, blocked: &[i32]) -> Vec<usize> {
        let k = self.edge_key(key);
        let mut out: Vec<usize> = self
            .edges_of(n)
            .filter(|&e| self.is_open(e, k, blocked))
            .filter_map(|e| self.other_end(e, n))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Nodes reachable from `start` moving only through nodes marked with `through`
    /// (`start` included), in index order.
    pub fn reachable(&self, start: usize, through: u64) -> Vec<usize> {
        let seen = self.flood(start, through);
        (0..self.nodes.len()).filter(|&i| seen[i]).collect()
    }

    /// Which nodes `reachable` finds, one flag a node.
    fn flood(&self, start: usize, through: u64) -> Vec<bool> {
        let mut seen = vec![false; self.nodes.len()];
        seen[start] = true;
        let mut stack = vec![start as u32];
        while let Some(i) = stack.pop() {
            for n in self.neighbours(i as usize) {
                if !seen[n] && self.matches(n, through) {
                    seen[n] = true;
                    stack.push(n as u32);
                }
            }
        }
        seen
    }

    /// Connected groups of nodes marked with `of`.
    pub fn components(&self, of: u64) -> Vec<Vec<usize>> {
        let mut done = vec![false; self.nodes.len()];
        let mut out = vec![];
        for s in 0..self.nodes.len() {
            if done[s] || !self.matches(s, of) {
                continue;
            }
            let group = self.reachable(s, of);
            for &i in &group {
                done[i] = true;
            }
            out.push(group);
        }
        out
    }

    /// Edges on a shortest path from `a` to `b` through nodes marked `through` (`b` may hold
    /// anything); None when unreachable.
    pub fn distance(&self, a: usize, b: usize, through: u64) -> Option<usize> {
        self.shortest(a, b, through, |_| true)
    }

    /// `distance`, passing only edges whose value of `key` is none of `blocked` (closed
    /// doors, say).
    pub fn open_distance(
        &self,
        a: usize,
        b: usize,
        through: u64,
        key: &str,
        blocked: &[i32],
    ) -> Option<usize> {
        let k = self.edge_key(key);
        self.shortest(a, b, through, |e| self.is_open(e, k, blocked))
    }

    /// Breadth-first search over the edges `passable` lets through: each node and each edge
    /// is looked at most twice.
    fn shortest(
        &self,
        a: usize,
        b: usize,
        through: u64,
        passable: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        const UNSEEN: u32 = u32::MAX;
        let mut dist = vec![UNSEEN; self.nodes.len()];
        dist[a] = 0;
        let mut queue = VecDeque::from([a as u32]);
        while let Some(i) = queue.pop_front() {
            let i = i as usize;
            if i == b {
                return Some(dist[i] as usize);
            }
            for e in self.edges_of(i).filter(|&e| passable(e)) {
                let Some(n) = self.other_end(e, i) else {
                    continue;
                };
                if dist[n] == UNSEEN && (n == b || self.matches(n, through)) {
                    dist[n] = dist[i] + 1;
                    queue.push_back(n as u32);
                }
            }
        }
        None
    }

    /// The edges a save made before edges had numbers implies: one per joined pair, in the
    /// order of the pairs' node numbers.
    fn plain_edges(adjacency: &[Vec<u32>]) -> Vec<(usize, usize)> {
        let mut pairs: Vec<(usize, usize)> = adjacency
            .iter()
            .enumerate()
            .flat_map(|(a, ns)| {
                ns.iter()
                    .map(move |&b| (a.min(b as usize), a.max(b as usize)))
            })
            .filter(|(a, b)| a != b)
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    /// Whether the edges are exactly what the neighbour lists imply (no labels, no parallel
    /// edges, numbered by pair): a save then needs no `links`.
    fn edges_are_plain(&self) -> bool {
        let plain = Graph::plain_edges(&self.adjacency);
        plain.len() == self.edges.len()
            && plain.iter().zip(&self.edges).all(|(&(a, b), e)| {
                e.ends == [a as u32, b as u32] && e.labels.iter().all(|l| l.is_empty())
            })
    }
}

/// A graph as saves hold it: one flat record. Saves made before edges had labels and state
/// have only `edges` (neighbour lists); `links` appears when the edges say more than those.
/// Loading checks it all, so a bad save is an error, never a panic in a later query.
#[derive(Serialize, Deserialize)]
struct GraphData {
    name: String,
    nodes: Vec<String>,
    edges: Vec<Vec<u32>>,
    symbols: Vec<char>,
    marks: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    links: Vec<LinkData>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    edge_state: Vec<EdgeStateData>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    node_state: Vec<EdgeStateData>,
}

/// One edge, by number: its ends and the label at each.
#[derive(Serialize, Deserialize)]
struct LinkData {
    ends: [u32; 2],
    labels: [String; 2],
}

/// One kind of edge (or node) state: its value on each edge (node), by number.
#[derive(Serialize, Deserialize)]
struct EdgeStateData {
    key: String,
    values: Vec<i32>,
}

impl From<Graph> for GraphData {
    fn from(g: Graph) -> GraphData {
        let links = if g.edges_are_plain() {
            vec![]
        } else {
            g.edges
                .iter()
                .map(|e| LinkData {
                    ends: e.ends,
                    labels: e.labels.clone().map(|l| l.to_string()),
                })
                .collect()
        };
        let edge_state = key_columns(&g.edge_keys, &g.edge_values);
        let node_state = key_columns(&g.node_keys, &g.node_values);
        GraphData {
            name: g.name.clone(),
            nodes: g.nodes.iter().map(|n| n.to_string()).collect(),
            edges: g.adjacency.clone(),
            symbols: g.symbols.clone(),
            marks: g.marks,
            links,
            edge_state,
            node_state,
        }
    }
}

/// Values kept `keys.len()` to an item, item by item, as one column per key.
fn key_columns(keys: &[Arc<str>], values: &[i32]) -> Vec<EdgeStateData> {
    (0..keys.len())
        .map(|k| EdgeStateData {
            key: keys[k].to_string(),
            values: values.iter().skip(k).step_by(keys.len()).copied().collect(),
        })
        .collect()
}

/// Values kept `old` to an item, for `items` items, with one more key (0 on every item).
fn with_new_key(values: &[i32], old: usize, items: usize) -> Vec<i32> {
    let mut out = Vec::with_capacity(items * (old + 1));
    for i in 0..items {
        out.extend_from_slice(&values[i * old..(i + 1) * old]);
        out.push(0);
    }
    out
}

impl TryFrom<GraphData> for Graph {
    type Error = String;

    fn try_from(d: GraphData) -> Result<Graph, String> {
        let symbols: String = d.symbols.iter().collect();
        let mut g = Graph::new(&d.name, &symbols)?;
        for n in &d.nodes {
            g.add_node(n)?;
        }
        let n = d.nodes.len();
        let bad = |what: &str| Err(format!("graph `{}`: {what}", d.name));
        if d.edges.len() != n || d.marks.len() != n {
            return bad(&format!(
                "{n} nodes but {} edge lists and {} marks",
                d.edges.len(),
                d.marks.len()
            ));
        }
        if d.marks.iter().any(|&m| m as usize >= d.symbols.len()) {
            return bad("a mark outside its symbols");
        }
        if d.edges.iter().flatten().any(|&b| b as usize >= n)
            || d.links
                .iter()
                .any(|l| l.ends.iter().any(|&e| e as usize >= n))
        {
            return bad("an edge to no node");
        }
        if d.links.is_empty() {
            for (a, b) in Graph::plain_edges(&d.edges) {
                g.link(a, b, "", "")?;
            }
        } else {
            for l in &d.links {
                let [a, b] = l.ends.map(|e| e as usize);
                g.link(a, b, &l.labels[0], &l.labels[1])?;
            }
            if g.adjacency != d.edges {
                return bad("its neighbour lists (`edges`) disagree with its `links`");
            }
        }
        for s in &d.edge_state {
            if g.edge_key(&s.key).is_some() {
                return bad(&format!("edge state `{}` given twice", s.key));
            }
            if s.values.len() != g.edges.len() {
                return bad(&format!(
                    "edge state `{}` has {} values for {} edges",
                    s.key,
                    s.values.len(),
                    g.edges.len()
                ));
            }
            g.intern(Part::Edges, &s.key)?;
        }
        let keys = g.edge_keys.len();
        for (k, s) in d.edge_state.iter().enumerate() {
            for (e, &v) in s.values.iter().enumerate() {
                g.edge_values[e * keys + k] = v;
            }
        }
        for s in &d.node_state {
            if g.node_key(&s.key).is_some() {
                return bad(&format!("node state `{}` given twice", s.key));
            }
            if s.values.len() != n {
                return bad(&format!(
                    "node state `{}` has {} values for {n} nodes",
                    s.key,
                    s.values.len()
                ));
            }
            g.intern(Part::Nodes, &s.key)?;
        }
        let keys = g.node_keys.len();
        for (k, s) in d.node_state.iter().enumerate() {
            for (i, &v) in s.values.iter().enumerate() {
                g.node_values[i * keys + k] = v;
            }
        }
        g.marks = d.marks;
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_distances_wrap_around() {
        let names: Vec<String> = (1..=6).map(|i| format!("s{i}")).collect();
        let g = Graph::ring("ring", ".x", &names).unwrap();
        assert_eq!(g.neighbours(0).collect::<Vec<_>>(), [1, 5]);
        assert_eq!(g.distance(0, 4, g.mask(".").unwrap()), Some(2));
    }

    #[test]
    fn marks_block_reachability() {
        let names: Vec<String> = (1..=5).map(|i| format!("n{i}")).collect();
        let mut g = Graph::ring("ring", ".x", &names).unwrap();
        g.marks[2] = 1;
        g.marks[4] = 1;
        assert_eq!(g.reachable(0, g.mask(".").unwrap()), [0, 1]);
        assert_eq!(
            g.components(g.mask(".").unwrap()),
            vec![vec![0, 1], vec![3]]
        );
    }

    /// A copy shares the topology; marking a node in it leaves the original's marks and
    /// copies no topology, while adding a node gives the copy its own.
    #[test]
    fn copies_share_topology_until_it_changes() {
        let names: Vec<String> = (1..=4).map(|i| format!("n{i}")).collect();
        let g = Graph::ring("ring", ".x", &names).unwrap();
        let mut marked = g.clone();
        marked.marks[1] = 1;
        assert!(Arc::ptr_eq(&g.topology, &marked.topology));
        assert_eq!(g.marks, [0, 0, 0, 0]);
        assert_eq!(marked.connect(0, 1), Ok(Some(0)));
        assert!(Arc::ptr_eq(&g.topology, &marked.topology), "no new edge");
        marked.add_node("n5").unwrap();
        assert!(!Arc::ptr_eq(&g.topology, &marked.topology));
        assert_eq!((g.nodes.len(), marked.index("n5")), (4, Some(4)));
    }

    #[test]
    fn a_saved_graph_loads_in_its_old_shape() {
        let text = r#"{"name":"ring","nodes":["a","b","c"],"edges":[[1,2],[0,2],[0,1]],"symbols":[".","x"],"marks":[0,1,0]}"#;
        let g: Graph = serde_json::from_str(text).unwrap();
        assert_eq!((g.index("c"), g.marks[1]), (Some(2), 1));
        assert_eq!(serde_json::to_string(&g).unwrap(), text);
        for (from, to, why) in [
            ("[0,1,0]", "[0,5,0]", "a mark outside its symbols"),
            ("[1,2],", "[1,9],", "an edge to no node"),
        ] {
            let err = serde_json::from_str::<Graph>(&text.replace(from, to)).unwrap_err();
            assert!(err.to_string().contains(why), "{to}: {err}");
        }
    }

    /// Three rooms: a's exit 2 meets b's exit 4 twice over (parallel edges), and b's exit 1
    /// meets c's exit 1 (one label at two ends).
    fn rooms() -> Graph {
        let mut g = Graph::new("ship", ".").unwrap();
        for n in ["a", "b", "c"] {
            g.add_node(n).unwrap();
        }
        assert_eq!(g.link(0, 1, "2", "4"), Ok(0));
        assert_eq!(g.link(0, 1, "10", "4"), Ok(1));
        assert_eq!(g.link(1, 2, "1", "1"), Ok(2));
        g
    }

    #[test]
    fn edges_carry_a_label_at_each_end() {
        let g = rooms();
        assert_eq!(
            (g.label(0, 0), g.label(0, 1), g.label(0, 2)),
            (Some("2"), Some("4"), None)
        );
        assert_eq!(g.other_end(2, 2), Some(1));
        // b's edges by label: 1 (edge 2), then both 4s by number.
        assert_eq!(g.edges_of(1).collect::<Vec<_>>(), [2, 0, 1]);
        assert_eq!(g.edges_of(0).collect::<Vec<_>>(), [0, 1], "2 before 10");
        assert_eq!(g.exits(1, "4").collect::<Vec<_>>(), [0, 1]);
        assert_eq!(g.labels(1), ["1", "4"]);
        assert_eq!(
            (g.edge_between(1, 0), g.edge_between(0, 2)),
            (Some(0), None)
        );
        assert_eq!(g.neighbours(1).collect::<Vec<_>>(), [0, 2], "a once");
        let err = rooms().link(2, 2, "1", "2").unwrap_err();
        assert!(err.contains("not `c` to itself"), "{err}");
    }

    #[test]
    fn edge_state_is_per_state_and_blocks_passage() {
        let shared = rooms();
        let mut g = shared.clone();
        g.set_edge_value(2, "door", 2).unwrap();
        assert_eq!(
            (g.edge_value(2, "door"), shared.edge_value(2, "door")),
            (2, 0)
        );
        assert_eq!(g.edges_where("door", 2), [2]);
        assert_eq!(g.edges_where("door", 0), [0, 1]);
        assert_eq!(g.edges_where("noise", 0), [0, 1, 2]);
        g.set_edge_value(1, "noise", 1).unwrap();
        assert_eq!((g.edge_value(1, "noise"), g.edge_value(2, "door")), (1, 2));
        let all = g.mask(".").unwrap();
        assert_eq!(g.open_neighbours(1, "door", &[1, 2]), [0]);
        assert_eq!(g.open_distance(0, 2, all, "door", &[2]), None);
        assert_eq!(g.open_distance(0, 2, all, "door", &[1]), Some(2));
        assert_eq!(g.distance(0, 2, all), Some(2));
        let mut full = rooms();
        for k in 0..MAX_KEYS {
            full.set_edge_value(0, &format!("k{k}"), 1).unwrap();
        }
        assert!(full
            .set_edge_value(0, "one-more", 1)
            .unwrap_err()
            .contains("16"));
    }

    /// A cloned state shares the topology while its edge values differ; naming a new key is
    /// what copies it.
    #[test]
    fn edge_values_differ_while_topology_is_shared() {
        let mut g = rooms();
        g.set_edge_value(0, "door", 1).unwrap();
        let mut copy = g.clone();
        copy.set_edge_value(0, "door", 3).unwrap();
        assert!(Arc::ptr_eq(&g.topology, &copy.topology));
        assert_eq!(
            (g.edge_value(0, "door"), copy.edge_value(0, "door")),
            (1, 3)
        );
        assert_ne!(g, copy);
    }

    #[test]
    fn labels_and_edge_state_survive_a_save() {
        let mut g = rooms();
        g.set_edge_value(1, "door", 2).unwrap();
        g.set_edge_value(2, "noise", 1).unwrap();
        let text = serde_json::to_string(&g).unwrap();
        let back: Graph = serde_json::from_str(&text).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.exits(1, "4").collect::<Vec<_>>(), [0, 1]);
        for (from, to, why) in [
            (r#""ends":[1,2]"#, r#""ends":[1,7]"#, "an edge to no node"),
            (
                r#""values":[0,2,0]"#,
                r#""values":[0,2]"#,
                "2 values for 3 edges",
            ),
            (r#""key":"noise""#, r#""key":"door""#, "`door` given twice"),
            (
                r#""edges":[[1],"#,
                r#""edges":[[2],"#,
                "disagree with its `links`",
            ),
        ] {
            assert!(text.contains(from), "{text}");
            let bad = text.replace(from, to);
            let err = serde_json::from_str::<Graph>(&bad).unwrap_err();
            assert!(err.to_string().contains(why), "{bad}: {err}");
        }
        let keys: Vec<String> = (0..=MAX_KEYS)
            .map(|k| format!(r#"{{"key":"k{k}","values":[0,0,0]}}"#))
            .collect();
        let crowded = format!(
            r#"{}"edge_state":[{}]}}"#,
            &text[..text.find(r#""edge_state""#).unwrap()],
            keys.join(",")
        );
        let err = serde_json::from_str::<Graph>(&crowded).unwrap_err();
        assert!(err.to_string().contains("16 kinds of edge state"), "{err}");
    }

    /// Node values are per state like edge values: a copy shares the topology until a new
    /// key is named, and a save keeps them.
    #[test]
    fn node_values_are_per_state_and_survive_a_save() {
        let mut g = rooms();
        assert_eq!(g.add_node_value(1, "fire", 2), Ok(2));
        let mut copy = g.clone();
        assert_eq!(copy.add_node_value(1, "fire", -1), Ok(1));
        assert!(Arc::ptr_eq(&g.topology, &copy.topology));
        assert_eq!(
            (g.node_value(1, "fire"), copy.node_value(1, "fire")),
            (2, 1)
        );
        assert_eq!(g.nodes_where("fire", 0), [0, 2]);
        assert_eq!(
            g.nodes_where("smoke", 0),
            [0, 1, 2],
            "an unknown key reads 0"
        );
        g.set_node_value(2, "items", 3).unwrap();
        g.add_node("d").unwrap();
        assert_eq!((g.node_value(3, "items"), g.node_value(2, "items")), (0, 3));
        assert!(
            g.describe().contains("b:.[fire=2] c:.[items=3] d:."),
            "{}",
            g.describe()
        );
        let text = serde_json::to_string(&g).unwrap();
        let back: Graph = serde_json::from_str(&text).unwrap();
        assert_eq!(back, g);
        let short = text.replace(r#""values":[0,2,0,0]"#, r#""values":[0,2]"#);
        let err = serde_json::from_str::<Graph>(&short).unwrap_err();
        assert!(err.to_string().contains("2 values for 4 nodes"), "{err}");
        let err = g.add_node_value(1, "fire", i32::MAX as i64).unwrap_err();
        assert!(
            err.contains("node `b`'s `fire` would be 2147483649"),
            "{err}"
        );
        for k in 0..MAX_KEYS - 2 {
            g.set_node_value(0, &format!("k{k}"), 1).unwrap();
        }
        let err = g.set_node_value(0, "one-more", 1).unwrap_err();
        assert!(err.contains("16 kinds of node state"), "{err}");
    }

    #[test]
    fn edges_are_bounded() {
        let mut g = rooms();
        for _ in 3..MAX_EDGES {
            g.link(0, 2, "", "").unwrap();
        }
        assert!(g.link(0, 2, "", "").unwrap_err().contains("16384 edges"));
        assert_eq!(g.connect(0, 2), Ok(Some(3)), "already joined");
    }
}
