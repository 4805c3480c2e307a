//! Rulesets and positions as the language holds them. A component is a ruleset with integer
//! arguments; native games (placement) encode their positions in those integers, so sums,
//! misère play and the generic searches work across all rulesets.

use crate::engine::cycles;
use crate::engine::heap;
use crate::engine::placement;
use crate::lang::eval::Env;
use crate::lang::syntax::ast::GameDef;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub enum Rules {
    /// `game name(params) { move ... }`
    Script(Rc<GameDef>, Env),
    /// a heap game from its take-and-break code
    Heap(heap::Code),
    /// Moore's Nim_k on any number of heaps, with k as typed (see `moore_k`)
    Moore(u64),
    /// a placement game; arguments are the placed pieces as (square, piece index) pairs
    Placement(Rc<placement::Placement>),
    /// the Game of Cycles; arguments are the marked-edge and direction masks
    Cycles(Rc<cycles::Cycles>),
}

pub struct Ruleset {
    pub id: usize,
    pub name: String,
    pub rules: Rules,
}

static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

impl Ruleset {
    pub fn new(name: String, rules: Rules) -> Ruleset {
        Ruleset {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            name,
            rules,
        }
    }

    pub fn script(def: Rc<GameDef>, env: Env) -> Ruleset {
        Ruleset::new(def.name.name.to_string(), Rules::Script(def, env))
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of arguments of a position, when fixed.
    pub fn arity(&self) -> Option<usize> {
        match &self.rules {
            Rules::Script(def, _) => Some(def.params.len()),
            Rules::Heap(_) => Some(1),
            Rules::Moore(_) | Rules::Placement(_) | Rules::Cycles(_) => None,
        }
    }
}

#[derive(Clone)]
pub struct Component {
    pub rs: Rc<Ruleset>,
    pub args: Box<[i64]>,
}

impl Component {
    pub fn key(&self) -> Key {
        (self.rs.id, self.args.clone())
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let args: Vec<String> = self.args.iter().map(|a| a.to_string()).collect();
        match &self.rs.rules {
            Rules::Moore(k) => write!(f, "moore({k}, [{}])", args.join(", ")),
            Rules::Placement(g) => {
                write!(f, "{}", self.rs.name)?;
                for (i, pair) in self.args.chunks(2).enumerate() {
                    let sep = if i == 0 { " after " } else { ", " };
                    let piece = &g.pieces()[pair[1] as usize];
                    write!(
                        f,
                        "{sep}{} on {}",
                        piece_name(piece),
                        square_name(g, pair[0] as usize)
                    )?;
                }
                Ok(())
            }
            Rules::Cycles(g) => {
                write!(f, "{}", self.rs.name)?;
                let p = cycles_pos(g, &self.args).map_err(|_| fmt::Error)?;
                let arrows: Vec<String> = (0..g.graph().edges.len())
                    .filter_map(|e| p.arrow(g.graph(), e))
                    .map(|(a, b)| format!("{}>{}", g.graph().names[a], g.graph().names[b]))
                    .collect();
                if !arrows.is_empty() {
                    write!(f, " after {}", arrows.join(" "))?;
                }
                Ok(())
            }
            _ => write!(f, "{}({})", self.rs.name, args.join(", ")),
        }
    }
}

/// A piece by its stdlib name where it has one.
pub fn piece_name(p: &placement::Piece) -> String {
    match p.letter() {
        Some('N') => "knight".into(),
        Some('K') => "king".into(),
        Some('R') => "rook".into(),
        Some('B') => "bishop".into(),
        Some('Q') => "queen".into(),
        Some('W') => "wazir".into(),
        _ => p.to_string(),
    }
}

/// A square as the language numbers it: `(row, column)` from 1 on grids, the vertex name on
/// graphs.
pub fn square_name(g: &placement::Placement, s: usize) -> String {
    match g.board() {
        placement::Board::Grid { cols, .. } | placement::Board::Torus { cols, .. } => {
            format!("({}, {})", s / cols + 1, s % cols + 1)
        }
        placement::Board::Graph(gr) => gr.names[s].clone(),
    }
}

/// The engine's position from a component's arguments.
pub fn placement_pos(
    g: &placement::Placement,
    args: &[i64],
) -> crate::engine::Result<placement::Pos> {
    let mut pos = g.start();
    for pair in args.chunks(2) {
        let mv = placement::Move {
            square: pair[0] as usize,
            piece: pair[1] as usize,
        };
        pos = g.play(&pos, mv)?;
    }
    Ok(pos)
}

/// A component's arguments from the engine's position.
pub fn placement_args(pos: &placement::Pos) -> Box<[i64]> {
    pos.placed()
        .into_iter()
        .flat_map(|(s, p)| [s as i64, p as i64])
        .collect()
}

/// The Game of Cycles position of a component's arguments.
pub fn cycles_pos(g: &cycles::Cycles, args: &[i64]) -> crate::engine::Result<cycles::Position> {
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

/// A component's arguments from a Game of Cycles position.
pub fn cycles_args(p: &cycles::Position) -> Box<[i64]> {
    let (marked, dir) = p.bits();
    Box::new([marked as i64, dir as i64])
}

/// A sum of components, under normal or misère play.
#[derive(Clone)]
pub struct Position {
    pub comps: Vec<Component>,
    pub misere: bool,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let parts: Vec<String> = self.comps.iter().map(|c| c.to_string()).collect();
        let body = if parts.is_empty() {
            "0".to_string()
        } else {
            parts.join(" + ")
        };
        if self.misere {
            write!(f, "misere({body})")
        } else {
            write!(f, "{body}")
        }
    }
}

pub type Key = (usize, Box<[i64]>);

/// Values kept between queries, so that the REPL answers repeated questions from memory.
#[derive(Default)]
pub struct Cache {
    pub grundy: HashMap<Key, u32>,
    /// values of heap games by ruleset id
    pub heaps: HashMap<usize, heap::Values>,
    /// placement games by their text, so that component values are kept between queries
    pub placements: HashMap<String, Rc<Ruleset>>,
    /// Game of Cycles boards by their text, likewise
    pub cycles: HashMap<String, Rc<Ruleset>>,
}
