//! The builtin functions, registered into the interpreter one engine family per file.
pub mod boardrules;
pub mod core;
pub mod cycles;
pub mod dots;
pub mod games;
pub mod groups;
pub mod misere;
pub mod partizan;
pub mod pictures;
pub mod placement;
pub mod script;
