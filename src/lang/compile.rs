//! The compile stage of `game` blocks. A block's rules are compiled once, where the block is
//! defined: every name is resolved to a slot (a parameter or a `for` variable) or to a name of
//! the defining scope, read once per position; so running a rule allocates no scope and hashes
//! no name. Integer arithmetic runs on machine integers, and the interpreter's exact arithmetic
//! takes over where it would overflow; `for` over a range is a plain loop; and the options are
//! written into one flat buffer, without a list per option. What is not compiled here
//! (comprehensions, blocks, lambdas, game literals, keyword arguments) is handed to the
//! interpreter in a scope that holds the slots it can see.
use crate::lang::error::{Error, Result};
use crate::lang::run::eval::{Env, Interp, Scope, as_i64};
use crate::lang::run::rules::Interned;
use crate::lang::run::value::Value;
use crate::lang::syntax::ast::{BinOp, Expr, ExprKind, GameDef, Side, Span, Stmt, UnOp};
use num_integer::Integer;
use num_traits::ToPrimitive;
use std::rc::Rc;

mod octal;
mod text;

/// About how many bytes one listed option takes: its lists, and the value `options` makes.
const OPTION_BYTES: u64 = 320;

/// Options a position may list: at most `impartial::HELD_LIMIT`, and what the memory budget
/// holds (the budget is read only for positions with many options).
pub fn options_cap(it: &Interp) -> usize {
    (it.ctl.memory() / OPTION_BYTES).min(crate::engine::impartial::HELD_LIMIT as u64) as usize
}

/// Options counted before the budget is looked at.
pub const FEW_OPTIONS: usize = 1 << 16;

/// Integer constants given registers of their own; the rest are held by their closures.
const MAX_CONSTANTS: usize = 64;
/// Registers of machine code: slots and names (at most 64), then constants; as many as a
/// `u8` numbers, so that reading one needs no bounds check.
const REGISTERS: usize = 256;

/// Expressions nested deeper than this are left to the interpreter, which guards its stack.
const MAX_NESTING: usize = 200;

/// The options of positions, flat: option `i` is `data[ends[i - 1]..ends[i]]`, its components
/// one after another, each as many integers as the ruleset has parameters.
#[derive(Default)]
pub struct Flat {
    pub data: Vec<i64>,
    pub ends: Vec<usize>,
}

impl Flat {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The integers of option `i`.
    pub fn option(&self, i: usize) -> &[i64] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.data[start..self.ends[i]]
    }

    /// Keeps the first `n` options.
    pub fn truncate(&mut self, n: usize) {
        self.ends.truncate(n);
        self.data.truncate(self.ends.last().copied().unwrap_or(0));
    }

    /// Option `i` as a sum of components of `arity` integers each.
    pub fn components(&self, i: usize, arity: usize) -> Vec<Box<[i64]>> {
        if arity == 0 {
            return vec![];
        }
        self.option(i).chunks(arity).map(Box::from).collect()
    }
}

/// A `game` block's rules, compiled.
pub struct Rules {
    arity: usize,
    /// names the rules read from the defining scope (or the builtins)
    globals: Vec<(Rc<str>, Span)>,
    /// slots: the parameters, then one per `for` depth
    slots: usize,
    /// the integer constants of the rules, in registers from `slots + globals.len()` on
    consts: Vec<i64>,
    rules: Vec<Rule>,
    /// the registers of the last run, for the next (their old contents are never read)
    spare: std::cell::Cell<Option<Box<Registers>>>,
}

struct Rule {
    side: Option<Side>,
    /// each `for`: its variable's slot and what it runs over (with machine code for the ends
    /// of a range `a..b`)
    loops: Vec<(usize, Compiled, Option<[Ints; 2]>)>,
    cond: Option<Compiled>,
    components: Vec<Vec<Compiled>>,
    /// the innermost `for` runs over a range, and the condition and every argument have
    /// machine code: the loop runs on registers alone, see `Run::tight`
    tight: Option<Tight>,
    /// the innermost `for` (when it runs over a range) has for condition a slice compared with a
    /// string: the loop is a byte scan, see `Run::scan`
    scan: Option<text::Scan>,
    span: Span,
}

/// The innermost loop of a rule on registers alone, with what does not change along it taken
/// out: `2 * k < n` bounds the range instead of being tested for each `k`, and `n - k` is
/// `n` once, then a subtraction.
struct Tight {
    /// the conditions `coef * x op rest` at the front of the condition's `and`s (`x` the loop
    /// variable, `op` a comparison other than `!=`); they are tested first, so skipping the
    /// elements where one fails changes nothing
    bounds: Vec<(i64, BinOp, Ints)>,
    /// the rest of the condition, tested for each element where the bounds hold
    rest: Option<Ints>,
    /// each argument as `coef * x + rest` where it is one (`None`: by its machine code)
    args: Vec<Option<(i64, Ints)>>,
}

/// `c` as `coef * x + rest`, with `x` slot `s` and `rest` free of it, where `c` is built of
/// `+`, `-` and multiplication by a constant (`None` otherwise). Exact: the rest's machine code
/// computes it or fails.
fn affine(c: &Code, s: usize) -> Option<(i64, Code)> {
    let zero = || Code::Const(Value::Int(0));
    Some(match c {
        Code::Slot(t) if *t == s => (1, zero()),
        Code::Slot(_) | Code::Global(_) | Code::Const(Value::Int(_)) => (0, c.clone()),
        Code::Unary(UnOp::Neg, x, span) => {
            let (k, r) = affine(x, s)?;
            (k.checked_neg()?, Code::Unary(UnOp::Neg, Box::new(r), *span))
        }
        Code::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), ab, spans) => {
            let [(ka, ra), (kb, rb)] = [affine(&ab[0], s)?, affine(&ab[1], s)?];
            let k = match op {
                BinOp::Add => ka.checked_add(kb)?,
                BinOp::Sub => ka.checked_sub(kb)?,
                // a product is affine where one side is a constant
                _ => match (&ab[0], &ab[1]) {
                    (Code::Const(Value::Int(m)), _) => m.checked_mul(kb)?,
                    (_, Code::Const(Value::Int(m))) => ka.checked_mul(*m)?,
                    _ if ka == 0 && kb == 0 => 0,
                    _ => return None,
                },
            };
            (k, Code::Binary(*op, Box::new([ra, rb]), *spans))
        }
        _ => return None,
    })
}

/// The part of `a..=b` where `k * x op r` holds (`op` a comparison other than `!=`, `k` not 0).
fn narrow((a, b): (i128, i128), k: i64, op: BinOp, r: i64) -> (i128, i128) {
    let (mut k, mut r) = (k as i128, r as i128);
    let mut op = op;
    if k < 0 {
        (k, r) = (-k, -r);
        op = match op {
            BinOp::Lt => BinOp::Gt,
            BinOp::Le => BinOp::Ge,
            BinOp::Gt => BinOp::Lt,
            BinOp::Ge => BinOp::Le,
            op => op,
        };
    }
    let floor = |r: i128| Integer::div_floor(&r, &k);
    match op {
        BinOp::Lt => (a, b.min(floor(r - 1))),
        BinOp::Le => (a, b.min(floor(r))),
        BinOp::Gt => (a.max(floor(r) + 1), b),
        BinOp::Ge => (a.max(-floor(-r)), b),
        _ if r % k == 0 => (a.max(r / k), b.min(r / k)),
        _ => (1, 0),
    }
}

/// The `and`s of a condition, in the order they are tested.
fn conjuncts(c: &Code, span: Span, out: &mut Vec<(Code, Span)>) {
    match c {
        Code::And(ab) => ab.iter().for_each(|(x, s)| conjuncts(x, *s, out)),
        _ => out.push((c.clone(), span)),
    }
}

impl Tight {
    /// The innermost loop of `rule` taken apart, where all of it has machine code.
    fn new(rule: &Rule, ints: &dyn Fn(&Code) -> Option<Ints>) -> Option<Tight> {
        let (x, _, Some(_)) = rule.loops.last()? else {
            return None;
        };
        let machine = |c: &Compiled, truth: bool| c.ints.as_ref().is_some_and(|i| i.truth == truth);
        let arity = rule.components.first().map_or(0, |c| c.len());
        if !rule.cond.as_ref().is_none_or(|c| machine(c, true))
            || !rule.components.iter().flatten().all(|c| machine(c, false))
            || rule.components.iter().any(|c| c.len() != arity)
        {
            return None;
        }
        let mut all = vec![];
        if let Some(c) = &rule.cond {
            conjuncts(&c.code, c.span, &mut all);
        }
        let mut bounds = vec![];
        let mut rest = all.into_iter().peekable();
        while let Some((Code::Binary(op, ab, _), _)) = rest.peek() {
            if !matches!(
                op,
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq
            ) {
                break;
            }
            let Some([(ka, ra), (kb, rb)]) = affine(&ab[0], *x)
                .zip(affine(&ab[1], *x))
                .map(|(a, b)| [a, b])
            else {
                break;
            };
            // a x op b x + r: (a - b) x op r, with r computed once
            let (Some(k), Some(r)) = (
                ka.checked_sub(kb),
                ints(&Code::Binary(
                    BinOp::Sub,
                    Box::new([rb, ra]),
                    [Span::default(); 3],
                )),
            ) else {
                break;
            };
            if k == 0 || r.truth {
                break;
            }
            bounds.push((k, *op, r));
            rest.next();
        }
        let rest = rest.reduce(|a, b| {
            let span = a.1.to(b.1);
            (Code::And(Box::new([a, b])), span)
        });
        let args = rule.components.iter().flatten().map(|c| {
            let (k, r) = affine(&c.code, *x)?;
            Some((k, ints(&r)?))
        });
        Some(Tight {
            bounds,
            rest: match rest {
                Some((c, _)) => Some(ints(&c)?),
                None => None,
            },
            args: args.collect(),
        })
    }
}

/// An expression compiled: its code, and machine code where it is one of integers or truth
/// values.
struct Compiled {
    code: Code,
    ints: Option<Ints>,
    span: Span,
}

#[derive(Clone)]
enum Code {
    Const(Value),
    Slot(usize),
    Global(usize),
    Unary(UnOp, Box<Code>, Span),
    And(Box<[(Code, Span); 2]>),
    Or(Box<[(Code, Span); 2]>),
    /// the operator, its operands and the spans of the whole and of each side
    Binary(BinOp, Box<[Code; 2]>, [Span; 3]),
    If(Box<[Code; 3]>, Span),
    List(Vec<Code>),
    Set(Vec<Code>),
    /// a call: the callee (with its name when it is one), the arguments
    Call {
        callee: Box<Code>,
        name: Option<Rc<str>>,
        args: Vec<(Code, Span)>,
        span: Span,
        fspan: Span,
    },
    Index(Box<Code>, Vec<(Code, Span)>, Span),
    Slice(Box<Code>, Box<[Option<(Code, Span)>; 2]>, Span),
    /// run by the interpreter in a scope holding these slots by name
    Interp(Expr, Vec<(Rc<str>, usize)>),
    /// a slice or index compared with a constant, in place (made by `text::lower`)
    Test(Rc<text::Test>),
    /// a chain of `+` over strings, written once (made by `text::lower`)
    Join(Rc<text::Join>),
}

impl Code {
    /// Adds the integer constants of `self` to `out`, each once.
    fn constants(&self, out: &mut Vec<i64>) {
        match self {
            Code::Const(Value::Int(i)) if !out.contains(i) => out.push(*i),
            Code::Unary(_, x, _) => x.constants(out),
            Code::And(ab) | Code::Or(ab) => ab.iter().for_each(|x| x.0.constants(out)),
            Code::Binary(_, ab, _) => ab.iter().for_each(|x| x.constants(out)),
            Code::If(cab, _) => cab.iter().for_each(|x| x.constants(out)),
            _ => {}
        }
    }
}

/// Names in scope while compiling: the innermost binding of a name is the last.
struct Resolver {
    locals: Vec<(Rc<str>, usize)>,
    globals: Vec<(Rc<str>, Span)>,
}

impl Resolver {
    fn name(&mut self, name: &Rc<str>, span: Span) -> Code {
        if let Some((_, s)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return Code::Slot(*s);
        }
        let g = match self.globals.iter().position(|(n, _)| n == name) {
            Some(g) => g,
            None => {
                self.globals.push((name.clone(), span));
                self.globals.len() - 1
            }
        };
        Code::Global(g)
    }

    /// The slots an expression left to the interpreter sees, each name once.
    fn visible(&self) -> Vec<(Rc<str>, usize)> {
        let mut out: Vec<(Rc<str>, usize)> = vec![];
        for (n, s) in &self.locals {
            match out.iter_mut().find(|(m, _)| m == n) {
                Some(e) => e.1 = *s,
                None => out.push((n.clone(), *s)),
            }
        }
        out
    }

    fn both(&mut self, a: &Expr, b: &Expr, depth: usize) -> [(Code, Span); 2] {
        [
            (self.expr(a, depth + 1), a.span),
            (self.expr(b, depth + 1), b.span),
        ]
    }

    fn expr(&mut self, e: &Expr, depth: usize) -> Code {
        if depth > MAX_NESTING {
            return self.interp(e);
        }
        let d = depth + 1;
        match &e.kind {
            ExprKind::Int(b) => Code::Const(match b.to_i64() {
                Some(i) => Value::Int(i),
                None => Value::Big(b.clone()),
            }),
            ExprKind::Str(s) => Code::Const(Value::Str(s.clone())),
            ExprKind::Bool(b) => Code::Const(Value::Bool(*b)),
            ExprKind::None => Code::Const(Value::None),
            ExprKind::Ident(name) => self.name(name, e.span),
            ExprKind::Unary(op, x) => Code::Unary(*op, Box::new(self.expr(x, d)), e.span),
            ExprKind::Binary(BinOp::And, a, b) => Code::And(Box::new(self.both(a, b, d))),
            ExprKind::Binary(BinOp::Or, a, b) => Code::Or(Box::new(self.both(a, b, d))),
            ExprKind::Binary(op, a, b) => Code::Binary(
                *op,
                Box::new([self.expr(a, d), self.expr(b, d)]),
                [e.span, a.span, b.span],
            ),
            ExprKind::If(c, a, b) => Code::If(
                Box::new([self.expr(c, d), self.expr(a, d), self.expr(b, d)]),
                c.span,
            ),
            ExprKind::List(xs) => Code::List(xs.iter().map(|x| self.expr(x, d)).collect()),
            ExprKind::Set(xs) => Code::Set(xs.iter().map(|x| self.expr(x, d)).collect()),
            ExprKind::Call {
                callee,
                args,
                kwargs,
            } if kwargs.is_empty() => Code::Call {
                name: match &callee.kind {
                    ExprKind::Ident(n) => Some(n.clone()),
                    _ => None,
                },
                callee: Box::new(self.expr(callee, d)),
                args: args.iter().map(|a| (self.expr(a, d), a.span)).collect(),
                span: e.span,
                fspan: callee.span,
            },
            ExprKind::Index(base, idx) => Code::Index(
                Box::new(self.expr(base, d)),
                idx.iter().map(|i| (self.expr(i, d), i.span)).collect(),
                e.span,
            ),
            ExprKind::Slice(base, from, to) => {
                let end = |r: &mut Self, x: &Option<Box<Expr>>| {
                    x.as_ref().map(|x| (r.expr(x, d), x.span))
                };
                Code::Slice(
                    Box::new(self.expr(base, d)),
                    Box::new([end(self, from), end(self, to)]),
                    e.span,
                )
            }
            // `{ x }`: a block of one expression binds nothing
            ExprKind::Block(stmts) if matches!(stmts.as_slice(), [Stmt::Expr(_)]) => {
                let [Stmt::Expr(x)] = stmts.as_slice() else {
                    unreachable!("matched above")
                };
                self.expr(x, d)
            }
            _ => self.interp(e),
        }
    }

    fn interp(&self, e: &Expr) -> Code {
        Code::Interp(e.clone(), self.visible())
    }
}

impl Rules {
    pub fn compile(def: &GameDef) -> Rules {
        let arity = def.params.len();
        let mut r = Resolver {
            locals: def
                .params
                .iter()
                .enumerate()
                .map(|(i, p)| (p.name.clone(), i))
                .collect(),
            globals: vec![],
        };
        let mut slots = arity;
        let mut rules = vec![];
        for rule in &def.rules {
            let mut loops = vec![];
            for (depth, (var, iter)) in rule.bindings.iter().enumerate() {
                let code = r.expr(iter, 0);
                let slot = arity + depth;
                slots = slots.max(slot + 1);
                r.locals.push((var.name.clone(), slot));
                loops.push((slot, code, iter.span));
            }
            let cond = rule.cond.as_ref().map(|c| (r.expr(c, 0), c.span));
            let components: Vec<Vec<(Code, Span)>> = rule
                .components
                .iter()
                .map(|comp| comp.iter().map(|x| (r.expr(x, 0), x.span)).collect())
                .collect();
            r.locals.truncate(arity);
            rules.push((rule, loops, cond, components));
        }
        // machine code reads slots and names from registers numbered alike
        let vars = slots + r.globals.len();
        // constants in registers of their own, after the slots and names, loaded once
        let mut consts = vec![];
        for rule in &rules {
            let codes = rule.1.iter().map(|l| &l.1);
            let codes = codes.chain(rule.2.iter().map(|c| &c.0));
            for c in codes.chain(rule.3.iter().flatten().map(|c| &c.0)) {
                c.constants(&mut consts);
            }
        }
        consts.truncate(MAX_CONSTANTS);
        let ints = |c: &Code| Ints::compile(c, (slots, vars, &consts));
        let compiled = |(code, span): (Code, Span)| {
            let ints = ints(&code);
            Compiled {
                code: text::lower(code, &|c| Ints::compile(c, (slots, vars, &consts))),
                ints,
                span,
            }
        };
        let rules = rules
            .into_iter()
            .map(|(rule, loops, cond, components)| {
                let mut r = Rule {
                    side: rule.side,
                    loops: loops
                        .into_iter()
                        .map(|(slot, code, span)| {
                            let ends = match &code {
                                Code::Binary(BinOp::Range, ab, _) => {
                                    match [0, 1].map(|i| ints(&ab[i])) {
                                        [Some(a), Some(b)] => Some([a, b]),
                                        _ => None,
                                    }
                                }
                                _ => None,
                            };
                            (slot, compiled((code, span)), ends)
                        })
                        .collect(),
                    cond: cond.map(compiled),
                    components: components
                        .into_iter()
                        .map(|comp| comp.into_iter().map(compiled).collect())
                        .collect(),
                    tight: None,
                    scan: None,
                    span: rule.span,
                };
                if r.components.iter().all(|comp| comp.len() == arity) {
                    r.tight = Tight::new(&r, &ints);
                }
                if r.tight.is_none()
                    && let (Some((x, _, _)), Some(c)) = (r.loops.last(), &r.cond)
                {
                    r.scan = text::Scan::new(&c.code, *x, &ints);
                }
                r
            })
            .collect();
        Rules {
            arity,
            globals: r.globals,
            slots,
            consts,
            rules,
            spare: Default::default(),
        }
    }

    /// The values of the names the rules read from the defining scope, now: what the nimbers
    /// kept for the ruleset were found under.
    pub fn scope_values(&self, it: &Interp, env: &Env) -> Vec<Option<Value>> {
        self.globals
            .iter()
            .map(|(n, _)| it.resolve(n, env))
            .collect()
    }

    /// The options of the position `state` (its arguments coded by `codes`), by the rules of
    /// `side` (`None`: every rule), appended to `out`. Past `options_cap` options in `out` the
    /// result is an error with an empty message, for the caller to name the position.
    pub fn options(
        &self,
        it: &mut Interp,
        env: &Env,
        codes: &Interned,
        state: &[i64],
        side: Option<Side>,
        out: &mut Flat,
    ) -> Result<()> {
        // a name the scope does not hold (a builtin, or unknown) is looked up where it is used
        let globals = self.scope_values(it, env);
        let mut run = Run {
            it,
            env,
            slots: vec![Value::None; self.slots],
            globals,
            names: &self.globals,
            registers: self
                .spare
                .take()
                .unwrap_or_else(|| Box::new([0; REGISTERS])),
            ints: 0,
            pieces: vec![],
        };
        for (s, &c) in state.iter().enumerate() {
            run.set(s, codes.value(c));
        }
        for g in 0..self.globals.len() {
            if let Some(Value::Int(i)) = run.globals[g] {
                run.set_int(self.slots + g, i);
            }
        }
        let vars = self.slots + self.globals.len();
        if let Some(r) = run.registers.get_mut(vars..vars + self.consts.len()) {
            r.copy_from_slice(&self.consts);
        }
        for rule in self
            .rules
            .iter()
            .filter(|r| side.is_none_or(|s| r.side == Some(s) || r.side.is_none()))
        {
            run.bind(rule, 0, (self.arity, codes), out)?;
        }
        self.spare.set(Some(run.registers));
        Ok(())
    }
}

struct Run<'a> {
    it: &'a mut Interp,
    env: &'a Env,
    slots: Vec<Value>,
    globals: Vec<Option<Value>>,
    names: &'a [(Rc<str>, Span)],
    /// machine integers: each slot and name that holds an integer (bit `i` of `ints` set),
    /// then temporaries
    registers: Box<[i64; REGISTERS]>,
    ints: u64,
    /// the parts of a string being joined, kept for the next (see `text`)
    pieces: Vec<(Rc<str>, usize, usize)>,
}

impl Run<'_> {
    fn bind(
        &mut self,
        rule: &Rule,
        depth: usize,
        how: (usize, &Interned),
        out: &mut Flat,
    ) -> Result<()> {
        let Some((slot, iter, ends)) = rule.loops.get(depth) else {
            return self.emit(rule, how, out);
        };
        let range = match ends {
            Some([a, b]) => a.run(self).zip(b.run(self)),
            None => None,
        };
        let items = match range {
            Some(r) => Value::Range(r.0, r.1),
            None => self.value(iter)?,
        };
        // a range runs without being listed, but within the limit on what a range may list
        if let Value::Range(a, b) = items
            && b as i128 - a as i128 >= crate::lang::run::eval::MAX_ELEMENTS as i128
        {
            self.it.items(&items, iter.span)?;
        }
        match items {
            Value::Range(a, b)
                if depth + 1 == rule.loops.len()
                    && let Some(t) = &rule.tight =>
            {
                self.tight(rule, t, *slot, (a, b), how, out)?;
            }
            Value::Range(a, b)
                if a <= b
                    && depth + 1 == rule.loops.len()
                    && let Some(sc) = &rule.scan
                    && self.scan(rule, sc, *slot, (a, b), how, out)? => {}
            Value::Range(a, b) => {
                for x in a..=b {
                    if x & 1023 == 0 {
                        self.it.ctl.check()?;
                    }
                    self.set_int(*slot, x);
                    self.bind(rule, depth + 1, how, out)?;
                }
            }
            v => {
                for x in self.it.items(&v, iter.span)? {
                    self.it.ctl.check()?;
                    self.set(*slot, x);
                    self.bind(rule, depth + 1, how, out)?;
                }
            }
        }
        Ok(())
    }

    /// Binds slot `s` to `v`, and its register when `v` is an integer.
    fn set(&mut self, s: usize, v: Value) {
        match v {
            Value::Int(i) => self.set_int(s, i),
            v => {
                self.slots[s] = v;
                if s < 64 {
                    self.ints &= !(1 << s);
                }
            }
        }
    }

    fn set_int(&mut self, s: usize, i: i64) {
        // a slot past the first 64 (more than 64 names) is never read by machine code
        if s < 64 {
            self.registers[s] = i;
            self.ints |= 1 << s;
        }
        match self.slots.get_mut(s) {
            Some(Value::Int(v)) => *v = i,
            Some(v) => *v = Value::Int(i),
            None => {}
        }
    }

    /// The value of `c`: by its machine code where that applies.
    fn value(&mut self, c: &Compiled) -> Result<Value> {
        if let Some(ints) = &c.ints
            && let Some(i) = ints.run(self)
        {
            return Ok(if ints.truth {
                Value::Bool(i != 0)
            } else {
                Value::Int(i)
            });
        }
        self.run(&c.code)
    }

    /// The innermost loop of a rule with a [`Tight`] form, over `a..=b`: the condition and
    /// the arguments by their machine code, on registers; a binding where that fails (an
    /// overflow, a negative argument) is left to `emit`.
    fn tight(
        &mut self,
        rule: &Rule,
        t: &Tight,
        slot: usize,
        (a, b): (i64, i64),
        how: (usize, &Interned),
        out: &mut Flat,
    ) -> Result<()> {
        self.set_int(slot, a);
        // the range the bounds leave, or the whole condition tested where a bound's rest fails
        let mut range = Some((a as i128, b as i128));
        for (k, op, r) in &t.bounds {
            range = range.zip(r.run(self)).map(|(ab, r)| narrow(ab, *k, *op, r));
        }
        let (a, b, cond) = match range {
            Some((a, b)) => (a as i64, b as i64, t.rest.as_ref()),
            None => (a, b, rule.cond.as_ref().and_then(|c| c.ints.as_ref())),
        };
        let args: Vec<(&Ints, Option<(i64, i64)>)> = rule
            .components
            .iter()
            .flatten()
            .filter_map(|x| x.ints.as_ref())
            .zip(&t.args)
            .map(|(i, aff)| (i, aff.as_ref().and_then(|(k, r)| Some((*k, r.run(self)?)))))
            .collect();
        for x in a..=b {
            if x & 1023 == 0 {
                self.it.ctl.check()?;
            }
            self.registers[slot] = x;
            if let Some(c) = cond {
                match c.run(self) {
                    Some(0) => continue,
                    Some(_) => {}
                    None => {
                        self.set_int(slot, x);
                        self.emit(rule, how, out)?;
                        continue;
                    }
                }
            }
            let mark = out.data.len();
            for (i, aff) in &args {
                let v = match aff {
                    Some((k, r)) => k.checked_mul(x).and_then(|kx| kx.checked_add(*r)),
                    None => i.run(self),
                };
                match v {
                    Some(v) if v >= 0 => out.data.push(v),
                    _ => break,
                }
            }
            if out.data.len() - mark < args.len() {
                out.data.truncate(mark);
                self.set_int(slot, x);
                self.emit_option(rule, how, out)?;
                continue;
            }
            self.close(out)?;
        }
        Ok(())
    }

    /// The option of the current binding, if the condition holds.
    fn emit(
        &mut self,
        rule: &Rule,
        (arity, codes): (usize, &Interned),
        out: &mut Flat,
    ) -> Result<()> {
        if let Some(c) = &rule.cond {
            let v = self.value(c)?;
            if !self.it.truth(&v, c.span)? {
                return Ok(());
            }
        }
        self.emit_option(rule, (arity, codes), out)
    }

    /// The option of the current binding.
    fn emit_option(
        &mut self,
        rule: &Rule,
        (arity, codes): (usize, &Interned),
        out: &mut Flat,
    ) -> Result<()> {
        for comp in &rule.components {
            if comp.len() != arity {
                out.data.truncate(out.ends.last().copied().unwrap_or(0));
                let span = comp[0].span.to(comp[comp.len() - 1].span);
                return Err(Error::runtime(
                    format!(
                        "this option has {} argument{}, the ruleset takes {arity}",
                        comp.len(),
                        if comp.len() == 1 { "" } else { "s" }
                    ),
                    span,
                )
                .hint("write a component as (a, b) with one entry per parameter"));
            }
            for x in comp {
                if let Code::Join(j) = &x.code
                    && let Some(c) = self.join_code(j, codes)
                {
                    out.data.push(c);
                    continue;
                }
                let code = match self.value(x)? {
                    Value::Int(i) if i >= 0 => i,
                    v => arg_code(self.it, &v, x.span, rule.span, codes)?,
                };
                out.data.push(code);
            }
        }
        self.close(out)
    }

    /// Ends the option being written.
    fn close(&mut self, out: &mut Flat) -> Result<()> {
        out.ends.push(out.data.len());
        if out.ends.len().is_multiple_of(FEW_OPTIONS) && out.ends.len() > options_cap(self.it) {
            // an empty message: the caller names the position
            return Err(Error::plain(""));
        }
        Ok(())
    }

    fn run(&mut self, c: &Code) -> Result<Value> {
        Ok(match c {
            Code::Const(v) => v.clone(),
            Code::Slot(s) => self.slots[*s].clone(),
            Code::Global(g) => match &self.globals[*g] {
                Some(v) => v.clone(),
                None => {
                    let (name, span) = &self.names[*g];
                    return self.it.lookup(name, *span, self.env);
                }
            },
            Code::Unary(op, x, span) => {
                let v = self.run(x)?;
                match (op, &v) {
                    (UnOp::Not, Value::Bool(b)) => Value::Bool(!b),
                    (UnOp::Neg, Value::Int(i)) if *i != i64::MIN => Value::Int(-i),
                    _ => self.it.unary(*op, v, *span)?,
                }
            }
            Code::And(ab) => {
                for (x, span) in ab.iter() {
                    let v = self.run(x)?;
                    if !self.it.truth(&v, *span)? {
                        return Ok(Value::Bool(false));
                    }
                }
                Value::Bool(true)
            }
            Code::Or(ab) => {
                for (x, span) in ab.iter() {
                    let v = self.run(x)?;
                    if self.it.truth(&v, *span)? {
                        return Ok(Value::Bool(true));
                    }
                }
                Value::Bool(false)
            }
            Code::Binary(op, ab, [span, aspan, bspan]) => {
                let a = self.run(&ab[0])?;
                let b = self.run(&ab[1])?;
                if let (Value::Int(x), Value::Int(y)) = (&a, &b)
                    && let Some(v) = int_binary(*op, *x, *y)
                {
                    return Ok(v);
                }
                self.it.binary(*op, a, b, *span, *aspan, *bspan)?
            }
            Code::If(cab, span) => {
                let c = self.run(&cab[0])?;
                let branch = if self.it.truth(&c, *span)? { 1 } else { 2 };
                return self.run(&cab[branch]);
            }
            Code::List(xs) => Value::list(xs.iter().map(|x| self.run(x)).collect::<Result<_>>()?),
            Code::Set(xs) => Value::Set(Rc::new(
                xs.iter().map(|x| self.run(x)).collect::<Result<_>>()?,
            )),
            Code::Call {
                callee,
                name,
                args,
                span,
                fspan,
            } => {
                // a call may come back here (a rule asking for nimbers of its own ruleset)
                self.it.check_stack(*span)?;
                // the builtin `len` of a string or list, where no name in scope is `len`
                if let (Some("len"), Code::Global(g), [(a, _)]) =
                    (name.as_deref(), &**callee, args.as_slice())
                    && let Some(Value::Builtin("len")) = self.globals[*g]
                {
                    let v = self.run(a)?;
                    match &v {
                        Value::Str(s) if s.is_ascii() => return Ok(Value::Int(s.len() as i64)),
                        Value::List(xs) => return Ok(Value::Int(xs.len() as i64)),
                        _ => {}
                    }
                    let f = self.run(callee)?;
                    return self
                        .it
                        .call(&f, vec![(v, args[0].1)], vec![], *span, *fspan);
                }
                let mut f = self.run(callee)?;
                if let Some(name) = name {
                    f = self.it.builtin_over_graph(name, f);
                }
                let mut vals = Vec::with_capacity(args.len());
                for (a, s) in args {
                    vals.push((self.run(a)?, *s));
                }
                self.it.call(&f, vals, vec![], *span, *fspan)?
            }
            Code::Index(base, idx, span) => {
                let b = self.run(base)?;
                if let (Value::List(xs), [(i, _)]) = (&b, idx.as_slice())
                    && let Value::Int(i) = self.run(i)?
                    && let Some(x) = usize::try_from(i).ok().and_then(|i| xs.get(i))
                {
                    return Ok(x.clone());
                }
                let mut is = Vec::with_capacity(idx.len());
                for (i, s) in idx {
                    is.push((self.run(i)?, *s));
                }
                self.it.index(b, is, *span)?
            }
            Code::Slice(base, ends, span) => {
                let b = self.run(base)?;
                let mut vals = [None, None];
                for (v, end) in vals.iter_mut().zip(ends.iter()) {
                    if let Some((x, s)) = end {
                        *v = Some((self.run(x)?, *s));
                    }
                }
                let [from, to] = vals;
                crate::lang::run::eval::slice(&b, from, to, *span)?
            }
            Code::Test(t) => self.test(t)?,
            Code::Join(j) => self.join(j)?,
            Code::Interp(e, visible) => {
                let scope = Scope::child(self.env);
                for (name, s) in visible {
                    scope.define(name.clone(), self.slots[*s].clone());
                }
                self.it.eval(e, &scope)?
            }
        })
    }
}

/// `x op y` on machine integers, where the result is an integer (or a truth value) that
/// fits; `None` leaves it to the interpreter (overflow, division by zero, exact fractions).
fn int_binary(op: BinOp, x: i64, y: i64) -> Option<Value> {
    let v = int_op(op, x, y)?;
    Some(match op {
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            Value::Bool(v != 0)
        }
        _ => Value::Int(v),
    })
}

/// `x op y` as `int_binary`, a truth value as 1 or 0.
fn int_op(op: BinOp, x: i64, y: i64) -> Option<i64> {
    Some(match op {
        BinOp::Add => x.checked_add(y)?,
        BinOp::Sub => x.checked_sub(y)?,
        BinOp::Mul => x.checked_mul(y)?,
        BinOp::FloorDiv if y != 0 && (x, y) != (i64::MIN, -1) => Integer::div_floor(&x, &y),
        BinOp::Rem if y != 0 && (x, y) != (i64::MIN, -1) => Integer::mod_floor(&x, &y),
        BinOp::Div if y != 0 && (x, y) != (i64::MIN, -1) && x % y == 0 => x / y,
        BinOp::Eq => (x == y) as i64,
        BinOp::Ne => (x != y) as i64,
        BinOp::Lt => (x < y) as i64,
        BinOp::Le => (x <= y) as i64,
        BinOp::Gt => (x > y) as i64,
        BinOp::Ge => (x >= y) as i64,
        _ => return None,
    })
}

/// Machine code for an expression of integers and truth values (as 1 and 0): a closure per
/// operation, reading slots, names and constants from registers of machine integers. Both
/// sides of `and`, `or` and `if` are computed: nothing here has effects, and where a side
/// fails (an overflow, a division by zero) the whole is left to the interpreter, which takes
/// the short cut.
struct Ints {
    node: Node,
    /// the slot and name registers read, a bit each: machine code runs when all hold integers
    reads: u64,
    /// the result is a truth value
    truth: bool,
}

type Registers = [i64; REGISTERS];
type IntFn = Box<dyn Fn(&Registers) -> Option<i64>>;

/// An operand: a register, or the closure that computes it.
enum Node {
    Reg(u8),
    Fn(IntFn),
}

impl Node {
    fn into_fn(self) -> IntFn {
        match self {
            Node::Reg(a) => Box::new(move |r| Some(r[a as usize])),
            Node::Fn(f) => f,
        }
    }
}

/// The closure of a binary operation, one per shape of operands, so that an operand in a
/// register is read without a call.
macro_rules! binary {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr) => {
        Node::Fn(match ($a, $b) {
            (Node::Reg(a), Node::Reg(b)) => Box::new(move |r: &Registers| {
                let ($x, $y) = (r[a as usize], r[b as usize]);
                $body
            }),
            (Node::Reg(a), Node::Fn(fb)) => Box::new(move |r: &Registers| {
                let ($x, $y) = (r[a as usize], fb(r)?);
                $body
            }),
            (Node::Fn(fa), Node::Reg(b)) => Box::new(move |r: &Registers| {
                let ($x, $y) = (fa(r)?, r[b as usize]);
                $body
            }),
            (Node::Fn(fa), Node::Fn(fb)) => Box::new(move |r: &Registers| {
                let ($x, $y) = (fa(r)?, fb(r)?);
                $body
            }),
        })
    };
}

/// Where a compiled expression's slots, names and constants are: slots in registers
/// `0..slots`, names up to `vars`, then the constants.
type Layout<'a> = (usize, usize, &'a [i64]);

impl Ints {
    /// Machine code for `c`; `None` where `c` is not all integers and truth values, by their
    /// types.
    fn compile(c: &Code, layout: Layout) -> Option<Ints> {
        if layout.1 > 64 {
            return None;
        }
        let mut reads = 0;
        let (node, truth) = Ints::node(c, layout, &mut reads)?;
        Some(Ints { node, reads, truth })
    }

    /// The node of `c`, and whether it is a truth value.
    fn node(
        c: &Code,
        layout @ (slots, vars, consts): Layout,
        reads: &mut u64,
    ) -> Option<(Node, bool)> {
        let mut sub = |x: &Code| Ints::node(x, layout, reads);
        Some(match c {
            Code::Const(Value::Int(i)) => match consts.iter().position(|c| c == i) {
                Some(k) => (Node::Reg((vars + k) as u8), false),
                None => {
                    let i = *i;
                    (Node::Fn(Box::new(move |_| Some(i))), false)
                }
            },
            Code::Const(Value::Bool(b)) => {
                let b = *b as i64;
                (Node::Fn(Box::new(move |_| Some(b))), true)
            }
            Code::Slot(s) => {
                *reads |= 1 << s;
                (Node::Reg(*s as u8), false)
            }
            Code::Global(g) => {
                *reads |= 1 << (slots + g);
                (Node::Reg((slots + g) as u8), false)
            }
            Code::Unary(op @ (UnOp::Neg | UnOp::Not), x, _) => {
                let (a, truth) = sub(x)?;
                if truth != (*op == UnOp::Not) {
                    return None;
                }
                let f = a.into_fn();
                let node: IntFn = if truth {
                    Box::new(move |r| Some(1 - f(r)?))
                } else {
                    Box::new(move |r| f(r)?.checked_neg())
                };
                (Node::Fn(node), truth)
            }
            Code::And(ab) | Code::Or(ab) => {
                let (a, ta) = sub(&ab[0].0)?;
                let (b, tb) = sub(&ab[1].0)?;
                if !(ta && tb) {
                    return None;
                }
                let node = match c {
                    Code::And(_) => binary!(a, b, |x, y| Some(x & y)),
                    _ => binary!(a, b, |x, y| Some(x | y)),
                };
                (node, true)
            }
            Code::Binary(op, ab, _) => {
                let (a, ta) = sub(&ab[0])?;
                let (b, tb) = sub(&ab[1])?;
                let ints = !ta && !tb;
                match op {
                    BinOp::Eq if ta == tb => (binary!(a, b, |x, y| Some((x == y) as i64)), true),
                    BinOp::Ne if ta == tb => (binary!(a, b, |x, y| Some((x != y) as i64)), true),
                    BinOp::Lt if ints => (binary!(a, b, |x, y| Some((x < y) as i64)), true),
                    BinOp::Le if ints => (binary!(a, b, |x, y| Some((x <= y) as i64)), true),
                    BinOp::Gt if ints => (binary!(a, b, |x, y| Some((x > y) as i64)), true),
                    BinOp::Ge if ints => (binary!(a, b, |x, y| Some((x >= y) as i64)), true),
                    BinOp::Add if ints => (binary!(a, b, |x, y| x.checked_add(y)), false),
                    BinOp::Sub if ints => (binary!(a, b, |x, y| x.checked_sub(y)), false),
                    BinOp::Mul if ints => (binary!(a, b, |x, y| x.checked_mul(y)), false),
                    BinOp::Div | BinOp::FloorDiv | BinOp::Rem if ints => {
                        let op = *op;
                        (binary!(a, b, |x, y| int_op(op, x, y)), false)
                    }
                    _ => return None,
                }
            }
            Code::If(cab, _) => {
                let (c, tc) = sub(&cab[0])?;
                let (a, ta) = sub(&cab[1])?;
                let (b, tb) = sub(&cab[2])?;
                if !tc || ta != tb {
                    return None;
                }
                let (c, a, b) = (c.into_fn(), a.into_fn(), b.into_fn());
                let node: IntFn = Box::new(move |r| {
                    let (x, y) = (a(r)?, b(r)?);
                    Some(if c(r)? != 0 { x } else { y })
                });
                (Node::Fn(node), ta)
            }
            _ => return None,
        })
    }

    /// The value, when every register read holds an integer and nothing overflows.
    #[inline(always)]
    fn run(&self, run: &Run) -> Option<i64> {
        if self.reads & !run.ints != 0 {
            return None;
        }
        match &self.node {
            Node::Reg(a) => Some(run.registers[*a as usize]),
            Node::Fn(f) => f(&run.registers),
        }
    }
}

/// The code of a move's argument that is not a small non-negative integer.
fn arg_code(it: &Interp, v: &Value, span: Span, rule: Span, codes: &Interned) -> Result<i64> {
    codes.check_budget(&it.ctl).map_err(|e| e.at(span))?;
    codes.code(v).map_err(|what| match as_i64(v) {
        Some(x) => Error::runtime(
            format!(
                "this move leads to a negative argument ({})",
                crate::engine::control::num(x)
            ),
            span,
        )
        .hint(format!(
            "restrict the `for` range or add an `if` to the move on line {}",
            it.line_of(rule)
        )),
        None => Error::runtime(
            format!("a move's arguments are values such as integers, strings and lists, not {what}"),
            span,
        )
        .hint(
            "`move a, n - a` for two heaps, `move n - 1` for one: a move gives the ruleset's new arguments; a sum with another game is written with `+` outside the rules",
        ),
    })
}
