//! Breadth-first search on Schreier graphs: the graph of a pattern's orbit (or of the group
//! itself, seen as the orbit of the fully coloured board) under a set of moves.
use super::perm::Perm;
use crate::engine::control::num;
use crate::engine::{Ctl, Error, Result};
use rayon::prelude::*;
use std::collections::HashMap;

/// A pattern: the colour of every point (0 = blank). Moving by p sends the content of point
/// i to point p(i).
pub type State = Box<[u8]>;

pub fn act(p: &Perm, x: &[u8]) -> State {
    let mut y = vec![0u8; x.len()].into_boxed_slice();
    for (i, &c) in x.iter().enumerate() {
        y[p.apply(i)] = c;
    }
    y
}

/// The orbit of `start` with edges: `adj[v * m + j]` is the vertex reached from v by move j.
/// Vertices are numbered in BFS order from `start`, so `dist` is non-decreasing.
pub struct SchreierGraph {
    pub states: Vec<State>,
    pub index: HashMap<State, u32>,
    pub adj: Vec<u32>,
    pub m: usize,
    pub dist: Vec<u32>,
}

impl SchreierGraph {
    pub fn explore(moves: &[Perm], start: &[u8], limit: usize, ctl: &Ctl) -> Result<SchreierGraph> {
        let m = moves.len();
        let mut g = SchreierGraph {
            states: vec![start.into()],
            index: HashMap::new(),
            adj: vec![],
            m,
            dist: vec![0],
        };
        g.index.insert(start.into(), 0);
        // each state: its bytes, a hash-table entry holding a copy, its edges and distance
        let each = 2 * (start.len() as u64 + 24) + 16 + 4 * m as u64 + 4;
        let task = ctl.task("orbit search (states)", None);
        let mut i = 0;
        while i < g.states.len() {
            if i % 4096 == 0 {
                task.set(g.states.len() as u64)?;
            }
            if i % 65_536 == 0 {
                // the search may grow to twice what it holds before the next look
                ctl.reserve(
                    (g.states.len() as u64 * 2 + 65_536) * each,
                    &format!(
                        "an orbit search holding {} states of {} points",
                        crate::engine::control::num(g.states.len() * 2),
                        start.len()
                    ),
                )?;
            }
            for mv in moves {
                let y = act(mv, &g.states[i]);
                let next = g.states.len() as u32;
                let j = *g.index.entry(y.clone()).or_insert(next);
                if j == next {
                    if g.states.len() >= limit {
                        return Err(Error::limit(format!("the orbit has more than {} elements", num(limit)))
                            .hint("this query explores the orbit in memory; choose a smaller pattern or group"));
                    }
                    g.states.push(y);
                    g.dist.push(g.dist[i] + 1);
                }
                g.adj.push(j);
            }
            i += 1;
        }
        Ok(g)
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Number of vertices at each distance from the start.
    pub fn distribution(&self) -> Vec<u64> {
        let mut d = vec![0u64; *self.dist.last().unwrap_or(&0) as usize + 1];
        for &x in &self.dist {
            d[x as usize] += 1;
        }
        d
    }

    /// Shortest path from the start to vertex v, as move indices (BFS parents recomputed).
    pub fn path_to(&self, mut v: u32) -> Vec<usize> {
        let mut path = vec![];
        while v != 0 {
            // a neighbour one step closer (moves are closed under inverses, so edges go both ways)
            let row = |x: u32| &self.adj[x as usize * self.m..(x as usize + 1) * self.m];
            let u = *row(v)
                .iter()
                .find(|&&u| self.dist[u as usize] + 1 == self.dist[v as usize])
                .expect("BFS parent");
            let k = row(u).iter().position(|&x| x == v).expect("symmetric edge");
            path.push(k);
            v = u;
        }
        path.reverse();
        path
    }

    /// Largest distance between any two vertices: bit-parallel BFS from 64 sources at a time,
    /// batches spread over the rayon pool. The result does not depend on the thread count.
    pub fn all_pairs_diameter(&self, ctl: &Ctl) -> Result<u32> {
        let n = self.len();
        let batches: Vec<usize> = (0..n.div_ceil(64)).collect();
        let threads = rayon::current_num_threads() as u64;
        ctl.reserve(
            threads * n as u64 * 8 * 3 + n as u64,
            "the all-pairs distance search",
        )?;
        let task = ctl.task(
            "all-pairs distances (batches of 64)",
            Some(batches.len() as u64),
        );
        let ecc: Result<Vec<u32>> = batches
            .par_iter()
            .map(|&b| {
                task.tick(1)?;
                let lo = b * 64;
                let hi = (lo + 64).min(n);
                let full: u64 = if hi - lo == 64 {
                    !0
                } else {
                    (1u64 << (hi - lo)) - 1
                };
                let mut seen = vec![0u64; n];
                let mut front = vec![0u64; n];
                for s in lo..hi {
                    seen[s] |= 1 << (s - lo);
                    front[s] |= 1 << (s - lo);
                }
                let mut depth = 0;
                let mut done = vec![false; n];
                loop {
                    let mut next = vec![0u64; n];
                    let mut any = false;
                    for v in 0..n {
                        if done[v] {
                            continue;
                        }
                        let mut acc = 0u64;
                        for &u in &self.adj[v * self.m..(v + 1) * self.m] {
                            acc |= front[u as usize];
                        }
                        let new = acc & !seen[v];
                        if new != 0 {
                            next[v] = new;
                            seen[v] |= new;
                            any = true;
                            if seen[v] == full {
                                done[v] = true;
                            }
                        }
                    }
                    if !any {
                        break;
                    }
                    depth += 1;
                    front = next;
                }
                Ok(depth)
            })
            .collect();
        Ok(ecc?.into_iter().max().unwrap_or(0))
    }
}
