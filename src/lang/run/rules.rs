//! Rulesets and positions as the language holds them. A component is a ruleset with its state,
//! integers its family reads (`game`), so sums, misère play and the generic searches work
//! across all rulesets.

use crate::engine::Ctl;
use crate::engine::control::map_bytes;
use crate::engine::control::num;
use crate::engine::heap;
use crate::lang::run::game::BOARD_BYTES;
use crate::lang::run::game::Family;
use crate::lang::run::value::Value;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::collections::HashMap;
use std::fmt;
use std::rc::{Rc, Weak};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The arguments of a scripted ruleset as state integers. A non-negative integer that fits
/// 64 bits is itself; any other value (a string, a list, a set, a larger integer ...) is
/// numbered in the order it is met and coded as -1 - its number. States so stay integers that
/// hash and compare by value, and every search, memo and sum works on them unchanged. Values
/// are never forgotten: positions held anywhere name them by code.
#[derive(Default)]
pub struct Interned {
    codes: RefCell<BTreeMap<Value, i64>>,
    /// strings, the common case, by hash rather than by order
    strs: RefCell<HashMap<Rc<str>, i64, foldhash::fast::FixedState>>,
    values: RefCell<Vec<Value>>,
    /// about how many bytes the values hold, and that many when the budget was last looked at
    bytes: std::cell::Cell<u64>,
    checked: std::cell::Cell<u64>,
}

impl Interned {
    /// The code of an argument; `Err` names what cannot be one.
    pub fn code(&self, v: &Value) -> std::result::Result<i64, String> {
        if let Value::Int(x) = v {
            if *x >= 0 {
                return Ok(*x);
            }
            return Err(format!("a negative integer ({})", num(*x)));
        }
        if let Value::Str(s) = v {
            if let Some(&c) = self.strs.borrow().get(s) {
                return Ok(c);
            }
        } else if let Some(bad) = not_data(v) {
            return Err(bad.a_type());
        } else if let Some(&c) = self.codes.borrow().get(v) {
            return Ok(c);
        }
        let mut values = self.values.borrow_mut();
        let c = -1 - values.len() as i64;
        values.push(v.clone());
        self.bytes.set(self.bytes.get() + data_bytes(v));
        match v {
            Value::Str(s) => self.strs.borrow_mut().insert(s.clone(), c),
            _ => self.codes.borrow_mut().insert(v.clone(), c),
        };
        Ok(c)
    }

    /// Refuses once the interned values take more than half of the memory a query may use
    /// (the searches that make them keep their tables in the rest): every value a play meets
    /// is kept. Looks at the budget after each new megabyte.
    pub fn check_budget(&self, ctl: &Ctl) -> crate::lang::error::Result<()> {
        if self.bytes.get() < self.checked.get() + (1 << 20) {
            return Ok(());
        }
        self.checked.set(self.bytes.get());
        let memory = ctl.memory();
        if self.bytes.get() > memory / 2 {
            let e = crate::engine::control::over_budget(
                self.bytes.get(),
                memory / 2,
                "keeping the positions' arguments (half the memory; the search has the rest)",
            );
            return Err(crate::lang::error::Error::from(e).hint(
                "every argument value a search meets is kept: do the moves build ever longer strings or lists?",
            ));
        }
        Ok(())
    }

    /// The code of the string `s` where it is interned already.
    pub fn str_code(&self, s: &str) -> Option<i64> {
        self.strs.borrow().get(s).copied()
    }

    /// The value of a code.
    pub fn value(&self, code: i64) -> Value {
        if code >= 0 {
            Value::Int(code)
        } else {
            self.values.borrow()[(-1 - code) as usize].clone()
        }
    }

    /// A position `name(a, b)` with its arguments as they are written.
    pub fn describe(&self, name: &str, state: &[i64]) -> String {
        let args: Vec<String> = state.iter().map(|&c| self.value(c).source_text()).collect();
        format!("{name}({})", args.join(", "))
    }
}

/// About how many bytes a value of plain data holds (its parts included).
fn data_bytes(v: &Value) -> u64 {
    let (mut bytes, mut stack) = (0u64, vec![v]);
    while let Some(v) = stack.pop() {
        bytes += 32
            + match v {
                Value::Str(s) => s.len() as u64,
                Value::List(xs) => {
                    stack.extend(xs.iter());
                    0
                }
                Value::Set(xs) => {
                    stack.extend(xs.iter());
                    16 * xs.len() as u64
                }
                Value::Big(_) | Value::Rat(_) => v.weight() * 32,
                _ => 0,
            };
    }
    bytes
}

/// A part of `v` that is not plain data (a function, a position, a group ...): such values
/// compare by their text, so they cannot name a position.
fn not_data(v: &Value) -> Option<&Value> {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::List(xs) => stack.extend(xs.iter()),
            Value::Set(xs) => stack.extend(xs.iter()),
            Value::None
            | Value::Bool(_)
            | Value::Int(_)
            | Value::Big(_)
            | Value::Rat(_)
            | Value::Str(_)
            | Value::Range(..)
            | Value::Perm(_)
            | Value::Game(_) => {}
            other => return Some(other),
        }
    }
    None
}

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
///
/// What is kept is charged to the session's memory budget (`Ctl::kept`), so that a query may
/// use only the rest, and dropped least recently used first: after each query down to half
/// the budget, and all of it when a query runs out of memory (the query is then tried once
/// more). Each item is measured when a query has used it.
#[derive(Default)]
pub struct Cache {
    /// nimbers of components found by the generic search
    pub grundy: HashMap<Key, u32, foldhash::fast::FixedState>,
    /// values of heap games by ruleset id
    pub heaps: HashMap<usize, heap::Values>,
    /// native boards (placement, Game of Cycles) by their text, so that the values their
    /// engines keep last between queries
    boards: HashMap<String, Rc<Ruleset>>,
    /// the canonical forms of partizan games (`Value::Game` ids point here)
    pub partizan: crate::engine::partizan::Store,
    /// whether a partizan search holds `partizan` (taken out while scripted rules run)
    pub partizan_busy: bool,
    kept: HashMap<Item, Kept>,
    /// the sum of the `bytes` of `kept`
    total: u64,
    clock: u64,
    /// how many items were kept after the last sweep for rulesets no value holds
    swept: usize,
    /// items used since they were last measured
    touched: Vec<Item>,
}

/// Something kept between queries: a ruleset's tables (with its heap values and, for a board,
/// its place in `boards`), the generic search's nimbers, the partizan store's memos.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Item {
    Ruleset(usize),
    Grundy,
    Store,
}

struct Kept {
    rs: Option<Weak<Ruleset>>,
    /// the ruleset's key in `boards`
    board: Option<String>,
    bytes: u64,
    used: u64,
}

/// The share of the budget that what is kept may hold after a query.
const KEPT_SHARE: u64 = 2;

impl Cache {
    fn touch_item(&mut self, item: Item, rs: Option<&Rc<Ruleset>>) {
        self.clock += 1;
        let used = self.clock;
        let k = self.kept.entry(item).or_insert_with(|| Kept {
            rs: rs.map(Rc::downgrade),
            board: None,
            bytes: 0,
            used,
        });
        k.used = used;
        self.touched.push(item);
    }

    /// A query uses the ruleset (and what its family keeps).
    pub fn touch(&mut self, rs: &Rc<Ruleset>) {
        self.touch_item(Item::Ruleset(rs.id), Some(rs));
    }

    /// The ruleset of a native board (placement, Game of Cycles) by its text, made by `make`
    /// the first time, so that what its engine keeps serves later queries.
    pub fn board(
        &mut self,
        key: String,
        make: impl FnOnce() -> crate::lang::error::Result<Ruleset>,
    ) -> crate::lang::error::Result<Rc<Ruleset>> {
        let rs = match self.boards.get(&key) {
            Some(rs) => rs.clone(),
            None => {
                let rs = Rc::new(make()?);
                self.boards.insert(key.clone(), rs.clone());
                rs
            }
        };
        self.touch(&rs);
        if let Some(k) = self.kept.get_mut(&Item::Ruleset(rs.id)) {
            k.board = Some(key);
        }
        Ok(rs)
    }

    /// A query uses the generic search's nimbers.
    pub fn touch_grundy(&mut self) {
        self.touch_item(Item::Grundy, None);
    }

    fn measure(&self, item: Item, k: &Kept) -> u64 {
        match item {
            Item::Ruleset(id) => {
                let family =
                    k.rs.as_ref()
                        .and_then(Weak::upgrade)
                        .map_or(0, |rs| rs.family.kept_bytes());
                let board = k.board.is_some() as u64 * BOARD_BYTES;
                family + self.heaps.get(&id).map_or(0, |v| v.bytes()) + board
            }
            Item::Grundy => {
                let keys: usize = self
                    .grundy
                    .keys()
                    .take(64)
                    .map(|k| 16 + 8 * k.1.len())
                    .sum();
                let per_key = keys as u64 / self.grundy.len().clamp(1, 64) as u64;
                map_bytes(&self.grundy) + per_key * self.grundy.len() as u64
            }
            Item::Store => {
                if self.partizan_busy {
                    k.bytes
                } else {
                    self.partizan.bytes()
                }
            }
        }
    }

    fn forget(&mut self, item: Item) {
        let Some(k) = self.kept.remove(&item) else {
            return;
        };
        self.total -= k.bytes;
        match item {
            Item::Ruleset(id) => {
                if let Some(rs) = k.rs.as_ref().and_then(Weak::upgrade) {
                    rs.family.forget();
                }
                self.heaps.remove(&id);
                // a board no value holds is built again when asked for
                if let Some(key) = k.board
                    && self
                        .boards
                        .get(&key)
                        .is_some_and(|rs| Rc::strong_count(rs) == 1)
                {
                    self.boards.remove(&key);
                }
            }
            Item::Grundy => self.grundy = HashMap::default(),
            Item::Store => {
                if !self.partizan_busy {
                    self.partizan.forget_memos();
                }
            }
        }
    }

    /// After a query: measures what it used, then drops what is least recently used while
    /// more than `KEPT_SHARE`-th of the budget is kept, and tells `ctl` what remains.
    pub fn settle(&mut self, ctl: &Ctl) {
        if !self.partizan_busy
            && self.partizan.bytes() != self.kept.get(&Item::Store).map_or(0, |k| k.bytes)
        {
            self.touch_item(Item::Store, None);
        }
        for item in std::mem::take(&mut self.touched) {
            let Some(k) = self.kept.get(&item) else {
                continue;
            };
            let bytes = self.measure(item, k);
            let k = self.kept.get_mut(&item).expect("looked up above");
            self.total = self.total - k.bytes + bytes;
            k.bytes = bytes;
        }
        // rulesets no value holds any more
        if self.kept.len() > 2 * self.swept + 64 {
            let dead: Vec<Item> = (self.kept.iter())
                .filter(|(_, k)| k.rs.as_ref().is_some_and(|w| w.strong_count() == 0))
                .map(|(&i, _)| i)
                .collect();
            for item in dead {
                self.forget(item);
            }
            self.swept = self.kept.len();
        }
        let room = ctl.budget() / KEPT_SHARE;
        if self.total > room {
            let mut lru: Vec<(u64, Item)> = self.kept.iter().map(|(&i, k)| (k.used, i)).collect();
            lru.sort_unstable_by_key(|x| x.0);
            for (_, item) in lru {
                if self.total <= room {
                    break;
                }
                self.forget(item);
            }
        }
        self.count_store();
        ctl.set_kept(self.total);
    }

    /// Drops everything kept (a query ran out of memory); whether anything was.
    pub fn forget_all(&mut self, ctl: &Ctl) -> bool {
        let had = self.total > 0;
        let items: Vec<Item> = self.kept.keys().copied().collect();
        for item in items {
            self.forget(item);
        }
        self.count_store();
        ctl.set_kept(self.total);
        had
    }

    /// Tells the store what of it is now kept, so that a query's store keeps to the budget.
    fn count_store(&mut self) {
        if !self.partizan_busy {
            let bytes = self.kept.get(&Item::Store).map_or(0, |k| k.bytes);
            self.partizan.set_counted(bytes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::error::Result;
    use crate::lang::run::eval::Interp;
    use crate::lang::run::game::{Family, Options};
    use std::cell::Cell;

    /// A family that keeps a given number of bytes until it is told to forget them.
    struct Keeps(Cell<u64>);

    impl Family for Keeps {
        fn options(&self, _: &mut Interp, _: &Ruleset, _: &[i64]) -> Result<Options> {
            Ok(vec![])
        }
        fn kept_bytes(&self) -> u64 {
            self.0.get()
        }
        fn forget(&self) {
            self.0.set(0);
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
    }

    fn bytes(rs: &Ruleset) -> u64 {
        rs.family::<Keeps>().unwrap().0.get()
    }

    #[test]
    fn the_least_recently_used_is_dropped_first_and_the_rest_charged() {
        const MB: u64 = 1 << 20;
        let ctl = Ctl::default().with_memory(10 * MB);
        let mut cache = Cache::default();
        let store = cache.partizan.bytes();
        let a = Rc::new(Ruleset::new("a".into(), Keeps(Cell::new(3 * MB))));
        let b = Rc::new(Ruleset::new("b".into(), Keeps(Cell::new(3 * MB))));
        cache.touch(&a);
        cache.settle(&ctl);
        assert_eq!(ctl.kept(), 3 * MB + store);
        assert_eq!(ctl.memory(), 7 * MB - store);
        // both would be 6 MB, more than half the budget: `a` was used least recently
        cache.touch(&b);
        cache.settle(&ctl);
        assert_eq!((bytes(&a), bytes(&b)), (0, 3 * MB));
        assert_eq!(ctl.kept(), 3 * MB + store);
        // a query uses `a` again, which builds its tables anew: now `b` goes
        a.family::<Keeps>().unwrap().0.set(4 * MB);
        cache.touch(&a);
        cache.settle(&ctl);
        assert_eq!((bytes(&a), bytes(&b)), (4 * MB, 0));
        assert!(cache.forget_all(&ctl));
        assert_eq!((bytes(&a), ctl.memory()), (0, 10 * MB - ctl.kept()));
    }
}
