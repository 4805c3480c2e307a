//! The solver, generic over the bitset width.
//!
//! Non-blocking games (every leaper/rider game with attacks passing through pieces, and
//! Node-Kayles): the state is the set `A` of squares still available; a move on square `s` with
//! a piece removes a fixed mask (`s` and what the piece attacks), so the value depends on `A`
//! alone. `A` is split into connected components of the union attack graph (no move in one can
//! touch another) and their values are nim-added. A component is keyed by its least image under
//! the valid board symmetries, translated to the board's corner when the attack relation is
//! translation-invariant (grids and tori), and looked up in a bounded, sharded transposition
//! table that survives between queries. The first level of a search runs in parallel.
//!
//! Blocking games: the occupied squares matter too (they stop rays); the state is
//! `(available, occupied)` and the search is a plain memoised mex, refused beyond a budget.
use super::bits::Bits;
use crate::engine::{Ctl, Error, Result};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Mutex;

/// The static description of a non-blocking game.
pub(crate) struct Game<B> {
    /// per square: the distinct masks a move there removes (each contains the square)
    pub masks: Vec<Vec<B>>,
    /// per square: the union of its masks and of every mask that contains it
    pub adj: Vec<B>,
    /// one mask per square: Node-Kayles on `adj`
    pub single: bool,
    /// valid non-identity symmetries (square permutations)
    pub syms: Vec<Vec<u16>>,
    /// translate keys to the corner of a board with this many columns
    pub stride: Option<usize>,
    /// per symmetry (non-identity), per byte of a set: the image of each byte value
    pub bytes: Vec<Vec<[B; 256]>>,
}

#[derive(Clone, Copy, Default)]
struct Slot<B> {
    key: B,
    /// value + 1; 0 = empty
    val: u32,
}

const SHARDS: usize = 64;

struct Shard<B> {
    slots: Vec<Slot<B>>,
    count: usize,
}

/// A bounded transposition table of component values, in shards behind locks. Each shard
/// starts small and doubles while it is three-quarters full, up to its share of the budget;
/// from then on a new entry goes to the front of its two-slot bucket and pushes the older one
/// out.
pub(crate) struct Table<B> {
    shards: Vec<Mutex<Shard<B>>>,
    max_per: usize,
}

impl<B: Bits> Table<B> {
    /// A table of at most `bytes` bytes.
    pub fn new(bytes: u64) -> Table<B> {
        let slot = std::mem::size_of::<Slot<B>>() as u64;
        let mut max_per = 2u64;
        while max_per * 2 * slot * SHARDS as u64 <= bytes {
            max_per *= 2;
        }
        let start = max_per.min(1 << 10) as usize;
        Table {
            shards: (0..SHARDS)
                .map(|_| {
                    Mutex::new(Shard {
                        slots: vec![Slot::default(); start],
                        count: 0,
                    })
                })
                .collect(),
            max_per: max_per as usize,
        }
    }

    #[inline]
    fn place(key: B) -> (usize, u64) {
        let h = key.hash64();
        ((h as usize) % SHARDS, h >> 8)
    }

    pub fn get(&self, key: B) -> Option<u32> {
        let (s, h) = Self::place(key);
        let t = self.shards[s].lock().unwrap();
        let i = (h as usize) & (t.slots.len() - 1) & !1;
        for j in [i, i + 1] {
            let e = t.slots[j];
            if e.val != 0 && e.key == key {
                return Some(e.val - 1);
            }
        }
        None
    }

    fn insert(t: &mut Shard<B>, key: B, val: u32, h: u64) {
        let i = (h as usize) & (t.slots.len() - 1) & !1;
        for j in [i, i + 1] {
            if t.slots[j].val != 0 && t.slots[j].key == key {
                return;
            }
        }
        if t.slots[i + 1].val == 0 {
            t.count += 1;
        }
        t.slots[i + 1] = t.slots[i];
        t.slots[i] = Slot { key, val: val + 1 };
    }

    pub fn put(&self, key: B, val: u32) {
        let (s, h) = Self::place(key);
        let mut t = self.shards[s].lock().unwrap();
        if t.count * 4 >= t.slots.len() * 3 && t.slots.len() < self.max_per {
            let len = t.slots.len() * 2;
            let old = std::mem::replace(&mut t.slots, vec![Slot::default(); len]);
            t.count = 0;
            for e in old.into_iter().rev() {
                if e.val != 0 {
                    let (_, h2) = Self::place(e.key);
                    Self::insert(&mut *t, e.key, e.val - 1, h2);
                }
            }
        }
        Self::insert(&mut *t, key, val, h);
    }

    pub fn entries(&self) -> usize {
        self.shards
            .iter()
            .map(|s| {
                s.lock()
                    .unwrap()
                    .slots
                    .iter()
                    .filter(|x| x.val != 0)
                    .count()
            })
            .sum()
    }
}

/// Per-thread search context: polls cancellation every few thousand nodes.
pub(crate) struct Cx<'a> {
    pub ctl: &'a Ctl,
    pub nodes: u64,
}

impl Cx<'_> {
    #[inline]
    fn tick(&mut self) -> Result<()> {
        self.nodes += 1;
        if self.nodes & 4095 == 0 {
            self.ctl.check()?;
        }
        Ok(())
    }
}

fn mex(seen: u128, big: &[u32]) -> u32 {
    let m = (!seen).trailing_zeros();
    if m < 128 {
        return m;
    }
    let mut g = 128;
    while big.contains(&g) {
        g += 1;
    }
    g
}

fn mark(seen: &mut u128, big: &mut Vec<u32>, v: u32) {
    if v < 128 {
        *seen |= 1 << v;
    } else {
        big.push(v);
    }
}

impl<B: Bits> Game<B> {
    /// The connected component of `a` containing its lowest square.
    #[inline]
    pub fn component(&self, a: B) -> B {
        let s = a.lowest();
        let mut comp = B::bit(s);
        let mut frontier = comp;
        while !frontier.is_empty() {
            let mut nb = B::default();
            for v in frontier.ones() {
                nb = nb.or(self.adj[v]);
            }
            let new = nb.and(a).andnot(comp);
            comp = comp.or(new);
            frontier = new;
        }
        comp
    }

    /// The components of `a`.
    pub fn components(&self, a: B) -> Vec<B> {
        let mut out = vec![];
        let mut rest = a;
        while !rest.is_empty() {
            let c = self.component(rest);
            rest = rest.andnot(c);
            out.push(c);
        }
        out
    }

    /// Byte tables for fast images of sets under the symmetries.
    pub fn byte_tables(n: usize, syms: &[Vec<u16>]) -> Vec<Vec<[B; 256]>> {
        syms.iter()
            .map(|p| {
                (0..n.div_ceil(8))
                    .map(|k| {
                        std::array::from_fn(|v| {
                            let mut out = B::default();
                            for b in 0..8 {
                                let i = 8 * k + b;
                                if v >> b & 1 == 1 && i < n {
                                    out.set(p[i] as usize);
                                }
                            }
                            out
                        })
                    })
                    .collect()
            })
            .collect()
    }

    #[inline]
    fn image(&self, c: B, sym: usize) -> B {
        let t = &self.bytes[sym];
        let mut out = B::default();
        for (k, row) in t.iter().enumerate() {
            let v = c.byte(k);
            if v != 0 {
                out = out.or(row[v as usize]);
            }
        }
        out
    }

    /// The canonical key of a set of squares: the least image under the symmetries, each
    /// translated to the corner when translations are allowed.
    #[inline]
    pub fn canon(&self, c: B) -> B {
        if c.is_empty() {
            return c;
        }
        let Some(stride) = self.stride else {
            let mut best = c;
            for k in 0..self.syms.len() {
                let im = self.image(c, k);
                if im < best {
                    best = im;
                }
            }
            return best;
        };
        // bounding box of c
        let (lo, hi) = (c.lowest(), c.highest());
        let (minr, maxr) = (lo / stride, hi / stride);
        let (minc, maxc) = if stride <= 64 {
            let row = if stride == 64 {
                u64::MAX
            } else {
                (1u64 << stride) - 1
            };
            let mut cols = 0u64;
            for r in minr..=maxr {
                cols |= c.shr(r * stride).word0() & row;
            }
            (
                cols.trailing_zeros() as usize,
                63 - cols.leading_zeros() as usize,
            )
        } else {
            c.ones().fold((usize::MAX, 0), |(a, b), i| {
                (a.min(i % stride), b.max(i % stride))
            })
        };
        let mut best = c.shr(minr * stride + minc);
        let (a, b) = (minr * stride + minc, maxr * stride + maxc);
        for (k, p) in self.syms.iter().enumerate() {
            let (pa, pb) = (p[a] as usize, p[b] as usize);
            let r = (pa / stride).min(pb / stride);
            let cc = (pa % stride).min(pb % stride);
            let im = self.image(c, k).shr(r * stride + cc);
            if im < best {
                best = im;
            }
        }
        best
    }

    /// The value of any set of available squares (a sum of components).
    pub fn value(&self, t: &Table<B>, a: B, cx: &mut Cx) -> Result<u32> {
        let mut rest = a;
        let mut x = 0;
        while !rest.is_empty() {
            let c = self.component(rest);
            rest = rest.andnot(c);
            x ^= self.comp_value(t, c, cx)?;
        }
        Ok(x)
    }

    /// A value known without search, for tiny components and cliques of Node-Kayles.
    #[inline]
    fn trivial(&self, c: B) -> Option<u32> {
        let k = c.count();
        if k == 1 {
            return Some(1);
        }
        if self.single && (k == 2 || c.ones().all(|v| c.andnot(self.adj[v]).is_empty())) {
            return Some(1);
        }
        None
    }

    /// Node-Kayles: drops every square whose closed neighbourhood within `c` equals that of a
    /// smaller square (closed twins). Moving on either twin leads to the same position, and a
    /// move elsewhere removes both or neither, so the value is unchanged.
    fn twin_reduce(&self, c: B) -> B {
        let mut nb: Vec<(B, usize)> = c.ones().map(|v| (self.adj[v].and(c), v)).collect();
        nb.sort_unstable();
        let mut out = c;
        for w in nb.windows(2) {
            if w[0].0 == w[1].0 {
                out = out.andnot(B::bit(w[1].1));
            }
        }
        out
    }

    fn comp_value(&self, t: &Table<B>, c: B, cx: &mut Cx) -> Result<u32> {
        if let Some(v) = self.trivial(c) {
            return Ok(v);
        }
        let c = if self.single { self.twin_reduce(c) } else { c };
        if c.count() == 1 {
            return Ok(1);
        }
        let key = self.canon(c);
        if let Some(v) = t.get(key) {
            return Ok(v);
        }
        cx.tick()?;
        let mut seen = 0u128;
        let mut big = vec![];
        for s in c.ones() {
            for &m in &self.masks[s] {
                let v = self.value(t, c.andnot(m), cx)?;
                mark(&mut seen, &mut big, v);
            }
        }
        let g = mex(seen, &big);
        t.put(key, g);
        Ok(g)
    }

    /// The value of `a`, with the first level of every large component searched in parallel.
    /// Ticks `task` once per distinct first-level option.
    pub fn value_par(
        &self,
        t: &Table<B>,
        a: B,
        ctl: &Ctl,
        task: &crate::engine::control::Task,
    ) -> Result<u32> {
        let mut x = 0;
        for c in self.components(a) {
            if let Some(v) = self.trivial(c) {
                x ^= v;
                continue;
            }
            let c = if self.single { self.twin_reduce(c) } else { c };
            if c.count() == 1 {
                x ^= 1;
                continue;
            }
            let key = self.canon(c);
            if let Some(v) = t.get(key) {
                x ^= v;
                continue;
            }
            let mut kids: HashMap<B, B> = HashMap::new();
            for s in c.ones() {
                for &m in &self.masks[s] {
                    let k = c.andnot(m);
                    kids.entry(self.canon(k)).or_insert(k);
                }
            }
            let mut kids: Vec<(B, B)> = kids.into_iter().collect();
            kids.sort();
            let vals: Vec<Result<u32>> = kids
                .par_iter()
                .map(|&(_, k)| {
                    let mut cx = Cx { ctl, nodes: 0 };
                    let v = self.value(t, k, &mut cx)?;
                    task.tick(1)?;
                    Ok(v)
                })
                .collect();
            let mut seen = 0u128;
            let mut big = vec![];
            for v in vals {
                mark(&mut seen, &mut big, v?);
            }
            let g = mex(seen, &big);
            t.put(key, g);
            x ^= g;
        }
        Ok(x)
    }

    /// Shortest (`longest == false`) or longest play from `a`: additive over components.
    pub fn play_length(
        &self,
        a: B,
        longest: bool,
        memo: &mut HashMap<B, u32>,
        limit: usize,
        cx: &mut Cx,
    ) -> Result<u32> {
        let mut total = 0;
        for c in self.components(a) {
            let k = c.count();
            if k == 1 || (self.single && k == 2) {
                total += 1;
                continue;
            }
            let key = self.canon(c);
            if let Some(&v) = memo.get(&key) {
                total += v;
                continue;
            }
            cx.tick()?;
            let mut best: Option<u32> = None;
            for s in c.ones() {
                for &m in &self.masks[s] {
                    let v = 1 + self.play_length(c.andnot(m), longest, memo, limit, cx)?;
                    best = Some(better(best, v, longest));
                }
            }
            within_budget(memo.len(), limit)?;
            let v = best.unwrap_or(0);
            memo.insert(key, v);
            total += v;
        }
        Ok(total)
    }
}

/// The longer (or shorter) of a play length found so far and a new one.
fn better(best: Option<u32>, v: u32, longest: bool) -> u32 {
    match best {
        None => v,
        Some(b) if longest => b.max(v),
        Some(b) => b.min(v),
    }
}

/// The play-length searches stop once their memo holds `limit` positions.
fn within_budget(len: usize, limit: usize) -> Result<()> {
    if len >= limit {
        return Err(Error::limit(
            "the play-length search passed its memory budget",
        ));
    }
    Ok(())
}

/// A blocking game: rays stop at the first occupied square.
pub(crate) struct Blocking<B> {
    /// per square, per piece: single targets as a set, and rays as ordered square lists
    pub reach: Vec<Vec<(B, Vec<Vec<usize>>)>>,
}

impl<B: Bits> Blocking<B> {
    /// What piece `p` on `s` removes from play when the squares `occ` are occupied.
    pub fn mask(&self, s: usize, p: usize, occ: B) -> B {
        let (leaps, rays) = &self.reach[s][p];
        let mut m = leaps.or(B::bit(s));
        for ray in rays {
            for &t in ray {
                if occ.test(t) {
                    break;
                }
                m.set(t);
            }
        }
        m
    }

    pub fn value(
        &self,
        avail: B,
        occ: B,
        memo: &mut HashMap<(B, B), u32>,
        limit: usize,
        cx: &mut Cx,
    ) -> Result<u32> {
        if avail.is_empty() {
            return Ok(0);
        }
        if avail.count() == 1 {
            return Ok(1);
        }
        if let Some(&v) = memo.get(&(avail, occ)) {
            return Ok(v);
        }
        cx.tick()?;
        let mut seen = 0u128;
        let mut big = vec![];
        for s in avail.ones() {
            let occ2 = occ.or(B::bit(s));
            for p in 0..self.reach[s].len() {
                let m = self.mask(s, p, occ);
                let v = self.value(avail.andnot(m), occ2, memo, limit, cx)?;
                mark(&mut seen, &mut big, v);
            }
        }
        let g = mex(seen, &big);
        if memo.len() >= limit {
            return Err(
                Error::limit("the blocking-game search passed its memory budget")
                    .hint("blocking games are searched without decomposition; try a smaller board"),
            );
        }
        memo.insert((avail, occ), g);
        Ok(g)
    }

    pub fn play_length(
        &self,
        avail: B,
        occ: B,
        longest: bool,
        memo: &mut HashMap<(B, B), u32>,
        limit: usize,
        cx: &mut Cx,
    ) -> Result<u32> {
        if avail.is_empty() {
            return Ok(0);
        }
        if let Some(&v) = memo.get(&(avail, occ)) {
            return Ok(v);
        }
        cx.tick()?;
        let mut best: Option<u32> = None;
        for s in avail.ones() {
            let occ2 = occ.or(B::bit(s));
            for p in 0..self.reach[s].len() {
                let m = self.mask(s, p, occ);
                let v = 1 + self.play_length(avail.andnot(m), occ2, longest, memo, limit, cx)?;
                best = Some(better(best, v, longest));
            }
        }
        within_budget(memo.len(), limit)?;
        let v = best.unwrap_or(0);
        memo.insert((avail, occ), v);
        Ok(v)
    }
}
