//! Typed actions: what each argument of a listed action names (a cell, a card, a node...), read
//! against the game's declared shapes (`shape.rs`), or by a best reading of its words when it
//! declares none. What a card argument says comes only from what the reading seat may see.

use crate::primitives::zone::CardId;
use crate::shape::{Kind, Part, Shape, Slot};
use crate::state::State;
use rhai::{Array, Dynamic, Map};
use serde::Serialize;

/// One action as a client may show it: its text, its verb and each argument typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActionInfo {
    /// The action's notation, as listed (what `do` takes).
    pub text: String,
    /// Its first word, when that is a word and not an argument (`move`); else "" (`c3`).
    pub verb: String,
    pub args: Vec<ArgInfo>,
    /// The declared shape it matched; None when read by the best reading of its words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
}

/// One argument: its kind, its text, and what it resolves to (fields by kind; a card the
/// seat may not see resolves to nothing).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArgInfo {
    pub kind: Kind,
    pub text: String,
    /// Cell: its grid, column and row (from 0, row 0 at the bottom); column: its grid and x.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grid: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<i64>,
    /// Cells: the second cell's column and row (`x`, `y` are the first's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_x: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_y: Option<i64>,
    /// Node or edge: its graph; a node's name; an edge's index.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edge: Option<i64>,
    /// Card: its id in the catalogue, its name and the zone it lies in, as the seat sees it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// Seat: its index (from 0); a card's zone's owner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<i64>,
    /// Number: its value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<i64>,
}

impl ArgInfo {
    fn new(kind: Kind, text: &str) -> ArgInfo {
        ArgInfo {
            kind,
            text: text.to_string(),
            grid: None,
            x: None,
            y: None,
            to_x: None,
            to_y: None,
            graph: None,
            node: None,
            edge: None,
            card: None,
            name: None,
            zone: None,
            seat: None,
            number: None,
        }
    }

    /// The argument as a script reads it: `#{kind, text, ...}` with the resolved fields.
    fn to_map(&self) -> Map {
        let mut m = Map::new();
        m.insert("kind".into(), self.kind.name().into());
        m.insert("text".into(), self.text.as_str().into());
        let texts = [
            ("grid", &self.grid),
            ("graph", &self.graph),
            ("node", &self.node),
            ("name", &self.name),
            ("zone", &self.zone),
        ];
        for (key, value) in texts {
            if let Some(v) = value {
                m.insert(key.into(), v.as_str().into());
            }
        }
        let numbers = [
            ("x", self.x),
            ("y", self.y),
            ("to_x", self.to_x),
            ("to_y", self.to_y),
            ("edge", self.edge),
            ("card", self.card),
            ("seat", self.seat),
            ("number", self.number),
        ];
        for (key, value) in numbers {
            if let Some(v) = value {
                m.insert(key.into(), v.into());
            }
        }
        m
    }
}

impl ActionInfo {
    /// The action as a script's `apply` or answer function receives it:
    /// `#{verb, text, shape, args: [#{kind, text, ...}]}` (`shape` the declared shape it fits,
    /// "" for none: a script may `switch` on it).
    pub fn to_dynamic(&self) -> Dynamic {
        let mut m = Map::new();
        m.insert("verb".into(), self.verb.as_str().into());
        m.insert("text".into(), self.text.as_str().into());
        let shape = self.shape.as_deref().unwrap_or_default();
        m.insert("shape".into(), shape.into());
        let args: Array = self.args.iter().map(|a| a.to_map().into()).collect();
        m.insert("args".into(), args.into());
        m.into()
    }
}

/// Reads actions for one seat in one state.
#[derive(Clone, Copy)]
pub struct Reader<'a> {
    state: &'a State,
    /// The seat whose actions these are: a card resolves only if it lies where this seat sees
    /// it. With `state` already the seat's view, hidden cards are blank there too.
    seat: Option<usize>,
    /// Whether card arguments are looked up at all (see `read_public`).
    cards: bool,
}

impl<'a> Reader<'a> {
    pub fn new(state: &'a State, seat: Option<usize>) -> Reader<'a> {
        Reader {
            state,
            seat,
            cards: true,
        }
    }

    /// `text` read against `shapes` when the shape it fits names no card: cells, columns,
    /// nodes, edges, seats and numbers are public in every view, so this reads the state
    /// itself, looks up no card, and needs no view. None when a card slot or the best reading
    /// (which looks for cards) would be needed.
    pub fn read_public(&self, shapes: &[Shape], text: &str) -> Option<ActionInfo> {
        let public = Reader {
            cards: false,
            ..*self
        };
        let tokens: Vec<&str> = text.split(' ').collect();
        let (shape, info) = shapes
            .iter()
            .find_map(|s| public.fit(s, &tokens, text).map(|info| (s, info)))?;
        (!shape.slots().any(|s| s.kind.names_card())).then_some(info)
    }

    /// `text` read against `shapes` (the first that fits), else by its words alone.
    pub fn read(&self, shapes: &[Shape], text: &str) -> ActionInfo {
        let tokens: Vec<&str> = text.split(' ').collect();
        shapes
            .iter()
            .find_map(|s| self.fit(s, &tokens, text))
            .unwrap_or_else(|| self.guess(&tokens, text))
    }

    /// `tokens` read as `shape`, if they fit it.
    fn fit(&self, shape: &Shape, tokens: &[&str], text: &str) -> Option<ActionInfo> {
        let many = matches!(
            shape.parts.last(),
            Some(Part::Slot(Slot { many: true, .. }))
        );
        let fits = match many {
            true => tokens.len() >= shape.parts.len(),
            false => tokens.len() == shape.parts.len(),
        };
        if !fits {
            return None;
        }
        let mut args = Vec::with_capacity(tokens.len());
        for (i, token) in tokens.iter().enumerate() {
            match &shape.parts[i.min(shape.parts.len() - 1)] {
                Part::Word(w) if w == token => {}
                Part::Word(_) => return None,
                Part::Slot(slot) => args.push(self.slot(slot, token)?),
            }
        }
        Some(ActionInfo {
            text: text.to_string(),
            verb: shape.verb().unwrap_or_default().to_string(),
            args,
            shape: Some(shape.text.clone()),
        })
    }

    /// `token` as `slot`'s kind, if it is one.
    fn slot(&self, slot: &Slot, token: &str) -> Option<ArgInfo> {
        let of = slot.of.as_deref();
        match slot.kind {
            Kind::Cell => self.cell(of, token),
            Kind::Column => self.column(of, token),
            Kind::Cells => self.cells(of, token),
            Kind::Node => self.node(of, slot.key.as_deref(), token),
            Kind::Edge => self.edge(of, slot.key.as_deref(), token),
            Kind::Seat => self.seat(token),
            Kind::Number => number(token),
            Kind::Card => Some(self.card(token)),
            Kind::Piece => self.piece(token),
            Kind::Word => Some(ArgInfo::new(Kind::Word, token)),
        }
    }

    /// The best reading of words no shape fits: the first word is the verb unless it reads as
    /// an argument; each argument is a seat, a cell of the only grid, a node of the only graph,
    /// a number, a card the seat sees (by name, or as a piece, `adult-42`), or else a word.
    fn guess(&self, tokens: &[&str], text: &str) -> ActionInfo {
        let typed = |t: &str| {
            self.seat(t)
                .or_else(|| self.cell(None, t))
                .or_else(|| self.node(None, None, t))
                .or_else(|| number(t))
        };
        let first = tokens[0];
        let (verb, rest) = match typed(first) {
            Some(_) => ("", tokens),
            None => (first, &tokens[1..]),
        };
        let args = rest
            .iter()
            .map(|t| {
                typed(t).unwrap_or_else(|| {
                    let card = self.card(t);
                    let piece = || self.piece(t).filter(|p| p.card.is_some());
                    match card.card {
                        Some(_) => card,
                        None => piece().unwrap_or_else(|| ArgInfo::new(Kind::Word, t)),
                    }
                })
            })
            .collect();
        ActionInfo {
            text: text.to_string(),
            verb: verb.to_string(),
            args,
            shape: None,
        }
    }

    fn grid(&self, name: Option<&str>) -> Option<&crate::primitives::grid::Grid> {
        let grids = &self.state.grids;
        match name {
            Some(name) => grids.iter().find(|g| &*g.name == name),
            None if grids.len() == 1 => grids.first(),
            None => None,
        }
    }

    fn column(&self, grid: Option<&str>, token: &str) -> Option<ArgInfo> {
        let g = self.grid(grid)?;
        let &[letter] = token.as_bytes() else {
            return None;
        };
        let x = letter.to_ascii_lowercase().checked_sub(b'a')? as usize;
        if !letter.is_ascii_alphabetic() || x >= g.width {
            return None;
        }
        let mut arg = ArgInfo::new(Kind::Column, token);
        arg.grid = Some(g.name.to_string());
        arg.x = Some(x as i64);
        Some(arg)
    }

    fn cells(&self, grid: Option<&str>, token: &str) -> Option<ArgInfo> {
        let g = self.grid(grid)?;
        let (from, to) = g.split_move(token)?;
        let ((x, y), (to_x, to_y)) = (g.xy(from), g.xy(to));
        let mut arg = ArgInfo::new(Kind::Cells, token);
        arg.grid = Some(g.name.to_string());
        (arg.x, arg.y) = (Some(x.into()), Some(y.into()));
        (arg.to_x, arg.to_y) = (Some(to_x.into()), Some(to_y.into()));
        Some(arg)
    }

    fn cell(&self, grid: Option<&str>, token: &str) -> Option<ArgInfo> {
        let g = self.grid(grid)?;
        let i = g.cell_index(token)?;
        let (x, y) = g.xy(i);
        let mut arg = ArgInfo::new(Kind::Cell, token);
        arg.grid = Some(g.name.to_string());
        (arg.x, arg.y) = (Some(x.into()), Some(y.into()));
        Some(arg)
    }

    fn graph(&self, name: Option<&str>) -> Option<&crate::primitives::graph::Graph> {
        let graphs = &self.state.graphs;
        match name {
            Some(name) => graphs.iter().find(|g| &*g.name == name),
            None if graphs.len() == 1 => graphs.first(),
            None => None,
        }
    }

    fn node(&self, graph: Option<&str>, key: Option<&str>, token: &str) -> Option<ArgInfo> {
        let g = self.graph(graph)?;
        let n = match key {
            Some(key) => {
                let value: i32 = token.parse().ok()?;
                g.node_key(key)?;
                *g.nodes_where(key, value).first()?
            }
            None => g.index(token)?,
        };
        let mut arg = ArgInfo::new(Kind::Node, token);
        arg.graph = Some(g.name.to_string());
        arg.node = Some(g.nodes[n].to_string());
        Some(arg)
    }

    fn edge(&self, graph: Option<&str>, key: Option<&str>, token: &str) -> Option<ArgInfo> {
        let g = self.graph(graph)?;
        let value: i32 = token.parse().ok()?;
        let e = match key {
            Some(key) => {
                g.edge_key(key)?;
                (0..g.edges.len()).find(|&e| g.edge_value(e, key) == value)?
            }
            None => usize::try_from(value).ok().filter(|&e| e < g.edges.len())?,
        };
        let mut arg = ArgInfo::new(Kind::Edge, token);
        arg.graph = Some(g.name.to_string());
        arg.edge = Some(e as i64);
        Some(arg)
    }

    fn seat(&self, token: &str) -> Option<ArgInfo> {
        let i = self.state.seat_index(token)?;
        let mut arg = ArgInfo::new(Kind::Seat, token);
        arg.seat = Some(i as i64);
        Some(arg)
    }

    /// A card named `token`: the first, zone by zone, that lies where the seat sees it (in a
    /// zone it may see, or shown to it). Unresolved when it sees none of that name.
    fn card(&self, token: &str) -> ArgInfo {
        let mut arg = ArgInfo::new(Kind::Card, token);
        if !self.cards {
            return arg;
        }
        let st = self.state;
        // Names first (one look at each card), then whether the seat sees the one named: in
        // a zone it sees, or shown to it.
        for z in st.zones.iter() {
            let visible = z.visible_to(self.seat);
            let found = z.cards.iter().find(|&&c| {
                c != CardId::HIDDEN
                    && st.cards.get(c.0 as usize).is_some_and(|d| {
                        d.name == token && (visible || d.known_to.includes(self.seat))
                    })
            });
            if let Some(c) = found {
                arg.card = Some(c.0 as i64);
                arg.name = Some(token.to_string());
                arg.zone = Some(z.name.to_string());
                arg.seat = z.owner.map(|o| o as i64);
                break;
            }
        }
        arg
    }

    /// A piece `<name>-<id>`: card `id`, when it is named `name` and lies where the seat sees
    /// it (else unresolved, as a hidden card is). None when the token is not written so.
    fn piece(&self, token: &str) -> Option<ArgInfo> {
        let (name, id) = token.rsplit_once('-')?;
        let letter = name.starts_with(|c: char| c.is_ascii_alphabetic());
        if !letter || id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut arg = ArgInfo::new(Kind::Piece, token);
        let Ok(id) = id.parse::<u16>() else {
            return Some(arg);
        };
        if !self.cards || id == CardId::HIDDEN.0 {
            return Some(arg);
        }
        let st = self.state;
        for z in st.zones.iter() {
            if !z.cards.contains(&CardId(id)) {
                continue;
            }
            let def = st.cards.get(id as usize).filter(|d| d.name == name);
            if let Some(d) =
                def.filter(|d| z.visible_to(self.seat) || d.known_to.includes(self.seat))
            {
                arg.card = Some(id.into());
                arg.name = Some(d.name.to_string());
                arg.zone = Some(z.name.to_string());
                arg.seat = z.owner.map(|o| o as i64);
            }
            break;
        }
        Some(arg)
    }
}

fn number(token: &str) -> Option<ArgInfo> {
    let n: i64 = token.parse().ok()?;
    let mut arg = ArgInfo::new(Kind::Number, token);
    arg.number = Some(n);
    Some(arg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::primitives::grid::Grid;
    use crate::shape;

    fn state() -> State {
        let mut s = State::new(vec!["red".into(), "blue".into()], Default::default(), 1);
        s.grids_mut().push(Grid::new("board", 3, 3, ".x").unwrap());
        s
    }

    #[test]
    fn a_shape_types_each_slot_and_the_first_that_fits_wins() {
        let s = state();
        let shapes = [
            shape::parse("give {number} {seat}", String::new()).unwrap(),
            shape::parse("give {word...}", String::new()).unwrap(),
        ];
        let r = Reader::new(&s, Some(0));
        let a = r.read(&shapes, "give 3 blue");
        assert_eq!((a.verb.as_str(), a.args.len()), ("give", 2));
        assert_eq!((a.args[0].number, a.args[1].seat), (Some(3), Some(1)));
        let b = r.read(&shapes, "give x y z");
        assert_eq!(b.shape.as_deref(), Some("give {word...}"));
        assert_eq!(b.args.len(), 3);
    }

    #[test]
    fn the_best_reading_finds_cells_seats_and_numbers() {
        let s = state();
        let r = Reader::new(&s, Some(0));
        let a = r.read(&[], "c2");
        assert_eq!((a.verb.as_str(), a.args[0].kind), ("", Kind::Cell));
        assert_eq!((a.args[0].x, a.args[0].y), (Some(2), Some(1)));
        let b = r.read(&[], "pass 4 red d9");
        assert_eq!(b.verb, "pass");
        let kinds: Vec<Kind> = b.args.iter().map(|a| a.kind).collect();
        assert_eq!(kinds, [Kind::Number, Kind::Seat, Kind::Word]);
        assert!(b.shape.is_none());
    }
}
