//! The engines: plain Rust libraries for permutation groups and combinatorial games. Nothing
//! here imports the language; errors are plain kinds, and cancellation, progress and the memory
//! budget arrive as a [`Ctl`] handle.
//!
//! The order of the 2 × 2 Rubik's Slide group, by Schreier–Sims (points from 0 here):
//! ```
//! use gamut::engine::group::{GroupVal, perm::Perm};
//! let r = Perm::from_cycles(4, &[vec![0, 1], vec![2, 3]]).unwrap();
//! let u = Perm::from_cycles(4, &[vec![0, 2], vec![1, 3]]).unwrap();
//! let c = Perm::from_cycles(4, &[vec![0, 1, 3, 2]]).unwrap();
//! let g = GroupVal::new(vec![("R".into(), r), ("U".into(), u), ("C".into(), c)]).unwrap();
//! assert_eq!(g.order().to_string(), "8");
//! ```
//!
//! Kayles values (octal code 0.77) with the sparse-space engine:
//! ```
//! use gamut::engine::{Ctl, heap};
//! let kayles = heap::Code::parse("0.77").unwrap();
//! let g = heap::values(&kayles, 12, &Ctl::default()).unwrap();
//! assert_eq!(g, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
//! ```
pub mod board;
pub mod control;
pub mod cram;
pub mod cycles;
pub mod dots;
pub mod graph;
pub mod placement;

pub use control::{Ctl, Error, ErrorKind, Result};
pub mod group;
pub mod heap;
pub mod impartial;
pub mod loopy;
pub mod misere;
pub mod moore;
pub mod partizan;
pub mod plot;
pub mod winloss;
pub mod wythoff;

/// A xorshift generator for the engines' randomised unit tests (fixed seeds: failures repeat).
#[cfg(test)]
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
