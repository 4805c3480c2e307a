//! Game queries (docs/language.md, "Games") as builtins, and the glue that lets the engines call
//! back into script rulesets for their options.
use super::script::Script;
use crate::engine::control::num;
use crate::engine::heap::{self, Code};
use crate::engine::{impartial, loopy, moore, wythoff};
use crate::lang::compile::{FEW_OPTIONS, options_cap};
use crate::lang::error::{Error, Result};
use crate::lang::run::eval::{Args, Interp, as_i64};
use crate::lang::run::game::{Family, Options};
use crate::lang::run::rules::{Component, Key, Position, Ruleset};
use crate::lang::syntax::ast::Span;
use crate::lang::run::value::{Table, Value};
use std::collections::BTreeSet;
use std::rc::Rc;

pub fn register(it: &mut Interp) {
    it.add_builtin(
        "octal",
        "octal(code, name: s)",
        "take-and-break heap game from its code, e.g. \"0.77\" (Kayles), \"4!.0\" (Grundy's game)",
        octal,
    );
    it.add_builtin(
        "subtraction",
        "subtraction(S, name: s)",
        "take any number in the set S from a heap",
        |_, a| subtraction(a, false),
    );
    it.add_builtin(
        "allbut",
        "allbut(S, name: s)",
        "take any number except those in S from a heap",
        |_, a| subtraction(a, true),
    );
    it.add_builtin(
        "moore",
        "moore(k, heaps)",
        "Moore's Nim_k position: remove from at least one and at most k heaps",
        moore_pos,
    );
    it.add_builtin(
        "misere",
        "misere(P)",
        "position P under the misère convention (last mover loses)",
        |_, a| {
            a.count(1, 1)?;
            let mut p = (*get_position(a, 0)?).clone();
            if p.comps.iter().any(|c| c.rs.family.by_outcome()) {
                return Err(Error::runtime(
                    "misère play of the Game of Cycles needs the normal rule",
                    a.span_of(0),
                )
                .hint("under the original rule completing a cell wins; use rule: \"normal\""));
            }
            p.misere = true;
            Ok(Value::Position(Rc::new(p)))
        },
    );
    it.add_builtin(
        "inf",
        "inf(k, ...)",
        "the loopy value ∞(k, ...) as grundy gives it, to compare with: inf(0, 2) is \"∞(0,2)\", inf() is \"∞\"",
        |_, a| {
            let mut k = (0..a.len())
                .map(|i| {
                    a.nonneg(i)
                        .map_err(|e| e.hint("the K of ∞(K) are the finite values 0, 1, 2, ... among the options"))
                })
                .collect::<Result<Vec<u64>>>()?;
            k.sort_unstable();
            k.dedup();
            Ok(loopy_result(loopy::Value::Infinite(k)))
        },
    );
    it.add_builtin(
        "grundy",
        "grundy(P) or grundy(R, a..b, engine: \"naive\")",
        "nimber of an impartial position, or the list for heaps a..b of R",
        grundy,
    );
    it.add_builtin(
        "outcome",
        "outcome(P)",
        "\"N\" (next player wins) or \"P\" (previous player wins); partizan: also \"L\" or \"R\" (Left or Right wins)",
        outcome,
    );
    it.add_builtin(
        "moves",
        "moves(P)",
        "the options of P with their grundy values (outcomes under misère); partizan: {left: {option: value}, right: ...}",
        moves,
    );
    it.add_builtin(
        "options",
        "options(P)",
        "the positions reachable in one move",
        |it, a| {
            a.count(1, 1)?;
            let p = get_position(a, 0)?;
            Ok(Value::list(
                options_of(it, &p)?
                    .into_iter()
                    .map(|o| Value::Position(Rc::new(o)))
                    .collect(),
            ))
        },
    );
    it.add_builtin(
        "winning",
        "winning(P) or winning(P, \"L\")",
        "the options that win for the player to move; partizan: Left's (\"L\") or Right's (\"R\") moves after which that player wins",
        winning,
    );
    it.add_builtin(
        "value",
        "value(P)",
        "a partizan position's canonical form (an impartial one's nimber); Dots-and-Boxes: the best net score for the player to move",
        value,
    );
    it.add_builtin(
        "period",
        "period(R, to: N)",
        "{preperiod, period, proven, checked_to} of a heap game; a `game` of one heap adds saltus",
        period,
    );
    it.add_builtin(
        "wythoff_table",
        "wythoff_table(m, n)",
        "table of Wythoff grundy values for heaps 0..m-1 by 0..n-1 (native engine)",
        |_, a| {
            a.count(2, 2)?;
            let (m, n) = (a.nonneg(0)? as usize, a.nonneg(1)? as usize);
            if m == 0 || n == 0 || m.checked_mul(n).is_none_or(|c| c > 10_000_000) {
                return Err(Error::runtime(
                    "wythoff_table takes sizes from 1 up to ten million cells",
                    a.span,
                )
                .hint("for one position use grundy(wythoff(a, b))"));
            }
            let g = wythoff::table(m - 1, n - 1);
            let ints = |k: usize| (0..k).map(|i| Value::Int(i as i64)).collect::<Vec<_>>();
            let values = g
                .iter()
                .map(|row| row.iter().map(|&v| Some(Value::Int(v as i64))).collect())
                .collect();
            Ok(Value::Table(Rc::new(Table {
                rows: ints(m),
                cols: ints(n),
                values,
            })))
        },
    );
    it.add_builtin(
        "wythoff_period",
        "wythoff_period(k)",
        "additive period of row k of Wythoff's game: G(k, n) - n is ultimately periodic",
        wythoff_period,
    );
}

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

/// Heap games from their take-and-break code (octal, subtraction, allbut).
pub struct Heap(pub Code);

impl Family for Heap {
    fn arity(&self) -> Option<usize> {
        Some(1)
    }
    fn options(&self, it: &mut Interp, rs: &Ruleset, state: &[i64]) -> Result<Options> {
        let n = state[0] as u64;
        if options_exceed(&self.0, n, FEW_OPTIONS as u128) {
            let cap = options_cap(it);
            if options_exceed(&self.0, n, cap as u128) {
                return Err(too_many(&describe(rs, state), cap));
            }
        }
        Ok(self
            .0
            .options(n)
            .into_iter()
            .map(|o| o.into_iter().map(|h| vec![h as i64].into()).collect())
            .collect())
    }
    fn grundy(&self, it: &mut Interp, rs: &Ruleset, state: &[i64]) -> Result<Option<u32>> {
        let n = state[0] as u64;
        if let Some((g, p, q)) = proven_period(it, rs, &self.0, n)? {
            return Ok(Some(heap::periodic_value(&g, p, q, n)));
        }
        Ok(Some(heap_values(it, rs, &self.0, n)?.get(n as usize)))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The heap game a ruleset written as rules is, where it is one; the ruleset itself otherwise.
fn heap_form(it: &mut Interp, rs: Rc<Ruleset>) -> Rc<Ruleset> {
    match rs.family::<Script>().and_then(|s| s.heap_form(it)) {
        Some(h) => {
            // kept values of the heap game are charged and swept as the ruleset's own
            it.games.touch(&h);
            h
        }
        None => rs,
    }
}

/// Moore's Nim_k on any number of heaps.
pub struct Moore(u64);

impl Family for Moore {
    fn describe(&self, _: &str, state: &[i64]) -> String {
        let a: Vec<String> = state.iter().map(|x| x.to_string()).collect();
        format!("moore({}, [{}])", self.0, a.join(", "))
    }
    fn options(&self, it: &mut Interp, rs: &Ruleset, state: &[i64]) -> Result<Options> {
        let count: f64 = state.iter().map(|&h| h as f64 + 1.0).product();
        if count > FEW_OPTIONS as f64 {
            let cap = options_cap(it);
            if count > cap as f64 {
                return Err(too_many(&describe(rs, state), cap));
            }
        }
        Ok(moore::options(moore_k(self.0, state), state)
            .into_iter()
            .map(|o| vec![o.into()])
            .collect())
    }
    fn next_wins(&self, _: &mut Interp, state: &[i64]) -> Result<Option<bool>> {
        Ok(Some(!moore::is_p_position(moore_k(self.0, state), state)))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
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

fn name_kw(a: &mut Args, default: String) -> Result<String> {
    match a.kw("name") {
        None => Ok(default),
        Some((Value::Str(s), _)) => Ok(s.to_string()),
        Some((v, s)) => Err(Error::runtime(
            format!("`name:` must be a string, not {}", v.a_type()),
            s,
        )),
    }
}

fn octal(_: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let text = a.str(0)?;
    // a code must allow some move: "" and "0." describe no game (checked here, not in the engine)
    let digits = text.split_once('.').map_or(&*text, |(_, d)| d);
    let whole = text.split_once('.').map_or("", |(w, _)| w);
    let has_move = digits
        .chars()
        .chain(whole.chars())
        .any(|c| c.is_ascii_alphanumeric() && c != '0');
    if text.trim().is_empty() || !has_move {
        return Err(Error::runtime(
            format!("{text:?} is not an octal code with any move"),
            a.span_of(0),
        )
        .hint("codes look like \"0.77\", \"0.07\", \"4!.0\", \"0.[3]\"; at least one digit must allow a move"));
    }
    let code = Code::parse(&text).map_err(|m| {
        Error::runtime(m, a.span_of(0))
            .hint("codes look like \"0.77\", \"0.07\", \"4!.0\", \"0.[3]\"")
    })?;
    let name = name_kw(a, format!("octal({text:?})"))?;
    Ok(Value::Ruleset(Rc::new(Ruleset::new(name, Heap(code)))))
}

fn subtraction(a: &mut Args, all_but: bool) -> Result<Value> {
    a.count(1, 1)?;
    let set: Vec<u64> = match a.get(0) {
        Value::Set(s) => s
            .iter()
            .map(|v| as_i64(v).filter(|&x| x >= 1).map(|x| x as u64))
            .collect::<Option<_>>(),
        Value::List(s) => s
            .iter()
            .map(|v| as_i64(v).filter(|&x| x >= 1).map(|x| x as u64))
            .collect::<Option<_>>(),
        _ => None,
    }
    .ok_or_else(|| a.type_error(0, "a set of positive integers"))?;
    if set.is_empty() && !all_but {
        return Err(Error::runtime(
            "a subtraction set needs at least one number",
            a.span_of(0),
        ));
    }
    let code = Code::subtraction(&set, all_but).map_err(|m| Error::runtime(m, a.span_of(0)))?;
    let name = name_kw(a, code.text.clone())?;
    Ok(Value::Ruleset(Rc::new(Ruleset::new(name, Heap(code)))))
}

/// The k the Moore engine is given: taking from more heaps than there are is the same as
/// taking from all of them, so k is capped at the number of heaps (never truncated).
fn moore_k(k: u64, heaps: &[i64]) -> u32 {
    k.min(heaps.len().max(1) as u64) as u32
}

fn moore_pos(_: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(2, 2)?;
    let k = a.int(0)?;
    if k < 1 {
        return Err(Error::runtime("Moore's Nim_k needs k ≥ 1", a.span_of(0)));
    }
    let heaps: Vec<i64> = match a.get(1) {
        Value::List(xs) => xs
            .iter()
            .map(|v| as_i64(v).filter(|&x| x >= 0))
            .collect::<Option<_>>(),
        _ => None,
    }
    .ok_or_else(|| a.type_error(1, "a list of heap sizes (non-negative integers)"))?;
    let rs = Rc::new(Ruleset::new(format!("moore{k}"), Moore(k as u64)));
    Ok(Value::Position(Rc::new(Position::single(rs, heaps.into()))))
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
            vals.push(codes.code(v).map_err(|what| {
                Error::runtime(
                    format!("a position's arguments are values such as non-negative integers, strings and lists, not {what}"),
                    *s,
                )
                .hint("moves to negative integers are refused, as a heap cannot go below 0")
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
    if comps.iter().any(|c| c.rs.family.not_impartial().is_some()) {
        return Ok(None);
    }
    if p.misere || q.misere {
        let plain = |x: &Position| {
            Position {
                misere: false,
                ..x.clone()
            }
            .to_string()
        };
        return Err(Error::runtime(
            "a misère position cannot be part of a sum: misère play applies to a whole game",
            span,
        )
        .hint(format!(
            "for the sum played misère write misere({} + {})",
            plain(p),
            plain(q)
        )));
    }
    Ok(Some(Value::Position(Rc::new(Position {
        comps,
        misere: false,
    }))))
}

/// Whether a heap of n has more than `limit` options; stops counting once it knows (a heap of
/// 10^18 under nim is not counted take by take).
fn options_exceed(code: &crate::engine::heap::Code, n: u64, limit: u128) -> bool {
    let top = code.max_take().map_or(n, |t| t.min(n));
    let mut count: u128 = 0;
    let mut k = 0u64;
    while k <= top {
        let d = code.digit(k);
        if d != 0 {
            let m = (n - k) as u128;
            count += (d & 3 != 0) as u128
                + if d & 4 != 0 { m / 2 } else { 0 }
                + if d & 8 != 0 { m * m / 12 } else { 0 };
            if count > limit {
                return true;
            }
        }
        k += 1;
    }
    false
}

/// The options of one component: lists of argument tuples of the same ruleset. Refuses to list
/// more than `options_cap` of them.
fn component_options(it: &mut Interp, rs: &Rc<Ruleset>, args: &[i64]) -> Result<Options> {
    rs.family.options(it, rs, args)
}

/// A component in messages: the ruleset's name and the state as the search sees it.
fn describe(rs: &Ruleset, args: &[i64]) -> String {
    crate::lang::run::game::plain(&rs.name, args)
}

/// Values of heaps 0..=n (at least) of a heap game, cached per ruleset.
fn heap_values<'a>(
    it: &'a mut Interp,
    rs: &Ruleset,
    code: &Code,
    n: u64,
) -> Result<&'a heap::Values> {
    heap::check_heap_limit(n)?;
    let have = it.games.heaps.get(&rs.id).map_or(0, |v| v.len() as u64);
    if have <= n {
        // grow geometrically so that asking for n, n+1, n+2, ... stays linear overall
        let target = n.max(have.saturating_mul(2)).min(n.max(1 << 16));
        let vals = heap::Values::compute(code, target, &it.ctl)?;
        it.games.heaps.insert(rs.id, vals);
    }
    Ok(&it.games.heaps[&rs.id])
}

/// Values of heaps 0.. with a proven preperiod and period.
type Periodic = (Rc<[u32]>, u64, u64);

/// A proven period (preperiod, period) of a heap code with the values that prove it, looked
/// for when heap n lies past the cached values and past 2^17: then values are read from the
/// period (exact by the octal periodicity theorem) instead of computed.
fn proven_period(it: &mut Interp, rs: &Ruleset, code: &Code, n: u64) -> Result<Option<Periodic>> {
    let have = it.games.heaps.get(&rs.id).map_or(0, |v| v.len() as u64);
    if n < have || n < 1 << 17 || !heap::period_provable(code) {
        return Ok(None);
    }
    let (m, found) = search_period(it, rs, code, 256, 1 << 17)?;
    let Some((p, q, true)) = found else {
        return Ok(None);
    };
    let g = heap_values(it, rs, code, m)?;
    Ok(Some(((0..=m as usize).map(|i| g.get(i)).collect(), p, q)))
}

/// A range of heaps checked, and the preperiod, period and whether it is proven, if found.
type Checked = (u64, Option<(u64, u64, bool)>);

/// Grows the computed range from `start`, four times at each step, until the periodicity
/// theorem proves a period, `limit` is reached, or the next range would take long (cubic
/// codes, with three-heap splits). Returns the range checked and what it shows.
fn search_period(
    it: &mut Interp,
    rs: &Ruleset,
    code: &Code,
    start: u64,
    limit: u64,
) -> Result<Checked> {
    let mut n = start.min(limit);
    loop {
        let found = heap_values(it, rs, code, n)?.period(code, n as usize + 1);
        if found.is_some_and(|f| f.2) || n >= limit || !affordable(code, (n * 4).min(limit)) {
            return Ok((n, found));
        }
        n = (n * 4).min(limit);
    }
}

/// Whether heaps 0..=n are cheap enough to compute on the way to a period (a few seconds).
fn affordable(code: &Code, n: u64) -> bool {
    heap::plain_work(code, n).is_none_or(|w| w <= 3_000_000_000)
}

/// The rulesets of a position as the generic searches see them: a component is keyed by its
/// ruleset's id and its arguments.
struct Searched<'a> {
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
fn component_grundy(it: &mut Interp, c: &Component) -> Result<u32> {
    if let Some(g) = c.rs.family.grundy(it, &c.rs, &c.args)? {
        return Ok(g);
    }
    it.games.touch_grundy();
    if c.rs
        .family::<Script>()
        .is_some_and(|s| s.rules.scope_changed(it))
    {
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
fn loopy_values(
    it: &mut Interp,
    rs: &Rc<Ruleset>,
    starts: &[Box<[i64]>],
) -> Result<Vec<loopy::Value>> {
    let script = rs.family::<Script>();
    let mut memo = match script {
        Some(s) => s.take_loopy(it),
        None => LoopyMemo::default(),
    };
    let r = extend_loopy(it, rs, &mut memo, starts);
    if let Some(s) = script {
        s.keep_loopy(memo);
    }
    r
}

/// `loopy_values` with the memo taken out; on an error the memo is as it was.
fn extend_loopy(
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
fn position_loopy(it: &mut Interp, p: &Position) -> Result<loopy::Value> {
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

fn misere_loopy(a: &Args) -> Error {
    Error::runtime(
        "misère play of loopy games is not defined here",
        a.span_of(0),
    )
    .hint("outcome(P) and grundy(P) of a loopy game are for normal play")
}

fn is_loopy(p: &Position) -> bool {
    p.comps.iter().any(|c| c.rs.family.loopy())
}

/// A generalized Sprague–Grundy value as the language gives it: an integer, or `∞(0,2)`.
fn loopy_result(v: loopy::Value) -> Value {
    match v {
        loopy::Value::Finite(m) => Value::Int(m as i64),
        v => Value::str(&v.to_string()),
    }
}

pub(crate) fn position_grundy(it: &mut Interp, p: &Position) -> Result<u32> {
    let mut acc = 0;
    for c in &p.comps {
        it.ctl.check()?;
        acc ^= component_grundy(it, c)?;
    }
    Ok(acc)
}

fn is_nim(c: &Component) -> bool {
    c.rs.family::<Heap>()
        .is_some_and(|h| h.0.repeating && h.0.digits == [0, 3])
}

/// Whether the player to move wins.
fn next_player_wins(it: &mut Interp, p: &Position) -> Result<bool> {
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

fn outcome(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    if let Some(o) = super::partizan::outcome(it, a.get(0))? {
        return Ok(o);
    }
    let p = get_position(a, 0)?;
    if is_loopy(&p) {
        if p.misere {
            return Err(misere_loopy(a));
        }
        return Ok(Value::str(match position_loopy(it, &p)?.outcome() {
            loopy::Outcome::N => "N",
            loopy::Outcome::P => "P",
            loopy::Outcome::D => "D",
        }));
    }
    Ok(Value::str(if next_player_wins(it, &p)? {
        "N"
    } else {
        "P"
    }))
}

fn grundy(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 2)?;
    if a.len() == 2 {
        let Value::Ruleset(rs) = a.get(0).clone() else {
            return Err(a.type_error(0, "a ruleset of one heap"));
        };
        let Value::Range(lo, hi) = *a.get(1) else {
            return Err(a.type_error(1, "a range a..b"));
        };
        if rs.family.arity() != Some(1) {
            return Err(Error::runtime(
                format!("`{}` does not take one argument", rs.name),
                a.span_of(0),
            ));
        }
        if lo < 0 || hi < lo {
            return Err(Error::runtime(
                format!("the range {}..{} is empty or negative", num(lo), num(hi)),
                a.span_of(1),
            )
            .hint("write a..b with 0 ≤ a ≤ b"));
        }
        // the answer is a list of values: refuse before computing what could not be listed
        let count = (hi - lo) as u64 + 1;
        it.ctl.reserve(
            count.saturating_mul(std::mem::size_of::<Value>() as u64 + 4),
            &format!("the list of {} values", crate::engine::control::num(count)),
        )?;
        let naive = match a.kw("engine") {
            None => false,
            Some((Value::Str(e), _)) if &*e == "naive" || &*e == "fast" => &*e == "naive",
            Some((_, s)) => {
                return Err(Error::runtime(
                    "`engine:` is \"fast\" (the default) or \"naive\" (plain mex, for comparison)",
                    s,
                ));
            }
        };
        let rs = heap_form(it, rs);
        if let Some(Heap(code)) = rs.family::<Heap>() {
            if naive {
                heap::check_heap_limit(hi as u64)?;
                let vals = heap::naive_values(code, hi as u64, &it.ctl)?;
                return Ok(Value::list(
                    vals[lo as usize..]
                        .iter()
                        .map(|&v| Value::Int(v as i64))
                        .collect(),
                ));
            }
            if let Some((g, p, q)) = proven_period(it, &rs, code, hi as u64)? {
                heap::check_heap_limit(hi as u64)?;
                return Ok(Value::list(
                    (lo as u64..=hi as u64)
                        .map(|n| Value::Int(heap::periodic_value(&g, p, q, n) as i64))
                        .collect(),
                ));
            }
            let vals = heap_values(it, &rs, code, hi as u64)?;
            return Ok(Value::list(
                (lo as usize..=hi as usize)
                    .map(|i| Value::Int(vals.get(i) as i64))
                    .collect(),
            ));
        }
        if count > crate::lang::run::eval::MAX_ELEMENTS {
            return Err(Error::runtime(
                format!(
                    "{} values are too many to list (at most {})",
                    crate::engine::control::num(count),
                    crate::engine::control::num(crate::lang::run::eval::MAX_ELEMENTS)
                ),
                a.span_of(1),
            )
            .hint("ask for a smaller range"));
        }
        if rs.family.loopy() {
            let starts: Vec<Box<[i64]>> = (lo..=hi).map(|n| vec![n].into()).collect();
            let vals = loopy_values(it, &rs, &starts)?;
            return Ok(Value::list(vals.into_iter().map(loopy_result).collect()));
        }
        let ctl = it.ctl.clone();
        let task = ctl.task(&format!("grundy values of {}", rs.name), Some(count));
        let mut out = vec![];
        for n in lo..=hi {
            task.set((n - lo) as u64)?;
            out.push(Value::Int(component_grundy(
                it,
                &Component {
                    rs: rs.clone(),
                    args: vec![n].into(),
                },
            )? as i64));
        }
        return Ok(Value::list(out));
    }
    let p = get_position(a, 0)?;
    if p.misere {
        return Err(Error::runtime(
            "grundy values are for normal play; ask outcome(P) for a misère position",
            a.span_of(0),
        ));
    }
    if is_loopy(&p) {
        return Ok(loopy_result(position_loopy(it, &p)?));
    }
    Ok(Value::Int(position_grundy(it, &p)? as i64))
}

/// Every option of a position: one component replaced by one of its options.
fn options_of(it: &mut Interp, p: &Position) -> Result<Vec<Position>> {
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

fn moves(it: &mut Interp, a: &mut Args) -> Result<Value> {
    if let Some(m) = super::partizan::moves(it, a)? {
        return Ok(m);
    }
    a.count(1, 1)?;
    if let Some(c) = one_component(a)
        && let Some(mv) = c.rs.family.moves(it, &c.args)?
    {
        return Ok(Value::Map(Rc::new(mv)));
    }
    let p = get_position(a, 0)?;
    let mut out = vec![];
    if is_loopy(&p) {
        if p.misere {
            return Err(misere_loopy(a));
        }
        // labels every position p reaches, so that its options are looked up
        position_loopy(it, &p)?;
        for o in options_of(it, &p)? {
            let v = loopy_result(position_loopy(it, &o)?);
            out.push((option_key(&p, o), v));
        }
        return Ok(Value::Map(Rc::new(out)));
    }
    let by_outcome = p.misere || p.comps.iter().any(|c| c.rs.family.by_outcome());
    for o in options_of(it, &p)? {
        let v = if by_outcome {
            Value::str(if next_player_wins(it, &o)? { "N" } else { "P" })
        } else {
            Value::Int(position_grundy(it, &o)? as i64)
        };
        out.push((option_key(&p, o), v));
    }
    Ok(Value::Map(Rc::new(out)))
}

/// How an option is named: by its move on a board game ("queen on (2, 2)", "a>c", a vertex),
/// under either play convention, else as a position.
fn option_key(p: &Position, o: Position) -> Value {
    if let ([c], [d]) = (p.comps.as_slice(), o.comps.as_slice())
        && let Some(label) = move_label(c, d)
    {
        return Value::str(&label);
    }
    Value::Position(Rc::new(o))
}

fn move_label(c: &Component, d: &Component) -> Option<String> {
    c.rs.family.move_label(&c.args, &d.args)
}

/// The one component of argument 0, when it is a position of one component.
fn one_component(a: &Args) -> Option<Component> {
    match a.get(0) {
        Value::Position(p) => p.the_one().cloned(),
        _ => None,
    }
}

fn value(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    if let Some(c) = one_component(a)
        && let Some(v) = c.rs.family.value(it, &c.args)?
    {
        return Ok(v);
    }
    if let Some(g) = super::partizan::as_game(it, a.get(0))? {
        return super::partizan::game_value(it, g);
    }
    Err(a.type_error(0, "a position with a value, e.g. dots(3, 3)"))
}

fn winning(it: &mut Interp, a: &mut Args) -> Result<Value> {
    if let Some(w) = super::partizan::winning(it, a)? {
        return Ok(w);
    }
    if a.len() == 2 {
        get_position(a, 0)?;
        return Err(Error::runtime(
            "a player is named only for a partizan position",
            a.span_of(1),
        )
        .hint("in an impartial game both players have the same moves: winning(P)"));
    }
    a.count(1, 1)?;
    if let Some(c) = one_component(a)
        && let Some(w) = c.rs.family.winning(it, &c.args)?
    {
        return Ok(Value::list(w));
    }
    let p = get_position(a, 0)?;
    let mut seen = BTreeSet::new();
    let mut out = vec![];
    if is_loopy(&p) {
        if p.misere {
            return Err(misere_loopy(a));
        }
        // the moves to P; where there is none, the moves that keep a draw
        position_loopy(it, &p)?;
        let mut draws = vec![];
        for o in options_of(it, &p)? {
            let o_out = position_loopy(it, &o)?.outcome();
            if o_out != loopy::Outcome::N && seen.insert(o.to_string()) {
                let list = if o_out == loopy::Outcome::P {
                    &mut out
                } else {
                    &mut draws
                };
                list.push(option_key(&p, o));
            }
        }
        return Ok(Value::list(if out.is_empty() { draws } else { out }));
    }
    for o in options_of(it, &p)? {
        if !next_player_wins(it, &o)? && seen.insert(o.to_string()) {
            out.push(option_key(&p, o));
        }
    }
    Ok(Value::list(out))
}

fn period(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let to = a.kw_int_in("to", 1..=i64::MAX, "the largest heap to check")?;
    let Value::Ruleset(rs) = a.get(0).clone() else {
        return Err(a.type_error(0, "a heap ruleset"));
    };
    let code = match rs.family::<Heap>() {
        Some(Heap(code)) => code,
        None if rs
            .family::<Script>()
            .is_some_and(|s| s.rules.def.params.len() == 1) =>
        {
            return script_period(it, &rs, to);
        }
        None => {
            return Err(Error::runtime(
                format!(
                    "period needs a ruleset of one heap (octal, subtraction, or a `game` of one argument), `{}` is not one",
                    rs.name
                ),
                a.span_of(0),
            ));
        }
    };
    let limit = to.map_or(1 << 17, |n| n as u64);
    let start = if to.is_some() { limit } else { 256 };
    let (n, found) = search_period(it, &rs, code, start, limit)?;
    let (pre, per, proven) = match found {
        Some((p, q, pr)) => (Value::Int(p as i64), Value::Int(q as i64), pr),
        None => (Value::None, Value::None, false),
    };
    Ok(Value::record(vec![
        ("preperiod", pre),
        ("period", per),
        ("proven", Value::Bool(proven)),
        ("checked_to", Value::Int(n as i64)),
    ]))
}

/// Heaps a rule-defined ruleset's period is looked for in, without `to:`: each value is found
/// by the generic search, whose work grows with the square of the heap for games such as
/// Lasker's Nim.
const SCRIPT_PERIOD_HEAPS: u64 = 1024;

/// `period(R)` for a `game` of one argument: the values of the generic search, and the
/// (arithmetic) period they show. No theorem covers a general ruleset, so it is never proven.
/// Rules that are a take-and-break game have their period proven by the periodicity theorem
/// where it applies (a saltus of 0); their values come from the heap engine either way.
fn script_period(it: &mut Interp, rs: &Rc<Ruleset>, to: Option<i64>) -> Result<Value> {
    let heap = heap_form(it, rs.clone());
    if let Some(Heap(code)) = heap.family::<Heap>() {
        let limit = to.map_or(1 << 17, |n| n as u64);
        let start = if to.is_some() { limit } else { 256 };
        if let (n, Some((p, q, true))) = search_period(it, &heap, code, start, limit)? {
            return Ok(Value::record(vec![
                ("preperiod", Value::Int(p as i64)),
                ("period", Value::Int(q as i64)),
                ("saltus", Value::Int(0)),
                ("proven", Value::Bool(true)),
                ("checked_to", Value::Int(n as i64)),
            ]));
        }
    }
    let limit = to.map_or(SCRIPT_PERIOD_HEAPS, |n| n as u64);
    heap::check_heap_limit(limit)?;
    let mut n = if to.is_some() { limit } else { 256 };
    let ctl = it.ctl.clone();
    let task = ctl.task(&format!("grundy values of {}", rs.name), Some(limit + 1));
    let mut g: Vec<u32> = vec![];
    loop {
        while (g.len() as u64) <= n {
            task.set(g.len() as u64)?;
            let c = Component {
                rs: rs.clone(),
                args: vec![g.len() as i64].into(),
            };
            g.push(component_grundy(it, &c)?);
        }
        let found = heap::apparent_period(&g);
        if found.is_some() || n >= limit {
            let (pre, per, saltus) = match found {
                Some((p, q, s)) => (
                    Value::Int(p as i64),
                    Value::Int(q as i64),
                    Value::Int(s as i64),
                ),
                None => (Value::None, Value::None, Value::None),
            };
            return Ok(Value::record(vec![
                ("preperiod", pre),
                ("period", per),
                ("saltus", saltus),
                ("proven", Value::Bool(false)),
                ("checked_to", Value::Int(n as i64)),
            ]));
        }
        n = (n * 4).min(limit);
    }
}

fn wythoff_period(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let k = a.nonneg(0)? as usize;
    if k > 64 {
        return Err(Error::runtime("rows up to 64 are supported", a.span_of(0)));
    }
    let mut cols = 1024;
    loop {
        it.ctl.check()?;
        let g = wythoff::table(k, cols);
        // accept a period once doubling the range does not change it
        let found = wythoff::additive_period(&g[k]);
        let again = wythoff::additive_period(&wythoff::table(k, cols * 2)[k]);
        if let Some((p, q)) = found
            && found == again
        {
            return Ok(Value::record(vec![
                ("row", Value::Int(k as i64)),
                ("preperiod", Value::Int(p as i64)),
                ("period", Value::Int(q as i64)),
                ("checked_to", Value::Int(cols as i64 * 2)),
            ]));
        }
        if cols >= 1 << 17 {
            return Err(Error::plain(format!(
                "no additive period found for row {k} up to {}",
                cols * 2
            )));
        }
        cols *= 2;
    }
}
