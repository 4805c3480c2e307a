//! The builtin functions, registered into the interpreter one engine family per file. A family
//! imports no other family: what they share is in `crate::lang::run`.
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

use crate::lang::run::eval::Interp;

/// Registers every family's builtins (under the family `:help` lists them by) and definitions.
pub fn install(it: &mut Interp) {
    it.family = "core";
    core::register(it);
    it.family = "groups and boards";
    groups::register(it);
    it.family = "games";
    games::register(it);
    script::register(it);
    boardrules::register(it);
    misere::register(it);
    pictures::register(it);
    placement::register(it);
    cycles::register(it);
    dots::register(it);
    it.family = "partizan games";
    partizan::register(it);
}
