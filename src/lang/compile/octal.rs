//! Rules that are a take-and-break game, recognised: a `game` of one heap `n` whose every rule
//! takes an amount and leaves one heap (`move n - k for k in S if k <= n`) or two heaps (`move a,
//! n - k - a for a in 1..n-k-1 if a <= n - k - a`) is an octal code, valued by the heap engine.
//! The rules are read as linear forms over their slots; every bound (of a `for` range, or in the
//! `if`) must say exactly what the octal digit says, or nothing is recognised.
use super::{Code, Rules};
use crate::lang::run::value::Value;
use crate::lang::syntax::ast::{BinOp, UnOp};

/// Takes past this are not recognised (the code would be long and the heap engine no faster).
const MAX_TAKE: i64 = 4096;

/// `sum of coef[s] * slot s + c`.
#[derive(Clone, PartialEq, Debug)]
struct Lin {
    coef: Vec<i64>,
    c: i64,
}

impl Lin {
    fn konst(slots: usize, c: i64) -> Lin {
        Lin {
            coef: vec![0; slots],
            c,
        }
    }

    fn combine(&self, o: &Lin, f: impl Fn(i64, i64) -> Option<i64>) -> Option<Lin> {
        let coef = self.coef.iter().zip(&o.coef).map(|(a, b)| f(*a, *b));
        Some(Lin {
            coef: coef.collect::<Option<_>>()?,
            c: f(self.c, o.c)?,
        })
    }

    fn scale(&self, m: i64) -> Option<Lin> {
        self.combine(self, |a, _| a.checked_mul(m))
    }

    fn is_const(&self) -> bool {
        self.coef.iter().all(|&k| k == 0)
    }
}

/// `c` as a linear form, names holding integers read as constants.
fn lin(c: &Code, globals: &[Option<Value>], slots: usize) -> Option<Lin> {
    let sub = |x: &Code| lin(x, globals, slots);
    Some(match c {
        Code::Const(Value::Int(i)) => Lin::konst(slots, *i),
        Code::Global(g) => match globals.get(*g)? {
            Some(Value::Int(i)) => Lin::konst(slots, *i),
            _ => return None,
        },
        Code::Slot(s) => {
            let mut l = Lin::konst(slots, 0);
            *l.coef.get_mut(*s)? = 1;
            l
        }
        Code::Unary(UnOp::Neg, x, _) => sub(x)?.scale(-1)?,
        Code::Binary(BinOp::Add, ab, _) => sub(&ab[0])?.combine(&sub(&ab[1])?, i64::checked_add)?,
        Code::Binary(BinOp::Sub, ab, _) => sub(&ab[0])?.combine(&sub(&ab[1])?, i64::checked_sub)?,
        Code::Binary(BinOp::Mul, ab, _) => {
            let (a, b) = (sub(&ab[0])?, sub(&ab[1])?);
            match (a.is_const(), b.is_const()) {
                (true, _) => b.scale(a.c)?,
                (_, true) => a.scale(b.c)?,
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// A bound `form >= 0` (`form` an integer linear form).
type Bound = Lin;

/// The bounds an `if` states: its `and`s, each a comparison of linear forms.
fn bounds(c: &Code, globals: &[Option<Value>], slots: usize, out: &mut Vec<Bound>) -> Option<()> {
    match c {
        Code::And(ab) => {
            for (x, _) in ab.iter() {
                bounds(x, globals, slots, out)?;
            }
        }
        Code::Binary(op, ab, _) => {
            let d = lin(&ab[0], globals, slots)?
                .combine(&lin(&ab[1], globals, slots)?, i64::checked_sub)?;
            let one = Lin::konst(slots, 1);
            // x < y: y - x - 1 >= 0, and so on
            let b = match op {
                BinOp::Ge => d,
                BinOp::Gt => d.combine(&one, i64::checked_sub)?,
                BinOp::Le => d.scale(-1)?,
                BinOp::Lt => d.scale(-1)?.combine(&one, i64::checked_sub)?,
                _ => return None,
            };
            out.push(b);
        }
        _ => return None,
    }
    Some(())
}

/// What a loop variable runs over: a list of integers, or the bounds of a range.
enum Over {
    Items(Vec<i64>),
    Range(Bound, Bound),
}

fn over(c: &Code, s: usize, globals: &[Option<Value>], slots: usize) -> Option<Over> {
    let int = |x: &Value| match x {
        Value::Int(i) => Some(*i),
        _ => None,
    };
    let items = |v: &Value| -> Option<Vec<i64>> {
        match v {
            Value::List(xs) => xs.iter().map(int).collect(),
            Value::Set(xs) => xs.iter().map(int).collect(),
            Value::Range(a, b) if (*b as i128 - *a as i128) < MAX_TAKE as i128 => {
                Some((*a..=*b).collect())
            }
            _ => None,
        }
    };
    Some(match c {
        Code::Const(v) => Over::Items(items(v)?),
        Code::Global(g) => Over::Items(items(globals.get(*g)?.as_ref()?)?),
        Code::List(xs) | Code::Set(xs) => Over::Items(
            xs.iter()
                .map(|x| lin(x, globals, slots).filter(Lin::is_const).map(|l| l.c))
                .collect::<Option<_>>()?,
        ),
        Code::Binary(BinOp::Range, ab, _) => {
            let (a, b) = (lin(&ab[0], globals, slots)?, lin(&ab[1], globals, slots)?);
            let mut x = Lin::konst(slots, 0);
            x.coef[s] = 1;
            // a <= x <= b
            Over::Range(
                x.combine(&a, i64::checked_sub)?,
                b.combine(&x, i64::checked_sub)?,
            )
        }
        _ => None?,
    })
}

/// Bounds of one variable `x`: `lo <= x <= hi`, where `x` alone is bounded by them.
fn interval(bounds: &[Bound], x: usize) -> (Option<i64>, Option<i64>) {
    let (mut lo, mut hi) = (None::<i64>, None::<i64>);
    for b in bounds {
        let k = b.coef[x];
        // k x + c >= 0
        if k > 0 {
            let l = -num_integer::Integer::div_floor(&b.c, &k);
            lo = Some(lo.map_or(l, |v| v.max(l)));
        } else if k < 0 {
            let h = num_integer::Integer::div_floor(&b.c, &-k);
            hi = Some(hi.map_or(h, |v| v.min(h)));
        }
    }
    (lo, hi)
}

/// How the remainder `s` is split: into any two heaps, or into two unequal heaps.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Split {
    Unequal,
    Any,
}

/// The digits found so far: bits 1, 2, 4 per amount taken, with the split's kind, and the bits
/// of every amount from `tail_from` on.
#[derive(Default)]
struct Digits {
    d: Vec<(u8, Option<Split>)>,
    tail: Option<(i64, u8)>,
}

impl Digits {
    fn add(&mut self, m: i64, bits: u8, split: Option<Split>) -> Option<()> {
        if !(0..=MAX_TAKE).contains(&m) {
            return None;
        }
        let m = m as usize;
        if self.d.len() <= m {
            self.d.resize(m + 1, (0, None));
        }
        let e = &mut self.d[m];
        e.0 |= bits;
        e.1 = match (e.1, split) {
            (Some(a), Some(b)) => Some(if a > b { a } else { b }),
            (a, b) => a.or(b),
        };
        Some(())
    }

    fn text(mut self) -> Option<String> {
        if let Some((from, bits)) = self.tail {
            let from = from as usize;
            if self.d.len() <= from {
                self.d.resize(from + 1, (0, None));
            }
            for e in &mut self.d[from..] {
                e.0 |= bits;
            }
        }
        let digit = |(bits, split): (u8, Option<Split>)| {
            let mark = if split == Some(Split::Unequal) {
                "!"
            } else {
                ""
            };
            format!("{bits:X}{mark}")
        };
        let d0 = self.d.first().copied().unwrap_or((0, None));
        if d0.0 & 3 != 0 {
            return None;
        }
        let mut text = digit(d0) + ".";
        for &e in self.d.iter().skip(1) {
            text += &digit(e);
        }
        if let Some((_, bits)) = self.tail {
            text += &format!("[{bits:X}]");
        }
        Some(text)
    }
}

impl Rules {
    /// The octal code these rules are, with the names of the scope holding `globals`, where
    /// they are a take-and-break game of one heap.
    pub fn octal(&self, globals: &[Option<Value>]) -> Option<String> {
        if self.arity != 1 {
            return None;
        }
        let slots = self.slots;
        let mut digits = Digits::default();
        for rule in &self.rules {
            if rule.side.is_some() || rule.loops.len() > 2 {
                return None;
            }
            let mut bs = vec![];
            if let Some(c) = &rule.cond {
                bounds(&c.code, globals, slots, &mut bs)?;
            }
            let mut vars = vec![];
            let mut items = None;
            for (i, (s, c, _)) in rule.loops.iter().enumerate() {
                match over(&c.code, *s, globals, slots)? {
                    // a list only for the amount taken, the first variable
                    Over::Items(xs) if i == 0 => items = Some(xs),
                    Over::Items(_) => return None,
                    Over::Range(a, b) => bs.extend([a, b]),
                }
                vars.push(*s);
            }
            let comps: Vec<Lin> = rule
                .components
                .iter()
                .map(|c| match c.as_slice() {
                    [x] => lin(&x.code, globals, slots),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            match comps.as_slice() {
                [heap] => take(heap, &vars, items, &bs, &mut digits)?,
                [a, b] => split([a, b], &vars, items, &bs, &mut digits)?,
                _ => return None,
            }
        }
        digits.text()
    }
}

/// The amounts taken by a rule: `x + c` for `x` the first loop variable (`taken_var`) over
/// `items` within the bounds `own` (which hold no other variable), or `c` alone; and where `x`
/// has no upper bound, the least amount of the repeating digit. `None` where the bounds are
/// not of that kind.
fn amounts(
    taken_var: Option<usize>,
    c: i64,
    items: Option<Vec<i64>>,
    own: &[Bound],
) -> Option<(Vec<i64>, Option<i64>)> {
    // a bound of constants that fails leaves the rule without moves: not a digit
    if own.iter().any(|b| b.is_const() && b.c < 0) {
        return None;
    }
    let Some(x) = taken_var else {
        return Some((vec![c], None));
    };
    let (lo, hi) = interval(own, x);
    let keep = |v: &i64| lo.is_none_or(|l| *v >= l) && hi.is_none_or(|h| *v <= h);
    let xs: Vec<i64> = match (items, hi) {
        (Some(xs), _) => xs.into_iter().filter(keep).collect(),
        (None, Some(h)) if h - lo? < MAX_TAKE => (lo?..=h).collect(),
        (None, None) => return Some((vec![], Some(lo?.checked_add(c)?))),
        _ => return None,
    };
    if xs.len() as i64 > MAX_TAKE {
        return None;
    }
    Some((
        xs.into_iter()
            .map(|v| v.checked_add(c))
            .collect::<Option<_>>()?,
        None,
    ))
}

/// A rule leaving one heap, `heap = n - x - c`: digit bits 1 and 2 where the bounds say the
/// heap left is at least 0 (or 2 alone where at least 1).
fn take(
    heap: &Lin,
    vars: &[usize],
    items: Option<Vec<i64>>,
    bs: &[Bound],
    d: &mut Digits,
) -> Option<()> {
    let x = match vars {
        [] => None,
        [x] => Some(*x),
        _ => return None,
    };
    // heap = n - x - c, nothing else
    let mut want = Lin::konst(heap.coef.len(), heap.c);
    want.coef[0] = 1;
    if let Some(x) = x {
        want.coef[x] = -1;
    }
    if *heap != want || heap.c > 0 {
        return None;
    }
    // each bound is on x alone, or on the heap left: r * heap + t >= 0, r > 0
    let (mut own, mut least) = (vec![], None::<i64>);
    for b in bs {
        if b.coef[0] == 0 {
            own.push(b.clone());
            continue;
        }
        let r = b.coef[0];
        if r < 0
            || x.is_some_and(|x| b.coef[x] != -r)
            || b.coef
                .iter()
                .enumerate()
                .any(|(s, &k)| k != 0 && s != 0 && Some(s) != x)
        {
            return None;
        }
        // r (n - x) + t >= 0, so heap = n - x - c >= -(t + r c) / r
        let t = b.c.checked_add(r.checked_mul(-heap.c)?)?;
        let l = -num_integer::Integer::div_floor(&t, &r);
        least = Some(least.map_or(l, |v| v.max(l)));
    }
    let bits = match least? {
        0 => 3,
        1 => 2,
        _ => return None,
    };
    let (ms, from) = amounts(x, -heap.c, items, &own)?;
    if let Some(from) = from {
        if from < 1 {
            return None;
        }
        d.tail = Some(match d.tail {
            None => (from, bits),
            // two repeating digits: the earlier one alone up to the later one, then both
            Some((f, b)) => {
                let ((lo, lo_bits), hi) = if f <= from {
                    ((f, b), from)
                } else {
                    ((from, bits), f)
                };
                for m in lo..hi {
                    d.add(m, lo_bits, None)?;
                }
                (hi, b | bits)
            }
        });
    }
    for m in ms {
        if m < 1 {
            return None;
        }
        d.add(m, bits, None)?;
    }
    Some(())
}

/// A rule leaving two heaps `a` and `n - x - c - a` (`a` the last loop variable): digit bit 4,
/// where the bounds keep both heaps at least 1 and say whether they may be equal.
fn split(
    heaps: [&Lin; 2],
    vars: &[usize],
    items: Option<Vec<i64>>,
    bs: &[Bound],
    d: &mut Digits,
) -> Option<()> {
    let (x, a) = match vars {
        [a] => (None, *a),
        [x, a] => (Some(*x), *a),
        _ => return None,
    };
    let slots = heaps[0].coef.len();
    let mut just_a = Lin::konst(slots, 0);
    just_a.coef[a] = 1;
    let other = match heaps {
        [h, o] | [o, h] if *h == just_a => o,
        _ => return None,
    };
    // the other heap is s - a with s = n - x - c the remainder
    let mut want = Lin::konst(slots, other.c);
    want.coef[0] = 1;
    want.coef[a] = -1;
    if let Some(x) = x {
        want.coef[x] = -1;
    }
    if *other != want || other.c > 0 {
        return None;
    }
    // bounds on x alone; on a alone (a >= 1 needed); on the remainder alone (harmless up to
    // s >= 2, which two non-empty heaps need anyway); and on a against the remainder
    let (mut own, mut low, mut split) = (vec![], None::<i64>, None::<Split>);
    for b in bs {
        let (r, k) = (b.coef[0], b.coef[a]);
        let others = b.coef.iter().enumerate();
        if others
            .clone()
            .any(|(s, &v)| v != 0 && s != 0 && s != a && Some(s) != x)
        {
            return None;
        }
        if r == 0 && k == 0 {
            own.push(b.clone());
            continue;
        }
        // the remainder s = n - x - c is what the bound may hold, not n or x apart
        if x.is_some_and(|x| b.coef[x] != -r) {
            return None;
        }
        // r s + k a + t >= 0, with t for the remainder's constant
        let t = b.c.checked_add(r.checked_mul(-other.c)?)?;
        match (r, k) {
            (0, k) if k > 0 => {
                let l = -num_integer::Integer::div_floor(&t, &k);
                low = Some(low.map_or(l, |v| v.max(l)));
            }
            (r, 0) if r > 0 => {
                if -num_integer::Integer::div_floor(&t, &r) > 2 {
                    return None;
                }
            }
            // r s + t >= u a with u = -k > 0: a <= floor((r s + t) / u) for every s
            (r, k) if r > 0 && k < 0 => {
                let u = -k;
                let kind = if r == u && -u <= t && t < 0 {
                    // a <= s - 1: both heaps non-empty, each split twice
                    Split::Any
                } else if u == 2 * r && 0 <= t && t < r {
                    // a <= s / 2
                    Split::Any
                } else if u == 2 * r && -r <= t && t < 0 {
                    // a < s / 2
                    Split::Unequal
                } else {
                    return None;
                };
                split = Some(match split {
                    // the tighter bound holds
                    Some(s) if s < kind => s,
                    _ => kind,
                });
            }
            _ => return None,
        }
    }
    if low != Some(1) || split.is_none() {
        return None;
    }
    let (ms, None) = amounts(x, -other.c, items, &own)? else {
        return None;
    };
    for m in ms {
        d.add(m, 4, split)?;
    }
    Some(())
}
