//! Everyday builtins: printing, sequences, numbers, tables.
use crate::engine::control::num;
use crate::lang::error::{Error, Result};
use crate::lang::run::eval::{Args, Interp, check_bits, check_elements, check_string};
use crate::lang::run::value::{Table, Value};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use std::collections::BTreeSet;
use std::rc::Rc;

// values are ordered by content; the interior mutability of groups (cached chains) does not
// touch their order
#[allow(clippy::mutable_key_type)]
pub fn register(it: &mut Interp) {
    it.add_builtin(
        "print",
        "print(x, ...)",
        "print values separated by spaces",
        print,
    );
    it.add_builtin(
        "len",
        "len(xs)",
        "number of elements of a list, set, range or string",
        len,
    );
    it.add_builtin(
        "min",
        "min(xs) or min(a, b, ...)",
        "smallest element",
        |_, a| extreme(a, true),
    );
    it.add_builtin(
        "max",
        "max(xs) or max(a, b, ...)",
        "largest element",
        |_, a| extreme(a, false),
    );
    it.add_builtin(
        "sum",
        "sum(xs)",
        "sum of a list of numbers (integers and fractions)",
        sum,
    );
    it.add_builtin("sort", "sort(xs)", "the elements in increasing order", sort);
    it.add_builtin(
        "list",
        "list(xs)",
        "the elements of a set, range or string as a list",
        |it, a| {
            a.count(1, 1)?;
            Ok(Value::list(it.items(a.get(0), a.span_of(0))?))
        },
    );
    it.add_builtin(
        "set",
        "set(xs)",
        "the elements of a list or range as a set",
        |it, a| {
            a.count(1, 1)?;
            let xs = it.items(a.get(0), a.span_of(0))?;
            Ok(Value::set(set_of(it, xs)?))
        },
    );
    it.add_builtin(
        "xor",
        "xor(a, b)",
        "nim-sum (bitwise exclusive or) of non-negative integers",
        xor,
    );
    it.add_builtin("abs", "abs(x)", "absolute value of a number", |_, a| {
        of_number(a, |x| Value::ratio(num_traits::Signed::abs(&x)))
    });
    it.add_builtin(
        "floor",
        "floor(x)",
        "the largest integer not above a number: floor(7/2) is 3",
        |_, a| of_number(a, |x| Value::int(x.floor().to_integer())),
    );
    it.add_builtin(
        "ceil",
        "ceil(x)",
        "the smallest integer not below a number: ceil(7/2) is 4",
        |_, a| of_number(a, |x| Value::int(x.ceil().to_integer())),
    );
    it.add_builtin(
        "numerator",
        "numerator(x)",
        "the numerator of a number in lowest terms: numerator(6/4) is 3",
        |_, a| of_number(a, |x| Value::int(x.numer().clone())),
    );
    it.add_builtin(
        "denominator",
        "denominator(x)",
        "the denominator of a number in lowest terms (1 for an integer): denominator(6/4) is 2",
        |_, a| of_number(a, |x| Value::int(x.denom().clone())),
    );
    it.add_builtin("count", "count(xs, x)", "how many times x occurs in a list, or the string x in a string (not overlapping): count(\"T.T.\", \"T.\") is 2", |it, a| {
        a.count(2, 2)?;
        Ok(Value::Int(match (a.get(0), a.get(1)) {
            (Value::Str(s), Value::Str(t)) if !t.is_empty() => s.matches(&**t).count() as i64,
            (Value::Str(s), Value::Str(_)) => s.chars().count() as i64 + 1,
            (Value::Str(_), _) => return Err(a.type_error(1, "a string")),
            (xs, x) => it.items(xs, a.span_of(0))?.iter().filter(|y| *y == x).count() as i64,
        }))
    });
    it.add_builtin("find", "find(xs, x)", "the index of the first x in a list, or of the first place the string x starts in a string; -1 when there is none", |it, a| {
        a.count(2, 2)?;
        Ok(Value::Int(found(it, a)?.map_or(-1, |i| i as i64)))
    });
    it.add_builtin("index", "index(xs, x)", "the index of the first x in a list, or of the first place the string x starts in a string; an error when there is none", |it, a| {
        a.count(2, 2)?;
        match found(it, a)? {
            Some(i) => Ok(Value::Int(i as i64)),
            None => Err(Error::runtime(format!("{} is not in it", a.get(1).source_text()), a.span_of(1))
                .hint("find(xs, x) gives -1 instead of an error")),
        }
    });
    it.add_builtin("replace", "replace(xs, old, new)", "a copy of a string with every (not overlapping) string old replaced by new, or of a list with every element equal to old replaced by new", |it, a| {
        a.count(3, 3)?;
        match (a.get(0), a.get(1), a.get(2)) {
            (Value::Str(s), Value::Str(old), Value::Str(new)) => {
                if old.is_empty() {
                    return Err(Error::runtime("cannot replace the empty string", a.span_of(1)));
                }
                let grows = new.len().saturating_sub(old.len()) as u64;
                check_string(s.len() as u64 + grows * s.matches(&**old).count() as u64, a.span)?;
                Ok(Value::str(&s.replace(&**old, new)))
            }
            (Value::Str(_), _, _) => Err(Error::runtime("replace in a string takes two strings", a.span)
                .hint("replace(\"T.F\", \".\", \"-\")")),
            (xs, old, new) => Ok(Value::list(
                it.items(xs, a.span_of(0))?
                    .into_iter()
                    .map(|y| if &y == old { new.clone() } else { y })
                    .collect(),
            )),
        }
    });
    it.add_builtin("str", "str(x)", "the text form of a value", |_, a| {
        a.count(1, 1)?;
        // integers without digit grouping, so that str(n) can be measured and parsed
        let text = match a.get(0) {
            Value::Int(i) => i.to_string(),
            Value::Big(b) if b.bits() <= crate::lang::run::value::FULL_DIGITS_BITS => b.to_string(),
            v => v.to_text(),
        };
        check_string(text.len() as u64, a.span)?;
        Ok(Value::str(&text))
    });
    it.add_builtin(
        "product",
        "product(xs)",
        "product of a list of integers",
        |it, a| {
            a.count(1, 1)?;
            let xs = integers(it, a)?;
            if xs.iter().any(|x| x.bits() == 0) {
                return Ok(Value::Int(0));
            }
            // |ab| has at least bits(a) + bits(b) - 1 bits: refuse before any work
            let least = xs.iter().map(|x| x.bits() - 1).sum::<u64>() + 1;
            check_bits(least, a.span)?;
            Ok(Value::int(product_tree(it, xs)?))
        },
    );
    it.add_builtin(
        "gcd",
        "gcd(a, b, ...)",
        "greatest common divisor",
        |_, a| {
            if a.is_empty() {
                a.count(1, 1)?;
            }
            let mut acc = BigInt::from(0);
            for i in 0..a.len() {
                let b = a
                    .get(i)
                    .bigint()
                    .ok_or_else(|| a.type_error(i, "an integer"))?;
                acc = num_integer::Integer::gcd(&acc, &b);
            }
            Ok(Value::int(acc))
        },
    );
    it.add_builtin("binomial", "binomial(n, k)", "n choose k", |it, a| {
        a.count(2, 2)?;
        let n = a.nonneg(0)?;
        let k = a.nonneg(1)?;
        if k > n {
            return Ok(Value::Int(0));
        }
        let k = k.min(n - k);
        // C(n, k) ≥ (n/k)^k
        if k > 0 {
            check_bits((k as f64 * (n as f64 / k as f64).log2()) as u64, a.span)?;
        }
        Ok(Value::int(binomial(it, n, k).map_err(|e| e.at(a.span))?))
    });
    it.add_builtin(
        "mex",
        "mex(xs)",
        "the least non-negative integer not in xs",
        |it, a| {
            a.count(1, 1)?;
            let seen: std::collections::HashSet<BigInt> = integers(it, a)?.into_iter().collect();
            let mut m = BigInt::ZERO;
            while seen.contains(&m) {
                m += 1;
            }
            Ok(Value::int(m))
        },
    );
    it.add_builtin(
        "reverse",
        "reverse(xs)",
        "the elements in reverse order",
        |it, a| {
            a.count(1, 1)?;
            let mut xs = it.items(a.get(0), a.span_of(0))?;
            xs.reverse();
            Ok(match a.get(0) {
                Value::Str(_) => Value::str(&xs.iter().map(|v| v.to_text()).collect::<String>()),
                _ => Value::list(xs),
            })
        },
    );
    it.add_builtin(
        "flatten",
        "flatten(xss)",
        "a list of lists joined into one list",
        |it, a| {
            a.count(1, 1)?;
            let mut out = vec![];
            for x in it.items(a.get(0), a.span_of(0))? {
                match x {
                    Value::List(_) | Value::Set(_) | Value::Range(..) => {
                        out.extend(it.items(&x, a.span_of(0))?)
                    }
                    v => out.push(v),
                }
                check_elements(out.len() as u64, a.span)?;
            }
            Ok(Value::list(out))
        },
    );
    it.add_builtin(
        "union",
        "union(a, b, ...)",
        "the set of elements in any argument",
        |it, a| {
            let mut all = vec![];
            for i in 0..a.len() {
                all.extend(it.items(a.get(i), a.span_of(i))?);
            }
            Ok(Value::set(set_of(it, all)?))
        },
    );
    it.add_builtin(
        "intersection",
        "intersection(a, b, ...)",
        "the set of elements in every argument",
        |it, a| {
            a.count(1, usize::MAX)?;
            let mut out = set_of(it, it.items(a.get(0), a.span_of(0))?)?;
            for i in 1..a.len() {
                let other = set_of(it, it.items(a.get(i), a.span_of(i))?)?;
                out = out.intersection(&other).cloned().collect();
            }
            Ok(Value::set(out))
        },
    );
    it.add_builtin(
        "format",
        "format(template, x, ...)",
        "the template with each {} replaced by the next value: format(\"{} has order {}\", \"G\", 8)",
        |_, a| {
            a.count(1, usize::MAX)?;
            let t = a.str(0)?;
            let mut out = String::new();
            let mut next = 1;
            let mut rest = &*t;
            while let Some(i) = rest.find("{}") {
                out.push_str(&rest[..i]);
                if next >= a.len() {
                    return Err(Error::runtime(
                        format!("the template has more {{}} than the {} values given", a.len() - 1),
                        a.span,
                    )
                    .hint("give one value per {}"));
                }
                out.push_str(&a.get(next).to_text());
                next += 1;
                rest = &rest[i + 2..];
            }
            if next < a.len() {
                return Err(Error::runtime(
                    format!(
                        "the template has {} {{}} but {} values were given",
                        next - 1,
                        a.len() - 1
                    ),
                    a.span_of(next),
                )
                .hint("give one value per {}"));
            }
            out.push_str(rest);
            Ok(Value::str(&out))
        },
    );
    it.add_builtin(
        "pad",
        "pad(x, width) or pad(x, -width)",
        "the text of x padded with spaces to width (on the left; on the right for a negative width)",
        |_, a| {
            a.count(2, 2)?;
            let text = match a.get(0) {
                Value::Str(s) => s.to_string(),
                v => v.to_text(),
            };
            let w = a.int(1)?;
            if w.unsigned_abs() > 10_000 {
                return Err(Error::runtime(
                    format!("a width of {} columns, more than 10_000", num(w.unsigned_abs())),
                    a.span_of(1),
                )
                .hint("pad to a moderate width"));
            }
            let n = text.chars().count();
            let fill = " ".repeat((w.unsigned_abs() as usize).saturating_sub(n));
            Ok(Value::str(&if w >= 0 { fill + &text } else { text + &fill }))
        },
    );
    it.add_builtin(
        "assert",
        "assert(cond, message)",
        "stop the script with the message (and where) when cond is false",
        |_, a| {
            a.count(1, 2)?;
            match a.get(0) {
                Value::Bool(true) => Ok(Value::Unit),
                Value::Bool(false) => {
                    let msg = if a.len() == 2 {
                        a.get(1).to_text()
                    } else {
                        "assertion failed".into()
                    };
                    Err(Error::runtime(msg, a.span).hint("an assert(...) in the script failed"))
                }
                _ => Err(a.type_error(0, "true or false")),
            }
        },
    );
    it.add_builtin("keys", "keys(m)", "the keys of a map, in order", |_, a| {
        map_part(a, true)
    });
    it.add_builtin(
        "values",
        "values(m)",
        "the values of a map, in order",
        |_, a| map_part(a, false),
    );
    it.add_builtin(
        "show",
        "show(x), show(board, perm), show(board, pattern)",
        "a text drawing of a game position (placement, cycles, dots) or of a board: its cell numbers, where each cell goes under a permutation, or a pattern's cells marked",
        show,
    );
    it.add_builtin(
        "table",
        "table(f, rows, cols)",
        "grid of f(r, c) for r over rows and c over cols",
        table,
    );
}

fn print(it: &mut Interp, a: &mut Args) -> Result<Value> {
    let v = if a.len() == 1 {
        a.get(0).clone()
    } else if it.json {
        Value::list(a.vals.iter().map(|(v, _)| v.clone()).collect())
    } else {
        // one-line values share the line; a multi-line one (a record, a table) starts on the
        // next line, indented under what precedes it
        let mut text = String::new();
        let mut after_block = false;
        for (i, (v, _)) in a.vals.iter().enumerate() {
            let t = v.to_text();
            if t.contains('\n') {
                for l in t.lines() {
                    text.push_str("\n  ");
                    text.push_str(l);
                }
                after_block = true;
            } else {
                if i > 0 {
                    text.push(if after_block { '\n' } else { ' ' });
                }
                text.push_str(&t);
                after_block = false;
            }
        }
        let text = text.strip_prefix('\n').unwrap_or(&text).to_string();
        Value::str(&text)
    };
    it.emit(a.span, &v);
    Ok(Value::Unit)
}

fn len(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    Ok(Value::Int(match a.get(0) {
        Value::List(xs) => xs.len() as i64,
        Value::Set(xs) => xs.len() as i64,
        Value::Str(s) => s.chars().count() as i64,
        Value::Range(lo, hi) => {
            let n = (*hi as i128 - *lo as i128 + 1).max(0);
            return Ok(Value::int(BigInt::from(n)));
        }
        Value::Map(kv) => kv.len() as i64,
        v => {
            return Err(
                Error::runtime(format!("{} has no length", v.a_type()), a.span_of(0)).hint(
                    if matches!(v, Value::Group(_)) && it.builtins.contains_key("order") {
                        "for a group use order(G)"
                    } else {
                        "len takes a list, set, range, string or map"
                    },
                ),
            );
        }
    }))
}

fn elements(a: &Args) -> Result<Vec<Value>> {
    if a.len() == 1 {
        match a.get(0) {
            Value::List(xs) => Ok(xs.to_vec()),
            Value::Set(xs) => Ok(xs.iter().cloned().collect()),
            Value::Range(lo, hi) => Ok(if lo <= hi {
                vec![Value::Int(*lo), Value::Int(*hi)]
            } else {
                vec![]
            }),
            _ => Err(a.type_error(0, "a list, set or range")),
        }
    } else {
        Ok(a.vals.iter().map(|v| v.0.clone()).collect())
    }
}

fn extreme(a: &Args, smallest: bool) -> Result<Value> {
    if a.is_empty() {
        return Err(Error::runtime(
            format!("`{}` needs at least one value", a.name),
            a.span,
        ));
    }
    let xs = elements(a)?;
    let r = if smallest {
        xs.into_iter().min()
    } else {
        xs.into_iter().max()
    };
    r.ok_or_else(|| Error::runtime(format!("`{}` of an empty collection", a.name), a.span))
}

fn sum(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let xs = it.items(a.get(0), a.span_of(0))?;
    if xs.iter().all(|x| x.bigint().is_some()) {
        return Ok(Value::int(integers(it, a)?.into_iter().sum::<BigInt>()));
    }
    let mut total = BigRational::zero();
    for x in &xs {
        let r = x.rational().ok_or_else(|| {
            Error::runtime(
                format!("`sum` takes numbers; this holds {}", x.a_type()),
                a.span_of(0),
            )
            .hint("sum([1/2, 1/3]) or sum(1..10)")
        })?;
        check_bits(
            total.numer().bits() + total.denom().bits() + r.numer().bits() + r.denom().bits(),
            a.span,
        )?;
        total += r;
    }
    Ok(Value::ratio(total))
}

/// `f` of the one argument, a number (an integer or a fraction).
fn of_number(a: &mut Args, f: impl Fn(BigRational) -> Value) -> Result<Value> {
    a.count(1, 1)?;
    let x = a
        .get(0)
        .rational()
        .ok_or_else(|| a.type_error(0, "a number"))?;
    Ok(f(x))
}

/// Where `x` first is in the list `xs`, or where the string `x` first starts in the string
/// `xs` (counted in characters, as indices are).
fn found(it: &Interp, a: &Args) -> Result<Option<usize>> {
    Ok(match (a.get(0), a.get(1)) {
        (Value::Str(s), Value::Str(t)) => s.find(&**t).map(|b| s[..b].chars().count()),
        (Value::Str(_), _) => return Err(a.type_error(1, "a string")),
        (xs, x) => it.items(xs, a.span_of(0))?.iter().position(|y| y == x),
    })
}

/// The elements of the first argument, which must all be integers.
fn integers(it: &Interp, a: &Args) -> Result<Vec<BigInt>> {
    it.items(a.get(0), a.span_of(0))?
        .iter()
        .map(|x| {
            x.bigint().ok_or_else(|| {
                Error::runtime(
                    format!("`{}` takes integers; this holds {}", a.name, x.a_type()),
                    a.span_of(0),
                )
                .hint(format!("{}([2, 3, 7]) or {}(1..10)", a.name, a.name))
            })
        })
        .collect()
}

fn sort(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let xs = it.items(a.get(0), a.span_of(0))?;
    Ok(Value::list(sorted(it, xs)?))
}

/// The set of `xs`, sorted first (polling Ctrl-C) so that building it is linear.
fn set_of(it: &Interp, xs: Vec<Value>) -> Result<BTreeSet<Value>> {
    Ok(sorted(it, xs)?.into_iter().collect())
}

/// `xs` in increasing order, polling Ctrl-C and ticking progress: one sort of the 20 M
/// elements a list may hold takes seconds, so runs of 2^16 are sorted, then merged pairwise.
fn sorted(it: &Interp, mut xs: Vec<Value>) -> Result<Vec<Value>> {
    const RUN: usize = 1 << 16;
    if xs.len() <= RUN {
        xs.sort();
        return Ok(xs);
    }
    // work: the runs, then one pass over all elements per merge level
    let levels = (xs.len().div_ceil(RUN))
        .next_power_of_two()
        .trailing_zeros() as u64;
    let task = it.ctl.task("sorting", Some(xs.len() as u64 * (1 + levels)));
    for run in xs.chunks_mut(RUN) {
        run.sort();
        task.tick(run.len() as u64)?;
    }
    let mut width = RUN;
    while width < xs.len() {
        let mut out = Vec::with_capacity(xs.len());
        let mut rest = xs.into_iter();
        loop {
            let a: Vec<Value> = rest.by_ref().take(width).collect();
            if a.is_empty() {
                break;
            }
            let mut a = a.into_iter().peekable();
            let mut b = rest.by_ref().take(width).peekable();
            loop {
                // ties from the first run first, so the sort stays stable
                let from_a = match (a.peek(), b.peek()) {
                    (Some(x), Some(y)) => x <= y,
                    (Some(_), None) => true,
                    (None, Some(_)) => false,
                    (None, None) => break,
                };
                out.extend(if from_a { a.next() } else { b.next() });
                if out.len() % RUN == 0 {
                    task.tick(RUN as u64)?;
                }
            }
        }
        xs = out;
        width *= 2;
    }
    Ok(xs)
}

fn xor(_: &mut Interp, a: &mut Args) -> Result<Value> {
    if a.len() < 2 {
        a.count(2, 2)?;
    }
    let mut acc = BigInt::from(0);
    for i in 0..a.len() {
        let x = a
            .get(i)
            .bigint()
            .ok_or_else(|| a.type_error(i, "an integer"))?;
        if x.sign() == num_bigint::Sign::Minus {
            return Err(Error::runtime(
                "the nim-sum is defined on non-negative integers",
                a.span_of(i),
            ));
        }
        acc ^= x;
    }
    Ok(Value::int(acc))
}

fn table(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(3, 3)?;
    let f = a.get(0).clone();
    let rows = it.items(a.get(1), a.span_of(1))?;
    let cols = it.items(a.get(2), a.span_of(2))?;
    let cells = (rows.len() as u64).saturating_mul(cols.len() as u64);
    it.ctl.reserve(
        cells.saturating_mul(64),
        &format!("a table of {} cells", crate::engine::control::num(cells)),
    )?;
    let mut values = vec![];
    let mut failed: Option<(usize, String)> = None;
    for r in &rows {
        let mut line = vec![];
        for c in &cols {
            it.ctl.check()?;
            // one failing cell leaves that cell empty instead of losing the table
            let v = match it.call_values(&f, vec![r.clone(), c.clone()], a.span_of(0)) {
                Ok(v) => v,
                Err(e) if e.kind == crate::lang::error::Kind::Cancelled => return Err(e),
                Err(e) => {
                    let f = failed.get_or_insert((
                        0,
                        format!(
                            "at row {}, column {}: {}",
                            r.to_text(),
                            c.to_text(),
                            e.message
                        ),
                    ));
                    f.0 += 1;
                    Value::Unit
                }
            };
            // a failed cell (or one of a call that returns nothing) is left empty; none is kept
            line.push((!matches!(v, Value::Unit)).then_some(v));
        }
        values.push(line);
    }
    if let Some((n, first)) = failed {
        it.warn(&format!(
            "{n} cell{} of the table failed and {} left empty; the first {first}",
            if n == 1 { "" } else { "s" },
            if n == 1 { "is" } else { "are" }
        ));
    }
    Ok(Value::Table(Rc::new(Table { rows, cols, values })))
}

/// Each engine family draws its own positions.
fn show(_: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 2)?;
    if let Value::Board(b) = a.get(0) {
        return show_board(a, b.rows, b.cols);
    }
    a.count(1, 1)?;
    let text = match a.get(0) {
        Value::Position(p) => match p.comps.as_slice() {
            [c] => c.rs.family.show(&c.args),
            _ => None,
        },
        _ => None,
    };
    let text = text.ok_or_else(|| {
        a.type_error(
            0,
            "a board or a game position to draw (placement, cycles, dots, board games by rules, domineering, clobber, toads_frogs, hackenbush)",
        )
    })?;
    Ok(Value::str(&text))
}

fn map_part(a: &mut Args, keys: bool) -> Result<Value> {
    a.count(1, 1)?;
    let Value::Map(kv) = a.get(0) else {
        return Err(a.type_error(0, "a map such as moves(P)"));
    };
    Ok(Value::list(
        kv.iter()
            .map(|(k, v)| if keys { k.clone() } else { v.clone() })
            .collect(),
    ))
}

/// A board drawn with its cell numbers; with a permutation, the cell each content goes to;
/// with a pattern (a set of cells, or a list of sets, one per colour), the cells marked.
fn show_board(a: &Args, rows: usize, cols: usize) -> Result<Value> {
    let n = rows * cols;
    let mut label: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    if a.len() == 2 {
        match a.get(1) {
            Value::Perm(p) => {
                if p.largest_moved() > n {
                    return Err(Error::runtime(
                        format!(
                            "{} moves cell {}, which is not on this {rows}x{cols} board",
                            a.get(1).to_text(),
                            p.largest_moved()
                        ),
                        a.span_of(1),
                    )
                    .hint("cells are numbered 1.. row by row"));
                }
                for (i, l) in label.iter_mut().enumerate() {
                    let to = if i < p.degree() { p.apply(i) } else { i };
                    *l = format!("{}>{}", i + 1, to + 1);
                }
            }
            v @ (Value::Set(_) | Value::List(_)) => {
                let colours: Vec<Value> = match v {
                    Value::List(xs)
                        if xs
                            .iter()
                            .all(|x| matches!(x, Value::Set(_) | Value::List(_))) =>
                    {
                        xs.to_vec()
                    }
                    other => vec![other.clone()],
                };
                let marks = ['#', '@', '*', '+', '%', '&', '$', '=', '~'];
                for l in label.iter_mut() {
                    *l = ".".into();
                }
                for (k, c) in colours.iter().enumerate() {
                    let cells: Vec<Value> = match c {
                        Value::Set(s) => s.iter().cloned().collect(),
                        Value::List(s) => s.to_vec(),
                        _ => vec![],
                    };
                    for cell in cells {
                        match cell {
                            Value::Int(i) if i >= 1 && (i as usize) <= n => {
                                label[i as usize - 1] = marks[k % marks.len()].to_string()
                            }
                            other => {
                                return Err(Error::runtime(
                                    format!(
                                        "{} is not a cell of this {rows}x{cols} board",
                                        other.to_text()
                                    ),
                                    a.span_of(1),
                                )
                                .hint("cells are numbered 1.. row by row"));
                            }
                        }
                    }
                }
            }
            _ => return Err(a.type_error(1, "a permutation or a pattern (a set of cells)")),
        }
    }
    let w = label.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    let mut out = String::new();
    for r in 0..rows {
        if r > 0 {
            out.push('\n');
        }
        let line: Vec<String> = (0..cols)
            .map(|c| format!("{:>w$}", label[r * cols + c]))
            .collect();
        out.push_str(line.join(" ").trim_end());
    }
    Ok(Value::str(&out))
}

/// The product of `xs`, multiplied in pairs so that the big multiplications are balanced
/// (one factor at a time is quadratic in the result's length).
fn product_tree(it: &Interp, mut xs: Vec<BigInt>) -> Result<BigInt> {
    while xs.len() > 1 {
        let mut next = Vec::with_capacity(xs.len().div_ceil(2));
        let mut pairs = xs.into_iter();
        while let Some(x) = pairs.next() {
            it.ctl.check()?;
            next.push(match pairs.next() {
                Some(y) => x * y,
                None => x,
            });
        }
        xs = next;
    }
    Ok(xs.pop().unwrap_or_else(|| BigInt::from(1)))
}

/// C(n, k) for k ≤ n/2, from its factors: p^e for each prime p ≤ k (e counted by Kummer's
/// theorem), times what is left of n-k+1, ..., n once those primes are divided out.
fn binomial(it: &Interp, n: u64, k: u64) -> Result<BigInt> {
    it.ctl
        .reserve(9 * (k + 1), "the sieve for binomial(n, k)")?;
    let lo = n - k + 1;
    let mut window: Vec<u64> = (lo..=n).collect();
    let mut composite = vec![false; k as usize + 1];
    let mut factors = vec![];
    for p in 2..=k {
        if composite[p as usize] {
            continue;
        }
        it.ctl.check()?;
        for m in (p * p..=k).step_by(p as usize) {
            composite[m as usize] = true;
        }
        // the exponent of p is the number of carries when k and n - k are added in base p
        let (mut e, mut q) = (0u64, p);
        loop {
            e += n / q - k / q - (n - k) / q;
            match q.checked_mul(p) {
                Some(r) if r <= n => q = r,
                _ => break,
            }
        }
        factors.push(num_traits::pow(BigInt::from(p), e as usize));
        let first = lo.div_ceil(p) * p;
        for m in (first..=n).step_by(p as usize) {
            let w = &mut window[(m - lo) as usize];
            while (*w).is_multiple_of(p) {
                *w /= p;
            }
        }
    }
    factors.extend(window.into_iter().filter(|&w| w > 1).map(BigInt::from));
    product_tree(it, factors)
}
