//! Strings and lists in compiled rules without copies: a slice or an index compared with a
//! constant (`s[i:i+2] == "T."`, `s[i] != "x"`, `xs[a:b] == [1, 2]`) compares in place, and a
//! chain of `+` over strings (`s[:i] + ".T" + s[i+2:]`) is written once, at its exact length.
//! What the short cuts do not cover (a string that is not ASCII, an end that is not a machine
//! integer, operands of other types) goes the interpreter's way with the values already
//! computed, so results and errors are the interpreter's.
use super::{Code, Flat, Ints, Rule, Run, affine};
use crate::lang::error::Result;
use crate::lang::run::eval::{check_string, slice};
use crate::lang::run::rules::Interned;
use crate::lang::run::value::Value;
use crate::lang::syntax::ast::{BinOp, Span};
use std::rc::Rc;

/// Strings up to this many bytes are written on the stack first, then copied once to the heap.
const SHORT: usize = 256;

/// An operand compiled, with machine code where it is an integer.
pub(super) struct Int {
    code: Code,
    ints: Option<Ints>,
    /// `slot + c`, the common end, read without a call
    shift: Option<(usize, i64)>,
    span: Span,
}

/// `c` as `slot + k` with a slot that machine code reads.
fn shift(c: &Code) -> Option<(usize, i64)> {
    let (s, k) = match c {
        Code::Slot(s) => (*s, 0),
        Code::Binary(op @ (BinOp::Add | BinOp::Sub), ab, _) => match &**ab {
            [Code::Slot(s), Code::Const(Value::Int(k))] if *op == BinOp::Add => (*s, *k),
            [Code::Const(Value::Int(k)), Code::Slot(s)] if *op == BinOp::Add => (*s, *k),
            [Code::Slot(s), Code::Const(Value::Int(k))] => (*s, k.checked_neg()?),
            _ => return None,
        },
        _ => return None,
    };
    (s < 64).then_some((s, k))
}

/// Where a test or a part reads its sequence.
pub(super) enum At {
    /// `x[a:b]`, either end left out
    Slice(Box<[Option<Int>; 2]>),
    /// `x[a]`
    Index(Int),
}

/// `x[..] == k` or `!=`, `k` a constant.
pub(super) struct Test {
    base: Code,
    at: At,
    /// the span of the slice or index
    span: Span,
    konst: Value,
    op: BinOp,
    /// the constant is written on the left
    left: bool,
    /// the comparison's spans: the whole, its left and right sides
    spans: [Span; 3],
}

/// A part of a chain of `+`.
pub(super) enum Part {
    Slice(Code, Box<[Option<Int>; 2]>, Span),
    Other(Code),
}

/// `p0 + p1 + ... `, left to right.
pub(super) struct Join {
    parts: Vec<Part>,
    /// the spans of the `+` that adds part `k + 1`: the whole, its left and right sides
    spans: Vec<[Span; 3]>,
}

/// A value of a part: a run of a string's bytes, or any value.
pub(super) enum Piece {
    Str(Rc<str>, usize, usize),
    Value(Value),
}

/// `code` with its tests and chains given the forms above, `ints` compiling machine code.
pub(super) fn lower(code: Code, ints: &dyn Fn(&Code) -> Option<Ints>) -> Code {
    let int = |(c, span): (Code, Span)| Int {
        ints: ints(&c),
        shift: shift(&c),
        code: lower(c, ints),
        span,
    };
    let ends = |ends: [Option<(Code, Span)>; 2]| Box::new(ends.map(|e| e.map(int)));
    match code {
        Code::Binary(op @ (BinOp::Eq | BinOp::Ne), ab, spans) => {
            let [a, b] = *ab;
            let konst = |c: &Code| match c {
                Code::Const(v @ Value::Str(_)) => Some(v.clone()),
                Code::List(xs) => Some(Value::list(
                    xs.iter()
                        .map(|x| match x {
                            Code::Const(v) => Some(v.clone()),
                            _ => None,
                        })
                        .collect::<Option<_>>()?,
                )),
                _ => None,
            };
            let seq = |c: &Code| matches!(c, Code::Slice(..) | Code::Index(_, _, _));
            let (left, konst) = match (konst(&a), konst(&b)) {
                (None, Some(k)) if seq(&a) => (false, k),
                (Some(k), None) if seq(&b) => (true, k),
                _ => {
                    let ab = Box::new([lower(a, ints), lower(b, ints)]);
                    return Code::Binary(op, ab, spans);
                }
            };
            let (base, at, span) = match if left { b } else { a } {
                Code::Slice(base, e, span) => (*base, At::Slice(ends(*e)), span),
                Code::Index(base, mut idx, span) if idx.len() == 1 => {
                    (*base, At::Index(int(idx.remove(0))), span)
                }
                other => {
                    let other = lower(other, ints);
                    let k = Code::Const(konst);
                    let ab = if left { [k, other] } else { [other, k] };
                    return Code::Binary(op, Box::new(ab), spans);
                }
            };
            Code::Test(Rc::new(Test {
                base: lower(base, ints),
                at,
                span,
                konst,
                op,
                left,
                spans,
            }))
        }
        // a chain of integers keeps its machine code
        Code::Binary(BinOp::Add, ..) if ints(&code).is_none() => {
            let (mut parts, mut spans) = (vec![], vec![]);
            let mut c = code;
            while let Code::Binary(BinOp::Add, ab, s) = c {
                let [a, b] = *ab;
                parts.push(b);
                spans.push(s);
                c = a;
            }
            parts.push(c);
            parts.reverse();
            spans.reverse();
            // only where a part is a slice or a string: `a + b` alone gains nothing
            if !parts
                .iter()
                .any(|p| matches!(p, Code::Slice(..) | Code::Const(Value::Str(_))))
            {
                let mut parts = parts.into_iter().map(|p| lower(p, ints));
                let first = parts.next().unwrap_or(Code::Const(Value::None));
                return parts.zip(spans).fold(first, |a, (b, s)| {
                    Code::Binary(BinOp::Add, Box::new([a, b]), s)
                });
            }
            let parts = parts.into_iter().map(|p| match p {
                Code::Slice(base, e, span) => Part::Slice(lower(*base, ints), ends(*e), span),
                p => Part::Other(lower(p, ints)),
            });
            Code::Join(Rc::new(Join {
                parts: parts.collect(),
                spans,
            }))
        }
        Code::Binary(op, ab, spans) => {
            let [a, b] = *ab;
            Code::Binary(op, Box::new([lower(a, ints), lower(b, ints)]), spans)
        }
        Code::Unary(op, x, span) => Code::Unary(op, Box::new(lower(*x, ints)), span),
        Code::And(ab) => Code::And(Box::new(ab.map(|(x, s)| (lower(x, ints), s)))),
        Code::Or(ab) => Code::Or(Box::new(ab.map(|(x, s)| (lower(x, ints), s)))),
        Code::If(cab, span) => Code::If(Box::new(cab.map(|x| lower(x, ints))), span),
        Code::List(xs) => Code::List(xs.into_iter().map(|x| lower(x, ints)).collect()),
        Code::Set(xs) => Code::Set(xs.into_iter().map(|x| lower(x, ints)).collect()),
        Code::Call {
            callee,
            name,
            args,
            span,
            fspan,
        } => Code::Call {
            callee: Box::new(lower(*callee, ints)),
            name,
            args: args.into_iter().map(|(a, s)| (lower(a, ints), s)).collect(),
            span,
            fspan,
        },
        Code::Index(base, idx, span) => Code::Index(
            Box::new(lower(*base, ints)),
            idx.into_iter().map(|(i, s)| (lower(i, ints), s)).collect(),
            span,
        ),
        Code::Slice(base, e, span) => Code::Slice(
            Box::new(lower(*base, ints)),
            Box::new(e.map(|e| e.map(|(x, s)| (lower(x, ints), s)))),
            span,
        ),
        c @ (Code::Const(_)
        | Code::Slot(_)
        | Code::Global(_)
        | Code::Interp(..)
        | Code::Test(_)
        | Code::Join(_)) => c,
    }
}

/// `for x in a..b if s[e0:e1] == "lit"` (or `!=`): each end `k * x + r` with `r` free of `x`,
/// so the loop compares bytes on machine integers and makes no value for an element that fails.
pub(super) struct Scan {
    base: Code,
    ends: [Option<(i64, Ints)>; 2],
    konst: Rc<str>,
    eq: bool,
}

impl Scan {
    /// The scan of a loop over slot `x` with condition `cond`, where it has that form.
    pub(super) fn new(cond: &Code, x: usize, ints: &dyn Fn(&Code) -> Option<Ints>) -> Option<Scan> {
        let Code::Test(t) = cond else {
            return None;
        };
        let (At::Slice(ends), Value::Str(konst)) = (&t.at, &t.konst) else {
            return None;
        };
        // the string must stay the same along the loop
        if !matches!(t.base, Code::Slot(s) if s != x) && !matches!(t.base, Code::Global(_)) {
            return None;
        }
        let end = |e: &Option<Int>| match e {
            None => Some(None),
            Some(i) => {
                let (k, r) = affine(&i.code, x)?;
                Some(Some((k, ints(&r)?)))
            }
        };
        Some(Scan {
            base: t.base.clone(),
            ends: [end(&ends[0])?, end(&ends[1])?],
            konst: konst.clone(),
            eq: t.op == BinOp::Eq,
        })
    }
}

/// `i` as a place in a sequence of `n`, as slices clamp it.
fn clamp(i: i64, n: usize) -> usize {
    let k = if i < 0 {
        i as i128 + n as i128
    } else {
        i as i128
    };
    k.clamp(0, n as i128) as usize
}

impl Run<'_> {
    fn int(&mut self, x: &Int) -> Result<Value> {
        if let Some((s, k)) = x.shift
            && self.ints & (1 << s) != 0
            && let Some(i) = self.registers[s].checked_add(k)
        {
            return Ok(Value::Int(i));
        }
        if let Some(i) = x.ints.as_ref().and_then(|i| i.run(self)) {
            return Ok(Value::Int(i));
        }
        self.run(&x.code)
    }

    fn ends(&mut self, ends: &[Option<Int>; 2]) -> Result<[Option<(Value, Span)>; 2]> {
        let mut vals = [None, None];
        for (v, end) in vals.iter_mut().zip(ends.iter()) {
            if let Some(x) = end {
                *v = Some((self.int(x)?, x.span));
            }
        }
        Ok(vals)
    }

    /// `x[a:b]` of a string or list with integer ends, as the range of `x` it takes; `None`
    /// where the interpreter's slice is needed (a string not ASCII, other values).
    fn range(b: &Value, ends: &[Option<(Value, Span)>; 2]) -> Option<(usize, usize)> {
        let n = match b {
            Value::Str(s) if s.is_ascii() => s.len(),
            Value::List(xs) => xs.len(),
            _ => return None,
        };
        let end = |e: &Option<(Value, Span)>, default| match e {
            None => Some(default),
            Some((Value::Int(i), _)) => Some(clamp(*i, n)),
            Some(_) => None,
        };
        let i = end(&ends[0], 0)?;
        Some((i, end(&ends[1], n)?.max(i)))
    }

    /// The innermost loop of `rule` over `a..=b` in slot `slot` by the scan `sc`: an option
    /// for each element whose slice matches. `false` (nothing done) where the string is not
    /// ASCII or an end's rest is not a machine integer; an element whose end overflows goes
    /// the general way.
    pub(super) fn scan(
        &mut self,
        rule: &Rule,
        sc: &Scan,
        slot: usize,
        (a, b): (i64, i64),
        how: (usize, &Interned),
        out: &mut Flat,
    ) -> Result<bool> {
        // an error here is the general loop's, at its first element
        let Ok(Value::Str(s)) = self.run(&sc.base) else {
            return Ok(false);
        };
        if !s.is_ascii() {
            return Ok(false);
        }
        let mut ends = [None, None];
        for (e, sce) in ends.iter_mut().zip(&sc.ends) {
            if let Some((k, r)) = sce {
                let Some(r) = r.run(self) else {
                    return Ok(false);
                };
                *e = Some((*k, r));
            }
        }
        let (bytes, n, k) = (s.as_bytes(), s.len(), sc.konst.as_bytes());
        let end = |e: Option<(i64, i64)>, x: i64, default: usize| match e {
            None => Some(default),
            Some((k, r)) => Some(clamp(k.checked_mul(x)?.checked_add(r)?, n)),
        };
        for x in a..=b {
            if x & 1023 == 0 {
                self.it.ctl.check()?;
            }
            match (end(ends[0], x, 0), end(ends[1], x, n)) {
                (Some(i), Some(j)) => {
                    if same(&bytes[i..j.max(i)], k) == sc.eq {
                        self.set_int(slot, x);
                        self.emit_option(rule, how, out)?;
                    }
                }
                _ => {
                    self.set_int(slot, x);
                    self.emit(rule, how, out)?;
                }
            }
        }
        Ok(true)
    }

    pub(super) fn test(&mut self, t: &Test) -> Result<Value> {
        let b = self.run(&t.base)?;
        let v = match &t.at {
            At::Slice(ends) => {
                let ends = self.ends(ends)?;
                let same = match (&b, &t.konst, Run::range(&b, &ends)) {
                    (Value::Str(s), Value::Str(k), Some((i, j))) => {
                        Some(same(&s.as_bytes()[i..j], k.as_bytes()))
                    }
                    (Value::List(xs), Value::List(k), Some((i, j))) => Some(xs[i..j] == k[..]),
                    _ => None,
                };
                if let Some(same) = same {
                    return Ok(Value::Bool(same == (t.op == BinOp::Eq)));
                }
                let [from, to] = ends;
                slice(&b, from, to, t.span)?
            }
            At::Index(x) => {
                let i = self.int(x)?;
                if let (Value::Str(s), Value::Str(k), Value::Int(i)) = (&b, &t.konst, &i)
                    && s.is_ascii()
                    && let Some(k0) = i.checked_add(if *i < 0 { s.len() as i64 } else { 0 })
                    && let Some(c) = usize::try_from(k0).ok().and_then(|k0| s.as_bytes().get(k0))
                {
                    let same = k.len() == 1 && k.as_bytes()[0] == *c;
                    return Ok(Value::Bool(same == (t.op == BinOp::Eq)));
                }
                self.it.index(b, vec![(i, x.span)], t.span)?
            }
        };
        let k = t.konst.clone();
        let [span, aspan, bspan] = t.spans;
        let (a, b) = if t.left { (k, v) } else { (v, k) };
        self.it.binary(t.op, a, b, span, aspan, bspan)
    }

    fn piece(&mut self, p: &Part) -> Result<Piece> {
        let (base, ends, span) = match p {
            Part::Other(c) => {
                return Ok(match self.run(c)? {
                    Value::Str(s) => {
                        let n = s.len();
                        Piece::Str(s, 0, n)
                    }
                    v => Piece::Value(v),
                });
            }
            Part::Slice(base, ends, span) => (base, ends, *span),
        };
        let b = self.run(base)?;
        let ends = self.ends(ends)?;
        if let (Value::Str(s), Some((i, j))) = (&b, Run::range(&b, &ends)) {
            return Ok(Piece::Str(s.clone(), i, j));
        }
        let [from, to] = ends;
        Ok(match slice(&b, from, to, span)? {
            Value::Str(s) => {
                let n = s.len();
                Piece::Str(s, 0, n)
            }
            v => Piece::Value(v),
        })
    }

    /// The code of the chain `j`'s string where every part is a string, the whole fits on the
    /// stack and `codes` holds it already: the string is not made. `None` otherwise (an error
    /// included: the general way meets it again).
    pub(super) fn join_code(&mut self, j: &Join, codes: &Interned) -> Option<i64> {
        let mut buf = [0u8; SHORT];
        let mut at = 0;
        for part in &j.parts {
            let Ok(Piece::Str(s, a, b)) = self.piece(part) else {
                return None;
            };
            buf.get_mut(at..at + b - a)?
                .copy_from_slice(&s.as_bytes()[a..b]);
            at += b - a;
        }
        codes.str_code(std::str::from_utf8(&buf[..at]).ok()?)
    }

    /// The chain `j`: its strings written once; past the first part that is not a string, the
    /// interpreter's `+` from there on.
    pub(super) fn join(&mut self, j: &Join) -> Result<Value> {
        // a chain inside a part takes a new vector
        let mut pieces = std::mem::take(&mut self.pieces);
        pieces.clear();
        let mut total = 0usize;
        let mut acc: Option<Value> = None;
        for (k, part) in j.parts.iter().enumerate() {
            let piece = self.piece(part)?;
            let [span, aspan, bspan] = match k {
                0 => [Span::default(); 3],
                _ => j.spans[k - 1],
            };
            if let Some(a) = acc.take() {
                let v = match piece {
                    Piece::Str(s, i, j) if i == 0 && j == s.len() => Value::Str(s),
                    Piece::Str(s, i, j) => Value::str(&s[i..j]),
                    Piece::Value(v) => v,
                };
                acc = Some(self.it.binary(BinOp::Add, a, v, span, aspan, bspan)?);
                continue;
            }
            match piece {
                Piece::Str(s, a, b) => {
                    total += b - a;
                    if k > 0 {
                        // the interpreter's check, at the `+` that would pass the limit
                        check_string(total as u64, span)?;
                    }
                    pieces.push((s, a, b));
                }
                Piece::Value(v) if k == 0 => acc = Some(v),
                Piece::Value(v) => {
                    let a = joined(&pieces, total);
                    acc = Some(self.it.binary(BinOp::Add, a, v, span, aspan, bspan)?);
                }
            }
        }
        let v = match acc {
            Some(v) => v,
            None => joined(&pieces, total),
        };
        pieces.clear();
        self.pieces = pieces;
        Ok(v)
    }
}

/// Equal bytes, without a call for the few bytes of a constant.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// The string of `pieces`, `total` bytes, in one allocation.
fn joined(pieces: &[(Rc<str>, usize, usize)], total: usize) -> Value {
    if let [(s, 0, n)] = pieces
        && *n == s.len()
    {
        return Value::Str(s.clone());
    }
    if total <= SHORT {
        let mut buf = [0u8; SHORT];
        let mut at = 0;
        for (s, i, j) in pieces {
            buf[at..at + j - i].copy_from_slice(&s.as_bytes()[*i..*j]);
            at += j - i;
        }
        // pieces are whole characters, so this holds; the long way otherwise
        if let Ok(s) = std::str::from_utf8(&buf[..at]) {
            return Value::Str(Rc::from(s));
        }
    }
    let mut out = String::with_capacity(total);
    for (s, i, j) in pieces {
        out.push_str(&s[*i..*j]);
    }
    Value::Str(Rc::from(out))
}
