//! Dots-and-Boxes (docs/language.md, "Dots-and-Boxes"): positions and their values.
use crate::engine::dots::{Dots, Position};
use crate::lang::error::{Error, Result};
use crate::lang::eval::{Args, Interp};
use crate::lang::value::Value;
use std::fmt;
use std::rc::Rc;

/// A Dots-and-Boxes position: its board and the lines drawn.
pub struct DotsPos {
    pub board: Rc<Dots>,
    pub pos: Position,
}

impl fmt::Display for DotsPos {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let (m, n) = (self.board.rows(), self.board.cols());
        if self.pos.count() == 0 {
            write!(f, "dots({m}, {n})")
        } else {
            write!(
                f,
                "dots({m}, {n}, drawn: \"{}\")",
                self.board.lines_text(&self.pos)
            )
        }
    }
}

pub fn register(it: &mut Interp) {
    it.add_builtin(
        "dots",
        "dots(m, n, drawn: \"AB BC ...\")",
        "Dots-and-Boxes on m x n boxes; dots are named A, B, C, ... row by row, a line by its two dots",
        dots,
    );
    it.add_builtin(
        "value",
        "value(P)",
        "the best net score (own boxes minus the opponent's, of those still to take) for the player to move",
        value,
    );
}

fn dots(_: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(2, 2)?;
    let drawn = a.kw("drawn");
    let (m, n) = (a.nonneg(0)?, a.nonneg(1)?);
    let board = Dots::new(m.min(1 << 20) as usize, n.min(1 << 20) as usize)
        .map_err(|e| Error::from(e).at(a.span))?;
    let pos = match drawn {
        None => board.empty(),
        Some((Value::Str(s), sp)) => board.parse_lines(&s).map_err(|e| Error::from(e).at(sp))?,
        Some((_, sp)) => {
            return Err(Error::runtime(
                "`drawn:` is a string of lines such as \"AB BC\"",
                sp,
            ));
        }
    };
    Ok(Value::Dots(Rc::new(DotsPos {
        board: Rc::new(board),
        pos,
    })))
}

fn get(a: &Args, i: usize) -> Result<Rc<DotsPos>> {
    match a.get(i) {
        Value::Dots(d) => Ok(d.clone()),
        _ => Err(a.type_error(i, "a Dots-and-Boxes position, e.g. dots(3, 3)")),
    }
}

fn value(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let d = get(a, 0)?;
    Ok(Value::Int(d.board.value(&d.pos, &it.ctl)? as i64))
}

/// `moves(P)`: each legal line with the net score for its mover (boxes it completes included).
pub fn moves(it: &mut Interp, d: &DotsPos) -> Result<Value> {
    let mv = d.board.moves(&d.pos, &it.ctl)?;
    Ok(Value::Map(Rc::new(
        mv.iter()
            .map(|m| {
                (
                    Value::str(&d.board.line_name(m.line)),
                    Value::Int(m.value as i64),
                )
            })
            .collect(),
    )))
}

/// `winning(P)`: the lines after which the mover ends ahead.
pub fn winning(it: &mut Interp, d: &DotsPos) -> Result<Value> {
    let lines = d.board.winning(&d.pos, &it.ctl)?;
    Ok(Value::list(
        lines
            .into_iter()
            .map(|l| Value::str(&d.board.line_name(l)))
            .collect(),
    ))
}

/// A text drawing of a Dots-and-Boxes position, when `v` is one.
pub fn show(v: &Value) -> Option<String> {
    let Value::Dots(d) = v else { return None };
    Some(d.board.show(&d.pos).trim_end().to_string())
}
