//! Rhai face of `primitives::graph`: nodes by name, marks as one-character symbols.

use super::{budget, fail, string_list, strings, Fallible, G};
use crate::primitives::graph::Graph;
use rhai::{Array, Dynamic, Engine, ImmutableString, INT};

#[derive(Clone)]
pub struct GraphRef {
    g: G,
    idx: usize,
}

impl GraphRef {
    fn with<R>(&self, f: impl FnOnce(&Graph) -> R) -> R {
        self.g.read(|s| f(&s.graphs[self.idx]))
    }

    fn node(&self, name: &str) -> Fallible<usize> {
        self.with(|g| g.index(name))
            .map_or_else(|| fail(format!("no node `{name}` in this graph")), Ok)
    }

    fn mask(&self, set: &str) -> Fallible<u64> {
        self.with(|g| g.mask(set)).or_else(fail)
    }

    fn names(&self, nodes: impl IntoIterator<Item = usize>) -> Array {
        self.with(|g| strings(nodes.into_iter().map(|i| &*g.nodes[i])))
    }
}

fn add_graph(g: &mut G, graph: Graph) -> GraphRef {
    let idx = g.write(|s| match s.graph_index(&graph.name) {
        Some(i) => {
            s.graphs_mut()[i] = graph;
            i
        }
        None => {
            s.graphs_mut().push(graph);
            s.graphs.len() - 1
        }
    });
    GraphRef { g: g.clone(), idx }
}

pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<GraphRef>("Graph")
        .register_fn(
            "new_graph",
            |g: &mut G, name: &str, symbols: &str| -> Fallible<GraphRef> {
                budget::text(name, "new_graph")?;
                let graph = Graph::new(name, symbols).or_else(fail)?;
                Ok(add_graph(g, graph))
            },
        )
        .register_fn(
            "new_ring",
            |g: &mut G, name: &str, symbols: &str, nodes: Array| -> Fallible<GraphRef> {
                budget::text(name, "new_ring")?;
                let nodes = string_list(&nodes, "ring nodes")?;
                for n in &nodes {
                    budget::text(n, "new_ring")?;
                }
                let graph = Graph::ring(name, symbols, &nodes).or_else(fail)?;
                Ok(add_graph(g, graph))
            },
        )
        .register_fn("graph", |g: &mut G, name: &str| -> Fallible<GraphRef> {
            match g.read(|s| s.graph_index(name)) {
                Some(idx) => Ok(GraphRef { g: g.clone(), idx }),
                None => fail(format!("no graph `{name}`")),
            }
        })
        .register_fn("add_node", |r: &mut GraphRef, name: &str| -> Fallible<()> {
            budget::text(name, "add_node")?;
            r.g.write(|s| s.graphs_mut()[r.idx].add_node(name))
                .map(|_| ())
                .or_else(fail)
        })
        .register_fn(
            "connect",
            |r: &mut GraphRef, a: &str, b: &str| -> Fallible<()> {
                let (a, b) = (r.node(a)?, r.node(b)?);
                r.g.write(|s| s.graphs_mut()[r.idx].connect(a, b));
                Ok(())
            },
        )
        .register_fn("nodes", |r: &mut GraphRef| {
            r.with(|g| strings(g.nodes.iter().map(|n| &**n)))
        })
        .register_fn(
            "nodes_with",
            |r: &mut GraphRef, set: &str| -> Fallible<Array> {
                let m = r.mask(set)?;
                Ok(r.with(|g| strings(g.nodes_with(m).map(|i| &*g.nodes[i]))))
            },
        )
        .register_fn(
            "neighbours",
            |r: &mut GraphRef, n: &str| -> Fallible<Array> {
                let i = r.node(n)?;
                Ok(r.with(|g| strings(g.neighbours(i).map(|j| &*g.nodes[j]))))
            },
        )
        .register_fn(
            "mark",
            |r: &mut GraphRef, n: &str| -> Fallible<ImmutableString> {
                let i = r.node(n)?;
                Ok(r.with(|g| g.symbols[g.marks[i] as usize].to_string().into()))
            },
        )
        .register_fn(
            "set_mark",
            |r: &mut GraphRef, n: &str, sym: &str| -> Fallible<()> {
                let i = r.node(n)?;
                let Some(v) = sym
                    .chars()
                    .next()
                    .and_then(|c| r.with(|g| g.symbols.iter().position(|&s| s == c)))
                else {
                    return fail(format!("`{sym}` is not a mark of this graph"));
                };
                r.g.write(|s| s.graphs_mut()[r.idx].marks[i] = v as u8);
                Ok(())
            },
        )
        .register_fn(
            "reachable",
            |r: &mut GraphRef, n: &str, through: &str| -> Fallible<Array> {
                let (i, m) = (r.node(n)?, r.mask(through)?);
                let hits = r.with(|g| g.reachable(i, m));
                Ok(r.names(hits))
            },
        )
        .register_fn(
            "components",
            |r: &mut GraphRef, of: &str| -> Fallible<Array> {
                let m = r.mask(of)?;
                let groups = r.with(|g| g.components(m));
                Ok(groups
                    .into_iter()
                    .map(|grp| Dynamic::from(r.names(grp)))
                    .collect())
            },
        )
        .register_fn(
            "distance",
            |r: &mut GraphRef, a: &str, b: &str, through: &str| -> Fallible<INT> {
                let (a, b, m) = (r.node(a)?, r.node(b)?, r.mask(through)?);
                Ok(r.with(|g| g.distance(a, b, m)).map_or(-1, |d| d as INT))
            },
        );
}
