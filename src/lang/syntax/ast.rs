//! Owned syntax tree. Every node carries the span of the source text it came from.
use num_bigint::BigInt;
use std::rc::Rc;

/// Byte range in source number `src` (the interpreter keeps the list of sources).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub src: u32,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn to(self, other: Span) -> Span {
        Span {
            src: self.src,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

#[derive(Debug, Clone)]
pub struct Ident {
    pub name: Rc<str>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum Stmt {
    Let(Ident, Expr),
    Fn(Ident, Rc<Lambda>),
    For(Ident, Expr, Vec<Stmt>),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    Use(Rc<str>, Span),
    Gen(Ident, Expr),
    Group(Ident, Vec<Expr>),
    Board(Ident, Expr),
    Game(Rc<GameDef>),
    BoardGame(Rc<BoardGameDef>),
    Expr(Expr),
}

#[derive(Debug)]
pub struct Lambda {
    pub params: Vec<Ident>,
    pub body: Expr,
}

#[derive(Debug)]
pub struct GameDef {
    /// declared `loopy game`: valued by generalized Sprague–Grundy values
    pub loopy: bool,
    pub name: Ident,
    pub params: Vec<Ident>,
    pub rules: Vec<MoveRule>,
}

/// `move c1, c2 for x in xs, y in ys if cond`: one option per binding, each a sum of components.
#[derive(Debug)]
pub struct MoveRule {
    /// `left move` / `right move`; `None` is a move for both players
    pub side: Option<Side>,
    pub components: Vec<Vec<Expr>>,
    pub bindings: Vec<(Ident, Expr)>,
    pub cond: Option<Expr>,
    pub span: Span,
}

/// `game cram on board { cells empty, filled; move ... }`: a game by rules on a board.
#[derive(Debug)]
pub struct BoardGameDef {
    pub name: Ident,
    /// `on edges`: the cells are the edges of a graph board
    pub on_edges: bool,
    /// the cell states, the first the state of every cell at the start
    pub states: Vec<Ident>,
    pub rules: Vec<BoardMove>,
    /// `end for f in faces if f is marked`: positions where play is over
    pub ends: Vec<BoardEnd>,
}

/// `end for f in faces if f is marked`: a position where the conditions hold for some binding
/// of the variables has no moves.
#[derive(Debug)]
pub struct BoardEnd {
    pub bindings: Vec<(Ident, Expr)>,
    pub conds: Vec<Cond>,
    pub span: Span,
}

/// `move c, d to filled for c in empty, d in adjacent(c) if d is empty`: one move per binding
/// of the variables to cells.
#[derive(Debug)]
pub struct BoardMove {
    /// `left move` / `right move`: a move for one player only (the game is then partizan)
    pub side: Option<Side>,
    pub changes: Vec<Change>,
    pub bindings: Vec<(Ident, Expr)>,
    pub conds: Vec<Cond>,
    pub span: Span,
}

/// `c, attacks(queen, c) from empty to attacked`: these cells (those in state `from`) take
/// state `to`.
#[derive(Debug)]
pub struct Change {
    pub cells: Vec<Expr>,
    pub from: Option<Ident>,
    pub to: Ident,
}

/// `adjacent(c) is not filled`: every cell of the set is (or is not) in the state; with
/// `some`, one cell of the set is.
#[derive(Debug)]
pub struct Cond {
    pub some: bool,
    pub cells: Expr,
    pub negated: bool,
    pub state: Ident,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Range,
    Add,
    Sub,
    Mul,
    Div,
    /// `//`: floor division
    FloorDiv,
    Rem,
    Pow,
    Bar,
    /// `G & H`: the loopy game with onside G and offside H
    Amp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    /// `±G`, the switch `{G | -G}`
    PlusMinus,
}

#[derive(Debug, Clone)]
pub enum ExprKind {
    Int(Rc<BigInt>),
    Str(Rc<str>),
    Bool(bool),
    Ident(Rc<str>),
    List(Vec<Expr>),
    Set(Vec<Expr>),
    /// `[elem for x in xs for y in ys if cond]`: the clauses nest left to right
    Comprehension {
        elem: Box<Expr>,
        clauses: Vec<(Ident, Expr)>,
        cond: Option<Box<Expr>>,
    },
    /// `none`
    None,
    /// a function body in braces: statements, then the value of the last expression
    Block(Rc<Vec<Stmt>>),
    Cycles(Vec<Vec<Expr>>),
    Lambda(Rc<Lambda>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Call {
        callee: Box<Expr>,
        args: Vec<Expr>,
        kwargs: Vec<(Ident, Expr)>,
    },
    Index(Box<Expr>, Vec<Expr>),
    /// `xs[from:to]`, either end left out
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    Field(Box<Expr>, Ident),
    /// `{L1, L2 | R1}`: a partizan game from its options; `ambiguous` when the longest bar
    /// occurs twice (`{a|b|c}`); `label` names it for its options further in (`a{0 | a}`)
    GameLit {
        left: Vec<Expr>,
        right: Vec<Expr>,
        ambiguous: bool,
        label: Option<Ident>,
    },
    /// `*`, `*3`, `^`, `^^*`: a game in CGSuite's notation
    CgAtom(Rc<str>),
    /// `graph { a - b - c; cells [a, b, c] }`: edge chains and cells, vertices by name
    Graph {
        chains: Vec<Vec<Ident>>,
        cells: Vec<Vec<Ident>>,
    },
}
