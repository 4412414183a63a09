//! Sets of grid cells as bits, one per cell in the grid's row-major order, so a flood grows its
//! whole frontier a machine word (64 cells) at a time instead of a cell at a time.
//!
//! A step in a direction is a shift of the whole set: `dy` rows is `dy * width` bits, and a
//! step east or west first drops the cells of the last or first column, which would otherwise
//! wrap onto the next row.

/// A set of cells: `u128` for boards of up to 128 cells (most boards: one register, no
/// allocation), `Wide` beyond.
pub trait CellSet: Clone {
    fn empty(len: usize) -> Self;
    fn insert(&mut self, i: usize);
    /// `self |= w` on cells `64 * k ..`.
    fn or_word(&mut self, k: usize, w: u64);
    fn union_with(&mut self, other: &Self);
    /// `self &= keep & !drop`; whether anything is left.
    fn keep_only(&mut self, keep: &Self, drop: &Self) -> bool;
    /// `out |= (self & mask)` moved `by` cells (positive: towards higher indices).
    fn or_shifted_into(&self, mask: Option<&Self>, by: isize, out: &mut Self);
    fn mask_with(&mut self, mask: &Self);
    fn indices(&self) -> Vec<usize>;
}

impl CellSet for u128 {
    fn empty(_: usize) -> u128 {
        0
    }
    fn insert(&mut self, i: usize) {
        *self |= 1 << i;
    }
    fn or_word(&mut self, k: usize, w: u64) {
        *self |= (w as u128) << (64 * (k & 1));
    }
    fn union_with(&mut self, other: &u128) {
        *self |= other;
    }
    fn keep_only(&mut self, keep: &u128, drop: &u128) -> bool {
        *self &= keep & !drop;
        *self != 0
    }
    fn or_shifted_into(&self, mask: Option<&u128>, by: isize, out: &mut u128) {
        let v = mask.map_or(*self, |m| self & m);
        *out |= if by >= 0 { v << by } else { v >> -by };
    }
    fn mask_with(&mut self, mask: &u128) {
        *self &= mask;
    }
    fn indices(&self) -> Vec<usize> {
        let (lo, hi) = (*self as u64, (*self >> 64) as u64);
        let mut out = Vec::with_capacity(self.count_ones() as usize);
        push_bits(&mut out, 0, lo);
        push_bits(&mut out, 64, hi);
        out
    }
}

fn push_bits(out: &mut Vec<usize>, base: usize, mut w: u64) {
    while w != 0 {
        out.push(base + w.trailing_zeros() as usize);
        w &= w - 1;
    }
}

/// A set of any number of cells, 64 to a word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wide(Vec<u64>);

impl CellSet for Wide {
    fn empty(len: usize) -> Wide {
        Wide(vec![0; len.div_ceil(64)])
    }
    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn or_word(&mut self, k: usize, w: u64) {
        self.0[k] |= w;
    }
    fn union_with(&mut self, other: &Wide) {
        self.0.iter_mut().zip(&other.0).for_each(|(a, b)| *a |= b);
    }
    fn keep_only(&mut self, keep: &Wide, drop: &Wide) -> bool {
        let mut any = 0;
        for ((a, k), d) in self.0.iter_mut().zip(&keep.0).zip(&drop.0) {
            *a &= k & !d;
            any |= *a;
        }
        any != 0
    }
    fn or_shifted_into(&self, mask: Option<&Wide>, by: isize, out: &mut Wide) {
        let n = self.0.len();
        let word = |i: usize| mask.map_or(self.0[i], |m| self.0[i] & m.0[i]);
        let (q, r) = (by.unsigned_abs() / 64, (by.unsigned_abs() % 64) as u32);
        if by >= 0 {
            for i in q..n {
                let mut v = word(i - q) << r;
                if r > 0 && i > q {
                    v |= word(i - q - 1) >> (64 - r);
                }
                out.0[i] |= v;
            }
        } else {
            for i in 0..n.saturating_sub(q) {
                let mut v = word(i + q) >> r;
                if r > 0 && i + q + 1 < n {
                    v |= word(i + q + 1) << (64 - r);
                }
                out.0[i] |= v;
            }
        }
    }
    fn mask_with(&mut self, mask: &Wide) {
        self.0.iter_mut().zip(&mask.0).for_each(|(a, b)| *a &= b);
    }
    fn indices(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.0.iter().map(|w| w.count_ones() as usize).sum());
        for (k, &w) in self.0.iter().enumerate() {
            push_bits(&mut out, k * 64, w);
        }
        out
    }
}

/// The directions one grid shape connects, as shifts with the column a cell must not leave
/// by, and the masks those need. Built once per shape (see `NeighbourTable` in grid.rs).
#[derive(Debug)]
pub struct Steps<S> {
    len: usize,
    /// Cells of the grid (a shift past the last cell must not leave bits there).
    valid: S,
    /// Every cell but those of the first column / the last column.
    not_first: S,
    not_last: S,
    /// (shift in cells, column edge the source cell must not be on).
    shifts: Vec<(isize, Leaving)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leaving {
    Nowhere,
    West,
    East,
}

impl<S: CellSet> Steps<S> {
    /// `offsets` are (dx, dy) with dx, dy in -1..=1.
    pub fn new(width: usize, height: usize, offsets: &[(i32, i32)]) -> Steps<S> {
        let len = width * height;
        let (mut valid, mut not_first, mut not_last) =
            (S::empty(len), S::empty(len), S::empty(len));
        for i in 0..len {
            valid.insert(i);
            if i % width != 0 {
                not_first.insert(i);
            }
            if i % width != width - 1 {
                not_last.insert(i);
            }
        }
        let shifts = offsets
            .iter()
            .map(|&(dx, dy)| {
                let leaving = match dx {
                    1 => Leaving::East,
                    -1 => Leaving::West,
                    _ => Leaving::Nowhere,
                };
                (dy as isize * width as isize + dx as isize, leaving)
            })
            .collect();
        Steps {
            len,
            valid,
            not_first,
            not_last,
            shifts,
        }
    }

    /// Every cell one step from a cell of `set`.
    fn spread(&self, set: &S) -> S {
        let mut out = S::empty(self.len);
        for &(by, leaving) in &self.shifts {
            let mask = match leaving {
                Leaving::Nowhere => None,
                Leaving::West => Some(&self.not_first),
                Leaving::East => Some(&self.not_last),
            };
            set.or_shifted_into(mask, by, &mut out);
        }
        out.mask_with(&self.valid);
        out
    }

    /// The cells connected to `seeds` through cells of `through` (the seeds included).
    pub fn flood(&self, seeds: S, through: &S) -> S {
        let mut region = seeds.clone();
        let mut frontier = seeds;
        loop {
            let mut grown = self.spread(&frontier);
            if !grown.keep_only(through, &region) {
                return region;
            }
            region.union_with(&grown);
            frontier = grown;
        }
    }

    /// The cells of `into` one step from `region` and not in it.
    pub fn touching(&self, region: &S, into: &S) -> S {
        let mut out = self.spread(region);
        out.keep_only(into, region);
        out
    }

    /// The cells whose symbol (an index below `symbols` <= 64) is in each of `masks`: 64 cells
    /// at a time, one set per symbol first (a single or per cell), then united per mask.
    pub fn sets_of<const N: usize>(&self, cells: &[u8], symbols: usize, masks: [u64; N]) -> [S; N] {
        let mut sets = std::array::from_fn(|_| S::empty(self.len));
        let mut planes = [0u64; 64];
        let symbols = symbols.min(64);
        for (k, chunk) in cells.chunks(64).enumerate() {
            planes[..symbols].fill(0);
            for (j, &c) in chunk.iter().enumerate() {
                planes[c as usize & 63] |= 1 << j;
            }
            for (set, mask) in sets.iter_mut().zip(masks) {
                let word = (0..symbols)
                    .filter(|&s| mask >> s & 1 != 0)
                    .fold(0, |w, s| w | planes[s]);
                set.or_word(k, word);
            }
        }
        sets
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(len: usize, cells: &[usize]) -> (u128, Wide) {
        let (mut a, mut b) = (u128::empty(len), Wide::empty(len));
        for &c in cells {
            a.insert(c);
            b.insert(c);
        }
        (a, b)
    }

    #[test]
    fn a_step_east_does_not_wrap_onto_the_next_row() {
        // 3 wide: cell 2 is the east end of row 1; east of it is nothing, not cell 3.
        let s: Steps<u128> = Steps::new(3, 2, &[(1, 0)]);
        assert_eq!(s.spread(&both(6, &[2]).0).indices(), Vec::<usize>::new());
        assert_eq!(s.spread(&both(6, &[1]).0).indices(), vec![2]);
        let w: Steps<Wide> = Steps::new(3, 2, &[(1, 0)]);
        assert_eq!(w.spread(&both(6, &[2]).1).indices(), Vec::<usize>::new());
    }

    #[test]
    fn wide_shifts_cross_word_boundaries_both_ways() {
        // 26 x 5 = 130 cells, three words: north of cell 60 is 86 (word 1), south of 100 is 74.
        let s: Steps<Wide> = Steps::new(26, 5, &[(0, 1), (0, -1)]);
        let wide = |c: usize| {
            let mut w = Wide::empty(130);
            w.insert(c);
            w
        };
        assert_eq!(s.spread(&wide(60)).indices(), vec![34, 86]);
        assert_eq!(s.spread(&wide(129)).indices(), vec![103]);
    }
}
