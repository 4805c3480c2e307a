//! Generic search for the canonical value of a partizan ruleset. A position splits into
//! independent components (their values add); each component's value is found with an explicit
//! stack (no deep recursion) and memoized.
//!
//! ```
//! use gamut::engine::{Ctl, Error, partizan::{Store, Rules, value}};
//! use std::collections::HashMap;
//!
//! /// Left takes 1 from a heap, Right takes 2.
//! struct Take;
//! impl Rules for Take {
//!     type Pos = u32;
//!     type Error = Error;
//!     fn left(&mut self, &n: &u32) -> Result<Vec<u32>, Error> {
//!         Ok((n >= 1).then(|| n - 1).into_iter().collect())
//!     }
//!     fn right(&mut self, &n: &u32) -> Result<Vec<u32>, Error> {
//!         Ok((n >= 2).then(|| n - 2).into_iter().collect())
//!     }
//!     fn describe(&self, n: &u32) -> String { format!("heap {n}") }
//! }
//! let mut s = Store::default();
//! let g = value(&mut Take, &mut s, &mut HashMap::new(), &2, &Ctl::default()).unwrap();
//! assert_eq!(s.show(g).unwrap(), "{1|0}");
//! ```
use super::store::{Game, Store};
use crate::engine::impartial::{MAX_LINE, MEMO_LIMIT};
use crate::engine::{Ctl, Error, Result};
use std::collections::{HashMap, HashSet};
use std::hash::Hash;

/// A partizan ruleset as the search sees it.
pub trait Rules {
    /// A position (or one component of one); also the key of the memo.
    type Pos: Clone + Eq + Hash;
    /// Errors of the rules (a scripted ruleset reports its own).
    type Error: From<Error>;
    fn left(&mut self, p: &Self::Pos) -> std::result::Result<Vec<Self::Pos>, Self::Error>;
    fn right(&mut self, p: &Self::Pos) -> std::result::Result<Vec<Self::Pos>, Self::Error>;
    /// The independent components whose sum the position is, each in a normal form (a
    /// symmetry key); components without moves may be left out. By default the position itself.
    fn components(&mut self, p: &Self::Pos) -> Vec<Self::Pos> {
        vec![p.clone()]
    }
    /// How a position is written in messages.
    fn describe(&self, p: &Self::Pos) -> String;
    /// `-p`, the position with the players' roles swapped, where the ruleset has one of the
    /// same kind (`gamut split` then searches a Right option `-X` as Left's option `X`). By
    /// default `None`.
    fn negative(&mut self, _p: &Self::Pos) -> Option<Self::Pos> {
        None
    }
    /// How many moves Left (when `left`) or Right has in the component `p`: the outcome search
    /// tries first the moves that leave the opponent fewest. By default 0 (no order).
    fn mobility(&mut self, _p: &Self::Pos, _left: bool) -> u32 {
        0
    }
    /// The value of a component found without the generic search (a formula or a faster
    /// special search), or `None` to search it. By default `None`.
    fn shortcut(
        &mut self,
        _p: &Self::Pos,
        _store: &mut Store,
        _ctl: &Ctl,
    ) -> std::result::Result<Option<Game>, Self::Error> {
        Ok(None)
    }
}

/// The canonical value of `root`; every component met is memoized in `memo`.
/// Bytes a search added: `new` memo entries (key, value and the table's share) and the
/// store's growth from `store0`.
pub(super) fn grown<P>(new: usize, store: u64, store0: u64) -> u64 {
    let entry = (std::mem::size_of::<P>() + std::mem::size_of::<Game>() + 16) as u64;
    (new as u64)
        .saturating_mul(entry)
        .saturating_add(store.saturating_sub(store0))
}

pub fn value<R: Rules, S: std::hash::BuildHasher>(
    rules: &mut R,
    store: &mut Store,
    memo: &mut HashMap<R::Pos, Game, S>,
    root: &R::Pos,
    ctl: &Ctl,
) -> std::result::Result<Game, R::Error> {
    store.set_ctl(ctl);
    /// Left's options then Right's, each a sum of components; (i, j) the next component to
    /// look at.
    struct Frame<K> {
        key: K,
        opts: Vec<Vec<K>>,
        lefts: usize,
        i: usize,
        j: usize,
    }
    let expand = |rules: &mut R, key: R::Pos| -> std::result::Result<Frame<R::Pos>, R::Error> {
        let l = rules.left(&key)?;
        let r = rules.right(&key)?;
        Ok(Frame {
            opts: l.iter().chain(&r).map(|o| rules.components(o)).collect(),
            lefts: l.len(),
            key,
            i: 0,
            j: 0,
        })
    };
    let parts = rules.components(root);
    let mut total = store.zero();
    let mut steps = 0u64;
    // the option lists of the positions on the stack, in components (a few words each, and
    // their own heap): a long line of wide positions outgrows memory before the memo does
    let budget = ctl.memory();
    let per_item = 2 * std::mem::size_of::<R::Pos>() as u64 + 112;
    let items = |f: &Frame<R::Pos>| f.opts.iter().map(|o| o.len() as u64).sum::<u64>();
    let mut held = 0u64;
    // the memo and the store grow with the search: charged with the stack
    let (memo0, store0) = (memo.len(), store.bytes());
    for part in parts {
        if !memo.contains_key(&part)
            && let Some(g) = rules.shortcut(&part, store, ctl)?
        {
            memo.insert(part.clone(), g);
        }
        if !memo.contains_key(&part) {
            // begun only here, so that a shortcut's own progress shows when it values the part
            let task = ctl.task("partizan search (positions)", None);
            let mut on_stack: HashSet<R::Pos> = HashSet::from([part.clone()]);
            let mut stack = vec![expand(rules, part.clone())?];
            held += items(&stack[0]);
            while let Some(f) = stack.last_mut() {
                steps += 1;
                if steps.is_multiple_of(1024) {
                    task.set(memo.len() as u64)?;
                    let used = grown::<R::Pos>(memo.len() - memo0, store.bytes(), store0)
                        .saturating_add(held.saturating_mul(per_item));
                    if used > budget {
                        return Err(crate::engine::control::over_budget(
                            used,
                            budget,
                            "the values of the positions searched",
                        )
                        .into());
                    }
                    if memo.len() > MEMO_LIMIT {
                        return Err(Error::limit(format!(
                            "more than {} positions searched; the game is too large for this search",
                            crate::engine::control::num(MEMO_LIMIT)
                        ))
                        .into());
                    }
                }
                // the next component of an option whose value is not known yet
                let mut unknown = None;
                'scan: while f.i < f.opts.len() {
                    while f.j < f.opts[f.i].len() {
                        if !memo.contains_key(&f.opts[f.i][f.j]) {
                            unknown = Some(f.opts[f.i][f.j].clone());
                            break 'scan;
                        }
                        f.j += 1;
                    }
                    f.i += 1;
                    f.j = 0;
                }
                if let Some(c) = unknown {
                    if let Some(g) = rules.shortcut(&c, store, ctl)? {
                        memo.insert(c, g);
                        continue;
                    }
                    if !on_stack.insert(c.clone()) {
                        return Err(Error::invalid(format!(
                            "the game is loopy: {} can be reached from itself",
                            rules.describe(&c)
                        ))
                        .hint("a play must not come back to a position; declare the ruleset `loopy game` if it may")
                        .into());
                    }
                    if stack.len() >= MAX_LINE {
                        return Err(Error::limit(format!(
                            "the search followed {} moves in a row without reaching the end of the game",
                            crate::engine::control::num(MAX_LINE)
                        ))
                        .hint("does a move rule make positions bigger for ever (like `move n + 1`)? every play of a game must end")
                        .into());
                    }
                    let child = expand(rules, c)?;
                    held += items(&child);
                    if held.saturating_mul(per_item) > budget {
                        return Err(crate::engine::control::over_budget(
                            held.saturating_mul(per_item),
                            budget,
                            "the options of the positions being searched",
                        )
                        .into());
                    }
                    stack.push(child);
                    continue;
                }
                let f = stack.pop().unwrap();
                held -= items(&f);
                let sum = |store: &mut Store, o: &Vec<R::Pos>| store.sum(o.iter().map(|c| memo[c]));
                let mut vals = f
                    .opts
                    .iter()
                    .map(|o| sum(store, o))
                    .collect::<Result<Vec<_>>>()?;
                let r = vals.split_off(f.lefts);
                let l = vals;
                let g = store.canonical(l, r)?;
                on_stack.remove(&f.key);
                memo.insert(f.key, g);
            }
        }
        total = store.add(total, memo[&part])?;
    }
    Ok(total)
}
