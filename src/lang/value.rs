//! Runtime values, their text rendering (for people) and JSON rendering (for programs).
use crate::engine::group::{Board, GroupVal, PatternSpec};
use crate::lang::rules::{Position, Ruleset};
use crate::lang::syntax::ast::Lambda;
use indexmap::IndexMap;
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::fmt::Write;
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
    Str(Rc<str>),
    List(Rc<Vec<Value>>),
    Set(Rc<BTreeSet<Value>>),
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
}

pub struct Closure {
    pub name: Option<Rc<str>>,
    pub lambda: Rc<Lambda>,
    pub env: crate::lang::eval::Env,
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
        Value::List(Rc::new(v))
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
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Value::Unit | Value::None => 0,
            Value::Bool(_) => 1,
            Value::Int(_) | Value::Big(_) => 2,
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
        match self {
            Value::Unit | Value::None => out.push_str("none"),
            Value::Bool(b) => write!(out, "{b}").unwrap(),
            Value::Int(i) => out.push_str(&fmt_int(&i.to_string(), group)),
            Value::Big(b) => out.push_str(&big_text(b, group)),
            Value::Str(s) => out.push_str(s),
            Value::List(xs) => render_seq(out, "[", "]", xs.iter(), group),
            Value::Set(xs) => render_seq(out, "{", "}", xs.iter(), group),
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
            Value::Map(kv) => {
                out.push('{');
                for (i, (k, v)) in kv.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    k.render(out, group);
                    out.push_str(": ");
                    v.render(out, group);
                }
                out.push('}');
            }
            Value::Table(t) => out.push_str(&t.render()),
            Value::Func(c) => {
                write!(out, "<function {}>", c.name.as_deref().unwrap_or("fn")).unwrap()
            }
            Value::Builtin(n) => write!(out, "<builtin {n}>").unwrap(),
            Value::Ruleset(r) => write!(out, "<ruleset {}>", r.name()).unwrap(),
            Value::Position(p) => write!(out, "{p}").unwrap(),
            Value::Graph(g) => write!(out, "{g}").unwrap(),
            Value::Piece(p) => out.push_str(&crate::lang::builtins::placement::piece_name(p)),
        }
    }

    pub fn to_text(&self) -> String {
        let mut s = String::new();
        self.render(&mut s, false);
        s
    }

    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Value::Unit | Value::None => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::Big(b) if b.bits() > FULL_DIGITS_BITS => J::String(big_text(b, false)),
            Value::Big(b) => J::String(b.to_string()),
            Value::Str(s) => J::String(s.to_string()),
            Value::List(xs) => J::Array(xs.iter().map(|x| x.to_json()).collect()),
            Value::Set(xs) => J::Array(xs.iter().map(|x| x.to_json()).collect()),
            // a range is listed when short, otherwise given by its ends
            Value::Range(a, b) if (*b as i128 - *a as i128) < 100_000 => {
                J::Array((*a..=*b).map(J::from).collect())
            }
            Value::Range(a, b) => serde_json::json!({"from": a, "to": b}),
            Value::Record(r) => J::Object(
                r.fields
                    .iter()
                    .take(r.shown)
                    .map(|(k, v)| (k.to_string(), v.to_json()))
                    .collect(),
            ),
            Value::Map(kv) => {
                J::Object(kv.iter().map(|(k, v)| (k.to_text(), v.to_json())).collect())
            }
            Value::Table(t) => {
                let vals = t
                    .values
                    .iter()
                    .map(|row| {
                        J::Array(
                            row.iter()
                                .map(|v| v.as_ref().map_or(J::Null, |v| v.to_json()))
                                .collect(),
                        )
                    })
                    .collect();
                serde_json::json!({
                    "rows": t.rows.iter().map(|v| v.to_json()).collect::<Vec<_>>(),
                    "cols": t.cols.iter().map(|v| v.to_json()).collect::<Vec<_>>(),
                    "values": J::Array(vals),
                })
            }
            other => J::String(other.to_text()),
        }
    }
}

/// Integers with more bits than this are shown abbreviated: decimal conversion of the whole
/// number would take time that grows with the square of its length.
pub const FULL_DIGITS_BITS: u64 = 1 << 20;

/// An integer as text; a huge one as its leading and trailing digits and its length, found
/// in linear time.
fn big_text(b: &BigInt, group: bool) -> String {
    if b.bits() <= FULL_DIGITS_BITS {
        return fmt_int(&b.to_string(), group);
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
        crate::engine::control::num(digits)
    )
}

/// Integers in text output follow the one grouping rule of `engine::control::grouped`.
fn fmt_int(digits: &str, _group: bool) -> String {
    crate::engine::control::grouped(digits)
}

fn render_seq<'a>(
    out: &mut String,
    open: &str,
    close: &str,
    xs: impl Iterator<Item = &'a Value>,
    group: bool,
) {
    out.push_str(open);
    for (i, x) in xs.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if let Value::Str(s) = x {
            write!(out, "{s:?}").unwrap();
        } else if let Value::Ruleset(r) = x {
            out.push_str(r.name());
        } else if let Value::Record(r) = x {
            // inline inside a sequence: {name: value, ...}
            out.push('{');
            for (i, (k, v)) in r.fields.iter().take(r.shown).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write!(out, "{k}: ").unwrap();
                v.render(out, group);
            }
            out.push('}');
        } else {
            x.render(out, group);
        }
    }
    out.push_str(close);
}

impl Table {
    /// A grid: the header row ruled off below, the row labels ruled off on the right, every
    /// cell on one line (records inline, rulesets by name); empty cells for missing values.
    fn render(&self) -> String {
        let mut grid: Vec<Vec<String>> = vec![];
        let mut head = vec![String::new()];
        head.extend(self.cols.iter().map(cell_text));
        grid.push(head);
        for (r, row) in self.rows.iter().zip(&self.values) {
            let mut line = vec![cell_text(r)];
            line.extend(
                row.iter()
                    .map(|v| v.as_ref().map_or(String::new(), cell_text)),
            );
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
        out
    }
}

impl Value {
    /// An HTML rendering for notebooks, where the value has one beyond its text (tables).
    pub fn to_html(&self) -> Option<String> {
        let Value::Table(t) = self else { return None };
        let esc = |v: &Value| {
            cell_text(v)
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        };
        let mut out = String::from("<table>\n<thead><tr><th></th>");
        for c in &t.cols {
            out.push_str(&format!("<th>{}</th>", esc(c)));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for (r, row) in t.rows.iter().zip(&t.values) {
            out.push_str(&format!("<tr><th>{}</th>", esc(r)));
            for v in row {
                out.push_str(&format!(
                    "<td>{}</td>",
                    v.as_ref().map_or(String::new(), esc)
                ));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>");
        Some(out)
    }
}

/// A value on one line, as it appears inside a list (records inline, strings unquoted).
fn cell_text(v: &Value) -> String {
    match v {
        Value::Str(s) => s.replace('\n', " "),
        Value::Record(_) | Value::Ruleset(_) => {
            let mut s = String::new();
            render_seq(&mut s, "", "", std::iter::once(v), true);
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
/// lexicographically, other kinds by identity of their contents' text.
impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        use Value::*;
        match (self, other) {
            (Int(a), Int(b)) => a.cmp(b),
            (Int(_) | Big(_), Int(_) | Big(_)) => self.bigint().cmp(&other.bigint()),
            (Bool(a), Bool(b)) => a.cmp(b),
            (Str(a), Str(b)) => a.cmp(b),
            (List(a), List(b)) => a.iter().cmp(b.iter()),
            (Set(a), Set(b)) => a.iter().cmp(b.iter()),
            (Range(a, b), Range(c, d)) => (a, b).cmp(&(c, d)),
            (Perm(a), Perm(b)) => a.trimmed().cmp(&b.trimmed()),
            _ if self.rank() != other.rank() => self.rank().cmp(&other.rank()),
            _ => self.to_text().cmp(&other.to_text()),
        }
    }
}
