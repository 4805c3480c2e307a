//! Games by rules on a board (docs/language.md, "Board games by rules"): `game cram on board
//! { ... }` defines a ruleset; `cram(grid(4, 4))` compiles its rules for that board, once, to
//! the generic engine (`engine::board`) and gives the start position.
//!
//! Compiling happens in two steps. At the definition, names are resolved: states, variables,
//! and the pieces of `attacks(piece, c)`, which the interpreter evaluates then. For a board,
//! every binding of the variables to cells gives one move (or one end condition): its
//! conditions and changes as lists of cells. The engine never calls back into the interpreter.
//! A ruleset with `left move` or `right move` lines is partizan: its positions belong to the
//! `Partizan` family.
//!
//! On edges (`game g on edges`) a variable is bound to an arc, an edge with a direction, and
//! every state but the first has a direction: the engine's states are the first, then each
//! later one pointing along the edge as the graph stores it and against. `e to marked` marks
//! e's edge pointing the way e goes; `e is marked` asks that it point so.
use crate::engine::Ctl;
use crate::engine::board::{self, AnyOf, BoardGame, End, Move, Rules, Sym};
use crate::engine::control::{Task, human_bytes};
use crate::engine::cram;
use crate::engine::graph::{Graph, automorphisms, rect_symmetries};
use crate::engine::partizan::Game;
use crate::engine::placement::{self, Piece};
use crate::lang::error::{Error, Result};
use crate::lang::run::cgt::{Partizan, Sides, store};
use crate::lang::run::eval::{Env, Interp};
use crate::lang::run::game::{BOARD_BYTES, Family, Options};
use crate::lang::run::rules::{Position, Ruleset};
use crate::lang::run::value::{DRAWN_FORMATS, Picture, Value};
use crate::lang::syntax::ast::{BoardGameDef, Expr, ExprKind, Ident, Side, Span};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The directions of `up(c)`, ..., as (name, row step, column step).
const DIRECTIONS: [(&str, i64, i64); 4] = [
    ("up", -1, 0),
    ("down", 1, 0),
    ("left", 0, -1),
    ("right", 0, 1),
];

/// At most this many moves (bindings) per board.
const MAX_MOVES: usize = 200_000;

/// A set of cells (on edges: of arcs), in terms of the variables bound before it.
enum Cells {
    Var(usize),
    Adjacent(Box<Cells>),
    /// the neighbour in a direction of [`DIRECTIONS`] on a grid or torus
    Step(usize, Box<Cells>),
    Attacks(usize, Box<Cells>),
    Union(Box<Cells>, Box<Cells>),
    Minus(Box<Cells>, Box<Cells>),
    /// `jumped(e)`: the cells jumped to reach a variable bound by `jumps(...)`
    Jumped(usize),
    /// `into(head(e))`, `out_of(tail(e))`: the edges at an end of each arc, pointing into or
    /// out of that vertex
    At {
        into: bool,
        head: bool,
        of: Box<Cells>,
    },
}

/// What a variable ranges over.
enum Source {
    /// the cells in a state: the move needs the cell in it
    State(u8),
    All,
    /// the faces of a graph, each way round
    Faces,
    Cells(Cells),
    /// `ray(...)`, `slide(...)`, `jumps(...)`, or their union: each value comes with the
    /// path that reaches it
    Paths(Vec<Path>),
}

/// What a [`Path`] binds its variable to.
#[derive(Clone, Copy, PartialEq)]
enum PathKind {
    /// each cell of the ray
    Ray,
    /// the last cell of the ray
    Slide,
    /// the landing cell of each jump of a chain
    Jumps,
}

/// A line of cells from each cell of `from` in a direction of [`DIRECTIONS`]: `ray(dir, x,
/// through)`, `slide(dir, x, through)` or `jumps(dir, x, over, through)`. A path never comes
/// back to the cell it starts from (on a torus).
struct Path {
    kind: PathKind,
    dir: usize,
    from: Cells,
    /// the state of the cells passed through or landed on
    through: u8,
    /// the state of the jumped cells
    over: u8,
}

/// How a path reaches one value: cells that must be (`need`), or must not be (`not`), in a
/// declared state, and the cells jumped.
#[derive(Clone, Default)]
struct Guard {
    need: Vec<(usize, u8)>,
    not: Option<(usize, u8)>,
    jumped: Vec<usize>,
}

/// One binding of a line's variables so far: their values, which are faces, and the paths
/// that reached them.
struct Bound<'a> {
    vars: &'a [usize],
    faces: &'a [bool],
    guards: &'a [Guard],
}

/// `[some] cells is [not] state`, the state a declared one.
struct Cond {
    cells: Cells,
    state: u8,
    negated: bool,
    some: bool,
}

/// A move line, or an end line (no changes).
struct Line {
    /// the players who may make the move (`board::LEFT`, `RIGHT` or `BOTH`)
    side: u8,
    vars: Vec<Source>,
    conds: Vec<Cond>,
    /// (cells, from state, to state)
    changes: Vec<(Vec<Cells>, Option<u8>, u8)>,
    span: Span,
}

/// A ruleset on no board yet: calling it with a board gives the start position.
pub struct BoardRules {
    name: String,
    /// whether the cells are the edges of a graph
    edges: bool,
    states: Vec<String>,
    pieces: Vec<Piece>,
    /// whether a rule names a direction (`up(c)`, ...), which needs a grid or torus
    directed: bool,
    lines: Vec<Line>,
    ends: Vec<Line>,
    /// the ruleset compiled for each board, by the board's text
    bound: RefCell<HashMap<String, Rc<Ruleset>>>,
}

pub fn register(it: &mut Interp) {
    it.define_board = Some(define);
}

/// Resolves the names of a definition: the first step of compiling.
fn define(it: &mut Interp, def: &BoardGameDef, env: &Env) -> Result<Ruleset> {
    let states: Vec<String> = if def.states.is_empty() && def.on_edges {
        vec!["unmarked".into(), "marked".into()]
    } else if def.states.is_empty() {
        vec!["empty".into(), "filled".into()]
    } else {
        def.states.iter().map(|s| s.name.to_string()).collect()
    };
    if states.len() < 2 {
        return Err(Error::runtime(
            "a board game needs at least two cell states",
            def.states[0].span,
        )
        .hint("e.g. cells empty, filled"));
    }
    // on edges every state but the first takes two of the engine's states, one per direction
    let most = if def.on_edges {
        board::MAX_STATES.div_ceil(2)
    } else {
        board::MAX_STATES
    };
    if states.len() > most {
        let on = if def.on_edges { " on edges" } else { "" };
        return Err(Error::runtime(
            format!(
                "a board game{on} has at most {most} cell states, not {}",
                states.len()
            ),
            def.states[most].span,
        )
        .hint(if def.on_edges {
            "on edges every state but the first has a direction, e.g. cells unmarked, marked"
        } else {
            "e.g. cells empty, filled"
        }));
    }
    for (i, s) in def.states.iter().enumerate() {
        if def.states[..i].iter().any(|t| t.name == s.name) {
            return Err(Error::runtime(
                format!("the state `{}` is declared twice", s.name),
                s.span,
            ));
        }
    }
    let mut pieces: Vec<Piece> = vec![];
    let cx = Scope {
        edges: def.on_edges,
        env,
        jumps: RefCell::new(vec![]),
    };
    let mut lines = vec![];
    for rule in &def.rules {
        let (vars, names) = bindings(it, &cx, &rule.bindings, &states, &mut pieces)?;
        if rule.bindings.is_empty() {
            return Err(Error::runtime("a board move ranges over cells", rule.span)
                .hint("add `for c in empty` (or another state, or `cells`)"));
        }
        let conds = conditions(it, &cx, &rule.conds, &names, &states, &mut pieces)?;
        let mut changes = vec![];
        for ch in &rule.changes {
            let set = ch
                .cells
                .iter()
                .map(|e| cells(it, &cx, e, &names, &mut pieces))
                .collect::<Result<Vec<_>>>()?;
            let from = match &ch.from {
                Some(f) => Some(state_of(&states, f.name.as_ref(), f.span)?),
                None => None,
            };
            changes.push((set, from, state_of(&states, &ch.to.name, ch.to.span)?));
        }
        lines.push(Line {
            side: match rule.side {
                None => board::BOTH,
                Some(Side::Left) => board::LEFT,
                Some(Side::Right) => board::RIGHT,
            },
            vars,
            conds,
            changes,
            span: rule.span,
        });
    }
    let mut ends = vec![];
    for end in &def.ends {
        let (vars, names) = bindings(it, &cx, &end.bindings, &states, &mut pieces)?;
        ends.push(Line {
            side: board::BOTH,
            vars,
            conds: conditions(it, &cx, &end.conds, &names, &states, &mut pieces)?,
            changes: vec![],
            span: end.span,
        });
    }
    Ok(Ruleset::new(
        def.name.name.to_string(),
        BoardRules {
            name: def.name.name.to_string(),
            edges: def.on_edges,
            states,
            directed: lines.iter().any(Line::directed),
            pieces,
            lines,
            ends,
            bound: RefCell::new(HashMap::new()),
        },
    ))
}

/// The index of a declared state.
fn state_of(states: &[String], name: &str, span: Span) -> Result<u8> {
    states
        .iter()
        .position(|s| s == name)
        .map(|i| i as u8)
        .ok_or_else(|| {
            Error::runtime(format!("`{name}` is not a state of this game"), span)
                .hint(format!("the states are {}", states.join(", ")))
        })
}

/// What the definition's cell sets are read in.
struct Scope<'a> {
    edges: bool,
    env: &'a Env,
    /// per variable of the rule being read, whether `jumps(...)` binds it
    jumps: RefCell<Vec<bool>>,
}

/// A line's `for` variables: what each ranges over, and their names.
fn bindings(
    it: &mut Interp,
    cx: &Scope,
    bindings: &[(Ident, Expr)],
    states: &[String],
    pieces: &mut Vec<Piece>,
) -> Result<(Vec<Source>, Vec<Rc<str>>)> {
    let mut names: Vec<Rc<str>> = vec![];
    let mut vars = vec![];
    cx.jumps.borrow_mut().clear();
    for (var, e) in bindings {
        if states.iter().any(|s| **s == *var.name) || names.contains(&var.name) {
            return Err(Error::runtime(
                format!("`{}` is already a state or variable of this rule", var.name),
                var.span,
            ));
        }
        vars.push(match &e.kind {
            ExprKind::Ident(n) if states.iter().any(|s| **s == **n) => {
                Source::State(state_of(states, n, e.span)?)
            }
            ExprKind::Ident(n) if &**n == "cells" => Source::All,
            ExprKind::Ident(n) if &**n == "faces" => {
                if !cx.edges {
                    return Err(Error::runtime(
                        "`faces` are the cells of a graph board of a game on edges",
                        e.span,
                    )
                    .hint("write `game NAME on edges { ... }`"));
                }
                Source::Faces
            }
            _ => match paths(it, cx, e, &names, states, pieces)? {
                Some(p) => Source::Paths(p),
                None => Source::Cells(cells(it, cx, e, &names, pieces)?),
            },
        });
        let jumps = matches!(vars.last(), Some(Source::Paths(p))
            if p.iter().all(|p| p.kind == PathKind::Jumps));
        cx.jumps.borrow_mut().push(jumps);
        names.push(var.name.clone());
    }
    Ok((vars, names))
}

/// The name of a path function, and its kind.
const PATHS: [(&str, PathKind); 3] = [
    ("ray", PathKind::Ray),
    ("slide", PathKind::Slide),
    ("jumps", PathKind::Jumps),
];

/// The paths a `for` variable ranges over: `ray(dir, x)`, `slide(dir, x)`, `jumps(dir, x,
/// over, through)` or a union of them; `None` when `e` is no path.
fn paths(
    it: &mut Interp,
    cx: &Scope,
    e: &Expr,
    names: &[Rc<str>],
    states: &[String],
    pieces: &mut Vec<Piece>,
) -> Result<Option<Vec<Path>>> {
    use crate::lang::syntax::ast::BinOp;
    match &e.kind {
        ExprKind::Binary(BinOp::Bar, a, b) => {
            match (
                paths(it, cx, a, names, states, pieces)?,
                paths(it, cx, b, names, states, pieces)?,
            ) {
                (None, None) => Ok(None),
                (Some(mut a), Some(b)) => {
                    a.extend(b);
                    Ok(Some(a))
                }
                (_, _) => Err(Error::runtime(
                    "a variable ranges over paths or over cells, not both",
                    e.span,
                )
                .hint("write one for each: for d in ray(right, c) | ray(left, c)")),
            }
        }
        ExprKind::Call {
            callee,
            args,
            kwargs,
        } if kwargs.is_empty() => {
            let ExprKind::Ident(f) = &callee.kind else {
                return Ok(None);
            };
            let Some(&(_, kind)) = PATHS.iter().find(|p| p.0 == &**f) else {
                return Ok(None);
            };
            let usage = match kind {
                PathKind::Jumps => "jumps(direction, c, jumped state, landing state)",
                _ => "ray(direction, c) or ray(direction, c, state)",
            };
            let ok = match kind {
                PathKind::Jumps => args.len() == 4,
                _ => args.len() == 2 || args.len() == 3,
            };
            if !ok {
                return Err(Error::runtime(
                    format!(
                        "`{f}` takes {} arguments",
                        if kind == PathKind::Jumps {
                            "4"
                        } else {
                            "2 or 3"
                        }
                    ),
                    e.span,
                )
                .hint(format!("e.g. {}", usage.replace("ray", f))));
            }
            let dir = match &args[0].kind {
                ExprKind::Ident(d) => DIRECTIONS.iter().position(|x| x.0 == &**d),
                _ => None,
            };
            let Some(dir) = dir else {
                return Err(Error::runtime("not a direction", args[0].span)
                    .hint("a direction is up, down, left or right"));
            };
            let state = |x: &Expr| match &x.kind {
                ExprKind::Ident(n) => state_of(states, n, x.span),
                _ => Err(Error::runtime("not a state", x.span)
                    .hint(format!("the states are {}", states.join(", ")))),
            };
            let (over, through) = match (kind, args.get(2)) {
                (PathKind::Jumps, _) => (state(&args[2])?, state(&args[3])?),
                (_, Some(s)) => (0, state(s)?),
                (_, None) => (0, 0),
            };
            Ok(Some(vec![Path {
                kind,
                dir,
                from: cells(it, cx, &args[1], names, pieces)?,
                through,
                over,
            }]))
        }
        _ => Ok(None),
    }
}

/// A line's conditions, in terms of its variables.
fn conditions(
    it: &mut Interp,
    cx: &Scope,
    conds: &[crate::lang::syntax::ast::Cond],
    names: &[Rc<str>],
    states: &[String],
    pieces: &mut Vec<Piece>,
) -> Result<Vec<Cond>> {
    conds
        .iter()
        .map(|c| {
            Ok(Cond {
                cells: cells(it, cx, &c.cells, names, pieces)?,
                state: state_of(states, &c.state.name, c.state.span)?,
                negated: c.negated,
                some: c.some,
            })
        })
        .collect()
}

/// A cell-set expression: a variable, `adjacent(x)`, `attacks(piece, x)`, `into(head(x))`
/// (and `tail`, `out_of`), `a | b` or `a - b`.
fn cells(
    it: &mut Interp,
    cx: &Scope,
    e: &Expr,
    names: &[Rc<str>],
    pieces: &mut Vec<Piece>,
) -> Result<Cells> {
    use crate::lang::syntax::ast::BinOp;
    let bad = || {
        Error::runtime("not a set of cells", e.span).hint(
            "a set of cells is a variable bound by `for`, adjacent(c), up(c), down(c), left(c), \
             right(c), attacks(piece, c), jumped(e), into(head(e)), out_of(tail(e)), a | b or \
             a - b",
        )
    };
    let mut sub = |x: &Expr| cells(it, cx, x, names, pieces).map(Box::new);
    Ok(match &e.kind {
        ExprKind::Ident(n) => match names.iter().position(|x| x == n) {
            Some(i) => Cells::Var(i),
            None => {
                return Err(Error::runtime(
                    format!("`{n}` is not a variable of this rule"),
                    e.span,
                )
                .hint("variables are bound by the move's `for`: for c in empty"));
            }
        },
        ExprKind::Binary(BinOp::Bar, a, b) => Cells::Union(sub(a)?, sub(b)?),
        ExprKind::Binary(BinOp::Sub, a, b) => Cells::Minus(sub(a)?, sub(b)?),
        ExprKind::Call {
            callee,
            args,
            kwargs,
        } if kwargs.is_empty() => match (&callee.kind, args.as_slice()) {
            (ExprKind::Ident(f), [x]) if &**f == "adjacent" => Cells::Adjacent(sub(x)?),
            (ExprKind::Ident(f), [x]) if &**f == "jumped" => {
                let i = match &x.kind {
                    ExprKind::Ident(n) => names.iter().position(|v| v == n),
                    _ => None,
                };
                match i {
                    Some(i) if cx.jumps.borrow().get(i) == Some(&true) => Cells::Jumped(i),
                    _ => {
                        return Err(Error::runtime(
                            "`jumped` takes a variable bound by `jumps(...)`",
                            x.span,
                        )
                        .hint("e.g. move c, jumped(e) to empty, e to black for c in black, e in jumps(right, c, white, empty)"));
                    }
                }
            }
            (ExprKind::Ident(f), _) if PATHS.iter().any(|p| p.0 == &**f) => {
                return Err(Error::runtime(
                    format!("`{f}(...)` is what a `for` variable ranges over"),
                    callee.span,
                )
                .hint(format!("bind it: for d in {f}(right, c)")));
            }
            (ExprKind::Ident(f), [x]) if &**f == "into" || &**f == "out_of" => {
                if !cx.edges {
                    return Err(Error::runtime(
                        format!("`{f}` needs a game on edges"),
                        callee.span,
                    )
                    .hint("write `game NAME on edges { ... }`"));
                }
                let end = match &x.kind {
                    ExprKind::Call {
                        callee: g, args, ..
                    } => match (&g.kind, args.as_slice()) {
                        (ExprKind::Ident(g), [y]) if &**g == "head" || &**g == "tail" => {
                            Some((&**g == "head", y))
                        }
                        _ => None,
                    },
                    _ => None,
                };
                let Some((head, y)) = end else {
                    return Err(Error::runtime("not a vertex", x.span)
                        .hint(format!("a vertex is head(e) or tail(e): {f}(head(e))")));
                };
                Cells::At {
                    into: &**f == "into",
                    head,
                    of: sub(y)?,
                }
            }
            (ExprKind::Ident(f), [x]) if DIRECTIONS.iter().any(|d| d.0 == &**f) => Cells::Step(
                DIRECTIONS.iter().position(|d| d.0 == &**f).unwrap_or(0),
                sub(x)?,
            ),
            (ExprKind::Ident(f), [p, x]) if &**f == "attacks" => {
                let Value::Piece(piece) = it.eval(p, cx.env)? else {
                    return Err(Error::runtime("not a piece", p.span)
                        .hint("a piece is knight, queen, leaper(a, b), rider(a, b), or p | q"));
                };
                let i = match pieces.iter().position(|q| *q == *piece) {
                    Some(i) => i,
                    None => {
                        pieces.push((*piece).clone());
                        pieces.len() - 1
                    }
                };
                Cells::Attacks(i, Box::new(cells(it, cx, x, names, pieces)?))
            }
            _ => return Err(bad()),
        },
        _ => return Err(bad()),
    })
}

/// The edges of a graph board, for a game on edges. An arc (edge `e` with a direction) is
/// `2e` pointing the way the graph stores the edge, `2e + 1` the other way.
struct Edges {
    vertices: Vec<String>,
    ends: Vec<(usize, usize)>,
    /// per vertex, its edges
    at: Vec<Vec<usize>>,
    /// the arcs round face `f`, as written (`2f`) and the other way (`2f + 1`)
    faces: Vec<Vec<usize>>,
}

impl Edges {
    /// (tail, head) of an arc.
    fn arc(&self, x: usize) -> (usize, usize) {
        let (a, b) = self.ends[x >> 1];
        if x & 1 == 0 { (a, b) } else { (b, a) }
    }
    fn arc_name(&self, x: usize) -> String {
        let (a, b) = self.arc(x);
        format!("{}>{}", self.vertices[a], self.vertices[b])
    }
}

/// A board's cells: names, adjacency, the attacks of each piece, symmetries.
struct Layout {
    names: Vec<String>,
    adj: Vec<Vec<usize>>,
    /// per cell, its neighbour in each direction of [`DIRECTIONS`] (grids and tori only)
    steps: Vec<[Option<usize>; 4]>,
    attacks: Vec<Vec<Vec<usize>>>,
    /// rows and columns of a grid or torus
    grid: Option<(usize, usize)>,
    syms: Vec<Sym>,
    /// columns of a grid (not a torus): keys may be translated
    cols: Option<usize>,
    /// a game on edges: its cells are these edges and its variables arcs
    edges: Option<Edges>,
}

impl Layout {
    /// The cell of a variable's value (a cell, or an arc on edges) and whether it points
    /// against the stored edge.
    fn cell(&self, x: usize) -> (usize, bool) {
        match self.edges {
            Some(_) => (x >> 1, x & 1 == 1),
            None => (x, false),
        }
    }
    /// The values a `for c in cells` ranges over.
    fn items(&self) -> usize {
        self.names.len() * if self.edges.is_some() { 2 } else { 1 }
    }
    /// The value for a cell, pointing the stored way.
    fn item(&self, c: usize) -> usize {
        if self.edges.is_some() { 2 * c } else { c }
    }
    fn name(&self, x: usize, face: bool) -> String {
        match &self.edges {
            Some(g) if face => {
                let v: Vec<&str> = g.faces[x]
                    .iter()
                    .map(|&a| g.vertices[g.arc(a).0].as_str())
                    .collect();
                format!("[{}]", v.join(" "))
            }
            Some(g) => g.arc_name(x),
            None => self.names[x].clone(),
        }
    }
}

fn layout(
    v: &Value,
    pieces: &[Piece],
    on_edges: bool,
    directed: bool,
    span: Span,
    ctl: &Ctl,
) -> Result<Layout> {
    let syms_of = |adj: &[Vec<usize>]| automorphisms(adj, ctl).map_err(|e| Error::from(e).at(span));
    let too_big = || {
        Err(Error::runtime(
            format!("a board game takes at most {} cells", board::MAX_CELLS),
            span,
        ))
    };
    match v {
        Value::Board(_) if on_edges => Err(Error::runtime(
            "a game on edges is played on a graph board",
            span,
        )
        .hint("e.g. graph { a - b - c - a; cells [a, b, c] }")),
        Value::Board(b) => {
            let (rows, cols) = (b.rows, b.cols);
            let n = rows.checked_mul(cols).filter(|&n| n <= board::MAX_CELLS);
            let Some(n) = n else { return too_big() };
            let pboard = if b.torus {
                placement::Board::Torus { rows, cols }
            } else {
                placement::Board::Grid { rows, cols }
            };
            let attacks = pieces
                .iter()
                .map(|p| placement::piece_graph(&pboard, p))
                .collect::<crate::engine::Result<_>>()
                .map_err(|e| Error::from(e).at(span))?;
            let syms = rect_symmetries(rows, cols)
                .iter()
                .map(|f| {
                    Sym::map(
                        (0..n)
                            .map(|s| {
                                let (r, c) = f(s / cols, s % cols);
                                r * cols + c
                            })
                            .collect(),
                    )
                })
                .collect();
            Ok(Layout {
                names: (0..n)
                    .map(|s| format!("({}, {})", s / cols + 1, s % cols + 1))
                    .collect(),
                adj: board::grid_adjacency(rows, cols, b.torus),
                steps: (0..n)
                    .map(|s| {
                        DIRECTIONS.map(|(_, dr, dc)| {
                            let (mut r, mut c) = ((s / cols) as i64 + dr, (s % cols) as i64 + dc);
                            if b.torus {
                                (r, c) = (r.rem_euclid(rows as i64), c.rem_euclid(cols as i64));
                            }
                            ((0..rows as i64).contains(&r) && (0..cols as i64).contains(&c))
                                .then(|| r as usize * cols + c as usize)
                        })
                    })
                    .collect(),
                attacks,
                grid: Some((rows, cols)),
                syms,
                cols: (!b.torus).then_some(cols),
                edges: None,
            })
        }
        Value::Graph(_) if !pieces.is_empty() || directed => Err(Error::runtime(
            if directed {
                "up, down, left, right and the paths ray, slide and jumps need a grid or torus board, not a graph"
            } else {
                "`attacks` needs a grid or torus board, not a graph"
            },
            span,
        )),
        Value::Graph(g) if on_edges => {
            let m = g.edges.len();
            if m == 0 {
                return Err(Error::runtime("this graph has no edges to play on", span));
            }
            if m > board::MAX_CELLS {
                return too_big();
            }
            let mut at = vec![vec![]; g.vertex_count()];
            for (e, &(a, b)) in g.edges.iter().enumerate() {
                at[a].push(e);
                at[b].push(e);
            }
            let adj = (0..m)
                .map(|e| {
                    let (a, b) = g.edges[e];
                    let mut v: Vec<usize> = at[a].iter().chain(&at[b]).copied().collect();
                    v.sort_unstable();
                    v.dedup();
                    v.retain(|&d| d != e);
                    v
                })
                .collect();
            let mut faces = vec![];
            for c in &g.cells {
                let round: Vec<usize> = (0..c.len())
                    .filter_map(|i| {
                        let (a, b) = (c[i], c[(i + 1) % c.len()]);
                        let e = g.edge(a, b)?;
                        Some(2 * e + usize::from(g.edges[e].0 != a))
                    })
                    .collect();
                faces.push(round.iter().map(|x| x ^ 1).collect());
                faces.insert(faces.len() - 1, round);
            }
            // a map of the vertices carries edges to edges, turning those whose ends it
            // swaps; each also with every edge turned. The engine keeps those that preserve
            // the rules.
            let mut syms = vec![];
            for f in syms_of(&g.adjacency())? {
                let mut sym = Sym::default();
                for (e, &(a, b)) in g.edges.iter().enumerate() {
                    let Some(d) = g.edge(f[a], f[b]) else {
                        continue;
                    };
                    sym.cells.push(d);
                    if g.edges[d].0 != f[a] {
                        sym.turned.push(e);
                    }
                }
                let all: Vec<usize> = (0..m).filter(|e| !sym.turned.contains(e)).collect();
                let back = Sym {
                    cells: sym.cells.clone(),
                    turned: all,
                };
                syms.extend([sym, back]);
            }
            Ok(Layout {
                names: g
                    .edges
                    .iter()
                    .map(|&(a, b)| format!("{}-{}", g.names[a], g.names[b]))
                    .collect(),
                adj,
                steps: vec![],
                attacks: vec![],
                grid: None,
                syms,
                cols: None,
                edges: Some(Edges {
                    vertices: g.names.clone(),
                    ends: g.edges.clone(),
                    at,
                    faces,
                }),
            })
        }
        Value::Graph(g) => {
            if g.vertex_count() > board::MAX_CELLS {
                return too_big();
            }
            let adj = g.adjacency();
            Ok(Layout {
                names: g.names.clone(),
                syms: syms_of(&adj)?.into_iter().map(Sym::map).collect(),
                adj,
                steps: vec![],
                attacks: vec![],
                grid: None,
                cols: None,
                edges: None,
            })
        }
        _ => Err(Error::runtime(
            format!("a board game is played on a board, not {}", v.a_type()),
            span,
        )
        .hint("give grid(m, n), torus(m, n) or a graph { ... }")),
    }
}

/// The values of a cell set for one binding (`faces`: which variables are faces), sorted and
/// without repeats: nested sets (`adjacent(adjacent(c))`) stay as small as the board.
fn set_of(c: &Cells, l: &Layout, b: &Bound) -> Vec<usize> {
    let mut v = vec![];
    eval_cells(c, l, b, &mut v);
    v.sort_unstable();
    v.dedup();
    v
}

/// Adds the values of a cell set for one binding to `out`.
fn eval_cells(c: &Cells, l: &Layout, b: &Bound, out: &mut Vec<usize>) {
    let set = |x: &Cells| set_of(x, l, b);
    let (vars, faces) = (b.vars, b.faces);
    match c {
        Cells::Jumped(i) => out.extend(&b.guards[*i].jumped),
        Cells::Var(i) => match &l.edges {
            Some(g) if faces[*i] => out.extend(&g.faces[vars[*i]]),
            _ => out.push(vars[*i]),
        },
        Cells::Adjacent(x) => {
            for s in set(x) {
                out.extend(l.adj[l.cell(s).0].iter().map(|&d| l.item(d)));
            }
        }
        Cells::Attacks(p, x) => {
            for s in set(x) {
                out.extend(&l.attacks[*p][s]);
            }
        }
        Cells::Step(k, x) => {
            for s in set(x) {
                out.extend(l.steps[s][*k]);
            }
        }
        Cells::Union(a, b) => {
            out.extend(set(a));
            out.extend(set(b));
        }
        Cells::Minus(a, b) => {
            let gone: Vec<usize> = set(b).iter().map(|&x| l.cell(x).0).collect();
            out.extend(set(a).into_iter().filter(|&x| !gone.contains(&l.cell(x).0)));
        }
        Cells::At { into, head, of } => {
            let Some(g) = &l.edges else { return };
            for s in set(of) {
                let (t, h) = g.arc(s);
                let v = if *head { h } else { t };
                for &e in &g.at[v] {
                    // the stored way points into v when v is the edge's second end
                    let end = if *into { g.ends[e].1 } else { g.ends[e].0 };
                    out.push(2 * e + usize::from(end != v));
                }
            }
        }
    }
}

/// Adds the values a path reaches for one binding, each with how it reaches it.
fn walk(p: &Path, l: &Layout, b: &Bound, out: &mut Vec<(usize, Guard)>) {
    for s in set_of(&p.from, l, b) {
        // the next cell in the direction, short of coming back to the start
        let step = |x: usize| l.steps[x][p.dir].filter(|&y| y != s);
        let mut g = Guard::default();
        let mut at = s;
        loop {
            if p.kind == PathKind::Jumps {
                let Some(o) = step(at) else { break };
                g.need.push((o, p.over));
                g.jumped.push(o);
                at = o;
            }
            let Some(y) = step(at) else { break };
            g.need.push((y, p.through));
            at = y;
            match p.kind {
                PathKind::Slide => {
                    let not = step(y).map(|z| (z, p.through));
                    out.push((y, Guard { not, ..g.clone() }));
                }
                _ => out.push((y, g.clone())),
            }
        }
    }
}

impl Cells {
    fn directed(&self) -> bool {
        match self {
            Cells::Var(_) | Cells::Jumped(_) => false,
            Cells::Step(..) => true,
            Cells::Adjacent(x) | Cells::Attacks(_, x) | Cells::At { of: x, .. } => x.directed(),
            Cells::Union(a, b) | Cells::Minus(a, b) => a.directed() || b.directed(),
        }
    }
}

/// Calls `f` on every binding of a line's variables to distinct cells (faces to distinct
/// faces). The bindings are the product of the variables' ranges, so the search ticks `task`
/// (which polls cancellation) as it goes.
fn bind(
    line: &Line,
    l: &Layout,
    vars: &mut Vec<usize>,
    guards: &mut Vec<Guard>,
    task: &Task,
    f: &mut dyn FnMut(&Bound) -> Result<()>,
) -> Result<()> {
    task.tick(1)?;
    let faces = line.faces();
    let b = Bound {
        vars,
        faces: &faces,
        guards,
    };
    if vars.len() == line.vars.len() {
        return f(&b);
    }
    let face = faces[vars.len()];
    let cands: Vec<(usize, Guard)> = match &line.vars[vars.len()] {
        Source::Cells(c) => set_of(c, l, &b)
            .into_iter()
            .map(|x| (x, Guard::default()))
            .collect(),
        Source::Paths(ps) => {
            let mut out = vec![];
            for p in ps {
                walk(p, l, &b, &mut out);
            }
            out
        }
        Source::Faces => (0..l.edges.as_ref().map_or(0, |g| g.faces.len()))
            .map(|x| (x, Guard::default()))
            .collect(),
        _ => (0..l.items()).map(|x| (x, Guard::default())).collect(),
    };
    let id = |x: usize, f: bool| if f { x >> 1 } else { l.cell(x).0 };
    for (c, g) in cands {
        let taken = (0..vars.len()).any(|i| faces[i] == face && id(vars[i], face) == id(c, face));
        if taken {
            continue;
        }
        vars.push(c);
        guards.push(g);
        bind(line, l, vars, guards, task, f)?;
        vars.pop();
        guards.pop();
    }
    Ok(())
}

impl Line {
    fn directed(&self) -> bool {
        let vars = self.vars.iter().any(|v| match v {
            Source::Cells(c) => c.directed(),
            Source::Paths(_) => true,
            _ => false,
        });
        vars || self.conds.iter().any(|c| c.cells.directed())
            || self.changes.iter().flat_map(|c| &c.0).any(Cells::directed)
    }
    fn faces(&self) -> Vec<bool> {
        self.vars
            .iter()
            .map(|v| matches!(v, Source::Faces))
            .collect()
    }
}

/// Turns the declared states of a line into the engine's, for one board.
struct Compile<'a> {
    l: &'a Layout,
    /// the number of declared states
    states: usize,
}

impl Compile<'_> {
    /// The engine's state for declared state `d` on a cell reached against its stored way
    /// (`rev`): on edges, each state but the first is two, one per direction.
    fn state(&self, d: u8, rev: bool) -> u8 {
        match &self.l.edges {
            Some(_) if d > 0 => 2 * d - 1 + u8::from(rev),
            _ => d,
        }
    }
    /// All the engine's states, as a set.
    fn all(&self) -> u8 {
        let n = if self.l.edges.is_some() {
            2 * self.states - 1
        } else {
            self.states
        };
        (1u8 << n) - 1
    }
    /// The values of a set, as cells by direction.
    fn split(&self, items: &[usize]) -> [Vec<usize>; 2] {
        let mut out = [vec![], vec![]];
        for &x in items {
            let (c, rev) = self.l.cell(x);
            out[usize::from(rev)].push(c);
        }
        out
    }
    /// A condition as (cells, engine states) pairs: all must hold, or with `some` one.
    fn cond(&self, c: &Cond, items: &[usize]) -> Vec<(Vec<usize>, u8)> {
        let [fwd, back] = self.split(items);
        [(fwd, false), (back, true)]
            .into_iter()
            .filter(|(cells, _)| !cells.is_empty())
            .map(|(cells, rev)| {
                let s = 1u8 << self.state(c.state, rev);
                (cells, if c.negated { self.all() & !s } else { s })
            })
            .collect()
    }
    /// The conditions of a line for one binding: (every, some).
    fn conds(&self, line: &Line, b: &Bound) -> (Vec<(Vec<usize>, u8)>, Vec<AnyOf>) {
        let (mut need, mut some) = (vec![], vec![]);
        for (i, s) in line.vars.iter().enumerate() {
            if let Source::State(s) = s {
                let (c, rev) = self.l.cell(b.vars[i]);
                need.push((vec![c], 1 << self.state(*s, rev)));
            }
        }
        // the paths that reached the values (on grids and tori only: no directed states)
        for g in b.guards {
            need.extend(g.need.iter().map(|&(c, s)| (vec![c], 1 << s)));
            need.extend(g.not.map(|(c, s)| (vec![c], self.all() & !(1 << s))));
        }
        for c in &line.conds {
            let sets = self.cond(c, &set_of(&c.cells, self.l, b));
            if c.some {
                some.push(sets);
            } else {
                need.extend(sets);
            }
        }
        (need, some)
    }
    fn change(&self, line: &Line, b: &Bound) -> Vec<(Vec<usize>, u8, u8)> {
        let mut out = vec![];
        for (cs, from, to) in &line.changes {
            let mut items = vec![];
            for c in cs {
                items.extend(set_of(c, self.l, b));
            }
            let [fwd, back] = self.split(&items);
            for (cells, rev) in [(fwd, false), (back, true)] {
                if !cells.is_empty() {
                    let from = from.map_or(self.all(), |f| 1 << self.state(f, rev));
                    out.push((cells, from, self.state(*to, rev)));
                }
            }
        }
        out
    }
}

impl BoardRules {
    /// The position on a board, compiling the rules for it the first time: every cell in the
    /// first state, or as drawn by `start`.
    fn start(
        &self,
        board: &Value,
        span: Span,
        start: Option<(&str, Span)>,
        ctl: &Ctl,
    ) -> Result<Value> {
        let text = format!("{}({})", self.name, board.to_text());
        let known = self.bound.borrow().get(&text).cloned();
        let rs = match known {
            Some(rs) => rs,
            None => {
                let l = layout(board, &self.pieces, self.edges, self.directed, span, ctl)?;
                let cx = Compile {
                    l: &l,
                    states: self.states.len(),
                };
                let task = ctl.task(&format!("compiling {} (bindings)", self.name), None);
                // the memory of every move and end condition so far, charged as each is made
                let (have, mut bytes) = (ctl.memory(), 0u64);
                let mut charge = |b: u64, line: &Line, what: &str| -> Result<()> {
                    bytes = bytes.saturating_add(b);
                    if bytes <= have {
                        return Ok(());
                    }
                    Err(Error::runtime(
                        format!(
                            "compiling `{}` for this board passes the memory budget at its {what}: \
                             about {} so far, {} is available",
                            self.name,
                            human_bytes(bytes),
                            human_bytes(have)
                        ),
                        line.span,
                    )
                    .hint(board::COMPILE_HINT))
                };
                let too_many = |line: &Line| {
                    Error::runtime(
                        format!("the rules give more than {MAX_MOVES} moves on this board"),
                        line.span,
                    )
                };
                let mut moves = vec![];
                for (k, line) in self.lines.iter().enumerate() {
                    let first = moves.len();
                    bind(line, &l, &mut vec![], &mut vec![], &task, &mut |b| {
                        if moves.len() - first >= MAX_MOVES {
                            return Err(too_many(line));
                        }
                        let (need, some) = cx.conds(line, b);
                        let mut label = vec![k];
                        label.extend(b.vars);
                        let m = Move {
                            need,
                            some,
                            change: cx.change(line, b),
                            label,
                        }
                        .compact();
                        charge(
                            m.compile_bytes(l.names.len()),
                            line,
                            &format!("rule {}", k + 1),
                        )?;
                        moves.push(m);
                        Ok(())
                    })?;
                }
                let mut ends = vec![];
                for (k, line) in self.ends.iter().enumerate() {
                    let first = ends.len();
                    bind(line, &l, &mut vec![], &mut vec![], &task, &mut |b| {
                        if ends.len() - first >= MAX_MOVES {
                            return Err(too_many(line));
                        }
                        let (need, some) = cx.conds(line, b);
                        let e = End { need, some }.compact();
                        charge(
                            e.compile_bytes(l.names.len()),
                            line,
                            &format!("end rule {}", k + 1),
                        )?;
                        ends.push(e);
                        Ok(())
                    })?;
                }
                drop(task);
                let sides: Vec<u8> = moves.iter().map(|m| self.lines[m.label[0]].side).collect();
                // rules that are Cram on a grid go to its own engine
                let cram = match (l.grid, l.cols) {
                    (Some((rows, cols)), Some(_))
                        if ends.is_empty()
                            && sides.iter().all(|&s| s == board::BOTH)
                            && cram::is_cram(&moves, rows, cols, self.states.len()) =>
                    {
                        Some(cram::Cram::new(rows, cols).map_err(|e| Error::from(e).at(span))?)
                    }
                    _ => None,
                };
                let game = BoardGame::with_sides(
                    Rules {
                        cells: l.names.len(),
                        states: cx.all().count_ones() as usize,
                        moves,
                        ends,
                        syms: l.syms.clone(),
                        // on edges a symmetry may turn an edge: its two directions trade places
                        swap: l.edges.as_ref().map(|_| (1, 2)),
                        cols: l.cols,
                    },
                    &sides,
                    ctl,
                )
                .map_err(|e| Error::from(e).at(span))?;
                let b = OnBoard {
                    states: self.states.clone(),
                    faces: self.lines.iter().map(Line::faces).collect(),
                    layout: l,
                    game,
                    cram,
                };
                let rs = if b.game.is_partizan() {
                    Ruleset::new(text.clone(), Partizan(Box::new(PartizanOnBoard(b))))
                } else {
                    Ruleset::new(text.clone(), b)
                };
                let rs = Rc::new(rs);
                self.bound.borrow_mut().insert(text, rs.clone());
                rs
            }
        };
        let state = match start {
            None => vec![0; cell_count(board, self.edges)],
            Some((t, s)) => self.drawn(board, t, s)?,
        };
        Ok(Value::Position(Rc::new(Position::single(rs, state.into()))))
    }

    /// A position drawn as `show` draws it: rows split by `|` or new lines, a cell `.` in the
    /// first state or the first letter of its state; spaces are ignored.
    fn drawn(&self, board: &Value, text: &str, span: Span) -> Result<Vec<i64>> {
        let b = match board {
            Value::Graph(g) if self.edges => return self.drawn_edges(g, text, span),
            Value::Graph(g) => return self.drawn_vertices(g, text, span),
            Value::Board(b) => b,
            _ => {
                return Err(Error::runtime(
                    "a drawn start position needs a grid, torus or graph board",
                    span,
                ));
            }
        };
        let letter = |s: &String| s.chars().next().unwrap_or('?');
        let letters: Vec<String> = self.states[1..]
            .iter()
            .map(|s| letter(s).to_string())
            .collect();
        let hint = format!(
            "{} rows of {} cells: . for {}, {}",
            b.rows,
            b.cols,
            self.states[0],
            self.states[1..]
                .iter()
                .map(|s| format!("{} for {s}", letter(s)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let rows: Vec<&str> = text
            .split(['|', '\n'])
            .filter(|r| !r.trim().is_empty())
            .collect();
        let mut out = vec![];
        for r in &rows {
            let cells: Vec<char> = r.chars().filter(|c| !c.is_whitespace()).collect();
            if cells.len() != b.cols {
                return Err(Error::runtime(
                    format!(
                        "the row {:?} has {} cells, not {}",
                        r.trim(),
                        cells.len(),
                        b.cols
                    ),
                    span,
                )
                .hint(hint));
            }
            for c in cells {
                let k = if c == '.' {
                    0
                } else {
                    let mut at = (1..self.states.len()).filter(|&k| letter(&self.states[k]) == c);
                    match (at.next(), at.next()) {
                        (Some(k), None) => k,
                        (Some(_), Some(_)) => {
                            return Err(Error::runtime(
                                format!("several states start with `{c}`"),
                                span,
                            )
                            .hint("give the states different first letters to draw positions"));
                        }
                        _ => {
                            return Err(Error::runtime(
                                format!(
                                    "`{c}` is not the first letter of a state ({})",
                                    letters.join(", ")
                                ),
                                span,
                            )
                            .hint(hint));
                        }
                    }
                };
                out.push(k as i64);
            }
        }
        if rows.len() != b.rows {
            return Err(Error::runtime(
                format!(
                    "the drawing has {} row{}, not {}",
                    rows.len(),
                    if rows.len() == 1 { "" } else { "s" },
                    b.rows
                ),
                span,
            )
            .hint(hint));
        }
        Ok(out)
    }
}

impl BoardRules {
    /// A position on a graph's vertices written as `show` writes it: `vertex: state` split by
    /// new lines or commas, the state by its name, its first letter or `.` for the first;
    /// vertices not listed are in the first state.
    fn drawn_vertices(&self, g: &Graph, text: &str, span: Span) -> Result<Vec<i64>> {
        let first = |s: &String| s.chars().next().unwrap_or('?');
        let hint = || {
            let v = |i: usize| g.names.get(i).map_or("a", String::as_str);
            format!(
                "list vertices as `show` does, e.g. \"{}: {}, {}: {}\" (or a state's first letter, \
                 . for {}); vertices not listed are {}",
                v(0),
                self.states[1],
                v(1),
                first(&self.states[1]),
                self.states[0],
                self.states[0]
            )
        };
        let mut out = vec![0i64; g.vertex_count()];
        let mut listed = vec![false; g.vertex_count()];
        for entry in text
            .split([',', '\n'])
            .map(str::trim)
            .filter(|e| !e.is_empty())
        {
            let Some((v, st)) = entry.split_once(':') else {
                return Err(Error::runtime(
                    format!("expected `vertex: state`, found `{entry}`"),
                    span,
                )
                .hint(hint()));
            };
            let (v, st) = (v.trim(), st.trim());
            let Some(i) = g.names.iter().position(|n| n == v) else {
                return Err(
                    Error::runtime(format!("`{v}` is not a vertex of the board"), span)
                        .hint(hint()),
                );
            };
            let mut letter = st.chars();
            let named = self.states.iter().position(|s| s == st);
            let k = match (letter.next(), letter.next()) {
                _ if named.is_some() => named,
                (Some('.'), None) => Some(0),
                (Some(c), None) => {
                    let mut at = (1..self.states.len()).filter(|&k| first(&self.states[k]) == c);
                    match (at.next(), at.next()) {
                        (Some(_), Some(_)) => {
                            return Err(Error::runtime(
                                format!("several states start with `{c}`"),
                                span,
                            )
                            .hint("write the state's name"));
                        }
                        (k, _) => k,
                    }
                }
                _ => None,
            };
            let Some(k) = k else {
                return Err(Error::runtime(
                    format!("`{st}` is not a state of `{}`", self.name),
                    span,
                )
                .hint(format!("the states are {}", self.states.join(", "))));
            };
            if std::mem::replace(&mut listed[i], true) {
                return Err(
                    Error::runtime(format!("the vertex {v} is listed twice"), span)
                        .hint("list each vertex once"),
                );
            }
            out[i] = k as i64;
        }
        Ok(out)
    }

    /// A position on edges written as `show` writes it: `a -- b` for an edge in the first
    /// state, `a -> b` for one marked from a to b (games on edges have at most two states);
    /// edges not listed are in the first state.
    fn drawn_edges(&self, g: &Graph, text: &str, span: Span) -> Result<Vec<i64>> {
        let hint = || {
            format!(
                "list edges as `show` does, e.g. \"{0} -> {1}   {1} -- {2}\"",
                g.names[g.edges[0].0],
                g.names[g.edges[0].1],
                g.names[g.edges.get(1).map_or(g.edges[0].1, |e| e.1)]
            )
        };
        let spaced = text.replace("->", " -> ").replace("--", " -- ");
        let mut words = spaced.split_whitespace();
        let vertex = |w: Option<&str>| -> Result<usize> {
            let w = w.ok_or_else(|| {
                Error::runtime("the drawing ends in the middle of an edge", span).hint(hint())
            })?;
            g.names.iter().position(|n| n == w).ok_or_else(|| {
                Error::runtime(format!("`{w}` is not a vertex of the board"), span).hint(hint())
            })
        };
        let mut out = vec![0i64; g.edges.len()];
        let mut listed = vec![false; g.edges.len()];
        while let Some(w) = words.next() {
            let a = vertex(Some(w))?;
            let state = match words.next() {
                Some("--") => 0,
                Some("->") => 1,
                other => {
                    return Err(Error::runtime(
                        format!(
                            "expected `--` or `->` after `{w}`, found {}",
                            other.map_or("the end".into(), |o| format!("`{o}`"))
                        ),
                        span,
                    )
                    .hint(hint()));
                }
            };
            let b = vertex(words.next())?;
            let Some(e) = g.edge(a, b) else {
                return Err(Error::runtime(
                    format!(
                        "{} - {} is not an edge of the board",
                        g.names[a], g.names[b]
                    ),
                    span,
                )
                .hint(hint()));
            };
            if std::mem::replace(&mut listed[e], true) {
                return Err(Error::runtime(
                    format!("the edge {} - {} is listed twice", g.names[a], g.names[b]),
                    span,
                )
                .hint("list each edge once, `a -- b` unmarked or `a -> b` marked"));
            }
            // a marked edge's state says which way it points: 1 the stored way, 2 back
            out[e] = match state {
                0 => 0,
                _ if g.edges[e].0 == a => 1,
                _ => 2,
            };
        }
        Ok(out)
    }
}

/// The number of cells of a board a layout was made for (its edges when played on edges).
fn cell_count(board: &Value, on_edges: bool) -> usize {
    match board {
        Value::Board(b) => b.rows * b.cols,
        Value::Graph(g) if on_edges => g.edges.len(),
        Value::Graph(g) => g.vertex_count(),
        _ => 0,
    }
}

impl Family for BoardRules {
    /// Each board compiled for: its moves and layout (its tables are charged to its own
    /// ruleset).
    fn kept_bytes(&self) -> u64 {
        self.bound
            .try_borrow()
            .map_or(0, |b| b.len() as u64 * BOARD_BYTES)
    }
    /// Forgets the boards no value holds.
    fn forget(&self) {
        if let Ok(mut b) = self.bound.try_borrow_mut() {
            b.retain(|_, rs| Rc::strong_count(rs) > 1);
        }
    }
    /// What `:help` says of a board ruleset: the boards it was compiled for, and the engine
    /// of each.
    fn help(&self, _: &Interp, name: &str) -> Option<String> {
        let bound = self.bound.try_borrow().ok()?;
        let mut boards: Vec<(&String, &Rc<Ruleset>)> = bound.iter().collect();
        boards.sort_by_key(|b| b.0);
        let mut out = format!("`{name}` is a board game defined in this session");
        for (text, rs) in boards {
            let how = match on_board(rs) {
                Some(b) if b.cram.is_some() => {
                    "its rules are Cram (a move fills two orthogonally adjacent empty cells), valued by the Cram engine"
                }
                _ => "valued by the generic board engine",
            };
            out += &format!("\n  {text}: {how}");
        }
        Some(out)
    }
    fn options(&self, _: &mut Interp, rs: &Ruleset, _: &[i64]) -> Result<Options> {
        Err(Error::runtime(
            format!("`{}` is played on a board", rs.name),
            Span::default(),
        ))
    }
    fn call(
        &self,
        _: &Rc<Ruleset>,
        args: &[(Value, Span)],
        span: Span,
        ctl: &Ctl,
    ) -> Option<Result<Value>> {
        Some(match args {
            [(b, s)] => self.start(b, *s, None, ctl),
            [(b, s), (Value::Str(t), ts)] => self.start(b, *s, Some((t, *ts)), ctl),
            _ => {
                let g = "graph { a - b - c - a; cells [a, b, c] }";
                let (example, drawn) = if self.edges {
                    (g, format!("{g}, \"a -> b\""))
                } else {
                    ("grid(4, 4)", "grid(2, 2), \"x.|.x\"".to_string())
                };
                Err(Error::runtime(
                    format!(
                        "`{}` takes the board and, if you like, the start drawn as a string",
                        self.name
                    ),
                    span,
                )
                .hint(format!("e.g. {0}({example}) or {0}({drawn})", self.name)))
            }
        })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A ruleset compiled for one board; a state is the engine's state of each cell.
pub struct OnBoard {
    states: Vec<String>,
    /// per move line, which variables are faces
    faces: Vec<Vec<bool>>,
    layout: Layout,
    game: BoardGame,
    /// the Cram engine, when the rules are Cram on a grid
    cram: Option<cram::Cram>,
}

/// The compiled board game of a ruleset, impartial or partizan.
fn on_board(rs: &Ruleset) -> Option<&OnBoard> {
    rs.family::<OnBoard>().or_else(|| {
        let sides: &dyn std::any::Any = &*rs.family::<Partizan>()?.0;
        sides.downcast_ref::<PartizanOnBoard>().map(|p| &p.0)
    })
}

/// The picture of a position of one board game by rules; `None` when `v` is not one.
fn picture(v: &Value) -> Option<Picture> {
    let Value::Position(p) = v else { return None };
    let [c] = p.comps.as_slice() else { return None };
    on_board(&c.rs)?;
    let (rs, state) = (c.rs.clone(), c.args.clone());
    Some(Picture {
        title: rs.name.clone(),
        formats: DRAWN_FORMATS,
        draw: Box::new(move |path| {
            let b = on_board(&rs).expect("checked above");
            let letters: Vec<String> = b
                .states
                .iter()
                .map(|s| s.chars().take(1).collect())
                .collect();
            if let Some(g) = &b.layout.edges {
                // each edge by its declared state, pointing the way it is marked
                let (arcs, cells): (Vec<(usize, usize)>, Vec<u8>) = (0..state.len())
                    .map(|c| {
                        let (d, x) = b.at(&state, c);
                        (g.arc(x), d as u8)
                    })
                    .unzip();
                let board = board::picture::EdgeBoard {
                    names: &g.vertices,
                    arcs: &arcs,
                    states: &b.states,
                    letters: &letters,
                    cells: &cells,
                };
                return board::picture::edge_picture(&board, &rs.name, path);
            }
            let board = board::picture::Board {
                names: &b.layout.names,
                adj: &b.layout.adj,
                grid: b.layout.grid,
                states: &b.states,
                letters: &letters,
                cells: &cells_of(&state),
            };
            board::picture::picture(&board, &rs.name, path)
        }),
    })
}

fn cells_of(state: &[i64]) -> Vec<u8> {
    state.iter().map(|&s| s as u8).collect()
}

fn empty_cells(state: &[i64]) -> Vec<bool> {
    state.iter().map(|&s| s == 0).collect()
}

impl OnBoard {
    /// The declared state of a cell and, on edges, its value (the arc it points along).
    fn at(&self, state: &[i64], c: usize) -> (usize, usize) {
        let s = state[c] as usize;
        match self.layout.edges {
            Some(_) if s > 0 => (s.div_ceil(2), 2 * c + 1 - s % 2),
            Some(_) => (0, 2 * c),
            None => (s, c),
        }
    }
}

/// Positions of a loop drawn, at most this many.
const DRAWN_LOOP: usize = 12;
/// The width a row of drawn positions keeps within (the error's frame takes the rest).
const DRAWN_WIDTH: usize = 70;

impl OnBoard {
    /// The engine's error, with the line of play of a loop drawn after it: its positions as
    /// `show` draws them, side by side in rows that fit the terminal.
    fn loopy(&self, e: crate::engine::Error) -> Error {
        let Some(line) = self.game.take_cycle() else {
            return e.into();
        };
        let drawn: Vec<Vec<String>> = line
            .iter()
            .take(DRAWN_LOOP)
            .map(|p| {
                let state: Vec<i64> = p.iter().map(|&x| x as i64).collect();
                let text = self.show(&state).unwrap_or_default();
                text.lines().map(str::to_string).collect()
            })
            .collect();
        let rows = drawn.iter().map(Vec::len).max().unwrap_or(0);
        let mut blocks: Vec<Vec<String>> = vec![];
        let mut out = vec![String::new(); rows];
        for (k, d) in drawn.iter().enumerate() {
            let width = d.iter().map(|l| l.chars().count()).max().unwrap_or(0);
            let used = out.iter().map(|l| l.chars().count()).max().unwrap_or(0);
            if used > 0 && used + 6 + width > DRAWN_WIDTH {
                blocks.push(std::mem::replace(&mut out, vec![String::new(); rows]));
            }
            for (r, o) in out.iter_mut().enumerate() {
                if k > 0 {
                    let arrow = r == (rows - 1) / 2;
                    o.push_str(match (o.is_empty(), arrow) {
                        (true, true) => "->  ",
                        (true, false) => "    ",
                        (false, true) => "  ->  ",
                        (false, false) => "      ",
                    });
                }
                let l = d.get(r).map_or("", String::as_str);
                o.push_str(&format!("{l:width$}"));
            }
        }
        blocks.push(out);
        let blocks: Vec<String> = blocks
            .iter()
            .map(|b| {
                b.iter()
                    .map(|l| l.trim_end())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .collect();
        let mut e = Error::from(e);
        e.message += ":\n";
        e.message += &blocks.join("\n\n");
        if line.len() > DRAWN_LOOP {
            let more = line.len() - DRAWN_LOOP;
            let s = if more == 1 { "" } else { "s" };
            e.message += &format!("\n(and {more} more move{s} round)");
        }
        e
    }

    /// The name of compiled move `i`: the cells its variables were bound to, after `rule k at`
    /// when the game has several move lines.
    fn label(&self, i: usize) -> String {
        let label = &self.game.moves()[i].label;
        let faces = &self.faces[label[0]];
        let cells: Vec<String> = label[1..]
            .iter()
            .zip(faces)
            .map(|(&x, &f)| self.layout.name(x, f))
            .collect();
        if self.faces.len() > 1 {
            format!("rule {} at {}", label[0] + 1, cells.join(" "))
        } else {
            cells.join(" ")
        }
    }
}

impl Family for OnBoard {
    fn kept_bytes(&self) -> u64 {
        self.game.kept_bytes() + self.cram.as_ref().map_or(0, cram::Cram::kept_bytes)
    }
    fn forget(&self) {
        self.game.forget();
        if let Some(c) = &self.cram {
            c.forget();
        }
    }
    fn describe(&self, name: &str, state: &[i64]) -> String {
        let mut parts = vec![];
        for (k, s) in self.states.iter().enumerate().skip(1) {
            let at: Vec<String> = (0..state.len())
                .map(|c| self.at(state, c))
                .filter(|&(d, _)| d == k)
                .map(|(_, x)| self.layout.name(x, false))
                .collect();
            if !at.is_empty() {
                parts.push(format!("{s} {}", at.join(" ")));
            }
        }
        if parts.is_empty() {
            name.to_string()
        } else {
            format!("{name} with {}", parts.join("; "))
        }
    }
    fn options(&self, _: &mut Interp, _: &Ruleset, state: &[i64]) -> Result<Options> {
        Ok(self
            .game
            .options(&cells_of(state))?
            .into_iter()
            .map(|(_, q)| vec![q.iter().map(|&x| x as i64).collect()])
            .collect())
    }
    fn grundy(&self, it: &mut Interp, _: &Ruleset, state: &[i64]) -> Result<Option<u32>> {
        if let Some(c) = &self.cram {
            return Ok(Some(c.grundy(&empty_cells(state), &it.ctl)?));
        }
        let g = self.game.grundy(&cells_of(state), &it.ctl);
        Ok(Some(g.map_err(|e| self.loopy(e))?))
    }
    /// A win/loss search, cheaper than the nimber.
    fn next_wins(&self, it: &mut Interp, state: &[i64]) -> Result<Option<bool>> {
        if let Some(c) = &self.cram {
            return Ok(Some(!c.loses(&empty_cells(state), &it.ctl)?));
        }
        let l = self.game.loses(&cells_of(state), &it.ctl);
        Ok(Some(!l.map_err(|e| self.loopy(e))?))
    }
    fn misere_next_wins(&self, it: &mut Interp, state: &[i64]) -> Result<Option<bool>> {
        let l = self.game.misere_loses(&cells_of(state), &it.ctl);
        Ok(Some(!l.map_err(|e| self.loopy(e))?))
    }
    fn move_label(&self, state: &[i64], option: &[i64]) -> Option<String> {
        let want = cells_of(option);
        let (i, _) = self
            .game
            .options(&cells_of(state))
            .ok()?
            .into_iter()
            .find(|(_, q)| *q == want)?;
        Some(self.label(i))
    }
    fn show(&self, state: &[i64]) -> Option<String> {
        let mark = |c: usize| match state[c] {
            0 => '.',
            s => self.states[s as usize].chars().next().unwrap_or('?'),
        };
        Some(match (&self.layout.grid, &self.layout.edges) {
            (Some((rows, cols)), _) => (0..*rows)
                .map(|r| {
                    (0..*cols)
                        .map(|c| mark(r * cols + c).to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
                .join("\n"),
            // each edge: `a -- b` in the first state, else `a -> b` the way it points
            (None, Some(g)) => (0..state.len())
                .map(|c| match self.at(state, c) {
                    (0, _) => {
                        let (a, b) = g.ends[c];
                        format!("{} -- {}", g.vertices[a], g.vertices[b])
                    }
                    (d, x) => {
                        let (a, b) = g.arc(x);
                        let s = if self.states.len() > 2 {
                            format!(" {}", self.states[d])
                        } else {
                            String::new()
                        };
                        format!("{} ->{s} {}", g.vertices[a], g.vertices[b])
                    }
                })
                .collect::<Vec<_>>()
                .join("   "),
            (None, None) => (0..state.len())
                .map(|c| {
                    format!(
                        "{}: {}",
                        self.layout.names[c], self.states[state[c] as usize]
                    )
                })
                .collect::<Vec<_>>()
                .join("\n"),
        })
    }
    fn picture(&self, v: &Value) -> Option<Picture> {
        picture(v)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A partizan ruleset compiled for one board.
struct PartizanOnBoard(OnBoard);

impl Sides for PartizanOnBoard {
    fn picture(&self, v: &Value) -> Option<Picture> {
        picture(v)
    }
    fn kept_bytes(&self) -> u64 {
        self.0.game.kept_bytes()
    }
    fn forget(&self) {
        self.0.game.forget();
    }
    fn value(&self, it: &mut Interp, state: &[i64]) -> Result<Game> {
        let ctl = it.ctl.clone();
        let v = self.0.game.value(&cells_of(state), store(it)?, &ctl);
        v.map_err(|e| self.0.loopy(e))
    }
    fn wins(
        &self,
        it: &mut Interp,
        parts: &[&[i64]],
        known: Game,
        left: bool,
    ) -> Result<Option<bool>> {
        let ctl = it.ctl.clone();
        let cells: Vec<Vec<u8>> = parts.iter().map(|s| cells_of(s)).collect();
        let w = self.0.game.wins(&cells, known, left, store(it)?, &ctl);
        w.map_err(|e| self.0.loopy(e))
    }
    fn options(&self, _: &mut Interp, state: &[i64], side: Side) -> Result<Options> {
        Ok(self
            .0
            .game
            .side_options(&cells_of(state), board_side(side))?
            .into_iter()
            .map(|(_, q)| vec![q.iter().map(|&x| x as i64).collect()])
            .collect())
    }
    /// Named as impartial board moves are, by the move that leads to the option.
    fn move_label(&self, state: &[i64], option: &[i64], side: Side) -> Option<String> {
        let want = cells_of(option);
        let options = self.0.game.side_options(&cells_of(state), board_side(side));
        let (i, _) = options.ok()?.into_iter().find(|(_, q)| *q == want)?;
        Some(self.0.label(i))
    }
    fn describe(&self, name: &str, state: &[i64]) -> String {
        self.0.describe(name, state)
    }
    fn show(&self, state: &[i64]) -> Option<String> {
        self.0.show(state)
    }
}

fn board_side(side: Side) -> u8 {
    if side == Side::Left {
        board::LEFT
    } else {
        board::RIGHT
    }
}
