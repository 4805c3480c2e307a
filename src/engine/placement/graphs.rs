//! Node-Kayles values of every labelled graph of at most [`MAX`] vertices, read by the
//! small-component searches of `solve.rs` in place of the subsets they would otherwise visit:
//! four in five of the subsets a queens search values have at most six squares. The idea of
//! complete tables for positions of few live squares is Rudd's (queens-nimbers); these are
//! built at first use in about a millisecond.
use std::sync::OnceLock;

/// The largest graph the tables hold (2^15 bytes for six vertices; seven were no faster).
pub(super) const MAX: u32 = 6;

/// The code of the graph that `adj` induces on the vertex set `t` (at most [`MAX`] members),
/// its vertices renumbered by rank in `t`: for each vertex in turn, the bits of its neighbours
/// among the later ones. `adj[v]` holds the neighbours of `v`, never `v` itself.
#[inline]
pub(super) fn code(adj: &[u32], t: u32, fast: bool) -> usize {
    let (mut code, mut shift, mut rest) = (0u32, 0, t);
    while rest != 0 {
        let v = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        code |= extract(adj[v] & rest, rest, fast) << shift;
        shift += rest.count_ones();
    }
    code as usize
}

/// The bits of `m` at the positions of the members of `c`, packed down.
#[inline]
fn extract(m: u32, c: u32, fast: bool) -> u32 {
    if fast {
        // SAFETY: `fast` is set only where the processor has BMI2
        return unsafe { pext32(m, c) };
    }
    super::solve::ranks(m as u64, c as u64) as u32
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn pext32(m: u32, c: u32) -> u32 {
    std::arch::x86_64::_pext_u32(m, c)
}

/// Never called off x86-64 (`fast` is false there).
#[cfg(not(target_arch = "x86_64"))]
unsafe fn pext32(_: u32, _: u32) -> u32 {
    unreachable!()
}

/// Per number of vertices `k <= MAX`, the Node-Kayles value of the graph of each code.
pub(super) fn values() -> &'static [Vec<u8>] {
    static VALUES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    VALUES.get_or_init(|| {
        let mut out: Vec<Vec<u8>> = vec![vec![0], vec![1]];
        for k in 2..=MAX {
            let bits = k * (k - 1) / 2;
            let all = (1u32 << k) - 1;
            let table = (0..1u32 << bits)
                .map(|c| {
                    let adj = decode(c, k);
                    let mut seen = 0u32;
                    for v in 0..k as usize {
                        let t = all & !adj[v] & !(1 << v);
                        let sub = code(&adj, t, false);
                        seen |= 1 << out[t.count_ones() as usize][sub];
                    }
                    (!seen).trailing_zeros() as u8
                })
                .collect();
            out.push(table);
        }
        out
    })
}

/// The adjacency of the `k`-vertex graph with code `c` (the layout of [`code`]).
fn decode(c: u32, k: u32) -> [u32; MAX as usize] {
    let mut adj = [0u32; MAX as usize];
    let mut bit = 0;
    for v in 0..k {
        for w in v + 1..k {
            if c >> bit & 1 == 1 {
                adj[v as usize] |= 1 << w;
                adj[w as usize] |= 1 << v;
            }
            bit += 1;
        }
    }
    adj
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Node-Kayles by a plain recursion over vertex sets.
    fn brute(adj: &[u32], s: u32) -> u8 {
        let mut seen = 0u32;
        let mut rest = s;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            seen |= 1 << brute(adj, s & !adj[v] & !(1 << v));
        }
        (!seen).trailing_zeros() as u8
    }

    #[test]
    fn tables_agree_with_plain_recursion_on_random_induced_graphs() {
        let mut rnd = crate::engine::xorshift(0x5851_f42d_4c95_7f2du64);
        let fast = super::super::solve::has_pext();
        for _ in 0..1000 {
            // a random graph on 12 vertices and a random set of at most MAX of them
            let mut adj = [0u32; 12];
            let density = rnd() % 8;
            for a in 0..12 {
                for b in a + 1..12 {
                    if rnd() % 8 < density {
                        adj[a] |= 1 << b;
                        adj[b] |= 1 << a;
                    }
                }
            }
            let mut t = 0u32;
            for _ in 0..1 + rnd() % MAX as u64 {
                t |= 1 << (rnd() % 12);
            }
            let k = t.count_ones() as usize;
            for f in [false, fast] {
                assert_eq!(
                    values()[k][code(&adj, t, f)],
                    brute(&adj, t),
                    "{adj:?} {t:b}"
                );
            }
        }
    }
}
