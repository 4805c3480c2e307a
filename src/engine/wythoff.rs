//! Wythoff's game by rows: G(k, n) for k ≤ rows, computed row by row in O(k) per cell, and
//! the additive periodicity of each row (G(k, n) - n is ultimately periodic).
//!
//! The row engine agrees with the generic search over the [`Game`] rules:
//! ```
//! use gamut::engine::{Ctl, impartial, wythoff};
//! let g = wythoff::table(6, 6);
//! let mut memo = std::collections::HashMap::new();
//! for a in 0..=6u64 {
//!     for b in 0..=6u64 {
//!         let v = impartial::grundy(&mut wythoff::Wythoff, &mut memo, &(a, b), &Ctl::default());
//!         assert_eq!(v.unwrap(), g[a as usize][b as usize]);
//!     }
//! }
//! ```
use crate::engine::Error;
use crate::engine::impartial::Game;

/// Wythoff's game for the generic searches: a component is a pair of heaps; a move takes from
/// one heap, or the same amount from both.
pub struct Wythoff;

impl Game for Wythoff {
    type Pos = (u64, u64);
    type Error = Error;
    fn options(&mut self, &(a, b): &(u64, u64)) -> Result<Vec<Vec<(u64, u64)>>, Error> {
        let rows = (1..=a).map(|k| (a - k, b));
        let cols = (1..=b).map(|k| (a, b - k));
        let diag = (1..=a.min(b)).map(|k| (a - k, b - k));
        Ok(rows.chain(cols).chain(diag).map(|p| vec![p]).collect())
    }
    fn describe(&self, &(a, b): &(u64, u64)) -> String {
        format!("wythoff({a}, {b})")
    }
}

/// g[k][n] for 0 ≤ k ≤ rows, 0 ≤ n ≤ cols.
pub fn table(rows: usize, cols: usize) -> Vec<Vec<u32>> {
    let mut g: Vec<Vec<u32>> = Vec::with_capacity(rows + 1);
    for k in 0..=rows {
        let mut row: Vec<u32> = Vec::with_capacity(cols + 1);
        // values already in this row, and the smallest value not among them
        let mut in_row: Vec<bool> = vec![false; cols + rows + 2];
        let mut low = 0usize;
        for n in 0..=cols {
            // options outside the row: the column below and the diagonal
            let mut extra: Vec<u32> = (0..k).map(|i| g[i][n]).collect();
            extra.extend((1..=k.min(n)).map(|i| g[k - i][n - i]));
            let mut v = low;
            while in_row.get(v).copied().unwrap_or(false) || extra.contains(&(v as u32)) {
                v += 1;
            }
            if v >= in_row.len() {
                in_row.resize(v + 1, false);
            }
            in_row[v] = true;
            while in_row.get(low).copied().unwrap_or(false) {
                low += 1;
            }
            row.push(v as u32);
        }
        g.push(row);
    }
    g
}

/// The smallest period q of s(n) = G(k, n) - n whose periodic part covers at least the second
/// half of the range (and three periods), with its smallest preperiod.
pub fn additive_period(row: &[u32]) -> Option<(usize, usize)> {
    let s: Vec<i64> = row
        .iter()
        .enumerate()
        .map(|(n, &v)| v as i64 - n as i64)
        .collect();
    let len = s.len();
    (1..=len / 3).find_map(|q| {
        let mut p = len - q;
        while p > 0 && s[p - 1] == s[p - 1 + q] {
            p -= 1;
        }
        (p <= len / 2 && len - p >= 3 * q).then_some((p, q))
    })
}
