//! Rhai face of `primitives::grid`. Cells are named (`c3`), contents are one-character
//! symbols, and sets of symbols are strings (`"Bb"`), so queries cross the boundary cheaply.

use super::{budget, fail, replace_or_push, strings, Fallible, G};
use crate::primitives::grid::{Edge, Grid, Shape};
use crate::primitives::moves::Pattern;
use rhai::{Array, Dynamic, Engine, ImmutableString, INT};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

#[derive(Clone)]
pub struct GridRef {
    g: G,
    idx: usize,
}

/// Cell names of one grid size, in index order.
type NameTable = Rc<Vec<ImmutableString>>;

thread_local! {
    /// Cell names per grid size, built once: legal-action lists hand them out without formatting.
    static NAMES: RefCell<HashMap<(usize, usize), NameTable>> = RefCell::new(HashMap::new());
}

/// Grid sizes whose names stay cached: a game uses one or two; a script making grids of every
/// size must not grow the cache without end.
const CACHED_SIZES: usize = 16;

fn names(grid: &Grid) -> NameTable {
    NAMES.with(|n| {
        let mut n = n.borrow_mut();
        if n.len() >= CACHED_SIZES && !n.contains_key(&(grid.width, grid.height)) {
            n.clear();
        }
        n.entry((grid.width, grid.height))
            .or_insert_with(|| Rc::new((0..grid.len()).map(|i| grid.cell_name(i).into()).collect()))
            .clone()
    })
}

/// One-character strings for symbols, made once per thread: `get` runs every step.
fn symbol_string(c: char) -> ImmutableString {
    thread_local! {
        static ASCII: Vec<ImmutableString> = (0u8..128).map(|b| (b as char).to_string().into()).collect();
    }
    if c.is_ascii() {
        ASCII.with(|t| t[c as usize].clone())
    } else {
        c.to_string().into()
    }
}

impl GridRef {
    fn named(g: &G, name: &str) -> Fallible<GridRef> {
        match g.read(|s| s.grid_index(name)) {
            Some(idx) => Ok(GridRef { g: g.clone(), idx }),
            None => fail(format!("no grid `{name}`")),
        }
    }

    fn with<R>(&self, f: impl FnOnce(&Grid) -> R) -> R {
        self.g.read(|s| f(&s.grids[self.idx]))
    }

    fn cell(&self, name: &str) -> Fallible<usize> {
        match self.with(|g| g.cell_index(name)) {
            Some(i) => Ok(i),
            None => {
                let (w, h) = self.with(|g| (g.width, g.height));
                fail(format!("`{name}` is not a cell of this {w}x{h} grid"))
            }
        }
    }

    fn mask(&self, set: &str) -> Fallible<u64> {
        self.with(|g| g.mask(set)).or_else(fail)
    }

    fn name_list(&self, cells: impl IntoIterator<Item = usize>) -> Array {
        let table = self.with(names);
        cells
            .into_iter()
            .map(|i| Dynamic::from(table[i].clone()))
            .collect()
    }

    fn get(&mut self, cell: &str) -> Fallible<ImmutableString> {
        let i = self.cell(cell)?;
        Ok(self.with(|g| symbol_string(g.symbol_at(i))))
    }

    /// Like `tr`: the cell's symbol `from[i]` becomes `to[i]`; a symbol not in `from` is an
    /// error. One call for a rule such as "an empty cell gets a piece, an enemy piece changes
    /// sides" (`replace(c, ".R", "Bb")`), which would otherwise read, compare and write.
    fn replace(&mut self, cell: &str, from: &str, to: &str) -> Fallible<()> {
        let i = self.cell(cell)?;
        let now = self.with(|g| g.symbol_at(i));
        let (Some(k), true) = (
            from.chars().position(|c| c == now),
            from.chars().count() == to.chars().count(),
        ) else {
            if from.chars().count() != to.chars().count() {
                return fail(format!(
                    "replace needs as many symbols in `{to}` as in `{from}`"
                ));
            }
            return fail(format!("cell {cell} holds `{now}`, none of `{from}`"));
        };
        self.put(i, to.chars().nth(k).unwrap_or(now))
    }

    fn set(&mut self, cell: &str, symbol: &str) -> Fallible<()> {
        let i = self.cell(cell)?;
        self.put_text(i, symbol)
    }

    /// Writes `symbol`, which must be one character, into cell `i`.
    fn put_text(&self, i: usize, symbol: &str) -> Fallible<()> {
        let mut chars = symbol.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return fail(format!("a cell holds one symbol, not `{symbol}`"));
        };
        self.put(i, c)
    }

    /// Writes symbol `c` into cell `i`, if it is one of the grid's symbols.
    fn put(&self, i: usize, c: char) -> Fallible<()> {
        let Some(v) = self.with(|g| g.symbol_index(c)) else {
            return fail(format!(
                "`{c}` is not a symbol of this grid ({})",
                self.with(|g| g.symbol_list())
            ));
        };
        self.g.write(|s| s.grids_mut()[self.idx].cells[i] = v);
        Ok(())
    }

    fn reach(&mut self, from: &str, through: &str, into: &str, diagonal: bool) -> Fallible<Array> {
        let (f, t, i) = (self.mask(from)?, self.mask(through)?, self.mask(into)?);
        let cells = self.with(|g| g.reach(f, t, i, diagonal));
        Ok(self.name_list(cells))
    }

    fn neighbours(&mut self, cell: &str, diagonal: bool) -> Fallible<Array> {
        let i = self.cell(cell)?;
        let cells: Vec<usize> = self.with(|g| g.neighbours(i, diagonal).collect());
        Ok(self.name_list(cells))
    }

    fn cells_with(&mut self, set: &str) -> Fallible<Array> {
        let m = self.mask(set)?;
        let cells = self.with(|g| g.cells_matching(m));
        Ok(self.name_list(cells))
    }

    fn count(&mut self, set: &str) -> Fallible<INT> {
        let m = self.mask(set)?;
        Ok(self.with(|g| g.cells_matching(m).len() as INT))
    }

    fn line(&mut self, column: Option<INT>, row: Option<INT>) -> Fallible<Array> {
        let (w, h) = self.with(|g| (g.width as INT, g.height as INT));
        let cells: Vec<usize> = match (column, row) {
            (Some(x), _) if (0..w).contains(&x) => (0..h).map(|y| (y * w + x) as usize).collect(),
            (_, Some(y)) if (1..=h).contains(&y) => {
                (0..w).map(|x| ((y - 1) * w + x) as usize).collect()
            }
            _ => return fail("no such column or row"),
        };
        Ok(self.name_list(cells))
    }

    fn components(&mut self, of: &str, diagonal: bool) -> Fallible<Array> {
        let m = self.mask(of)?;
        let groups = self.with(|g| g.components(m, diagonal));
        Ok(groups
            .into_iter()
            .map(|grp| Dynamic::from(self.name_list(grp)))
            .collect())
    }

    fn distance(&mut self, a: &str, b: &str, through: &str, diagonal: bool) -> Fallible<INT> {
        let (a, b, t) = (self.cell(a)?, self.cell(b)?, self.mask(through)?);
        Ok(self
            .with(|g| g.distance(a, b, t, diagonal))
            .map_or(-1, |d| d as INT))
    }
}

/// Board geometry and piece movement: coordinates, directions, lines, connections, moves.
impl GridRef {
    fn direction(&self, name: &str) -> Fallible<(i32, i32)> {
        self.with(|g| g.shape.direction(name)).or_else(fail)
    }

    fn name_of(&self, i: Option<usize>) -> Dynamic {
        i.map_or(Dynamic::UNIT, |i| {
            Dynamic::from(self.with(names)[i].clone())
        })
    }

    fn cell_at(&mut self, x: INT, y: INT) -> Dynamic {
        let at = self.with(|g| g.at(small(x), small(y).saturating_sub(1)));
        self.name_of(at)
    }

    fn coordinate(&mut self, cell: &str, row: bool) -> Fallible<INT> {
        let i = self.cell(cell)?;
        let (x, y) = self.with(|g| g.xy(i));
        Ok(if row { y as INT + 1 } else { x as INT })
    }

    fn step(&mut self, cell: &str, dir: &str, n: INT) -> Fallible<Dynamic> {
        let (i, d) = (self.cell(cell)?, self.direction(dir)?);
        let to = self.with(|g| g.step(i, d, small(n)));
        Ok(self.name_of(to))
    }

    /// The mask of the symbol in `cell`: lines and groups are of the cell's own symbol.
    fn own_symbol(&self, i: usize) -> u64 {
        self.with(|g| 1u64 << g.cells[i])
    }

    fn run(&mut self, cell: &str, dir: &str) -> Fallible<INT> {
        let (i, d) = (self.cell(cell)?, self.direction(dir)?);
        let mask = self.own_symbol(i);
        Ok(self.with(|g| g.run(i, d, mask)) as INT)
    }

    fn longest_line(&mut self, cell: &str) -> Fallible<INT> {
        let i = self.cell(cell)?;
        let mask = self.own_symbol(i);
        Ok(self.with(|g| g.longest_line(i, mask)) as INT)
    }

    fn joins(&mut self, cell: &str, a: &str, b: &str, diagonal: bool) -> Fallible<bool> {
        let i = self.cell(cell)?;
        let (a, b) = (Edge::parse(a).or_else(fail)?, Edge::parse(b).or_else(fail)?);
        let mask = self.own_symbol(i);
        Ok(self.with(|g| g.joins(i, mask, a, b, diagonal)))
    }

    fn moves(&mut self, pieces: &str, pattern: &str) -> Fallible<Array> {
        let mask = self.mask(pieces)?;
        let table = self.with(names);
        let pattern = self.with(|g| Pattern::for_grid(g, pattern)).or_else(fail)?;
        let pieces = self.with(|g| g.cells_matching(mask));
        budget::charge(self.with(|g| pattern.cost(g, pieces.len())), "moves")?;
        let moves = self.with(|g| pattern.moves(g, &pieces));
        Ok(moves
            .into_iter()
            .map(|(from, to)| {
                let mut text = String::with_capacity(table[from].len() + table[to].len());
                text.push_str(&table[from]);
                text.push_str(&table[to]);
                Dynamic::from(ImmutableString::from(text))
            })
            .collect())
    }

    /// Column letters where a piece may be dropped (the top cell is empty).
    fn open_columns(&mut self) -> Array {
        let open: Vec<usize> = self.with(|g| g.open_columns().collect());
        open.into_iter()
            .map(|x| Dynamic::from(column_letter(x)))
            .collect()
    }

    /// Drops `symbol` into `column` (a letter); returns the cell where it rests.
    fn drop_piece(&mut self, column: &str, symbol: &str) -> Fallible<ImmutableString> {
        let width = self.with(|g| g.width);
        let x = match column.as_bytes() {
            [c] if c.is_ascii_lowercase() && ((c - b'a') as usize) < width => (c - b'a') as usize,
            _ => {
                return fail(format!(
                    "`{column}` is not a column of this grid (a to {})",
                    column_letter(width - 1)
                ))
            }
        };
        let Some(i) = self.with(|g| g.drop_cell(x)) else {
            return fail(format!("column {column} is full"));
        };
        self.put_text(i, symbol)?;
        Ok(self.with(names)[i].clone())
    }

    /// Moves the piece on `from` to `to`, leaving `from` empty (the grid's first symbol);
    /// returns what stood on `to` (the empty symbol when nothing was captured).
    fn move_piece(&mut self, from: usize, to: usize) -> ImmutableString {
        let idx = self.idx;
        let taken = self.g.write(|s| {
            let cells = &mut s.grids_mut()[idx].cells;
            let taken = cells[to];
            cells[to] = cells[from];
            cells[from] = 0;
            taken
        });
        self.with(|g| symbol_string(g.symbols[taken as usize]))
    }

    fn move_cells(&mut self, from: &str, to: &str) -> Fallible<ImmutableString> {
        let (from, to) = (self.cell(from)?, self.cell(to)?);
        Ok(self.move_piece(from, to))
    }

    fn move_action(&mut self, action: &str) -> Fallible<ImmutableString> {
        let (from, to) = self.split(action)?;
        Ok(self.move_piece(from, to))
    }

    fn split(&self, action: &str) -> Fallible<(usize, usize)> {
        match self.with(|g| g.split_move(action)) {
            Some(cells) => Ok(cells),
            None => fail(format!(
                "`{action}` is not two cells of this grid written together (like `a7a6`)"
            )),
        }
    }
}

fn column_letter(x: usize) -> ImmutableString {
    symbol_string((b'a' + x as u8) as char)
}

/// A script integer as a grid coordinate: anything beyond the largest board is off it.
fn small(n: INT) -> i32 {
    n.clamp(-1000, 1000) as i32
}

pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<GridRef>("Grid")
        // What `eval` shows for a grid: its name, size and diagram.
        .register_fn("to_debug", |r: &mut GridRef| {
            r.with(|g| {
                format!(
                    "grid `{}` {}x{}\n{}",
                    g.name,
                    g.width,
                    g.height,
                    g.render(false)
                )
            })
        })
        .register_fn(
            "new_grid",
            |g: &mut G, name: &str, w: INT, h: INT, symbols: &str| {
                new_grid(g, name, w, h, symbols, Shape::Square)
            },
        )
        .register_fn(
            "new_grid",
            |g: &mut G, name: &str, w: INT, h: INT, symbols: &str, shape: &str| {
                new_grid(g, name, w, h, symbols, Shape::parse(shape).or_else(fail)?)
            },
        )
        .register_fn("grid", |g: &mut G, name: &str| GridRef::named(g, name))
        // Shortcuts on `g` for the calls a game makes every step: one script call instead of
        // two (`g.grid(name)` then the method), which is most of their cost.
        .register_fn(
            "reach",
            |g: &mut G, grid: &str, f: &str, t: &str, i: &str| {
                GridRef::named(g, grid)?.reach(f, t, i, true)
            },
        )
        .register_fn(
            "reach4",
            |g: &mut G, grid: &str, f: &str, t: &str, i: &str| {
                GridRef::named(g, grid)?.reach(f, t, i, false)
            },
        )
        .register_fn(
            "replace",
            |g: &mut G, grid: &str, cell: &str, from: &str, to: &str| {
                GridRef::named(g, grid)?.replace(cell, from, to)
            },
        )
        .register_get("width", |r: &mut GridRef| r.with(|g| g.width as INT))
        .register_get("shape", |r: &mut GridRef| r.with(|g| g.shape.name()))
        .register_fn("cell_at", GridRef::cell_at)
        .register_fn("x", |r: &mut GridRef, c: &str| r.coordinate(c, false))
        .register_fn("y", |r: &mut GridRef, c: &str| r.coordinate(c, true))
        .register_fn("step", |r: &mut GridRef, c: &str, d: &str| r.step(c, d, 1))
        .register_fn("step", GridRef::step)
        .register_fn("directions", |r: &mut GridRef| {
            strings(r.with(|g| g.shape.directions()).iter().map(|d| d.0))
        })
        .register_fn("run", GridRef::run)
        .register_fn("longest_line", GridRef::longest_line)
        .register_fn("joins", |r: &mut GridRef, c: &str, a: &str, b: &str| {
            r.joins(c, a, b, true)
        })
        .register_fn("joins4", |r: &mut GridRef, c: &str, a: &str, b: &str| {
            r.joins(c, a, b, false)
        })
        .register_fn("moves", GridRef::moves)
        .register_fn("open_columns", GridRef::open_columns)
        .register_fn("drop", GridRef::drop_piece)
        .register_fn("move", GridRef::move_cells)
        .register_fn("move", GridRef::move_action)
        .register_fn("move_cells", |r: &mut GridRef, action: &str| {
            let (from, to) = r.split(action)?;
            Ok::<_, Box<rhai::EvalAltResult>>(r.name_list([from, to]))
        })
        .register_get("height", |r: &mut GridRef| r.with(|g| g.height as INT))
        .register_fn("is_cell", |r: &mut GridRef, name: &str| {
            r.with(|g| g.cell_index(name).is_some())
        })
        .register_fn("get", GridRef::get)
        .register_fn("set", GridRef::set)
        .register_fn("replace", GridRef::replace)
        .register_fn("cells", |r: &mut GridRef| {
            let n = r.with(|g| g.len());
            r.name_list(0..n)
        })
        .register_fn("cells_with", GridRef::cells_with)
        .register_fn("count", GridRef::count)
        .register_fn("column", |r: &mut GridRef, x: INT| r.line(Some(x), None))
        .register_fn("row", |r: &mut GridRef, y: INT| r.line(None, Some(y)))
        .register_fn("neighbours", |r: &mut GridRef, c: &str| {
            r.neighbours(c, true)
        })
        .register_fn("neighbours4", |r: &mut GridRef, c: &str| {
            r.neighbours(c, false)
        })
        .register_fn("reach", |r: &mut GridRef, f: &str, t: &str, i: &str| {
            r.reach(f, t, i, true)
        })
        .register_fn("reach4", |r: &mut GridRef, f: &str, t: &str, i: &str| {
            r.reach(f, t, i, false)
        })
        .register_fn(
            "region",
            |r: &mut GridRef, f: &str, t: &str| -> Fallible<Array> {
                let (f, t) = (r.mask(f)?, r.mask(t)?);
                let cells = r.with(|g| g.region(f, t, true));
                Ok(r.name_list(cells))
            },
        )
        .register_fn("components", |r: &mut GridRef, of: &str| {
            r.components(of, true)
        })
        .register_fn("components4", |r: &mut GridRef, of: &str| {
            r.components(of, false)
        })
        .register_fn("distance", |r: &mut GridRef, a: &str, b: &str, t: &str| {
            r.distance(a, b, t, true)
        })
        .register_fn("distance4", |r: &mut GridRef, a: &str, b: &str, t: &str| {
            r.distance(a, b, t, false)
        })
        .register_fn(
            "set_color",
            |r: &mut GridRef, symbol: &str, color: &str| -> Fallible<()> {
                budget::text(color, "set_color")?;
                let Some(v) = symbol
                    .chars()
                    .next()
                    .and_then(|c| r.with(|g| g.symbol_index(c)))
                else {
                    return fail(format!("`{symbol}` is not a symbol of this grid"));
                };
                r.g.write(|s| {
                    let grid = &mut s.grids_mut()[r.idx];
                    let mut colors = grid.colors.to_vec();
                    colors[v as usize] = color.to_string();
                    grid.colors = colors.into();
                });
                Ok(())
            },
        )
        .register_fn("render", |r: &mut GridRef| r.with(|g| g.render(true)))
        .register_fn(
            "read_diagram",
            |r: &mut GridRef, text: &str| -> Fallible<()> {
                let idx = r.idx;
                r.g.write(|s| s.grids_mut()[idx].read_diagram(text))
                    .or_else(fail)
            },
        );
}

/// `g.new_grid(...)`: a grid of `shape`, replacing any grid of the same name.
fn new_grid(
    g: &mut G,
    name: &str,
    w: INT,
    h: INT,
    symbols: &str,
    shape: Shape,
) -> Fallible<GridRef> {
    budget::text(name, "new_grid")?;
    let mut grid = Grid::new(name, w.max(0) as usize, h.max(0) as usize, symbols).or_else(fail)?;
    grid.shape = shape;
    budget::charge(grid.len() as u64, "new_grid")?;
    let idx = g.write(|s| {
        let at = s.grid_index(name);
        replace_or_push(s.grids_mut(), at, grid)
    });
    Ok(GridRef { g: g.clone(), idx })
}
