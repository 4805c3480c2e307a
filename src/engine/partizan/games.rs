//! Built-in partizan rulesets, each a [`Rules`] for the generic search. Left is Blue/black/
//! vertical/toads, Right is Red/white/horizontal/frogs, as in *Winning Ways*.
use super::dyadic::Dyadic;
use super::search::Rules;
use super::store::{Game, Map, Store};
use crate::engine::control::{Task, over_budget};
use crate::engine::{Ctl, Error, Result};

/// A board of at most 64 cells, a bit per cell (`rows × cols`, row-major).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    pub rows: u8,
    pub cols: u8,
    pub bits: u64,
}

impl Board {
    pub fn full(rows: usize, cols: usize) -> Result<Board> {
        let n = rows
            .checked_mul(cols)
            .filter(|&n| n <= 64 && rows > 0 && cols > 0)
            .ok_or_else(|| {
                Error::limit(format!(
                    "a {rows}×{cols} board does not fit (at most 64 cells, none empty)"
                ))
            })?;
        Ok(Board {
            rows: rows as u8,
            cols: cols as u8,
            bits: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
        })
    }

    /// Rows separated by `|` or newlines; `.` marks an empty cell, `#` a filled one.
    pub fn parse(text: &str) -> Result<Board> {
        let rows = rows(text);
        let cols = rows.first().map_or(0, |r| r.chars().count());
        if rows.iter().any(|r| r.chars().count() != cols) {
            return Err(Error::invalid(
                "the rows of the board have different lengths",
            ));
        }
        let mut b = Board::full(rows.len(), cols)?;
        b.bits = 0;
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '.' => b.bits |= 1 << (r * cols + c),
                    '#' => {}
                    _ => {
                        return Err(Error::invalid(format!(
                            "{ch:?} in row {} is not a cell of the board",
                            r + 1
                        ))
                        .hint("write . for an empty cell and # for a filled one"));
                    }
                }
            }
        }
        Ok(b)
    }

    fn at(&self, r: usize, c: usize) -> bool {
        self.bits >> (r * self.cols as usize + c) & 1 == 1
    }

    /// The cells of the first column.
    fn left_edge(&self) -> u64 {
        (0..self.rows as usize).fold(0, |e, r| e | 1 << (r * self.cols as usize))
    }

    /// The cells 4-neighbouring the set bits of `cells` (any state), `left_edge` the first
    /// column's cells (worked out once by callers that step many times).
    fn neighbours(&self, cells: u64, left_edge: u64) -> u64 {
        let c = self.cols as u32;
        let right_edge = left_edge << (c - 1);
        cells.checked_shl(c).unwrap_or(0)
            | cells.checked_shr(c).unwrap_or(0)
            | ((cells & !right_edge) << 1)
            | ((cells & !left_edge) >> 1)
    }

    /// How many pairs (a cell of `a`, a cell of `b` just below it) there are (`vertical`), or
    /// (a cell of `a`, a cell of `b` just right of it).
    fn pairs(&self, a: u64, b: u64, vertical: bool) -> u32 {
        let cols = self.cols as usize;
        if vertical {
            (a & b.checked_shr(cols as u32).unwrap_or(0)).count_ones()
        } else {
            (a & (b & !self.left_edge()) >> 1).count_ones()
        }
    }

    /// The cells reachable from the set bits of `seed` through set bits, 4-neighbourly.
    fn flood(&self, seed: u64) -> u64 {
        let left_edge = self.left_edge();
        let mut cur = seed;
        loop {
            let next = (cur | self.neighbours(cur, left_edge)) & self.bits;
            if next == cur {
                return cur;
            }
            cur = next;
        }
    }

    /// The bounding box of the cells in `mask`: first row, first column, rows, columns.
    fn bounds(&self, mask: u64) -> (usize, usize, usize, usize) {
        // row by row, with no division: this runs for every component met
        let cols = self.cols as usize;
        let row_mask = u64::MAX >> (64 - cols);
        let (mut r0, mut r1, mut columns) = (usize::MAX, 0, 0u64);
        for r in 0..self.rows as usize {
            let row = mask >> (r * cols) & row_mask;
            if row != 0 {
                (r0, r1, columns) = (r0.min(r), r, columns | row);
            }
        }
        let (c0, c1) = (columns.trailing_zeros(), 63 - columns.leading_zeros());
        (r0, c0 as usize, r1 - r0 + 1, (c1 - c0 + 1) as usize)
    }

    /// The cells of `mask` inside the box `bounds`, as a board of the box's size.
    fn extract(&self, mask: u64, (r0, c0, rows, ncols): (usize, usize, usize, usize)) -> Board {
        let cols = self.cols as usize;
        let mut bits = 0;
        for r in 0..rows {
            let row = mask >> ((r + r0) * cols + c0) & (u64::MAX >> (64 - ncols));
            bits |= row << (r * ncols);
        }
        Board {
            rows: rows as u8,
            cols: ncols as u8,
            bits,
        }
    }

    /// The sub-board of the cells in `mask`, cropped to their bounding box.
    fn crop(&self, mask: u64) -> Board {
        self.extract(mask, self.bounds(mask))
    }

    /// The board and its flips: top-bottom, left-right, and both (row by row, not cell by
    /// cell: components are keyed by their least image, so this runs for every one met).
    fn flips(&self) -> [Board; 4] {
        let (rows, cols) = (self.rows as usize, self.cols as usize);
        let mask = u64::MAX >> (64 - cols);
        let (mut tb, mut lr) = (0u64, 0u64);
        for r in 0..rows {
            let row = self.bits >> (r * cols) & mask;
            tb |= row << ((rows - 1 - r) * cols);
            lr |= (row.reverse_bits() >> (64 - cols)) << (r * cols);
        }
        let mut both = 0u64;
        for r in 0..rows {
            let row = lr >> (r * cols) & mask;
            both |= row << ((rows - 1 - r) * cols);
        }
        [self.bits, tb, lr, both].map(|bits| Board { bits, ..*self })
    }

    /// The board reflected in its main diagonal.
    fn transposed(&self) -> Board {
        let cols = self.cols as usize;
        let rows = self.rows as usize;
        let mut bits = 0;
        let mut rest = self.bits;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            bits |= 1 << ((i % cols) * rows + i / cols);
        }
        Board {
            rows: self.cols,
            cols: self.rows,
            bits,
        }
    }

    /// The connected parts of the set cells, each cropped.
    fn parts(&self) -> Vec<Board> {
        let mut rest = self.bits;
        let mut out = vec![];
        while rest != 0 {
            let comp = self.flood(rest & rest.wrapping_neg());
            rest &= !comp;
            out.push(self.crop(comp));
        }
        out
    }
}

/// Domineering: Left places vertical dominoes, Right horizontal ones, on the empty cells.
pub struct Domineering;

impl Domineering {
    fn moves(b: &Board, vertical: bool) -> Vec<Board> {
        let (rows, cols) = (b.rows as usize, b.cols as usize);
        let mut out = vec![];
        for r in 0..rows {
            for c in 0..cols {
                let (r2, c2) = if vertical { (r + 1, c) } else { (r, c + 1) };
                if r2 < rows && c2 < cols && b.at(r, c) && b.at(r2, c2) {
                    let bits = b.bits & !(1 << (r * cols + c)) & !(1 << (r2 * cols + c2));
                    out.push(Board { bits, ..*b });
                }
            }
        }
        out
    }
}

impl Rules for Domineering {
    type Pos = Board;
    type Error = Error;
    fn left(&mut self, b: &Board) -> Result<Vec<Board>> {
        Ok(Domineering::moves(b, true))
    }
    fn right(&mut self, b: &Board) -> Result<Vec<Board>> {
        Ok(Domineering::moves(b, false))
    }
    /// Connected regions, single cells dropped, each the least of its four flips.
    fn components(&mut self, b: &Board) -> Vec<Board> {
        b.parts()
            .into_iter()
            .filter(|p| p.bits.count_ones() > 1)
            .map(|p| {
                let bits = p.flips().map(|q| q.bits).into_iter().min();
                Board {
                    bits: bits.expect("four flips"),
                    ..p
                }
            })
            .collect()
    }
    fn mobility(&mut self, b: &Board, left: bool) -> u32 {
        b.pairs(b.bits, b.bits, left)
    }
    /// The transposed board: Left's vertical dominoes become Right's horizontal ones.
    fn negative(&mut self, b: &Board) -> Option<Board> {
        Some(b.transposed())
    }
    /// Regions that fit an 8 × 8 frame go to the dedicated search [`DomSearch`].
    fn shortcut(&mut self, b: &Board, store: &mut Store, ctl: &Ctl) -> Result<Option<Game>> {
        if b.rows > 8 || b.cols > 8 {
            return Ok(None);
        }
        let frame = to_frame8(b.bits, b.rows, b.cols);
        DomSearch(Regions::new(store, ctl)).sum(frame).map(Some)
    }
    fn describe(&self, b: &Board) -> String {
        let mut s = String::new();
        for r in 0..b.rows as usize {
            if r > 0 {
                s.push('|');
            }
            for c in 0..b.cols as usize {
                s.push(if b.at(r, c) { '.' } else { '#' });
            }
        }
        s
    }
}

/// Cells of column 0 and of column 7 of the 8 × 8 frame of the dedicated searches (cell
/// (r, c) is bit 8r + c).
const COL0: u64 = 0x0101_0101_0101_0101;
const COL7: u64 = COL0 << 7;

/// The cells 4-neighbouring the cells of `x` in the frame.
fn neighbours8(x: u64) -> u64 {
    x << 8 | x >> 8 | (x & !COL7) << 1 | (x & !COL0) >> 1
}

/// The connected part of `cells` that holds the lowest of them.
fn first_part8(cells: u64) -> u64 {
    let mut part = cells & cells.wrapping_neg();
    loop {
        let grown = (part | neighbours8(part)) & cells;
        if grown == part {
            return part;
        }
        part = grown;
    }
}

/// Converts a board's bits (row-major, `cols` wide, at most 8 × 8) to the frame.
fn to_frame8(bits: u64, rows: u8, cols: u8) -> u64 {
    (0..rows as usize).fold(0, |f, r| {
        f | (bits >> (r * cols as usize) & ((1 << cols) - 1)) << (8 * r)
    })
}

/// The frame flipped about its main diagonal: cell (r, c) goes to (c, r) (the
/// chessprogramming wiki's flipDiagA1H8).
fn transpose8(mut x: u64) -> u64 {
    for (k, s) in [
        (0x0f0f_0f0f_0000_0000u64, 28),
        (0x3333_0000_3333_0000, 14),
        (0x5500_5500_5500_5500, 7),
    ] {
        let t = k & (x ^ (x << s));
        x ^= t ^ (t >> s);
    }
    x
}

/// How far cells `x` move to the frame's top-left corner, and the rows and columns of their box.
fn corner8(x: u64) -> (u32, u32, u32) {
    let columns = (0..8).fold(0, |m, r| m | x >> (8 * r)) & 0xff;
    let shift = x.trailing_zeros() / 8 * 8 + columns.trailing_zeros();
    let rows = 8 - x.leading_zeros() / 8 - x.trailing_zeros() / 8;
    (
        shift,
        rows,
        64 - columns.leading_zeros() - columns.trailing_zeros(),
    )
}

/// The images of cells `x` in the top-left box of `h` rows and `w` columns under the eight
/// symmetries of the box: bit 0 of the index flips top-bottom, bit 1 left-right, bit 2
/// transposes first (so images 4 to 7 swap rows and columns).
fn dihedral8(x: u64, h: u32, w: u32) -> [u64; 8] {
    std::array::from_fn(|k| {
        let (mut y, h, w) = if k & 4 != 0 {
            (transpose8(x), w, h)
        } else {
            (x, h, w)
        };
        if k & 1 != 0 {
            y = y.swap_bytes() >> (8 * (8 - h));
        }
        if k & 2 != 0 {
            y = y.reverse_bits().swap_bytes() >> (8 - w);
        }
        y
    })
}

/// The key of a non-empty Domineering region given as cells of the frame: the least of its
/// images under the box's symmetries (moved to the top-left corner, so the key alone gives the
/// region), and whether that image is transposed, which swaps the players: then the key's
/// value is the region's negative.
fn domineering_key(x: u64) -> (u64, bool) {
    let (shift, h, w) = corner8(x);
    let images = dihedral8(x >> shift, h, w);
    (0..8)
        .map(|k| (images[k], k >= 4))
        .min()
        .expect("eight images")
}

/// The key of a Clobber group (black cells `b`, white `w` of the frame, `b << 64 | w`): the
/// least of its images under the box's symmetries, and with the colours swapped (`true`: the
/// key's value is the group's negative).
fn clobber_key(b: u64, w: u64) -> (u128, bool) {
    let (shift, rows, cols) = corner8(b | w);
    let (ib, iw) = (
        dihedral8(b >> shift, rows, cols),
        dihedral8(w >> shift, rows, cols),
    );
    let pair = |x: u64, y: u64| (x as u128) << 64 | y as u128;
    (0..8)
        .flat_map(|k| [(pair(ib[k], iw[k]), false), (pair(iw[k], ib[k]), true)])
        .min()
        .expect("sixteen images")
}

/// Bytes per memo entry of the dedicated searches with the table's overhead (the estimate).
const REGION_ENTRY: u64 = 48;

/// The values of a dedicated search's regions by key, within the memory budget.
struct Regions<'a, K> {
    store: &'a mut Store,
    memo: Map<K, Game>,
    task: Task<'a>,
    budget: u64,
}

impl<'a, K: std::hash::Hash + Eq> Regions<'a, K> {
    fn new(store: &'a mut Store, ctl: &'a Ctl) -> Regions<'a, K> {
        Regions {
            store,
            memo: Map::default(),
            task: ctl.task("partizan search (regions)", None),
            budget: ctl.memory(),
        }
    }

    /// Memoizes `g` for `key`, reporting progress and polling cancellation and the budget now
    /// and then.
    fn insert(&mut self, key: K, g: Game, what: &str) -> Result<()> {
        self.memo.insert(key, g);
        if self.memo.len().is_multiple_of(4096) {
            self.task.set(self.memo.len() as u64)?;
            let bytes = self.memo.len() as u64 * REGION_ENTRY + self.store.bytes();
            if bytes > self.budget {
                return Err(over_budget(bytes, self.budget, what));
            }
        }
        Ok(())
    }

    /// The value of a part found by key, negated when `neg`, added to `total`.
    fn add(&mut self, total: Game, part: Game, neg: bool) -> Result<Game> {
        let g = if neg { self.store.neg(part)? } else { part };
        self.store.add(total, g)
    }
}

/// Domineering values by a search over regions as cells of the frame: a region splits into
/// connected parts whose values add, and each part is memoized once for its eight images
/// ([`domineering_key`]).
struct DomSearch<'a>(Regions<'a, u64>);

impl DomSearch<'_> {
    /// The value of any set of cells: the sum of its connected parts.
    fn sum(&mut self, mut cells: u64) -> Result<Game> {
        let mut total = self.0.store.zero();
        while cells != 0 {
            let part = first_part8(cells);
            cells &= !part;
            if part.count_ones() >= 2 {
                let (key, neg) = domineering_key(part);
                let g = self.part(key)?;
                total = self.0.add(total, g, neg)?;
            }
        }
        Ok(total)
    }

    /// The value of a connected region given by its key.
    fn part(&mut self, key: u64) -> Result<Game> {
        if let Some(&g) = self.0.memo.get(&key) {
            return Ok(g);
        }
        let mut left = vec![];
        let mut vertical = key & key >> 8;
        while vertical != 0 {
            let top = vertical & vertical.wrapping_neg();
            vertical &= vertical - 1;
            left.push(self.sum(key & !(top | top << 8))?);
        }
        let mut right = vec![];
        let mut horizontal = key & key >> 1 & !COL7;
        while horizontal != 0 {
            let first = horizontal & horizontal.wrapping_neg();
            horizontal &= horizontal - 1;
            right.push(self.sum(key & !(first | first << 1))?);
        }
        let g = self.0.store.canonical(left, right)?;
        self.0.insert(key, g, "the Domineering search")?;
        Ok(g)
    }
}

/// Clobber values by a search over black and white cells of the frame, each group of stones
/// memoized once for its sixteen images ([`clobber_key`]).
struct ClobberSearch<'a>(Regions<'a, u128>);

impl ClobberSearch<'_> {
    /// The value of any position: the sum of its groups with both colours.
    fn sum(&mut self, b: u64, w: u64) -> Result<Game> {
        let mut total = self.0.store.zero();
        let mut cells = b | w;
        while cells != 0 {
            let part = first_part8(cells);
            cells &= !part;
            if part & b != 0 && part & w != 0 {
                let (key, neg) = clobber_key(b & part, w & part);
                let g = self.part(key)?;
                total = self.0.add(total, g, neg)?;
            }
        }
        Ok(total)
    }

    /// The value of a group given by its key.
    fn part(&mut self, key: u128) -> Result<Game> {
        if let Some(&g) = self.0.memo.get(&key) {
            return Ok(g);
        }
        let (b, w) = ((key >> 64) as u64, key as u64);
        let mut opts = [vec![], vec![]];
        for (side, mine, theirs) in [(0, b, w), (1, w, b)] {
            let mut from = mine;
            while from != 0 {
                let f = from & from.wrapping_neg();
                from &= from - 1;
                let mut to = neighbours8(f) & theirs;
                while to != 0 {
                    let t = to & to.wrapping_neg();
                    to &= to - 1;
                    let (m, o) = (mine & !f | t, theirs & !t);
                    let (nb, nw) = if side == 0 { (m, o) } else { (o, m) };
                    opts[side].push(self.sum(nb, nw)?);
                }
            }
        }
        let [left, right] = opts;
        let g = self.0.store.canonical(left, right)?;
        self.0.insert(key, g, "the Clobber search")?;
        Ok(g)
    }
}

/// A Clobber board of at most 64 cells (row-major bits): Left's black stones and Right's
/// white ones.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Stones {
    pub rows: u8,
    pub cols: u8,
    pub black: u64,
    pub white: u64,
}

impl Stones {
    /// Rows separated by `|` or newlines: `x` black (Left), `o` white (Right), `.` empty.
    pub fn parse(text: &str) -> Result<Stones> {
        let rows = rows(text);
        let cols = rows.first().map_or(0, |r| r.chars().count());
        let b = Board::full(rows.len(), cols)?;
        let mut s = Stones {
            rows: b.rows,
            cols: b.cols,
            black: 0,
            white: 0,
        };
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != cols {
                return Err(Error::invalid(
                    "the rows of the board have different lengths",
                ));
            }
            for (c, ch) in row.chars().enumerate() {
                let bit = 1u64 << (r * cols + c);
                match ch {
                    '.' => {}
                    'x' | 'X' => s.black |= bit,
                    'o' | 'O' => s.white |= bit,
                    _ => {
                        return Err(Error::invalid(format!("`{ch}` is not a Clobber cell"))
                            .hint("use x (Left), o (Right) and . (empty)"));
                    }
                }
            }
        }
        Ok(s)
    }

    /// The cell `i`: 0 empty, 1 black, 2 white.
    pub fn cell(&self, i: usize) -> u8 {
        (self.black >> i & 1) as u8 | ((self.white >> i & 1) as u8) << 1
    }

    fn board(&self, bits: u64) -> Board {
        Board {
            rows: self.rows,
            cols: self.cols,
            bits,
        }
    }
}

/// Clobber: a player moves one of their stones onto an orthogonally adjacent opposing stone,
/// which is removed.
pub struct Clobber;

impl Clobber {
    fn moves(s: &Stones, black: bool) -> Vec<Stones> {
        let (mine, theirs) = if black {
            (s.black, s.white)
        } else {
            (s.white, s.black)
        };
        let board = s.board(theirs);
        let left_edge = board.left_edge();
        let mut out = vec![];
        let mut rest = mine;
        while rest != 0 {
            let from = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let mut targets = board.neighbours(from, left_edge) & theirs;
            while targets != 0 {
                let to = targets & targets.wrapping_neg();
                targets &= targets - 1;
                let (m, t) = (mine & !from | to, theirs & !to);
                out.push(if black {
                    Stones {
                        black: m,
                        white: t,
                        ..*s
                    }
                } else {
                    Stones {
                        black: t,
                        white: m,
                        ..*s
                    }
                });
            }
        }
        out
    }
}

impl Rules for Clobber {
    type Pos = Stones;
    type Error = Error;
    fn left(&mut self, s: &Stones) -> Result<Vec<Stones>> {
        Ok(Clobber::moves(s, true))
    }
    fn right(&mut self, s: &Stones) -> Result<Vec<Stones>> {
        Ok(Clobber::moves(s, false))
    }
    /// Connected groups of stones with both colours, cropped, the least of their symmetries.
    fn components(&mut self, s: &Stones) -> Vec<Stones> {
        let stones = s.board(s.black | s.white);
        let mut out = vec![];
        let mut rest = stones.bits;
        while rest != 0 {
            let comp = stones.flood(rest & rest.wrapping_neg());
            rest &= !comp;
            if comp & s.black == 0 || comp & s.white == 0 {
                continue;
            }
            let bounds = stones.bounds(comp);
            let (b, w) = (
                s.board(s.black).extract(comp & s.black, bounds),
                s.board(s.white).extract(comp & s.white, bounds),
            );
            // the eight symmetries: the flips of the board and of its transpose; images with
            // fewer rows come first in the order, so a board that is not square needs only
            // the flips of its wide form
            let (wide, tall) = if b.rows <= b.cols {
                (
                    (b, w),
                    (b.rows == b.cols).then(|| (b.transposed(), w.transposed())),
                )
            } else {
                ((b.transposed(), w.transposed()), None)
            };
            let flips = |(b, w): (Board, Board)| b.flips().into_iter().zip(w.flips());
            let images = flips(wide).chain(tall.into_iter().flat_map(flips));
            let least = images.map(|(b, w)| Stones {
                rows: b.rows,
                cols: b.cols,
                black: b.bits,
                white: w.bits,
            });
            out.push(least.min().expect("eight symmetries"));
        }
        out
    }
    /// The colours swapped.
    fn negative(&mut self, s: &Stones) -> Option<Stones> {
        Some(Stones {
            black: s.white,
            white: s.black,
            ..*s
        })
    }
    /// Stones of the player's next to opposing ones, in each of the four directions.
    fn mobility(&mut self, s: &Stones, left: bool) -> u32 {
        let (mine, theirs) = if left {
            (s.black, s.white)
        } else {
            (s.white, s.black)
        };
        let b = s.board(0);
        [true, false]
            .into_iter()
            .map(|v| b.pairs(mine, theirs, v) + b.pairs(theirs, mine, v))
            .sum()
    }
    /// Boards that fit an 8 × 8 frame go to the dedicated search [`ClobberSearch`].
    fn shortcut(&mut self, s: &Stones, store: &mut Store, ctl: &Ctl) -> Result<Option<Game>> {
        if s.rows > 8 || s.cols > 8 {
            return Ok(None);
        }
        let (b, w) = (
            to_frame8(s.black, s.rows, s.cols),
            to_frame8(s.white, s.rows, s.cols),
        );
        ClobberSearch(Regions::new(store, ctl)).sum(b, w).map(Some)
    }
    fn describe(&self, s: &Stones) -> String {
        (0..s.rows as usize)
            .map(|r| {
                (0..s.cols as usize)
                    .map(|c| ['.', 'x', 'o'][s.cell(r * s.cols as usize + c) as usize])
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("|")
    }
}

/// The colour of a Hackenbush edge: Blue is Left's, Red is Right's, Green is both players'.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Colour {
    Blue,
    Red,
    Green,
}

/// A Hackenbush picture: edges between vertices, vertex 0 the ground.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Picture {
    pub edges: Vec<(u32, u32, Colour)>,
}

impl Picture {
    /// A string of edges from the ground up: `B` blue, `R` red, `G` green (`BRR` = 1/4).
    pub fn string(colours: &str) -> Result<Picture> {
        let edges = colours
            .chars()
            .enumerate()
            .map(|(i, ch)| {
                let c = match ch.to_ascii_uppercase() {
                    'B' | 'L' => Colour::Blue,
                    'R' => Colour::Red,
                    'G' => Colour::Green,
                    _ => {
                        return Err(Error::invalid(format!("`{ch}` is not a Hackenbush colour"))
                            .hint("use B (blue, Left), R (red, Right), G (green)"));
                    }
                };
                Ok((i as u32, i as u32 + 1, c))
            })
            .collect::<Result<_>>()?;
        let p = Picture { edges };
        p.check()?;
        Ok(p)
    }

    /// Keeps the edges still connected to the ground (vertices are below 64).
    fn grounded(mut self) -> Picture {
        let mut reach = 1u64;
        loop {
            let before = reach;
            for &(a, b, _) in &self.edges {
                if (reach >> a | reach >> b) & 1 == 1 {
                    reach |= 1 << a | 1 << b;
                }
            }
            if reach == before {
                break;
            }
        }
        self.edges.retain(|e| reach >> e.0 & 1 == 1);
        self
    }

    /// Refuses pictures with vertex numbers past 63.
    pub fn check(&self) -> Result<()> {
        match self.edges.iter().find(|e| e.0 > 63 || e.1 > 63) {
            Some(e) => Err(Error::limit(format!(
                "vertex {} is past 63: Hackenbush pictures here have at most 64 vertices",
                e.0.max(e.1)
            ))),
            None => Ok(()),
        }
    }
}

/// Hackenbush: a player removes an edge of their colour (or a green one); whatever is no
/// longer connected to the ground falls off.
pub struct Hackenbush;

impl Hackenbush {
    fn moves(p: &Picture, mine: Colour) -> Vec<Picture> {
        (0..p.edges.len())
            .filter(|&i| p.edges[i].2 == mine || p.edges[i].2 == Colour::Green)
            .map(|i| {
                let mut q = p.clone();
                q.edges.remove(i);
                q.grounded()
            })
            .collect()
    }
}

impl Rules for Hackenbush {
    type Pos = Picture;
    type Error = Error;
    fn left(&mut self, p: &Picture) -> Result<Vec<Picture>> {
        p.check()?;
        Ok(Hackenbush::moves(p, Colour::Blue))
    }
    fn right(&mut self, p: &Picture) -> Result<Vec<Picture>> {
        Ok(Hackenbush::moves(p, Colour::Red))
    }
    /// The grounded parts that meet only at the ground, with vertices renumbered in order of
    /// appearance.
    fn components(&mut self, p: &Picture) -> Vec<Picture> {
        // edges that hang off nothing have fallen already
        let p = &p.clone().grounded();
        // union-find over the vertices other than the ground
        let mut up: [u8; 64] = std::array::from_fn(|i| i as u8);
        fn find(up: &mut [u8; 64], mut v: u8) -> u8 {
            while up[v as usize] != v {
                up[v as usize] = up[up[v as usize] as usize];
                v = up[v as usize];
            }
            v
        }
        for &(a, b, _) in &p.edges {
            if a != 0 && b != 0 {
                let (x, y) = (find(&mut up, a as u8), find(&mut up, b as u8));
                up[x as usize] = y;
            }
        }
        type Edges = Vec<(u32, u32, Colour)>;
        let mut parts: Vec<(u8, Edges)> = vec![];
        for &(a, b, c) in &p.edges {
            let root = find(&mut up, a.max(b) as u8);
            match parts.iter_mut().find(|q| q.0 == root) {
                Some(q) => q.1.push((a, b, c)),
                None => parts.push((root, vec![(a, b, c)])),
            }
        }
        parts
            .into_iter()
            .map(|(_, mut es)| {
                es.sort();
                let mut names = [u32::MAX; 64];
                names[0] = 0;
                let mut count = 1;
                let mut name = |v: u32| {
                    if names[v as usize] == u32::MAX {
                        names[v as usize] = count;
                        count += 1;
                    }
                    names[v as usize]
                };
                let mut edges: Vec<_> = es
                    .into_iter()
                    .map(|(a, b, c)| {
                        let (x, y) = (name(a), name(b));
                        (x.min(y), x.max(y), c)
                    })
                    .collect();
                edges.sort();
                Picture { edges }
            })
            .collect()
    }
    fn describe(&self, p: &Picture) -> String {
        format!("a Hackenbush picture of {} edges", p.edges.len())
    }
    /// Blue-Red pictures (no green edge) of at most 64 edges are numbers: [`BlueRed`].
    fn shortcut(&mut self, p: &Picture, store: &mut Store, ctl: &Ctl) -> Result<Option<Game>> {
        if p.edges.len() > 64 || p.edges.iter().any(|e| e.2 == Colour::Green) {
            return Ok(None);
        }
        p.check()?;
        let x = BlueRed::new(p, ctl).value()?;
        store.number(x).map(Some)
    }
}

/// Blue-Red Hackenbush, where every position is a number (*Winning Ways*, ch. 2): a set of
/// edges as bits, valued as the simplest number between Left's best option and Right's, so no
/// canonical forms are built.
///
/// Whatever hangs from a single vertex is replaced by its value. This is the colon principle,
/// which holds in partizan Hackenbush too (A. N. Walker, lecture notes "Impartial Hackenbush",
/// G13GAM, Nottingham; *Winning Ways*, ch. 7): if H and I hang from a vertex v of G and
/// H = I, then G:H = G:I, since in G:H − G:I the second player answers a move in G by its
/// mirror image (which cuts v off on both sides or on neither) and a move in H or −I by the
/// winning answer in H − I. The proof uses nothing of H but its moves while v stands, so H may
/// be any game; here it is the number x hanging there in canonical form, whose one Left move
/// goes to x's left option and one Right move to its right option. So a part is searched as
/// its block at the root (no vertex of it cuts edges off) with a number at each other vertex,
/// and a block of one edge is that edge with its number on top: a tree is valued at once.
struct BlueRed {
    /// per edge, its two end vertices as bits
    ends: Vec<u64>,
    /// per vertex, the edges that touch it
    touching: [u64; 64],
    blue: u64,
    all: u64,
    memo: Map<Block, Dyadic>,
    /// the memo's estimated bytes
    bytes: u64,
    ctl: Ctl,
    budget: u64,
}

/// A block searched: its root vertex, its edges (no vertex but the root cuts any off), and the
/// numbers hanging at its other vertices (by vertex, none zero).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Block {
    root: u8,
    edges: u64,
    hang: Vec<(u8, Dyadic)>,
}

/// Bytes per memo entry with the table's overhead, and per hanging number (the estimate).
const BLOCK_ENTRY: u64 = 80;
const HANG_ENTRY: u64 = 24;

impl BlueRed {
    fn new(p: &Picture, ctl: &Ctl) -> BlueRed {
        let mut touching = [0u64; 64];
        let mut blue = 0;
        for (i, &(a, b, c)) in p.edges.iter().enumerate() {
            touching[a as usize] |= 1 << i;
            touching[b as usize] |= 1 << i;
            if c == Colour::Blue {
                blue |= 1 << i;
            }
        }
        BlueRed {
            ends: p.edges.iter().map(|&(a, b, _)| 1 << a | 1 << b).collect(),
            touching,
            blue,
            all: if p.edges.len() == 64 {
                u64::MAX
            } else {
                (1 << p.edges.len()) - 1
            },
            memo: Map::default(),
            bytes: 0,
            ctl: ctl.clone(),
            budget: ctl.memory(),
        }
    }

    /// The value of the whole picture: what stands on the ground.
    fn value(&mut self) -> Result<Dyadic> {
        self.piece(0, self.reach(self.all, 1, 0), vec![])
    }

    /// The edges of `edges` reached from the vertices `from` without passing a vertex of
    /// `wall` (the edges at a wall vertex are reached, not crossed).
    fn reach(&self, edges: u64, from: u64, wall: u64) -> u64 {
        let (mut seen, mut frontier, mut kept) = (from, from, 0u64);
        while frontier != 0 {
            let v = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let mut new = self.touching[v] & edges & !kept;
            kept |= new;
            while new != 0 {
                let w = self.ends[new.trailing_zeros() as usize] & !seen;
                new &= new - 1;
                seen |= w;
                frontier |= w & !wall;
            }
        }
        kept
    }

    /// The vertices the edges of `edges` touch.
    fn vertices(&self, edges: u64) -> u64 {
        let (mut vs, mut rest) = (0, edges);
        while rest != 0 {
            vs |= self.ends[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        vs
    }

    /// The value of `edges`, all connected to `root`, with the numbers `hang` at other
    /// vertices: the sum of its parts that meet only at the root.
    fn piece(&mut self, root: usize, edges: u64, hang: Vec<(u8, Dyadic)>) -> Result<Dyadic> {
        let at_root = 1u64 << root;
        let (mut sum, mut rest) = (Dyadic::ZERO, edges);
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            // the root is never crossed, so the search stays inside one part
            let part = self.reach(rest, self.ends[e] & !at_root, at_root) | 1 << e;
            if part == edges {
                return self.part(root, edges, hang);
            }
            rest &= !part;
            let vs = self.vertices(part);
            let h = hang.iter().filter(|h| vs >> h.0 & 1 == 1).copied();
            sum = sum.add(self.part(root, part, h.collect())?)?;
        }
        Ok(sum)
    }

    /// The value of one part at `root`: what a vertex cuts off from the root is valued and
    /// hung there as a number, and the block left at the root searched.
    fn part(&mut self, root: usize, edges: u64, mut hang: Vec<(u8, Dyadic)>) -> Result<Dyadic> {
        let mut block = edges;
        let mut rest = self.vertices(edges) & !(1 << root);
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.touching[v] & block == 0 {
                continue;
            }
            let off = block & !self.reach(block, 1 << root, 1 << v);
            if off == 0 {
                continue;
            }
            block &= !off;
            let inside = self.vertices(off) & !(1 << v);
            let (sub, keep): (Vec<_>, Vec<_>) =
                hang.into_iter().partition(|h| inside >> h.0 & 1 == 1);
            hang = keep;
            let x = self.piece(v, off, sub)?;
            hang_add(&mut hang, v as u8, x)?;
        }
        let n = block.count_ones() as i64;
        if n == 1 {
            let top = self.ends[block.trailing_zeros() as usize] & !(1 << root);
            let x = hang.first().filter(|h| top >> h.0 & 1 == 1);
            return on_edge(block & self.blue != 0, x.map_or(Dyadic::ZERO, |h| h.1));
        }
        // one colour and nothing hanging: each edge is a free move for its owner
        if hang.is_empty() && block & !self.blue == 0 {
            return Ok(Dyadic::int(n));
        }
        if hang.is_empty() && block & self.blue == 0 {
            return Ok(Dyadic::int(-n));
        }
        self.block(Block {
            root: root as u8,
            edges: block,
            hang,
        })
    }

    /// The simplest number between Left's best option and Right's: cutting an edge of the
    /// block, or moving a hanging number to its option.
    fn block(&mut self, b: Block) -> Result<Dyadic> {
        if let Some(&x) = self.memo.get(&b) {
            return Ok(x);
        }
        let root = b.root as usize;
        let (mut left, mut right): (Option<Dyadic>, Option<Dyadic>) = (None, None);
        let mut rest = b.edges;
        while rest != 0 {
            let e = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let edges = self.reach(b.edges & !e, 1 << root, 0);
            let vs = self.vertices(edges);
            let hang = b.hang.iter().filter(|h| vs >> h.0 & 1 == 1).copied();
            let x = self.piece(root, edges, hang.collect())?;
            if e & self.blue != 0 {
                left = Some(left.map_or(x, |l| l.max(x)));
            } else {
                right = Some(right.map_or(x, |r| r.min(x)));
            }
        }
        for i in 0..b.hang.len() {
            let (l, r) = number_options(b.hang[i].1)?;
            for (to, is_left) in [(l, true), (r, false)] {
                let Some(to) = to else { continue };
                let mut hang = b.hang.clone();
                if to == Dyadic::ZERO {
                    hang.remove(i);
                } else {
                    hang[i].1 = to;
                }
                let x = self.block(Block {
                    root: b.root,
                    edges: b.edges,
                    hang,
                })?;
                if is_left {
                    left = Some(left.map_or(x, |l| l.max(x)));
                } else {
                    right = Some(right.map_or(x, |r| r.min(x)));
                }
            }
        }
        let x = Dyadic::simplest_between(left, right)?;
        self.bytes += BLOCK_ENTRY + HANG_ENTRY * b.hang.len() as u64;
        self.memo.insert(b, x);
        if self.memo.len().is_multiple_of(4096) {
            self.ctl.check()?;
            if self.bytes > self.budget {
                return Err(over_budget(
                    self.bytes,
                    self.budget,
                    "the Hackenbush search",
                ));
            }
        }
        Ok(x)
    }
}

/// Adds `x` to the number hanging at vertex `v` (the list kept by vertex, without zeros).
fn hang_add(hang: &mut Vec<(u8, Dyadic)>, v: u8, x: Dyadic) -> Result<()> {
    match hang.binary_search_by_key(&v, |h| h.0) {
        Ok(i) => {
            hang[i].1 = hang[i].1.add(x)?;
            if hang[i].1 == Dyadic::ZERO {
                hang.remove(i);
            }
        }
        Err(i) if x != Dyadic::ZERO => hang.insert(i, (v, x)),
        Err(_) => {}
    }
    Ok(())
}

/// The options of the number `x` in canonical form: `n` is `{n-1 |}` for n > 0 and `{| n+1}`
/// for n < 0, `m/2^k` (m odd) is `{(m-1)/2^k | (m+1)/2^k}`.
fn number_options(x: Dyadic) -> Result<(Option<Dyadic>, Option<Dyadic>)> {
    if x.is_integer() {
        let n = x.numerator();
        return Ok(match n.signum() {
            1 => (Some(Dyadic::int(n - 1)), None),
            -1 => (None, Some(Dyadic::int(n + 1))),
            _ => (None, None),
        });
    }
    let step = Dyadic::new(1, x.exponent())?;
    Ok((Some(x.sub(step)?), Some(x.add(step)?)))
}

/// Calls `f` with each sign of the sign expansion of `x` (`true` a +): the path from 0 down
/// Conway's tree of numbers, steps of 1 while the signs agree, then halving after the first
/// change.
fn for_signs(x: Dyadic, mut f: impl FnMut(bool) -> Result<()>) -> Result<()> {
    let one = Dyadic::int(1);
    let (mut cur, mut step, mut first) = (Dyadic::ZERO, one, None);
    while cur != x {
        let up = x > cur;
        if first.is_some_and(|s| s != up) && step == one {
            step = step.half()?;
        }
        first.get_or_insert(up);
        cur = if up { cur.add(step)? } else { cur.sub(step)? };
        if step != one {
            step = step.half()?;
        }
        f(up)?;
    }
    Ok(())
}

/// An edge (Blue when `blue`) with `y` standing on it: the number whose sign expansion is the
/// edge's sign followed by y's (the ordinal sum of numbers: Conway, *On Numbers and Games*,
/// ch. 3; Berlekamp's rule for Hackenbush strings, *Winning Ways*, ch. 2).
fn on_edge(blue: bool, y: Dyadic) -> Result<Dyadic> {
    let sign = Dyadic::int(if blue { 1 } else { -1 });
    if y == Dyadic::ZERO || (y > Dyadic::ZERO) == blue {
        return y.add(sign);
    }
    // every sign of y comes after the change of sign, so each halves the step
    let (mut out, mut step) = (sign, Dyadic::int(1));
    for_signs(y, |up| {
        step = step.half()?;
        out = if up { out.add(step)? } else { out.sub(step)? };
        Ok(())
    })?;
    Ok(out)
}

/// Toads and Frogs on a strip: `T` toads (Left) move or jump one frog rightwards, `F` frogs
/// (Right) leftwards, onto an empty square `.`.
pub struct ToadsAndFrogs;

impl ToadsAndFrogs {
    /// A strip such as `TT..FF` (`_` and `□` also mark an empty square).
    pub fn parse(text: &str) -> Result<Vec<u8>> {
        let mut cells = vec![];
        for ch in text.chars().filter(|c| !c.is_whitespace()) {
            cells.push(match ch {
                'T' => b'T',
                'F' => b'F',
                '.' | '_' | '□' => b'.',
                _ => {
                    return Err(
                        Error::invalid(format!("`{ch}` is not a Toads-and-Frogs square"))
                            .hint("use T (toad, Left), F (frog, Right) and . or _ or □ (empty)"),
                    );
                }
            });
        }
        Ok(cells)
    }

    fn moves(s: &[u8], toad: bool) -> Vec<Vec<u8>> {
        let (me, other) = if toad { (b'T', b'F') } else { (b'F', b'T') };
        let step = |i: usize, k: usize| {
            if toad {
                i.checked_add(k)
            } else {
                i.checked_sub(k)
            }
        };
        let mut out = vec![];
        for i in 0..s.len() {
            if s[i] != me {
                continue;
            }
            let to = match step(i, 1).and_then(|j| s.get(j).map(|&c| (j, c))) {
                Some((j, b'.')) => Some(j),
                Some((_, c)) if c == other => step(i, 2).filter(|&j| s.get(j) == Some(&b'.')),
                _ => None,
            };
            if let Some(j) = to {
                let mut t = s.to_vec();
                t[i] = b'.';
                t[j] = me;
                out.push(t);
            }
        }
        out
    }
}

impl Rules for ToadsAndFrogs {
    type Pos = Vec<u8>;
    type Error = Error;
    fn left(&mut self, s: &Vec<u8>) -> Result<Vec<Vec<u8>>> {
        Ok(ToadsAndFrogs::moves(s, true))
    }
    fn right(&mut self, s: &Vec<u8>) -> Result<Vec<Vec<u8>>> {
        Ok(ToadsAndFrogs::moves(s, false))
    }
    /// Frogs at the left end and toads at the right end are stuck for good: cut them off.
    fn components(&mut self, s: &Vec<u8>) -> Vec<Vec<u8>> {
        let a = s.iter().position(|&c| c != b'F').unwrap_or(s.len());
        let b = s
            .iter()
            .rposition(|&c| c != b'T')
            .map_or(a, |b| b + 1)
            .max(a);
        let t = s[a..b].to_vec();
        if t.iter().any(|&c| c != b'.') {
            vec![t]
        } else {
            vec![]
        }
    }
    fn describe(&self, s: &Vec<u8>) -> String {
        String::from_utf8_lossy(s).into_owned()
    }
}

/// Cake cutting on a sum of `width × height` cakes. Cutcake: Left cuts one cake along a
/// vertical line (splitting its width), Right along a horizontal one. Maundy Cake
/// (`maundy`): Left divides a cake's width into any number ≥ 2 of equal parts, Right its
/// height.
pub struct Cake {
    pub maundy: bool,
}

/// The most cakes one side's option list may hold in all (with their vectors, some 100 bytes each).
const MAX_OPTION_CAKES: u64 = 1 << 16;

/// The divisors of `n` from 2 on, in increasing order.
fn divisors(n: u32) -> Vec<u32> {
    let (mut low, mut high) = (vec![], vec![]);
    let mut d = 1u32;
    while u64::from(d) * u64::from(d) <= u64::from(n) {
        if n.is_multiple_of(d) {
            low.push(d);
            if d != n / d {
                high.push(n / d);
            }
        }
        d += 1;
    }
    low.extend(high.into_iter().rev());
    low.retain(|&d| d >= 2);
    low
}

fn cuts(cakes: &[(u32, u32)], vertical: bool, maundy: bool) -> Result<Vec<Vec<(u32, u32)>>> {
    // the option list is counted before it is built: a cake of 2^31 rows has 2^30 cuts
    let size = |n: u32| -> u64 {
        let rest = cakes.len() as u64 - 1;
        if maundy {
            divisors(n).iter().map(|&p| rest + u64::from(p)).sum()
        } else {
            u64::from(n / 2) * (rest + 2)
        }
    };
    let total: u64 = cakes
        .iter()
        .map(|&(w, h)| size(if vertical { w } else { h }))
        .sum();
    if total > MAX_OPTION_CAKES {
        return Err(Error::limit(format!(
            "too many to list: the options of this position hold {total} cakes (at most {MAX_OPTION_CAKES})"
        ))
        .hint("try a smaller cake"));
    }
    let mut out = vec![];
    for (i, &(w, h)) in cakes.iter().enumerate() {
        let n = if vertical { w } else { h };
        let rest = || {
            cakes[..i]
                .iter()
                .chain(&cakes[i + 1..])
                .copied()
                .collect::<Vec<_>>()
        };
        let piece = |k: u32| if vertical { (k, h) } else { (w, k) };
        if maundy {
            for parts in divisors(n) {
                let mut v = rest();
                v.extend(std::iter::repeat_n(piece(n / parts), parts as usize));
                out.push(v);
            }
        } else {
            for a in 1..=n / 2 {
                let mut v = rest();
                v.extend([piece(a), piece(n - a)]);
                out.push(v);
            }
        }
    }
    Ok(out)
}

fn single_cakes(cakes: &[(u32, u32)]) -> Vec<Vec<(u32, u32)>> {
    cakes
        .iter()
        .filter(|&&(w, h)| w > 1 || h > 1)
        .map(|&c| vec![c])
        .collect()
}

impl Rules for Cake {
    type Pos = Vec<(u32, u32)>;
    type Error = Error;
    fn left(&mut self, c: &Self::Pos) -> Result<Vec<Self::Pos>> {
        cuts(c, true, self.maundy)
    }
    fn right(&mut self, c: &Self::Pos) -> Result<Vec<Self::Pos>> {
        cuts(c, false, self.maundy)
    }
    fn components(&mut self, c: &Self::Pos) -> Vec<Self::Pos> {
        single_cakes(c)
    }
    fn describe(&self, c: &Self::Pos) -> String {
        format!("{c:?}")
    }
}

/// A partizan subtraction game on one heap: Left takes an amount in `left`, Right in `right`.
pub struct Subtraction {
    pub left: Vec<u64>,
    pub right: Vec<u64>,
}

impl Rules for Subtraction {
    type Pos = u64;
    type Error = Error;
    fn left(&mut self, &n: &u64) -> Result<Vec<u64>> {
        Ok(self
            .left
            .iter()
            .filter(|&&k| k >= 1 && k <= n)
            .map(|k| n - k)
            .collect())
    }
    fn right(&mut self, &n: &u64) -> Result<Vec<u64>> {
        Ok(self
            .right
            .iter()
            .filter(|&&k| k >= 1 && k <= n)
            .map(|k| n - k)
            .collect())
    }
    fn describe(&self, n: &u64) -> String {
        format!("heap {n}")
    }
}

/// A placement game on at most 64 sites: a player puts a piece on a site still open to them;
/// a Left piece on `v` closes `left_closes[v]` to Left and `left_blocks[v]` to Right (and Right's
/// pieces likewise). Col and Snort on graphs are the two classic cases.
#[derive(Clone, Debug)]
pub struct Placement {
    pub left_closes: Vec<u64>,
    pub left_blocks: Vec<u64>,
    pub right_closes: Vec<u64>,
    pub right_blocks: Vec<u64>,
}

/// Sites still open to Left and to Right.
pub type Open = (u64, u64);

impl Placement {
    fn neighbours(n: usize, edges: &[(usize, usize)]) -> Result<Vec<u64>> {
        if n > 64 {
            return Err(Error::limit(format!(
                "a graph of {n} vertices is too large here (at most 64)"
            )));
        }
        let mut adj = vec![0u64; n];
        for &(a, b) in edges {
            if a >= n || b >= n {
                return Err(Error::invalid(format!(
                    "the edge {a}–{b} leaves the {n} vertices"
                )));
            }
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
        Ok(adj)
    }

    /// Col: a vertex may not take the colour of a neighbour.
    pub fn col(n: usize, edges: &[(usize, usize)]) -> Result<Placement> {
        let adj = Placement::neighbours(n, edges)?;
        Ok(Placement {
            left_closes: adj.clone(),
            right_closes: adj,
            left_blocks: vec![0; n],
            right_blocks: vec![0; n],
        })
    }

    /// Snort: a vertex may not take a colour other than a neighbour's.
    pub fn snort(n: usize, edges: &[(usize, usize)]) -> Result<Placement> {
        let adj = Placement::neighbours(n, edges)?;
        Ok(Placement {
            left_blocks: adj.clone(),
            right_blocks: adj,
            left_closes: vec![0; n],
            right_closes: vec![0; n],
        })
    }

    /// Chess pieces on an empty `rows × cols` board: Left places `left` pieces, Right `right`
    /// pieces (`king`, `queen`, `rook`, `bishop`, `knight`); no piece may stand where it attacks
    /// an opposing piece or is attacked by one (attacks as on an empty board).
    pub fn pieces(rows: usize, cols: usize, left: &str, right: &str) -> Result<Placement> {
        if rows * cols > 64 || rows == 0 || cols == 0 {
            return Err(Error::limit(format!(
                "a {rows}×{cols} board does not fit (at most 64 squares)"
            )));
        }
        let attacks = |piece: &str| -> Result<Vec<u64>> {
            const ALL: [(i64, i64); 8] = [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ];
            let (steps, slide): (&[(i64, i64)], bool) = match piece {
                "king" => (&ALL, false),
                "queen" => (&ALL, true),
                "rook" => (&[(1, 0), (-1, 0), (0, 1), (0, -1)], true),
                "bishop" => (&[(1, 1), (1, -1), (-1, 1), (-1, -1)], true),
                "knight" => (
                    &[
                        (1, 2),
                        (2, 1),
                        (-1, 2),
                        (-2, 1),
                        (1, -2),
                        (2, -1),
                        (-1, -2),
                        (-2, -1),
                    ],
                    false,
                ),
                _ => {
                    return Err(Error::invalid(format!("`{piece}` is not a chess piece"))
                        .hint("use king, queen, rook, bishop or knight"));
                }
            };
            let mut out = vec![0u64; rows * cols];
            for (v, mask) in out.iter_mut().enumerate() {
                let (r, c) = ((v / cols) as i64, (v % cols) as i64);
                for &(dr, dc) in steps {
                    let (mut r2, mut c2) = (r + dr, c + dc);
                    while (0..rows as i64).contains(&r2) && (0..cols as i64).contains(&c2) {
                        *mask |= 1 << (r2 as usize * cols + c2 as usize);
                        if !slide {
                            break;
                        }
                        (r2, c2) = (r2 + dr, c2 + dc);
                    }
                }
            }
            Ok(out)
        };
        let (a, b) = (attacks(left)?, attacks(right)?);
        // attacks on an empty board are symmetric: v attacks u exactly when u attacks v
        let blocks: Vec<u64> = a.iter().zip(&b).map(|(x, y)| x | y).collect();
        Ok(Placement {
            left_closes: vec![0; rows * cols],
            right_closes: vec![0; rows * cols],
            left_blocks: blocks.clone(),
            right_blocks: blocks,
        })
    }

    /// Every site open to both players.
    pub fn start(&self) -> Open {
        let n = self.left_closes.len();
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        (all, all)
    }

    fn moves(&self, &(l, r): &Open, left: bool) -> Vec<Open> {
        let mine = if left { l } else { r };
        (0..self.left_closes.len())
            .filter(|v| mine >> v & 1 == 1)
            .map(|v| {
                let bit = 1u64 << v;
                if left {
                    (
                        l & !bit & !self.left_closes[v],
                        r & !bit & !self.left_blocks[v],
                    )
                } else {
                    (
                        l & !bit & !self.right_blocks[v],
                        r & !bit & !self.right_closes[v],
                    )
                }
            })
            .collect()
    }
}

impl Rules for Placement {
    type Pos = Open;
    type Error = Error;
    fn left(&mut self, p: &Open) -> Result<Vec<Open>> {
        Ok(self.moves(p, true))
    }
    fn right(&mut self, p: &Open) -> Result<Vec<Open>> {
        Ok(self.moves(p, false))
    }
    /// Sites that interact only through placements split into independent parts.
    fn components(&mut self, &(l, r): &Open) -> Vec<Open> {
        let live = l | r;
        let mut rest = live;
        let mut out = vec![];
        while rest != 0 {
            let mut comp = rest & rest.wrapping_neg();
            loop {
                let mut grow = comp;
                for v in 0..self.left_closes.len() {
                    if comp >> v & 1 == 1 {
                        grow |= (self.left_closes[v]
                            | self.left_blocks[v]
                            | self.right_closes[v]
                            | self.right_blocks[v])
                            & live;
                    }
                }
                // relations need not be symmetric: also take in sites that reach the part
                for v in 0..self.left_closes.len() {
                    let reach = self.left_closes[v]
                        | self.left_blocks[v]
                        | self.right_closes[v]
                        | self.right_blocks[v];
                    if live >> v & 1 == 1 && reach & comp != 0 {
                        grow |= 1 << v;
                    }
                }
                if grow == comp {
                    break;
                }
                comp = grow;
            }
            rest &= !comp;
            out.push((l & comp, r & comp));
        }
        out
    }
    fn describe(&self, (l, r): &Open) -> String {
        format!("sites open to Left {l:#x}, to Right {r:#x}")
    }
}

/// The cake list of one `width × height` cake.
pub fn cake(width: u32, height: u32) -> Result<Vec<(u32, u32)>> {
    if width == 0 || height == 0 {
        return Err(Error::invalid("a cake has at least one row and one column"));
    }
    Ok(vec![(width, height)])
}

/// The non-empty rows of a board written with rows separated by `|` or newlines.
fn rows(text: &str) -> Vec<&str> {
    text.split(['|', '\n'])
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .collect()
}
