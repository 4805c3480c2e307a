//! The solver, generic over the bitset width.
//!
//! Non-blocking games (every leaper/rider game with attacks passing through pieces, and
//! Node-Kayles): the state is the set `A` of squares still available; a move on square `s` with
//! a piece removes a fixed mask (`s` and what the piece attacks), so the value depends on `A`
//! alone. `A` is split into connected components of the union attack graph (no move in one can
//! touch another). A component is keyed by its least image under the valid board symmetries,
//! translated to the board's corner when the attack relation is translation-invariant (grids
//! and tori). The game implements [`Sums`]: nimbers and outcomes come from the heap-sum
//! win/loss search of `crate::engine::winloss`, with a table that survives between queries.
//!
//! Blocking games: the occupied squares matter too (they stop rays); the state is
//! `(available, occupied)` and the search is a plain memoised mex, refused beyond a budget.
use super::bits::{Bits, WORDS, bounding_box};
use super::graphs;
use crate::engine::winloss::{Sums, mark, mex};
use crate::engine::{Ctl, Error, Result};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

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
    /// the involutions among `syms` that can mirror moves, each (its index, the squares it
    /// fixes or carries into a mask of their own): see [`Game::mirrored`]
    pub mirrors: Vec<(usize, B)>,
    /// components of at most this many squares are valued by [`Game::small_value`]
    pub small: usize,
    /// components of at most this many squares (and at least [`Game::small`]) answer "is the
    /// value `h`" by [`Game::small_loses`]
    pub small_loses: usize,
    /// distinct for every game built, so the per-thread cache of small values (shared by the
    /// games a thread searches) never mixes two games
    pub id: u64,
}

/// A fresh [`Game::id`].
pub(crate) fn game_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The largest bound [`Game::small`] takes.
const SMALL: usize = 16;
/// The largest bound [`Game::small_loses`] takes (its subsets are `u32` words).
const SMALL_LOSES: usize = 28;

/// [`Game::small`] and [`Game::small_loses`] for a game whose squares each interact with
/// `degree` others on average, `single` when each square has one move (Node-Kayles). A move
/// of a sparse game (Node-Kayles on a grid: 4) removes few squares, so many subsets of a
/// component are reached and the subset searches pay only up to 12 squares (3 x 14: 0.07 s
/// against 0.24 s at 16; 3 x 21: 13 s against 18 s at 16 and 67 s at 20). Dense games gain up
/// to 16 for values (queens 14 x 14: 8 % faster, half the memory). For the win/loss question,
/// dense Node-Kayles (queens) gains up to 28 squares, whose subsets of up to six squares are
/// read from the tables of `graphs` (queens 14: 0.80 of the CPU at 28 against 24, 0.96 at 24
/// against 20); with several pieces 20 squares already took twice the CPU of 16 (kings and
/// knights on 6 x 6).
pub(crate) fn small_bound(degree: f64, single: bool) -> (usize, usize) {
    match (degree < 8.0, single) {
        (true, _) => (12, 12),
        (false, true) => (SMALL, SMALL_LOSES),
        (false, false) => (SMALL, SMALL),
    }
}

/// A per-thread cache of what is known of small components: (game id, the component's words,
/// its facts), by hash. The facts are [`EXACT_FACT`] with the value, or else bit `h` set for
/// each heap `h <= MAX_LOSES` with `C + *h` a win.
type SmallCache = Vec<(u64, [u64; WORDS], u8)>;

thread_local! {
    static SMALL_MEMO: RefCell<Memo> = RefCell::new(Memo::new());
    static SMALL_CACHE: RefCell<SmallCache> = RefCell::new(vec![(u64::MAX, [0; WORDS], 0); 1 << 12]);
}

/// The per-thread memo of the subset searches: a byte per subset (`u8::MAX` = unknown).
/// Subsets of components of up to [`SMALL`] squares index a byte array directly, emptied
/// after each search through the list of what it touched (a byte each keeps the array in the
/// cache). Larger ones (dense Node-Kayles, up to [`SMALL_LOSES`] squares) go to an
/// open-addressed table of `subset << 32 | stamp << 8 | byte` words, each entry stamped with
/// its search, so a new search (a new stamp) finds it empty at once: such a search visits few
/// subsets, and a direct array of `2^28` would not stay in the cache.
struct Memo {
    direct: Vec<u8>,
    touched: Vec<u16>,
    slots: Vec<u64>,
    /// the most slots `slots` grows to; a search that fills them starts over with an empty
    /// memo (a new stamp): the memo only saves work, and so stays within [`MEMO_CAP`]
    cap: usize,
    stamp: u64,
    len: usize,
    /// whether this search uses `slots`
    wide: bool,
    /// the nodes of this search, and whether it was stopped (see [`SmallMoves::loses`])
    nodes: u32,
    stopped: bool,
}

/// The most slots of the subset memo past [`SMALL`] squares (32 MB of words).
const MEMO_CAP: usize = 1 << 22;

impl Memo {
    fn new() -> Memo {
        Memo {
            direct: vec![u8::MAX; 1 << SMALL],
            touched: vec![],
            slots: vec![0; 1 << 12],
            cap: MEMO_CAP,
            stamp: 1,
            len: 0,
            wide: false,
            nodes: 0,
            stopped: false,
        }
    }

    /// A new, empty memo for the subsets of a component of `k` squares.
    fn clear(&mut self, k: usize) {
        for &s in &self.touched {
            self.direct[s as usize] = u8::MAX;
        }
        self.touched.clear();
        self.wide = k > SMALL;
        self.nodes = 0;
        self.stopped = false;
        self.restamp();
    }

    /// Empties `slots` at once: a new stamp, which no entry carries.
    fn restamp(&mut self) {
        self.len = 0;
        self.stamp += 1;
        if self.stamp == 1 << 24 {
            self.slots.fill(0);
            self.stamp = 1;
        }
    }

    /// The slot of subset `s` in `slots`: its own, or the empty one where it would go.
    #[inline]
    fn slot(&self, s: u32) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (s as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) as usize >> 40 & mask;
        loop {
            let e = self.slots[i];
            if e >> 8 & 0xff_ffff != self.stamp || e >> 32 == s as u64 {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn get(&self, s: u32) -> u8 {
        if !self.wide {
            return self.direct[s as usize];
        }
        let e = self.slots[self.slot(s)];
        if e >> 8 & 0xff_ffff == self.stamp {
            e as u8
        } else {
            u8::MAX
        }
    }

    #[inline]
    fn set(&mut self, s: u32, v: u8) {
        if self.wide {
            return self.set_wide(s, v);
        }
        let d = &mut self.direct[s as usize];
        if *d == u8::MAX {
            self.touched.push(s as u16);
        }
        *d = v;
    }

    #[inline(never)]
    fn set_wide(&mut self, s: u32, v: u8) {
        let mut i = self.slot(s);
        if self.slots[i] >> 8 & 0xff_ffff != self.stamp {
            if (self.len + 1) * 2 > self.slots.len() {
                if self.slots.len() < self.cap {
                    // twice the room, the entries of this search moved over
                    let len = self.slots.len() * 2;
                    let old = std::mem::replace(&mut self.slots, vec![0; len]);
                    for e in old {
                        if e >> 8 & 0xff_ffff == self.stamp {
                            let j = self.slot((e >> 32) as u32);
                            self.slots[j] = e;
                        }
                    }
                } else {
                    self.restamp();
                }
                i = self.slot(s);
            }
            self.len += 1;
        }
        self.slots[i] = (s as u64) << 32 | self.stamp << 8 | v as u64;
    }
}

/// The moves of a small component, by local square (see [`Game::small_value`]).
struct SmallMoves<'a> {
    removes: &'a [u32],
    start: &'a [u8],
    /// in Node-Kayles (one move per square), the neighbours of each square: subsets of at
    /// most `graphs::MAX` squares are then valued from the tables of `graphs`
    adj: Option<&'a [u32]>,
    /// whether `pext` is at hand ([`has_pext`])
    fast: bool,
    /// the cancellation flag, polled by [`SmallMoves::loses`]
    stop: &'a AtomicBool,
}

impl SmallMoves<'_> {
    /// The value of a subset of at least two squares when the tables of `graphs` hold it.
    #[inline]
    fn table_value(&self, t: u32) -> Option<u32> {
        let adj = self.adj?;
        let k = t.count_ones();
        (k <= graphs::MAX)
            .then(|| graphs::values()[k as usize][graphs::code(adj, t, self.fast)] as u32)
    }

    /// The nimber of the subset `s` of the component (of at least two squares, not in `memo`).
    fn mex(&self, s: u32, memo: &mut Memo) -> u8 {
        let mut seen = 0u64;
        let mut rest = s;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for &r in &self.removes[self.start[i] as usize..self.start[i + 1] as usize] {
                // the cheap cases here, not behind a call
                let t = s & !r;
                let v = if t & t.wrapping_sub(1) == 0 {
                    (t != 0) as u8
                } else if let Some(v) = self.table_value(t) {
                    v as u8
                } else {
                    match memo.get(t) {
                        u8::MAX => self.mex(t, memo),
                        m => m,
                    }
                };
                seen |= 1 << v;
            }
        }
        let g = (!seen).trailing_zeros() as u8;
        memo.set(s, g);
        g
    }

    /// Whether the subset `s` (of at least two squares) plus a heap of `h <= MAX_LOSES`
    /// loses for the player to move, that is whether its value is `h`: a win/loss search that
    /// stops at the first option `t` with `t + *h` a loss, where [`SmallMoves::mex`] values
    /// every option. Moves in `s` first, then heap moves (each a search of `s + *h'`, `h' < h`).
    /// `memo` holds per subset the heaps decided (low 4 bits) and which of them lose (high 4);
    /// `u8::MAX`, which no set of facts equals, means nothing known.
    /// Past [`SMALL`] squares a search may be long: it polls `stop` and, once it is set, ends
    /// with `memo.stopped` (its answer then means nothing).
    fn loses(&self, s: u32, h: u32, memo: &mut Memo) -> bool {
        let m = memo.get(s);
        if m != u8::MAX && m >> h & 1 == 1 {
            return m >> (h + 4) & 1 == 1;
        }
        memo.nodes = memo.nodes.wrapping_add(1);
        if memo.nodes & 0x3ff == 0 && self.stop.load(Ordering::Relaxed) {
            memo.stopped = true;
        }
        if memo.stopped {
            return false;
        }
        let mut lost = true;
        let mut rest = s;
        'moves: while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for &r in &self.removes[self.start[i] as usize..self.start[i + 1] as usize] {
                let t = s & !r;
                let child = if t & t.wrapping_sub(1) == 0 {
                    t.count_ones() == h
                } else if let Some(v) = self.table_value(t) {
                    v == h
                } else {
                    self.loses(t, h, memo)
                };
                if child {
                    lost = false;
                    break 'moves;
                }
            }
        }
        lost = lost && (0..h).all(|h2| !self.loses(s, h2, memo));
        let m = match memo.get(s) {
            u8::MAX => 0,
            m => m,
        };
        // a loss pins the value: every other heap wins
        memo.set(s, m | if lost { 0x0f | 1 << (h + 4) } else { 1 << h });
        lost
    }
}

/// Marks the facts of [`SmallCache`] that hold the value itself.
const EXACT_FACT: u8 = 0x80;

/// The largest heap [`SmallMoves::loses`] takes (its memo has four bits for them).
const MAX_LOSES: u32 = 3;

/// Whether the processor extracts bits in parallel (BMI2's `pext`).
#[inline]
pub(super) fn has_pext() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("bmi2");
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// The members of `m` that lie in `c`, renumbered by their rank in `c` (which has at most 32
/// members): the local numbering of [`Game::small_search`].
fn relabel(m: [u64; WORDS], c: [u64; WORDS]) -> u32 {
    let (mut out, mut shift) = (0u64, 0);
    for (mw, cw) in m.into_iter().zip(c) {
        out |= ranks(mw, cw) << shift;
        shift += cw.count_ones();
    }
    out as u32
}

/// The bits of `m` at the positions of the members of `c`, packed down (a plain `pext`).
pub(super) fn ranks(m: u64, c: u64) -> u64 {
    let (mut out, mut rank, mut rest) = (0, 0, c);
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        if m & low != 0 {
            out |= 1 << rank;
        }
        rank += 1;
        rest ^= low;
    }
    out
}

/// [`relabel`] by one parallel bit extract per word.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn pext_words(m: [u64; WORDS], c: [u64; WORDS]) -> u32 {
    let (mut out, mut shift) = (0u64, 0);
    for (mw, cw) in m.into_iter().zip(c) {
        if cw != 0 {
            out |= std::arch::x86_64::_pext_u64(mw, cw) << shift;
            shift += cw.count_ones();
        }
    }
    out as u32
}

/// Never called off x86-64 ([`has_pext`] is false there).
#[cfg(not(target_arch = "x86_64"))]
unsafe fn pext_words(m: [u64; WORDS], c: [u64; WORDS]) -> u32 {
    relabel(m, c)
}

/// Per-thread search context: polls cancellation every few thousand nodes.
pub(crate) struct Cx<'a> {
    task: crate::engine::control::Task<'a>,
    nodes: u64,
}

impl<'a> Cx<'a> {
    /// A search's progress, shown as `label` with the positions it has visited.
    pub fn new(ctl: &'a Ctl, label: &str) -> Cx<'a> {
        Cx {
            task: ctl.task(label, None),
            nodes: 0,
        }
    }

    /// The positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    #[inline]
    pub fn tick(&mut self) -> Result<()> {
        self.nodes += 1;
        if self.nodes & 4095 == 0 {
            self.task.set(self.nodes)?;
        }
        Ok(())
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
        let (minr, maxr, minc, maxc) = bounding_box(c, stride);
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

    /// The involutions among `syms` under which a symmetric position is a second-player win,
    /// each with the squares where the mirror move fails (see [`Game::mirrored`]).
    pub fn mirror_syms(masks: &[Vec<B>], syms: &[Vec<u16>]) -> Vec<(usize, B)> {
        let n = masks.len();
        syms.iter()
            .enumerate()
            .filter(|(_, p)| (0..n).all(|i| p[p[i] as usize] as usize == i))
            .filter_map(|(k, p)| {
                let mut bad = B::default();
                for (s, ms) in masks.iter().enumerate() {
                    let t = p[s] as usize;
                    if t == s || ms.iter().any(|m| m.test(t)) {
                        bad.set(s);
                    }
                }
                (bad.count() < n as u32).then_some((k, bad))
            })
            .collect()
    }

    /// Whether `c` is a second-player win by the mirror strategy (Tweedledum and Tweedledee):
    /// some involution `σ` maps `c` onto itself, fixes none of its squares, and no move on a
    /// square `s` removes `σ(s)`. Then every move on `s` with mask `m` is answered on `σ(s)`
    /// with `σ(m)` (a mask there, as `σ` is a symmetry of the game), which restores a
    /// symmetric position, so the second player never runs out of moves first: the value is 0.
    fn mirrored(&self, c: B) -> bool {
        self.mirrors
            .iter()
            .any(|&(k, bad)| c.and(bad).is_empty() && self.image(c, k) == c)
    }

    /// A value known without search: tiny components, cliques of Node-Kayles, any component
    /// of at most [`Game::small`] squares (by [`Game::small_value`]), and mirrored ones (0).
    #[inline]
    fn trivial(&self, c: B) -> Option<u32> {
        let k = c.count();
        if k == 1 {
            return Some(1);
        }
        if self.single && (k == 2 || self.clique(c)) {
            return Some(1);
        }
        if k as usize <= self.small {
            return self.small_value(c);
        }
        self.mirrored(c).then_some(0)
    }

    /// Whether every two squares of `c` are adjacent (in Node-Kayles, a move takes them all).
    fn clique(&self, c: B) -> bool {
        c.ones().all(|v| c.andnot(self.adj[v]).is_empty())
    }

    /// The value of a component of at most [`Game::small`] squares by a plain mex over the subsets
    /// of its squares, relabelled `0..k`: a few thousand word operations, cheaper than the
    /// table probes (each a cache miss) and searches that the heap-sum rounds spend on it.
    /// `None` when it has too many moves for the 64-bit mex.
    fn small_value(&self, c: B) -> Option<u32> {
        if let Some(f) = self.cached(c)
            && f & EXACT_FACT != 0
        {
            return Some((f & !EXACT_FACT) as u32);
        }
        // a mex over at most 2^16 subsets is short: it is not stopped
        let g = self.small_search(c, &AtomicBool::new(false), |m, s, memo| m.mex(s, memo))?;
        self.cache(c, EXACT_FACT | g);
        Some(g as u32)
    }

    /// What this thread's cache knows of a small component (see [`EXACT_FACT`]).
    #[inline]
    fn cached(&self, c: B) -> Option<u8> {
        let slot = (c.hash64() >> 52) as usize;
        SMALL_CACHE.with(|t| {
            let (id, w, v) = t.borrow()[slot];
            (id == self.id && w == c.words()).then_some(v)
        })
    }

    #[inline]
    fn cache(&self, c: B, facts: u8) {
        let slot = (c.hash64() >> 52) as usize;
        SMALL_CACHE.with(|t| t.borrow_mut()[slot] = (self.id, c.words(), facts));
    }

    /// Whether a component of at most [`Game::small_loses`] squares plus a heap of `h <= MAX_LOSES`
    /// loses (its value is `h`), by [`SmallMoves::loses`], from this thread's cache when it
    /// knows. `None` as [`Game::small_value`].
    fn small_loses(&self, c: B, h: u32, stop: &AtomicBool) -> Option<bool> {
        let known = self.cached(c);
        match known {
            Some(f) if f & EXACT_FACT != 0 => return Some((f & !EXACT_FACT) as u32 == h),
            Some(f) if f >> h & 1 == 1 => return Some(false),
            _ => {}
        }
        // the memo byte of the whole component: the heaps decided, and which of them lose
        let m = self.small_search(c, stop, |m, s, memo| {
            m.loses(s, h, memo);
            memo.get(s)
        })?;
        let lost = m >> 4;
        let facts = if lost != 0 {
            EXACT_FACT | lost.trailing_zeros() as u8
        } else {
            known.unwrap_or(0) | m & 0x0f
        };
        self.cache(c, facts);
        Some(lost >> h & 1 == 1)
    }

    /// Runs `search` on the whole of a component of at most [`Game::small_loses`] squares,
    /// relabelled `0..k`, with the per-thread memo (emptied first).
    fn small_search(
        &self,
        c: B,
        stop: &AtomicBool,
        search: impl Fn(&SmallMoves<'_>, u32, &mut Memo) -> u8,
    ) -> Option<u8> {
        let k = c.count() as usize;
        if k < 2 {
            return Some(k as u8);
        }
        // the moves on local square `i` (the `i`-th of `c`) remove `removes[start[i]..start[i + 1]]`
        let cw = c.words();
        let fast = has_pext();
        let mut removes = [0u32; 64];
        let mut start = [0u8; SMALL_LOSES + 1];
        let mut nm = 0;
        for (i, v) in c.ones().enumerate() {
            for &m in &self.masks[v] {
                if nm == removes.len() {
                    return None;
                }
                removes[nm] = if fast {
                    // SAFETY: the processor has BMI2 (`has_pext`)
                    unsafe { pext_words(m.words(), cw) }
                } else {
                    relabel(m.words(), cw)
                };
                nm += 1;
            }
            start[i + 1] = nm as u8;
        }
        let mut adj = [0u32; SMALL_LOSES];
        if self.single {
            for (i, a) in adj[..k].iter_mut().enumerate() {
                *a = removes[i] & !(1 << i);
            }
        }
        let moves = SmallMoves {
            removes: &removes[..nm],
            start: &start[..=k],
            adj: self.single.then_some(&adj[..k]),
            fast,
            stop,
        };
        SMALL_MEMO.with(|memo| {
            let memo = &mut *memo.borrow_mut();
            memo.clear(k);
            let v = search(&moves, (1u32 << k) - 1, memo);
            (!memo.stopped).then_some(v)
        })
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
            within_budget(memo.len(), limit, "play-length")?;
            let v = best.unwrap_or(0);
            memo.insert(key, v);
            total += v;
        }
        Ok(total)
    }
}

impl<B: Bits> Game<B> {
    /// Misère play from `a`: whether the player to move loses (one who cannot move wins).
    /// Misère play does not split into components, so a position is keyed whole (its least
    /// image under the symmetries); a line of play is at most one move per square.
    pub fn misere_loses(
        &self,
        a: B,
        memo: &mut HashMap<B, bool>,
        limit: usize,
        cx: &mut Cx,
    ) -> Result<bool> {
        // a free square always takes a piece, so only the empty position has no move
        if a.is_empty() {
            return Ok(false);
        }
        let key = self.canon(a);
        if let Some(&l) = memo.get(&key) {
            return Ok(l);
        }
        cx.tick()?;
        for s in a.ones() {
            for &m in &self.masks[s] {
                if self.misere_loses(a.andnot(m), memo, limit, cx)? {
                    memo.insert(key, false);
                    return Ok(false);
                }
            }
        }
        within_budget(memo.len(), limit, "misère")?;
        memo.insert(key, true);
        Ok(true)
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

/// The play-length and misère searches stop once their memo holds `limit` positions.
fn within_budget(len: usize, limit: usize, what: &str) -> Result<()> {
    if len >= limit {
        return Err(
            Error::limit(format!("the {what} search passed its memory budget"))
                .hint("give more with --memory, or ask of a smaller board"),
        );
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
        within_budget(memo.len(), limit, "play-length")?;
        let v = best.unwrap_or(0);
        memo.insert((avail, occ), v);
        Ok(v)
    }
}

impl<B: Bits> Sums for Game<B> {
    type Pos = B;
    type Key = B;

    #[inline]
    fn next_part(&self, p: &mut B) -> Option<B> {
        if p.is_empty() {
            return None;
        }
        // no reduction of closed twins (squares of equal closed neighbourhoods): finding them
        // cost more than it saved (queens 14 0.81, Node-Kayles 3 x 21 0.55 without)
        let c = self.component(*p);
        *p = p.andnot(c);
        Some(c)
    }

    #[inline]
    fn known(&self, c: B) -> Option<u32> {
        self.trivial(c)
    }

    #[inline]
    fn known_loses(&self, c: B, h: u32, stop: &AtomicBool) -> Option<bool> {
        let k = c.count() as usize;
        if h > MAX_LOSES || k <= 2 || k > self.small_loses || self.single && self.clique(c) {
            return self.trivial(c).map(|v| v == h);
        }
        self.small_loses(c, h, stop)
    }

    #[inline]
    fn key(&self, p: B) -> B {
        self.canon(p)
    }

    #[inline]
    fn size(&self, p: B) -> u32 {
        p.count()
    }

    #[inline]
    fn options(&self, c: B, out: &mut Vec<B>) {
        for s in c.ones() {
            for &m in &self.masks[s] {
                out.push(c.andnot(m));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memo_grows_and_empties() {
        let mut memo = Memo::new();
        memo.slots = vec![0; 4];
        memo.stamp = (1 << 24) - 3;
        for round in 0..4 {
            // a search over 20 squares (the table), then one over 16 (the array)
            let (k, step) = if round % 2 == 0 { (20, 7) } else { (16, 13) };
            memo.clear(k);
            let sets = (0..5000u32).map(|i| i * step % (1 << k));
            for (i, s) in sets.clone().enumerate() {
                assert_eq!(memo.get(s), u8::MAX, "round {round}");
                memo.set(s, (i % 200) as u8);
            }
            for (i, s) in sets.enumerate() {
                assert_eq!(memo.get(s), (i % 200) as u8);
                assert_eq!(memo.get((s + 1) % (1 << k)), u8::MAX);
            }
        }
        // at its cap the memo empties instead of growing, and keeps the newest entry
        memo.slots = vec![0; 4];
        memo.cap = 1 << 8;
        memo.clear(20);
        for i in 0..5000u32 {
            let s = i * 7 % (1 << 20);
            memo.set(s, (i % 200) as u8);
            assert_eq!(memo.get(s), (i % 200) as u8);
            assert!(memo.slots.len() <= 1 << 8);
        }
        assert!(memo.len * 2 <= memo.slots.len());
    }

    #[test]
    fn a_long_subset_search_stops_when_cancelled() {
        // Node-Kayles on the 4 x 7 grid: 28 squares, far more than 2^10 subsets searched
        let (rows, cols) = (4, 7);
        let masks: Vec<Vec<u64>> = (0..rows * cols)
            .map(|s| {
                let (r, c) = (s / cols, s % cols);
                let mut m = 1u64 << s;
                if c > 0 {
                    m |= 1 << (s - 1);
                }
                if c + 1 < cols {
                    m |= 1 << (s + 1);
                }
                if r > 0 {
                    m |= 1 << (s - cols);
                }
                if r + 1 < rows {
                    m |= 1 << (s + cols);
                }
                vec![m]
            })
            .collect();
        let g = Game {
            adj: masks.iter().map(|m| m[0]).collect(),
            masks,
            single: true,
            syms: vec![],
            stride: None,
            bytes: vec![],
            mirrors: vec![],
            small: SMALL,
            small_loses: SMALL_LOSES,
            id: game_id(),
        };
        let all = (1u64 << (rows * cols)) - 1;
        let (stopped, free) = (AtomicBool::new(true), AtomicBool::new(false));
        assert_eq!(g.small_loses(all, 0, &stopped), None);
        let v = g
            .small_search(all, &free, |m, s, memo| m.mex(s, memo))
            .unwrap();
        for h in 0..=MAX_LOSES {
            assert_eq!(g.small_loses(all, h, &free), Some(v as u32 == h), "h = {h}");
        }
    }

    #[test]
    fn relabel_and_pext_agree() {
        let mut rnd = crate::engine::xorshift(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..2000 {
            // a set `c` of at most 32 squares spread over the words, and any `m`
            let mut c = [0u64; WORDS];
            for _ in 0..rnd() % 33 {
                let s = rnd() % (64 * WORDS as u64);
                c[(s / 64) as usize] |= 1 << (s % 64);
            }
            let m = std::array::from_fn(|_| rnd());
            // the rank of each member of `c` in `m & c`, bit by bit
            let mut want = 0u32;
            let mut rank = 0;
            for s in 0..64 * WORDS {
                if c[s / 64] >> (s % 64) & 1 == 1 {
                    want |= ((m[s / 64] >> (s % 64) & 1) as u32) << rank;
                    rank += 1;
                }
            }
            assert_eq!(relabel(m, c), want);
            if has_pext() {
                // SAFETY: checked just above
                assert_eq!(unsafe { pext_words(m, c) }, want);
            }
        }
    }
}
