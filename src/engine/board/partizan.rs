//! Partizan games on a board by rules: each compiled move is for Left, Right or both, and a
//! position's value is its canonical form from the generic partizan search
//! (`engine::partizan::value`), over the components and symmetry keys of the board engine.
//! The symmetries used are those that carry each player's moves onto that player's moves.
use super::solve::{Game, Pos};
use super::{BoardGame, Inner, plain};
use crate::engine::control::{map_bytes, over_budget};
use crate::engine::partizan::{self as cg, Store};
use crate::engine::placement::bits::{Bits, with_wide};
use crate::engine::{Ctl, Error, Result};

/// A move for Left.
pub const LEFT: u8 = 1;
/// A move for Right.
pub const RIGHT: u8 = 2;
/// A move for both players.
pub const BOTH: u8 = LEFT | RIGHT;

/// Components of at most this many cells are valued, not searched, by the outcome search.
const SMALL: u32 = 8;

/// Bytes a memo entry takes, with the hash map's overhead.
fn entry_bytes<B>() -> u64 {
    2 * (std::mem::size_of::<Pos<B>>() as u64 + 8)
}

/// The partizan search's view of the compiled moves.
struct Sided<'a, B> {
    game: &'a Game<B>,
    sides: &'a [u8],
    ctl: &'a Ctl,
    /// memo entries so far, for the memory budget (one per position expanded)
    entries: u64,
}

impl<B: Bits> Sided<'_, B> {
    fn options(&self, p: &Pos<B>, side: u8) -> Vec<Pos<B>> {
        let g = self.game;
        // a position where an end condition holds has no moves
        if g.over(p) {
            return vec![];
        }
        let present = g.present(p);
        g.moves
            .iter()
            .zip(self.sides)
            .filter(|(m, s)| *s & side != 0 && m.reads.andnot(present).is_empty() && g.holds(p, m))
            .map(|(m, _)| g.apply(p, m))
            .filter(|q| q != p)
            .collect()
    }
}

impl<B: Bits> cg::Rules for Sided<'_, B> {
    type Pos = Pos<B>;
    type Error = Error;
    fn left(&mut self, p: &Pos<B>) -> Result<Vec<Pos<B>>> {
        // the search asks Left's options once per position it expands; the memo takes at most
        // half the budget (the store of canonical forms keeps to the budget too)
        self.entries += 1;
        if self.entries.is_multiple_of(1024) {
            let bytes = self.entries.saturating_mul(entry_bytes::<B>());
            let have = self.ctl.memory() / 2;
            if bytes > have {
                return Err(over_budget(bytes, have, "the board game's memo"));
            }
        }
        Ok(self.options(p, LEFT))
    }
    fn right(&mut self, p: &Pos<B>) -> Result<Vec<Pos<B>>> {
        Ok(self.options(p, RIGHT))
    }
    fn components(&mut self, p: &Pos<B>) -> Vec<Pos<B>> {
        let g = self.game;
        g.components(p).iter().map(|c| g.canon(c)).collect()
    }
    fn describe(&self, _: &Pos<B>) -> String {
        "a position of the board game".into()
    }
    fn mobility(&mut self, p: &Pos<B>, left: bool) -> u32 {
        self.options(p, if left { LEFT } else { RIGHT }).len() as u32
    }
}

impl<B: Bits> Inner<B> {
    fn sided<'a>(&'a self, sides: &'a [u8], ctl: &'a Ctl, entries: usize) -> Sided<'a, B> {
        Sided {
            game: &self.game,
            sides,
            ctl,
            entries: entries as u64,
        }
    }
}

impl BoardGame {
    /// Whether some move is for one player only.
    pub fn is_partizan(&self) -> bool {
        self.sides.iter().any(|&s| s != BOTH)
    }

    /// The bytes of what is kept between queries: the table, the values of components and the
    /// nimbers of whole boards.
    pub fn kept_bytes(&self) -> u64 {
        with_wide!(&self.engine, e => {
            let table = e.table.try_lock().ok().and_then(|t| t.as_ref().map(|t| t.bytes()));
            let values = e.values.try_lock().map_or(0, |v| map_bytes(&v));
            let nimbers = e.nimbers.try_lock().map_or(0, |v| map_bytes(&v));
            table.unwrap_or(0) + values + nimbers
        })
    }

    /// Drops what is kept between queries (a running search keeps its own reference).
    pub fn forget(&self) {
        with_wide!(&self.engine, e => {
            if let Ok(mut t) = e.table.try_lock() {
                *t = None;
            }
            if let Ok(mut v) = e.values.try_lock() {
                *v = Default::default();
            }
            if let Ok(mut v) = e.nimbers.try_lock() {
                *v = Default::default();
            }
        })
    }

    /// Whether the player to move (Left when `left`) wins the sum of the boards `parts` and
    /// the game `known`, by the outcome search without canonical values
    /// (`engine::partizan::outcome`), sharing the values of components with
    /// [`value`](Self::value); `None` when the rules are not shown to end (the value decides).
    pub fn wins(
        &self,
        parts: &[Vec<u8>],
        known: cg::Game,
        left: bool,
        store: &mut Store,
        ctl: &Ctl,
    ) -> Result<Option<bool>> {
        for p in parts {
            self.check(p)?;
        }
        if !self.monotone {
            return Ok(None);
        }
        with_wide!(&self.engine, e => {
            let mut memo = e.values.lock().unwrap();
            let mut rules = e.sided(&self.sides, ctl, memo.len());
            // components of few cells are valued (as Domineering's regions of 8 cells are)
            let small = |q: &Pos<_>| e.game.present(q).count() <= SMALL;
            let roots: Vec<_> = parts.iter().map(|p| e.pos(p)).collect();
            cg::outcome::wins(&mut rules, store, &mut memo, &roots, known, left, &small, ctl)
                .map(Some)
        })
    }

    /// The options of `p` for `side` ([`LEFT`] or [`RIGHT`]) with the index of the move to each.
    pub fn side_options(&self, p: &[u8], side: u8) -> Result<Vec<(usize, Vec<u8>)>> {
        Ok(self
            .options(p)?
            .into_iter()
            .filter(|(i, _)| self.sides[*i] & side != 0)
            .collect())
    }

    /// The canonical form of `p` (a state per cell) in `store`. The values of components are
    /// kept between calls as ids of `store`, so every call must pass the same store.
    pub fn value(&self, p: &[u8], store: &mut Store, ctl: &Ctl) -> Result<cg::Game> {
        self.check(p)?;
        with_wide!(&self.engine, e => {
            let mut memo = e.values.lock().unwrap();
            if !self.monotone {
                // whole boards, Left's options first
                let g = &e.game;
                let side = |q: &Pos<_>, s: u8| g.plays(q, |i| self.sides[i] & s != 0);
                let expand = |q: &Pos<_>| {
                    let mut l = side(q, LEFT);
                    let n = l.len();
                    l.extend(side(q, RIGHT));
                    (l, n)
                };
                store.set_ctl(ctl);
                let fold = |mut l: Vec<cg::Game>, n: usize| {
                    let r = l.split_off(n);
                    store.canonical(l, r)
                };
                let label = "partizan board search (positions)";
                return plain::search(g, e.pos(p), &mut memo, expand, fold, ctl, label)
                    .map_err(|s| self.stopped(e, s));
            }
            let mut rules = e.sided(&self.sides, ctl, memo.len());
            cg::value(&mut rules, store, &mut memo, &e.pos(p), ctl)
        })
    }
}
