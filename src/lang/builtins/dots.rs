//! Dots-and-Boxes (docs/language.md, "Dots-and-Boxes"): positions and their values.
use crate::engine::dots::{Dots, Position};
use crate::lang::error::{Error, Result};
use crate::lang::run::eval::{Args, Interp};
use crate::lang::run::game::{Family, Options, ScoringMoves};
use crate::lang::run::rules::Ruleset;
use crate::lang::run::value::{DRAWN_FORMATS, Picture, Value};
use std::rc::Rc;

/// Dots-and-Boxes, a scoring game; a state is the bitset of drawn lines.
pub struct DotsGame(Dots);

impl DotsGame {
    fn pos(&self, state: &[i64]) -> Result<Position> {
        Ok(self.0.position(state[0] as u64)?)
    }
}

impl Family for DotsGame {
    fn type_name(&self) -> &'static str {
        "Dots-and-Boxes position"
    }
    fn describe(&self, _: &str, state: &[i64]) -> String {
        let (m, n) = (self.0.rows(), self.0.cols());
        match self.pos(state) {
            Ok(p) if p.count() > 0 => {
                format!("dots({m}, {n}, drawn: \"{}\")", self.0.lines_text(&p))
            }
            _ => format!("dots({m}, {n})"),
        }
    }
    fn options(&self, _: &mut Interp, _: &Ruleset, state: &[i64]) -> Result<Options> {
        let pos = self.pos(state)?;
        self.0
            .legal_moves(&pos)
            .into_iter()
            .map(|l| Ok(vec![Box::from([self.0.play(&pos, l)?.lines as i64])]))
            .collect()
    }
    fn scoring_moves(&self, state: &[i64]) -> Result<Option<ScoringMoves>> {
        let pos = self.pos(state)?;
        let moves = self.0.legal_moves(&pos).into_iter().map(|l| {
            let after = self.0.play(&pos, l)?.lines as i64;
            Ok((Box::from([after]), self.0.completes(&pos, l) as i64))
        });
        Ok(Some(moves.collect::<Result<_>>()?))
    }
    fn class_key(&self, state: &[i64]) -> Option<Vec<u64>> {
        Some(vec![self.0.canonical(self.pos(state).ok()?.lines)])
    }
    fn not_impartial(&self) -> Option<&'static str> {
        Some("Dots-and-Boxes is a scoring game: ask value(P), moves(P) or winning(P)")
    }
    fn value(&self, it: &mut Interp, state: &[i64]) -> Result<Option<Value>> {
        let v = self.0.value(&self.pos(state)?, &it.ctl)?;
        Ok(Some(Value::Int(v as i64)))
    }
    /// each legal line with the net score for its mover (boxes it completes included)
    fn moves(&self, it: &mut Interp, state: &[i64]) -> Result<Option<Vec<(Value, Value)>>> {
        let mv = self.0.moves(&self.pos(state)?, &it.ctl)?;
        Ok(Some(
            mv.iter()
                .map(|m| {
                    (
                        Value::str(&self.0.line_name(m.line)),
                        Value::Int(m.value as i64),
                    )
                })
                .collect(),
        ))
    }
    /// the lines after which the mover ends ahead
    fn winning(&self, it: &mut Interp, state: &[i64]) -> Result<Option<Vec<Value>>> {
        let lines = self.0.winning(&self.pos(state)?, &it.ctl)?;
        Ok(Some(
            lines
                .into_iter()
                .map(|l| Value::str(&self.0.line_name(l)))
                .collect(),
        ))
    }
    fn show(&self, state: &[i64]) -> Option<String> {
        let pos = self.pos(state).ok()?;
        Some(self.0.show(&pos).trim_end().to_string())
    }
    fn picture(&self, v: &Value) -> Option<Picture> {
        picture(v)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A Dots-and-Boxes position as a picture, drawn as `show` draws it.
fn picture(v: &Value) -> Option<Picture> {
    let Value::Position(p) = v else { return None };
    let c = p.the_one()?;
    let DotsGame(g) = c.rs.family::<DotsGame>()?;
    let pos = g.position(c.args[0] as u64).ok()?;
    let (g, title) = (g.clone(), v.to_text());
    Some(Picture {
        title: title.clone(),
        formats: DRAWN_FORMATS,
        draw: Box::new(move |path| g.picture(&pos, &title, path)),
    })
}

pub fn register(it: &mut Interp) {
    it.add_builtin(
        "dots",
        "dots(m, n, drawn: \"AB BC ...\")",
        "Dots-and-Boxes on m x n boxes; dots are named A, B, C, ... row by row, a line by its two dots",
        dots,
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
    let rs = Ruleset::new(format!("dots({m}, {n})"), DotsGame(board));
    Ok(Value::Position(Rc::new(
        crate::lang::run::rules::Position::single(Rc::new(rs), Box::new([pos.lines as i64])),
    )))
}
