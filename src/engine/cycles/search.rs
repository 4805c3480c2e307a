//! The solver. It works on *quiet* positions (no cell complete, none completable) under the
//! normal rule, where a move that lets the opponent complete a cell is illegal. Outcomes under
//! the original rule are the same (see the module docs), so one solver serves both.
//!
//! A position splits into independent components: two unmarked edges interact when they share
//! an end or lie on a common *live* cell (one whose marked edges all go one way round; a cell
//! with arrows both ways round can never be completed). A component is stored as the position
//! with every edge that cannot matter to it frozen, reduced to its least image under the board's
//! automorphisms combined with reversing every arrow.
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::board::{Board, Kind};
use crate::engine::{Ctl, Result};

/// A multiplicative hasher for the 128-bit keys.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100000001b3);
        }
    }
    fn write_u128(&mut self, k: u128) {
        let x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9e3779b97f4a7c15);
        self.0 = (x ^ (x >> 29)).wrapping_mul(0xbf58476d1ce4e5b9);
        self.0 ^= self.0 >> 32;
    }
}

type Map = HashMap<u128, u16, BuildHasherDefault<KeyHasher>>;

const SHARDS: usize = 64;
/// Bytes one table entry costs, with the hash map's slack.
const ENTRY_BYTES: u64 = 40;
/// The table asks the memory budget again after this many new entries.
const CHUNK: usize = 1 << 20;

/// Table values: `P` = previous player wins (nimber 0), `N` = next player wins (nimber unknown),
/// `GRUNDY + g` = nimber g.
const P: u16 = 0;
const N: u16 = 1;
const GRUNDY: u16 = 2;

/// The transposition table, shared by threads and kept between queries on one board.
pub(crate) struct Table {
    shards: Vec<Mutex<Map>>,
    len: AtomicUsize,
    full: AtomicBool,
}

impl Table {
    pub fn new() -> Table {
        Table {
            shards: (0..SHARDS).map(|_| Mutex::new(Map::default())).collect(),
            len: AtomicUsize::new(0),
            full: AtomicBool::new(false),
        }
    }

    fn shard(&self, k: u128) -> &Mutex<Map> {
        let h = (k as u64 ^ (k >> 64) as u64).wrapping_mul(0x9e3779b97f4a7c15);
        &self.shards[(h >> 58) as usize % SHARDS]
    }

    fn get(&self, k: u128) -> Option<u16> {
        self.shard(k).lock().unwrap().get(&k).copied()
    }

    fn put(&self, k: u128, v: u16, ctl: &Ctl) {
        if self.full.load(Ordering::Relaxed) {
            // still allowed to refine an entry already there
            if let Some(x) = self.shard(k).lock().unwrap().get_mut(&k) {
                *x = v;
            }
            return;
        }
        let fresh = self.shard(k).lock().unwrap().insert(k, v).is_none();
        if fresh {
            let len = self.len.fetch_add(1, Ordering::Relaxed) + 1;
            if len.is_multiple_of(CHUNK) {
                let want = (len + CHUNK) as u64 * ENTRY_BYTES;
                if ctl.reserve(want, "the Game of Cycles table").is_err() {
                    // the budget is reached: keep what is stored, store nothing new
                    self.full.store(true, Ordering::Relaxed);
                }
            }
        }
    }

    /// Number of stored positions.
    pub fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    pub fn clear(&self) {
        for s in &self.shards {
            s.lock().unwrap().clear();
        }
        self.len.store(0, Ordering::Relaxed);
        self.full.store(false, Ordering::Relaxed);
    }
}

/// Switches for the solver (the tests turn the reductions off to compare).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Opts {
    pub symmetry: bool,
    pub split: bool,
}

/// One search: the board, its table, the control handle, and a per-thread node counter.
pub(crate) struct Solver<'a> {
    pub b: &'a Board,
    pub t: &'a Table,
    pub ctl: &'a Ctl,
    pub opts: Opts,
    pub nodes: u64,
}

impl<'a> Solver<'a> {
    pub fn new(b: &'a Board, t: &'a Table, ctl: &'a Ctl, opts: Opts) -> Solver<'a> {
        Solver {
            b,
            t,
            ctl,
            opts,
            nodes: 0,
        }
    }

    #[inline]
    fn poll(&mut self) -> Result<()> {
        self.nodes += 1;
        if self.nodes & 0xfff == 0 {
            self.ctl.check()?;
        }
        Ok(())
    }

    fn key(&self, marked: u64, dir: u64) -> u128 {
        if self.opts.symmetry {
            self.b.canon(marked, dir)
        } else {
            (marked as u128) << 64 | dir as u128
        }
    }

    /// The quiet legal moves of a quiet position, as (edge, direction bit).
    pub fn moves(&self, marked: u64, dir: u64, out: &mut Vec<(usize, u64)>) {
        let b = self.b;
        let mut free = b.markable & !marked & !dir;
        while free != 0 {
            let e = free.trailing_zeros() as usize;
            free &= free - 1;
            for d in [0u64, 1] {
                if b.sink_source_ok(marked, dir, e, d)
                    && b.classify(marked, dir, e, d) == Kind::Quiet
                {
                    out.push((e, d));
                }
            }
        }
    }

    /// Cells that can still be completed: no frozen edge and their marked edges all one way
    /// round (bit c for cell c; with more than 64 cells every cell counts as live).
    fn live_cells(&self, marked: u64, dir: u64) -> u64 {
        let b = self.b;
        if b.cells.len() > 64 {
            return !0;
        }
        let frozen = dir & !marked;
        let mut live = 0u64;
        for c in 0..b.cells.len() {
            if b.cells[c].0 & frozen == 0 && b.cell_consistent(c, marked, dir) {
                live |= 1 << c;
            }
        }
        live
    }

    #[inline]
    fn cell_live(live: u64, c: usize) -> bool {
        c >= 64 || live >> c & 1 == 1
    }

    /// The components of a quiet position (masks of their playable edges), and the live cells.
    pub fn components(&self, marked: u64, dir: u64) -> (Vec<u64>, u64) {
        let b = self.b;
        let free = b.markable & !marked & !dir;
        if !self.opts.split {
            let comps = if free == 0 { vec![] } else { vec![free] };
            return (comps, !0);
        }
        let live = self.live_cells(marked, dir);
        let mut rest = free;
        let mut comps = Vec::new();
        while rest != 0 {
            let seed = rest & rest.wrapping_neg();
            let mut comp = seed;
            let mut frontier = seed;
            while frontier != 0 {
                let e = frontier.trailing_zeros() as usize;
                frontier &= frontier - 1;
                let mut reach = b.near[e];
                for &c in &b.edge_cells[e] {
                    if Self::cell_live(live, c) {
                        reach |= b.cells[c].0;
                    }
                }
                let new = reach & free & !comp;
                comp |= new;
                frontier |= new;
            }
            rest &= !comp;
            comps.push(comp);
        }
        (comps, live)
    }

    /// The position seen by one component: every edge that cannot matter to it frozen. Kept
    /// are the marked edges at an end of a component edge and those of the live cells through
    /// component edges. A dead cell stays dead: it keeps either its own contrary arrows or a
    /// frozen edge, and the cell checks never count a cell with a frozen edge.
    fn restrict(&self, marked: u64, dir: u64, comp: u64, live: u64) -> (u64, u64) {
        let b = self.b;
        if !self.opts.split {
            return (marked, dir);
        }
        let mut ctx = 0u64;
        let mut bits = comp;
        while bits != 0 {
            let e = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            ctx |= b.near[e];
            for &c in &b.edge_cells[e] {
                if Self::cell_live(live, c) {
                    ctx |= b.cells[c].0;
                }
            }
        }
        let keep = marked & ctx;
        (keep, (dir & keep) | (b.all & !comp & !keep))
    }

    fn apply(marked: u64, dir: u64, e: usize, d: u64) -> (u64, u64) {
        (marked | 1 << e, dir | d << e)
    }

    /// The nimber of a quiet position.
    pub fn grundy(&mut self, marked: u64, dir: u64) -> Result<u32> {
        let (comps, live) = self.components(marked, dir);
        let mut g = 0;
        for c in comps {
            let (m, d) = self.restrict(marked, dir, c, live);
            g ^= self.grundy_comp(m, d)?;
        }
        Ok(g)
    }

    /// Whether the next player wins a quiet position.
    pub fn wins(&mut self, marked: u64, dir: u64) -> Result<bool> {
        let (comps, live) = self.components(marked, dir);
        match comps.len() {
            0 => Ok(false),
            1 => {
                let (m, d) = self.restrict(marked, dir, comps[0], live);
                self.wins_comp(m, d)
            }
            _ => {
                let mut g = 0;
                for c in comps {
                    let (m, d) = self.restrict(marked, dir, c, live);
                    g ^= self.grundy_comp(m, d)?;
                }
                Ok(g != 0)
            }
        }
    }

    /// Whether the next player wins one component.
    fn wins_comp(&mut self, marked: u64, dir: u64) -> Result<bool> {
        self.poll()?;
        let k = self.key(marked, dir);
        if let Some(v) = self.t.get(k) {
            return Ok(v != P);
        }
        let mut mv = Vec::with_capacity(16);
        self.moves(marked, dir, &mut mv);
        let mut win = false;
        for &(e, d) in &mv {
            let (m, dd) = Self::apply(marked, dir, e, d);
            if !self.wins(m, dd)? {
                win = true;
                break;
            }
        }
        self.t.put(k, if win { N } else { P }, self.ctl);
        Ok(win)
    }

    /// The nimber of one component.
    pub fn grundy_comp(&mut self, marked: u64, dir: u64) -> Result<u32> {
        self.poll()?;
        let k = self.key(marked, dir);
        match self.t.get(k) {
            Some(P) => return Ok(0),
            Some(v) if v >= GRUNDY => return Ok((v - GRUNDY) as u32),
            _ => {}
        }
        let mut mv = Vec::with_capacity(16);
        self.moves(marked, dir, &mut mv);
        let mut seen: u128 = 0;
        let mut big: Vec<u32> = Vec::new();
        for &(e, d) in &mv {
            let (m, dd) = Self::apply(marked, dir, e, d);
            let g = self.grundy(m, dd)?;
            if g < 128 {
                seen |= 1 << g;
            } else {
                big.push(g);
            }
        }
        let mut g = (!seen).trailing_zeros();
        if g == 128 {
            while big.contains(&g) {
                g += 1;
            }
        }
        let v = if g == 0 {
            P
        } else {
            GRUNDY.saturating_add(g.min(u16::MAX as u32 - 2) as u16)
        };
        self.t.put(k, v, self.ctl);
        Ok(g)
    }
}
