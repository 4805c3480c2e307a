//! The one interface between the game queries and the families of games.
//!
//! A family (heap codes, Moore's Nim_k, scripted `game` blocks, placement and Node-Kayles, the
//! Game of Cycles, Dots-and-Boxes, ...) implements [`Family`]. A ruleset is one member of a
//! family with its name (`Ruleset` in `rules`); a component of a position is a ruleset and its
//! state, a short list of integers only the family reads (heap sizes, placed pieces, a bitset
//! of drawn lines). The state is also the component's key for memoisation and equality, so a
//! family keeps it canonical: two states of one ruleset are equal exactly when the positions
//! are.
//!
//! The queries (`grundy`, `outcome`, `moves`, `winning`, `options`, `value`, `misere`, `+`,
//! `show`, text and JSON rendering, equality and order of values) reach a family only through
//! this trait. Every method but `options` has a default, so a family states only what it knows:
//! an impartial family with no engine of its own gives its options and is solved by the generic
//! search (`engine::impartial`); a family with a fast engine answers `grundy` (and `next_wins`)
//! itself; a scoring family (Dots-and-Boxes) or a partizan one says so with `not_impartial`
//! and answers `value`, `moves` and `winning` itself. Partizan families add their Left and
//! Right options and canonical values as further methods with defaults, so that the families
//! here need no change.
//!
//! Adding a family: write `src/lang/builtins/<family>.rs` with a type implementing `Family`
//! and a `register` function whose builtins build positions (`Position::single`), and call it
//! from `builtins::install`. The core builtins (`core.rs`, `games.rs`) need no change.
use crate::lang::error::Result;
use crate::lang::run::eval::Interp;
use crate::lang::run::positions::LoopyMemo;
use crate::lang::run::rules::Ruleset;
use crate::lang::run::value::{Picture, Value};
use crate::lang::syntax::ast::Span;
use std::any::Any;
use std::rc::Rc;

/// About the bytes a board's compiled rules or engine take besides its tables: what a board
/// kept between queries costs at least.
pub const BOARD_BYTES: u64 = 4 << 10;

/// The options of a component: each option is a list of components of the same ruleset (a
/// heap game may split a heap into several), each given by its state.
pub type Options = Vec<Vec<Box<[i64]>>>;
/// A scoring game's moves: the state after each, with the points its mover scores on the way.
pub type ScoringMoves = Vec<(Box<[i64]>, i64)>;

pub trait Family: Any {
    /// The number of integers in a state, when fixed: a ruleset called as `R(a, b)` checks it.
    fn arity(&self) -> Option<usize> {
        None
    }

    /// The type of a position of this family, as error messages name it.
    fn type_name(&self) -> &'static str {
        "position"
    }

    /// A component as text (`show` text of positions, JSON strings, the order of values).
    fn describe(&self, name: &str, state: &[i64]) -> String {
        plain(name, state)
    }

    /// The options of a component. A family may refuse more than the limits allow.
    fn options(&self, it: &mut Interp, rs: &Ruleset, state: &[i64]) -> Result<Options>;

    /// The normal-play nimber from the family's own engine; `None` leaves the component to the
    /// generic search over `options`.
    fn grundy(&self, _it: &mut Interp, _rs: &Ruleset, _state: &[i64]) -> Result<Option<u32>> {
        Ok(None)
    }

    /// Whether the player to move wins the component alone under normal play, when the family
    /// decides it without its nimber; `None` asks `grundy`.
    fn next_wins(&self, _it: &mut Interp, _state: &[i64]) -> Result<Option<bool>> {
        Ok(None)
    }

    /// Whether the player to move wins the component alone under misère play, when the family
    /// has a search of its own; `None` asks the generic search of sums.
    fn misere_next_wins(&self, _it: &mut Interp, _state: &[i64]) -> Result<Option<bool>> {
        Ok(None)
    }

    /// Whether `moves` lists its options by outcome ("N", "P") because they have no nimbers.
    fn by_outcome(&self) -> bool {
        false
    }

    /// The name of the move from `state` to the single component `option` ("queen on (2, 2)",
    /// "a>c"); `None` names the option by its position.
    fn move_label(&self, _state: &[i64], _option: &[i64]) -> Option<String> {
        None
    }

    /// A text drawing for `show`.
    fn show(&self, _state: &[i64]) -> Option<String> {
        None
    }

    /// Whether options are tidied before listing: components without moves dropped and options
    /// equal as multisets merged (scripted rulesets, whose rules may write either).
    fn tidy_options(&self) -> bool {
        false
    }

    /// Whether plays may go on for ever (`loopy game`): valued by generalized Sprague–Grundy
    /// values over the graph of the positions reached, not by the search that refuses cycles.
    fn loopy(&self) -> bool {
        false
    }

    /// For a family that is not impartial (scoring, partizan): the hint given when a query for
    /// impartial positions (`grundy`, `outcome`, `options`, `misere`, `+`) is asked of it.
    fn not_impartial(&self) -> Option<&'static str> {
        None
    }

    /// `value(P)`: a scoring game's score, a partizan game's canonical form.
    fn value(&self, _it: &mut Interp, _state: &[i64]) -> Result<Option<Value>> {
        Ok(None)
    }

    /// `value(P)` split over processes (`gamut split`) for a scoring game: the state after each
    /// move, with the points its mover scores on the way (such a move keeps the turn).
    fn scoring_moves(&self, _state: &[i64]) -> Result<Option<ScoringMoves>> {
        Ok(None)
    }

    /// A key that a component shares with every component of equal value, such as its state
    /// up to the board's symmetries: `gamut split` searches one option per key. `None`: every
    /// option is searched.
    fn class_key(&self, _state: &[i64]) -> Option<Vec<u64>> {
        None
    }

    /// The [`class_key`](Self::class_key) of the position's negative (the players' roles
    /// swapped) for a partizan family: a Right move to `-X` wins exactly when Left's move to `X`
    /// does, so `gamut split` searches one of them. `None`: no such key.
    fn negative_class_key(&self, _state: &[i64]) -> Option<Vec<u64>> {
        None
    }

    /// `moves(P)` of a family that is not impartial: each move by name with its value.
    fn moves(&self, _it: &mut Interp, _state: &[i64]) -> Result<Option<Vec<(Value, Value)>>> {
        Ok(None)
    }

    /// `winning(P)` of a family that is not impartial: the names of the best moves.
    fn winning(&self, _it: &mut Interp, _state: &[i64]) -> Result<Option<Vec<Value>>> {
        Ok(None)
    }

    /// A ruleset called with something other than its state (a board game's board): the
    /// position `R(args)`. `None` reads the arguments as the state. `ctl` bounds the work
    /// (compiling a board game's rules).
    fn call(
        &self,
        _rs: &Rc<Ruleset>,
        _args: &[(Value, Span)],
        _span: Span,
        _ctl: &crate::engine::Ctl,
    ) -> Option<Result<Value>> {
        None
    }

    /// For a scripted ruleset, whose arguments may be any value: how they are coded as state
    /// integers. `None`: the arguments are the state, non-negative integers.
    fn interned(&self) -> Option<&crate::lang::run::rules::Interned> {
        None
    }

    /// The bytes of what the family keeps between queries (tables, memos, compiled boards);
    /// the session charges them to the memory budget.
    fn kept_bytes(&self) -> u64 {
        0
    }

    /// Drops what the family keeps between queries, when the session needs the room. A
    /// search running at the time keeps its own share until it ends.
    fn forget(&self) {}

    /// The heap game the family's rulesets are, when they are one (rules recognised as a
    /// take-and-break game): the generic queries then ask the heap family instead.
    fn heap_form(&self, _it: &Interp) -> Option<Rc<Ruleset>> {
        None
    }

    /// Whether values the generic search kept for this ruleset are stale (rules that read a
    /// name bound again since); remembers the scope now.
    fn scope_changed(&self, _it: &Interp) -> bool {
        false
    }

    /// The labelled graph of a loopy family's positions kept between queries (a fresh one if
    /// it is stale); handed back by `keep_loopy` after a query.
    fn take_loopy(&self, _it: &Interp) -> LoopyMemo {
        LoopyMemo::default()
    }

    fn keep_loopy(&self, _memo: LoopyMemo) {}

    /// What `:help NAME` says of a ruleset defined in the session: its signature and the
    /// engine that values it.
    fn help(&self, _it: &Interp, _name: &str) -> Option<String> {
        None
    }

    /// What `export` draws of `v`, a position whose one component is of this family.
    fn picture(&self, _v: &Value) -> Option<Picture> {
        None
    }

    /// The family's own type, for its own builtins (`shortest_play`, `export`).
    fn as_any(&self) -> &dyn Any;
}

/// A component as its ruleset's name and its state: `name(a, b)`.
pub fn plain(name: &str, state: &[i64]) -> String {
    let a: Vec<String> = state.iter().map(|x| x.to_string()).collect();
    format!("{name}({})", a.join(", "))
}
