//! The language: source text → AST (`syntax`) → evaluator with a builtin table (`eval`,
//! `builtins`, one file per engine family) → values and their text and JSON forms (`value`).
//! Engines are reached only through their public APIs in `crate::engine`.
pub mod builtins;
pub mod compile;
pub mod error;
pub mod eval;
pub mod game;
pub mod help;
pub mod rules;
pub mod split;
pub mod syntax;
pub mod value;
