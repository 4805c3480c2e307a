//! The Game of Cycles (F. Su; J. S. Zandee, "The Game of Cycles", BSc thesis, TU Delft 2022).
//!
//! A board is a [`Graph`] with cycle cells. A move orients an unmarked edge. No move may leave a
//! vertex whose edges are all marked and all point in (a sink) or all point out (a source); so an
//! edge at a vertex of degree 1 is never markable. Completing a cell (all its edges marked one
//! way round) wins at once; otherwise the player who makes the last move wins.
//!
//! Two rule sets ([`Rule`]):
//! - [`Rule::Original`]: as above.
//! - [`Rule::Normal`]: a move after which the opponent could complete a cell (a *death move*)
//!   is illegal, as the thesis' script plays. A completing move is then only possible from a
//!   start position that already offers one. This is plain normal play, so nimbers, sums and
//!   misère make sense.
//!
//! Both rule sets give every position the same outcome: a death move always loses under the
//! original rule (the opponent completes the cell), and from a position that offers a completing
//! move both rules let the player to move win at once. So the engine searches under the normal
//! rule and answers [`Cycles::outcome`] and [`Cycles::winning`] for both.
//!
//! The engine keeps a position in two 64-bit masks (2 bits per edge; boards of at most 64
//! edges), generates moves with the sink/source rule and the cell checks in O(degree), stores
//! results in a transposition table shared by threads and kept between queries, identifies
//! positions under the automorphisms of the board with its cells (computed from the graph)
//! combined with reversing every arrow, splits a position into independent components (edges
//! interact only through a shared vertex or a cell that can still be completed), and searches the
//! first level in parallel. Results do not depend on the number of threads.
//!
//! ```
//! use gamut::engine::Ctl;
//! use gamut::engine::cycles::{Cycles, Outcome, Rule, boards};
//!
//! let game = Cycles::new(boards::diamond(), Rule::Original).unwrap();
//! let ctl = Ctl::default();
//! assert_eq!(game.outcome(&game.start(), &ctl).unwrap(), Outcome::N);
//! // the winning first moves are the two orientations of the diagonal a - c
//! let wins: Vec<String> = game
//!     .winning(&game.start(), &ctl)
//!     .unwrap()
//!     .iter()
//!     .map(|m| game.move_name(m))
//!     .collect();
//! assert_eq!(wins, ["a>c", "c>a"]);
//! ```
mod board;
/// Board builders: cycles, lines, the diamond, the double-diamond family, spiders, trees.
pub mod boards;
pub mod picture;
mod search;

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::engine::graph::Graph;
use crate::engine::winloss::{self, Table};
use crate::engine::{Ctl, Error, Result};
use board::{Board, Kind};
use search::{Opts, Quiet};

/// The transposition table, made at the first query (within the memory budget then) and shared
/// by the clones of a game.
type Shared = Arc<Mutex<Option<Arc<Table<u128>>>>>;

/// Upper bound on the transposition table unless the memory budget is smaller.
const TABLE_CAP: u64 = 1 << 30;

/// Which rule set a game follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Completing a cell wins at once; otherwise the last mover wins.
    Original,
    /// Moves that let the opponent complete a cell are illegal; plain normal play.
    Normal,
}

impl Rule {
    /// The rule named `"original"` or `"normal"`.
    pub fn parse(s: &str) -> Result<Rule> {
        match s {
            "original" => Ok(Rule::Original),
            "normal" => Ok(Rule::Normal),
            _ => Err(
                Error::invalid(format!("unknown Game of Cycles rule \"{s}\""))
                    .hint("the rules are \"original\" and \"normal\""),
            ),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Rule::Original => "original",
            Rule::Normal => "normal",
        })
    }
}

/// Who wins a position with best play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The next player (the one to move) wins.
    N,
    /// The previous player wins.
    P,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Outcome::N => "N",
            Outcome::P => "P",
        })
    }
}

/// A position: 2 bits per edge (marked or not, and which way). Edge numbers are those of the
/// board's [`Graph::edges`]; direction 0 points from the smaller vertex index to the larger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    marked: u64,
    dir: u64,
}

impl Position {
    /// The orientation of edge `e` as (from, to) vertex indices, if it is marked.
    pub fn arrow(&self, g: &Graph, e: usize) -> Option<(usize, usize)> {
        if self.marked >> e & 1 == 0 {
            return None;
        }
        let (a, b) = g.edges[e];
        let (lo, hi) = (a.min(b), a.max(b));
        Some(if self.dir >> e & 1 == 0 {
            (lo, hi)
        } else {
            (hi, lo)
        })
    }

    /// Number of marked edges.
    pub fn marked_count(&self) -> u32 {
        self.marked.count_ones()
    }

    /// The raw masks (marked, direction), for hashing or storage by callers.
    pub fn bits(&self) -> (u64, u64) {
        (self.marked, self.dir)
    }
}

/// A move: orient edge `edge` from vertex `from` to vertex `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// the edge's index in [`Graph::edges`]
    pub edge: usize,
    /// tail vertex index
    pub from: usize,
    /// head vertex index
    pub to: usize,
}

/// The Game of Cycles on one board under one rule set. Cloning shares the transposition table.
#[derive(Clone)]
pub struct Cycles {
    graph: Graph,
    rule: Rule,
    board: Arc<Board>,
    table: Shared,
    opts: Opts,
}

impl fmt::Debug for Cycles {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "Cycles({} vertices, {} edges, {} cells, {} rule)",
            self.graph.vertex_count(),
            self.graph.edges.len(),
            self.board.cells.len(),
            self.rule
        )
    }
}

impl Cycles {
    /// The game on `graph` (its cells are the cycle cells) under `rule`. Boards of more than 64
    /// edges are refused.
    pub fn new(graph: Graph, rule: Rule) -> Result<Cycles> {
        let board = Board::new(&graph)?;
        Ok(Cycles {
            graph,
            rule,
            board: Arc::new(board),
            table: Shared::default(),
            opts: Opts {
                symmetry: true,
                split: true,
            },
        })
    }

    /// The same game with the symmetry reduction and the splitting into components switched on
    /// or off (for testing and timing; answers are the same). The copy gets its own table.
    pub fn with_reductions(&self, symmetry: bool, split: bool) -> Cycles {
        Cycles {
            opts: Opts { symmetry, split },
            table: Shared::default(),
            ..self.clone()
        }
    }

    /// The board.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The rule set.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Number of edges that can ever be marked (both ends of degree at least 2).
    pub fn markable_edges(&self) -> usize {
        self.board.markable.count_ones() as usize
    }

    /// Number of automorphisms of the board with its cells that the engine uses (at most 64;
    /// arrow reversal doubles the reduction).
    pub fn symmetry_count(&self) -> usize {
        self.board.syms.len()
    }

    /// Number of components with an exact value in the transposition table.
    pub fn table_len(&self) -> usize {
        self.table
            .lock()
            .unwrap()
            .as_ref()
            .map_or(0, |t| t.entries())
    }

    /// The bytes the transposition table takes.
    pub fn table_bytes(&self) -> u64 {
        self.table.lock().unwrap().as_ref().map_or(0, |t| t.bytes())
    }

    /// Empties the transposition table.
    pub fn clear_table(&self) {
        *self.table.lock().unwrap() = None;
    }

    fn table(&self, ctl: &Ctl) -> Result<Arc<Table<u128>>> {
        let mut t = self.table.lock().unwrap();
        if let Some(t) = &*t {
            return Ok(t.clone());
        }
        // the table grows as needed up to a quarter of the budget, at most 1 GB
        let bytes = TABLE_CAP.min(ctl.memory() / 4);
        ctl.reserve(bytes, "the Game of Cycles table")?;
        let table = Arc::new(Table::new(bytes));
        *t = Some(table.clone());
        Ok(table)
    }

    /// The empty board.
    pub fn start(&self) -> Position {
        Position { marked: 0, dir: 0 }
    }

    /// The position with the given edges marked, each as (from, to) vertex indices. Refuses a
    /// pair that is no edge, an edge given twice, and a position with a sink or a source.
    pub fn with_marked(&self, arrows: &[(usize, usize)]) -> Result<Position> {
        let g = &self.graph;
        let mut p = self.start();
        for &(u, v) in arrows {
            let name = |i: usize| g.names.get(i).map(String::as_str).unwrap_or("?");
            let Some(e) = g.edge(u, v) else {
                return Err(Error::invalid(format!(
                    "{}>{} is not an edge of the board",
                    name(u),
                    name(v)
                )));
            };
            if p.marked >> e & 1 == 1 {
                return Err(Error::invalid(format!(
                    "the edge {} - {} is marked twice",
                    name(u),
                    name(v)
                )));
            }
            p.marked |= 1 << e;
            if u > v {
                p.dir |= 1 << e;
            }
        }
        for v in 0..g.vertex_count() {
            let inc = self.board.inc[v];
            if inc != 0 && inc & !p.marked == 0 {
                let outs = self.board.out_edges(v, p.marked, p.dir);
                if outs == 0 || outs == inc {
                    return Err(Error::invalid(format!(
                        "the marked edges make {} a {}",
                        g.names[v],
                        if outs == 0 { "sink" } else { "source" }
                    ))
                    .hint(
                        "no vertex may have all its edges marked and all pointing in or all out",
                    ));
                }
            }
        }
        Ok(p)
    }

    /// The position with edges marked as written: `"a>b"` (also `"a->b"` or `"b<a"`) orients
    /// the edge a - b from a to b. The error names the bad string.
    pub fn parse_marked<S: AsRef<str>>(&self, specs: &[S]) -> Result<Position> {
        let mut arrows = Vec::new();
        for s in specs {
            let s = s.as_ref();
            let (from, to) = if let Some((a, b)) = s.split_once("->") {
                (a, b)
            } else if let Some((a, b)) = s.split_once('>') {
                (a, b)
            } else if let Some((a, b)) = s.split_once('<') {
                (b, a)
            } else {
                return Err(
                    Error::invalid(format!("the marked edge \"{s}\" has no arrow"))
                        .hint("write an arrow as \"a>b\""),
                );
            };
            let find = |n: &str| {
                self.graph.vertex(n.trim()).ok_or_else(|| {
                    Error::invalid(format!(
                        "the marked edge \"{s}\" names a vertex \"{}\" the board does not have",
                        n.trim()
                    ))
                })
            };
            let (u, v) = (find(from)?, find(to)?);
            if self.graph.edge(u, v).is_none() {
                return Err(Error::invalid(format!(
                    "the marked edge \"{s}\" is not an edge of the board"
                )));
            }
            arrows.push((u, v));
        }
        self.with_marked(&arrows)
    }

    /// `"a>b"` for a move.
    pub fn move_name(&self, m: &Move) -> String {
        format!("{}>{}", self.graph.names[m.from], self.graph.names[m.to])
    }

    /// The position after move `m` (not checked for legality).
    pub fn play(&self, p: &Position, m: &Move) -> Position {
        Position {
            marked: p.marked | 1 << m.edge,
            dir: p.dir | (u64::from(m.from > m.to)) << m.edge,
        }
    }

    /// Whether some cell is complete (the game is over).
    pub fn is_over(&self, p: &Position) -> bool {
        self.board.any_complete(p.marked, p.dir)
    }

    /// Whether move `m` completes a cell.
    pub fn completes_cell(&self, p: &Position, m: &Move) -> bool {
        let d = u64::from(m.from > m.to);
        self.board.classify(p.marked, p.dir, m.edge, d) == Kind::Complete
    }

    fn to_move(&self, e: usize, d: u64) -> Move {
        let (from, to) = self.board.tail_head(e, d);
        Move { edge: e, from, to }
    }

    /// The legal moves under the game's rule, with what each does: `Complete` (wins at once),
    /// `Death` (the opponent can then complete a cell; original rule only) or `Quiet`.
    fn root_moves(&self, p: &Position) -> Vec<(usize, u64, Kind)> {
        let b = &*self.board;
        let mut out = Vec::new();
        if b.any_complete(p.marked, p.dir) {
            return out;
        }
        let mut free = b.markable & !p.marked;
        while free != 0 {
            let e = free.trailing_zeros() as usize;
            free &= free - 1;
            for d in [0u64, 1] {
                if !b.sink_source_ok(p.marked, p.dir, e, d) {
                    continue;
                }
                let kind = match b.classify(p.marked, p.dir, e, d) {
                    Kind::Complete => Kind::Complete,
                    _ => {
                        let (m, dd) = (p.marked | 1 << e, p.dir | d << e);
                        if b.any_completable(m, dd) {
                            Kind::Death
                        } else {
                            Kind::Quiet
                        }
                    }
                };
                if kind == Kind::Death && self.rule == Rule::Normal {
                    continue;
                }
                out.push((e, d, kind));
            }
        }
        out
    }

    /// The legal moves, in edge order, each edge's direction 0 first.
    pub fn moves(&self, p: &Position) -> Vec<Move> {
        self.root_moves(p)
            .into_iter()
            .map(|(e, d, _)| self.to_move(e, d))
            .collect()
    }

    /// The positions reachable in one move under the game's rule. A position with a complete
    /// cell has none, so both rule sets are normal-play games on these options (sums, however,
    /// only mean the game of cycles under [`Rule::Normal`]).
    pub fn options(&self, p: &Position) -> Vec<Position> {
        self.moves(p).iter().map(|m| self.play(p, m)).collect()
    }

    fn quiet(&self) -> Quiet<'_> {
        Quiet {
            b: &self.board,
            opts: self.opts,
        }
    }

    /// Value of each root move for the player who made it: `true` if the move wins.
    fn root_values(&self, p: &Position, ctl: &Ctl, stop_at_win: bool) -> Result<Vec<(Move, bool)>> {
        ctl.check()?;
        let moves = self.root_moves(p);
        let (quiet, table) = (self.quiet(), self.table(ctl)?);
        // one counter for the root moves and the positions the searches visit
        let task = ctl.task("game of cycles (positions)", None);
        let found = AtomicBool::new(false);
        let vals: Vec<Result<bool>> = moves
            .par_iter()
            .map(|&(e, d, kind)| {
                if stop_at_win && found.load(Ordering::Relaxed) {
                    return Ok(false);
                }
                let win = match kind {
                    Kind::Complete => true,
                    Kind::Death => false,
                    Kind::Quiet => {
                        let after = (p.marked | 1 << e, p.dir | d << e);
                        winloss::loses(&quiet, &table, after, ctl, &task)?
                    }
                };
                if win {
                    found.store(true, Ordering::Relaxed);
                }
                task.tick(1)?;
                Ok(win)
            })
            .collect();
        let mut out = Vec::with_capacity(moves.len());
        for (&(e, d, _), v) in moves.iter().zip(vals) {
            out.push((self.to_move(e, d), v?));
        }
        Ok(out)
    }

    /// Who wins `p` with best play (the same under both rules).
    pub fn outcome(&self, p: &Position, ctl: &Ctl) -> Result<Outcome> {
        let vals = self.root_values(p, ctl, true)?;
        Ok(if vals.iter().any(|v| v.1) {
            Outcome::N
        } else {
            Outcome::P
        })
    }

    /// The moves that win for the player to move (the same under both rules), in the order of
    /// [`Cycles::moves`].
    pub fn winning(&self, p: &Position, ctl: &Ctl) -> Result<Vec<Move>> {
        let vals = self.root_values(p, ctl, false)?;
        Ok(vals.into_iter().filter(|v| v.1).map(|v| v.0).collect())
    }

    fn need_normal(&self, what: &str) -> Result<()> {
        if self.rule != Rule::Normal {
            return Err(Error::invalid(format!(
                "{what} of the Game of Cycles needs the normal rule"
            ))
            .hint("under the original rule completing a cell ends every part of the board at once; use rule: \"normal\""));
        }
        Ok(())
    }

    /// The nimber of each legal move's position (normal rule only).
    pub fn move_values(&self, p: &Position, ctl: &Ctl) -> Result<Vec<(Move, u32)>> {
        self.need_normal("a nimber")?;
        ctl.check()?;
        let moves = self.root_moves(p);
        let (quiet, table) = (self.quiet(), self.table(ctl)?);
        // one counter for the root moves and the positions the searches visit
        let task = ctl.task("game of cycles (positions)", None);
        let vals: Vec<Result<u32>> = moves
            .par_iter()
            .map(|&(e, d, kind)| {
                let g = match kind {
                    Kind::Quiet => {
                        let after = (p.marked | 1 << e, p.dir | d << e);
                        winloss::value(&quiet, &table, after, ctl, &task)?
                    }
                    _ => 0, // a completing move ends the game
                };
                task.tick(1)?;
                Ok(g)
            })
            .collect();
        let mut out = Vec::with_capacity(moves.len());
        for (&(e, d, _), v) in moves.iter().zip(vals) {
            out.push((self.to_move(e, d), v?));
        }
        Ok(out)
    }

    /// The nimber (Sprague-Grundy value) of `p` (normal rule only).
    pub fn grundy(&self, p: &Position, ctl: &Ctl) -> Result<u32> {
        let vals = self.move_values(p, ctl)?;
        let mut g = 0;
        while vals.iter().any(|v| v.1 == g) {
            g += 1;
        }
        Ok(g)
    }

    fn edge_text(&self, p: &Position, e: usize) -> String {
        let g = &self.graph;
        let (a, b) = g.edges[e];
        match p.arrow(g, e) {
            Some((u, v)) => format!("{} -> {}", g.names[u], g.names[v]),
            None if self.board.markable >> e & 1 == 0 => {
                format!("{} .. {}", g.names[a], g.names[b])
            }
            None => format!("{} -- {}", g.names[a], g.names[b]),
        }
    }

    /// A small text drawing: the edges (`a -> b` marked, `a -- b` unmarked, `a .. b` never
    /// markable), then the cells.
    pub fn show(&self, p: &Position) -> String {
        let g = &self.graph;
        let mut s = format!(
            "Game of Cycles ({} rule): {} vertices, {} edges ({} markable, {} marked), {} cells\n",
            self.rule,
            g.vertex_count(),
            g.edges.len(),
            self.markable_edges(),
            p.marked_count(),
            g.cells.len()
        );
        let texts: Vec<String> = (0..g.edges.len()).map(|e| self.edge_text(p, e)).collect();
        let w = texts.iter().map(|t| t.chars().count()).max().unwrap_or(0);
        for row in texts.chunks(6) {
            let line: Vec<String> = row.iter().map(|t| format!("{t:<w$}")).collect();
            s.push_str("  ");
            s.push_str(line.join("   ").trim_end());
            s.push('\n');
        }
        if !g.cells.is_empty() {
            let cells: Vec<String> = g
                .cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let names: Vec<&str> = c.iter().map(|&v| g.names[v].as_str()).collect();
                    let done =
                        i < self.board.cells.len() && self.board.cell_complete(i, p.marked, p.dir);
                    format!(
                        "[{}]{}",
                        names.join(" "),
                        if done { " complete" } else { "" }
                    )
                })
                .collect();
            s.push_str(&format!("  cells: {}\n", cells.join(", ")));
        }
        s
    }

    /// The board as a Graphviz digraph: marked edges carry their arrow, unmarked edges none
    /// (dashed if they can never be marked); cells are listed in a comment.
    pub fn dot(&self, p: &Position) -> String {
        let g = &self.graph;
        let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
        let mut s = String::from("digraph cycles {\n  node [shape=circle];\n");
        for c in &g.cells {
            let names: Vec<&str> = c.iter().map(|&v| g.names[v].as_str()).collect();
            s.push_str(&format!("  // cell {}\n", names.join(" ")));
        }
        for n in &g.names {
            s.push_str(&format!("  {};\n", q(n)));
        }
        for (e, &(a, b)) in g.edges.iter().enumerate() {
            match p.arrow(g, e) {
                Some((u, v)) => {
                    s.push_str(&format!("  {} -> {};\n", q(&g.names[u]), q(&g.names[v])))
                }
                None => {
                    let style = if self.board.markable >> e & 1 == 0 {
                        ", style=dashed"
                    } else {
                        ""
                    };
                    s.push_str(&format!(
                        "  {} -> {} [dir=none{style}];\n",
                        q(&g.names[a]),
                        q(&g.names[b])
                    ))
                }
            }
        }
        s.push_str("}\n");
        s
    }
}
