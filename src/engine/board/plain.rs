//! The plain search, for rules the compile-time check cannot show to end (Konane: a jump
//! brings a cell back to empty, and play ends only because each jump takes a stone).
//!
//! The fast search of `solve` splits a position into parts and drops the cells no live move
//! reads, which is sound only when play surely ends; here a position is always the whole board,
//! keyed by its least image under the symmetries that preserve the rules (a symmetry carries
//! lines of play onto lines of play, so that stays sound). The search is a depth-first walk
//! with an explicit stack: a position met again on the current line of play is a cycle, and the
//! search stops with that line ([`Stop::Loop`]) instead of going round it forever. The line
//! is told by positions, not keys: a position whose image is on the line is searched again (it
//! surely leads round a cycle too, met within as many rounds as the symmetry's order), so that
//! the cycle reported comes back to the very position it left.
use super::solve::{Game, Pos};
use crate::engine::control::over_budget;
use crate::engine::placement::bits::Bits;
use crate::engine::{Ctl, Error};
use std::collections::HashMap;
use std::hash::BuildHasher;

/// Why the search stopped without a value.
pub(crate) enum Stop<B> {
    Error(Error),
    /// a line of play from a position back to it (the last position is the first)
    Loop(Vec<Pos<B>>),
}

impl<B> From<Error> for Stop<B> {
    fn from(e: Error) -> Self {
        Stop::Error(e)
    }
}

/// A position being searched: its options (Left's first in a partizan game, `lefts` of them)
/// and the values of those searched so far.
struct Frame<B, V> {
    pos: Pos<B>,
    key: Pos<B>,
    opts: Vec<Pos<B>>,
    lefts: usize,
    vals: Vec<V>,
}

/// The value of `root` by a memoised search over whole boards: `expand` gives a position's
/// options and how many of them come first (Left's), `fold` a position's value from its
/// options' values in that order. `memo` is keyed by [`Game::canon`] and may be kept between
/// searches. Memory (the memo, the line of play and its options) is charged to the budget of
/// `ctl` at every step, and cancellation polled.
pub(crate) fn search<B: Bits, V: Clone, S: BuildHasher>(
    g: &Game<B>,
    root: Pos<B>,
    memo: &mut HashMap<Pos<B>, V, S>,
    mut expand: impl FnMut(&Pos<B>) -> (Vec<Pos<B>>, usize),
    mut fold: impl FnMut(Vec<V>, usize) -> Result<V, Error>,
    ctl: &Ctl,
    label: &str,
) -> Result<V, Stop<B>> {
    let key = g.canon(&root);
    if let Some(v) = memo.get(&key) {
        return Ok(v.clone());
    }
    let task = ctl.task(label, None);
    let pos = std::mem::size_of::<Pos<B>>() as u64;
    // a memo entry with the hash map's slack as it grows; a frame with its place on the line
    let entry = 2 * (pos + std::mem::size_of::<V>() as u64) + 16;
    let frame = std::mem::size_of::<Frame<B, V>>() as u64 + 2 * pos + 16;
    let mut on_line: HashMap<Pos<B>, usize> = HashMap::new();
    let mut held = 0u64;
    let mut stack = vec![];
    let mut open = |stack: &mut Vec<Frame<B, V>>, on_line: &mut HashMap<_, _>, p: Pos<B>, key| {
        let (opts, lefts) = expand(&p);
        let n = opts.len() as u64;
        on_line.insert(p, stack.len());
        stack.push(Frame {
            pos: p,
            key,
            vals: Vec::with_capacity(opts.len()),
            opts,
            lefts,
        });
        n
    };
    held += open(&mut stack, &mut on_line, root, key);
    let mut steps = 0u64;
    loop {
        steps += 1;
        let bytes = (memo.len() as u64)
            .saturating_mul(entry)
            .saturating_add((stack.len() as u64).saturating_mul(frame))
            // each option held, with room for its value
            .saturating_add(held.saturating_mul(pos + std::mem::size_of::<V>() as u64));
        if bytes > ctl.memory() {
            return Err(over_budget(bytes, ctl.memory(), "the board game's search").into());
        }
        if steps.is_multiple_of(1024) {
            task.set(memo.len() as u64)?;
        }
        let f = stack.last_mut().expect("the root is searched last");
        if f.vals.len() < f.opts.len() {
            let q = f.opts[f.vals.len()];
            let k = g.canon(&q);
            if let Some(v) = memo.get(&k) {
                f.vals.push(v.clone());
                continue;
            }
            if let Some(&i) = on_line.get(&q) {
                let mut line: Vec<Pos<B>> = stack[i..].iter().map(|f| f.pos).collect();
                line.push(q);
                return Err(Stop::Loop(line));
            }
            held += open(&mut stack, &mut on_line, q, k);
            continue;
        }
        let f = stack.pop().expect("not empty");
        held -= f.opts.len() as u64;
        let v = fold(f.vals, f.lefts)?;
        on_line.remove(&f.pos);
        memo.insert(f.key, v.clone());
        match stack.last_mut() {
            Some(up) => up.vals.push(v),
            None => return Ok(v),
        }
    }
}

impl<B: Bits> Game<B> {
    /// The options of `p` by the moves `pick` takes (by index), in the order written; none
    /// where an end condition holds.
    pub(crate) fn plays(&self, p: &Pos<B>, pick: impl Fn(usize) -> bool) -> Vec<Pos<B>> {
        if self.over(p) {
            return vec![];
        }
        self.moves
            .iter()
            .enumerate()
            .filter(|&(i, m)| pick(i) && self.holds(p, m))
            .map(|(_, m)| self.apply(p, m))
            .filter(|q| q != p)
            .collect()
    }
}

/// The nimber of options' nimbers.
pub(crate) fn mex(vals: &[u32]) -> u32 {
    let mut seen = vals.to_vec();
    seen.sort_unstable();
    seen.dedup();
    seen.iter()
        .enumerate()
        .find(|&(i, &v)| i as u32 != v)
        .map_or(seen.len() as u32, |(i, _)| i as u32)
}
