//! The search: negamax alpha-beta on the net score with a transposition table of bounds,
//! null-window (MTD(f)-style) drivers, and the safe capture reductions.
//!
//! Reductions, in the strings-and-coins view (a box is a coin, a line a string; a box's border
//! sides are strings to the ground):
//! - a capturable box (three sides drawn) whose last side is on the border, or leads to a box
//!   that also has three sides drawn or to a box with at least three sides free, is captured at
//!   once: no other move can do better;
//! - a capturable box whose last side leads to a box with exactly two sides free: only two moves
//!   are searched, capturing it, or drawing the far side of that neighbour (the double-dealing
//!   move that leaves the last two boxes of a chain, or four of an opened loop, to the opponent);
//! - a box's border sides are interchangeable, so only one of them is tried, and positions are
//!   keyed on the number of border sides drawn per box (with the corner boxes this is the corner
//!   equivalence of Barker and Korf), then canonicalised under the board's symmetries.
use super::{Dots, Position};
use crate::engine::{Ctl, Error, Result};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A legal line with the net score for the mover of drawing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveValue {
    /// the line (index on the board; name it with [`Dots::line_name`])
    pub line: usize,
    /// boxes this line completes at once (the mover then moves again)
    pub captures: i32,
    /// the net score for the mover after drawing it, with best play from both sides, counting
    /// the boxes it completes
    pub value: i32,
}

/// Counters of a solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// positions visited (all searches of this solver so far)
    pub nodes: u64,
    /// bytes of the transposition table
    pub table_bytes: u64,
}

/// The search was stopped (cancelled, or a sibling at the root already decided the test).
struct Stop;

const NONE: u8 = 255;
/// Positions with fewer free lines are solved on one thread (parallel overhead would dominate).
const SERIAL_BELOW: u32 = 22;
/// Positions with fewer free lines are searched without the table (a probe costs more).
const TABLE_MIN_FREE: u32 = 8;
const VALID: u64 = 1 << 32;

/// A fixed-size transposition table of buckets of two entries (one kept by depth, one always
/// replaced), lock-free: each entry is `key ^ data` and `data`, so a torn write is never read.
struct Table {
    words: Vec<AtomicU64>,
    bits: u32,
}

#[derive(Clone, Copy)]
struct Entry {
    lower: i32,
    upper: i32,
    mv: u8,
    depth: u32,
}

impl Entry {
    fn pack(&self) -> u64 {
        (self.lower + 128) as u64
            | ((self.upper + 128) as u64) << 8
            | (self.mv as u64) << 16
            | (self.depth as u64) << 24
            | VALID
    }
    fn unpack(d: u64) -> Entry {
        Entry {
            lower: (d & 0xff) as i32 - 128,
            upper: (d >> 8 & 0xff) as i32 - 128,
            mv: (d >> 16 & 0xff) as u8,
            depth: (d >> 24 & 0xff) as u32,
        }
    }
}

impl Table {
    fn new(bytes: u64) -> Table {
        // a bucket is 4 words = 32 bytes
        let buckets = (bytes / 32).max(1);
        let bits = 63 - buckets.leading_zeros();
        let n = 4usize << bits;
        let words = std::iter::repeat_with(|| AtomicU64::new(0))
            .take(n)
            .collect();
        Table { words, bits }
    }

    fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (key >> 29);
        let h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        if self.bits == 0 {
            0
        } else {
            ((h >> (64 - self.bits)) as usize) * 4
        }
    }

    #[inline]
    fn read(&self, i: usize, key: u64) -> Option<Entry> {
        let x = self.words[i].load(Ordering::Relaxed);
        let d = self.words[i + 1].load(Ordering::Relaxed);
        if d & VALID != 0 && x ^ d == key {
            Some(Entry::unpack(d))
        } else {
            None
        }
    }

    #[inline]
    fn write(&self, i: usize, key: u64, e: &Entry) {
        let d = e.pack();
        self.words[i].store(key ^ d, Ordering::Relaxed);
        self.words[i + 1].store(d, Ordering::Relaxed);
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.read(b, key).or_else(|| self.read(b + 2, key))
    }

    fn store(&self, key: u64, mut e: Entry) {
        let b = self.bucket(key);
        for i in [b, b + 2] {
            if let Some(old) = self.read(i, key) {
                let (lo, hi) = (e.lower.max(old.lower), e.upper.min(old.upper));
                if lo <= hi {
                    e.lower = lo;
                    e.upper = hi;
                }
                if e.mv == NONE {
                    e.mv = old.mv;
                }
                self.write(i, key, &e);
                return;
            }
        }
        let d0 = self.words[b + 1].load(Ordering::Relaxed);
        if d0 & VALID == 0 || Entry::unpack(d0).depth <= e.depth {
            self.write(b, key, &e);
        } else {
            self.write(b + 2, key, &e);
        }
    }
}

/// What one pass over the boxes finds.
struct Scan {
    free: u64,
    left: i32,
    deg: [u8; 32],
    /// boxes with one free side
    ones: u32,
    /// boxes with three or four free sides
    big: u32,
    /// free sides of boxes with two free sides
    sacr: u64,
}

enum Kind {
    /// a capture no other move can beat
    Forced(u8),
    /// capture (first) or double-deal (second)
    Choice([u8; 2], usize),
    /// capture in one of several components
    Multi([u8; 16], usize),
    /// no capturable box
    Free,
}

/// An exact solver for one board, holding a transposition table that later calls reuse.
/// Results do not depend on the number of threads (the table only holds proven bounds).
pub struct Solver<'a> {
    board: &'a Dots,
    table: Table,
    /// for each line, its boxes (255 = none)
    lb: Vec<[u8; 2]>,
    nodes: AtomicU64,
}

/// The per-thread search state.
struct Searcher<'s, 'a> {
    s: &'s Solver<'a>,
    ctl: &'s Ctl,
    stop: &'s AtomicBool,
    nodes: u64,
}

impl<'a> Solver<'a> {
    /// A solver whose table is sized for the board (2^(lines - 8) entries of 16 bytes, between
    /// 64 KB and 4 GB) and at most half of `ctl`'s memory budget.
    pub fn new(board: &'a Dots, ctl: &Ctl) -> Result<Solver<'a>> {
        let shift = (board.num_lines() as u32).saturating_sub(8).clamp(12, 28);
        let want = 16u64 << shift;
        Solver::with_table_bytes(board, want.min(ctl.memory() / 2).max(1 << 16), ctl)
    }

    /// A solver with a transposition table of about `bytes` (rounded down to a power of two;
    /// refused if `ctl`'s memory budget is smaller).
    pub fn with_table_bytes(board: &'a Dots, bytes: u64, ctl: &Ctl) -> Result<Solver<'a>> {
        let bytes = bytes.max(64);
        ctl.reserve(bytes, "the Dots-and-Boxes transposition table")?;
        let lb = board
            .line_boxes
            .iter()
            .map(|v| {
                [
                    v.first().map_or(NONE, |&b| b as u8),
                    v.get(1).map_or(NONE, |&b| b as u8),
                ]
            })
            .collect();
        Ok(Solver {
            board,
            table: Table::new(bytes),
            lb,
            nodes: AtomicU64::new(0),
        })
    }

    /// Nodes searched so far and the table size.
    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes.load(Ordering::Relaxed),
            table_bytes: self.table.bytes(),
        }
    }

    /// The best net score the player to move can force among the boxes not yet taken.
    /// Null-window tests ("is the value at least t?") step from 0 towards the value; each test is
    /// parallel over the root moves.
    pub fn value(&self, pos: &Position, ctl: &Ctl) -> Result<i32> {
        if (!pos.lines & self.board.full).count_ones() < SERIAL_BELOW {
            let stop = AtomicBool::new(false);
            let mut se = Searcher {
                s: self,
                ctl,
                stop: &stop,
                nodes: 0,
            };
            let v = se.mtd(pos.lines, 0);
            self.nodes.fetch_add(se.nodes, Ordering::Relaxed);
            ctl.check()?;
            return v.map_err(|_| Error::cancelled());
        }
        let r = self.board.boxes_left(pos);
        let parity = r & 1;
        let (mut lo, mut hi) = (-r, r);
        let mut g = parity; // 0 or 1: a guess with the parity of the value
        while lo < hi {
            let t = if g > lo { g.min(hi) } else { lo + 2 };
            let task = ctl.task(&format!("dots: is the value at least {t}?"), None);
            if self.test_root(pos, t, ctl, &task)? {
                lo = t;
            } else {
                hi = t - 2;
            }
            g = if lo == t { t } else { t - 2 };
        }
        Ok(lo)
    }

    /// Every legal line with its value for the mover, in board order (children with the same
    /// canonical position are solved once; distinct ones in parallel).
    pub fn moves(&self, pos: &Position, ctl: &Ctl) -> Result<Vec<MoveValue>> {
        let b = self.board;
        let legal = b.legal_moves(pos);
        let task = ctl.task("dots: solving the moves", Some(legal.len() as u64));
        let mut keys: Vec<u64> = legal
            .iter()
            .map(|&l| b.canonical(pos.lines | 1 << l).0)
            .collect();
        let mut reps: Vec<usize> = Vec::new(); // index into legal of one child per key
        {
            let mut seen = std::collections::HashMap::new();
            for (i, k) in keys.iter().enumerate() {
                seen.entry(*k).or_insert_with(|| {
                    reps.push(i);
                    i
                });
            }
        }
        let stop = AtomicBool::new(false);
        let solved: Vec<std::result::Result<(u64, i32), Stop>> = reps
            .par_iter()
            .map(|&i| {
                let child = pos.lines | 1 << legal[i];
                let mut se = Searcher {
                    s: self,
                    ctl,
                    stop: &stop,
                    nodes: 0,
                };
                let v = se.mtd(child, 0);
                self.nodes.fetch_add(se.nodes, Ordering::Relaxed);
                let _ = task.tick(1);
                v.map(|v| (keys[i], v))
            })
            .collect();
        ctl.check()?;
        let mut val = std::collections::HashMap::new();
        for s in solved {
            let (k, v) = s.map_err(|_| Error::cancelled())?;
            val.insert(k, v);
        }
        let out = legal
            .iter()
            .zip(keys.drain(..))
            .map(|(&l, k)| {
                let c = b.completes(pos, l);
                let v = val[&k];
                MoveValue {
                    line: l,
                    captures: c,
                    value: if c > 0 { c + v } else { -v },
                }
            })
            .collect();
        Ok(out)
    }

    /// Is the value of `pos` at least `t`? The root moves are searched in parallel; the first
    /// that reaches `t` stops the others.
    fn test_root(
        &self,
        pos: &Position,
        t: i32,
        ctl: &Ctl,
        task: &crate::engine::control::Task,
    ) -> Result<bool> {
        let stop = AtomicBool::new(false);
        let mut se = Searcher {
            s: self,
            ctl,
            stop: &stop,
            nodes: 0,
        };
        let moves = se.root_moves(pos.lines);
        if moves.len() <= 1 {
            let v = se.search(pos.lines, t - 1, t);
            self.nodes.fetch_add(se.nodes, Ordering::Relaxed);
            ctl.check()?;
            return Ok(v.map_err(|_| Error::cancelled())? >= t);
        }
        let found = AtomicBool::new(false);
        let results: Vec<std::result::Result<(), Stop>> = moves
            .par_iter()
            .map(|&l| {
                if stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
                let mut se = Searcher {
                    s: self,
                    ctl,
                    stop: &stop,
                    nodes: 0,
                };
                let r = se.child_value(pos.lines, l as usize, t - 1, t);
                self.nodes.fetch_add(se.nodes, Ordering::Relaxed);
                let _ = task.tick(1);
                match r {
                    Ok(v) if v >= t => {
                        found.store(true, Ordering::Relaxed);
                        stop.store(true, Ordering::Relaxed);
                        Ok(())
                    }
                    Ok(_) => Ok(()),
                    Err(s) => Err(s),
                }
            })
            .collect();
        ctl.check()?;
        if found.load(Ordering::Relaxed) {
            return Ok(true);
        }
        for r in results {
            r.map_err(|_| Error::cancelled())?;
        }
        // every move failed low: the value is below t; remember it at the root
        Ok(false)
    }
}

impl Searcher<'_, '_> {
    #[inline]
    fn completes(&self, pos: u64, l: usize) -> i32 {
        let p = pos | 1 << l;
        let bm = &self.s.board.box_mask;
        let [a, b] = self.s.lb[l];
        let mut k = 0;
        if a != NONE && p & bm[a as usize] == bm[a as usize] {
            k += 1;
        }
        if b != NONE && p & bm[b as usize] == bm[b as usize] {
            k += 1;
        }
        k
    }

    /// One pass over the boxes: their degrees (free sides), the boxes left, the capturable ones
    /// and the lines whose drawing would give a box away.
    #[inline]
    fn scan(&self, pos: u64) -> Scan {
        let board = self.s.board;
        let free = !pos & board.full;
        let mut sc = Scan {
            free,
            left: 0,
            deg: [0; 32],
            ones: 0,
            big: 0,
            sacr: 0,
        };
        for (b, &m) in board.box_mask.iter().enumerate() {
            let f = m & free;
            if f == 0 {
                continue;
            }
            sc.left += 1;
            let f1 = f & (f - 1);
            let d = if f1 == 0 {
                sc.ones |= 1 << b;
                1
            } else {
                let f2 = f1 & (f1 - 1);
                if f2 == 0 {
                    sc.sacr |= f;
                    2
                } else {
                    sc.big += 1;
                    if f2 & (f2 - 1) == 0 { 3 } else { 4 }
                }
            };
            sc.deg[b] = d;
        }
        sc
    }

    /// The capture situation of a position.
    #[inline]
    fn classify(&self, sc: &Scan) -> Kind {
        if sc.ones == 0 {
            return Kind::Free;
        }
        let bm = &self.s.board.box_mask;
        let free = sc.free;
        let deg = |b: u8| sc.deg[b as usize];
        let across = |l: u64, from: u8| {
            let [x, y] = self.s.lb[l as usize];
            if x == from { y } else { x }
        };
        // candidates for the last choice: (capture, double-deal) per capturable component
        let mut caps = [0u8; 16];
        let mut deals = [0u8; 16];
        let mut n = 0;
        let mut ones = sc.ones;
        while ones != 0 {
            let b = ones.trailing_zeros() as u8;
            ones &= ones - 1;
            let s = (bm[b as usize] & free).trailing_zeros() as u64;
            let other = across(s, b);
            // a box alone on the border, a domino, or a box hanging off a junction
            if other == NONE || deg(other) != 2 {
                return Kind::Forced(s as u8);
            }
            let t = (bm[other as usize] & free & !(1 << s)).trailing_zeros() as u64;
            let x = across(t, other);
            if x != NONE {
                match deg(x) {
                    // a closed chain of three: take it all
                    1 => return Kind::Forced(s as u8),
                    2 => {
                        let u = (bm[x as usize] & free & !(1 << t)).trailing_zeros() as u64;
                        let y = across(u, x);
                        if y == NONE || deg(y) != 1 {
                            // a chain of three or more: take the first box in any case
                            return Kind::Forced(s as u8);
                        }
                        // a closed chain of four (an opened loop): take, or leave two dominoes
                    }
                    _ => {}
                }
            }
            if deals[..n].contains(&(t as u8)) {
                continue;
            }
            if n == 16 {
                return Kind::Free;
            }
            caps[n] = s as u8;
            deals[n] = t as u8;
            n += 1;
        }
        match n {
            0 => Kind::Free,
            1 => Kind::Choice([caps[0], deals[0]], 2),
            _ => {
                // several components: take one of them (the last one handled keeps the choice)
                let mut v = [0u8; 16];
                v[..n].copy_from_slice(&caps[..n]);
                Kind::Multi(v, n)
            }
        }
    }

    /// The exact value of a simple loony endgame: every box left has exactly two free sides, so
    /// the position is a sum of chains and loops and every move opens one of them. The player
    /// who opens a chain of 1 or 2 (the latter in the middle) hands it over; for a chain of
    /// three or more the opponent takes all, or all but two and leaves those with a double-deal
    /// (all but four for a loop) and lets the opener move again. `None` when there are too
    /// many components.
    fn loony_value(&self, sc: &Scan) -> Option<i32> {
        if sc.ones != 0 || sc.big != 0 {
            return None;
        }
        let bm = &self.s.board.box_mask;
        let free = sc.free;
        // components: (length, is a loop)
        let mut comps = [(0i32, false); 16];
        let mut k = 0;
        let mut seen = 0u32;
        let todo = {
            let mut t = 0u32;
            for (b, &m) in bm.iter().enumerate() {
                if m & free != 0 {
                    t |= 1 << b;
                }
            }
            t
        };
        while todo & !seen != 0 {
            let start = (todo & !seen).trailing_zeros() as u8;
            seen |= 1 << start;
            let mut len = 1;
            let mut is_loop = false;
            let f0 = bm[start as usize] & free;
            for l0 in [f0.trailing_zeros() as u64, 63 - f0.leading_zeros() as u64] {
                let (mut cur, mut l) = (start, l0);
                loop {
                    let [x, y] = self.s.lb[l as usize];
                    let nxt = if x == cur { y } else { x };
                    if nxt == NONE {
                        break;
                    }
                    if nxt == start {
                        is_loop = true;
                        break;
                    }
                    seen |= 1 << nxt;
                    len += 1;
                    l = (bm[nxt as usize] & free & !(1 << l)).trailing_zeros() as u64;
                    cur = nxt;
                }
                if is_loop {
                    break;
                }
            }
            if k == 16 {
                return None;
            }
            comps[k] = (len, is_loop);
            k += 1;
        }
        if k > 12 {
            return None;
        }
        // f[S]: the value for the player who must open a component of S
        let mut f = vec![0i32; 1 << k];
        for set in 1usize..1 << k {
            let mut best = i32::MIN;
            let mut rest = set;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let (len, is_loop) = comps[i];
                let g = f[set & !(1 << i)];
                let opp = if is_loop {
                    (len + g).max(len - 8 - g)
                } else if len <= 2 {
                    len + g
                } else {
                    (len + g).max(len - 4 - g)
                };
                best = best.max(-opp);
            }
            f[set] = best;
        }
        Some(f[(1 << k) - 1])
    }

    /// The moves searched at the root of a test (after no forced capture).
    fn root_moves(&self, pos: u64) -> Vec<u8> {
        match self.classify(&self.scan(pos)) {
            Kind::Forced(_) => vec![],
            Kind::Choice(v, n) => v[..n].to_vec(),
            Kind::Multi(v, n) => v[..n].to_vec(),
            Kind::Free => {
                let mut buf = [0u8; 64];
                let n = self.free_moves(&self.scan(pos), NONE, &mut buf);
                buf[..n].to_vec()
            }
        }
    }

    /// Moves of a position without capturable boxes: one border side per box, the table's move
    /// first, then centre first, sacrifices (moves giving a box away) last.
    #[inline]
    fn free_moves(&self, sc: &Scan, first: u8, buf: &mut [u8; 64]) -> usize {
        let board = self.s.board;
        let free = sc.free;
        let mut skip = 0u64;
        for &g in &board.ground_mask {
            let u = g & free;
            skip |= u & (u.wrapping_sub(1) & u); // all but the lowest
        }
        let sacr = sc.sacr;
        if sacr != 0 {
            skip |= self.isolated_skips(sc);
        }
        let mut n = 0;
        if first != NONE && free >> first & 1 == 1 {
            buf[0] = first;
            n = 1;
            skip |= 1 << first;
        }
        let cand = free & !skip;
        for &l in &board.order {
            if cand >> l & 1 == 1 && sacr >> l & 1 == 0 {
                buf[n] = l;
                n += 1;
            }
        }
        for &l in &board.order {
            if cand >> l & 1 == 1 && sacr >> l & 1 == 1 {
                buf[n] = l;
                n += 1;
            }
        }
        n
    }

    /// Sacrifices not worth trying: in a chain of boxes with two free sides that touches only
    /// the border (an isolated chain), opening it at one end (a chain of three or more) or in the
    /// middle (a chain of two) leaves the opponent the fewest options, so the other lines of
    /// that chain are skipped; in an isolated loop all lines are alike, one is kept.
    fn isolated_skips(&self, sc: &Scan) -> u64 {
        let bm = &self.s.board.box_mask;
        let free = sc.free;
        let mut skip = 0u64;
        let mut seen = 0u32;
        let mut twos = 0u32;
        for b in 0..bm.len() {
            if sc.deg[b] == 2 {
                twos |= 1 << b;
            }
        }
        while twos & !seen != 0 {
            let start = (twos & !seen).trailing_zeros() as u8;
            seen |= 1 << start;
            let mut lines = bm[start as usize] & free;
            let mut boxes = 1;
            let mut ground_ends = [NONE; 2];
            let mut isolated = true;
            let mut is_loop = false;
            let f0 = lines;
            for (side, l0) in [f0.trailing_zeros() as u64, 63 - f0.leading_zeros() as u64]
                .into_iter()
                .enumerate()
            {
                let (mut cur, mut l) = (start, l0);
                loop {
                    let [x, y] = self.s.lb[l as usize];
                    let nxt = if x == cur { y } else { x };
                    if nxt == NONE {
                        ground_ends[side] = l as u8;
                        break;
                    }
                    if nxt == start {
                        is_loop = true;
                        break;
                    }
                    if sc.deg[nxt as usize] != 2 {
                        isolated = false;
                        break;
                    }
                    seen |= 1 << nxt;
                    boxes += 1;
                    lines |= bm[nxt as usize] & free;
                    l = (bm[nxt as usize] & free & !(1 << l)).trailing_zeros() as u64;
                    cur = nxt;
                }
                if is_loop {
                    break;
                }
            }
            if !isolated {
                continue;
            }
            let keep = if is_loop {
                1u64 << lines.trailing_zeros()
            } else if boxes == 2 {
                // the line between the two boxes
                lines & !(1u64 << ground_ends[0]) & !(1u64 << ground_ends[1])
            } else {
                1u64 << ground_ends[0]
            };
            skip |= lines & !keep;
        }
        skip
    }

    /// The value for the mover at `pos` of drawing `l`, searched with window (alpha, beta).
    #[inline]
    fn child_value(
        &mut self,
        pos: u64,
        l: usize,
        alpha: i32,
        beta: i32,
    ) -> std::result::Result<i32, Stop> {
        let k = self.completes(pos, l);
        let child = pos | 1 << l;
        if k > 0 {
            Ok(k + self.search(child, alpha - k, beta - k)?)
        } else {
            Ok(-self.search(child, -beta, -alpha)?)
        }
    }

    /// The exact value by null-window tests from `guess`.
    fn mtd(&mut self, pos: u64, guess: i32) -> std::result::Result<i32, Stop> {
        let r = self.s.board.boxes_left(&Position { lines: pos });
        // the value has the parity of r (own + opponent's boxes = r)
        let up = |x: i32| x + (x - r).rem_euclid(2);
        let down = |x: i32| x - (x - r).rem_euclid(2);
        let (mut lo, mut hi) = (-r, r);
        let mut g = up(guess.clamp(-r, r)).min(r);
        while lo < hi {
            let t = if g > lo { g.min(hi) } else { lo + 2 };
            let v = self.search(pos, t - 1, t)?;
            if v >= t {
                lo = up(v).min(hi);
                g = lo;
            } else {
                hi = down(v).max(lo);
                g = hi;
            }
        }
        Ok(lo)
    }

    /// The search below a node near the end, without the table.
    fn plain(
        &mut self,
        pos: u64,
        kind: &Kind,
        sc: &Scan,
        alpha: i32,
        beta: i32,
    ) -> std::result::Result<i32, Stop> {
        let mut buf = [0u8; 64];
        let n = match *kind {
            Kind::Choice(v, n) => {
                buf[..n].copy_from_slice(&v[..n]);
                n
            }
            Kind::Multi(v, n) => {
                buf[..n].copy_from_slice(&v[..n]);
                n
            }
            _ => self.free_moves(sc, NONE, &mut buf),
        };
        let mut a = alpha;
        let mut best = i32::MIN;
        for &l in &buf[..n] {
            let v = self.child_value(pos, l as usize, a, beta)?;
            if v > best {
                best = v;
                if v > a {
                    a = v;
                    if a >= beta {
                        break;
                    }
                }
            }
        }
        Ok(best)
    }

    /// Negamax alpha-beta, fail-soft: the value for the mover of the boxes not yet taken.
    fn search(&mut self, pos: u64, alpha: i32, beta: i32) -> std::result::Result<i32, Stop> {
        self.nodes += 1;
        if self.nodes & 0xfff == 0 && (self.stop.load(Ordering::Relaxed) || self.ctl.cancelled()) {
            return Err(Stop);
        }
        let board = self.s.board;
        let mut pos = pos;
        let mut gained = 0;
        let (kind, sc) = loop {
            let sc = self.scan(pos);
            match self.classify(&sc) {
                Kind::Forced(s) => {
                    gained += self.completes(pos, s as usize);
                    pos |= 1 << s;
                }
                k => break (k, sc),
            }
        };
        if pos == board.full {
            return Ok(gained);
        }
        let (alpha, beta) = (alpha - gained, beta - gained);
        let r = sc.left;
        if r <= alpha {
            return Ok(gained + r);
        }
        if -r >= beta {
            return Ok(gained - r);
        }
        if let Some(v) = self.loony_value(&sc) {
            return Ok(gained + v);
        }
        let nfree = sc.free.count_ones();
        if nfree < TABLE_MIN_FREE {
            return Ok(gained + self.plain(pos, &kind, &sc, alpha, beta)?);
        }
        let (key, g) = board.canonical(pos);
        let (mut lo, mut hi) = (-r, r);
        let mut tmove = NONE;
        if let Some(e) = self.s.table.probe(key) {
            lo = lo.max(e.lower);
            hi = hi.min(e.upper);
            if e.mv != NONE {
                tmove = board.syms_inv[g][e.mv as usize];
            }
            if lo >= beta {
                return Ok(gained + lo);
            }
            if hi <= alpha {
                return Ok(gained + hi);
            }
            if lo == hi {
                return Ok(gained + lo);
            }
        }
        let a0 = alpha.max(lo);
        let b0 = beta.min(hi);
        let mut buf = [0u8; 64];
        let n = match kind {
            Kind::Choice(v, n) => {
                buf[..n].copy_from_slice(&v[..n]);
                if tmove == v[1] {
                    buf.swap(0, 1);
                }
                n
            }
            Kind::Multi(v, n) => {
                buf[..n].copy_from_slice(&v[..n]);
                if let Some(i) = buf[..n].iter().position(|&l| l == tmove) {
                    buf.swap(0, i);
                }
                n
            }
            _ => self.free_moves(&sc, tmove, &mut buf),
        };
        let mut a = a0;
        let mut best = i32::MIN;
        let mut best_move = NONE;
        for &l in &buf[..n] {
            let v = self.child_value(pos, l as usize, a, b0)?;
            if v > best {
                best = v;
                best_move = l;
                if v > a {
                    a = v;
                    if a >= b0 {
                        break;
                    }
                }
            }
        }
        let (lower, upper) = if best <= a0 {
            (-r, best)
        } else if best >= b0 {
            (best, r)
        } else {
            (best, best)
        };
        let mv = board.syms[g][best_move as usize];
        self.s.table.store(
            key,
            Entry {
                lower,
                upper,
                mv,
                depth: nfree,
            },
        );
        Ok(gained + best)
    }
}
