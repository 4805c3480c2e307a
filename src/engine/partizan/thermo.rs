//! Thermography (Siegel, *Combinatorial Game Theory*, ch. II.5–6): walls as piecewise-linear
//! functions of the temperature t ≥ −1, mean and temperature, cooling and heating by a number,
//! and the atomic weight of all-small games (ch. II.7).
use super::dyadic::Dyadic;
use super::store::{Game, Store};
use crate::engine::{Error, Result};
use std::sync::Arc;

/// A continuous piecewise-linear function of the temperature on [−1, ∞): its value at each
/// breakpoint (the first at t = −1) and its slope after the last one. Slopes are −1, 0 or 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wall {
    pub points: Vec<(Dyadic, Dyadic)>,
    pub tail: i64,
}

/// k·d for the small k of wall slopes and their differences.
fn times(d: Dyadic, k: i64) -> Result<Dyadic> {
    let m = match k.abs() {
        0 => Dyadic::ZERO,
        1 => d,
        2 => d.add(d)?,
        _ => {
            return Err(Error::invalid(
                "thermograph walls must have slopes -1, 0 or 1",
            ));
        }
    };
    if k < 0 { m.neg() } else { Ok(m) }
}

/// d / k for k in {±1, ±2} (the slopes of a difference of walls).
fn div_small(d: Dyadic, k: i64) -> Result<Dyadic> {
    let q = match k.abs() {
        1 => d,
        2 => d.half()?,
        _ => {
            return Err(Error::invalid(
                "thermograph walls must have slopes -1, 0 or 1",
            ));
        }
    };
    if k < 0 { q.neg() } else { Ok(q) }
}

/// Where the line through (t0, d0) and (t1, d1) is zero.
fn root(t0: Dyadic, d0: Dyadic, t1: Dyadic, d1: Dyadic) -> Result<Dyadic> {
    let (span, rise) = (t1.sub(t0)?, d1.sub(d0)?);
    let slope = [1, -1, 2, -2]
        .into_iter()
        .find(|&k| times(span, k).ok() == Some(rise))
        .ok_or_else(|| Error::invalid("thermograph walls must have slopes -1, 0 or 1"))?;
    t0.add(div_small(d0.neg()?, slope)?)
}

impl Wall {
    /// The constant `v` from t = −1.
    pub fn constant(v: Dyadic) -> Wall {
        Wall {
            points: vec![(Dyadic::int(-1), v)],
            tail: 0,
        }
    }

    /// The slope just after breakpoint `i`.
    fn slope(&self, i: usize) -> Result<i64> {
        match self.points.get(i + 1) {
            None => Ok(self.tail),
            Some(&(t1, v1)) => {
                let (t0, v0) = self.points[i];
                let (dt, dv) = (t1.sub(t0)?, v1.sub(v0)?);
                Ok(if dv == Dyadic::ZERO {
                    0
                } else if dv == dt {
                    1
                } else {
                    -1
                })
            }
        }
    }

    /// The value at temperature `t` ≥ −1.
    pub fn at(&self, t: Dyadic) -> Result<Dyadic> {
        let i = self.points.iter().rposition(|p| p.0 <= t).unwrap_or(0);
        let (t0, v0) = self.points[i];
        v0.add(times(t.sub(t0)?, self.slope(i)?)?)
    }

    /// The wall plus `k·t`.
    fn tilt(&self, k: i64) -> Result<Wall> {
        Ok(Wall {
            points: self
                .points
                .iter()
                .map(|&(t, v)| Ok((t, v.add(times(t, k)?)?)))
                .collect::<Result<_>>()?,
            tail: self.tail + k,
        })
    }

    /// The pointwise maximum (or minimum) of two walls.
    fn combine(&self, o: &Wall, max: bool) -> Result<Wall> {
        let mut ts: Vec<Dyadic> = self.points.iter().chain(&o.points).map(|p| p.0).collect();
        ts.sort();
        ts.dedup();
        let diff = |t: Dyadic| -> Result<Dyadic> { self.at(t)?.sub(o.at(t)?) };
        let mut cross = vec![];
        for w in ts.windows(2) {
            let (d0, d1) = (diff(w[0])?, diff(w[1])?);
            if (d0 > Dyadic::ZERO && d1 < Dyadic::ZERO) || (d0 < Dyadic::ZERO && d1 > Dyadic::ZERO)
            {
                cross.push(root(w[0], d0, w[1], d1)?);
            }
        }
        let last = *ts.last().expect("walls start at -1");
        let dl = diff(last)?;
        let sd = self.tail - o.tail;
        if (dl > Dyadic::ZERO && sd < 0) || (dl < Dyadic::ZERO && sd > 0) {
            cross.push(last.add(div_small(dl.neg()?, sd)?)?);
        }
        ts.extend(cross);
        ts.sort();
        ts.dedup();
        let mut points = vec![];
        for &t in &ts {
            let (a, b) = (self.at(t)?, o.at(t)?);
            points.push((t, if (a >= b) == max { a } else { b }));
        }
        // past the last breakpoint the walls no longer cross: the larger slope wins a max
        let (a, b) = (self.at(*ts.last().unwrap())?, o.at(*ts.last().unwrap())?);
        let tail = if a != b {
            if (a > b) == max { self.tail } else { o.tail }
        } else if max {
            self.tail.max(o.tail)
        } else {
            self.tail.min(o.tail)
        };
        let mut w = Wall { points, tail };
        w.simplify()?;
        Ok(w)
    }

    /// Drops breakpoints where the slope does not change.
    fn simplify(&mut self) -> Result<()> {
        let mut i = 1;
        while i < self.points.len() {
            let before = self.slope(i - 1)?;
            let after = self.slope(i)?;
            if before == after {
                self.points.remove(i);
            } else {
                i += 1;
            }
        }
        Ok(())
    }

    /// The wall up to temperature `t`, vertical (constant) after it.
    fn cut(&self, t: Dyadic) -> Result<Wall> {
        let v = self.at(t)?;
        let mut points: Vec<_> = self.points.iter().copied().filter(|p| p.0 < t).collect();
        points.push((t, v));
        let mut w = Wall { points, tail: 0 };
        w.simplify()?;
        Ok(w)
    }
}

/// A thermograph: the left wall (Left's scaffold, the larger values) and the right wall as
/// functions of the temperature, meeting at the temperature and rising as the mast.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thermograph {
    pub left: Wall,
    pub right: Wall,
    pub temperature: Dyadic,
    pub mast: Dyadic,
}

impl Thermograph {
    /// Plottable polylines (temperature, value) of both walls from t = −1 up to `top` (at
    /// least a little above the temperature), for drawing.
    pub fn polylines(&self, top: Dyadic) -> Result<[Vec<(f64, f64)>; 2]> {
        let f = |d: Dyadic| d.numerator() as f64 / (1u64 << d.exponent()) as f64;
        let line = |w: &Wall| -> Result<Vec<(f64, f64)>> {
            let mut v: Vec<(f64, f64)> = w
                .points
                .iter()
                .filter(|p| p.0 < top)
                .map(|&(t, x)| (f(t), f(x)))
                .collect();
            v.push((f(top), f(w.at(top)?)));
            Ok(v)
        };
        Ok([line(&self.left)?, line(&self.right)?])
    }
}

impl Store {
    /// The thermograph of `g` (integers: a mast from t = −1).
    pub fn thermograph(&mut self, g: Game) -> Result<Arc<Thermograph>> {
        if let Some(t) = self.thermo.get(&g) {
            return Ok(t.clone());
        }
        let t = stacker::maybe_grow(64 * 1024, 4 << 20, || self.thermograph_fresh(g))?;
        let t = Arc::new(t);
        self.thermo.insert(g, t.clone());
        Ok(t)
    }

    fn thermograph_fresh(&mut self, g: Game) -> Result<Thermograph> {
        if let Some(x) = self.as_number(g).filter(|x| x.is_integer()) {
            return Ok(Thermograph {
                left: Wall::constant(x),
                right: Wall::constant(x),
                temperature: Dyadic::int(-1),
                mast: x,
            });
        }
        let mut left: Option<Wall> = None;
        for &o in self.left(g)?.iter() {
            let w = self.thermograph(o)?.right.tilt(-1)?;
            left = Some(match left {
                None => w,
                Some(l) => l.combine(&w, true)?,
            });
        }
        let mut right: Option<Wall> = None;
        for &o in self.right(g)?.iter() {
            let w = self.thermograph(o)?.left.tilt(1)?;
            right = Some(match right {
                None => w,
                Some(r) => r.combine(&w, false)?,
            });
        }
        let (l, r) = match (left, right) {
            (Some(l), Some(r)) => (l, r),
            _ => {
                return Err(Error::invalid(
                    "a non-integer game without options on one side",
                ));
            }
        };
        // the first temperature where the scaffolds meet
        let mut ts: Vec<Dyadic> = l.points.iter().chain(&r.points).map(|p| p.0).collect();
        ts.sort();
        ts.dedup();
        let gap = |t: Dyadic| -> Result<Dyadic> { l.at(t)?.sub(r.at(t)?) };
        let mut meet = None;
        if gap(ts[0])? <= Dyadic::ZERO {
            meet = Some(ts[0]);
        }
        for w in ts.windows(2) {
            if meet.is_some() {
                break;
            }
            let (g0, g1) = (gap(w[0])?, gap(w[1])?);
            if g1 <= Dyadic::ZERO {
                meet = Some(root(w[0], g0, w[1], g1)?);
            }
        }
        if meet.is_none() {
            let last = *ts.last().unwrap();
            let rate = l.tail - r.tail;
            if rate >= 0 {
                return Err(Error::invalid("the scaffolds of a game never meet"));
            }
            meet = Some(last.add(div_small(gap(last)?.neg()?, rate)?)?);
        }
        let t = meet.unwrap();
        let mast = l.at(t)?;
        Ok(Thermograph {
            left: l.cut(t)?,
            right: r.cut(t)?,
            temperature: t,
            mast,
        })
    }

    /// The mean value.
    pub fn mean(&mut self, g: Game) -> Result<Dyadic> {
        if let Some(x) = self.as_number(g) {
            return Ok(x);
        }
        Ok(self.thermograph(g)?.mast)
    }

    /// The temperature (−1 for integers, −1/2^k for numbers with denominator 2^k).
    pub fn temperature(&mut self, g: Game) -> Result<Dyadic> {
        Ok(self.thermograph(g)?.temperature)
    }

    /// G cooled by `t` > −1: {GL_t − t | GR_t + t}, or the mean once `t` passes the
    /// temperature.
    pub fn cool(&mut self, g: Game, t: Dyadic) -> Result<Game> {
        if t <= Dyadic::int(-1) {
            return Err(Error::invalid(format!(
                "cannot cool by {t}: the temperature must be above -1"
            )));
        }
        if self.is_number(g) {
            return Ok(g);
        }
        if let Some(&c) = self.cooled.get(&(g, t)) {
            return Ok(c);
        }
        let c = stacker::maybe_grow(64 * 1024, 4 << 20, || -> Result<Game> {
            let th = self.thermograph(g)?;
            if t > th.temperature {
                return self.number(th.mast);
            }
            let shift = self.number(t)?;
            let nshift = self.neg(shift)?;
            let mut l = vec![];
            for &o in self.left(g)?.iter() {
                let c = self.cool(o, t)?;
                l.push(self.add(c, nshift)?);
            }
            let mut r = vec![];
            for &o in self.right(g)?.iter() {
                let c = self.cool(o, t)?;
                r.push(self.add(c, shift)?);
            }
            self.canonical(l, r)
        })?;
        self.cooled.insert((g, t), c);
        Ok(c)
    }

    /// G heated by `t`: numbers stay, else {∫GL + t | ∫GR − t}.
    pub fn heat(&mut self, g: Game, t: Dyadic) -> Result<Game> {
        if self.is_number(g) {
            return Ok(g);
        }
        if let Some(&c) = self.heated.get(&(g, t)) {
            return Ok(c);
        }
        let c = stacker::maybe_grow(64 * 1024, 4 << 20, || -> Result<Game> {
            let shift = self.number(t)?;
            let nshift = self.neg(shift)?;
            let mut l = vec![];
            for &o in self.left(g)?.iter() {
                let h = self.heat(o, t)?;
                l.push(self.add(h, shift)?);
            }
            let mut r = vec![];
            for &o in self.right(g)?.iter() {
                let h = self.heat(o, t)?;
                r.push(self.add(h, nshift)?);
            }
            self.canonical(l, r)
        })?;
        self.heated.insert((g, t), c);
        Ok(c)
    }
}

impl Store {
    /// Is every subposition of `g` infinitesimal (both players have moves or neither)?
    pub fn is_all_small(&mut self, g: Game) -> Result<bool> {
        if let Some(v) = self.nus(g) {
            return Ok(v.number == Dyadic::ZERO);
        }
        stacker::maybe_grow(64 * 1024, 4 << 20, || -> Result<bool> {
            for &o in self.left(g)?.iter().chain(self.right(g)?.iter()) {
                if !self.is_all_small(o)? {
                    return Ok(false);
                }
            }
            Ok(true)
        })
    }

    /// One more than the largest nimber among the subpositions: a star "remote" from `g`.
    fn far_star(&mut self, g: Game) -> Result<u32> {
        if let Some(m) = self.as_nimber(g) {
            return Ok(m + 1);
        }
        let mut far = 1;
        for &o in self.left(g)?.iter().chain(self.right(g)?.iter()) {
            far = far.max(stacker::maybe_grow(64 * 1024, 4 << 20, || {
                self.far_star(o)
            })?);
        }
        Ok(far)
    }

    /// The atomic weight of an all-small game by Conway's calculus (Siegel, *Combinatorial Game
    /// Theory*, II.7): {aw(GL) − 2 | aw(GR) + 2}, unless that is an integer, when the
    /// comparison of G with a remote star decides (the eccentric case).
    pub fn atomic_weight(&mut self, g: Game) -> Result<Game> {
        if !self.is_all_small(g)? {
            return Err(Error::invalid(
                "atomic weight is defined here for all-small games only (every subposition infinitesimal)",
            ));
        }
        self.aw(g)
    }

    fn aw(&mut self, g: Game) -> Result<Game> {
        if let Some(v) = self.nus(g) {
            return self.integer(v.ups);
        }
        stacker::maybe_grow(64 * 1024, 4 << 20, || -> Result<Game> {
            let (two, minus_two) = (self.integer(2)?, self.integer(-2)?);
            let mut l = vec![];
            for &o in self.left(g)?.iter() {
                let w = self.aw(o)?;
                l.push(self.add(w, minus_two)?);
            }
            let mut r = vec![];
            for &o in self.right(g)?.iter() {
                let w = self.aw(o)?;
                r.push(self.add(w, two)?);
            }
            let g0 = self.canonical(l.clone(), r.clone())?;
            if !self.as_number(g0).is_some_and(|x| x.is_integer()) {
                return Ok(g0);
            }
            let far = self.far_star(g)?;
            let star = self.nimber(far)?;
            let (below, above) = (self.leq(g, star)?, self.leq(star, g)?);
            if below && !above {
                // the least integer n with n ⧐ every new Left option
                let mut best = None;
                for &x in &l {
                    let mut n = self.right_stop(x).ceil();
                    let ng = self.integer(n)?;
                    if self.leq(ng, x)? {
                        n += 1;
                    }
                    best = Some(best.map_or(n, |b: i64| b.max(n)));
                }
                return self.integer(best.unwrap_or(0));
            }
            if above && !below {
                // the greatest integer n with n ⧏ every new Right option
                let mut best = None;
                for &x in &r {
                    let mut n = self.left_stop(x).floor();
                    let ng = self.integer(n)?;
                    if self.leq(x, ng)? {
                        n -= 1;
                    }
                    best = Some(best.map_or(n, |b: i64| b.min(n)));
                }
                return self.integer(best.unwrap_or(0));
            }
            Ok(g0)
        })
    }
}
