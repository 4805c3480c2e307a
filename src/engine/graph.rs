//! Undirected graph boards on named vertices, with optional cells (the faces the Game of Cycles
//! plays on). Shared by Node-Kayles and the Game of Cycles.
use super::control::{Error, Result};
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
