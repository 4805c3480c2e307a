//! Take-and-break heap games from their code (CGSuite notation) and the fast value engine.
//!
//! Digit d_k of the code says what may remain after taking k tokens from a heap: bit 1 no
//! heap, bit 2 one heap, bit 4 two heaps, bit 8 three heaps (hexadecimal digits). `!` asks for
//! the parts to be unequal; `[d]` repeats digit d forever (`0.[3]` is Nim).
use crate::engine::impartial::Game;
use crate::engine::{Ctl, Error, Result};

mod fast;
pub use fast::Rules;

#[derive(Clone, Debug, PartialEq)]
pub struct Code {
    pub digits: Vec<u8>,
    /// the last digit repeats forever
    pub repeating: bool,
    /// every splitting digit carries `!`
    pub unequal: bool,
    /// some splitting digits carry `!` and others do not
    pub mixed: bool,
    /// which digits carry `!` (the last one repeats with a repeating digit)
    pub marks: Vec<bool>,
    pub text: String,
}

impl Code {
    pub fn parse(s: &str) -> std::result::Result<Code, String> {
        // `!` marks the digit it follows (CGSuite): that digit's splits must be unequal
        let mut body = String::new();
        let mut marked_at = vec![];
        for c in s.chars() {
            if c == '!' {
                let d = body.chars().filter(|c| c.is_ascii_hexdigit()).count();
                if !body.ends_with(|c: char| c.is_ascii_hexdigit() || c == ']')
                    || marked_at.contains(&d)
                {
                    return Err(format!("`!` must follow a digit in \"{s}\""));
                }
                marked_at.push(d);
            } else {
                body.push(c);
            }
        }
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
        // digit i of `digits` is the i-th hex digit written (d0 is written even when 0)
        let offset = usize::from(int.is_empty());
        let mut marks = vec![false; digits.len()];
        for d in marked_at {
            if let Some(m) = marks.get_mut(d + offset - 1) {
                *m = true;
            }
        }
        let splitting: Vec<bool> = (0..digits.len())
            .filter(|&i| digits[i] & 12 != 0)
            .map(|i| marks[i])
            .collect();
        Ok(Code {
            unequal: !splitting.is_empty() && splitting.iter().all(|&m| m),
            mixed: splitting.iter().any(|&m| m) && !splitting.iter().all(|&m| m),
            digits,
            repeating,
            marks,
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
            mixed: false,
            marks: vec![],
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

    /// Whether digit k carries `!`: its splits must be into unequal heaps.
    pub fn marked(&self, k: u64) -> bool {
        match self.marks.get(k as usize) {
            Some(&m) => m,
            None => self.repeating && self.marks.last() == Some(&true),
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
                    if !(self.marked(k) && a == m - a) {
                        f(&[a, m - a]);
                    }
                }
            }
            if d & 8 != 0 {
                for a in 1..=m / 3 {
                    for b in a..=(m - a) / 2 {
                        let c = m - a - b;
                        if !(self.marked(k) && (a == b || b == c)) {
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
                splits.push((m, code.marked(k)));
            }
        }
        let mut v = 0u32;
        loop {
            let known = seen.get(v as usize).copied().unwrap_or(false)
                || prefix.get(v as usize).copied().unwrap_or(false);
            if !known {
                let found = splits.iter().any(|&(m, unequal)| {
                    (1..=m / 2).any(|a| {
                        g[a as usize] ^ g[(m - a) as usize] == v && !(unequal && 2 * a == m)
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

/// Values of heaps 0..=n with the fast engine, as u16 (2 bytes a heap).
pub fn values16(code: &Code, n: u64, ctl: &Ctl) -> Result<Vec<u16>> {
    if let Some(g) = fast::values16(code, n, ctl)? {
        return Ok(g);
    }
    let g = values(code, n, ctl)?;
    if let Some(i) = g.iter().position(|&v| v > u16::MAX as u32) {
        return Err(Error::limit(format!(
            "heap {i} has value {}, which does not fit in 16 bits",
            g[i]
        )));
    }
    Ok(g.into_iter().map(|v| v as u16).collect())
}

/// Values of heaps 0..=n with the fast engine.
pub fn values(code: &Code, n: u64, ctl: &Ctl) -> Result<Vec<u32>> {
    if let Some(g) = fast::values16(code, n, ctl)? {
        return Ok(g.into_iter().map(u32::from).collect());
    }
    if code.repeating {
        return prefix_values(code, n, ctl);
    }
    naive_values(code, n, ctl)
}

/// Whether the octal periodicity theorem applies to the code (bounded take, no `!`, no
/// three-heap splits): then a period seen far enough proves the values of every heap.
pub fn period_provable(code: &Code) -> bool {
    code.max_take().is_some()
        && !code.marks.contains(&true)
        && code.digits.iter().all(|d| d & 8 == 0)
}

/// The value of heap n from values `g` that prove preperiod p and period q.
pub fn periodic_value(g: &[u32], p: u64, q: u64, n: u64) -> u32 {
    if n < g.len() as u64 {
        g[n as usize]
    } else {
        g[(p + (n - p) % q) as usize]
    }
}

/// Preperiod and period of the computed values, with whether the octal periodicity theorem
/// proves them: values must run to at least 2(p + q) + t, t the largest take.
pub fn find_period(code: &Code, g: &[u32]) -> Option<(u64, u64, bool)> {
    let n = g.len() as u64;
    let t = code.max_take();
    let provable = period_provable(code);
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
