//! Loopy partizan games (Siegel, "Combinatorial Game Theory", ch. VI): game graphs whose plays
//! may go on for ever, the canonical forms of stoppers, and the onside and offside of other
//! games, in CGSuite's notation (`on`, `over`, `3/2under`, `^[on]`, `a{0|a}`, `1 & 0`, `dud`).
//!
//! A [`Loopy`] is a graph with a start node. A stopper (no play alternates for ever) has a
//! canonical form ([`canonical`]): reversible options bypassed, dominated ones removed, equal
//! nodes fused. Any other game is known by its sides ([`Sided`]): the onside, where an endless
//! play is Left's win, and the offside, where it is Right's. Comparisons solve the survival game
//! on the product of two graphs by retrograde analysis; the sides of a non-stopper use the
//! side-relative comparison of Siegel's thesis (the "good states" refinement) to drop the edges
//! a side can ignore until a stopper is left.
use super::notation::MAX_NESTING;
use super::{Dyadic, Game, Store};
use crate::engine::{Ctl, Error, Result};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// A game graph and its start node: node `v`'s Left options are `left[v]`, Right's `right[v]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loopy {
    left: Vec<Vec<u32>>,
    right: Vec<Vec<u32>>,
    start: u32,
}

/// An option of a node being built: another game, or a pass back to the node itself.
pub enum Opt<'a> {
    Pass,
    Game(&'a Loopy),
}

/// Bytes a node of a graph takes, its two option lists included (an estimate for the budget).
const NODE_BYTES: u64 = 64;

fn too_big(what: &str) -> Error {
    Error::limit(format!("the {what} is too large")).hint("try a smaller game")
}

impl Loopy {
    fn len(&self) -> usize {
        self.left.len()
    }

    /// Adds a node without options; returns it.
    pub fn node(&mut self) -> u32 {
        self.left.push(vec![]);
        self.right.push(vec![]);
        (self.left.len() - 1) as u32
    }

    /// Adds the option `to` of node `from`, Left's when `left`.
    pub fn edge(&mut self, from: u32, left: bool, to: u32) {
        let opts = if left {
            &mut self.left[from as usize]
        } else {
            &mut self.right[from as usize]
        };
        if !opts.contains(&to) {
            opts.push(to);
        }
    }

    /// Copies `g` in; returns where its start went.
    pub fn graft(&mut self, g: &Loopy) -> u32 {
        let base = self.len() as u32;
        for v in 0..g.len() {
            self.left.push(g.left[v].iter().map(|w| w + base).collect());
            self.right
                .push(g.right[v].iter().map(|w| w + base).collect());
        }
        base + g.start
    }

    /// [`Loopy::graft`], the larger graph first checked against the memory budget.
    pub fn graft_checked(&mut self, g: &Loopy, ctl: &Ctl) -> Result<u32> {
        ctl.check()?;
        let n = (self.len() as u64).saturating_add(g.len() as u64);
        ctl.reserve(n.saturating_mul(NODE_BYTES), "a loopy game's graph")?;
        Ok(self.graft(g))
    }

    fn graft_short(
        &mut self,
        st: &mut Store,
        g: Game,
        memo: &mut HashMap<Game, u32>,
        ctl: &Ctl,
    ) -> Result<u32> {
        if let Some(&v) = memo.get(&g) {
            return Ok(v);
        }
        ctl.check()?;
        ctl.reserve((self.len() as u64 + 1) * NODE_BYTES, "a loopy game's graph")?;
        let v = self.node();
        memo.insert(g, v);
        for left in [true, false] {
            let opts = if left { st.left(g)? } else { st.right(g)? };
            for &o in opts.iter() {
                let w = self.graft_short(st, o, memo, ctl)?;
                self.edge(v, left, w);
            }
        }
        Ok(v)
    }

    /// The graph of a short game.
    pub fn short(st: &mut Store, g: Game, ctl: &Ctl) -> Result<Loopy> {
        let mut l = Loopy::default();
        l.start = l.graft_short(st, g, &mut HashMap::new(), ctl)?;
        Ok(l)
    }

    /// A graph from its option lists (node `v`'s Left options `left[v]`), from node `start`.
    pub fn from_edges(left: Vec<Vec<u32>>, right: Vec<Vec<u32>>, start: u32) -> Result<Loopy> {
        let n = left.len();
        if right.len() != n || start as usize >= n.max(1) || n == 0 {
            return Err(Error::invalid(
                "a game graph needs both option lists of every node",
            ));
        }
        if left
            .iter()
            .chain(&right)
            .flatten()
            .any(|&w| w as usize >= n)
        {
            return Err(Error::invalid(
                "an option of a game graph is not one of its nodes",
            ));
        }
        let mut g = Loopy { left, right, start };
        for v in 0..n {
            dedup(&mut g.left[v]);
            dedup(&mut g.right[v]);
        }
        Ok(g.pack())
    }

    /// The game `{left | right}` whose options are the given games or passes.
    pub fn from_options(left: &[Opt], right: &[Opt]) -> Loopy {
        let mut l = Loopy::default();
        let v = l.node();
        for (side, opts) in [(true, left), (false, right)] {
            for o in opts {
                let w = match o {
                    Opt::Pass => v,
                    Opt::Game(g) => l.graft(g),
                };
                l.edge(v, side, w);
            }
        }
        l
    }

    /// `on` = {pass|}, `off`, `over` = {0|pass}, `under`, `upon` = {pass|*}, `dud` = {pass|pass}.
    pub fn named(name: &str) -> Option<Loopy> {
        let mut l = Loopy::default();
        let v = l.node();
        let star = |l: &mut Loopy| {
            let s = l.node();
            let z = l.node();
            l.edge(s, true, z);
            l.edge(s, false, z);
            s
        };
        match name {
            "on" => l.edge(v, true, v),
            "off" => l.edge(v, false, v),
            "dud" => {
                l.edge(v, true, v);
                l.edge(v, false, v);
            }
            "over" | "under" => {
                let z = l.node();
                l.edge(v, name == "over", z);
                l.edge(v, name == "under", v);
            }
            "upon" => {
                let s = star(&mut l);
                l.edge(v, true, v);
                l.edge(v, false, s);
            }
            _ => return None,
        }
        Some(l)
    }

    pub fn neg(&self) -> Loopy {
        Loopy {
            left: self.right.clone(),
            right: self.left.clone(),
            start: self.start,
        }
    }

    /// The same game on the nodes reachable from the start, numbered from 0 in the order found.
    pub fn pack(&self) -> Loopy {
        self.pack_from(self.start)
    }

    fn pack_from(&self, start: u32) -> Loopy {
        let mut id = vec![u32::MAX; self.len()];
        let mut order = vec![start];
        id[start as usize] = 0;
        let mut i = 0;
        while i < order.len() {
            let v = order[i] as usize;
            for &w in self.left[v].iter().chain(&self.right[v]) {
                if id[w as usize] == u32::MAX {
                    id[w as usize] = order.len() as u32;
                    order.push(w);
                }
            }
            i += 1;
        }
        let map = |xs: &Vec<u32>| {
            let mut ys: Vec<u32> = xs.iter().map(|&w| id[w as usize]).collect();
            dedup(&mut ys);
            ys
        };
        Loopy {
            left: order.iter().map(|&v| map(&self.left[v as usize])).collect(),
            right: order
                .iter()
                .map(|&v| map(&self.right[v as usize]))
                .collect(),
            start: 0,
        }
    }

    /// The game as it is from node `v`.
    pub fn at(&self, v: u32) -> Loopy {
        self.pack_from(v)
    }

    /// Whether no play alternates for ever from any follower.
    pub fn is_stopper(&self) -> bool {
        // Kahn's algorithm on the states (node, player to move)
        let n = self.len();
        let mut indeg = vec![0u32; 2 * n];
        for v in 0..n {
            for &w in &self.left[v] {
                indeg[2 * w as usize + 1] += 1;
            }
            for &w in &self.right[v] {
                indeg[2 * w as usize] += 1;
            }
        }
        let mut stack: Vec<usize> = (0..2 * n).filter(|&s| indeg[s] == 0).collect();
        let mut removed = 0;
        while let Some(s) = stack.pop() {
            removed += 1;
            let (v, right) = (s / 2, s % 2 == 1);
            let (opts, next) = if right {
                (&self.right[v], 0)
            } else {
                (&self.left[v], 1)
            };
            for &w in opts {
                let t = 2 * w as usize + next;
                indeg[t] -= 1;
                if indeg[t] == 0 {
                    stack.push(t);
                }
            }
        }
        removed == 2 * n
    }

    /// The strongly connected component of every state (node, player to move) of alternating
    /// play, indexed `2 * node + mover` (mover 1 for Right).
    fn alternating_components(&self) -> Vec<u32> {
        let n = 2 * self.len();
        let succ = |s: usize| -> &[u32] {
            if s.is_multiple_of(2) {
                &self.left[s / 2]
            } else {
                &self.right[s / 2]
            }
        };
        // iterative Tarjan
        let mut index = vec![u32::MAX; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut comp = vec![u32::MAX; n];
        let (mut next, mut ncomp) = (0u32, 0u32);
        let mut stack = vec![];
        for root in 0..n {
            if index[root] != u32::MAX {
                continue;
            }
            let mut call: Vec<(usize, usize)> = vec![(root, 0)];
            index[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (s, ref mut i)) = call.last_mut() {
                let mover = 1 - s % 2;
                if let Some(&w) = succ(s).get(*i) {
                    *i += 1;
                    let t = 2 * w as usize + mover;
                    if index[t] == u32::MAX {
                        index[t] = next;
                        low[t] = next;
                        next += 1;
                        stack.push(t);
                        on_stack[t] = true;
                        call.push((t, 0));
                    } else if on_stack[t] {
                        low[s] = low[s].min(index[t]);
                    }
                    continue;
                }
                call.pop();
                if let Some(&(p, _)) = call.last() {
                    low[p] = low[p].min(low[s]);
                }
                if low[s] == index[s] {
                    while let Some(t) = stack.pop() {
                        on_stack[t] = false;
                        comp[t] = ncomp;
                        if t == s {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
        comp
    }

    /// Which nodes no cycle can be reached from.
    fn loopfree(&self) -> Vec<bool> {
        let n = self.len();
        let mut out: Vec<u32> = (0..n)
            .map(|v| (self.left[v].len() + self.right[v].len()) as u32)
            .collect();
        let mut preds = vec![vec![]; n];
        for v in 0..n {
            for &w in self.left[v].iter().chain(&self.right[v]) {
                preds[w as usize].push(v);
            }
        }
        let mut free = vec![false; n];
        let mut stack: Vec<usize> = (0..n).filter(|&v| out[v] == 0).collect();
        while let Some(v) = stack.pop() {
            free[v] = true;
            for &p in &preds[v] {
                out[p] -= 1;
                if out[p] == 0 {
                    stack.push(p);
                }
            }
        }
        free
    }

    /// Whether every cycle is a pass (a node's option to itself).
    fn is_plumtree(&self) -> bool {
        let mut g = self.clone();
        for v in 0..g.len() {
            g.left[v].retain(|&w| w as usize != v);
            g.right[v].retain(|&w| w as usize != v);
        }
        g.loopfree().iter().all(|&f| f)
    }
}

fn dedup(v: &mut Vec<u32>) {
    let mut seen = Vec::with_capacity(v.len());
    v.retain(|x| {
        if seen.contains(x) {
            false
        } else {
            seen.push(*x);
            true
        }
    });
}

/// The sum: a play moves in one component.
pub fn add(a: &Loopy, b: &Loopy, ctl: &Ctl) -> Result<Loopy> {
    let (a, b) = (a.pack(), b.pack());
    let pairs = (a.len() as u64)
        .checked_mul(b.len() as u64)
        .filter(|&p| p < u32::MAX as u64)
        .ok_or_else(|| too_big("sum"))?;
    ctl.reserve(pairs.saturating_mul(NODE_BYTES), "the graph of a sum")?;
    let nb = b.len();
    let mut id = vec![u32::MAX; a.len() * nb];
    let mut order = vec![(a.start, b.start)];
    id[(a.start as usize) * nb + b.start as usize] = 0;
    let mut s = Loopy::default();
    let mut i = 0;
    while i < order.len() {
        if i.is_multiple_of(4096) {
            ctl.check()?;
        }
        let (x, y) = order[i];
        s.node();
        for left in [true, false] {
            let (ox, oy) = if left {
                (&a.left[x as usize], &b.left[y as usize])
            } else {
                (&a.right[x as usize], &b.right[y as usize])
            };
            let targets = ox
                .iter()
                .map(|&x2| (x2, y))
                .chain(oy.iter().map(|&y2| (x, y2)));
            for (x2, y2) in targets {
                let k = x2 as usize * nb + y2 as usize;
                if id[k] == u32::MAX {
                    id[k] = order.len() as u32;
                    order.push((x2, y2));
                }
                s.edge(i as u32, left, id[k]);
            }
        }
        i += 1;
    }
    Ok(s)
}

/// Who wins a state, whoever moves: not yet known, Left, Right.
const UNKNOWN: u8 = 0;
const LEFT: u8 = 1;
const RIGHT: u8 = 2;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Side {
    /// both games are stoppers: an endless play is a survival for Left
    Stopper,
    On,
    Off,
}

/// The survival game on `H - G` for every pair of nodes `g` of G and `h` of H, both movers.
struct Table {
    nh: usize,
    win: Vec<u8>,
}

impl Table {
    /// g ≤ h: Left survives h - g when Right moves first.
    fn leq(&self, g: u32, h: u32) -> bool {
        self.win[(g as usize * self.nh + h as usize) * 2 + 1] != RIGHT
    }
}

/// Lists of lists in one array: `at(i)` is the i-th list.
struct Csr {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Csr {
    fn at(&self, i: usize) -> &[u32] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// Solves the survival game on `H - G` (state `(g, h, mover)`, mover 0 for Left). With a side,
/// an endless play counts for Left only where Left can keep it to the side's component (Siegel's
/// thesis: the good states are refined until none is lost).
fn solve(g: &Loopy, h: &Loopy, side: Side, ctl: &Ctl) -> Result<Table> {
    let (ng, nh) = (g.len(), h.len());
    let states = (ng as u64)
        .checked_mul(nh as u64)
        .and_then(|p| p.checked_mul(2))
        .filter(|&p| p < u32::MAX as u64 / 4)
        .ok_or_else(|| too_big("comparison"))?;
    let edges: u64 = [&g.left, &g.right, &h.left, &h.right]
        .iter()
        .map(|x| x.iter().map(|o| o.len() as u64).sum::<u64>())
        .sum();
    // per state: a winner, a counter, a mark, offsets; per move: a target and a predecessor
    let moves = edges.saturating_mul(ng.max(nh) as u64);
    ctl.reserve(
        states
            .saturating_mul(22)
            .saturating_add(moves.saturating_mul(8)),
        "a comparison of loopy games",
    )?;
    let n = states as usize;
    let idx = |a: usize, b: usize, m: usize| ((a * nh + b) * 2 + m) as u32;
    // the moves of each state, those in G's component first: Left moves in -G by G's Right
    // options, Right by G's Left options
    let mut start = Vec::with_capacity(n + 1);
    let mut split = Vec::with_capacity(n);
    let mut items = vec![];
    for s in 0..n {
        if s.is_multiple_of(4096) {
            ctl.check()?;
        }
        let (m, p) = (s % 2, s / 2);
        let (a, b) = (p / nh, p % nh);
        let (ga, hb) = if m == 0 {
            (&g.right[a], &h.left[b])
        } else {
            (&g.left[a], &h.right[b])
        };
        start.push(items.len() as u32);
        items.extend(ga.iter().map(|&a2| idx(a2 as usize, b, 1 - m)));
        split.push(items.len() as u32);
        items.extend(hb.iter().map(|&b2| idx(a, b2 as usize, 1 - m)));
    }
    start.push(items.len() as u32);
    let mv = Csr { start, items };
    let preds = {
        let mut count = vec![0u32; n + 1];
        for &t in &mv.items {
            count[t as usize + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut items = vec![0u32; mv.items.len()];
        for s in 0..n {
            for &t in mv.at(s) {
                items[fill[t as usize] as usize] = s as u32;
                fill[t as usize] += 1;
            }
        }
        Csr {
            start: count,
            items,
        }
    };
    let mut win = vec![UNKNOWN; n];
    let mut count: Vec<u32> = (0..n).map(|s| mv.at(s).len() as u32).collect();
    let mut queue = vec![];
    for s in 0..n {
        if count[s] == 0 {
            win[s] = if s % 2 == 0 { RIGHT } else { LEFT };
            queue.push(s);
        }
    }
    let mut propagate = |win: &mut Vec<u8>, queue: &mut Vec<usize>| -> Result<()> {
        let mut steps = 0u32;
        while let Some(s) = queue.pop() {
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(4096) {
                ctl.check()?;
            }
            let w = win[s];
            for &p in preds.at(s) {
                let p = p as usize;
                if win[p] != UNKNOWN {
                    continue;
                }
                let mover = if p.is_multiple_of(2) { LEFT } else { RIGHT };
                if mover == w {
                    win[p] = w;
                    queue.push(p);
                } else {
                    count[p] -= 1;
                    if count[p] == 0 {
                        win[p] = w;
                        queue.push(p);
                    }
                }
            }
        }
        Ok(())
    };
    propagate(&mut win, &mut queue)?;
    if side == Side::Stopper {
        return Ok(Table { nh, win });
    }
    let on = side == Side::On;
    let is_good = |s: usize, win: &[u8], good: &[bool]| -> bool {
        let all = mv.at(s);
        let cut = (split[s] - mv.start[s]) as usize;
        let (in_g, in_h) = all.split_at(cut);
        let live = |t: &u32| win[*t as usize] == UNKNOWN;
        if s.is_multiple_of(2) {
            // a good move for Left: to a live state, a good one where the side's component
            // does not absorb an endless play
            in_g.iter().any(|t| live(t) && (!on || good[*t as usize]))
                || in_h.iter().any(|t| live(t) && (on || good[*t as usize]))
        } else {
            let exits = if on { in_g } else { in_h };
            exits
                .iter()
                .all(|&t| win[t as usize] == LEFT || good[t as usize])
        }
    };
    loop {
        ctl.check()?;
        let mut good = vec![false; n];
        let mut stack = vec![];
        for s in 0..n {
            if win[s] == UNKNOWN && is_good(s, &win, &good) {
                good[s] = true;
                stack.push(s);
            }
        }
        let mut steps = 0u32;
        while let Some(t) = stack.pop() {
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(4096) {
                ctl.check()?;
            }
            for &p in preds.at(t) {
                let p = p as usize;
                if win[p] == UNKNOWN && !good[p] && is_good(p, &win, &good) {
                    good[p] = true;
                    stack.push(p);
                }
            }
        }
        for s in 0..n {
            if win[s] == UNKNOWN && !good[s] {
                win[s] = RIGHT;
                queue.push(s);
            }
        }
        if queue.is_empty() {
            break;
        }
        propagate(&mut win, &mut queue)?;
    }
    Ok(Table { nh, win })
}

/// G ≤ H for stoppers.
pub fn leq(g: &Loopy, h: &Loopy, ctl: &Ctl) -> Result<bool> {
    let (g, h) = (g.pack(), h.pack());
    Ok(solve(&g, &h, Side::Stopper, ctl)?.leq(0, 0))
}

/// The canonical form of a stopper: reversible options bypassed, dominated ones removed, equal
/// nodes fused, numbered in display order.
pub fn canonical(x: &Loopy, st: &mut Store, ctl: &Ctl) -> Result<Loopy> {
    let mut g = x.pack();
    for _round in 0..=g.len() {
        let t = solve(&g, &g, Side::Stopper, ctl)?;
        simplify(&mut g, &t, ctl)?;
        // fuse equal nodes; the values did not change, so the table still holds
        let n = g.len();
        let map: Vec<u32> = (0..n as u32)
            .map(|v| (0..v).find(|&u| t.leq(u, v) && t.leq(v, u)).unwrap_or(v))
            .collect();
        for v in 0..n {
            for opts in [&mut g.left[v], &mut g.right[v]] {
                for w in opts.iter_mut() {
                    *w = map[*w as usize];
                }
                dedup(opts);
            }
        }
        g.start = map[g.start as usize];
        let next = g.pack();
        let done = next == g;
        g = next;
        if done {
            break;
        }
    }
    order(&g, st, ctl)
}

/// Bypasses reversible options and removes dominated ones, as long as something changes.
fn simplify(g: &mut Loopy, t: &Table, ctl: &Ctl) -> Result<()> {
    let n = g.len();
    // bypassing may bring back an option bypassed before; the work is bounded all the same
    let mut budget = (n as u64 + 4).saturating_pow(3).min(1 << 24);
    let mut changed = true;
    while changed {
        changed = false;
        ctl.check()?;
        for v in 0..n as u32 {
            for left in [true, false] {
                let mut i = 0;
                loop {
                    let opts = if left {
                        &g.left[v as usize]
                    } else {
                        &g.right[v as usize]
                    };
                    let Some(&a) = opts.get(i) else { break };
                    // Left's a reverses through a^R ≤ v; Right's a through a^L ≥ v
                    let back = if left {
                        g.right[a as usize].iter().find(|&&r| t.leq(r, v))
                    } else {
                        g.left[a as usize].iter().find(|&&l| t.leq(v, l))
                    };
                    let Some(&r) = back else {
                        i += 1;
                        continue;
                    };
                    if budget == 0 {
                        return Ok(());
                    }
                    budget -= 1;
                    let extra = if left {
                        g.left[r as usize].clone()
                    } else {
                        g.right[r as usize].clone()
                    };
                    let opts = if left {
                        &mut g.left[v as usize]
                    } else {
                        &mut g.right[v as usize]
                    };
                    let old = opts.clone();
                    opts.remove(i);
                    opts.extend(extra.into_iter().filter(|w| !old.contains(w)));
                    changed = true;
                }
                // dominated options: Left keeps the larger, Right the smaller
                let opts = if left {
                    &mut g.left[v as usize]
                } else {
                    &mut g.right[v as usize]
                };
                let mut keep = vec![true; opts.len()];
                for i in 0..opts.len() {
                    for j in 0..opts.len() {
                        if i == j || !keep[i] || !keep[j] {
                            continue;
                        }
                        let (a, b) = (opts[i], opts[j]);
                        // drop a when b is at least as good for the mover (ties keep the first)
                        let beats = if left { t.leq(a, b) } else { t.leq(b, a) };
                        let tie = if left { t.leq(b, a) } else { t.leq(a, b) };
                        if beats && !(tie && i < j) {
                            keep[i] = false;
                            changed = true;
                        }
                    }
                }
                let mut k = 0;
                opts.retain(|_| {
                    k += 1;
                    keep[k - 1]
                });
            }
        }
    }
    Ok(())
}

/// The short game of every loopfree node (canonical forms in the store).
fn shorts(g: &Loopy, st: &mut Store) -> Result<Vec<Option<Game>>> {
    let free = g.loopfree();
    let mut out: Vec<Option<Game>> = vec![None; g.len()];
    fn go(
        v: usize,
        g: &Loopy,
        free: &[bool],
        out: &mut Vec<Option<Game>>,
        st: &mut Store,
    ) -> Result<Option<Game>> {
        if !free[v] {
            return Ok(None);
        }
        if let Some(x) = out[v] {
            return Ok(Some(x));
        }
        let mut sides = [vec![], vec![]];
        for (k, opts) in [&g.left[v], &g.right[v]].into_iter().enumerate() {
            for &w in opts {
                let o = go(w as usize, g, free, out, st)?.expect("options of loopfree nodes are");
                sides[k].push(o);
            }
        }
        let [l, r] = sides;
        let x = st.canonical(l, r)?;
        out[v] = Some(x);
        Ok(Some(x))
    }
    for v in 0..g.len() {
        go(v, g, &free, &mut out, st)?;
    }
    Ok(out)
}

/// Where an option goes in the display: short games first (numbers by value, then by birthday
/// and text), loopy ones after them by a hash that does not depend on the numbering.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Short(u8, Option<Dyadic>, u32, String),
    Loopy(u64),
}

/// Renumbers a canonical graph so that equal stoppers get equal graphs, options in display order.
fn order(g: &Loopy, st: &mut Store, ctl: &Ctl) -> Result<Loopy> {
    ctl.check()?;
    let sh = shorts(g, st)?;
    let n = g.len();
    let mut hash: Vec<u64> = (0..n)
        .map(|v| {
            let mut h = DefaultHasher::new();
            (g.left[v].len(), g.right[v].len(), sh[v]).hash(&mut h);
            h.finish()
        })
        .collect();
    for _ in 0..n.min(64) {
        ctl.check()?;
        hash = (0..n)
            .map(|v| {
                let mut h = DefaultHasher::new();
                hash[v].hash(&mut h);
                for opts in [&g.left[v], &g.right[v]] {
                    let mut hs: Vec<u64> = opts.iter().map(|&w| hash[w as usize]).collect();
                    hs.sort_unstable();
                    hs.hash(&mut h);
                }
                h.finish()
            })
            .collect();
    }
    let mut keys = vec![];
    for v in 0..n {
        keys.push(match sh[v] {
            Some(x) => {
                let num = st.as_number(x);
                Key::Short(u8::from(num.is_none()), num, st.birthday(x), st.show(x)?)
            }
            None => Key::Loopy(hash[v]),
        });
    }
    let mut h = g.clone();
    for v in 0..n {
        h.left[v].sort_by(|&a, &b| keys[a as usize].cmp(&keys[b as usize]));
        h.right[v].sort_by(|&a, &b| keys[a as usize].cmp(&keys[b as usize]));
    }
    Ok(h.pack())
}

fn outcome_of(on: (bool, bool), off: (bool, bool)) -> &'static str {
    let class = |(ge, le): (bool, bool)| match (ge, le) {
        (true, false) => "L",
        (false, false) => "N",
        (true, true) => "P",
        (false, true) => "R",
    };
    match (class(on), class(off)) {
        (a, b) if a == b => a,
        ("L", "N") => "NHat",
        ("L", "P") => "PHat",
        ("L", "R") => "D",
        ("N", "R") => "NCheck",
        ("P", "R") => "PCheck",
        // the offside is never above the onside
        _ => "?",
    }
}

/// CGSuite's name of a loopy outcome class: Left moving first, then Right moving first, each
/// LEFT, RIGHT or UNKNOWN (a draw).
fn class_of(left_first: u8, right_first: u8) -> &'static str {
    match (left_first, right_first) {
        (LEFT, LEFT) => "L",
        (RIGHT, RIGHT) => "R",
        (LEFT, RIGHT) => "N",
        (RIGHT, LEFT) => "P",
        (LEFT, _) => "NHat",
        (RIGHT, _) => "PCheck",
        (_, LEFT) => "PHat",
        (_, RIGHT) => "NCheck",
        _ => "D",
    }
}

/// The outcome class of a game played out on its graph, an endless play a draw: retrograde
/// analysis of every (node, player to move). Needs no sides, so it answers for any game.
pub fn play_outcome(x: &Loopy, ctl: &Ctl) -> Result<&'static str> {
    let g = x.pack();
    let n = (g.len() as u64)
        .checked_mul(2)
        .filter(|&s| s < u32::MAX as u64)
        .ok_or_else(|| too_big("game"))?;
    let moves: u64 = g.left.iter().chain(&g.right).map(|o| o.len() as u64).sum();
    // per state: a winner, a counter, two offsets; per move: a predecessor
    ctl.reserve(
        n.saturating_mul(13).saturating_add(moves.saturating_mul(4)),
        "the outcome of a loopy game",
    )?;
    let n = n as usize;
    // state 2v + m: node v, m = 0 when Left is to move; its moves go to 2w + (1 - m)
    let opts = |s: usize| {
        if s.is_multiple_of(2) {
            &g.left[s / 2]
        } else {
            &g.right[s / 2]
        }
    };
    let preds = {
        let mut start = vec![0u32; n + 1];
        for s in 0..n {
            for &w in opts(s) {
                start[2 * w as usize + (1 - s % 2) + 1] += 1;
            }
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; start[n] as usize];
        for s in 0..n {
            if s.is_multiple_of(4096) {
                ctl.check()?;
            }
            for &w in opts(s) {
                let t = 2 * w as usize + (1 - s % 2);
                items[fill[t] as usize] = s as u32;
                fill[t] += 1;
            }
        }
        Csr { start, items }
    };
    let mut win = vec![UNKNOWN; n];
    let mut count: Vec<u32> = (0..n).map(|s| opts(s).len() as u32).collect();
    // a player with no move loses
    let mut queue: Vec<usize> = (0..n).filter(|&s| count[s] == 0).collect();
    for &s in &queue {
        win[s] = if s.is_multiple_of(2) { RIGHT } else { LEFT };
    }
    let mut steps = 0u32;
    while let Some(s) = queue.pop() {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(4096) {
            ctl.check()?;
        }
        for &p in preds.at(s) {
            let p = p as usize;
            if win[p] != UNKNOWN {
                continue;
            }
            let mover = if p.is_multiple_of(2) { LEFT } else { RIGHT };
            // the mover wins by moving to a state won for them, loses when every move is lost
            if mover == win[s] {
                win[p] = mover;
                queue.push(p);
            } else {
                count[p] -= 1;
                if count[p] == 0 {
                    win[p] = win[s];
                    queue.push(p);
                }
            }
        }
    }
    let v = 2 * g.start as usize;
    Ok(class_of(win[v], win[v + 1]))
}

/// A game's value: its onside and offside, canonical stoppers (equal for a stopper).
#[derive(Clone, Debug)]
pub struct Sided {
    pub on: Loopy,
    pub off: Loopy,
}

impl Sided {
    /// The value of a game graph: its canonical form if it is a stopper, else its sides.
    pub fn of(x: &Loopy, st: &mut Store, ctl: &Ctl) -> Result<Sided> {
        Sided::find(x, st, ctl)?.ok_or_else(no_sides)
    }

    /// [`Sided::of`], `None` when gamut finds no stopper sides (Bach's carousel has none).
    pub fn find(x: &Loopy, st: &mut Store, ctl: &Ctl) -> Result<Option<Sided>> {
        let x = x.pack();
        if x.is_stopper() {
            let c = canonical(&x, st, ctl)?;
            return Ok(Some(Sided {
                on: c.clone(),
                off: c,
            }));
        }
        let Some(on) = find_onside(&x, st, ctl)? else {
            return Ok(None);
        };
        let Some(off) = find_onside(&x.neg(), st, ctl)? else {
            return Ok(None);
        };
        let off = order(&off.neg(), st, ctl)?;
        Ok(Some(Sided { on, off }))
    }

    pub fn is_stopper(&self) -> bool {
        self.on == self.off
    }

    /// CGSuite's `G & H`: the value with onside G and offside H, two stoppers with G ≥ H;
    /// text without a top-level `&` is one game's value.
    pub fn parse(text: &str, st: &mut Store, ctl: &Ctl) -> Result<Sided> {
        let mut depth = 0i32;
        let amp = text.char_indices().find(|&(_, c)| {
            depth += i32::from(c == '{') - i32::from(c == '}');
            c == '&' && depth == 0
        });
        let Some((i, _)) = amp else {
            return Sided::of(&parse(text, st, ctl)?, st, ctl);
        };
        let (g, h) = (text[..i].trim(), text[i + 1..].trim());
        let (on, off) = (parse(g, st, ctl)?, parse(h, st, ctl)?);
        Sided::from_sides(&on, &off, (g, h), st, ctl)
    }

    /// The error for a side of `G & H` that is not a stopper.
    pub fn not_a_side(side: &str, name: &str) -> Error {
        Error::invalid(format!("the {side} of `G & H` is a stopper; {name} is not"))
            .hint("write onside & offside, each a stopper, e.g. over & under")
    }

    /// `G & H` of two games named `names` in messages: onside G and offside H, each a
    /// stopper, G ≥ H.
    pub fn from_sides(
        on: &Loopy,
        off: &Loopy,
        names: (&str, &str),
        st: &mut Store,
        ctl: &Ctl,
    ) -> Result<Sided> {
        for (g, name, side) in [(on, names.0, "onside"), (off, names.1, "offside")] {
            if !g.is_stopper() {
                return Err(Sided::not_a_side(side, name));
            }
        }
        let (on, off) = (canonical(on, st, ctl)?, canonical(off, st, ctl)?);
        if !leq(&off, &on, ctl)? {
            return Err(Error::invalid(format!(
                "in `G & H` the onside G is at least the offside H; {} is not at least {}",
                names.0, names.1
            ))
            .hint("a game's onside is never below its offside: swap them"));
        }
        Ok(Sided { on, off })
    }

    pub fn neg(&self, st: &mut Store, ctl: &Ctl) -> Result<Sided> {
        Ok(Sided {
            on: order(&self.off.neg(), st, ctl)?,
            off: order(&self.on.neg(), st, ctl)?,
        })
    }

    /// The sum: the onside of the onsides' sum and the offside of the offsides'.
    pub fn add(&self, o: &Sided, st: &mut Store, ctl: &Ctl) -> Result<Sided> {
        let on = add(&self.on, &o.on, ctl)?;
        let off = add(&self.off, &o.off, ctl)?;
        let on = if on.is_stopper() {
            canonical(&on, st, ctl)?
        } else {
            onside(&on, st, ctl)?
        };
        let off = if off.is_stopper() {
            canonical(&off, st, ctl)?
        } else {
            order(&onside(&off.neg(), st, ctl)?.neg(), st, ctl)?
        };
        Ok(Sided { on, off })
    }

    /// CGSuite's `Degree`, the degree of loopiness of a stopper (*CGT* VI.5): G upsum -G, the
    /// onside of G - G; 0 when G is loopfree.
    pub fn degree(&self, st: &mut Store, ctl: &Ctl) -> Result<Sided> {
        if !self.is_stopper() {
            return Err(Error::invalid(
                "the degree of loopiness is defined for stoppers, and this game is not one",
            )
            .hint("ask for the degree of onside(G) or offside(G)"));
        }
        let g = &self.on;
        let d = if g.loopfree()[g.start as usize] {
            Loopy {
                left: vec![vec![]],
                right: vec![vec![]],
                start: 0,
            }
        } else {
            let sum = add(g, &g.neg(), ctl)?;
            if sum.is_stopper() {
                canonical(&sum, st, ctl)?
            } else {
                onside(&sum, st, ctl)?
            }
        };
        Ok(Sided {
            on: d.clone(),
            off: d,
        })
    }

    /// self ≤ o: side by side.
    pub fn leq(&self, o: &Sided, ctl: &Ctl) -> Result<bool> {
        Ok(leq(&self.on, &o.on, ctl)? && leq(&self.off, &o.off, ctl)?)
    }

    /// CGSuite's outcome class: L, R, N, P, D (a draw), or for sides of different classes
    /// PHat, PCheck, NHat, NCheck.
    pub fn outcome(&self, ctl: &Ctl) -> Result<&'static str> {
        let zero = Loopy {
            left: vec![vec![]],
            right: vec![vec![]],
            start: 0,
        };
        let mut sides = [(false, false); 2];
        for (k, s) in [&self.on, &self.off].into_iter().enumerate() {
            sides[k] = (leq(&zero, s, ctl)?, leq(s, &zero, ctl)?);
        }
        Ok(outcome_of(sides[0], sides[1]))
    }

    /// The short game when the value is one.
    pub fn as_short(&self, st: &mut Store) -> Result<Option<Game>> {
        if !self.is_stopper() {
            return Ok(None);
        }
        Ok(shorts(&self.on, st)?[self.on.start as usize])
    }

    /// CGSuite's text: `on`, `3/2under`, `^[on]`, `a{0||||0|||a|*||*}`, `1 & 0`, `dud`.
    pub fn show(&self, st: &mut Store, ctl: &Ctl) -> Result<String> {
        if self.is_stopper() {
            return show(&self.on, st, ctl);
        }
        let (on, off) = (show(&self.on, st, ctl)?, show(&self.off, st, ctl)?);
        Ok(if on == "on" && off == "off" {
            "dud".into()
        } else {
            format!("{on} & {off}")
        })
    }
}

/// The onside of a game that is not a stopper: drops Right's edges the onside can ignore (a
/// drop is kept when every node keeps its onside value) until the graph is a stopper.
fn onside(x: &Loopy, st: &mut Store, ctl: &Ctl) -> Result<Loopy> {
    find_onside(x, st, ctl)?.ok_or_else(no_sides)
}

fn no_sides() -> Error {
    Error::limit("gamut finds no stopper onside for this game (it may not be stopper-sided)").hint(
        "gamut finds the sides of plumtrees and other small graphs; Bach's carousel is beyond it",
    )
}

/// [`onside`], `None` when no stopper is left.
fn find_onside(x: &Loopy, st: &mut Store, ctl: &Ctl) -> Result<Option<Loopy>> {
    let mut g = x.pack();
    let mut dropped = true;
    while dropped && !g.is_stopper() {
        dropped = false;
        // only edges on alternating cycles need to go; passes first, the likeliest to
        let cycle = g.alternating_components();
        let mut cands = vec![];
        for v in 0..g.len() {
            for &w in &g.right[v] {
                if cycle[2 * v + 1] == cycle[2 * w as usize] {
                    cands.push((u8::from(w as usize != v), v, w));
                }
            }
        }
        cands.sort_unstable();
        for (_, v, w) in cands {
            let mut h = g.clone();
            h.right[v].retain(|&u| u != w);
            if same_side(&g, &h, ctl)? {
                g = h;
                dropped = true;
                if g.is_stopper() {
                    break;
                }
            }
        }
    }
    if !g.is_stopper() {
        return Ok(None);
    }
    canonical(&g, st, ctl).map(Some)
}

/// Whether every node of `g` has the same onside in `h` (the same nodes, fewer of Right's edges).
fn same_side(g: &Loopy, h: &Loopy, ctl: &Ctl) -> Result<bool> {
    let a = solve(g, h, Side::On, ctl)?;
    let b = solve(h, g, Side::On, ctl)?;
    Ok((0..g.len() as u32).all(|v| a.leq(v, v) && b.leq(v, v)))
}

/// CGSuite's text of a canonical stopper.
pub fn show(g: &Loopy, st: &mut Store, ctl: &Ctl) -> Result<String> {
    let sh = shorts(g, st)?;
    let mut p = Printer {
        st,
        ctl,
        g,
        sh,
        stack: HashMap::new(),
        names: 0,
        plain: false,
    };
    Ok(p.node(g.start, true, false)?.0)
}

/// The most nodes, and options written out, of a game graph [`show_graph`] writes in full.
const SHOWN_NODES: usize = 200;
const SHOWN_OPTIONS: usize = 2000;

/// The text of a game graph as it is, not simplified (a game whose sides gamut cannot find):
/// CGSuite's notation with labels, `a{0,{1|1,{*,{1*|1*,a}|*}}|0}`, which reads back to the same
/// game; a large graph is named by its size.
pub fn show_graph(x: &Loopy, st: &mut Store, ctl: &Ctl) -> Result<String> {
    let g = x.pack();
    let summary = || {
        format!(
            "<a loopy game of {} positions, sides not found>",
            crate::engine::control::grouped(&g.len().to_string())
        )
    };
    if g.len() > SHOWN_NODES {
        return Ok(summary());
    }
    let sh = shorts(&g, st)?;
    // the text writes a node once for every way to reach it (a label where a cycle closes)
    fn written(g: &Loopy, v: u32, sh: &[Option<Game>], on: &mut [bool], n: &mut usize) -> bool {
        *n += 1;
        if *n > SHOWN_OPTIONS {
            return false;
        }
        if sh[v as usize].is_some() || on[v as usize] {
            return true;
        }
        on[v as usize] = true;
        let all = g.left[v as usize].iter().chain(&g.right[v as usize]);
        let fits = all.filter(|&&w| w != v).all(|&w| written(g, w, sh, on, n));
        on[v as usize] = false;
        fits
    }
    if !written(&g, g.start, &sh, &mut vec![false; g.len()], &mut 0) {
        return Ok(summary());
    }
    let mut p = Printer {
        st,
        ctl,
        g: &g,
        sh,
        stack: HashMap::new(),
        names: 0,
        plain: true,
    };
    Ok(p.node(g.start, true, false)?.0)
}

struct Printer<'a> {
    st: &'a mut Store,
    ctl: &'a Ctl,
    g: &'a Loopy,
    sh: Vec<Option<Game>>,
    stack: HashMap<u32, Option<String>>,
    names: usize,
    /// the graph as it is: no shorthand that holds only for a canonical stopper (`±G`, `Tiny`,
    /// upon forms)
    plain: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Upon {
    Upon,
    Uponth,
}

fn label(n: usize) -> String {
    if n < 26 {
        ((b'a' + n as u8) as char).to_string()
    } else {
        format!("N{}", n - 25)
    }
}

/// CGSuite writes braces rather than a fifth bar.
const MAX_BARS: usize = 4;

/// `{2|1}` without its outer braces and its bars counted, when the braces may go.
fn unbrace(text: &str) -> Option<(String, usize)> {
    let inner = text.strip_prefix('{')?.strip_suffix('}')?;
    let (mut depth, mut run, mut most) = (0i32, 0, 0);
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            '|' if depth == 0 => {
                run += 1;
                most = most.max(run);
                continue;
            }
            _ => {}
        }
        run = 0;
    }
    let bars = "|".repeat(most);
    let (l, r) = inner.split_once(&bars)?;
    (most > 0 && most < MAX_BARS && !l.is_empty() && !r.is_empty())
        .then(|| (inner.to_string(), most))
}

impl Printer<'_> {
    fn short_number(&self, v: u32) -> Option<Dyadic> {
        self.sh[v as usize].and_then(|x| self.st.as_number(x))
    }

    fn number_text(&mut self, x: Dyadic) -> Result<String> {
        if x == Dyadic::ZERO {
            return Ok(String::new());
        }
        let g = self.st.number(x)?;
        self.st.show(g)
    }

    /// Returns the text and, when it has no braces of its own, its number of bars.
    fn node(&mut self, v: u32, brackets: bool, parens: bool) -> Result<(String, usize)> {
        self.ctl.check()?;
        let g = self.g;
        let (lo, ro) = (&g.left[v as usize], &g.right[v as usize]);
        if let Some(x) = self.sh[v as usize] {
            let text = self.st.show(x)?;
            if !brackets && let Some((inner, bars)) = unbrace(&text) {
                return Ok((inner, bars));
            }
            return Ok((text, 0));
        }
        // pseudonumbers: on, off, x over, x under
        let pseudo = match (lo.as_slice(), ro.as_slice()) {
            ([l], []) if *l == v => Some("on".to_string()),
            ([], [r]) if *r == v => Some("off".to_string()),
            ([l], [r]) if *r == v && self.short_number(*l).is_some() => {
                let x = self.short_number(*l).unwrap();
                Some(format!("{}over", self.number_text(x)?))
            }
            ([l], [r]) if *l == v && self.short_number(*r).is_some() => {
                let x = self.short_number(*r).unwrap();
                Some(format!("{}under", self.number_text(x)?))
            }
            _ => None,
        };
        if let Some(p) = pseudo {
            let numbered = !(p.starts_with('o') || p.starts_with('u'));
            return Ok((
                if parens && numbered {
                    format!("({p})")
                } else {
                    p
                },
                0,
            ));
        }
        if self.plain {
            return self.generic(v, brackets);
        }
        let here = g.at(v);
        if let Some(t) = self.switch(&here, lo.len())? {
            return Ok((t, 0));
        }
        if let Some(t) = self.tiny(&here, parens)? {
            return Ok((t, 0));
        }
        if let Some(t) = self.upon_text(&here)? {
            return Ok((t, 0));
        }
        self.generic(v, brackets)
    }

    /// `±G` when the game is {G | -G}.
    fn switch(&mut self, here: &Loopy, nleft: usize) -> Result<Option<String>> {
        let neg = here.neg();
        if !(leq(here, &neg, self.ctl)? && leq(&neg, here, self.ctl)?) || nleft == 0 {
            return Ok(None);
        }
        let mut parts = vec![];
        for &l in &here.left[0] {
            let sub = canonical(&here.at(l), self.st, self.ctl)?;
            let sh = shorts(&sub, self.st)?;
            let mut p = Printer {
                st: self.st,
                ctl: self.ctl,
                g: &sub,
                sh,
                stack: HashMap::new(),
                names: 0,
                plain: false,
            };
            parts.push(p.node(0, true, nleft == 1)?.0);
        }
        Ok(Some(if parts.len() == 1 {
            format!("±{}", parts[0])
        } else {
            format!("±{{{}}}", parts.join(","))
        }))
    }

    /// `xTiny(G)` = x + {0 || 0 | -G} and `xMiny(G)` for plumtrees of that shape.
    fn tiny(&mut self, here: &Loopy, parens: bool) -> Result<Option<String>> {
        if !here.is_plumtree() {
            return Ok(None);
        }
        let (lo, ro) = (&here.left[0], &here.right[0]);
        let ([l], [r]) = (lo.as_slice(), ro.as_slice()) else {
            return Ok(None);
        };
        let sub = shorts(here, self.st)?;
        let num = |w: u32, st: &Store| sub[w as usize].and_then(|x| st.as_number(x));
        let under = Loopy::named("under").unwrap();
        let (name, x, y) = if let Some(x) = num(*l, self.st)
            && let ([rl], [rr]) = (
                here.left[*r as usize].as_slice(),
                here.right[*r as usize].as_slice(),
            )
            && rl == l
        {
            ("Tiny", x, *rr)
        } else if let Some(x) = num(*r, self.st)
            && let ([ll], [lr]) = (
                here.left[*l as usize].as_slice(),
                here.right[*l as usize].as_slice(),
            )
            && lr == r
        {
            ("Miny", x, *ll)
        } else {
            return Ok(None);
        };
        // Tiny: y - x ≤ under; Miny: x - y ≤ under; the subscript is their negative
        let xg = self.st.number(x)?;
        let xl = Loopy::short(self.st, xg, self.ctl)?;
        let yl = here.at(y);
        let diff = if name == "Tiny" {
            add(&yl, &xl.neg(), self.ctl)?
        } else {
            add(&xl, &yl.neg(), self.ctl)?
        };
        if !diff.is_stopper() || !leq(&diff, &under, self.ctl)? {
            return Ok(None);
        }
        let subscript = Sided::of(&diff.neg(), self.st, self.ctl)?.show(self.st, self.ctl)?;
        let t = format!("{}{name}({subscript})", self.number_text(x)?);
        Ok(Some(if parens { format!("({t})") } else { t }))
    }

    fn upon_text(&mut self, here: &Loopy) -> Result<Option<String>> {
        let (form, neg) = match self.upon(here, true)? {
            Some(f) => (Some(f), false),
            None => (self.upon(&here.neg(), true)?, true),
        };
        let Some((kind, x, k)) = form else {
            return Ok(None);
        };
        let x = if neg { x.neg()? } else { x };
        let mut t = self.number_text(x)?;
        t.push(if neg { 'v' } else { '^' });
        t.push_str(if kind == Upon::Upon { "[on]" } else { "<on>" });
        if k >= 1 {
            t.push('*');
        }
        if k >= 2 {
            t.push_str(&k.to_string());
        }
        Ok(Some(t))
    }

    /// upon forms: x^[on] = {pass | x*} (and {pass, x | x} = x^[on]*), x^<on> = {x || x | x*, pass}
    /// shapes (CGSuite's `uponForm`): the number, the nimber.
    fn upon(&mut self, here: &Loopy, uponth: bool) -> Result<Option<(Upon, Dyadic, u32)>> {
        let sub = shorts(here, self.st)?;
        let (lo, ro) = (&here.left[0], &here.right[0]);
        if let [r] = ro.as_slice()
            && lo.len() <= 2
            && let Some(nus) = sub[*r as usize].and_then(|x| self.st.nus(x))
            && nus.ups == 0
        {
            let number_at = |w: u32, st: &Store| sub[w as usize].and_then(|x| st.as_number(x));
            let others: Vec<u32> = lo.iter().copied().filter(|&w| w != 0).collect();
            let has_pass = lo.contains(&0);
            let fits = if nus.nim == 0 {
                has_pass && others.len() == 1 && number_at(others[0], self.st) == Some(nus.number)
            } else {
                has_pass && others.is_empty()
            };
            if fits {
                return Ok(Some((Upon::Upon, nus.number, nus.nim ^ 1)));
            }
        }
        if uponth && let [r] = ro.as_slice() {
            let minus = here.at(*r).neg();
            if let Some((Upon::Upon, x, k)) = self.upon(&minus, false)? {
                let x = x.neg()?;
                let mut want = vec![];
                for m in 0..=(k ^ 1) {
                    let n = self.st.nimber(m)?;
                    let xn = self.st.number(x)?;
                    want.push(self.st.add(xn, n)?);
                }
                let mut have: Vec<Game> = lo.iter().filter_map(|&w| sub[w as usize]).collect();
                have.sort();
                want.sort();
                if have.len() == lo.len() && have == want {
                    return Ok(Some((Upon::Uponth, x, k ^ 1)));
                }
            }
        }
        Ok(None)
    }

    /// Braces, bars and `pass`, with a label on a node a cycle comes back to.
    fn generic(&mut self, v: u32, brackets: bool) -> Result<(String, usize)> {
        if let Some(name) = self.stack.get(&v) {
            let name = match name {
                Some(x) => x.clone(),
                None => {
                    let x = label(self.names);
                    self.names += 1;
                    self.stack.insert(v, Some(x.clone()));
                    x
                }
            };
            return Ok((name, 0));
        }
        self.stack.insert(v, None);
        let g = self.g;
        let (lo, ro) = (g.left[v as usize].clone(), g.right[v as usize].clone());
        let mut bars = 0;
        let mut sides = [String::new(), String::new()];
        for (k, opts) in [&lo, &ro].into_iter().enumerate() {
            let mut parts = vec![];
            for &w in opts {
                if w == v {
                    parts.push("pass".to_string());
                } else {
                    let (t, b) = self.node(w, opts.len() > 1, false)?;
                    bars = bars.max(b);
                    parts.push(t);
                }
            }
            sides[k] = parts.join(",");
        }
        let name = self.stack.remove(&v).flatten();
        bars += 1;
        let show = brackets || name.is_some() || lo.is_empty() || ro.is_empty() || bars == MAX_BARS;
        let mut t = name.unwrap_or_default();
        if show {
            t.push('{');
        }
        t.push_str(&sides[0]);
        t.push_str(&"|".repeat(bars));
        t.push_str(&sides[1]);
        if show {
            t.push('}');
        }
        Ok((t, if show { 0 } else { bars }))
    }
}

/// Reads CGSuite's notation with loops: `{pass|*}`, `a{0||||0|||a|*||*}` (a label names the
/// node its braces make, for options further in), `on`, `off`, `over`, `under`, `upon`, `dud`,
/// and short games in the store's notation.
pub fn parse(text: &str, st: &mut Store, ctl: &Ctl) -> Result<Loopy> {
    parse_nested(text, st, ctl, 0)
}

/// [`parse`] of a part `depth` deep in the text being read.
fn parse_nested(text: &str, st: &mut Store, ctl: &Ctl, depth: usize) -> Result<Loopy> {
    let s: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut p = Parser {
        s,
        g: Loopy::default(),
        labels: HashMap::new(),
        st,
        ctl,
        depth,
    };
    let n = p.s.len();
    match p.item(0, n)? {
        Item::Node(v) => {
            p.g.start = v;
            Ok(p.g.pack())
        }
        Item::Pass => Err(Error::invalid("`pass` is an option of a game, not a game")
            .hint("write it between braces: {pass | *}")),
    }
}

struct Parser<'a> {
    s: Vec<char>,
    g: Loopy,
    labels: HashMap<String, u32>,
    st: &'a mut Store,
    ctl: &'a Ctl,
    /// how deep the reading is nested (braces, `±`), bounded as the short games' reading is
    depth: usize,
}

enum Item {
    Node(u32),
    Pass,
}

fn bad(text: &str) -> Error {
    Error::invalid(format!("cannot read `{text}` as a game"))
        .hint("loopy games read like {pass | *}, a{0 | {a | 1}}, on, over, upon")
}

impl Parser<'_> {
    fn text(&self, a: usize, b: usize) -> String {
        self.s[a..b].iter().collect()
    }

    /// The matching close brace of the open brace at `a`.
    fn close(&self, a: usize, b: usize) -> Result<usize> {
        let mut depth = 0;
        for i in a..b {
            match self.s[i] {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(i);
                    }
                }
                _ => {}
            }
        }
        Err(Error::invalid("a `{` is not closed").hint("every { needs its }"))
    }

    fn item(&mut self, a: usize, b: usize) -> Result<Item> {
        if self.depth >= MAX_NESTING {
            return Err(Error::limit(format!(
                "cannot read the game: it nests more than {MAX_NESTING} deep"
            ))
            .hint("write a deep game in steps, naming the parts with `let`"));
        }
        self.depth += 1;
        let r = self.item_at(a, b);
        self.depth -= 1;
        r
    }

    fn item_at(&mut self, a: usize, b: usize) -> Result<Item> {
        self.ctl.check()?;
        if a >= b {
            return Err(Error::invalid("an option is missing in a game")
                .hint("write every option: {0 | pass}"));
        }
        let word_end = (a..b)
            .find(|&i| !(self.s[i].is_ascii_alphanumeric() || self.s[i] == '_'))
            .unwrap_or(b);
        let word = self.text(a, word_end);
        let starts_alpha = self.s[a].is_ascii_alphabetic();
        if starts_alpha && word_end < b && self.s[word_end] == '{' {
            // a labelled node
            if self.close(word_end, b)? != b - 1 {
                return Err(bad(&self.text(a, b)));
            }
            let v = self.g.node();
            let old = self.labels.insert(word.clone(), v);
            self.braces(v, word_end + 1, b - 1)?;
            match old {
                Some(o) => self.labels.insert(word, o),
                None => self.labels.remove(&word),
            };
            return Ok(Item::Node(v));
        }
        if self.s[a] == '{' {
            if self.close(a, b)? != b - 1 {
                return Err(bad(&self.text(a, b)));
            }
            let v = self.g.node();
            self.braces(v, a + 1, b - 1)?;
            return Ok(Item::Node(v));
        }
        if starts_alpha && word_end == b {
            if word == "pass" {
                return Ok(Item::Pass);
            }
            if let Some(&v) = self.labels.get(&word) {
                return Ok(Item::Node(v));
            }
            if let Some(l) = Loopy::named(&word) {
                return Ok(Item::Node(self.g.graft(&l)));
            }
        }
        let t = self.text(a, b);
        if let Some(l) = self.shorthand(&t)? {
            return Ok(Item::Node(self.g.graft(&l)));
        }
        if t.contains(['{', '}']) || t.contains("pass") {
            return Err(bad(&t));
        }
        let x = self.st.parse(&t).map_err(|e| {
            if starts_alpha && word_end == b {
                Error::invalid(format!("`{t}` is not the label of a game around it"))
                    .hint("a label names the game whose braces follow it: a{0 | {a | 1}}")
            } else {
                e
            }
        })?;
        let v = self
            .g
            .graft_short(self.st, x, &mut HashMap::new(), self.ctl)?;
        Ok(Item::Node(v))
    }

    /// CGSuite's shorthands as `show` prints them: `±G` = {G | -G}, `x over`, `x under`, and
    /// `x^[on]*k` = x + upon + *k, `x^<on>` = x + {0||0|0,pass} (`v` for their negatives).
    fn shorthand(&mut self, t: &str) -> Result<Option<Loopy>> {
        if let Some(g) = t.strip_prefix('±') {
            let g = parse_nested(g, self.st, self.ctl, self.depth + 1)?;
            let n = g.neg();
            return Ok(Some(Loopy::from_options(
                &[Opt::Game(&g)],
                &[Opt::Game(&n)],
            )));
        }
        let (x, side, nim) = if let Some(x) = t.strip_suffix("over") {
            (x, Loopy::named("over"), "")
        } else if let Some(x) = t.strip_suffix("under") {
            (x, Loopy::named("under"), "")
        } else if let Some((i, tag)) = ["[on]", "<on>"]
            .iter()
            .find_map(|&tag| Some((t.find(tag)?, tag)))
        {
            let side = if tag == "[on]" {
                Loopy::named("upon")
            } else {
                Some(parse_nested(
                    "{0||0|0,pass}",
                    self.st,
                    self.ctl,
                    self.depth,
                )?)
            };
            let (head, nim) = (&t[..i], &t[i + tag.len()..]);
            match (head.strip_suffix('^'), head.strip_suffix('v')) {
                (Some(x), _) => (x, side, nim),
                (None, Some(x)) => (x, side.map(|g| g.neg()), nim),
                _ => return Ok(None),
            }
        } else {
            return Ok(None);
        };
        let (Some(side), false) = (side, x.contains(['{', '}'])) else {
            return Ok(None);
        };
        let mut short = self.st.zero();
        for part in [x, nim] {
            if !part.is_empty() {
                let g = self.st.parse(part)?;
                short = self.st.add(short, g)?;
            }
        }
        let short = Loopy::short(self.st, short, self.ctl)?;
        Ok(Some(add(&short, &side, self.ctl)?))
    }

    /// Fills node `v` from the text between its braces.
    fn braces(&mut self, v: u32, a: usize, b: usize) -> Result<()> {
        // bar runs at depth 0
        let mut runs = vec![];
        let mut depth = 0;
        let mut i = a;
        while i < b {
            match self.s[i] {
                '{' => depth += 1,
                '}' => depth -= 1,
                '|' if depth == 0 => {
                    let j = (i..b).find(|&j| self.s[j] != '|').unwrap_or(b);
                    runs.push((i, j - i));
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        let Some(most) = runs.iter().map(|r| r.1).max() else {
            return Err(
                Error::invalid("a game needs a bar between Left's and Right's options")
                    .hint("{0 | pass}"),
            );
        };
        let mut at = runs.iter().filter(|r| r.1 == most);
        let (bar, _) = *at.next().unwrap();
        if at.next().is_some() {
            return Err(Error::invalid("the longest bar appears twice in this game")
                .hint("nest with longer bars, e.g. {a || b | c} is {a | {b | c}}"));
        }
        for (left, (x, y)) in [(true, (a, bar)), (false, (bar + most, b))] {
            if runs.iter().any(|r| r.0 >= x && r.0 < y) {
                // a side with bars of its own is one game
                let w = self.g.node();
                self.braces(w, x, y)?;
                self.g.edge(v, left, w);
                continue;
            }
            let mut depth = 0;
            let mut start = x;
            for i in x..=y {
                if i < y {
                    match self.s[i] {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {}
                        _ => continue,
                    }
                    if self.s[i] != ',' || depth != 0 {
                        continue;
                    }
                }
                if i == x && i == y {
                    break;
                }
                let w = match self.item(start, i)? {
                    Item::Node(w) => w,
                    Item::Pass => v,
                };
                self.g.edge(v, left, w);
                start = i + 1;
            }
        }
        Ok(())
    }
}
