//! Rulesets and positions as the language holds them. A component is a ruleset with its state,
//! integers its family reads (`game`), so sums, misère play and the generic searches work
//! across all rulesets.

use crate::engine::heap;
use crate::lang::eval::Env;
use crate::lang::game::Family;
use crate::lang::syntax::ast::GameDef;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Ruleset {
    pub id: usize,
    pub name: String,
    pub family: Box<dyn Family>,
}

static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

impl Ruleset {
    pub fn new(name: String, family: impl Family) -> Ruleset {
        Ruleset {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            name,
            family: Box::new(family),
        }
    }

    pub fn script(def: Rc<GameDef>, env: Env) -> Ruleset {
        if def.rules.iter().any(|r| r.side.is_some()) {
            return crate::lang::builtins::partizan::script(def, env);
        }
        Ruleset::new(
            def.name.name.to_string(),
            crate::lang::builtins::games::Script(def, env),
        )
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The family's own type, when it is `F`.
    pub fn family<F: Family>(&self) -> Option<&F> {
        self.family.as_any().downcast_ref()
    }
}

#[derive(Clone)]
pub struct Component {
    pub rs: Rc<Ruleset>,
    /// the position in the family's encoding (`Family` in `game`)
    pub args: Box<[i64]>,
}

impl Component {
    pub fn key(&self) -> Key {
        (self.rs.id, self.args.clone())
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.rs.family.describe(&self.rs.name, &self.args))
    }
}

/// A sum of components, under normal or misère play.
#[derive(Clone)]
pub struct Position {
    pub comps: Vec<Component>,
    pub misere: bool,
}

impl Position {
    /// The position of one component under normal play.
    pub fn single(rs: Rc<Ruleset>, args: Box<[i64]>) -> Position {
        Position {
            comps: vec![Component { rs, args }],
            misere: false,
        }
    }

    /// The one component of a position under normal play.
    pub fn the_one(&self) -> Option<&Component> {
        match self.comps.as_slice() {
            [c] if !self.misere => Some(c),
            _ => None,
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let parts: Vec<String> = self.comps.iter().map(|c| c.to_string()).collect();
        let body = if parts.is_empty() {
            "0".to_string()
        } else {
            parts.join(" + ")
        };
        if self.misere {
            write!(f, "misere({body})")
        } else {
            write!(f, "{body}")
        }
    }
}

pub type Key = (usize, Box<[i64]>);

/// Values kept between queries, so that the REPL answers repeated questions from memory.
#[derive(Default)]
pub struct Cache {
    pub grundy: HashMap<Key, u32>,
    /// values of heap games by ruleset id
    pub heaps: HashMap<usize, heap::Values>,
    /// native boards (placement, Game of Cycles) by their text, so that the values their
    /// engines keep last between queries
    pub boards: HashMap<String, Rc<Ruleset>>,
    /// the canonical forms of partizan games (`Value::Game` ids point here)
    pub partizan: crate::engine::partizan::Store,
    /// whether a partizan search holds `partizan` (taken out while scripted rules run)
    pub partizan_busy: bool,
}
