//! Partizan games (docs/language.md, "Partizan games"): the builtins over game values (their
//! values, literals and arithmetic are `run::cgt`'s), thermography, and the built-in rulesets
//! of `engine::partizan::games`.
//!
//! A game value is a canonical form in the interpreter's one [`Store`] (`Cache::partizan`);
//! integers stay integers and become games when they meet one (`1 + ^`, `{0 | 1}`).
use crate::engine::control::map_bytes;
use crate::engine::partizan::games::{
    self, Board, Cake, Clobber, Domineering, Hackenbush, Picture, Stones, Subtraction,
    ToadsAndFrogs,
};
use crate::engine::partizan::loopy::{self, Loopy, Sided};
use crate::engine::partizan::picture::{self as sketch, Sketch};
use crate::engine::partizan::{self as cg, Dyadic, Game, Outcome, Relation, Rules, Store};
use crate::lang::error::{Error, Result};
use crate::lang::run::cgt::{
    LOOPY_NAMES, Partizan, Sides, arg_game, arg_number, as_graph, as_sided, game_options,
    game_value, is_partizan, loopy_value, number, position_options, sided_value, store,
};
use crate::lang::run::eval::{Args, Interp};
use crate::lang::run::game::Options;
use crate::lang::run::rules::{Position, Ruleset};
use crate::lang::run::value::Value;
use crate::lang::syntax::ast::Side;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

pub fn register(it: &mut Interp) {
    it.add_builtin(
        "game",
        "game(x)",
        "a partizan game from CGSuite notation (\"{2|1/2||-1}\", \"^*\", \"±1\"; loopy: \"{pass|*}\", \"a{0||||0|||a|*||*}\", sides \"over & under\"), an integer or a position",
        |it, a| {
            a.count(1, 1)?;
            let g = match a.get(0) {
                Value::Str(s) if s.contains('&') => {
                    let ctl = it.ctl.clone();
                    let x = Sided::parse(s, store(it)?, &ctl).map_err(|e| Error::from(e).at(a.span_of(0)))?;
                    return sided_value(it, x);
                }
                Value::Str(s) => {
                    let s = s.clone();
                    match store(it)?.parse(&s) {
                        Ok(g) => g,
                        // `{pass | *}`, `a{0 | a}`, `over`: a loopy game
                        Err(e) => {
                            let ctl = it.ctl.clone();
                            let l = loopy::parse(&s, store(it)?, &ctl).map_err(|le| {
                                let loopy_text = s.contains("pass")
                                    || LOOPY_NAMES.iter().any(|n| s.contains(n))
                                    || s.chars().zip(s.chars().skip(1)).any(|(c, d)| {
                                        c.is_ascii_alphabetic() && d == '{'
                                    });
                                Error::from(if loopy_text { le } else { e }).at(a.span_of(0))
                            })?;
                            return loopy_value(it, &l);
                        }
                    }
                }
                _ => arg_game(it, a, 0)?,
            };
            game_value(it, g)
        },
    );
    it.add_builtin(
        "onside",
        "onside(G)",
        "the onside of a game: its value when an endless play is a win for Left (a stopper)",
        |it, a| side(it, a, true),
    );
    it.add_builtin(
        "offside",
        "offside(G)",
        "the offside of a game: its value when an endless play is a win for Right (a stopper)",
        |it, a| side(it, a, false),
    );
    it.add_builtin(
        "is_stopper",
        "is_stopper(G)",
        "whether a game is a stopper (no play alternates for ever); short games are",
        |it, a| {
            a.count(1, 1)?;
            // a game known by its graph has no stopper sides, so it is no stopper
            if as_graph(a.get(0)).is_some() {
                return Ok(Value::Bool(false));
            }
            let x = arg_sided(it, a, 0)?;
            Ok(Value::Bool(x.is_stopper()))
        },
    );
    it.add_builtin(
        "loopy_value",
        "loopy_value(P, moves)",
        "the value of a game whose plays may come back to a position: P the start, moves(Q) = [Left's options, Right's options] of a position Q (any values); a canonical stopper, its sides, or (no stopper sides found) its graph",
        loopy_rules,
    );
    for name in LOOPY_NAMES {
        let g = Loopy::named(name).expect("a named loopy game");
        let v = loopy_value(it, &g).expect("the named loopy games are small");
        it.globals.define(name.into(), v);
    }
    it.add_builtin(
        "Tiny",
        "Tiny(G)",
        "Tiny(G) = {0 || 0 | -G}, as CGSuite writes it (`2Tiny(2)` is 2 + Tiny(2))",
        |it, a| tiny(it, a, true),
    );
    it.add_builtin(
        "Miny",
        "Miny(G)",
        "Miny(G) = {G | 0 || 0}, the negative of Tiny(G), as CGSuite writes it",
        |it, a| tiny(it, a, false),
    );
    it.add_builtin(
        "left_options",
        "left_options(G)",
        "Left's options of a game (canonical) or of a partizan position (positions)",
        |it, a| side_options(it, a, Side::Left),
    );
    it.add_builtin(
        "right_options",
        "right_options(G)",
        "Right's options of a game (canonical) or of a partizan position (positions)",
        |it, a| side_options(it, a, Side::Right),
    );
    it.add_builtin(
        "confused",
        "confused(G, H)",
        "whether G and H are confused (G ‖ H: neither G ≤ H nor H ≤ G)",
        |it, a| {
            a.count(2, 2)?;
            let (g, h) = (arg_game(it, a, 0)?, arg_game(it, a, 1)?);
            Ok(Value::Bool(store(it)?.compare(g, h)? == Relation::Fuzzy))
        },
    );
    it.add_builtin(
        "mean",
        "mean(G)",
        "the mean value of a game (a number)",
        |it, a| dyadic_query(it, a, |s, g| s.mean(g)),
    );
    it.add_builtin(
        "temperature",
        "temperature(G)",
        "the temperature of a game (-1 for an integer)",
        |it, a| dyadic_query(it, a, |s, g| s.temperature(g)),
    );
    it.add_builtin(
        "stops",
        "stops(G)",
        "[left stop, right stop] of a game",
        |it, a| {
            a.count(1, 1)?;
            let g = arg_game(it, a, 0)?;
            let s = store(it)?;
            let (l, r) = (s.left_stop(g), s.right_stop(g));
            Ok(Value::list(vec![number(it, l)?, number(it, r)?]))
        },
    );
    it.add_builtin(
        "cool",
        "cool(G, t)",
        "G cooled by the number t (Conway's G_t)",
        |it, a| by_number(it, a, Store::cool),
    );
    it.add_builtin(
        "heat",
        "heat(G, t)",
        "G heated by the number t (∫^t G)",
        |it, a| by_number(it, a, Store::heat),
    );
    it.add_builtin(
        "birthday",
        "birthday(G)",
        "the birthday of a game (the height of its canonical game tree)",
        |it, a| {
            a.count(1, 1)?;
            let g = arg_game(it, a, 0)?;
            Ok(Value::Int(store(it)?.birthday(g) as i64))
        },
    );
    it.add_builtin(
        "atomic_weight",
        "atomic_weight(G)",
        "the atomic weight of an all-small game (Conway's calculus)",
        |it, a| {
            a.count(1, 1)?;
            let g = arg_game(it, a, 0)?;
            let w = store(it)?.atomic_weight(g)?;
            game_value(it, w)
        },
    );
    it.add_builtin(
        "thermograph",
        "thermograph(G)",
        "{temperature, mast, left, right}: the walls as [temperature, value] corners from t = -1",
        thermograph,
    );
    it.add_builtin(
        "domineering",
        "domineering(m, n) or domineering(\"..#|...\")",
        "Domineering on an m x n board (or a board of . empty and # filled cells, rows split by |): Left places vertical dominoes, Right horizontal",
        domineering,
    );
    it.add_builtin(
        "clobber",
        "clobber(\"xo|ox\")",
        "Clobber: x (Left) and o (Right) stones, . empty; a stone moves onto an adjacent opposing one",
        clobber,
    );
    it.add_builtin(
        "hackenbush",
        "hackenbush(\"BRR\") or hackenbush([[0, 1, \"B\"], ...])",
        "Blue-Red(-Green) Hackenbush: a string of edges from the ground up, or edges [a, b, colour] with vertex 0 the ground",
        hackenbush,
    );
    it.add_builtin(
        "toads_frogs",
        "toads_frogs(\"TT..FF\")",
        "Toads and Frogs: toads T (Left) move or jump right, frogs F (Right) left, onto empty squares .",
        toads_frogs,
    );
    it.add_builtin(
        "cutcake",
        "cutcake(m, n)",
        "Cutcake on an m (wide) x n (high) cake: Left cuts vertically, Right horizontally",
        |it, a| cake(it, a, false),
    );
    it.add_builtin(
        "maundy_cake",
        "maundy_cake(m, n)",
        "Maundy Cake: Left divides the width into equal parts, Right the height",
        |it, a| cake(it, a, true),
    );
    it.add_builtin(
        "partizan_subtraction",
        "partizan_subtraction(L, R, name: s)",
        "the partizan subtraction game where Left takes an amount in the set L, Right in R",
        partizan_subtraction,
    );
    it.add_builtin(
        "col",
        "col(g)",
        "Col on graph g: a player colours a vertex no neighbour of which has their colour",
        |it, a| colouring(it, a, false),
    );
    it.add_builtin(
        "pieces_game",
        "pieces_game(m, n, left, right)",
        "partizan placement on an empty m x n board: Left places `left` pieces, Right `right` ones (king, queen, rook, bishop, knight), never attacking an opposing piece",
        pieces_game,
    );
    it.add_builtin(
        "snort",
        "snort(g)",
        "Snort on graph g: a player colours a vertex no neighbour of which has the other colour",
        |it, a| colouring(it, a, true),
    );
}

fn arg_sided(it: &mut Interp, a: &Args, i: usize) -> Result<Sided> {
    as_sided(it, a.get(i))?
        .ok_or_else(|| a.type_error(i, "a game, an integer or a position (normal play)"))
}

/// `degree(G)` of a game: CGSuite's `Degree`, its degree of loopiness (a group's degree is
/// `groups`'). `None` for other values.
pub(crate) fn degree(it: &mut Interp, a: &Args) -> Result<Option<Value>> {
    let v = a.get(0);
    if !(is_partizan(v) || matches!(v, Value::Int(_) | Value::Rat(_))) {
        return Ok(None);
    }
    let x = arg_sided(it, a, 0)?;
    let ctl = it.ctl.clone();
    let d = x
        .degree(store(it)?, &ctl)
        .map_err(|e| Error::from(e).at(a.span_of(0)))?;
    sided_value(it, d).map(Some)
}

/// `onside(G)`, `offside(G)`.
fn side(it: &mut Interp, a: &mut Args, on: bool) -> Result<Value> {
    a.count(1, 1)?;
    let x = arg_sided(it, a, 0)?;
    let s = if on { x.on.clone() } else { x.off.clone() };
    sided_value(
        it,
        Sided {
            on: s.clone(),
            off: s,
        },
    )
}

/// `loopy_value(P, moves)`: the graph of the positions reachable from P, then its value.
// positions are keys by their contents, which nothing changes while the map lives
#[allow(clippy::mutable_key_type)]
fn loopy_rules(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(2, 2)?;
    let f = a.get(1).clone();
    let span = a.span_of(1);
    let mut ids: std::collections::BTreeMap<Value, u32> = Default::default();
    let mut order = vec![a.get(0).clone()];
    ids.insert(order[0].clone(), 0);
    let (mut left, mut right) = (vec![], vec![]);
    let bad = |r: &Value| {
        Error::runtime(
            format!(
                "moves(P) gives [Left's options, Right's options], two lists, not {}",
                r.to_text()
            ),
            span,
        )
        .hint("e.g. fn moves(p) = [[p + 1], []]")
    };
    let mut i = 0;
    while i < order.len() {
        it.ctl.check()?;
        // each position: its value, its place in the map and its two option lists
        it.ctl.reserve(
            (order.len() as u64 + 1).saturating_mul(256),
            "exploring a loopy game's positions",
        )?;
        let r = it.call_values(&f, vec![order[i].clone()], span)?;
        let Value::List(sides) = &r else {
            return Err(bad(&r));
        };
        let [Value::List(lo), Value::List(ro)] = sides.as_slice() else {
            return Err(bad(&r));
        };
        let mut opts = [vec![], vec![]];
        for (k, list) in [lo, ro].into_iter().enumerate() {
            for q in list.iter() {
                let next = order.len() as u32;
                let id = *ids.entry(q.clone()).or_insert_with(|| {
                    order.push(q.clone());
                    next
                });
                opts[k].push(id);
            }
        }
        let [l, r] = opts;
        left.push(l);
        right.push(r);
        i += 1;
    }
    let g = Loopy::from_edges(left, right, 0)?;
    loopy_value(it, &g)
}

/// `cool(G, t)`, `heat(G, t)`.
fn by_number(
    it: &mut Interp,
    a: &mut Args,
    f: fn(&mut Store, Game, Dyadic) -> crate::engine::Result<Game>,
) -> Result<Value> {
    a.count(2, 2)?;
    let (g, t) = (arg_game(it, a, 0)?, arg_number(it, a, 1)?);
    let r = f(store(it)?, g, t)?;
    game_value(it, r)
}

fn dyadic_query(
    it: &mut Interp,
    a: &mut Args,
    f: fn(&mut Store, Game) -> crate::engine::Result<Dyadic>,
) -> Result<Value> {
    a.count(1, 1)?;
    let g = arg_game(it, a, 0)?;
    let x = f(store(it)?, g)?;
    number(it, x)
}

/// Tiny(G) = {0 || 0 | -G} and Miny(G) = {G | 0 || 0}.
fn tiny(it: &mut Interp, a: &mut Args, tiny: bool) -> Result<Value> {
    a.count(1, 1)?;
    let g = arg_game(it, a, 0)?;
    let s = store(it)?;
    let zero = s.zero();
    let r = if tiny {
        let ng = s.neg(g)?;
        let inner = s.canonical(vec![zero], vec![ng])?;
        s.canonical(vec![zero], vec![inner])?
    } else {
        let inner = s.canonical(vec![g], vec![zero])?;
        s.canonical(vec![inner], vec![zero])?
    };
    game_value(it, r)
}

fn side_options(it: &mut Interp, a: &mut Args, side: Side) -> Result<Value> {
    a.count(1, 1)?;
    if let Some(opts) = position_options(it, a.get(0), side, false)? {
        return Ok(Value::list(opts.into_iter().map(|(p, _)| p).collect()));
    }
    let g = arg_game(it, a, 0)?;
    let opts = game_options(it, g, side)?;
    Ok(Value::list(opts.into_iter().map(|(v, _)| v).collect()))
}

fn thermograph(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let g = arg_game(it, a, 0)?;
    let t = store(it)?.thermograph(g)?;
    let mut walls = vec![];
    for w in [&t.left, &t.right] {
        let mut pts = vec![];
        for &(x, y) in &w.points {
            pts.push(Value::list(vec![number(it, x)?, number(it, y)?]));
        }
        walls.push(Value::list(pts));
    }
    let [l, r]: [Value; 2] = walls.try_into().ok().expect("two walls");
    Ok(Value::record_with_hidden(
        vec![
            ("temperature", number(it, t.temperature)?),
            ("mast", number(it, t.mast)?),
            ("left", l),
            ("right", r),
        ],
        vec![("game", game_value(it, g)?)],
    ))
}

/// A built-in ruleset of the engine, with a state encoding and a memo of values.
struct Native<R: Rules<Error = crate::engine::Error>> {
    rules: RefCell<R>,
    memo: RefCell<HashMap<R::Pos, Game, foldhash::fast::FixedState>>,
    decode: fn(&[i64]) -> R::Pos,
    encode: fn(&R::Pos) -> Vec<i64>,
    show: fn(&str, &[i64]) -> String,
    sketch: Option<fn(&[i64]) -> Sketch>,
    /// the components the outcome search values instead of searching; `None`: `outcome` goes
    /// through the canonical value
    small: Option<Box<cg::outcome::Small<'static, R::Pos>>>,
}

impl<R: Rules<Error = crate::engine::Error> + 'static> Sides for Native<R>
where
    R::Pos: 'static,
{
    fn value(&self, it: &mut Interp, state: &[i64]) -> Result<Game> {
        let ctl = it.ctl.clone();
        let pos = (self.decode)(state);
        let s = store(it)?;
        Ok(cg::value(
            &mut *self.rules.borrow_mut(),
            s,
            &mut self.memo.borrow_mut(),
            &pos,
            &ctl,
        )?)
    }
    fn options(&self, _: &mut Interp, state: &[i64], side: Side) -> Result<Options> {
        let pos = (self.decode)(state);
        let mut r = self.rules.borrow_mut();
        let opts = if side == Side::Left {
            r.left(&pos)?
        } else {
            r.right(&pos)?
        };
        Ok(opts.iter().map(|o| vec![(self.encode)(o).into()]).collect())
    }
    fn describe(&self, name: &str, state: &[i64]) -> String {
        (self.show)(name, state)
    }
    fn kept_bytes(&self) -> u64 {
        self.memo.try_borrow().map_or(0, |m| map_bytes(&m))
    }
    fn forget(&self) {
        if let Ok(mut m) = self.memo.try_borrow_mut() {
            *m = HashMap::default();
        }
    }
    fn sketch(&self, state: &[i64]) -> Option<Sketch> {
        self.sketch.map(|f| f(state))
    }
    fn class_key(&self, state: &[i64]) -> Option<Vec<u64>> {
        self.key(&(self.decode)(state))
    }
    fn negative_class_key(&self, state: &[i64]) -> Option<Vec<u64>> {
        let neg = self
            .rules
            .try_borrow_mut()
            .ok()?
            .negative(&(self.decode)(state))?;
        self.key(&neg)
    }
    fn wins(
        &self,
        it: &mut Interp,
        parts: &[&[i64]],
        known: Game,
        left: bool,
    ) -> Result<Option<bool>> {
        self.search(it, parts, |r, s, m, p, small, ctl| {
            cg::outcome::wins(r, s, m, p, known, left, small, ctl)
        })
    }
    fn outcome(&self, it: &mut Interp, parts: &[&[i64]], known: Game) -> Result<Option<Outcome>> {
        self.search(it, parts, |r, s, m, p, small, ctl| {
            cg::outcome::outcome_of_sum(r, s, m, p, known, small, ctl)
        })
    }
}

impl<R: Rules<Error = crate::engine::Error>> Native<R> {
    /// The components in their normal forms, sorted: equal keys, equal games.
    fn key(&self, pos: &R::Pos) -> Option<Vec<u64>> {
        let parts = self.rules.try_borrow_mut().ok()?.components(pos);
        let mut parts: Vec<Vec<i64>> = parts.iter().map(self.encode).collect();
        parts.sort();
        let mut key = vec![];
        for p in parts {
            key.push(p.len() as u64);
            key.extend(p.iter().map(|&x| x as u64));
        }
        Some(key)
    }

    /// Runs `f` on the positions of a sum (components it values are kept in the ruleset's
    /// memo for later queries); `None` when the ruleset has no outcome search.
    fn search<T>(
        &self,
        it: &mut Interp,
        parts: &[&[i64]],
        f: impl FnOnce(
            &mut R,
            &mut cg::Store,
            &mut HashMap<R::Pos, Game, foldhash::fast::FixedState>,
            &[R::Pos],
            &cg::outcome::Small<R::Pos>,
            &crate::engine::Ctl,
        ) -> crate::engine::Result<T>,
    ) -> Result<Option<T>> {
        let Some(small) = &self.small else {
            return Ok(None);
        };
        let ctl = it.ctl.clone();
        let pos: Vec<R::Pos> = parts.iter().map(|s| (self.decode)(s)).collect();
        let s = store(it)?;
        let r = f(
            &mut self.rules.borrow_mut(),
            s,
            &mut self.memo.borrow_mut(),
            &pos,
            &**small,
            &ctl,
        )?;
        Ok(Some(r))
    }
}

/// How a ruleset's positions are read from and written as state integers.
type Codec<P> = (fn(&[i64]) -> P, fn(&P) -> Vec<i64>);

#[allow(clippy::too_many_arguments)]
fn native<R: Rules<Error = crate::engine::Error> + 'static>(
    it: &mut Interp,
    name: String,
    rules: R,
    start: &R::Pos,
    (decode, encode): Codec<R::Pos>,
    show: fn(&str, &[i64]) -> String,
    sketch: Option<fn(&[i64]) -> Sketch>,
    small: Option<Box<cg::outcome::Small<'static, R::Pos>>>,
) -> Result<Value>
where
    R::Pos: 'static,
{
    let state = encode(start);
    // one ruleset per name: its positions add up to sums the outcome search takes whole, and
    // the values it keeps serve later queries
    let rs = it.games.board(format!("partizan {name}"), || {
        let fam = Native {
            rules: RefCell::new(rules),
            memo: RefCell::default(),
            decode,
            encode,
            show,
            sketch,
            small,
        };
        Ok(Ruleset::new(name, Partizan(Box::new(fam))))
    })?;
    Ok(Value::Position(Rc::new(Position::single(rs, state.into()))))
}

/// A board as `[rows, cols, bits]`.
fn board_state(b: &Board) -> Vec<i64> {
    vec![b.rows as i64, b.cols as i64, b.bits as i64]
}

fn board_of(s: &[i64]) -> Board {
    Board {
        rows: s[0] as u8,
        cols: s[1] as u8,
        bits: s[2] as u64,
    }
}

fn board_text(s: &[i64]) -> String {
    let b = board_of(s);
    let (rows, cols) = (b.rows as usize, b.cols as usize);
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    if b.bits >> (r * cols + c) & 1 == 1 {
                        '.'
                    } else {
                        '#'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("|")
}

fn domineering(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 2)?;
    let b = if a.len() == 2 {
        Board::full(a.nonneg(0)? as usize, a.nonneg(1)? as usize)
            .map_err(|e| Error::from(e).at(a.span))
    } else {
        Board::parse(&a.str(0)?).map_err(|e| Error::from(e).at(a.span_of(0)))
    }?;
    native(
        it,
        "domineering".into(),
        Domineering,
        &b,
        (board_of, board_state),
        |_, s| {
            let b = board_of(s);
            if b.bits.count_ones() as i64 == s[0] * s[1] {
                format!("domineering({}, {})", s[0], s[1])
            } else {
                format!("domineering({:?})", board_text(s))
            }
        },
        Some(|s| Sketch::Grid {
            rows: s[0] as usize,
            cols: s[1] as usize,
            marks: sketch::DOMINEERING,
            cells: (0..s[0] * s[1])
                .map(|i| (s[2] >> i & 1 == 0) as u8)
                .collect(),
        }),
        Some(Box::new(cg::outcome::domineering_small(8))),
    )
}

fn clobber(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let b = Stones::parse(&a.str(0)?).map_err(|e| Error::from(e).at(a.span_of(0)))?;
    let encode = |b: &Stones| {
        let mut v = vec![b.rows as i64, b.cols as i64];
        v.extend((0..b.rows as usize * b.cols as usize).map(|i| b.cell(i) as i64));
        v
    };
    let decode = |s: &[i64]| {
        let cell = |k| {
            s[2..]
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c == k)
                .fold(0u64, |m, (i, _)| m | 1 << i)
        };
        Stones {
            rows: s[0] as u8,
            cols: s[1] as u8,
            black: cell(1),
            white: cell(2),
        }
    };
    native(
        it,
        "clobber".into(),
        Clobber,
        &b,
        (decode, encode),
        |_, s| {
            let cols = s[1].max(1) as usize;
            let rows: Vec<String> = s[2..]
                .chunks(cols)
                .map(|r| r.iter().map(|&c| ['.', 'x', 'o'][c as usize]).collect())
                .collect();
            format!("clobber({:?})", rows.join("|"))
        },
        Some(|s| Sketch::Grid {
            rows: s[0] as usize,
            cols: s[1] as usize,
            marks: sketch::CLOBBER,
            cells: s[2..].iter().map(|&c| c as u8).collect(),
        }),
        Some(Box::new(cg::outcome::clobber_small(7))),
    )
}

const COLOURS: [games::Colour; 3] = [
    games::Colour::Blue,
    games::Colour::Red,
    games::Colour::Green,
];

fn hackenbush(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let pic = match a.get(0) {
        Value::Str(s) => Picture::string(s).map_err(|e| Error::from(e).at(a.span_of(0)))?,
        v => {
            let mut edges = vec![];
            for e in it.items(v, a.span_of(0))? {
                let bad = || {
                    Error::runtime(
                        format!("a Hackenbush edge is [a, b, colour], not {}", e.to_text()),
                        a.span_of(0),
                    )
                    .hint("vertices are integers from 0 (the ground) to 63; colours \"B\", \"R\", \"G\"")
                };
                let Value::List(t) = &e else {
                    return Err(bad());
                };
                let (Some(Value::Int(x)), Some(Value::Int(y)), Some(Value::Str(c))) =
                    (t.first(), t.get(1), t.get(2))
                else {
                    return Err(bad());
                };
                if t.len() != 3 || !(0..64).contains(x) || !(0..64).contains(y) {
                    return Err(bad());
                }
                let colour = Picture::string(c)
                    .ok()
                    .filter(|p| p.edges.len() == 1)
                    .ok_or_else(bad)?
                    .edges[0]
                    .2;
                edges.push((*x as u32, *y as u32, colour));
            }
            Picture { edges }
        }
    };
    let encode = |p: &Picture| {
        p.edges
            .iter()
            .flat_map(|&(x, y, c)| {
                [
                    x as i64,
                    y as i64,
                    COLOURS.iter().position(|&k| k == c).unwrap() as i64,
                ]
            })
            .collect()
    };
    let decode = |s: &[i64]| Picture {
        edges: s
            .chunks(3)
            .map(|e| (e[0] as u32, e[1] as u32, COLOURS[e[2] as usize]))
            .collect(),
    };
    native(
        it,
        "hackenbush".into(),
        Hackenbush,
        &pic,
        (decode, encode),
        |_, s| {
            let stalk = s
                .chunks(3)
                .enumerate()
                .all(|(i, e)| e[0] == i as i64 && e[1] == i as i64 + 1);
            let colour = |c: i64| ["B", "R", "G"][c as usize];
            if stalk {
                let t: String = s.chunks(3).map(|e| colour(e[2])).collect();
                format!("hackenbush({t:?})")
            } else {
                let es: Vec<String> = s
                    .chunks(3)
                    .map(|e| format!("[{}, {}, {:?}]", e[0], e[1], colour(e[2])))
                    .collect();
                format!("hackenbush([{}])", es.join(", "))
            }
        },
        Some(|s| {
            Sketch::Hackenbush(
                s.chunks(3)
                    .map(|e| (e[0] as u32, e[1] as u32, COLOURS[e[2] as usize]))
                    .collect(),
            )
        }),
        None,
    )
}

fn toads_frogs(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(1, 1)?;
    let strip = ToadsAndFrogs::parse(&a.str(0)?).map_err(|e| Error::from(e).at(a.span_of(0)))?;
    native(
        it,
        "toads_frogs".into(),
        ToadsAndFrogs,
        &strip,
        (
            |s| s.iter().map(|&c| c as u8).collect(),
            |p| p.iter().map(|&c| c as i64).collect(),
        ),
        |_, s| {
            let t: String = s.iter().map(|&c| c as u8 as char).collect();
            format!("toads_frogs({t:?})")
        },
        Some(|s| Sketch::Grid {
            rows: 1,
            cols: s.len(),
            marks: sketch::TOADS_FROGS,
            cells: s
                .iter()
                .map(|&c| match c as u8 {
                    b'T' => 1,
                    b'F' => 2,
                    _ => 0,
                })
                .collect(),
        }),
        None,
    )
}

fn cake(it: &mut Interp, a: &mut Args, maundy: bool) -> Result<Value> {
    a.count(2, 2)?;
    let (w, h) = (a.nonneg(0)?, a.nonneg(1)?);
    let (w, h) = (w.min(u32::MAX as u64) as u32, h.min(u32::MAX as u64) as u32);
    let c = games::cake(w, h).map_err(|e| Error::from(e).at(a.span))?;
    let decode = |s: &[i64]| s.chunks(2).map(|c| (c[0] as u32, c[1] as u32)).collect();
    let encode = |c: &Vec<(u32, u32)>| c.iter().flat_map(|&(w, h)| [w as i64, h as i64]).collect();
    fn show(name: &str, s: &[i64]) -> String {
        let parts: Vec<String> = s
            .chunks(2)
            .map(|c| format!("{name}({}, {})", c[0], c[1]))
            .collect();
        parts.join(" + ")
    }
    let name = if maundy { "maundy_cake" } else { "cutcake" };
    native(
        it,
        name.into(),
        Cake { maundy },
        &c,
        (decode, encode),
        show,
        None,
        None,
    )
}

fn int_set(it: &Interp, a: &Args, i: usize) -> Result<Vec<u64>> {
    let mut out = vec![];
    for v in it.items(a.get(i), a.span_of(i))? {
        match v {
            Value::Int(k) if k >= 1 => out.push(k as u64),
            other => {
                return Err(Error::runtime(
                    format!(
                        "a subtraction set holds positive integers, not {}",
                        other.to_text()
                    ),
                    a.span_of(i),
                ));
            }
        }
    }
    Ok(out)
}

/// A heap ruleset of the subtraction game: `R(n)` is a heap of n.
struct HeapSides(Native<Subtraction>);

impl Sides for HeapSides {
    fn value(&self, it: &mut Interp, state: &[i64]) -> Result<Game> {
        self.0.value(it, state)
    }
    fn options(&self, it: &mut Interp, state: &[i64], side: Side) -> Result<Options> {
        self.0.options(it, state, side)
    }
    fn describe(&self, name: &str, state: &[i64]) -> String {
        self.0.describe(name, state)
    }
    fn arity(&self) -> Option<usize> {
        Some(1)
    }
    fn kept_bytes(&self) -> u64 {
        self.0.kept_bytes()
    }
    fn forget(&self) {
        self.0.forget()
    }
}

fn partizan_subtraction(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(2, 2)?;
    let name = match a.kw("name") {
        None => None,
        Some((Value::Str(s), _)) => Some(s.to_string()),
        Some((_, s)) => return Err(Error::runtime("`name:` is a string", s)),
    };
    a.no_more_kw()?;
    let (left, right) = (int_set(it, a, 0)?, int_set(it, a, 1)?);
    let name = name.unwrap_or_else(|| {
        let t = |v: &[u64]| {
            v.iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!("subtraction({{{}}} | {{{}}})", t(&left), t(&right))
    });
    let fam = HeapSides(Native {
        rules: RefCell::new(Subtraction { left, right }),
        memo: RefCell::default(),
        decode: |s| s[0] as u64,
        encode: |&n| vec![n as i64],
        show: crate::lang::run::game::plain,
        sketch: None,
        small: None,
    });
    Ok(Value::Ruleset(Rc::new(Ruleset::new(
        name,
        Partizan(Box::new(fam)),
    ))))
}

fn colouring(it: &mut Interp, a: &mut Args, snort: bool) -> Result<Value> {
    a.count(1, 1)?;
    let Value::Graph(g) = a.get(0) else {
        return Err(a.type_error(0, "a graph, e.g. graph { a - b - c }"));
    };
    let n = g.vertex_count();
    let rules = if snort {
        games::Placement::snort(n, &g.edges)
    } else {
        games::Placement::col(n, &g.edges)
    }
    .map_err(|e| Error::from(e).at(a.span_of(0)))?;
    let name = if snort { "snort" } else { "col" };
    placement_value(it, format!("{name}({g})"), rules, |name, s| {
        format!(
            "{name} with open sites {:#x} (Left), {:#x} (Right)",
            s[0], s[1]
        )
    })
}

/// A partizan placement game, its state the squares still open to Left and to Right.
fn placement_value(
    it: &mut Interp,
    name: String,
    rules: games::Placement,
    show: fn(&str, &[i64]) -> String,
) -> Result<Value> {
    let start = rules.start();
    native(
        it,
        name,
        rules,
        &start,
        (
            |s| (s[0] as u64, s[1] as u64),
            |&(l, r)| vec![l as i64, r as i64],
        ),
        show,
        None,
        None,
    )
}

fn pieces_game(it: &mut Interp, a: &mut Args) -> Result<Value> {
    a.count(4, 4)?;
    let (m, n) = (a.nonneg(0)? as usize, a.nonneg(1)? as usize);
    let (l, r) = (a.str(2)?, a.str(3)?);
    let rules = games::Placement::pieces(m.min(65), n.min(65), &l, &r)
        .map_err(|e| Error::from(e).at(a.span))?;
    placement_value(
        it,
        format!("pieces_game({m}, {n}, {l:?}, {r:?})"),
        rules,
        |name, s| {
            format!(
                "{name} with open squares {:#x} (Left), {:#x} (Right)",
                s[0], s[1]
            )
        },
    )
}
