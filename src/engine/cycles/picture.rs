//! A Game of Cycles position drawn for a paper (SVG or PNG): the cells shaded (a completed cell
//! in gold), marked edges as arrows, and the sink/source rule made visible — an edge with one
//! legal direction left gets an open arrow, an edge that can no longer be marked is dotted, and
//! a vertex whose last free edge is forced (its marked edges all point in, or all out) is
//! filled orange. A legend names what the picture uses.
//!
//! Layout: a tree is drawn radially from its centre; a board with cells has its outer boundary
//! on a circle, and the remaining vertices placed by a force-directed relaxation.
use super::{Cycles, Position};
use crate::engine::graph::Graph;
use crate::engine::plot::Drawing;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::VecDeque;

const W: u32 = 760;
const H: u32 = 560;
/// the drawing's square, left of the legend
const SIDE: f64 = 500.0;
const TOP: f64 = 44.0;
const LEFT: f64 = 20.0;
const LEGEND_X: i32 = 545;

pub const CELL: RGBColor = RGBColor(0xdb, 0xe8, 0xf6);
pub const COMPLETE: RGBColor = RGBColor(0xf6, 0xd9, 0x8b);
pub const MARKED: RGBColor = RGBColor(0x11, 0x11, 0x11);
pub const FREE: RGBColor = RGBColor(0x99, 0x99, 0x99);
pub const ONE_WAY: RGBColor = RGBColor(0xe6, 0x7e, 0x22);
pub const DEAD: RGBColor = RGBColor(0xc0, 0x39, 0x2b);
pub const NEVER: RGBColor = RGBColor(0xcc, 0xcc, 0xcc);
pub const FORCED: RGBColor = RGBColor(0xf5, 0xa6, 0x23);

/// How an edge is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EdgeKind {
    /// marked: an arrow from the first vertex to the second
    Marked(usize, usize),
    /// unmarked, both directions legal
    Free,
    /// unmarked, only this direction is legal
    OneWay(usize, usize),
    /// unmarked and markable, but neither direction is legal now
    Dead,
    /// at a leaf: never markable
    Never,
}

/// What the picture shows, also used by the tests: each edge's kind, the vertices whose last
/// edge is forced, and which cells are complete.
pub struct Marks {
    pub edges: Vec<EdgeKind>,
    pub forced: Vec<bool>,
    pub complete: Vec<bool>,
}

impl Drawing for (&Cycles, &Position, &str) {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        self.0.draw(root, self.1, self.2)
    }
}

impl Cycles {
    /// The kinds of edges, forced vertices and complete cells of position `p`.
    pub fn marks(&self, p: &Position) -> Marks {
        let g = &self.graph;
        let b = &*self.board;
        let moves = self.moves(p);
        let edges = (0..g.edges.len())
            .map(|e| {
                if let Some((u, v)) = p.arrow(g, e) {
                    return EdgeKind::Marked(u, v);
                }
                if b.markable >> e & 1 == 0 {
                    return EdgeKind::Never;
                }
                let legal: Vec<_> = moves.iter().filter(|m| m.edge == e).collect();
                match legal.as_slice() {
                    [] => EdgeKind::Dead,
                    [m] => EdgeKind::OneWay(m.from, m.to),
                    _ => EdgeKind::Free,
                }
            })
            .collect();
        let forced = (0..g.vertex_count())
            .map(|v| {
                let free = b.inc[v] & b.markable & !p.marked;
                let (ins, outs) = (
                    b.in_edges(v, p.marked, p.dir),
                    b.out_edges(v, p.marked, p.dir),
                );
                free.count_ones() == 1 && (ins == 0) != (outs == 0)
            })
            .collect();
        let complete = (0..b.cells.len())
            .map(|c| b.cell_complete(c, p.marked, p.dir))
            .collect();
        Marks {
            edges,
            forced,
            complete,
        }
    }

    /// Draw position `p` to `path` (.svg or .png) under `title`.
    pub fn picture(&self, p: &Position, title: &str, path: &str) -> Result<(), String> {
        crate::engine::plot::save(&(self, p, title), (W, H), path)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        p: &Position,
        title: &str,
    ) -> Result<(), String> {
        let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
        let g = &self.graph;
        let marks = self.marks(p);
        let pos: Vec<(i32, i32)> = layout(g)
            .iter()
            .map(|&(x, y)| {
                (
                    (LEFT + 40.0 + x * (SIDE - 80.0)) as i32,
                    (TOP + 40.0 + y * (SIDE - 80.0)) as i32,
                )
            })
            .collect();
        root.fill(&WHITE).map_err(e)?;
        let font = ("sans-serif", 17).into_font();
        let small = ("sans-serif", 13).into_font();
        root.draw_text(title, &font.color(&BLACK), (LEFT as i32, 12))
            .map_err(e)?;
        for (c, cell) in g.cells.iter().enumerate() {
            let colour = if marks.complete[c] { COMPLETE } else { CELL };
            // drawn a little inside its edges, so that neighbouring cells stay apart
            let k = cell.len() as f64;
            let (cx, cy) = cell.iter().fold((0.0, 0.0), |(x, y), &v| {
                (x + pos[v].0 as f64 / k, y + pos[v].1 as f64 / k)
            });
            let pts: Vec<(i32, i32)> = cell
                .iter()
                .map(|&v| {
                    let (x, y) = (pos[v].0 as f64, pos[v].1 as f64);
                    ((x + (cx - x) * 0.08) as i32, (y + (cy - y) * 0.08) as i32)
                })
                .collect();
            root.draw(&Polygon::new(pts, colour.filled())).map_err(e)?;
        }
        for (k, &(a, b)) in g.edges.iter().enumerate() {
            draw_edge(root, pos[a], pos[b], marks.edges[k], &pos)?;
        }
        let leaf = |v: usize| g.edges.iter().filter(|&&(a, b)| a == v || b == v).count() == 1;
        for (v, name) in g.names.iter().enumerate() {
            let (r, fill) = if leaf(v) {
                (5, NEVER)
            } else if marks.forced[v] {
                (15, FORCED)
            } else {
                (15, WHITE)
            };
            root.draw(&Circle::new(pos[v], r, fill.filled()))
                .map_err(e)?;
            root.draw(&Circle::new(pos[v], r, BLACK.stroke_width(1)))
                .map_err(e)?;
            let at = if leaf(v) {
                (pos[v].0 + 14, pos[v].1 - 12)
            } else {
                pos[v]
            };
            let centred = small
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Center));
            root.draw_text(name, &centred, at).map_err(e)?;
        }
        // the legend: only what the picture uses, with marked and free edges always
        let has = |f: &dyn Fn(&EdgeKind) -> bool| marks.edges.iter().any(f);
        let mut legend: Vec<(Option<EdgeKind>, Option<RGBColor>, &str)> = vec![
            (Some(EdgeKind::Marked(0, 1)), None, "marked edge"),
            (Some(EdgeKind::Free), None, "unmarked, either way"),
        ];
        if has(&|k| matches!(k, EdgeKind::OneWay(..))) {
            legend.push((Some(EdgeKind::OneWay(0, 1)), None, "only this way is legal"));
        }
        if has(&|k| *k == EdgeKind::Dead) {
            legend.push((Some(EdgeKind::Dead), None, "no legal direction left"));
        }
        if has(&|k| *k == EdgeKind::Never) {
            legend.push((Some(EdgeKind::Never), None, "at a leaf: never markable"));
        }
        if marks.forced.iter().any(|&f| f) {
            legend.push((None, Some(FORCED), "last edge forced: the others"));
            legend.push((None, None, "all point in, or all out"));
        }
        if marks.complete.iter().any(|&c| !c) {
            legend.push((None, Some(CELL), "cycle cell"));
        }
        if marks.complete.iter().any(|&c| c) {
            legend.push((None, Some(COMPLETE), "completed cell"));
        }
        let mut y = TOP as i32 + 10;
        for (kind, fill, text) in legend {
            let (x0, x1) = (LEGEND_X, LEGEND_X + 36);
            match (kind, fill) {
                (Some(k), _) => draw_edge(root, (x0, y), (x1, y), k, &[(x0, y), (x1, y)])?,
                (None, Some(c)) => root
                    .draw(&Rectangle::new(
                        [(x0 + 4, y - 9), (x1 - 4, y + 9)],
                        c.filled(),
                    ))
                    .map_err(e)?,
                (None, None) => y -= 12,
            }
            root.draw_text(text, &small.color(&BLACK), (x1 + 8, y - 7))
                .map_err(e)?;
            y += 30;
        }
        Ok(())
    }
}

/// One edge from `a` to `b` in the style of its kind (arrows point along the given vertices,
/// whose drawn positions are `pos`).
fn draw_edge<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    a: (i32, i32),
    b: (i32, i32),
    kind: EdgeKind,
    pos: &[(i32, i32)],
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let seg = |from: (f64, f64), to: (f64, f64), style: ShapeStyle| {
        root.draw(&PathElement::new(
            vec![(from.0 as i32, from.1 as i32), (to.0 as i32, to.1 as i32)],
            style,
        ))
    };
    let (fa, fb) = ((a.0 as f64, a.1 as f64), (b.0 as f64, b.1 as f64));
    let at = |t: f64| (fa.0 + t * (fb.0 - fa.0), fa.1 + t * (fb.1 - fa.1));
    // an arrowhead at the middle of the edge, pointing from pos[u] to pos[v]
    let head = |u: usize, v: usize, colour: RGBColor, filled: bool| {
        let (p, q) = (pos[u], pos[v]);
        let (dx, dy) = ((q.0 - p.0) as f64, (q.1 - p.1) as f64);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (ux, uy) = (dx / len, dy / len);
        let mid = ((p.0 + q.0) as f64 / 2.0, (p.1 + q.1) as f64 / 2.0);
        let tip = (mid.0 + 9.0 * ux, mid.1 + 9.0 * uy);
        let back = (mid.0 - 7.0 * ux, mid.1 - 7.0 * uy);
        let pts = vec![
            (tip.0 as i32, tip.1 as i32),
            ((back.0 - 7.0 * uy) as i32, (back.1 + 7.0 * ux) as i32),
            ((back.0 + 7.0 * uy) as i32, (back.1 - 7.0 * ux) as i32),
        ];
        if filled {
            root.draw(&Polygon::new(pts, colour.filled()))
        } else {
            let mut ring = pts.clone();
            ring.push(pts[0]);
            root.draw(&Polygon::new(pts, WHITE.filled()))?;
            root.draw(&PathElement::new(ring, colour.stroke_width(2)))
        }
    };
    match kind {
        EdgeKind::Marked(u, v) => {
            seg(fa, fb, MARKED.stroke_width(3)).map_err(e)?;
            head(u, v, MARKED, true).map_err(e)?;
        }
        EdgeKind::Free => seg(fa, fb, FREE.stroke_width(2)).map_err(e)?,
        EdgeKind::OneWay(u, v) => {
            seg(fa, fb, ONE_WAY.stroke_width(2)).map_err(e)?;
            head(u, v, ONE_WAY, false).map_err(e)?;
        }
        EdgeKind::Dead | EdgeKind::Never => {
            let (colour, n) = if kind == EdgeKind::Dead {
                (DEAD, 14)
            } else {
                (NEVER, 8)
            };
            for i in 0..n {
                let (t0, t1) = (i as f64 / n as f64, (i as f64 + 0.5) / n as f64);
                seg(at(t0), at(t1), colour.stroke_width(2)).map_err(e)?;
            }
        }
    }
    Ok(())
}

/// Vertex positions in the unit square.
pub(crate) fn layout(g: &Graph) -> Vec<(f64, f64)> {
    let n = g.vertex_count();
    let adj = g.adjacency();
    let mut pos: Vec<(f64, f64)>;
    let mut pinned = vec![false; n];
    if g.cells.is_empty() && g.edges.len() + 1 == n {
        pos = radial(&adj);
    } else {
        // start on a circle; the outer boundary (edges in exactly one cell), when it is one
        // cycle, stays there in its cyclic order
        let circle = |k: usize, of: usize| {
            let t = std::f64::consts::TAU * k as f64 / of as f64 - std::f64::consts::FRAC_PI_2;
            (t.cos(), t.sin())
        };
        pos = (0..n).map(|v| circle(v, n)).collect();
        if let Some(ring) = boundary(g) {
            for (k, &v) in ring.iter().enumerate() {
                pos[v] = circle(k, ring.len());
                pinned[v] = true;
            }
            for (v, p) in pos.iter_mut().enumerate() {
                if !pinned[v] {
                    *p = (p.0 * 0.3, p.1 * 0.3);
                }
            }
        }
        relax(&adj, &mut pos, &pinned);
    }
    normalise(&mut pos);
    pos
}

/// The cells' outer boundary as a cyclic list of vertices, if it is one simple cycle.
fn boundary(g: &Graph) -> Option<Vec<usize>> {
    let mut uses = vec![0; g.edges.len()];
    for c in &g.cells {
        for i in 0..c.len() {
            uses[g.edge(c[i], c[(i + 1) % c.len()])?] += 1;
        }
    }
    let mut nb: Vec<Vec<usize>> = vec![vec![]; g.vertex_count()];
    for (e, &(a, b)) in g.edges.iter().enumerate() {
        if uses[e] == 1 {
            nb[a].push(b);
            nb[b].push(a);
        }
    }
    if nb.iter().any(|x| !x.is_empty() && x.len() != 2) {
        return None;
    }
    let start = nb.iter().position(|x| !x.is_empty())?;
    let mut ring = vec![start];
    let (mut prev, mut cur) = (start, nb[start][0]);
    while cur != start {
        ring.push(cur);
        let next = if nb[cur][0] == prev {
            nb[cur][1]
        } else {
            nb[cur][0]
        };
        (prev, cur) = (cur, next);
    }
    let on_ring = nb.iter().filter(|x| !x.is_empty()).count();
    (ring.len() == on_ring).then_some(ring)
}

/// A tree drawn from its centre: each subtree gets an angle in proportion to its leaves, and
/// each vertex sits at the radius of its depth.
fn radial(adj: &[Vec<usize>]) -> Vec<(f64, f64)> {
    let n = adj.len();
    let bfs = |s: usize| {
        let mut d = vec![usize::MAX; n];
        let mut parent = vec![usize::MAX; n];
        let mut order = vec![s];
        d[s] = 0;
        let mut q = VecDeque::from([s]);
        while let Some(v) = q.pop_front() {
            for &w in &adj[v] {
                if d[w] == usize::MAX {
                    d[w] = d[v] + 1;
                    parent[w] = v;
                    order.push(w);
                    q.push_back(w);
                }
            }
        }
        (d, parent, order)
    };
    let centre = (0..n)
        .min_by_key(|&s| bfs(s).0.into_iter().max().unwrap_or(0))
        .unwrap_or(0);
    let (depth, parent, order) = bfs(centre);
    let mut leaves = vec![0usize; n];
    for &v in order.iter().rev() {
        leaves[v] = leaves[v].max(1);
        if parent[v] != usize::MAX {
            leaves[parent[v]] += leaves[v];
        }
    }
    let mut span = vec![(0.0, std::f64::consts::TAU); n];
    let mut pos = vec![(0.0, 0.0); n];
    for &v in &order {
        let (lo, hi) = span[v];
        if v != centre {
            let t = (lo + hi) / 2.0 - std::f64::consts::FRAC_PI_2;
            pos[v] = (depth[v] as f64 * t.cos(), depth[v] as f64 * t.sin());
        }
        let kids: Vec<usize> = adj[v].iter().copied().filter(|&w| parent[w] == v).collect();
        let total: usize = kids.iter().map(|&w| leaves[w]).sum();
        let mut at = lo;
        for w in kids {
            let share = (hi - lo) * leaves[w] as f64 / total.max(1) as f64;
            span[w] = (at, at + share);
            at += share;
        }
    }
    pos
}

/// Force-directed relaxation (Fruchterman–Reingold), pinned vertices held; deterministic.
fn relax(adj: &[Vec<usize>], pos: &mut [(f64, f64)], pinned: &[bool]) {
    let n = pos.len();
    let k = 1.6 / (n as f64).sqrt();
    let mut temp = 0.2;
    for _ in 0..400 {
        let mut shift = vec![(0.0, 0.0); n];
        for v in 0..n {
            for w in 0..n {
                if v == w {
                    continue;
                }
                let (dx, dy) = (pos[v].0 - pos[w].0, pos[v].1 - pos[w].1);
                let d = (dx * dx + dy * dy).sqrt().max(1e-3);
                let mut f = k * k / d;
                if adj[v].contains(&w) {
                    f -= d * d / k;
                }
                shift[v].0 += dx / d * f;
                shift[v].1 += dy / d * f;
            }
        }
        for v in (0..n).filter(|&v| !pinned[v]) {
            let (dx, dy) = shift[v];
            let d = (dx * dx + dy * dy).sqrt().max(1e-9);
            pos[v].0 += dx / d * d.min(temp);
            pos[v].1 += dy / d * d.min(temp);
        }
        temp *= 0.99;
    }
}

/// Scale into the unit square, keeping the aspect ratio.
fn normalise(pos: &mut [(f64, f64)]) {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in pos.iter() {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let s = (x1 - x0).max(y1 - y0).max(1e-9);
    let (cx, cy) = ((1.0 - (x1 - x0) / s) / 2.0, (1.0 - (y1 - y0) / s) / 2.0);
    for p in pos.iter_mut() {
        *p = (cx + (p.0 - x0) / s, cy + (p.1 - y0) / s);
    }
}
