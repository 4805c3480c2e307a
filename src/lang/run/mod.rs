//! The run stage: values, the interpreter, rulesets and their positions.
pub mod cgt;
pub mod eval;
pub mod game;
pub mod groups;
pub mod heap;
pub mod positions;
pub mod rules;
pub mod value;
