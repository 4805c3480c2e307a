//! Bit tables of a board: incidence masks per vertex, cell masks with their orientation, and
//! the automorphisms of the graph with its cells, as edge maps.
use crate::engine::graph::Graph;
use crate::engine::{Error, Result};

/// At most this many automorphisms are kept (the identity first). A truncated list is still
/// sound for the transposition table: every listed map is a true automorphism.
pub(crate) const MAX_SYMS: usize = 64;

/// An automorphism as an edge map: edge `e` goes to `dst[e]`; its direction bit flips when
/// `flip` has bit `e` (the images of its ends come in the other order).
#[derive(Debug, Clone)]
pub(crate) struct Sym {
    pub dst: Vec<u8>,
    pub flip: u64,
}

/// A position as two masks: bit e of `marked` says edge e is marked; bit e of `dir` gives its
/// direction (0: from the smaller vertex index to the larger, 1: the other way). An unmarked edge
/// with its `dir` bit set is *frozen*: it belongs to another component and cannot be played.
#[derive(Debug, Clone)]
pub(crate) struct Board {
    pub m: usize,
    pub all: u64,
    pub ends: Vec<(usize, usize)>,
    /// per vertex: its incident edges
    pub inc: Vec<u64>,
    /// per vertex: its incident edges of which it is the smaller end
    pub low: Vec<u64>,
    /// per cell: its edge mask and the direction bits of its edges going round in the listed order
    pub cells: Vec<(u64, u64)>,
    /// per edge: the cells holding it
    pub edge_cells: Vec<Vec<usize>>,
    /// per edge: the edges sharing an end with it (itself included)
    pub near: Vec<u64>,
    /// edges whose two ends both have degree at least 2
    pub markable: u64,
    pub syms: Vec<Sym>,
    /// maximal paths of at least 4 edges whose inner vertices have degree 2
    pub threads: Vec<Thread>,
}

/// A path whose inner vertices have degree 2: its edges in order from one end, and the
/// direction bits that point along it.
#[derive(Debug, Clone)]
pub(crate) struct Thread {
    pub edges: Vec<u8>,
    pub mask: u64,
    pub fwd: u64,
}

impl Board {
    pub fn new(g: &Graph) -> Result<Board> {
        let m = g.edges.len();
        if m > 64 {
            return Err(Error::limit(format!(
                "the Game of Cycles engine takes boards of at most 64 edges; this one has {m}"
            )));
        }
        let n = g.vertex_count();
        let all = if m == 64 { !0 } else { (1u64 << m) - 1 };
        let mut inc = vec![0u64; n];
        let mut low = vec![0u64; n];
        for (e, &(a, b)) in g.edges.iter().enumerate() {
            inc[a] |= 1 << e;
            inc[b] |= 1 << e;
            low[a.min(b)] |= 1 << e;
        }
        let mut cells = Vec::new();
        let mut edge_cells = vec![Vec::new(); m];
        for cell in &g.cells {
            let (mut mask, mut dir) = (0u64, 0u64);
            for i in 0..cell.len() {
                let (u, v) = (cell[i], cell[(i + 1) % cell.len()]);
                let e = g
                    .edge(u, v)
                    .ok_or_else(|| Error::invalid("a cell steps along a pair that is no edge"))?;
                mask |= 1 << e;
                if u > v {
                    dir |= 1 << e;
                }
            }
            if cells.iter().any(|&(cm, _)| cm == mask) {
                continue; // the same cell listed twice (perhaps the other way round)
            }
            for (e, list) in edge_cells.iter_mut().enumerate() {
                if mask >> e & 1 == 1 {
                    list.push(cells.len());
                }
            }
            cells.push((mask, dir));
        }
        let mut near = vec![0u64; m];
        let mut markable = 0u64;
        for (e, &(a, b)) in g.edges.iter().enumerate() {
            near[e] = inc[a] | inc[b];
            if inc[a].count_ones() >= 2 && inc[b].count_ones() >= 2 {
                markable |= 1 << e;
            }
        }
        let mut board = Board {
            m,
            all,
            ends: g.edges.clone(),
            inc,
            low,
            cells,
            edge_cells,
            near,
            markable,
            syms: vec![],
            threads: vec![],
        };
        board.syms = automorphisms(g, &board);
        board.threads = threads(g);
        Ok(board)
    }

    /// Edges pointing out of `v` among the marked ones.
    #[inline]
    pub fn out_edges(&self, v: usize, marked: u64, dir: u64) -> u64 {
        marked & self.inc[v] & (dir ^ self.low[v])
    }

    /// Edges pointing into `v` among the marked ones.
    #[inline]
    pub fn in_edges(&self, v: usize, marked: u64, dir: u64) -> u64 {
        marked & self.inc[v] & !(dir ^ self.low[v])
    }

    /// Tail and head of edge `e` played with direction bit `d`.
    #[inline]
    pub fn tail_head(&self, e: usize, d: u64) -> (usize, usize) {
        let (a, b) = self.ends[e];
        let (lo, hi) = (a.min(b), a.max(b));
        if d == 0 { (lo, hi) } else { (hi, lo) }
    }

    /// Whether playing `e` with direction bit `d` keeps both its ends from becoming a sink or a
    /// source. Assumes no frozen edge at its ends.
    #[inline]
    pub fn sink_source_ok(&self, marked: u64, dir: u64, e: usize, d: u64) -> bool {
        let bit = 1u64 << e;
        let (t, h) = self.tail_head(e, d);
        if self.inc[t] & !marked == bit && self.in_edges(t, marked, dir) == 0 {
            return false;
        }
        if self.inc[h] & !marked == bit && self.out_edges(h, marked, dir) == 0 {
            return false;
        }
        true
    }

    /// Cell `c`'s marked edges all go one way round.
    #[inline]
    pub fn cell_consistent(&self, c: usize, marked: u64, dir: u64) -> bool {
        let (cm, cd) = self.cells[c];
        let mk = marked & cm;
        let x = (dir ^ cd) & mk;
        x == 0 || x == mk
    }

    /// Cell `c` is complete: all edges marked one way round.
    #[inline]
    pub fn cell_complete(&self, c: usize, marked: u64, dir: u64) -> bool {
        self.cells[c].0 & !marked == 0 && self.cell_consistent(c, marked, dir)
    }

    /// Cell `c` lacks exactly one edge (not frozen) and its marked edges go one way round.
    #[inline]
    pub fn cell_completable(&self, c: usize, marked: u64, dir: u64) -> bool {
        let missing = self.cells[c].0 & !marked;
        missing.count_ones() == 1 && dir & missing == 0 && self.cell_consistent(c, marked, dir)
    }

    /// What playing (e, d) does to the cells through e: `Complete` if it completes one,
    /// `Death` if it leaves one that the opponent can complete, else `Quiet`.
    #[inline]
    pub fn classify(&self, marked: u64, dir: u64, e: usize, d: u64) -> Kind {
        let nm = marked | 1 << e;
        let nd = dir | d << e;
        let mut kind = Kind::Quiet;
        for &c in &self.edge_cells[e] {
            if self.cell_complete(c, nm, nd) {
                return Kind::Complete;
            }
            if self.cell_completable(c, nm, nd) {
                kind = Kind::Death;
            }
        }
        kind
    }

    pub fn any_complete(&self, marked: u64, dir: u64) -> bool {
        (0..self.cells.len()).any(|c| self.cell_complete(c, marked, dir))
    }

    pub fn any_completable(&self, marked: u64, dir: u64) -> bool {
        (0..self.cells.len()).any(|c| self.cell_completable(c, marked, dir))
    }

    /// The image of a position under automorphism `s`, arrows reversed if `rev`.
    #[inline]
    pub fn image(&self, s: &Sym, marked: u64, dir: u64, rev: bool) -> (u64, u64) {
        let mut bits = marked | dir;
        let (mut nm, mut nd) = (0u64, 0u64);
        let dflip = if rev { marked } else { 0 } ^ (s.flip & marked);
        let d = dir ^ dflip;
        while bits != 0 {
            let e = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let t = s.dst[e] as u32;
            nm |= (marked >> e & 1) << t;
            nd |= (d >> e & 1) << t;
        }
        (nm, nd)
    }

    /// The least image of a position under the automorphisms combined with reversal, each
    /// image with its threads rearranged (see [`Board::thread_canon`]).
    pub fn canon(&self, marked: u64, dir: u64) -> u128 {
        let key = |(m, d): (u64, u64)| (m as u128) << 64 | d as u128;
        let mut best =
            key(self.thread_canon(marked, dir)).min(key(self.thread_canon(marked, dir ^ marked)));
        for s in &self.syms[1..] {
            for rev in [false, true] {
                let (m, d) = self.image(s, marked, dir, rev);
                best = best.min(key(self.thread_canon(m, d)));
            }
        }
        best
    }

    /// Rearranges every thread whose marked edges all point the same way along it (and that has
    /// no frozen edge): the gaps at its two ends stay, the gaps inside are sorted, longest first,
    /// and the marked runs between them shrink to one edge, the first run taking the rest. The
    /// result plays exactly like the original: inner vertices have degree 2, the ends see the
    /// same edges, and every cell through the thread sees the same number of unmarked edges and
    /// the same direction.
    pub fn thread_canon(&self, mut marked: u64, mut dir: u64) -> (u64, u64) {
        for t in &self.threads {
            let mk = marked & t.mask;
            if mk == 0 || dir & !marked & t.mask != 0 {
                continue;
            }
            let back = (dir ^ t.fwd) & mk;
            if back != 0 && back != mk {
                continue;
            }
            let len = t.edges.len();
            let bit = |i: usize| marked >> t.edges[i] & 1 == 1;
            let mut g0 = 0;
            while g0 < len && !bit(g0) {
                g0 += 1;
            }
            let mut gr = 0;
            while gr < len && !bit(len - 1 - gr) {
                gr += 1;
            }
            let mut inner: [u8; 64] = [0; 64];
            let mut ni = 0;
            let mut i = g0;
            while i < len - gr {
                if bit(i) {
                    i += 1;
                    continue;
                }
                let start = i;
                while !bit(i) {
                    i += 1;
                }
                inner[ni] = (i - start) as u8;
                ni += 1;
            }
            if ni == 0 {
                continue; // one run: already in its place
            }
            let inner = &mut inner[..ni];
            inner.sort_unstable_by(|a, b| b.cmp(a));
            let nmarked = mk.count_ones() as usize;
            // rebuild
            let mut nm = marked & !t.mask;
            let mut pos = g0;
            let first = nmarked - ni;
            for _ in 0..first {
                nm |= 1 << t.edges[pos];
                pos += 1;
            }
            for &g in inner.iter() {
                pos += g as usize;
                nm |= 1 << t.edges[pos];
                pos += 1;
            }
            debug_assert_eq!(pos + gr, len);
            let dirs = if back == 0 { t.fwd } else { !t.fwd };
            let nmk = nm & t.mask;
            dir = (dir & !t.mask) | (dirs & nmk);
            marked = nm;
        }
        (marked, dir)
    }
}

/// The maximal paths of at least 4 edges whose inner vertices have degree 2 and whose ends do
/// not (whole cycles are left out).
fn threads(g: &Graph) -> Vec<Thread> {
    let adj = g.adjacency();
    let mut out = Vec::new();
    let mut used = vec![false; g.edges.len()];
    for start in 0..g.vertex_count() {
        if adj[start].len() == 2 {
            continue;
        }
        for &first in &adj[start] {
            let e0 = g.edge(start, first).unwrap();
            if used[e0] {
                continue;
            }
            let mut verts = vec![start, first];
            while adj[*verts.last().unwrap()].len() == 2 {
                let v = *verts.last().unwrap();
                let prev = verts[verts.len() - 2];
                let next = if adj[v][0] == prev {
                    adj[v][1]
                } else {
                    adj[v][0]
                };
                verts.push(next);
            }
            let mut t = Thread {
                edges: vec![],
                mask: 0,
                fwd: 0,
            };
            for w in verts.windows(2) {
                let e = g.edge(w[0], w[1]).unwrap();
                used[e] = true;
                t.edges.push(e as u8);
                t.mask |= 1 << e;
                if w[0] > w[1] {
                    t.fwd |= 1 << e;
                }
            }
            if t.edges.len() >= 4 {
                out.push(t);
            }
        }
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Quiet,
    Death,
    Complete,
}

/// Vertex permutations that keep the edges and map cells onto cells, as edge maps; the identity
/// first, at most [`MAX_SYMS`] of them.
fn automorphisms(g: &Graph, b: &Board) -> Vec<Sym> {
    let n = g.vertex_count();
    let adj = g.adjacency();
    let deg: Vec<usize> = adj.iter().map(|l| l.len()).collect();
    // vertices in BFS order so each new vertex has an assigned neighbour when possible
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for s in 0..n {
        if seen[s] {
            continue;
        }
        seen[s] = true;
        order.push(s);
        let mut i = order.len() - 1;
        while i < order.len() {
            let v = order[i];
            for &w in &adj[v] {
                if !seen[w] {
                    seen[w] = true;
                    order.push(w);
                }
            }
            i += 1;
        }
    }
    // number of cells through each vertex, as an extra invariant
    let mut vcells = vec![0usize; n];
    for cell in &g.cells {
        for &v in cell {
            vcells[v] += 1;
        }
    }
    let cell_masks: Vec<u64> = b.cells.iter().map(|c| c.0).collect();
    let mut out = Vec::new();
    let mut img = vec![usize::MAX; n];
    let mut used = vec![false; n];
    struct Ctx<'a> {
        g: &'a Graph,
        b: &'a Board,
        adj: &'a [Vec<usize>],
        deg: &'a [usize],
        vcells: &'a [usize],
        order: &'a [usize],
        cell_masks: &'a [u64],
    }
    fn rec(c: &Ctx, i: usize, img: &mut [usize], used: &mut [bool], out: &mut Vec<Sym>) {
        if out.len() >= MAX_SYMS {
            return;
        }
        if i == c.order.len() {
            let mut dst = vec![0u8; c.b.m];
            let mut flip = 0u64;
            for (e, &(a, bb)) in c.g.edges.iter().enumerate() {
                let (x, y) = (img[a], img[bb]);
                let Some(t) = c.g.edge(x, y) else { return };
                dst[e] = t as u8;
                let forward = a < bb;
                if forward != (x < y) {
                    flip |= 1 << e;
                }
            }
            for &cm in c.cell_masks {
                let mut im = 0u64;
                let mut bits = cm;
                while bits != 0 {
                    let e = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    im |= 1 << dst[e];
                }
                if !c.cell_masks.contains(&im) {
                    return;
                }
            }
            out.push(Sym { dst, flip });
            return;
        }
        let v = c.order[i];
        for w in 0..img.len() {
            if used[w] || c.deg[w] != c.deg[v] || c.vcells[w] != c.vcells[v] {
                continue;
            }
            // adjacency with every assigned vertex must agree
            let ok = c.order[..i].iter().all(|&u| {
                let a = c.adj[v].binary_search(&u).is_ok();
                let bb = c.adj[w].binary_search(&img[u]).is_ok();
                a == bb
            });
            if !ok {
                continue;
            }
            img[v] = w;
            used[w] = true;
            rec(c, i + 1, img, used, out);
            used[w] = false;
            img[v] = usize::MAX;
        }
    }
    let ctx = Ctx {
        g,
        b,
        adj: &adj,
        deg: &deg,
        vcells: &vcells,
        order: &order,
        cell_masks: &cell_masks,
    };
    // the identity first
    let id = Sym {
        dst: (0..b.m as u8).collect(),
        flip: 0,
    };
    out.push(id);
    rec(&ctx, 0, &mut img, &mut used, &mut out);
    // drop the identity found again by the search
    let mut seen_id = false;
    out.retain(|s| {
        let is_id = s.flip == 0 && s.dst.iter().enumerate().all(|(e, &t)| t as usize == e);
        if is_id {
            if seen_id {
                return false;
            }
            seen_id = true;
        }
        true
    });
    out
}
