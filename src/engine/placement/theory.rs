//! The graphs behind the games (thesis Appendix B and section 1.3): closed tours, domination,
//! independent domination and independence numbers of piece graphs.
use super::bits::{B256, Bits};
use super::piece::Grid;
use super::solve::Cx;
use super::{Board, Piece};
use crate::engine::{Ctl, Error, Result};

/// The attack graph of one piece on a grid or torus board (neighbours increasing); on a graph
/// board, the graph itself.
pub fn piece_graph(board: &Board, piece: &Piece) -> Result<Vec<Vec<usize>>> {
    let n = board.squares()?;
    match board {
        Board::Graph(g) => Ok(g.adjacency()),
        Board::Grid { rows, cols } | Board::Torus { rows, cols } => {
            if piece.has_null_part() {
                return Err(Error::invalid(format!(
                    "the piece {piece} has a null step (0, 0)"
                )));
            }
            let grid = Grid {
                rows: *rows,
                cols: *cols,
                torus: matches!(board, Board::Torus { .. }),
            };
            let mut adj = vec![vec![false; n]; n];
            for (s, row) in adj.iter_mut().enumerate() {
                let r = grid.reach(piece, s);
                for &t in r.leaps.iter().chain(r.rays.iter().flatten()) {
                    row[t] = true;
                }
            }
            // leapers and riders attack symmetrically; keep the graph undirected regardless
            #[allow(clippy::needless_range_loop)]
            for s in 0..n {
                for t in 0..n {
                    if adj[s][t] {
                        adj[t][s] = true;
                    }
                }
            }
            Ok(adj
                .iter()
                .map(|row| (0..n).filter(|&t| row[t]).collect())
                .collect())
        }
    }
}

fn closed_sets(adj: &[Vec<usize>]) -> Result<Vec<B256>> {
    if adj.len() > 256 {
        return Err(Error::limit("graphs of at most 256 vertices"));
    }
    Ok(adj
        .iter()
        .enumerate()
        .map(|(v, nb)| {
            let mut b = B256::bit(v);
            for &u in nb {
                b.set(u);
            }
            b
        })
        .collect())
}

fn all(n: usize) -> B256 {
    let mut b = B256::default();
    for i in 0..n {
        b.set(i);
    }
    b
}

struct Dom<'a> {
    closed: &'a [B256],
    full: B256,
    independent: bool,
    best: usize,
    cx: Cx<'a>,
}

impl Dom<'_> {
    /// The vertices that may still be chosen to dominate `u`: not `excluded` (their branches are
    /// done), and under independence not dominated.
    fn cands(&self, u: usize, dominated: B256, excluded: B256) -> B256 {
        let c = self.closed[u].andnot(excluded);
        if self.independent {
            c.andnot(dominated)
        } else {
            c
        }
    }

    /// A lower bound on the vertices still needed (`usize::MAX` when some undominated vertex has
    /// no candidate left): undominated vertices with pairwise disjoint candidate sets each need
    /// their own; and k vertices newly cover at most as many as the k candidates that newly
    /// cover most.
    fn bound(&self, dominated: B256, excluded: B256) -> usize {
        let und = self.full.andnot(dominated);
        let mut used = B256::default();
        let mut all_cands = B256::default();
        let mut packed = 0;
        for u in und.ones() {
            let cand = self.cands(u, dominated, excluded);
            if cand.is_empty() {
                return usize::MAX;
            }
            if cand.and(used).is_empty() {
                packed += 1;
                used = used.or(cand);
            }
            all_cands = all_cands.or(cand);
        }
        let mut covers: Vec<u32> = all_cands
            .ones()
            .map(|v| self.closed[v].and(und).count())
            .collect();
        covers.sort_unstable_by(|a, b| b.cmp(a));
        let mut left = und.count();
        let mut needed = 0;
        for c in covers {
            if left == 0 {
                break;
            }
            left = left.saturating_sub(c);
            needed += 1;
        }
        packed.max(needed)
    }

    /// Branches on the undominated vertex with fewest candidates; each candidate in turn, and
    /// the later branches exclude the earlier candidates, so no set is searched twice.
    fn search(&mut self, dominated: B256, mut excluded: B256, depth: usize) -> Result<()> {
        self.cx.tick()?;
        if dominated == self.full {
            self.best = self.best.min(depth);
            return Ok(());
        }
        if depth.saturating_add(self.bound(dominated, excluded)) >= self.best {
            return Ok(());
        }
        let und = self.full.andnot(dominated);
        let u = und
            .ones()
            .min_by_key(|&u| self.cands(u, dominated, excluded).count())
            .unwrap();
        let mut order: Vec<(u32, usize)> = self
            .cands(u, dominated, excluded)
            .ones()
            .map(|v| (self.closed[v].and(und).count(), v))
            .collect();
        order.sort_by(|a, b| b.cmp(a));
        for (_, v) in order {
            self.search(dominated.or(self.closed[v]), excluded, depth + 1)?;
            excluded.set(v);
        }
        Ok(())
    }
}

fn domination(adj: &[Vec<usize>], independent: bool, ctl: &Ctl) -> Result<usize> {
    let closed = closed_sets(adj)?;
    let n = adj.len();
    let mut d = Dom {
        closed: &closed,
        full: all(n),
        independent,
        best: n + 1,
        cx: Cx::new(ctl, "domination search (sets)"),
    };
    d.search(B256::default(), B256::default(), 0)?;
    Ok(d.best.min(n))
}

/// γ(G): the fewest vertices whose closed neighbourhoods cover the graph (exact branch and
/// bound). Knights on 8 x 8: 12.
pub fn domination_number(adj: &[Vec<usize>], ctl: &Ctl) -> Result<usize> {
    domination(adj, false, ctl)
}

/// i(G): the fewest vertices of an independent dominating set, i.e. the shortest possible play
/// of the one-piece placement game on G.
pub fn independent_domination_number(adj: &[Vec<usize>], ctl: &Ctl) -> Result<usize> {
    domination(adj, true, ctl)
}

fn bipartition(adj: &[Vec<usize>]) -> Option<Vec<u8>> {
    let n = adj.len();
    let mut col = vec![2u8; n];
    for s in 0..n {
        if col[s] != 2 {
            continue;
        }
        col[s] = 0;
        let mut stack = vec![s];
        while let Some(v) = stack.pop() {
            for &u in &adj[v] {
                if col[u] == 2 {
                    col[u] = 1 - col[v];
                    stack.push(u);
                } else if col[u] == col[v] {
                    return None;
                }
            }
        }
    }
    Some(col)
}

fn max_matching(adj: &[Vec<usize>], col: &[u8]) -> usize {
    let n = adj.len();
    let mut mate = vec![usize::MAX; n];
    fn augment(v: usize, adj: &[Vec<usize>], mate: &mut [usize], seen: &mut [bool]) -> bool {
        for &u in &adj[v] {
            if !seen[u] {
                seen[u] = true;
                if mate[u] == usize::MAX || augment(mate[u], adj, mate, seen) {
                    mate[u] = v;
                    mate[v] = u;
                    return true;
                }
            }
        }
        false
    }
    let mut size = 0;
    for v in 0..n {
        if col[v] == 0 && mate[v] == usize::MAX {
            let mut seen = vec![false; n];
            if augment(v, adj, &mut mate, &mut seen) {
                size += 1;
            }
        }
    }
    size
}

/// α(G): the most pairwise non-adjacent vertices, i.e. the longest possible play of the
/// one-piece placement game on G. Bipartite graphs (knights) by König's theorem
/// (n − maximum matching); others by branch and bound: the maximum-clique search of Tomita and
/// Seki on the complement, whose colour classes are cliques of G, so that the number of cliques
/// covering the candidates bounds how many of them an independent set can take.
pub fn independence_number(adj: &[Vec<usize>], ctl: &Ctl) -> Result<usize> {
    if let Some(col) = bipartition(adj) {
        return Ok(adj.len() - max_matching(adj, &col));
    }
    let closed = closed_sets(adj)?;
    fn mis(
        mut cands: B256,
        closed: &[B256],
        size: usize,
        best: &mut usize,
        cx: &mut Cx,
    ) -> Result<()> {
        cx.tick()?;
        if cands.is_empty() {
            *best = (*best).max(size);
            return Ok(());
        }
        // cover the candidates greedily by cliques; the k-th clique's vertices get bound k
        let mut order = vec![];
        let mut left = cands;
        let mut k = 0;
        while !left.is_empty() {
            k += 1;
            let mut clique = left;
            while !clique.is_empty() {
                let v = clique.lowest();
                order.push((v, k));
                left = left.andnot(B256::bit(v));
                clique = clique.and(closed[v]).andnot(B256::bit(v));
            }
        }
        // a vertex taken with only earlier vertices left can add at most its bound
        for &(v, k) in order.iter().rev() {
            if size + k <= *best {
                return Ok(());
            }
            mis(cands.andnot(closed[v]), closed, size + 1, best, cx)?;
            cands = cands.andnot(B256::bit(v));
        }
        Ok(())
    }
    let mut best = 0;
    let mut cx = Cx::new(ctl, "independence search (sets)");
    mis(all(adj.len()), &closed, 0, &mut best, &mut cx)?;
    Ok(best)
}

/// The result of a tour search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tour {
    /// A closed tour: every square once, consecutive squares (and last, first) adjacent.
    Closed(Vec<usize>),
    /// No closed tour exists; the reason is the proof used.
    Impossible(String),
}

/// A closed tour of `piece` on the `rows x cols` grid (Warnsdorff's rule with backtracking), or
/// a proof that none exists: too few squares, a square of degree < 2, a disconnected graph, a
/// bipartite graph with unequal sides, the four-row argument (an independent half of the squares
/// other than a colour class), or an exhausted search.
pub fn tour(rows: usize, cols: usize, piece: &Piece, ctl: &Ctl) -> Result<Tour> {
    let board = Board::Grid { rows, cols };
    let adj = piece_graph(&board, piece)?;
    let n = adj.len();
    let no = |s: &str| Ok(Tour::Impossible(s.to_string()));
    if n < 3 {
        return no("fewer than three squares");
    }
    if let Some(v) = (0..n).find(|&v| adj[v].len() < 2) {
        return no(&format!("square {v} has fewer than two neighbours"));
    }
    // connectivity
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(v) = stack.pop() {
        for &u in &adj[v] {
            if !seen[u] {
                seen[u] = true;
                stack.push(u);
            }
        }
    }
    if seen.contains(&false) {
        return no("the graph is disconnected");
    }
    let col = bipartition(&adj);
    if let Some(col) = &col {
        let black = col.iter().filter(|&&c| c == 0).count();
        if 2 * black != n {
            return no(&format!(
                "the graph is bipartite with sides {black} and {}",
                n - black
            ));
        }
        // Four rows (or columns): the outer lines form an independent half of the squares.
        // A closed tour must alternate between that half and the rest, and also between the
        // colour classes, so the half would have to be a colour class.
        for (lines, outer) in [(rows, true), (cols, false)] {
            if lines != 4 {
                continue;
            }
            let s: Vec<bool> = (0..n)
                .map(|v| {
                    let k = if outer { v / cols } else { v % cols };
                    k == 0 || k == 3
                })
                .collect();
            let independent = (0..n).all(|v| !s[v] || adj[v].iter().all(|&u| !s[u]));
            let is_class =
                (0..n).all(|v| s[v] == (col[v] == 0)) || (0..n).all(|v| s[v] == (col[v] == 1));
            if independent && !is_class {
                return no(
                    "four lines: the outer two lines are an independent half of the squares but not a colour class",
                );
            }
        }
    }
    // Warnsdorff with backtracking from a square of least degree
    let start = (0..n).min_by_key(|&v| adj[v].len()).unwrap();
    let mut free = vec![0usize; n];
    for v in 0..n {
        free[v] = adj[v].len();
    }
    let mut visited = vec![false; n];
    let mut path = vec![start];
    visited[start] = true;
    for &u in &adj[start] {
        free[u] -= 1;
    }
    let is_start_adj: Vec<bool> = (0..n).map(|v| adj[start].contains(&v)).collect();
    let mut cx = Cx::new(ctl, "tour search (paths)");
    let limit = 200_000_000u64;
    fn go(
        adj: &[Vec<usize>],
        free: &mut [usize],
        visited: &mut [bool],
        path: &mut Vec<usize>,
        start_adj: &[bool],
        limit: u64,
        cx: &mut Cx,
    ) -> Result<bool> {
        let n = adj.len();
        let v = *path.last().unwrap();
        if path.len() == n {
            return Ok(start_adj[v]);
        }
        cx.tick()?;
        if cx.nodes() > limit {
            return Err(Error::limit("the tour search passed its step limit"));
        }
        let mut next: Vec<(usize, usize)> = adj[v]
            .iter()
            .filter(|&&u| !visited[u])
            .map(|&u| (free[u], u))
            .collect();
        next.sort();
        for (_, u) in next {
            visited[u] = true;
            path.push(u);
            for &w in &adj[u] {
                free[w] -= 1;
            }
            // prune: an unvisited square next to v or u left with too few ways in and out
            let remaining = n - path.len();
            let ok = remaining == 0
                || (adj[v].iter().chain(adj[u].iter()).all(|&w| {
                    visited[w] || {
                        let ends = usize::from(adj[u].contains(&w)) + usize::from(start_adj[w]);
                        free[w] + ends >= 2 || (remaining == 1 && free[w] + ends >= 1)
                    }
                }) && (adj[path[0]].iter().any(|&w| !visited[w])));
            if ok && go(adj, free, visited, path, start_adj, limit, cx)? {
                return Ok(true);
            }
            for &w in &adj[u] {
                free[w] += 1;
            }
            path.pop();
            visited[u] = false;
        }
        Ok(false)
    }
    if go(
        &adj,
        &mut free,
        &mut visited,
        &mut path,
        &is_start_adj,
        limit,
        &mut cx,
    )? {
        Ok(Tour::Closed(path))
    } else {
        no("exhaustive search")
    }
}
