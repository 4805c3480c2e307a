//! Game queries (docs/language.md, "Games") as builtins, and the glue that lets the engines call
//! back into script rulesets for their options.
use crate::engine::control::num;
use crate::engine::heap::{self, Code};
use crate::engine::{loopy, moore, wythoff};
use crate::lang::compile::{FEW_OPTIONS, options_cap};
use crate::lang::error::{Error, Result};
use crate::lang::run::cgt;
use crate::lang::run::eval::{Args, Interp, as_i64};
use crate::lang::run::game::{Family, Options};
use crate::lang::run::heap::{Heap, heap_form, heap_values, proven_period, search_period};
use crate::lang::run::positions::{
    component_grundy, describe, get_position, is_loopy, loopy_result, loopy_values, misere_loopy,
    next_player_wins, options_of, position_grundy, position_loopy, too_many,
};
use crate::lang::run::rules::{Component, Position, Ruleset};
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
    let items: Vec<&Value> = match a.get(0) {
        Value::Set(s) => s.iter().collect(),
        Value::List(s) => s.iter().collect(),
        _ => return Err(a.type_error(0, "a set of positive integers")),
    };
    let mut set = Vec::with_capacity(items.len());
    for v in items {
        match as_i64(v).filter(|&x| x >= 1) {
            Some(x) => set.push(x as u64),
            None => {
                return Err(Error::runtime(
                    format!(
                        "a subtraction set holds positive integers, not {}",
                        v.source_text()
                    ),
                    a.span_of(0),
                )
                .hint("the numbers are the amounts a move may take, e.g. subtraction({1, 2, 3})"));
            }
        }
    }
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

fn outcome(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    if let Some(o) = cgt::outcome(it, a.get(0))? {
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

fn moves(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    if let Some(m) = cgt::moves(it, a)? {
        return Ok(m);
    }
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
    if let Some(g) = cgt::as_game(it, a.get(0))? {
        return cgt::game_value(it, g);
    }
    Err(a.type_error(0, "a position with a value, e.g. dots(3, 3)"))
}

fn winning(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 2)?;
    if let Some(w) = cgt::winning(it, a)? {
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
        None if rs.family.interned().is_some()
            && rs.family.arity() == Some(1)
            && rs.family.not_impartial().is_none() =>
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
