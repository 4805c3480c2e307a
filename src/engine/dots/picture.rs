//! A Dots-and-Boxes position drawn for a paper (SVG or PNG), as `show` draws it: the dots with
//! their letters, drawn lines in black, undrawn ones faint, complete boxes shaded.
use super::{Dots, Position, dot_name};
use crate::engine::plot::Drawing;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const SIDE: f64 = 560.0;
const MARGIN: f64 = 50.0;
const BOX: RGBColor = RGBColor(0x8e, 0xb8, 0xe5);
const FAINT: RGBColor = RGBColor(0xcc, 0xcc, 0xcc);

impl Drawing for (&Dots, &Position, &str, f64) {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        self.0.draw(root, self.1, self.2, self.3)
    }
}

impl Dots {
    /// Draw `pos` to `path` (.svg or .png) under `title`.
    pub fn picture(&self, pos: &Position, title: &str, path: &str) -> Result<(), String> {
        let step = (SIDE / self.rows.max(self.cols) as f64).floor();
        let size = (
            (2.0 * MARGIN + step * self.cols as f64) as u32,
            (2.0 * MARGIN + step * self.rows as f64) as u32 + 20,
        );
        crate::engine::plot::save(&(self, pos, title, step), size, path)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        pos: &Position,
        title: &str,
        step: f64,
    ) -> Result<(), String> {
        let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
        root.fill(&WHITE).map_err(e)?;
        root.draw_text(
            title,
            &("sans-serif", 17).into_font().color(&BLACK),
            (12, 10),
        )
        .map_err(e)?;
        let w = self.cols + 1;
        let at = |d: usize| {
            (
                (MARGIN + step * (d % w) as f64) as i32,
                (MARGIN + 20.0 + step * (d / w) as f64) as i32,
            )
        };
        for r in 0..self.rows {
            for c in 0..self.cols {
                if self.box_complete(pos, r, c) {
                    let (a, b) = (at(r * w + c), at((r + 1) * w + c + 1));
                    root.draw(&Rectangle::new([a, b], BOX.filled()))
                        .map_err(e)?;
                }
            }
        }
        for (l, &(a, b)) in self.line_dots.iter().enumerate() {
            let style = if pos.has(l) {
                BLACK.stroke_width(5)
            } else {
                FAINT.stroke_width(1)
            };
            root.draw(&PathElement::new(vec![at(a), at(b)], style))
                .map_err(e)?;
        }
        let label = ("sans-serif", 14)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Bottom));
        for d in 0..(self.rows + 1) * w {
            root.draw(&Circle::new(at(d), 6, BLACK.filled()))
                .map_err(e)?;
            let (x, y) = at(d);
            root.draw_text(&dot_name(d).to_string(), &label, (x + 6, y - 6))
                .map_err(e)?;
        }
        Ok(())
    }
}
