//! Pictures of the built-in partizan positions, as text for `show` and drawn for `export`.
//! Domineering, Clobber and Toads and Frogs are drawn as the squares of their board, as board
//! games by rules are ([`board::picture`]), Left's pieces blue and Right's red. Hackenbush is
//! drawn as the familiar picture: a ground line, each vertex a dot above it at its distance
//! from the ground, each edge in its colour (blue Left's, red Right's, green either's).
use super::games::Colour;
use crate::engine::board::picture::{self as board, LEFT, LEGEND_X, SIDE, TOP};
use crate::engine::control::num;
use crate::engine::plot::Drawing;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The colours of Hackenbush edges, in the order of [`Colour`].
pub const EDGE_BLUE: RGBColor = RGBColor(0x1f, 0x5f, 0xc8);
pub const EDGE_RED: RGBColor = RGBColor(0xd6, 0x2d, 0x2d);
pub const EDGE_GREEN: RGBColor = RGBColor(0x2e, 0x9a, 0x3c);
/// The ground under a Hackenbush picture.
pub const GROUND: RGBColor = RGBColor(0x6b, 0x4f, 0x2a);
/// Domineering's filled squares.
pub const FILLED: RGBColor = RGBColor(0x9a, 0x9a, 0x9a);

/// A kind of square: its name in the legend, its letter in `show` and in the picture, its
/// shade. The first kind is the empty square, drawn white and blank.
pub struct Mark {
    pub name: &'static str,
    pub letter: &'static str,
    pub shade: RGBColor,
}

const EMPTY: Mark = Mark {
    name: "empty",
    letter: ".",
    shade: WHITE,
};

pub const DOMINEERING: &[Mark] = &[
    EMPTY,
    Mark {
        name: "filled",
        letter: "#",
        shade: FILLED,
    },
];
pub const CLOBBER: &[Mark] = &[
    EMPTY,
    Mark {
        name: "x, Left's",
        letter: "x",
        shade: board::SHADES[1],
    },
    Mark {
        name: "o, Right's",
        letter: "o",
        shade: board::SHADES[3],
    },
];
pub const TOADS_FROGS: &[Mark] = &[
    EMPTY,
    Mark {
        name: "toad, Left's",
        letter: "T",
        shade: board::SHADES[1],
    },
    Mark {
        name: "frog, Right's",
        letter: "F",
        shade: board::SHADES[3],
    },
];

/// The most squares a side of a drawn board holds: past it a square is a few pixels.
pub const MAX_SQUARES: usize = 100;
/// The most Hackenbush edges drawn.
pub const MAX_EDGES: usize = 1000;

/// What `show` and `export` draw of a position.
pub enum Sketch {
    /// Squares in rows, each the index of its kind in `marks`.
    Grid {
        rows: usize,
        cols: usize,
        marks: &'static [Mark],
        cells: Vec<u8>,
    },
    /// Hackenbush edges between vertices below 64, vertex 0 the ground.
    Hackenbush(Vec<(u32, u32, Colour)>),
}

impl Sketch {
    /// The text `show` prints: a grid row by row, the squares' letters apart by spaces; a
    /// Hackenbush picture an edge a line from the top down, `ground` for vertex 0.
    pub fn text(&self) -> String {
        match self {
            Sketch::Grid {
                rows,
                cols,
                marks,
                cells,
            } => {
                if rows * cols == 0 {
                    return "(no squares)".into();
                }
                cells
                    .chunks(*cols)
                    .map(|r| {
                        let row: Vec<&str> = r.iter().map(|&c| marks[c as usize].letter).collect();
                        row.join(" ")
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            }
            Sketch::Hackenbush(edges) => {
                if edges.is_empty() {
                    return "(no edges)".into();
                }
                let height = heights(edges);
                // the highest edges first; of those reaching as high, the higher-hung first
                let mut lines: Vec<((usize, usize, u32, u32), String)> = edges
                    .iter()
                    .map(|&(a, b, c)| {
                        let name = |v: u32| {
                            if v == 0 {
                                "ground".to_string()
                            } else {
                                v.to_string()
                            }
                        };
                        let colour = ["blue", "red", "green"][c as usize];
                        match (height[a as usize], height[b as usize]) {
                            (Some(x), Some(y)) => {
                                let (lo, hi) = if (x, a) <= (y, b) { (a, b) } else { (b, a) };
                                let key = (usize::MAX - x.max(y), usize::MAX - x.min(y), lo, hi);
                                (key, format!("{} - {}  {colour}", name(lo), name(hi)))
                            }
                            _ => (
                                (usize::MAX, usize::MAX, a.min(b), a.max(b)),
                                format!(
                                    "{} - {}  {colour} (not joined to the ground)",
                                    a.min(b),
                                    a.max(b)
                                ),
                            ),
                        }
                    })
                    .collect();
                lines.sort();
                lines
                    .into_iter()
                    .map(|(_, l)| l)
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        }
    }

    /// Draw the position to `path` (.svg or .png) under `title`.
    pub fn draw(&self, title: &str, path: &str) -> Result<(), String> {
        let title = short(title);
        match self {
            Sketch::Grid {
                rows,
                cols,
                marks,
                cells,
            } => {
                if (*rows).max(*cols) > MAX_SQUARES {
                    return Err(format!(
                        "cannot draw {path}: a board of {rows}×{cols} squares is too long to \
                         draw (at most {MAX_SQUARES} a side); show(P) draws it as text"
                    ));
                }
                let states: Vec<String> = marks.iter().map(|m| m.name.to_string()).collect();
                let letters: Vec<String> = marks.iter().map(|m| m.letter.to_string()).collect();
                let shades: Vec<RGBColor> = marks.iter().map(|m| m.shade).collect();
                let b = board::Board {
                    names: &[],
                    adj: &[],
                    grid: Some((*rows, *cols)),
                    states: &states,
                    letters: &letters,
                    cells,
                };
                board::picture_in(&b, &shades, &title, path)
            }
            Sketch::Hackenbush(edges) => {
                if edges.len() > MAX_EDGES {
                    return Err(format!(
                        "cannot draw {path}: the picture has {} edges, more than the {} a \
                         drawing holds; show(P) lists them",
                        num(edges.len()),
                        num(MAX_EDGES)
                    ));
                }
                crate::engine::plot::save(
                    &Hackenbush {
                        edges,
                        title: &title,
                    },
                    (board::W, board::H),
                    path,
                )
            }
        }
    }
}

/// A title that fits above the drawing.
fn short(title: &str) -> String {
    const MOST: usize = 70;
    if title.chars().count() <= MOST {
        title.to_string()
    } else {
        let cut: String = title.chars().take(MOST - 1).collect();
        format!("{cut}…")
    }
}

/// Each vertex's height: the fewest edges from the ground to it, `None` when no path joins
/// it to the ground.
fn heights(edges: &[(u32, u32, Colour)]) -> Vec<Option<usize>> {
    let n = edges
        .iter()
        .map(|e| e.0.max(e.1) as usize + 1)
        .max()
        .unwrap_or(1);
    let mut next_to = vec![vec![false; n]; n];
    for &(a, b, _) in edges {
        next_to[a as usize][b as usize] = true;
        next_to[b as usize][a as usize] = true;
    }
    let mut height = vec![None; n];
    height[0] = Some(0);
    let mut queue = std::collections::VecDeque::from([0]);
    while let Some(v) = queue.pop_front() {
        let h = height[v].map(|h| h + 1);
        for w in 0..n {
            if next_to[v][w] && height[w].is_none() {
                height[w] = h;
                queue.push_back(w);
            }
        }
    }
    height
}

/// Where each vertex joined to the ground goes across the drawing, from 0 to 1: the vertices
/// one edge up spread evenly, each higher one above the mean of its neighbours one lower, at
/// least a vertex's room apart from the others at its height.
fn across(edges: &[(u32, u32, Colour)], height: &[Option<usize>]) -> Vec<f64> {
    let top = height.iter().flatten().copied().max().unwrap_or(0);
    let mut levels: Vec<Vec<usize>> = vec![vec![]; top + 1];
    for (v, h) in height.iter().enumerate() {
        if let Some(h) = h {
            levels[*h].push(v);
        }
    }
    let widest = levels.iter().skip(1).map(Vec::len).max().unwrap_or(1);
    let room = 1.0 / widest as f64;
    let mut x = vec![0.5; height.len()];
    for (h, level) in levels.iter().enumerate().skip(1) {
        let want = |v: usize| {
            let below: Vec<f64> = edges
                .iter()
                .filter_map(|&(a, b, _)| match (a as usize, b as usize) {
                    (a, b) if a == v && height[b] == Some(h - 1) => Some(x[b]),
                    (a, b) if b == v && height[a] == Some(h - 1) => Some(x[a]),
                    _ => None,
                })
                .collect();
            below.iter().sum::<f64>() / below.len().max(1) as f64
        };
        let mut placed: Vec<(f64, usize)> = if h == 1 {
            let n = level.len() as f64;
            (0..level.len())
                .map(|i| ((i as f64 + 0.5) / n, level[i]))
                .collect()
        } else {
            level.iter().map(|&v| (want(v), v)).collect()
        };
        placed.sort_by(|p, q| p.0.total_cmp(&q.0));
        for i in 1..placed.len() {
            placed[i].0 = placed[i].0.max(placed[i - 1].0 + room);
        }
        if let (Some(first), Some(last)) = (placed.first().copied(), placed.last().copied()) {
            let shift = (last.0 - (1.0 - room / 2.0)).max(0.0);
            let shift = shift - (room / 2.0 - (first.0 - shift)).max(0.0);
            for p in &mut placed {
                x[p.1] = p.0 - shift;
            }
        }
    }
    x
}

struct Hackenbush<'a> {
    edges: &'a [(u32, u32, Colour)],
    title: &'a str,
}

impl Drawing for Hackenbush<'_> {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
        board::head(root, self.title)?;
        let height = heights(self.edges);
        let x = across(self.edges, &height);
        let top = height.iter().flatten().copied().max().unwrap_or(0).max(1);
        let ground = TOP + SIDE - 10.0;
        let step = ((SIDE - 40.0) / top as f64).min(90.0);
        let at = |v: usize| -> (f64, f64) {
            let h = height[v].unwrap_or(0) as f64;
            (LEFT + 20.0 + x[v] * (SIDE - 40.0), ground - h * step)
        };
        let pt = |p: (f64, f64)| (p.0.round() as i32, p.1.round() as i32);
        let ground_line = vec![pt((LEFT, ground)), pt((LEFT + SIDE, ground))];
        root.draw(&PathElement::new(ground_line, GROUND.stroke_width(6)))
            .map_err(e)?;
        let colours = [EDGE_BLUE, EDGE_RED, EDGE_GREEN];
        let grounded: Vec<&(u32, u32, Colour)> = self
            .edges
            .iter()
            .filter(|e| height[e.0 as usize].is_some() && height[e.1 as usize].is_some())
            .collect();
        // edges between the same two vertices are bowed apart
        let mut pairs: Vec<(u32, u32)> = grounded
            .iter()
            .map(|e| (e.0.min(e.1), e.0.max(e.1)))
            .collect();
        pairs.sort();
        for (i, &&(a, b, c)) in grounded.iter().enumerate() {
            let pair = (a.min(b), a.max(b));
            let first = pairs.partition_point(|p| *p < pair);
            let many = pairs.partition_point(|p| *p <= pair) - first;
            let nth = grounded[..i]
                .iter()
                .filter(|e| (e.0.min(e.1), e.0.max(e.1)) == pair)
                .count();
            let gap = (16.0f64).min(120.0 / many as f64);
            let offset = (nth as f64 - (many as f64 - 1.0) / 2.0) * gap;
            let (lo, hi) = (pair.0 as usize, pair.1 as usize);
            let q = at(hi);
            let path = if lo == hi {
                // a loop: a petal out to the side of its vertex, right and left in turn,
                // the later ones larger
                let p = at(lo);
                let r = 10.0 + 5.0 * (nth / 2) as f64;
                let (dx, dy) = (if nth % 2 == 0 { 0.8 } else { -0.8 }, -0.6);
                [(0.0, 0.0), (1.6, 1.0), (2.4, 0.0), (1.6, -1.0), (0.0, 0.0)]
                    .map(|(a, b)| pt((p.0 + r * (a * dx - b * dy), p.1 + r * (a * dy + b * dx))))
                    .to_vec()
            } else if lo == 0 {
                // from the ground below its upper end
                vec![pt((q.0 + offset, ground)), pt(q)]
            } else {
                let p = at(lo);
                let (dx, dy) = (q.0 - p.0, q.1 - p.1);
                let len = dx.hypot(dy).max(1.0);
                let mid = (
                    (p.0 + q.0) / 2.0 - dy / len * offset,
                    (p.1 + q.1) / 2.0 + dx / len * offset,
                );
                if offset == 0.0 {
                    vec![pt(p), pt(q)]
                } else {
                    vec![pt(p), pt(mid), pt(q)]
                }
            };
            let colour = colours[c as usize];
            root.draw(&PathElement::new(path, colour.stroke_width(4)))
                .map_err(e)?;
        }
        let label = ("sans-serif", 12).into_font().color(&BLACK);
        for (v, h) in height.iter().enumerate().skip(1) {
            if h.is_some() {
                let p = pt(at(v));
                root.draw(&Circle::new(p, 5, BLACK.filled())).map_err(e)?;
                root.draw_text(&v.to_string(), &label, (p.0 + 8, p.1 - 16))
                    .map_err(e)?;
            }
        }
        let states: Vec<String> = ["blue, Left's", "red, Right's", "green, either's"]
            .map(String::from)
            .to_vec();
        let letters: Vec<String> = ["B", "R", "G"].map(String::from).to_vec();
        let cells: Vec<u8> = grounded.iter().map(|e| e.2 as u8).collect();
        board::legend(root, &states, &letters, &cells, &colours)?;
        let fallen = self.edges.len() - grounded.len();
        if fallen > 0 {
            let note = format!(
                "{fallen} edge{} not joined to the ground",
                if fallen == 1 { "" } else { "s" }
            );
            let small = ("sans-serif", 13).into_font().color(&BLACK);
            root.draw_text(&note, &small, (LEGEND_X, TOP as i32 + 100))
                .map_err(e)?;
            root.draw_text(
                "(they fall at once): not drawn",
                &small,
                (LEGEND_X, TOP as i32 + 118),
            )
            .map_err(e)?;
        }
        Ok(())
    }
}
