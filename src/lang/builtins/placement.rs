//! Placement games and Node-Kayles (docs/language.md, "Placement games"): pieces, boards,
//! positions, and the graph numbers of piece graphs.
use crate::engine::placement::{self, Piece, Placement, Tour};
use crate::lang::error::{Error, Result};
use crate::lang::run::eval::{Args, Interp};
use crate::lang::run::game::{Family, Options};
use crate::lang::run::positions::get_position;
use crate::lang::run::rules::{Position, Ruleset};
use crate::lang::run::value::{DRAWN_FORMATS, Picture, Value};
use std::rc::Rc;

pub fn register(it: &mut Interp) {
    it.add_builtin(
        "leaper",
        "leaper(a, b)",
        "a piece that jumps a squares one way and b the other, in all 8 directions (knight = leaper(1, 2))",
        |_, a| piece(a, Piece::leaper),
    );
    it.add_builtin(
        "rider",
        "rider(a, b)",
        "a piece that slides any number of (a, b) steps (rook = rider(0, 1)); join pieces with |",
        |_, a| piece(a, Piece::rider),
    );
    it.add_builtin(
        "placement",
        "placement(board, pieces, blocking: false)",
        "the non-attacking placement game: a move puts a piece on a free square no placed piece attacks",
        placement_game,
    );
    it.add_builtin(
        "node_kayles",
        "node_kayles(g)",
        "Node-Kayles on graph g: a move picks a vertex neither chosen nor next to a chosen one",
        node_kayles,
    );
    it.add_builtin(
        "shortest_play",
        "shortest_play(P)",
        "the fewest moves a play of placement position P can last",
        |it, a| play_length(it, a, false),
    );
    it.add_builtin(
        "longest_play",
        "longest_play(P)",
        "the most moves a play of placement position P can last",
        |it, a| play_length(it, a, true),
    );
    it.add_builtin(
        "tour",
        "tour(board, piece)",
        "a closed tour of the piece over every square of a grid (Warnsdorff with backtracking), or why none exists",
        tour,
    );
    it.add_builtin(
        "domination_number",
        "domination_number(board, piece)",
        "γ: fewest pieces that attack or occupy every square",
        |it, a| graph_number(it, a, placement::domination_number),
    );
    it.add_builtin(
        "independent_domination_number",
        "independent_domination_number(board, piece)",
        "i: fewest mutually non-attacking pieces that attack or occupy every square",
        |it, a| graph_number(it, a, placement::independent_domination_number),
    );
    it.add_builtin(
        "independence_number",
        "independence_number(board, piece)",
        "α: most mutually non-attacking pieces",
        |it, a| graph_number(it, a, placement::independence_number),
    );
}

fn piece(a: &mut Args, make: fn(u32, u32) -> Piece) -> Result<Value> {
    a.count(2, 2)?;
    let (x, y) = (a.nonneg(0)?, a.nonneg(1)?);
    if x > 64 || y > 64 || x + y == 0 {
        return Err(Error::runtime(
            format!("a step of ({x}, {y}) is not a piece's move"),
            a.span,
        )
        .hint("steps are 0 to 64 squares, not both 0"));
    }
    Ok(Value::Piece(Rc::new(make(x as u32, y as u32))))
}

/// A board value as the placement engine's board.
fn get_board(a: &Args, i: usize) -> Result<placement::Board> {
    match a.get(i) {
        Value::Board(b) if b.torus => Ok(placement::Board::Torus {
            rows: b.rows,
            cols: b.cols,
        }),
        Value::Board(b) => Ok(placement::Board::Grid {
            rows: b.rows,
            cols: b.cols,
        }),
        Value::Graph(g) => Ok(placement::Board::Graph((**g).clone())),
        _ => Err(a.type_error(i, "a board: grid(m, n), torus(m, n) or a graph")),
    }
}

fn get_piece(a: &Args, i: usize) -> Result<Rc<Piece>> {
    match a.get(i) {
        Value::Piece(p) => Ok(p.clone()),
        _ => Err(a.type_error(i, "a piece such as knight or leaper(1, 2)")),
    }
}

fn get_pieces(it: &Interp, a: &Args, i: usize) -> Result<Vec<Piece>> {
    let items = match a.get(i) {
        Value::Piece(p) => return Ok(vec![(**p).clone()]),
        v => it.items(v, a.span_of(i))?,
    };
    let mut out = vec![];
    for v in items {
        match v {
            Value::Piece(p) => out.push((*p).clone()),
            other => {
                return Err(Error::runtime(
                    format!("a piece list holds pieces, not {}", other.a_type()),
                    a.span_of(i),
                )
                .hint("write e.g. [knight, bishop] or [leaper(1, 2)]"));
            }
        }
    }
    if out.is_empty() || out.len() > 255 {
        return Err(Error::runtime("give 1 to 255 pieces", a.span_of(i)));
    }
    Ok(out)
}

/// A square as the language numbers it: `(row, column)` from 1 on grids, the vertex name on
/// graphs.
fn square_name(g: &placement::Placement, s: usize) -> String {
    match g.board() {
        placement::Board::Grid { cols, .. } | placement::Board::Torus { cols, .. } => {
            format!("({}, {})", s / cols + 1, s % cols + 1)
        }
        placement::Board::Graph(gr) => gr.names[s].clone(),
    }
}

/// A move as the language names it: `queen on (2, 2)` on a grid, the vertex alone on a graph
/// board (Node-Kayles: the game has no pieces to name).
fn move_name(g: &placement::Placement, square: i64, piece: i64) -> String {
    let at = square_name(g, square as usize);
    match g.pieces().get(piece as usize) {
        Some(p) => format!("{} on {at}", Piece::name(p)),
        None => at,
    }
}

/// The engine's position from a component's arguments (placed in any order).
fn placement_pos(g: &placement::Placement, args: &[i64]) -> crate::engine::Result<placement::Pos> {
    let placed: Vec<(usize, usize)> = args
        .chunks(2)
        .map(|pair| (pair[0] as usize, pair[1] as usize))
        .collect();
    g.position(&placed)
}

/// A component's arguments from the engine's position.
fn placement_args(pos: &placement::Pos) -> Box<[i64]> {
    pos.placed()
        .into_iter()
        .flat_map(|(s, p)| [s as i64, p as i64])
        .collect()
}

/// Placement games and Node-Kayles; a state is the placed pieces as (square, piece index) pairs.
pub struct PlacementGame(Rc<Placement>);

impl Family for PlacementGame {
    fn describe(&self, name: &str, state: &[i64]) -> String {
        let g = &self.0;
        let mut out = name.to_string();
        for (i, pair) in state.chunks(2).enumerate() {
            let sep = if i == 0 { " after " } else { ", " };
            out += &format!("{sep}{}", move_name(g, pair[0], pair[1]));
        }
        out
    }
    fn options(&self, _: &mut Interp, _: &Ruleset, state: &[i64]) -> Result<Options> {
        let pos = placement_pos(&self.0, state)?;
        Ok(self
            .0
            .options(&pos)
            .iter()
            .map(|o| vec![placement_args(o)])
            .collect())
    }
    fn grundy(&self, it: &mut Interp, _: &Ruleset, state: &[i64]) -> Result<Option<u32>> {
        Ok(Some(
            self.0.grundy(&placement_pos(&self.0, state)?, &it.ctl)?,
        ))
    }
    /// A win/loss search, cheaper than the nimber.
    fn next_wins(&self, it: &mut Interp, state: &[i64]) -> Result<Option<bool>> {
        let pos = placement_pos(&self.0, state)?;
        Ok(Some(
            self.0.outcome(&pos, &it.ctl)? == crate::engine::placement::Outcome::N,
        ))
    }

    fn misere_next_wins(&self, it: &mut Interp, state: &[i64]) -> Result<Option<bool>> {
        let pos = placement_pos(&self.0, state)?;
        Ok(self
            .0
            .misere_outcome(&pos, &it.ctl)?
            .map(|o| o == crate::engine::placement::Outcome::N))
    }

    fn class_key(&self, state: &[i64]) -> Option<Vec<u64>> {
        Some(self.0.class_key(&placement_pos(&self.0, state).ok()?))
    }

    fn move_label(&self, state: &[i64], option: &[i64]) -> Option<String> {
        let pair = option
            .chunks(2)
            .find(|x| !state.chunks(2).any(|y| y == *x))?;
        Some(move_name(&self.0, pair[0], pair[1]))
    }
    fn show(&self, state: &[i64]) -> Option<String> {
        let pos = placement_pos(&self.0, state).ok()?;
        Some(self.0.show(&pos).trim_end().to_string())
    }
    fn kept_bytes(&self) -> u64 {
        self.0.cache_bytes()
    }
    fn forget(&self) {
        self.0.clear_cache();
    }
    fn picture(&self, v: &Value) -> Option<Picture> {
        picture(v)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The start position of a game, sharing one engine (and its cache of component values) per
/// board, piece list and attack rule across queries.
fn start_position(
    it: &mut Interp,
    name: String,
    make: impl FnOnce() -> Result<Placement>,
) -> Result<Value> {
    let rs = it.games.board(name.clone(), || {
        Ok(Ruleset::new(name, PlacementGame(Rc::new(make()?))))
    })?;
    Ok(Value::Position(Rc::new(Position::single(rs, Box::new([])))))
}

fn placement_game(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(2, 2)?;
    let blocking = match a.kw("blocking") {
        None => false,
        Some((Value::Bool(b), _)) => b,
        Some((_, s)) => return Err(Error::runtime("`blocking:` is true or false", s)),
    };
    a.no_more_kw()?;
    let board = get_board(a, 0)?;
    let pieces = get_pieces(it, a, 1)?;
    let names: Vec<String> = pieces.iter().map(placement::Piece::name).collect();
    let name = format!(
        "placement({}, [{}]{})",
        a.get(0).to_text(),
        names.join(", "),
        if blocking { ", blocking: true" } else { "" }
    );
    let span = a.span;
    start_position(it, name, || {
        Placement::new(board, pieces, blocking).map_err(|e| Error::from(e).at(span))
    })
}

fn node_kayles(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let Value::Graph(g) = a.get(0).clone() else {
        return Err(a.type_error(0, "a graph, e.g. graph { a - b - c }"));
    };
    let span = a.span;
    start_position(it, format!("node_kayles({g})"), || {
        placement::node_kayles(&g).map_err(|e| Error::from(e).at(span))
    })
}

/// A placement or Node-Kayles position as a picture, drawn as `show` draws it.
fn picture(v: &Value) -> Option<Picture> {
    let Value::Position(p) = v else { return None };
    let c = p.the_one()?;
    let PlacementGame(g) = c.rs.family::<PlacementGame>()?;
    let (g, pos) = (g.clone(), placement_pos(g, &c.args).ok()?);
    let title = v.to_text();
    Some(Picture {
        title: title.clone(),
        formats: DRAWN_FORMATS,
        draw: Box::new(move |path| g.picture(&pos, &title, path)),
    })
}

/// The one placement component of a position, with its engine position.
fn single(a: &Args, i: usize) -> Result<(Rc<Placement>, placement::Pos)> {
    let p = get_position(a, i)?;
    if let Some(c) = p.the_one()
        && let Some(PlacementGame(g)) = c.rs.family::<PlacementGame>()
    {
        return Ok((g.clone(), placement_pos(g, &c.args)?));
    }
    Err(a.type_error(i, "a placement position (not a sum or misère position)"))
}

fn play_length(it: &mut Interp, a: &mut Args, longest: bool) -> Result<Value> {
    a.count(1, 1)?;
    let (g, pos) = single(a, 0)?;
    let n = if longest {
        g.longest_play(&pos, &it.ctl)?
    } else {
        g.shortest_play(&pos, &it.ctl)?
    };
    Ok(Value::Int(n as i64))
}

fn tour(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(2, 2)?;
    let board = get_board(a, 0)?;
    let placement::Board::Grid { rows, cols } = board else {
        return Err(a.type_error(0, "a grid(m, n)"));
    };
    let piece = get_piece(a, 1)?;
    let game = Placement::new(board, vec![(*piece).clone()], false)?;
    Ok(match placement::tour(rows, cols, &piece, &it.ctl)? {
        Tour::Closed(squares) => Value::record(vec![
            ("closed", Value::Bool(true)),
            (
                "tour",
                Value::list(
                    squares
                        .iter()
                        .map(|&s| Value::str(&square_name(&game, s)))
                        .collect(),
                ),
            ),
        ]),
        Tour::Impossible(why) => Value::record(vec![
            ("closed", Value::Bool(false)),
            ("reason", Value::str(&why)),
        ]),
    })
}

fn graph_number(
    it: &mut Interp,
    a: &mut Args,
    f: fn(&[Vec<usize>], &crate::engine::Ctl) -> crate::engine::Result<usize>,
) -> Result<Value> {
    a.count(1, 2)?;
    let board = get_board(a, 0)?;
    let adj = match (&board, a.len()) {
        (placement::Board::Graph(g), 1) => g.adjacency(),
        (_, 2) => placement::piece_graph(&board, &*get_piece(a, 1)?)?,
        _ => return Err(Error::runtime("give the board and a piece", a.span)),
    };
    Ok(Value::Int(f(&adj, &it.ctl)? as i64))
}
