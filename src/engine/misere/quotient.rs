//! Misère quotients of heap games, computed heap by heap (Plambeck and Siegel, "Misère
//! quotients for impartial games", JCTA 2008, and the algorithms of arXiv 0705.2404).
//!
//! The quotient of heaps 1..n is a finite commutative monoid Q with a P-portion P ⊂ Q and the
//! pretending function Φ (heap → Q): a sum of heaps is a misère P-position exactly when the
//! product of the Φ of its heaps lies in P. Here Q is held as the action of each heap's image
//! on the elements (x ↦ x·Φ(h)), which is all products need.
//!
//! A candidate (Q, P, Φ) is *outcome-consistent* when, for every sum W, Φ(W) ∈ P exactly when W
//! is a P-position; by induction on W that holds exactly when
//! - (P) no sum predicted P has an option predicted P: for every x ∈ Q and heap h with
//!   x·Φ(h) ∈ P, no option t of h has x·Φ(t) ∈ P (finite: every x is the image of some sum);
//! - (N) every sum predicted N, other than the empty one, has an option predicted P.
//!
//! (N) is checked on states (x, T) of sums: x = Φ(W) and T the set of images of W's options.
//! Adding heap h maps (x, T) to (x·Φ(h), T·Φ(h) ∪ x·Φ(opts h)), so the state of a sum depends
//! only on the states it is built from; a larger T only helps (N), so a state whose T contains
//! that of a state already seen with the same x is not followed. The empty sum must be N.
//!
//! A checked candidate is then reduced (elements no sum tells apart are merged, Moore's
//! minimisation): the result is the quotient. Heap n is first tried as each element x of the
//! quotient of heaps below n (it *pretends* to be x); when none passes, the candidate is that
//! quotient times a cyclic monoid for the new heap, its P-portion read from the least sum (in
//! the order where a heap's options come first) of each element; a candidate that fails is
//! recalibrated on the least sum it predicts wrongly, as Siegel's MisereSolver does (arXiv
//! 0705.2404, Appendix C). A quotient may be infinite: candidates past a size limit stop the
//! computation with a lower bound on the size that the failing candidate proves.
use crate::engine::{Ctl, Error, ErrorKind, Result};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// A finite commutative monoid with a P-portion; element 0 is the identity, and every element
/// is the identity times a word of letters (`parent`).
#[derive(Clone, Debug)]
struct Monoid {
    /// act[l][x] = x · (letter l)
    act: Vec<Vec<u32>>,
    p: Vec<bool>,
    /// element = parent · letter (the identity's entry is unused)
    parent: Vec<(u32, u32)>,
}

impl Monoid {
    fn len(&self) -> usize {
        self.p.len()
    }

    fn letters_of(&self, mut y: u32) -> Vec<u32> {
        let mut ls = vec![];
        while y != 0 {
            let (p, l) = self.parent[y as usize];
            ls.push(l);
            y = p;
        }
        ls
    }

    fn mul(&self, x: u32, y: u32) -> u32 {
        self.letters_of(y)
            .iter()
            .fold(x, |acc, &l| self.act[l as usize][acc as usize])
    }

    /// x ↦ x·y for every x.
    fn column(&self, y: u32) -> Vec<u32> {
        let ls = self.letters_of(y);
        (0..self.len() as u32)
            .map(|x| {
                ls.iter()
                    .fold(x, |acc, &l| self.act[l as usize][acc as usize])
            })
            .collect()
    }

    /// Sets `parent` by a breadth-first walk from the identity, renumbering the elements in the
    /// order met (the identity stays 0). Elements not reached are dropped.
    fn renumber(self) -> Monoid {
        let n = self.len();
        let mut order = vec![0u32];
        let mut new_id = vec![u32::MAX; n];
        new_id[0] = 0;
        let mut parent = vec![(0, 0)];
        let mut i = 0;
        while i < order.len() {
            let x = order[i];
            for (l, a) in self.act.iter().enumerate() {
                let y = a[x as usize];
                if new_id[y as usize] == u32::MAX {
                    new_id[y as usize] = order.len() as u32;
                    order.push(y);
                    parent.push((new_id[x as usize], l as u32));
                }
            }
            i += 1;
        }
        let act = self
            .act
            .iter()
            .map(|a| {
                order
                    .iter()
                    .map(|&x| new_id[a[x as usize] as usize])
                    .collect()
            })
            .collect();
        let p = order.iter().map(|&x| self.p[x as usize]).collect();
        Monoid { act, p, parent }
    }

    /// Merges the elements that no product tells apart (Moore's minimisation).
    fn reduce(&self, ctl: &Ctl) -> Result<Monoid> {
        let n = self.len();
        let mut class: Vec<u32> = self.p.iter().map(|&b| b as u32).collect();
        let mut count = class.iter().collect::<std::collections::HashSet<_>>().len();
        loop {
            ctl.check()?;
            let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
            let mut next = Vec::with_capacity(n);
            // the identity's class is numbered 0
            for x in 0..n {
                let mut sig = Vec::with_capacity(self.act.len() + 1);
                sig.push(class[x]);
                sig.extend(self.act.iter().map(|a| class[a[x] as usize]));
                let k = ids.len() as u32;
                next.push(*ids.entry(sig).or_insert(k));
            }
            let done = ids.len() == count;
            count = ids.len();
            class = next;
            if done {
                break;
            }
        }
        let mut act = vec![vec![0; count]; self.act.len()];
        let mut p = vec![false; count];
        for x in 0..n {
            let c = class[x] as usize;
            p[c] = self.p[x];
            for (l, a) in self.act.iter().enumerate() {
                act[l][c] = class[a[x] as usize];
            }
        }
        Ok(Monoid {
            act,
            p,
            parent: vec![],
        }
        .renumber())
    }
}

/// What a heap contributes: the letter of its image, and the images of its options.
#[derive(Clone, Debug, Default)]
struct HeapInfo {
    /// None for a heap without moves (its image is the identity)
    letter: Option<u32>,
    trans: Vec<u32>,
}

type Bits = Box<[u64]>;

fn bits(n: usize) -> Bits {
    vec![0u64; n.div_ceil(64)].into_boxed_slice()
}

fn set(b: &mut Bits, i: u32) {
    b[i as usize / 64] |= 1 << (i % 64);
}

fn subset(a: &Bits, b: &Bits) -> bool {
    a.iter().zip(b.iter()).all(|(x, y)| x & !y == 0)
}

/// A state of the (N) check: the image of a sum, the images of its options, and the sum
/// (an entry of the arena of words).
struct State {
    x: u32,
    tr: Bits,
    word: u32,
}

/// The order of sums in which a sum's options come first: exponents from the largest heap
/// down (index 0 is the largest heap).
type Key = Vec<u16>;

fn key_of(heaps: &[u64], width: usize) -> Key {
    let mut k = vec![0u16; width];
    for &h in heaps {
        k[width - 1 - h as usize] = k[width - 1 - h as usize].saturating_add(1);
    }
    k
}

/// The least states seen, per element.
type Store = HashMap<u32, Vec<(Bits, u32)>>;

/// One step of the heap-by-heap computation, as `quotient` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub heap: u64,
    pub size: usize,
}

/// The misère quotient of heaps 0..=n of a heap game.
#[derive(Clone, Debug)]
pub struct Quotient {
    m: Monoid,
    /// image of each heap 0..=n
    pub phi: Vec<u32>,
    /// generator heaps, in order (named a, b, c ...)
    pub generators: Vec<u64>,
    /// the normal form of each element: exponents of the generators
    pub words: Vec<Vec<u32>>,
    /// relations u = v, each as exponent vectors
    pub relations: Vec<(Vec<u32>, Vec<u32>)>,
    /// the size of the quotient after each heap where it changed
    pub steps: Vec<Step>,
    pub heaps: u64,
}

struct Solver<'a> {
    ctl: &'a Ctl,
    max_size: usize,
    opts: &'a [Vec<Vec<u64>>],
    m: Monoid,
    heaps: Vec<HeapInfo>,
    cols: HashMap<u32, Vec<u32>>,
    store: Store,
    /// words of the (N) check: (previous entry or MAX, heap added)
    arena: Vec<(u32, u64)>,
}

/// A sum that shows a candidate wrong, as its heaps.
type Failure = Vec<u64>;

/// The most elements a candidate quotient may have unless the caller says otherwise.
pub const MAX_SIZE: usize = 4096;

/// The largest failing candidate whose elements are told apart for the lower bound of an
/// error (the work grows as the cube of its size).
const BOUND_SIZE: usize = 8192;

/// The index of x: the least i with x^i = x^(i+p) for some p ≥ 1.
fn index_of(m: &Monoid, x: u32) -> u32 {
    let mut seen = HashMap::new();
    let mut y = 0u32;
    let mut i = 0u32;
    while let std::collections::hash_map::Entry::Vacant(e) = seen.entry(y) {
        e.insert(i);
        y = m.mul(y, x);
        i += 1;
    }
    seen[&y]
}

/// A lower bound on the size of the true quotient from a candidate whose least failure is
/// `w`: every sum less than `w` is predicted rightly, so two elements are surely distinct when
/// a sum less than `w` tells their least sums apart. Counts the elements (in the order of
/// their least sums) told apart so from all before them (Siegel's certified lower bound).
fn lower_bound(m: &Monoid, heaps: &[HeapInfo], w: &[u64], ctl: &Ctl) -> Result<Option<usize>> {
    let n = m.len();
    if n > BOUND_SIZE {
        return Ok(None);
    }
    let words = (n as u64).div_ceil(64);
    ctl.reserve(
        2 * n as u64 * words * 8,
        "the lower bound of a misère quotient",
    )?;
    let width = heaps.len();
    let least = least_sums(m, heaps);
    let keys: Vec<Key> = least.iter().map(|l| key_of(l, width)).collect();
    let limit = key_of(w, width);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
    // below(a, x): the least sums of a and x together are less than w
    let below = |a: usize, x: usize| {
        let sum: Key = keys[a]
            .iter()
            .zip(&keys[x])
            .map(|(&u, &v)| u.saturating_add(v))
            .collect();
        sum < limit
    };
    let mut rows: Vec<Bits> = Vec::with_capacity(n);
    let mut masks: Vec<Bits> = Vec::with_capacity(n);
    for &a in &order {
        ctl.check()?;
        let col = m.column(a as u32);
        let (mut row, mut mask) = (bits(n), bits(n));
        for (x, &ax) in col.iter().enumerate() {
            if m.p[ax as usize] {
                set(&mut row, x as u32);
            }
            if below(a, x) {
                set(&mut mask, x as u32);
            }
        }
        rows.push(row);
        masks.push(mask);
    }
    let mut count = 0;
    for i in 0..n {
        ctl.check()?;
        let apart = |j: usize| {
            rows[i]
                .iter()
                .zip(rows[j].iter())
                .zip(masks[i].iter())
                .any(|((a, b), k)| (a ^ b) & k != 0)
        };
        if (0..i).all(apart) {
            count += 1;
        }
    }
    Ok(Some(count))
}

/// The subsets of `xs` of `size` elements.
fn combinations(xs: &[u64], size: usize) -> Vec<Vec<u64>> {
    if size == 0 {
        return vec![vec![]];
    }
    let mut out = vec![];
    for (i, &x) in xs.iter().enumerate() {
        for mut rest in combinations(&xs[i + 1..], size - 1) {
            rest.insert(0, x);
            out.push(rest);
        }
    }
    out
}

/// Heaps with moves, one per distinct (letter, options' images): (heap, letter, trans).
fn classes(heaps: &[HeapInfo]) -> Vec<(u64, u32, Vec<u32>)> {
    let mut seen = std::collections::HashSet::new();
    let mut out = vec![];
    for (h, info) in heaps.iter().enumerate() {
        if let Some(l) = info.letter
            && seen.insert((l, info.trans.clone()))
        {
            out.push((h as u64, l, info.trans.clone()));
        }
    }
    out
}

fn ones(b: &Bits) -> impl Iterator<Item = usize> + '_ {
    b.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            let t = w.trailing_zeros() as usize;
            w &= w - 1;
            Some(i * 64 + t)
        })
    })
}

/// Whether a state (x, tr) is dominated by one of `store`: same x, fewer option images.
fn dominated(store: &Store, x: u32, tr: &Bits) -> bool {
    store
        .get(&x)
        .is_some_and(|v| v.iter().any(|(t, _)| subset(t, tr)))
}

/// Adds a state unless dominated, dropping those it dominates; whether it was added.
fn insert(store: &mut Store, x: u32, tr: Bits, w: u32) -> bool {
    if dominated(store, x, &tr) {
        return false;
    }
    let list = store.entry(x).or_default();
    list.retain(|(t, _)| !subset(&tr, t));
    list.push((tr, w));
    true
}

/// The words of the (N) check, as heaps.
fn word(arena: &[(u32, u64)], mut w: u32) -> Vec<u64> {
    let mut out = vec![];
    while w != u32::MAX {
        let (p, h) = arena[w as usize];
        out.push(h);
        w = p;
    }
    out
}

/// The least sum (in `Key` order) of each element, as heaps: heaps are added one at a time
/// to the least sums found, in order.
fn least_sums(m: &Monoid, heaps: &[HeapInfo]) -> Vec<Vec<u64>> {
    let width = heaps.len();
    let cl = classes(heaps);
    let mut out: Vec<Option<Vec<u64>>> = vec![None; m.len()];
    let mut queue: BinaryHeap<Reverse<(Key, Vec<u64>, u32)>> = BinaryHeap::new();
    queue.push(Reverse((vec![0; width], vec![], 0)));
    while let Some(Reverse((key, w, x))) = queue.pop() {
        if out[x as usize].is_some() {
            continue;
        }
        for (h, l, _) in &cl {
            let y = m.act[*l as usize][x as usize];
            if out[y as usize].is_none() {
                let mut w2 = w.clone();
                w2.push(*h);
                let mut k2 = key.clone();
                k2[width - 1 - *h as usize] += 1;
                queue.push(Reverse((k2, w2, y)));
            }
        }
        out[x as usize] = Some(w);
    }
    out.into_iter().map(|w| w.unwrap_or_default()).collect()
}

/// What the (N) check reads: the monoid, the columns of the option images, the heap classes.
struct NCheck<'b> {
    m: &'b Monoid,
    cols: &'b HashMap<u32, Vec<u32>>,
    classes: &'b [(u64, u32, Vec<u32>)],
    store: &'b Store,
    ctl: &'b Ctl,
}

impl NCheck<'_> {
    /// The state of a sum in state `s` plus the heap of class (h, l, trans).
    fn child(&self, x: u32, tr: &Bits, l: u32, trans: &[u32]) -> (u32, Bits) {
        let a = &self.m.act[l as usize];
        let mut out = bits(self.m.len());
        for y in ones(tr) {
            set(&mut out, a[y]);
        }
        for t in trans {
            set(&mut out, self.cols[t][x as usize]);
        }
        (a[x as usize], out)
    }

    fn fails(&self, x: u32, tr: &Bits) -> bool {
        !self.m.p[x as usize] && !ones(tr).any(|y| self.m.p[y])
    }

    /// (N) from `seeds`, sums taken in their order (`Key`), so that the failure found is the
    /// least; states not dominated by the store or by `extra` are followed and kept in `extra`.
    fn run(
        &self,
        seeds: Vec<State>,
        extra: &mut Store,
        arena: &mut Vec<(u32, u64)>,
        width: usize,
    ) -> Result<Option<Failure>> {
        let n = self.m.len();
        let per = (n as u64).div_ceil(64) * 8 + 48 + width as u64 * 2;
        let mut kept = self.store.values().map(|v| v.len() as u64).sum::<u64>();
        let mut queue: BinaryHeap<Reverse<(Key, bool, u32)>> = BinaryHeap::new();
        let mut states: HashMap<u32, State> = HashMap::new();
        for s in seeds {
            queue.push(Reverse((
                key_of(&word(arena, s.word), width),
                false,
                s.word,
            )));
            states.insert(s.word, s);
        }
        let mut steps = 0u64;
        while let Some(Reverse((key, failed, w))) = queue.pop() {
            if failed {
                return Ok(Some(word(arena, w)));
            }
            let s = states.remove(&w).unwrap();
            for (h, l, trans) in self.classes {
                steps += 1;
                if steps.is_multiple_of(4096) {
                    self.ctl.reserve(
                        kept * per + arena.len() as u64 * 16,
                        "the check of a misère quotient",
                    )?;
                }
                let (x, tr) = self.child(s.x, &s.tr, *l, trans);
                arena.push((s.word, *h));
                let w = arena.len() as u32 - 1;
                let mut k2 = key.clone();
                let i = width - 1 - *h as usize;
                k2[i] = k2[i].saturating_add(1);
                if self.fails(x, &tr) {
                    queue.push(Reverse((k2, true, w)));
                    continue;
                }
                if dominated(self.store, x, &tr) || !insert(extra, x, tr.clone(), w) {
                    continue;
                }
                kept += 1;
                queue.push(Reverse((k2, false, w)));
                states.insert(w, State { x, tr, word: w });
            }
        }
        Ok(None)
    }
}

impl<'a> Solver<'a> {
    fn col(&mut self, y: u32) {
        if !self.cols.contains_key(&y) {
            let c = self.m.column(y);
            self.cols.insert(y, c);
        }
    }

    /// The image of a list of heaps.
    fn image(m: &Monoid, heaps: &[HeapInfo], sum: &[u64]) -> u32 {
        sum.iter()
            .fold(0, |acc, &h| match heaps[h as usize].letter {
                Some(l) => m.act[l as usize][acc as usize],
                None => acc,
            })
    }

    fn trans_of(m: &Monoid, heaps: &[HeapInfo], opts: &[Vec<u64>]) -> Vec<u32> {
        let mut t: Vec<u32> = opts.iter().map(|o| Self::image(m, heaps, o)).collect();
        t.sort_unstable();
        t.dedup();
        t
    }

    /// Columns for every option image of every heap.
    fn all_cols(&mut self) {
        let ts: Vec<u32> = self.heaps.iter().flat_map(|i| i.trans.clone()).collect();
        for t in ts {
            self.col(t);
        }
    }

    /// (P): no x with x·Φ(h) ∈ P has x·t ∈ P for an option image t of h. Returns the least
    /// sum (least sum of x plus h) that breaks it.
    fn p_check(&mut self) -> Option<Failure> {
        self.all_cols();
        let width = self.opts.len();
        let least = least_sums(&self.m, &self.heaps);
        let mut best: Option<(Key, Failure)> = None;
        for (h, l, trans) in classes(&self.heaps) {
            let a = &self.m.act[l as usize];
            for t in &trans {
                let col = &self.cols[t];
                for x in 0..self.m.len() {
                    if self.m.p[a[x] as usize] && self.m.p[col[x] as usize] {
                        let mut w = least[x].clone();
                        w.push(h);
                        let k = key_of(&w, width);
                        if best.as_ref().is_none_or(|b| k < b.0) {
                            best = Some((k, w));
                        }
                    }
                }
            }
        }
        best.map(|b| b.1)
    }

    /// Checks the current candidate in full; on success its least states are kept. A failure
    /// is the least sum (in `Key` order) the candidate predicts wrongly: every smaller sum is
    /// predicted rightly, so its options are, and so its own prediction is the wrong one.
    fn verify(&mut self) -> Result<Option<Failure>> {
        let width = self.opts.len();
        if self.m.p[0] {
            return Ok(Some(vec![]));
        }
        let pfail = self.p_check();
        self.store.clear();
        self.arena.clear();
        let n = self.m.len();
        let mut extra = Store::new();
        extra.entry(0).or_default().push((bits(n), u32::MAX));
        let seeds = vec![State {
            x: 0,
            tr: bits(n),
            word: u32::MAX,
        }];
        let cl = classes(&self.heaps);
        let empty = Store::new();
        let check = NCheck {
            m: &self.m,
            cols: &self.cols,
            classes: &cl,
            store: &empty,
            ctl: self.ctl,
        };
        let nfail = check.run(seeds, &mut extra, &mut self.arena, width)?;
        self.store = extra;
        Ok(match (pfail, nfail) {
            (Some(a), Some(b)) => Some(if key_of(&a, width) <= key_of(&b, width) {
                a
            } else {
                b
            }),
            (a, b) => a.or(b),
        })
    }

    /// Whether heap h may pretend to be x in the quotient of the heaps below it.
    fn pretends(&mut self, h: u64, x: u32, trans: &[u32]) -> Result<bool> {
        let isolated_p = trans.iter().all(|&t| !self.m.p[t as usize]);
        if self.m.p[x as usize] != isolated_p {
            return Ok(false);
        }
        self.col(x);
        for &t in trans {
            self.col(t);
        }
        {
            let colx = &self.cols[&x];
            for t in trans {
                let colt = &self.cols[t];
                if (0..self.m.len())
                    .any(|y| self.m.p[colx[y] as usize] && self.m.p[colt[y] as usize])
                {
                    return Ok(false);
                }
            }
        }
        // heap h acts as a letter of its own during the check
        let l = self.m.act.len() as u32;
        self.m.act.push(self.cols[&x].clone());
        self.heaps[h as usize] = HeapInfo {
            letter: Some(l),
            trans: trans.to_vec(),
        };
        let arena_len = self.arena.len();
        let cl = classes(&self.heaps);
        let check = NCheck {
            m: &self.m,
            cols: &self.cols,
            classes: &cl,
            store: &self.store,
            ctl: self.ctl,
        };
        // every sum with heap h is a stored state plus h, plus more heaps
        let mut seeds = vec![];
        let mut failed = false;
        'seeds: for (&y, list) in self.store.iter() {
            for (tr, w) in list {
                let (x2, t2) = check.child(y, tr, l, trans);
                self.arena.push((*w, h));
                if check.fails(x2, &t2) {
                    failed = true;
                    break 'seeds;
                }
                if !dominated(check.store, x2, &t2) {
                    seeds.push(State {
                        x: x2,
                        tr: t2,
                        word: self.arena.len() as u32 - 1,
                    });
                }
            }
        }
        let mut extra = Store::new();
        if !failed {
            seeds.retain(|s| insert(&mut extra, s.x, s.tr.clone(), s.word));
            failed = check
                .run(seeds, &mut extra, &mut self.arena, self.opts.len())?
                .is_some();
        }
        if failed {
            self.m.act.pop();
            self.heaps[h as usize] = HeapInfo::default();
            self.arena.truncate(arena_len);
            return Ok(false);
        }
        // keep the letter only if no heap has the same image already
        if let Some(same) = (0..l).find(|&k| self.m.act[k as usize] == self.m.act[l as usize]) {
            self.m.act.pop();
            self.heaps[h as usize].letter = Some(same);
        }
        for (x2, list) in extra {
            for (tr, w) in list {
                insert(&mut self.store, x2, tr, w);
            }
        }
        Ok(true)
    }

    /// Finds the quotient with heap h as a new generator (MisereSolver's loop). The first
    /// candidate is the quotient of the heaps below h times ⟨a | a⁴ = a²⟩ for h. While the check
    /// finds a least sum W the candidate predicts wrongly, the candidate is recalibrated on W.
    /// Every candidate's failure is a sum predicted rightly by none before it fails; when the
    /// least failure does not move on, the cycles of the next candidates are made longer.
    fn expand(&mut self, h: u64) -> Result<()> {
        let (old_m, old_heaps) = (self.m.clone(), self.heaps.clone());
        if let Err(e) = self.candidate(&old_m, &old_heaps, h, &[(h, 2, 2)]) {
            if !matches!(e.kind, ErrorKind::Limit | ErrorKind::Memory) {
                return Err(e);
            }
            // the quotient below h is a quotient of part of the one up to h
            return Err(Error::limit(format!(
                "{e}; the misère quotient of the heaps up to {h} has at least {} elements",
                old_m.len()
            ))
            .hint("ask for fewer heaps, or raise max_size: or the memory budget (--memory)"));
        }
        let width = self.opts.len();
        let mut last: Option<Key> = None;
        let mut bonus = 0;
        loop {
            let Some(w) = self.verify()? else {
                return Ok(());
            };
            let k = key_of(&w, width);
            if last.as_ref().is_some_and(|l| k <= *l) {
                bonus += 1;
            }
            last = Some(k);
            self.recalibrate(h, &w, &mut bonus)?;
        }
    }

    /// MisereSolver's recalibration: for the heaps of the failure W, fewest first, the
    /// candidate generated by the other heaps' images times a cyclic monoid for each of them,
    /// ⟨g | g^(i+p) = g^i⟩ with i at least g's index in the failing candidate and at least its
    /// exponent in W less one, p = max(2, 2⌊(i−4)/2⌋); the first that predicts W rightly is
    /// the next candidate. When none does, every index grows by one (`bonus`) and all are
    /// tried again, until a candidate passes the size limit.
    fn recalibrate(&mut self, h: u64, w: &[u64], bonus: &mut u32) -> Result<()> {
        let truth_p = !self.m.p[Self::image(&self.m, &self.heaps, w) as usize];
        let (base_m, base_heaps) = (self.m.clone(), self.heaps.clone());
        let mut involved: Vec<u64> = w
            .iter()
            .copied()
            .filter(|&x| base_heaps[x as usize].letter.is_some())
            .collect();
        involved.sort_unstable();
        involved.dedup();
        let index: Vec<u32> = involved
            .iter()
            .map(|&x| {
                let img = Self::image(&base_m, &base_heaps, &[x]);
                let exp = w.iter().filter(|&&y| y == x).count() as u32;
                index_of(&base_m, img).max(exp.saturating_sub(1))
            })
            .collect();
        loop {
            for size in 1..=involved.len() {
                for subset in combinations(&(0..involved.len() as u64).collect::<Vec<_>>(), size) {
                    self.ctl.check()?;
                    let gens: Vec<(u64, u32, u32)> = subset
                        .iter()
                        .map(|&i| {
                            let i = i as usize;
                            let idx = index[i] + *bonus;
                            (involved[i], idx, 2.max(2 * (idx.saturating_sub(4) / 2)))
                        })
                        .collect();
                    if let Err(e) = self.candidate(&base_m, &base_heaps, h, &gens) {
                        return Err(self.too_large(e, h, &base_m, &base_heaps, w));
                    }
                    if self.m.p[Self::image(&self.m, &self.heaps, w) as usize] == truth_p {
                        return Ok(());
                    }
                }
            }
            *bonus += 1;
        }
    }

    /// A size or memory error of a recalibration, with what the failing candidate proves of the
    /// quotient's size.
    fn too_large(&self, e: Error, h: u64, m: &Monoid, heaps: &[HeapInfo], w: &[u64]) -> Error {
        if !matches!(e.kind, ErrorKind::Limit | ErrorKind::Memory) {
            return e;
        }
        let known = match lower_bound(m, heaps, w, self.ctl) {
            Ok(Some(n)) => format!("at least {n} elements"),
            _ => format!("more elements than could be told apart ({BOUND_SIZE} at most)"),
        };
        Error::limit(format!(
            "{e}; the misère quotient of the heaps up to {h} has {known} (distinct by sums its \
             candidates predict rightly), and the candidates keep growing: it may be infinite"
        ))
        .hint("ask for fewer heaps, or raise max_size: or the memory budget (--memory)")
    }

    /// The candidate: the monoid generated by the images of the heaps up to h not in `gens`
    /// (in `base`), times a cyclic monoid ⟨g | g^(i+p) = g^i⟩ for each (heap, i, p) of `gens`,
    /// its P-portion from the least sums, reduced. `Err` when it would be too large.
    fn candidate(
        &mut self,
        base: &Monoid,
        base_heaps: &[HeapInfo],
        h: u64,
        gens: &[(u64, u32, u32)],
    ) -> Result<()> {
        let is_gen = |x: u64| gens.iter().position(|g| g.0 == x);
        let mut used: Vec<u32> = (1..=h as usize)
            .filter(|&x| is_gen(x as u64).is_none())
            .filter_map(|x| base_heaps[x].letter)
            .collect();
        used.sort_unstable();
        used.dedup();
        let radix: Vec<u64> = gens.iter().map(|g| g.1 as u64 + g.2 as u64).collect();
        let cells = radix
            .iter()
            .try_fold(base.len() as u64, |acc, &r| acc.checked_mul(r))
            .filter(|&c| c < (u32::MAX / 2) as u64)
            .ok_or_else(|| {
                Error::limit(format!(
                    "the candidate quotient at heap {h} would have too many elements"
                ))
                .hint("ask for fewer heaps")
            })?;
        let nl = used.len() + gens.len();
        self.ctl
            .reserve(cells * (nl as u64 * 4 + 40), "a candidate misère quotient")?;
        // the exponents of the generators, in mixed radix
        let place = |i: usize| radix[..i].iter().product::<u64>();
        let step = |c: u64, i: usize| -> u64 {
            let (p, r, k) = (place(i), radix[i], gens[i].1 as u64);
            let d = c / p % r;
            let nd = if d == r - 1 { k } else { d + 1 };
            c - d * p + nd * p
        };
        let mut ids: HashMap<(u32, u64), u32> = HashMap::new();
        let mut elems: Vec<(u32, u64)> = vec![(0, 0)];
        let mut parent = vec![(0u32, 0u32)];
        ids.insert((0, 0), 0);
        let mut act: Vec<Vec<u32>> = vec![vec![]; nl];
        let mut i = 0;
        while i < elems.len() {
            if i % 4096 == 0 {
                self.ctl.check()?;
            }
            let (q, c) = elems[i];
            for (l, a) in act.iter_mut().enumerate() {
                let next = if l < used.len() {
                    (base.act[used[l] as usize][q as usize], c)
                } else {
                    (q, step(c, l - used.len()))
                };
                let id = *ids.entry(next).or_insert_with(|| {
                    elems.push(next);
                    parent.push((i as u32, l as u32));
                    elems.len() as u32 - 1
                });
                a.push(id);
            }
            i += 1;
        }
        let n = elems.len();
        let mut m = Monoid {
            act,
            p: vec![false; n],
            parent,
        };
        let mut heaps: Vec<HeapInfo> = vec![HeapInfo::default(); base_heaps.len()];
        for x in 1..=h as usize {
            heaps[x].letter = match is_gen(x as u64) {
                Some(g) => Some((used.len() + g) as u32),
                None => base_heaps[x]
                    .letter
                    .map(|l| used.iter().position(|&u| u == l).unwrap() as u32),
            };
        }
        for x in 1..=h as usize {
            if heaps[x].letter.is_some() {
                heaps[x].trans = Self::trans_of(&m, &heaps, &self.opts[x]);
            }
        }
        m.p = self.mark(&m, &heaps)?;
        let red = m.reduce(self.ctl)?;
        if red.len() > self.max_size {
            return Err(Error::limit(format!(
                "a candidate misère quotient at heap {h} has {} elements, more than max_size ({})",
                red.len(),
                self.max_size
            )));
        }
        self.install(red, heaps, h);
        Ok(())
    }

    /// Makes `m` the current quotient, `heaps` giving each heap's letter in it (letters that act
    /// alike merged).
    fn install(&mut self, m: Monoid, mut heaps: Vec<HeapInfo>, h: u64) {
        let mut keep: Vec<Vec<u32>> = vec![];
        let mut map = vec![u32::MAX; m.act.len()];
        for info in &heaps {
            if let Some(l) = info.letter
                && map[l as usize] == u32::MAX
            {
                let col = &m.act[l as usize];
                map[l as usize] = match keep.iter().position(|c| c == col) {
                    Some(i) => i as u32,
                    None => {
                        keep.push(col.clone());
                        keep.len() as u32 - 1
                    }
                };
            }
        }
        self.m = Monoid {
            act: keep,
            p: m.p,
            parent: vec![],
        }
        .renumber();
        for info in heaps.iter_mut() {
            info.letter = info.letter.map(|l| map[l as usize]);
        }
        self.cols.clear();
        for x in 1..=h as usize {
            if heaps[x].letter.is_some() {
                heaps[x].trans = Self::trans_of(&self.m, &heaps, &self.opts[x]);
            }
        }
        self.heaps = heaps;
    }

    /// The P-portion of a candidate, each element judged by its least sum: sums are ordered by
    /// their exponents from the largest heap down, so that a sum's options come before it.
    fn mark(&self, m: &Monoid, heaps: &[HeapInfo]) -> Result<Vec<bool>> {
        let n = m.len();
        let reps: Vec<usize> = classes(heaps).iter().map(|c| c.0 as usize).collect();
        let r = reps.len();
        let letter = |j: usize| heaps[reps[j]].letter.unwrap() as usize;
        let image = |key: &[u16]| {
            let mut x = 0u32;
            for j in 0..r {
                for _ in 0..key[r - 1 - j] {
                    x = m.act[letter(j)][x as usize];
                }
            }
            x
        };
        let mut p = vec![false; n];
        let mut marked = vec![false; n];
        // the key lists exponents from the largest heap down, so Vec order is the sums' order
        let mut queue: BinaryHeap<Reverse<(Vec<u16>, u32)>> = BinaryHeap::new();
        queue.push(Reverse((vec![0; r], 0)));
        let mut pops = 0u64;
        while let Some(Reverse((key, x))) = queue.pop() {
            pops += 1;
            if pops.is_multiple_of(4096) {
                self.ctl.check()?;
            }
            if marked[x as usize] {
                continue;
            }
            marked[x as usize] = true;
            // the options: one heap replaced by one of its options
            let mut any_option = false;
            let mut p_option = false;
            for j in 0..r {
                if key[r - 1 - j] == 0 {
                    continue;
                }
                let mut less = key.clone();
                less[r - 1 - j] -= 1;
                let rest = image(&less);
                for &t in &heaps[reps[j]].trans {
                    any_option = true;
                    if p[m.mul(rest, t) as usize] {
                        p_option = true;
                    }
                }
            }
            p[x as usize] = any_option && !p_option;
            for j in 0..r {
                let y = m.act[letter(j)][x as usize];
                if !marked[y as usize] {
                    let mut k2 = key.clone();
                    k2[r - 1 - j] = k2[r - 1 - j].checked_add(1).ok_or_else(|| {
                        Error::limit("a sum with more than 65535 copies of a heap")
                    })?;
                    queue.push(Reverse((k2, y)));
                }
            }
        }
        Ok(p)
    }
}

/// The misère quotient of heaps 0..=n, from the options of each heap (`opts[h]`: the options of
/// heap h, each the list of heaps it leaves, all smaller than h).
pub fn quotient(opts: &[Vec<Vec<u64>>], ctl: &Ctl) -> Result<Quotient> {
    quotient_within(opts, MAX_SIZE, ctl)
}

/// `quotient`, with candidates of at most `max_size` elements: past it, an error says what is
/// known of the quotient's size.
pub fn quotient_within(opts: &[Vec<Vec<u64>>], max_size: usize, ctl: &Ctl) -> Result<Quotient> {
    let n = opts.len().saturating_sub(1) as u64;
    for (h, o) in opts.iter().enumerate() {
        super::check_smaller(h as u64, o)?;
    }
    let mut s = Solver {
        ctl,
        max_size,
        opts,
        m: Monoid {
            act: vec![],
            p: vec![false],
            parent: vec![(0, 0)],
        },
        heaps: vec![HeapInfo::default(); opts.len()],
        cols: HashMap::new(),
        store: Store::new(),
        arena: vec![],
    };
    s.verify()?;
    let mut steps = vec![];
    let task = ctl.task("misère quotient (heaps)", Some(n + 1));
    for h in 1..=n {
        task.set(h)?;
        let trans = Solver::trans_of(&s.m, &s.heaps, &opts[h as usize]);
        if trans.is_empty() {
            continue;
        }
        let mut found = false;
        for x in 0..s.m.len() as u32 {
            if s.pretends(h, x, &trans)? {
                found = true;
                break;
            }
        }
        if !found {
            s.expand(h)?;
            steps.push(Step {
                heap: h,
                size: s.m.len(),
            });
        }
    }
    Ok(finish(s, steps, n))
}

/// Names the generators and writes each element in normal form, with the relations.
fn finish(s: Solver, steps: Vec<Step>, n: u64) -> Quotient {
    let m = s.m;
    let phi: Vec<u32> = s
        .heaps
        .iter()
        .map(|i| i.letter.map_or(0, |l| m.act[l as usize][0]))
        .collect();
    // generators: each heap whose image the earlier generators do not reach
    let mut gens: Vec<u64> = vec![];
    let mut reach = vec![false; m.len()];
    reach[0] = true;
    let closure = |gl: &[u32], reach: &mut Vec<bool>| {
        let mut stack: Vec<u32> = (0..m.len() as u32).filter(|&x| reach[x as usize]).collect();
        while let Some(x) = stack.pop() {
            for &g in gl {
                let y = m.mul(x, g);
                if !reach[y as usize] {
                    reach[y as usize] = true;
                    stack.push(y);
                }
            }
        }
    };
    let mut gimg: Vec<u32> = vec![];
    for (h, &x) in phi.iter().enumerate() {
        if !reach[x as usize] {
            gens.push(h as u64);
            gimg.push(x);
            closure(&gimg, &mut reach);
        }
    }
    // normal forms: the least word by degree, then by fewer of the later generators
    let g = gens.len();
    let key = |w: &Vec<u32>| {
        let mut k = vec![w.iter().sum::<u32>()];
        k.extend(w.iter().rev());
        k
    };
    let cols: Vec<Vec<u32>> = gimg.iter().map(|&y| m.column(y)).collect();
    let mut words: Vec<Option<Vec<u32>>> = vec![None; m.len()];
    // (order key, word, element)
    type Entry = Reverse<(Vec<u32>, Vec<u32>, u32)>;
    let mut queue: BinaryHeap<Entry> = BinaryHeap::new();
    queue.push(Reverse((key(&vec![0; g]), vec![0; g], 0)));
    while let Some(Reverse((_, w, x))) = queue.pop() {
        if words[x as usize].is_some() {
            continue;
        }
        words[x as usize] = Some(w.clone());
        for (i, c) in cols.iter().enumerate() {
            let y = c[x as usize];
            if words[y as usize].is_none() {
                let mut w2 = w.clone();
                w2[i] += 1;
                queue.push(Reverse((key(&w2), w2, y)));
            }
        }
    }
    let words: Vec<Vec<u32>> = words.into_iter().map(|w| w.unwrap_or_default()).collect();
    // relations: the least words that are not normal forms (every divisor is one)
    let normal: std::collections::HashSet<Vec<u32>> = words.iter().cloned().collect();
    let mut relations = vec![];
    for (x, w) in words.iter().enumerate() {
        for (i, c) in cols.iter().enumerate() {
            let mut u = w.clone();
            u[i] += 1;
            if normal.contains(&u) {
                continue;
            }
            let minimal = (0..g).all(|j| {
                u[j] == 0 || {
                    let mut d = u.clone();
                    d[j] -= 1;
                    normal.contains(&d)
                }
            });
            // the same u is reached from each of its divisors: keep it once
            let first = (0..g).find(|&j| u[j] > 0) == Some(i);
            if minimal && first {
                relations.push((u, words[c[x] as usize].clone()));
            }
        }
    }
    relations.sort_by_key(|(u, _)| key(u));
    Quotient {
        m,
        phi,
        generators: gens,
        words,
        relations,
        steps,
        heaps: n,
    }
}

/// The name of generator i: a, b, ... z, then g27, g28 ...
pub fn gen_name(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("g{}", i + 1)
    }
}

fn superscript(n: u32) -> String {
    const D: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    n.to_string()
        .bytes()
        .map(|b| D[(b - b'0') as usize])
        .collect()
}

/// A word as the papers write it: `ab²`, `1` for the identity.
pub fn word_text(w: &[u32]) -> String {
    let mut s = String::new();
    for (i, &e) in w.iter().enumerate() {
        if e > 0 {
            s += &gen_name(i);
            if e > 1 {
                s += &superscript(e);
            }
        }
    }
    if s.is_empty() { "1".into() } else { s }
}

impl Quotient {
    pub fn size(&self) -> usize {
        self.m.len()
    }

    /// Whether element x is in the P-portion.
    pub fn is_p_elem(&self, x: u32) -> bool {
        self.m.p[x as usize]
    }

    /// The image of a sum of heaps (each at most `heaps`).
    pub fn image(&self, sum: &[u64]) -> u32 {
        sum.iter()
            .fold(0, |acc, &h| self.m.mul(acc, self.phi[h as usize]))
    }

    /// Whether a sum of heaps is a misère P-position, read from the quotient.
    pub fn is_p(&self, sum: &[u64]) -> bool {
        self.m.p[self.image(sum) as usize]
    }

    pub fn elements(&self) -> Vec<String> {
        self.words.iter().map(|w| word_text(w)).collect()
    }

    pub fn p_portion(&self) -> Vec<String> {
        (0..self.size())
            .filter(|&x| self.m.p[x])
            .map(|x| word_text(&self.words[x]))
            .collect()
    }

    /// ⟨a, b | a² = 1, b³ = b⟩
    pub fn presentation(&self) -> String {
        let names: Vec<String> = (0..self.generators.len()).map(gen_name).collect();
        let rels: Vec<String> = self
            .relations
            .iter()
            .map(|(u, v)| format!("{} = {}", word_text(u), word_text(v)))
            .collect();
        if rels.is_empty() {
            format!("⟨{}⟩", names.join(", "))
        } else {
            format!("⟨{} | {}⟩", names.join(", "), rels.join(", "))
        }
    }

    /// The element heap h pretends to be, as a word.
    pub fn pretending(&self, h: u64) -> String {
        word_text(&self.words[self.phi[h as usize] as usize])
    }

    /// The heap from which the quotient of heaps up to k is the same as for all heaps computed:
    /// the heap after the last change (1 when it never changed), None when it changed at the
    /// last heap.
    pub fn stable_from(&self) -> Option<u64> {
        match self.steps.last() {
            None => Some(1.min(self.heaps)),
            Some(s) if s.heap == self.heaps => None,
            Some(s) => Some(s.heap),
        }
    }
}
