//! Game values as the interpreter holds them (combinatorial game theory): CGSuite's notation
//! for literals and atoms, `+`, `-`, `±` and comparisons of games and partizan positions,
//! their outcomes, options and winning moves, and the interface every partizan family
//! implements ([`Sides`], wrapped as a [`Family`] by [`Partizan`]).
use crate::engine::partizan::loopy::{self, Loopy, Opt, Sided};
use crate::engine::partizan::picture::Sketch;
use crate::engine::partizan::{self as cg, Dyadic, Game, Outcome, Relation, Store};
use crate::lang::error::{Error, Result};
use crate::lang::run::eval::{Args, Env, Interp};
use crate::lang::run::game::{Family, Options};
use crate::lang::run::positions::{component_options, position_grundy};
use crate::lang::run::rules::{Component, Interned, Position, Ruleset};
use crate::lang::run::value::{DRAWN_FORMATS, Picture, Value};
use crate::lang::syntax::ast::{BinOp, Expr, ExprKind, Ident, Side, Span};
use std::rc::Rc;

/// A game value: its form and its CGSuite text (values print without the store).
pub struct GameVal {
    pub form: Form,
    pub text: Rc<str>,
}

/// A short game's id in the store, a loopy game's sides (canonical stoppers), or the graph of
/// a loopy game whose sides gamut cannot find (Bach's carousel): its outcome, sums and negative
/// come from the graph, and nothing that needs a value.
pub enum Form {
    Short(Game),
    Loopy(Rc<Sided>),
    Graph(Rc<Loopy>),
}

/// The loopy games CGSuite predefines (docs/language.md, "Loopy partizan games").
pub(crate) const LOOPY_NAMES: [&str; 6] = ["on", "off", "over", "under", "upon", "dud"];

pub(crate) const HINT: &str =
    "a partizan position: ask value, outcome, left_options or right_options";

/// The interpreter's store, unless a partizan search holds it (the rules of a partizan `game`
/// block cannot ask for game values while their own values are searched).
pub fn store(it: &mut Interp) -> Result<&mut Store> {
    if it.games.partizan_busy {
        return Err(Error::plain(
            "game values cannot be computed inside the rules of a partizan game",
        )
        .hint("a move rule gives positions as integers; ask for values outside the rules"));
    }
    let ctl = it.ctl.clone();
    let s = &mut it.games.partizan;
    s.set_ctl(&ctl);
    Ok(s)
}

pub fn game_value(it: &mut Interp, g: Game) -> Result<Value> {
    let text = store(it)?.show(g)?;
    Ok(Value::Game(Rc::new(GameVal {
        form: Form::Short(g),
        text: text.into(),
    })))
}

/// The value of a game graph: a short game when it is one, else its canonical stopper or sides,
/// else (no stopper sides found) the graph itself.
pub(crate) fn loopy_value(it: &mut Interp, g: &Loopy) -> Result<Value> {
    let ctl = it.ctl.clone();
    match Sided::find(g, store(it)?, &ctl)? {
        Some(v) => sided_value(it, v),
        None => graph_value(it, g),
    }
}

/// A game known by its graph. What is built from one (sums, `-G`, literals with it as an
/// option) is known by its graph too: gamut does not look for sides it found none of in a part.
pub(crate) fn graph_value(it: &mut Interp, g: &Loopy) -> Result<Value> {
    let ctl = it.ctl.clone();
    let text = loopy::show_graph(g, store(it)?, &ctl)?;
    Ok(Value::Game(Rc::new(GameVal {
        form: Form::Graph(Rc::new(g.pack())),
        text: text.into(),
    })))
}

/// The graph of a game known only by it.
pub(crate) fn as_graph(v: &Value) -> Option<&Loopy> {
    match v {
        Value::Game(g) => match &g.form {
            Form::Graph(x) => Some(x),
            _ => None,
        },
        _ => None,
    }
}

/// The graph of a game for an option or a sum: its graph, or its stopper's. `None` for other
/// values; an error for a game known only by sides that are not one stopper.
pub(crate) fn game_graph(it: &mut Interp, v: &Value) -> Result<Option<Loopy>> {
    match as_graph(v) {
        Some(g) => Ok(Some(g.clone())),
        None => as_stopper(it, v),
    }
}

pub(crate) fn sided_value(it: &mut Interp, v: Sided) -> Result<Value> {
    let ctl = it.ctl.clone();
    let s = store(it)?;
    if let Some(g) = v.as_short(s)? {
        return game_value(it, g);
    }
    let text = v.show(s, &ctl)?;
    Ok(Value::Game(Rc::new(GameVal {
        form: Form::Loopy(Rc::new(v)),
        text: text.into(),
    })))
}

pub(crate) fn is_loopy(v: &Value) -> bool {
    matches!(v, Value::Game(g) if matches!(g.form, Form::Loopy(_) | Form::Graph(_)))
}

/// A value as a loopy game's sides: loopy games, and what [`as_game`] takes. `None` otherwise.
pub(crate) fn as_sided(it: &mut Interp, v: &Value) -> Result<Option<Sided>> {
    if let Value::Game(g) = v {
        match &g.form {
            Form::Loopy(x) => return Ok(Some((**x).clone())),
            Form::Graph(_) => {
                return Err(Error::plain(format!(
                    "{} has no value gamut can find: its sides are not stoppers as far as \
                     gamut finds (it may not be stopper-sided)",
                    g.text
                ))
                .hint("outcome(G), is_stopper(G), G + H and -G work on the game's graph"));
            }
            Form::Short(_) => {}
        }
    }
    let Some(g) = as_game(it, v)? else {
        return Ok(None);
    };
    let ctl = it.ctl.clone();
    let s = store(it)?;
    let l = Loopy::short(s, g, &ctl)?;
    Ok(Some(Sided::of(&l, s, &ctl)?))
}

/// A stopper's graph, for an option of a game literal.
pub(crate) fn as_stopper(it: &mut Interp, v: &Value) -> Result<Option<Loopy>> {
    let Some(x) = as_sided(it, v)? else {
        return Ok(None);
    };
    if !x.is_stopper() {
        let text = match v {
            Value::Game(g) => g.text.to_string(),
            _ => "this value".into(),
        };
        return Err(Error::plain(format!(
            "an option of a game must be a stopper; {text} is not"
        ))
        .hint("use onside(G) or offside(G) as the option"));
    }
    Ok(Some(x.on))
}

pub(crate) fn number(it: &mut Interp, x: Dyadic) -> Result<Value> {
    let g = store(it)?.number(x)?;
    game_value(it, g)
}

/// A value as a game: games, integers, and positions (partizan ones by their value, impartial
/// ones as their nimber). `None` for other values.
pub fn as_game(it: &mut Interp, v: &Value) -> Result<Option<Game>> {
    Ok(Some(match v {
        Value::Game(g) => match &g.form {
            Form::Short(x) => *x,
            Form::Loopy(_) | Form::Graph(_) => {
                return Err(
                    Error::plain(format!("{} is a loopy game, not a short one", g.text))
                        .hint("loopy games take +, -, comparisons, outcome, onside and offside"),
                );
            }
        },
        Value::Int(n) => store(it)?.integer(*n)?,
        Value::Big(_) => return Err(cg::dyadic::overflow().into()),
        Value::Rat(r) => {
            let d = dyadic(r).map_err(|m| {
                Error::from(crate::engine::Error::invalid(m))
                    .hint("the numbers of short games have a power of two below the line")
            })?;
            store(it)?.number(d)?
        }
        Value::Position(p) if !p.misere => {
            let mut parts = vec![];
            for c in &p.comps {
                parts.push(match c.rs.family::<Partizan>() {
                    Some(f) => f.0.value(it, &c.args)?,
                    None if c.rs.family.not_impartial().is_some() => return Ok(None),
                    None => {
                        let n = position_grundy(
                            it,
                            &Position {
                                comps: vec![c.clone()],
                                misere: false,
                            },
                        )?;
                        store(it)?.nimber(n)?
                    }
                });
            }
            store(it)?.sum(parts)?
        }
        _ => return Ok(None),
    }))
}

/// A fraction as a game number: its denominator a power of two, both parts small enough.
pub(crate) fn dyadic(r: &num_rational::BigRational) -> std::result::Result<Dyadic, String> {
    let (p, q) = (r.numer(), r.denom());
    if q.magnitude().count_ones() != 1 {
        return Err(format!("{p}/{q} is not a dyadic number, so not a game"));
    }
    match (i64::try_from(p), u32::try_from(q.bits() - 1)) {
        (Ok(n), Ok(x)) => Dyadic::new(n, x).map_err(|e| e.message),
        _ => Err(cg::dyadic::overflow().message),
    }
}

pub(crate) fn arg_game(it: &mut Interp, a: &Args, i: usize) -> Result<Game> {
    as_game(it, a.get(i))?
        .ok_or_else(|| a.type_error(i, "a game, an integer or a position (normal play)"))
}

pub(crate) fn arg_number(it: &mut Interp, a: &Args, i: usize) -> Result<Dyadic> {
    let g = arg_game(it, a, i)?;
    store(it)?
        .as_number(g)
        .ok_or_else(|| a.type_error(i, "a number such as 1 or game(\"1/2\")"))
}

/// Whether a value takes part in game arithmetic: a game, or a partizan position.
pub(crate) fn is_partizan(v: &Value) -> bool {
    match v {
        Value::Game(_) => true,
        Value::Position(p) => p.comps.iter().any(|c| c.rs.family::<Partizan>().is_some()),
        _ => false,
    }
}

/// `+`, `-` and comparisons when one side is a game or a partizan position (the other then
/// converts: integers to integer games, impartial positions to nimbers). `None` otherwise.
pub fn binary(
    it: &mut Interp,
    op: BinOp,
    a: &Value,
    b: &Value,
    span: Span,
) -> Result<Option<Value>> {
    if op == BinOp::Amp {
        return sides(it, a, b).map(Some).map_err(|e| e.at(span));
    }
    // a number beside an impartial position is a game number beside a nimber
    let number = |v: &Value| matches!(v, Value::Int(_) | Value::Big(_) | Value::Rat(_));
    let position = |v: &Value| matches!(v, Value::Position(_));
    if !(is_partizan(a) || is_partizan(b) || number(a) && position(b) || position(a) && number(b)) {
        return Ok(None);
    }
    let arith = matches!(op, BinOp::Add | BinOp::Sub);
    let order = matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    );
    if !(arith || order) {
        return Ok(None);
    }
    if is_loopy(a) || is_loopy(b) {
        return loopy_binary(it, op, a, b).map_err(|e| e.at(span));
    }
    // a sum of positions stays a position: queries see its components
    if op == BinOp::Add
        && let (Value::Position(p), Value::Position(q)) = (a, b)
        && !p.misere
        && !q.misere
    {
        let comps = p.comps.iter().chain(&q.comps).cloned().collect();
        return Ok(Some(Value::Position(Rc::new(Position {
            comps,
            misere: false,
        }))));
    }
    let game = |it: &mut Interp, v| as_game(it, v).map_err(|e| e.at(span));
    let (Some(g), Some(h)) = (game(it, a)?, game(it, b)?) else {
        return match op {
            BinOp::Eq => Ok(Some(Value::Bool(false))),
            BinOp::Ne => Ok(Some(Value::Bool(true))),
            _ => Ok(None),
        };
    };
    let s = store(it)?;
    let at = |e: crate::engine::Error| Error::from(e).at(span);
    if arith {
        let r = if op == BinOp::Add {
            s.add(g, h)
        } else {
            s.sub(g, h)
        }
        .map_err(at)?;
        return game_value(it, r).map(Some);
    }
    let rel = s.compare(g, h).map_err(at)?;
    use Relation::*;
    Ok(Some(Value::Bool(match op {
        BinOp::Eq => rel == Equal,
        BinOp::Ne => rel != Equal,
        BinOp::Lt => rel == Less,
        BinOp::Le => matches!(rel, Less | Equal),
        BinOp::Gt => rel == Greater,
        _ => matches!(rel, Greater | Equal),
    })))
}

/// `+`, `-` and comparisons of loopy games, side by side; sums of a game known by its graph
/// on the graphs.
pub(crate) fn loopy_binary(
    it: &mut Interp,
    op: BinOp,
    a: &Value,
    b: &Value,
) -> Result<Option<Value>> {
    if matches!(op, BinOp::Add | BinOp::Sub) && (as_graph(a).is_some() || as_graph(b).is_some()) {
        let (Some(g), Some(h)) = (graph_of(it, a)?, graph_of(it, b)?) else {
            return Ok(None);
        };
        let h = if op == BinOp::Sub { h.neg() } else { h };
        let sum = loopy::add(&g, &h, &it.ctl)?;
        return graph_value(it, &sum).map(Some);
    }
    let (Some(x), Some(y)) = (as_sided(it, a)?, as_sided(it, b)?) else {
        return match op {
            BinOp::Eq => Ok(Some(Value::Bool(false))),
            BinOp::Ne => Ok(Some(Value::Bool(true))),
            _ => Ok(None),
        };
    };
    let ctl = it.ctl.clone();
    let s = store(it)?;
    match op {
        BinOp::Add | BinOp::Sub => {
            let y = if op == BinOp::Sub { y.neg(s, &ctl)? } else { y };
            let r = x.add(&y, s, &ctl)?;
            sided_value(it, r).map(Some)
        }
        _ => {
            let (le, ge) = (x.leq(&y, &ctl)?, y.leq(&x, &ctl)?);
            Ok(Some(Value::Bool(match op {
                BinOp::Eq => le && ge,
                BinOp::Ne => !(le && ge),
                BinOp::Lt => le && !ge,
                BinOp::Le => le,
                BinOp::Gt => ge && !le,
                _ => ge,
            })))
        }
    }
}

/// [`game_graph`], short games and integers included.
fn graph_of(it: &mut Interp, v: &Value) -> Result<Option<Loopy>> {
    if let Some(g) = game_graph(it, v)? {
        return Ok(Some(g));
    }
    let Some(g) = as_game(it, v)? else {
        return Ok(None);
    };
    let ctl = it.ctl.clone();
    Ok(Some(Loopy::short(store(it)?, g, &ctl)?))
}

/// `G & H`: the game with onside G and offside H (stoppers, G ≥ H).
fn sides(it: &mut Interp, a: &Value, b: &Value) -> Result<Value> {
    let mut graphs = vec![];
    for (v, side) in [(a, "onside"), (b, "offside")] {
        let x = as_sided(it, v)?.ok_or_else(|| {
            Error::plain(format!("`&` joins two games, not {}", v.a_type()))
                .hint("onside & offside, each a stopper, e.g. over & under")
        })?;
        if !x.is_stopper() {
            return Err(Sided::not_a_side(side, &v.to_text()).into());
        }
        graphs.push(x.on);
    }
    let ctl = it.ctl.clone();
    let names = (a.to_text(), b.to_text());
    let x = Sided::from_sides(
        &graphs[0],
        &graphs[1],
        (&names.0, &names.1),
        store(it)?,
        &ctl,
    )?;
    sided_value(it, x)
}

/// `-G` and `±G` of a game (or a number or position, as a game).
pub fn unary(it: &mut Interp, plus_minus: bool, v: &Value) -> Result<Option<Value>> {
    if !(plus_minus || is_partizan(v)) {
        return Ok(None);
    }
    if let Some(g) = as_graph(v) {
        let n = g.neg();
        let g = if plus_minus {
            Loopy::from_options(&[Opt::Game(g)], &[Opt::Game(&n)])
        } else {
            n
        };
        return graph_value(it, &g).map(Some);
    }
    if is_loopy(v) {
        let ctl = it.ctl.clone();
        if plus_minus {
            let g = as_stopper(it, v)?.expect("a loopy game");
            let n = g.neg();
            let pm = Loopy::from_options(&[Opt::Game(&g)], &[Opt::Game(&n)]);
            return loopy_value(it, &pm).map(Some);
        }
        let x = as_sided(it, v)?.expect("a loopy game");
        let n = x.neg(store(it)?, &ctl)?;
        return sided_value(it, n).map(Some);
    }
    // `±{*, ^}` (how gamut prints a switch with several options): {*, ^ | -*, -^}
    if let (true, Value::Set(xs)) = (plus_minus, v)
        && xs.iter().any(is_loopy)
    {
        let mut graphs = vec![];
        for x in xs.iter() {
            match as_stopper(it, x)? {
                Some(g) => graphs.push(g),
                None => return Ok(None),
            }
        }
        let negs: Vec<Loopy> = graphs.iter().map(Loopy::neg).collect();
        let lo: Vec<Opt> = graphs.iter().map(Opt::Game).collect();
        let ro: Vec<Opt> = negs.iter().map(Opt::Game).collect();
        return loopy_value(it, &Loopy::from_options(&lo, &ro)).map(Some);
    }
    if let (true, Value::Set(xs)) = (plus_minus, v) {
        let mut left = vec![];
        for x in xs.iter() {
            match as_game(it, x)? {
                Some(g) => left.push(g),
                None => return Ok(None),
            }
        }
        let s = store(it)?;
        let right = left
            .iter()
            .map(|&g| s.neg(g))
            .collect::<std::result::Result<_, _>>()?;
        let r = s.canonical(left, right)?;
        return game_value(it, r).map(Some);
    }
    let Some(g) = as_game(it, v)? else {
        return Ok(None);
    };
    let s = store(it)?;
    let n = s.neg(g)?;
    let r = if plus_minus {
        s.canonical(vec![g], vec![n])?
    } else {
        n
    };
    game_value(it, r).map(Some)
}

/// `*`, `*3`, `^`, `^^*`, and every game word of CGSuite's notation the grammar reads as one.
pub fn atom(it: &mut Interp, text: &str) -> Result<Value> {
    let g = store(it)?.parse(text)?;
    game_value(it, g)
}

/// The parts of a game literal `{L1, L2 | R1}` (a `GameLit`).
struct Lit<'e> {
    left: &'e [Expr],
    right: &'e [Expr],
    label: Option<&'e Ident>,
    span: Span,
}

impl<'e> Lit<'e> {
    fn of(e: &'e Expr) -> Result<Option<Lit<'e>>> {
        let ExprKind::GameLit {
            left,
            right,
            ambiguous,
            label,
        } = &e.kind
        else {
            return Ok(None);
        };
        if *ambiguous {
            return Err(Error::runtime(
                "the longest bar appears twice in this game literal",
                e.span,
            )
            .hint("nest with longer bars, e.g. {a || b | c} is {a | {b | c}}"));
        }
        Ok(Some(Lit {
            left,
            right,
            label: label.as_ref(),
            span: e.span,
        }))
    }
}

/// `{L1, L2 | R1}`: each option a game; `a/b` with b a power of two is the dyadic number.
/// `a{0 | {a | *}}` (labelled) is a game graph.
pub fn literal(it: &mut Interp, e: &Expr, env: &Env) -> Result<Value> {
    let lit = Lit::of(e)?.expect("a game literal");
    let (left, right, span) = (lit.left, lit.right, lit.span);
    // an option known by its graph makes the game one
    let mut from_graph = false;
    let value = |it: &mut Interp, g: &Loopy, from_graph: bool| {
        if from_graph {
            graph_value(it, g)
        } else {
            loopy_value(it, g)
        }
        .map_err(|e| e.at(span))
    };
    if lit.label.is_some() {
        let mut g = Loopy::default();
        let v = node(it, &mut g, &mut vec![], &mut from_graph, &lit, env)?;
        return value(it, &g.at(v), from_graph);
    }
    // an option may be `pass` or a loopy game: then the game is loopy
    let mut vals = [vec![], vec![]];
    let mut loopy_opts = false;
    for (side, exprs) in vals.iter_mut().zip([left, right]) {
        for e in exprs {
            if is_pass(e, env) {
                side.push(None);
                loopy_opts = true;
                continue;
            }
            let v = it.eval(e, env)?;
            loopy_opts |= is_loopy(&v);
            from_graph |= as_graph(&v).is_some();
            side.push(Some((v, e.span)));
        }
    }
    if loopy_opts {
        let mut graphs: [Vec<Option<Loopy>>; 2] = [vec![], vec![]];
        for (k, side) in vals.iter().enumerate() {
            for v in side {
                graphs[k].push(match v {
                    None => None,
                    Some((v, sp)) => Some(
                        game_graph(it, v)
                            .map_err(|e| e.at(*sp))?
                            .ok_or_else(|| option_error(v, *sp))?,
                    ),
                });
            }
        }
        fn opts(gs: &[Option<Loopy>]) -> Vec<Opt<'_>> {
            gs.iter()
                .map(|g| g.as_ref().map_or(Opt::Pass, Opt::Game))
                .collect()
        }
        let (lo, ro) = (opts(&graphs[0]), opts(&graphs[1]));
        let g = Loopy::from_options(&lo, &ro);
        return value(it, &g, from_graph);
    }
    let mut sides = [vec![], vec![]];
    for (k, side) in vals.into_iter().enumerate() {
        for (v, sp) in side.into_iter().flatten() {
            let g = as_game(it, &v)
                .map_err(|er| er.at(sp))?
                .ok_or_else(|| option_error(&v, sp))?;
            sides[k].push(g);
        }
    }
    let [l, r] = sides;
    let g = store(it)?
        .canonical(l, r)
        .map_err(|e| Error::from(e).at(span))?;
    game_value(it, g)
}

/// A node of a labelled literal's graph (CGSuite's `LoopyGameSpecNode`): a label in scope,
/// `pass` and every brace literal inside are nodes of the graph; other options are stoppers.
fn node(
    it: &mut Interp,
    g: &mut Loopy,
    labels: &mut Vec<(Rc<str>, u32)>,
    from_graph: &mut bool,
    lit: &Lit,
    env: &Env,
) -> Result<u32> {
    it.ctl.check()?;
    let v = g.node();
    if let Some(l) = lit.label {
        labels.push((l.name.clone(), v));
    }
    for (left, exprs) in [(true, lit.left), (false, lit.right)] {
        for e in exprs {
            let label = match &e.kind {
                ExprKind::Ident(n) => labels.iter().rev().find(|(m, _)| m == n),
                _ => None,
            };
            let w = if let Some(&(_, w)) = label {
                w
            } else if is_pass(e, env) {
                v
            } else if let Some(inner) = Lit::of(e)? {
                node(it, g, labels, from_graph, &inner, env)?
            } else {
                let x = it.eval(e, env)?;
                *from_graph |= as_graph(&x).is_some();
                let s = game_graph(it, &x)
                    .map_err(|er| er.at(e.span))?
                    .ok_or_else(|| option_error(&x, e.span))?;
                g.graft_checked(&s, &it.ctl)?
            };
            g.edge(v, left, w);
        }
    }
    if lit.label.is_some() {
        labels.pop();
    }
    Ok(v)
}

pub(crate) fn option_error(v: &Value, span: Span) -> Error {
    Error::runtime(
        format!(
            "an option of a game is a game or a number, not {}",
            v.a_type()
        ),
        span,
    )
}

/// `pass` as an option (a move back to the game itself), where no binding takes the name.
pub(crate) fn is_pass(e: &Expr, env: &Env) -> bool {
    matches!(&e.kind, ExprKind::Ident(n) if &**n == "pass" && env.lookup("pass").is_none())
}

/// Runs a partizan family's outcome search `f` on the position `v`: on its components of one
/// partizan ruleset (of several, the one with the component of most options), with the value
/// of the others known. `None` when `v` is no such position, when another component has no
/// short value, or when `f` has no search.
fn search_sum<T>(
    it: &mut Interp,
    v: &Value,
    f: impl FnOnce(&dyn Sides, &mut Interp, &[&[i64]], Game) -> Result<Option<T>>,
) -> Result<Option<T>> {
    let Value::Position(p) = v else {
        return Ok(None);
    };
    if p.misere || is_loopy(v) {
        return Ok(None);
    }
    let partizan: Vec<&Component> = (p.comps.iter())
        .filter(|c| c.rs.family::<Partizan>().is_some())
        .collect();
    let Some(first) = partizan.first() else {
        return Ok(None);
    };
    let mut rs = &first.rs;
    if partizan.iter().any(|c| !Rc::ptr_eq(&c.rs, rs)) {
        let mut most = 0;
        for c in &partizan {
            let f = &c.rs.family::<Partizan>().expect("partizan").0;
            let n = f.options(it, &c.args, Side::Left)?.len()
                + f.options(it, &c.args, Side::Right)?.len();
            if n > most {
                (most, rs) = (n, &c.rs);
            }
        }
    }
    let fam = rs.family::<Partizan>().expect("partizan");
    let (mine, others): (Vec<&Component>, Vec<&Component>) =
        p.comps.iter().partition(|c| Rc::ptr_eq(&c.rs, rs));
    let others = Value::Position(Rc::new(Position {
        comps: others.into_iter().cloned().collect(),
        misere: false,
    }));
    let Some(known) = as_game(it, &others)? else {
        return Ok(None);
    };
    let parts: Vec<&[i64]> = mine.iter().map(|c| &*c.args).collect();
    f(&*fam.0, it, &parts, known)
}

/// `outcome(G)` of a game or partizan position: "L", "R", "N" or "P". `None` for impartial ones.
pub fn outcome(it: &mut Interp, v: &Value) -> Result<Option<Value>> {
    if !(is_partizan(v) || matches!(v, Value::Int(_) | Value::Rat(_))) {
        return Ok(None);
    }
    if let Some(g) = as_graph(v) {
        return Ok(Some(Value::str(loopy::play_outcome(g, &it.ctl)?)));
    }
    if is_loopy(v) {
        let ctl = it.ctl.clone();
        let x = as_sided(it, v)?.expect("a loopy game");
        return Ok(Some(Value::str(x.outcome(&ctl)?)));
    }
    // a family that searches outcomes: no canonical value of its components is needed
    let searched = search_sum(it, v, |f, it, parts, known| {
        Ok(match f.outcome(it, parts, known)? {
            Some(o) => Some(o),
            // or the one-sided search, once for each side
            None => match f.wins(it, parts, known, true)? {
                Some(l) => f.wins(it, parts, known, false)?.map(|r| Outcome::of(l, r)),
                None => None,
            },
        })
    })?;
    let o = match searched {
        Some(o) => o,
        None => {
            let Some(g) = as_game(it, v)? else {
                return Ok(None);
            };
            store(it)?.outcome(g)?
        }
    };
    Ok(Some(Value::str(outcome_text(o))))
}

pub(crate) fn outcome_text(o: Outcome) -> &'static str {
    match o {
        Outcome::L => "L",
        Outcome::R => "R",
        Outcome::N => "N",
        Outcome::P => "P",
    }
}

/// Whether the player to move (Left when `left`) wins the partizan position `v`: by the
/// outcome search of one side where its family has one, else from its outcome class. `None`
/// when `v` is no short partizan game.
pub fn wins(it: &mut Interp, v: &Value, left: bool) -> Result<Option<bool>> {
    if let Some(w) = search_sum(it, v, |f, it, parts, known| f.wins(it, parts, known, left))? {
        return Ok(Some(w));
    }
    if is_loopy(v) {
        return Ok(None);
    }
    let Some(o) = outcome(it, v)? else {
        return Ok(None);
    };
    let o = o.to_text();
    Ok(Some(o == "N" || o == if left { "L" } else { "R" }))
}

/// Options as positions, each with the name of its move where there is one.
type Named = Vec<(Value, Option<String>)>;

/// One side's options of a partizan position (a move in one of its components), each as the
/// position it leaves and, where the ruleset names moves (a board game by rules) and the
/// position is one component, the move's name. `None` when `v` is no partizan position.
fn sum_options(it: &mut Interp, v: &Value, side: Side) -> Result<Option<Named>> {
    let Value::Position(p) = v else {
        return Ok(None);
    };
    if p.misere || !is_partizan(v) {
        return Ok(None);
    }
    let mut out = vec![];
    for (i, c) in p.comps.iter().enumerate() {
        // an equal component before it has the same moves
        if p.comps[..i]
            .iter()
            .any(|d| Rc::ptr_eq(&d.rs, &c.rs) && d.args == c.args)
        {
            continue;
        }
        let f = c.rs.family::<Partizan>();
        let opts = match f {
            Some(f) => f.0.options(it, &c.args, side)?,
            None => component_options(it, &c.rs, &c.args)?,
        };
        for o in opts {
            let label = match (f, p.comps.len(), o.as_slice()) {
                (Some(f), 1, [one]) => f.0.move_label(&c.args, one, side),
                _ => None,
            };
            let mut comps = p.comps[..i].to_vec();
            comps.extend(o.into_iter().map(|args| Component {
                rs: c.rs.clone(),
                args,
            }));
            comps.extend_from_slice(&p.comps[i + 1..]);
            let q = Value::Position(Rc::new(Position {
                comps,
                misere: false,
            }));
            out.push((q, label));
        }
    }
    Ok(Some(out))
}

/// One side's options of a partizan position, as positions (without their values); `None`
/// when `v` is no partizan position.
pub(crate) fn option_positions(
    it: &mut Interp,
    v: &Value,
    side: Side,
) -> Result<Option<Vec<Value>>> {
    let opts = sum_options(it, v, side)?;
    Ok(opts.map(|o| o.into_iter().map(|(q, _)| q).collect()))
}

/// One side's options of a partizan position: each option as a position (`named`: by its
/// move when the ruleset names moves, as board games by rules do), with its value. `None`
/// when `v` is no partizan position, or an option has no short value.
pub(crate) fn position_options(
    it: &mut Interp,
    v: &Value,
    side: Side,
    named: bool,
) -> Result<Option<Vec<(Value, Game)>>> {
    let Some(opts) = sum_options(it, v, side)? else {
        return Ok(None);
    };
    let mut out = vec![];
    for (q, label) in opts {
        let Some(g) = as_game(it, &q)? else {
            return Ok(None);
        };
        out.push((label.filter(|_| named).map_or(q, |l| Value::str(&l)), g));
    }
    Ok(Some(out))
}

/// The options of a game value for `side`, each as a value and as a game.
pub(crate) fn game_options(it: &mut Interp, g: Game, side: Side) -> Result<Vec<(Value, Game)>> {
    let s = store(it)?;
    let opts = if side == Side::Left {
        s.left(g)?
    } else {
        s.right(g)?
    };
    opts.iter().map(|&o| Ok((game_value(it, o)?, o))).collect()
}

/// `moves(P)` of a partizan position: `{left: {option: value, ...}, right: {...}}`. `None`
/// when P is not a partizan position of one component.
pub fn moves(it: &mut Interp, a: &Args) -> Result<Option<Value>> {
    let mut out = vec![];
    for (name, side) in [("left", Side::Left), ("right", Side::Right)] {
        let Some(opts) = position_options(it, a.get(0), side, true)? else {
            return Ok(None);
        };
        let mut m = vec![];
        for (p, g) in opts {
            m.push((p, game_value(it, g)?));
        }
        out.push((Value::str(name), Value::Map(Rc::new(m))));
    }
    Ok(Some(Value::Map(Rc::new(out))))
}

/// `winning(P, "L")`: Left's options after which Left wins with Right to move (value ≥ 0);
/// `winning(P, "R")` Right's (value ≤ 0). P a partizan position or a game value. `None` when
/// P is neither.
pub fn winning(it: &mut Interp, a: &Args) -> Result<Option<Value>> {
    let v = a.get(0);
    let position = matches!(v, Value::Position(p) if !p.misere) && is_partizan(v);
    if !position && !matches!(v, Value::Game(_) | Value::Int(_) | Value::Rat(_)) {
        return Ok(None);
    }
    a.count(1, 2)?;
    if a.len() == 1 {
        return Err(Error::runtime(
            "a partizan position has winning moves for Left and for Right: say whose",
            a.span,
        )
        .hint("winning(P, \"L\") or winning(P, \"R\")"));
    }
    let side = match &*a.str(1)? {
        "L" => Side::Left,
        "R" => Side::Right,
        other => {
            return Err(Error::runtime(
                format!("the player is \"L\" or \"R\", not {other:?}"),
                a.span_of(1),
            ));
        }
    };
    let opts = match position_options(it, v, side, true)? {
        Some(opts) => opts,
        None => {
            let g = arg_game(it, a, 0)?;
            game_options(it, g, side)?
        }
    };
    let mut out = vec![];
    for (p, g) in opts {
        let s = store(it)?;
        let zero = s.zero();
        let wins = if side == Side::Left {
            s.leq(zero, g)?
        } else {
            s.leq(g, zero)?
        };
        if wins {
            out.push(p);
        }
    }
    Ok(Some(Value::list(out)))
}

/// A partizan ruleset as the language sees it: the value of a state, and its options for
/// each player (each option a sum of states of the same ruleset).
pub trait Sides: std::any::Any {
    fn value(&self, it: &mut Interp, state: &[i64]) -> Result<Game>;
    fn options(&self, it: &mut Interp, state: &[i64], side: Side) -> Result<Options>;
    fn describe(&self, name: &str, state: &[i64]) -> String;
    fn arity(&self) -> Option<usize> {
        None
    }
    /// A text drawing for `show`; by default the sketch's.
    fn show(&self, state: &[i64]) -> Option<String> {
        self.sketch(state).map(|s| s.text())
    }
    /// The outcome class of the sum of positions `parts` of this ruleset and the game `known`
    /// by a search that decides who wins without their canonical values
    /// (`engine::partizan::outcome`); `None` leaves it to the value.
    fn outcome(
        &self,
        _it: &mut Interp,
        _parts: &[&[i64]],
        _known: Game,
    ) -> Result<Option<Outcome>> {
        Ok(None)
    }
    /// As [`Family::class_key`]: equal for positions equal up to the ruleset's symmetries.
    fn class_key(&self, _state: &[i64]) -> Option<Vec<u64>> {
        None
    }
    /// As [`Family::negative_class_key`].
    fn negative_class_key(&self, _state: &[i64]) -> Option<Vec<u64>> {
        None
    }
    /// Whether the player to move (Left when `left`) wins, by that search; `None` as above.
    fn wins(
        &self,
        _it: &mut Interp,
        _parts: &[&[i64]],
        _known: Game,
        _left: bool,
    ) -> Result<Option<bool>> {
        Ok(None)
    }
    /// What `show` and `export` draw of a position.
    fn sketch(&self, _state: &[i64]) -> Option<Sketch> {
        None
    }
    /// As [`Family::picture`]; by default the sketch's.
    fn picture(&self, v: &Value) -> Option<Picture> {
        let Value::Position(p) = v else { return None };
        let [c] = p.comps.as_slice() else { return None };
        let sketch = self.sketch(&c.args)?;
        let title = v.to_text();
        Some(Picture {
            title: title.clone(),
            formats: DRAWN_FORMATS,
            draw: Box::new(move |path| sketch.draw(&title, path)),
        })
    }
    /// As [`Family::interned`].
    fn interned(&self) -> Option<&Interned> {
        None
    }
    /// As [`Family::kept_bytes`].
    fn kept_bytes(&self) -> u64 {
        0
    }
    /// As [`Family::forget`].
    fn forget(&self) {}
    /// The name of `side`'s move from `state` to the single component `option` (a board
    /// game's cells); `None` names the option by its position.
    fn move_label(&self, _state: &[i64], _option: &[i64], _side: Side) -> Option<String> {
        None
    }
}

/// The family of every partizan ruleset.
pub struct Partizan(pub Box<dyn Sides>);

impl Family for Partizan {
    fn arity(&self) -> Option<usize> {
        self.0.arity()
    }
    fn type_name(&self) -> &'static str {
        "partizan position"
    }
    fn describe(&self, name: &str, state: &[i64]) -> String {
        self.0.describe(name, state)
    }
    fn show(&self, state: &[i64]) -> Option<String> {
        self.0.show(state)
    }
    fn picture(&self, v: &Value) -> Option<Picture> {
        self.0.picture(v)
    }
    fn options(&self, _: &mut Interp, _: &Ruleset, _: &[i64]) -> Result<Options> {
        Err(Error::plain("a partizan position has options for Left and for Right").hint(HINT))
    }
    fn not_impartial(&self) -> Option<&'static str> {
        Some(HINT)
    }
    fn value(&self, it: &mut Interp, state: &[i64]) -> Result<Option<Value>> {
        let g = self.0.value(it, state)?;
        game_value(it, g).map(Some)
    }
    fn class_key(&self, state: &[i64]) -> Option<Vec<u64>> {
        self.0.class_key(state)
    }
    fn negative_class_key(&self, state: &[i64]) -> Option<Vec<u64>> {
        self.0.negative_class_key(state)
    }
    fn kept_bytes(&self) -> u64 {
        self.0.kept_bytes()
    }
    fn forget(&self) {
        self.0.forget()
    }
    fn interned(&self) -> Option<&Interned> {
        self.0.interned()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
