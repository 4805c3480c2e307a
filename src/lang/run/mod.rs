//! The run stage: values, the interpreter, rulesets and their positions.
pub mod eval;
pub mod game;
pub mod rules;
pub mod value;
