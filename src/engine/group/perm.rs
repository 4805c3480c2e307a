//! Permutations of points 0..n (n ≤ MAX_DEGREE), stored as 16-bit images. Products compose left to
//! right as in the papers: `a.then(b)` applies `a` first.
use std::fmt;

#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Perm {
    img: Vec<u16>,
}

pub const MAX_DEGREE: usize = 1000;

impl Perm {
    pub fn identity(n: usize) -> Perm {
        Perm {
            img: (0..n).map(|i| i as u16).collect(),
        }
    }

    /// From 0-based image list; caller guarantees it is a bijection.
    pub fn from_images(img: Vec<u16>) -> Perm {
        Perm { img }
    }

    /// From 0-based cycles; errors name the offending entry (cycle index, position).
    pub fn from_cycles(n: usize, cycles: &[Vec<usize>]) -> Result<Perm, (usize, usize, String)> {
        let mut img: Vec<u16> = (0..n).map(|i| i as u16).collect();
        let mut seen = vec![false; n];
        for (ci, c) in cycles.iter().enumerate() {
            for (k, &p) in c.iter().enumerate() {
                if p >= n {
                    return Err((ci, k, format!("point {} is past the degree {}", p + 1, n)));
                }
                if seen[p] {
                    return Err((ci, k, format!("point {} appears twice", p + 1)));
                }
                seen[p] = true;
                img[p] = c[(k + 1) % c.len()] as u16;
            }
        }
        Ok(Perm { img })
    }

    pub fn degree(&self) -> usize {
        self.img.len()
    }

    pub fn images(&self) -> &[u16] {
        &self.img
    }

    #[inline]
    pub fn apply(&self, p: usize) -> usize {
        self.img.get(p).map_or(p, |&x| x as usize)
    }

    /// Same permutation on `n ≥ degree` points.
    pub fn extended(&self, n: usize) -> Perm {
        let mut img = self.img.clone();
        img.extend((img.len()..n).map(|i| i as u16));
        Perm { img }
    }

    /// The same permutation on exactly `n` points (it must fix the points it drops).
    pub fn on_points(&self, n: usize) -> Perm {
        debug_assert!(self.largest_moved() <= n);
        let mut p = self.extended(n);
        p.img.truncate(n);
        p
    }

    /// The largest point it moves (1-based), 0 for the identity.
    pub fn largest_moved(&self) -> usize {
        (0..self.img.len())
            .rev()
            .find(|&i| self.img[i] as usize != i)
            .map_or(0, |i| i + 1)
    }

    /// Apply self, then other.
    pub fn then(&self, other: &Perm) -> Perm {
        let n = self.degree().max(other.degree());
        Perm {
            img: (0..n).map(|i| other.apply(self.apply(i)) as u16).collect(),
        }
    }

    pub fn inverse(&self) -> Perm {
        let mut img = vec![0u16; self.degree()];
        for (i, &x) in self.img.iter().enumerate() {
            img[x as usize] = i as u16;
        }
        Perm { img }
    }

    pub fn is_identity(&self) -> bool {
        self.img.iter().enumerate().all(|(i, &x)| i == x as usize)
    }

    pub fn pow(&self, e: i64) -> Perm {
        let base = if e < 0 { self.inverse() } else { self.clone() };
        base.pow_u128(e.unsigned_abs().into())
    }

    /// `self^e` by squaring.
    pub fn pow_u128(&self, mut e: u128) -> Perm {
        let mut base = self.clone();
        let mut acc = Perm::identity(self.degree());
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.then(&base);
            }
            base = base.then(&base);
            e >>= 1;
        }
        acc
    }

    /// Cycles of length ≥ 2, each starting at its smallest point, sorted by that point.
    pub fn cycles(&self) -> Vec<Vec<usize>> {
        let mut seen = vec![false; self.degree()];
        let mut out = vec![];
        for s in 0..self.degree() {
            if seen[s] || self.apply(s) == s {
                continue;
            }
            let mut c = vec![];
            let mut p = s;
            while !seen[p] {
                seen[p] = true;
                c.push(p);
                p = self.apply(p);
            }
            out.push(c);
        }
        out
    }

    pub fn order(&self) -> u128 {
        self.cycles()
            .iter()
            .fold(1u128, |acc, c| num_integer::lcm(acc, c.len() as u128))
    }

    /// The same permutation with trailing fixed points removed, for equality across degrees.
    pub fn trimmed(&self) -> Perm {
        let mut n = self.img.len();
        while n > 0 && self.img[n - 1] as usize == n - 1 {
            n -= 1;
        }
        Perm {
            img: self.img[..n].to_vec(),
        }
    }
}

impl fmt::Display for Perm {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let cs = self.cycles();
        if cs.is_empty() {
            return write!(f, "()");
        }
        for c in cs {
            let parts: Vec<String> = c.iter().map(|p| (p + 1).to_string()).collect();
            write!(f, "({})", parts.join(","))?;
        }
        Ok(())
    }
}
