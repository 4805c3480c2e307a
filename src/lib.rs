//! gamut: a language and engines for permutation puzzles and combinatorial games.
//!
//! Two floors. [`engine`] holds plain Rust libraries (groups, heap games, generic impartial
//! search, placement games, the Game of Cycles, Dots-and-Boxes) that know nothing of the
//! language. [`lang`] holds the language: syntax, evaluator, builtins and value rendering. The
//! binary adds the CLI and the REPL.
pub mod engine;
pub mod lang;
