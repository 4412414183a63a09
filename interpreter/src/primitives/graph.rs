//! General graphs (rooms and corridors, a ring of cards): named nodes holding one symbol each,
//! with native neighbour, reachability, component and distance queries.
//!
//! A graph is its [`Topology`] (names, edges, the symbol alphabet), shared behind one `Arc` by
//! every state of a game, plus its marks, which each state owns: a move that marks a node
//! copies a few bytes a node, not the graph. The topology is copied only when a script changes
//! it while another state still holds it.

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use std::ops::Deref;
use std::sync::Arc;

/// The most nodes a graph holds: every query may walk them all, so the count is what bounds
/// the cost of one call.
pub const MAX_NODES: usize = 4096;

/// What does not change as a game is played: which nodes there are, how they connect, and
/// the marks they may hold. (Labels on edges would live here too; state on edges, such as an
/// open door, would sit beside [`Graph::marks`].)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    pub name: String,
    pub nodes: Vec<Arc<str>>,
    /// Node by name; shares the names' text with `nodes`.
    index: HashMap<Arc<str>, u32>,
    /// Sorted neighbour lists, one per node.
    pub edges: Vec<Vec<u32>>,
    /// The alphabet of node marks; index 0 is the default mark.
    pub symbols: Vec<char>,
}

/// A graph in one state: the shared topology and this state's mark on each node.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(into = "GraphData", try_from = "GraphData")]
pub struct Graph {
    topology: Arc<Topology>,
    /// One per node: an index into `symbols`.
    pub marks: Vec<u8>,
}

impl PartialEq for Graph {
    fn eq(&self, other: &Graph) -> bool {
        (Arc::ptr_eq(&self.topology, &other.topology) || self.topology == other.topology)
            && self.marks == other.marks
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
                edges: vec![],
                symbols,
            }),
            marks: vec![],
        })
    }

    /// A cycle through `nodes` in the order given.
    pub fn ring(name: &str, symbols: &str, nodes: &[String]) -> Result<Graph, String> {
        let mut g = Graph::new(name, symbols)?;
        for n in nodes {
            g.add_node(n)?;
        }
        for i in 0..nodes.len() {
            g.connect(i, (i + 1) % nodes.len());
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
        t.edges.push(vec![]);
        self.marks.push(0);
        Ok(self.nodes.len() - 1)
    }

    /// An undirected edge; connecting twice (or a node to itself) changes nothing, and
    /// copies nothing.
    pub fn connect(&mut self, a: usize, b: usize) {
        if a == b || self.edges[a].binary_search(&(b as u32)).is_ok() {
            return;
        }
        let t = self.topology_mut();
        for (x, y) in [(a, b), (b, a)] {
            if let Err(pos) = t.edges[x].binary_search(&(y as u32)) {
                t.edges[x].insert(pos, y as u32);
            }
        }
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
        self.edges[i].iter().map(|&n| n as usize)
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
        const UNSEEN: u32 = u32::MAX;
        let mut dist = vec![UNSEEN; self.nodes.len()];
        dist[a] = 0;
        let mut queue = VecDeque::from([a as u32]);
        while let Some(i) = queue.pop_front() {
            let i = i as usize;
            if i == b {
                return Some(dist[i] as usize);
            }
            for n in self.neighbours(i) {
                if dist[n] == UNSEEN && (n == b || self.matches(n, through)) {
                    dist[n] = dist[i] + 1;
                    queue.push_back(n as u32);
                }
            }
        }
        None
    }
}

/// A graph as saves have always held it: one flat record. Loading checks it, so a bad save
/// is an error, never a panic in a later query.
#[derive(Serialize, Deserialize)]
struct GraphData {
    name: String,
    nodes: Vec<String>,
    edges: Vec<Vec<u32>>,
    symbols: Vec<char>,
    marks: Vec<u8>,
}

impl From<Graph> for GraphData {
    fn from(g: Graph) -> GraphData {
        GraphData {
            name: g.name.clone(),
            nodes: g.nodes.iter().map(|n| n.to_string()).collect(),
            edges: g.edges.clone(),
            symbols: g.symbols.clone(),
            marks: g.marks,
        }
    }
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
        if d.edges.len() != n || d.marks.len() != n {
            return Err(format!(
                "graph `{}`: {n} nodes but {} edge lists and {} marks",
                d.name,
                d.edges.len(),
                d.marks.len()
            ));
        }
        if d.marks.iter().any(|&m| m as usize >= d.symbols.len()) {
            return Err(format!("graph `{}`: a mark outside its symbols", d.name));
        }
        for (a, ns) in d.edges.iter().enumerate() {
            for &b in ns {
                if b as usize >= n {
                    return Err(format!("graph `{}`: an edge to no node", d.name));
                }
                g.connect(a, b as usize);
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
        marked.connect(0, 1);
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
        let bad = text.replace("[0,1,0]", "[0,5,0]");
        assert!(serde_json::from_str::<Graph>(&bad).is_err());
        let bad = text.replace("[1,2],", "[1,9],");
        assert!(serde_json::from_str::<Graph>(&bad).is_err());
    }
}
