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
use crate::engine::placement::bits::Bits;
use crate::engine::winloss::{Key, Sums};

pub const MAX_STATES: usize = 4;

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
    /// The cells in any state of the set `t`.
    #[inline]
    fn in_set(&self, p: &Pos<B>, t: u8) -> B {
        let mut out = B::default();
        for (s, &b) in p.iter().enumerate().take(self.states) {
            if t >> s & 1 == 1 {
                out = out.or(b);
            }
        }
        out
    }

    #[inline]
    pub fn present(&self, p: &Pos<B>) -> B {
        self.in_set(p, u8::MAX)
    }

    /// Whether every cell of each `need` set is in one of its states (`can`: can still come
    /// to be) and each `some` condition has such a cell.
    #[inline]
    fn meets(&self, p: &Pos<B>, need: &[(B, u8)], some: &[Vec<(B, u8)>], can: bool) -> bool {
        let states = |t: u8| if can { self.can[t as usize] } else { t };
        need.iter()
            .all(|&(c, t)| c.andnot(self.in_set(p, states(t))).is_empty())
            && some.iter().all(|any| {
                any.iter()
                    .any(|&(c, t)| !c.and(self.in_set(p, states(t))).is_empty())
            })
    }

    /// Whether move `m` may be made in `p`.
    #[inline]
    pub fn holds(&self, p: &Pos<B>, m: &Mv<B>) -> bool {
        self.meets(p, &m.need, &m.some, false)
    }

    /// Whether an end condition holds in `p`.
    pub fn over(&self, p: &Pos<B>) -> bool {
        self.ends
            .iter()
            .any(|e| self.meets(p, &e.need, &e.some, false))
    }

    /// The position after move `m`.
    #[inline]
    pub fn apply(&self, p: &Pos<B>, m: &Mv<B>) -> Pos<B> {
        let mut q = *p;
        for &(c, from, to) in &m.change {
            let moved = c.and(self.in_set(&q, from));
            for b in q.iter_mut().take(self.states) {
                *b = b.andnot(moved);
            }
            q[to as usize] = q[to as usize].or(moved);
        }
        q
    }

    /// The independent components of `p`, each restricted to its cells.
    pub fn components(&self, p: &Pos<B>) -> Vec<Pos<B>> {
        let present = self.present(p);
        let live: Vec<&Mv<B>> = self
            .moves
            .iter()
            .filter(|m| m.reads.andnot(present).is_empty() && self.meets(p, &m.need, &m.some, true))
            .collect();
        if live.is_empty() {
            return vec![];
        }
        let relevant = live.iter().fold(B::default(), |a, m| a.or(m.reads));
        let ends = self
            .ends
            .iter()
            .filter(|e| self.meets(p, &e.need, &e.some, true));
        let ends = ends.fold(B::default(), |a, e| a.or(e.cells));
        let mut comps: Vec<B> = vec![];
        if !ends.is_empty() {
            comps.push(relevant.or(ends).and(present));
        }
        for m in live {
            let mut u = m.foot.and(relevant);
            comps.retain(|&c| {
                if c.and(u).is_empty() {
                    true
                } else {
                    u = u.or(c);
                    false
                }
            });
            comps.push(u);
        }
        comps
            .into_iter()
            .map(|c| {
                let mut q = *p;
                for b in q.iter_mut() {
                    *b = b.and(c);
                }
                q
            })
            .collect()
    }

    /// The options of a component, as positions.
    fn options_of(&self, c: &Pos<B>) -> impl Iterator<Item = Pos<B>> + '_ {
        let present = self.present(c);
        let c = *c;
        self.moves.iter().filter_map(move |m| {
            if !m.reads.andnot(present).is_empty() || !self.holds(&c, m) {
                return None;
            }
            let q = self.apply(&c, m);
            (q != c).then_some(q)
        })
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
        let minr = all.lowest() / stride;
        let minc = all.ones().map(|i| i % stride).min().unwrap_or(0);
        let k = minr * stride + minc;
        let mut q = p;
        for b in q.iter_mut() {
            *b = b.shr(k);
        }
        q
    }

    /// The canonical key of a component.
    pub fn canon(&self, p: &Pos<B>) -> Pos<B> {
        let mut best = self.to_corner(*p);
        for k in 0..self.bytes.len() {
            let mut im = *p;
            for b in im.iter_mut().take(self.states) {
                *b = self.image(*b, k);
            }
            if let Some((a, b)) = self.swap {
                let (t, x, y) = (self.turned[k], im[a as usize], im[b as usize]);
                im[a as usize] = x.andnot(t).or(y.and(t));
                im[b as usize] = y.andnot(t).or(x.and(t));
            }
            let im = self.to_corner(im);
            if im < best {
                best = im;
            }
        }
        best
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
        let mut parts = self.components(p).into_iter();
        let first = parts.next();
        let rest = parts.fold(B::default(), |a, c| a.or(self.present(&c)));
        *p = p.map(|b| b.and(rest));
        first
    }

    fn known(&self, _: Pos<B>) -> Option<u32> {
        None
    }

    fn key(&self, p: Pos<B>) -> Pos<B> {
        self.canon(&p)
    }

    fn size(&self, p: Pos<B>) -> u32 {
        self.present(&p).count()
    }

    fn options(&self, c: Pos<B>, out: &mut Vec<Pos<B>>) {
        out.extend(self.options_of(&c));
    }
}
