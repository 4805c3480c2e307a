//! The Game of Cycles (docs/language.md, "The Game of Cycles"): positions on graph boards with
//! cells, and the board builders of the thesis.
use crate::engine::control::num;
use crate::engine::cycles::{self, Cycles, Rule, boards};
use crate::engine::graph::Graph;
use crate::lang::error::{Error, Result};
use crate::lang::run::eval::{Args, Interp};
use crate::lang::run::game::{Family, Options};
use crate::lang::run::rules::{Position, Ruleset};
use crate::lang::run::value::{GRAPH_FORMATS, Picture, Value, extension};
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
        |_, a| sized(a, 3, 64, 0, boards::cycle_graph),
    );
    it.add_builtin(
        "path_graph",
        "path_graph(n)",
        "the line L_n of the thesis: n markable edges, plus an unmarkable edge at each leaf",
        |_, a| sized(a, 1, 62, 2, boards::path_graph),
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
            let n = small(a, 0, 0, 16, "trees are listed up to 16 edges")?;
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

/// The Game of Cycles position of a state.
fn cycles_pos(g: &cycles::Cycles, args: &[i64]) -> crate::engine::Result<cycles::Position> {
    let (marked, dir) = (args[0] as u64, args[1] as u64);
    let arrows: Vec<(usize, usize)> = (0..g.graph().edges.len())
        .filter(|e| marked >> e & 1 == 1)
        .map(|e| {
            let (a, b) = g.graph().edges[e];
            if dir >> e & 1 == 0 { (a, b) } else { (b, a) }
        })
        .collect();
    g.with_marked(&arrows)
}

/// The state of a Game of Cycles position.
fn cycles_args(p: &cycles::Position) -> Box<[i64]> {
    let (marked, dir) = p.bits();
    Box::new([marked as i64, dir as i64])
}

/// The Game of Cycles; a state is the marked-edge and direction masks.
pub struct CyclesGame(Rc<Cycles>);

impl Family for CyclesGame {
    fn describe(&self, name: &str, state: &[i64]) -> String {
        let g = &self.0;
        let Ok(p) = cycles_pos(g, state) else {
            return name.to_string();
        };
        let arrows: Vec<String> = (0..g.graph().edges.len())
            .filter_map(|e| p.arrow(g.graph(), e))
            .map(|(a, b)| format!("{}>{}", g.graph().names[a], g.graph().names[b]))
            .collect();
        if arrows.is_empty() {
            name.to_string()
        } else {
            format!("{name} after {}", arrows.join(" "))
        }
    }
    fn kept_bytes(&self) -> u64 {
        self.0.table_bytes()
    }
    fn forget(&self) {
        self.0.clear_table();
    }
    fn options(&self, _: &mut Interp, _: &Ruleset, state: &[i64]) -> Result<Options> {
        let pos = cycles_pos(&self.0, state)?;
        Ok(self
            .0
            .options(&pos)
            .iter()
            .map(|o| vec![cycles_args(o)])
            .collect())
    }
    fn grundy(&self, it: &mut Interp, _: &Ruleset, state: &[i64]) -> Result<Option<u32>> {
        Ok(Some(self.0.grundy(&cycles_pos(&self.0, state)?, &it.ctl)?))
    }
    /// the Game of Cycles has its own outcome search, under either rule
    fn next_wins(&self, it: &mut Interp, state: &[i64]) -> Result<Option<bool>> {
        let pos = cycles_pos(&self.0, state)?;
        Ok(Some(self.0.outcome(&pos, &it.ctl)? == cycles::Outcome::N))
    }
    /// under the original rule a position has an outcome but no nimber
    fn by_outcome(&self) -> bool {
        self.0.rule() == Rule::Original
    }
    fn move_label(&self, state: &[i64], option: &[i64]) -> Option<String> {
        let (before, after) = (
            cycles_pos(&self.0, state).ok()?,
            cycles_pos(&self.0, option).ok()?,
        );
        let gr = self.0.graph();
        let e = (0..gr.edges.len())
            .find(|&e| before.arrow(gr, e).is_none() && after.arrow(gr, e).is_some())?;
        let (a, b) = after.arrow(gr, e)?;
        Some(format!("{}>{}", gr.names[a], gr.names[b]))
    }
    fn show(&self, state: &[i64]) -> Option<String> {
        let pos = cycles_pos(&self.0, state).ok()?;
        Some(self.0.show(&pos).trim_end().to_string())
    }
    fn picture(&self, v: &Value) -> Option<Picture> {
        let (game, pos) = single(v)?;
        let title = format!(
            "Game of Cycles: {} markable edges, {} marked ({} rule)",
            game.markable_edges(),
            pos.marked_count(),
            game.rule()
        );
        Some(Picture {
            title: title.clone(),
            formats: GRAPH_FORMATS,
            draw: Box::new(move |path| match extension(path).as_str() {
                "dot" => std::fs::write(path, game.dot(&pos))
                    .map_err(|e| format!("cannot write {path}: {e}")),
                _ => game.picture(&pos, &title, path),
            }),
        })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn get_graph(a: &Args, i: usize) -> Result<Rc<Graph>> {
    match a.get(i) {
        Value::Graph(g) => Ok(g.clone()),
        _ => Err(a.type_error(i, "a graph, e.g. graph { a - b - c - a; cells [a, b, c] }")),
    }
}

const EDGES: &str = "the Game of Cycles engine takes boards of up to 64 edges";

/// Argument `i` as a size between `lo` and `hi`.
fn small(a: &Args, i: usize, lo: u64, hi: u64, hint: &str) -> Result<usize> {
    a.count(i + 1, i + 1)?;
    let n = a.nonneg(i)?;
    if n < lo || n > hi {
        return Err(Error::runtime(
            format!("{} is outside {}..{}", num(n), num(lo), num(hi)),
            a.span_of(i),
        )
        .hint(hint));
    }
    Ok(n as usize)
}

/// A board built from its size n, which has n + `extra` edges.
fn sized(a: &mut Args, lo: u64, hi: u64, extra: u64, f: fn(usize) -> Graph) -> Result<Value> {
    let hint = if extra == 0 {
        EDGES.to_string()
    } else {
        format!("{EDGES}: this one has n + {extra}")
    };
    Ok(Value::Graph(Rc::new(f(small(a, 0, lo, hi, &hint)?))))
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
    let k = small(a, 0, 0, 27, EDGES)?;
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
    let game = it.games.board(key, || {
        let c = Cycles::new((*g).clone(), rule).map_err(|e| Error::from(e).at(a.span_of(0)))?;
        Ok(Ruleset::new(name.clone(), CyclesGame(Rc::new(c))))
    })?;
    let Some(CyclesGame(c)) = game.family::<CyclesGame>() else {
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
    Ok(Value::Position(Rc::new(Position::single(
        game.clone(),
        args,
    ))))
}

/// The Game of Cycles component of a position, if it is one.
fn single(v: &Value) -> Option<(Rc<Cycles>, cycles::Position)> {
    let Value::Position(p) = v else { return None };
    let [c] = p.comps.as_slice() else { return None };
    let CyclesGame(g) = c.rs.family::<CyclesGame>()?;
    Some((g.clone(), cycles_pos(g, &c.args).ok()?))
}
