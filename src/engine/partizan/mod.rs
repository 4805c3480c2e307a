//! Short partizan games: canonical forms in a hash-consed [`Store`], their arithmetic and order,
//! CGSuite's notation, thermography, a generic search for rulesets, and built-in rulesets.
//!
//! A value is a [`Game`] id into a [`Store`]; equal games have equal ids, so `==` on ids is
//! equality of games. What a language layer needs:
//! - building: [`Store::parse`] (CGSuite notation, for literals), [`Store::canonical`] (from
//!   option lists, for `{L | R}`), [`Store::number`], [`Store::integer`], [`Store::nimber`],
//!   [`Store::up`], [`Store::nus_game`];
//! - arithmetic and order: [`Store::add`], [`Store::sub`], [`Store::neg`], [`Store::sum`],
//!   [`Store::leq`], [`Store::compare`] ([`Relation`]), [`Store::outcome`] ([`Outcome`]);
//! - reading: [`Store::show`] (CGSuite's text, also the JSON form), [`Store::left`],
//!   [`Store::right`], [`Store::nus`], [`Store::as_number`], [`Store::as_nimber`],
//!   [`Store::birthday`];
//! - thermography: [`Store::left_stop`], [`Store::right_stop`], [`Store::mean`],
//!   [`Store::temperature`], [`Store::thermograph`] (walls as [`Wall`]s;
//!   [`Thermograph::polylines`] for plotting), [`Store::cool`], [`Store::heat`],
//!   [`Store::atomic_weight`];
//! - rulesets: implement [`Rules`] (Left's and Right's options, an optional split into
//!   components, an optional shortcut for components valued without the search) and call
//!   [`value`]; the built-ins are in [`games`];
//! - who wins without the value: [`outcome::outcome`] (an outcome-only search).
//!
//! Long operations poll the [`Ctl`](crate::engine::Ctl) given to [`Store::new`] (or
//! [`Store::set_ctl`]) and refuse past its memory budget.
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
pub mod loopy;
mod notation;
pub mod outcome;
pub mod picture;
mod search;
mod store;
mod thermo;

pub use dyadic::Dyadic;
pub use search::{Rules, value};
pub use store::{Game, Nus, Outcome, Relation, Store};
pub use thermo::{Thermograph, Wall};
