//! Fairy-chess pieces: leapers, riders and their unions, and the squares they attack.
use crate::engine::graph::rect_symmetries;
use std::fmt;

/// One movement component of a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// Jumps by (a, b) in any of the eight sign/swap images.
    Leap(u32, u32),
    /// Slides any number of (a, b) steps in any of the eight sign/swap images.
    Ride(u32, u32),
}

impl Part {
    /// The distinct step vectors (row, column) of this part.
    pub fn steps(self) -> Vec<(i64, i64)> {
        let (a, b) = match self {
            Part::Leap(a, b) | Part::Ride(a, b) => (a as i64, b as i64),
        };
        let mut v = vec![];
        for (x, y) in [(a, b), (b, a)] {
            for sx in [1, -1] {
                for sy in [1, -1] {
                    let s = (x * sx, y * sy);
                    if !v.contains(&s) {
                        v.push(s);
                    }
                }
            }
        }
        v
    }

    fn is_null(self) -> bool {
        matches!(self, Part::Leap(0, 0) | Part::Ride(0, 0))
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Part::Leap(a, b) => write!(f, "leaper({a}, {b})"),
            Part::Ride(a, b) => write!(f, "rider({a}, {b})"),
        }
    }
}

/// A piece: a union of leapers and riders. Displays as written, e.g. `leaper(1, 2)` or
/// `rider(0, 1) | rider(1, 1)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Piece {
    parts: Vec<Part>,
}

impl Piece {
    /// `leaper(a, b)`: jumps to the eight images of (a, b). `leaper(1, 2)` is the knight.
    pub fn leaper(a: u32, b: u32) -> Piece {
        Piece {
            parts: vec![Part::Leap(a.min(b), a.max(b))],
        }
    }

    /// `rider(a, b)`: slides any number of (a, b) steps. `rider(0, 1)` is the rook.
    pub fn rider(a: u32, b: u32) -> Piece {
        Piece {
            parts: vec![Part::Ride(a.min(b), a.max(b))],
        }
    }

    /// `self | other`: attacks what either attacks.
    pub fn union(&self, other: &Piece) -> Piece {
        let mut parts = self.parts.clone();
        for p in &other.parts {
            if !parts.contains(p) {
                parts.push(*p);
            }
        }
        Piece { parts }
    }

    /// The knight, `leaper(1, 2)`.
    pub fn knight() -> Piece {
        Piece::leaper(1, 2)
    }
    /// The king, `leaper(1, 1) | leaper(0, 1)`.
    pub fn king() -> Piece {
        Piece::leaper(1, 1).union(&Piece::leaper(0, 1))
    }
    /// The rook, `rider(0, 1)`.
    pub fn rook() -> Piece {
        Piece::rider(0, 1)
    }
    /// The bishop, `rider(1, 1)`.
    pub fn bishop() -> Piece {
        Piece::rider(1, 1)
    }
    /// The queen, `rider(0, 1) | rider(1, 1)`.
    pub fn queen() -> Piece {
        Piece::rook().union(&Piece::bishop())
    }
    /// The wazir, `leaper(0, 1)`: Node-Kayles on the grid graph.
    pub fn wazir() -> Piece {
        Piece::leaper(0, 1)
    }

    /// The movement components in the order written.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// True when some component is the null vector (0, 0), which attacks nothing sensible.
    pub fn has_null_part(&self) -> bool {
        self.parts.iter().any(|p| p.is_null())
    }

    /// True when the piece slides (some component is a rider).
    pub fn slides(&self) -> bool {
        self.parts.iter().any(|p| matches!(p, Part::Ride(..)))
    }

    /// The piece by its stdlib name where it has one (`knight`), else its definition.
    pub fn name(&self) -> String {
        match self.letter() {
            Some('N') => "knight".into(),
            Some('K') => "king".into(),
            Some('R') => "rook".into(),
            Some('B') => "bishop".into(),
            Some('Q') => "queen".into(),
            Some('W') => "wazir".into(),
            _ => self.to_string(),
        }
    }

    /// The letter used by `show`: N, K, R, B, Q, W for the standard pieces, else `None`.
    pub fn letter(&self) -> Option<char> {
        let same = |p: Piece| {
            let mut a = self.parts.clone();
            let mut b = p.parts;
            a.sort();
            b.sort();
            a == b
        };
        [
            (Piece::knight(), 'N'),
            (Piece::king(), 'K'),
            (Piece::rook(), 'R'),
            (Piece::bishop(), 'B'),
            (Piece::queen(), 'Q'),
            (Piece::wazir(), 'W'),
        ]
        .into_iter()
        .find(|(p, _)| same(p.clone()))
        .map(|(_, c)| c)
    }
}

impl std::ops::BitOr for Piece {
    type Output = Piece;
    fn bitor(self, rhs: Piece) -> Piece {
        self.union(&rhs)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for (i, p) in self.parts.iter().enumerate() {
            if i > 0 {
                f.write_str(" | ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

/// Squares of a `rows x cols` grid (or torus) as seen by pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Grid {
    pub rows: usize,
    pub cols: usize,
    pub torus: bool,
}

/// What one piece standing on one square attacks: single targets and rays (in sliding order).
#[derive(Debug, Clone, Default)]
pub(crate) struct Reach {
    pub leaps: Vec<usize>,
    pub rays: Vec<Vec<usize>>,
}

impl Grid {
    fn step(&self, r: usize, c: usize, d: (i64, i64)) -> Option<(usize, usize)> {
        let (nr, nc) = (r as i64 + d.0, c as i64 + d.1);
        if self.torus {
            Some((
                nr.rem_euclid(self.rows as i64) as usize,
                nc.rem_euclid(self.cols as i64) as usize,
            ))
        } else if nr < 0 || nc < 0 || nr >= self.rows as i64 || nc >= self.cols as i64 {
            None
        } else {
            Some((nr as usize, nc as usize))
        }
    }

    /// The reach of `piece` on square `s` (targets never include `s` itself).
    pub fn reach(&self, piece: &Piece, s: usize) -> Reach {
        let (r, c) = (s / self.cols, s % self.cols);
        let mut out = Reach::default();
        for part in &piece.parts {
            for d in part.steps() {
                match part {
                    Part::Leap(..) => {
                        if let Some((nr, nc)) = self.step(r, c, d) {
                            let t = nr * self.cols + nc;
                            if t != s && !out.leaps.contains(&t) {
                                out.leaps.push(t);
                            }
                        }
                    }
                    Part::Ride(..) => {
                        let mut ray = vec![];
                        let (mut cr, mut cc) = (r, c);
                        while let Some((nr, nc)) = self.step(cr, cc, d) {
                            let t = nr * self.cols + nc;
                            if t == s || ray.contains(&t) {
                                break;
                            }
                            ray.push(t);
                            (cr, cc) = (nr, nc);
                        }
                        if !ray.is_empty() {
                            out.rays.push(ray);
                        }
                    }
                }
            }
        }
        out
    }

    /// The dihedral images of the board as square permutations (identity first).
    pub fn symmetries(&self) -> Vec<Vec<usize>> {
        let (m, n) = (self.rows, self.cols);
        let mut out: Vec<Vec<usize>> = vec![];
        for f in rect_symmetries(m, n) {
            let p: Vec<usize> = (0..m * n)
                .map(|s| {
                    let (r, c) = f(s / n, s % n);
                    r * n + c
                })
                .collect();
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }
}
