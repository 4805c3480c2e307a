//! Recognition of the giants: a group that acts on the points it moves as the whole symmetric
//! or alternating group. Jordan's theorem (Wielandt, "Finite Permutation Groups", Thm 13.9): a
//! primitive group of degree m that contains a cycle of prime length p ≤ m − 3 contains A_m.
//! A random element with a cycle of prime length p, m/2 < p ≤ m − 3, raised to the lcm of its
//! other cycle lengths (all shorter than p, so prime to p) is such a cycle z. A transitive
//! group holding z is primitive: z, of prime order p, would fix each of the fewer than p blocks
//! of a block system and act trivially inside blocks of fewer than p points, so z = 1. The
//! element is a certificate and the answer a proof; only finding the element is random, and a
//! group where none turns up is left to Schreier–Sims. The parity of the generators then tells
//! A_m from S_m.
use super::perm::Perm;
use super::schreier::RandomElements;
use crate::engine::{Ctl, Result};
use num_bigint::BigUint;

/// Sym(support) or Alt(support), fixing every other point.
#[derive(Clone, Debug)]
pub struct Giant {
    pub support: Vec<usize>,
    pub alternating: bool,
}

/// Below this many points Schreier–Sims is instant and the prime-cycle test has no room.
const SMALLEST: usize = 8;
/// Random elements tried for a Jordan cycle, 40 + m/4: for m points about ln 2 / ln m of the
/// elements of a giant have one (a quarter at m = 16, a tenth at m = 1000), so a giant is
/// missed (and left to Schreier–Sims) with probability below 10^-5.
fn tries(m: usize) -> usize {
    40 + m / 4
}

impl Giant {
    pub fn recognize(degree: usize, gens: &[Perm], ctl: &Ctl) -> Result<Option<Giant>> {
        let gens: Vec<Perm> = gens.iter().map(|g| g.extended(degree)).collect();
        let support: Vec<usize> = (0..degree)
            .filter(|&p| gens.iter().any(|g| g.apply(p) != p))
            .collect();
        let m = support.len();
        if m < SMALLEST || orbit_len(&gens, support[0], degree) != m {
            return Ok(None);
        }
        let mut rng = RandomElements::new(degree, &gens);
        let mut found = false;
        for _ in 0..tries(m) {
            ctl.check()?;
            if jordan_cycle(&rng.next_element(), m) {
                found = true;
                break;
            }
        }
        if !found {
            return Ok(None);
        }
        let alternating = gens.iter().all(is_even);
        Ok(Some(Giant {
            support,
            alternating,
        }))
    }

    pub fn order(&self) -> BigUint {
        let f = (2..=self.support.len()).fold(BigUint::from(1u32), |a, k| a * BigUint::from(k));
        if self.alternating { f / 2u32 } else { f }
    }

    pub fn contains(&self, p: &Perm) -> bool {
        let mut inside = vec![false; p.degree().max(self.support.last().map_or(0, |&x| x + 1))];
        for &x in &self.support {
            inside[x] = true;
        }
        (0..p.degree()).all(|x| inside[x] || p.apply(x) == x) && (!self.alternating || is_even(p))
    }
}

impl Giant {
    /// The size of the orbit of a pattern (a colour for every point): every arrangement of
    /// its colours on the support, a multinomial coefficient. A_m reaches them all too unless
    /// the colours on the support are all different (A_m is (m−2)-transitive, and any two
    /// points of one colour give a transposition that fixes the pattern).
    pub fn orbit_size(&self, colours: &[u8]) -> BigUint {
        let mut count = [0usize; 256];
        for &x in &self.support {
            count[colours[x] as usize] += 1;
        }
        let fact = |k: usize| (2..=k).fold(BigUint::from(1u32), |a, i| a * BigUint::from(i));
        let all = count
            .iter()
            .fold(fact(self.support.len()), |a, &c| a / fact(c));
        if self.alternating && count.iter().all(|&c| c <= 1) {
            all / 2u32
        } else {
            all
        }
    }
}

fn orbit_len(gens: &[Perm], start: usize, degree: usize) -> usize {
    let mut seen = vec![false; degree];
    seen[start] = true;
    let mut stack = vec![start];
    let mut n = 1;
    while let Some(x) = stack.pop() {
        for g in gens {
            let y = g.apply(x);
            if !seen[y] {
                seen[y] = true;
                n += 1;
                stack.push(y);
            }
        }
    }
    n
}

pub(super) fn is_even(p: &Perm) -> bool {
    p.cycles().iter().map(|c| c.len() - 1).sum::<usize>() % 2 == 0
}

fn is_prime(p: usize) -> bool {
    p >= 2
        && (2..)
            .take_while(|d| d * d <= p)
            .all(|d| !p.is_multiple_of(d))
}

/// Whether g has a cycle of prime length p with m/2 < p ≤ m − 3.
fn jordan_cycle(g: &Perm, m: usize) -> bool {
    g.cycles()
        .iter()
        .any(|c| 2 * c.len() > m && c.len() + 3 <= m && is_prime(c.len()))
}
