//! Generic impartial-game search over positions given by an options function. A position is a
//! sum of components; an option is again a list of components. Both searches iterate with an
//! explicit stack, so deep games cannot overflow the call stack.
use crate::error::{Error, Result, cancel};
use std::collections::{HashMap, HashSet};
use std::hash::Hash;

/// Positions stored before a search refuses to go on (about 2 GB of tables).
pub const MEMO_LIMIT: usize = 30_000_000;

/// Options held by the positions on the search stack at once (each holds its option list).
pub const HELD_LIMIT: usize = 20_000_000;

/// Counts the options the stack holds and refuses to hold more than `HELD_LIMIT`.
#[derive(Default)]
struct Held(usize);

impl Held {
    fn add<K>(&mut self, opts: &Options<K>) -> Result<()> {
        self.0 += opts.iter().map(|o| o.len().max(1)).sum::<usize>();
        if self.0 > HELD_LIMIT {
            return Err(Error::plain(format!(
                "the search would hold more than {HELD_LIMIT} options at once; the game is too large for this search"
            ))
            .hint("try smaller positions first"));
        }
        Ok(())
    }
    fn remove<K>(&mut self, opts: &Options<K>) {
        self.0 -= opts.iter().map(|o| o.len().max(1)).sum::<usize>();
    }
}

pub type Options<K> = Vec<Vec<K>>;

fn mex(vals: impl Iterator<Item = u32>) -> u32 {
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
pub fn grundy<K: Clone + Eq + Hash>(
    memo: &mut HashMap<K, u32>,
    root: &K,
    options: &mut dyn FnMut(&K) -> Result<Options<K>>,
    describe: &dyn Fn(&K) -> String,
) -> Result<u32> {
    if let Some(&v) = memo.get(root) {
        return Ok(v);
    }
    struct Frame<K> {
        key: K,
        opts: Options<K>,
        i: usize,
        j: usize,
    }
    let mut on_stack: HashSet<K> = HashSet::from([root.clone()]);
    let mut held = Held::default();
    let first = options(root)?;
    held.add(&first)?;
    let mut stack = vec![Frame {
        opts: first,
        key: root.clone(),
        i: 0,
        j: 0,
    }];
    let mut steps = 0u64;
    while let Some(f) = stack.last_mut() {
        steps += 1;
        if steps.is_multiple_of(4096) {
            cancel::check()?;
            if memo.len() > MEMO_LIMIT {
                return Err(Error::plain(format!(
                    "more than {MEMO_LIMIT} positions searched; the game is too large for this search"
                )));
            }
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
                return Err(Error::plain(format!(
                    "the game is loopy: {} can be reached from itself",
                    describe(&c)
                ))
                .hint("moves must lead to smaller positions so that every game ends"));
            }
            let opts = options(&c)?;
            held.add(&opts)?;
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

/// The options of multisets of components, with each component's options asked for once.
struct Sums<'a, K> {
    options: &'a mut dyn FnMut(&K) -> Result<Options<K>>,
    cache: HashMap<K, Options<K>>,
}

impl<K: Clone + Eq + Hash + Ord> Sums<'_, K> {
    /// Drop the components without moves and sort the rest.
    fn normalize(&mut self, mut v: Vec<K>) -> Result<Vec<K>> {
        for c in &v {
            if !self.cache.contains_key(c) {
                let o = (self.options)(c)?;
                self.cache.insert(c.clone(), o);
            }
        }
        v.retain(|c| !self.cache[c].is_empty());
        v.sort();
        Ok(v)
    }

    /// Every option of the sum: one component replaced by one of its options.
    fn expand(&mut self, s: &[K]) -> Result<Vec<Vec<K>>> {
        let mut out = vec![];
        for (idx, c) in s.iter().enumerate() {
            if idx > 0 && s[idx - 1] == *c {
                continue;
            }
            for o in self.cache[c].clone() {
                let mut next: Vec<K> = s[..idx].iter().chain(&s[idx + 1..]).cloned().collect();
                next.extend(o);
                out.push(self.normalize(next)?);
            }
        }
        Ok(out)
    }
}

/// Misère outcome of a sum: true when the player to move wins (N). Components without moves are
/// dropped; the state is the sorted multiset of the rest.
pub fn misere_wins<K: Clone + Eq + Hash + Ord>(
    root: Vec<K>,
    options: &mut dyn FnMut(&K) -> Result<Options<K>>,
) -> Result<bool> {
    let mut sums = Sums {
        options,
        cache: HashMap::new(),
    };
    let root = sums.normalize(root)?;
    let mut memo: HashMap<Vec<K>, bool> = HashMap::new();
    // frame: state, its options, next option to look at
    let first = sums.expand(&root)?;
    let mut held = Held::default();
    held.add(&first)?;
    let mut stack: Vec<(Vec<K>, Vec<Vec<K>>, usize)> = vec![(root.clone(), first, 0)];
    let mut on_stack: HashSet<Vec<K>> = HashSet::from([root.clone()]);
    let mut steps = 0u64;
    while let Some(top) = stack.last_mut() {
        steps += 1;
        if steps.is_multiple_of(4096) {
            cancel::check()?;
            if memo.len() > MEMO_LIMIT {
                return Err(Error::plain(format!(
                    "more than {MEMO_LIMIT} misère positions searched"
                )));
            }
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
                    return Err(Error::plain(
                        "the game is loopy: a position can be reached from itself",
                    ));
                }
                let opts = sums.expand(&child)?;
                held.add(&opts)?;
                stack.push((child, opts, 0));
            }
        }
    }
    Ok(memo[&root])
}
