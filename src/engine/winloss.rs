//! Nimbers and outcomes of impartial games whose positions split into sums of components.
//!
//! A mex needs the value of every option, so it admits no cutoff. The heap-sum reduction turns
//! the nimber into win/loss questions that do: `G = k` exactly when `G + *k` is a loss for the
//! player to move, and a win/loss search stops at the first winning move. The nimber of a
//! component is the first `k = 0, 1, 2, ...` for which `G + *k` loses; the outcome of a
//! position is the single question `k = 0`.
//!
//! A position `C + *h` (one component and a heap) loses when no move wins: a move in `C` goes
//! to an option `O` that splits into components, a heap move to `C + *h'` for some `h' < h`
//! (which loses exactly when `G(C) = h'`). Components whose value is known fold into the heap by
//! nim-addition; if several unknown ones remain, all but the largest are valued exactly (by the
//! same rounds), and the search goes on in the largest. Moves in `C` are tried first, fewest
//! remaining squares first (the most forcing moves refute soonest); heap moves come last, since
//! each one asks for a search of `C` against a smaller heap.
//!
//! One table, keyed by a component's canonical form, holds both kinds of fact: an exact value,
//! or the set of heaps `h` for which `C + *h` is known to win (so `G(C) != h`). The facts of
//! one round `k` serve every later round. A plain mex remains only for a value past
//! `MAX_HEAP`.
//!
//! The options of a large component are searched in parallel, young brothers wait: the first
//! option alone, then, if it does not win, the others at once. At the first level and
//! everywhere below down to [`PAR_SIZE`], so the expensive last options of a round keep every
//! thread busy. The answers do not depend on the thread count (only the table's contents do).
use crate::engine::control::Task;
use crate::engine::{Ctl, Result};
use rayon::prelude::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A canonical key of a position: equal keys must mean equal games.
pub trait Key: Copy + Eq + std::hash::Hash + Default + Send + Sync + 'static {
    /// A well-mixed 64-bit hash.
    fn hash64(self) -> u64;
}

/// An impartial game under normal play whose positions are sums of components.
pub trait Sums: Sync {
    /// A position (a sum of components) or one component.
    type Pos: Copy + Send + Sync;
    type Key: Key;
    /// Takes one component off `p` (leaving the rest in `p`), reduced to a simpler equal form
    /// where the game knows one; `None` once `p` is empty.
    fn next_part(&self, p: &mut Self::Pos) -> Option<Self::Pos>;
    /// The value of a component when it is known without search.
    fn known(&self, c: Self::Pos) -> Option<u32>;
    /// Whether `c + *h` loses (the value of `c` is `h`), when the game answers it without this
    /// search (more cheaply than it finds the value, or by a search of its own, which gives up
    /// with `None` once `stop`, the cancellation flag, is set).
    fn known_loses(&self, c: Self::Pos, h: u32, _stop: &AtomicBool) -> Option<bool> {
        self.known(c).map(|v| v == h)
    }
    /// The canonical key of any position (reduced under the game's symmetries).
    fn key(&self, p: Self::Pos) -> Self::Key;
    /// A size that shrinks along every move (live squares, say): moves are tried smallest
    /// option first.
    fn size(&self, p: Self::Pos) -> u32;
    /// Appends the options of a component to `out`.
    fn options(&self, c: Self::Pos, out: &mut Vec<Self::Pos>);
}

/// A table entry: 0 = nothing known; `EXACT | g` = the value is `g`; otherwise bit `h` set
/// means `C + *h` wins, that is the value is not `h`. Stored entries also carry, in the bits
/// of [`WORK`], the work class of the searches behind them (see [`work_class`]).
const EXACT: u64 = 1 << 63;
const WORK_SHIFT: u32 = 56;
const WORK: u64 = 0x7f << WORK_SHIFT;
/// Heaps up to this size are searched by the heap-sum reduction; a component whose value
/// passes it (only possible with many kinds of move) is valued by mex instead.
const MAX_HEAP: u32 = WORK_SHIFT - 1;

/// Components of at least this many squares search their options in parallel (below, a
/// subtree is too small to be worth a task).
const PAR_SIZE: u32 = 48;

/// The work class of a search of `nodes` nodes: one more than the bit length of `nodes`, so
/// every stored entry has a class of at least 1 and an empty slot is 0.
fn work_class(nodes: u64) -> u64 {
    (65 - nodes.leading_zeros()) as u64
}

#[derive(Clone, Copy, Default)]
struct Slot<K> {
    key: K,
    val: u64,
}

const SHARDS: usize = 64;
/// Slots per bucket: a key lives in one bucket, in any of its slots.
const WAYS: usize = 4;

struct Shard<K> {
    slots: Vec<Slot<K>>,
    count: usize,
}

/// A bounded transposition table, in shards behind locks. Each shard starts small and doubles
/// while it is three-quarters full, up to its share of the budget. A key lives in a bucket of
/// [`WAYS`] slots; a new key takes a free slot, else the slot whose entry cost the least work
/// to find, so the facts behind large searches stay while the cheap ones near the leaves churn
/// through the rest (a full table keeps working and loses only what is cheap to recompute).
/// A fact about a key already there is merged into its entry.
pub(crate) struct Table<K> {
    shards: Vec<Mutex<Shard<K>>>,
    max_per: usize,
}

impl<K: Key> Table<K> {
    /// A table of at most `bytes` bytes.
    pub fn new(bytes: u64) -> Table<K> {
        let slot = std::mem::size_of::<Slot<K>>() as u64;
        let max_per = (bytes / slot / SHARDS as u64 / WAYS as u64).max(1) * WAYS as u64;
        let start = max_per.min(1 << 8) as usize;
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

    /// The shard of a key (by the low bits of its hash) and the hash.
    #[inline]
    fn place(key: K) -> (usize, u64) {
        let h = key.hash64();
        ((h as usize) % SHARDS, h)
    }

    /// The slots of the bucket of hash `h` (by its high bits: shards need not be powers of two).
    #[inline]
    fn bucket(t: &Shard<K>, h: u64) -> std::ops::Range<usize> {
        let buckets = (t.slots.len() / WAYS) as u128;
        let i = ((h as u128 * buckets) >> 64) as usize * WAYS;
        i..i + WAYS
    }

    /// What is known of `key` (0 for nothing), without its work class.
    fn get(&self, key: K) -> u64 {
        let (s, h) = Self::place(key);
        let t = self.shards[s].lock().unwrap();
        for e in &t.slots[Self::bucket(&t, h)] {
            if e.val != 0 && e.key == key {
                return e.val & !WORK;
            }
        }
        0
    }

    fn insert(t: &mut Shard<K>, key: K, val: u64, h: u64) {
        let b = Self::bucket(t, h);
        for e in &mut t.slots[b.clone()] {
            if e.val != 0 && e.key == key {
                let work = (e.val & WORK).max(val & WORK);
                let facts = if e.val & EXACT != 0 {
                    e.val
                } else if val & EXACT != 0 {
                    val
                } else {
                    e.val | val
                };
                e.val = facts & !WORK | work;
                return;
            }
        }
        // the slot of least work (an empty one has none)
        let j = b.min_by_key(|&j| t.slots[j].val & WORK).unwrap();
        if t.slots[j].val == 0 {
            t.count += 1;
        }
        t.slots[j] = Slot { key, val };
    }

    /// Records a fact (an entry as described at [`EXACT`]) found by a search of `nodes` nodes.
    fn put(&self, key: K, val: u64, nodes: u64) {
        if val == 0 {
            return;
        }
        let val = val | work_class(nodes) << WORK_SHIFT;
        let (s, h) = Self::place(key);
        let mut t = self.shards[s].lock().unwrap();
        if t.count * 4 >= t.slots.len() * 3 && t.slots.len() < self.max_per {
            let len = (t.slots.len() * 2).min(self.max_per);
            let old = std::mem::replace(&mut t.slots, vec![Slot::default(); len]);
            t.count = 0;
            for e in old {
                if e.val != 0 {
                    let (_, h2) = Self::place(e.key);
                    Self::insert(&mut t, e.key, e.val, h2);
                }
            }
        }
        Self::insert(&mut t, key, val, h);
    }

    /// The bytes its slots take.
    pub fn bytes(&self) -> u64 {
        let slots: usize = self
            .shards
            .iter()
            .map(|s| s.lock().unwrap().slots.len())
            .sum();
        (slots * std::mem::size_of::<Slot<K>>()) as u64
    }

    /// The number of exact values held.
    pub fn entries(&self) -> usize {
        self.shards
            .iter()
            .map(|s| {
                let s = s.lock().unwrap();
                s.slots.iter().filter(|x| x.val & EXACT != 0).count()
            })
            .sum()
    }
}

/// The fact "`C + *h` wins" as an entry.
fn not(h: u32) -> u64 {
    if h <= MAX_HEAP { 1 << h } else { 0 }
}

/// Whether an entry says `C + *h` wins.
fn excluded(e: u64, h: u32) -> bool {
    e & EXACT == 0 && h <= MAX_HEAP && e >> h & 1 == 1
}

fn exact(e: u64) -> Option<u32> {
    (e & EXACT != 0).then_some((e & !EXACT) as u32)
}

/// The least value not marked (values below 128 in the bits of `seen`, the rest in `big`).
pub(crate) fn mex(seen: u128, big: &[u32]) -> u32 {
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

/// Marks a value for [`mex`].
pub(crate) fn mark(seen: &mut u128, big: &mut Vec<u32>, v: u32) {
    if v < 128 {
        *seen |= 1 << v;
    } else {
        big.push(v);
    }
}

/// One thread's search: the game, the shared table, cancellation, progress (the positions
/// every thread visits), and reusable buffers.
struct Search<'a, G: Sums> {
    g: &'a G,
    t: &'a Table<G::Key>,
    ctl: &'a Ctl,
    task: &'a Task<'a>,
    nodes: u64,
    /// the positions visited: nodes and the components the game answers by a search of its own
    seen: u64,
    bufs: Vec<Vec<G::Pos>>,
}

/// Nodes a thread searches between reports to the progress task.
const TICK_NODES: u64 = 4096;

impl<'a, G: Sums> Search<'a, G> {
    fn new(g: &'a G, t: &'a Table<G::Key>, ctl: &'a Ctl, task: &'a Task<'a>) -> Self {
        Search {
            g,
            t,
            ctl,
            task,
            nodes: 0,
            seen: 0,
            bufs: vec![],
        }
    }

    #[inline]
    fn tick(&mut self) -> Result<()> {
        self.nodes += 1;
        self.visit()
    }

    /// Counts a position visited for the progress report, and polls cancellation.
    #[inline]
    fn visit(&mut self) -> Result<()> {
        self.seen += 1;
        if self.seen.is_multiple_of(TICK_NODES) {
            return self.task.tick(TICK_NODES);
        }
        // every position: one may cost milliseconds (a graph's symmetries, a script's moves)
        self.ctl.check()
    }

    /// The options of `c` in a buffer of the pool (give it back with `self.bufs.push`).
    fn options(&mut self, c: G::Pos) -> Vec<G::Pos> {
        let mut out = self.bufs.pop().unwrap_or_default();
        out.clear();
        self.g.options(c, &mut out);
        out
    }

    /// The nimber of a position.
    fn value(&mut self, mut p: G::Pos) -> Result<u32> {
        let mut x = 0;
        while let Some(c) = self.g.next_part(&mut p) {
            x ^= self.nimber(c)?;
        }
        Ok(x)
    }

    /// The nimber of a component.
    fn nimber(&mut self, c: G::Pos) -> Result<u32> {
        match self.g.known(c) {
            Some(v) => Ok(v),
            None => self.nimber_keyed(c, self.g.key(c)),
        }
    }

    /// The nimber of a component not known without search, with its key.
    fn nimber_keyed(&mut self, c: G::Pos, key: G::Key) -> Result<u32> {
        let e = self.t.get(key);
        if let Some(v) = exact(e) {
            return Ok(v);
        }
        for h in 0..=MAX_HEAP {
            if !excluded(e, h) && self.loses(c, key, h)? {
                return Ok(h);
            }
        }
        self.mex(c, key)
    }

    fn mex(&mut self, c: G::Pos, key: G::Key) -> Result<u32> {
        let n0 = self.nodes;
        self.tick()?;
        let opts = self.options(c);
        let mut seen = 0u128;
        let mut big = vec![];
        for &o in &opts {
            let v = self.value(o)?;
            mark(&mut seen, &mut big, v);
        }
        self.bufs.push(opts);
        let g = mex(seen, &big);
        self.t.put(key, EXACT | g as u64, self.nodes - n0);
        Ok(g)
    }

    /// Whether `C + *h` loses for the player to move (`C` a component with key `key`, not
    /// known without search).
    fn loses(&mut self, c: G::Pos, key: G::Key, h: u32) -> Result<bool> {
        let e = self.t.get(key);
        self.loses_given(c, key, h, e)
    }

    /// [`Search::loses`] given the table entry `e` of `key`.
    fn loses_given(&mut self, c: G::Pos, key: G::Key, h: u32, e: u64) -> Result<bool> {
        if let Some(v) = exact(e) {
            return Ok(v == h);
        }
        if excluded(e, h) {
            return Ok(false);
        }
        let n0 = self.nodes;
        self.tick()?;
        // moves in `C` first: a heap move wins only when `G(C) < h`, which takes a search of
        // `C` against every smaller heap to find out
        let opts = self.options(c);
        let r = if self.g.size(c) >= PAR_SIZE {
            self.some_option_loses_par(opts, h)
        } else {
            let r = self.some_option_loses(&opts, h);
            self.bufs.push(opts);
            r
        };
        let win = r? || self.heap_wins(c, key, h, e)?;
        let fact = if win { not(h) } else { EXACT | h as u64 };
        self.t.put(key, fact, self.nodes - n0);
        Ok(!win)
    }

    /// Whether a heap move wins from `C + *h`: some `h' < h` with `C + *h'` a loss (`e` is
    /// what the table knew of `C`).
    fn heap_wins(&mut self, c: G::Pos, key: G::Key, h: u32, e: u64) -> Result<bool> {
        for h2 in 0..h {
            if !excluded(e, h2) && self.loses(c, key, h2)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether some option `O` (tried smallest first) leaves `O + *h` a loss.
    fn some_option_loses(&mut self, opts: &[G::Pos], h: u32) -> Result<bool> {
        let mut order: Vec<(u32, usize)> = opts
            .iter()
            .enumerate()
            .map(|(i, &o)| (self.g.size(o), i))
            .collect();
        order.sort_unstable();
        for (_, i) in order {
            if self.sum_loses(opts[i], h)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// [`Search::some_option_loses`] for a large component, young brothers wait: the first
    /// option alone (where `C + *h` wins it usually does), then, if it does not, the others
    /// in parallel (where `C + *h` loses, every option must be searched anyway, so the threads
    /// share the work without speculating). Symmetric options are searched once, and each is
    /// a task of its own: rayon would otherwise fold runs of options on one thread, and the
    /// last and largest options of a round, run one after another, left the other cores idle.
    fn some_option_loses_par(&mut self, opts: Vec<G::Pos>, h: u32) -> Result<bool> {
        let mut opts = distinct(self.g, opts).into_iter();
        let Some(first) = opts.next() else {
            return Ok(false);
        };
        if self.sum_loses(first, h)? {
            return Ok(true);
        }
        let (g, t, ctl, task) = (self.g, self.t, self.ctl, self.task);
        let nodes = AtomicU64::new(0);
        let rest: Vec<G::Pos> = opts.collect();
        let found = rest.into_par_iter().with_max_len(1).find_map_any(|o| {
            let mut s = Search::new(g, t, ctl, task);
            let r = s.sum_loses(o, h);
            nodes.fetch_add(s.nodes, Ordering::Relaxed);
            match r {
                Ok(false) => None,
                other => Some(other),
            }
        });
        self.nodes += nodes.into_inner();
        found.unwrap_or(Ok(false))
    }

    /// Whether `P + *h` loses, `P` any position: every component but the largest unknown one
    /// folds into the heap.
    fn sum_loses(&mut self, mut p: G::Pos, h: u32) -> Result<bool> {
        let mut x = h;
        let mut open: Option<(u32, G::Pos, G::Key, u64)> = None;
        let mut next = self.g.next_part(&mut p);
        while let Some(c) = next {
            next = self.g.next_part(&mut p);
            // the last component, all others known: the game may answer the question whole
            if next.is_none() && open.is_none() {
                self.visit()?;
                if let Some(l) = self.g.known_loses(c, x, self.ctl.cancel_flag()) {
                    return Ok(l);
                }
            }
            if let Some(v) = self.g.known(c) {
                x ^= v;
                continue;
            }
            let key = self.g.key(c);
            let e = self.t.get(key);
            if let Some(v) = exact(e) {
                x ^= v;
                continue;
            }
            // keep the largest open; value the others exactly
            let size = self.g.size(c);
            match open {
                Some((s, ..)) if s >= size => x ^= self.nimber_keyed(c, key)?,
                Some((_, o, k, _)) => {
                    x ^= self.nimber_keyed(o, k)?;
                    open = Some((size, c, key, e));
                }
                None => open = Some((size, c, key, e)),
            }
        }
        match open {
            None => Ok(x == 0),
            Some((_, c, key, _)) if x > MAX_HEAP => Ok(self.nimber_keyed(c, key)? == x),
            Some((_, c, key, e)) => self.loses_given(c, key, x, e),
        }
    }
}

/// The positions of `opts` with distinct keys, smallest first (ties in the given order).
fn distinct<G: Sums>(g: &G, opts: Vec<G::Pos>) -> Vec<G::Pos> {
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<(u32, usize, G::Pos)> = opts
        .into_iter()
        .enumerate()
        .filter(|&(_, o)| seen.insert(g.key(o)))
        .map(|(i, o)| (g.size(o), i, o))
        .collect();
    out.sort_unstable_by_key(|&(s, i, _)| (s, i));
    out.into_iter().map(|(_, _, o)| o).collect()
}

/// The nimber of `p`. `task` counts the positions visited.
pub(crate) fn value<G: Sums>(
    g: &G,
    t: &Table<G::Key>,
    mut p: G::Pos,
    ctl: &Ctl,
    task: &Task,
) -> Result<u32> {
    let mut x = 0;
    while let Some(c) = g.next_part(&mut p) {
        x ^= nimber_par(g, t, c, ctl, task)?;
    }
    Ok(x)
}

/// Whether `p` is a loss for the player to move (a P-position), by win/loss search alone.
pub(crate) fn loses<G: Sums>(
    g: &G,
    t: &Table<G::Key>,
    mut p: G::Pos,
    ctl: &Ctl,
    task: &Task,
) -> Result<bool> {
    let mut x = 0;
    let mut open: Vec<(u32, G::Pos)> = vec![];
    while let Some(c) = g.next_part(&mut p) {
        match g.known(c) {
            Some(v) => x ^= v,
            None => open.push((g.size(c), c)),
        }
    }
    // the largest component is searched against a heap holding the others' values
    open.sort_by_key(|&(s, _)| s);
    let Some((_, last)) = open.pop() else {
        return Ok(x == 0);
    };
    for (_, c) in open {
        x ^= nimber_par(g, t, c, ctl, task)?;
    }
    let key = g.key(last);
    if x > MAX_HEAP {
        return Ok(nimber_par(g, t, last, ctl, task)? == x);
    }
    loses_par(g, t, last, key, x, ctl, task)
}

/// The nimber of one component, by rounds `k = 0, 1, ...` of the parallel search.
fn nimber_par<G: Sums>(g: &G, t: &Table<G::Key>, c: G::Pos, ctl: &Ctl, task: &Task) -> Result<u32> {
    if let Some(v) = g.known(c) {
        return Ok(v);
    }
    let key = g.key(c);
    for h in 0..=MAX_HEAP {
        if !excluded(t.get(key), h) && loses_par(g, t, c, key, h, ctl, task)? {
            return Ok(h);
        }
    }
    Search::new(g, t, ctl, task).mex(c, key)
}

/// [`Search::loses`] with the options of `C` searched in parallel.
fn loses_par<G: Sums>(
    g: &G,
    t: &Table<G::Key>,
    c: G::Pos,
    key: G::Key,
    h: u32,
    ctl: &Ctl,
    task: &Task,
) -> Result<bool> {
    let e = t.get(key);
    if let Some(v) = exact(e) {
        return Ok(v == h);
    }
    if excluded(e, h) {
        return Ok(false);
    }
    let mut opts = vec![];
    g.options(c, &mut opts);
    let mut s = Search::new(g, t, ctl, task);
    let win = s.some_option_loses_par(opts, h)? || s.heap_wins(c, key, h, e)?;
    // the first level's facts are the most expensive of all
    t.put(key, if win { not(h) } else { EXACT | h as u64 }, u64::MAX);
    Ok(!win)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph game for the tests: a move deletes a vertex alone or (when `kayles`) with its
    /// neighbours too; positions are sets of vertices, components those of the induced graph.
    struct Toy {
        adj: Vec<u64>,
        alone: bool,
        /// the size of a vertex: at 8, components of 6 vertices pass [`PAR_SIZE`], so the
        /// searches below the first level fan out too
        weight: u32,
        /// set on the 10th call of `options` (counted in `calls`)
        stop: Option<std::sync::Arc<AtomicBool>>,
        calls: AtomicU64,
    }

    impl Toy {
        fn component(&self, p: u64) -> u64 {
            let mut comp = p & p.wrapping_neg();
            loop {
                let mut nb = comp;
                for v in 0..64 {
                    if comp >> v & 1 == 1 {
                        nb |= self.adj[v] & p;
                    }
                }
                if nb == comp {
                    return comp;
                }
                comp = nb;
            }
        }

        /// Plain memoised mex over whole positions.
        fn brute(&self, p: u64, memo: &mut std::collections::HashMap<u64, u32>) -> u32 {
            if let Some(&v) = memo.get(&p) {
                return v;
            }
            let mut opts = vec![];
            self.options(p, &mut opts);
            let seen: Vec<u32> = opts.iter().map(|&o| self.brute(o, memo)).collect();
            let g = (0..).find(|x| !seen.contains(x)).unwrap();
            memo.insert(p, g);
            g
        }
    }

    impl Sums for Toy {
        type Pos = u64;
        type Key = u64;
        fn next_part(&self, p: &mut u64) -> Option<u64> {
            (*p != 0).then(|| {
                let c = self.component(*p);
                *p &= !c;
                c
            })
        }
        fn known(&self, c: u64) -> Option<u32> {
            (c.count_ones() == 1).then_some(1)
        }
        fn key(&self, p: u64) -> u64 {
            p
        }
        fn size(&self, p: u64) -> u32 {
            p.count_ones() * self.weight
        }
        fn options(&self, c: u64, out: &mut Vec<u64>) {
            if let Some(stop) = &self.stop
                && self.calls.fetch_add(1, Ordering::Relaxed) == 10
            {
                stop.store(true, Ordering::Relaxed);
            }
            for v in 0..64 {
                if c >> v & 1 == 1 {
                    out.push(c & !(1 << v | self.adj[v]));
                    if self.alone {
                        out.push(c & !(1 << v));
                    }
                }
            }
        }
    }

    #[test]
    fn heap_sum_values_and_outcomes_agree_with_plain_mex_on_random_graphs() {
        let mut values = std::collections::HashSet::new();
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| random_graphs(&mut values));
        }
        // the graphs reach values well past 0 and 1
        assert!(values.iter().any(|&v| v >= 4), "{values:?}");
    }

    /// A search stops at the first node after Ctrl-C: a node may be slow (a graph's
    /// symmetries, a script's moves), so polling every few thousand nodes was too late.
    #[test]
    fn the_search_stops_at_the_next_node_once_cancelled() {
        let ctl = Ctl::default();
        // a path of 60 vertices: far too large to finish
        let toy = Toy {
            adj: (0..60u32)
                .map(|v| {
                    (1u64 << (v + 1) | 1u64 << v.saturating_sub(1)) & !(1 << v) & ((1 << 60) - 1)
                })
                .collect(),
            alone: true,
            weight: 1,
            stop: Some(ctl.cancel_flag().clone()),
            calls: AtomicU64::new(0),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let t = Table::new(1 << 16);
        let task = ctl.task("test", None);
        pool.install(|| assert!(loses(&toy, &t, (1 << 60) - 1, &ctl, &task).is_err()));
        let calls = toy.calls.load(Ordering::Relaxed);
        assert!(calls <= 12, "{calls} nodes expanded");
    }

    fn random_graphs(values: &mut std::collections::HashSet<u32>) {
        let mut rnd = crate::engine::xorshift(0x2545_f491_4f6c_dd1du64);
        let ctl = Ctl::default();
        for round in 0..120 {
            let n = 4 + (rnd() % 11) as usize;
            let density = 2 + rnd() % 5;
            let mut adj = vec![0u64; n];
            for a in 0..n {
                for b in a + 1..n {
                    if rnd() % 16 < density {
                        adj[a] |= 1 << b;
                        adj[b] |= 1 << a;
                    }
                }
            }
            let toy = Toy {
                adj,
                alone: round % 2 == 1,
                weight: if round % 4 < 2 { 1 } else { 8 },
                stop: None,
                calls: AtomicU64::new(0),
            };
            // every third graph on a table of 64 buckets, full from the start: its entries
            // are replaced all the time, which may cost work but never a wrong answer
            let t = Table::new(if round % 3 == 0 { 0 } else { 1 << 16 });
            let task = ctl.task("test", None);
            let mut memo = std::collections::HashMap::new();
            let all = (1u64 << n) - 1;
            for p in [all, all & rnd(), all & rnd() & rnd()] {
                let g = toy.brute(p, &mut memo);
                values.insert(g);
                assert_eq!(
                    value(&toy, &t, p, &ctl, &task).unwrap(),
                    g,
                    "{:?} {p:b}",
                    toy.adj
                );
                assert_eq!(loses(&toy, &t, p, &ctl, &task).unwrap(), g == 0);
                // on a fresh table the outcome search must stand alone
                let fresh = Table::new(1 << 16);
                assert_eq!(loses(&toy, &fresh, p, &ctl, &task).unwrap(), g == 0);
            }
        }
    }
}
