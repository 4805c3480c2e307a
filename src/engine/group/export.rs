//! Pictures of groups: Cayley and Schreier graphs as Graphviz DOT (rendered to SVG or PNG by the
//! `dot` program), and walk matrices I + A + ... + A^n as PNG or SVG coloured as in the thesis'
//! Figures 2.6–2.10.
use super::cayley::{SchreierGraph, State};
use super::perm::Perm;
use crate::engine::control::num;
use crate::engine::{Ctl, Error, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// One colour per generator, in order (the "tab10" palette, readable on white).
pub const GEN_COLOURS: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#7f7f7f",
];

/// Colours of pattern cells: blank, then colour 1, 2, ...
const CELL_COLOURS: [&str; 9] = [
    "#ffffff", "#3b6fd8", "#d8443b", "#3bb04a", "#f0c020", "#9b59b6", "#e67e22", "#1abc9c",
    "#555555",
];

/// How a node is labelled: a word, or a pattern drawn as a small board.
pub enum NodeLabel {
    Text(String),
    /// colours of the cells, row by row, on a board of the given width
    Board {
        cells: Vec<u8>,
        cols: usize,
    },
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The width of the board a group's patterns are drawn on: the board of at least two rows and
/// two columns of which some generator shifts every row, every column, or one of them (the
/// slide puzzles' moves); failing that a square if `degree` is one, else one row.
pub fn board_cols(degree: usize, gens: &[Perm]) -> usize {
    let shifts = |b: &super::Board| -> Vec<Perm> {
        let lines = b.rows.max(b.cols);
        ["right", "left", "up", "down"]
            .iter()
            .flat_map(|d| {
                std::iter::once(None)
                    .chain((0..lines).map(Some))
                    .filter_map(move |l| b.shift(d, l))
            })
            .filter(|p| !p.is_identity())
            .collect()
    };
    let fits = (2..=degree / 2).find(|&cols| {
        degree.is_multiple_of(cols)
            && degree / cols >= 2
            && shifts(&super::Board {
                rows: degree / cols,
                cols,
                torus: false,
            })
            .iter()
            .any(|s| gens.contains(s))
    });
    let r = (degree as f64).sqrt().round() as usize;
    fits.unwrap_or(if r * r == degree { r } else { degree })
}

/// The undirected edges of the graph: one per pair joined by a generator (a generator and its
/// inverse give the same edge; an involution's two arrows are one edge), loops left out. Each
/// is (from, to, generator) with `from` at a distance no larger than `to`, and whether the
/// generator goes from `from` to `to` (`Some(true)`), the other way (`Some(false)`), or both
/// (`None`, an involution on this pair).
pub fn undirected_edges(g: &SchreierGraph, gens: &[usize]) -> Vec<(u32, u32, usize, Option<bool>)> {
    let mut seen: HashMap<(u32, u32, usize), usize> = HashMap::new();
    let mut out: Vec<(u32, u32, usize, Option<bool>)> = vec![];
    for v in 0..g.len() as u32 {
        for (k, &j) in gens.iter().enumerate() {
            let w = g.adj[v as usize * g.m + j];
            if w == v {
                continue;
            }
            let (a, b) = if (g.dist[v as usize], v) <= (g.dist[w as usize], w) {
                (v, w)
            } else {
                (w, v)
            };
            let forward = a == v;
            match seen.get(&(a, b, k)) {
                Some(&e) => {
                    if out[e].3 != Some(forward) {
                        out[e].3 = None;
                    }
                }
                None => {
                    seen.insert((a, b, k), out.len());
                    out.push((a, b, k, Some(forward)));
                }
            }
        }
    }
    out
}

/// The graph in DOT: undirected, one colour per generator with a legend, arrows only where a
/// generator is not its own inverse (pointing the generator's way), nodes layered by distance
/// from the start (`rank=same` per distance). `gens[k] = (name, move index)`.
pub fn dot(
    g: &SchreierGraph,
    labels: &[NodeLabel],
    gens: &[(String, usize)],
    title: &str,
) -> String {
    let idx: Vec<usize> = gens.iter().map(|(_, j)| *j).collect();
    let edges = undirected_edges(g, &idx);
    let mut out = String::from("graph cayley {\n");
    let has_boards = labels.iter().any(|l| matches!(l, NodeLabel::Board { .. }));
    writeln!(
        out,
        "  graph [rankdir=TB, ranksep=0.6, nodesep=0.15, labelloc=t, fontname=\"Helvetica\", fontsize=14];"
    )
    .unwrap();
    if has_boards {
        out.push_str("  node [shape=plaintext, margin=0, fontname=\"Helvetica\", fontsize=9];\n");
    } else {
        out.push_str("  node [shape=ellipse, style=filled, fillcolor=\"#f4f4f4\", color=\"#888888\", margin=\"0.03,0.02\", fontname=\"Helvetica\", fontsize=9];\n");
    }
    out.push_str("  edge [penwidth=1.3, arrowsize=0.6];\n");
    // legend and title as the graph label: no extra nodes or edges
    let mut legend = format!(
        "<<table border=\"0\" cellspacing=\"2\"><tr><td colspan=\"{}\"><b>{}</b></td></tr><tr>",
        gens.len().max(1),
        escape(title)
    );
    for (k, (name, _)) in gens.iter().enumerate() {
        let inv = edges.iter().filter(|e| e.2 == k).all(|e| e.3.is_none());
        write!(
            legend,
            "<td><font color=\"{}\"><b>━━{} {}</b></font></td>",
            GEN_COLOURS[k % GEN_COLOURS.len()],
            if inv { "" } else { "▶" },
            escape(name)
        )
        .unwrap();
    }
    legend.push_str("</tr></table>>");
    writeln!(out, "  label={legend};").unwrap();
    for (v, l) in labels.iter().enumerate() {
        match l {
            NodeLabel::Text(t) => {
                writeln!(out, "  n{v} [label=\"{}\"];", t.replace('"', "\\\"")).unwrap();
            }
            NodeLabel::Board { cells, cols } => {
                let mut t = String::from(
                    "<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"0\" color=\"#666666\">",
                );
                for row in cells.chunks((*cols).max(1)) {
                    t.push_str("<tr>");
                    for &c in row {
                        write!(
                            t,
                            "<td width=\"7\" height=\"7\" fixedsize=\"true\" bgcolor=\"{}\"></td>",
                            CELL_COLOURS[(c as usize).min(CELL_COLOURS.len() - 1)]
                        )
                        .unwrap();
                    }
                    t.push_str("</tr>");
                }
                t.push_str("</table>>");
                writeln!(out, "  n{v} [label={t}];").unwrap();
            }
        }
    }
    // one rank per distance from the start
    let depth = g.dist.iter().copied().max().unwrap_or(0);
    for d in 0..=depth {
        let ns: Vec<String> = (0..g.len())
            .filter(|&v| g.dist[v] == d)
            .map(|v| format!("n{v}"))
            .collect();
        writeln!(out, "  {{ rank=same; {}; }}", ns.join("; ")).unwrap();
    }
    for (a, b, k, dir) in &edges {
        let dir = match dir {
            None => "none",
            Some(true) => "forward",
            Some(false) => "back",
        };
        writeln!(
            out,
            "  n{a} -- n{b} [color=\"{}\", dir={dir}];",
            GEN_COLOURS[k % GEN_COLOURS.len()]
        )
        .unwrap();
    }
    out.push_str("}\n");
    out
}

/// A graph too large to draw element by element: one node per distance layer (with its size),
/// joined in a chain.
pub fn layers_dot(distribution: &[u64], title: &str) -> String {
    let mut out = String::from(
        "graph layers {\n  graph [rankdir=LR, labelloc=t, fontname=\"Helvetica\"];\n  node [shape=box, style=filled, fillcolor=\"#eef3fb\", fontname=\"Helvetica\", fontsize=10];\n",
    );
    writeln!(out, "  label=\"{}\";", title.replace('"', "\\\"")).unwrap();
    for (d, c) in distribution.iter().enumerate() {
        let s = if *c == 1 { "" } else { "s" };
        writeln!(out, "  d{d} [label=\"distance {d}\\n{c} element{s}\"];").unwrap();
    }
    for d in 1..distribution.len() {
        writeln!(out, "  d{} -- d{d};", d - 1).unwrap();
    }
    out.push_str("}\n");
    out
}

/// Render DOT text to `path` as `format` ("svg" or "png") with Graphviz's `dot` program.
pub fn render_dot(dot_text: &str, path: &str, format: &str) -> std::result::Result<(), String> {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let child = Command::new("dot")
        .arg(format!("-T{format}"))
        .arg("-o")
        .arg(path)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!(
                "drawing .{format} needs Graphviz's `dot` program, which is not installed; install it (Debian/Ubuntu: apt-get install graphviz, macOS: brew install graphviz) or export to .dot"
            ));
        }
        Err(e) => return Err(format!("cannot run Graphviz's `dot`: {e}")),
    };
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(dot_text.as_bytes())
        .map_err(|e| format!("cannot feed Graphviz's `dot`: {e}"))?;
    let out = child
        .wait_with_output()
        .map_err(|e| format!("Graphviz's `dot` failed: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "Graphviz's `dot` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(())
}

/// The permutation whose board state is `s` (see `cayley::act`: the state of P lists
/// P⁻¹(k) + 1 at point k).
pub fn perm_of_state(s: &[u8]) -> Perm {
    Perm::from_images(s.iter().map(|&x| x as u16 - 1).collect()).inverse()
}

/// The board state of the element P.
pub fn state_of_perm(p: &Perm, degree: usize) -> State {
    let inv = p.extended(degree).inverse();
    (0..degree).map(|k| inv.apply(k) as u8 + 1).collect()
}

/// An ordering of the elements of a Cayley graph by the left cosets gH of the subgroup H
/// generated by `sub`: H first (in breadth-first order from I), then each further coset gH with
/// g the first element (in breadth-first order) not yet placed, listed as g·h for h in H's
/// order. Returns the order (vertex numbers) and the first position of each coset.
pub fn coset_order(
    g: &SchreierGraph,
    sub: &[Perm],
    degree: usize,
    ctl: &Ctl,
) -> Result<(Vec<usize>, Vec<usize>)> {
    // H by breadth-first closure
    let id = Perm::identity(degree);
    let mut h: Vec<Perm> = vec![id.clone()];
    let mut seen: HashSet<Perm> = HashSet::from([id]);
    let mut steps: Vec<Perm> = vec![];
    for p in sub {
        let p = p.extended(degree);
        steps.push(p.inverse());
        steps.push(p);
    }
    let mut i = 0;
    while i < h.len() {
        if h.len() > g.len() {
            break;
        }
        for s in &steps {
            let q = h[i].then(s);
            if seen.insert(q.clone()) {
                h.push(q);
            }
        }
        i += 1;
    }
    if !g.len().is_multiple_of(h.len()) {
        return Err(Error::invalid(format!(
            "the subgroup has {} elements, which does not divide the group's {}: it is not a subgroup",
            num(h.len()),
            num(g.len())
        )));
    }
    let mut placed = vec![false; g.len()];
    let mut order = Vec::with_capacity(g.len());
    let mut starts = vec![];
    for v in 0..g.len() {
        if placed[v] {
            continue;
        }
        ctl.check()?;
        starts.push(order.len());
        let rep = perm_of_state(&g.states[v]);
        for x in &h {
            let s = state_of_perm(&rep.then(x), degree);
            let Some(&w) = g.index.get(&s) else {
                return Err(Error::invalid(
                    "the subgroup is not inside the group (one of its generators is not an element)",
                ));
            };
            if !placed[w as usize] {
                placed[w as usize] = true;
                order.push(w as usize);
            }
        }
    }
    Ok((order, starts))
}

/// Colours by number of hops, as in the thesis' walk figures: black 0, blue 1, teal 2,
/// green 3, yellow 4, pink 5, red 6, then a continuing palette; white where no walk reaches.
pub const HOP_COLOURS: [[u8; 3]; 14] = [
    [0, 0, 0],
    [31, 90, 220],
    [0, 150, 150],
    [40, 170, 60],
    [240, 210, 40],
    [240, 120, 190],
    [220, 30, 30],
    [240, 140, 20],
    [130, 60, 180],
    [140, 90, 50],
    [120, 120, 120],
    [80, 200, 230],
    [160, 200, 60],
    [90, 40, 90],
];

pub fn hop_colour(h: Option<u32>) -> [u8; 3] {
    h.map_or([255, 255, 255], |d| {
        HOP_COLOURS[d as usize % HOP_COLOURS.len()]
    })
}

/// Left and top margins of a walk picture, in pixels: the matrix's entry (i, j) covers the
/// pixels from (WALK_LEFT + j·cell, WALK_TOP + i·cell) when there are at most `size` elements.
pub const WALK_LEFT: u32 = 90;
pub const WALK_TOP: u32 = 56;
const WALK_LEGEND: u32 = 190;
const WALK_BOTTOM: u32 = 56;

/// The top-left pixel of the legend's colour swatch for `d` hops (16 pixels square), in a walk
/// picture whose matrix is `msize` pixels wide.
pub fn walk_swatch(msize: u32, d: u32) -> (u32, u32) {
    (WALK_LEFT + msize + 24, WALK_TOP + 22 + 22 * d)
}

/// What a walk picture shows.
pub struct WalkPicture<'a> {
    /// hops[i][j]: the least k ≤ n with a walk of length k from i to j, in picture order
    pub hops: &'a [Vec<Option<u32>>],
    pub n: u32,
    pub title: &'a str,
    /// a sentence on how rows and columns are ordered
    pub order_note: &'a str,
    /// (first position, name) of each coset block, when ordered by cosets
    pub blocks: &'a [(usize, String)],
    /// side of the matrix in pixels
    pub side: u32,
}

/// The default side of the matrix: a readable picture, at most 16 pixels an entry and never
/// more than 768 pixels (above that, each pixel covers a block of entries).
pub fn default_side(n: usize) -> u32 {
    let n = n.max(1) as u32;
    if n >= 768 {
        768
    } else {
        n * (768 / n).clamp(1, 16)
    }
}

/// Write the walk picture to `path` (.png or .svg).
pub fn walk_picture(p: &WalkPicture, path: &str) -> std::result::Result<(), String> {
    let n = p.hops.len();
    let side = p.side.max(1);
    let (cells, cell) = if n as u32 <= side {
        (n as u32, side / n.max(1) as u32)
    } else {
        (side, 1)
    };
    let msize = cells * cell;
    let w = WALK_LEFT + msize + WALK_LEGEND;
    let h = (WALK_TOP + msize + WALK_BOTTOM).max(WALK_TOP + 24 * (p.n + 3) + WALK_BOTTOM);
    crate::engine::plot::save(&(p, cells, cell), (w, h), path)
}

impl crate::engine::plot::Drawing for (&WalkPicture<'_>, u32, u32) {
    fn draw_on<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> std::result::Result<(), String> {
        draw_walk(root, self.0, self.1, self.2)
    }
}

fn draw_walk<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    p: &WalkPicture,
    cells: u32,
    cell: u32,
) -> std::result::Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let n = p.hops.len();
    let font = ("sans-serif", 18).into_font();
    let small = ("sans-serif", 13).into_font();
    root.draw_text(p.title, &font.color(&BLACK), (WALK_LEFT as i32, 14))
        .map_err(e)?;
    // the matrix: entry block [lo, hi) of rows/columns per picture cell
    let span = |k: u32| -> (usize, usize) {
        let lo = k as usize * n / cells as usize;
        let hi = ((k as usize + 1) * n / cells as usize).max(lo + 1);
        (lo, hi.min(n))
    };
    for r in 0..cells {
        let (r0, r1) = span(r);
        for c in 0..cells {
            let (c0, c1) = span(c);
            // a block is coloured if any of its entries is reached (the nonzero pattern of
            // the matrix, scaled down), by its fewest hops
            let near: Option<u32> = p.hops[r0..r1]
                .iter()
                .flat_map(|row| row[c0..c1].iter().flatten())
                .copied()
                .min();
            let col = hop_colour(near);
            let x = (WALK_LEFT + c * cell) as i32;
            let y = (WALK_TOP + r * cell) as i32;
            root.draw(&Rectangle::new(
                [(x, y), (x + cell as i32, y + cell as i32)],
                RGBColor(col[0], col[1], col[2]).filled(),
            ))
            .map_err(e)?;
        }
    }
    let msize = (cells * cell) as i32;
    let (x0, y0) = (WALK_LEFT as i32, WALK_TOP as i32);
    // coset blocks: grey lines and names
    let to_px = |k: usize| -> i32 { (k as u64 * msize as u64 / n.max(1) as u64) as i32 };
    let grey = RGBColor(150, 150, 150);
    for (k, (start, name)) in p.blocks.iter().enumerate() {
        let t = to_px(*start);
        if *start > 0 {
            root.draw(&PathElement::new(
                vec![(x0, y0 + t), (x0 + msize, y0 + t)],
                grey.stroke_width(1),
            ))
            .map_err(e)?;
            root.draw(&PathElement::new(
                vec![(x0 + t, y0), (x0 + t, y0 + msize)],
                grey.stroke_width(1),
            ))
            .map_err(e)?;
        }
        let end = p.blocks.get(k + 1).map_or(n, |b| b.0);
        let mid = (to_px(*start) + to_px(end)) / 2;
        if p.blocks.len() <= 32 {
            root.draw_text(name, &small.color(&BLACK), (6, y0 + mid - 7))
                .map_err(e)?;
        }
    }
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + msize, y0 + msize)],
        BLACK.stroke_width(1),
    ))
    .map_err(e)?;
    // legend
    let lx = x0 + msize + 24;
    debug_assert_eq!(walk_swatch(msize as u32, 0).0 as i32, lx);
    root.draw_text("hops", &small.color(&BLACK), (lx, y0))
        .map_err(e)?;
    for d in 0..=p.n {
        let y = y0 + 22 + 22 * d as i32;
        let c = hop_colour(Some(d));
        root.draw(&Rectangle::new(
            [(lx, y), (lx + 16, y + 16)],
            RGBColor(c[0], c[1], c[2]).filled(),
        ))
        .map_err(e)?;
        root.draw_text(&d.to_string(), &small.color(&BLACK), (lx + 24, y + 1))
            .map_err(e)?;
    }
    let y = y0 + 22 + 22 * (p.n as i32 + 1);
    root.draw(&Rectangle::new(
        [(lx, y), (lx + 16, y + 16)],
        BLACK.stroke_width(1),
    ))
    .map_err(e)?;
    root.draw_text(
        &format!("> {}", p.n),
        &small.color(&BLACK),
        (lx + 24, y + 1),
    )
    .map_err(e)?;
    // the element order, and the scale when a pixel covers several entries
    let mut note = p.order_note.to_string();
    if (n as u32) > cells {
        note.push_str(&format!(
            "; each pixel shows the nearest of up to {0}x{0} entries",
            n.div_ceil(cells as usize)
        ));
    }
    root.draw_text(&note, &small.color(&BLACK), (x0, y0 + msize + 14))
        .map_err(e)?;
    Ok(())
}
