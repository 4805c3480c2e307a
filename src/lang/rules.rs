//! Games. The engines (`impartial`, `heap`, `moore`, `wythoff`) work on plain data; this file
//! holds the rulesets and positions the language hands them.

use crate::engine::heap;
use crate::lang::eval::Env;
use crate::lang::syntax::ast::GameDef;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub enum Rules {
    /// `game name(params) { move ... }`
    Script(Rc<GameDef>, Env),
    /// a heap game from its take-and-break code
    Heap(heap::Code),
    /// Moore's Nim_k on any number of heaps
    Moore(u32),
}

pub struct Ruleset {
    pub id: usize,
    pub name: String,
    pub rules: Rules,
}

static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

impl Ruleset {
    pub fn new(name: String, rules: Rules) -> Ruleset {
        Ruleset {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            name,
            rules,
        }
    }

    pub fn script(def: Rc<GameDef>, env: Env) -> Ruleset {
        Ruleset::new(def.name.name.to_string(), Rules::Script(def, env))
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of arguments of a position, when fixed.
    pub fn arity(&self) -> Option<usize> {
        match &self.rules {
            Rules::Script(def, _) => Some(def.params.len()),
            Rules::Heap(_) => Some(1),
            Rules::Moore(_) => None,
        }
    }
}

#[derive(Clone)]
pub struct Component {
    pub rs: Rc<Ruleset>,
    pub args: Box<[i64]>,
}

impl Component {
    pub fn key(&self) -> Key {
        (self.rs.id, self.args.clone())
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let args: Vec<String> = self.args.iter().map(|a| a.to_string()).collect();
        match &self.rs.rules {
            Rules::Moore(k) => write!(f, "moore({k}, [{}])", args.join(", ")),
            _ => write!(f, "{}({})", self.rs.name, args.join(", ")),
        }
    }
}

/// A sum of components, under normal or misère play.
#[derive(Clone)]
pub struct Position {
    pub comps: Vec<Component>,
    pub misere: bool,
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
    pub heaps: HashMap<usize, Vec<u32>>,
}
