//! Permutation groups as the builtins read them: a group argument, a pattern of points (a
//! point, a set, a colouring) as a state of the engine, the generators as moves, and the
//! limits of in-memory searches and pictures.
use crate::engine::group::GroupVal;
use crate::engine::group::cayley::State;
use crate::engine::group::perm::Perm;
use crate::lang::error::{Error, Result};
use crate::lang::run::eval::Args;
use crate::lang::run::value::Value;
use std::collections::BTreeSet;
use std::rc::Rc;

/// In-memory searches stop beyond this many states (about 1.5 GB of hash tables).
pub const STATE_LIMIT: usize = 20_000_000;

pub fn get_group(a: &Args, i: usize) -> Result<Rc<GroupVal>> {
    match a.get(i) {
        Value::Group(g) => Ok(g.clone()),
        _ => Err(a.type_error(i, "a group")),
    }
}

/// How a pattern value was written, so that states convert back to the same form.
#[derive(Clone, Copy)]
pub(crate) enum Shape {
    Point,
    Set,
    Colours,
}

fn point_of(v: &Value, degree: usize, span: crate::lang::syntax::ast::Span) -> Result<usize> {
    match v {
        Value::Int(p) if *p >= 1 && (*p as usize) <= degree => Ok(*p as usize - 1),
        Value::Int(p) => Err(Error::runtime(
            format!("point {p} is not in 1..{degree}"),
            span,
        )),
        _ => Err(Error::runtime(
            format!("a pattern holds points (integers), not {}", v.a_type()),
            span,
        )),
    }
}

pub(crate) fn pattern(a: &Args, i: usize, degree: usize) -> Result<(State, Shape)> {
    let span = a.span_of(i);
    let mut st = vec![0u8; degree];
    let put = |set: &BTreeSet<Value>, colour: u8, st: &mut Vec<u8>| -> Result<()> {
        for v in set {
            let p = point_of(v, degree, span)?;
            if st[p] != 0 {
                return Err(
                    Error::runtime(format!("point {} has two colours", p + 1), span)
                        .hint("the sets of a pattern must be disjoint"),
                );
            }
            st[p] = colour;
        }
        Ok(())
    };
    let shape = match a.get(i) {
        Value::Int(_) => {
            st[point_of(a.get(i), degree, span)?] = 1;
            Shape::Point
        }
        Value::Set(s) => {
            put(s, 1, &mut st)?;
            Shape::Set
        }
        Value::List(xs) if xs.iter().all(|x| matches!(x, Value::Set(_))) && xs.len() < 255 => {
            for (c, x) in xs.iter().enumerate() {
                let Value::Set(s) = x else { unreachable!() };
                put(s, c as u8 + 1, &mut st)?;
            }
            Shape::Colours
        }
        _ => {
            return Err(a.type_error(
                i,
                "a point, a set of points, or a list of disjoint sets (one per colour)",
            ));
        }
    };
    Ok((st.into(), shape))
}

/// The board with every point labelled apart: searches over the group's elements start here.
/// A label is a byte, so these searches take groups of at most 255 points.
pub(crate) fn identity_state(degree: usize) -> Result<State> {
    if degree > 255 {
        return Err(Error::plain(format!(
            "a search over the elements of a group labels its {degree} points with bytes, so it takes at most 255 points"
        ))
        .hint("order, membership and orbits of patterns work at any degree"));
    }
    Ok((1..=degree).map(|i| i as u8).collect())
}

pub(crate) fn moves_of(g: &GroupVal) -> (Vec<String>, Vec<Perm>) {
    g.moves().into_iter().unzip()
}

/// Elements of the Cayley graph limited for pictures and matrices (builtins/pictures.rs).
pub const PICTURE_LIMIT: usize = 2048;
