//! The engines: plain Rust libraries for permutation groups and combinatorial games. Nothing
//! here imports the language; errors are plain kinds, and cancellation, progress and the memory
//! budget arrive as a [`Ctl`] handle.
pub mod control;
pub mod cycles;
pub mod dots;
pub mod graph;
pub mod placement;

pub use control::{Ctl, Error, ErrorKind, Result};
pub mod group;
pub mod heap;
pub mod impartial;
pub mod moore;
pub mod wythoff;
