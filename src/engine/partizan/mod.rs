//! Short partizan games: canonical forms in a hash-consed [`Store`], their arithmetic and order,
//! CGSuite's notation, thermography, a generic search for rulesets, and built-in rulesets.
//!
//! A value is a [`Game`] id into a [`Store`]; equal games have equal ids, so `==` on ids is
//! equality of games.
//! ```
//! use gamut::engine::partizan::{Store, Outcome, Relation};
//! let mut s = Store::default();
//! let up = s.parse("^").unwrap();
//! let star = s.parse("*").unwrap();
//! let g = s.parse("{2|1/2||-1}").unwrap();
//! assert_eq!(s.show(g).unwrap(), "{2|1/2||-1}");
//! assert_eq!(s.compare(up, star).unwrap(), Relation::Fuzzy);
//! let sum = s.add(up, star).unwrap();
//! assert_eq!(s.show(sum).unwrap(), "^*");
//! assert_eq!(s.outcome(sum).unwrap(), Outcome::N);
//! let pm = s.parse("{1|-1}").unwrap();
//! assert_eq!(s.show(pm).unwrap(), "±1");
//! assert_eq!(s.temperature(pm).unwrap().to_string(), "1");
//! ```
pub mod dyadic;
pub mod games;
mod notation;
mod search;
mod store;
mod thermo;

pub use dyadic::Dyadic;
pub use search::{Rules, value};
pub use store::{Game, Nus, Outcome, Relation, Store};
pub use thermo::{Thermograph, Wall};
