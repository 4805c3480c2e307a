//! Everyday builtins: printing, sequences, numbers, tables.
use crate::lang::error::{Error, Result};
use crate::lang::eval::{Args, Interp};
use crate::lang::value::{Table, Value};
use num_bigint::BigInt;
use std::rc::Rc;

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
    it.add_builtin("sum", "sum(xs)", "sum of a list of integers", sum);
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
            Ok(Value::Set(Rc::new(
                it.items(a.get(0), a.span_of(0))?.into_iter().collect(),
            )))
        },
    );
    it.add_builtin(
        "xor",
        "xor(a, b)",
        "nim-sum (bitwise exclusive or) of non-negative integers",
        xor,
    );
    it.add_builtin("abs", "abs(n)", "absolute value", |_, a| {
        a.count(1, 1)?;
        let b = a
            .get(0)
            .bigint()
            .ok_or_else(|| a.type_error(0, "an integer"))?;
        Ok(Value::int(num_traits::Signed::abs(&b)))
    });
    it.add_builtin("str", "str(x)", "the text form of a value", |_, a| {
        a.count(1, 1)?;
        Ok(Value::str(&a.get(0).to_text()))
    });
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
        "show(x)",
        "a text drawing of a game position (placement, cycles, dots)",
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
    } else {
        let parts: Vec<String> = a.vals.iter().map(|(v, _)| v.to_text()).collect();
        Value::str(&parts.join(" "))
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
        Value::Range(lo, hi) => (hi - lo + 1).max(0),
        v => {
            return Err(
                Error::runtime(format!("a {} has no length", v.type_name()), a.span_of(0)).hint(
                    if it.builtins.contains_key("order") {
                        "for a group use order(G)"
                    } else {
                        "len takes a list, set, range or string"
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
    let mut acc = BigInt::from(0);
    for x in it.items(a.get(0), a.span_of(0))? {
        acc += x
            .bigint()
            .ok_or_else(|| Error::runtime(format!("sum of a {}", x.type_name()), a.span_of(0)))?;
    }
    Ok(Value::int(acc))
}

fn sort(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let mut xs = it.items(a.get(0), a.span_of(0))?;
    xs.sort();
    Ok(Value::list(xs))
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
    let mut values = vec![];
    for r in &rows {
        let mut line = vec![];
        for c in &cols {
            it.ctl.check()?;
            let v = it.call_values(&f, vec![r.clone(), c.clone()], a.span_of(0))?;
            line.push(if matches!(v, Value::Unit) {
                None
            } else {
                Some(v)
            });
        }
        values.push(line);
    }
    Ok(Value::Table(Rc::new(Table { rows, cols, values })))
}

/// Each engine family draws its own positions.
fn show(_: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let v = a.get(0);
    let text = super::placement::show(v)
        .or_else(|| super::cycles::show(v))
        .or_else(|| super::dots::show(v))
        .ok_or_else(|| a.type_error(0, "a game position to draw (placement, cycles, dots)"))?;
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
