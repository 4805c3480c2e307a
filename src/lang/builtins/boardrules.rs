//! Games by rules on a board (docs/language.md, "Board games by rules"): `game cram on board
//! { ... }` defines a ruleset; `cram(grid(4, 4))` compiles its rules for that board, once, to
//! the generic engine (`engine::board`) and gives the start position.
//!
//! Compiling happens in two steps. At the definition, names are resolved: states, variables,
//! and the pieces of `attacks(piece, c)`, which the interpreter evaluates then. For a board,
//! every binding of the variables to cells gives one move: its conditions and changes as lists
//! of cells. The engine never calls back into the interpreter. A ruleset with `left move` or
//! `right move` lines is partizan: its positions belong to the `Partizan` family.
use crate::engine::board::{self, BoardGame, Move, Rules};
use crate::engine::graph::rect_symmetries;
use crate::engine::partizan::Game;
use crate::engine::placement::{self, Piece};
use crate::lang::builtins::partizan::{Partizan, Sides, store};
use crate::lang::error::{Error, Result};
use crate::lang::eval::{Env, Interp};
use crate::lang::game::{Family, Options};
use crate::lang::rules::{Position, Ruleset};
use crate::lang::syntax::ast::{BoardGameDef, Expr, ExprKind, Side, Span};
use crate::lang::value::Value;
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

/// A set of cells, in terms of the variables bound before it.
enum Cells {
    Var(usize),
    Adjacent(Box<Cells>),
    /// the neighbour in a direction of [`DIRECTIONS`] on a grid or torus
    Step(usize, Box<Cells>),
    Attacks(usize, Box<Cells>),
    Union(Box<Cells>, Box<Cells>),
}

/// What a variable ranges over.
enum Source {
    /// the cells in a state: the move needs the cell in it
    State(u8),
    All,
    Cells(Cells),
}

struct Line {
    /// the players who may make the move (`board::LEFT`, `RIGHT` or `BOTH`)
    side: u8,
    vars: Vec<Source>,
    /// (cells, states the cells must be in)
    conds: Vec<(Cells, u8)>,
    /// (cells, from states, to state)
    changes: Vec<(Vec<Cells>, u8, u8)>,
    span: Span,
}

/// A ruleset on no board yet: calling it with a board gives the start position.
pub struct BoardRules {
    name: String,
    states: Vec<String>,
    pieces: Vec<Piece>,
    /// whether a rule names a direction (`up(c)`, ...), which needs a grid or torus
    directed: bool,
    lines: Vec<Line>,
    /// the ruleset compiled for each board, by the board's text
    bound: RefCell<HashMap<String, Rc<Ruleset>>>,
}

/// Resolves the names of a definition: the first step of compiling.
pub fn define(it: &mut Interp, def: &BoardGameDef, env: &Env) -> Result<Ruleset> {
    let states: Vec<String> = if def.states.is_empty() {
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
    if states.len() > board::MAX_STATES {
        return Err(Error::runtime(
            format!(
                "a board game has at most {} cell states, not {}",
                board::MAX_STATES,
                states.len()
            ),
            def.states[board::MAX_STATES].span,
        ));
    }
    for (i, s) in def.states.iter().enumerate() {
        if def.states[..i].iter().any(|t| t.name == s.name) {
            return Err(Error::runtime(
                format!("the state `{}` is declared twice", s.name),
                s.span,
            ));
        }
    }
    let state = |name: &str, span: Span| -> Result<u8> {
        states
            .iter()
            .position(|s| s == name)
            .map(|i| i as u8)
            .ok_or_else(|| {
                Error::runtime(format!("`{name}` is not a state of this game"), span)
                    .hint(format!("the states are {}", states.join(", ")))
            })
    };
    let mut pieces: Vec<Piece> = vec![];
    let mut lines = vec![];
    for rule in &def.rules {
        let mut names: Vec<Rc<str>> = vec![];
        let mut vars = vec![];
        for (var, e) in &rule.bindings {
            if states.iter().any(|s| **s == *var.name) || names.contains(&var.name) {
                return Err(Error::runtime(
                    format!("`{}` is already a state or variable of this rule", var.name),
                    var.span,
                ));
            }
            vars.push(match &e.kind {
                ExprKind::Ident(n) if states.iter().any(|s| **s == **n) => {
                    Source::State(state(n, e.span)?)
                }
                ExprKind::Ident(n) if &**n == "cells" => Source::All,
                _ => Source::Cells(cells(it, env, e, &names, &mut pieces)?),
            });
            names.push(var.name.clone());
        }
        if rule.bindings.is_empty() {
            return Err(Error::runtime("a board move ranges over cells", rule.span)
                .hint("add `for c in empty` (or another state, or `cells`)"));
        }
        let all = (1u8 << states.len()) - 1;
        let mut conds = vec![];
        for c in &rule.conds {
            let s = 1 << state(&c.state.name, c.state.span)?;
            conds.push((
                cells(it, env, &c.cells, &names, &mut pieces)?,
                if c.negated { all & !s } else { s },
            ));
        }
        let mut changes = vec![];
        for ch in &rule.changes {
            let set = ch
                .cells
                .iter()
                .map(|e| cells(it, env, e, &names, &mut pieces))
                .collect::<Result<Vec<_>>>()?;
            let from = match &ch.from {
                Some(f) => 1 << state(&f.name, f.span)?,
                None => all,
            };
            changes.push((set, from, state(&ch.to.name, ch.to.span)?));
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
    Ok(Ruleset::new(
        def.name.name.to_string(),
        BoardRules {
            name: def.name.name.to_string(),
            states,
            directed: lines.iter().any(Line::directed),
            pieces,
            lines,
            bound: RefCell::new(HashMap::new()),
        },
    ))
}

/// A cell-set expression: a variable, `adjacent(x)`, `attacks(piece, x)` or `a | b`.
fn cells(
    it: &mut Interp,
    env: &Env,
    e: &Expr,
    names: &[Rc<str>],
    pieces: &mut Vec<Piece>,
) -> Result<Cells> {
    let bad = || {
        Error::runtime("not a set of cells", e.span).hint(
            "a set of cells is a variable bound by `for`, adjacent(c), up(c), down(c), left(c), right(c), attacks(piece, c) or a | b",
        )
    };
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
        ExprKind::Binary(crate::lang::syntax::ast::BinOp::Bar, a, b) => Cells::Union(
            Box::new(cells(it, env, a, names, pieces)?),
            Box::new(cells(it, env, b, names, pieces)?),
        ),
        ExprKind::Call {
            callee,
            args,
            kwargs,
        } if kwargs.is_empty() => match (&callee.kind, args.as_slice()) {
            (ExprKind::Ident(f), [x]) if &**f == "adjacent" => {
                Cells::Adjacent(Box::new(cells(it, env, x, names, pieces)?))
            }
            (ExprKind::Ident(f), [x]) if DIRECTIONS.iter().any(|d| d.0 == &**f) => Cells::Step(
                DIRECTIONS.iter().position(|d| d.0 == &**f).unwrap_or(0),
                Box::new(cells(it, env, x, names, pieces)?),
            ),
            (ExprKind::Ident(f), [p, x]) if &**f == "attacks" => {
                let Value::Piece(piece) = it.eval(p, env)? else {
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
                Cells::Attacks(i, Box::new(cells(it, env, x, names, pieces)?))
            }
            _ => return Err(bad()),
        },
        _ => return Err(bad()),
    })
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
    syms: Vec<Vec<usize>>,
    /// columns of a grid (not a torus): keys may be translated
    cols: Option<usize>,
}

fn layout(v: &Value, pieces: &[Piece], directed: bool, span: Span) -> Result<Layout> {
    match v {
        Value::Board(b) => {
            let (rows, cols) = (b.rows, b.cols);
            let n = rows.checked_mul(cols).filter(|&n| n <= board::MAX_CELLS);
            let Some(n) = n else {
                return Err(Error::runtime(
                    format!("a board game takes at most {} cells", board::MAX_CELLS),
                    span,
                ));
            };
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
                    (0..n)
                        .map(|s| {
                            let (r, c) = f(s / cols, s % cols);
                            r * cols + c
                        })
                        .collect()
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
            })
        }
        Value::Graph(g) => {
            if !pieces.is_empty() || directed {
                let what = if directed {
                    "up, down, left and right need"
                } else {
                    "`attacks` needs"
                };
                return Err(Error::runtime(
                    format!("{what} a grid or torus board, not a graph"),
                    span,
                ));
            }
            if g.vertex_count() > board::MAX_CELLS {
                return Err(Error::runtime(
                    format!("a board game takes at most {} cells", board::MAX_CELLS),
                    span,
                ));
            }
            let adj = g.adjacency();
            Ok(Layout {
                names: g.names.clone(),
                syms: board::automorphisms(&adj),
                adj,
                steps: vec![],
                attacks: vec![],
                grid: None,
                cols: None,
            })
        }
        _ => Err(Error::runtime(
            format!("a board game is played on a board, not {}", v.a_type()),
            span,
        )
        .hint("give grid(m, n), torus(m, n) or a graph { ... }")),
    }
}

fn eval_cells(c: &Cells, l: &Layout, vars: &[usize], out: &mut Vec<usize>) {
    match c {
        Cells::Var(i) => out.push(vars[*i]),
        Cells::Adjacent(x) | Cells::Attacks(_, x) => {
            let mut xs = vec![];
            eval_cells(x, l, vars, &mut xs);
            for s in xs {
                out.extend(match c {
                    Cells::Attacks(p, _) => &l.attacks[*p][s],
                    _ => &l.adj[s],
                });
            }
        }
        Cells::Step(k, x) => {
            let mut xs = vec![];
            eval_cells(x, l, vars, &mut xs);
            out.extend(xs.into_iter().filter_map(|s| l.steps[s][*k]));
        }
        Cells::Union(a, b) => {
            eval_cells(a, l, vars, out);
            eval_cells(b, l, vars, out);
        }
    }
}

impl Cells {
    fn directed(&self) -> bool {
        match self {
            Cells::Var(_) => false,
            Cells::Step(..) => true,
            Cells::Adjacent(x) | Cells::Attacks(_, x) => x.directed(),
            Cells::Union(a, b) => a.directed() || b.directed(),
        }
    }
}

impl Line {
    fn directed(&self) -> bool {
        let vars = self
            .vars
            .iter()
            .any(|v| matches!(v, Source::Cells(c) if c.directed()));
        vars || self.conds.iter().any(|c| c.0.directed())
            || self.changes.iter().flat_map(|c| &c.0).any(Cells::directed)
    }
}

/// Every binding of a line's variables to distinct cells, as moves labelled by the line and
/// the cells.
fn bind(line: &Line, k: usize, l: &Layout, vars: &mut Vec<usize>, out: &mut Vec<Move>) -> bool {
    if out.len() > MAX_MOVES {
        return false;
    }
    if vars.len() == line.vars.len() {
        let set = |c: &Cells| {
            let mut v = vec![];
            eval_cells(c, l, vars, &mut v);
            v
        };
        let mut need: Vec<(Vec<usize>, u8)> = vec![];
        for (i, s) in line.vars.iter().enumerate() {
            if let Source::State(s) = s {
                need.push((vec![vars[i]], 1 << s));
            }
        }
        need.extend(line.conds.iter().map(|(c, t)| (set(c), *t)));
        let change = line
            .changes
            .iter()
            .map(|(cs, f, t)| (cs.iter().flat_map(set).collect(), *f, *t))
            .collect();
        let mut label = vec![k];
        label.extend(vars.iter());
        out.push(Move {
            need,
            change,
            label,
        });
        return true;
    }
    let cands = match &line.vars[vars.len()] {
        Source::Cells(c) => {
            let mut v = vec![];
            eval_cells(c, l, vars, &mut v);
            v.sort_unstable();
            v.dedup();
            v
        }
        _ => (0..l.names.len()).collect(),
    };
    for c in cands {
        if vars.contains(&c) {
            continue;
        }
        vars.push(c);
        let ok = bind(line, k, l, vars, out);
        vars.pop();
        if !ok {
            return false;
        }
    }
    true
}

impl BoardRules {
    /// The position on a board, compiling the rules for it the first time: every cell in the
    /// first state, or as drawn by `start`.
    fn start(&self, board: &Value, span: Span, start: Option<(&str, Span)>) -> Result<Value> {
        let text = format!("{}({})", self.name, board.to_text());
        let known = self.bound.borrow().get(&text).cloned();
        let rs = match known {
            Some(rs) => rs,
            None => {
                let l = layout(board, &self.pieces, self.directed, span)?;
                let mut moves = vec![];
                for (k, line) in self.lines.iter().enumerate() {
                    if !bind(line, k, &l, &mut vec![], &mut moves) {
                        return Err(Error::runtime(
                            format!("the rules give more than {MAX_MOVES} moves on this board"),
                            line.span,
                        ));
                    }
                }
                let sides: Vec<u8> = moves.iter().map(|m| self.lines[m.label[0]].side).collect();
                let game = BoardGame::with_sides(
                    Rules {
                        cells: l.names.len(),
                        states: self.states.len(),
                        moves,
                        syms: l.syms.clone(),
                        cols: l.cols,
                    },
                    &sides,
                )
                .map_err(|e| Error::from(e).at(span))?;
                let b = OnBoard {
                    states: self.states.clone(),
                    lines: self.lines.len(),
                    layout: l,
                    game,
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
            None => vec![0; cell_count(board)],
            Some((t, s)) => self.drawn(board, t, s)?,
        };
        Ok(Value::Position(Rc::new(Position::single(rs, state.into()))))
    }

    /// A position drawn as `show` draws it: rows split by `|` or new lines, a cell `.` in the
    /// first state or the first letter of its state; spaces are ignored.
    fn drawn(&self, board: &Value, text: &str, span: Span) -> Result<Vec<i64>> {
        let Value::Board(b) = board else {
            return Err(Error::runtime(
                "a drawn start position needs a grid or torus board",
                span,
            ));
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
                format!("the drawing has {} rows, not {}", rows.len(), b.rows),
                span,
            )
            .hint(hint));
        }
        Ok(out)
    }
}

/// The number of cells of a board a layout was made for.
fn cell_count(board: &Value) -> usize {
    match board {
        Value::Board(b) => b.rows * b.cols,
        Value::Graph(g) => g.vertex_count(),
        _ => 0,
    }
}

impl Family for BoardRules {
    fn options(&self, _: &mut Interp, rs: &Ruleset, _: &[i64]) -> Result<Options> {
        Err(Error::runtime(
            format!("`{}` is played on a board", rs.name),
            Span::default(),
        ))
    }
    fn call(&self, _: &Rc<Ruleset>, args: &[(Value, Span)], span: Span) -> Option<Result<Value>> {
        Some(match args {
            [(b, s)] => self.start(b, *s, None),
            [(b, s), (Value::Str(t), ts)] => self.start(b, *s, Some((t, *ts))),
            _ => Err(Error::runtime(
                format!(
                    "`{}` takes the board and, if you like, the start drawn as a string",
                    self.name
                ),
                span,
            )
            .hint(format!(
                "e.g. {0}(grid(4, 4)) or {0}(grid(2, 2), \"x.|.x\")",
                self.name
            ))),
        })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A ruleset compiled for one board; a state is the state of each cell.
pub struct OnBoard {
    states: Vec<String>,
    lines: usize,
    layout: Layout,
    game: BoardGame,
}

fn cells_of(state: &[i64]) -> Vec<u8> {
    state.iter().map(|&s| s as u8).collect()
}

impl Family for OnBoard {
    fn describe(&self, name: &str, state: &[i64]) -> String {
        let mut parts = vec![];
        for (k, s) in self.states.iter().enumerate().skip(1) {
            let at: Vec<&str> = (0..state.len())
                .filter(|&c| state[c] == k as i64)
                .map(|c| self.layout.names[c].as_str())
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
        Ok(Some(self.game.grundy(&cells_of(state), &it.ctl)?))
    }
    fn move_label(&self, state: &[i64], option: &[i64]) -> Option<String> {
        let want = cells_of(option);
        let (i, _) = self
            .game
            .options(&cells_of(state))
            .ok()?
            .into_iter()
            .find(|(_, q)| *q == want)?;
        let label = &self.game.moves()[i].label;
        let cells: Vec<&str> = label[1..]
            .iter()
            .map(|&c| self.layout.names[c].as_str())
            .collect();
        Some(if self.lines > 1 {
            format!("rule {} at {}", label[0] + 1, cells.join(" "))
        } else {
            cells.join(" ")
        })
    }
    fn show(&self, state: &[i64]) -> Option<String> {
        let mark = |c: usize| match state[c] {
            0 => '.',
            s => self.states[s as usize].chars().next().unwrap_or('?'),
        };
        Some(match self.layout.grid {
            Some((rows, cols)) => (0..rows)
                .map(|r| {
                    (0..cols)
                        .map(|c| mark(r * cols + c).to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
                .join("\n"),
            None => (0..state.len())
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
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A partizan ruleset compiled for one board.
struct PartizanOnBoard(OnBoard);

impl Sides for PartizanOnBoard {
    fn value(&self, it: &mut Interp, state: &[i64]) -> Result<Game> {
        let ctl = it.ctl.clone();
        Ok(self.0.game.value(&cells_of(state), store(it)?, &ctl)?)
    }
    fn options(&self, _: &mut Interp, state: &[i64], side: Side) -> Result<Options> {
        let side = if side == Side::Left {
            board::LEFT
        } else {
            board::RIGHT
        };
        Ok(self
            .0
            .game
            .side_options(&cells_of(state), side)?
            .into_iter()
            .map(|(_, q)| vec![q.iter().map(|&x| x as i64).collect()])
            .collect())
    }
    fn describe(&self, name: &str, state: &[i64]) -> String {
        self.0.describe(name, state)
    }
    fn show(&self, state: &[i64]) -> Option<String> {
        self.0.show(state)
    }
}
