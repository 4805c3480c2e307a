//! A position of a board game by rules drawn for a paper (SVG or PNG). A grid board is drawn
//! as its squares, each shaded by its state and lettered with the state's initial (the first
//! state, the start, is left blank as in `show`); a graph board is laid out as the Game of
//! Cycles pictures are and its vertices shaded and lettered the same way. A legend names the
//! states. Placement games are drawn the same way, with their pieces as the states. A game on
//! the edges of a graph ([`EdgeBoard`]) draws its vertices blank and each edge in the shade of
//! its state, a marked one with an arrowhead at the vertex it points to.
use crate::engine::cycles::picture::layout;
use crate::engine::graph::Graph;
use crate::engine::plot::Drawing;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

pub(crate) const W: u32 = 760;
pub(crate) const H: u32 = 560;
/// the drawing's square, left of the legend
pub(crate) const SIDE: f64 = 480.0;
pub(crate) const TOP: f64 = 50.0;
pub(crate) const LEFT: f64 = 30.0;
pub(crate) const LEGEND_X: i32 = 560;

/// The shade of each state, the start state white: as many as a picture can tell apart.
pub const SHADES: [RGBColor; 6] = [
    RGBColor(0xff, 0xff, 0xff),
    RGBColor(0x8e, 0xb8, 0xe5),
    RGBColor(0xf6, 0xd9, 0x8b),
    RGBColor(0xe8, 0x8e, 0x84),
    RGBColor(0xa8, 0xd8, 0x9a),
    RGBColor(0xc9, 0xa8, 0xe0),
];

/// What to draw: the board's cells (names and neighbours), its rows and columns when it is a
/// grid, the state names with the letter drawn for each, and the state of each cell.
pub struct Board<'a> {
    pub names: &'a [String],
    pub adj: &'a [Vec<usize>],
    pub grid: Option<(usize, usize)>,
    pub states: &'a [String],
    pub letters: &'a [String],
    pub cells: &'a [u8],
}

/// Draw the position to `path` (.svg or .png) under `title`.
pub fn picture(b: &Board, title: &str, path: &str) -> Result<(), String> {
    picture_in(b, &SHADES, title, path)
}

/// Draw the position with a shade of the caller's for each state (a partizan game's blue
/// Left and red Right pieces).
pub fn picture_in(b: &Board, shades: &[RGBColor], title: &str, path: &str) -> Result<(), String> {
    shades_for(b.states.len(), shades, path)?;
    crate::engine::plot::save(&(b, title, shades), (W, H), path)
}

/// Refuses more states than the shades tell apart.
fn shades_for(states: usize, shades: &[RGBColor], path: &str) -> Result<(), String> {
    if states > shades.len() {
        return Err(format!(
            "cannot draw {path}: a picture tells apart at most {} states, this board has {states}",
            shades.len(),
        ));
    }
    Ok(())
}

/// A position of a game on the edges of a graph: the vertices' names, each edge's (tail, head)
/// as it points (as the graph stores it when unmarked), the states with the letter drawn for
/// each, and the state of each edge.
pub struct EdgeBoard<'a> {
    pub names: &'a [String],
    pub arcs: &'a [(usize, usize)],
    pub states: &'a [String],
    pub letters: &'a [String],
    pub cells: &'a [u8],
}

/// Draw a position on edges to `path` (.svg or .png) under `title`.
pub fn edge_picture(b: &EdgeBoard, title: &str, path: &str) -> Result<(), String> {
    shades_for(b.states.len(), &SHADES, path)?;
    crate::engine::plot::save(&(b, title), (W, H), path)
}

impl Drawing for (&EdgeBoard<'_>, &str) {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let (b, title) = *self;
        let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
        head(root, title)?;
        let pos = vertex_positions(b.names, b.arcs)?;
        for (&(t, h), &s) in b.arcs.iter().zip(b.cells) {
            let (p, q) = (pos[t], pos[h]);
            if s == 0 {
                let grey = RGBColor(0x99, 0x99, 0x99).stroke_width(2);
                root.draw(&PathElement::new(vec![p, q], grey)).map_err(e)?;
                continue;
            }
            let colour = SHADES[s as usize];
            root.draw(&PathElement::new(vec![p, q], colour.stroke_width(5)))
                .map_err(e)?;
            // an arrowhead touching the head's circle
            let (dx, dy) = ((q.0 - p.0) as f64, (q.1 - p.1) as f64);
            let len = dx.hypot(dy).max(1.0);
            let (ux, uy) = (dx / len, dy / len);
            let tip = (q.0 as f64 - ux * 12.0, q.1 as f64 - uy * 12.0);
            let at = |back: f64, side: f64| {
                (
                    (tip.0 - ux * back - uy * side) as i32,
                    (tip.1 - uy * back + ux * side) as i32,
                )
            };
            let arrow = vec![at(0.0, 0.0), at(18.0, 8.0), at(18.0, -8.0)];
            root.draw(&Polygon::new(arrow, colour.filled()))
                .map_err(e)?;
            let mid = ((p.0 + q.0) / 2 + 10, (p.1 + q.1) / 2 - 10);
            root.draw_text(&b.letters[s as usize], &centred(13.0), mid)
                .map_err(e)?;
        }
        for (v, name) in b.names.iter().enumerate() {
            root.draw(&Circle::new(pos[v], 12, WHITE.filled()))
                .map_err(e)?;
            root.draw(&Circle::new(pos[v], 12, BLACK.stroke_width(1)))
                .map_err(e)?;
            root.draw_text(name, &centred(13.0), pos[v]).map_err(e)?;
        }
        legend(root, b.states, b.letters, b.cells, &SHADES)
    }
}

impl Drawing for (&Board<'_>, &str, &[RGBColor]) {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        draw(root, self.0, self.1, self.2)
    }
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    b: &Board,
    title: &str,
    shades: &[RGBColor],
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    head(root, title)?;
    match b.grid {
        Some((rows, cols)) => {
            let side = (SIDE / rows.max(cols).max(1) as f64).floor();
            let text = centred((side * 0.45).clamp(8.0, 40.0));
            for (i, &s) in b.cells.iter().enumerate() {
                let (x, y) = (
                    (LEFT + side * (i % cols) as f64) as i32,
                    (TOP + side * (i / cols) as f64) as i32,
                );
                let corners = [(x, y), (x + side as i32, y + side as i32)];
                root.draw(&Rectangle::new(corners, shades[s as usize].filled()))
                    .map_err(e)?;
                root.draw(&Rectangle::new(corners, BLACK.stroke_width(1)))
                    .map_err(e)?;
                if s != 0 {
                    let mid = (x + side as i32 / 2, y + side as i32 / 2);
                    root.draw_text(&b.letters[s as usize], &text, mid)
                        .map_err(e)?;
                }
            }
        }
        None => {
            let edges: Vec<(usize, usize)> = (0..b.adj.len())
                .flat_map(|v| {
                    b.adj[v]
                        .iter()
                        .filter(move |&&w| v < w)
                        .map(move |&w| (v, w))
                })
                .collect();
            let pos = vertex_positions(b.names, &edges)?;
            for &(v, w) in &edges {
                root.draw(&PathElement::new(
                    vec![pos[v], pos[w]],
                    RGBColor(0x66, 0x66, 0x66).stroke_width(2),
                ))
                .map_err(e)?;
            }
            let text = centred(13.0);
            for (v, &s) in b.cells.iter().enumerate() {
                root.draw(&Circle::new(pos[v], 17, shades[s as usize].filled()))
                    .map_err(e)?;
                root.draw(&Circle::new(pos[v], 17, BLACK.stroke_width(1)))
                    .map_err(e)?;
                root.draw_text(&b.names[v], &text, pos[v]).map_err(e)?;
                if s != 0 {
                    let at = (pos[v].0 + 20, pos[v].1 - 18);
                    root.draw_text(&b.letters[s as usize], &text, at)
                        .map_err(e)?;
                }
            }
        }
    }
    legend(root, b.states, b.letters, b.cells, shades)
}

/// A white page with the title.
pub(crate) fn head<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let font = ("sans-serif", 17).into_font();
    root.draw_text(title, &font.color(&BLACK), (LEFT as i32, 14))
        .map_err(e)
}

/// Black text of this size centred on its point.
pub(crate) fn centred(size: f64) -> TextStyle<'static> {
    ("sans-serif", size)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Center))
}

/// Where the vertices of a graph go on the page, laid out as the Game of Cycles draws it.
fn vertex_positions(names: &[String], edges: &[(usize, usize)]) -> Result<Vec<(i32, i32)>, String> {
    let g = Graph::new(names.to_vec(), edges).map_err(|x| x.to_string())?;
    Ok(layout(&g)
        .iter()
        .map(|&(x, y)| {
            (
                (LEFT + 30.0 + x * (SIDE - 60.0)) as i32,
                (TOP + 30.0 + y * (SIDE - 60.0)) as i32,
            )
        })
        .collect())
}

/// The legend: one swatch per state, with its letter (none for the start state) and how many
/// cells are in it.
pub(crate) fn legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    states: &[String],
    letters: &[String],
    cells: &[u8],
    shades: &[RGBColor],
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let small = ("sans-serif", 14).into_font();
    let mut y = TOP as i32 + 10;
    for (s, name) in states.iter().enumerate() {
        let corners = [(LEGEND_X, y - 11), (LEGEND_X + 22, y + 11)];
        root.draw(&Rectangle::new(corners, shades[s].filled()))
            .map_err(e)?;
        root.draw(&Rectangle::new(corners, BLACK.stroke_width(1)))
            .map_err(e)?;
        root.draw_text(&letters[s], &centred(13.0), (LEGEND_X + 11, y))
            .map_err(e)?;
        let count = cells.iter().filter(|&&c| c as usize == s).count();
        root.draw_text(
            &format!("{name} ({count})"),
            &small.color(&BLACK),
            (LEGEND_X + 32, y - 8),
        )
        .map_err(e)?;
        y += 32;
    }
    Ok(())
}
