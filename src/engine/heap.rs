//! Take-and-break heap games from their code (CGSuite notation) and the fast value engine.
//!
//! Digit d_k of the code says what may remain after taking k tokens from a heap: bit 1 no
//! heap, bit 2 one heap, bit 4 two heaps, bit 8 three heaps (hexadecimal digits). `!` asks for
//! the parts to be unequal; `[d]` repeats digit d forever (`0.[3]` is Nim).
use crate::engine::impartial::Game;
use crate::engine::{Ctl, Error, Result};

#[derive(Clone, Debug, PartialEq)]
pub struct Code {
    pub digits: Vec<u8>,
    /// the last digit repeats forever
    pub repeating: bool,
    pub unequal: bool,
    pub text: String,
}

impl Code {
    pub fn parse(s: &str) -> std::result::Result<Code, String> {
        let (body, unequal) = match s.find('!') {
            Some(i) => (format!("{}{}", &s[..i], &s[i + 1..]), true),
            None => (s.to_string(), false),
        };
        let (int, frac) = body.split_once('.').unwrap_or((&body, ""));
        let d0 = match int {
            "" | "0" => 0,
            d if d.len() == 1 => u8::from_str_radix(d, 16)
                .map_err(|_| format!("bad digit before the point in \"{s}\""))?,
            _ => {
                return Err(format!(
                    "only one digit may stand before the point in \"{s}\""
                ));
            }
        };
        if d0 & 3 != 0 {
            return Err(format!(
                "digit d0 = {d0} would allow taking nothing and leaving one heap or none; only 4 or 8 make sense there"
            ));
        }
        let mut digits = vec![d0];
        let mut repeating = false;
        let mut chars = frac.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '[' {
                let d = chars
                    .next()
                    .and_then(|d| d.to_digit(16))
                    .ok_or_else(|| format!("`[` must hold one digit in \"{s}\""))?;
                if chars.next() != Some(']') || chars.peek().is_some() {
                    return Err(format!("`[d]` must close the code in \"{s}\""));
                }
                digits.push(d as u8);
                repeating = true;
            } else {
                digits.push(c.to_digit(16).ok_or_else(|| {
                    format!("`{c}` is not an octal or hexadecimal digit in \"{s}\"")
                })? as u8);
            }
        }
        if digits.iter().any(|&d| d > 15) {
            return Err(format!("digits go up to F in \"{s}\""));
        }
        while !repeating && digits.len() > 1 && *digits.last().unwrap() == 0 {
            digits.pop();
        }
        Ok(Code {
            digits,
            repeating,
            unequal,
            text: s.to_string(),
        })
    }

    /// Subtraction game: take any k in `set`, leaving the rest as one heap (or none).
    pub fn subtraction(set: &[u64], all_but: bool) -> std::result::Result<Code, String> {
        let max = set.iter().copied().max().unwrap_or(0);
        if max > 1 << 20 {
            return Err("subtraction sets are limited to numbers below 2^20".into());
        }
        let mut digits = vec![0u8; max as usize + 2];
        for (k, d) in digits.iter_mut().enumerate().skip(1) {
            *d = if set.contains(&(k as u64)) != all_but {
                3
            } else {
                0
            };
        }
        if !all_but {
            digits.pop();
        }
        // printed as the user writes it: subtraction({2, 3, 7})
        let items: Vec<String> = set.iter().map(|k| k.to_string()).collect();
        let text = format!(
            "{}({{{}}})",
            if all_but { "allbut" } else { "subtraction" },
            items.join(", ")
        );
        Ok(Code {
            digits,
            repeating: all_but,
            unequal: false,
            text,
        })
    }

    pub fn digit(&self, k: u64) -> u8 {
        match self.digits.get(k as usize) {
            Some(&d) => d,
            None if self.repeating => *self.digits.last().unwrap(),
            None => 0,
        }
    }

    /// Largest number of tokens a move takes, when bounded.
    pub fn max_take(&self) -> Option<u64> {
        if self.repeating {
            None
        } else {
            Some(self.digits.len() as u64 - 1)
        }
    }

    /// Indices k ≤ n whose digit allows any move from a heap of n.
    fn takes(&self, n: u64) -> impl Iterator<Item = (u64, u8)> + '_ {
        let top = match self.max_take() {
            Some(t) => t.min(n),
            None => n,
        };
        (0..=top)
            .map(|k| (k, self.digit(k)))
            .filter(|(_, d)| *d != 0)
    }

    /// Calls `f` with every option of a heap of n, as the list of heap sizes left (heaps of 0
    /// omitted), without allocating.
    pub fn each_option(&self, n: u64, mut f: impl FnMut(&[u64])) {
        for (k, d) in self.takes(n) {
            let m = n - k;
            if d & 1 != 0 && m == 0 && k > 0 {
                f(&[]);
            }
            if d & 2 != 0 && m > 0 && k > 0 {
                f(&[m]);
            }
            if d & 4 != 0 {
                for a in 1..=m / 2 {
                    if !(self.unequal && a == m - a) {
                        f(&[a, m - a]);
                    }
                }
            }
            if d & 8 != 0 {
                for a in 1..=m / 3 {
                    for b in a..=(m - a) / 2 {
                        let c = m - a - b;
                        if !(self.unequal && (a == b || b == c)) {
                            f(&[a, b, c]);
                        }
                    }
                }
            }
        }
    }

    /// About how many options a heap of n has (exact up to the unequal-parts rule).
    pub fn option_count(&self, n: u64) -> u128 {
        self.takes(n)
            .map(|(k, d)| {
                let m = (n - k) as u128;
                (d & 3 != 0) as u128
                    + if d & 4 != 0 { m / 2 } else { 0 }
                    + if d & 8 != 0 { m * m / 12 } else { 0 }
            })
            .sum()
    }

    pub fn options(&self, n: u64) -> Vec<Vec<u64>> {
        let mut out = vec![];
        self.each_option(n, |o| out.push(o.to_vec()));
        out
    }
}

/// A heap game for the generic searches: a component is one heap.
impl Game for Code {
    type Pos = u64;
    type Error = Error;
    fn options(&mut self, &n: &u64) -> Result<Vec<Vec<u64>>> {
        Ok(Code::options(self, n))
    }
    fn describe(&self, n: &u64) -> String {
        format!("heap {n}")
    }
}

/// Mark the value of every option of heap h.
fn mark_all(code: &Code, g: &[u32], h: u64, seen: &mut Vec<bool>) {
    code.each_option(h, |opt| {
        mark(seen, opt.iter().fold(0, |acc, &x| acc ^ g[x as usize]))
    });
}

fn mex(seen: &mut [bool]) -> u32 {
    let v = seen.iter().position(|&b| !b).unwrap_or(seen.len()) as u32;
    seen.iter_mut().for_each(|b| *b = false);
    v
}

fn mark(seen: &mut Vec<bool>, v: u32) {
    if v as usize >= seen.len() {
        seen.resize(v as usize + 1, false);
    }
    seen[v as usize] = true;
}

/// Grundy values of heaps 0..=n by the plain mex over all options: O(n²). The reference.
pub fn naive_values(code: &Code, n: u64, ctl: &Ctl) -> Result<Vec<u32>> {
    let mut g: Vec<u32> = Vec::with_capacity(n as usize + 1);
    let mut seen = vec![];
    for h in 0..=n {
        if h % 256 == 0 {
            ctl.check()?;
        }
        mark_all(code, &g, h, &mut seen);
        g.push(mex(&mut seen));
    }
    Ok(g)
}

/// The sparse-space engine. With a mask m, call a value common when popcount(v & m) is odd and
/// rare otherwise: common ^ common is rare, so a common option value of a split can only come
/// from a pair with a rare member. Those pairs are few, so common candidates are decided from
/// them alone; only a rare candidate needs the full scan over all splits, with early exit.
pub struct Sparse<'a> {
    code: &'a Code,
    pub g: Vec<u32>,
    mask: u32,
    rare: Vec<u64>,
}

fn common(v: u32, mask: u32) -> bool {
    (v & mask).count_ones() & 1 == 1
}

impl<'a> Sparse<'a> {
    pub fn new(code: &'a Code) -> Sparse<'a> {
        Sparse {
            code,
            g: vec![],
            mask: 0,
            rare: vec![],
        }
    }

    /// The mask that makes the fewest values rare (values of heaps ≥ 1).
    fn choose_mask(&mut self) {
        let max = self.g.iter().copied().max().unwrap_or(0);
        let bits = 32 - max.leading_zeros();
        let mut hist = vec![0u64; 1 << bits.min(12)];
        let wrap = hist.len() - 1;
        for &v in &self.g[1..] {
            hist[(v as usize) & wrap] += 1;
        }
        let best = (1..hist.len() as u32)
            .max_by_key(|&m| {
                hist.iter()
                    .enumerate()
                    .filter(|(v, _)| common(*v as u32, m))
                    .map(|(_, c)| c)
                    .sum::<u64>()
            })
            .unwrap_or(0);
        self.mask = best;
        self.rare = (1..self.g.len() as u64)
            .filter(|&a| !common(self.g[a as usize], best))
            .collect();
    }

    fn rare_share(&self) -> f64 {
        self.rare.len() as f64 / self.g.len().max(1) as f64
    }

    /// Extend the values to heap n.
    pub fn extend_to(&mut self, n: u64, ctl: &Ctl) -> Result<()> {
        let start = self.g.len() as u64;
        if start > n {
            return Ok(());
        }
        // two-or-more-heap splits with a bounded take: the sparse method applies
        let splits: Vec<u64> = (0..=self.code.max_take().unwrap_or(0))
            .filter(|&k| self.code.digit(k) & 4 != 0)
            .collect();
        if self.code.digits.iter().any(|d| d & 8 != 0) {
            self.g = naive_values(self.code, n, ctl)?;
            return Ok(());
        }
        if self.code.repeating {
            self.g = prefix_values(self.code, n, ctl)?;
            return Ok(());
        }
        let mut seen: Vec<bool> = vec![];
        let mut next_mask = 1024u64.max(start * 2);
        for h in start..=n {
            if h % 1024 == 0 {
                ctl.check()?;
            }
            if h < 1024 || self.mask == 0 {
                // warm-up: plain mex until the histogram can pick a mask
                mark_all(self.code, &self.g, h, &mut seen);
                self.g.push(mex(&mut seen));
                if h + 1 >= 1024 {
                    self.choose_mask();
                }
                continue;
            }
            if h >= next_mask {
                self.choose_mask();
                next_mask = h * 2;
            }
            if self.rare_share() > 0.2 {
                // no sparse space for this game: plain mex
                mark_all(self.code, &self.g, h, &mut seen);
            } else {
                for (k, d) in self.code.takes(h) {
                    let m = h - k;
                    if d & 1 != 0 && m == 0 && k > 0 {
                        mark(&mut seen, 0);
                    }
                    if d & 2 != 0 && m > 0 && k > 0 {
                        mark(&mut seen, self.g[m as usize]);
                    }
                }
                for &k in &splits {
                    if k > h {
                        break;
                    }
                    let m = h - k;
                    for &a in &self.rare {
                        if a >= m {
                            break;
                        }
                        if !(self.code.unequal && 2 * a == m) {
                            mark(&mut seen, self.g[a as usize] ^ self.g[(m - a) as usize]);
                        }
                    }
                }
            }
            let v = self.mex_with_scan(h, &splits, &mut seen);
            self.g.push(v);
            if !common(v, self.mask) {
                self.rare.push(h);
            }
        }
        Ok(())
    }

    /// Smallest value not an option. Common candidates are settled by `seen`. The rare values
    /// below the smallest missing common one are looked for in one pass over all splits, which
    /// ends as soon as every one of them has turned up.
    fn mex_with_scan(&self, h: u64, splits: &[u64], seen: &mut [bool]) -> u32 {
        let known = |v: u32| seen.get(v as usize).copied().unwrap_or(false);
        let full = self.rare_share() > 0.2;
        let mut c = 0u32;
        while known(c) || (!full && !common(c, self.mask)) {
            c += 1;
        }
        let mut missing: Vec<bool> = (0..c)
            .map(|v| !full && !known(v) && !common(v, self.mask))
            .collect();
        let mut left = missing.iter().filter(|&&m| m).count();
        if left > 0 {
            let g = &self.g;
            let sums: Vec<u64> = splits.iter().filter(|&&k| k <= h).map(|&k| h - k).collect();
            let longest = sums.iter().map(|m| m / 2).max().unwrap_or(0);
            'scan: for a in 1..=longest {
                for &m in &sums {
                    if 2 * a > m || (self.code.unequal && 2 * a == m) {
                        continue;
                    }
                    let x = (g[a as usize] ^ g[(m - a) as usize]) as usize;
                    if x < missing.len() && missing[x] {
                        missing[x] = false;
                        left -= 1;
                        if left == 0 {
                            break 'scan;
                        }
                    }
                }
            }
        }
        seen.iter_mut().for_each(|b| *b = false);
        missing.iter().position(|&m| m).map_or(c, |v| v as u32)
    }
}

/// Codes whose last digit repeats forever (take any number, from some point on). When that digit
/// only takes (no splits), its options from heap h are the values of all heaps up to h - K,
/// kept as a growing set; splits are then looked for only for the few candidates outside it.
fn prefix_values(code: &Code, n: u64, ctl: &Ctl) -> Result<Vec<u32>> {
    let kr = code.digits.len() as u64 - 1;
    let dr = code.digit(kr);
    if dr & 12 != 0 {
        return naive_values(code, n, ctl);
    }
    let finite: Vec<(u64, u8)> = (0..kr)
        .map(|k| (k, code.digit(k)))
        .filter(|(_, d)| *d != 0)
        .collect();
    let mut g: Vec<u32> = Vec::with_capacity(n as usize + 1);
    let mut prefix: Vec<bool> = vec![];
    let mut seen: Vec<bool> = vec![];
    for h in 0..=n {
        if h % 1024 == 0 {
            ctl.check()?;
        }
        // heap h - kr joins the prefix of heaps reachable by the repeating digit
        if h >= kr {
            let m = h - kr;
            if (m > 0 && dr & 2 != 0) || (m == 0 && dr & 1 != 0) {
                let v = if m == 0 { 0 } else { g[m as usize] };
                mark(&mut prefix, v);
            }
        }
        let mut splits = vec![];
        for &(k, d) in &finite {
            if k > h {
                break;
            }
            let m = h - k;
            if d & 1 != 0 && m == 0 && k > 0 {
                mark(&mut seen, 0);
            }
            if d & 2 != 0 && m > 0 && k > 0 {
                mark(&mut seen, g[m as usize]);
            }
            if d & 4 != 0 {
                splits.push(m);
            }
        }
        let mut v = 0u32;
        loop {
            let known = seen.get(v as usize).copied().unwrap_or(false)
                || prefix.get(v as usize).copied().unwrap_or(false);
            if !known {
                let found = splits.iter().any(|&m| {
                    (1..=m / 2).any(|a| {
                        g[a as usize] ^ g[(m - a) as usize] == v && !(code.unequal && 2 * a == m)
                    })
                });
                if !found {
                    break;
                }
            }
            v += 1;
        }
        seen.iter_mut().for_each(|b| *b = false);
        g.push(v);
    }
    Ok(g)
}

/// Values of heaps 0..=n with the fast engine.
pub fn values(code: &Code, n: u64, ctl: &Ctl) -> Result<Vec<u32>> {
    let mut s = Sparse::new(code);
    s.extend_to(n, ctl)?;
    Ok(s.g)
}

/// Preperiod and period of the computed values, with whether the octal periodicity theorem
/// proves them: values must run to at least 2(p + q) + t, t the largest take.
pub fn find_period(code: &Code, g: &[u32]) -> Option<(u64, u64, bool)> {
    let n = g.len() as u64;
    let t = code.max_take();
    let provable = t.is_some() && !code.unequal && code.digits.iter().all(|d| d & 8 == 0);
    let mut fallback = None;
    for q in 1..=n / 2 {
        // smallest p with g[i] == g[i + q] for all p ≤ i < n - q
        let mut p = n - q;
        while p > 0 && g[(p - 1) as usize] == g[(p - 1 + q) as usize] {
            p -= 1;
        }
        // the periodic part must be seen repeating at least twice
        if n - p < 2 * q {
            continue;
        }
        let proven = provable && n >= 2 * (p + q) + t.unwrap_or(0);
        if proven {
            return Some((p, q, true));
        }
        if fallback.is_none() && n - p >= 3 * q && p < n / 2 {
            fallback = Some((p, q, false));
        }
    }
    fallback
}

pub fn check_heap_limit(n: u64) -> Result<()> {
    const LIMIT: u64 = 1 << 28;
    if n > LIMIT {
        return Err(Error::limit(format!(
            "computing heaps up to {n} needs {} GB; the limit is heaps up to {LIMIT}",
            n * 4 / 1_000_000_000
        ))
        .hint(
            "for periodic games ask period(R) first: values past a proven period are read from it",
        ));
    }
    Ok(())
}
