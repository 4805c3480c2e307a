//! Dots-and-Boxes: exact values by negamax alpha-beta search on the net score.
//!
//! A board of `rows` x `cols` boxes has `(rows + 1) x (cols + 1)` dots, named row by row
//! `A`, `B`, ..., `Z`, then `a`, ..., `z` (no board that fits the 64-line bitset has more than 52
//! dots). A line is named by its two dots, the earlier one first (`"GH"`, `"AE"`); parsing
//! accepts either order. A position is the set of drawn lines, a 64-bit set: boards with more
//! than 64 lines (such as 5 x 6) are refused. Boxes already taken do not matter for the future,
//! so values count only the boxes still to be taken: [`Dots::value`] is the best net score (own
//! boxes minus the opponent's) the player to move can force, completing a box scores it and the
//! same player moves again.
//!
//! ```
//! use gamut::engine::Ctl;
//! use gamut::engine::dots::Dots;
//!
//! let board = Dots::new(2, 2).unwrap();
//! let empty = board.empty();
//! // On 2 x 2 boxes the player to move from the empty board wins by 2 boxes (3 to 1).
//! assert_eq!(board.value(&empty, &Ctl::default()).unwrap(), 2);
//! let pos = board.parse_lines("AB BC").unwrap();
//! assert_eq!(board.line_name(0), "AB");
//! assert_eq!(pos.count(), 2);
//! ```
mod picture;
mod search;

pub use search::{MoveValue, Solver, Stats};

use crate::engine::graph::rect_symmetries;
use crate::engine::{Error, Result};

/// The largest number of lines a board may have (the position is a `u64` bitset).
pub const MAX_LINES: usize = 64;

/// A position: the set of drawn lines (bit `i` is line `i` of the board).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Position {
    /// The drawn lines as a bitset.
    pub lines: u64,
}

impl Position {
    /// Is line `l` drawn?
    pub fn has(&self, l: usize) -> bool {
        self.lines >> l & 1 == 1
    }
    /// The number of drawn lines.
    pub fn count(&self) -> u32 {
        self.lines.count_ones()
    }
}

/// A Dots-and-Boxes board of `rows` x `cols` boxes with its lines, boxes and symmetries.
#[derive(Debug, Clone)]
pub struct Dots {
    rows: usize,
    cols: usize,
    nlines: usize,
    /// the two dots of each line, the earlier first
    line_dots: Vec<(usize, usize)>,
    /// the boxes each line borders (one or two)
    line_boxes: Vec<Vec<usize>>,
    /// the four sides of each box
    box_mask: Vec<u64>,
    /// all lines
    full: u64,
    /// line permutations of the board's symmetries (the identity first)
    syms: Vec<Vec<u8>>,
    /// inverse permutations
    syms_inv: Vec<Vec<u8>>,
    /// per line, its image under each symmetry's key permutation (border sides in order, see
    /// `new`) as a one-bit set; 0 past the board's symmetries
    key_bits: Vec<Images>,
    /// per line, the index in `ground_mask` of its box if the line is one of two or more border
    /// sides of that box (else 255)
    ground_of: Vec<u8>,
    /// per byte of the bitset, the lines' ranks in `order` as a bitset
    rank_tables: Vec<[u64; 256]>,
    /// mask of the border sides of each box in `ground`
    ground_mask: Vec<u64>,
    /// for each box in `ground`, the mask of its first k border sides
    ground_first: Vec<Vec<u64>>,
    /// lines in search order: centre first
    order: Vec<u8>,
}

/// The name of dot `i`: `A`..`Z` then `a`..`z`.
fn dot_name(i: usize) -> char {
    if i < 26 {
        (b'A' + i as u8) as char
    } else {
        (b'a' + (i - 26) as u8) as char
    }
}

fn dot_index(c: char) -> Option<usize> {
    match c {
        'A'..='Z' => Some(c as usize - 'A' as usize),
        'a'..='z' => Some(c as usize - 'a' as usize + 26),
        _ => None,
    }
}

impl Dots {
    /// A board of `rows` x `cols` boxes. Refuses empty boards and boards with more than
    /// [`MAX_LINES`] lines (`2·rows·cols + rows + cols`).
    pub fn new(rows: usize, cols: usize) -> Result<Dots> {
        if rows == 0 || cols == 0 {
            return Err(Error::invalid(format!(
                "a Dots-and-Boxes board needs at least one box; got {rows} x {cols}"
            )));
        }
        let nlines = 2 * rows * cols + rows + cols;
        if rows > 64 || cols > 64 || nlines > MAX_LINES {
            return Err(Error::limit(format!(
                "a {rows} x {cols} Dots-and-Boxes board has {nlines} lines; at most {MAX_LINES} fit"
            ))
            .hint("boards up to 5 x 5, 4 x 6, 3 x 8, 2 x 12 and 1 x 21 fit"));
        }
        let w = cols + 1; // dots per row
        let dot = |r: usize, c: usize| r * w + c;
        // lines in reading order: the horizontal lines of a dot row, then the vertical lines below it
        let mut line_dots = Vec::with_capacity(nlines);
        for r in 0..=rows {
            for c in 0..cols {
                line_dots.push((dot(r, c), dot(r, c + 1)));
            }
            if r < rows {
                for c in 0..=cols {
                    line_dots.push((dot(r, c), dot(r + 1, c)));
                }
            }
        }
        debug_assert_eq!(line_dots.len(), nlines);
        let find = |a: usize, b: usize| line_dots.iter().position(|&x| x == (a, b)).unwrap();
        let nboxes = rows * cols;
        let mut box_mask = vec![0u64; nboxes];
        let mut box_sides = vec![[0usize; 4]; nboxes];
        let mut line_boxes = vec![Vec::new(); nlines];
        for r in 0..rows {
            for c in 0..cols {
                let b = r * cols + c;
                let sides = [
                    find(dot(r, c), dot(r, c + 1)),
                    find(dot(r + 1, c), dot(r + 1, c + 1)),
                    find(dot(r, c), dot(r + 1, c)),
                    find(dot(r, c + 1), dot(r + 1, c + 1)),
                ];
                box_sides[b] = sides;
                for &s in &sides {
                    box_mask[b] |= 1 << s;
                    line_boxes[s].push(b);
                }
            }
        }
        // symmetries as maps of dot coordinates
        let maps = rect_symmetries(rows + 1, cols + 1);
        let mut syms = Vec::new();
        for m in &maps {
            let mut perm = vec![0u8; nlines];
            for (l, &(a, b)) in line_dots.iter().enumerate() {
                let (ra, ca) = m(a / w, a % w);
                let (rb, cb) = m(b / w, b % w);
                let (x, y) = (dot(ra, ca), dot(rb, cb));
                perm[l] = find(x.min(y), x.max(y)) as u8;
            }
            syms.push(perm);
        }
        let syms_inv = syms
            .iter()
            .map(|p| {
                let mut inv = vec![0u8; nlines];
                for (i, &j) in p.iter().enumerate() {
                    inv[j as usize] = i as u8;
                }
                inv
            })
            .collect();
        // border sides: interchangeable for their box (a coin's strings to the ground)
        let ground: Vec<Vec<u8>> = box_sides
            .iter()
            .map(|sides| {
                sides
                    .iter()
                    .filter(|&&s| line_boxes[s].len() == 1)
                    .map(|&s| s as u8)
                    .collect()
            })
            .collect();
        let mut ground_mask = Vec::new();
        let mut ground_first = Vec::new();
        for g in ground.iter().filter(|g| g.len() >= 2) {
            let mut firsts = vec![0u64];
            let mut acc = 0u64;
            for &s in g {
                acc |= 1 << s;
                firsts.push(acc);
            }
            ground_mask.push(acc);
            ground_first.push(firsts);
        }
        // The key permutations: a symmetry's line permutation, except that the i-th border side
        // of a box goes to the i-th border side of its image, so that a position with each box's
        // border sides normalised (the first k drawn) maps to a normalised image.
        let keys: Vec<Vec<u8>> = syms
            .iter()
            .map(|p| {
                let mut q = p.clone();
                for (b, g) in ground.iter().enumerate().filter(|(_, g)| g.len() >= 2) {
                    let img = box_sides[b].iter().fold(0u64, |m, &s| m | 1 << p[s]);
                    let b2 = box_mask.iter().position(|&m| m == img).unwrap();
                    for (i, &s) in g.iter().enumerate() {
                        q[s as usize] = ground[b2][i];
                    }
                }
                q
            })
            .collect();
        let byte_tables = |p: &[u8]| -> Vec<[u64; 256]> {
            (0..nlines.div_ceil(8))
                .map(|k| {
                    let mut t = [0u64; 256];
                    for (v, slot) in t.iter_mut().enumerate() {
                        for i in 0..8 {
                            let l = k * 8 + i;
                            if v >> i & 1 == 1 && l < nlines {
                                *slot |= 1 << p[l];
                            }
                        }
                    }
                    t
                })
                .collect()
        };
        let key_bits = (0..nlines)
            .map(|l| {
                let mut t = [0u64; 8];
                for (g, q) in keys.iter().enumerate() {
                    t[g] = 1 << q[l];
                }
                t
            })
            .collect();
        let mut ground_of = vec![u8::MAX; nlines];
        for (i, &m) in ground_mask.iter().enumerate() {
            for (l, g) in ground_of.iter_mut().enumerate() {
                if m >> l & 1 == 1 {
                    *g = i as u8;
                }
            }
        }
        // centre first: by the distance of the line's midpoint to the centre of the board
        let mut order: Vec<u8> = (0..nlines as u8).collect();
        let key = |l: u8| {
            let (a, b) = line_dots[l as usize];
            let (y, x) = ((a / w + b / w) as f64 / 2.0, (a % w + b % w) as f64 / 2.0);
            let (dy, dx) = (y - rows as f64 / 2.0, x - cols as f64 / 2.0);
            dy * dy + dx * dx
        };
        order.sort_by(|&a, &b| key(a).partial_cmp(&key(b)).unwrap().then(a.cmp(&b)));
        let mut rank = vec![0u8; nlines];
        for (i, &l) in order.iter().enumerate() {
            rank[l as usize] = i as u8;
        }
        let rank_tables = byte_tables(&rank);
        Ok(Dots {
            rows,
            cols,
            nlines,
            line_dots,
            line_boxes,
            box_mask,
            full: if nlines == 64 {
                u64::MAX
            } else {
                (1u64 << nlines) - 1
            },
            syms,
            syms_inv,
            key_bits,
            ground_of,
            rank_tables,
            ground_mask,
            ground_first,
            order,
        })
    }

    /// The number of rows of boxes.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// The number of columns of boxes.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// The number of lines (`2·rows·cols + rows + cols`).
    pub fn num_lines(&self) -> usize {
        self.nlines
    }
    /// The number of boxes.
    pub fn num_boxes(&self) -> usize {
        self.rows * self.cols
    }
    /// The number of symmetries used to canonicalise positions (8 for square boards, else 4).
    pub fn num_symmetries(&self) -> usize {
        self.syms.len()
    }

    /// The empty position.
    pub fn empty(&self) -> Position {
        Position { lines: 0 }
    }

    /// The name of line `l`, its two dots, the earlier first (`"GH"`).
    pub fn line_name(&self, l: usize) -> String {
        let (a, b) = self.line_dots[l];
        format!("{}{}", dot_name(a), dot_name(b))
    }

    /// The line named by two dots (either order), if they are adjacent.
    pub fn line_by_name(&self, name: &str) -> Result<usize> {
        let chars: Vec<char> = name.chars().collect();
        if chars.len() != 2 {
            return Err(Error::invalid(format!(
                "line \"{name}\": a line is written as its two dots, like \"AB\""
            )));
        }
        let ndots = (self.rows + 1) * (self.cols + 1);
        let last = dot_name(ndots - 1);
        let mut d = [0usize; 2];
        for (i, &c) in chars.iter().enumerate() {
            match dot_index(c) {
                Some(x) if x < ndots => d[i] = x,
                _ => {
                    return Err(Error::invalid(format!(
                        "line \"{name}\": there is no dot {c} on a {} x {} board (dots A..{last})",
                        self.rows, self.cols
                    )));
                }
            }
        }
        let (a, b) = (d[0].min(d[1]), d[0].max(d[1]));
        self.line_dots
            .iter()
            .position(|&x| x == (a, b))
            .ok_or_else(|| {
                Error::invalid(format!(
                    "line \"{name}\": dots {} and {} are not adjacent",
                    chars[0], chars[1]
                ))
            })
    }

    /// The position with the lines named in `text` drawn: names separated by spaces or commas
    /// (`"AB BC CD"`). Errors name the bad line: unknown dot, dots not adjacent, repeated line.
    pub fn parse_lines(&self, text: &str) -> Result<Position> {
        let mut lines = 0u64;
        for name in text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
        {
            let l = self.line_by_name(name)?;
            if lines >> l & 1 == 1 {
                return Err(Error::invalid(format!(
                    "line \"{name}\" is drawn twice (as {})",
                    self.line_name(l)
                )));
            }
            lines |= 1 << l;
        }
        Ok(Position { lines })
    }

    /// The position with exactly the given lines drawn; refuses lines off the board.
    pub fn position(&self, lines: u64) -> Result<Position> {
        if lines & !self.full != 0 {
            return Err(Error::invalid(format!(
                "the board has only {} lines",
                self.nlines
            )));
        }
        Ok(Position { lines })
    }

    /// The names of the drawn lines, in board order, separated by spaces.
    pub fn lines_text(&self, pos: &Position) -> String {
        (0..self.nlines)
            .filter(|&l| pos.has(l))
            .map(|l| self.line_name(l))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The lines not yet drawn, in board order.
    pub fn legal_moves(&self, pos: &Position) -> Vec<usize> {
        (0..self.nlines).filter(|&l| !pos.has(l)).collect()
    }

    /// The number of boxes that drawing line `l` completes (0, 1 or 2).
    pub fn completes(&self, pos: &Position, l: usize) -> i32 {
        let p = pos.lines | 1 << l;
        self.line_boxes[l]
            .iter()
            .filter(|&&b| p & self.box_mask[b] == self.box_mask[b])
            .count() as i32
    }

    /// The position after drawing line `l` (refused if it is drawn or off the board).
    pub fn play(&self, pos: &Position, l: usize) -> Result<Position> {
        if l >= self.nlines || pos.has(l) {
            return Err(Error::invalid(format!(
                "line {} is already drawn",
                if l < self.nlines {
                    self.line_name(l)
                } else {
                    l.to_string()
                }
            )));
        }
        Ok(Position {
            lines: pos.lines | 1 << l,
        })
    }

    /// Is the box in row `r`, column `c` complete?
    pub fn box_complete(&self, pos: &Position, r: usize, c: usize) -> bool {
        let m = self.box_mask[r * self.cols + c];
        pos.lines & m == m
    }

    /// The number of boxes not yet complete.
    pub fn boxes_left(&self, pos: &Position) -> i32 {
        self.box_mask
            .iter()
            .filter(|&&m| pos.lines & m != m)
            .count() as i32
    }

    /// Is every line drawn?
    pub fn is_over(&self, pos: &Position) -> bool {
        pos.lines == self.full
    }

    /// A text drawing: dots as their letters, lines as `---` and `|`, complete boxes as `#`
    /// (owners cannot be known from the lines alone).
    pub fn show(&self, pos: &Position) -> String {
        let w = self.cols + 1;
        let mut out = String::new();
        let hline = |r: usize, c: usize| {
            self.line_dots
                .iter()
                .position(|&x| x == (r * w + c, r * w + c + 1))
                .unwrap()
        };
        let vline = |r: usize, c: usize| {
            self.line_dots
                .iter()
                .position(|&x| x == (r * w + c, (r + 1) * w + c))
                .unwrap()
        };
        for r in 0..=self.rows {
            for c in 0..=self.cols {
                out.push(dot_name(r * w + c));
                if c < self.cols {
                    out.push_str(if pos.has(hline(r, c)) { "---" } else { "   " });
                }
            }
            out.push('\n');
            if r < self.rows {
                for c in 0..=self.cols {
                    out.push(if pos.has(vline(r, c)) { '|' } else { ' ' });
                    if c < self.cols {
                        out.push_str(if self.box_complete(pos, r, c) {
                            " # "
                        } else {
                            "   "
                        });
                    }
                }
                // no trailing spaces
                while out.ends_with(' ') {
                    out.pop();
                }
                out.push('\n');
            }
        }
        out
    }

    /// The best net score (own boxes minus the opponent's, among the boxes not yet taken) the
    /// player to move can force. Uses a fresh [`Solver`] sized for the board and `ctl`'s
    /// memory budget; runs in parallel over the root moves.
    pub fn value(&self, pos: &Position, ctl: &crate::engine::Ctl) -> Result<i32> {
        Solver::new(self, ctl)?.value(pos, ctl)
    }

    /// Every legal line with the net score for the mover of drawing it (a line that completes a
    /// box scores it and keeps the turn), in board order. See [`Solver::moves`].
    pub fn moves(&self, pos: &Position, ctl: &crate::engine::Ctl) -> Result<Vec<MoveValue>> {
        Solver::new(self, ctl)?.moves(pos, ctl)
    }

    /// The lines whose value is the best value (the optimal moves), in board order.
    pub fn best_moves(&self, pos: &Position, ctl: &crate::engine::Ctl) -> Result<Vec<usize>> {
        let mv = self.moves(pos, ctl)?;
        Ok(best_of(&mv))
    }

    /// The winning lines: those after which the mover ends ahead (net value > 0) among the boxes
    /// still to be taken, in board order.
    pub fn winning(&self, pos: &Position, ctl: &crate::engine::Ctl) -> Result<Vec<usize>> {
        let mv = self.moves(pos, ctl)?;
        Ok(mv.iter().filter(|m| m.value > 0).map(|m| m.line).collect())
    }

    // ---- internals shared with the search ----

    /// The images of a set of lines, its box border sides normalised (the first k drawn), under
    /// the key permutations of the symmetries; the canonical key is the least of them.
    /// Past the board's symmetries the images are all ones, never the least.
    fn images(&self, lines: u64) -> Images {
        let mut imgs = [0u64; 8];
        imgs[self.syms.len()..].fill(u64::MAX);
        let mut rest = self.normalise_ground(lines);
        while rest != 0 {
            let l = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for (img, t) in imgs.iter_mut().zip(&self.key_bits[l]) {
                *img |= t;
            }
        }
        imgs
    }

    /// The images of `lines | 1 << l` from those of `lines` (`l` not drawn): a border side
    /// of a box adds that box's next side in the normalised order.
    #[inline(always)]
    fn images_add(&self, lines: u64, imgs: &Images, l: usize) -> Images {
        let g = self.ground_of[l];
        let n = if g == u8::MAX {
            l
        } else {
            let (m, f) = (self.ground_mask[g as usize], &self.ground_first[g as usize]);
            let k = (lines & m).count_ones() as usize;
            (f[k + 1] ^ f[k]).trailing_zeros() as usize
        };
        let t = &self.key_bits[n];
        std::array::from_fn(|g| imgs[g] | t[g])
    }

    /// The canonical key (the least image) and the index of the symmetry that gave it.
    #[inline(always)]
    fn canonical_of(&self, imgs: &Images) -> (u64, usize) {
        let mut best = imgs[0];
        let mut arg = 0;
        for (g, &img) in imgs.iter().enumerate().skip(1) {
            if img < best {
                best = img;
                arg = g;
            }
        }
        (best, arg)
    }

    /// The canonical key of a set of lines under the symmetries and the interchange of a box's
    /// border sides: positions with one key have one value.
    pub fn canonical(&self, lines: u64) -> u64 {
        self.canonical_of(&self.images(lines)).0
    }

    /// The lines of `set` as a bitset of their ranks in the search order.
    #[inline]
    fn ranks(&self, set: u64) -> u64 {
        bytes_image(&self.rank_tables, set)
    }

    fn normalise_ground(&self, mut img: u64) -> u64 {
        for (m, f) in self.ground_mask.iter().zip(&self.ground_first) {
            img = (img & !m) | f[(img & m).count_ones() as usize];
        }
        img
    }
}

/// The images of a position under the (at most 8) symmetries, see [`Dots::images`].
type Images = [u64; 8];

/// The image of a bitset under a bit permutation given by one table per byte.
#[inline]
fn bytes_image(t: &[[u64; 256]], x: u64) -> u64 {
    let mut img = 0u64;
    for (k, tk) in t.iter().enumerate() {
        img |= tk[(x >> (8 * k) & 0xff) as usize];
    }
    img
}

/// The lines achieving the best value among `mv`.
pub fn best_of(mv: &[MoveValue]) -> Vec<usize> {
    let best = mv.iter().map(|m| m.value).max();
    mv.iter()
        .filter(|m| Some(m.value) == best)
        .map(|m| m.line)
        .collect()
}
