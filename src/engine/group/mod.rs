//! Permutation groups: permutations, Schreier–Sims, orbits and Cayley/Schreier graph searches.
//! Usable as a library; nothing here knows about the language.
pub mod bound;
pub mod cayley;
pub mod export;
pub mod gap;
pub mod giant;
pub mod perm;
pub mod ranked;
pub mod schreier;
pub mod search;
pub mod tws;

use num_bigint::BigUint;
use perm::Perm;
use schreier::StabChain;
use std::cell::OnceCell;
use std::fmt;
use std::rc::Rc;

/// A group given by named generators. What it is (a giant, or a group known by its
/// stabilizer chain) is found on first use.
pub struct GroupVal {
    pub gens: Vec<(Rc<str>, Perm)>,
    pub degree: usize,
    giant: OnceCell<Option<giant::Giant>>,
    chain: OnceCell<StabChain>,
    /// the name it was first bound to, for printing
    pub name: OnceCell<Rc<str>>,
    /// the full search of the Cayley graph, once done
    pub layers: OnceCell<Rc<ranked::Layers>>,
}

impl GroupVal {
    pub fn new(gens: Vec<(Rc<str>, Perm)>) -> Result<GroupVal, String> {
        // by content, as equal permutations may have been built on different numbers of points
        let degree = gens
            .iter()
            .map(|(_, p)| p.largest_moved())
            .max()
            .unwrap_or(0);
        if degree == 0 {
            return Err("a group needs at least one generator that moves a point".into());
        }
        let gens = gens
            .into_iter()
            .map(|(n, p)| (n, p.on_points(degree)))
            .collect();
        Ok(GroupVal {
            gens,
            degree,
            giant: OnceCell::new(),
            chain: OnceCell::new(),
            name: OnceCell::new(),
            layers: OnceCell::new(),
        })
    }

    /// Finds (cancellably) what `order` and `contains` need: the giant it is, or else its
    /// stabilizer chain.
    pub fn prepare(&self, ctl: &crate::engine::Ctl) -> crate::engine::Result<()> {
        if self.giant_ctl(ctl)?.is_none() {
            self.chain_ctl(ctl)?;
        }
        Ok(())
    }

    /// Sym or Alt of the points it moves, when the group is one (Jordan's theorem).
    pub fn giant_ctl(
        &self,
        ctl: &crate::engine::Ctl,
    ) -> crate::engine::Result<&Option<giant::Giant>> {
        if let Some(g) = self.giant.get() {
            return Ok(g);
        }
        let g = giant::Giant::recognize(self.degree, &self.perms(), ctl)?;
        Ok(self.giant.get_or_init(|| g))
    }

    pub fn giant(&self) -> Option<&giant::Giant> {
        self.giant_ctl(&crate::engine::Ctl::default())
            .unwrap_or_else(|_| unreachable!("a handle that is never cancelled"))
            .as_ref()
    }

    fn chain(&self) -> &StabChain {
        self.chain
            .get_or_init(|| StabChain::new(self.degree, &self.perms()))
    }

    /// The stabilizer chain, built (cancellably) if it is not yet; for a giant, random
    /// Schreier–Sims stops at the known order.
    pub fn chain_ctl(&self, ctl: &crate::engine::Ctl) -> crate::engine::Result<&StabChain> {
        if let Some(c) = self.chain.get() {
            return Ok(c);
        }
        let c = match self.giant_ctl(ctl)? {
            Some(g) => StabChain::build_known(self.degree, &self.perms(), &g.order(), ctl)?,
            None => StabChain::build(self.degree, &self.perms(), ctl)?,
        };
        Ok(self.chain.get_or_init(|| c))
    }

    pub fn perms(&self) -> Vec<Perm> {
        self.gens.iter().map(|(_, p)| p.clone()).collect()
    }

    pub fn order(&self) -> BigUint {
        match self.giant() {
            Some(g) => g.order(),
            None => self.chain().order(),
        }
    }

    pub fn contains(&self, p: &Perm) -> bool {
        match self.giant() {
            Some(g) => g.contains(p),
            None => self.chain().contains(p),
        }
    }

    /// The moves of the Cayley graph: generators and their inverses, each labelled, without
    /// repeats (an involution is its own inverse).
    pub fn moves(&self) -> Vec<(String, Perm)> {
        let mut out: Vec<(String, Perm)> = vec![];
        for (n, p) in &self.gens {
            for (label, q) in [(n.to_string(), p.clone()), (format!("{n}^-1"), p.inverse())] {
                if !q.is_identity() && !out.iter().any(|(_, r)| *r == q) {
                    out.push((label, q));
                }
            }
        }
        out
    }
}

impl fmt::Display for GroupVal {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if let Some(n) = self.name.get() {
            return write!(f, "{n}");
        }
        let names: Vec<&str> = self.gens.iter().map(|(n, _)| &**n).collect();
        write!(f, "<{}>", names.join(", "))
    }
}

/// A rectangular board of m rows and n columns, cells numbered 1.. row by row.
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    /// a torus: pieces of placement games attack across both edges (groups ignore this)
    pub torus: bool,
}

impl Board {
    pub fn cell(&self, r: i64, c: i64) -> Result<i64, String> {
        if r < 1 || c < 1 || r as usize > self.rows || c as usize > self.cols {
            return Err(format!(
                "({r}, {c}) is off the {}x{} board (rows and columns start at 1)",
                self.rows, self.cols
            ));
        }
        Ok((r - 1) * self.cols as i64 + c)
    }

    fn perm_from(&self, f: impl Fn(usize, usize) -> (usize, usize)) -> Perm {
        let mut img = vec![0u16; self.rows * self.cols];
        for r in 0..self.rows {
            for c in 0..self.cols {
                let (r2, c2) = f(r, c);
                img[r * self.cols + c] = (r2 * self.cols + c2) as u16;
            }
        }
        Perm::from_images(img)
    }

    /// Contents move one step in the direction, wrapping round; `line` (0-based) limits the
    /// move to one row (for "right" and "left") or one column (for "up" and "down").
    pub fn shift(&self, dir: &str, line: Option<usize>) -> Option<Perm> {
        let (m, n) = (self.rows, self.cols);
        let on = |i: usize| line.is_none_or(|l| l == i);
        Some(match dir {
            "right" => self.perm_from(|r, c| (r, if on(r) { (c + 1) % n } else { c })),
            "left" => self.perm_from(|r, c| (r, if on(r) { (c + n - 1) % n } else { c })),
            "up" => self.perm_from(|r, c| (if on(c) { (r + m - 1) % m } else { r }, c)),
            "down" => self.perm_from(|r, c| (if on(c) { (r + 1) % m } else { r }, c)),
            _ => return None,
        })
    }

    /// Quarter turn clockwise (square boards).
    pub fn rotate(&self) -> Perm {
        let n = self.rows;
        self.perm_from(|r, c| (c, n - 1 - r))
    }

    /// Half turn (any rectangle).
    pub fn half_turn(&self) -> Perm {
        let (m, n) = (self.rows, self.cols);
        self.perm_from(|r, c| (m - 1 - r, n - 1 - c))
    }

    /// Mirror image in an axis: "vertical" (left and right swap), "horizontal" (top and
    /// bottom swap), and on square boards "diagonal" (the main diagonal stays) and
    /// "antidiagonal".
    pub fn reflect(&self, axis: &str) -> Option<Perm> {
        let (m, n) = (self.rows, self.cols);
        let square = m == n;
        Some(match axis {
            "vertical" => self.perm_from(|r, c| (r, n - 1 - c)),
            "horizontal" => self.perm_from(|r, c| (m - 1 - r, c)),
            "diagonal" if square => self.perm_from(|r, c| (c, r)),
            "antidiagonal" if square => self.perm_from(|r, c| (n - 1 - c, n - 1 - r)),
            _ => return None,
        })
    }

    /// Every concentric ring one step clockwise (square boards).
    pub fn ring_rotate(&self) -> Perm {
        let n = self.rows;
        self.perm_from(|r, c| {
            let k = r.min(c).min(n - 1 - r).min(n - 1 - c);
            let (lo, hi) = (k, n - 1 - k);
            if lo == hi {
                (r, c)
            } else if r == lo && c < hi {
                (r, c + 1)
            } else if c == hi && r < hi {
                (r + 1, c)
            } else if r == hi && c > lo {
                (r, c - 1)
            } else {
                (r - 1, c)
            }
        })
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let kind = if self.torus { "torus" } else { "grid" };
        write!(f, "{kind}({}, {})", self.rows, self.cols)
    }
}

/// A family of patterns: all k-subsets, or all colourings with k1 cells of colour 1, ...
pub enum PatternSpec {
    Sets(usize),
    Colorings(Vec<usize>),
}

impl PatternSpec {
    pub fn counts(&self) -> Vec<usize> {
        match self {
            PatternSpec::Sets(k) => vec![*k],
            PatternSpec::Colorings(ks) => ks.clone(),
        }
    }
}

impl fmt::Display for PatternSpec {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PatternSpec::Sets(k) => write!(f, "sets({k})"),
            PatternSpec::Colorings(ks) => {
                let s: Vec<String> = ks.iter().map(|k| k.to_string()).collect();
                write!(f, "colorings({})", s.join(", "))
            }
        }
    }
}
