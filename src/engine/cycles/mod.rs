//! The Game of Cycles.
