//! The queries every impartial family shares: positions from rulesets and sums, options, and
//! the generic searches (nimbers with memo, outcomes, misère play, loopy games' generalized
//! Sprague–Grundy values) that reach a family only through [`Family`](super::game::Family).
use crate::engine::control::num;
use crate::engine::{impartial, loopy};
use crate::lang::error::{Error, Result};
use crate::lang::run::eval::{Args, Interp, as_i64};
use crate::lang::run::game::Options;
use crate::lang::run::heap::is_nim;
use crate::lang::run::rules::{Component, Key, Position, Ruleset};
use crate::lang::run::value::Value;
use crate::lang::syntax::ast::Span;
use std::rc::Rc;

/// Argument `i` as an impartial position.
pub fn get_position(a: &Args, i: usize) -> Result<Rc<Position>> {
    match a.get(i) {
        Value::Position(p) => match p.comps.iter().find_map(|c| c.rs.family.not_impartial()) {
            Some(hint) => Err(a.type_error(i, "an impartial position").hint(hint)),
            None => Ok(p.clone()),
        },
        Value::Ruleset(r) => Err(a.type_error(i, "a position").hint(format!(
            "call the ruleset to get a position, e.g. {}(10)",
            r.name
        ))),
        _ => Err(a.type_error(i, "a position")),
    }
}

/// The error for a component with more options than can be listed.
pub(crate) fn too_many(what: &str, cap: usize) -> Error {
    Error::plain(format!(
        "{what} has more than {} options; too many to list within the limits",
        crate::engine::control::num(cap)
    ))
    .hint(format!(
        "ask for grundy or outcome, which do not list the options; the limits are {} options and the memory budget (--memory)",
        crate::engine::control::num(impartial::HELD_LIMIT)
    ))
}

/// `R(args)`: a position of ruleset R.
pub fn position_of(
    rs: &Rc<Ruleset>,
    args: &[(Value, Span)],
    span: Span,
    ctl: &crate::engine::Ctl,
) -> Result<Value> {
    if let Some(v) = rs.family.call(rs, args, span, ctl) {
        return v;
    }
    if let Some(n) = rs.family.arity()
        && n != args.len()
    {
        return Err(Error::runtime(
            format!(
                "`{}` takes {n} argument{}, got {}",
                rs.name,
                if n == 1 { "" } else { "s" },
                args.len()
            ),
            span,
        )
        .hint("a position gives one integer per argument of the ruleset"));
    }
    let mut vals = Vec::with_capacity(args.len());
    if let Some(codes) = rs.family.interned() {
        for (v, s) in args {
            codes.check_budget(ctl).map_err(|e| e.at(*s))?;
            vals.push(codes.code(v).map_err(|what| {
                let e = Error::runtime(
                    format!("a position's arguments are values such as non-negative integers, strings and lists, not {what}"),
                    *s,
                );
                if what.starts_with("a negative") {
                    e.hint("moves to negative integers are refused, as a heap cannot go below 0")
                } else {
                    e.hint("arguments are data (numbers, strings, lists, sets, permutations, game values); a position, group or function is not")
                }
            })?);
        }
        return Ok(Value::Position(Rc::new(Position::single(
            rs.clone(),
            vals.into(),
        ))));
    }
    for (v, s) in args {
        match as_i64(v) {
            Some(x) if x >= 0 => vals.push(x),
            Some(x) => {
                return Err(Error::runtime(
                    format!("a position's arguments are non-negative, got {}", num(x)),
                    *s,
                )
                .hint("heap sizes and coordinates start at 0"));
            }
            None if v.bigint().is_some() => {
                return Err(Error::runtime(
                    format!(
                        "{} is too large for a position (at most {})",
                        v.to_text(),
                        crate::engine::control::num(i64::MAX)
                    ),
                    *s,
                )
                .hint("positions are counted in 64-bit integers"));
            }
            None => {
                return Err(Error::runtime(
                    format!("a position's arguments are integers, not {}", v.a_type()),
                    *s,
                )
                .hint("write the heap size or coordinates as integers, e.g. kayles(10)"));
            }
        }
    }
    Ok(Value::Position(Rc::new(Position::single(
        rs.clone(),
        vals.into(),
    ))))
}

/// `P + Q` of impartial positions (`None` when one is not). Misère play is a convention of a
/// whole game, not of a part: a misère position in a sum would leave open whether the sum is
/// misère, so it is refused with the unambiguous form.
pub fn sum_positions(a: &Value, b: &Value, span: Span) -> Result<Option<Value>> {
    let (Value::Position(p), Value::Position(q)) = (a, b) else {
        unreachable!("checked by the caller")
    };
    let comps: Vec<Component> = p.comps.iter().chain(&q.comps).cloned().collect();
    let partizan = comps.iter().any(|c| c.rs.family.not_impartial().is_some());
    if p.misere || q.misere {
        let plain = |x: &Position| {
            Position {
                misere: false,
                ..x.clone()
            }
            .to_string()
        };
        let e = Error::runtime(
            "a misère position cannot be part of a sum: misère play applies to a whole game",
            span,
        );
        return Err(if partizan {
            e.hint("misère play is for impartial positions only")
        } else {
            e.hint(format!(
                "for the sum played misère write misere({} + {})",
                plain(p),
                plain(q)
            ))
        });
    }
    if partizan {
        return Ok(None);
    }
    Ok(Some(Value::Position(Rc::new(Position {
        comps,
        misere: false,
    }))))
}

/// The options of one component: lists of argument tuples of the same ruleset. Refuses to list
/// more than `options_cap` of them.
pub(crate) fn component_options(
    it: &mut Interp,
    rs: &Rc<Ruleset>,
    args: &[i64],
) -> Result<Options> {
    rs.family.options(it, rs, args)
}

/// A component in messages: the ruleset's name and the state as the search sees it.
pub(crate) fn describe(rs: &Ruleset, args: &[i64]) -> String {
    crate::lang::run::game::plain(&rs.name, args)
}

/// The rulesets of a position as the generic searches see them: a component is keyed by its
/// ruleset's id and its arguments.
pub(crate) struct Searched<'a> {
    it: &'a mut Interp,
    sets: Vec<Rc<Ruleset>>,
}

impl<'a> Searched<'a> {
    fn new(it: &'a mut Interp, comps: &[Component]) -> Searched<'a> {
        let mut sets: Vec<Rc<Ruleset>> = vec![];
        for c in comps {
            if !sets.iter().any(|r| r.id == c.rs.id) {
                sets.push(c.rs.clone());
            }
        }
        Searched { it, sets }
    }

    fn ruleset(&self, id: usize) -> Rc<Ruleset> {
        self.sets
            .iter()
            .find(|r| r.id == id)
            .expect("known ruleset")
            .clone()
    }
}

impl impartial::Game for Searched<'_> {
    type Pos = Key;
    type Error = Error;
    fn options(&mut self, k: &Key) -> Result<Vec<Vec<Key>>> {
        let rs = self.ruleset(k.0);
        let opts = component_options(self.it, &rs, &k.1)?;
        Ok(opts
            .into_iter()
            .map(|o| o.into_iter().map(|a| (rs.id, a)).collect())
            .collect())
    }
    fn describe(&self, k: &Key) -> String {
        // the family's own text: a ruleset over values names them, not their codes
        let rs = self.ruleset(k.0);
        rs.family.describe(&rs.name, &k.1)
    }
    fn pos_bytes(&self, k: &Key) -> usize {
        std::mem::size_of::<Key>() + 8 * k.1.len() + 16
    }
}

/// Normal-play value of one component.
pub(crate) fn component_grundy(it: &mut Interp, c: &Component) -> Result<u32> {
    if let Some(g) = c.rs.family.grundy(it, &c.rs, &c.args)? {
        return Ok(g);
    }
    it.games.touch_grundy();
    if c.rs.family.scope_changed(it) {
        let id = c.rs.id;
        it.games.grundy.retain(|k, _| k.0 != id);
    }
    let mut memo = std::mem::take(&mut it.games.grundy);
    let ctl = it.ctl.clone();
    let r = impartial::grundy(
        &mut Searched::new(it, std::slice::from_ref(c)),
        &mut memo,
        &c.key(),
        &ctl,
    );
    it.games.grundy = memo;
    r
}

/// The positions a loopy ruleset has reached, labelled with generalized Sprague–Grundy values
/// (position 0 is the empty position a move may leave). The ruleset keeps them between
/// queries (`Script::take_loopy`) with the values of the names its rules read then.
#[derive(Default)]
pub struct LoopyMemo {
    pub under: Vec<Option<Value>>,
    index: std::collections::HashMap<Box<[i64]>, u32>,
    graph: loopy::Graph,
}

/// A kept position: its state and map entry, besides what the graph counts.
const KEPT_POSITION_BYTES: u64 = 64;

impl LoopyMemo {
    pub fn new(under: Vec<Option<Value>>) -> LoopyMemo {
        LoopyMemo {
            under,
            ..Default::default()
        }
    }

    pub fn bytes(&self) -> u64 {
        let keys: usize = self.index.keys().take(64).map(|k| 8 * k.len()).sum();
        let per_key = KEPT_POSITION_BYTES + keys as u64 / self.index.len().clamp(1, 64) as u64;
        self.graph.bytes() + per_key * self.index.capacity() as u64
    }
}

/// The values of the positions `starts` of a loopy ruleset. Positions reached by earlier
/// queries are looked up; only the new ones are walked (running the rules) and labelled.
pub(crate) fn loopy_values(
    it: &mut Interp,
    rs: &Rc<Ruleset>,
    starts: &[Box<[i64]>],
) -> Result<Vec<loopy::Value>> {
    let mut memo = rs.family.take_loopy(it);
    let r = extend_loopy(it, rs, &mut memo, starts);
    rs.family.keep_loopy(memo);
    r
}

/// `loopy_values` with the memo taken out; on an error the memo is as it was.
pub(crate) fn extend_loopy(
    it: &mut Interp,
    rs: &Rc<Ruleset>,
    memo: &mut LoopyMemo,
    starts: &[Box<[i64]>],
) -> Result<Vec<loopy::Value>> {
    // a new position, its options' indices, two copies of its state while walking
    const POSITION_BYTES: u64 = 120;
    let ctl = it.ctl.clone();
    if memo.graph.is_empty() {
        memo.graph.add(&[vec![]], &ctl)?;
    }
    let n0 = memo.graph.len() as u32;
    let mut fresh: std::collections::HashMap<Box<[i64]>, u32> = Default::default();
    let mut states: Vec<Box<[i64]>> = vec![];
    let mut id = |args: &[i64], states: &mut Vec<Box<[i64]>>| match memo.index.get(args) {
        Some(&v) => v,
        None => *fresh.entry(args.into()).or_insert_with(|| {
            states.push(args.into());
            n0 + states.len() as u32 - 1
        }),
    };
    let ids: Vec<u32> = starts.iter().map(|s| id(s, &mut states)).collect();
    let mut graph: Vec<Vec<u32>> = vec![];
    let task = ctl.task("positions of a loopy game", None);
    while graph.len() < states.len() {
        let u = graph.len();
        if u.is_multiple_of(4096) {
            task.set(u as u64)?;
            let bytes = (states.len() as u64).saturating_mul(POSITION_BYTES);
            ctl.reserve(bytes, "the positions of a loopy game")?;
            if states.len() > impartial::MEMO_LIMIT {
                return Err(Error::plain(format!(
                    "a loopy game reaches more than {} positions",
                    num(impartial::MEMO_LIMIT)
                )));
            }
        }
        let mut edges = vec![];
        for opt in component_options(it, rs, &states[u].clone())? {
            let v = match <[_; 1]>::try_from(opt) {
                Ok([args]) => id(&args, &mut states),
                Err(opt) if opt.is_empty() => 0,
                Err(_) => {
                    return Err(Error::plain(format!(
                        "a move of the loopy ruleset `{}` splits its position into a sum",
                        rs.name
                    ))
                    .hint("a loopy ruleset's move gives one position: write the state as one argument list"));
                }
            };
            edges.push(v);
        }
        graph.push(edges);
    }
    drop(states);
    memo.graph.add(&graph, &ctl)?;
    memo.index.extend(fresh);
    Ok(ids.into_iter().map(|u| memo.graph.value(u)).collect())
}

/// The generalized Sprague–Grundy value of a sum with a loopy component (Smith's sum rule).
/// The loopy components of one ruleset are valued together.
pub(crate) fn position_loopy(it: &mut Interp, p: &Position) -> Result<loopy::Value> {
    let mut acc = loopy::Value::Finite(0);
    let mut done = vec![false; p.comps.len()];
    for (i, c) in p.comps.iter().enumerate() {
        it.ctl.check()?;
        if done[i] {
            continue;
        }
        if !c.rs.family.loopy() {
            acc = acc.sum(&loopy::Value::Finite(component_grundy(it, c)? as u64));
            continue;
        }
        let same: Vec<usize> = (i..p.comps.len())
            .filter(|&j| Rc::ptr_eq(&p.comps[j].rs, &c.rs))
            .collect();
        let starts: Vec<Box<[i64]>> = same.iter().map(|&j| p.comps[j].args.clone()).collect();
        for (j, v) in same.into_iter().zip(loopy_values(it, &c.rs, &starts)?) {
            done[j] = true;
            acc = acc.sum(&v);
        }
    }
    Ok(acc)
}

pub(crate) fn misere_loopy(a: &Args) -> Error {
    Error::runtime(
        "misère play of loopy games is not defined here",
        a.span_of(0),
    )
    .hint("outcome(P) and grundy(P) of a loopy game are for normal play")
}

pub(crate) fn is_loopy(p: &Position) -> bool {
    p.comps.iter().any(|c| c.rs.family.loopy())
}

/// A generalized Sprague–Grundy value as the language gives it: an integer, or `∞(0,2)`.
pub(crate) fn loopy_result(v: loopy::Value) -> Value {
    match v {
        loopy::Value::Finite(m) => Value::Int(m as i64),
        v => Value::str(&v.to_string()),
    }
}

pub fn position_grundy(it: &mut Interp, p: &Position) -> Result<u32> {
    let mut acc = 0;
    for c in &p.comps {
        it.ctl.check()?;
        acc ^= component_grundy(it, c)?;
    }
    Ok(acc)
}

/// Whether the player to move wins.
pub(crate) fn next_player_wins(it: &mut Interp, p: &Position) -> Result<bool> {
    if !p.misere {
        if let Some(c) = p.the_one()
            && let Some(wins) = c.rs.family.next_wins(it, &c.args)?
        {
            return Ok(wins);
        }
        return Ok(position_grundy(it, p)? != 0);
    }
    if p.comps.iter().all(is_nim) {
        // Bouton: with every heap at most 1, the player to move wins on an even number of 1s
        let heaps: Vec<i64> = p.comps.iter().map(|c| c.args[0]).collect();
        if heaps.iter().all(|&h| h <= 1) {
            return Ok(heaps.iter().filter(|&&h| h == 1).count() % 2 == 0);
        }
        return Ok(heaps.iter().fold(0, |a, &h| a ^ h) != 0);
    }
    if let [c] = p.comps.as_slice()
        && let Some(wins) = c.rs.family.misere_next_wins(it, &c.args)?
    {
        return Ok(wins);
    }
    misere_search(it, p)
}

/// Misère outcome by search over sums (components need not share a ruleset).
pub fn misere_search(it: &mut Interp, p: &Position) -> Result<bool> {
    let root: Vec<Key> = p.comps.iter().map(|c| c.key()).collect();
    let ctl = it.ctl.clone();
    impartial::misere_wins(&mut Searched::new(it, &p.comps), root, &ctl)
}

/// Every option of a position: one component replaced by one of its options.
pub(crate) fn options_of(it: &mut Interp, p: &Position) -> Result<Vec<Position>> {
    let mut out = vec![];
    for (i, c) in p.comps.iter().enumerate() {
        for opt in component_options(it, &c.rs, &c.args)? {
            let mut comps: Vec<Component> = p.comps[..i].to_vec();
            comps.extend(opt.into_iter().map(|args| Component {
                rs: c.rs.clone(),
                args,
            }));
            comps.extend(p.comps[i + 1..].iter().cloned());
            out.push(Position {
                comps,
                misere: p.misere,
            });
        }
    }
    // scripted rulesets: components without moves add nothing to a sum, so drop them (when
    // there are few enough options to ask each component; an option that is all terminal keeps
    // one; native engines drop their own) and sort the rest. Then options equal as multisets
    // are merged.
    let tidy = p.comps.iter().all(|c| c.rs.family.tidy_options());
    if tidy && out.len() <= 10_000 {
        let mut terminal: std::collections::HashMap<(usize, Box<[i64]>), bool> =
            std::collections::HashMap::new();
        for o in &mut out {
            let mut keep = vec![];
            let mut first_terminal = None;
            for c in std::mem::take(&mut o.comps) {
                let key = (Rc::as_ptr(&c.rs) as usize, c.args.clone());
                let t = match terminal.get(&key) {
                    Some(&t) => t,
                    None => {
                        let t = component_options(it, &c.rs, &c.args)?.is_empty();
                        terminal.insert(key, t);
                        t
                    }
                };
                if !t {
                    keep.push(c);
                } else if keep.is_empty() && first_terminal.is_none() {
                    first_terminal = Some(c);
                }
            }
            if keep.is_empty() {
                keep.extend(first_terminal);
            }
            o.comps = keep;
        }
    }
    if tidy {
        for o in &mut out {
            o.comps
                .sort_by(|a, b| (a.rs.name(), &a.args).cmp(&(b.rs.name(), &b.args)));
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|o| {
        let mut key: Vec<_> = o
            .comps
            .iter()
            .map(|c| (Rc::as_ptr(&c.rs) as usize, c.args.clone()))
            .collect();
        key.sort();
        seen.insert(key)
    });
    Ok(out)
}
