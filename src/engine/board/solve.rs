//! The search, generic over the bitset width.
//!
//! A position is one set of cells per state; a cell in no set is absent (a cell of another
//! component). A move is live while each cell it reads can still come to be in a state it
//! needs (states only move forward, so a dead move stays dead). Cells no live move reads never
//! matter again; the others fall into components joined by the footprints of live moves, and a
//! position's value is the nim-sum of its components' values. A component is keyed by its least
//! image under the symmetries that preserve the rules, translated to the board's corner when the
//! rules are translation-invariant. The game implements [`Sums`]: nimbers and outcomes come
//! from the heap-sum win/loss search of `crate::engine::winloss`, with a table that lasts
//! between queries.
use crate::engine::placement::bits::{Bits, bounding_box};
use crate::engine::winloss::{Key, Sums};

pub const MAX_STATES: usize = 4;

/// Components of at most this many cells on a grid are keyed by translation alone.
const SYM_MIN: u32 = 12;

/// A position: per state, the cells in it.
pub type Pos<B> = [B; MAX_STATES];

/// A compiled move over bitsets.
pub(crate) struct Mv<B> {
    /// (cells, states): each cell must be in one of the states (a bit set)
    pub need: Vec<(B, u8)>,
    /// (cells, from, to), in order: those of the cells in a state of `from` take state `to`
    pub change: Vec<(B, u8, u8)>,
    /// the cells the move reads
    pub reads: B,
    /// the cells the move reads or writes
    pub foot: B,
}

pub(crate) struct Game<B> {
    pub states: usize,
    pub moves: Vec<Mv<B>>,
    /// per cell: the moves whose lowest read cell it is (the moves that may be live in a
    /// position are those of its cells)
    pub by_low: Vec<Vec<u32>>,
    /// per set of states T: the states from which a cell can still reach a state of T
    pub can: [u8; 1 << MAX_STATES],
    /// per rule-preserving symmetry other than the identity, per byte of a set: the images
    pub bytes: Vec<Vec<[B; 256]>>,
    /// translate keys to the corner of a board with this many columns
    pub stride: Option<usize>,
}

impl<B: Bits> Game<B> {
    /// Per set of states `t` (bit s for state s): the cells in a state of `t`.
    #[inline]
    pub fn sets(&self, p: &Pos<B>) -> [B; 1 << MAX_STATES] {
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

    /// Whether move `m` may be made in a position whose [`Game::sets`] are `sets`.
    #[inline]
    pub fn holds(&self, sets: &[B; 1 << MAX_STATES], m: &Mv<B>) -> bool {
        m.need
            .iter()
            .all(|&(c, t)| c.andnot(sets[t as usize]).is_empty())
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

    /// Calls `f` on each move that may be made in a position of the cells `present`, now or
    /// later, with others, until `f` says stop.
    #[inline]
    fn candidates<'a>(&'a self, present: B, mut f: impl FnMut(&'a Mv<B>) -> bool) {
        for c in present.ones() {
            for &i in &self.by_low[c] {
                let m = &self.moves[i as usize];
                if m.reads.andnot(present).is_empty() && !f(m) {
                    return;
                }
            }
        }
    }

    /// Whether a candidate move is live: each cell it needs can still come to a state it needs.
    #[inline]
    fn live(&self, sets: &[B; 1 << MAX_STATES], m: &Mv<B>) -> bool {
        m.need
            .iter()
            .all(|&(c, t)| c.andnot(sets[self.can[t as usize] as usize]).is_empty())
    }

    /// The cells of each independent component of `p`.
    fn parts(&self, p: &Pos<B>) -> Vec<B> {
        let sets = self.sets(p);
        let present = self.present(p);
        let mut relevant = B::default();
        self.candidates(present, |m| {
            if self.live(&sets, m) {
                relevant = relevant.or(m.reads);
            }
            true
        });
        let mut comps: Vec<B> = vec![];
        self.candidates(present, |m| {
            if self.live(&sets, m) {
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
            true
        });
        comps
    }

    /// The independent components of `p`, each restricted to its cells.
    pub fn components(&self, p: &Pos<B>) -> Vec<Pos<B>> {
        self.parts(p).into_iter().map(|c| restrict(p, c)).collect()
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
        p.map(|b| b.shr(minr * stride + minc))
    }

    /// The canonical key of a component: its least image under the symmetries, each moved to
    /// the corner; a small component on a grid is keyed by translation alone (its images cost
    /// more than the table entries they save).
    pub fn canon(&self, p: &Pos<B>) -> Pos<B> {
        let mut best = self.to_corner(*p);
        if self.stride.is_some() && self.present(p).count() <= SYM_MIN {
            return best;
        }
        for k in 0..self.bytes.len() {
            let mut im = *p;
            for b in im.iter_mut().take(self.states) {
                *b = self.image(*b, k);
            }
            let im = self.to_corner(im);
            if im < best {
                best = im;
            }
        }
        best
    }
}

/// `p` restricted to the cells `c`.
fn restrict<B: Bits>(p: &Pos<B>, c: B) -> Pos<B> {
    p.map(|b| b.and(c))
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

    fn next_part(&self, p: &mut Pos<B>) -> Option<Pos<B>> {
        if self.present(p).is_empty() {
            return None;
        }
        let parts = self.parts(p);
        let (&first, rest) = parts.split_first().unwrap_or((&B::default(), &[]));
        let rest = rest.iter().fold(B::default(), |a, &c| a.or(c));
        let c = restrict(p, first);
        *p = restrict(p, rest);
        (!first.is_empty()).then_some(c)
    }

    /// A component with one live move is that move played while it can be: a line of plays.
    fn known(&self, c: Pos<B>) -> Option<u32> {
        let sets = self.sets(&c);
        let (mut one, mut count) = (None, 0);
        self.candidates(self.present(&c), |m| {
            if self.live(&sets, m) {
                one = Some(m);
                count += 1;
            }
            count < 2
        });
        let m = match (one, count) {
            (None, _) => return Some(0),
            (Some(m), 1) => m,
            _ => return None,
        };
        let (mut q, mut plays) = (c, 0);
        while self.holds(&self.sets(&q), m) {
            let r = self.apply(&q, m);
            if r == q {
                break;
            }
            (q, plays) = (r, plays + 1);
        }
        Some(plays % 2)
    }

    fn key(&self, p: Pos<B>) -> Pos<B> {
        self.canon(&p)
    }

    fn size(&self, p: Pos<B>) -> u32 {
        self.present(&p).count()
    }

    fn options(&self, c: Pos<B>, out: &mut Vec<Pos<B>>) {
        let sets = self.sets(&c);
        self.candidates(self.present(&c), |m| {
            if self.holds(&sets, m) {
                let q = self.apply(&c, m);
                if q != c {
                    out.push(q);
                }
            }
            true
        });
    }
}
