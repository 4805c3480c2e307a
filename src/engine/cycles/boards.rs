//! Board builders for the Game of Cycles: cycles, lines, the diamond, the double-diamond family
//! of the thesis' section 3.2, spiders and all trees with a given number of edges.
use std::collections::HashSet;

use crate::engine::graph::Graph;

/// A board under construction, by vertex names.
struct Builder {
    names: Vec<String>,
    edges: Vec<(usize, usize)>,
    cells: Vec<Vec<usize>>,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            names: vec![],
            edges: vec![],
            cells: vec![],
        }
    }

    fn v(&mut self, name: &str) -> usize {
        match self.names.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                self.names.push(name.to_string());
                self.names.len() - 1
            }
        }
    }

    fn edge(&mut self, a: &str, b: &str) {
        let (x, y) = (self.v(a), self.v(b));
        self.edges.push((x, y));
    }

    fn cell(&mut self, vs: &[&str]) {
        let c = vs.iter().map(|n| self.v(n)).collect();
        self.cells.push(c);
    }

    /// Puts `k` new vertices `x1 .. xk` (x = the two names joined) on the edge a - b, in order
    /// from a to b, inside every cell through that edge too.
    fn subdivide(&mut self, a: &str, b: &str, k: usize) {
        if k == 0 {
            return;
        }
        let (x, y) = (self.v(a), self.v(b));
        let pos = self
            .edges
            .iter()
            .position(|&(p, q)| (p, q) == (x, y) || (p, q) == (y, x))
            .expect("subdivided edge exists");
        self.edges.remove(pos);
        let mids: Vec<usize> = (1..=k).map(|i| self.v(&format!("{a}{b}{i}"))).collect();
        let mut chain = vec![x];
        chain.extend(&mids);
        chain.push(y);
        for w in chain.windows(2) {
            self.edges.push((w[0], w[1]));
        }
        for cell in &mut self.cells {
            let n = cell.len();
            for i in 0..n {
                let (p, q) = (cell[i], cell[(i + 1) % n]);
                if (p, q) == (x, y) || (p, q) == (y, x) {
                    let ins: Vec<usize> = if p == x {
                        mids.clone()
                    } else {
                        mids.iter().rev().copied().collect()
                    };
                    cell.splice(i + 1..i + 1, ins);
                    break;
                }
            }
        }
    }

    fn build(self) -> Graph {
        Graph::new(self.names, &self.edges)
            .expect("builder edges are valid")
            .with_cells(self.cells)
            .expect("builder cells are valid")
    }
}

/// Vertex names for small boards: a, b, c, ... (then v26, v27, ...).
fn name(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("v{i}")
    }
}

/// C_n: a single cycle of n edges (n ≥ 3) on vertices a, b, c, ..., whose one cell is the cycle.
pub fn cycle_graph(n: usize) -> Graph {
    let mut b = Builder::new();
    let vs: Vec<String> = (0..n).map(name).collect();
    for i in 0..n {
        b.edge(&vs[i], &vs[(i + 1) % n]);
    }
    if n >= 3 {
        let refs: Vec<&str> = vs.iter().map(String::as_str).collect();
        b.cell(&refs);
    }
    b.build()
}

/// L_n as in the thesis (Theorem 2.3): a line with n *markable* edges. Its two end edges touch
/// a leaf and can never be marked, so the path has n + 2 edges on n + 3 vertices a, b, c, ...
/// (the markable edges are b - c, ..., the one before the last).
pub fn path_graph(n: usize) -> Graph {
    let mut b = Builder::new();
    for i in 0..n + 2 {
        b.edge(&name(i), &name(i + 1));
    }
    b.build()
}

/// The diamond of the thesis' section 2.1.1: the square a b c d with the diagonal a - c, cells
/// a b c and a c d (5 markable edges).
pub fn diamond() -> Graph {
    let mut b = Builder::new();
    for (x, y) in [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c")] {
        b.edge(x, y);
    }
    b.cell(&["a", "b", "c"]);
    b.cell(&["a", "c", "d"]);
    b.build()
}

/// Which mirror pair of outer edges of the double-diamond gets the inserted vertices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outer {
    /// a - d and c - f (the family of the thesis' section 3.2, figure 3.3)
    AdCf,
    /// a - b and c - b
    AbCb,
    /// d - e and f - e
    DeFe,
}

impl Outer {
    /// All three pairs.
    pub const ALL: [Outer; 3] = [Outer::AdCf, Outer::AbCb, Outer::DeFe];

    /// The pair's two edges, as written in the names of the inserted vertices.
    pub fn edges(self) -> [(&'static str, &'static str); 2] {
        match self {
            Outer::AdCf => [("a", "d"), ("c", "f")],
            Outer::AbCb => [("a", "b"), ("c", "b")],
            Outer::DeFe => [("d", "e"), ("f", "e")],
        }
    }

    /// A short label: "ad/cf", "ab/cb" or "de/fe".
    pub fn label(self) -> &'static str {
        match self {
            Outer::AdCf => "ad/cf",
            Outer::AbCb => "ab/cb",
            Outer::DeFe => "de/fe",
        }
    }
}

/// The double-diamond of the thesis' section 3.3: vertices a..f, edges ab, ad, bd, be, de, bc,
/// bf, cf, ef, cells a b d, b e d, b c f, b f e; mirror axis b - e. Nine markable edges, and
/// the second player wins.
pub fn double_diamond() -> Graph {
    double_diamond_with(0, Outer::AdCf)
}

/// The double-diamond with k extra vertices on each of the outer edges a - d and c - f (the
/// family of the thesis' section 3.2); 9 + 2k edges. The new vertices are named ad1..adk (from a
/// to d) and cf1..cfk (from c to f).
pub fn double_diamond_k(k: usize) -> Graph {
    double_diamond_with(k, Outer::AdCf)
}

/// The double-diamond with k extra vertices on each edge of the chosen mirror pair of outer
/// edges; the new vertices on x - y are named xy1..xyk from x to y.
pub fn double_diamond_with(k: usize, outer: Outer) -> Graph {
    let mut b = Builder::new();
    for (x, y) in [
        ("a", "b"),
        ("a", "d"),
        ("b", "d"),
        ("b", "e"),
        ("d", "e"),
        ("b", "c"),
        ("b", "f"),
        ("c", "f"),
        ("e", "f"),
    ] {
        b.edge(x, y);
    }
    b.cell(&["a", "b", "d"]);
    b.cell(&["b", "e", "d"]);
    b.cell(&["b", "c", "f"]);
    b.cell(&["b", "f", "e"]);
    for (x, y) in outer.edges() {
        b.subdivide(x, y, k);
    }
    b.build()
}

/// The 3-legged spider: a centre o with legs of a, b and c *markable* edges. Each leg also has
/// a last edge at its leaf that can never be marked, so a leg of a markable edges is a path of
/// a + 1 edges: o - x1 - ... - x(a+1), likewise y.. and z.. for the other two legs.
pub fn spider(a: usize, b: usize, c: usize) -> Graph {
    let mut g = Builder::new();
    g.v("o");
    for (leg, len) in [("x", a), ("y", b), ("z", c)] {
        let mut prev = "o".to_string();
        for i in 1..=len + 1 {
            let v = format!("{leg}{i}");
            g.edge(&prev, &v);
            prev = v;
        }
    }
    g.build()
}

/// Whether a graph without cycles is a Z-tree (thesis, Definition 4.1): every vertex of degree
/// 2 is adjacent to a leaf.
pub fn is_z_tree(g: &Graph) -> bool {
    let adj = g.adjacency();
    adj.iter()
        .all(|l| l.len() != 2 || l.iter().any(|&w| adj[w].len() == 1))
}

/// The canonical string of a tree rooted at `r` (nested parentheses, children sorted).
fn rooted_code(adj: &[Vec<usize>], r: usize, parent: usize) -> String {
    let mut kids: Vec<String> = adj[r]
        .iter()
        .filter(|&&w| w != parent)
        .map(|&w| rooted_code(adj, w, r))
        .collect();
    kids.sort_unstable();
    let mut s = String::with_capacity(2 + kids.iter().map(String::len).sum::<usize>());
    s.push('(');
    for k in kids {
        s.push_str(&k);
    }
    s.push(')');
    s
}

/// The canonical string of a free tree: the least rooted code over its centres.
fn tree_code(adj: &[Vec<usize>]) -> String {
    let n = adj.len();
    if n <= 2 {
        return rooted_code(adj, 0, usize::MAX);
    }
    let mut deg: Vec<usize> = adj.iter().map(Vec::len).collect();
    let mut layer: Vec<usize> = (0..n).filter(|&v| deg[v] <= 1).collect();
    let mut left = n;
    while left > 2 {
        left -= layer.len();
        let mut next = vec![];
        for &v in &layer {
            for &w in &adj[v] {
                if deg[w] > 1 {
                    deg[w] -= 1;
                    if deg[w] == 1 {
                        next.push(w);
                    }
                }
            }
            deg[v] = 0;
        }
        layer = next;
    }
    layer
        .iter()
        .map(|&c| rooted_code(adj, c, usize::MAX))
        .min()
        .unwrap()
}

/// The tree written by a rooted code, vertices numbered in preorder.
fn tree_from_code(code: &str) -> Graph {
    let mut names = vec![];
    let mut edges = vec![];
    let mut stack: Vec<usize> = vec![];
    for ch in code.chars() {
        if ch == '(' {
            let v = names.len();
            names.push(v.to_string());
            if let Some(&p) = stack.last() {
                edges.push((p, v));
            }
            stack.push(v);
        } else {
            stack.pop();
        }
    }
    Graph::new(names, &edges).expect("tree edges are valid")
}

/// All trees with n edges up to isomorphism (1, 1, 1, 2, 3, 6, 11, 23, 47, 106, 235, ... for
/// n = 0, 1, 2, ...), vertices named 0..n in preorder from a centre, in a fixed order. Built by
/// adding a leaf in every way to the trees with n - 1 edges and keeping one tree per canonical
/// form (centre-rooted nested-parentheses code).
pub fn trees(n: usize) -> Vec<Graph> {
    let mut codes: Vec<String> = vec!["()".to_string()];
    for _ in 0..n {
        let mut seen = HashSet::new();
        let mut next = vec![];
        for code in &codes {
            let g = tree_from_code(code);
            let adj = g.adjacency();
            for v in 0..adj.len() {
                let mut a2 = adj.clone();
                let w = a2.len();
                a2.push(vec![v]);
                a2[v].push(w);
                let c = tree_code(&a2);
                if seen.insert(c.clone()) {
                    next.push(c);
                }
            }
        }
        next.sort_unstable();
        codes = next;
    }
    codes.iter().map(|c| tree_from_code(c)).collect()
}
