//! The Game of Cycles (docs/language.md, "The Game of Cycles"): positions on graph boards with
//! cells, and the board builders of the thesis.
use crate::engine::control::num;
use crate::engine::cycles::{self, Cycles, Rule, boards};
use crate::engine::graph::Graph;
use crate::lang::error::{Error, Result};
use crate::lang::eval::{Args, Interp};
use crate::lang::rules::{Component, Position, Rules, Ruleset, cycles_args, cycles_pos};
use crate::lang::value::Value;
use std::rc::Rc;

pub fn register(it: &mut Interp) {
    it.add_builtin(
        "cycles",
        "cycles(g, rule: \"original\" | \"normal\", marked: [\"a>b\", ...])",
        "the Game of Cycles on graph board g: a move orients an unmarked edge, never making a sink or a source",
        cycles_game,
    );
    it.add_builtin(
        "cycle_graph",
        "cycle_graph(n)",
        "the cycle C_n on vertices a, b, c, ..., its one cell the cycle",
        |_, a| sized(a, 3, boards::cycle_graph),
    );
    it.add_builtin(
        "path_graph",
        "path_graph(n)",
        "the line L_n of the thesis: n markable edges, plus an unmarkable edge at each leaf",
        |_, a| sized(a, 1, boards::path_graph),
    );
    it.add_builtin(
        "diamond",
        "diamond()",
        "the diamond board of the thesis (section 2.1.1); the stdlib binds it to `diamond`",
        |_, a| {
            a.count(0, 0)?;
            Ok(Value::Graph(Rc::new(boards::diamond())))
        },
    );
    it.add_builtin(
        "double_diamond",
        "double_diamond(k, outer: \"ad/cf\" | \"ab/cb\" | \"de/fe\")",
        "the double-diamond (vertices a..f) with k vertices inserted on each of a mirror pair of outer edges",
        double_diamond,
    );
    it.add_builtin(
        "spider",
        "spider(a, b, c)",
        "a centre o with three legs of a, b and c markable edges (each leg ends in an unmarkable edge)",
        spider,
    );
    it.add_builtin(
        "trees",
        "trees(n)",
        "all trees with n edges up to isomorphism",
        |_, a| {
            let n = small(a, 0, 0, 16)?;
            Ok(Value::list(
                boards::trees(n)
                    .into_iter()
                    .map(|g| Value::Graph(Rc::new(g)))
                    .collect(),
            ))
        },
    );
    it.add_builtin(
        "is_z_tree",
        "is_z_tree(g)",
        "whether every vertex of degree 2 of the tree g is next to a leaf (thesis, Definition 4.1)",
        |_, a| {
            a.count(1, 1)?;
            Ok(Value::Bool(boards::is_z_tree(&*get_graph(a, 0)?)))
        },
    );
}

fn get_graph(a: &Args, i: usize) -> Result<Rc<Graph>> {
    match a.get(i) {
        Value::Graph(g) => Ok(g.clone()),
        _ => Err(a.type_error(i, "a graph, e.g. graph { a - b - c - a; cells [a, b, c] }")),
    }
}

/// Argument `i` as a size between `lo` and `hi`.
fn small(a: &Args, i: usize, lo: u64, hi: u64) -> Result<usize> {
    a.count(i + 1, i + 1)?;
    let n = a.nonneg(i)?;
    if n < lo || n > hi {
        return Err(Error::runtime(
            format!("{} is outside {}..{}", num(n), num(lo), num(hi)),
            a.span_of(i),
        )
        .hint("the Game of Cycles engine takes boards of up to 64 edges"));
    }
    Ok(n as usize)
}

fn sized(a: &mut Args, lo: u64, f: fn(usize) -> Graph) -> Result<Value> {
    Ok(Value::Graph(Rc::new(f(small(a, 0, lo, 64)?))))
}

fn double_diamond(_: &mut Interp, a: &mut Args) -> Result<Value> {
    let outer = match a.kw("outer") {
        None => boards::Outer::AdCf,
        Some((Value::Str(s), sp)) => *boards::Outer::ALL
            .iter()
            .find(|o| o.label() == &*s)
            .ok_or_else(|| {
                Error::runtime(format!("no outer edge pair \"{s}\""), sp)
                    .hint("the pairs are \"ad/cf\", \"ab/cb\" and \"de/fe\"")
            })?,
        Some((_, sp)) => return Err(Error::runtime("`outer:` is a string such as \"ad/cf\"", sp)),
    };
    let k = small(a, 0, 0, 27)?;
    Ok(Value::Graph(Rc::new(boards::double_diamond_with(k, outer))))
}

fn spider(_: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(3, 3)?;
    let legs: Vec<usize> = (0..3)
        .map(|i| a.nonneg(i).map(|x| x as usize))
        .collect::<Result<_>>()?;
    if legs.iter().sum::<usize>() + 3 > 64 {
        return Err(Error::runtime(
            "a spider of more than 64 edges is too large",
            a.span,
        ));
    }
    Ok(Value::Graph(Rc::new(boards::spider(
        legs[0], legs[1], legs[2],
    ))))
}

fn cycles_game(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let rule = match a.kw("rule") {
        None => Rule::Original,
        Some((Value::Str(s), sp)) => Rule::parse(&s).map_err(|e| Error::from(e).at(sp))?,
        Some((_, sp)) => return Err(Error::runtime("`rule:` is \"original\" or \"normal\"", sp)),
    };
    let marked = a.kw("marked");
    let g = get_graph(a, 0)?;
    let text = g.to_string();
    let shown = if text.len() <= 60 {
        text
    } else {
        format!(
            "<a graph of {} vertices and {} edges>",
            g.vertex_count(),
            g.edges.len()
        )
    };
    let name = match rule {
        Rule::Original => format!("cycles({shown})"),
        Rule::Normal => format!("cycles({shown}, rule: \"normal\")"),
    };
    let key = format!("{g} {rule}");
    let game = match it.games.cycles.get(&key) {
        Some(rs) => rs.clone(),
        None => {
            let c = Cycles::new((*g).clone(), rule).map_err(|e| Error::from(e).at(a.span_of(0)))?;
            let rs = Rc::new(Ruleset::new(name.clone(), Rules::Cycles(Rc::new(c))));
            it.games.cycles.insert(key, rs.clone());
            rs
        }
    };
    let Rules::Cycles(c) = &game.rules else {
        unreachable!("built above")
    };
    let pos = match marked {
        None => c.start(),
        Some((v, sp)) => {
            let specs: Vec<String> = it
                .items(&v, sp)?
                .iter()
                .map(|x| match x {
                    Value::Str(s) => Ok(s.to_string()),
                    other => Err(Error::runtime(
                        format!(
                            "a marked edge is a string like \"a>b\", not {}",
                            other.a_type()
                        ),
                        sp,
                    )),
                })
                .collect::<Result<_>>()?;
            c.parse_marked(&specs).map_err(|e| Error::from(e).at(sp))?
        }
    };
    let args = cycles_args(&pos);
    Ok(Value::Position(Rc::new(Position {
        comps: vec![Component {
            rs: game.clone(),
            args,
        }],
        misere: false,
    })))
}

/// The Game of Cycles component of a position, if it is one.
pub fn single(v: &Value) -> Option<(Rc<Cycles>, cycles::Position)> {
    let Value::Position(p) = v else { return None };
    let [c] = p.comps.as_slice() else { return None };
    let Rules::Cycles(g) = &c.rs.rules else {
        return None;
    };
    Some((g.clone(), cycles_pos(g, &c.args).ok()?))
}

/// A text drawing of a Game of Cycles position, when `v` is one.
pub fn show(v: &Value) -> Option<String> {
    single(v).map(|(g, p)| g.show(&p).trim_end().to_string())
}
