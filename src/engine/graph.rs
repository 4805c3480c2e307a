//! Undirected graph boards on named vertices, with optional cells (the faces the Game of Cycles
//! plays on). Shared by Node-Kayles and the Game of Cycles; also the automorphisms of a graph
//! (the symmetries of a graph board for games by rules).
use super::control::{Ctl, Error, Result};
use std::fmt;

/// A symmetry of a rectangle as a map of (row, column), both from 0.
pub type CellMap = Box<dyn Fn(usize, usize) -> (usize, usize)>;

/// The symmetries of an h x w rectangle of cells: the identity first, then the two mirror
/// images and the half turn, and on a square also the four that swap rows and columns.
pub fn rect_symmetries(h: usize, w: usize) -> Vec<CellMap> {
    let (r1, c1) = (h - 1, w - 1);
    let mut maps: Vec<CellMap> = vec![
        Box::new(|r, c| (r, c)),
        Box::new(move |r, c| (r1 - r, c)),
        Box::new(move |r, c| (r, c1 - c)),
        Box::new(move |r, c| (r1 - r, c1 - c)),
    ];
    if h == w {
        maps.push(Box::new(|r, c| (c, r)));
        maps.push(Box::new(move |r, c| (c1 - c, r)));
        maps.push(Box::new(move |r, c| (c, r1 - r)));
        maps.push(Box::new(move |r, c| (c1 - c, r1 - r)));
    }
    maps
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    /// vertex names, in the order they were first written
    pub names: Vec<String>,
    /// edges as (smaller index, larger index), in the order written, without repeats
    pub edges: Vec<(usize, usize)>,
    /// cells as cyclic vertex lists; consecutive vertices (and last, first) are edges
    pub cells: Vec<Vec<usize>>,
}

impl Graph {
    /// A graph from its vertex names and edges (indices into `names`). Loops are refused;
    /// a repeated edge is kept once.
    pub fn new(names: Vec<String>, edges: &[(usize, usize)]) -> Result<Graph> {
        let mut out: Vec<(usize, usize)> = Vec::with_capacity(edges.len());
        for &(a, b) in edges {
            if a >= names.len() || b >= names.len() {
                return Err(Error::invalid(
                    "an edge names a vertex the graph does not have",
                ));
            }
            if a == b {
                return Err(Error::invalid(format!(
                    "the edge {0} - {0} is a loop; a graph board has none",
                    names[a]
                )));
            }
            let e = (a.min(b), a.max(b));
            if !out.contains(&e) {
                out.push(e);
            }
        }
        Ok(Graph {
            names,
            edges: out,
            cells: vec![],
        })
    }

    /// Adds cells. On a bad cell, `Err((cell, position))` names the cell and the index of its
    /// first vertex whose step to the next vertex is not an edge (or that repeats a vertex).
    pub fn with_cells(
        mut self,
        cells: Vec<Vec<usize>>,
    ) -> std::result::Result<Graph, (usize, usize)> {
        for (ci, cell) in cells.iter().enumerate() {
            if cell.len() < 3 {
                return Err((ci, 0));
            }
            for i in 0..cell.len() {
                let (a, b) = (cell[i], cell[(i + 1) % cell.len()]);
                if cell[..i].contains(&a) || self.edge(a, b).is_none() {
                    return Err((ci, i));
                }
            }
        }
        self.cells = cells;
        Ok(self)
    }

    pub fn vertex_count(&self) -> usize {
        self.names.len()
    }

    pub fn vertex(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The index of edge {a, b}.
    pub fn edge(&self, a: usize, b: usize) -> Option<usize> {
        let e = (a.min(b), a.max(b));
        self.edges.iter().position(|&x| x == e)
    }

    /// Neighbours of every vertex, in increasing order.
    pub fn adjacency(&self) -> Vec<Vec<usize>> {
        let mut adj = vec![vec![]; self.names.len()];
        for &(a, b) in &self.edges {
            adj[a].push(b);
            adj[b].push(a);
        }
        for l in &mut adj {
            l.sort_unstable();
        }
        adj
    }
}

/// `graph { a - b, b - c; cells [a, b, c] }`, as written in the language.
impl fmt::Display for Graph {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let mut parts: Vec<String> = self
            .edges
            .iter()
            .map(|&(a, b)| format!("{} - {}", self.names[a], self.names[b]))
            .collect();
        let mut touched = vec![false; self.names.len()];
        for &(a, b) in &self.edges {
            touched[a] = true;
            touched[b] = true;
        }
        parts.extend(
            (0..self.names.len())
                .filter(|&v| !touched[v])
                .map(|v| self.names[v].clone()),
        );
        f.write_str("graph {")?;
        if !parts.is_empty() {
            write!(f, " {}", parts.join(", "))?;
        }
        if !self.cells.is_empty() {
            let cells: Vec<String> = self
                .cells
                .iter()
                .map(|c| {
                    let n: Vec<&str> = c.iter().map(|&v| self.names[v].as_str()).collect();
                    format!("[{}]", n.join(", "))
                })
                .collect();
            write!(f, "; cells {}", cells.join(", "))?;
        }
        f.write_str(" }")
    }
}

/// At most this many automorphisms of a graph are listed.
pub const MAX_SYMS: usize = 64;

/// The refinement work (neighbour colours sorted, times the log of the vertex count) after
/// which the automorphism search stops with what it has found: about a second.
const SEARCH_WORK: u64 = 1 << 27;

/// Automorphisms of a graph given by adjacency lists: the identity first, then at most
/// [`MAX_SYMS`] in all. Every map listed is an automorphism, but the list may be a part of the
/// group: it stops at [`MAX_SYMS`] or after [`SEARCH_WORK`]. A caller that keys positions by
/// their least image under the maps stays sound with any such part (two positions with a
/// common image are images of each other under an automorphism); it only finds fewer
/// transpositions.
///
/// The search individualises and refines, as graph isomorphism programs do: vertices are
/// coloured by the number of neighbours of each colour until the colouring is stable, a vertex
/// of the first colour class of several vertices gets a colour of its own, and so on down to a
/// colouring where every vertex has its own colour (a leaf). The colours are numbered
/// canonically, so an automorphism carries the first leaf onto another leaf, and the map from
/// one to the other is checked. A branch whose refinement differs from the first branch at the
/// same depth (its trace) holds no such leaf and is cut, so on most graphs refinement alone
/// leaves a few leaves to check; a random regular graph, where the naive search backtracks
/// for hours, takes milliseconds.
///
/// ```
/// use gamut::engine::Ctl;
/// use gamut::engine::graph::automorphisms;
/// // a path a - b - c: the identity and the mirror image
/// let syms = automorphisms(&[vec![1], vec![0, 2], vec![1]], &Ctl::default()).unwrap();
/// assert_eq!(syms, vec![vec![0, 1, 2], vec![2, 1, 0]]);
/// ```
pub fn automorphisms(adj: &[Vec<usize>], ctl: &Ctl) -> Result<Vec<Vec<usize>>> {
    let n = adj.len();
    let mut s = Search {
        adj,
        edges: adj
            .iter()
            .map(|l| {
                let mut l = l.clone();
                l.sort_unstable();
                l
            })
            .collect(),
        ctl,
        work: 0,
        round: (n + adj.iter().map(Vec::len).sum::<usize>()) as u64
            * (usize::BITS - n.leading_zeros()).max(1) as u64,
        traces: vec![],
        leaf: None,
        out: vec![(0..n).collect()],
    };
    let mut col = vec![0u32; n];
    if s.refine(&mut col)?.is_some() {
        s.dfs(col, 0)?;
    }
    Ok(s.out)
}

struct Search<'a> {
    adj: &'a [Vec<usize>],
    /// the neighbours of each vertex, sorted
    edges: Vec<Vec<usize>>,
    ctl: &'a Ctl,
    work: u64,
    /// the work of one round of refinement
    round: u64,
    /// the trace of each refinement along the first branch, by depth
    traces: Vec<u64>,
    /// the first leaf: the colour of each vertex
    leaf: Option<Vec<u32>>,
    out: Vec<Vec<usize>>,
}

impl Search<'_> {
    /// Refines `col` to the coarsest stable colouring finer than it, numbering the colours
    /// canonically (by colour, then the sorted colours of the neighbours); the trace is a hash
    /// of the colourings on the way. `None` once the work is spent.
    fn refine(&mut self, col: &mut [u32]) -> Result<Option<u64>> {
        let n = col.len();
        let mut count = {
            let mut c = col.to_vec();
            c.sort_unstable();
            c.dedup();
            c.len()
        };
        let mut trace = 0xcbf2_9ce4_8422_2325u64;
        let mut mix = |x: u64| trace = (trace ^ x).wrapping_mul(0x0100_0000_01b3);
        loop {
            self.ctl.check()?;
            self.work += self.round;
            if self.work > SEARCH_WORK {
                return Ok(None);
            }
            let mut sig: Vec<(u32, Vec<u32>, usize)> = (0..n)
                .map(|v| {
                    let mut nb: Vec<u32> = self.adj[v].iter().map(|&w| col[w]).collect();
                    nb.sort_unstable();
                    (col[v], nb, v)
                })
                .collect();
            sig.sort_unstable();
            let mut k = 0u32;
            for i in 0..n {
                if i > 0 && (sig[i].0, &sig[i].1) != (sig[i - 1].0, &sig[i - 1].1) {
                    k += 1;
                }
                col[sig[i].2] = k;
                mix(u64::from(k) << 32 | u64::from(sig[i].0));
                sig[i].1.iter().for_each(|&c| mix(u64::from(c)));
            }
            let k = if n == 0 { 0 } else { k as usize + 1 };
            if k == count {
                return Ok(Some(trace));
            }
            count = k;
        }
    }

    /// Searches below a stable colouring at `depth`; false once the search is over.
    fn dfs(&mut self, col: Vec<u32>, depth: usize) -> Result<bool> {
        let n = col.len();
        let mut size = vec![0usize; n];
        for &c in &col {
            size[c as usize] += 1;
        }
        let Some(target) = size.iter().position(|&s| s > 1) else {
            return Ok(self.leaf_found(col));
        };
        for v in (0..n).filter(|&v| col[v] as usize == target) {
            // v alone just after the rest of its class
            let mut c: Vec<u32> = col
                .iter()
                .enumerate()
                .map(|(u, &x)| 2 * x + u32::from(u == v))
                .collect();
            let Some(trace) = self.refine(&mut c)? else {
                return Ok(false);
            };
            if depth == self.traces.len() {
                self.traces.push(trace);
            } else if self.traces[depth] != trace {
                continue;
            }
            if !self.dfs(c, depth + 1)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// A leaf: the first is kept, each other gives the map carrying the first onto it, kept
    /// when it is an automorphism. False once [`MAX_SYMS`] are found.
    fn leaf_found(&mut self, col: Vec<u32>) -> bool {
        let Some(first) = &self.leaf else {
            self.leaf = Some(col);
            return true;
        };
        let mut at = vec![0usize; col.len()];
        for (u, &c) in col.iter().enumerate() {
            at[c as usize] = u;
        }
        let map: Vec<usize> = first.iter().map(|&c| at[c as usize]).collect();
        // a bijection carrying each edge to an edge keeps the edge count, so non-edges too
        let keeps = (0..map.len()).all(|v| {
            self.edges[v]
                .iter()
                .all(|&w| self.edges[map[v]].binary_search(&map[w]).is_ok())
        });
        if keeps {
            self.out.push(map);
        }
        self.out.len() < MAX_SYMS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &str) -> Vec<String> {
        s.chars().map(|c| c.to_string()).collect()
    }

    #[test]
    fn cells_must_follow_edges() {
        let g = Graph::new(names("abcd"), &[(0, 1), (1, 2), (2, 0), (2, 3)]).unwrap();
        assert!(g.clone().with_cells(vec![vec![0, 1, 2]]).is_ok());
        assert_eq!(g.with_cells(vec![vec![0, 1, 3]]), Err((0, 1)));
    }

    #[test]
    fn loops_are_refused_and_repeats_merged() {
        assert!(Graph::new(names("ab"), &[(0, 0)]).is_err());
        let g = Graph::new(names("ab"), &[(0, 1), (1, 0)]).unwrap();
        assert_eq!(g.edges, vec![(0, 1)]);
        assert_eq!(g.adjacency(), vec![vec![1], vec![0]]);
    }
}
