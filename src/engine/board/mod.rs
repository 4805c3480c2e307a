//! Board games by rules: the generic engine the language's `game ... on board` compiles to.
//!
//! Each cell of a board holds one of a few states (at most [`MAX_STATES`]). A move is a list of
//! conditions (every cell of a set is in one of some states; some cell of a set is) and of
//! changes (these cells, those in one of these states, take that state), compiled once to
//! bitsets; a move must change some cell. A position where an end condition holds has no moves
//! (the player who made it wins under normal play). When a cell may come back to a state it
//! left only by a move that also surely puts some cell in a state it can never come back from,
//! every play ends (the rules are monotone), and the search (`solve`) is the win/loss search of
//! `engine::winloss` over independent components, keyed under the board symmetries that
//! preserve the rules: a nimber by the heap-sum reduction, an outcome by one win/loss search. A
//! partizan game (moves for Left or Right only) gets canonical forms from the partizan search
//! instead (`partizan`). Other rules (Konane, whose jumps empty cells that were filled) are
//! searched by the plain search over whole boards (`plain`), which reports the line of play of
//! a loop it meets. `picture` draws a position.
//!
//! Cram on the 2 x 3 board: two states, a move fills two adjacent empty cells.
//! ```
//! use gamut::engine::Ctl;
//! use gamut::engine::board::{BoardGame, Move, Rules, grid_adjacency};
//! let adj = grid_adjacency(2, 3, false);
//! let mut moves = vec![];
//! for c in 0..6 {
//!     for &d in &adj[c] {
//!         let need = vec![(vec![c, d], 1)];
//!         moves.push(Move { need, some: vec![], change: vec![(vec![c, d], 3, 1)], label: vec![c, d] });
//!     }
//! }
//! let rules = Rules { cells: 6, states: 2, moves, ends: vec![], syms: vec![], swap: None, cols: Some(3) };
//! let game = BoardGame::new(rules).unwrap();
//! assert_eq!(game.grundy(&[0; 6], &Ctl::default()).unwrap(), 1);
//! ```
mod partizan;
pub mod picture;
mod plain;
mod solve;

pub use partizan::{BOTH, LEFT, RIGHT};
pub use solve::MAX_STATES;

use crate::engine::placement::bits::{B256, B512, Bits, Wide, set_of, with_wide};
use crate::engine::winloss::{self, Table};
use crate::engine::{Ctl, Error, Result};
use solve::{Cond, Game, Mv, Pos};
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// The largest board the engine takes.
pub const MAX_CELLS: usize = 256;

/// A move with the cells it was made for. States are numbered from 0 and sets of states are
/// bit sets (bit s for state s).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// (cells, states): each cell must be in one of the states
    pub need: Vec<(Vec<usize>, u8)>,
    /// each must hold: some cell of one of its sets is in one of that set's states
    pub some: Vec<AnyOf>,
    /// (cells, from, to), applied in order: those of the cells in a state of `from` take `to`
    pub change: Vec<(Vec<usize>, u8, u8)>,
    /// the cells the rule's variables were bound to, to name the move
    pub label: Vec<usize>,
}

/// Pairs (cells, states) of which some cell is in one of its states: a "some" condition. The
/// states may differ from set to set (an edge pointing into a vertex is one state or the other
/// by the way the edge is numbered).
pub type AnyOf = Vec<(Vec<usize>, u8)>;

/// A condition that ends the game: every cell of each `need` set is in one of its states, and
/// each `some` condition holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct End {
    pub need: Vec<(Vec<usize>, u8)>,
    pub some: Vec<AnyOf>,
}

/// Sorted cells, merged by state set: equal conditions compare equal.
fn normal_sets(sets: &[(Vec<usize>, u8)]) -> Vec<(Vec<usize>, u8)> {
    let mut by: BTreeMap<u8, Vec<usize>> = BTreeMap::new();
    for (cells, t) in sets {
        by.entry(*t).or_default().extend(cells);
    }
    by.into_iter()
        .map(|(t, mut c)| {
            c.sort_unstable();
            c.dedup();
            // merged lists of repeated cells keep no room for them
            c.shrink_to_fit();
            (c, t)
        })
        .filter(|(c, _)| !c.is_empty())
        .collect()
}

fn normal_some(some: &[AnyOf]) -> Vec<AnyOf> {
    let mut out: Vec<AnyOf> = some.iter().map(|s| normal_sets(s)).collect();
    out.sort();
    out.dedup();
    out
}

impl End {
    fn normal(&self) -> End {
        End {
            need: normal_sets(&self.need),
            some: normal_some(&self.some),
        }
    }

    /// The same condition with cells sorted and merged by state set.
    pub fn compact(self) -> End {
        self.normal()
    }

    /// An estimate of the memory the condition takes, as [`Move::compile_bytes`].
    pub fn compile_bytes(&self, cells: usize) -> u64 {
        let given = 48 + sets_bytes(&self.need) + some_bytes(&self.some);
        let pairs = self.need.len() + self.some.iter().map(Vec::len).sum::<usize>();
        compiled_bytes(given, cells, pairs, self.some.len() + 2, 0)
    }
}

/// Bytes of a list of `len` items of `item` bytes: its header, its items and the allocator's
/// share.
fn list_bytes(len: usize, item: usize) -> u64 {
    40 + (len as u64).saturating_mul(item as u64)
}

/// Bytes of (cells, states) pairs as given.
fn sets_bytes(s: &[(Vec<usize>, u8)]) -> u64 {
    s.iter()
        .fold(list_bytes(s.len(), 32), |a, x| a + list_bytes(x.0.len(), 8))
}

fn some_bytes(some: &[AnyOf]) -> u64 {
    some.iter()
        .fold(list_bytes(some.len(), 24), |a, x| a + sets_bytes(x))
}

/// Bytes of a compiled bit set on a board of `cells` cells.
fn bits_bytes(cells: usize) -> u64 {
    match cells {
        0..=64 => 8,
        65..=128 => 16,
        _ => 32,
    }
}

/// The memory a condition (`need`, `some`) takes from the rules to the compiled game, besides
/// the `given` bytes of the rule itself: the engine keeps a copy and a normal form (with a
/// hash table's share), and compiles each (cells, states) pair to a bit set.
fn compiled_bytes(given: u64, cells: usize, pairs: usize, lists: usize, cell_refs: usize) -> u64 {
    let w = bits_bytes(cells);
    (3 * given + 64)
        .saturating_add((pairs as u64).saturating_mul(w + 8))
        .saturating_add((lists as u64).saturating_mul(40) + 6 * w + 96)
        // a move's place in the lists by cell, and the steps of its changes
        .saturating_add((cell_refs as u64).saturating_mul(8))
}

impl Move {
    /// The same move in a normal form: cells sorted, conditions merged by state set, equal
    /// consecutive changes merged (it takes less memory, and equal moves compare equal).
    pub fn compact(self) -> Move {
        let (need, some, change) = self.normal();
        Move {
            need,
            some,
            change,
            label: self.label,
        }
    }

    /// An estimate, on the generous side, of the memory the move takes from the rules to the
    /// compiled game ([`BoardGame::with_sides`]) on a board of `cells` cells: the move as
    /// given, the engine's copies of it, its bit sets and its place in the lists by cell.
    pub fn compile_bytes(&self, cells: usize) -> u64 {
        let given = std::mem::size_of::<Move>() as u64
            + sets_bytes(&self.need)
            + some_bytes(&self.some)
            + list_bytes(self.change.len(), 32)
            + self
                .change
                .iter()
                .map(|x| list_bytes(x.0.len(), 8))
                .sum::<u64>()
            + list_bytes(self.label.len(), 8);
        let pairs = self.need.len() + self.some.iter().map(Vec::len).sum::<usize>();
        let refs = self.need.iter().map(|x| x.0.len()).sum::<usize>()
            + self.some.iter().flatten().map(|x| x.0.len()).sum::<usize>()
            + self.change.iter().map(|x| x.0.len()).sum::<usize>();
        compiled_bytes(
            given,
            cells,
            pairs + self.change.len(),
            self.some.len() + 3,
            refs,
        )
    }

    /// The state changes the move can make, as (states the cell may be in, states it leaves
    /// if in them, state it takes), one per cell changed: a cell's conditions narrow the states
    /// it can be in until a change touches it.
    fn steps(&self, all: u8) -> Vec<(u8, u8, u8)> {
        let mut out = vec![];
        let mut touched = HashSet::new();
        for (cells, f, t) in &self.change {
            for x in cells {
                let known = if touched.insert(x) {
                    self.need
                        .iter()
                        .filter(|n| n.0.contains(x))
                        .fold(all, |a, n| a & n.1)
                } else {
                    all
                };
                out.push((known, *f, *t));
            }
        }
        out
    }

    /// Sorted cells, conditions merged by state set and equal consecutive changes merged, so
    /// that equal moves compare equal.
    fn normal(&self) -> Normal {
        let need = normal_sets(&self.need);
        let mut change: Vec<(Vec<usize>, u8, u8)> = vec![];
        for (cells, f, t) in &self.change {
            match change.last_mut() {
                Some(last) if last.1 == *f && last.2 == *t => last.0.extend(cells),
                _ => change.push((cells.clone(), *f, *t)),
            }
        }
        for c in &mut change {
            c.0.sort_unstable();
            c.0.dedup();
            c.0.shrink_to_fit();
        }
        (need, normal_some(&self.some), change)
    }
}

/// The rules of a game on a board of `cells` cells.
pub struct Rules {
    pub cells: usize,
    pub states: usize,
    pub moves: Vec<Move>,
    /// a position where one of these holds is over: it has no moves
    pub ends: Vec<End>,
    /// symmetries of the board; those that preserve the moves and end conditions are used
    pub syms: Vec<Sym>,
    /// two states a symmetry trades on the cells it turns (the two directions of an edge)
    pub swap: Option<(u8, u8)>,
    /// the number of columns of a grid board (cells row by row): keys are translated to the
    /// corner when the moves are translation-invariant
    pub cols: Option<usize>,
}

/// A symmetry of the board: cell `i` goes to `cells[i]`, and on the cells `turned` (numbered
/// before the map) the two states of [`Rules::swap`] trade places.
#[derive(Clone, Debug, Default)]
pub struct Sym {
    pub cells: Vec<usize>,
    pub turned: Vec<usize>,
}

impl Sym {
    /// A symmetry that permutes cells and turns none.
    pub fn map(cells: Vec<usize>) -> Sym {
        Sym {
            cells,
            turned: vec![],
        }
    }

    /// The images of `cells`: those that keep their states, and those that turn.
    fn split(&self, cells: &[usize]) -> [Vec<usize>; 2] {
        let (turned, kept): (Vec<usize>, Vec<usize>) =
            cells.iter().partition(|x| self.turned.contains(x));
        [kept, turned].map(|c| c.iter().map(|&x| self.cells[x]).collect())
    }

    /// The image of (cells, states) pairs: a pair splits where some of its cells turn.
    fn sets(&self, s: &[(Vec<usize>, u8)], swap: Option<(u8, u8)>) -> Vec<(Vec<usize>, u8)> {
        let mut out = vec![];
        for (c, t) in s {
            let [kept, turned] = self.split(c);
            out.push((kept, *t));
            out.push((turned, swap.map_or(*t, |(a, b)| swap_bits(*t, a, b))));
        }
        out
    }

    /// The image of a move's changes.
    fn change(
        &self,
        ch: &[(Vec<usize>, u8, u8)],
        swap: Option<(u8, u8)>,
    ) -> Vec<(Vec<usize>, u8, u8)> {
        let mut out = vec![];
        for (c, from, to) in ch {
            let [kept, turned] = self.split(c);
            out.push((kept, *from, *to));
            let (from, to) = match swap {
                Some((a, b)) => (
                    swap_bits(*from, a, b),
                    swap_bits(1 << to, a, b).trailing_zeros() as u8,
                ),
                None => (*from, *to),
            };
            out.push((turned, from, to));
        }
        out.retain(|x| !x.0.is_empty());
        out
    }
}

/// The cells that changes (applied in order) take out of the state `e`, cells in `e` that
/// leave it never coming back.
fn takes<B: Bits>(change: &[(B, u8, u8)], e: u8) -> B {
    change.iter().fold(B::default(), |out, &(c, from, to)| {
        if from >> e & 1 == 1 && to != e {
            out.or(c)
        } else {
            out
        }
    })
}

/// The state set `t` with states `a` and `b` traded.
fn swap_bits(t: u8, a: u8, b: u8) -> u8 {
    let (x, y) = (t >> a & 1, t >> b & 1);
    t & !(1 << a | 1 << b) | x << b | y << a
}

/// The neighbours of each cell of a grid (or torus) board, cells numbered row by row.
pub fn grid_adjacency(rows: usize, cols: usize, torus: bool) -> Vec<Vec<usize>> {
    let mut adj = vec![vec![]; rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            let s = r * cols + c;
            for (dr, dc) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
                let (mut r2, mut c2) = (r as i64 + dr, c as i64 + dc);
                if torus {
                    r2 = r2.rem_euclid(rows as i64);
                    c2 = c2.rem_euclid(cols as i64);
                }
                if (0..rows as i64).contains(&r2) && (0..cols as i64).contains(&c2) {
                    let t = r2 as usize * cols + c2 as usize;
                    if t != s && !adj[s].contains(&t) {
                        adj[s].push(t);
                    }
                }
            }
        }
    }
    adj
}

struct Inner<B> {
    game: Game<B>,
    table: Mutex<Option<Arc<Table<Pos<B>>>>>,
    /// canonical forms of the components of a partizan game, as ids of the caller's store
    values: Mutex<HashMap<Pos<B>, crate::engine::partizan::Game>>,
    /// nimbers of whole boards found by the plain search (rules not shown to end)
    nimbers: Mutex<HashMap<Pos<B>, u32, foldhash::fast::FixedState>>,
}

/// Boards past 256 cells are refused ([`MAX_CELLS`]): the widest set is never built here.
type Engine = Wide<Inner<u64>, Inner<u128>, Inner<B256>, Inner<B512>>;

/// Upper bound on the transposition table unless the memory budget is smaller.
const TABLE_CAP: u64 = 1 << 30;

impl<B: Bits> Inner<B> {
    fn build(
        r: &Rules,
        moves: &[Move],
        syms: &[Sym],
        stride: Option<usize>,
        reach: &[u8],
        ctl: &Ctl,
    ) -> Result<Inner<B>> {
        let all = (1u8 << r.states) - 1;
        let mut can = [0u8; 1 << MAX_STATES];
        for (t, c) in can.iter_mut().enumerate() {
            *c = (0..r.states)
                .filter(|&u| reach[u] & t as u8 != 0)
                .fold(0, |a, u| a | 1 << u);
        }
        // the one state every condition asks for, none comes back to, no end or "some"
        // condition reads and no symmetry trades for another
        let asked: HashSet<u8> = moves
            .iter()
            .flat_map(|m| &m.need)
            .map(|x| x.1 & all)
            .collect();
        let empty = match asked.into_iter().collect::<Vec<u8>>()[..] {
            [t] if t.is_power_of_two() && can[t as usize] == t => Some(t.trailing_zeros() as u8),
            _ => None,
        }
        .filter(|&e| {
            r.ends.is_empty()
                && moves.iter().all(|m| m.some.is_empty())
                && r.swap.is_none_or(|(a, b)| e != a && e != b)
        });
        let sets = |s: &[(Vec<usize>, u8)]| -> Vec<(B, u8)> {
            s.iter()
                .map(|(c, t)| (set_of(c.iter().copied()), *t))
                .collect()
        };
        let some = |s: &[AnyOf]| -> Vec<Vec<(B, u8)>> { s.iter().map(|a| sets(a)).collect() };
        let cells_of = |c: &[(B, u8)]| c.iter().fold(B::default(), |a, x| a.or(x.0));
        let mvs = moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                poll(ctl, i)?;
                let need = sets(&m.need);
                let some = some(&m.some);
                let change: Vec<(B, u8, u8)> = m
                    .change
                    .iter()
                    .map(|(c, f, t)| (set_of(c.iter().copied()), f & all, *t))
                    .collect();
                let needs = some.iter().fold(cells_of(&need), |a, x| a.or(cells_of(x)));
                let writes = change.iter().fold(B::default(), |a, x| a.or(x.0));
                // a move must change a cell: it reads the cells it writes unless a condition
                // already makes one of them change
                let sure = need.iter().any(|&(c, t)| {
                    change
                        .iter()
                        .any(|&(w, f, to)| !c.and(w).is_empty() && t & !f == 0 && t >> to & 1 == 0)
                });
                let reads = if sure { needs } else { needs.or(writes) };
                Ok(Mv {
                    takes: empty.map_or(B::default(), |e| takes(&change, e)),
                    need,
                    some,
                    change,
                    reads,
                    foot: reads.or(writes),
                })
            })
            .collect::<Result<Vec<Mv<B>>>>()?;
        // positions are sets of empty cells when every move takes one of its cells out of the
        // empty state, and reads only those (conditions narrow a cell to `empty`)
        let empty = empty.filter(|_| {
            mvs.iter().all(|m| {
                let need = cells_of(&m.need);
                m.reads == need && !m.takes.and(need).is_empty()
            })
        });
        let (mut by_low, mut touch) = (vec![vec![]; r.cells], vec![vec![]; r.cells]);
        for (i, m) in mvs.iter().enumerate() {
            // a move that reads no cell changes none: it is never made
            if !m.reads.is_empty() {
                by_low[m.reads.lowest()].push(i as u32);
                for c in m.foot.ones() {
                    touch[c].push(i as u32);
                }
            }
        }
        let ends = r
            .ends
            .iter()
            .map(|e| {
                let (need, some) = (sets(&e.need), some(&e.some));
                let cells = some.iter().fold(cells_of(&need), |a, x| a.or(cells_of(x)));
                Cond { need, some, cells }
            })
            .collect();
        let syms: Vec<&Sym> = syms
            .iter()
            .filter(|p| !p.turned.is_empty() || p.cells.iter().enumerate().any(|(i, &j)| i != j))
            .collect();
        let turned = syms
            .iter()
            .map(|p| set_of(p.turned.iter().map(|&x| p.cells[x])))
            .collect();
        let bytes = syms
            .iter()
            .map(|p| {
                (0..r.cells.div_ceil(8))
                    .map(|k| {
                        std::array::from_fn(|v| {
                            let mut out = B::default();
                            for b in 0..8 {
                                let i = 8 * k + b;
                                if v >> b & 1 == 1 && i < r.cells {
                                    out.set(p.cells[i]);
                                }
                            }
                            out
                        })
                    })
                    .collect()
            })
            .collect();
        Ok(Inner {
            game: Game {
                states: r.states,
                moves: mvs,
                by_low,
                touch,
                empty,
                id: solve::game_id(),
                ends,
                can,
                bytes,
                turned,
                swap: r.swap,
                stride,
            },
            table: Mutex::new(None),
            values: Mutex::default(),
            nimbers: Mutex::default(),
        })
    }

    fn pos(&self, p: &[u8]) -> Pos<B> {
        let mut out: Pos<B> = Default::default();
        for (i, &s) in p.iter().enumerate() {
            out[s as usize].set(i);
        }
        out
    }

    fn cells(&self, p: &Pos<B>, n: usize) -> Vec<u8> {
        (0..n)
            .map(|i| (0..MAX_STATES).find(|&s| p[s].test(i)).unwrap_or(0) as u8)
            .collect()
    }

    fn table(&self, ctl: &Ctl, n: usize) -> Result<Arc<Table<Pos<B>>>> {
        let mut t = self.table.lock().unwrap();
        if let Some(t) = &*t {
            return Ok(t.clone());
        }
        // a position per state of each cell, at most
        let positions = (self.game.states as u64).saturating_pow(n as u32);
        let entry = std::mem::size_of::<Pos<B>>() as u64 + 8;
        let want = positions.saturating_mul(entry);
        let bytes = want.clamp(1 << 16, TABLE_CAP).min(ctl.memory() / 4);
        ctl.reserve(bytes, "the board game's transposition table")?;
        let table = Arc::new(Table::new(bytes));
        *t = Some(table.clone());
        Ok(table)
    }
}

/// A game on a board by rules, with a table of what is known of its components (values, and
/// heaps a component's value is not) kept between queries.
pub struct BoardGame {
    n: usize,
    states: usize,
    moves: Vec<Move>,
    /// per move, the players who may make it ([`LEFT`], [`RIGHT`] bits)
    sides: Vec<u8>,
    engine: Engine,
    /// whether the rules were shown to end (see [`BoardGame::is_monotone`])
    monotone: bool,
    /// the line of play of the last loop a search met, for [`BoardGame::take_cycle`]
    cycle: Mutex<Option<Vec<Vec<u8>>>>,
}

impl BoardGame {
    /// An impartial game: every move is for both players.
    pub fn new(r: Rules) -> Result<BoardGame> {
        let sides = vec![BOTH; r.moves.len()];
        BoardGame::with_sides(r, &sides, &Ctl::default())
    }

    /// A game whose move `i` is for the players `sides[i]` ([`LEFT`], [`RIGHT`] or [`BOTH`]):
    /// partizan unless every move is for both. Compiling keeps to the memory budget of `ctl`
    /// and stops when it is cancelled.
    pub fn with_sides(r: Rules, sides: &[u8], ctl: &Ctl) -> Result<BoardGame> {
        if sides.len() != r.moves.len() || sides.iter().any(|&s| s & BOTH == 0 || s > BOTH) {
            return Err(Error::invalid("each move is for Left, Right or both"));
        }
        if r.cells == 0 || r.cells > MAX_CELLS {
            return Err(Error::limit(format!(
                "the board engine takes boards of 1 to {MAX_CELLS} cells; this one has {}",
                r.cells
            )));
        }
        if r.states == 0 || r.states > MAX_STATES {
            return Err(Error::limit(format!(
                "a board game has 1 to {MAX_STATES} cell states, not {}",
                r.states
            )));
        }
        let bad_state = |t: u8| t as usize >= r.states;
        let conds = |need: &[(Vec<usize>, u8)], some: &[AnyOf]| -> Vec<(Vec<usize>, u8)> {
            need.iter().chain(some.iter().flatten()).cloned().collect()
        };
        let bad_cond = |c: &[(Vec<usize>, u8)]| {
            c.iter()
                .any(|(cells, t)| t >> r.states != 0 || cells.iter().any(|&x| x >= r.cells))
        };
        if r.ends.iter().any(|e| bad_cond(&conds(&e.need, &e.some))) {
            return Err(Error::invalid(
                "an end condition names a cell or state the board lacks",
            ));
        }
        for m in &r.moves {
            if bad_cond(&conds(&m.need, &m.some))
                || m.change.iter().flat_map(|x| &x.0).any(|&c| c >= r.cells)
                || m.change.iter().any(|x| bad_state(x.2))
            {
                return Err(Error::invalid(
                    "a move names a cell or state the board lacks",
                ));
            }
        }
        let bytes = r.moves.iter().map(|m| m.compile_bytes(r.cells));
        let bytes = bytes.chain(r.ends.iter().map(|e| e.compile_bytes(r.cells)));
        let bytes = bytes.fold(0u64, u64::saturating_add);
        ctl.reserve(bytes, "compiling the board game's rules")
            .map_err(|e| e.hint(COMPILE_HINT))?;
        let all = (1u8 << r.states) - 1;
        let steps: Vec<Vec<(u8, u8, u8)>> = r.moves.iter().map(|m| m.steps(all)).collect();
        let mut edges = vec![0u8; r.states];
        for &(k, f, t) in steps.iter().flatten() {
            for (u, e) in edges.iter_mut().enumerate() {
                if (k & f) >> u & 1 == 1 && u != t as usize {
                    *e |= 1 << t;
                }
            }
        }
        let mut closure = edges.clone();
        for _ in 0..r.states {
            for u in 0..r.states {
                for v in 0..r.states {
                    if closure[u] >> v & 1 == 1 {
                        closure[u] |= closure[v];
                    }
                }
            }
        }
        // every play ends when each move that may bring a cell back to a state it left also
        // surely moves some cell to a state it can never come back from (a capture empties a
        // cell): ranking the states' cycles in order, the sum of the cells' ranks then falls
        // at every move
        let cycle =
            |u: usize, t: usize| u == t || closure[u] >> t & 1 == 1 && closure[t] >> u & 1 == 1;
        let loops = steps.iter().any(|st| {
            let back = st.iter().any(|&(k, f, t)| {
                (0..r.states)
                    .any(|u| (k & f) >> u & 1 == 1 && u != t as usize && cycle(u, t as usize))
            });
            let on = st.iter().any(|&(k, f, t)| {
                k != 0
                    && k & !f == 0
                    && (0..r.states).all(|u| k >> u & 1 == 0 || !cycle(u, t as usize))
            });
            back && !on
        });
        // one move per distinct effect, in the order written, for the players of all its lines
        let mut at: HashMap<Normal, usize> = HashMap::new();
        let (mut moves, mut move_sides): (Vec<Move>, Vec<u8>) = (vec![], vec![]);
        for (i, (m, &s)) in r.moves.iter().zip(sides).enumerate() {
            poll(ctl, i)?;
            match at.entry(m.normal()) {
                Entry::Occupied(e) => move_sides[*e.get()] |= s,
                Entry::Vacant(e) => {
                    e.insert(moves.len());
                    moves.push(m.clone());
                    move_sides.push(s);
                }
            }
        }
        let seen: HashSet<(u8, Normal)> = at.into_iter().map(|(m, i)| (move_sides[i], m)).collect();
        let ends: HashSet<End> = r.ends.iter().map(End::normal).collect();
        let mut syms: Vec<Sym> = vec![];
        for p in &r.syms {
            if p.cells.len() == r.cells && preserves(&seen, &ends, p, r.swap, ctl)? {
                syms.push(p.clone());
            }
        }
        // the images of each byte of a set, per symmetry (see `Inner::build`)
        let tables = (syms.len() as u64)
            .saturating_mul(r.cells.div_ceil(8) as u64 * 256 * bits_bytes(r.cells));
        ctl.reserve(
            bytes.saturating_add(tables),
            "compiling the board game's rules and symmetries",
        )
        .map_err(|e| e.hint(COMPILE_HINT))?;
        // a translated component keeps its moves only when no condition reaches outside it
        let local = ends.is_empty() && moves.iter().all(|m| m.some.is_empty());
        let stride = match r.cols {
            Some(w) if local && translates(&seen, r.cells, w, ctl)? => Some(w),
            _ => None,
        };
        // reach[u]: the states a cell in state u can come to (u itself included)
        let reach: Vec<u8> = (0..r.states).map(|u| closure[u] | 1 << u).collect();
        let engine = if r.cells <= 64 {
            Engine::W64(Inner::build(&r, &moves, &syms, stride, &reach, ctl)?)
        } else if r.cells <= 128 {
            Engine::W128(Inner::build(&r, &moves, &syms, stride, &reach, ctl)?)
        } else {
            Engine::W256(Inner::build(&r, &moves, &syms, stride, &reach, ctl)?)
        };
        Ok(BoardGame {
            n: r.cells,
            states: r.states,
            moves,
            sides: move_sides,
            engine,
            monotone: !loops,
            cycle: Mutex::new(None),
        })
    }

    /// Whether every play surely ends by the rules alone (each move takes cells forward, or
    /// surely puts one in a state no move leaves); the fast search over independent parts is
    /// used then. Other rules get the plain search over whole boards, which reports a loop.
    pub fn is_monotone(&self) -> bool {
        self.monotone
    }

    /// The line of play of the last loop a search reported ("the game is loopy"), each
    /// position a state per cell; the last is the first again. Taken: a second call gives
    /// `None`.
    pub fn take_cycle(&self) -> Option<Vec<Vec<u8>>> {
        self.cycle.lock().unwrap().take()
    }

    /// The error of a plain search that stopped; a loop's line of play is kept for
    /// [`BoardGame::take_cycle`].
    fn stopped<B: Bits>(&self, e: &Inner<B>, s: plain::Stop<B>) -> Error {
        let line = match s {
            plain::Stop::Error(e) => return e,
            plain::Stop::Loop(line) => line,
        };
        let n = line.len() - 1;
        *self.cycle.lock().unwrap() = Some(line.iter().map(|p| e.cells(p, self.n)).collect());
        let s = if n == 1 { "" } else { "s" };
        Error::invalid(format!(
            "the game is loopy: a line of play of {n} move{s} comes back to the position it started from"
        ))
        .hint(LOOPY_HINT)
    }

    /// The nimber of `p` by the plain search over whole boards, every move for both players;
    /// the nimbers found are kept between queries.
    fn plain_nimber(&self, p: &[u8], ctl: &Ctl) -> Result<u32> {
        with_wide!(&self.engine, e => {
            let mut memo = e.nimbers.lock().unwrap();
            let expand = |q: &Pos<_>| (e.game.plays(q, |_| true), 0);
            let fold = |v: Vec<u32>, _| Ok(plain::mex(&v));
            let label = "board game (positions)";
            plain::search(&e.game, e.pos(p), &mut memo, expand, fold, ctl, label)
                .map_err(|s| self.stopped(e, s))
        })
    }

    /// The distinct moves, in the order written.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    fn check(&self, p: &[u8]) -> Result<()> {
        if p.len() != self.n || p.iter().any(|&s| s as usize >= self.states) {
            return Err(Error::invalid("a position of another board"));
        }
        Ok(())
    }

    /// The options of `p` (a state per cell) with the index of the move to each; none when an
    /// end condition holds.
    pub fn options(&self, p: &[u8]) -> Result<Vec<(usize, Vec<u8>)>> {
        self.check(p)?;
        Ok(with_wide!(&self.engine, e => {
            let pos = e.pos(p);
            let over = e.game.over(&pos);
            e.game
                .moves
                .iter()
                .enumerate()
                .filter(|(_, m)| !over && e.game.holds(&pos, m))
                .filter_map(|(i, m)| {
                    let q = e.game.apply(&pos, m);
                    (q != pos).then(|| (i, e.cells(&q, self.n)))
                })
                .collect()
        }))
    }

    /// The nimber of `p` (a state per cell).
    pub fn grundy(&self, p: &[u8], ctl: &Ctl) -> Result<u32> {
        self.check(p)?;
        if self.is_partizan() {
            return Err(Error::invalid("a partizan game has no nimber"));
        }
        if !self.monotone {
            return self.plain_nimber(p, ctl);
        }
        with_wide!(&self.engine, e => {
            let t = e.table(ctl, self.n)?;
            let task = ctl.task("board game (positions)", None);
            winloss::value(&e.game, &t, e.pos(p), ctl, &task)
        })
    }

    /// Whether the player to move from `p` loses: one win/loss search, no nimber.
    pub fn loses(&self, p: &[u8], ctl: &Ctl) -> Result<bool> {
        self.check(p)?;
        if !self.monotone {
            // as many positions as a win/loss search without its cut-offs, and kept
            return Ok(self.plain_nimber(p, ctl)? == 0);
        }
        with_wide!(&self.engine, e => {
            let t = e.table(ctl, self.n)?;
            let task = ctl.task("board game (positions)", None);
            winloss::loses(&e.game, &t, e.pos(p), ctl, &task)
        })
    }

    /// Whether the player to move from `p` loses under misère play.
    pub fn misere_loses(&self, p: &[u8], ctl: &Ctl) -> Result<bool> {
        self.check(p)?;
        if self.is_partizan() {
            return Err(Error::invalid("misère play is defined for impartial games"));
        }
        if !self.monotone {
            return with_wide!(&self.engine, e => {
                let mut memo = HashMap::with_hasher(foldhash::fast::FixedState::default());
                let expand = |q: &Pos<_>| (e.game.plays(q, |_| true), 0);
                // whether the mover loses: a player without a move wins
                let fold = |v: Vec<bool>, _| Ok(!v.is_empty() && v.iter().all(|&l| !l));
                let label = "misère board search (positions)";
                plain::search(&e.game, e.pos(p), &mut memo, expand, fold, ctl, label)
                    .map_err(|s| self.stopped(e, s))
            });
        }
        with_wide!(&self.engine, e => {
            let task = ctl.task("misère board search (positions)", None);
            e.game.misere_loses(e.pos(p), ctl, &task)
        })
    }

    /// The number of independent components of `p` (for tests of the decomposition).
    pub fn components(&self, p: &[u8]) -> Result<usize> {
        self.check(p)?;
        Ok(with_wide!(&self.engine, e => e.game.components(&e.pos(p)).len()))
    }
}

/// A move's conditions, (cells, states).
type Need = Vec<(Vec<usize>, u8)>;
type Normal = (Need, Vec<AnyOf>, Vec<(Vec<usize>, u8, u8)>);

/// Whether the symmetry carries each player's moves onto that player's moves and the end
/// conditions onto the end conditions.
fn preserves(
    moves: &HashSet<(u8, Normal)>,
    ends: &HashSet<End>,
    sym: &Sym,
    swap: Option<(u8, u8)>,
    ctl: &Ctl,
) -> Result<bool> {
    let some = |s: &[AnyOf]| -> Vec<AnyOf> { s.iter().map(|a| sym.sets(a, swap)).collect() };
    for (i, (side, (need, any, change))) in moves.iter().enumerate() {
        poll(ctl, i)?;
        let m = Move {
            need: sym.sets(need, swap),
            some: some(any),
            change: sym.change(change, swap),
            label: vec![],
        };
        if !moves.contains(&(*side, m.normal())) {
            return Ok(false);
        }
    }
    for (i, e) in ends.iter().enumerate() {
        poll(ctl, i)?;
        let image = End {
            need: sym.sets(&e.need, swap),
            some: some(&e.some),
        };
        if !ends.contains(&image.normal()) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Polls cancellation every 1024 steps of a loop over moves.
fn poll(ctl: &Ctl, i: usize) -> Result<()> {
    if i.is_multiple_of(1024) {
        ctl.check()?;
    }
    Ok(())
}

/// The hint of a loop met by the plain search.
const LOOPY_HINT: &str = "every play must end: here some rule lets play come back to a position \
     it left (a stone stepping to and fro); rules whose plays end, such as Konane's jumps that \
     each take a stone, are searched as they are";

/// The hint of a board game whose compiled rules pass the memory budget.
pub const COMPILE_HINT: &str = "each binding of a rule's variables is one move: fewer variables, \
     conditions that read fewer cells, or a smaller board make fewer or smaller moves; or raise \
     the budget with --memory if more is really free";

/// Whether the moves of a grid of `w` columns are translation-invariant: a move shifted one
/// step, its conditions still on the board, is a move whose changes agree with it where both
/// are on the board. A component can then be keyed at the board's corner.
fn translates(moves: &HashSet<(u8, Normal)>, n: usize, w: usize, ctl: &Ctl) -> Result<bool> {
    let h = n / w;
    let by_need: HashMap<(u8, &Need), Vec<&Normal>> =
        moves.iter().fold(Default::default(), |mut m, (s, x)| {
            m.entry((*s, &x.0)).or_default().push(x);
            m
        });
    let step = |c: usize, dr: i64, dc: i64| -> Option<usize> {
        let (r, k) = ((c / w) as i64 + dr, (c % w) as i64 + dc);
        ((0..h as i64).contains(&r) && (0..w as i64).contains(&k))
            .then(|| r as usize * w + k as usize)
    };
    for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
        for (i, (side, (need, _, change))) in moves.iter().enumerate() {
            poll(ctl, i)?;
            let shifted: Option<Vec<(Vec<usize>, u8)>> = need
                .iter()
                .map(|(c, t)| {
                    Some((
                        c.iter().map(|&x| step(x, dr, dc)).collect::<Option<_>>()?,
                        *t,
                    ))
                })
                .collect();
            let Some(shifted) = shifted else { continue };
            // compare changes on the cells whose both the cell and its preimage are on the board
            let clip = |ch: &[(Vec<usize>, u8, u8)], shift: bool| -> Vec<(Vec<usize>, u8, u8)> {
                ch.iter()
                    .map(|(c, f, t)| {
                        let mut cells: Vec<usize> = c
                            .iter()
                            .filter_map(|&x| if shift { step(x, dr, dc) } else { Some(x) })
                            .filter(|&y| step(y, -dr, -dc).is_some())
                            .collect();
                        cells.sort_unstable();
                        (cells, *f, *t)
                    })
                    .filter(|x| !x.0.is_empty())
                    .collect()
            };
            let want = clip(change, true);
            let ok = by_need
                .get(&(*side, &shifted))
                .is_some_and(|cands| cands.iter().any(|m| clip(&m.2, false) == want));
            if !ok {
                return Ok(false);
            }
        }
    }
    Ok(true)
}
