//! Ranked, bit-packed breadth-first search of a Cayley graph (twsearch style), indexing the
//! group itself through its stabilizer chain: an element is the tuple of transversal positions
//! (d_0, ..., d_{k-1}) read as a mixed-radix number, so the search keeps 2 bits per element.
//!
//! Only the images of the base points are ever needed: the element g = u_{k-1}·…·u_0 (u_l the
//! d_l-th coset representative of level l) sends b_m to P_m(orbit_m[d_m]) with
//! P_m = u_0 ∘ … ∘ u_{m-1}, and the rank of g·s is found by sifting s(g(b_m)).
use super::perm::Perm;
use super::schreier::StabChain;
use crate::engine::control::num;
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
    /// None when the group is too large to index in 64 bits (or its degree passes the 255
    /// points that the byte tables hold).
    pub fn new(chain: &StabChain, moves: &[Perm]) -> Option<Ranker> {
        let k = chain.levels.len();
        if k > MAXK || chain.degree > 255 {
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
                        .iter()
                        .map(|&x| x as u8)
                        .collect::<Vec<u8>>()
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
                .map(|m| m.extended(n).images().iter().map(|&x| x as u8).collect())
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

    /// Ranks of g·s for each job (g, s) (at most 32), all sifted together.
    #[inline]
    fn job_ranks(&self, jobs: &[Job], out: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = &self.simd {
            // SAFETY: the tables exist only where the CPU has SSSE3 (checked when they were made)
            unsafe { t.job_ranks(jobs, out) };
            return;
        }
        let mut y = [0u8; MAXK];
        for (job, o) in jobs.iter().zip(out.iter_mut()) {
            let m = &self.moves[job.mv];
            for l in 0..self.k {
                y[l] = m[job.x[l] as usize];
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
        let mut g: Vec<u16> = (0..self.degree as u16).collect();
        for l in (0..self.k).rev() {
            let u = self.rep(l, d[l]);
            g.iter_mut().for_each(|x| *x = u[*x as usize] as u16);
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
    use super::{Job, MAXK, Ranker};
    use std::arch::x86_64::*;

    /// Elements sifted side by side: six fill the pipeline and keep their state in registers.
    const LANES: usize = 6;

    pub struct Tables {
        /// levels sifted two at a time, then one at a time up to `sifted`; the tail, if any,
        /// does the rest
        pairs: usize,
        sifted: usize,
        /// pair p, points a (of level 2p) and c (of level 2p + 1) at p * 256 + a + 16 c: the
        /// two levels' inverses composed, and their rank
        pair_inv: Vec<__m128i>,
        pair_rank: Vec<u64>,
        /// moves the points of pair p's levels to the two low bytes
        pair_sel: Vec<__m128i>,
        tail: Option<Tail>,
        pos: Vec<u8>,
        /// inv_at[l * 16 + b]: the inverse of the level-l representative that sends b_l to b,
        /// looked up by the point itself so that it does not wait for the position
        inv_at: Vec<__m128i>,
        reps: Vec<__m128i>,
        bcast: Vec<__m128i>,
        stride: Vec<u64>,
        moves: Vec<__m128i>,
    }

    /// The last levels of the chain in one step: what is left after the earlier levels is an
    /// element of a small stabilizer, known by the images of the tail's base points, and a
    /// perfect multiplicative hash of those images gives its rank.
    struct Tail {
        /// moves the images of the tail's base points to the low bytes
        select: __m128i,
        mul: u64,
        shift: u32,
        rank: Vec<u16>,
    }

    /// Stabilizers of at most this many elements are looked up rather than sifted.
    const TAIL: u64 = 1024;

    fn tail(rk: &Ranker) -> Option<(usize, Tail)> {
        let (mut t, mut size) = (rk.k, 1u64);
        while t > 0 && rk.k - t < 8 && size * rk.radix[t - 1] <= TAIL {
            t -= 1;
            size *= rk.radix[t];
        }
        if rk.k - t < 2 {
            return None;
        }
        // the rank r < size has zero digits before level t, so it is the residual itself
        let keys: Vec<u64> = (0..size)
            .map(|r| {
                let g = rk.unrank(r);
                (t..rk.k)
                    .map(|m| (g.apply(rk.orbit[m][0] as usize) as u64) << (8 * (m - t)))
                    .sum()
            })
            .collect();
        let mut seed = 0;
        for bits in 12..=20 {
            for _ in 0..1000 {
                let (mul, shift) = (super::splitmix(&mut seed) | 1, 64 - bits);
                let mut rank = vec![u16::MAX; 1 << bits];
                let perfect = keys.iter().enumerate().all(|(r, &key)| {
                    let slot = &mut rank[(key.wrapping_mul(mul) >> shift) as usize];
                    let free = *slot == u16::MAX;
                    *slot = r as u16;
                    free
                });
                if perfect {
                    let mut select = [0x80u8; 16];
                    for m in t..rk.k {
                        select[m - t] = m as u8;
                    }
                    // SAFETY: an unaligned load of 16 bytes from a 16-byte array
                    let select = unsafe { _mm_loadu_si128(select.as_ptr() as *const __m128i) };
                    return Some((
                        t,
                        Tail {
                            select,
                            mul,
                            shift,
                            rank,
                        },
                    ));
                }
            }
        }
        None
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
            let (sifted, tail) = match tail(rk) {
                Some((t, tail)) => (t, Some(tail)),
                None => (rk.k, None),
            };
            let mut pos = vec![0u8; rk.k * 16];
            for l in 0..rk.k {
                for p in 0..n {
                    pos[l * 16 + p] = rk.pos[l * n + p].min(255) as u8;
                }
            }
            let inv_at: Vec<[u8; 16]> = (0..rk.k * 16)
                .map(|i| {
                    let (l, b) = (i / 16, i % 16);
                    let d = rk
                        .pos
                        .get(l * n + b)
                        .copied()
                        .filter(|&d| d != u32::MAX)
                        .unwrap_or(0) as usize;
                    let start = (rk.off[l] + d) * n;
                    let mut v: [u8; 16] = std::array::from_fn(|x| x as u8);
                    v[..n].copy_from_slice(&rk.inv_reps[start..start + n]);
                    v
                })
                .collect();
            let pairs = sifted / 2;
            let (mut pair_inv, mut pair_rank, mut pair_sel) = (vec![], vec![], vec![]);
            for p in 0..pairs {
                let l = 2 * p;
                for i in 0..256 {
                    let (a, c) = (i % 16, i / 16);
                    let u = inv_at[l * 16 + a];
                    let c2 = u[c] as usize;
                    let v = inv_at[(l + 1) * 16 + c2];
                    pair_inv.push(vec16(&std::array::from_fn::<u8, 16, _>(|x| {
                        v[u[x] as usize]
                    })));
                    pair_rank.push(
                        pos[l * 16 + a] as u64 * rk.stride[l]
                            + pos[(l + 1) * 16 + c2] as u64 * rk.stride[l + 1],
                    );
                }
                let mut sel = [0x80u8; 16];
                sel[0] = l as u8;
                sel[1] = l as u8 + 1;
                pair_sel.push(vec16(&sel));
            }
            Some(Tables {
                pairs,
                sifted,
                pair_inv,
                pair_rank,
                pair_sel,
                tail,
                pos,
                inv_at: inv_at.iter().map(|v| vec16(v)).collect(),
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

        /// All moves are sifted side by side, so that their independent chains of shuffles
        /// overlap in the pipeline.
        #[target_feature(enable = "ssse3")]
        pub unsafe fn neighbour_ranks(&self, x: &[u8; MAXK], out: &mut [u64]) {
            // SAFETY: x has 64 bytes
            let xv = unsafe { _mm_loadu_si128(x.as_ptr() as *const __m128i) };
            let mut y = [_mm_setzero_si128(); 32];
            for (j, m) in self.moves.iter().enumerate() {
                y[j] = _mm_shuffle_epi8(*m, xv);
            }
            // SAFETY: SSSE3 is enabled here as well
            unsafe { self.sift_all(&y[..self.moves.len()], out) };
        }

        #[target_feature(enable = "ssse3")]
        pub unsafe fn job_ranks(&self, jobs: &[Job], out: &mut [u64]) {
            let mut y = [_mm_setzero_si128(); 32];
            for (j, job) in jobs.iter().enumerate() {
                // SAFETY: x has 64 bytes
                let xv = unsafe { _mm_loadu_si128(job.x.as_ptr() as *const __m128i) };
                y[j] = _mm_shuffle_epi8(self.moves[job.mv], xv);
            }
            // SAFETY: SSSE3 is enabled here as well
            unsafe { self.sift_all(&y[..jobs.len()], out) };
        }

        /// The ranks of the elements whose base images are y, LANES at a time (the last group
        /// padded), so that the lanes stay in registers.
        #[target_feature(enable = "ssse3")]
        #[inline]
        unsafe fn sift_all(&self, y: &[__m128i], out: &mut [u64]) {
            for (yc, oc) in y.chunks(LANES).zip(out.chunks_mut(LANES)) {
                let mut lanes = [yc[0]; LANES];
                lanes[..yc.len()].copy_from_slice(yc);
                // SAFETY: SSSE3 is enabled here as well
                let r = unsafe { self.sift(lanes) };
                oc.copy_from_slice(&r[..oc.len()]);
            }
        }

        /// The ranks of the elements whose base images are y.
        #[target_feature(enable = "ssse3")]
        #[inline]
        unsafe fn sift(&self, mut y: [__m128i; LANES]) -> [u64; LANES] {
            let mut out = [0u64; LANES];
            for p in 0..self.pairs {
                let (sel, base) = (self.pair_sel[p], p * 256);
                for j in 0..LANES {
                    let w = _mm_cvtsi128_si32(_mm_shuffle_epi8(y[j], sel)) as usize;
                    let i = base + ((w | w >> 4) & 0xff);
                    // SAFETY: i is below (p + 1) * 256
                    out[j] += unsafe { *self.pair_rank.get_unchecked(i) };
                    y[j] = _mm_shuffle_epi8(unsafe { *self.pair_inv.get_unchecked(i) }, y[j]);
                }
            }
            for l in 2 * self.pairs..self.sifted {
                let (bc, st, base) = (self.bcast[l], self.stride[l], l * 16);
                for j in 0..LANES {
                    let b = (_mm_cvtsi128_si32(_mm_shuffle_epi8(y[j], bc)) & 0xff) as usize;
                    // SAFETY: pos and inv_at are indexed by a level and a point of the degree
                    // the tables were built for
                    let d = unsafe { *self.pos.get_unchecked(base + b) } as u64;
                    out[j] += d * st;
                    y[j] = _mm_shuffle_epi8(unsafe { *self.inv_at.get_unchecked(base + b) }, y[j]);
                }
            }
            if let Some(t) = &self.tail {
                for j in 0..LANES {
                    let key = _mm_cvtsi128_si64(_mm_shuffle_epi8(y[j], t.select)) as u64;
                    // SAFETY: the hash is shifted down to the table's bits
                    let r = unsafe {
                        *t.rank
                            .get_unchecked((key.wrapping_mul(t.mul) >> t.shift) as usize)
                    };
                    out[j] += r as u64;
                }
            }
            out
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

/// The search keeps two bits for each element: unseen, seen before the frontier, in the
/// frontier, or found for the next layer. Between steps one pass turns the frontier into old
/// and the next layer into the frontier.
const UNSEEN: u64 = 0;
const FRONT: u64 = 2;
const NEXT: u64 = 3;
/// the low bit of every field of a word
const LOW: u64 = 0x5555_5555_5555_5555;

fn state(st: &[AtomicU64], r: u64) -> u64 {
    st[(r >> 5) as usize].load(Ordering::Relaxed) >> ((r & 31) * 2) & 3
}

/// Puts an unseen element into the next layer; false if another thread did so first. During a
/// step only unseen fields change, and all to NEXT, so or-ing the bits in is safe.
fn mark(st: &[AtomicU64], r: u64) -> bool {
    let sh = (r & 31) * 2;
    st[(r >> 5) as usize].fetch_or(NEXT << sh, Ordering::Relaxed) >> sh & 3 == UNSEEN
}

#[inline]
fn prefetch(st: &[AtomicU64], r: u64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; the address is inside the slice
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch(st.as_ptr().add((r >> 5) as usize) as *const i8, _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (st, r);
}

/// Bytes the search needs: two bits for each element.
pub fn memory_needed(size: u64) -> u64 {
    size.div_ceil(32) * 8
}

/// The outcome of a full search: elements per distance, and the least elements of the last
/// layer (by their image lists).
pub struct Layers {
    pub counts: Vec<u64>,
    pub antipodes: Vec<Perm>,
}

/// How many elements of the last layer a search keeps.
pub const KEEP_ANTIPODES: usize = 1000;

/// How a layer is found: forward, every frontier element marks its unseen neighbours; backward,
/// every unseen element looks for a neighbour in the frontier and stops at the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Backward,
}

impl Direction {
    pub fn name(self) -> &'static str {
        match self {
            Direction::Forward => "forward",
            Direction::Backward => "backward",
        }
    }
}

/// Ranks sifted together on a backward step, so that their independent chains of shuffles
/// overlap in the pipeline.
const ROUND: usize = 12;
/// Random draws that estimate the cost of a backward step.
const DRAWS: u32 = 1 << 13;

/// The elements of [lo, hi) whose fields `mask` picks (word -> one low bit per chosen field),
/// in increasing order.
fn scan<'a>(
    st: &'a [AtomicU64],
    lo: u64,
    hi: u64,
    mask: impl Fn(u64) -> u64 + 'a,
) -> impl Iterator<Item = u64> + 'a {
    ((lo >> 5)..hi.div_ceil(32)).flat_map(move |w| {
        let mut bits = mask(st[w as usize].load(Ordering::Relaxed));
        std::iter::from_fn(move || {
            let r = (w << 5) + (bits.trailing_zeros() / 2) as u64;
            if bits == 0 || r >= hi {
                return None;
            }
            bits &= bits - 1;
            Some(r)
        })
    })
}

fn front_mask(w: u64) -> u64 {
    w >> 1 & !w & LOW
}

fn unseen_mask(w: u64) -> u64 {
    !(w | w >> 1) & LOW
}

/// A forward step over the frontier elements of [lo, hi); returns how many it put in the next
/// layer. The neighbours of one element are prefetched, then looked at while the next
/// element's neighbours are being ranked.
fn forward(rk: &Ranker, st: &[AtomicU64], lo: u64, hi: u64) -> u64 {
    let nm = rk.moves.len();
    let mut cur: Option<Cursor> = None;
    let (mut nb, mut pend) = ([0u64; 32], [0u64; 32]);
    let mut pending = false;
    let mut found = 0;
    let mut settle = |ranks: &[u64]| {
        for &r2 in ranks {
            if state(st, r2) == UNSEEN && mark(st, r2) {
                found += 1;
            }
        }
    };
    for r in scan(st, lo, hi, front_mask) {
        match cur.as_mut() {
            Some(c) => c.advance_to(r),
            None => cur = Some(Cursor::new(rk, r)),
        }
        rk.neighbour_ranks(&cur.as_ref().unwrap().x, &mut nb[..nm]);
        for &r2 in &nb[..nm] {
            prefetch(st, r2);
        }
        if pending {
            settle(&pend[..nm]);
        }
        std::mem::swap(&mut nb, &mut pend);
        pending = true;
    }
    if pending {
        settle(&pend[..nm]);
    }
    found
}

/// An unseen element g (rank r, base images x) of a backward step and the move s it tries:
/// is g·s in the frontier?
#[derive(Clone, Copy)]
struct Job {
    r: u64,
    x: [u8; MAXK],
    mv: usize,
}

/// A backward step over the unseen elements of [lo, hi); returns how many it put in the next
/// layer. Each element tries one move at a time and stops at the first frontier neighbour.
/// Rounds of ROUND jobs are ranked together and their bits prefetched; a round's bits are
/// looked at after the next round is ranked, and the elements that found nothing yet try
/// their next move in the round after that.
fn backward(rk: &Ranker, st: &[AtomicU64], lo: u64, hi: u64) -> u64 {
    let nm = rk.moves.len();
    let mut cur: Option<Cursor> = None;
    let mut unseen = scan(st, lo, hi, unseen_mask);
    let (mut jobs, mut prev, mut carry): (Vec<Job>, Vec<Job>, Vec<Job>) = (vec![], vec![], vec![]);
    let (mut ranks, mut prev_ranks) = ([0u64; ROUND], [0u64; ROUND]);
    let mut found = 0;
    loop {
        std::mem::swap(&mut jobs, &mut carry);
        while jobs.len() < ROUND {
            let Some(r) = unseen.next() else { break };
            match cur.as_mut() {
                Some(c) => c.advance_to(r),
                None => cur = Some(Cursor::new(rk, r)),
            }
            let x = cur.as_ref().unwrap().x;
            jobs.push(Job { r, x, mv: 0 });
        }
        rk.job_ranks(&jobs, &mut ranks);
        for &r2 in &ranks[..jobs.len()] {
            prefetch(st, r2);
        }
        carry.clear();
        for (job, &r2) in prev.iter().zip(&prev_ranks) {
            if state(st, r2) == FRONT {
                // only this block's own thread writes its unseen fields on a backward step
                mark(st, job.r);
                found += 1;
            } else if job.mv + 1 < nm {
                carry.push(Job {
                    mv: job.mv + 1,
                    ..*job
                });
            }
        }
        if jobs.is_empty() && carry.is_empty() {
            return found;
        }
        std::mem::swap(&mut prev, &mut jobs);
        std::mem::swap(&mut prev_ranks, &mut ranks);
        jobs.clear();
    }
}

fn splitmix(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The expected number of ranks a backward step computes: the unseen elements among a fixed
/// sample of random elements try their moves as the step would, and the count is scaled to all
/// unseen elements (each tries every move when none is in the sample).
fn backward_cost(rk: &Ranker, st: &[AtomicU64], unseen: u64) -> f64 {
    let nm = rk.moves.len();
    let mut seed = 0;
    let (mut sampled, mut ranks) = (0u64, 0u64);
    let mut out = [0u64];
    for _ in 0..DRAWS {
        let r = splitmix(&mut seed) % rk.size;
        if state(st, r) != UNSEEN {
            continue;
        }
        sampled += 1;
        let x = Cursor::new(rk, r).x;
        for mv in 0..nm {
            rk.job_ranks(&[Job { r, x, mv }], &mut out);
            ranks += 1;
            if state(st, out[0]) == FRONT {
                break;
            }
        }
    }
    if sampled == 0 {
        return (unseen * nm as u64) as f64;
    }
    unseen as f64 * ranks as f64 / sampled as f64
}

/// Distance distribution from the identity. Each layer goes the way that computes fewer ranks
/// (frontier × moves forward, the sampled estimate backward) unless `only` fixes the direction;
/// the layers found never depend on it. `on_depth(depth, count, direction)` is called after
/// each layer (with no direction for the identity).
pub fn bfs(
    rk: &Ranker,
    ctl: &Ctl,
    only: Option<Direction>,
    mut on_depth: impl FnMut(usize, u64, Option<Direction>),
) -> Result<Layers> {
    let n = rk.size;
    let nm = rk.moves.len();
    if nm > 32 {
        return Err(Error::limit(
            "the ranked search takes at most 32 moves (generators and inverses)",
        ));
    }
    ctl.reserve(memory_needed(n), "the ranked search")?;
    let st: Vec<AtomicU64> = (0..n.div_ceil(32)).map(|_| AtomicU64::new(0)).collect();
    let task = ctl.task("ranked search (elements reached)", Some(n));
    let id = rk.rank(&Perm::identity(rk.degree));
    st[(id >> 5) as usize].store(FRONT << ((id & 31) * 2), Ordering::Relaxed);
    let mut counts = vec![1u64];
    let mut total = 1u64;
    task.set(total)?;
    on_depth(0, 1, None);
    while total < n {
        let frontier = *counts.last().unwrap();
        let unseen = n - total;
        let dir = only.unwrap_or_else(|| {
            let ahead = (frontier * nm as u64) as f64;
            if ahead <= unseen as f64 || ahead <= backward_cost(rk, &st, unseen) {
                Direction::Forward
            } else {
                Direction::Backward
            }
        });
        (0..n.div_ceil(BLOCK))
            .into_par_iter()
            .try_for_each(|b| -> Result<()> {
                ctl.check()?;
                let (lo, hi) = (b * BLOCK, ((b + 1) * BLOCK).min(n));
                task.tick(match dir {
                    Direction::Forward => forward(rk, &st, lo, hi),
                    Direction::Backward => backward(rk, &st, lo, hi),
                })
            })?;
        // the next layer becomes the frontier, the frontier old
        let found = st
            .par_chunks(BLOCK as usize)
            .map(|ws| -> Result<u64> {
                ctl.check()?;
                Ok(ws
                    .iter()
                    .map(|w| {
                        let v = w.load(Ordering::Relaxed);
                        let next = v & v >> 1 & LOW;
                        w.store(next << 1 | ((v | v >> 1) & LOW & !next), Ordering::Relaxed);
                        next.count_ones() as u64
                    })
                    .sum())
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        if found == 0 {
            return Err(Error::limit(format!(
                "the search stopped at {} of {} elements: the generators do not reach the whole group",
                num(total),
                num(n)
            )));
        }
        total += found;
        task.set(total)?;
        counts.push(found);
        on_depth(counts.len() - 1, found, Some(dir));
    }
    // the least by their image lists, not the first by rank: ranks depend on the chain's base
    // and transversals, which random Schreier–Sims chooses
    let antipodes = (0..n.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| -> Result<Vec<Perm>> {
            ctl.check()?;
            let (lo, hi) = (b * BLOCK, ((b + 1) * BLOCK).min(n));
            Ok(least(scan(&st, lo, hi, front_mask).map(|r| rk.unrank(r))))
        })
        .try_reduce(Vec::new, |a, b| Ok(least(a.into_iter().chain(b))))?;
    Ok(Layers { counts, antipodes })
}

/// The `KEEP_ANTIPODES` least elements, in increasing order.
fn least(elements: impl Iterator<Item = Perm>) -> Vec<Perm> {
    let mut heap = std::collections::BinaryHeap::new();
    for p in elements {
        if heap.len() < KEEP_ANTIPODES {
            heap.push(p);
        } else if heap.peek().is_some_and(|top| p < *top) {
            heap.pop();
            heap.push(p);
        }
    }
    heap.into_sorted_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::group::Board;
    use crate::engine::group::schreier::StabChain;

    /// The paired and hashed sift of the 4x4 hard group (13 levels: 4 pairs and a tail of 5)
    /// against the plain scalar one, on random elements and every move.
    #[test]
    fn paired_sift_and_tail_agree_with_scalar_ranks() {
        let b = Board {
            rows: 4,
            cols: 4,
            torus: false,
        };
        let gens = [
            b.shift("right", None).unwrap(),
            b.shift("up", None).unwrap(),
            b.ring_rotate(),
        ];
        let moves: Vec<Perm> = gens.iter().flat_map(|g| [g.clone(), g.inverse()]).collect();
        let rk = Ranker::new(&StabChain::new(16, &gens), &moves).unwrap();
        let mut seed = 1;
        let mut out = [0u64; 32];
        for _ in 0..2000 {
            let r = splitmix(&mut seed) % rk.size;
            let g = rk.unrank(r);
            let x = Cursor::new(&rk, r).x;
            rk.neighbour_ranks(&x, &mut out[..moves.len()]);
            let jobs: Vec<Job> = (0..moves.len()).map(|mv| Job { r, x, mv }).collect();
            let mut by_jobs = [0u64; 32];
            rk.job_ranks(&jobs, &mut by_jobs);
            for (mv, s) in moves.iter().enumerate() {
                let want = rk.rank(&g.then(s));
                assert_eq!((out[mv], by_jobs[mv]), (want, want));
            }
        }
    }
}
