//! Rhai face of `primitives::graph`: nodes by name, marks as one-character symbols, edges by
//! number with string labels at their ends, node and edge state as integers by key.

use super::{budget, fail, replace_or_push, string_list, strings, Fallible, G};
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

    /// Pays for the name of a node-state key the graph does not hold yet.
    fn name_node_key(&self, key: &str, what: &str) -> Fallible<()> {
        match self.with(|g| g.node_key(key).is_none()) {
            true => budget::text(key, what),
            false => Ok(()),
        }
    }

    /// Checks an edge number a script passed.
    fn edge(&self, e: INT) -> Fallible<usize> {
        let count = self.with(|g| g.edges.len());
        match usize::try_from(e) {
            Ok(e) if e < count => Ok(e),
            _ => fail(format!(
                "no edge {e} in graph `{}` (its edges are 0 to {})",
                self.with(|g| g.name.clone()),
                count as INT - 1
            )),
        }
    }
}

fn numbers(edges: impl IntoIterator<Item = usize>) -> Array {
    edges.into_iter().map(|e| Dynamic::from(e as INT)).collect()
}

/// A node or edge value (`what`) as the state keeps it.
fn small_as(v: INT, what: &str) -> Fallible<i32> {
    i32::try_from(v).or_else(|_| {
        fail(format!(
            "{what} {v} is out of range ({} to {})",
            i32::MIN,
            i32::MAX
        ))
    })
}

/// An edge value as the state keeps it.
fn small(v: INT) -> Fallible<i32> {
    small_as(v, "edge value")
}

/// The values that block passage, from a script's array.
fn blocking(values: &Array) -> Fallible<Vec<i32>> {
    values
        .iter()
        .map(|v| match v.as_int() {
            Ok(v) => small(v),
            Err(t) => fail(format!("blocking values must be integers, found a `{t}`")),
        })
        .collect()
}

fn add_graph(g: &mut G, graph: Graph) -> GraphRef {
    let idx = g.write(|s| {
        let at = s.graph_index(&graph.name);
        replace_or_push(s.graphs_mut(), at, graph)
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
            |r: &mut GraphRef, a: &str, b: &str| -> Fallible<Dynamic> {
                let (a, b) = (r.node(a)?, r.node(b)?);
                let e =
                    r.g.write(|s| s.graphs_mut()[r.idx].connect(a, b))
                        .or_else(fail)?;
                Ok(e.map_or(Dynamic::UNIT, |e| Dynamic::from(e as INT)))
            },
        )
        .register_fn(
            "connect",
            |r: &mut GraphRef, a: &str, b: &str, at_a: &str, at_b: &str| -> Fallible<INT> {
                let (a, b) = (r.node(a)?, r.node(b)?);
                budget::text(at_a, "connect")?;
                budget::text(at_b, "connect")?;
                r.g.write(|s| s.graphs_mut()[r.idx].link(a, b, at_a, at_b))
                    .map(|e| e as INT)
                    .or_else(fail)
            },
        )
        .register_fn("edges", |r: &mut GraphRef| {
            numbers(0..r.with(|g| g.edges.len()))
        })
        .register_fn("edges_of", |r: &mut GraphRef, n: &str| -> Fallible<Array> {
            let n = r.node(n)?;
            Ok(r.with(|g| numbers(g.edges_of(n))))
        })
        .register_fn("ends", |r: &mut GraphRef, e: INT| -> Fallible<Array> {
            let e = r.edge(e)?;
            let ends = r.with(|g| g.edges[e].ends.map(|n| n as usize));
            Ok(r.names(ends))
        })
        .register_fn(
            "other_end",
            |r: &mut GraphRef, e: INT, n: &str| -> Fallible<ImmutableString> {
                let (e, i) = (r.edge(e)?, r.node(n)?);
                match r.with(|g| g.other_end(e, i).map(|o| g.nodes[o].to_string())) {
                    Some(o) => Ok(o.into()),
                    None => fail(format!("edge {e} does not touch node `{n}`")),
                }
            },
        )
        .register_fn(
            "label",
            |r: &mut GraphRef, e: INT, n: &str| -> Fallible<ImmutableString> {
                let (e, i) = (r.edge(e)?, r.node(n)?);
                match r.with(|g| g.label(e, i).map(ImmutableString::from)) {
                    Some(l) => Ok(l),
                    None => fail(format!("edge {e} does not touch node `{n}`")),
                }
            },
        )
        .register_fn(
            "exits",
            |r: &mut GraphRef, n: &str, label: &str| -> Fallible<Array> {
                let n = r.node(n)?;
                Ok(r.with(|g| numbers(g.exits(n, label))))
            },
        )
        .register_fn(
            "edge_between",
            |r: &mut GraphRef, a: &str, b: &str| -> Fallible<Dynamic> {
                let (a, b) = (r.node(a)?, r.node(b)?);
                Ok(r.with(|g| g.edge_between(a, b))
                    .map_or(Dynamic::UNIT, |e| Dynamic::from(e as INT)))
            },
        )
        .register_fn("labels", |r: &mut GraphRef, n: &str| -> Fallible<Array> {
            let n = r.node(n)?;
            Ok(r.with(|g| strings(g.labels(n))))
        })
        .register_fn(
            "edge_value",
            |r: &mut GraphRef, e: INT, key: &str| -> Fallible<INT> {
                let e = r.edge(e)?;
                Ok(r.with(|g| g.edge_value(e, key)) as INT)
            },
        )
        .register_fn(
            "set_edge_value",
            |r: &mut GraphRef, e: INT, key: &str, v: INT| -> Fallible<()> {
                let (e, v) = (r.edge(e)?, small(v)?);
                if r.with(|g| g.edge_key(key).is_none()) {
                    budget::text(key, "set_edge_value")?;
                }
                r.g.write(|s| s.graphs_mut()[r.idx].set_edge_value(e, key, v))
                    .or_else(fail)
            },
        )
        .register_fn(
            "edges_where",
            |r: &mut GraphRef, key: &str, v: INT| -> Fallible<Array> {
                let v = small(v)?;
                Ok(r.with(|g| numbers(g.edges_where(key, v))))
            },
        )
        .register_fn(
            "node_value",
            |r: &mut GraphRef, n: &str, key: &str| -> Fallible<INT> {
                let n = r.node(n)?;
                Ok(r.with(|g| g.node_value(n, key)) as INT)
            },
        )
        .register_fn(
            "set_node_value",
            |r: &mut GraphRef, n: &str, key: &str, v: INT| -> Fallible<()> {
                let (n, v) = (r.node(n)?, small_as(v, "node value")?);
                r.name_node_key(key, "set_node_value")?;
                r.g.write(|s| s.graphs_mut()[r.idx].set_node_value(n, key, v))
                    .or_else(fail)
            },
        )
        .register_fn(
            "add_node_value",
            |r: &mut GraphRef, n: &str, key: &str, d: INT| -> Fallible<INT> {
                let n = r.node(n)?;
                r.name_node_key(key, "add_node_value")?;
                r.g.write(|s| s.graphs_mut()[r.idx].add_node_value(n, key, d))
                    .map(|v| v as INT)
                    .or_else(fail)
            },
        )
        .register_fn(
            "nodes_where",
            |r: &mut GraphRef, key: &str, v: INT| -> Fallible<Array> {
                let v = small_as(v, "node value")?;
                let hits = r.with(|g| g.nodes_where(key, v));
                Ok(r.names(hits))
            },
        )
        .register_fn(
            "open_neighbours",
            |r: &mut GraphRef, n: &str, key: &str, blocked: Array| -> Fallible<Array> {
                let (n, blocked) = (r.node(n)?, blocking(&blocked)?);
                let hits = r.with(|g| g.open_neighbours(n, key, &blocked));
                Ok(r.names(hits))
            },
        )
        .register_fn(
            "open_distance",
            |r: &mut GraphRef,
             a: &str,
             b: &str,
             through: &str,
             key: &str,
             blocked: Array|
             -> Fallible<INT> {
                let (a, b, m) = (r.node(a)?, r.node(b)?, r.mask(through)?);
                let blocked = blocking(&blocked)?;
                Ok(r.with(|g| g.open_distance(a, b, m, key, &blocked))
                    .map_or(-1, |d| d as INT))
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
