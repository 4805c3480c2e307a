//! The search, generic over the bitset width.
//!
//! A position is one set of cells per state; a cell in no set is absent (a cell of another
//! component). A move is live while each cell it reads can still come to be in a state it
//! needs (states only move forward, so a dead move stays dead). Cells no live move reads never
//! matter again; the others fall into components joined by the footprints of live moves, and a
//! position's value is the nim-sum of its components' values. An end condition that can still
//! come to hold ends play on the whole board, so while one is live the position is one
//! component. A component is keyed by its least image under the symmetries that preserve the
//! rules (a symmetry may also trade two states on some cells: the directions of an edge),
//! translated to the board's corner when the rules are translation-invariant. The game
//! implements [`Sums`]: nimbers and outcomes come from the heap-sum win/loss search of
//! `crate::engine::winloss`, with a table that lasts between queries.
//!
//! When every condition asks for cells in one state that no cell comes back to (the cell is
//! empty), and every move surely takes one of the cells it reads out of that state, a
//! component is the set of its empty cells, and one of at most [`SMALL`] cells is valued
//! directly by a mex over the subsets of its cells ([`Game::small_value`]). Otherwise, when
//! the rules have no end conditions, a component with one live move is valued by playing it
//! out ([`Game::one_move`]).
use crate::engine::control::{Task, over_budget};
use crate::engine::placement::bits::{Bits, WORDS, bounding_box};
use crate::engine::winloss::{Key, Sums};
use crate::engine::{Ctl, Result};
use std::cell::RefCell;
use std::collections::HashMap;

pub const MAX_STATES: usize = 4;

/// Per set of states `t` (bit s for state s): the cells in a state of `t`.
type Sets<B> = [B; 1 << MAX_STATES];

/// Components of at most this many cells are valued by [`Game::small_value`].
const SMALL: usize = 8;

/// A per-thread cache of small values: (game id, the component's cells, its value), by hash.
type SmallCache = Vec<(u64, [u64; WORDS], u8)>;

thread_local! {
    /// Per-thread memo of [`small_mex`], one byte per subset (`u8::MAX` = unknown).
    static SMALL_MEMO: RefCell<Vec<u8>> = RefCell::new(vec![u8::MAX; 1 << SMALL]);
    static SMALL_CACHE: RefCell<SmallCache> = RefCell::new(vec![(u64::MAX, [0; WORDS], 0); 1 << 12]);
}

/// A fresh [`Game::id`].
pub(crate) fn game_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The nimber of the subset `s` of a small component whose moves are (cells needed, cells
/// taken), by local cell.
fn small_mex(moves: &[(u32, u32)], s: u32, memo: &mut [u8]) -> u8 {
    if s == 0 {
        return 0;
    }
    let m = memo[s as usize];
    if m != u8::MAX {
        return m;
    }
    let mut seen = 0u128;
    for &(need, take) in moves {
        if need & !s == 0 {
            seen |= 1 << small_mex(moves, s & !take, memo);
        }
    }
    let g = (!seen).trailing_zeros() as u8;
    memo[s as usize] = g;
    g
}

/// A position: per state, the cells in it.
pub type Pos<B> = [B; MAX_STATES];

/// A compiled move over bitsets.
pub(crate) struct Mv<B> {
    /// (cells, states): each cell must be in one of the states (a bit set)
    pub need: Vec<(B, u8)>,
    /// each holds when one of its (cells, states) has a cell in one of the states
    pub some: Vec<Vec<(B, u8)>>,
    /// (cells, from, to), in order: those of the cells in a state of `from` take state `to`
    pub change: Vec<(B, u8, u8)>,
    /// the cells the move reads
    pub reads: B,
    /// the cells the move reads or writes
    pub foot: B,
    /// the cells the move takes out of the empty state (see [`Game::empty`])
    pub takes: B,
}

/// A compiled end condition: `need` and `some` as in a move, over `cells`.
pub(crate) struct Cond<B> {
    pub need: Vec<(B, u8)>,
    pub some: Vec<Vec<(B, u8)>>,
    pub cells: B,
}

pub(crate) struct Game<B> {
    pub states: usize,
    pub moves: Vec<Mv<B>>,
    /// per cell: the moves whose lowest read cell it is (the moves that may be live in a
    /// position are those of its cells)
    pub by_low: Vec<Vec<u32>>,
    /// per cell: the moves whose footprint holds it
    pub touch: Vec<Vec<u32>>,
    /// the one state conditions ask for, when components are valued by [`Game::small_value`]
    pub empty: Option<u8>,
    /// distinct for every game built, so the per-thread cache of small values never mixes two
    pub id: u64,
    /// a position where one holds has no moves
    pub ends: Vec<Cond<B>>,
    /// per set of states T: the states from which a cell can still reach a state of T
    pub can: [u8; 1 << MAX_STATES],
    /// per rule-preserving symmetry other than the identity, per byte of a set: the images
    pub bytes: Vec<Vec<[B; 256]>>,
    /// per symmetry: the cells (after the map) where the states `swap` trade places
    pub turned: Vec<B>,
    pub swap: Option<(u8, u8)>,
    /// translate keys to the corner of a board with this many columns
    pub stride: Option<usize>,
}

impl<B: Bits> Game<B> {
    /// Per set of states `t`: the cells in a state of `t`.
    #[inline]
    pub fn sets(&self, p: &Pos<B>) -> Sets<B> {
        let mut out = [B::default(); 1 << MAX_STATES];
        for t in 1..1usize << self.states {
            out[t] = out[t & (t - 1)].or(p[t.trailing_zeros() as usize]);
        }
        out
    }

    #[inline]
    pub fn present(&self, p: &Pos<B>) -> B {
        p.iter().fold(B::default(), |a, &b| a.or(b))
    }

    /// Whether every cell of each `need` set is in one of its states (`can`: can still come
    /// to be) and each `some` condition has such a cell.
    #[inline]
    fn meets(&self, sets: &Sets<B>, need: &[(B, u8)], some: &[Vec<(B, u8)>], can: bool) -> bool {
        let states = |t: u8| if can { self.can[t as usize] } else { t };
        need.iter()
            .all(|&(c, t)| c.andnot(sets[states(t) as usize]).is_empty())
            && some.iter().all(|any| {
                any.iter()
                    .any(|&(c, t)| !c.and(sets[states(t) as usize]).is_empty())
            })
    }

    /// Whether move `m` may be made in `p`.
    pub fn holds(&self, p: &Pos<B>, m: &Mv<B>) -> bool {
        self.meets(&self.sets(p), &m.need, &m.some, false)
    }

    /// Whether an end condition holds in a position of these [`Game::sets`].
    fn ended(&self, sets: &Sets<B>) -> bool {
        self.ends
            .iter()
            .any(|e| self.meets(sets, &e.need, &e.some, false))
    }

    /// Whether an end condition holds in `p`.
    pub fn over(&self, p: &Pos<B>) -> bool {
        !self.ends.is_empty() && self.ended(&self.sets(p))
    }

    /// The position after move `m`.
    #[inline]
    pub fn apply(&self, p: &Pos<B>, m: &Mv<B>) -> Pos<B> {
        let mut q = *p;
        for &(c, from, to) in &m.change {
            let from = (0..self.states).filter(|s| from >> s & 1 == 1);
            let moved = c.and(from.fold(B::default(), |a, s| a.or(q[s])));
            for b in q.iter_mut().take(self.states) {
                *b = b.andnot(moved);
            }
            q[to as usize] = q[to as usize].or(moved);
        }
        q
    }

    /// Calls `f` on each move that reads only cells of `present` (the moves that may be made
    /// in a position of those cells, now or later).
    #[inline]
    fn candidates<'a>(&'a self, present: B, mut f: impl FnMut(&'a Mv<B>)) {
        for c in present.ones() {
            for &i in &self.by_low[c] {
                let m = &self.moves[i as usize];
                if m.reads.andnot(present).is_empty() {
                    f(m);
                }
            }
        }
    }

    /// The independent components of `p`, each restricted to its cells.
    pub fn components(&self, p: &Pos<B>) -> Vec<Pos<B>> {
        let mut rest = *p;
        std::iter::from_fn(|| self.first_part(&mut rest)).collect()
    }

    /// The cells `p` restricted to `c`.
    fn restrict(p: &Pos<B>, c: B) -> Pos<B> {
        p.map(|b| b.and(c))
    }

    /// The component of `p` holding its lowest relevant cell, leaving the other relevant
    /// cells in `p`: cells are joined by the footprints of the live moves that touch them,
    /// found through [`Game::touch`].
    fn first_part(&self, p: &mut Pos<B>) -> Option<Pos<B>> {
        let present = self.present(p);
        let sets = self.sets(p);
        let live = |m: &Mv<B>| match self.empty {
            Some(e) => m.reads.andnot(p[e as usize]).is_empty(),
            None => m.reads.andnot(present).is_empty() && self.meets(&sets, &m.need, &m.some, true),
        };
        let mut relevant = B::default();
        self.candidates(present, |m| {
            if live(m) {
                relevant = relevant.or(m.reads);
            }
        });
        if relevant.is_empty() {
            *p = Pos::default();
            return None;
        }
        let ends = self
            .ends
            .iter()
            .filter(|e| self.meets(&sets, &e.need, &e.some, true));
        let ends = ends.fold(B::default(), |a, e| a.or(e.cells));
        if !ends.is_empty() {
            let all = Self::restrict(p, relevant.or(ends));
            *p = Pos::default();
            return Some(all);
        }
        let mut comp = B::bit(relevant.lowest());
        let mut frontier = comp;
        while !frontier.is_empty() {
            let mut grown = B::default();
            for v in frontier.ones() {
                for &i in &self.touch[v] {
                    let m = &self.moves[i as usize];
                    if live(m) {
                        grown = grown.or(m.foot);
                    }
                }
            }
            frontier = grown.and(relevant).andnot(comp);
            comp = comp.or(frontier);
        }
        let first = Self::restrict(p, comp);
        *p = Self::restrict(p, relevant.andnot(comp));
        Some(first)
    }

    /// The value of a component with one live move: no other move can ever be made, so play is
    /// that move made while it holds (without end conditions, which could stop it sooner).
    fn one_move(&self, c: &Pos<B>) -> Option<u32> {
        let present = self.present(c);
        let sets = self.sets(c);
        let (mut one, mut count) = (None, 0);
        self.candidates(present, |m| {
            if self.meets(&sets, &m.need, &m.some, true) {
                one = Some(m);
                count += 1;
            }
        });
        let m = match (one, count) {
            (Some(m), 1) => m,
            _ => return None,
        };
        let (mut q, mut plays) = (*c, 0);
        while self.holds(&q, m) {
            let r = self.apply(&q, m);
            if r == q {
                break;
            }
            (q, plays) = (r, plays + 1);
        }
        Some(plays % 2)
    }

    /// The value of a component of at most [`SMALL`] cells when positions are sets of empty
    /// cells: a plain mex over the subsets of its cells, relabelled `0..k`, a few thousand
    /// word operations where the heap-sum rounds would spend symmetry keys and table probes.
    /// `None` for other components, or one with too many moves for the 128-bit mex.
    fn small_value(&self, c: &Pos<B>) -> Option<u32> {
        let cells = c[self.empty? as usize];
        let k = cells.count() as usize;
        if k > SMALL {
            return None;
        }
        let words = cells.words();
        let slot = (cells.hash64() >> 52) as usize;
        let cached = SMALL_CACHE.with(|t| {
            let (id, w, v) = t.borrow()[slot];
            (id == self.id && w == words).then_some(v)
        });
        if let Some(v) = cached {
            return Some(v as u32);
        }
        let mut at = [0u8; super::MAX_CELLS];
        for (i, v) in cells.ones().enumerate() {
            at[v] = i as u8;
        }
        let local = |b: B| b.and(cells).ones().fold(0u32, |a, v| a | 1 << at[v]);
        let mut moves = [(0u32, 0u32); 127];
        let mut n = 0;
        let mut full = false;
        self.candidates(cells, |m| {
            if n == moves.len() {
                full = true;
            } else {
                moves[n] = (local(m.reads), local(m.takes));
                n += 1;
            }
        });
        if full {
            return None;
        }
        let g = SMALL_MEMO.with(|memo| {
            let mut memo = memo.borrow_mut();
            memo[..1 << k].fill(u8::MAX);
            small_mex(&moves[..n], (1u32 << k) - 1, &mut memo)
        });
        SMALL_CACHE.with(|t| t.borrow_mut()[slot] = (self.id, words, g));
        Some(g as u32)
    }

    /// The options of a component, as positions.
    fn options_of(&self, c: &Pos<B>, out: &mut Vec<Pos<B>>) {
        if let Some(e) = self.empty {
            // the cells a move takes are out of play: only the empty cells are kept
            let cells = c[e as usize];
            self.candidates(cells, |m| {
                let mut q = Pos::default();
                q[e as usize] = cells.andnot(m.takes);
                out.push(q);
            });
            return;
        }
        let sets = self.sets(c);
        self.candidates(self.present(c), |m| {
            if self.meets(&sets, &m.need, &m.some, false) {
                let q = self.apply(c, m);
                if q != *c {
                    out.push(q);
                }
            }
        });
    }

    fn image(&self, b: B, sym: usize) -> B {
        let mut out = B::default();
        for (k, row) in self.bytes[sym].iter().enumerate() {
            let v = b.byte(k);
            if v != 0 {
                out = out.or(row[v as usize]);
            }
        }
        out
    }

    /// `p` moved to the board's corner, when translations are allowed.
    fn to_corner(&self, p: Pos<B>) -> Pos<B> {
        let Some(stride) = self.stride else { return p };
        let all = self.present(&p);
        if all.is_empty() {
            return p;
        }
        let (minr, _, minc, _) = bounding_box(all, stride);
        let k = minr * stride + minc;
        let mut q = p;
        for b in q.iter_mut() {
            *b = b.shr(k);
        }
        q
    }

    /// The canonical key of a component.
    pub fn canon(&self, p: &Pos<B>) -> Pos<B> {
        self.least_image(p, |q| self.to_corner(q))
    }

    /// The least of `f` of the images of `p` under the rule-preserving symmetries.
    fn least_image(&self, p: &Pos<B>, f: impl Fn(Pos<B>) -> Pos<B>) -> Pos<B> {
        let mut best = f(*p);
        for k in 0..self.bytes.len() {
            let mut im = *p;
            for b in im.iter_mut().take(self.states) {
                if !b.is_empty() {
                    *b = self.image(*b, k);
                }
            }
            if let Some((a, b)) = self.swap {
                let (t, x, y) = (self.turned[k], im[a as usize], im[b as usize]);
                im[a as usize] = x.andnot(t).or(y.and(t));
                im[b as usize] = y.andnot(t).or(x.and(t));
            }
            let im = f(im);
            if im < best {
                best = im;
            }
        }
        best
    }

    /// Misère play on the whole board, which does not split into components: whether the
    /// player to move from `p` loses (a player without a move wins). Positions are keyed by
    /// their least image under the symmetries; a line of play is at most cells × states long.
    pub fn misere_loses(&self, p: Pos<B>, ctl: &Ctl, task: &Task) -> Result<bool> {
        let mut memo = HashMap::with_hasher(foldhash::fast::FixedState::default());
        self.misere_from(p, &mut memo, ctl, task)
    }

    fn misere_from(
        &self,
        p: Pos<B>,
        memo: &mut HashMap<Pos<B>, bool, foldhash::fast::FixedState>,
        ctl: &Ctl,
        task: &Task,
    ) -> Result<bool> {
        let key = self.least_image(&p, |q| q);
        if let Some(&l) = memo.get(&key) {
            return Ok(l);
        }
        ctl.check()?;
        let mut moved = false;
        if !self.over(&p) {
            for m in &self.moves {
                if !self.holds(&p, m) {
                    continue;
                }
                let q = self.apply(&p, m);
                if q == p {
                    continue;
                }
                moved = true;
                if self.misere_from(q, memo, ctl, task)? {
                    memo.insert(key, false);
                    return Ok(false);
                }
            }
        }
        // with moves that all leave the opponent winning, the mover loses
        memo.insert(key, moved);
        if memo.len().is_multiple_of(1 << 16) {
            // a stored position, and the hash table's slack as it grows
            let bytes =
                (memo.len() as u64).saturating_mul(2 * std::mem::size_of::<Pos<B>>() as u64 + 16);
            if bytes > ctl.memory() {
                return Err(over_budget(bytes, ctl.memory(), "the misère search"));
            }
            task.set(memo.len() as u64)?;
        }
        Ok(moved)
    }
}

impl<B: Bits> Key for Pos<B> {
    fn hash64(self) -> u64 {
        self.iter()
            .fold(0u64, |h, b| h.rotate_left(21) ^ b.hash64())
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

impl<B: Bits> Sums for Game<B> {
    type Pos = Pos<B>;
    type Key = Pos<B>;

    /// A position where an end condition holds has no parts (its value is 0).
    fn next_part(&self, p: &mut Pos<B>) -> Option<Pos<B>> {
        if self.present(p).is_empty() || self.over(p) {
            return None;
        }
        self.first_part(p)
    }

    fn known(&self, c: Pos<B>) -> Option<u32> {
        match self.empty {
            Some(_) => self.small_value(&c),
            None if self.ends.is_empty() => self.one_move(&c),
            None => None,
        }
    }

    fn key(&self, p: Pos<B>) -> Pos<B> {
        self.canon(&p)
    }

    fn size(&self, p: Pos<B>) -> u32 {
        self.present(&p).count()
    }

    fn options(&self, c: Pos<B>, out: &mut Vec<Pos<B>>) {
        self.options_of(&c, out);
    }
}
