//! `game name(params) { move ... }`: rulesets written as rules, run compiled (`compile`).
//! A ruleset of one argument is valued as a heap engine values its heaps: nimbers in a table
//! indexed by heap, each heap's options listed by the compiled rules into one flat buffer.
use crate::engine::control::Task;
use crate::engine::control::map_bytes;
use crate::engine::heap::Code;
use crate::engine::impartial;
use crate::engine::partizan::{self as cg, Game, Rules as Sums};
use crate::lang::compile::{Flat, Rules, options_cap};
use crate::lang::error::Error;
use crate::lang::error::Result;
use crate::lang::run::cgt::{Partizan, Sides, store};
use crate::lang::run::eval::{Env, Interp};
use crate::lang::run::game::{Family, Options};
use crate::lang::run::heap::Heap;
use crate::lang::run::positions::{LoopyMemo, too_many};
use crate::lang::run::rules::{Interned, Ruleset};
use crate::lang::run::value::Value;
use crate::lang::syntax::ast::{GameDef, Side};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// The rules of a `game` block with the scope it was defined in.
struct Scripted {
    pub def: Rc<GameDef>,
    pub env: Env,
    pub codes: Interned,
    rules: Rules,
    /// the values of the names the rules read when a search last valued positions
    searched_under: RefCell<Vec<Option<Value>>>,
}

impl Scripted {
    fn new(def: Rc<GameDef>, env: Env) -> Scripted {
        Scripted {
            rules: Rules::compile(&def),
            def,
            env,
            codes: Interned::default(),
            searched_under: RefCell::default(),
        }
    }

    /// Whether a name the rules read is bound to another value than when a search last valued
    /// positions of this ruleset (whose values kept by that search are then stale); remembers
    /// the values now.
    fn scope_changed(&self, it: &Interp) -> bool {
        let under = self.rules.scope_values(it, &self.env);
        let was = self.searched_under.replace(under);
        was != *self.searched_under.borrow()
    }

    /// The options of `state` by the rules of `side` (`None`: all), each a sum of components.
    fn options(&self, it: &mut Interp, state: &[i64], side: Option<Side>) -> Result<Options> {
        let mut flat = Flat::default();
        self.list(it, state, side, &mut flat)?;
        let arity = self.def.params.len();
        Ok((0..flat.len()).map(|i| flat.components(i, arity)).collect())
    }

    /// The options of `state` appended to `flat`.
    fn list(
        &self,
        it: &mut Interp,
        state: &[i64],
        side: Option<Side>,
        flat: &mut Flat,
    ) -> Result<()> {
        self.rules
            .options(it, &self.env, &self.codes, state, side, flat)
            .map_err(|e| {
                if e.message.is_empty() {
                    too_many(
                        &self.codes.describe(&self.def.name.name, state),
                        options_cap(it),
                    )
                } else {
                    e
                }
            })
    }
}

/// An impartial ruleset written as rules.
struct Script {
    pub rules: Scripted,
    /// nimbers of heaps, for a ruleset of one argument
    table: RefCell<Table>,
    /// the table is in use by a search
    busy: Cell<bool>,
    /// the take-and-break game the rules are (`None` if they are not one), under the values
    /// of the names they read from their scope
    heap: RefCell<Option<Found>>,
    /// the labelled positions of a `loopy game`
    loopy: RefCell<LoopyMemo>,
}

type Found = (Vec<Option<Value>>, Option<Rc<Ruleset>>);

pub fn register(it: &mut Interp) {
    it.define_game = Some(define);
}

/// A `game` block as a ruleset: partizan when it has `left move` or `right move` lines.
fn define(def: Rc<GameDef>, env: Env) -> Ruleset {
    if def.rules.iter().any(|r| r.side.is_some()) {
        return partizan(def, env);
    }
    Ruleset::new(def.name.name.to_string(), Script::new(def, env))
}

impl Script {
    fn new(def: Rc<GameDef>, env: Env) -> Script {
        Script {
            rules: Scripted::new(def, env),
            table: RefCell::default(),
            busy: Cell::new(false),
            heap: RefCell::default(),
            loopy: RefCell::default(),
        }
    }
}

/// Nimbers of heaps 0, 1, ... (`UNKNOWN` where not found yet), with the values of the names
/// the rules read from their scope when they were found: a name may be bound again.
#[derive(Default)]
struct Table {
    nimbers: Vec<u32>,
    under: Vec<Option<Value>>,
    /// the search's buffers, kept so that a table of many heaps allocates them once
    scratch: (Flat, Vec<u32>, Vec<bool>),
}

const UNKNOWN: u32 = u32::MAX;
const ON_LINE: u32 = u32::MAX - 1;
/// Heaps past this are left to the generic search, which keeps only the heaps it meets.
const TABLE_HEAPS: i64 = 1 << 24;

impl Family for Script {
    /// What `:help` says of an impartial ruleset written as rules: its signature and the engine
    /// that values it.
    fn help(&self, it: &Interp, name: &str) -> Option<String> {
        let def = &self.rules.def;
        let params: Vec<&str> = def.params.iter().map(|p| &*p.name).collect();
        let rules = def.rules.len();
        let head = format!(
            "`{name}` is a ruleset defined in this session: {}game {name}({}), {rules} rule{}",
            if def.loopy { "loopy " } else { "" },
            params.join(", "),
            if rules == 1 { "" } else { "s" }
        );
        let how = match self.heap_form(it) {
            Some(h) => format!(
                "its rules are the take-and-break game {}: its nimbers, periods and tables come from the heap engine (sparse space, the periodicity theorem)",
                h.family::<crate::lang::run::heap::Heap>()
                    .map_or(String::new(), |c| format!("octal({:?})", c.0.text))
            ),
            None if def.loopy => {
                "valued by generalized Sprague-Grundy values over the graph of the positions reached"
                    .into()
            }
            None if params.len() == 1 => {
                "its rules run compiled, valued over a table of nimbers by heap".into()
            }
            None => "its rules run compiled, valued by the memoised search over positions".into(),
        };
        Some(format!("{head}\n  {how}"))
    }
    /// The octal game these rules are with the scope's values now, as a ruleset of the heap
    /// engine, where they are one (`compile::octal` says which rules are).
    fn heap_form(&self, it: &Interp) -> Option<Rc<Ruleset>> {
        if self.rules.def.loopy {
            return None;
        }
        let under = self.rules.rules.scope_values(it, &self.rules.env);
        let mut found = self.heap.borrow_mut();
        if let Some((u, r)) = &*found
            && *u == under
        {
            return r.clone();
        }
        let code = self
            .rules
            .rules
            .octal(&under)
            .and_then(|t| Code::parse(&t).ok());
        let name = self.rules.def.name.name.to_string();
        let r = code.map(|c| Rc::new(Ruleset::new(name, Heap(c))));
        *found = Some((under, r.clone()));
        r
    }

    /// The labelled positions kept for a loopy ruleset, taken out while a query uses them;
    /// dropped if a name the rules read is bound to another value now.
    fn take_loopy(&self, it: &Interp) -> LoopyMemo {
        let under = self.rules.rules.scope_values(it, &self.rules.env);
        let memo = self.loopy.take();
        if memo.under == under {
            memo
        } else {
            LoopyMemo::new(under)
        }
    }

    fn keep_loopy(&self, memo: LoopyMemo) {
        *self.loopy.borrow_mut() = memo;
    }
    fn scope_changed(&self, it: &Interp) -> bool {
        self.rules.scope_changed(it)
    }
    fn arity(&self) -> Option<usize> {
        Some(self.rules.def.params.len())
    }
    fn loopy(&self) -> bool {
        self.rules.def.loopy
    }
    fn options(&self, it: &mut Interp, _: &Ruleset, state: &[i64]) -> Result<Options> {
        self.rules.options(it, state, None)
    }
    fn grundy(&self, it: &mut Interp, rs: &Ruleset, state: &[i64]) -> Result<Option<u32>> {
        if self.rules.def.params.len() != 1 || self.rules.def.loopy {
            return Ok(None);
        }
        // (a negative state is the code of a value that is not a heap)
        if state[0] >= 0
            && let Some(h) = self.heap_form(it)
        {
            it.games.touch(&h);
            return h.family.grundy(it, &h, state);
        }
        // taken out while the rules run; rules that ask for nimbers of this ruleset again are
        // left to the generic search
        if self.busy.replace(true) {
            return Ok(None);
        }
        let mut table = self.table.take();
        let r = self.heap(it, rs, state[0], &mut table);
        *self.table.borrow_mut() = table;
        self.busy.set(false);
        r
    }
    fn tidy_options(&self) -> bool {
        true
    }
    fn describe(&self, name: &str, state: &[i64]) -> String {
        self.rules.codes.describe(name, state)
    }
    fn interned(&self) -> Option<&Interned> {
        Some(&self.rules.codes)
    }
    fn kept_bytes(&self) -> u64 {
        let t = self.table.borrow();
        let (flat, nimbers, seen) = &t.scratch;
        (t.nimbers.capacity() + nimbers.capacity()) as u64 * 4
            + (flat.data.capacity() + flat.ends.capacity()) as u64 * 8
            + seen.capacity() as u64
            + self.loopy.try_borrow().map_or(0, |m| m.bytes())
    }
    fn forget(&self) {
        self.table.take();
        self.heap.take();
        self.loopy.take();
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl Script {
    /// The nimber of heap `n` by a search over heaps with the nimbers in `table`; `None` when
    /// the search meets what a table cannot hold (a heap past `TABLE_HEAPS`, an argument that
    /// is not a heap, a heap reached from itself): the generic search then values it, and
    /// names the cycle.
    fn heap(&self, it: &mut Interp, rs: &Ruleset, n: i64, t: &mut Table) -> Result<Option<u32>> {
        if !(0..=TABLE_HEAPS).contains(&n) {
            return Ok(None);
        }
        let under = self.rules.rules.scope_values(it, &self.rules.env);
        if t.under != under {
            t.nimbers.clear();
            t.under = under;
        }
        if let Some(&g) = t.nimbers.get(n as usize)
            && g < ON_LINE
        {
            return Ok(Some(g));
        }
        let mut line = vec![];
        let r = self.search(it, rs, n as usize, t, &mut line);
        // a search that stopped leaves its line of play unvalued
        for (h, _, _) in line {
            t.nimbers[h] = UNKNOWN;
        }
        r
    }

    /// `heap`'s search from heap `n`; `line` holds each heap on the line of play with its
    /// first option in the flat buffer and the next option to look at.
    fn search(
        &self,
        it: &mut Interp,
        rs: &Ruleset,
        n: usize,
        t: &mut Table,
        line: &mut Vec<(usize, usize, usize)>,
    ) -> Result<Option<u32>> {
        let ctl = it.ctl.clone();
        let task = ctl.task(&format!("nimbers of {}", rs.name), None);
        // the options of the heaps on the line, the nimber of each valued so far, and the
        // nimbers seen by a mex
        let (mut flat, mut nimbers, mut seen) = std::mem::take(&mut t.scratch);
        flat.truncate(0);
        nimbers.clear();
        let r = self.walk(it, n, t, line, (&mut flat, &mut nimbers, &mut seen), &task);
        t.scratch = (flat, nimbers, seen);
        r
    }

    /// `search` with its buffers.
    fn walk(
        &self,
        it: &mut Interp,
        n: usize,
        t: &mut Table,
        line: &mut Vec<(usize, usize, usize)>,
        (flat, nimbers, seen): (&mut Flat, &mut Vec<u32>, &mut Vec<bool>),
        task: &Task,
    ) -> Result<Option<u32>> {
        let ctl = it.ctl.clone();
        let mut steps = 0u64;
        let mut next = Some(n);
        loop {
            if let Some(h) = next.take() {
                steps += 1;
                if steps.is_multiple_of(4096) {
                    task.set(steps)?;
                    let bytes = (t.nimbers.len() as u64 * 4)
                        .saturating_add(flat.data.len() as u64 * 8)
                        .saturating_add(flat.len() as u64 * 8);
                    ctl.reserve(bytes, "the nimbers of a ruleset's heaps")?;
                }
                if line.len() >= impartial::MAX_LINE {
                    // a play that may not end: the generic search says so
                    return Ok(None);
                }
                if t.nimbers.len() <= h {
                    ctl.reserve((h as u64 + 1) * 4, "the nimbers of a ruleset's heaps")?;
                    t.nimbers.resize(h + 1, UNKNOWN);
                }
                t.nimbers[h] = ON_LINE;
                let start = flat.len();
                self.rules.list(it, &[h as i64], None, flat)?;
                nimbers.resize(flat.len(), 0);
                line.push((h, start, start));
            }
            let Some(&mut (h, start, ref mut i)) = line.last_mut() else {
                unreachable!("the line of play holds the heap asked for until it is valued")
            };
            while *i < flat.len() {
                let mut g = 0;
                for &m in flat.option(*i) {
                    if !(0..=TABLE_HEAPS).contains(&m) {
                        return Ok(None);
                    }
                    match t.nimbers.get(m as usize) {
                        Some(&v) if v < ON_LINE => g ^= v,
                        Some(&ON_LINE) => return Ok(None),
                        _ => {
                            next = Some(m as usize);
                            break;
                        }
                    }
                }
                if next.is_some() {
                    break;
                }
                nimbers[*i] = g;
                *i += 1;
            }
            if next.is_some() {
                continue;
            }
            // every option valued: the mex of their nimbers
            seen.clear();
            seen.resize(flat.len() - start + 1, false);
            for &g in &nimbers[start..] {
                if let Some(s) = seen.get_mut(g as usize) {
                    *s = true;
                }
            }
            let g = seen.iter().position(|s| !s).unwrap_or(seen.len()) as u32;
            t.nimbers[h] = g;
            flat.truncate(start);
            nimbers.truncate(start);
            line.pop();
            if line.is_empty() {
                return Ok(Some(g));
            }
        }
    }
}

/// Values by position (a sum of states); a fast hash, as positions are the rules' own.
type Memo = HashMap<Vec<Box<[i64]>>, Game, foldhash::fast::FixedState>;

/// `game name(params) { left move ...; right move ...; move ... }`: the rules, compiled, run
/// per position; values are memoised per ruleset.
struct PartizanScript {
    rules: Scripted,
    memo: RefCell<Memo>,
}

fn partizan(def: Rc<GameDef>, env: Env) -> Ruleset {
    Ruleset::new(
        def.name.name.to_string(),
        Partizan(Box::new(PartizanScript {
            rules: Scripted::new(def, env),
            memo: RefCell::default(),
        })),
    )
}

/// The engine's view of a scripted ruleset: a position is a sorted sum of states.
struct ScriptRules<'a> {
    it: &'a mut Interp,
    script: &'a PartizanScript,
}

impl ScriptRules<'_> {
    fn side(&mut self, p: &[Box<[i64]>], side: Side) -> Result<Vec<Vec<Box<[i64]>>>> {
        let mut out = vec![];
        for c in p {
            out.extend(self.script.options(self.it, c, side)?);
        }
        Ok(out)
    }
}

impl Sums for ScriptRules<'_> {
    type Pos = Vec<Box<[i64]>>;
    type Error = Error;
    fn left(&mut self, p: &Self::Pos) -> Result<Vec<Self::Pos>> {
        self.side(p, Side::Left)
    }
    fn right(&mut self, p: &Self::Pos) -> Result<Vec<Self::Pos>> {
        self.side(p, Side::Right)
    }
    fn components(&mut self, p: &Self::Pos) -> Vec<Self::Pos> {
        p.iter().map(|c| vec![c.clone()]).collect()
    }
    fn describe(&self, p: &Self::Pos) -> String {
        p.iter()
            .map(|c| {
                self.script
                    .rules
                    .codes
                    .describe(&self.script.rules.def.name.name, c)
            })
            .collect::<Vec<_>>()
            .join(" + ")
    }
}

impl Sides for PartizanScript {
    fn value(&self, it: &mut Interp, state: &[i64]) -> Result<Game> {
        store(it)?;
        if self.rules.scope_changed(it) {
            self.memo.borrow_mut().clear();
        }
        let mut s = std::mem::take(&mut it.games.partizan);
        it.games.partizan_busy = true;
        let mut memo = std::mem::take(&mut *self.memo.borrow_mut());
        let ctl = it.ctl.clone();
        let r = cg::value(
            &mut ScriptRules { it, script: self },
            &mut s,
            &mut memo,
            &vec![state.into()],
            &ctl,
        );
        *self.memo.borrow_mut() = memo;
        it.games.partizan = s;
        it.games.partizan_busy = false;
        r
    }
    fn options(&self, it: &mut Interp, state: &[i64], side: Side) -> Result<Options> {
        let mut out = self.rules.options(it, state, Some(side))?;
        // an option is a sum: equal multisets are one option
        for o in &mut out {
            o.sort();
        }
        out.sort();
        out.dedup();
        Ok(out)
    }
    fn describe(&self, name: &str, state: &[i64]) -> String {
        self.rules.codes.describe(name, state)
    }
    fn arity(&self) -> Option<usize> {
        Some(self.rules.def.params.len())
    }
    fn interned(&self) -> Option<&Interned> {
        Some(&self.rules.codes)
    }
    /// The memo's table and its keys (a sum of states each).
    fn kept_bytes(&self) -> u64 {
        self.memo.try_borrow().map_or(0, |m| {
            let keys: usize = m
                .keys()
                .map(|k| k.iter().map(|c| 16 + 8 * c.len()).sum::<usize>())
                .sum();
            map_bytes(&m) + keys as u64
        })
    }
    fn forget(&self) {
        if let Ok(mut m) = self.memo.try_borrow_mut() {
            *m = HashMap::default();
        }
    }
}
