//! Misère theory (docs/language.md, "Misère theory"): Conway's genus and misère canonical
//! forms, and the misère quotients of heap games.
use crate::engine::impartial::Game;
use crate::engine::misere::canonical::{FormSearch, Forms, ZERO};
use crate::engine::misere::{self, GenusSearch, quotient};
use crate::lang::error::{Error, Result};
use crate::lang::run::eval::{Args, Interp};
use crate::lang::run::rules::{Position, Ruleset};
use crate::lang::run::value::Value;
use std::collections::HashMap;
use std::rc::Rc;

pub fn register(it: &mut Interp) {
    it.add_builtin(
        "genus",
        "genus(P) or genus(R, a..b)",
        "Conway's genus of an impartial position as the books print it (\"0^120\"), or the list for heaps a..b of R",
        genus,
    );
    it.add_builtin(
        "misere_class",
        "misere_class(P)",
        "\"tame\", \"restive\", \"restless\" or \"wild\": how P plays in misère sums (Conway)",
        misere_class,
    );
    it.add_builtin(
        "misere_value",
        "misere_value(P)",
        "Conway's misère canonical form of an impartial position in CGSuite's notation (\"*[2[2]]\" for *2 + *2): equal exactly when the games are equal in misère play",
        misere_value,
    );
    it.add_builtin(
        "quotient",
        "quotient(R, heaps: n, max_size: m)",
        "Plambeck and Siegel's misère quotient of heaps 1..n of R (candidates of at most m elements, 4096 unless given): {size, p_portion, presentation, elements, pretending, changes, stable_from}",
        quotient_of,
    );
}

/// The components of one position, searched through their rulesets' options.
struct Comps<'a> {
    it: &'a mut Interp,
    rulesets: HashMap<usize, Rc<Ruleset>>,
}

impl Game for Comps<'_> {
    type Pos = (usize, Box<[i64]>);
    type Error = Error;
    fn options(&mut self, p: &Self::Pos) -> Result<Vec<Vec<Self::Pos>>> {
        let rs = self.rulesets[&p.0].clone();
        let opts = rs.family.options(self.it, &rs, &p.1)?;
        Ok(opts
            .into_iter()
            .map(|o| o.into_iter().map(|a| (p.0, a)).collect())
            .collect())
    }
    fn describe(&self, p: &Self::Pos) -> String {
        self.rulesets[&p.0]
            .family
            .describe(&self.rulesets[&p.0].name, &p.1)
    }
}

fn position(a: &Args) -> Result<Rc<Position>> {
    let p = crate::lang::run::positions::get_position(a, 0)?;
    if p.comps.iter().any(|c| c.rs.family.loopy()) {
        return Err(Error::runtime(
            "misère theory (genus, canonical forms) is for games that end; this ruleset is loopy",
            a.span_of(0),
        ));
    }
    Ok(p)
}

fn search(it: &mut Interp, p: &Position) -> Result<(misere::Genus, misere::Class)> {
    let rulesets = p.comps.iter().map(|c| (c.rs.id, c.rs.clone())).collect();
    let root: Vec<_> = p.comps.iter().map(|c| c.key()).collect();
    let ctl = it.ctl.clone();
    let mut game = Comps { it, rulesets };
    GenusSearch::default().genus(&mut game, &root, &ctl)
}

fn genus(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 2)?;
    if a.len() == 1 {
        let p = position(a)?;
        return Ok(Value::str(&search(it, &p)?.0.to_string()));
    }
    let rs = heap_ruleset(a)?;
    let Value::Range(lo, hi) = *a.get(1) else {
        return Err(a.type_error(1, "a range a..b"));
    };
    if lo < 0 || hi < lo {
        return Err(
            Error::runtime("the range of heaps is empty or negative", a.span_of(1))
                .hint("write a..b with 0 ≤ a ≤ b"),
        );
    }
    let ctl = it.ctl.clone();
    let mut game = Comps {
        it,
        rulesets: HashMap::from([(rs.id, rs.clone())]),
    };
    let mut search = GenusSearch::default();
    let task = ctl.task("genus of heaps", Some((hi - lo) as u64 + 1));
    let mut out = vec![];
    for h in lo..=hi {
        task.set((h - lo) as u64)?;
        let (g, _) = search.genus(&mut game, &[(rs.id, vec![h].into())], &ctl)?;
        out.push(Value::str(&g.to_string()));
    }
    Ok(Value::list(out))
}

fn misere_class(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let p = position(a)?;
    Ok(Value::str(search(it, &p)?.1.name()))
}

fn misere_value(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let p = position(a)?;
    let rulesets = p.comps.iter().map(|c| (c.rs.id, c.rs.clone())).collect();
    let ctl = it.ctl.clone();
    let mut game = Comps { it, rulesets };
    let mut forms = Forms::default();
    let mut search = FormSearch::default();
    let mut sum = ZERO;
    for c in &p.comps {
        let f = search.form(&mut forms, &mut game, &c.key(), &ctl)?;
        sum = forms.add(sum, f, &ctl)?;
    }
    Ok(Value::str(&forms.display(sum, &ctl)?))
}

/// Argument 0 as a ruleset of one heap.
fn heap_ruleset(a: &Args) -> Result<Rc<Ruleset>> {
    match a.get(0) {
        Value::Ruleset(rs) if rs.family.arity() == Some(1) && !rs.family.loopy() => Ok(rs.clone()),
        _ => Err(a
            .type_error(0, "a ruleset of one heap")
            .hint("octal(\"0.77\"), subtraction({1, 2}), or a `game` of one argument")),
    }
}

/// The most heaps a quotient is computed for.
const MAX_HEAPS: i64 = 100_000;

/// The largest `max_size:` (a candidate's action table must fit in u32 indices).
const MAX_SIZE: i64 = 1 << 28;

fn quotient_of(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let rs = heap_ruleset(a)?;
    let n = a
        .kw_int_in("heaps", 1..=MAX_HEAPS, "the largest heap")?
        .ok_or_else(|| {
            Error::runtime("quotient needs `heaps:`, the largest heap", a.span)
                .hint(format!("e.g. quotient({}, heaps: 30)", rs.name))
        })? as u64;
    let max_size = a
        .kw_int_in(
            "max_size",
            2..=MAX_SIZE,
            "the most elements of a candidate quotient",
        )?
        .map_or(quotient::MAX_SIZE, |m| m as usize);
    // the options of every heap, as the heaps they leave
    let mut opts: Vec<Vec<Vec<u64>>> = Vec::with_capacity(n as usize + 1);
    let task = it.ctl.clone();
    let task = task.task("options of heaps", Some(n + 1));
    for h in 0..=n {
        task.set(h)?;
        let list = rs.family.options(it, &rs, &[h as i64])?;
        let mut heaps = vec![];
        for o in list {
            let mut sum = vec![];
            for c in o.iter() {
                match **c {
                    [x] if x >= 0 => sum.push(x as u64),
                    _ => {
                        return Err(Error::runtime(
                            format!("a move of {} does not leave heaps", rs.name),
                            a.span_of(0),
                        ));
                    }
                }
            }
            heaps.push(sum);
        }
        if h == 0 && !heaps.is_empty() {
            return Err(Error::runtime(
                format!("a heap of 0 of {} has moves", rs.name),
                a.span_of(0),
            )
            .hint("misère quotients are computed for rules where a heap of 0 has no move"));
        }
        opts.push(heaps);
    }
    drop(task);
    let q = quotient::quotient_within(&opts, max_size, &it.ctl)?;
    let words = |xs: Vec<String>| Value::list(xs.iter().map(|s| Value::str(s)).collect());
    let pretending: Vec<(Value, Value)> = (0..=n)
        .map(|h| (Value::Int(h as i64), Value::str(&q.pretending(h))))
        .collect();
    Ok(Value::record(vec![
        ("size", Value::Int(q.size() as i64)),
        ("p_portion", words(q.p_portion())),
        ("presentation", Value::str(&q.presentation())),
        ("elements", words(q.elements())),
        ("pretending", Value::Map(Rc::new(pretending))),
        (
            "changes",
            Value::Map(Rc::new(
                q.steps
                    .iter()
                    .map(|s| (Value::Int(s.heap as i64), Value::Int(s.size as i64)))
                    .collect(),
            )),
        ),
        (
            "stable_from",
            q.stable_from()
                .map_or(Value::None, |h| Value::Int(h as i64)),
        ),
    ]))
}
