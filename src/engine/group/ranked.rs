//! Ranked, bit-packed breadth-first search of a Cayley graph (twsearch style), indexing the
//! group itself through its stabilizer chain: an element is the tuple of transversal positions
//! (d_0, ..., d_{k-1}) read as a mixed-radix number, so |G| elements cost |G| bits per bitset.
//!
//! Only the images of the base points are ever needed: the element g = u_{k-1}·…·u_0 (u_l the
//! d_l-th coset representative of level l) sends b_m to P_m(orbit_m[d_m]) with
//! P_m = u_0 ∘ … ∘ u_{m-1}, and the rank of g·s is found by sifting s(g(b_m)).
use super::perm::Perm;
use super::schreier::StabChain;
use crate::engine::{Ctl, Error, Result};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

const MAXK: usize = 64;
/// elements per parallel block (a multiple of 64)
const BLOCK: u64 = 1 << 16;

pub struct Ranker {
    k: usize,
    degree: usize,
    /// orbit[l][d] = image of b_l under the d-th representative
    orbit: Vec<Vec<u8>>,
    /// pos[l * degree + point] = index of the point in level l's orbit
    pos: Vec<u32>,
    /// representatives and their inverses as image tables: level l, index d at
    /// (off[l] + d) * degree
    reps: Vec<u8>,
    inv_reps: Vec<u8>,
    off: Vec<usize>,
    radix: Vec<u64>,
    stride: Vec<u64>,
    moves: Vec<Vec<u8>>,
    #[cfg(target_arch = "x86_64")]
    simd: Option<simd::Tables>,
    pub size: u64,
}

impl Ranker {
    /// None when the group is too large to index in 64 bits.
    pub fn new(chain: &StabChain, moves: &[Perm]) -> Option<Ranker> {
        let k = chain.levels.len();
        if k > MAXK {
            return None;
        }
        let mut size: u64 = 1;
        for l in &chain.levels {
            size = size.checked_mul(l.orbit.len() as u64)?;
        }
        let n = chain.degree;
        let radix: Vec<u64> = chain.levels.iter().map(|l| l.orbit.len() as u64).collect();
        let mut stride = vec![1u64; k];
        for l in (0..k.saturating_sub(1)).rev() {
            stride[l] = stride[l + 1] * radix[l + 1];
        }
        let mut off = vec![0; k];
        for l in 1..k {
            off[l] = off[l - 1] + radix[l - 1] as usize;
        }
        let flat = |inverse: bool| -> Vec<u8> {
            chain
                .levels
                .iter()
                .flat_map(|l| l.reps.iter())
                .flat_map(|r| {
                    if inverse { r.inverse() } else { r.clone() }
                        .images()
                        .to_vec()
                })
                .collect()
        };
        let mut rk = Ranker {
            k,
            degree: n,
            orbit: chain
                .levels
                .iter()
                .map(|l| l.orbit.iter().map(|&x| x as u8).collect())
                .collect(),
            pos: chain
                .levels
                .iter()
                .flat_map(|l| l.pos.iter().copied())
                .collect(),
            reps: flat(false),
            inv_reps: flat(true),
            off,
            radix,
            stride,
            moves: moves
                .iter()
                .map(|m| m.extended(n).images().to_vec())
                .collect(),
            #[cfg(target_arch = "x86_64")]
            simd: None,
            size,
        };
        #[cfg(target_arch = "x86_64")]
        {
            rk.simd = simd::Tables::new(&rk);
        }
        Some(rk)
    }

    /// Rank of the element whose base images are `y` (clobbered).
    #[inline]
    pub fn rank_base(&self, y: &mut [u8; MAXK]) -> u64 {
        let (k, n) = (self.k, self.degree);
        let mut r = 0;
        for l in 0..k {
            let d = self.pos[l * n + y[l] as usize] as usize;
            r += d as u64 * self.stride[l];
            let inv = &self.inv_reps[(self.off[l] + d) * n..(self.off[l] + d + 1) * n];
            for v in &mut y[l + 1..k] {
                *v = inv[*v as usize];
            }
        }
        r
    }

    /// Ranks of g·s for every move s, g given by its base images x.
    #[inline]
    fn neighbour_ranks(&self, x: &[u8; MAXK], out: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = &self.simd {
            // SAFETY: the tables exist only where the CPU has SSSE3 (checked when they were made)
            unsafe { t.neighbour_ranks(x, out) };
            return;
        }
        let mut y = [0u8; MAXK];
        for (m, o) in self.moves.iter().zip(out.iter_mut()) {
            for l in 0..self.k {
                y[l] = m[x[l] as usize];
            }
            *o = self.rank_base(&mut y);
        }
    }

    pub fn digits(&self, mut r: u64) -> [u64; MAXK] {
        let mut d = [0u64; MAXK];
        for l in (0..self.k).rev() {
            d[l] = r % self.radix[l];
            r /= self.radix[l];
        }
        d
    }

    /// out = prev ∘ u (out[x] = prev[u[x]]), u the d-th representative of level l.
    #[inline]
    fn compose_rep(&self, prev: &[u8], l: usize, d: u64, out: &mut [u8]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = &self.simd {
            // SAFETY: rows are at least 16 bytes and the tables exist only with SSSE3
            unsafe { t.compose_rep(prev, self.off[l] + d as usize, out) };
            return;
        }
        let u = self.rep(l, d);
        for (o, &ux) in out.iter_mut().zip(u) {
            *o = prev[ux as usize];
        }
    }

    fn rep(&self, l: usize, d: u64) -> &[u8] {
        let start = (self.off[l] + d as usize) * self.degree;
        &self.reps[start..start + self.degree]
    }

    /// The element of rank r as a permutation.
    pub fn unrank(&self, r: u64) -> Perm {
        let d = self.digits(r);
        let mut g: Vec<u8> = (0..self.degree as u8).collect();
        for l in (0..self.k).rev() {
            let u = self.rep(l, d[l]);
            g.iter_mut().for_each(|x| *x = u[*x as usize]);
        }
        Perm::from_images(g)
    }

    pub fn rank(&self, g: &Perm) -> u64 {
        let mut y = [0u8; MAXK];
        for (yl, orbit) in y.iter_mut().zip(&self.orbit) {
            *yl = g.apply(orbit[0] as usize) as u8;
        }
        self.rank_base(&mut y)
    }
}

/// Byte-shuffle ranking for degree ≤ 16: base images live in one 16-byte register, and applying
/// a representative's inverse to all of them is one `pshufb`.
#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{MAXK, Ranker};
    use std::arch::x86_64::*;

    pub struct Tables {
        k: usize,
        pos: Vec<u8>,
        /// inv_at[l * 16 + b]: the inverse of the level-l representative that sends b_l to b,
        /// looked up by the point itself so that it does not wait for the position
        inv_at: Vec<__m128i>,
        reps: Vec<__m128i>,
        bcast: Vec<__m128i>,
        stride: Vec<u64>,
        moves: Vec<__m128i>,
    }

    fn vec16(img: &[u8]) -> __m128i {
        let mut b = [0u8; 16];
        for (i, x) in b.iter_mut().enumerate() {
            *x = img.get(i).copied().unwrap_or(i as u8);
        }
        // SAFETY: an unaligned load of 16 bytes from a 16-byte array
        unsafe { _mm_loadu_si128(b.as_ptr() as *const __m128i) }
    }

    impl Tables {
        pub fn new(rk: &Ranker) -> Option<Tables> {
            if rk.degree > 16 || rk.k > 16 || !is_x86_feature_detected!("ssse3") {
                return None;
            }
            let n = rk.degree;
            let mut pos = vec![0u8; rk.k * 16];
            for l in 0..rk.k {
                for p in 0..n {
                    pos[l * 16 + p] = rk.pos[l * n + p].min(255) as u8;
                }
            }
            Some(Tables {
                k: rk.k,
                pos,
                inv_at: (0..rk.k * 16)
                    .map(|i| {
                        let (l, b) = (i / 16, i % 16);
                        let d = rk
                            .pos
                            .get(l * n + b)
                            .copied()
                            .filter(|&d| d != u32::MAX)
                            .unwrap_or(0) as usize;
                        let start = (rk.off[l] + d) * n;
                        vec16(&rk.inv_reps[start..start + n])
                    })
                    .collect(),
                reps: rk.reps.chunks(n).map(vec16).collect(),
                // SAFETY: SSE2 is part of x86_64
                bcast: (0..rk.k)
                    .map(|l| unsafe { _mm_set1_epi8(l as i8) })
                    .collect(),
                stride: rk.stride.clone(),
                moves: rk.moves.iter().map(|m| vec16(m)).collect(),
            })
        }

        #[target_feature(enable = "ssse3")]
        pub unsafe fn compose_rep(&self, prev: &[u8], i: usize, out: &mut [u8]) {
            assert!(prev.len() >= 16 && out.len() >= 16);
            // SAFETY: both slices hold at least 16 bytes (checked above)
            unsafe {
                let p = _mm_loadu_si128(prev.as_ptr() as *const __m128i);
                _mm_storeu_si128(
                    out.as_mut_ptr() as *mut __m128i,
                    _mm_shuffle_epi8(p, self.reps[i]),
                );
            }
        }

        /// All moves are sifted together, level by level, so that their independent chains of
        /// shuffles overlap in the pipeline.
        #[target_feature(enable = "ssse3")]
        pub unsafe fn neighbour_ranks(&self, x: &[u8; MAXK], out: &mut [u64]) {
            // SAFETY: x has 64 bytes; pos and inv are indexed by points and orbit positions the
            // tables were built for
            let xv = unsafe { _mm_loadu_si128(x.as_ptr() as *const __m128i) };
            let nm = self.moves.len();
            let mut y = [_mm_setzero_si128(); 32];
            for j in 0..nm {
                y[j] = _mm_shuffle_epi8(self.moves[j], xv);
                out[j] = 0;
            }
            for l in 0..self.k {
                let (bc, st, base) = (self.bcast[l], self.stride[l], l * 16);
                for j in 0..nm {
                    let b = (_mm_cvtsi128_si32(_mm_shuffle_epi8(y[j], bc)) & 0xff) as usize;
                    let d = unsafe { *self.pos.get_unchecked(base + b) } as u64;
                    out[j] += d * st;
                    y[j] = _mm_shuffle_epi8(unsafe { *self.inv_at.get_unchecked(base + b) }, y[j]);
                }
            }
        }
    }
}

/// Walks ranks upwards keeping the base images of the current element up to date; moving to
/// the next rank usually touches only the last digit.
struct Cursor<'a> {
    rk: &'a Ranker,
    d: [u64; MAXK],
    /// row m (of `w` bytes) is P_m as an image table
    p: Vec<u8>,
    w: usize,
    x: [u8; MAXK],
    r: u64,
}

impl<'a> Cursor<'a> {
    fn new(rk: &'a Ranker, r: u64) -> Cursor<'a> {
        let w = rk.degree.max(16);
        let row: Vec<u8> = (0..w as u8).collect();
        let p = row.repeat(rk.k);
        let mut c = Cursor {
            rk,
            d: rk.digits(r),
            p,
            w,
            x: [0; MAXK],
            r,
        };
        c.refresh(0);
        c
    }

    /// After the digits from j on changed: P_m depends on the digits before m, x_m on P_m and
    /// d_m, so P_{j+1}.. and x_j.. are recomputed.
    fn refresh(&mut self, j: usize) {
        let (rk, w) = (self.rk, self.w);
        for m in j..rk.k {
            if m > j {
                let (prev, rest) = self.p.split_at_mut(m * w);
                rk.compose_rep(&prev[(m - 1) * w..], m - 1, self.d[m - 1], &mut rest[..w]);
            }
            self.x[m] = self.p[m * w + rk.orbit[m][self.d[m] as usize] as usize];
        }
    }

    fn advance_to(&mut self, r: u64) {
        let rk = self.rk;
        let mut delta = r - self.r;
        self.r = r;
        let mut l = rk.k - 1;
        loop {
            let t = self.d[l] + delta;
            if t < rk.radix[l] {
                self.d[l] = t;
                break;
            }
            self.d[l] = t % rk.radix[l];
            delta = t / rk.radix[l];
            if l == 0 {
                break;
            }
            l -= 1;
        }
        self.refresh(l);
    }
}

fn get(bits: &[AtomicU64], r: u64) -> bool {
    bits[(r >> 6) as usize].load(Ordering::Relaxed) >> (r & 63) & 1 == 1
}

#[inline]
fn prefetch(bits: &[AtomicU64], r: u64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; the address is inside the slice
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch(
            bits.as_ptr().add((r >> 6) as usize) as *const i8,
            _MM_HINT_T0,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (bits, r);
}

fn set(bits: &[AtomicU64], r: u64) {
    bits[(r >> 6) as usize].fetch_or(1 << (r & 63), Ordering::Relaxed);
}

/// Bytes the search needs: three bitsets of |G| bits.
pub fn memory_needed(size: u64) -> u64 {
    3 * size.div_ceil(64) * 8
}

/// The outcome of a full search: elements per distance, and some elements of the last layer.
pub struct Layers {
    pub counts: Vec<u64>,
    pub antipodes: Vec<Perm>,
}

/// How many elements of the last layer a search keeps.
pub const KEEP_ANTIPODES: usize = 1000;

/// Distance distribution from the identity. `on_depth(depth, count)` is called after each layer.
pub fn bfs(rk: &Ranker, ctl: &Ctl, mut on_depth: impl FnMut(usize, u64)) -> Result<Layers> {
    let n = rk.size;
    let words = n.div_ceil(64) as usize;
    let alloc = || (0..words).map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
    let seen = alloc();
    let mut front = alloc();
    let id = rk.rank(&Perm::identity(rk.degree));
    set(&seen, id);
    set(&front, id);
    let nm = rk.moves.len();
    if nm > 32 {
        return Err(Error::limit(
            "the ranked search takes at most 32 moves (generators and inverses)",
        ));
    }
    let mut counts = vec![1u64];
    let mut total = 1u64;
    on_depth(0, 1);
    let blocks: Vec<u64> = (0..n.div_ceil(BLOCK)).collect();
    let mut next = alloc();
    while total < n {
        let frontier = *counts.last().unwrap();
        let backward = frontier > n - total;
        blocks.par_iter().try_for_each(|&b| -> Result<()> {
            ctl.check()?;
            let lo = b * BLOCK;
            let hi = (lo + BLOCK).min(n);
            let mut cur: Option<Cursor> = None;
            // software pipeline: the neighbours of one element are prefetched, then checked
            // while the next element's neighbours are being ranked
            let (mut nb, mut pend) = ([0u64; 32], [0u64; 32]);
            let mut pend_r: Option<u64> = None;
            let look = if backward { &front } else { &seen };
            let check = |r: u64, ranks: &[u64]| {
                for &r2 in ranks {
                    if backward {
                        if get(&front, r2) {
                            set(&next, r);
                            break;
                        }
                    } else if !get(&seen, r2) {
                        set(&next, r2);
                    }
                }
            };
            for w in (lo >> 6)..(hi.div_ceil(64)) {
                let word = if backward {
                    !seen[w as usize].load(Ordering::Relaxed)
                } else {
                    front[w as usize].load(Ordering::Relaxed)
                };
                let mut bitsleft = word;
                while bitsleft != 0 {
                    let r = (w << 6) + bitsleft.trailing_zeros() as u64;
                    bitsleft &= bitsleft - 1;
                    if r >= hi {
                        break;
                    }
                    match cur.as_mut() {
                        Some(c) => c.advance_to(r),
                        None => cur = Some(Cursor::new(rk, r)),
                    }
                    rk.neighbour_ranks(&cur.as_ref().unwrap().x, &mut nb[..nm]);
                    for &r2 in &nb[..nm] {
                        prefetch(look, r2);
                    }
                    if let Some(pr) = pend_r {
                        check(pr, &pend[..nm]);
                    }
                    std::mem::swap(&mut nb, &mut pend);
                    pend_r = Some(r);
                }
            }
            if let Some(pr) = pend_r {
                check(pr, &pend[..nm]);
            }
            Ok(())
        })?;
        let found: u64 = next
            .par_iter()
            .zip(seen.par_iter())
            .map(|(x, s)| {
                let v = x.load(Ordering::Relaxed) & !s.load(Ordering::Relaxed);
                x.store(v, Ordering::Relaxed);
                s.fetch_or(v, Ordering::Relaxed);
                v.count_ones() as u64
            })
            .sum();
        if found == 0 {
            return Err(Error::limit(format!(
                "the search stopped at {total} of {n} elements: the generators do not reach the whole group"
            )));
        }
        total += found;
        counts.push(found);
        on_depth(counts.len() - 1, found);
        std::mem::swap(&mut front, &mut next);
        next.par_iter().for_each(|x| x.store(0, Ordering::Relaxed));
    }
    let mut antipodes = vec![];
    'scan: for (w, word) in front.iter().enumerate() {
        let mut bits = word.load(Ordering::Relaxed);
        while bits != 0 {
            antipodes.push(rk.unrank((w as u64) << 6 | bits.trailing_zeros() as u64));
            if antipodes.len() == KEEP_ANTIPODES {
                break 'scan;
            }
            bits &= bits - 1;
        }
    }
    Ok(Layers { counts, antipodes })
}
