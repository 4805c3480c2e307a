//! Generic impartial-game search over any ruleset that implements [`Game`]. A position is a sum
//! of components; an option is again a list of components. Both searches iterate with an
//! explicit stack, so deep games cannot overflow the call stack.
//!
//! ```
//! use gamut::engine::{Ctl, Error, impartial::{self, Game}};
//! use std::collections::HashMap;
//!
//! /// Take 1 or 2 from a heap, or split a heap into two nonempty heaps.
//! struct TakeOrSplit;
//! impl Game for TakeOrSplit {
//!     type Pos = u64;
//!     type Error = Error;
//!     fn options(&mut self, &n: &u64) -> Result<Vec<Vec<u64>>, Error> {
//!         let takes = (1..=2.min(n)).map(|k| vec![n - k]);
//!         let splits = (1..n).filter(|a| 2 * a <= n).map(|a| vec![a, n - a]);
//!         Ok(takes.chain(splits).collect())
//!     }
//!     fn describe(&self, n: &u64) -> String {
//!         format!("heap {n}")
//!     }
//! }
//! let mut memo = HashMap::new();
//! let g = impartial::grundy(&mut TakeOrSplit, &mut memo, &4, &Ctl::default()).unwrap();
//! assert_eq!(g, 3);
//! ```
use crate::engine::control::over_budget;
use crate::engine::{Ctl, Error, Result};
use std::collections::{HashMap, HashSet};
use std::hash::Hash;

/// Positions stored before a search refuses to go on (about 2 GB of tables).
pub const MEMO_LIMIT: usize = 30_000_000;

/// Options held by the positions on the search stack at once (each holds its option list).
pub const HELD_LIMIT: usize = 20_000_000;

/// The options the stack holds (each frame keeps its option list) and the memory the search
/// holds in all, checked against the budget whenever the lists grow: a position can have
/// millions of options, so checking every few thousand steps would be too late.
struct Held {
    n: usize,
    each: u64,
    budget: u64,
}

impl Held {
    /// `each`: about how many bytes a stored component takes. The overhead per entry covers
    /// the hash tables at their lowest load and while they grow (old and new table at once).
    fn new(ctl: &Ctl, each: usize) -> Held {
        Held {
            n: 0,
            each: each as u64 + 128,
            budget: ctl.memory(),
        }
    }
    /// Refuses when the held options and `stored` components pass a limit.
    fn check(&self, stored: usize) -> Result<()> {
        if self.n > HELD_LIMIT {
            return Err(Error::limit(format!(
                "the search would hold more than {} options at once; the game is too large for this search",
                crate::engine::control::num(HELD_LIMIT)
            ))
            .hint("try smaller positions first"));
        }
        let bytes = ((self.n + stored) as u64).saturating_mul(self.each);
        if bytes > self.budget {
            return Err(over_budget(bytes, self.budget, "the game search"));
        }
        Ok(())
    }
    fn add<K>(&mut self, opts: &Options<K>, stored: usize) -> Result<()> {
        self.n += opts.iter().map(|o| o.len().max(1)).sum::<usize>();
        self.check(stored)
    }
    fn remove<K>(&mut self, opts: &Options<K>) {
        self.n -= opts.iter().map(|o| o.len().max(1)).sum::<usize>();
    }
}

pub type Options<K> = Vec<Vec<K>>;

/// A ruleset as the generic searches see it. `Pos` is one component and also the key of the
/// transposition table; an option is a sum of components (an empty list: nothing left).
pub trait Game {
    type Pos: Clone + Eq + Hash + Ord;
    /// Errors of `options` (a scripted ruleset reports its own, with source positions).
    type Error: From<Error>;
    fn options(&mut self, p: &Self::Pos) -> std::result::Result<Options<Self::Pos>, Self::Error>;
    /// How a component is written in messages.
    fn describe(&self, p: &Self::Pos) -> String;
    /// About how many bytes a stored component takes (for the memory estimate).
    fn pos_bytes(&self, _p: &Self::Pos) -> usize {
        std::mem::size_of::<Self::Pos>()
    }
}

/// Moves in a row a search (with its own stack, not the thread's) follows before it says the
/// game may never end: a rule such as `move n + 1` never comes back to a position, so only a
/// bound tells such a game from a long finite one.
pub const MAX_LINE: usize = 2_000_000;

/// The error for a line of play that goes on and on.
fn too_deep(at: &str) -> Error {
    Error::limit(format!(
        "the search followed {} moves in a row without reaching the end of the game (now at {at})",
        crate::engine::control::num(MAX_LINE)
    ))
    .hint("does a move rule make positions bigger for ever (like `move n + 1`)? every play of a game must end")
}

/// The least value not among `vals`.
pub(crate) fn mex(vals: impl Iterator<Item = u32>) -> u32 {
    let mut seen: Vec<bool> = vec![];
    for v in vals {
        if v as usize >= seen.len() {
            seen.resize(v as usize + 1, false);
        }
        seen[v as usize] = true;
    }
    seen.iter().position(|b| !b).unwrap_or(seen.len()) as u32
}

/// Grundy value of one component; every component met is memoized in `memo`.
pub fn grundy<G: Game, S: std::hash::BuildHasher>(
    game: &mut G,
    memo: &mut HashMap<G::Pos, u32, S>,
    root: &G::Pos,
    ctl: &Ctl,
) -> std::result::Result<u32, G::Error> {
    if let Some(&v) = memo.get(root) {
        return Ok(v);
    }
    struct Frame<K> {
        key: K,
        opts: Options<K>,
        i: usize,
        j: usize,
    }
    let mut on_stack: HashSet<G::Pos> = HashSet::from([root.clone()]);
    let mut held = Held::new(ctl, game.pos_bytes(root));
    let first = game.options(root)?;
    held.add(&first, 1)?;
    let mut stack = vec![Frame {
        opts: first,
        key: root.clone(),
        i: 0,
        j: 0,
    }];
    let mut steps = 0u64;
    let task = ctl.task("game search (positions)", None);
    while let Some(f) = stack.last_mut() {
        steps += 1;
        if steps.is_multiple_of(4096) {
            task.set(memo.len() as u64)?;
            if memo.len() > MEMO_LIMIT {
                return Err(Error::limit(format!(
                    "more than {} positions searched; the game is too large for this search",
                    crate::engine::control::num(MEMO_LIMIT)
                ))
                .into());
            }
            held.check(memo.len() + on_stack.len())?;
        }
        let mut unknown = None;
        'scan: while f.i < f.opts.len() {
            while f.j < f.opts[f.i].len() {
                let c = &f.opts[f.i][f.j];
                if !memo.contains_key(c) {
                    unknown = Some(c.clone());
                    break 'scan;
                }
                f.j += 1;
            }
            f.i += 1;
            f.j = 0;
        }
        if let Some(c) = unknown {
            if !on_stack.insert(c.clone()) {
                return Err(Error::invalid(format!(
                    "the game is loopy: {} can be reached from itself",
                    game.describe(&c)
                ))
                .hint("a play must not come back to a position; declare the ruleset `loopy game` if it may, to get generalized Sprague-Grundy values")
                .into());
            }
            if stack.len() >= MAX_LINE {
                return Err(too_deep(&game.describe(&c)).into());
            }
            let opts = game.options(&c)?;
            held.add(&opts, memo.len() + on_stack.len())?;
            stack.push(Frame {
                key: c,
                opts,
                i: 0,
                j: 0,
            });
            continue;
        }
        let f = stack.pop().unwrap();
        held.remove(&f.opts);
        let v = mex(f
            .opts
            .iter()
            .map(|o| o.iter().fold(0, |acc, c| acc ^ memo[c])));
        on_stack.remove(&f.key);
        memo.insert(f.key, v);
    }
    Ok(memo[root])
}

type FastMap<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

/// Sums of components as sorted lists of ids: each distinct component is stored once, and its
/// options are asked for once. Small keys keep the misère search's tables cheap to hash,
/// compare and hold.
struct Sums<'a, G: Game> {
    game: &'a mut G,
    ids: FastMap<G::Pos, u32>,
    /// per id: whether the component has a move
    live: Vec<bool>,
    /// per id: its options as the game gave them, until they are first needed as ids
    raw: Vec<Options<G::Pos>>,
    /// per id: its options as sorted ids of the components with moves
    opts: Vec<Option<Options<u32>>>,
}

impl<G: Game> Sums<'_, G> {
    fn id(&mut self, c: &G::Pos) -> std::result::Result<u32, G::Error> {
        if let Some(&i) = self.ids.get(c) {
            return Ok(i);
        }
        let raw = self.game.options(c)?;
        let i = u32::try_from(self.live.len()).map_err(|_| Error::limit("too many components"))?;
        self.live.push(!raw.is_empty());
        self.raw.push(raw);
        self.opts.push(None);
        self.ids.insert(c.clone(), i);
        Ok(i)
    }

    /// Drop the components without moves and sort the rest.
    fn normalize(&mut self, v: Vec<G::Pos>) -> std::result::Result<Vec<u32>, G::Error> {
        let mut out = Vec::with_capacity(v.len());
        for c in &v {
            let i = self.id(c)?;
            if self.live[i as usize] {
                out.push(i);
            }
        }
        out.sort_unstable();
        Ok(out)
    }

    /// Every option of the sum: one component replaced by one of its options.
    fn expand(&mut self, s: &[u32]) -> std::result::Result<Options<u32>, G::Error> {
        let mut out = vec![];
        for (idx, &c) in s.iter().enumerate() {
            if idx > 0 && s[idx - 1] == c {
                continue;
            }
            let c = c as usize;
            if self.opts[c].is_none() {
                let raw = std::mem::take(&mut self.raw[c]);
                let mut conv = Vec::with_capacity(raw.len());
                for o in raw {
                    conv.push(self.normalize(o)?);
                }
                self.opts[c] = Some(conv);
            }
            for o in self.opts[c].iter().flatten() {
                let mut next: Vec<u32> = s[..idx].iter().chain(&s[idx + 1..]).copied().collect();
                next.extend(o);
                next.sort_unstable();
                out.push(next);
            }
        }
        Ok(out)
    }
}

/// Misère outcome of a sum: true when the player to move wins (N). Components without moves are
/// dropped; the state is the sorted multiset of the rest.
pub fn misere_wins<G: Game>(
    game: &mut G,
    root: Vec<G::Pos>,
    ctl: &Ctl,
) -> std::result::Result<bool, G::Error> {
    // a stored sum: its ids, and about one component of its own with its options
    let each = root.first().map_or(8, |c| game.pos_bytes(c)) + 4 * root.len() + 24;
    let mut sums = Sums {
        game,
        ids: FastMap::default(),
        live: vec![],
        raw: vec![],
        opts: vec![],
    };
    let root = sums.normalize(root)?;
    let mut memo: FastMap<Vec<u32>, bool> = FastMap::default();
    let first = sums.expand(&root)?;
    let mut held = Held::new(ctl, each);
    held.add(&first, 1)?;
    // frame: a sum, its options, and the next option to look at
    type Frame = (Vec<u32>, Options<u32>, usize);
    let mut stack: Vec<Frame> = vec![(root.clone(), first, 0)];
    let mut on_stack: HashSet<Vec<u32>, foldhash::fast::FixedState> = HashSet::default();
    on_stack.insert(root.clone());
    let mut steps = 0u64;
    let task = ctl.task("misère search (positions)", None);
    while let Some(top) = stack.last_mut() {
        steps += 1;
        if steps.is_multiple_of(256) {
            task.set(memo.len() as u64)?;
            if memo.len() > MEMO_LIMIT {
                return Err(Error::limit(format!(
                    "more than {} misère positions searched",
                    crate::engine::control::num(MEMO_LIMIT)
                ))
                .into());
            }
            held.check(memo.len() + on_stack.len())?;
        }
        // no moves at all: under misère play the player to move has won
        let mut decided = top.0.is_empty().then_some(true);
        while decided.is_none() && top.2 < top.1.len() {
            match memo.get(&top.1[top.2]) {
                Some(false) => decided = Some(true),
                Some(true) => top.2 += 1,
                None => break,
            }
        }
        if decided.is_none() && top.2 == top.1.len() {
            decided = Some(false);
        }
        match decided {
            Some(w) => {
                let (s, opts, _) = stack.pop().unwrap();
                held.remove(&opts);
                on_stack.remove(&s);
                memo.insert(s, w);
            }
            None => {
                let child = top.1[top.2].clone();
                if !on_stack.insert(child.clone()) {
                    return Err(Error::invalid(
                        "the game is loopy: a position can be reached from itself",
                    )
                    .into());
                }
                if stack.len() >= MAX_LINE {
                    return Err(too_deep(&format!("a sum of {} components", child.len())).into());
                }
                let opts = sums.expand(&child)?;
                held.add(&opts, memo.len() + on_stack.len())?;
                stack.push((child, opts, 0));
            }
        }
    }
    Ok(memo[&root])
}
