//! Outcome-only search for partizan rulesets: who wins a position, with Left or with Right
//! moving first, without its canonical value (the idea of MCGS, Folkersen, Müller and Du).
//!
//! A position is kept as a sum: the components still to search ("hard"), each in the normal
//! form [`Rules::components`] gives, and one canonical value, the sum of every component whose
//! value is known or cheap (a caller's `small` test; valued by [`value`](super::value) with its
//! memo). Components of value 0 vanish there, and once no hard component is left the answer is
//! a comparison of that value with 0. A move is one in a hard component (its parts sorted in
//! again) or one in the value (to one of its canonical options). A boolean negamax decides each
//! state, with a transposition table bounded by the memory budget. The table keys a state by
//! its 128-bit hash (XXH3) alone, a few bytes an entry where the components themselves took a
//! hundred or more: two states of a search share a key with odds far below one in 10^18.
//!
//! ```
//! use gamut::engine::{Ctl, partizan::{Outcome, Store, games::{Clobber, Stones}, outcome}};
//! use std::collections::HashMap;
//! let board = Stones::parse("xoxoxo|oxoxox").unwrap();
//! let mut s = Store::default();
//! let small = outcome::clobber_small(5);
//! let o = outcome::outcome(&mut Clobber, &mut s, &mut HashMap::new(), &board, &small, &Ctl::default());
//! assert_eq!(o.unwrap(), Outcome::P);
//! ```
use super::games::{Board, Stones};
use super::search::{Rules, grown, value};
use super::store::{Game, Map, Outcome, Store};
use crate::engine::control::{Task, num, over_budget};
use crate::engine::{Ctl, Error};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use xxhash_rust::xxh3;

/// Moves in a row the search follows (a call each, on the thread's stack) before it says the
/// game may never end.
const MAX_DEPTH: usize = 250_000;

/// Whether a component is valued (and summed into the known part) instead of searched.
pub type Small<'a, P> = dyn Fn(&P) -> bool + 'a;

/// Clobber groups of at most `stones` stones are valued.
pub fn clobber_small(stones: u32) -> impl Fn(&Stones) -> bool {
    move |s| (s.black | s.white).count_ones() <= stones
}

/// Domineering regions of at most `cells` empty cells are valued.
pub fn domineering_small(cells: u32) -> impl Fn(&Board) -> bool {
    move |b| b.bits.count_ones() <= cells
}

/// The outcome class of `root`: both searches, Left first and Right first.
pub fn outcome<R: Rules, S: BuildHasher>(
    rules: &mut R,
    store: &mut Store,
    memo: &mut HashMap<R::Pos, Game, S>,
    root: &R::Pos,
    small: &Small<R::Pos>,
    ctl: &Ctl,
) -> Result<Outcome, R::Error> {
    let known = store.zero();
    outcome_of_sum(
        rules,
        store,
        memo,
        std::slice::from_ref(root),
        known,
        small,
        ctl,
    )
}

/// The outcome class of the sum of `parts` and the game `known` (the value of components of
/// other rulesets): both searches, Left first and Right first.
pub fn outcome_of_sum<R: Rules, S: BuildHasher>(
    rules: &mut R,
    store: &mut Store,
    memo: &mut HashMap<R::Pos, Game, S>,
    parts: &[R::Pos],
    known: Game,
    small: &Small<R::Pos>,
    ctl: &Ctl,
) -> Result<Outcome, R::Error> {
    let mut s = Search::new(rules, store, memo, small, ctl);
    let start = s.start(parts, known)?;
    let left = s.wins(&start, true, 0)?;
    let right = s.wins(&start, false, 0)?;
    Ok(Outcome::of(left, right))
}

/// Whether the player to move (Left when `left`) wins the sum of `parts` and the game `known`.
#[allow(clippy::too_many_arguments)]
pub fn wins<R: Rules, S: BuildHasher>(
    rules: &mut R,
    store: &mut Store,
    memo: &mut HashMap<R::Pos, Game, S>,
    parts: &[R::Pos],
    known: Game,
    left: bool,
    small: &Small<R::Pos>,
    ctl: &Ctl,
) -> Result<bool, R::Error> {
    let mut s = Search::new(rules, store, memo, small, ctl);
    let start = s.start(parts, known)?;
    s.wins(&start, left, 0)
}

/// A sum: the hard components in a fixed order (by hash, so that equal sums are equal keys),
/// the value of the rest, and the state's key in the table (see [`Search::key`]).
#[derive(Clone)]
struct State<P> {
    hard: Vec<P>,
    easy: Game,
    key: Key,
}

/// A state's 128-bit hash, as two words (an entry of 24 bytes, where `u128` aligns to 32).
type Key = (u64, u64);

/// A [`Hasher`] that only gathers the bytes it is fed, for a one-shot hash of all of them.
struct Gather<'a>(&'a mut Vec<u8>);

impl Hasher for Gather<'_> {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
    fn finish(&self) -> u64 {
        xxh3::xxh3_64(self.0)
    }
}

/// A table entry's bits for the player to move (Left when `left`): known, and wins if `win`.
fn side_bits(left: bool, win: bool) -> u8 {
    (1 | (win as u8) << 1) << if left { 0 } else { 2 }
}

/// Bytes of a table entry: key, bits and control byte, with the table's free slots (it is
/// between 7/16 and 7/8 full).
const ENTRY: u64 = 48;

struct Search<'a, R: Rules, S> {
    rules: &'a mut R,
    store: &'a mut Store,
    memo: &'a mut HashMap<R::Pos, Game, S>,
    small: &'a Small<'a, R::Pos>,
    ctl: &'a Ctl,
    task: Task<'a>,
    /// Whether the player to move wins, by state: for each side (Left to move, Right to
    /// move) a bit saying it is known and one saying it wins.
    table: Map<Key, u8>,
    table_bytes: u64,
    /// The memo's size and the store's bytes at the start: their growth is charged.
    memo0: usize,
    store0: u64,
    hasher: foldhash::fast::FixedState,
    /// the bytes of the state being keyed
    bytes: Vec<u8>,
    nodes: u64,
}

impl<'a, R: Rules, S: BuildHasher> Search<'a, R, S> {
    fn new(
        rules: &'a mut R,
        store: &'a mut Store,
        memo: &'a mut HashMap<R::Pos, Game, S>,
        small: &'a Small<'a, R::Pos>,
        ctl: &'a Ctl,
    ) -> Self {
        store.set_ctl(ctl);
        let (memo0, store0) = (memo.len(), store.bytes());
        Search {
            rules,
            store,
            memo,
            small,
            ctl,
            task: ctl.task("partizan outcome search (positions)", None),
            table: Map::default(),
            table_bytes: 0,
            memo0,
            store0,
            hasher: foldhash::fast::FixedState::default(),
            bytes: vec![],
            nodes: 0,
        }
    }

    fn start(&mut self, roots: &[R::Pos], known: Game) -> Result<State<R::Pos>, R::Error> {
        let mut st = State {
            hard: vec![],
            easy: known,
            key: (0, 0),
        };
        let parts = roots
            .iter()
            .flat_map(|r| self.rules.components(r))
            .collect();
        self.sort_in(&mut st, parts)?;
        Ok(st)
    }

    /// Adds `parts` to `st`: known or small ones to its value, the others to its hard list.
    fn sort_in(&mut self, st: &mut State<R::Pos>, parts: Vec<R::Pos>) -> Result<(), R::Error> {
        for p in parts {
            let g = match self.memo.get(&p) {
                Some(&g) => Some(g),
                None if (self.small)(&p) => {
                    let g = value(self.rules, self.store, self.memo, &p, self.ctl)?;
                    // `value` points the store at its own ctl; the same one
                    Some(g)
                }
                None => None,
            };
            match g {
                Some(g) => st.easy = self.store.add(st.easy, g)?,
                None => st.hard.push(p),
            }
        }
        let h = &self.hasher;
        // a few parts: sorting in place costs less than caching the keys
        st.hard.sort_by_key(|p| h.hash_one(p));
        st.key = self.key(&st.hard, st.easy);
        Ok(())
    }

    /// The table's key of the sum of `hard` and `easy`: the XXH3 128-bit hash of their bytes.
    fn key(&mut self, hard: &[R::Pos], easy: Game) -> Key {
        self.bytes.clear();
        let mut g = Gather(&mut self.bytes);
        hard.hash(&mut g);
        easy.hash(&mut g);
        let k = xxh3::xxh3_128(&self.bytes);
        (k as u64, (k >> 64) as u64)
    }

    /// Counts a node: progress, cancellation, and memory. The values of components must fit
    /// the budget; the table is a cache, kept within half of what they leave (emptied when
    /// full, the search goes on).
    fn visit(&mut self) -> Result<(), Error> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) {
            self.task.set(self.nodes)?;
            let budget = self.ctl.memory();
            let values = grown::<R::Pos>(
                self.memo.len() - self.memo0,
                self.store.bytes(),
                self.store0,
            );
            if values > budget {
                let what = "the values of the components the outcome search met";
                return Err(over_budget(values, budget, what));
            }
            if self.table_bytes > (budget - values) / 2 {
                self.table = Map::default();
                self.table_bytes = 0;
            }
        }
        Ok(())
    }

    /// Whether the player to move (Left when `left`) wins `st`, if the table knows.
    fn known(&self, st: &State<R::Pos>, left: bool) -> Option<bool> {
        let b = *self.table.get(&st.key)? >> if left { 0 } else { 2 };
        (b & 1 == 1).then_some(b & 2 == 2)
    }

    /// The states the player to move (Left when `left`) can move to, each once: moves in hard
    /// components first, those that leave the opponent fewest moves there first.
    fn children(&mut self, st: &State<R::Pos>, left: bool) -> Result<Vec<State<R::Pos>>, R::Error> {
        let mut out: Vec<(u32, State<R::Pos>)> = vec![];
        for i in 0..st.hard.len() {
            if i > 0 && st.hard[i] == st.hard[i - 1] {
                continue; // the same moves as in the equal component before
            }
            let opts = if left {
                self.rules.left(&st.hard[i])?
            } else {
                self.rules.right(&st.hard[i])?
            };
            for o in opts {
                let mut child = State {
                    hard: st.hard.clone(),
                    easy: st.easy,
                    key: st.key,
                };
                child.hard.remove(i);
                let parts = self.rules.components(&o);
                self.sort_in(&mut child, parts)?;
                if !out.iter().any(|(_, c)| c.key == child.key) {
                    let replies = child.hard.iter().map(|p| self.rules.mobility(p, !left));
                    out.push((replies.sum(), child));
                }
            }
        }
        out.sort_by_key(|&(replies, _)| replies);
        let mut out: Vec<State<R::Pos>> = out.into_iter().map(|(_, c)| c).collect();
        let opts = if left {
            self.store.left(st.easy)?
        } else {
            self.store.right(st.easy)?
        };
        for &g in opts.iter() {
            let key = self.key(&st.hard, g);
            out.push(State {
                hard: st.hard.clone(),
                easy: g,
                key,
            });
        }
        Ok(out)
    }

    fn wins(&mut self, st: &State<R::Pos>, left: bool, depth: usize) -> Result<bool, R::Error> {
        if st.hard.is_empty() {
            // the known value alone: Left moving first wins unless it is ≤ 0
            let z = self.store.zero();
            let lose = if left {
                self.store.leq(st.easy, z)?
            } else {
                self.store.leq(z, st.easy)?
            };
            return Ok(!lose);
        }
        if let Some(w) = self.known(st, left) {
            return Ok(w);
        }
        self.visit()?;
        if depth >= MAX_DEPTH {
            return Err(Error::limit(format!(
                "the outcome search followed {} moves in a row without reaching the end of the game",
                num(MAX_DEPTH)
            ))
            .hint("does a move rule make positions bigger for ever? every play of a game must end")
            .into());
        }
        let children = self.children(st, left)?;
        // a child already known lost for the opponent answers at once
        let known = children.iter().any(|c| self.known(c, !left) == Some(false));
        let mut win = known;
        if !win {
            for c in &children {
                let w = stacker::maybe_grow(64 * 1024, 4 << 20, || self.wins(c, !left, depth + 1))?;
                if !w {
                    win = true;
                    break;
                }
            }
        }
        let bits = side_bits(left, win);
        match self.table.get_mut(&st.key) {
            Some(b) => *b |= bits,
            None => {
                self.table_bytes += ENTRY;
                self.table.insert(st.key, bits);
            }
        }
        Ok(win)
    }
}
