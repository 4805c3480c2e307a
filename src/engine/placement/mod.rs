//! Non-attacking placement games and Node-Kayles.
//!
//! A move puts one of the listed pieces on an empty square that no placed piece attacks (a
//! piece may be placed where it attacks pieces already there). Sliding attacks pass through
//! placed pieces unless the game is `blocking`. On a graph board the game is Node-Kayles: a
//! move picks a vertex that is neither chosen nor adjacent to a chosen vertex. The player who
//! cannot move loses (normal play).
//!
//! Boards have at most [`MAX_SQUARES`] (512) squares; the engine keeps a set of squares in one
//! machine word up to 64 squares, two up to 128, four up to 256 and eight beyond.
//!
//! ```
//! use gamut::engine::Ctl;
//! use gamut::engine::placement::{Board, Piece, Placement};
//!
//! // Knights on 3 x 5: *4 (Figure 3.2.1 of the thesis).
//! let game = Placement::new(Board::Grid { rows: 3, cols: 5 }, vec![Piece::knight()], false).unwrap();
//! let ctl = Ctl::default();
//! assert_eq!(game.grundy(&game.start(), &ctl).unwrap(), 4);
//! // The first player wins by a move to a P-position.
//! let wins = game.winning_moves(&game.start(), &ctl).unwrap();
//! assert!(!wins.is_empty());
//! let after = game.play(&game.start(), wins[0]).unwrap();
//! assert_eq!(game.grundy(&after, &ctl).unwrap(), 0);
//! println!("{}", game.show(&after));
//! ```
pub(crate) mod bits;
mod graphs;
mod piece;
mod solve;
mod theory;

pub use bits::MAX_SQUARES;
pub use piece::{Part, Piece};
pub use theory::{
    Tour, domination_number, independence_number, independent_domination_number, piece_graph, tour,
};

use crate::engine::graph::Graph;
use crate::engine::winloss::{self, Table};
use crate::engine::{Ctl, Error, Result};
use bits::{B256, B512, Bits, Wide, set_of, with_wide};
use piece::{Grid, Reach};
use solve::{Blocking, Cx, Game};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

/// A board: a rectangular grid, a torus (attacks wrap round both ways), or a graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Board {
    /// `rows x cols` squares, numbered row-major from 0.
    Grid { rows: usize, cols: usize },
    /// A grid whose attacks wrap round both edges.
    Torus { rows: usize, cols: usize },
    /// A graph board: vertices are the squares; pieces are ignored (Node-Kayles).
    Graph(Graph),
}

impl Board {
    /// The number of squares, checked against [`MAX_SQUARES`].
    pub fn squares(&self) -> Result<usize> {
        let n = match self {
            Board::Grid { rows, cols } | Board::Torus { rows, cols } => {
                if *rows == 0 || *cols == 0 {
                    return Err(Error::invalid(
                        "a board needs at least one row and one column",
                    ));
                }
                rows.checked_mul(*cols).unwrap_or(usize::MAX)
            }
            Board::Graph(g) => g.vertex_count(),
        };
        if n > MAX_SQUARES {
            return Err(Error::limit(format!(
                "the placement engine takes boards of at most {MAX_SQUARES} squares; this one has {}",
                if n == usize::MAX {
                    "too many".to_string()
                } else {
                    n.to_string()
                }
            )));
        }
        Ok(n)
    }

    fn grid(&self) -> Option<Grid> {
        match *self {
            Board::Grid { rows, cols } => Some(Grid {
                rows,
                cols,
                torus: false,
            }),
            Board::Torus { rows, cols } => Some(Grid {
                rows,
                cols,
                torus: true,
            }),
            Board::Graph(_) => None,
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Board::Grid { rows, cols } => write!(f, "grid({rows}, {cols})"),
            Board::Torus { rows, cols } => write!(f, "torus({rows}, {cols})"),
            Board::Graph(g) => write!(f, "graph of {} vertices", g.vertex_count()),
        }
    }
}

/// A position: which piece (index into the game's piece list) stands on each square.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pos {
    cells: Vec<Option<u8>>,
}

impl Pos {
    /// The piece index on square `s`, if any.
    pub fn piece_at(&self, s: usize) -> Option<usize> {
        self.cells.get(s).copied().flatten().map(|p| p as usize)
    }
    /// The placed pieces as `(square, piece index)`, by square.
    pub fn placed(&self) -> Vec<(usize, usize)> {
        (0..self.cells.len())
            .filter_map(|s| self.piece_at(s).map(|p| (s, p)))
            .collect()
    }
    /// The number of squares of the board.
    pub fn squares(&self) -> usize {
        self.cells.len()
    }
}

/// A move: put piece `piece` (index into the game's piece list) on square `square`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub square: usize,
    pub piece: usize,
}

/// The outcome class of a position under normal play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// the previous player (the one who just moved) wins
    P,
    /// the next player (the one to move) wins
    N,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Outcome::P => "P",
            Outcome::N => "N",
        })
    }
}

struct Inner<B> {
    game: Option<Game<B>>,
    blocking: Option<Blocking<B>>,
    table: Mutex<Option<Arc<Table<B>>>>,
}

type Engine = Wide<Inner<u64>, Inner<u128>, Inner<B256>, Inner<B512>>;

/// Upper bound on the transposition table unless the memory budget is smaller.
const TABLE_CAP: u64 = 1 << 30;

impl<B: Bits> Inner<B> {
    fn build(
        reach: &[Vec<Reach>],
        blocking: bool,
        syms: &[Vec<usize>],
        stride: Option<usize>,
    ) -> Inner<B> {
        let n = reach.len();
        if blocking {
            let reach = reach
                .iter()
                .map(|rs| {
                    rs.iter()
                        .map(|r| (set_of::<B>(r.leaps.iter().copied()), r.rays.clone()))
                        .collect()
                })
                .collect();
            return Inner {
                game: None,
                blocking: Some(Blocking { reach }),
                table: Mutex::new(None),
            };
        }
        let masks: Vec<Vec<B>> = (0..n)
            .map(|s| {
                let mut ms: Vec<B> = vec![];
                for r in &reach[s] {
                    let mut m: B = set_of(r.leaps.iter().copied());
                    for ray in &r.rays {
                        for &t in ray {
                            m.set(t);
                        }
                    }
                    m.set(s);
                    if !ms.contains(&m) {
                        ms.push(m);
                    }
                }
                ms
            })
            .collect();
        let mut adj: Vec<B> = masks
            .iter()
            .map(|ms| ms.iter().fold(B::default(), |a, &m| a.or(m)))
            .collect();
        for s in 0..n {
            for t in adj[s].ones().collect::<Vec<_>>() {
                adj[t].set(s);
            }
        }
        let image = |m: B, p: &[usize]| -> B { set_of(m.ones().map(|i| p[i])) };
        // keep the symmetries that carry every square's masks onto the image square's masks
        let syms: Vec<Vec<u16>> = syms
            .iter()
            .filter(|p| p.iter().enumerate().any(|(i, &j)| i != j))
            .filter(|p| {
                (0..n).all(|s| {
                    let mut a: Vec<B> = masks[s].iter().map(|&m| image(m, p)).collect();
                    let mut b = masks[p[s]].clone();
                    a.sort();
                    b.sort();
                    a == b
                })
            })
            .map(|p| p.iter().map(|&x| x as u16).collect())
            .collect();
        let single = masks.iter().all(|m| m.len() == 1);
        let degree = adj.iter().map(|a| a.count() as f64 - 1.0).sum::<f64>() / n.max(1) as f64;
        let bytes = Game::<B>::byte_tables(n, &syms);
        let mirrors = Game::mirror_syms(&masks, &syms);
        let (small, small_loses) = solve::small_bound(degree, single);
        Inner {
            game: Some(Game {
                masks,
                adj,
                single,
                syms,
                stride,
                bytes,
                mirrors,
                small,
                small_loses,
                id: solve::game_id(),
            }),
            blocking: None,
            table: Mutex::new(None),
        }
    }

    fn table(&self, ctl: &Ctl, n: usize) -> Result<Arc<Table<B>>> {
        let mut t = self.table.lock().unwrap();
        if let Some(t) = &*t {
            return Ok(t.clone());
        }
        // the table grows as needed up to a quarter of the budget, at most 1 GB; small boards
        // never need much
        let want = (1u64 << n.min(40)).saturating_mul(64).max(1 << 16);
        let bytes = want.min(TABLE_CAP).min(ctl.memory() / 4);
        ctl.reserve(bytes, "the placement transposition table")?;
        let table = Arc::new(Table::new(bytes));
        *t = Some(table.clone());
        Ok(table)
    }

    fn grundy(&self, avail: &[usize], occ: &[usize], n: usize, ctl: &Ctl) -> Result<u32> {
        let a: B = set_of(avail.iter().copied());
        if let Some(g) = &self.game {
            let t = self.table(ctl, n)?;
            let task = ctl.task("placement game (positions)", None);
            winloss::value(g, &t, a, ctl, &task)
        } else {
            let b = self.blocking.as_ref().unwrap();
            let limit = (ctl.memory() / 4 / 64) as usize;
            let mut cx = Cx::new(ctl, "placement game, blocking (positions)");
            b.value(
                a,
                set_of(occ.iter().copied()),
                &mut HashMap::new(),
                limit,
                &mut cx,
            )
        }
    }

    /// See [`Placement::class_key`].
    fn class_key(&self, avail: &[usize], occ: &[usize]) -> Vec<u64> {
        let a: B = set_of(avail.iter().copied());
        match &self.game {
            Some(g) => g.canon(a).words().to_vec(),
            None => [a.words(), set_of::<B>(occ.iter().copied()).words()].concat(),
        }
    }

    /// Whether the player to move loses: a win/loss search for non-blocking games.
    fn loses(&self, avail: &[usize], occ: &[usize], n: usize, ctl: &Ctl) -> Result<bool> {
        match &self.game {
            Some(g) => {
                let t = self.table(ctl, n)?;
                let task = ctl.task("placement game (positions)", None);
                winloss::loses(g, &t, set_of(avail.iter().copied()), ctl, &task)
            }
            None => Ok(self.grundy(avail, occ, n, ctl)? == 0),
        }
    }

    /// Misère play: whether the player to move loses; `None` with blocking attacks.
    fn misere_loses(&self, avail: &[usize], ctl: &Ctl) -> Result<Option<bool>> {
        let Some(g) = &self.game else { return Ok(None) };
        let limit = (ctl.memory() / 4 / 64) as usize;
        let mut cx = Cx::new(ctl, "misère placement game (positions)");
        let a = set_of(avail.iter().copied());
        g.misere_loses(a, &mut HashMap::new(), limit, &mut cx)
            .map(Some)
    }

    fn play_length(&self, avail: &[usize], occ: &[usize], longest: bool, ctl: &Ctl) -> Result<u32> {
        let a: B = set_of(avail.iter().copied());
        let limit = (ctl.memory() / 4 / 64) as usize;
        let mut cx = Cx::new(ctl, "play length (positions)");
        if let Some(g) = &self.game {
            g.play_length(a, longest, &mut HashMap::new(), limit, &mut cx)
        } else {
            let b = self.blocking.as_ref().unwrap();
            let o = set_of(occ.iter().copied());
            b.play_length(a, o, longest, &mut HashMap::new(), limit, &mut cx)
        }
    }

    fn cached(&self) -> usize {
        self.table
            .lock()
            .unwrap()
            .as_ref()
            .map_or(0, |t| t.entries())
    }
}

/// A placement game on a board: the rules and a cache of component values that persists
/// between queries (keep the `Placement` to reuse it).
pub struct Placement {
    board: Board,
    pieces: Vec<Piece>,
    blocking: bool,
    n: usize,
    /// per square, per piece: what the piece attacks from there
    reach: Vec<Vec<Reach>>,
    engine: Engine,
}

impl fmt::Debug for Placement {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Placement({}, [", self.board)?;
        for (i, p) in self.pieces.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        write!(f, "], blocking: {})", self.blocking)
    }
}

/// Node-Kayles on a graph: same as `Placement::new(Board::Graph(g), vec![], false)`.
pub fn node_kayles(g: &Graph) -> Result<Placement> {
    Placement::new(Board::Graph(g.clone()), vec![], false)
}

impl Placement {
    /// The game of placing `pieces` on `board`. Grid and torus boards need at least one piece;
    /// on a graph board the pieces are ignored and the game is Node-Kayles. With `blocking`,
    /// sliding attacks stop at the first occupied square.
    pub fn new(board: Board, pieces: Vec<Piece>, blocking: bool) -> Result<Placement> {
        let n = board.squares()?;
        if n > u16::MAX as usize {
            return Err(Error::limit("board too large"));
        }
        let (reach, syms, stride, pieces) = match board.grid() {
            Some(grid) => {
                if pieces.is_empty() {
                    return Err(Error::invalid("a placement game needs at least one piece"));
                }
                if let Some(p) = pieces.iter().find(|p| p.has_null_part()) {
                    return Err(Error::invalid(format!(
                        "the piece {p} has a null step (0, 0)"
                    )));
                }
                if pieces.len() > 255 {
                    return Err(Error::limit("at most 255 kinds of piece"));
                }
                let reach: Vec<Vec<Reach>> = (0..n)
                    .map(|s| pieces.iter().map(|p| grid.reach(p, s)).collect())
                    .collect();
                (reach, grid.symmetries(), Some(grid.cols), pieces)
            }
            None => {
                let Board::Graph(g) = &board else {
                    unreachable!()
                };
                let adj = g.adjacency();
                let reach = adj
                    .into_iter()
                    .map(|nb| {
                        vec![Reach {
                            leaps: nb,
                            rays: vec![],
                        }]
                    })
                    .collect();
                (reach, vec![], None, vec![])
            }
        };
        // blocking only matters when something slides
        let blocking = blocking && pieces.iter().any(|p| p.slides());
        let engine = if n <= 64 {
            Engine::W64(Inner::build(&reach, blocking, &syms, stride))
        } else if n <= 128 {
            Engine::W128(Inner::build(&reach, blocking, &syms, stride))
        } else if n <= 256 {
            Engine::W256(Inner::build(&reach, blocking, &syms, stride))
        } else {
            Engine::W512(Inner::build(&reach, blocking, &syms, stride))
        };
        Ok(Placement {
            board,
            pieces,
            blocking,
            n,
            reach,
            engine,
        })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// The pieces (empty on a graph board).
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }
    /// Whether sliding attacks stop at occupied squares.
    pub fn blocking(&self) -> bool {
        self.blocking
    }
    /// The number of squares (vertices).
    pub fn squares(&self) -> usize {
        self.n
    }
    /// The number of piece kinds a move may choose from (1 on a graph board).
    fn kinds(&self) -> usize {
        self.pieces.len().max(1)
    }

    /// The square of row `r`, column `c` (both from 0) of a grid or torus.
    pub fn cell(&self, r: usize, c: usize) -> Option<usize> {
        let g = self.board.grid()?;
        (r < g.rows && c < g.cols).then_some(r * g.cols + c)
    }

    /// The empty board.
    pub fn start(&self) -> Pos {
        Pos {
            cells: vec![None; self.n],
        }
    }

    /// The position with the pieces `placed` as `(square, piece index)`, in any order: the
    /// inverse of [`Pos::placed`]. (Replaying them as moves by square may fail: a piece may be
    /// put where it attacks placed pieces, but not where they attack it.)
    pub fn position(&self, placed: &[(usize, usize)]) -> Result<Pos> {
        let mut pos = self.start();
        for &(s, p) in placed {
            if s >= self.n || p >= self.kinds() || pos.cells[s].is_some() {
                return Err(Error::invalid("the position does not belong to this game"));
            }
            pos.cells[s] = Some(p as u8);
        }
        Ok(pos)
    }

    /// What piece `p` on `s` attacks given the occupied squares.
    fn attacked_by(&self, s: usize, p: usize, occupied: &[bool], out: &mut [bool]) {
        let r = &self.reach[s][p];
        for &t in &r.leaps {
            out[t] = true;
        }
        for ray in &r.rays {
            for &t in ray {
                if self.blocking && occupied[t] {
                    break;
                }
                out[t] = true;
            }
        }
    }

    /// Which squares are neither occupied nor attacked.
    pub fn available(&self, pos: &Pos) -> Vec<bool> {
        let occupied: Vec<bool> = pos.cells.iter().map(|c| c.is_some()).collect();
        let mut dead = occupied.clone();
        for (s, p) in pos.placed() {
            self.attacked_by(s, p, &occupied, &mut dead);
        }
        dead.iter().map(|d| !d).collect()
    }

    fn check(&self, pos: &Pos) -> Result<()> {
        if pos.cells.len() != self.n || pos.placed().iter().any(|&(_, p)| p >= self.kinds()) {
            return Err(Error::invalid("the position does not belong to this game"));
        }
        Ok(())
    }

    /// The legal moves, by square then piece.
    pub fn moves(&self, pos: &Pos) -> Vec<Move> {
        let av = self.available(pos);
        let mut out = vec![];
        for (s, &a) in av.iter().enumerate() {
            if a {
                for piece in 0..self.kinds() {
                    out.push(Move { square: s, piece });
                }
            }
        }
        out
    }

    /// The position after `mv`, or an error if it is not legal.
    pub fn play(&self, pos: &Pos, mv: Move) -> Result<Pos> {
        self.check(pos)?;
        if mv.square >= self.n || mv.piece >= self.kinds() || !self.available(pos)[mv.square] {
            return Err(Error::invalid(format!(
                "square {} is not free for a piece",
                mv.square
            )));
        }
        let mut out = pos.clone();
        out.cells[mv.square] = Some(mv.piece as u8);
        Ok(out)
    }

    /// The options of `pos`, in the order of [`Placement::moves`].
    pub fn options(&self, pos: &Pos) -> Vec<Pos> {
        self.moves(pos)
            .into_iter()
            .map(|mv| {
                let mut out = pos.clone();
                out.cells[mv.square] = Some(mv.piece as u8);
                out
            })
            .collect()
    }

    /// True when no move is left.
    pub fn is_terminal(&self, pos: &Pos) -> bool {
        !self.available(pos).contains(&true)
    }

    fn sets(&self, pos: &Pos) -> (Vec<usize>, Vec<usize>) {
        let av = self.available(pos);
        let avail = (0..self.n).filter(|&s| av[s]).collect();
        let occ = (0..self.n).filter(|&s| pos.cells[s].is_some()).collect();
        (avail, occ)
    }

    /// A key that positions of equal value share: the free squares up to the board's
    /// symmetries and translations, as the search keys them (with blocking attacks, the free
    /// and the occupied squares).
    pub fn class_key(&self, pos: &Pos) -> Vec<u64> {
        let (avail, occ) = self.sets(pos);
        with_wide!(&self.engine, e => e.class_key(&avail, &occ))
    }

    /// The nimber of `pos` (normal play).
    pub fn grundy(&self, pos: &Pos, ctl: &Ctl) -> Result<u32> {
        self.check(pos)?;
        let (avail, occ) = self.sets(pos);
        with_wide!(&self.engine, e => e.grundy(&avail, &occ, self.n, ctl))
    }

    /// The outcome class of `pos` (normal play).
    pub fn outcome(&self, pos: &Pos, ctl: &Ctl) -> Result<Outcome> {
        self.check(pos)?;
        let (avail, occ) = self.sets(pos);
        Ok(
            if with_wide!(&self.engine, e => e.loses(&avail, &occ, self.n, ctl))? {
                Outcome::P
            } else {
                Outcome::N
            },
        )
    }

    /// The outcome class of `pos` under misère play, by a search of whole positions; `None`
    /// with blocking attacks (the generic search of sums answers those).
    pub fn misere_outcome(&self, pos: &Pos, ctl: &Ctl) -> Result<Option<Outcome>> {
        self.check(pos)?;
        let (avail, _) = self.sets(pos);
        Ok(with_wide!(&self.engine, e => e.misere_loses(&avail, ctl))?
            .map(|l| if l { Outcome::P } else { Outcome::N }))
    }

    /// Every move with the nimber of the position it leads to.
    pub fn moves_with_values(&self, pos: &Pos, ctl: &Ctl) -> Result<Vec<(Move, u32)>> {
        self.grundy(pos, ctl)?; // fills the cache with the first level, in parallel
        let mut out = vec![];
        for mv in self.moves(pos) {
            let next = self.play(pos, mv)?;
            out.push((mv, self.grundy(&next, ctl)?));
        }
        Ok(out)
    }

    /// The moves to P-positions (empty when `pos` is a P-position).
    pub fn winning_moves(&self, pos: &Pos, ctl: &Ctl) -> Result<Vec<Move>> {
        let mut out = vec![];
        for mv in self.moves(pos) {
            if self.outcome(&self.play(pos, mv)?, ctl)? == Outcome::P {
                out.push(mv);
            }
        }
        Ok(out)
    }

    /// The fewest moves a play from `pos` can last (a smallest terminal extension; from the
    /// start of a one-piece game, the independent domination number of the attack graph).
    pub fn shortest_play(&self, pos: &Pos, ctl: &Ctl) -> Result<u32> {
        self.check(pos)?;
        let (avail, occ) = self.sets(pos);
        with_wide!(&self.engine, e => e.play_length(&avail, &occ, false, ctl))
    }

    /// The most moves a play from `pos` can last (from the start of a one-piece game, the
    /// independence number of the attack graph).
    pub fn longest_play(&self, pos: &Pos, ctl: &Ctl) -> Result<u32> {
        self.check(pos)?;
        let (avail, occ) = self.sets(pos);
        with_wide!(&self.engine, e => e.play_length(&avail, &occ, true, ctl))
    }

    /// How many component values the cache holds.
    pub fn cached_values(&self) -> usize {
        with_wide!(&self.engine, e => e.cached())
    }

    /// The bytes the cache of component values takes.
    pub fn cache_bytes(&self) -> u64 {
        with_wide!(&self.engine, e => e.table.lock().unwrap().as_ref().map_or(0, |t| t.bytes()))
    }

    /// Drops the cache of component values.
    pub fn clear_cache(&self) {
        with_wide!(&self.engine, e => *e.table.lock().unwrap() = None)
    }

    /// The union attack graph (neighbours of each square, increasing): two squares are adjacent
    /// when some listed piece on one attacks the other (with attacks passing through pieces).
    pub fn attack_graph(&self) -> Vec<Vec<usize>> {
        let mut adj = vec![vec![false; self.n]; self.n];
        for (s, rs) in self.reach.iter().enumerate() {
            for r in rs {
                for &t in r.leaps.iter().chain(r.rays.iter().flatten()) {
                    adj[s][t] = true;
                    adj[t][s] = true;
                }
            }
        }
        adj.iter()
            .map(|row| (0..self.n).filter(|&t| row[t]).collect())
            .collect()
    }

    fn letter(&self, p: usize) -> char {
        match self.pieces.get(p) {
            None => '#',
            Some(piece) => {
                let own = piece.letter();
                let unique =
                    own.is_some() && self.pieces.iter().filter(|q| q.letter() == own).count() == 1;
                if unique {
                    own.unwrap()
                } else {
                    (b'A' + (p % 26) as u8) as char
                }
            }
        }
    }

    /// A picture of the position (.svg or .png), drawn as `show` draws it: each piece, the
    /// squares it attacks (on a graph, the chosen vertices' neighbours) and the free squares
    /// shaded apart.
    pub fn picture(&self, pos: &Pos, title: &str, path: &str) -> std::result::Result<(), String> {
        let av = self.available(pos);
        let kinds = self.pieces.len().max(1);
        let cells: Vec<u8> = (0..self.n)
            .map(|s| match pos.piece_at(s) {
                Some(p) => 1 + p.min(kinds - 1) as u8,
                None if av[s] => 0,
                None => 1 + kinds as u8,
            })
            .collect();
        let mut states = vec!["free".to_string()];
        let mut letters = vec![String::new()];
        match &self.board {
            Board::Graph(_) => {
                states.push("chosen".into());
                letters.push("c".into());
            }
            _ => {
                for (p, piece) in self.pieces.iter().enumerate() {
                    states.push(piece.name().to_string());
                    letters.push(self.letter(p).to_string());
                }
            }
        }
        states.push("attacked".into());
        letters.push("x".into());
        let (names, adj, grid) = match &self.board {
            Board::Grid { rows, cols } | Board::Torus { rows, cols } => {
                (vec![], vec![], Some((*rows, *cols)))
            }
            Board::Graph(g) => (g.names.clone(), g.adjacency(), None),
        };
        let b = crate::engine::board::picture::Board {
            names: &names,
            adj: &adj,
            grid,
            states: &states,
            letters: &letters,
            cells: &cells,
        };
        crate::engine::board::picture::picture(&b, title, path)
    }

    /// A text drawing: on grids one line per row, `.` a free square, `x` an attacked empty
    /// square, a letter for a piece (N K R B Q W for the standard ones, else A, B, ... by
    /// position in the piece list). On graph boards one line per vertex.
    pub fn show(&self, pos: &Pos) -> String {
        let av = self.available(pos);
        let mark = |s: usize| match pos.piece_at(s) {
            Some(p) => self.letter(p),
            None if av[s] => '.',
            None => 'x',
        };
        match &self.board {
            Board::Grid { rows, cols } | Board::Torus { rows, cols } => {
                let mut out = String::new();
                for r in 0..*rows {
                    let line: Vec<String> =
                        (0..*cols).map(|c| mark(r * cols + c).to_string()).collect();
                    out.push_str(&line.join(" "));
                    out.push('\n');
                }
                out
            }
            Board::Graph(g) => {
                let mut out = String::new();
                for (v, name) in g.names.iter().enumerate() {
                    let state = match mark(v) {
                        '.' => "free",
                        'x' => "blocked",
                        _ => "chosen",
                    };
                    out.push_str(&format!("{name}: {state}\n"));
                }
                out
            }
        }
    }
}
