//! The solver. It works on *quiet* positions (no cell complete, none completable) under the
//! normal rule, where a move that lets the opponent complete a cell is illegal. Outcomes under
//! the original rule are the same (see the module docs), so one solver serves both. Quiet
//! positions under the normal rule are plain normal play, so nimbers and outcomes come from the
//! heap-sum win/loss search of `crate::engine::winloss` (`G = k` exactly when `G + *k` loses).
//!
//! A position splits into independent components: two unmarked edges interact when they share
//! an end or lie on a common *live* cell (one whose marked edges all go one way round; a cell
//! with arrows both ways round can never be completed). A component is stored as the position
//! with every edge that cannot matter to it frozen, reduced to its least image under the board's
//! automorphisms combined with reversing every arrow.
use super::board::{Board, Kind};
use crate::engine::winloss::Sums;

/// Switches for the solver (the tests turn the reductions off to compare).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Opts {
    pub symmetry: bool,
    pub split: bool,
}

/// The quiet positions of one board as a sum of components, for the win/loss search.
pub(crate) struct Quiet<'a> {
    pub b: &'a Board,
    pub opts: Opts,
}

impl Quiet<'_> {
    /// Cells that can still be completed: no frozen edge and their marked edges all one way
    /// round (bit c for cell c; with more than 64 cells every cell counts as live).
    fn live_cells(&self, marked: u64, dir: u64) -> u64 {
        let b = self.b;
        if b.cells.len() > 64 {
            return !0;
        }
        let frozen = dir & !marked;
        let mut live = 0u64;
        for c in 0..b.cells.len() {
            if b.cells[c].0 & frozen == 0 && b.cell_consistent(c, marked, dir) {
                live |= 1 << c;
            }
        }
        live
    }

    #[inline]
    fn cell_live(live: u64, c: usize) -> bool {
        c >= 64 || live >> c & 1 == 1
    }

    /// The component (a mask of playable edges) of the lowest edge of `free`.
    fn component(&self, free: u64, live: u64) -> u64 {
        let b = self.b;
        let mut comp = free & free.wrapping_neg();
        let mut frontier = comp;
        while frontier != 0 {
            let e = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let mut reach = b.near[e];
            for &c in &b.edge_cells[e] {
                if Self::cell_live(live, c) {
                    reach |= b.cells[c].0;
                }
            }
            let new = reach & free & !comp;
            comp |= new;
            frontier |= new;
        }
        comp
    }

    /// The position seen by one component: every edge that cannot matter to it frozen. Kept
    /// are the marked edges at an end of a component edge and those of the live cells through
    /// component edges. A dead cell stays dead: it keeps either its own contrary arrows or a
    /// frozen edge, and the cell checks never count a cell with a frozen edge.
    fn restrict(&self, marked: u64, dir: u64, comp: u64, live: u64) -> (u64, u64) {
        let b = self.b;
        let mut ctx = 0u64;
        let mut bits = comp;
        while bits != 0 {
            let e = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            ctx |= b.near[e];
            for &c in &b.edge_cells[e] {
                if Self::cell_live(live, c) {
                    ctx |= b.cells[c].0;
                }
            }
        }
        let keep = marked & ctx;
        (keep, (dir & keep) | (b.all & !comp & !keep))
    }
}

impl Sums for Quiet<'_> {
    /// (marked edges, direction bits); an unmarked edge with its direction bit set is frozen
    type Pos = (u64, u64);
    type Key = u128;

    /// The component leaves the rest with its edges frozen: no other component shares an end
    /// or a live cell with them, so the rest's moves and components stay as they were.
    fn next_part(&self, p: &mut (u64, u64)) -> Option<(u64, u64)> {
        let (marked, dir) = *p;
        let free = self.b.markable & !marked & !dir;
        if free == 0 {
            return None;
        }
        if !self.opts.split {
            *p = (marked, dir | free);
            return Some((marked, dir));
        }
        let live = self.live_cells(marked, dir);
        let comp = self.component(free, live);
        *p = (marked, dir | comp);
        Some(self.restrict(marked, dir, comp, live))
    }

    fn known(&self, _: (u64, u64)) -> Option<u32> {
        None
    }

    fn key(&self, (marked, dir): (u64, u64)) -> u128 {
        if self.opts.symmetry {
            self.b.canon(marked, dir)
        } else {
            (marked as u128) << 64 | dir as u128
        }
    }

    fn size(&self, (marked, dir): (u64, u64)) -> u32 {
        (self.b.markable & !marked & !dir).count_ones()
    }

    /// The positions after each quiet legal move.
    fn options(&self, (marked, dir): (u64, u64), out: &mut Vec<(u64, u64)>) {
        let b = self.b;
        let mut free = b.markable & !marked & !dir;
        while free != 0 {
            let e = free.trailing_zeros() as usize;
            free &= free - 1;
            for d in [0u64, 1] {
                if b.sink_source_ok(marked, dir, e, d)
                    && b.classify(marked, dir, e, d) == Kind::Quiet
                {
                    out.push((marked | 1 << e, dir | d << e));
                }
            }
        }
    }
}
