//! Take-and-break heap games from their code (CGSuite notation) and the fast value engine.
//!
//! Digit d_k of the code says what may remain after taking k tokens from a heap: bit 1 no
//! heap, bit 2 one heap, bit 4 two heaps, bit 8 three heaps (hexadecimal digits). A digit may
//! carry `!`, `?` or `=` (what the heaps of its splits must be, see [`Parts`]); `[d]` repeats
//! digit d forever (`0.[3]` is Nim).
use crate::engine::impartial::Game;
use crate::engine::{Ctl, Error, Result};

mod fast;
pub use fast::Rules;

/// What the heaps left by a split (two or more heaps) must be, as a digit's modifier says
/// (Siegel, CGSuite's TakeAndBreak codes). Leaving no heap or one heap is never restricted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Parts {
    #[default]
    Any,
    /// `!`: pairwise unequal
    Unequal,
    /// `?`: not all equal (the same as `!` for two heaps)
    SomeUnequal,
    /// `=`: all equal
    Equal,
}

impl Parts {
    /// Whether a split into `parts` (sorted ascending) is allowed.
    pub fn allows(self, parts: &[u64]) -> bool {
        match self {
            Parts::Any => true,
            Parts::Unequal => parts.windows(2).all(|w| w[0] != w[1]),
            Parts::SomeUnequal => parts.first() != parts.last(),
            Parts::Equal => parts.first() == parts.last(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Code {
    pub digits: Vec<u8>,
    /// the last digit repeats forever
    pub repeating: bool,
    /// each digit's modifier (the last one repeats with a repeating digit)
    pub marks: Vec<Parts>,
    pub text: String,
}

impl Code {
    pub fn parse(s: &str) -> std::result::Result<Code, String> {
        // `!`, `?` and `=` mark the digit they follow (CGSuite)
        let mut body = String::new();
        let mut marked_at: Vec<(usize, Parts)> = vec![];
        for c in s.chars() {
            let parts = match c {
                '!' => Parts::Unequal,
                '?' => Parts::SomeUnequal,
                '=' => Parts::Equal,
                _ => {
                    body.push(c);
                    continue;
                }
            };
            let d = body.chars().filter(|c| c.is_ascii_hexdigit()).count();
            if !body.ends_with(|c: char| c.is_ascii_hexdigit() || c == ']')
                || marked_at.iter().any(|m| m.0 == d)
            {
                return Err(format!(
                    "`{c}` must follow a digit, at most one mark a digit, in \"{s}\""
                ));
            }
            marked_at.push((d, parts));
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
        let mut marks = vec![Parts::Any; digits.len()];
        for (d, parts) in marked_at {
            if let Some(m) = marks.get_mut(d + offset - 1) {
                *m = parts;
            }
        }
        Ok(Code {
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
        let mut digits = vec![if all_but { 3 } else { 0 }; max as usize + 2];
        digits[0] = 0;
        for &k in set {
            digits[k as usize] = if all_but { 0 } else { 3 };
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

    /// What the splits of digit k must leave.
    pub fn parts(&self, k: u64) -> Parts {
        match self.marks.get(k as usize) {
            Some(&m) => m,
            None if self.repeating => self.marks.last().copied().unwrap_or_default(),
            None => Parts::Any,
        }
    }

    /// Whether some splitting digit carries a modifier.
    pub fn has_modifiers(&self) -> bool {
        (0..self.digits.len() as u64)
            .any(|k| self.digit(k) & 12 != 0 && self.parts(k) != Parts::Any)
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
            let parts = self.parts(k);
            if parts == Parts::Equal {
                // one split at most per number of heaps
                if d & 4 != 0 && m >= 2 && m.is_multiple_of(2) {
                    f(&[m / 2; 2]);
                }
                if d & 8 != 0 && m >= 3 && m.is_multiple_of(3) {
                    f(&[m / 3; 3]);
                }
                continue;
            }
            if d & 4 != 0 {
                for a in 1..=m / 2 {
                    if parts.allows(&[a, m - a]) {
                        f(&[a, m - a]);
                    }
                }
            }
            if d & 8 != 0 {
                for a in 1..=m / 3 {
                    for b in a..=(m - a) / 2 {
                        if parts.allows(&[a, b, m - a - b]) {
                            f(&[a, b, m - a - b]);
                        }
                    }
                }
            }
        }
    }

    /// About how many options a heap of n has (exact up to the modifiers).
    pub fn option_count(&self, n: u64) -> u128 {
        self.takes(n)
            .map(|(k, d)| {
                let m = (n - k) as u128;
                let equal = self.parts(k) == Parts::Equal;
                (d & 3 != 0) as u128
                    + if d & 4 != 0 && !equal { m / 2 } else { 0 }
                    + if d & 8 != 0 && !equal { m * m / 12 } else { 0 }
                    + if d & 12 != 0 && equal { 1 } else { 0 }
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
    let task = ctl.task("heap values", Some(n + 1));
    let mut g: Vec<u32> = Vec::with_capacity(n as usize + 1);
    let mut seen = vec![];
    // a heap may have millions of options: report by options looked at, not by heaps
    let mut work = 0;
    for h in 0..=n {
        work += code.option_count(h) + 1;
        if work >= 1 << 20 {
            task.set(h)?;
            work = 0;
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
    if dr & 12 != 0 || code.digits.iter().any(|d| d & 8 != 0) {
        return naive_values(code, n, ctl);
    }
    let finite: Vec<(u64, u8)> = (0..kr)
        .map(|k| (k, code.digit(k)))
        .filter(|(_, d)| *d != 0)
        .collect();
    let task = ctl.task("heap values", Some(n + 1));
    let mut g: Vec<u32> = Vec::with_capacity(n as usize + 1);
    let mut prefix: Vec<bool> = vec![];
    // every value below pmex is in the prefix: the mex starts there
    let mut pmex = 0;
    let mut seen: Vec<bool> = vec![];
    for h in 0..=n {
        if h % 1024 == 0 {
            task.set(h)?;
        }
        // heap h - kr joins the prefix of heaps reachable by the repeating digit
        if h >= kr {
            let m = h - kr;
            if (m > 0 && dr & 2 != 0) || (m == 0 && dr & 1 != 0) {
                let v = if m == 0 { 0 } else { g[m as usize] };
                mark(&mut prefix, v);
                while prefix.get(pmex as usize) == Some(&true) {
                    pmex += 1;
                }
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
                splits.push((m, code.parts(k)));
            }
        }
        let mut v = pmex;
        loop {
            let known = seen.get(v as usize).copied().unwrap_or(false)
                || prefix.get(v as usize).copied().unwrap_or(false);
            if !known {
                let found = splits.iter().any(|&(m, parts)| {
                    (1..=m / 2).any(|a| {
                        g[a as usize] ^ g[(m - a) as usize] == v && parts.allows(&[a, m - a])
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
    if let Some(i) = g.iter().position(|&v| v >= u16::MAX as u32) {
        return Err(Error::limit(format!(
            "heap {i} has value {}; values are kept below 65535 (2 bytes a heap)",
            g[i]
        ))
        .hint("ask for fewer heaps"));
    }
    Ok(g.into_iter().map(|v| v as u16).collect())
}

/// Values of heaps 0..=n kept compact: 2 bytes a heap, 4 only when a value reaches 65535
/// (which only the plain engines compute, for codes such as Lasker's Nim).
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    Small(Vec<u16>),
    Wide(Vec<u32>),
}

impl Values {
    pub fn compute(code: &Code, n: u64, ctl: &Ctl) -> Result<Values> {
        if let Some(g) = fast::values16(code, n, ctl)? {
            return Ok(Values::Small(g));
        }
        let g = values(code, n, ctl)?;
        Ok(if g.iter().all(|&v| v < u16::MAX as u32) {
            Values::Small(g.into_iter().map(|v| v as u16).collect())
        } else {
            Values::Wide(g)
        })
    }

    pub fn len(&self) -> usize {
        match self {
            Values::Small(g) => g.len(),
            Values::Wide(g) => g.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn bytes(&self) -> u64 {
        match self {
            Values::Small(g) => 2 * g.capacity() as u64,
            Values::Wide(g) => 4 * g.capacity() as u64,
        }
    }

    pub fn get(&self, i: usize) -> u32 {
        match self {
            Values::Small(g) => g[i].into(),
            Values::Wide(g) => g[i],
        }
    }

    /// `find_period` on the first `len` values.
    pub fn period(&self, code: &Code, len: usize) -> Option<(u64, u64, bool)> {
        match self {
            Values::Small(g) => find_period(code, &g[..len]),
            Values::Wide(g) => find_period(code, &g[..len]),
        }
    }
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

/// Whether the periodicity theorem below applies to the code (bounded take, no modifiers):
/// then a period seen far enough proves the values of every heap.
pub fn period_provable(code: &Code) -> bool {
    code.max_take().is_some() && !code.has_modifiers()
}

/// The most heaps a move leaves (at least 1): 3 with a hexadecimal digit of 8, 2 with a 4.
fn max_parts(code: &Code) -> u64 {
    code.digits
        .iter()
        .map(|d| {
            if d & 8 != 0 {
                3
            } else if d & 4 != 0 {
                2
            } else {
                1
            }
        })
        .max()
        .unwrap_or(1)
}

/// The value of heap n from values `g` that prove preperiod p and period q.
pub fn periodic_value<T: Copy>(g: &[T], p: u64, q: u64, n: u64) -> T {
    if n < g.len() as u64 {
        g[n as usize]
    } else {
        g[(p + (n - p) % q) as usize]
    }
}

/// Preperiod and period of the computed values, with whether they are proven.
///
/// The periodicity theorem of octal games (Guy and Smith; Berlekamp, Conway and Guy, "Winning
/// Ways", chapter 4), for codes whose moves take at most t tokens and leave at most k heaps,
/// with no modifiers: if G(n + q) = G(n) for p ≤ n < N = k·p' + (k − 1)·q + t, where
/// p' = max(p, 1), then G(n + q) = G(n) for every n ≥ p.
///
/// Proof, by induction on n ≥ N (n > t, so neither n nor n + q can be taken whole). A move
/// from n + q takes j ≤ t and leaves r ≤ k heaps summing to n + q − j; the largest, a, is at
/// least (n + q − t)/k ≥ (N + q − t)/k = p' + q. So a − q ≥ p' ≥ 1: replacing a by a − q
/// leaves r non-empty heaps summing to n − j, a legal move from n (this is why p' ≥ 1: with
/// p = 0, a − q could be 0 and the move would leave fewer heaps; 0.4 has values 0, 0, 0, 1,
/// which repeat with period 1 from 0 up to heap 2 without being periodic). As p ≤ a − q < n
/// (a ≤ n + q − 1: a move leaving one heap takes j ≥ 1), G(a − q) = G(a) by induction, and the
/// option has the same value. Conversely a move from n leaves heaps whose largest, b, is at
/// least (n − t)/k ≥ p' and below n; replacing b by b + q is a move from n + q of the same
/// value. Both heaps have the same option values, so G(n + q) = G(n).
///
/// Values 0..len are needed up to index N − 1 + q: len ≥ k·(p' + q) + t.
pub fn find_period<T: PartialEq>(code: &Code, g: &[T]) -> Option<(u64, u64, bool)> {
    let n = g.len() as u64;
    let t = code.max_take();
    let k = max_parts(code);
    let provable = period_provable(code);
    let mut fallback = None;
    for q in 1..=n / 2 {
        // a larger period could be proven no more, nor change the fallback
        if fallback.is_some() && (!provable || k * (1 + q) + t.unwrap_or(0) > n) {
            break;
        }
        // smallest p with g[i] == g[i + q] for all p ≤ i < n - q
        let mut p = n - q;
        while p > 0 && g[(p - 1) as usize] == g[(p - 1 + q) as usize] {
            p -= 1;
        }
        // the periodic part must be seen repeating at least twice
        if n - p < 2 * q {
            continue;
        }
        if provable && n >= k * (p.max(1) + q) + t.unwrap_or(0) {
            return Some((p, q, true));
        }
        if fallback.is_none() && n - p >= 3 * q && p < n / 2 {
            fallback = Some((p, q, false));
        }
    }
    fallback
}

/// The arithmetic period the values show, with no theorem behind it: the smallest period q
/// (then preperiod p) with G(n + q) = G(n) + s for every p ≤ n < len − q, seen at least three
/// times and over more than the second half of the values. s ≥ 0 is the saltus; 0 means
/// plainly periodic. Lasker's Nim, whose nimbers 4k+3 and 4k+4 trade places, has q = 4, s = 4.
pub fn apparent_period(g: &[u32]) -> Option<(u64, u64, u64)> {
    let n = g.len();
    let step = |i: usize, q: usize| g[i + q] as i64 - g[i] as i64;
    for q in 1..=n / 3 {
        let s = step(n - 1 - q, q);
        if s < 0 {
            continue;
        }
        let mut p = n - q;
        while p > 0 && step(p - 1, q) == s {
            p -= 1;
        }
        if n - p >= 3 * q && p < n / 2 {
            return Some((p as u64, q as u64, s as u64));
        }
    }
    None
}

/// About how many options computing heaps 0..=n visits in the plain engines; None when the
/// fast engine computes them (up to 2^17 heaps in seconds).
pub fn plain_work(code: &Code, n: u64) -> Option<u128> {
    if fast::Rules::of(code).is_some() {
        return None;
    }
    let kr = code.digits.len() - 1;
    let per_heap = if code.repeating && code.digits[kr] & 12 == 0 {
        // the repeating digit only takes: its options come from a kept set
        let finite = Code {
            digits: code.digits[..kr].to_vec(),
            repeating: false,
            ..code.clone()
        };
        finite.option_count(n) + 1
    } else {
        code.option_count(n) + 1
    };
    Some(n as u128 * per_heap / 2)
}

pub fn check_heap_limit(n: u64) -> Result<()> {
    const LIMIT: u64 = 1 << 28;
    if n > LIMIT {
        return Err(Error::limit(format!(
            "computing heaps up to {} needs at least {} of values; the limit is heaps up to 2^28",
            crate::engine::control::num(n),
            crate::engine::control::human_bytes(n.saturating_mul(2))
        ))
        .hint(
            "for periodic games ask period(R) first: values past a proven period are read from it",
        ));
    }
    Ok(())
}
