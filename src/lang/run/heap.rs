//! The heap family: heap games given by a take-and-break code (`octal`, `subtraction`,
//! `allbut`, and `game` rules recognised as one), valued by the heap engine with their values
//! kept per ruleset and periods proven by the periodicity theorem.
use crate::engine::heap::{self, Code};
use crate::lang::compile::{FEW_OPTIONS, options_cap};
use crate::lang::error::Result;
use crate::lang::run::eval::Interp;
use crate::lang::run::game::{Family, Options};
use crate::lang::run::positions::{describe, too_many};
use crate::lang::run::rules::{Component, Ruleset};
use std::rc::Rc;

/// Heap games from their take-and-break code (octal, subtraction, allbut).
pub struct Heap(pub Code);

impl Family for Heap {
    fn arity(&self) -> Option<usize> {
        Some(1)
    }
    fn options(&self, it: &mut Interp, rs: &Ruleset, state: &[i64]) -> Result<Options> {
        let n = state[0] as u64;
        if options_exceed(&self.0, n, FEW_OPTIONS as u128) {
            let cap = options_cap(it);
            if options_exceed(&self.0, n, cap as u128) {
                return Err(too_many(&describe(rs, state), cap));
            }
        }
        Ok(self
            .0
            .options(n)
            .into_iter()
            .map(|o| o.into_iter().map(|h| vec![h as i64].into()).collect())
            .collect())
    }
    fn grundy(&self, it: &mut Interp, rs: &Ruleset, state: &[i64]) -> Result<Option<u32>> {
        let n = state[0] as u64;
        if let Some((g, p, q)) = proven_period(it, rs, &self.0, n)? {
            return Ok(Some(heap::periodic_value(&g, p, q, n)));
        }
        Ok(Some(heap_values(it, rs, &self.0, n)?.get(n as usize)))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The heap game a ruleset written as rules is, where it is one; the ruleset itself otherwise.
pub(crate) fn heap_form(it: &mut Interp, rs: Rc<Ruleset>) -> Rc<Ruleset> {
    match rs.family.heap_form(it) {
        Some(h) => {
            // kept values of the heap game are charged and swept as the ruleset's own
            it.games.touch(&h);
            h
        }
        None => rs,
    }
}

/// Whether a heap of n has more than `limit` options; stops counting once it knows (a heap of
/// 10^18 under nim is not counted take by take).
pub(crate) fn options_exceed(code: &crate::engine::heap::Code, n: u64, limit: u128) -> bool {
    let top = code.max_take().map_or(n, |t| t.min(n));
    let mut count: u128 = 0;
    let mut k = 0u64;
    while k <= top {
        let d = code.digit(k);
        if d != 0 {
            let m = (n - k) as u128;
            count += (d & 3 != 0) as u128
                + if d & 4 != 0 { m / 2 } else { 0 }
                + if d & 8 != 0 { m * m / 12 } else { 0 };
            if count > limit {
                return true;
            }
        }
        k += 1;
    }
    false
}

/// Values of heaps 0..=n (at least) of a heap game, cached per ruleset.
pub(crate) fn heap_values<'a>(
    it: &'a mut Interp,
    rs: &Ruleset,
    code: &Code,
    n: u64,
) -> Result<&'a heap::Values> {
    heap::check_heap_limit(n)?;
    let have = it.games.heaps.get(&rs.id).map_or(0, |v| v.len() as u64);
    if have <= n {
        // grow geometrically so that asking for n, n+1, n+2, ... stays linear overall
        let target = n.max(have.saturating_mul(2)).min(n.max(1 << 16));
        let vals = heap::Values::compute(code, target, &it.ctl)?;
        it.games.heaps.insert(rs.id, vals);
    }
    Ok(&it.games.heaps[&rs.id])
}

/// Values of heaps 0.. with a proven preperiod and period.
pub(crate) type Periodic = (Rc<[u32]>, u64, u64);

/// A proven period (preperiod, period) of a heap code with the values that prove it, looked
/// for when heap n lies past the cached values and past 2^17: then values are read from the
/// period (exact by the octal periodicity theorem) instead of computed.
pub(crate) fn proven_period(
    it: &mut Interp,
    rs: &Ruleset,
    code: &Code,
    n: u64,
) -> Result<Option<Periodic>> {
    let have = it.games.heaps.get(&rs.id).map_or(0, |v| v.len() as u64);
    if n < have || n < 1 << 17 || !heap::period_provable(code) {
        return Ok(None);
    }
    let (m, found) = search_period(it, rs, code, 256, 1 << 17)?;
    let Some((p, q, true)) = found else {
        return Ok(None);
    };
    let g = heap_values(it, rs, code, m)?;
    Ok(Some(((0..=m as usize).map(|i| g.get(i)).collect(), p, q)))
}

/// A range of heaps checked, and the preperiod, period and whether it is proven, if found.
pub(crate) type Checked = (u64, Option<(u64, u64, bool)>);

/// Grows the computed range from `start`, four times at each step, until the periodicity
/// theorem proves a period, `limit` is reached, or the next range would take long (cubic
/// codes, with three-heap splits). Returns the range checked and what it shows.
pub(crate) fn search_period(
    it: &mut Interp,
    rs: &Ruleset,
    code: &Code,
    start: u64,
    limit: u64,
) -> Result<Checked> {
    let mut n = start.min(limit);
    loop {
        let found = heap_values(it, rs, code, n)?.period(code, n as usize + 1);
        if found.is_some_and(|f| f.2) || n >= limit || !affordable(code, (n * 4).min(limit)) {
            return Ok((n, found));
        }
        n = (n * 4).min(limit);
    }
}

/// Whether heaps 0..=n are cheap enough to compute on the way to a period (a few seconds).
pub(crate) fn affordable(code: &Code, n: u64) -> bool {
    heap::plain_work(code, n).is_none_or(|w| w <= 3_000_000_000)
}

pub(crate) fn is_nim(c: &Component) -> bool {
    c.rs.family::<Heap>()
        .is_some_and(|h| h.0.repeating && h.0.digits == [0, 3])
}
