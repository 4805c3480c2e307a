//! The fast value engine for octal codes with a bounded take and splits into two heaps.
//!
//! Values are u16 (2 bytes per heap). A heap's options come from takes (a lookup each) and
//! splits (pairs a + b = n - k). The engine keeps a set C of "common" keys such that two common
//! members never combine to a common key; then a common candidate value can only be hit by a
//! pair with a rare member, and those pairs are few. Only rare candidates below the smallest
//! missing common value need the full scan over all pairs, which ends as soon as each is found.
//!
//! A key is a value with the heap's parity when every split takes amounts of one parity d
//! (then a pair's parities add up to that of n - d; Czajka's position bit), else the value
//! alone. C is rebuilt from the key histogram as the heaps grow (at powers of two, and when
//! the rare positions grow by a quarter): the best affine mask (parity of key & m, found by a
//! Walsh–Hadamard transform) or a greedy set by frequency (Beling's RC2), whichever leaves
//! fewer rare positions. When no split leaves few rare positions, each heap runs the plain
//! loop over all pairs, vectorised: XOR of u16 values and a bit mask of the values seen.
use super::{Code, Parts};
use crate::engine::{Ctl, Error, Result};

/// The moves of a code, when the fast engine applies (bounded take, no three-heap splits).
pub struct Rules {
    /// take k from a heap of exactly k
    wholes: Vec<u64>,
    /// take k, leave one heap of n - k > 0
    takes: Vec<u64>,
    /// take k, split n - k into two non-empty heaps
    splits: Vec<u64>,
    unequal: bool,
    /// 1 when every split takes an amount of one parity: keys then carry the heap's parity
    pbit: u32,
    /// that parity (0 when pbit is 0)
    d: u32,
}

impl Rules {
    pub fn of(code: &Code) -> Option<Rules> {
        let t = code.max_take()?;
        if code.digits.iter().any(|d| d & 8 != 0) {
            return None;
        }
        // one rule for all two-heap splits, any or unequal (`!` and `?` agree on two heaps);
        // `=` and mixed rules go to the plain engines
        let rules: Vec<bool> = (0..=t)
            .filter(|&k| code.digit(k) & 4 != 0)
            .map(|k| match code.parts(k) {
                Parts::Any => Some(false),
                Parts::Unequal | Parts::SomeUnequal => Some(true),
                Parts::Equal => None,
            })
            .collect::<Option<_>>()?;
        if rules.windows(2).any(|w| w[0] != w[1]) {
            return None;
        }
        let mut r = Rules {
            wholes: vec![],
            takes: vec![],
            splits: vec![],
            unequal: rules.first() == Some(&true),
            pbit: 0,
            d: 0,
        };
        for k in 0..=t {
            let dg = code.digit(k);
            if k > 0 && dg & 1 != 0 {
                r.wholes.push(k);
            }
            if k > 0 && dg & 2 != 0 {
                r.takes.push(k);
            }
            if dg & 4 != 0 {
                r.splits.push(k);
            }
        }
        let odd = r.splits.iter().filter(|&&k| k % 2 == 1).count();
        if odd == 0 || odd == r.splits.len() {
            r.pbit = 1;
            r.d = (odd > 0) as u32;
        }
        Some(r)
    }
}

/// Far pairs to mark for heaps n0..n1: the rare positions at least 2·BLOCK back, as known
/// when the job was made.
struct FarJob {
    n0: u64,
    n1: u64,
    rare: Vec<u32>,
    rare_g: Vec<u16>,
    splits: Vec<u64>,
    unequal: bool,
    size: usize,
    snap: usize,
}

/// Byte maps of `size` bytes for heaps n0.. (1 at v: a far pair gives v), and how many rare
/// positions were known when they were made (those found later are near).
struct FarMaps {
    n0: u64,
    n1: u64,
    size: usize,
    snap: usize,
    maps: Vec<u8>,
}

impl FarJob {
    fn fill(self, g: &[u16], parallel: bool) -> FarMaps {
        let size = self.size;
        let mut maps = vec![0u8; size * (self.n1 - self.n0) as usize];
        let fill = |j0: usize, maps: &mut [u8]| {
            let (rare, rare_g, splits) = (&self.rare[..], &self.rare_g[..], &self.splits[..]);
            let n0 = self.n0 + j0 as u64;
            fill_far(g, rare, rare_g, splits, self.unequal, n0, maps, size)
        };
        let half = ((self.n1 - self.n0) as usize / 2) * size;
        let (a, b) = maps.split_at_mut(half);
        if parallel && self.rare.len() >= 64 {
            rayon::join(|| fill(0, a), || fill(half / size, b));
        } else {
            fill(0, a);
            fill(half / size, b);
        }
        FarMaps {
            n0: self.n0,
            n1: self.n1,
            size,
            snap: self.snap,
            maps,
        }
    }
}

/// Heaps per block of the two-phase sparse step.
const BLOCK: u64 = 256;

/// Below this many heaps C is never used: plain loop.
const WARM: u64 = 256;

struct Engine<'a> {
    r: &'a Rules,
    g: Vec<u16>,
    /// seen[v] == cur: v is an option value of the current heap
    seen: Vec<u32>,
    /// want[v] == cur: v is a rare candidate still looked for
    want: Vec<u32>,
    cur: u32,
    /// every value so far is below 1 << bits
    bits: u32,
    /// common[key], key = value << 1 | (heap & pbit)
    common: Vec<bool>,
    hist: Vec<u64>,
    rare: Vec<u32>,
    rare_g: Vec<u16>,
    /// rare positions when C was last built
    rare_built: usize,
    sparse: bool,
    next_check: u64,
    /// pairs looked at by the scans since the last rebuild, and heaps since then
    scanned: u64,
    since: u64,
    missing: Vec<u16>,
    /// the far maps of the next block, made while the previous one ran
    ready: Option<FarMaps>,
}

impl<'a> Engine<'a> {
    fn new(r: &'a Rules, n: u64) -> Engine<'a> {
        Engine {
            r,
            g: Vec::with_capacity(n as usize + 1),
            seen: vec![0; 1 << 16],
            want: vec![0; 1 << 16],
            cur: 0,
            bits: 0,
            common: vec![false; 1 << 17],
            hist: vec![0; 1 << 17],
            rare: vec![],
            rare_g: vec![],
            rare_built: 0,
            sparse: false,
            next_check: WARM,
            scanned: 0,
            since: 0,
            missing: vec![],
            ready: None,
        }
    }

    #[inline]
    fn key(&self, v: u16, n: u64) -> usize {
        ((v as usize) << 1) | (n as usize & self.r.pbit as usize)
    }

    #[inline]
    fn mark(&mut self, v: u16) {
        self.seen[v as usize] = self.cur;
    }

    /// Marks take moves; returns their values as a bit mask when all are below 64 (else marks).
    fn takes(&mut self, n: u64) {
        for i in 0..self.r.wholes.len() {
            if self.r.wholes[i] == n {
                self.mark(0);
            }
        }
        for i in 0..self.r.takes.len() {
            let k = self.r.takes[i];
            if k < n {
                let v = self.g[(n - k) as usize];
                self.mark(v);
            }
        }
    }

    fn next_stamp(&mut self) {
        self.cur = self.cur.wrapping_add(1);
        if self.cur == 0 {
            self.seen.fill(0);
            self.want.fill(0);
            self.cur = 1;
        }
    }

    /// Heaps n0..n1 in sparse mode with values below 512: the pairs whose rare member lies at
    /// least 2·BLOCK back need only values from before the previous block, so they are marked
    /// for every heap of the block while the previous block runs, on the other thread (or
    /// first, split across both, when nothing was prepared); then each heap adds its near
    /// pairs and is finished. `next` is the end of the following block, if there is one.
    fn block(&mut self, n0: u64, n1: u64, next: Option<u64>) -> Result<()> {
        let far = self.rare.partition_point(|&r| (r as u64) < 2 * BLOCK);
        let maps = match self.ready.take() {
            Some(m) if (m.n0, m.n1) == (n0, n1) => m,
            _ => self.far_maps(n0, n1, far, true),
        };
        let job = next.map(|n2| self.far_job(n1, n2, far));
        // run_block only pushes the values of heaps n0..n1, within g's capacity (reserved in
        // `new`): the values before n0 stay in place, unchanged, for the other thread
        assert!(self.g.len() == n0 as usize && self.g.capacity() >= n1 as usize);
        let before: &[u16] = unsafe { std::slice::from_raw_parts(self.g.as_ptr(), n0 as usize) };
        let (done, ready) = rayon::join(
            || self.run_block(&maps, far),
            || job.map(|j| j.fill(before, false)),
        );
        self.ready = ready;
        done
    }

    /// The far maps of heaps n0..n1 from the values so far.
    fn far_maps(&self, n0: u64, n1: u64, far: usize, parallel: bool) -> FarMaps {
        self.far_job(n0, n1, far).fill(&self.g, parallel)
    }

    /// What marking the far pairs of heaps n0..n1 needs: the rare positions known now.
    fn far_job(&self, n0: u64, n1: u64, far: usize) -> FarJob {
        FarJob {
            n0,
            n1,
            rare: self.rare[far..].to_vec(),
            rare_g: self.rare_g[far..].to_vec(),
            splits: self.r.splits.clone(),
            unequal: self.r.unequal,
            // far pairs combine values from before: all below 1 << bits
            size: 1 << self.bits.max(6),
            snap: self.rare.len(),
        }
    }

    /// The heaps of a block with their far pairs marked in `maps`; the near pairs are those
    /// with a rare member below index `far` or found since the maps were made.
    fn run_block(&mut self, maps: &FarMaps, far: usize) -> Result<()> {
        let (n0, n1, size, snap) = (maps.n0, maps.n1, maps.size, maps.snap);
        let maps = &maps.maps;
        for n in n0..n1 {
            self.next_stamp();
            let cur = self.cur;
            self.takes(n);
            for &k in &self.r.splits {
                if k + 2 > n {
                    break;
                }
                let (g, seen, u) = (&self.g[..], &mut self.seen[..], self.r.unequal);
                let (near, near_g) = (&self.rare[..far], &self.rare_g[..far]);
                mark_rare_below(g, seen, near, near_g, n - k, u, cur);
                let (new, new_g) = (&self.rare[snap..], &self.rare_g[snap..]);
                mark_rare_below(g, seen, new, new_g, n - k, u, cur);
            }
            let v = self.finish(n, &maps[(n - n0) as usize * size..][..size]);
            self.push(n, v)?;
        }
        Ok(())
    }

    fn step(&mut self, n: u64) -> u16 {
        self.next_stamp();
        if !self.sparse {
            return self.naive_step(n);
        }
        self.takes(n);
        let cur = self.cur;
        for &k in &self.r.splits {
            if k + 2 > n {
                break;
            }
            let (rare, rare_g) = (&self.rare[..], &self.rare_g[..]);
            mark_rare_below(
                &self.g,
                &mut self.seen,
                rare,
                rare_g,
                n - k,
                self.r.unequal,
                cur,
            );
        }
        self.finish(n, &[])
    }

    /// The value of heap n once takes and every pair with a rare member are marked (in
    /// `seen`, or as 1 in the byte map `far`): the smallest value certainly not an option
    /// (seen by no pair and common, or beyond every value, which no option reaches); rare ones
    /// on the way are settled by the scan.
    fn finish(&mut self, n: u64, far: &[u8]) -> u16 {
        let cur = self.cur;
        let top = 1u32 << self.bits;
        let mut v = 0u32;
        self.missing.clear();
        loop {
            if v >= top {
                break;
            }
            if self.seen[v as usize] != cur && far.get(v as usize) != Some(&1) {
                if self.common[self.key(v as u16, n)] {
                    break;
                }
                self.missing.push(v as u16);
                self.want[v as usize] = cur;
            }
            v += 1;
        }
        if self.missing.is_empty() {
            return v as u16;
        }
        let mut left = self.missing.len();
        let g = &self.g[..];
        let want = &mut self.want[..];
        let mut pairs = 0u64;
        if self.r.splits.len() == 1 {
            let m = n - self.r.splits[0];
            let h = m / 2 - (self.r.unequal && m.is_multiple_of(2)) as u64;
            pairs = scan_one(
                g,
                want,
                &self.missing,
                m as usize,
                1,
                h as usize,
                cur,
                &mut left,
            );
        } else {
            // windows of pairs, every split in turn, so that small a come first everywhere
            const WINDOW: u64 = 512;
            let longest = self.r.splits.iter().map(|&k| n.saturating_sub(k) / 2).max();
            let mut still: Vec<u16> = vec![];
            let mut a0 = 1;
            'scan: while a0 <= longest.unwrap_or(0) {
                for &k in &self.r.splits {
                    if k + 2 * a0 > n {
                        break;
                    }
                    let m = n - k;
                    let h = (m / 2 - (self.r.unequal && m.is_multiple_of(2)) as u64)
                        .min(a0 + WINDOW - 1);
                    if h < a0 {
                        continue;
                    }
                    still.clear();
                    still.extend(self.missing.iter().filter(|&&w| want[w as usize] == cur));
                    let end = scan_one(
                        g,
                        want,
                        &still,
                        m as usize,
                        a0 as usize,
                        h as usize,
                        cur,
                        &mut left,
                    );
                    pairs += end + 1 - a0;
                    if left == 0 {
                        break 'scan;
                    }
                }
                a0 += WINDOW;
            }
        }
        self.scanned += pairs;
        for &w in &self.missing {
            if self.want[w as usize] == cur {
                return w;
            }
        }
        v as u16
    }

    /// Plain mex over every option.
    fn naive_step(&mut self, n: u64) -> u16 {
        if self.bits <= 6 {
            // every option value below 64: a bit mask in registers
            let mut acc = 0u64;
            for &k in &self.r.wholes {
                if k == n {
                    acc |= 1;
                }
            }
            for &k in &self.r.takes {
                if k < n {
                    acc |= 1u64 << self.g[(n - k) as usize];
                }
            }
            for &k in &self.r.splits {
                if k + 2 > n {
                    break;
                }
                let m = (n - k) as usize;
                let h = m / 2 - (self.r.unequal && m.is_multiple_of(2)) as usize;
                acc |= or_pairs(&self.g, m, h);
            }
            return acc.trailing_ones() as u16;
        }
        self.takes(n);
        let cur = self.cur;
        for &k in &self.r.splits {
            if k + 2 > n {
                break;
            }
            let m = (n - k) as usize;
            let h = m / 2 - (self.r.unequal && m.is_multiple_of(2)) as usize;
            mark_pairs(&self.g, &mut self.seen, m, h, cur);
        }
        let mut v = 0;
        while self.seen[v] == cur {
            v += 1;
        }
        v as u16
    }

    fn push(&mut self, n: u64, v: u16) -> Result<()> {
        if v == u16::MAX {
            return Err(Error::limit(format!(
                "heap {n} has value {v} or more; the fast engine keeps values below 65535"
            )));
        }
        self.g.push(v);
        if n > 0 {
            let key = self.key(v, n);
            self.hist[key] += 1;
            if self.sparse && !self.common[key] {
                self.rare.push(n as u32);
                self.rare_g.push(v);
            }
        }
        while (v as u32) >= 1 << self.bits {
            self.bits += 1;
        }
        self.since += 1;
        Ok(())
    }

    /// Chooses C again from the histogram, and whether the sparse method pays.
    fn rebuild(&mut self, n: u64) {
        self.ready = None;
        let nkeys = 1usize << (self.bits + 1);
        let hist = &self.hist[..nkeys];
        let total: u64 = hist.iter().sum();
        let d = self.r.d as usize;
        // best affine mask: C = {x : parity(x & m) == t} with t = 1 ^ parity(d & m)
        let mut w: Vec<i64> = hist.iter().map(|&c| c as i64).collect();
        let mut len = 1;
        while len < nkeys {
            for i in (0..nkeys).step_by(2 * len) {
                for j in i..i + len {
                    let (a, b) = (w[j], w[j + len]);
                    w[j] = a + b;
                    w[j + len] = a - b;
                }
            }
            len *= 2;
        }
        let mut best_mask = (u64::MAX, 0usize);
        for (m, &h) in w.iter().enumerate().skip(1) {
            if self.r.pbit == 0 && m & 1 != 0 {
                continue;
            }
            let t = 1 ^ ((d & m).count_ones() as usize & 1);
            // parity 0 count = (total + h) / 2; rare = those with parity != t
            let even = ((total as i64 + h) / 2) as u64;
            let rare = if t == 1 { even } else { total - even };
            if rare < best_mask.0 {
                best_mask = (rare, m);
            }
        }
        // greedy set by frequency
        let mut order: Vec<usize> = (0..nkeys).filter(|&x| hist[x] > 0).collect();
        order.sort_by_key(|&x| (std::cmp::Reverse(hist[x]), x));
        let mut inc = vec![false; nkeys];
        let mut members: Vec<usize> = vec![];
        let mut greedy_rare = 0u64;
        for &x in &order {
            // no c1, c2 in C with c1 ^ c2 ^ d in C, counting x as a member
            let ok = nkeys <= 1 << 12 && x != d && members.iter().all(|&c| !inc[c ^ x ^ d]);
            if ok {
                inc[x] = true;
                members.push(x);
            } else {
                greedy_rare += hist[x];
            }
        }
        self.common.fill(false);
        if best_mask.0 <= greedy_rare {
            let m = best_mask.1;
            let t = 1 ^ ((d & m).count_ones() as usize & 1);
            for x in 0..nkeys.max(2) {
                self.common[x] = (x & m).count_ones() as usize & 1 == t;
            }
        } else {
            self.common[..nkeys].copy_from_slice(&inc);
        }
        let rare_count = best_mask.0.min(greedy_rare);
        // sparse pays when the rare pairs and the scans cost well below the plain loop
        let naive_cost = n as f64 / 2.0;
        let scan_avg = if self.sparse && self.since > 0 {
            self.scanned as f64 / self.since as f64
        } else {
            0.0
        };
        let sparse_cost = rare_count as f64 * 2.0 + scan_avg;
        self.sparse = sparse_cost < naive_cost * 0.5 || (self.sparse && sparse_cost < naive_cost);
        self.rare.clear();
        self.rare_g.clear();
        if self.sparse {
            for a in 1..self.g.len() {
                let v = self.g[a];
                if !self.common[self.key(v, a as u64)] {
                    self.rare.push(a as u32);
                    self.rare_g.push(v);
                }
            }
        }
        self.rare.shrink_to_fit();
        self.rare_g.shrink_to_fit();
        self.rare_built = self.rare.len();
        self.scanned = 0;
        self.since = 0;
    }

    fn run(&mut self, n: u64, ctl: &Ctl) -> Result<()> {
        ctl.reserve(2 * (n + 1), "the values (2 bytes a heap)")?;
        let task = ctl.task("heap values", Some(n + 1));
        let mut h = self.g.len() as u64;
        while h <= n {
            if h.is_multiple_of(4096) {
                task.set(h)?;
            }
            if h >= self.next_check
                || (self.sparse && self.rare.len() > self.rare_built + self.rare_built / 4 + 64)
            {
                self.rebuild(h);
                if h >= self.next_check {
                    self.next_check = h * 2;
                }
            }
            if self.sparse
                && self.bits <= 9
                && h >= 4 * BLOCK
                && h.is_multiple_of(BLOCK)
                && self.rare.len() - self.rare.partition_point(|&r| (r as u64) < BLOCK) >= 64
            {
                // a block never passes the next check nor n
                let end = (h + BLOCK).min(n + 1).min(self.next_check.max(h + 1));
                let next = (end + BLOCK <= (n + 1).min(self.next_check)).then_some(end + BLOCK);
                self.block(h, end, next)?;
                h = end;
                continue;
            }
            let v = self.step(h);
            self.push(h, v)?;
            h += 1;
        }
        Ok(())
    }
}

/// Marks g[r] ^ g[m - r] for the rare positions r < m (r != m / 2 under the unequal rule).
fn mark_rare_below(
    g: &[u16],
    seen: &mut [u32],
    rare: &[u32],
    rare_g: &[u16],
    m: u64,
    unequal: bool,
    cur: u32,
) {
    let hi = rare.partition_point(|&r| (r as u64) < m);
    let g = &g[..m as usize];
    if unequal && m.is_multiple_of(2) {
        let mid = rare[..hi].partition_point(|&r| (r as u64) < m / 2);
        let skip = (mid < hi && rare[mid] as u64 == m / 2) as usize;
        mark_rare(g, seen, &rare[..mid], &rare_g[..mid], m, cur);
        mark_rare(
            g,
            seen,
            &rare[mid + skip..hi],
            &rare_g[mid + skip..hi],
            m,
            cur,
        );
    } else {
        mark_rare(g, seen, &rare[..hi], &rare_g[..hi], m, cur);
    }
}

/// Marks g[r] ^ g[m - r] for every rare position r (all below m).
#[inline]
fn mark_rare(g: &[u16], seen: &mut [u32], rare: &[u32], rare_g: &[u16], m: u64, cur: u32) {
    let m = m as usize;
    for (&r, &gr) in rare.iter().zip(rare_g) {
        // r < m and g.len() == m, so m - r is in range; values are below 1 << 16
        let b = unsafe { *g.get_unchecked(m - r as usize) };
        unsafe { *seen.get_unchecked_mut((gr ^ b) as usize) = cur };
    }
}

/// Marks, in one map of `size` bytes per heap from n0 on, g[r] ^ g[n - k - r] for every split
/// k and far rare position r (at least 2·BLOCK back, so every value lies in g). Rare
/// positions are the outer loop: for one r the partners of a run of heaps are consecutive
/// values, read as one slice; runs of 32 heaps keep their maps in the L1 cache.
#[allow(clippy::too_many_arguments)]
fn fill_far(
    g: &[u16],
    rare: &[u32],
    rare_g: &[u16],
    splits: &[u64],
    unequal: bool,
    n0: u64,
    maps: &mut [u8],
    size: usize,
) {
    const RUN: usize = 32;
    for (c, run) in maps.chunks_mut(RUN * size).enumerate() {
        let c0 = n0 + (c * RUN) as u64;
        let len = run.len() / size;
        for &k in splits {
            for (&r, &gr) in rare.iter().zip(rare_g) {
                let r = r as u64;
                // heap c0 + j splits m = c0 + j - k: the pair needs r < m, and r != m / 2
                // under the unequal rule
                let lo = ((r + k + 1).saturating_sub(c0) as usize).min(len);
                let skip = match unequal && 2 * r + k >= c0 {
                    true => (2 * r + k - c0) as usize,
                    false => usize::MAX,
                };
                let mut mark = |from: usize, to: usize| {
                    if from < to {
                        // the partners lie at least 2·BLOCK back: in g (checked)
                        let src = &g[(c0 + from as u64 - k - r) as usize..][..to - from];
                        for (j, &b) in (from..to).zip(src) {
                            // values in g are below 1 << bits <= size, and j < len
                            unsafe { *run.get_unchecked_mut(j * size + (gr ^ b) as usize) = 1 };
                        }
                    }
                };
                mark(lo, skip.min(len));
                mark(skip.saturating_add(1).max(lo), len);
            }
        }
    }
}

/// Scans the pairs (a, m - a), a = 1..=h, until every wanted value turned up.
#[allow(clippy::too_many_arguments)]
fn scan_one(
    g: &[u16],
    want: &mut [u32],
    missing: &[u16],
    m: usize,
    a0: usize,
    h: usize,
    cur: u32,
    left: &mut usize,
) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if h >= a0 + 64 && std::is_x86_feature_detected!("avx2") {
        let mut bits = [0u8; 32];
        let mut all_small = true;
        for &v in missing {
            if v >= 256 {
                all_small = false;
                break;
            }
            bits[v as usize >> 3] |= 1 << (v & 7);
        }
        if all_small {
            return unsafe { scan_avx2(g, want, m, a0, h, cur, left, bits) };
        }
    }
    const CHUNK: usize = 64;
    let mut a = a0;
    while a <= h {
        let end = (a + CHUNK - 1).min(h);
        for i in a..=end {
            let x = (g[i] ^ g[m - i]) as usize;
            if want[x] == cur {
                want[x] = 0;
                *left -= 1;
                if *left == 0 {
                    return i as u64;
                }
            }
        }
        a = end + 1;
    }
    h as u64
}

/// `scan_one` with every wanted value below 256 (as the bits of `bits`): 32 pairs at a time
/// are XORed, packed to bytes and looked up in the 256-bit table with two byte shuffles; a
/// chunk with a hit is redone one pair at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn scan_avx2(
    g: &[u16],
    want: &mut [u32],
    m: usize,
    a0: usize,
    h: usize,
    cur: u32,
    left: &mut usize,
    bits: [u8; 32],
) -> u64 {
    use std::arch::x86_64::*;
    debug_assert!(m - 1 < g.len() && 2 * h <= m);
    let rev = _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
        4, 5, 2, 3, 0, 1,
    );
    let bit_tab = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,
        1, 2, 4, 8, 16, 32, 64, -128,
    );
    let low5 = _mm256_set1_epi8(31);
    let low3 = _mm256_set1_epi8(7);
    let zero = _mm256_setzero_si256();
    let (mut tlo, mut thi) = unsafe {
        let lo = _mm_loadu_si128(bits.as_ptr() as *const __m128i);
        let hi = _mm_loadu_si128(bits.as_ptr().add(16) as *const __m128i);
        (
            _mm256_broadcastsi128_si256(lo),
            _mm256_broadcastsi128_si256(hi),
        )
    };
    let iota = _mm256_setr_epi8(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
        12, 13, 14, 15,
    );
    let p = g.as_ptr();
    let mut a = a0;
    while a + 31 <= h {
        unsafe {
            let l0 = _mm256_loadu_si256(p.add(a) as *const __m256i);
            let l1 = _mm256_loadu_si256(p.add(a + 16) as *const __m256i);
            let h0 = _mm256_loadu_si256(p.add(m - a - 15) as *const __m256i);
            let h1 = _mm256_loadu_si256(p.add(m - a - 31) as *const __m256i);
            let h0 = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(h0, rev), 0x4E);
            let h1 = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(h1, rev), 0x4E);
            let x = _mm256_packus_epi16(_mm256_xor_si256(l0, h0), _mm256_xor_si256(l1, h1));
            let idx = _mm256_and_si256(_mm256_srli_epi16(x, 3), low5);
            let t = _mm256_blendv_epi8(
                _mm256_shuffle_epi8(tlo, idx),
                _mm256_shuffle_epi8(thi, idx),
                _mm256_slli_epi16(idx, 3),
            );
            let bm = _mm256_shuffle_epi8(bit_tab, _mm256_and_si256(x, low3));
            let hit = _mm256_cmpeq_epi8(_mm256_and_si256(t, bm), zero);
            let mut lanes = !(_mm256_movemask_epi8(hit) as u32);
            if lanes != 0 {
                // packed byte lane l holds pair a + OFF[l / 8] + l % 8
                const OFF: [usize; 4] = [0, 16, 8, 24];
                while lanes != 0 {
                    let l = lanes.trailing_zeros() as usize;
                    lanes &= lanes - 1;
                    let i = a + OFF[l / 8] + l % 8;
                    let x = (*g.get_unchecked(i) ^ *g.get_unchecked(m - i)) as usize;
                    if want[x] == cur {
                        want[x] = 0;
                        *left -= 1;
                        if *left == 0 {
                            return i as u64;
                        }
                        // clear the bit in the registers (a narrow store and a wide load
                        // of the table would stall)
                        let at = _mm256_cmpeq_epi8(iota, _mm256_set1_epi8((x >> 3 & 15) as i8));
                        let bit = _mm256_and_si256(at, _mm256_set1_epi8((1u8 << (x & 7)) as i8));
                        if x < 128 {
                            tlo = _mm256_andnot_si256(bit, tlo);
                        } else {
                            thi = _mm256_andnot_si256(bit, thi);
                        }
                    }
                }
            }
        }
        a += 32;
    }
    for i in a..=h {
        let x = (g[i] ^ g[m - i]) as usize;
        if want[x] == cur {
            want[x] = 0;
            *left -= 1;
            if *left == 0 {
                return i as u64;
            }
        }
    }
    h as u64
}

/// Marks every pair (a, m - a), a = 1..=h.
fn mark_pairs(g: &[u16], seen: &mut [u32], m: usize, h: usize, cur: u32) {
    let lo = &g[1..=h];
    let hi = &g[m - h..m];
    for (&x, &y) in lo.iter().zip(hi.iter().rev()) {
        seen[(x ^ y) as usize] = cur;
    }
}

/// OR of 1 << (g[a] ^ g[m - a]) over a = 1..=h (every value below 64).
fn or_pairs(g: &[u16], m: usize, h: usize) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            return unsafe { or_pairs_avx2(g, m, h) };
        }
    }
    or_pairs_plain(g, m, h)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn or_pairs_avx2(g: &[u16], m: usize, h: usize) -> u64 {
    or_pairs_plain(g, m, h)
}

#[inline(always)]
fn or_pairs_plain(g: &[u16], m: usize, h: usize) -> u64 {
    let lo = &g[1..=h];
    let hi = &g[m - h..m];
    let mut acc = [0u64; 8];
    let mut lc = lo.chunks_exact(8);
    let mut hc = hi.rchunks_exact(8);
    for (x, y) in (&mut lc).zip(&mut hc) {
        for j in 0..8 {
            acc[j] |= 1u64 << ((x[j] ^ y[7 - j]) & 63);
        }
    }
    let mut r = acc.iter().fold(0, |a, &b| a | b);
    for (&x, &y) in lc.remainder().iter().zip(hc.remainder().iter().rev()) {
        r |= 1u64 << ((x ^ y) & 63);
    }
    r
}

/// Values of heaps 0..=n as u16, or None when the code is not for this engine.
pub fn values16(code: &Code, n: u64, ctl: &Ctl) -> Result<Option<Vec<u16>>> {
    let Some(rules) = Rules::of(code) else {
        return Ok(None);
    };
    let mut e = Engine::new(&rules, n);
    e.run(n, ctl)?;
    Ok(Some(e.g))
}
