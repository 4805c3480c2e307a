//! Tree-walking evaluator: scopes, statements, operators, calls into the builtin table.
use crate::engine::Ctl;
use crate::engine::control::num;
use crate::lang::error::{Error, Kind, Result, closest};
use crate::lang::run::rules::Ruleset;
use crate::lang::run::value::{Closure, Value};
use crate::lang::syntax::ast::*;
use indexmap::IndexMap;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;

pub type Env = Rc<Scope>;

#[derive(Default)]
pub struct Scope {
    // a name is hashed once per lookup, not once per scope of the chain (names are short and
    // trusted: a fast hash, not SipHash)
    vars: RefCell<hashbrown::HashTable<(Rc<str>, Value)>>,
    parent: Option<Env>,
}

fn name_hash(name: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::default().hash_one(name)
}

impl Scope {
    pub fn child(parent: &Env) -> Env {
        Rc::new(Scope {
            vars: RefCell::default(),
            parent: Some(parent.clone()),
        })
    }
    pub fn lookup(&self, name: &str) -> Option<Value> {
        let hash = name_hash(name);
        let mut scope = self;
        loop {
            if let Some((_, v)) = scope.vars.borrow().find(hash, |(k, _)| **k == *name) {
                return Some(v.clone());
            }
            scope = scope.parent.as_deref()?;
        }
    }
    pub fn define(&self, name: Rc<str>, v: Value) {
        let hash = name_hash(&name);
        let mut vars = self.vars.borrow_mut();
        match vars.find_mut(hash, |(k, _)| *k == name) {
            Some(slot) => slot.1 = v,
            None => {
                vars.insert_unique(hash, (name, v), |(k, _)| name_hash(k));
            }
        }
    }
    /// Drop every binding. Functions keep their defining scope alive and are bound in it, so
    /// scopes holding functions form cycles that only this breaks.
    pub fn clear(&self) {
        let vars = std::mem::take(&mut *self.vars.borrow_mut());
        drop(vars);
    }

    /// Every name visible from here (for completion and "did you mean").
    pub fn names(&self) -> Vec<Rc<str>> {
        let mut out: Vec<Rc<str>> = self.vars.borrow().iter().map(|(k, _)| k.clone()).collect();
        if let Some(p) = &self.parent {
            out.extend(p.names());
        }
        out
    }
}

pub struct Source {
    pub name: String,
    pub text: Rc<str>,
    /// where each line after the first starts, so a line number is a binary search
    line_starts: Vec<u32>,
}

/// A builtin: its table entry carries what `:help NAME` prints.
pub struct Builtin {
    pub name: &'static str,
    /// the family `:help` lists it under
    pub family: &'static str,
    pub sig: &'static str,
    pub help: &'static str,
    pub f: fn(&mut Interp, &mut Args) -> Result<Value>,
}

/// Arguments of a builtin call, with the span of each for precise errors.
#[derive(Clone)]
pub struct Args {
    pub name: &'static str,
    pub vals: Vec<(Value, Span)>,
    pub kw: Vec<(Rc<str>, Value, Span)>,
    pub span: Span,
}

impl Args {
    pub fn len(&self) -> usize {
        self.vals.len()
    }
    pub fn is_empty(&self) -> bool {
        self.vals.is_empty()
    }
    pub fn count(&self, min: usize, max: usize) -> Result<()> {
        let n = self.vals.len();
        if n < min || n > max {
            let want = if max == usize::MAX {
                format!("at least {min}")
            } else if min == max {
                format!("{min}")
            } else {
                format!("{min} to {max}")
            };
            return Err(Error::runtime(
                format!(
                    "`{}` takes {want} argument{}, got {n}",
                    self.name,
                    if want == "1" { "" } else { "s" }
                ),
                self.span,
            )
            .hint(format!("see `:help {}`", self.name)));
        }
        Ok(())
    }
    pub fn get(&self, i: usize) -> &Value {
        &self.vals[i].0
    }
    pub fn span_of(&self, i: usize) -> Span {
        self.vals.get(i).map_or(self.span, |v| v.1)
    }
    pub fn type_error(&self, i: usize, want: &str) -> Error {
        Error::runtime(
            format!(
                "argument {} of `{}` must be {want}, not {}",
                i + 1,
                self.name,
                self.get(i).a_type()
            ),
            self.span_of(i),
        )
        .hint(format!("see `:help {}`", self.name))
    }
    pub fn int(&self, i: usize) -> Result<i64> {
        match self.get(i) {
            Value::Int(x) => Ok(*x),
            Value::Big(_) => Err(Error::runtime(
                "this number is too large here",
                self.span_of(i),
            )),
            _ => Err(self.type_error(i, "an integer")),
        }
    }
    pub fn nonneg(&self, i: usize) -> Result<u64> {
        let x = self.int(i)?;
        if x < 0 {
            return Err(Error::runtime(
                format!(
                    "`{}` needs a non-negative number here, got {}",
                    self.name,
                    num(x)
                ),
                self.span_of(i),
            ));
        }
        Ok(x as u64)
    }
    pub fn str(&self, i: usize) -> Result<Rc<str>> {
        match self.get(i) {
            Value::Str(s) => Ok(s.clone()),
            _ => Err(self.type_error(i, "a string")),
        }
    }
    /// Remove and return a keyword argument.
    pub fn kw(&mut self, name: &str) -> Option<(Value, Span)> {
        let i = self.kw.iter().position(|(k, _, _)| &**k == name)?;
        let (_, v, s) = self.kw.remove(i);
        Some((v, s))
    }
    pub fn kw_int(&mut self, name: &str) -> Result<Option<i64>> {
        match self.kw(name) {
            None => Ok(None),
            Some((Value::Int(x), _)) => Ok(Some(x)),
            Some((Value::Big(_), s)) => Err(Error::runtime(
                format!("`{name}:` is too large a number here"),
                s,
            )),
            Some((v, s)) => Err(Error::runtime(
                format!("`{name}:` must be an integer, not {}", v.a_type()),
                s,
            )),
        }
    }
    /// Keyword `name` as an integer in `range` (`what` says what it counts).
    pub fn kw_int_in(
        &mut self,
        name: &str,
        range: std::ops::RangeInclusive<i64>,
        what: &str,
    ) -> Result<Option<i64>> {
        let span = self.kw.iter().find(|k| &*k.0 == name).map(|k| k.2);
        match self.kw_int(name)? {
            Some(x) if !range.contains(&x) => {
                let hi = if *range.end() == i64::MAX {
                    String::new()
                } else {
                    num(range.end())
                };
                Err(Error::runtime(
                    format!(
                        "`{name}:` is {what}, {}..{hi}, not {}",
                        num(range.start()),
                        num(x)
                    ),
                    span.unwrap_or(self.span),
                ))
            }
            x => Ok(x),
        }
    }
    /// Called after a builtin took the keywords it knows: anything left is a mistake.
    pub fn no_more_kw(&self) -> Result<()> {
        match self.kw.first() {
            None => Ok(()),
            Some((k, _, s)) => Err(Error::runtime(
                format!("`{}` has no keyword argument `{k}`", self.name),
                *s,
            )
            .hint(format!("see `:help {}`", self.name))),
        }
    }
}

pub const MAX_DEPTH: usize = 2000;
/// The evaluator stops with an error when less native stack than this is left.
pub const STACK_RESERVE: usize = 1 << 20;

/// About where the native stack is now (it grows down).
fn stack_pointer() -> usize {
    let here = 0u8;
    std::hint::black_box(&here) as *const u8 as usize
}
/// Elements all lists under construction may hold together (and the most a range lists).
pub const MAX_ELEMENTS: u64 = 20_000_000;

/// Receives (line, value) for every printed value.
pub type Sink = Box<dyn FnMut(usize, &Value)>;
/// Receives a warning's text.
pub type WarnSink = Box<dyn FnMut(&str)>;

/// Compiles a board game's rules (`game NAME on board { ... }`) to a ruleset.
pub type BoardDefiner = fn(&mut Interp, &BoardGameDef, &Env) -> Result<Ruleset>;

pub struct Interp {
    pub sources: Vec<Source>,
    pub globals: Env,
    pub builtins: IndexMap<&'static str, Builtin>,
    /// receives (line, value) for every printed value
    pub sink: Sink,
    /// receives what `print` prints instead of `sink` when set (a notebook's stdout stream)
    pub print_sink: Option<Sink>,
    /// receives warnings instead of stderr when set (a notebook's stderr stream)
    pub warn_sink: Option<WarnSink>,
    pub games: crate::lang::run::rules::Cache,
    /// cancellation, progress and the memory budget, handed to every engine call
    pub ctl: Ctl,
    depth: usize,
    /// the stack address below which evaluation stops ([`STACK_RESERVE`] above the end)
    stack_floor: usize,
    loaded: HashSet<String>,
    printing: bool,
    /// folder that `use "./file.game"` is relative to (the script's; None: the working folder)
    pub base_dir: Option<std::path::PathBuf>,
    /// the last value printed at top level (the REPL binds it to `_`)
    pub last: Option<Value>,
    /// family given to builtins registered from now on
    pub family: &'static str,
    /// compiles a `game` block to a ruleset (registered by the family of games by rules)
    pub define_game: Option<fn(Rc<GameDef>, Env) -> Ruleset>,
    /// compiles a board game's rules to a ruleset (registered by the board-rules family)
    pub define_board: Option<BoardDefiner>,
    /// elements held by lists being built by comprehensions that are still running
    pub building: u64,
    /// values are printed as JSON (`--json`): `print(a, b)` prints the list `[a, b]`
    pub json: bool,
}

impl Drop for Interp {
    fn drop(&mut self) {
        self.globals.clear();
    }
}

/// The standard library, embedded so that gamut runs from any directory.
pub const STDLIB: &[(&str, &str)] = &[
    ("prelude", include_str!("../../../stdlib/prelude.game")),
    ("slide", include_str!("../../../stdlib/slide.game")),
    ("heaps", include_str!("../../../stdlib/heaps.game")),
    ("chess", include_str!("../../../stdlib/chess.game")),
    ("cycles", include_str!("../../../stdlib/cycles.game")),
    ("dots", include_str!("../../../stdlib/dots.game")),
];

/// Every name the standard library defines, with what `:help NAME` shows: the comment lines
/// above its definition (an `example:` among them), the definition itself (a whole `game`
/// block) and the library it comes from.
pub fn stdlib_names() -> Vec<(String, String)> {
    let mut out = vec![];
    for (lib, text) in STDLIB {
        let mut comments: Vec<&str> = vec![];
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let t = line.trim();
            if let Some(c) = t.strip_prefix('#') {
                comments.push(c.trim());
                continue;
            }
            let name = ["let ", "fn ", "game "].iter().find_map(|kw| {
                let rest = t.strip_prefix(kw)?;
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                Some(rest[..end].to_string())
            });
            if let Some(name) = name {
                let (examples, notes): (Vec<&str>, Vec<&str>) =
                    comments.iter().partition(|c| c.starts_with("example:"));
                let mut doc = String::new();
                for c in notes {
                    doc.push_str(c);
                    doc.push('\n');
                }
                doc.push_str(&format!("  {t}\n"));
                if t.starts_with("game ") {
                    for l in lines.by_ref() {
                        doc.push_str(&format!("  {l}\n"));
                        if l.trim() == "}" {
                            break;
                        }
                    }
                }
                for e in examples {
                    doc.push_str(&format!("  {e}\n"));
                }
                doc.push_str(&format!("(from stdlib/{lib}.game)"));
                out.push((name, doc));
            }
            comments.clear();
        }
    }
    out
}

impl Interp {
    pub fn new(sink: Sink) -> Interp {
        let mut it = Interp {
            sources: vec![],
            globals: Rc::new(Scope::default()),
            builtins: IndexMap::new(),
            sink,
            print_sink: None,
            warn_sink: None,
            games: Default::default(),
            ctl: Ctl::default(),
            depth: 0,
            // found once: asking the thread for its stack at every evaluation took a sixth of
            // a rule's time (an interpreter stays on the thread that made it)
            stack_floor: stacker::remaining_stack().map_or(0, |left| {
                (stack_pointer() + STACK_RESERVE).saturating_sub(left)
            }),
            loaded: HashSet::new(),
            printing: true,
            base_dir: None,
            last: None,
            family: "core",
            define_game: None,
            define_board: None,
            building: 0,
            json: false,
        };
        crate::lang::builtins::install(&mut it);
        it.load_library("prelude", Span::default())
            .expect("the prelude must load");
        it
    }

    pub fn add_builtin(
        &mut self,
        name: &'static str,
        sig: &'static str,
        help: &'static str,
        f: fn(&mut Interp, &mut Args) -> Result<Value>,
    ) {
        let family = self.family;
        self.builtins.insert(
            name,
            Builtin {
                name,
                family,
                sig,
                help,
                f,
            },
        );
    }

    pub fn add_source(&mut self, name: &str, text: &str) -> u32 {
        let line_starts = text
            .match_indices('\n')
            .map(|(i, _)| i as u32 + 1)
            .collect();
        self.sources.push(Source {
            name: name.to_string(),
            text: text.into(),
            line_starts,
        });
        (self.sources.len() - 1) as u32
    }

    pub fn parse(&mut self, name: &str, text: &str) -> Result<Vec<Stmt>> {
        // pest keeps a token pair for every rule it enters and the tree is built from them:
        // about 300 bytes per byte of source at the worst (a script of one-number lines); a
        // script of a few pages is read whatever the budget, as the process itself is larger
        const PARSE_BYTES: u64 = 300;
        let need = (text.len() as u64).saturating_mul(PARSE_BYTES);
        if text.len() > 1 << 16
            && need > self.ctl.memory()
            && !(self.games.forget_all(&self.ctl) && need <= self.ctl.memory())
        {
            let what = format!(
                "reading {name} ({} bytes)",
                crate::engine::control::num(text.len())
            );
            return Err(Error::from(crate::engine::control::over_budget(
                need,
                self.ctl.memory(),
                &what,
            ))
            .hint("split the script into smaller files, or raise the budget with --memory"));
        }
        // a lone carriage return (old Mac line ends) ends a line too; the length stays, so
        // spans and the text errors are drawn from agree
        let b = text.as_bytes();
        let text = &String::from_utf8(
            (0..b.len())
                .map(|i| match b[i] {
                    b'\r' if b.get(i + 1) != Some(&b'\n') => b'\n',
                    c => c,
                })
                .collect(),
        )
        .expect("ASCII replaced by ASCII");
        let id = self.add_source(name, text);
        crate::lang::syntax::parse_program(text, id).map_err(|e| Error {
            kind: Kind::Parse,
            message: e.message,
            span: Some(e.span),
            hint: Some(e.hint),
            at_end: e.at_end,
        })
    }

    /// A warning line ("warning: ..."): to the warn sink when set, else to stderr.
    pub fn warn(&mut self, msg: &str) {
        match &mut self.warn_sink {
            Some(w) => w(msg),
            None => {
                use std::io::Write;
                let _ = writeln!(std::io::stderr(), "warning: {msg}");
            }
        }
    }

    /// Parse and run a whole source; top-level expressions are printed through the sink.
    pub fn run_source(&mut self, name: &str, text: &str) -> Result<()> {
        let prog = self.parse(name, text)?;
        let env = self.globals.clone();
        self.exec_block(&prog, &env)
    }

    pub fn line_of(&self, span: Span) -> usize {
        let starts = &self.sources[span.src as usize].line_starts;
        starts.partition_point(|&s| s <= span.start) + 1
    }

    fn load_library(&mut self, name: &str, span: Span) -> Result<()> {
        if name.ends_with(".game") || name.contains('/') {
            return self.load_file(name, span);
        }
        if !self.loaded.insert(name.to_string()) {
            return Ok(());
        }
        let Some((_, text)) = STDLIB.iter().find(|(n, _)| *n == name) else {
            let names: Vec<&str> = STDLIB.iter().map(|(n, _)| *n).collect();
            return Err(
                Error::runtime(format!("no library named \"{name}\""), span).hint(format!(
                    "libraries: {} (a path such as \"./mine.game\" loads your own file)",
                    names.join(", ")
                )),
            );
        };
        let was = std::mem::replace(&mut self.printing, false);
        let r = self.run_source(&format!("stdlib/{name}.game"), text);
        self.printing = was;
        r
    }

    /// `use "./mylib.game"`: a file of the user's, relative to the script's folder (or the
    /// working folder in the REPL and for -e). Its definitions join the global scope.
    fn load_file(&mut self, name: &str, span: Span) -> Result<()> {
        let path = std::path::Path::new(name);
        let full = match &self.base_dir {
            Some(d) if path.is_relative() => d.join(path),
            _ => path.to_path_buf(),
        };
        let key = std::fs::canonicalize(&full)
            .unwrap_or_else(|_| full.clone())
            .display()
            .to_string();
        if !self.loaded.insert(key.clone()) {
            return Ok(());
        }
        let text = crate::engine::control::read_text_file(&full).map_err(|e| {
            self.loaded.remove(&key);
            Error::runtime(format!("cannot read {}: {e}", full.display()), span).hint(
                "a path in `use` is relative to the script's folder (the working folder in the REPL)",
            )
        })?;
        let was_base = self.base_dir.clone();
        self.base_dir = full.parent().map(|p| p.to_path_buf());
        let was = std::mem::replace(&mut self.printing, false);
        let r = self.run_source(&full.display().to_string(), &text);
        self.printing = was;
        self.base_dir = was_base;
        r
    }

    pub fn exec_block(&mut self, stmts: &[Stmt], env: &Env) -> Result<()> {
        for s in stmts {
            self.ctl.check()?;
            self.exec(s, env)?;
        }
        Ok(())
    }

    fn exec(&mut self, s: &Stmt, env: &Env) -> Result<()> {
        match s {
            Stmt::Let(name, e) | Stmt::Board(name, e) => {
                let v = self.eval(e, env)?;
                if matches!(s, Stmt::Board(..)) && !matches!(v, Value::Board(_) | Value::Graph(_)) {
                    return Err(Error::runtime(
                        format!("`board` needs a board, not {}", v.a_type()),
                        e.span,
                    )
                    .hint(
                        "a board is grid(m, n) or a graph { ... }; `let` binds any other value",
                    ));
                }
                if let Value::Group(g) = &v {
                    let _ = g.name.set(name.name.clone());
                }
                env.define(name.name.clone(), v);
            }
            Stmt::Gen(name, e) => {
                let v = self.eval(e, env)?;
                if !matches!(v, Value::Perm(_)) {
                    return Err(Error::runtime(
                        format!("`gen` needs a permutation, not {}", v.a_type()),
                        e.span,
                    )
                    .hint("write cycles like (1,2,3)(4,5) or use shift/rotate on a board"));
                }
                env.define(name.name.clone(), v);
            }
            Stmt::Fn(name, lam) => {
                let c = Closure {
                    name: Some(name.name.clone()),
                    lambda: lam.clone(),
                    env: env.clone(),
                };
                env.define(name.name.clone(), Value::Func(Rc::new(c)));
            }
            Stmt::Group(name, gens) => {
                let mut named: Vec<(Rc<str>, crate::engine::group::perm::Perm)> = vec![];
                for (i, g) in gens.iter().enumerate() {
                    let v = self.eval(g, env).map_err(|e| match &g.kind {
                        ExprKind::Ident(n) if e.message.starts_with("unknown name") => e.hint(
                            format!("define the generator first, e.g. `gen {n} = (1,2,3)`"),
                        ),
                        _ => e,
                    })?;
                    let Value::Perm(p) = v else {
                        return Err(Error::runtime(
                            format!(
                                "a group is generated by permutations, this is {}",
                                v.a_type()
                            ),
                            g.span,
                        ));
                    };
                    // unnamed generators are g1, g2, ... by position, skipping names in use
                    let label: Rc<str> = match &g.kind {
                        ExprKind::Ident(n) => n.clone(),
                        _ => (i + 1..)
                            .map(|k| format!("g{k}"))
                            .find(|l| {
                                let used = |n: &str| n == l.as_str();
                                !named.iter().any(|(n, _)| used(n.as_ref()))
                                    && !gens
                                        .iter()
                                        .any(|x| matches!(&x.kind, ExprKind::Ident(n) if used(n)))
                            })
                            .expect("an unused name")
                            .into(),
                    };
                    if named.iter().any(|(n, _)| *n == label) {
                        return Err(Error::runtime(
                            format!("the generator `{label}` is named twice"),
                            g.span,
                        )
                        .hint("give each generator its own name"));
                    }
                    named.push((label, (*p).clone()));
                }
                let grp = crate::engine::group::GroupVal::new(named)
                    .map_err(|m| Error::runtime(m, name.span))?;
                let _ = grp.name.set(name.name.clone());
                env.define(name.name.clone(), Value::Group(Rc::new(grp)));
            }
            Stmt::Game(def) => {
                if def.loopy && def.rules.iter().any(|r| r.side.is_some()) {
                    return Err(Error::runtime(
                        "loopy partizan rulesets are not valued yet: `loopy game` takes `move` lines for both players",
                        def.name.span,
                    ));
                }
                let define = self
                    .define_game
                    .ok_or_else(|| no_family("game blocks", def.name.span))?;
                let rs = define(def.clone(), env.clone());
                env.define(def.name.name.clone(), Value::Ruleset(Rc::new(rs)));
            }
            Stmt::BoardGame(def) => {
                let define = self
                    .define_board
                    .ok_or_else(|| no_family("board games by rules", def.name.span))?;
                let rs = define(self, def, env)?;
                env.define(def.name.name.clone(), Value::Ruleset(Rc::new(rs)));
            }
            Stmt::Use(name, span) => self.load_library(name, *span)?,
            Stmt::For(var, iter, body) => {
                let items = self.iterate(iter, env)?;
                for item in items {
                    self.ctl.check()?;
                    let scope = Scope::child(env);
                    scope.define(var.name.clone(), item);
                    self.exec_block(body, &scope)?;
                }
            }
            Stmt::If(cond, then, els) => {
                let c = self.eval(cond, env)?;
                let b = self.truth(&c, cond.span)?;
                let scope = Scope::child(env);
                self.exec_block(if b { then } else { els }, &scope)?;
            }
            Stmt::Expr(e) => {
                let v = self.eval(e, env)?;
                if self.printing && !matches!(v, Value::Unit) {
                    let line = self.line_of(e.span);
                    (self.sink)(line, &v);
                    self.last = Some(v);
                }
            }
        }
        Ok(())
    }

    /// What `print` prints: to `print_sink` when there is one.
    pub fn emit(&mut self, span: Span, v: &Value) {
        if self.printing {
            let line = self.line_of(span);
            match &mut self.print_sink {
                Some(sink) => sink(line, v),
                None => (self.sink)(line, v),
            }
        }
    }

    pub fn truth(&self, v: &Value, span: Span) -> Result<bool> {
        match v {
            Value::Bool(b) => Ok(*b),
            _ => Err(
                Error::runtime(format!("expected true or false, got {}", v.a_type()), span)
                    .hint("conditions must be booleans: compare with == or use `in`"),
            ),
        }
    }

    fn iterate(&mut self, e: &Expr, env: &Env) -> Result<Vec<Value>> {
        let v = self.eval(e, env)?;
        self.items(&v, e.span)
    }

    /// The elements of an iterable value.
    pub fn items(&self, v: &Value, span: Span) -> Result<Vec<Value>> {
        Ok(match v {
            Value::List(xs) => xs.to_vec(),
            Value::Set(xs) => xs.iter().cloned().collect(),
            Value::Range(a, b) => {
                let n = (*b as i128 - *a as i128 + 1).max(0);
                if n > MAX_ELEMENTS as i128 {
                    return Err(Error::runtime(
                        format!(
                            "this range has {} elements, too many to list (at most {})",
                            crate::engine::control::num(n),
                            crate::engine::control::num(MAX_ELEMENTS)
                        ),
                        span,
                    )
                    .hint(
                        "use a smaller range, or len(r), x in r, min and max, which do not list it",
                    ));
                }
                self.ctl
                    .reserve(n as u64 * 32, "listing this range")
                    .map_err(|e| Error::from(e).at(span))?;
                (*a..=*b).map(Value::Int).collect()
            }
            Value::Str(s) => s.chars().map(|c| Value::str(&c.to_string())).collect(),
            _ => {
                return Err(
                    Error::runtime(format!("cannot iterate over {}", v.a_type()), span)
                        .hint("iterate over a list, a set or a range a..b"),
                );
            }
        })
    }

    /// An error, at `span`, when little native stack is left.
    pub(crate) fn check_stack(&self, span: Span) -> Result<()> {
        if stack_pointer() < self.stack_floor {
            return Err(Error::runtime(
                "this computation nests too deeply (the evaluator's stack is nearly used up)",
                span,
            )
            .hint("recursion is limited: does a function or a move rule recurse without end? Iterate with `for` instead"));
        }
        Ok(())
    }

    pub fn eval(&mut self, e: &Expr, env: &Env) -> Result<Value> {
        // every way of recursing (nested calls, long chains of operators) passes through here or
        // through a compiled rule's call (a move rule that asks an engine that calls the rule
        // again): stop well before the native stack runs out
        self.check_stack(e.span)?;
        Ok(match &e.kind {
            ExprKind::Int(b) => match b.to_i64() {
                Some(i) => Value::Int(i),
                None => Value::Big(b.clone()),
            },
            ExprKind::Str(s) => Value::Str(s.clone()),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::Ident(name) => self.lookup(name, e.span, env)?,
            ExprKind::List(xs) => Value::list(
                xs.iter()
                    .map(|x| self.eval(x, env))
                    .collect::<Result<_>>()?,
            ),
            ExprKind::Set(xs) => Value::Set(Rc::new(
                xs.iter()
                    .map(|x| self.eval(x, env))
                    .collect::<Result<_>>()?,
            )),
            ExprKind::Comprehension {
                elem,
                clauses,
                cond,
            } => {
                let mut out = vec![];
                let r = self.comprehend(elem, clauses, cond.as_deref(), env, &mut out);
                self.building -= out.len() as u64;
                r?;
                Value::list(out)
            }
            ExprKind::None => Value::None,
            ExprKind::Block(stmts) => {
                let scope = Scope::child(env);
                let Some((last, init)) = stmts.split_last() else {
                    return Ok(Value::None);
                };
                for st in init {
                    self.ctl.check()?;
                    match st {
                        Stmt::Expr(x) => {
                            self.eval(x, &scope)?;
                        }
                        _ => self.exec(st, &scope)?,
                    }
                }
                match last {
                    Stmt::Expr(x) => return self.eval(x, &scope),
                    _ => {
                        self.exec(last, &scope)?;
                        Value::None
                    }
                }
            }
            ExprKind::Cycles(cycles) => self.eval_cycles(cycles, env)?,
            ExprKind::Graph { chains, cells } => {
                Value::Graph(Rc::new(graph_literal(chains, cells)?))
            }
            ExprKind::If(c, a, b) => {
                let cv = self.eval(c, env)?;
                let branch = if self.truth(&cv, c.span)? { a } else { b };
                return self.eval(branch, env);
            }
            ExprKind::Lambda(lam) => Value::Func(Rc::new(Closure {
                name: None,
                lambda: lam.clone(),
                env: env.clone(),
            })),
            ExprKind::GameLit { .. } => crate::lang::run::cgt::literal(self, e, env)?,
            ExprKind::CgAtom(text) => {
                // `v*3` where v is bound was, and stays, a product
                if let Some((name, n)) = text.split_once('*')
                    && down_name(name)
                    && let Some(v) = env.lookup(name)
                    && let Ok(n) = n.parse::<i64>()
                {
                    return self.binary(BinOp::Mul, v, Value::Int(n), e.span, e.span, e.span);
                }
                crate::lang::run::cgt::atom(self, text).map_err(|er| er.at(e.span))?
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x, env)?;
                self.unary(*op, v, e.span)?
            }
            ExprKind::Binary(BinOp::And, a, b) => {
                let av = self.eval(a, env)?;
                if !self.truth(&av, a.span)? {
                    return Ok(Value::Bool(false));
                }
                let bv = self.eval(b, env)?;
                Value::Bool(self.truth(&bv, b.span)?)
            }
            ExprKind::Binary(BinOp::Or, a, b) => {
                let av = self.eval(a, env)?;
                if self.truth(&av, a.span)? {
                    return Ok(Value::Bool(true));
                }
                let bv = self.eval(b, env)?;
                Value::Bool(self.truth(&bv, b.span)?)
            }
            ExprKind::Binary(op, a, b) => {
                let av = self.eval(a, env)?;
                let bv = self.eval(b, env)?;
                self.binary(*op, av, bv, e.span, a.span, b.span)?
            }
            ExprKind::Call {
                callee,
                args,
                kwargs,
            } => {
                let mut f = self.eval(callee, env)?;
                if let ExprKind::Ident(name) = &callee.kind {
                    f = self.builtin_over_graph(name, f);
                }
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push((self.eval(a, env)?, a.span));
                }
                let mut kw = vec![];
                for (k, a) in kwargs {
                    if kw.iter().any(|(n, _, _)| *n == k.name) {
                        return Err(Error::runtime(
                            format!("the keyword `{}` is given twice", k.name),
                            k.span,
                        )
                        .hint("each keyword argument names a different thing"));
                    }
                    kw.push((k.name.clone(), self.eval(a, env)?, k.span.to(a.span)));
                }
                self.call(&f, vals, kw, e.span, callee.span)?
            }
            ExprKind::Index(base, idx) => {
                let b = self.eval(base, env)?;
                let mut is = vec![];
                for i in idx {
                    is.push((self.eval(i, env)?, i.span));
                }
                self.index(b, is, e.span)?
            }
            ExprKind::Slice(base, from, to) => {
                let b = self.eval(base, env)?;
                let mut ends = [None, None];
                for (end, x) in ends.iter_mut().zip([from, to]) {
                    if let Some(x) = x {
                        *end = Some((self.eval(x, env)?, x.span));
                    }
                }
                let [from, to] = ends;
                slice(&b, from, to, e.span)?
            }
            ExprKind::Field(base, field) => {
                let b = self.eval(base, env)?;
                match &b {
                    Value::Record(r) => match r.fields.get(&*field.name) {
                        Some(v) => v.clone(),
                        None => {
                            let names: Vec<String> =
                                r.fields.keys().map(|k| k.to_string()).collect();
                            let hint = match closest(&field.name, &names) {
                                Some(c) => {
                                    format!("did you mean `{c}`? fields: {}", names.join(", "))
                                }
                                None => format!("fields: {}", names.join(", ")),
                            };
                            return Err(Error::runtime(
                                format!("this record has no field `{}`", field.name),
                                field.span,
                            )
                            .hint(hint));
                        }
                    },
                    _ => {
                        return Err(Error::runtime(format!("{} has no fields", b.a_type()), field.span)
                            .hint("fields are read from records returned by queries, e.g. diameter(G).size"));
                    }
                }
            }
        })
    }

    /// The elements of a comprehension, clause by clause. Elements of every comprehension
    /// still being built count together against the element limit and the memory budget, so
    /// nested comprehensions cannot multiply past them.
    fn comprehend(
        &mut self,
        elem: &Expr,
        clauses: &[(Ident, Expr)],
        cond: Option<&Expr>,
        env: &Env,
        out: &mut Vec<Value>,
    ) -> Result<()> {
        let Some(((var, iter), rest)) = clauses.split_first() else {
            if let Some(c) = cond {
                let cv = self.eval(c, env)?;
                if !self.truth(&cv, c.span)? {
                    return Ok(());
                }
            }
            let v = self.eval(elem, env)?;
            let before = self.building;
            self.building += 1 + v.weight();
            // the memory check before the count's: an element that is a long list or string
            // counts by its size
            if before >> 16 != self.building >> 16 {
                self.ctl
                    .reserve(self.building * 48, "building these lists")
                    .map_err(|e| Error::from(e).at(elem.span))?;
            }
            if self.building > MAX_ELEMENTS {
                return Err(Error::runtime(
                    format!(
                        "these lists would hold more than {} elements together (a list in a list counts by its length, a string by 16 bytes)",
                        crate::engine::control::num(MAX_ELEMENTS)
                    ),
                    elem.span,
                )
                .hint(
                    "nested comprehensions multiply: compute a count or a sum instead of listing",
                ));
            }
            out.push(v);
            return Ok(());
        };
        for item in self.iterate(iter, env)? {
            self.ctl.check()?;
            let scope = Scope::child(env);
            scope.define(var.name.clone(), item);
            self.comprehend(elem, rest, cond, &scope, out)?;
        }
        Ok(())
    }

    /// The value of a name in `env` or the builtins; `None` for a name that is neither (or a
    /// down, `v3`, which `lookup` makes).
    pub(crate) fn resolve(&self, name: &str, env: &Env) -> Option<Value> {
        env.lookup(name)
            .or_else(|| self.builtins.get(name).map(|b| Value::Builtin(b.name)))
    }

    /// A stdlib value named like a builtin (`double_diamond`) still calls the builtin.
    pub(crate) fn builtin_over_graph(&self, name: &str, f: Value) -> Value {
        match self.builtins.get(name) {
            Some(b) if matches!(f, Value::Graph(_)) => Value::Builtin(b.name),
            _ => f,
        }
    }

    pub(crate) fn lookup(&mut self, name: &Rc<str>, span: Span, env: &Env) -> Result<Value> {
        if let Some(v) = self.resolve(name, env) {
            return Ok(v);
        }
        // `v`, `vv`, `v3`: CGSuite's downs, where no binding takes the name
        if down_name(name) {
            return crate::lang::run::cgt::atom(self, name).map_err(|e| e.at(span));
        }
        let mut cands: Vec<String> = env.names().iter().map(|s| s.to_string()).collect();
        cands.extend(self.builtins.keys().map(|s| s.to_string()));
        let hint = match closest(name, &cands) {
            Some(c) => format!("did you mean `{c}`?"),
            None => {
                "define it with `let` or check the spelling; `:help` lists the builtins".to_string()
            }
        };
        Err(Error::runtime(format!("unknown name `{name}`"), span).hint(hint))
    }

    fn eval_cycles(&mut self, cycles: &[Vec<Expr>], env: &Env) -> Result<Value> {
        let mut cs: Vec<Vec<usize>> = vec![];
        let mut spans = vec![];
        let mut degree = 0;
        for c in cycles {
            let mut pts = vec![];
            let mut sp = vec![];
            for x in c {
                let v = self.eval(x, env)?;
                let p = match v {
                    Value::Int(p)
                        if p >= 1 && p <= crate::engine::group::perm::MAX_DEGREE as i64 =>
                    {
                        p as usize
                    }
                    Value::Int(p) if p < 1 => {
                        return Err(Error::runtime(
                            format!("point {} is not a cell: points are numbered from 1", num(p)),
                            x.span,
                        )
                        .hint("cells of a board are 1, 2, ... row by row; b[r, c] gives a cell's number"));
                    }
                    Value::Int(_) | Value::Big(_) => {
                        let max = crate::engine::group::perm::MAX_DEGREE;
                        return Err(Error::runtime(
                            format!("points must be at most {max}"),
                            x.span,
                        )
                        .hint(format!("permutations act on at most {max} points")));
                    }
                    _ => {
                        return Err(Error::runtime(
                            format!("a cycle holds points (integers), not {}", v.a_type()),
                            x.span,
                        ));
                    }
                };
                degree = degree.max(p);
                pts.push(p - 1);
                sp.push(x.span);
            }
            cs.push(pts);
            spans.push(sp);
        }
        crate::engine::group::perm::Perm::from_cycles(degree, &cs)
            .map(|p| Value::Perm(Rc::new(p)))
            .map_err(|(ci, k, msg)| {
                Error::runtime(msg, spans[ci][k])
                    .hint("each point may appear once in a product of disjoint cycles")
            })
    }

    pub fn call(
        &mut self,
        f: &Value,
        args: Vec<(Value, Span)>,
        kw: Vec<(Rc<str>, Value, Span)>,
        span: Span,
        fspan: Span,
    ) -> Result<Value> {
        self.ctl.check()?;
        match f {
            Value::Builtin(name) => {
                // a group's stabilizer chain is built here, where it can be cancelled
                for (v, s) in &args {
                    if let Value::Group(g) = v {
                        g.prepare(&self.ctl).map_err(|e| Error::from(e).at(*s))?;
                    }
                }
                for (v, _) in &args {
                    self.touch(v);
                }
                let b = &self.builtins[*name];
                let func = b.f;
                let b_name = b.name;
                let mut a = Args {
                    name: b.name,
                    vals: args,
                    kw,
                    span,
                };
                let again = a.clone();
                let mut r = func(self, &mut a);
                if matches!(&r, Err(e) if e.kind == Kind::Memory)
                    && self.games.forget_all(&self.ctl)
                {
                    // what earlier queries kept was in the way: try once more without it
                    a = again;
                    r = func(self, &mut a);
                }
                self.games.settle(&self.ctl);
                let r = r.map_err(|e| {
                    let e = e.at(span);
                    if e.hint.is_none() && e.kind == Kind::Runtime {
                        let h = format!("see `:help {}`", b_name);
                        e.hint(h)
                    } else {
                        e
                    }
                })?;
                a.no_more_kw()?;
                Ok(r)
            }
            Value::Func(c) => {
                if let Some((_, _, s)) = kw.first() {
                    return Err(Error::runtime(
                        "functions defined with `fn` take no keyword arguments",
                        *s,
                    ));
                }
                self.apply(c, args.into_iter().map(|a| a.0).collect(), span)
            }
            Value::Ruleset(rs) => {
                if let Some((_, _, s)) = kw.first() {
                    return Err(Error::runtime("a ruleset takes no keyword arguments", *s));
                }
                self.games.touch(rs);
                crate::lang::run::positions::position_of(rs, &args, span, &self.ctl)
            }
            _ => Err(Error::runtime(
                format!("{} cannot be called", f.a_type()),
                fspan,
            )),
        }
    }

    /// A query uses what a position's rulesets keep between queries.
    fn touch(&mut self, v: &Value) {
        match v {
            Value::Position(p) => {
                for c in &p.comps {
                    self.games.touch(&c.rs);
                }
            }
            Value::Ruleset(rs) => self.games.touch(rs),
            _ => {}
        }
    }

    pub fn apply(&mut self, c: &Closure, args: Vec<Value>, span: Span) -> Result<Value> {
        let lam = &c.lambda;
        if args.len() != lam.params.len() {
            let name = match c.name.as_deref() {
                Some(n) => format!("`{n}`"),
                None => "this function".to_string(),
            };
            let n = lam.params.len();
            return Err(Error::runtime(
                format!(
                    "{name} takes {n} argument{}, got {}",
                    if n == 1 { "" } else { "s" },
                    args.len()
                ),
                span,
            )
            .hint(format!(
                "it was defined with {n} parameter{}",
                if n == 1 { "" } else { "s" }
            )));
        }
        if self.depth >= MAX_DEPTH {
            return Err(
                Error::runtime(format!("recursion deeper than {MAX_DEPTH} calls"), span)
                    .hint("does the function have a base case?"),
            );
        }
        let scope = Scope::child(&c.env);
        for (p, v) in lam.params.iter().zip(args) {
            scope.define(p.name.clone(), v);
        }
        self.depth += 1;
        let r = self.eval(&lam.body, &scope);
        self.depth -= 1;
        r
    }

    /// Call any callable with plain values (used by builtins such as `table`).
    pub fn call_values(&mut self, f: &Value, args: Vec<Value>, span: Span) -> Result<Value> {
        self.call(
            f,
            args.into_iter().map(|v| (v, span)).collect(),
            vec![],
            span,
            span,
        )
    }

    pub(crate) fn index(&mut self, b: Value, idx: Vec<(Value, Span)>, span: Span) -> Result<Value> {
        /// The place of index `i` in a list or string of `n` elements.
        fn position(i: &Value, n: usize, what: &str, span: Span) -> Result<usize> {
            let i = i.bigint().ok_or_else(|| {
                Error::runtime(
                    format!("an index must be an integer, not {}", i.a_type()),
                    span,
                )
                .hint("lists and strings are indexed by integers from 0, maps by their keys")
            })?;
            let k = if i < BigInt::ZERO { &i + n } else { i.clone() };
            usize::try_from(&k).ok().filter(|&k| k < n).ok_or_else(|| {
                Error::runtime(
                    format!(
                        "index {} is out of range for a {what} of length {}",
                        Value::int(i).to_text(),
                        num(n)
                    ),
                    span,
                )
                .hint("indices start at 0; negative ones count from the end")
            })
        }
        match (&b, idx.as_slice()) {
            (Value::List(xs), [(i, is)]) => Ok(xs[position(i, xs.len(), "list", *is)?].clone()),
            (Value::Str(s), [(i, is)]) if s.is_ascii() => {
                let k = position(i, s.len(), "string", *is)?;
                Ok(Value::str(&s[k..k + 1]))
            }
            (Value::Str(s), [(i, is)]) => {
                let chars: Vec<char> = s.chars().collect();
                let k = position(i, chars.len(), "string", *is)?;
                Ok(Value::str(&chars[k].to_string()))
            }
            (Value::Board(board), [(r, rs), (c, cs)]) => {
                let r = as_i64(r).ok_or_else(|| Error::runtime("a row must be an integer", *rs))?;
                let c =
                    as_i64(c).ok_or_else(|| Error::runtime("a column must be an integer", *cs))?;
                board
                    .cell(r, c)
                    .map(Value::Int)
                    .map_err(|m| Error::runtime(m, rs.to(*cs)))
            }
            (Value::Map(kv), [(k, ks)]) => kv
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| {
                    Error::runtime(format!("no entry {} here", k.to_text()), *ks).hint(format!(
                        "keys: {}",
                        kv.iter()
                            .map(|(k, _)| k.to_text())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                }),
            (Value::Board(_), _) => Err(Error::runtime(
                "a board is indexed by row and column: b[r, c]",
                span,
            )),
            (Value::List(_), _) => Err(Error::runtime("a list takes one index", span)),
            _ => Err(Error::runtime(
                format!("{} cannot be indexed", b.a_type()),
                span,
            )),
        }
    }

    /// `op v`: `not`, `-` and `±` (the switch of a game).
    pub(crate) fn unary(&mut self, op: UnOp, v: Value, span: Span) -> Result<Value> {
        if op != UnOp::Not
            && let Some(g) = crate::lang::run::cgt::unary(self, op == UnOp::PlusMinus, &v)
                .map_err(|er| er.at(span))?
        {
            return Ok(g);
        }
        Ok(match (op, &v) {
            (UnOp::Not, Value::Bool(b)) => Value::Bool(!b),
            (UnOp::Neg, Value::Int(i)) => match i.checked_neg() {
                Some(n) => Value::Int(n),
                None => Value::int(-BigInt::from(*i)),
            },
            (UnOp::Neg, Value::Big(b)) => Value::int(-(**b).clone()),
            (UnOp::Neg, Value::Rat(r)) => Value::Rat(Rc::new(-(**r).clone())),
            _ => {
                let o = match op {
                    UnOp::Not => "not",
                    UnOp::Neg => "-",
                    UnOp::PlusMinus => "±",
                };
                return Err(Error::runtime(
                    format!("`{o}` does not apply to {}", v.a_type()),
                    span,
                ));
            }
        })
    }

    pub(crate) fn binary(
        &mut self,
        op: BinOp,
        a: Value,
        b: Value,
        span: Span,
        aspan: Span,
        bspan: Span,
    ) -> Result<Value> {
        use Value::*;
        let bad = |a: &Value, b: &Value| {
            Error::runtime(
                format!(
                    "`{}` is not defined for {} and {}",
                    op_text(op),
                    a.a_type(),
                    b.a_type()
                ),
                span,
            )
            .hint(match op {
                BinOp::Add => "+ adds integers, joins strings or lists, and sums positions",
                BinOp::Mul => "* multiplies integers, composes permutations, and repeats a string",
                BinOp::Sub => "- subtracts integers, or takes the difference of sets",
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge if matches!(a, Bool(_)) => {
                    "comparisons do not chain: write `a < b and b < c`"
                }
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    "only numbers and strings are ordered"
                }
                BinOp::In => "`in` looks in a list, set, range, string, or group",
                _ => "see docs/language.md for what each operator takes",
            })
        };
        if (op == BinOp::Amp || !matches!((&a, &b), (Int(_), Int(_))))
            && let Some(v) = crate::lang::run::cgt::binary(self, op, &a, &b, span)?
        {
            return Ok(v);
        }
        // groups are equal when they have the same elements, whatever their names and generators
        if let (BinOp::Eq | BinOp::Ne, Group(g), Group(h)) = (op, &a, &b) {
            for x in [g, h] {
                x.prepare(&self.ctl).map_err(|e| Error::from(e).at(span))?;
            }
            let same = g.degree == h.degree
                && g.order() == h.order()
                && h.perms().iter().all(|p| g.contains(p));
            return Ok(Bool(same == (op == BinOp::Eq)));
        }
        Ok(match op {
            BinOp::Eq => Bool(a == b),
            BinOp::Ne => Bool(a != b),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let ok = matches!(
                    (&a, &b),
                    (Int(_) | Big(_) | Rat(_), Int(_) | Big(_) | Rat(_)) | (Str(_), Str(_))
                );
                if !ok {
                    return Err(bad(&a, &b));
                }
                let o = a.cmp(&b);
                Bool(match op {
                    BinOp::Lt => o.is_lt(),
                    BinOp::Le => o.is_le(),
                    BinOp::Gt => o.is_gt(),
                    _ => o.is_ge(),
                })
            }
            BinOp::In => Bool(match &b {
                List(xs) => xs.contains(&a),
                Set(xs) => xs.contains(&a),
                Range(lo, hi) => as_i64(&a).is_some_and(|x| *lo <= x && x <= *hi),
                Str(s) => matches!(&a, Str(t) if s.contains(&**t)),
                Group(g) => match &a {
                    Perm(p) => {
                        g.prepare(&self.ctl).map_err(|e| Error::from(e).at(span))?;
                        g.contains(p)
                    }
                    _ => return Err(bad(&a, &b)),
                },
                _ => return Err(bad(&a, &b)),
            }),
            BinOp::Range => {
                let (Some(lo), Some(hi)) = (as_i64(&a), as_i64(&b)) else {
                    let msg = match (&a, &b) {
                        (Int(_) | Big(_), Int(_) | Big(_)) => {
                            "a range's ends must lie between -2^63 and 2^63 - 1".to_string()
                        }
                        (Int(_) | Big(_), x) | (x, _) => {
                            format!("a range needs integer ends, not {}", x.a_type())
                        }
                    };
                    return Err(Error::runtime(msg, span)
                        .hint("ranges are of 64-bit integers; len(a..b), x in a..b, min and max do not list them"));
                };
                Range(lo, hi)
            }
            BinOp::Add => match (&a, &b) {
                (Int(x), Int(y)) => x
                    .checked_add(*y)
                    .map(Int)
                    .unwrap_or_else(|| Value::int(BigInt::from(*x) + y)),
                (Int(_) | Big(_), Int(_) | Big(_)) => {
                    Value::int(a.bigint().unwrap() + b.bigint().unwrap())
                }
                (Int(_) | Big(_) | Rat(_), Int(_) | Big(_) | Rat(_)) => {
                    fraction(&a, &b, span, |x, y| x + y)?
                }
                (Str(x), Str(y)) => {
                    check_string((x.len() + y.len()) as u64, span)?;
                    Value::str(&format!("{x}{y}"))
                }
                (List(x), List(y)) => {
                    check_elements((x.len() + y.len()) as u64, span)?;
                    Value::list(x.iter().chain(y.iter()).cloned().collect())
                }
                (Position(_), Position(_)) => {
                    crate::lang::run::positions::sum_positions(&a, &b, span)?
                        .ok_or_else(|| bad(&a, &b))?
                }
                _ => return Err(bad(&a, &b)),
            },
            BinOp::Sub => match (&a, &b) {
                (Int(x), Int(y)) => x
                    .checked_sub(*y)
                    .map(Int)
                    .unwrap_or_else(|| Value::int(BigInt::from(*x) - y)),
                (Int(_) | Big(_), Int(_) | Big(_)) => {
                    Value::int(a.bigint().unwrap() - b.bigint().unwrap())
                }
                (Int(_) | Big(_) | Rat(_), Int(_) | Big(_) | Rat(_)) => {
                    fraction(&a, &b, span, |x, y| x - y)?
                }
                (Set(x), Set(y)) => Set(Rc::new(x.difference(y).cloned().collect())),
                _ => return Err(bad(&a, &b)),
            },
            BinOp::Mul => match (&a, &b) {
                (Int(x), Int(y)) => x
                    .checked_mul(*y)
                    .map(Int)
                    .unwrap_or_else(|| Value::int(BigInt::from(*x) * y)),
                (Int(_) | Big(_), Int(_) | Big(_)) => {
                    let (x, y) = (a.bigint().unwrap(), b.bigint().unwrap());
                    check_bits(x.bits() + y.bits(), span)?;
                    Value::int(x * y)
                }
                (Int(_) | Big(_) | Rat(_), Int(_) | Big(_) | Rat(_)) => {
                    fraction(&a, &b, span, |x, y| x * y)?
                }
                (Perm(p), Perm(q)) => Perm(Rc::new(p.then(q))),
                (Str(s), Int(n)) | (Int(n), Str(s)) => {
                    if *n < 0 {
                        return Err(Error::runtime(
                            format!("a string cannot be repeated {} times", num(n)),
                            span,
                        )
                        .hint("repeat a string 0 or more times"));
                    }
                    check_string((s.len() as u64).saturating_mul(*n as u64), span)?;
                    Value::str(&s.repeat(*n as usize))
                }
                _ => return Err(bad(&a, &b)),
            },
            BinOp::Div | BinOp::FloorDiv | BinOp::Rem => {
                let zero = || {
                    Error::runtime("division by zero", bspan).hint("the right-hand side is 0 here")
                };
                if let (Some(x), Some(y)) = (a.bigint(), b.bigint()) {
                    if y.is_zero() {
                        return Err(zero());
                    }
                    let (q, r) = x.div_mod_floor(&y);
                    return Ok(match op {
                        BinOp::Div if !r.is_zero() => Value::Rat(Rc::new(BigRational::new(x, y))),
                        BinOp::Div | BinOp::FloorDiv => Value::int(q),
                        _ => Value::int(r),
                    });
                }
                let (Some(x), Some(y)) = (a.rational(), b.rational()) else {
                    return Err(bad(&a, &b));
                };
                if y.is_zero() {
                    return Err(zero());
                }
                let q = fraction(&a, &b, span, |x, y| x / y)?;
                match op {
                    BinOp::Div => q,
                    // the floor of the quotient, and what is left: x = y * (x // y) + x % y
                    _ => {
                        let f = q.rational().unwrap().floor();
                        if op == BinOp::FloorDiv {
                            Value::int(f.to_integer())
                        } else {
                            Value::ratio(x - y * f)
                        }
                    }
                }
            }
            BinOp::Pow => match (&a, &b) {
                (Perm(p), Int(e)) => Perm(Rc::new(p.pow(*e))),
                // a power past 64 bits is the power of its remainder by the order
                (Perm(p), Big(e)) => {
                    let r = (**e).mod_floor(&BigInt::from(p.order()));
                    Perm(Rc::new(p.pow_u128(
                        u128::try_from(r).expect("a remainder by a u128 fits"),
                    )))
                }
                // GAP's notation: the image of a point, and conjugation q^-1 p q
                (Int(x), Perm(p)) => {
                    if *x < 1 {
                        return Err(Error::runtime(
                            format!("point {} is not a cell: points are numbered from 1", num(x)),
                            aspan,
                        )
                        .hint("x ^ p is the image of point x under p"));
                    }
                    let x = *x as usize;
                    Int(if x <= p.degree() {
                        p.apply(x - 1) as i64 + 1
                    } else {
                        x as i64
                    })
                }
                (Perm(p), Perm(q)) => {
                    let n = p.degree().max(q.degree());
                    let (p, q) = (p.extended(n), q.extended(n));
                    Perm(Rc::new(q.inverse().then(&p).then(&q)))
                }
                (Int(_) | Big(_) | Rat(_), Int(e)) if *e < 0 || matches!(a, Rat(_)) => {
                    let base = a.rational().unwrap();
                    if base.is_zero() && *e < 0 {
                        return Err(Error::runtime("division by zero", span)
                            .hint("a negative power of 0 is 1 / 0"));
                    }
                    let bits = (base.numer().bits().max(base.denom().bits()) - 1) as u128
                        * e.unsigned_abs() as u128
                        + 1;
                    check_bits(bits.min(u64::MAX as u128) as u64, span)?;
                    Value::ratio(num_traits::pow::Pow::pow(base, *e))
                }
                (Int(_) | Big(_), Int(e)) => {
                    let base = a.bigint().unwrap();
                    let bits = (base.abs().bits().max(1) - 1) as u128 * *e as u128 + 1;
                    if base.abs() > BigInt::from(1) {
                        check_bits(bits.min(u64::MAX as u128) as u64, span)?;
                    }
                    Value::int(num_traits::pow(base, *e as usize))
                }
                _ => return Err(bad(&a, &b)),
            },
            BinOp::Bar => match (&a, &b) {
                (Piece(p), Piece(q)) => Piece(Rc::new(p.union(q))),
                _ => return Err(bad(&a, &b)),
            },
            BinOp::And | BinOp::Or | BinOp::Amp => return Err(bad(&a, &b)),
        })
        .map_err(|e: Error| e.at(aspan))
    }
}

/// Integers may have at most this many bits (about five million decimal digits).
pub const MAX_BITS: u64 = 1 << 24;
/// Strings may have at most this many bytes.
pub const MAX_STRING: u64 = 1 << 24;

/// Refuses a string of `bytes` bytes past [`MAX_STRING`].
pub fn check_string(bytes: u64, span: Span) -> Result<()> {
    check_limit(bytes, MAX_STRING, ("string", "bytes"), span)
        .map_err(|e| e.hint("build shorter strings; print long output piece by piece"))
}

/// Refuses a list of `n` elements past [`MAX_ELEMENTS`].
pub fn check_elements(n: u64, span: Span) -> Result<()> {
    check_limit(n, MAX_ELEMENTS, ("list", "elements"), span)
        .map_err(|e| e.hint("count with len or sum over a range instead of listing"))
}

fn check_limit(n: u64, max: u64, (what, unit): (&str, &str), span: Span) -> Result<()> {
    if n > max {
        return Err(Error::runtime(
            format!(
                "this {what} would have {} {unit}, more than the {} a {what} may have",
                num(n),
                num(max)
            ),
            span,
        ));
    }
    Ok(())
}

/// Is `name` one of CGSuite's downs, `v`, `vv`, `v3`?
fn down_name(name: &str) -> bool {
    let digits = name.trim_start_matches('v');
    digits.len() < name.len()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !digits.starts_with('0')
}

/// `xs[from:to]` of a list or string, as Python slices: half-open, an end left out is the
/// start or the end, a negative one counts from the end, and ends past the sequence are cut
/// to it.
pub(crate) fn slice(
    b: &Value,
    from: Option<(Value, Span)>,
    to: Option<(Value, Span)>,
    span: Span,
) -> Result<Value> {
    let n = match b {
        Value::List(xs) => xs.len(),
        Value::Str(s) if s.is_ascii() => s.len(),
        Value::Str(s) => s.chars().count(),
        _ => {
            return Err(
                Error::runtime(format!("{} cannot be sliced", b.a_type()), span)
                    .hint("slices `xs[i:j]` take part of a list or a string"),
            );
        }
    };
    let end = |e: Option<(Value, Span)>, default: usize| -> Result<usize> {
        let Some((v, vspan)) = e else {
            return Ok(default);
        };
        let i = v.bigint().ok_or_else(|| {
            Error::runtime(
                format!(
                    "a slice's start and end must be integers, not {}",
                    v.a_type()
                ),
                vspan,
            )
        })?;
        let k = if i.is_negative() { i + n } else { i };
        Ok(k.to_usize()
            .unwrap_or(if k.is_negative() { 0 } else { n })
            .min(n))
    };
    let (i, j) = (end(from, 0)?, end(to, n)?);
    let j = j.max(i);
    Ok(match b {
        Value::List(xs) => Value::list(xs[i..j].to_vec()),
        Value::Str(s) if s.is_ascii() => Value::str(&s[i..j]),
        Value::Str(s) => Value::str(&s.chars().skip(i).take(j - i).collect::<String>()),
        _ => unreachable!("checked above"),
    })
}

/// `f` of two numbers (integers or fractions) as fractions, its size checked first: a sum,
/// product or quotient of fractions has at most as many bits as its operands together.
fn fraction(
    a: &Value,
    b: &Value,
    span: Span,
    f: impl Fn(BigRational, BigRational) -> BigRational,
) -> Result<Value> {
    let (x, y) = (a.rational().unwrap(), b.rational().unwrap());
    let bits = |r: &BigRational| r.numer().bits() + r.denom().bits();
    check_bits(bits(&x) + bits(&y), span)?;
    Ok(Value::ratio(f(x, y)))
}

pub fn check_bits(bits: u64, span: Span) -> Result<()> {
    if bits > MAX_BITS {
        return Err(Error::runtime(
            format!(
                "the result would have about {} bits, more than the {} an integer may have",
                crate::engine::control::num(bits),
                crate::engine::control::num(MAX_BITS)
            ),
            span,
        )
        .hint("integers are exact; keep them below 2^16777216"));
    }
    Ok(())
}

/// A graph board from its edge chains and cells; a cell step that is not an edge is underlined.
fn graph_literal(
    chains: &[Vec<Ident>],
    cells: &[Vec<Ident>],
) -> Result<crate::engine::graph::Graph> {
    use crate::engine::graph::Graph;
    let mut names: Vec<String> = vec![];
    let index = |v: &Ident, names: &mut Vec<String>| match names.iter().position(|n| **n == *v.name)
    {
        Some(i) => i,
        None => {
            names.push(v.name.to_string());
            names.len() - 1
        }
    };
    let mut edges = vec![];
    for chain in chains {
        let ids: Vec<usize> = chain.iter().map(|v| index(v, &mut names)).collect();
        for (k, w) in ids.windows(2).enumerate() {
            if w[0] == w[1] {
                return Err(Error::runtime(
                    format!("the edge {0} - {0} is a loop", chain[k].name),
                    chain[k].span.to(chain[k + 1].span),
                )
                .hint("a graph board has no loops; join two different vertices"));
            }
            edges.push((w[0], w[1]));
        }
    }
    let g = Graph::new(names, &edges)?;
    let mut cell_ids = vec![];
    for cell in cells {
        let mut ids = vec![];
        for v in cell {
            match g.vertex(&v.name) {
                Some(i) => ids.push(i),
                None => {
                    return Err(Error::runtime(
                        format!("the cell names `{}`, which is on no edge", v.name),
                        v.span,
                    )
                    .hint("a cell lists vertices of the edges written before `cells`"));
                }
            }
        }
        if cell.len() < 3 {
            let span = cell.first().map_or(Span::default(), |v| v.span);
            return Err(Error::runtime(
                format!("a cell of {} vertices", cell.len()),
                span.to(cell.last().map_or(span, |v| v.span)),
            )
            .hint("a cell is a cycle of the graph: at least 3 vertices, each joined to the next"));
        }
        if let Some(k) = (1..ids.len()).find(|&k| ids[..k].contains(&ids[k])) {
            return Err(Error::runtime(
                format!("the cell visits `{}` twice", cell[k].name),
                cell[k].span,
            )
            .hint("a cell is a cycle of the graph: each vertex once"));
        }
        cell_ids.push(ids);
    }
    g.with_cells(cell_ids).map_err(|(c, i)| {
        let cell = &cells[c];
        let (a, b) = (&cell[i], &cell[(i + 1) % cell.len()]);
        let span = if i + 1 < cell.len() { a.span.to(b.span) } else { a.span };
        Error::runtime(
            format!("{} - {} is not an edge of the graph", a.name, b.name),
            span,
        )
        .hint("a cell is a cyclic list of vertices, each joined to the next (and the last to the first)")
    })
}

pub fn as_i64(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Big(b) => b.to_i64(),
        _ => None,
    }
}

fn op_text(op: BinOp) -> &'static str {
    match op {
        BinOp::Or => "or",
        BinOp::And => "and",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::In => "in",
        BinOp::Range => "..",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::FloorDiv => "//",
        BinOp::Rem => "%",
        BinOp::Pow => "^",
        BinOp::Bar => "|",
        BinOp::Amp => "&",
    }
}

/// The error for a definition no registered family compiles (an interpreter built without
/// that family).
fn no_family(what: &str, span: Span) -> Error {
    Error::runtime(
        format!("this session has no family that defines {what}"),
        span,
    )
}
