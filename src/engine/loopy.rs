//! Generalized Sprague–Grundy values of loopy impartial games (C. A. B. Smith, "Graphs and
//! composite games", JCT 1 (1966); A. S. Fraenkel and Y. Yesha, "The generalized
//! Sprague–Grundy function and its invariance under certain mappings", JCTA 43 (1986)), over
//! the finite graph of the positions reachable from a start.
//!
//! A position's value is a finite nimber m, or ∞(K) with K the finite values among its
//! options. Positions of value 0 are P, those of finite value above 0 or ∞ with 0 in K are N,
//! and the others (∞ without 0 in K) are draws. In a sum, finite values nim-add, ∞(K) plus a
//! finite b is ∞(K ⊕ b), and two infinite parts make a draw (∞ of an empty K).
//!
//! The labelling goes round by round, m = 0, 1, 2, ...: an unlabelled position whose options
//! are each labelled finite, or have an option labelled m, and none of which is labelled m, is
//! labelled m (repeated until none is left); then every unlabelled position with no option
//! labelled m is ∞. Each round is linear in the edges, kept by counters.
use crate::engine::control::{Ctl, Result};

/// A generalized Sprague–Grundy value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Finite(u64),
    /// ∞(K): the finite values among the options, increasing
    Infinite(Vec<u64>),
}

/// Who wins with best play: the player to move (N), the other (P), or nobody (D, a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    N,
    P,
    D,
}

impl Value {
    pub fn outcome(&self) -> Outcome {
        match self {
            Value::Finite(0) => Outcome::P,
            Value::Finite(_) => Outcome::N,
            Value::Infinite(k) if k.contains(&0) => Outcome::N,
            Value::Infinite(_) => Outcome::D,
        }
    }

    /// The value of a sum from its parts' values.
    pub fn sum(&self, other: &Value) -> Value {
        match (self, other) {
            (Value::Finite(a), Value::Finite(b)) => Value::Finite(a ^ b),
            (Value::Infinite(k), Value::Finite(b)) | (Value::Finite(b), Value::Infinite(k)) => {
                let mut k: Vec<u64> = k.iter().map(|x| x ^ b).collect();
                k.sort_unstable();
                Value::Infinite(k)
            }
            _ => Value::Infinite(vec![]),
        }
    }
}

impl std::fmt::Display for Value {
    /// `3`, `∞`, `∞(0,2)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Finite(m) => write!(f, "{m}"),
            Value::Infinite(k) if k.is_empty() => write!(f, "∞"),
            Value::Infinite(k) => {
                let k: Vec<String> = k.iter().map(u64::to_string).collect();
                write!(f, "∞({})", k.join(","))
            }
        }
    }
}

const UNLABELLED: u64 = u64::MAX;
const INFINITE: u64 = u64::MAX - 1;

/// The value of every position of a finite game graph: `options[u]` are the positions one
/// move from u (numbered from 0). Memory: about 60 bytes per position and 16 per move, charged
/// to the budget first.
pub fn values(options: &[Vec<u32>], ctl: &Ctl) -> Result<Vec<Value>> {
    let mut g = Graph::default();
    g.add(options, ctl)?;
    Ok((0..options.len() as u32).map(|u| g.value(u)).collect())
}

/// A game graph labelled as it grows, kept between queries. Positions come in batches whose
/// options are positions of the batch or of earlier ones, so the labelled positions are closed
/// under options; a position's value depends only on what it reaches, so earlier labels are
/// final and `add` labels only the batch. Kept: 16 bytes per position and 4 per move.
#[derive(Default)]
pub struct Graph {
    /// the options of u are moves[end[u - 1]..end[u]]
    end: Vec<usize>,
    moves: Vec<u32>,
    /// a finite value, or INFINITE
    label: Vec<u64>,
}

impl Graph {
    pub fn len(&self) -> usize {
        self.label.len()
    }

    pub fn is_empty(&self) -> bool {
        self.label.is_empty()
    }

    /// The bytes the graph holds.
    pub fn bytes(&self) -> u64 {
        (self.end.capacity() as u64 + self.label.capacity() as u64) * 8
            + self.moves.capacity() as u64 * 4
    }

    fn options(&self, u: usize) -> &[u32] {
        let from = if u == 0 { 0 } else { self.end[u - 1] };
        &self.moves[from..self.end[u]]
    }

    /// The finite values among the options of u.
    fn finite_options(&self, u: usize) -> Vec<u64> {
        let mut k: Vec<u64> = self
            .options(u)
            .iter()
            .map(|&v| self.label[v as usize])
            .filter(|&x| x < INFINITE)
            .collect();
        k.sort_unstable();
        k.dedup();
        k
    }

    /// The value of a position added before.
    pub fn value(&self, u: u32) -> Value {
        match self.label[u as usize] {
            INFINITE => Value::Infinite(self.finite_options(u as usize)),
            x => Value::Finite(x),
        }
    }

    /// Adds the positions `len()..` with their options `options[i]` (positions added before or
    /// in this batch) and labels them. On an error (budget, cancellation) the graph is as it was.
    ///
    /// Round m labels the batch as the whole graph's round m would, an earlier position v
    /// standing as it stands at the end of that round: labelled if its value is below m, a
    /// hit on its predecessors if it is m, covered (an option labelled m) if it is finite above
    /// m (its options take every value below its own) or ∞ with m among its options' values,
    /// and neither labelled nor covered otherwise.
    pub fn add(&mut self, options: &[Vec<u32>], ctl: &Ctl) -> Result<()> {
        let n0 = self.len();
        let n = options.len();
        let edges: usize = options.iter().map(Vec::len).sum();
        // ∞ positions of earlier batches that the batch moves to, counted by their moves
        let old_moves: usize = options
            .iter()
            .flatten()
            .filter(|&&v| (v as usize) < n0 && self.label[v as usize] == INFINITE)
            .map(|&v| self.options(v as usize).len())
            .sum();
        ctl.reserve(
            (n as u64).saturating_mul(60)
                + (edges as u64).saturating_mul(16)
                + (old_moves as u64).saturating_mul(16),
            "the generalized Sprague-Grundy labelling",
        )?;
        // the finite values among the options of those ∞ positions
        let mut finite: std::collections::HashMap<u32, Vec<u64>> = Default::default();
        for &v in options.iter().flatten() {
            if (v as usize) < n0 && self.label[v as usize] == INFINITE {
                finite
                    .entry(v)
                    .or_insert_with(|| self.finite_options(v as usize));
            }
        }
        // predecessors within the batch, as one array cut by offsets
        let mut start = vec![0usize; n + 1];
        for &v in options.iter().flatten() {
            if v as usize >= n0 {
                start[v as usize - n0 + 1] += 1;
            }
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut pred = vec![0u32; start[n]];
        for (u, opts) in options.iter().enumerate() {
            for &v in opts {
                if v as usize >= n0 {
                    let v = v as usize - n0;
                    pred[fill[v]] = u as u32;
                    fill[v] += 1;
                }
            }
        }
        let preds = |v: usize| &pred[start[v]..start[v + 1]];

        let old = &self.label;
        let mut label = vec![UNLABELLED; n];
        // hit: the position has an option labelled m this round; need: its options neither
        // labelled finite nor hit
        let mut hit = vec![false; n];
        let mut need = vec![0u32; n];
        let mut left = n;
        let task = ctl.task("loopy labelling (rounds)", None);
        let mut m = 0u64;
        while left > 0 {
            task.set(m)?;
            for (u, opts) in options.iter().enumerate() {
                hit[u] = opts
                    .iter()
                    .any(|&v| (v as usize) < n0 && old[v as usize] == m);
            }
            let mut queue = vec![];
            for (u, opts) in options.iter().enumerate() {
                if label[u] != UNLABELLED {
                    continue;
                }
                need[u] = opts
                    .iter()
                    .filter(|&&v| match (v as usize).checked_sub(n0) {
                        Some(v) => label[v] >= INFINITE && !hit[v],
                        None => {
                            old[v as usize] == INFINITE && finite[&v].binary_search(&m).is_err()
                        }
                    })
                    .count() as u32;
                if need[u] == 0 && !hit[u] {
                    queue.push(u);
                }
            }
            let mut steps = 0u64;
            while let Some(u) = queue.pop() {
                if label[u] != UNLABELLED || hit[u] {
                    continue;
                }
                label[u] = m;
                left -= 1;
                for &p in preds(u) {
                    let p = p as usize;
                    if hit[p] {
                        continue;
                    }
                    hit[p] = true;
                    if label[p] < INFINITE {
                        continue;
                    }
                    // p is covered now: those with p as an option need it no more
                    for &q in preds(p) {
                        let q = q as usize;
                        steps += 1;
                        if steps.is_multiple_of(1 << 16) {
                            ctl.check()?;
                        }
                        if label[q] == UNLABELLED {
                            need[q] -= 1;
                            if need[q] == 0 && !hit[q] {
                                queue.push(q);
                            }
                        }
                    }
                }
            }
            for u in 0..n {
                if label[u] == UNLABELLED && !hit[u] {
                    label[u] = INFINITE;
                    left -= 1;
                }
            }
            m += 1;
        }
        self.label.extend(label);
        for opts in options {
            self.moves.extend_from_slice(opts);
            self.end.push(self.moves.len());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outcomes by retrograde analysis: a position is lost when every option is won, won when
    /// some option is lost, a draw otherwise.
    fn outcomes(options: &[Vec<u32>]) -> Vec<Outcome> {
        let n = options.len();
        let mut out: Vec<Option<Outcome>> = vec![None; n];
        loop {
            let mut changed = false;
            for u in 0..n {
                if out[u].is_some() {
                    continue;
                }
                let o = options[u].iter().map(|&v| out[v as usize]);
                if o.clone().any(|x| x == Some(Outcome::P)) {
                    out[u] = Some(Outcome::N);
                } else if o.clone().all(|x| x == Some(Outcome::N)) {
                    out[u] = Some(Outcome::P);
                } else {
                    continue;
                }
                changed = true;
            }
            if !changed {
                return out.into_iter().map(|o| o.unwrap_or(Outcome::D)).collect();
            }
        }
    }

    fn random_graph(next: &mut impl FnMut() -> u64, n: usize) -> Vec<Vec<u32>> {
        (0..n)
            .map(|_| {
                let d = (next() % 4) as usize;
                let mut o: Vec<u32> = (0..d).map(|_| (next() % n as u64) as u32).collect();
                o.sort_unstable();
                o.dedup();
                o
            })
            .collect()
    }

    /// The size docs/benchmarks.md quotes: a loopy subtraction game (take 1, 2 or 4; add 3 to
    /// a heap of 2 mod 5, below a cap) on heaps 0..10^6. `cargo test --release --lib loopy_million -- --ignored
    /// --nocapture`
    #[test]
    #[ignore]
    fn loopy_million() {
        let n = 1_000_000u32;
        let opts: Vec<Vec<u32>> = (0..n)
            .map(|h| {
                let mut o: Vec<u32> = [1, 2, 4]
                    .iter()
                    .filter(|&&k| k <= h)
                    .map(|k| h - k)
                    .collect();
                if h % 5 == 2 && h + 3 < n {
                    o.push(h + 3);
                }
                o
            })
            .collect();
        let t = std::time::Instant::now();
        let v = values(&opts, &Ctl::default()).unwrap();
        let draws = v.iter().filter(|x| x.outcome() == Outcome::D).count();
        println!(
            "{} positions, {draws} draws, {:.2} s",
            n,
            t.elapsed().as_secs_f64()
        );
    }

    #[test]
    fn acyclic_games_get_their_nimbers() {
        // a heap of n where a move takes 1 or 2: n mod 3
        let opts: Vec<Vec<u32>> = (0..30u32)
            .map(|n| (1..=2).filter(|&k| k <= n).map(|k| n - k).collect())
            .collect();
        let v = values(&opts, &Ctl::default()).unwrap();
        for (n, x) in v.iter().enumerate() {
            assert_eq!(*x, Value::Finite(n as u64 % 3));
        }
    }

    #[test]
    fn a_two_cycle_and_an_escape() {
        // 0 <-> 1 is a draw; 2 moves to 1 or to the end 3: 2 is ∞(0)... its options are 1 (∞)
        // and 3 (0), so 2 is 1 exactly when 1 has an option of value 1, which it has not
        let opts = vec![vec![1], vec![0], vec![1, 3], vec![]];
        let v = values(&opts, &Ctl::default()).unwrap();
        assert_eq!(v[0], Value::Infinite(vec![]));
        assert_eq!(v[3], Value::Finite(0));
        assert_eq!(v[2], Value::Infinite(vec![0]));
        assert_eq!(v[2].outcome(), Outcome::N);
        assert_eq!(v[0].outcome(), Outcome::D);
        assert_eq!(v[2].to_string(), "∞(0)");
    }

    #[test]
    fn outcomes_agree_with_retrograde_analysis() {
        let mut next = crate::engine::xorshift(0x9e37_79b9);
        for _ in 0..300 {
            let n = 1 + (next() % 25) as usize;
            let g = random_graph(&mut next, n);
            let v = values(&g, &Ctl::default()).unwrap();
            let o: Vec<Outcome> = v.iter().map(Value::outcome).collect();
            assert_eq!(o, outcomes(&g), "{g:?}");
        }
    }

    /// A graph labelled batch by batch (the positions newly reached from one start after
    /// another, in a random order) gets the values of the whole graph labelled at once.
    #[test]
    fn labelling_batch_by_batch_agrees_with_labelling_at_once() {
        let mut next = crate::engine::xorshift(0x5eed);
        for _ in 0..400 {
            let n = 1 + (next() % 30) as usize;
            let g = random_graph(&mut next, n);
            let whole = values(&g, &Ctl::default()).unwrap();
            let mut id = vec![u32::MAX; n];
            let mut graph = Graph::default();
            for _ in 0..n {
                let s = (next() % n as u64) as usize;
                // the positions reached from s that are new, numbered in the order met
                let mut batch = vec![];
                let mut stack = vec![s];
                while let Some(u) = stack.pop() {
                    if id[u] == u32::MAX {
                        id[u] = (graph.len() + batch.len()) as u32;
                        batch.push(u);
                        stack.extend(g[u].iter().map(|&v| v as usize));
                    }
                }
                let opts: Vec<Vec<u32>> = batch
                    .iter()
                    .map(|&u| g[u].iter().map(|&v| id[v as usize]).collect())
                    .collect();
                graph.add(&opts, &Ctl::default()).unwrap();
            }
            for u in (0..n).filter(|&u| id[u] != u32::MAX) {
                assert_eq!(graph.value(id[u]), whole[u], "{g:?} at {u}");
            }
        }
    }

    /// Smith's theorem: the value of a sum follows from the parts' values. The sum's graph is
    /// labelled directly and compared with the rule, and its outcomes with retrograde analysis.
    #[test]
    fn sums_follow_the_generalized_nim_sum() {
        let mut next = crate::engine::xorshift(12345);
        for _ in 0..150 {
            let (a, b) = (1 + (next() % 9) as usize, 1 + (next() % 9) as usize);
            let (g, h) = (random_graph(&mut next, a), random_graph(&mut next, b));
            let sum: Vec<Vec<u32>> = (0..a * b)
                .map(|p| {
                    let (x, y) = (p / b, p % b);
                    let mut o: Vec<u32> = g[x]
                        .iter()
                        .map(|&x2| (x2 as usize * b + y) as u32)
                        .collect();
                    o.extend(h[y].iter().map(|&y2| (x * b + y2 as usize) as u32));
                    o
                })
                .collect();
            let (vg, vh, vs) = (
                values(&g, &Ctl::default()).unwrap(),
                values(&h, &Ctl::default()).unwrap(),
                values(&sum, &Ctl::default()).unwrap(),
            );
            let o = outcomes(&sum);
            for p in 0..a * b {
                let want = vg[p / b].sum(&vh[p % b]);
                // a sum of two infinite parts is a draw; its K is not determined by the parts
                match (&want, &vs[p]) {
                    (Value::Infinite(k), Value::Infinite(_)) if k.is_empty() => {
                        assert_eq!(vs[p].outcome(), Outcome::D, "{g:?} + {h:?} at {p}")
                    }
                    _ => assert_eq!(vs[p], want, "{g:?} + {h:?} at {p}"),
                }
                assert_eq!(vs[p].outcome(), o[p]);
            }
        }
    }
}
