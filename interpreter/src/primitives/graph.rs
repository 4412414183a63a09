//! General graphs (rooms and corridors, a ring of cards): named nodes holding one symbol each,
//! with native neighbour, reachability, component and distance queries.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The most nodes a graph holds: finding a node by name is a scan, and every query may walk
/// them all, so the count is what bounds the cost of one call.
pub const MAX_NODES: usize = 4096;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Graph {
    pub name: String,
    pub nodes: Vec<String>,
    /// Sorted neighbour lists, one per node.
    pub edges: Vec<Vec<u32>>,
    /// The alphabet of node marks; index 0 is the default mark.
    pub symbols: Vec<char>,
    pub marks: Vec<u8>,
}

impl Graph {
    pub fn new(name: &str, symbols: &str) -> Result<Graph, String> {
        let symbols: Vec<char> = symbols.chars().collect();
        if symbols.is_empty() || symbols.len() > 64 {
            return Err("a graph needs 1 to 64 symbols".into());
        }
        Ok(Graph {
            name: name.into(),
            nodes: vec![],
            edges: vec![],
            symbols,
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
        self.nodes.push(name.into());
        self.edges.push(vec![]);
        self.marks.push(0);
        Ok(self.nodes.len() - 1)
    }

    /// An undirected edge; connecting twice (or a node to itself) changes nothing.
    pub fn connect(&mut self, a: usize, b: usize) {
        if a == b {
            return;
        }
        for (x, y) in [(a, b), (b, a)] {
            if let Err(pos) = self.edges[x].binary_search(&(y as u32)) {
                self.edges[x].insert(pos, y as u32);
            }
        }
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n == name)
    }

    pub fn mask(&self, set: &str) -> Result<u64, String> {
        set.chars().try_fold(0u64, |m, c| {
            match self.symbols.iter().position(|&s| s == c) {
                Some(i) => Ok(m | 1 << i),
                None => Err(format!("`{c}` is not a mark of graph `{}`", self.name)),
            }
        })
    }

    fn matches(&self, i: usize, mask: u64) -> bool {
        mask & (1 << self.marks[i]) != 0
    }

    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.edges[i].iter().map(|&n| n as usize)
    }

    /// Nodes reachable from `start` moving only through nodes marked with `through`
    /// (`start` included), in index order.
    pub fn reachable(&self, start: usize, through: u64) -> Vec<usize> {
        let mut seen = vec![false; self.nodes.len()];
        seen[start] = true;
        let mut queue = VecDeque::from([start]);
        while let Some(i) = queue.pop_front() {
            for n in self.neighbours(i) {
                if !seen[n] && self.matches(n, through) {
                    seen[n] = true;
                    queue.push_back(n);
                }
            }
        }
        (0..self.nodes.len()).filter(|&i| seen[i]).collect()
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
        let mut dist = vec![usize::MAX; self.nodes.len()];
        dist[a] = 0;
        let mut queue = VecDeque::from([a]);
        while let Some(i) = queue.pop_front() {
            if i == b {
                return Some(dist[i]);
            }
            for n in self.neighbours(i) {
                if dist[n] == usize::MAX && (n == b || self.matches(n, through)) {
                    dist[n] = dist[i] + 1;
                    queue.push_back(n);
                }
            }
        }
        None
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
}
