//! gamut: a language and engines for permutation puzzles and combinatorial games.
//! Stages: `syntax` (pest → AST) → `eval` (builtin table) → engines (`group`, `game`) →
//! `value` (text and JSON rendering). The binary adds the CLI and the REPL.
pub mod builtins;
pub mod engine;
pub mod error;
pub mod eval;
pub mod game;
pub mod group;
pub mod syntax;
pub mod value;
