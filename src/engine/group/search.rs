//! Searches over move graphs that do not need the whole graph in memory: distance layers from
//! one state, shortest words by bidirectional BFS, Hamiltonian cycles by backtracking.
use super::cayley::{SchreierGraph, State, act};
use super::perm::Perm;
use crate::engine::control::{depth_heading, depth_line, num};
use crate::engine::{Ctl, Error, Result};
use std::collections::{HashMap, HashSet};

/// Count states by distance from `start` keeping only three layers in memory (enough because
/// the moves are closed under inverses: a neighbour is one layer back, level or one ahead).
pub fn layer_counts(moves: &[Perm], start: &[u8], limit: usize, ctl: &Ctl) -> Result<Vec<u64>> {
    let mut prev: HashSet<State> = HashSet::new();
    let mut cur: HashSet<State> = HashSet::from([State::from(start)]);
    let mut counts = vec![1u64];
    let mut total = 1usize;
    let each = 2 * (start.len() as u64 + 24) + 16;
    let task = ctl.task("distance layers (states)", None);
    let t0 = std::time::Instant::now();
    ctl.line(&depth_heading(""));
    ctl.line(&depth_line(0, 1, 1, 0.0, ""));
    loop {
        let mut next: HashSet<State> = HashSet::new();
        ctl.reserve(
            (prev.len() + cur.len() * (moves.len() + 1)) as u64 * each,
            "the layer-by-layer search",
        )?;
        for (i, x) in cur.iter().enumerate() {
            if i % 4096 == 0 {
                task.set((total + next.len()) as u64)?;
            }
            for m in moves {
                let y = act(m, x);
                if !prev.contains(&y) && !cur.contains(&y) {
                    next.insert(y);
                }
            }
        }
        if next.is_empty() {
            return Ok(counts);
        }
        total += next.len();
        if total > limit {
            return Err(Error::limit(format!(
                "more than {} states; too many for the in-memory search",
                num(limit)
            )));
        }
        counts.push(next.len() as u64);
        ctl.line(&depth_line(
            counts.len() - 1,
            next.len() as u64,
            total as u64,
            t0.elapsed().as_secs_f64(),
            "",
        ));
        prev = std::mem::replace(&mut cur, next);
    }
}

/// Index of each move's inverse in `moves` (the move set must be closed under inverses).
pub fn inverse_index(moves: &[Perm]) -> Vec<usize> {
    moves
        .iter()
        .map(|m| {
            let inv = m.inverse();
            moves
                .iter()
                .position(|q| *q == inv)
                .expect("moves closed under inverses")
        })
        .collect()
}

/// A shortest sequence of move indices taking `start` to `goal`, by bidirectional BFS that
/// always grows the smaller side. None if `goal` is not reachable.
pub fn shortest_word(
    moves: &[Perm],
    start: &[u8],
    goal: &[u8],
    limit: usize,
    ctl: &Ctl,
) -> Result<Option<Vec<usize>>> {
    if start == goal {
        return Ok(Some(vec![]));
    }
    let inv = inverse_index(moves);
    // state -> (distance from its side's root, move that reached it)
    let mut sides: [HashMap<State, (u32, u32)>; 2] = [HashMap::new(), HashMap::new()];
    sides[0].insert(start.into(), (0, u32::MAX));
    sides[1].insert(goal.into(), (0, u32::MAX));
    let mut fronts: [Vec<State>; 2] = [vec![start.into()], vec![goal.into()]];
    let mut depth = [0u32; 2];
    loop {
        let s = if fronts[0].len() <= fronts[1].len() {
            0
        } else {
            1
        };
        if fronts[s].is_empty() {
            return Ok(None);
        }
        let mut next = vec![];
        let mut best: Option<(u32, State)> = None;
        for (i, x) in fronts[s].iter().enumerate() {
            if i % 4096 == 0 {
                ctl.check()?;
            }
            for (j, m) in moves.iter().enumerate() {
                let y = act(m, x);
                if sides[s].contains_key(&y) {
                    continue;
                }
                if let Some(&(d, _)) = sides[1 - s].get(&y)
                    && best.as_ref().is_none_or(|(b, _)| depth[s] + 1 + d < *b)
                {
                    best = Some((depth[s] + 1 + d, y.clone()));
                }
                sides[s].insert(y.clone(), (depth[s] + 1, j as u32));
                next.push(y);
            }
        }
        if sides[0].len() + sides[1].len() > limit {
            return Err(Error::limit(format!(
                "the search met no path within {limit} states"
            )));
        }
        depth[s] += 1;
        fronts[s] = next;
        if let Some((_, meet)) = best {
            // walk back to the start on side 0, and on to the goal on side 1
            let trace = |side: &HashMap<State, (u32, u32)>, mut x: State| {
                let mut w = vec![];
                while let Some(&(d, j)) = side.get(&x) {
                    if d == 0 {
                        break;
                    }
                    w.push(j as usize);
                    x = act(&moves[inv[j as usize]], &x);
                }
                w
            };
            let mut word = trace(&sides[0], meet.clone());
            word.reverse();
            word.extend(trace(&sides[1], meet).into_iter().map(|j| inv[j]));
            return Ok(Some(word));
        }
    }
}

/// A Hamiltonian cycle through vertex 0 of the graph, as move indices, by depth-first
/// backtracking that tries the neighbour with the fewest free neighbours first (Warnsdorff).
/// A backtracking search that goes wrong near the start rarely recovers, so the budget of
/// `budget` steps is spent in attempts: the first takes half, then restarts with growing
/// budgets break Warnsdorff's ties in another (fixed pseudo-random) order each.
pub fn hamiltonian_cycle(g: &SchreierGraph, budget: u64, ctl: &Ctl) -> Result<Option<Vec<usize>>> {
    if g.len() == 1 {
        return Ok(Some(vec![]));
    }
    let task = ctl.task("Hamiltonian search (steps of the budget)", Some(budget));
    let mut spent = 0u64;
    let mut slice = budget / 2;
    for attempt in 0u64.. {
        let steps = slice.min(budget - spent);
        if steps == 0 {
            break;
        }
        if let Some(w) = hamiltonian_attempt(g, attempt, steps, spent, &task)? {
            return Ok(Some(w));
        }
        spent += steps;
        slice = if attempt == 0 { 10_000 } else { slice * 2 };
    }
    Ok(None)
}

/// One attempt of [`hamiltonian_cycle`] with `budget` steps (`spent` before it, for progress).
fn hamiltonian_attempt(
    g: &SchreierGraph,
    attempt: u64,
    budget: u64,
    spent: u64,
    task: &crate::engine::control::Task<'_>,
) -> Result<Option<Vec<usize>>> {
    let n = g.len();
    let m = g.m;
    let nb = |v: usize, j: usize| g.adj[v * m + j] as usize;
    // the tie-break of attempt k > 0: a splitmix64 hash of (k, vertex, move)
    let tie = |v: usize, j: usize| {
        if attempt == 0 {
            return 0;
        }
        let mut z =
            (attempt << 40 ^ (v as u64) << 8 ^ j as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ z >> 30).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ z >> 27).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ z >> 31
    };
    let mut on_path = vec![false; n];
    on_path[0] = true;
    // stack of (vertex, ordered candidate moves, next candidate)
    let mut stack: Vec<(usize, Vec<usize>, usize)> = vec![];
    // The moves from the new end v (on the path), fewest exits first. An unvisited neighbour
    // with no exit left but v (the start counts: the cycle closes there) is a dead end; one
    // with a single exit left must be entered from v now, so two such neighbours are a dead
    // end too (exits are counted per move, so a double edge can only weaken the cut).
    let order = |v: usize, on_path: &[bool]| {
        let exits = |c: usize| {
            (0..m)
                .filter(|&k| {
                    let x = nb(c, k);
                    x == 0 || !on_path[x]
                })
                .count()
        };
        let mut c: Vec<(usize, usize)> = vec![];
        for j in 0..m {
            let w = nb(v, j);
            if !on_path[w] && c.iter().all(|&(k, _)| nb(v, k) != w) {
                c.push((j, exits(w)));
            }
        }
        if c.iter().any(|&(_, e)| e == 0) {
            return vec![];
        }
        let forced: Vec<usize> = c
            .iter()
            .filter(|&&(_, e)| e == 1)
            .map(|&(j, _)| j)
            .collect();
        if !forced.is_empty() {
            return if forced.len() == 1 { forced } else { vec![] };
        }
        c.sort_by_key(|&(j, e)| (e, tie(v, j)));
        c.into_iter().map(|(j, _)| j).collect()
    };
    stack.push((0, order(0, &on_path), 0));
    let mut path: Vec<usize> = vec![];
    let mut steps = 0u64;
    while let Some(top) = stack.last_mut() {
        steps += 1;
        if steps.is_multiple_of(65536) {
            task.set(spent + steps)?;
        }
        if steps > budget {
            return Ok(None);
        }
        let v = top.0;
        if path.len() == n - 1
            && let Some(j) = (0..m).find(|&j| nb(v, j) == 0)
        {
            path.push(j);
            return Ok(Some(path));
        }
        if top.2 >= top.1.len() {
            stack.pop();
            on_path[v] = v == 0;
            path.pop();
            continue;
        }
        let j = top.1[top.2];
        top.2 += 1;
        let w = nb(v, j);
        if on_path[w] {
            continue;
        }
        on_path[w] = true;
        path.push(j);
        let c = order(w, &on_path);
        stack.push((w, c, 0));
    }
    Ok(None)
}
