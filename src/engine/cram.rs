//! Cram: a move fills two orthogonally adjacent empty cells of a grid; who cannot move loses
//! (Arc-Kayles on the grid graph). The board rules recognise it (docs/language.md, "Board games
//! by rules") and hand it here.
//!
//! A position is a bitboard of its empty cells (boards of at most 64 cells, stored with rows
//! no longer than columns). It splits into components, each simplified by two reductions that
//! keep its value: of several cells whose only neighbour is one cell, one is enough (the
//! moves they make give equal positions); and a cell each of whose neighbours has a neighbour
//! of its own of degree one can go (a move through it is answered by that neighbour's domino,
//! which leaves the same position). Isolated cells go, dominoes are `*1`, equal components
//! cancel. A component a half turn keeps is valued by the symmetry strategy where that decides
//! ([`mirror`]). A component's key is its image under the board symmetries that fit (8 on a
//! square, 4 on a rectangle, or 8 where a component fits turned), shifted to the corner, least.
//!
//! A component's nimber is found by Beling and Rogalski's search with cutoffs ("On pruning
//! search trees of impartial games", 2020): asking whether the nimber is in a set `S` needs
//! only its options' values while they can still decide it; the nimber itself is found by
//! asking, for k = 0, 1, ..., whether some option has value k. Easy options (small
//! components) go first, then those nearest the middle. Exact nimbers are kept in a memo
//! charged to the memory budget; past it the memo starts again, so answers never depend on
//! the budget, only the time. The search is one thread's, so nor do they on threads.
//!
//! The nimber of Cram on the 3 x 4 board:
//! ```
//! use gamut::engine::{Ctl, cram::Cram};
//! let c = Cram::new(3, 4).unwrap();
//! assert_eq!(c.grundy(&[true; 12], &Ctl::default()).unwrap(), 1);
//! ```
use crate::engine::board::Move;
use crate::engine::control::Task;
use crate::engine::{Ctl, Error, Result};
use hashbrown::HashMap;
use std::sync::Mutex;

/// The largest board the engine takes (a bitboard of one word).
pub const MAX_CELLS: usize = 64;

/// A set of nimbers, bit v for `*v`: a component of 64 cells has at most 112 moves, so its
/// nimber is below 128.
type Set = u128;

type Memo = HashMap<u64, u8, foldhash::fast::FixedState>;

/// Cram on one board, with the nimbers of the components met so far (kept between queries).
pub struct Cram {
    rows: usize,
    cols: usize,
    /// the layout: `h` rows of `w` cells, `h <= w` (the board turned when taller than wide)
    h: u32,
    w: u32,
    turned: bool,
    full: u64,
    /// cells with a neighbour to the right
    not_last: u64,
    /// all ones when there are two rows or more: masks vertical shifts on a single row
    vmask: u64,
    /// per row of at most `h` cells, that row laid out as a column (bit j to bit j * w)
    spread: Vec<u64>,
    memo: Mutex<Memo>,
}

impl Cram {
    /// Cram on the `rows` x `cols` grid.
    pub fn new(rows: usize, cols: usize) -> Result<Cram> {
        let n = rows.saturating_mul(cols);
        if n == 0 || n > MAX_CELLS {
            return Err(Error::invalid(format!(
                "the Cram engine takes boards of 1 to {MAX_CELLS} cells, not {rows} x {cols}"
            )));
        }
        let turned = rows > cols;
        let (h, w) = if turned { (cols, rows) } else { (rows, cols) };
        let (h, w) = (h as u32, w as u32);
        let full = if n == 64 { !0 } else { (1u64 << n) - 1 };
        let last_col = (0..h).fold(0u64, |a, r| a | 1 << (r * w + w - 1));
        Ok(Cram {
            rows,
            cols,
            h,
            w,
            turned,
            full,
            not_last: full & !last_col,
            vmask: if h > 1 { !0 } else { 0 },
            spread: (0..1u64 << h)
                .map(|x| (0..h).fold(0, |a, j| a | (x >> j & 1) << (j * w)))
                .collect(),
            memo: Mutex::new(Memo::default()),
        })
    }

    /// The bitboard of a position given cell by cell, row by row (`true`: empty).
    fn bits(&self, empty: &[bool]) -> Result<u64> {
        if empty.len() != self.rows * self.cols {
            return Err(Error::invalid(format!(
                "a position of Cram on {} x {} has {} cells, not {}",
                self.rows,
                self.cols,
                self.rows * self.cols,
                empty.len()
            )));
        }
        let mut p = 0u64;
        for (i, _) in empty.iter().enumerate().filter(|x| *x.1) {
            let (r, c) = (i / self.cols, i % self.cols);
            let (r, c) = if self.turned { (c, r) } else { (r, c) };
            p |= 1 << (r as u32 * self.w + c as u32);
        }
        Ok(p)
    }

    /// The nimber of a position (`empty`: each cell, row by row, whether it is empty).
    pub fn grundy(&self, empty: &[bool], ctl: &Ctl) -> Result<u32> {
        let p = self.bits(empty)?;
        self.search(ctl, |s| {
            let mut x = s.split(p);
            for c in std::mem::take(&mut s.comps) {
                x ^= s.nimber(c)?;
            }
            Ok(u32::from(x))
        })
    }

    /// Whether the player to move loses (a cheaper search than the nimber's).
    pub fn loses(&self, empty: &[bool], ctl: &Ctl) -> Result<bool> {
        let p = self.bits(empty)?;
        self.search(ctl, |s| {
            let mut x = s.split(p);
            let mut comps = std::mem::take(&mut s.comps);
            // all but the largest component valued; the largest asked to equal the rest
            let Some(big) = (0..comps.len()).max_by_key(|&i| comps[i].count_ones()) else {
                return Ok(x == 0);
            };
            let last = comps.swap_remove(big);
            for c in comps {
                x ^= s.nimber(c)?;
            }
            Ok(s.in_set(last, (1 as Set) << x)? == Some(x))
        })
    }

    /// Bytes the memo takes.
    pub fn kept_bytes(&self) -> u64 {
        self.memo.lock().map_or(0, |m| m.allocation_size() as u64)
    }

    /// Empties the memo.
    pub fn forget(&self) {
        if let Ok(mut m) = self.memo.lock() {
            *m = Memo::default();
        }
    }

    fn search<T>(&self, ctl: &Ctl, f: impl FnOnce(&mut Search) -> Result<T>) -> Result<T> {
        let mut memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
        let task = ctl.task("Cram", None);
        let base = memo.allocation_size() as u64;
        let mut s = Search {
            b: self,
            memo: &mut memo,
            ctl,
            task: &task,
            nodes: 0,
            base,
            opts: vec![],
            comps: vec![],
        };
        f(&mut s)
    }

    /// The cells next to a cell of `x`.
    #[inline]
    fn adj(&self, x: u64) -> u64 {
        let w = self.w & 63;
        ((x & self.not_last) << 1)
            | ((x >> 1) & self.not_last)
            | ((x << w) & self.vmask & self.full)
            | ((x >> w) & self.vmask)
    }

    /// The lowest cells of the horizontal and the vertical moves of `p`.
    #[inline]
    fn moves(&self, p: u64) -> (u64, u64) {
        (
            p & (p >> 1) & self.not_last,
            p & (p >> (self.w & 63)) & self.vmask,
        )
    }

    /// `p` reduced as the module says, until neither reduction applies.
    fn reduce(&self, mut p: u64) -> u64 {
        let w = self.w & 63;
        loop {
            // cells of p with a neighbour of p to the left, right, above, below
            let l = p & ((p & self.not_last) << 1);
            let r = p & (p >> 1) & self.not_last;
            let u = p & (p << w) & self.vmask;
            let d = p & (p >> w) & self.vmask;
            let two = (l & r) | (u & d) | ((l | r) & (u | d));
            let tufts = (l | r | u | d) & !two;
            // each tuft's one neighbour, by the side it is on; a second tuft of a centre goes
            let mut centres = (tufts & l) >> 1;
            let right = (tufts & r) << 1;
            let mut gone = (right & centres) >> 1;
            centres |= right;
            let up = ((tufts & u) >> w) & self.vmask;
            gone |= (up & centres) << w;
            centres |= up;
            let down = ((tufts & d) << w) & self.vmask;
            gone |= (down & centres) >> w;
            centres |= down;
            // cells next to centres only (isolated cells too)
            let other = p & !tufts & !centres;
            gone |= other & !self.adj(other);
            let q = p & !gone;
            if q == p {
                return p;
            }
            p = q;
        }
    }
}

/// One query's search.
struct Search<'a> {
    b: &'a Cram,
    memo: &'a mut Memo,
    ctl: &'a Ctl,
    task: &'a Task<'a>,
    nodes: u64,
    /// bytes the memo took when the query began (already charged to the session)
    base: u64,
    /// the options of the positions on the search's path, and their components
    opts: Vec<Opt>,
    comps: Vec<u64>,
}

/// The bit of the largest nimber in a nonempty set.
#[inline]
fn top(s: Set) -> Set {
    1 << (127 - s.leading_zeros())
}

/// The candidates for a nimber less one: `v` if it is one, else the largest (after all
/// options, the one left is the nimber: the least not taken).
#[inline]
fn take(cand: Set, v: u8) -> Set {
    let b = 1 << v;
    if cand & b != 0 {
        cand & !b
    } else {
        cand & !top(cand)
    }
}

/// `{v ^ x : v in s}`.
fn xor_each(s: Set, x: u8) -> Set {
    if x == 0 {
        return s;
    }
    let (mut s, mut out) = (s, 0);
    while s != 0 {
        let v = s.trailing_zeros() as u8;
        s &= s - 1;
        out |= 1 << (v ^ x);
    }
    out
}

/// The nimbers `0..=m`.
#[inline]
fn upto(m: u32) -> Set {
    if m >= 127 { !0 } else { (1 << (m + 1)) - 1 }
}

/// An option of a position: its components to search, `comps[first..first + len]` (the
/// hardest first), and the nimber of the rest.
#[derive(Clone, Copy)]
struct Opt {
    first: u32,
    len: u32,
    x: u8,
    /// the sum of the squares of the sizes of its components to search, then how far the
    /// move is from the middle: easy options first
    cost: (u32, u32),
}

impl Search<'_> {
    fn tick(&mut self) -> Result<()> {
        self.nodes += 1;
        if self.nodes & 4095 == 0 {
            self.task.tick(4096)?;
        }
        Ok(())
    }

    fn store(&mut self, p: u64, v: u8) {
        if self.memo.len() == self.memo.capacity() {
            // the table doubles: both tables are held while it moves
            let now = self.memo.allocation_size() as u64;
            let need = (3 * now.max(1 << 12)).saturating_sub(self.base);
            if self.ctl.reserve(need, "Cram's memo").is_err() {
                // a cache: past the budget it starts again at the size it has
                self.memo.clear();
            }
        }
        self.memo.insert(p, v);
    }

    /// Splits `p` into its components to search, pushed to `out` as keys, and returns the
    /// nimber of the rest (dominoes, memo hits; equal components cancel).
    fn split(&mut self, p: u64) -> u8 {
        let out = &mut self.comps;
        let start = out.len();
        let mut rest = self.b.reduce(p);
        let mut x = 0;
        while rest != 0 {
            let mut c = rest & rest.wrapping_neg();
            loop {
                let g = (c | self.b.adj(c)) & rest;
                if g == c {
                    break;
                }
                c = g;
            }
            rest &= !c;
            if c.count_ones() == 2 {
                x ^= 1;
                continue;
            }
            let (k, m) = self.b.key(c);
            if m == Mirror::Zero {
                continue;
            }
            if let Some(&v) = self.memo.get(&k) {
                x ^= v;
            } else if let Some(i) = out[start..].iter().position(|&o| o == k) {
                out.swap_remove(start + i);
            } else {
                out.push(k);
            }
        }
        x
    }

    /// The options of component `p`, pushed to `self.opts` (their components to `self.comps`),
    /// easiest first; the values of those known are passed to `known`, and the options stop
    /// coming once it returns true.
    fn options(&mut self, p: u64, mut known: impl FnMut(u8) -> bool) -> bool {
        let (hm, vm) = self.b.moves(p);
        let w = self.b.w;
        // the middle of p, rows and columns doubled
        let mid_r = p.trailing_zeros() / w + (63 - p.leading_zeros()) / w;
        let (mut lo, mut hi) = (w, 0);
        let mut q = p;
        while q != 0 {
            let c = q.trailing_zeros() % w;
            (lo, hi) = (lo.min(c), hi.max(c));
            q &= q - 1;
        }
        let mid_c = lo + hi;
        let start = self.opts.len();
        for (mut ms, step, dr, dc) in [(vm, w & 63, 1, 0), (hm, 1, 0, 1)] {
            while ms != 0 {
                let low = ms & ms.wrapping_neg();
                ms &= ms - 1;
                let first = self.comps.len();
                let x = self.split(p & !(low | low << step));
                let part = &mut self.comps[first..];
                if part.is_empty() {
                    if known(x) {
                        return true;
                    }
                    continue;
                }
                let i = low.trailing_zeros();
                let at = (2 * (i / w) + dr).abs_diff(mid_r) + (2 * (i % w) + dc).abs_diff(mid_c);
                let mut cost = 0;
                let mut hard = 0;
                for (i, c) in part.iter().enumerate() {
                    let n = c.count_ones();
                    cost += n * n;
                    if n > part[hard].count_ones() {
                        hard = i;
                    }
                }
                part.swap(0, hard);
                let len = part.len() as u32;
                self.opts.push(Opt {
                    first: first as u32,
                    len,
                    x,
                    cost: (cost, at),
                });
            }
        }
        self.opts[start..].sort_by_key(|o| o.cost);
        false
    }

    /// The nimber of option `i`'s components but the first, folded into its `x`.
    fn fold(&mut self, i: usize) -> Result<()> {
        while self.opts[i].len > 1 {
            let o = &mut self.opts[i];
            o.len -= 1;
            let c = self.comps[(o.first + o.len) as usize];
            self.opts[i].x ^= self.nimber(c)?;
        }
        Ok(())
    }

    /// The nimber of component `p` if it is in `want`; `None` when it is not in `want`.
    fn in_set(&mut self, p: u64, want: Set) -> Result<Option<u8>> {
        if let Some(&v) = self.memo.get(&p) {
            return Ok(Some(v));
        }
        self.tick()?;
        let want = if self.b.key(p).1 == Mirror::NotZero {
            want & !1
        } else {
            want
        };
        if want == 0 {
            return Ok(None);
        }
        let (hm, vm) = self.b.moves(p);
        let mut cand = upto(hm.count_ones() + vm.count_ones());
        let (c0, o0) = (self.comps.len(), self.opts.len());
        let r = self.in_set_from(p, want, &mut cand, o0);
        self.comps.truncate(c0);
        self.opts.truncate(o0);
        r
    }

    fn in_set_from(&mut self, p: u64, want: Set, cand: &mut Set, o0: usize) -> Result<Option<u8>> {
        let cut = self.options(p, |v| {
            *cand = take(*cand, v);
            *cand & want == 0
        });
        if cut {
            return Ok(None);
        }
        let upto_want = upto(127 - want.leading_zeros());
        let mut exact = true;
        for i in o0..self.opts.len() {
            if *cand & want == 0 {
                return Ok(None);
            }
            let below = *cand & !top(*cand);
            self.fold(i)?;
            let Opt { first, x, .. } = self.opts[i];
            match self.in_set(self.comps[first as usize], xor_each(below & upto_want, x))? {
                Some(v) => *cand = take(*cand, v ^ x),
                None => {
                    *cand = below;
                    exact = false;
                }
            }
        }
        if exact || *cand & upto_want != 0 {
            let v = cand.trailing_zeros() as u8;
            self.store(p, v);
            return Ok(Some(v));
        }
        Ok(None)
    }

    /// The nimber of component `p`: for k = 0, 1, ... whether an option has value k.
    fn nimber(&mut self, p: u64) -> Result<u8> {
        if let Some(&v) = self.memo.get(&p) {
            return Ok(v);
        }
        self.tick()?;
        let (c0, o0) = (self.comps.len(), self.opts.len());
        let r = self.nimber_from(p, o0);
        self.comps.truncate(c0);
        self.opts.truncate(o0);
        r
    }

    fn nimber_from(&mut self, p: u64, o0: usize) -> Result<u8> {
        let mut hit: Set = 0;
        self.options(p, |v| {
            hit |= 1 << v;
            false
        });
        let mut k = u8::from(self.b.key(p).1 == Mirror::NotZero);
        'next: loop {
            if hit >> k & 1 == 1 {
                k += 1;
                continue;
            }
            let mut i = o0;
            while i < self.opts.len() {
                self.fold(i)?;
                let Opt { first, x, .. } = self.opts[i];
                let want = (1 as Set) << (k ^ x);
                if let Some(v) = self.in_set(self.comps[first as usize], want)? {
                    self.opts.remove(i);
                    hit |= 1 << (v ^ x);
                    if v ^ x == k {
                        k += 1;
                        continue 'next;
                    }
                } else {
                    i += 1;
                }
            }
            self.store(p, k);
            return Ok(k);
        }
    }
}

impl Cram {
    /// The key of a component: its least image under the symmetries that keep it on the
    /// board, shifted to the corner. One pass over its rows makes the 4 flips and, when it
    /// fits turned a quarter, the 4 flips of its transpose.
    fn key(&self, p: u64) -> (u64, Mirror) {
        let w = self.w;
        let p = p >> (p.trailing_zeros() / w * w);
        let h = (63 - p.leading_zeros()) / w + 1;
        let row_mask = if w == 64 { !0 } else { (1u64 << w) - 1 };
        let mut rows = [0u64; 8];
        let mut used = 0;
        for r in 0..h {
            rows[r as usize] = (p >> (r * w)) & row_mask;
            used |= rows[r as usize];
        }
        let left = used.trailing_zeros();
        let wd = 64 - used.leading_zeros() - left;
        let turn = wd <= self.h;
        let (mut a, mut b, mut c, mut d) = (0, 0, 0, 0);
        let (mut e, mut f, mut g, mut k) = (0, 0, 0, 0);
        for r in 0..h {
            let x = rows[r as usize] >> left;
            let y = x.reverse_bits() >> (64 - wd);
            let (s, t) = (r * w, (h - 1 - r) * w);
            a |= x << s;
            b |= x << t;
            c |= y << s;
            d |= y << t;
            if turn {
                // row r of the shape is column r of its transpose
                let (sx, sy) = (self.spread[x as usize], self.spread[y as usize]);
                e |= sx << r;
                f |= sx << (h - 1 - r);
                g |= sy << r;
                k |= sy << (h - 1 - r);
            }
        }
        let best = a.min(b).min(c).min(d);
        let best = if turn {
            best.min(e.min(f).min(g).min(k))
        } else {
            best
        };
        (
            best,
            if a == d {
                mirror(a, h, wd, w)
            } else {
                Mirror::No
            },
        )
    }
}

/// What the symmetry strategy says of a component.
#[derive(Clone, Copy, PartialEq)]
enum Mirror {
    No,
    /// a loss for the player to move: each move is answered by its image under the half turn
    Zero,
    /// a win: the player to move takes the central domino, then answers as above
    NotZero,
}

/// The symmetry strategy on a shape `a` (shifted to the corner, `h` rows of `wd` cells laid
/// out `w` apart) that a half turn keeps: when no cell and no domino is its own image, the
/// second player copies every move turned and wins. A central cell spoils that; a central
/// domino lets the first player take it and then copy.
fn mirror(a: u64, h: u32, wd: u32, w: u32) -> Mirror {
    if h.is_multiple_of(2) && wd.is_multiple_of(2) {
        return Mirror::Zero;
    }
    let centre = a >> ((h - 1) / 2 * w + (wd - 1) / 2) & 1 == 1;
    match (centre, h % 2 == 1 && wd % 2 == 1) {
        (false, _) => Mirror::Zero,
        (true, true) => Mirror::No,
        (true, false) => Mirror::NotZero,
    }
}

/// Whether the compiled moves of an impartial board game on the `rows` x `cols` grid (no
/// torus) with `states` cell states are Cram: each move needs two orthogonally adjacent cells
/// in the first state and takes both out of it, asking and changing nothing else, and every
/// adjacent pair has a move. Cells in other states then never change nor matter.
pub fn is_cram(moves: &[Move], rows: usize, cols: usize, states: usize) -> bool {
    let n = rows.saturating_mul(cols);
    if n == 0 || n > MAX_CELLS || !(2..=8).contains(&states) {
        return false;
    }
    let all = (1u16 << states) - 1;
    let mut pairs = std::collections::BTreeSet::new();
    for m in moves {
        if !m.some.is_empty() {
            return false;
        }
        // each cell asked about: the states it may be in
        let mut asked: Vec<(usize, u16)> = vec![];
        for (cells, s) in &m.need {
            for &c in cells {
                match asked.iter_mut().find(|a| a.0 == c) {
                    Some(a) => a.1 &= u16::from(*s),
                    None => asked.push((c, u16::from(*s) & all)),
                }
            }
        }
        let [(a, 1), (b, 1)] = asked[..] else {
            return false;
        };
        // from the first state, both cells end in another, and no other cell is touched
        let mut at = [0u8; 2];
        for (cells, from, to) in &m.change {
            for &c in cells {
                let Some(i) = [a, b].iter().position(|&x| x == c) else {
                    return false;
                };
                if from >> at[i] & 1 == 1 {
                    at[i] = *to;
                }
            }
        }
        let (a, b) = (a.min(b), a.max(b));
        let adjacent = (b == a + 1 && !b.is_multiple_of(cols)) || b == a + cols;
        if at.contains(&0) || b >= n || !adjacent {
            return false;
        }
        pairs.insert((a, b));
    }
    // every horizontal and vertical pair of the grid
    pairs.len() == rows * (cols - 1) + (rows - 1) * cols
}
