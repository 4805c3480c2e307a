//! The language, one module per stage: source text → AST (`syntax`) → rules compiled once at
//! definition (`compile`) → values and the interpreter that evaluates the AST over them, with
//! rulesets and positions (`run`) → the builtin functions, one file per engine family, each
//! registering what it adds (`builtins`). A family imports no other family and the interpreter
//! names none: what families share lives in `run`. Engines are reached only through their
//! public APIs in `crate::engine`. Beside the stages: errors with spans and hints (`error`),
//! `:help` (`help`) and computations split over processes (`split`).
pub mod builtins;
pub mod compile;
pub mod error;
pub mod help;
pub mod run;
pub mod split;
pub mod syntax;
