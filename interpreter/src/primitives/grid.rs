//! Rectangular grids of one-symbol cells, named like chess squares (`a1` bottom left), with
//! native neighbourhood, flood-fill, distance, line and move queries: the hot paths of board
//! games. A grid is square-celled (4 or 8 neighbours) or a rhombus of hexagons (6).

use super::cellbits::{CellSet, Steps, Wide};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

/// Cells hold one symbol each, stored as its index in `symbols` (index 0 is the empty cell).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    pub name: Arc<str>,
    pub width: usize,
    pub height: usize,
    /// The alphabet of cell contents, e.g. `.BRbr`; the first symbol fills a new grid.
    pub symbols: Arc<[char]>,
    /// Row-major from the bottom row: index = row * width + column.
    pub cells: Vec<u8>,
    /// Terminal colour name per symbol ("" for none), used by `render`.
    #[serde(default)]
    pub colors: Arc<[String]>,
    #[serde(default, skip_serializing_if = "Shape::is_square")]
    pub shape: Shape,
}

/// How cells touch. `Hex` is a rhombus of hexagons (as Hex boards are drawn): each cell touches
/// the cells east and west, north and south, and south-east and north-west, so each row sits
/// half a cell to the right of the row below it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    #[default]
    Square,
    Hex,
}

impl Shape {
    fn is_square(&self) -> bool {
        *self == Shape::Square
    }

    pub fn parse(name: &str) -> Result<Shape, String> {
        match name {
            "square" => Ok(Shape::Square),
            "hex" => Ok(Shape::Hex),
            _ => Err(format!("no grid shape `{name}` (shapes: square, hex)")),
        }
    }

    /// The directions a piece may step in, as (name, dx, dy); rows count up to the north.
    pub fn directions(self) -> &'static [(&'static str, i32, i32)] {
        const SQUARE: [(&str, i32, i32); 8] = [
            ("n", 0, 1),
            ("ne", 1, 1),
            ("e", 1, 0),
            ("se", 1, -1),
            ("s", 0, -1),
            ("sw", -1, -1),
            ("w", -1, 0),
            ("nw", -1, 1),
        ];
        const HEX: [(&str, i32, i32); 6] = [
            ("n", 0, 1),
            ("e", 1, 0),
            ("se", 1, -1),
            ("s", 0, -1),
            ("w", -1, 0),
            ("nw", -1, 1),
        ];
        match self {
            Shape::Square => &SQUARE,
            Shape::Hex => &HEX,
        }
    }

    /// A direction by name, as (dx, dy).
    pub fn direction(self, name: &str) -> Result<(i32, i32), String> {
        self.directions()
            .iter()
            .find(|d| d.0 == name)
            .map(|d| (d.1, d.2))
            .ok_or_else(|| {
                let names: Vec<&str> = self.directions().iter().map(|d| d.0).collect();
                format!(
                    "no direction `{name}` on a {} grid (directions: {})",
                    self.name(),
                    names.join(" ")
                )
            })
    }

    pub fn name(self) -> &'static str {
        match self {
            Shape::Square => "square",
            Shape::Hex => "hex",
        }
    }

    /// The axes along which lines run, one direction of each (its opposite is the other half).
    fn axes(self) -> &'static [(i32, i32)] {
        match self {
            Shape::Square => &[(1, 0), (0, 1), (1, 1), (1, -1)],
            Shape::Hex => &[(1, 0), (0, 1), (1, -1)],
        }
    }
}

/// A side of the board, for connection queries: `n` the top row, `s` row 1, `w` column a, `e`
/// the last column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    North,
    South,
    East,
    West,
}

impl Edge {
    pub fn parse(name: &str) -> Result<Edge, String> {
        match name {
            "n" => Ok(Edge::North),
            "s" => Ok(Edge::South),
            "e" => Ok(Edge::East),
            "w" => Ok(Edge::West),
            _ => Err(format!("no board edge `{name}` (edges: n s e w)")),
        }
    }
}

/// Every cell's neighbours for one grid shape, flat (`list[start[i]..start[i + 1]]`), built
/// once per shape and thread so floods read a table instead of working out coordinates.
struct NeighbourTable {
    start: Vec<u32>,
    list: Vec<u32>,
    /// The same connections as shifts of cell sets, for floods a word at a time: in one
    /// register for boards of up to 128 cells, else in words.
    steps: Result<Steps<u128>, Steps<Wide>>,
}

type ShapeKey = (usize, usize, Shape, bool);

impl NeighbourTable {
    fn of(width: usize, height: usize, shape: Shape, diagonal: bool) -> Rc<NeighbourTable> {
        thread_local! {
            static TABLES: RefCell<HashMap<ShapeKey, Rc<NeighbourTable>>> =
                RefCell::new(HashMap::new());
        }
        // A game uses a shape or two; a script making grids of every size must not grow the
        // cache without end.
        const CACHED_SHAPES: usize = 16;
        TABLES.with(|t| {
            let mut t = t.borrow_mut();
            let key = (width, height, shape, diagonal);
            if t.len() >= CACHED_SHAPES && !t.contains_key(&key) {
                t.clear();
            }
            t.entry(key)
                .or_insert_with(|| Rc::new(NeighbourTable::build(width, height, shape, diagonal)))
                .clone()
        })
    }

    fn build(width: usize, height: usize, shape: Shape, diagonal: bool) -> NeighbourTable {
        let cells = width * height;
        let mut start = Vec::with_capacity(cells + 1);
        let mut list = Vec::with_capacity(cells * 8);
        for i in 0..cells {
            start.push(list.len() as u32);
            neighbours_of(width, height, i, shape, diagonal, |n| list.push(n as u32));
        }
        start.push(list.len() as u32);
        let mut offsets = vec![(1, 0), (-1, 0), (0, 1), (0, -1)];
        if shape == Shape::Hex {
            offsets.extend([(1, -1), (-1, 1)]);
        } else if diagonal {
            offsets.extend([(1, 1), (-1, 1), (1, -1), (-1, -1)]);
        }
        NeighbourTable {
            start,
            list,
            steps: if cells <= 128 {
                Ok(Steps::new(width, height, &offsets))
            } else {
                Err(Steps::new(width, height, &offsets))
            },
        }
    }

    fn of_cell(&self, i: usize) -> &[u32] {
        &self.list[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// Calls `f` on each neighbour of cell `index` of a `w` x `height` grid (on a square grid 8
/// with diagonals, else 4; on a hex grid always 6). The hot loop of every flood; written out so
/// it compiles to a few compares per neighbour.
#[inline(always)]
fn neighbours_of(
    w: usize,
    height: usize,
    index: usize,
    shape: Shape,
    diagonal: bool,
    mut f: impl FnMut(usize),
) {
    let (x, y) = (index % w, index / w);
    let (left, right, down, up) = (x > 0, x + 1 < w, y > 0, y + 1 < height);
    if down {
        f(index - w);
    }
    if up {
        f(index + w);
    }
    if left {
        f(index - 1);
    }
    if right {
        f(index + 1);
    }
    if shape == Shape::Hex {
        if down && right {
            f(index - w + 1);
        }
        if up && left {
            f(index + w - 1);
        }
    } else if diagonal {
        if down && left {
            f(index - w - 1);
        }
        if down && right {
            f(index - w + 1);
        }
        if up && left {
            f(index + w - 1);
        }
        if up && right {
            f(index + w + 1);
        }
    }
}

/// A set of symbols given as a string (`"Bb"`), turned into a bitmask over symbol indices.
pub type SymbolMask = u64;
impl Grid {
    pub fn new(name: &str, width: usize, height: usize, symbols: &str) -> Result<Grid, String> {
        if !(1..=26).contains(&width) || !(1..=99).contains(&height) {
            return Err(format!(
                "a grid is 1 to 26 columns by 1 to 99 rows, not {width}x{height}"
            ));
        }
        let symbols: Vec<char> = symbols.chars().collect();
        if symbols.is_empty() || symbols.len() > 64 {
            return Err("a grid needs 1 to 64 symbols".into());
        }
        Ok(Grid {
            name: Arc::from(name),
            width,
            height,
            cells: vec![0; width * height],
            colors: vec![String::new(); symbols.len()].into(),
            symbols: symbols.into(),
            shape: Shape::Square,
        })
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Whether `name` is written as a cell is (`c3`, `z9`: a column letter and a row from
    /// 1), whether or not it lies on a given grid.
    pub fn is_cell_shaped(name: &str) -> bool {
        let mut chars = name.chars();
        let rest = match chars.next() {
            Some(c) if c.is_ascii_alphabetic() => chars.as_str(),
            _ => return false,
        };
        !rest.is_empty() && !rest.starts_with('0') && rest.bytes().all(|b| b.is_ascii_digit())
    }

    /// `c3` -> index; None when the name is not a cell of this grid.
    pub fn cell_index(&self, name: &str) -> Option<usize> {
        let mut chars = name.chars();
        let col = chars.next()?.to_ascii_lowercase();
        if !col.is_ascii_lowercase() {
            return None;
        }
        let x = (col as u8 - b'a') as usize;
        let rest = chars.as_str();
        if rest.is_empty() || rest.starts_with('0') || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let y: usize = rest.parse().ok()?;
        (x < self.width && (1..=self.height).contains(&y)).then(|| (y - 1) * self.width + x)
    }

    pub fn cell_name(&self, index: usize) -> String {
        let (x, y) = (index % self.width, index / self.width);
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    pub fn symbol_index(&self, symbol: char) -> Option<u8> {
        self.symbols
            .iter()
            .position(|&s| s == symbol)
            .map(|i| i as u8)
    }

    /// Every character of `set` must be one of the grid's symbols.
    pub fn mask(&self, set: &str) -> Result<SymbolMask, String> {
        set.chars()
            .try_fold(0u64, |m, c| match self.symbol_index(c) {
                Some(i) => Ok(m | 1 << i),
                None => Err(format!(
                    "`{c}` is not a symbol of grid `{}` ({})",
                    self.name,
                    self.symbol_list()
                )),
            })
    }

    pub fn symbol_list(&self) -> String {
        self.symbols.iter().collect()
    }

    pub fn symbol_at(&self, index: usize) -> char {
        self.symbols[self.cells[index] as usize]
    }

    /// Whether cell `index` holds one of the symbols in `mask`.
    pub fn holds(&self, index: usize, mask: SymbolMask) -> bool {
        mask >> self.cells[index] & 1 != 0
    }

    /// Neighbour indices in increasing order: on a square grid 8 with diagonals, else 4; on a
    /// hex grid 6.
    pub fn neighbours(&self, index: usize, diagonal: bool) -> impl Iterator<Item = usize> {
        let mut out = [0usize; 8];
        let mut n = 0;
        self.each_neighbour(index, diagonal, |i| {
            out[n] = i;
            n += 1;
        });
        out[..n].sort_unstable();
        out.into_iter().take(n)
    }

    pub fn cells_matching(&self, mask: SymbolMask) -> Vec<usize> {
        (0..self.len()).filter(|&i| self.holds(i, mask)).collect()
    }

    /// Calls `f` on each neighbour of `index` (8 with diagonals, else 4).
    #[inline(always)]
    fn each_neighbour(&self, index: usize, diagonal: bool, f: impl FnMut(usize)) {
        neighbours_of(self.width, self.height, index, self.shape, diagonal, f);
    }

    /// Cells in `into` that touch the region flooded from `from` through `through`, in index
    /// order. Example: the cells a player may act on next to their connected groups. (A hot
    /// path: games that grow from connected groups call it every step. Floods run on sets of
    /// bits, a whole frontier at a time: see `cellbits`.)
    pub fn reach(
        &self,
        from: SymbolMask,
        through: SymbolMask,
        into: SymbolMask,
        diagonal: bool,
    ) -> Vec<usize> {
        fn reach<S: CellSet>(steps: &Steps<S>, g: &Grid, masks: [u64; 3]) -> Vec<usize> {
            let [from, through, into] = steps.sets_of(&g.cells, g.symbols.len(), masks);
            let region = steps.flood(from, &through);
            steps.touching(&region, &into).indices()
        }
        let table = NeighbourTable::of(self.width, self.height, self.shape, diagonal);
        let masks = [from, through, into];
        match &table.steps {
            Ok(small) => reach(small, self, masks),
            Err(wide) => reach(wide, self, masks),
        }
    }

    /// Cells connected to any cell in `from` through `through` (the seeds included).
    pub fn region(&self, from: SymbolMask, through: SymbolMask, diagonal: bool) -> Vec<usize> {
        fn region<S: CellSet>(steps: &Steps<S>, g: &Grid, masks: [u64; 2]) -> Vec<usize> {
            let [from, through] = steps.sets_of(&g.cells, g.symbols.len(), masks);
            steps.flood(from, &through).indices()
        }
        let table = NeighbourTable::of(self.width, self.height, self.shape, diagonal);
        match &table.steps {
            Ok(small) => region(small, self, [from, through]),
            Err(wide) => region(wide, self, [from, through]),
        }
    }

    /// Connected groups of cells whose symbol is in `of`, each sorted, ordered by first cell.
    pub fn components(&self, of: SymbolMask, diagonal: bool) -> Vec<Vec<usize>> {
        let mut group = vec![usize::MAX; self.len()];
        let mut out = Vec::new();
        for start in 0..self.len() {
            if group[start] != usize::MAX || !self.holds(start, of) {
                continue;
            }
            let id = out.len();
            let mut members = vec![start];
            group[start] = id;
            let mut k = 0;
            while k < members.len() {
                let i = members[k];
                k += 1;
                for n in self.neighbours(i, diagonal) {
                    if group[n] == usize::MAX && self.holds(n, of) {
                        group[n] = id;
                        members.push(n);
                    }
                }
            }
            members.sort_unstable();
            out.push(members);
        }
        out
    }

    /// Steps from `a` to `b` moving through cells in `through` (`b` itself may hold anything);
    /// None when unreachable.
    pub fn distance(
        &self,
        a: usize,
        b: usize,
        through: SymbolMask,
        diagonal: bool,
    ) -> Option<usize> {
        let mut dist = vec![usize::MAX; self.len()];
        dist[a] = 0;
        let mut queue = VecDeque::from([a]);
        while let Some(i) = queue.pop_front() {
            if i == b {
                return Some(dist[i]);
            }
            for n in self.neighbours(i, diagonal) {
                if dist[n] == usize::MAX && (n == b || self.holds(n, through)) {
                    dist[n] = dist[i] + 1;
                    queue.push_back(n);
                }
            }
        }
        None
    }

    /// (column, row) of cell `i`, both from 0.
    pub fn xy(&self, i: usize) -> (i32, i32) {
        ((i % self.width) as i32, (i / self.width) as i32)
    }

    /// The cell at column `x`, row `y` (both from 0), if it is on the board.
    pub fn at(&self, x: i32, y: i32) -> Option<usize> {
        let inside = (0..self.width as i32).contains(&x) && (0..self.height as i32).contains(&y);
        inside.then(|| y as usize * self.width + x as usize)
    }

    /// The cell `n` steps from `i` in direction `(dx, dy)`, if it is on the board.
    pub fn step(&self, i: usize, (dx, dy): (i32, i32), n: i32) -> Option<usize> {
        let (x, y) = self.xy(i);
        self.at(x + dx * n, y + dy * n)
    }

    /// How many cells in a row follow `i` in direction `d` with a symbol in `mask`.
    pub fn run(&self, i: usize, d: (i32, i32), mask: SymbolMask) -> usize {
        let mut n = 0;
        let mut at = i;
        while let Some(next) = self.step(at, d, 1) {
            if !self.holds(next, mask) {
                break;
            }
            n += 1;
            at = next;
        }
        n
    }

    /// The longest line of cells with a symbol in `mask` through `i` (counted), along any axis
    /// of the grid's shape: across, up and the diagonals of a square grid; the three axes of
    /// a hex grid. 0 when `i` itself is not in `mask`.
    pub fn longest_line(&self, i: usize, mask: SymbolMask) -> usize {
        if !self.holds(i, mask) {
            return 0;
        }
        self.shape
            .axes()
            .iter()
            .map(|&(dx, dy)| 1 + self.run(i, (dx, dy), mask) + self.run(i, (-dx, -dy), mask))
            .max()
            .unwrap_or(1)
    }

    pub fn on_edge(&self, i: usize, edge: Edge) -> bool {
        let (x, y) = self.xy(i);
        match edge {
            Edge::North => y as usize + 1 == self.height,
            Edge::South => y == 0,
            Edge::East => x as usize + 1 == self.width,
            Edge::West => x == 0,
        }
    }

    /// Whether the group of cells with a symbol in `mask` connected to `i` touches both edges
    /// `a` and `b` (the win of a connection game). Stops as soon as it has both.
    pub fn joins(&self, i: usize, mask: SymbolMask, a: Edge, b: Edge, diagonal: bool) -> bool {
        if !self.holds(i, mask) {
            return false;
        }
        let table = NeighbourTable::of(self.width, self.height, self.shape, diagonal);
        let mut seen = vec![false; self.len()];
        let mut stack = Vec::with_capacity(32);
        seen[i] = true;
        stack.push(i);
        let (mut at_a, mut at_b) = (false, false);
        while let Some(c) = stack.pop() {
            at_a |= self.on_edge(c, a);
            at_b |= self.on_edge(c, b);
            if at_a && at_b {
                return true;
            }
            for &n in table.of_cell(c) {
                let n = n as usize;
                if !seen[n] && self.holds(n, mask) {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        false
    }

    /// Where a piece dropped into column `x` comes to rest, as in Connect Four: the lowest
    /// cell holding the empty symbol (the grid's first), if the column is not full. Cells above
    /// a resting piece are never below it, so this is the first empty cell from the bottom.
    pub fn drop_cell(&self, x: usize) -> Option<usize> {
        (0..self.height)
            .map(|y| y * self.width + x)
            .find(|&i| self.cells[i] == 0)
    }

    /// Columns (from 0) whose top cell holds the empty symbol: where a piece may be dropped.
    pub fn open_columns(&self) -> impl Iterator<Item = usize> + '_ {
        let top = (self.height - 1) * self.width;
        (0..self.width).filter(move |&x| self.cells[top + x] == 0)
    }

    /// Reads two cell names written together (`a7a6`, `j10j11`), as move lists write a move.
    pub fn split_move(&self, text: &str) -> Option<(usize, usize)> {
        let bytes = text.as_bytes();
        // The second name starts at the first letter after the first name's digits.
        let second = (1..bytes.len()).find(|&k| bytes[k].is_ascii_alphabetic())?;
        Some((
            self.cell_index(&text[..second])?,
            self.cell_index(&text[second..])?,
        ))
    }

    /// A diagram with row numbers on the left (top row first) and column letters below;
    /// colours (ANSI) only when asked.
    pub fn render(&self, color: bool) -> String {
        let pad = self.height.to_string().len();
        let mut out = String::new();
        for y in (0..self.height).rev() {
            out.push_str(&format!("{:>pad$} ", y + 1));
            if self.shape == Shape::Hex {
                // Each row half a cell right of the row below, so touching hexagons touch.
                out.push_str(&" ".repeat(y));
            }
            for x in 0..self.width {
                let v = self.cells[y * self.width + x] as usize;
                let sym = self.symbols[v];
                let code = if color {
                    ansi_code(&self.colors[v])
                } else {
                    None
                };
                match code {
                    Some(c) => out.push_str(&format!(" \x1b[{c}m{sym}\x1b[0m")),
                    None => out.push_str(&format!(" {sym}")),
                }
            }
            out.push('\n');
        }
        out.push_str(&" ".repeat(pad + 1));
        for x in 0..self.width {
            out.push(' ');
            out.push((b'a' + x as u8) as char);
        }
        out
    }

    /// Reads a diagram in the `render` format: rows of symbols, each led by its row number,
    /// top row first; a final line of column letters is optional. Replaces every cell and may
    /// change the grid's size to the diagram's.
    pub fn read_diagram(&mut self, text: &str) -> Result<(), String> {
        let mut rows: Vec<(usize, Vec<u8>)> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let mut parts = line.split_whitespace();
            let Some(first) = parts.next() else { continue };
            let Ok(row) = first.parse::<usize>() else {
                if first.chars().all(|c| c.is_ascii_lowercase()) && first.len() == 1 {
                    continue; // the column-letter line
                }
                return Err(format!(
                    "diagram line {}: expected a row number, found `{first}`",
                    n + 1
                ));
            };
            let mut cells = Vec::new();
            for tok in parts {
                for c in tok.chars() {
                    let v = self.symbol_index(c).ok_or_else(|| {
                        format!(
                            "diagram line {}: `{c}` is not one of `{}`",
                            n + 1,
                            self.symbol_list()
                        )
                    })?;
                    cells.push(v);
                }
            }
            rows.push((row, cells));
        }
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.1.len());
        if height == 0 || width == 0 || width > 26 || height > 99 {
            return Err("a diagram has 1 to 26 columns and 1 to 99 rows".into());
        }
        let mut cells = vec![0u8; width * height];
        for (k, (row, line)) in rows.iter().enumerate() {
            if *row != height - k {
                return Err(format!(
                    "diagram rows must count down to 1; found row {row} where {} belongs",
                    height - k
                ));
            }
            if line.len() != width {
                return Err(format!(
                    "diagram row {row} has {} cells, expected {width}",
                    line.len()
                ));
            }
            cells[(row - 1) * width..row * width].copy_from_slice(line);
        }
        self.width = width;
        self.height = height;
        self.cells = cells;
        Ok(())
    }
}

fn ansi_code(color: &str) -> Option<u8> {
    Some(match color {
        "black" => 30,
        "red" => 31,
        "green" => 32,
        "yellow" => 33,
        "blue" => 34,
        "magenta" => 35,
        "cyan" => 36,
        "white" => 37,
        "gray" | "grey" => 90,
        "bright-red" => 91,
        "bright-blue" => 94,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(diagram: &str) -> Grid {
        let mut g = Grid::new("board", 1, 1, ".XYxy").unwrap();
        g.read_diagram(diagram).unwrap();
        g
    }

    #[test]
    fn names_count_columns_from_a_and_rows_from_the_bottom() {
        let g = Grid::new("b", 3, 4, ".").unwrap();
        assert_eq!(g.cell_index("a1"), Some(0));
        assert_eq!(g.cell_index("c4"), Some(11));
        assert_eq!(g.cell_name(5), "c2");
        assert_eq!(g.cell_index("d1"), None);
        assert_eq!(g.cell_index("a0"), None);
        assert_eq!(g.cell_index("a01"), None);
    }

    #[test]
    fn diagram_round_trips_through_render() {
        let text = "3  . X .\n2  x . Y\n1  . . y\n   a b c";
        let g = grid(text);
        assert_eq!((g.width, g.height), (3, 3));
        assert_eq!(g.symbol_at(g.cell_index("b3").unwrap()), 'X');
        assert_eq!(g.render(false), text);
    }

    #[test]
    fn reach_follows_chains_only_from_live_seeds() {
        // X at a3 links the x at b2; the lone x at d1 touches neither and gives nothing.
        let g = grid("4 . . . .\n3 X . . .\n2 . x . .\n1 . . . x");
        let reach: Vec<String> = g
            .reach(
                g.mask("X").unwrap(),
                g.mask("Xx").unwrap(),
                g.mask(".Y").unwrap(),
                true,
            )
            .into_iter()
            .map(|i| g.cell_name(i))
            .collect();
        assert_eq!(
            reach,
            ["a1", "b1", "c1", "a2", "c2", "b3", "c3", "a4", "b4"]
        );
        let none = g.reach(
            g.mask("Y").unwrap(),
            g.mask("Yy").unwrap(),
            g.mask(".").unwrap(),
            true,
        );
        assert!(none.is_empty());
    }

    /// The flood by sets of bits against a plain search over `neighbours`, on random boards
    /// of every shape and of sizes that end mid-word, exactly on a word, and across several.
    #[test]
    fn reach_and_region_match_a_cell_by_cell_search() {
        let mut seed = 7u64;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for (w, h) in [(1, 1), (3, 2), (8, 8), (11, 11), (26, 5), (26, 99), (7, 13)] {
            for (shape, diagonal) in [
                (Shape::Square, false),
                (Shape::Square, true),
                (Shape::Hex, false),
            ] {
                let mut g = Grid::new("t", w, h, ".XxY").unwrap();
                g.shape = shape;
                for round in 0..6 {
                    for c in g.cells.iter_mut() {
                        *c = next(4) as u8;
                    }
                    let (from, through, into) = (0b0010, 0b0110, 0b1001 | (round % 2 * 0b0100));
                    let mut seen = vec![false; g.len()];
                    let mut stack: Vec<usize> =
                        (0..g.len()).filter(|&i| g.holds(i, from)).collect();
                    stack.iter().for_each(|&i| seen[i] = true);
                    while let Some(i) = stack.pop() {
                        for n in g.neighbours(i, diagonal) {
                            if !seen[n] && g.holds(n, through) {
                                seen[n] = true;
                                stack.push(n);
                            }
                        }
                    }
                    let region: Vec<usize> = (0..g.len()).filter(|&i| seen[i]).collect();
                    let reach: Vec<usize> = (0..g.len())
                        .filter(|&i| !seen[i] && g.holds(i, into))
                        .filter(|&i| g.neighbours(i, diagonal).any(|n| seen[n]))
                        .collect();
                    assert_eq!(
                        g.region(from, through, diagonal),
                        region,
                        "{w}x{h} {shape:?}"
                    );
                    assert_eq!(
                        g.reach(from, through, into, diagonal),
                        reach,
                        "{w}x{h} {shape:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn components_and_distance() {
        let g = grid("3 X X .\n2 . . .\n1 X . X");
        let groups = g.components(g.mask("X").unwrap(), false);
        assert_eq!(groups.len(), 3);
        assert_eq!(g.components(g.mask("X").unwrap(), true).len(), 3);
        let (a, b) = (g.cell_index("a1").unwrap(), g.cell_index("c1").unwrap());
        assert_eq!(g.distance(a, b, g.mask(".").unwrap(), false), Some(2));
        assert_eq!(g.distance(a, b, g.mask("Y").unwrap(), false), None);
    }

    #[test]
    fn hex_cells_touch_six_and_lines_follow_three_axes() {
        let mut g = Grid::new("hex", 3, 3, ".x").unwrap();
        g.shape = Shape::Hex;
        let b2 = g.cell_index("b2").unwrap();
        let names: Vec<String> = g.neighbours(b2, false).map(|i| g.cell_name(i)).collect();
        // Across, up and down, and the south-east / north-west diagonal; not the other one.
        assert_eq!(names, ["b1", "c1", "a2", "c2", "a3", "b3"]);
        for c in ["a3", "b2", "c1"] {
            let i = g.cell_index(c).unwrap();
            g.cells[i] = 1;
        }
        let x = g.mask("x").unwrap();
        assert_eq!(g.longest_line(b2, x), 3);
        assert!(g.joins(b2, x, Edge::North, Edge::South, false));
        assert!(g.joins(b2, x, Edge::West, Edge::East, false));
        let err = Shape::Hex.direction("ne").unwrap_err();
        assert!(err.starts_with("no direction `ne` on a hex grid"), "{err}");
    }

    #[test]
    fn square_lines_and_joins() {
        let g = grid("3 x . .\n2 . x .\n1 X X x");
        let x = g.mask("x").unwrap();
        let c1 = g.cell_index("c1").unwrap();
        // The falling diagonal a3-b2-c1; a line is of one symbol, so `X` breaks row 1.
        assert_eq!(g.longest_line(c1, x), 3);
        assert_eq!(g.run(c1, (-1, 1), x), 2);
        assert_eq!(g.longest_line(g.cell_index("b3").unwrap(), x), 0);
        assert!(g.joins(c1, x, Edge::North, Edge::South, true));
        assert!(!g.joins(c1, x, Edge::North, Edge::South, false));
        assert_eq!(g.step(c1, (-1, 1), 2), g.cell_index("a3"));
        assert_eq!(g.step(c1, (1, 0), 1), None);
    }

    #[test]
    fn moves_read_as_two_cell_names() {
        let g = Grid::new("b", 12, 12, ".").unwrap();
        assert_eq!(g.split_move("a7a6"), Some((72, 60)));
        assert_eq!(
            g.split_move("j10l12")
                .map(|(a, b)| (g.cell_name(a), g.cell_name(b))),
            Some(("j10".into(), "l12".into()))
        );
        assert_eq!(g.split_move("a7"), None);
        assert_eq!(g.split_move("a7z6"), None);
    }
}
