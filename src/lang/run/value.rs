//! Runtime values, their text rendering (for people) and JSON rendering (for programs).
use crate::engine::group::{Board, GroupVal, PatternSpec};
use crate::lang::run::rules::{Position, Ruleset};
use crate::lang::syntax::ast::Lambda;
use indexmap::IndexMap;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::fmt::Write;
use std::iter::once;
use std::rc::Rc;

use crate::engine::graph::Graph;
use crate::engine::group::perm::Perm;
use crate::engine::placement::Piece;

#[derive(Clone)]
pub enum Value {
    /// what a statement-like call (print, export) returns: never printed
    Unit,
    /// `none`: a missing answer (prints `none`, JSON `null`)
    None,
    Bool(bool),
    /// Integers that fit in i64 are always stored here; `Big` only holds larger ones.
    Int(i64),
    Big(Rc<BigInt>),
    /// An exact fraction in lowest terms whose denominator is not 1 (`7/2`): what `/` gives
    /// when it does not divide. Integers are never stored here.
    Rat(Rc<BigRational>),
    Str(Rc<str>),
    List(Rc<Elems<Vec<Value>>>),
    Set(Rc<Elems<BTreeSet<Value>>>),
    /// inclusive range
    Range(i64, i64),
    Perm(Rc<Perm>),
    Group(Rc<GroupVal>),
    Board(Rc<Board>),
    Patterns(Rc<PatternSpec>),
    Record(Rc<Record>),
    /// map printed as `{k: v}` in text and as an object with string keys in JSON
    Map(Rc<Vec<(Value, Value)>>),
    Table(Rc<Table>),
    Func(Rc<Closure>),
    Builtin(&'static str),
    Ruleset(Rc<Ruleset>),
    Position(Rc<Position>),
    Graph(Rc<Graph>),
    Piece(Rc<Piece>),
    /// a partizan game in canonical form (printed in CGSuite's notation)
    Game(Rc<crate::lang::run::cgt::GameVal>),
    /// a drawing (`export(x)`, `plot(data)`): shown inline in notebooks, saved by `export`
    Picture(Rc<Picture>),
}

/// A drawing: what it shows, in one line, and how to write it in each of its formats.
pub struct Picture {
    pub title: String,
    /// file extensions it can be saved as; notebooks show it in the first
    pub formats: &'static [&'static str],
    /// writes the picture to a file, in the format its extension names (one of `formats`)
    pub draw: Draw,
}

/// What Graphviz pictures save as: rendered through Graphviz, or its DOT text.
pub const GRAPH_FORMATS: &[&str] = &["svg", "png", "dot"];
/// What charts drawn by gamut itself save as.
pub const DRAWN_FORMATS: &[&str] = &["svg", "png"];

/// A file name's extension in lower case ("" without one): the format a picture is saved in.
pub fn extension(path: &str) -> String {
    std::path::Path::new(path)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// Draws a picture to the file named.
pub type Draw = Box<dyn Fn(&str) -> Result<(), String>>;

impl Picture {
    /// The formats as ".svg, .png or .dot".
    pub fn format_list(&self) -> String {
        let exts: Vec<String> = self.formats.iter().map(|f| format!(".{f}")).collect();
        match exts.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => exts.join(""),
        }
    }

    /// The picture in format `ext`, for notebooks. Every renderer writes files (Graphviz and
    /// plotters alike), so it is drawn to a private temporary file and read back.
    pub fn bytes(&self, ext: &str) -> Result<Vec<u8>, String> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("gamut-picture-{}-{n}.{ext}", std::process::id()));
        let path = path.to_string_lossy().into_owned();
        let drawn = (self.draw)(&path)
            .and_then(|()| std::fs::read(&path).map_err(|e| format!("cannot read {path}: {e}")));
        let _ = std::fs::remove_file(&path);
        drawn
    }
}

/// The elements of a list or a set. Values may nest a million deep (a list in a list in ...),
/// so dropping them unlinks the nesting with an explicit stack instead of recursing.
#[derive(Clone, Default)]
pub struct Elems<T: Default + IntoIterator<Item = Value>>(pub T);

impl<T: Default + IntoIterator<Item = Value>> std::ops::Deref for Elems<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Default + IntoIterator<Item = Value> + FromIterator<Value>> FromIterator<Value>
    for Elems<T>
{
    fn from_iter<I: IntoIterator<Item = Value>>(it: I) -> Self {
        Elems(it.into_iter().collect())
    }
}

impl<T: Default + IntoIterator<Item = Value>> Drop for Elems<T> {
    fn drop(&mut self) {
        let mut deep = vec![];
        unlink(std::mem::take(&mut self.0), &mut deep);
        while let Some(v) = deep.pop() {
            match v {
                Value::List(xs) => {
                    if let Ok(mut xs) = Rc::try_unwrap(xs) {
                        unlink(std::mem::take(&mut xs.0), &mut deep);
                    }
                }
                Value::Set(xs) => {
                    if let Ok(mut xs) = Rc::try_unwrap(xs) {
                        unlink(std::mem::take(&mut xs.0), &mut deep);
                    }
                }
                _ => {}
            }
        }
    }
}

/// Drops the values that hold no list or set of their own and keeps the others in `deep`
/// (the last holder of a list drops it, and that must not recurse).
fn unlink(items: impl IntoIterator<Item = Value>, deep: &mut Vec<Value>) {
    for v in items {
        match &v {
            Value::List(xs) if Rc::strong_count(xs) == 1 && !xs.is_empty() => deep.push(v),
            Value::Set(xs) if Rc::strong_count(xs) == 1 && !xs.is_empty() => deep.push(v),
            _ => {}
        }
    }
}

pub struct Closure {
    pub name: Option<Rc<str>>,
    pub lambda: Rc<Lambda>,
    pub env: crate::lang::run::eval::Env,
}

#[derive(Clone)]
pub struct Record {
    pub fields: IndexMap<&'static str, Value>,
    /// only the first `shown` fields are printed; the rest are read on request (`r.elements`)
    pub shown: usize,
}

pub struct Table {
    pub rows: Vec<Value>,
    pub cols: Vec<Value>,
    pub values: Vec<Vec<Option<Value>>>,
}

impl Value {
    pub fn int(b: BigInt) -> Value {
        match b.to_i64() {
            Some(i) => Value::Int(i),
            None => Value::Big(Rc::new(b)),
        }
    }

    pub fn from_u128(x: u128) -> Value {
        Value::int(BigInt::from(x))
    }

    /// A fraction as a value: an integer when its denominator is 1.
    pub fn ratio(r: BigRational) -> Value {
        if r.is_integer() {
            Value::int(r.to_integer())
        } else {
            Value::Rat(Rc::new(r))
        }
    }

    /// An integer or a fraction as a fraction.
    pub fn rational(&self) -> Option<BigRational> {
        match self {
            Value::Rat(r) => Some((**r).clone()),
            _ => self.bigint().map(BigRational::from_integer),
        }
    }

    pub fn bigint(&self) -> Option<BigInt> {
        match self {
            Value::Int(i) => Some(BigInt::from(*i)),
            Value::Big(b) => Some((**b).clone()),
            _ => None,
        }
    }

    pub fn str(s: &str) -> Value {
        Value::Str(s.into())
    }

    pub fn list(v: Vec<Value>) -> Value {
        Value::List(Rc::new(Elems(v)))
    }

    // values order by their contents, which the interior mutability of a group never changes
    #[allow(clippy::mutable_key_type)]
    pub fn set(v: BTreeSet<Value>) -> Value {
        Value::Set(Rc::new(Elems(v)))
    }

    pub fn record(fields: Vec<(&'static str, Value)>) -> Value {
        let shown = fields.len();
        Value::Record(Rc::new(Record {
            fields: fields.into_iter().collect(),
            shown,
        }))
    }

    /// A record whose last fields are not printed unless asked for.
    pub fn record_with_hidden(
        fields: Vec<(&'static str, Value)>,
        hidden: Vec<(&'static str, Value)>,
    ) -> Value {
        let shown = fields.len();
        Value::Record(Rc::new(Record {
            fields: fields.into_iter().chain(hidden).collect(),
            shown,
        }))
    }

    /// Elements this value holds below it (a list's length, ...): what a list of it costs.
    pub fn weight(&self) -> u64 {
        match self {
            Value::List(xs) => xs.len() as u64,
            Value::Set(xs) => xs.len() as u64,
            Value::Str(s) => s.len() as u64 / 16,
            Value::Big(b) => b.bits() / 256,
            Value::Rat(r) => (r.numer().bits() + r.denom().bits()) / 256,
            _ => 0,
        }
    }

    /// The type with its article: "an integer", "a list".
    pub fn a_type(&self) -> String {
        let t = self.type_name();
        if t == "none" || t == "nothing" {
            return t.to_string();
        }
        let an = t.starts_with(['a', 'e', 'i', 'o', 'u']);
        format!("{} {t}", if an { "an" } else { "a" })
    }

    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Unit => "nothing",
            Value::None => "none",
            Value::Bool(_) => "boolean",
            Value::Int(_) | Value::Big(_) => "integer",
            Value::Rat(_) => "fraction",
            Value::Str(_) => "string",
            Value::List(_) => "list",
            Value::Set(_) => "set",
            Value::Range(..) => "range",
            Value::Perm(_) => "permutation",
            Value::Group(_) => "group",
            Value::Board(_) => "board",
            Value::Patterns(_) => "pattern family",
            Value::Record(_) => "record",
            Value::Map(_) => "map",
            Value::Table(_) => "table",
            Value::Func(_) | Value::Builtin(_) => "function",
            Value::Ruleset(_) => "ruleset",
            Value::Position(p) => p
                .comps
                .first()
                .map_or("position", |c| c.rs.family.type_name()),
            Value::Graph(_) => "graph",
            Value::Piece(_) => "piece",
            Value::Game(_) => "game",
            Value::Picture(_) => "picture",
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Value::Unit | Value::None => 0,
            Value::Bool(_) => 1,
            Value::Int(_) | Value::Big(_) | Value::Rat(_) => 2,
            Value::Str(_) => 3,
            Value::List(_) => 4,
            Value::Set(_) => 5,
            Value::Range(..) => 6,
            Value::Perm(_) => 7,
            _ => 8,
        }
    }

    /// Text rendering. `group` inserts thousands separators (used inside records and tables).
    pub fn render(&self, out: &mut String, group: bool) {
        self.render_text(out, group, false);
    }

    /// `render`; `elem`: as an element of a list (strings quoted, records inline).
    fn render_text(&self, out: &mut String, group: bool, elem: bool) {
        walk(self, elem, out, |v, elem, out| {
            match v {
                Value::List(xs) => return Some(seq("[", xs.iter(), ", ", "]")),
                Value::Set(xs) => return Some(seq("{", xs.iter(), ", ", "}")),
                Value::Map(kv) => {
                    return Some(entries(
                        kv.iter().map(|(k, v)| (Part::Val(k, false), v)),
                        ": ",
                        ", ",
                    ));
                }
                // inside a list: strings quoted, rulesets by name, records inline
                Value::Str(s) if elem => write!(out, "{s:?}").unwrap(),
                Value::Ruleset(r) if elem => out.push_str(r.name()),
                Value::Record(r) if elem => {
                    return Some(entries(
                        r.fields
                            .iter()
                            .take(r.shown)
                            .map(|(k, v)| (Part::Text((*k).into()), v)),
                        ": ",
                        ", ",
                    ));
                }
                _ => v.render_one(out, group),
            }
            None
        });
    }

    /// The text of a value that is not a list, a set or a map.
    fn render_one(&self, out: &mut String, group: bool) {
        match self {
            Value::Unit | Value::None => out.push_str("none"),
            Value::Bool(b) => write!(out, "{b}").unwrap(),
            Value::Int(i) => out.push_str(&fmt_int(&i.to_string(), group)),
            Value::Big(b) => out.push_str(&big_digits(b, |d| fmt_int(d, group))),
            Value::Rat(r) => {
                out.push_str(&big_digits(r.numer(), |d| fmt_int(d, group)));
                out.push('/');
                out.push_str(&big_digits(r.denom(), |d| fmt_int(d, group)));
            }
            Value::Str(s) => out.push_str(s),
            Value::Range(a, b) => write!(
                out,
                "{}..{}",
                fmt_int(&a.to_string(), group),
                fmt_int(&b.to_string(), group)
            )
            .unwrap(),
            Value::Perm(p) => write!(out, "{p}").unwrap(),
            Value::Group(g) => write!(out, "{g}").unwrap(),
            Value::Board(b) => write!(out, "{b}").unwrap(),
            Value::Patterns(p) => write!(out, "{p}").unwrap(),
            Value::Record(r) => {
                for (i, (k, v)) in r.fields.iter().take(r.shown).enumerate() {
                    if i > 0 {
                        out.push('\n');
                    }
                    write!(out, "{k}: ").unwrap();
                    let mut s = String::new();
                    v.render(&mut s, true);
                    // nested records are indented under their field name
                    if let Value::Record(_) = v {
                        out.push('\n');
                        for line in s.lines() {
                            writeln!(out, "  {line}").unwrap();
                        }
                        out.pop();
                    } else {
                        out.push_str(&s);
                    }
                }
            }
            Value::Table(t) => out.push_str(&t.render()),
            Value::Func(c) => {
                write!(out, "<function {}>", c.name.as_deref().unwrap_or("fn")).unwrap()
            }
            Value::Builtin(n) => write!(out, "<builtin {n}>").unwrap(),
            Value::Ruleset(r) => write!(out, "<ruleset {}>", r.name()).unwrap(),
            Value::Position(p) => write!(out, "{p}").unwrap(),
            Value::Graph(g) => write!(out, "{g}").unwrap(),
            Value::Piece(p) => out.push_str(&p.name()),
            Value::Game(g) => out.push_str(&g.text),
            Value::Picture(p) => write!(
                out,
                "<picture: {}; export(p, \"file.{}\") saves it as {}>",
                p.title,
                p.formats[0],
                p.format_list()
            )
            .unwrap(),
            Value::List(_) | Value::Set(_) | Value::Map(_) => self.render(out, group),
        }
    }

    pub fn to_text(&self) -> String {
        let mut s = String::new();
        self.render(&mut s, false);
        s
    }

    /// The text, with a string quoted as in a list: how the value is written in a call.
    pub fn source_text(&self) -> String {
        match self {
            Value::Str(s) => format!("{s:?}"),
            v => v.to_text(),
        }
    }

    /// The value as one line of JSON (section 7 of the language contract).
    pub fn json_text(&self) -> String {
        let mut out = String::new();
        walk(self, false, &mut out, |v, _, out| {
            match v {
                Value::List(xs) => return Some(seq("[", xs.iter(), ",", "]")),
                Value::Set(xs) => return Some(seq("[", xs.iter(), ",", "]")),
                Value::Record(r) => {
                    return Some(entries(
                        r.fields
                            .iter()
                            .take(r.shown)
                            .map(|(k, v)| (Part::Text(json_str(k).into()), v)),
                        ":",
                        ",",
                    ));
                }
                // keys as JSON writes them (plain digits), not as text for people
                Value::Map(kv) => {
                    return Some(entries(
                        kv.iter().map(|(k, v)| {
                            // a key that JSON writes as a string is that string, once escaped
                            let t = k.json_text();
                            let key = serde_json::from_str::<String>(&t).unwrap_or(t);
                            (Part::Text(json_str(&key).into()), v)
                        }),
                        ":",
                        ",",
                    ));
                }
                Value::Table(t) => {
                    let labels = |xs: &[Value]| Value::list(xs.to_vec()).json_text();
                    let head = format!(
                        "{{\"rows\":{},\"cols\":{},\"values\":[",
                        labels(&t.rows),
                        labels(&t.cols)
                    );
                    let rows = t.values.iter().enumerate().flat_map(|(i, row)| {
                        let open = if i == 0 { "[" } else { ",[" };
                        let cells = row.iter().enumerate().flat_map(|(j, c)| {
                            let sep = (j > 0).then_some(Part::Text(",".into()));
                            let cell = match c {
                                Some(c) => Part::Val(c, false),
                                None => Part::Text("null".into()),
                            };
                            sep.into_iter().chain(once(cell))
                        });
                        once(Part::Text(open.into()))
                            .chain(cells)
                            .chain(once(Part::Text("]".into())))
                    });
                    return Some(Box::new(
                        once(Part::Text(head.into()))
                            .chain(rows)
                            .chain(once(Part::Text("]}".into()))),
                    ));
                }
                Value::Unit | Value::None => out.push_str("null"),
                Value::Bool(b) => write!(out, "{b}").unwrap(),
                Value::Int(i) => write!(out, "{i}").unwrap(),
                Value::Big(b) => out.push_str(&json_str(&big_digits(b, str::to_string))),
                Value::Rat(r) => out.push_str(&json_str(&format!(
                    "{}/{}",
                    big_digits(r.numer(), str::to_string),
                    big_digits(r.denom(), str::to_string)
                ))),
                Value::Str(s) => out.push_str(&json_str(s)),
                // a range is listed when short, otherwise given by its ends
                Value::Range(a, b) if (*b as i128 - *a as i128) < 100_000 => {
                    out.push('[');
                    for i in *a..=*b {
                        if i > *a {
                            out.push(',');
                        }
                        write!(out, "{i}").unwrap();
                    }
                    out.push(']');
                }
                Value::Range(a, b) => write!(out, "{{\"from\":{a},\"to\":{b}}}").unwrap(),
                Value::Picture(p) => {
                    let formats: Vec<String> = p.formats.iter().map(|f| json_str(f)).collect();
                    write!(
                        out,
                        "{{\"picture\":{},\"formats\":[{}]}}",
                        json_str(&p.title),
                        formats.join(",")
                    )
                    .unwrap()
                }
                other => out.push_str(&json_str(&other.to_text())),
            }
            None
        });
        out
    }

    /// The JSON of `json_text` as a serde value (for tests and tools); a value nested deeper
    /// than serde_json reads (128 levels) comes back as its JSON text in a string.
    pub fn to_json(&self) -> serde_json::Value {
        let text = self.json_text();
        serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))
    }
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string is always JSON")
}

/// What a container still has to write, in order: text, and values (`true`: an element of a
/// list or a set).
enum Part<'a> {
    Text(std::borrow::Cow<'a, str>),
    Val(&'a Value, bool),
}

type Frame<'a> = Box<dyn Iterator<Item = Part<'a>> + 'a>;

/// Writes `root` with an explicit stack of open containers, as values may nest a million
/// deep. `open` writes a value that holds no others (returning None) or returns the pieces
/// of a container (`elem`: the value is an element of a list or set).
fn walk<'a>(
    root: &'a Value,
    root_elem: bool,
    out: &mut String,
    mut open: impl FnMut(&'a Value, bool, &mut String) -> Option<Frame<'a>>,
) {
    let mut stack: Vec<Frame<'a>> = vec![];
    let mut next = Some(Part::Val(root, root_elem));
    loop {
        match next {
            Some(Part::Text(t)) => out.push_str(&t),
            Some(Part::Val(v, elem)) => stack.extend(open(v, elem, out)),
            None => {}
        }
        let Some(top) = stack.last_mut() else { break };
        next = top.next();
        if next.is_none() {
            stack.pop();
        }
    }
}

/// The pieces of a sequence: `open`, the elements separated by `sep`, `close`.
fn seq<'a>(
    open: &'static str,
    xs: impl Iterator<Item = &'a Value> + 'a,
    sep: &'static str,
    close: &'static str,
) -> Frame<'a> {
    let items = xs.enumerate().flat_map(move |(i, x)| {
        let sep = (i > 0).then_some(Part::Text(sep.into()));
        sep.into_iter().chain(once(Part::Val(x, true)))
    });
    Box::new(
        once(Part::Text(open.into()))
            .chain(items)
            .chain(once(Part::Text(close.into()))),
    )
}

/// The pieces of `{key: value, ...}` entries, the colon and separator given.
fn entries<'a>(
    kv: impl Iterator<Item = (Part<'a>, &'a Value)> + 'a,
    colon: &'static str,
    sep: &'static str,
) -> Frame<'a> {
    let items = kv.enumerate().flat_map(move |(i, (k, v))| {
        let sep = (i > 0).then_some(Part::Text(sep.into()));
        sep.into_iter()
            .chain([k, Part::Text(colon.into()), Part::Val(v, false)])
    });
    Box::new(
        once(Part::Text("{".into()))
            .chain(items)
            .chain(once(Part::Text("}".into()))),
    )
}

/// Integers with more bits than this are shown abbreviated: decimal conversion of the whole
/// number would take time that grows with the square of its length.
pub const FULL_DIGITS_BITS: u64 = 1 << 20;

/// An integer's digits, written by `fmt`; a huge one as its leading and trailing digits and
/// its length (also written by `fmt`), found in linear time.
fn big_digits(b: &BigInt, fmt: impl Fn(&str) -> String) -> String {
    if b.bits() <= FULL_DIGITS_BITS {
        return fmt(&b.to_string());
    }
    use num_traits::Signed;
    let mag = b.abs();
    let bits = mag.bits();
    let top = (&mag >> (bits - 64)).to_u64().unwrap_or(u64::MAX);
    let log10 = (top as f64).log10() + (bits - 64) as f64 * std::f64::consts::LOG10_2;
    let digits = log10.floor() as u64 + 1;
    let lead = 10f64.powf(log10 - log10.floor() + 14.0) as u64;
    let tail = (&mag % BigInt::from(10u64.pow(15))).to_u64().unwrap_or(0);
    format!(
        "{}{lead}…{tail:015} (an integer of about {} digits)",
        if b.sign() == num_bigint::Sign::Minus {
            "-"
        } else {
            ""
        },
        fmt(&digits.to_string())
    )
}

/// Integers in text output follow the one grouping rule of `engine::control::grouped`.
fn fmt_int(digits: &str, _group: bool) -> String {
    crate::engine::control::grouped(digits)
}

/// The widest a table cell prints as text; a longer one is cut and ends in `…`.
pub const TABLE_CELL: usize = 40;

impl Table {
    /// A grid: the header row ruled off below, the row labels ruled off on the right, every
    /// cell on one line (records inline, rulesets by name); empty cells for missing values.
    /// A value longer than [`TABLE_CELL`] is cut, so that one large value (a canonical form)
    /// does not widen its whole column, and a line under the table says which cells are cut.
    fn render(&self) -> String {
        let mut grid: Vec<Vec<String>> = vec![];
        let mut head = vec![String::new()];
        head.extend(self.cols.iter().map(cell_text));
        grid.push(head);
        // how many cells are cut, and the first few by row and column
        const NAMED: usize = 3;
        let (mut cut, mut named) = (0usize, vec![]);
        for (r, row) in self.rows.iter().zip(&self.values) {
            let mut line = vec![cell_text(r)];
            for (c, v) in self.cols.iter().zip(row) {
                let mut text = v.as_ref().map_or(String::new(), table_cell);
                if let Some((i, _)) = text.char_indices().nth(TABLE_CELL) {
                    let keep = text[..i].char_indices().last().map_or(0, |(j, _)| j);
                    text.truncate(keep);
                    text.push('…');
                    cut += 1;
                    if named.len() < NAMED {
                        named.push(format!("row {}, column {}", cell_text(r), cell_text(c)));
                    }
                }
                line.push(text);
            }
            grid.push(line);
        }
        let ncol = grid[0].len();
        let widths: Vec<usize> = (0..ncol)
            .map(|c| grid.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for (i, row) in grid.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let label = format!("{:>w$}", row[0], w = widths[0]);
            let cells: Vec<String> = row[1..]
                .iter()
                .zip(&widths[1..])
                .map(|(s, w)| format!("{s:>w$}"))
                .collect();
            out.push_str(format!("{label} | {}", cells.join(" ")).trim_end());
            if i == 0 {
                let rest: usize = widths[1..].iter().map(|w| w + 1).sum::<usize>();
                out.push('\n');
                out.push_str(&"-".repeat(widths[0] + 1));
                out.push('+');
                out.push_str(&"-".repeat(rest.max(1)));
            }
        }
        if cut > 0 {
            let more = match cut - named.len() {
                0 => String::new(),
                k => format!("; and {} more", fmt_int(&k.to_string(), true)),
            };
            write!(
                out,
                "\n(… cuts {} cell{} at {TABLE_CELL} characters: {}{more}; --json prints every cell whole)",
                fmt_int(&cut.to_string(), true),
                if cut == 1 { "" } else { "s" },
                named.join("; ")
            )
            .unwrap();
        }
        out
    }
}

/// Lists longer than this, or lists of lists with more cells than `HTML_CELLS`, have no HTML
/// form in notebooks (their text is shown).
const HTML_ROWS: usize = 1000;
const HTML_CELLS: usize = 20_000;

/// The rows of an HTML table: a label (a header cell) if any, and the cells.
type HtmlRows = Vec<(Option<String>, Vec<String>)>;

impl Value {
    /// An HTML table for notebooks, where the value reads better as one: a table; a record or
    /// a map (a row per field); a list of records with the same fields (a row per record, a
    /// column per field); a list of lists (a grid).
    pub fn to_html(&self) -> Option<String> {
        let cell = |v: Option<&Value>| {
            v.map_or(String::new(), |v| {
                cell_text(v)
                    .replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;")
            })
        };
        let (head, rows): (Option<Vec<String>>, HtmlRows) = match self {
            Value::Table(t) => (
                Some(t.cols.iter().map(|c| cell(Some(c))).collect()),
                t.rows
                    .iter()
                    .zip(&t.values)
                    .map(|(r, row)| {
                        (
                            Some(cell(Some(r))),
                            row.iter()
                                .map(|c| match c {
                                    Some(Value::None) => ".".into(),
                                    c => cell(c.as_ref()),
                                })
                                .collect(),
                        )
                    })
                    .collect(),
            ),
            Value::Record(r) => (
                None,
                r.fields
                    .iter()
                    .take(r.shown)
                    .map(|(k, v)| (Some(k.to_string()), vec![cell(Some(v))]))
                    .collect(),
            ),
            Value::Map(kv) if kv.len() <= HTML_ROWS => (
                None,
                kv.iter()
                    .map(|(k, v)| (Some(cell(Some(k))), vec![cell(Some(v))]))
                    .collect(),
            ),
            Value::List(xs) if !xs.is_empty() && xs.len() <= HTML_ROWS => match &xs[0] {
                Value::Record(first) => {
                    let keys: Vec<&str> = first.fields.keys().take(first.shown).copied().collect();
                    let mut rows = vec![];
                    for x in xs.iter() {
                        let Value::Record(r) = x else { return None };
                        if !r
                            .fields
                            .keys()
                            .take(r.shown)
                            .copied()
                            .eq(keys.iter().copied())
                        {
                            return None;
                        }
                        rows.push((
                            None,
                            r.fields
                                .values()
                                .take(r.shown)
                                .map(|v| cell(Some(v)))
                                .collect(),
                        ));
                    }
                    (Some(keys.iter().map(|k| k.to_string()).collect()), rows)
                }
                Value::List(_) => {
                    let mut rows = vec![];
                    let mut cells = 0;
                    for x in xs.iter() {
                        let Value::List(row) = x else { return None };
                        cells += row.len();
                        if cells > HTML_CELLS {
                            return None;
                        }
                        rows.push((None, row.iter().map(|v| cell(Some(v))).collect()));
                    }
                    (None, rows)
                }
                _ => return None,
            },
            _ => return None,
        };
        let labelled = rows.iter().any(|(label, _)| label.is_some());
        let mut out = String::from("<table>\n");
        if let Some(head) = head {
            out.push_str("<thead><tr>");
            if labelled {
                out.push_str("<th></th>");
            }
            for h in head {
                write!(out, "<th>{h}</th>").unwrap();
            }
            out.push_str("</tr></thead>\n");
        }
        out.push_str("<tbody>\n");
        for (label, cells) in rows {
            out.push_str("<tr>");
            if let Some(l) = label {
                write!(out, "<th>{l}</th>").unwrap();
            }
            for c in cells {
                write!(out, "<td>{c}</td>").unwrap();
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>");
        Some(out)
    }
}

/// A value on one line, as it appears inside a list (records inline, strings unquoted).
/// A table's cell: none is `.` (a failed cell is left empty).
fn table_cell(v: &Value) -> String {
    match v {
        Value::None => ".".into(),
        v => cell_text(v),
    }
}

fn cell_text(v: &Value) -> String {
    match v {
        Value::Str(s) => s.replace('\n', " "),
        Value::Record(_) | Value::Ruleset(_) => {
            let mut s = String::new();
            v.render_text(&mut s, true, true);
            s
        }
        _ => v.to_text().replace('\n', " / "),
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Value {}
impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A total order so that values can live in sets: integers numerically, sequences
/// lexicographically, other kinds by identity of their contents' text. Nested lists and sets
/// are compared with an explicit stack (values may nest a million deep).
impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        let mut stack: Vec<(Elements, Elements)> = vec![];
        let (mut a, mut b) = (self, other);
        loop {
            match (a, b) {
                (Value::List(x), Value::List(y)) => {
                    stack.push((Elements::List(x.iter()), Elements::List(y.iter())))
                }
                (Value::Set(x), Value::Set(y)) => {
                    stack.push((Elements::Set(x.iter()), Elements::Set(y.iter())))
                }
                _ => match a.cmp_one(b) {
                    Ordering::Equal => {}
                    o => return o,
                },
            }
            // the next pair of elements, from the innermost sequences not yet ended
            loop {
                let Some((x, y)) = stack.last_mut() else {
                    return Ordering::Equal;
                };
                match (x.next(), y.next()) {
                    (Some(p), Some(q)) => {
                        (a, b) = (p, q);
                        break;
                    }
                    (None, None) => {
                        stack.pop();
                    }
                    (None, Some(_)) => return Ordering::Less,
                    (Some(_), None) => return Ordering::Greater,
                }
            }
        }
    }
}

/// The elements of a list or a set, in order.
enum Elements<'a> {
    List(std::slice::Iter<'a, Value>),
    Set(std::collections::btree_set::Iter<'a, Value>),
}

impl<'a> Iterator for Elements<'a> {
    type Item = &'a Value;
    fn next(&mut self) -> Option<&'a Value> {
        match self {
            Elements::List(it) => it.next(),
            Elements::Set(it) => it.next(),
        }
    }
}

impl Value {
    /// The order of two values that are not both lists or both sets.
    fn cmp_one(&self, other: &Self) -> Ordering {
        use Value::*;
        match (self, other) {
            (Int(a), Int(b)) => a.cmp(b),
            (Int(_) | Big(_), Int(_) | Big(_)) => self.bigint().cmp(&other.bigint()),
            (Int(_) | Big(_) | Rat(_), Int(_) | Big(_) | Rat(_)) => {
                self.rational().cmp(&other.rational())
            }
            (Bool(a), Bool(b)) => a.cmp(b),
            (Str(a), Str(b)) => a.cmp(b),
            (Range(a, b), Range(c, d)) => (a, b).cmp(&(c, d)),
            (Perm(a), Perm(b)) => a.trimmed().cmp(&b.trimmed()),
            _ if self.rank() != other.rank() => self.rank().cmp(&other.rank()),
            _ => self.to_text().cmp(&other.to_text()),
        }
    }
}
