//! CGSuite's notation: printing canonical forms as CGSuite prints them (plain text, with `±`),
//! and reading them back.
//!
//! Printing follows CGSuite's rules: numbers `3`, `-3/4`; uptimals `x + a1·↑ + a2·↑² + … + *m`
//! as `x^n*m` when only ↑ occurs (`^`, `^^`, `^3`, `v`, `vv`, `v3`, `*`, `*3`, `1/2^*`), `^<n>`
//! for a lone ↑ⁿ and `^[n]` for ↑ + ↑² + … + ↑ⁿ (and `v<n>`, `v[n]`); a switch G = −G as `±` and
//! its Left option(s) (`±1`, `±(1*)`, `±{2,*}`); x + {0 || 0 | −s} as `xTiny(s)` (and `Miny`:
//! `Tiny(2)`, `2Tiny(2)`, `Miny({5||3|1})`); other games as `{L|R}` where a lone option that is
//! itself a braced game drops its braces and the bar grows instead: `{2|1/2||-1}`, up to four
//! bars. Options are listed in CGSuite's order: numbers, nimbers, uptimals (by their expansion),
//! then the rest by their own options.
use super::dyadic::Dyadic;
use super::store::{Game, Map, Nus, Store};
use crate::engine::{Error, Result};
use std::cmp::Ordering;

const MAX_SLASHES: usize = 4;

/// An uptimal `number + Σ coeffs[i-1]·↑^i + *nim` (↑^i the i-th up power, ↑¹ = ↑), its last
/// coefficient nonzero (Conway and Norton's uptimal notation, as in Siegel, *Combinatorial Game
/// Theory*, ch. II.7).
#[derive(Clone, PartialEq, Eq, Debug)]
struct Uptimal {
    number: Dyadic,
    coeffs: Vec<i64>,
    nim: u32,
}

impl Uptimal {
    fn from_nus(v: Nus) -> Uptimal {
        Uptimal {
            number: v.number,
            coeffs: if v.ups == 0 { vec![] } else { vec![v.ups] },
            nim: v.nim,
        }
    }

    fn neg(&self) -> Result<Uptimal> {
        Ok(Uptimal {
            number: self.number.neg()?,
            coeffs: self.coeffs.iter().map(|c| -c).collect(),
            nim: self.nim,
        })
    }

    /// Plus ↑ + ↑² + … + ↑ⁿ + *.
    fn plus_unit_sum_star(&self, n: usize) -> Uptimal {
        let mut coeffs = self.coeffs.clone();
        coeffs.resize(coeffs.len().max(n), 0);
        for c in &mut coeffs[..n] {
            *c += 1;
        }
        while coeffs.last() == Some(&0) {
            coeffs.pop();
        }
        Uptimal {
            number: self.number,
            coeffs,
            nim: self.nim ^ 1,
        }
    }

    /// `Some((n, sign, true))` for ±↑ⁿ alone, `Some((n, sign, false))` for ±(↑ + … + ↑ⁿ).
    fn unit(&self) -> Option<(usize, i64, bool)> {
        let n = self.coeffs.len();
        let last = *self.coeffs.last()?;
        if last.abs() != 1 {
            return None;
        }
        if self.coeffs[..n - 1].iter().all(|&c| c == 0) {
            Some((n, last, true))
        } else if self.coeffs.iter().all(|&c| c == last) {
            Some((n, last, false))
        } else {
            None
        }
    }

    /// CGSuite's order of uptimals: number, then coefficients, then length, then nimber.
    fn cmp(&self, o: &Uptimal) -> Ordering {
        self.number
            .cmp(&o.number)
            .then_with(|| {
                self.coeffs
                    .iter()
                    .zip(&o.coeffs)
                    .map(|(a, b)| a.cmp(b))
                    .find(|c| c.is_ne())
                    .unwrap_or(Ordering::Equal)
            })
            .then(self.coeffs.len().cmp(&o.coeffs.len()))
            .then(self.nim.cmp(&o.nim))
    }
}

/// Writes games, remembering which are uptimals.
struct Printer<'a> {
    st: &'a mut Store,
    uptimals: Map<Game, Option<Uptimal>>,
}

impl Store {
    /// `g` in CGSuite notation.
    pub fn show(&mut self, g: Game) -> Result<String> {
        let mut out = String::new();
        Printer {
            st: self,
            uptimals: Map::default(),
        }
        .write(g, &mut out, true, false)?;
        Ok(out)
    }

    /// ↑ⁿ (n ≥ 1): ↑^[n] − ↑^[n−1], where ↑^[0] = 0 and ↑^[k] = {↑^[k−1] | *}.
    fn up_power(&mut self, n: usize) -> Result<Game> {
        let star = self.nimber(1)?;
        let (mut prev, mut cur) = (self.zero(), self.zero());
        for _ in 0..n {
            self.tick()?;
            prev = cur;
            cur = self.canonical(vec![cur], vec![star])?;
        }
        self.sub(cur, prev)
    }

    /// The canonical form of an uptimal.
    fn uptimal_game(&mut self, u: &Uptimal) -> Result<Game> {
        let first = u.coeffs.first().copied().unwrap_or(0);
        let mut g = self.nus_game(Nus {
            number: u.number,
            ups: first,
            nim: u.nim,
        })?;
        for (i, &c) in u.coeffs.iter().enumerate().skip(1) {
            if c == 0 {
                continue;
            }
            let mut p = self.up_power(i + 1)?;
            if c < 0 {
                p = self.neg(p)?;
            }
            for _ in 0..c.unsigned_abs() {
                self.tick()?;
                g = self.add(g, p)?;
            }
        }
        Ok(g)
    }
}

impl Printer<'_> {
    /// The uptimal expansion of `g`, if it has one. An uptimal whose last coefficient is positive
    /// has one Right option G^R, and G = G^R + ↑^[n] + * for some n up to one past the longest
    /// expansion among its options; each candidate is built and compared (so a wrong guess is
    /// never printed). A negative last coefficient is found through −G.
    fn uptimal(&mut self, g: Game) -> Result<Option<Uptimal>> {
        if let Some(v) = self.st.nus(g) {
            return Ok(Some(Uptimal::from_nus(v)));
        }
        if let Some(u) = self.uptimals.get(&g) {
            return Ok(u.clone());
        }
        let mut u = self.uptimal_positive(g)?;
        if u.is_none() {
            let n = self.st.neg(g)?;
            if let Some(v) = self.uptimal_positive(n)? {
                u = Some(v.neg()?);
            }
        }
        self.uptimals.insert(g, u.clone());
        Ok(u)
    }

    fn uptimal_positive(&mut self, g: Game) -> Result<Option<Uptimal>> {
        let ro = self.st.right(g)?;
        let [r] = ro[..] else { return Ok(None) };
        let Some(ru) = self.uptimal(r)? else {
            return Ok(None);
        };
        let mut longest = ru.coeffs.len();
        for &l in self.st.left(g)?.iter() {
            match self.uptimal(l)? {
                Some(lu) if lu.number == ru.number => longest = longest.max(lu.coeffs.len()),
                _ => return Ok(None),
            }
        }
        for n in 1..=longest + 1 {
            let cand = ru.plus_unit_sum_star(n);
            if cand.coeffs.len() >= 2 && self.st.uptimal_game(&cand)? == g {
                return Ok(Some(cand));
            }
        }
        Ok(None)
    }

    /// Appends `g`; returns the bars it used when written without braces (0 when braced or
    /// written as a symbol).
    fn write(&mut self, g: Game, out: &mut String, brackets: bool, parens: bool) -> Result<usize> {
        if let Some(u) = self.uptimal(g)?
            && let Some(symbol) = uptimal_symbol(&u)
        {
            // CGSuite brackets a lone switch option unless it is a number, a nimber or ±↑s
            let zero = u.number == Dyadic::ZERO;
            let compact = (u.coeffs.is_empty() && (u.nim == 0 || zero)) || (zero && u.nim == 0);
            let wrap = parens && !compact;
            if wrap {
                out.push('(');
            }
            out.push_str(&symbol);
            if wrap {
                out.push(')');
            }
            return Ok(0);
        }
        let lo = self.sorted_options(g, true)?;
        let ro = self.sorted_options(g, false)?;
        if self.st.neg(g)? == g {
            out.push('±');
            if lo.len() > 1 {
                out.push('{');
                for (i, &o) in lo.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    self.write(o, out, true, false)?;
                }
                out.push('}');
            } else {
                self.write(lo[0], out, true, true)?;
            }
            return Ok(0);
        }
        if let Some((translate, sub, name)) = self.tiny_parts(&lo, &ro)? {
            if parens {
                out.push('(');
            }
            if translate != self.st.zero() {
                self.write(translate, out, false, false)?;
            }
            out.push_str(name);
            out.push('(');
            self.write(sub, out, true, false)?;
            out.push(')');
            if parens {
                out.push(')');
            }
            return Ok(0);
        }
        let mut left = String::new();
        let mut right = String::new();
        let mut slashes = 0;
        for (side, opts) in [(&mut left, &lo), (&mut right, &ro)] {
            for (i, &o) in opts.iter().enumerate() {
                if i > 0 {
                    side.push(',');
                }
                slashes = slashes.max(self.write(o, side, opts.len() > 1, false)? + 1);
            }
        }
        let braced = brackets || slashes == MAX_SLASHES;
        if braced {
            out.push('{');
        }
        out.push_str(&left);
        out.push_str(&"|".repeat(slashes));
        out.push_str(&right);
        if braced {
            out.push('}');
            Ok(0)
        } else {
            Ok(slashes)
        }
    }

    /// For x + Tiny(s) = {x || x | x − s} (and Miny mirrored), with s's mean positive:
    /// (x, s, "Tiny").
    fn tiny_parts(
        &mut self,
        lo: &[Game],
        ro: &[Game],
    ) -> Result<Option<(Game, Game, &'static str)>> {
        let st = &mut *self.st;
        let ([l], [r]) = (lo, ro) else {
            return Ok(None);
        };
        let (l, r) = (*l, *r);
        if st.is_number(l) {
            let (rl, rr) = (st.left(r)?, st.right(r)?);
            if let ([a], [b]) = (&rl[..], &rr[..])
                && *a == l
                && st.mean(*b)? < st.as_number(l).unwrap()
            {
                let nb = st.neg(*b)?;
                return Ok(Some((l, st.add(nb, l)?, "Tiny")));
            }
        }
        if st.is_number(r) {
            let (ll, lr) = (st.left(l)?, st.right(l)?);
            if let ([a], [b]) = (&ll[..], &lr[..])
                && *b == r
                && st.mean(*a)? > st.as_number(r).unwrap()
            {
                let nr = st.neg(r)?;
                return Ok(Some((r, st.add(*a, nr)?, "Miny")));
            }
        }
        Ok(None)
    }

    /// Options in CGSuite's display order.
    fn sorted_options(&mut self, g: Game, left: bool) -> Result<Vec<Game>> {
        let mut v = if left {
            self.st.left(g)?
        } else {
            self.st.right(g)?
        }
        .to_vec();
        // insertion sort: the comparison is fallible and option lists are short
        for i in 1..v.len() {
            let mut j = i;
            while j > 0 && self.display_cmp(v[j - 1], v[j])? == Ordering::Greater {
                v.swap(j - 1, j);
                j -= 1;
            }
        }
        Ok(v)
    }

    fn display_cmp(&mut self, a: Game, b: Game) -> Result<Ordering> {
        if a == b {
            return Ok(Ordering::Equal);
        }
        let (ua, ub) = (self.uptimal(a)?, self.uptimal(b)?);
        let rank = |u: &Option<Uptimal>| match u {
            Some(u) if u.coeffs.is_empty() && u.nim == 0 => 0,
            Some(u) if u.coeffs.is_empty() && u.number == Dyadic::ZERO => 1,
            Some(_) => 2,
            None => 3,
        };
        let by_rank = rank(&ua).cmp(&rank(&ub));
        if by_rank != Ordering::Equal {
            return Ok(by_rank);
        }
        if let (Some(x), Some(y)) = (&ua, &ub) {
            return Ok(x.cmp(y));
        }
        for left in [true, false] {
            let la = self.sorted_options(a, left)?;
            let lb = self.sorted_options(b, left)?;
            for (x, y) in la.iter().zip(&lb) {
                let c = self.display_cmp(*x, *y)?;
                if c != Ordering::Equal {
                    return Ok(c);
                }
            }
            if la.len() != lb.len() {
                return Ok(la.len().cmp(&lb.len()));
            }
        }
        Ok(Ordering::Equal)
    }
}

impl Store {
    /// Reads a game in CGSuite notation: `{1|*}`, `{2|1/2||-1}`, `±1`, `+-1`, `^*`, `*3`,
    /// `3/8`, `1^`, `vv*`, `^<2>`, `Tiny(2)`, `2Tiny(2)`, sums and differences `1+Tiny(2)`, `^-*`.
    pub fn parse(&mut self, text: &str) -> Result<Game> {
        let mut p = Parser {
            s: text.chars().filter(|c| !c.is_whitespace()).collect(),
            i: 0,
            depth: 0,
        };
        let g = p.sum(self)?;
        if p.i < p.s.len() {
            return Err(p.err("unexpected character"));
        }
        Ok(g)
    }
}

/// An uptimal as CGSuite writes it in one piece (`1/2^*`, `v3`, `^<2>*`, `v[3]`), or `None`
/// when it is written with braces.
fn uptimal_symbol(u: &Uptimal) -> Option<String> {
    let mut out = String::new();
    if u.number != Dyadic::ZERO || (u.coeffs.is_empty() && u.nim == 0) {
        out.push_str(&u.number.to_string());
    }
    match (u.coeffs.len(), u.unit()) {
        (0, _) => {}
        (1, _) => match u.coeffs[0] {
            1 => out.push('^'),
            2 => out.push_str("^^"),
            -1 => out.push('v'),
            -2 => out.push_str("vv"),
            n if n > 0 => out.push_str(&format!("^{n}")),
            n => out.push_str(&format!("v{}", -n)),
        },
        (_, Some((n, sign, alone))) => {
            out.push(if sign > 0 { '^' } else { 'v' });
            out.push_str(&if alone {
                format!("<{n}>")
            } else {
                format!("[{n}]")
            });
        }
        _ => return None,
    }
    match u.nim {
        0 => {}
        1 => out.push('*'),
        m => out.push_str(&format!("*{m}")),
    }
    // a number joined to `^3` or `*3` would read as a power or a product: `2+^3`, `1+*3`
    if u.number != Dyadic::ZERO {
        let n = u.number.to_string().len();
        let b = out.as_bytes();
        if matches!(b.get(n), Some(b'^' | b'*')) && b.get(n + 1).is_some_and(u8::is_ascii_digit) {
            out.insert(n, '+');
        }
    }
    Some(out)
}

struct Parser {
    s: Vec<char>,
    i: usize,
    /// how deep the reading is nested (signs, brackets, switches), bounded by [`MAX_NESTING`]
    depth: usize,
}

/// Nesting deeper than this is refused, as the language's own brackets are: the reader
/// recurses, and `{{{...}}}` a million deep would overflow the stack.
pub(super) const MAX_NESTING: usize = 200;

/// Inside braces: option lists separated by runs of bars.
enum Piece {
    Opts(Vec<Game>),
    Bars(usize),
}

impl Parser {
    fn err(&self, what: &str) -> Error {
        let at: String = self.s[self.i.min(self.s.len())..].iter().take(12).collect();
        Error::invalid(format!(
            "cannot read the game: {what} at `{}`",
            if at.is_empty() { "the end".into() } else { at }
        ))
        .hint("write games as CGSuite does: {1|*}, {2|1/2||-1}, ±1, ^*, *3, 3/8")
    }

    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn sum(&mut self, st: &mut Store) -> Result<Game> {
        let mut acc = self.atom(st)?;
        loop {
            // `3+-1` is 3 ± 1, as in CGSuite: the `+-` starts a switch
            let switch = self.peek() == Some('±') || self.s[self.i..].starts_with(&['+', '-']);
            if switch || self.eat('+') {
                let t = self.atom(st)?;
                acc = st.add(acc, t)?;
            } else if self.eat('-') {
                let t = self.atom(st)?;
                acc = st.sub(acc, t)?;
            } else {
                return Ok(acc);
            }
        }
    }

    fn atom(&mut self, st: &mut Store) -> Result<Game> {
        if self.depth >= MAX_NESTING {
            return Err(Error::limit(format!(
                "cannot read the game: it nests more than {MAX_NESTING} deep"
            ))
            .hint("write a deep game in steps, naming the parts with `let`"));
        }
        self.depth += 1;
        let g = self.atom_inner(st);
        self.depth -= 1;
        g
    }

    fn atom_inner(&mut self, st: &mut Store) -> Result<Game> {
        match self.peek() {
            // `-1^` is −1 + ↑: a minus sign before digits belongs to the number
            Some('-') if self.s.get(self.i + 1).is_some_and(|c| c.is_ascii_digit()) => {
                self.i += 1;
                self.nus(st, true)
            }
            Some('-') => {
                self.i += 1;
                let g = self.atom(st)?;
                st.neg(g)
            }
            Some('±') => {
                self.i += 1;
                self.switch(st)
            }
            Some('+') if self.s.get(self.i + 1) == Some(&'-') => {
                self.i += 2;
                self.switch(st)
            }
            Some('(') => {
                self.i += 1;
                let g = self.sum(st)?;
                if !self.eat(')') {
                    return Err(self.err("expected `)`"));
                }
                Ok(g)
            }
            Some('{') => {
                self.i += 1;
                let g = self.braces(st)?;
                if !self.eat('}') {
                    return Err(self.err("expected `}`"));
                }
                Ok(g)
            }
            Some(c) if c.is_ascii_digit() || "^v*↑↓⇑⇓TM".contains(c) => self.nus(st, false),
            _ => Err(self.err("expected a game")),
        }
    }

    /// `±G` = {G | −G}; `±{a,b}` = {a,b | −a,−b}.
    fn switch(&mut self, st: &mut Store) -> Result<Game> {
        let opts = if self.peek() == Some('{') && !self.braces_have_bar() {
            self.i += 1;
            let v = self.list(st)?;
            if !self.eat('}') {
                return Err(self.err("expected `}`"));
            }
            v
        } else {
            vec![self.atom(st)?]
        };
        let negs = opts
            .iter()
            .map(|&g| st.neg(g))
            .collect::<Result<Vec<_>>>()?;
        st.canonical(opts, negs)
    }

    /// Whether the braces opening here hold a game (`{1|0}`) rather than a list (`{1,1*}`).
    fn braces_have_bar(&self) -> bool {
        let mut depth = 0;
        for &c in &self.s[self.i..] {
            match c {
                '{' | '(' => depth += 1,
                '}' | ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return false;
                    }
                }
                '|' if depth == 1 => return true,
                _ => {}
            }
        }
        false
    }

    fn digits(&mut self) -> Option<i64> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        if start == self.i {
            return None;
        }
        // overlong digit runs are refused by the caller through `None` → error
        self.s[start..self.i]
            .iter()
            .collect::<String>()
            .parse()
            .ok()
            .or(Some(-1))
    }

    /// A number, ↑s and a star in that order (`3/8`, `1^*`, `vv`, `^3*2`, `*`, `^<2>*`, `v[3]`),
    /// or a number and `Tiny(G)` / `Miny(G)`.
    fn nus(&mut self, st: &mut Store, negative: bool) -> Result<Game> {
        let mut number = Dyadic::ZERO;
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let n = self
                .digits()
                .filter(|&n| n >= 0)
                .ok_or_else(|| self.err("number too large"))?;
            number = Dyadic::int(n);
            if self.peek() == Some('/') {
                self.i += 1;
                let d = self
                    .digits()
                    .ok_or_else(|| self.err("expected a denominator"))?;
                if d < 0 {
                    return Err(self.err("number too large"));
                }
                if d == 0 || d.count_ones() != 1 {
                    return Err(self.err("the denominator must be a power of two"));
                }
                number = Dyadic::new(n, d.trailing_zeros())?;
            }
        }
        if negative {
            number = number.neg()?;
        }
        for name in ["Tiny", "Miny"] {
            if self.s[self.i..].starts_with(&name.chars().collect::<Vec<_>>()) {
                self.i += name.len();
                return self.tiny(st, number, name == "Tiny");
            }
        }
        let mut coeffs = vec![];
        if let Some(c @ ('^' | 'v' | '↑' | '↓' | '⇑' | '⇓')) = self.peek() {
            self.i += 1;
            let sign = if "^↑⇑".contains(c) { 1 } else { -1 };
            let close = if self.eat('<') {
                Some('>')
            } else if self.eat('[') {
                Some(']')
            } else {
                None
            };
            if let Some(close) = close {
                let n = self
                    .digits()
                    .and_then(|n| usize::try_from(n).ok())
                    .filter(|n| (1..=64).contains(n))
                    .ok_or_else(|| self.err("expected an up power from 1 to 64"))?;
                if !self.eat(close) {
                    return Err(self.err(&format!("expected `{close}`")));
                }
                coeffs = vec![if close == '>' { 0 } else { sign }; n];
                coeffs[n - 1] = sign;
            } else {
                let mut n = if "⇑⇓".contains(c) { 2 } else { 1 };
                while self.eat(c) {
                    n += 1;
                }
                if n == 1 && self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    n = self
                        .digits()
                        .filter(|&n| n >= 0)
                        .ok_or_else(|| self.err("too many ups"))?;
                }
                coeffs = vec![sign * n];
            }
        }
        let mut nim = 0;
        if self.eat('*') {
            nim = 1;
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                nim = self
                    .digits()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| self.err("nimber too large"))?;
            }
        }
        st.uptimal_game(&Uptimal {
            number,
            coeffs,
            nim,
        })
    }

    /// `x` + Tiny(G) = x + {0 || 0 | −G}, or x + Miny(G) = x + {G | 0 || 0}, after the name.
    fn tiny(&mut self, st: &mut Store, number: Dyadic, tiny: bool) -> Result<Game> {
        if !self.eat('(') {
            return Err(self.err("expected `(` after Tiny or Miny"));
        }
        let g = self.sum(st)?;
        if !self.eat(')') {
            return Err(self.err("expected `)`"));
        }
        let zero = st.zero();
        let t = if tiny {
            let n = st.neg(g)?;
            let r = st.canonical(vec![zero], vec![n])?;
            st.canonical(vec![zero], vec![r])?
        } else {
            let l = st.canonical(vec![g], vec![zero])?;
            st.canonical(vec![l], vec![zero])?
        };
        let x = st.number(number)?;
        st.add(x, t)
    }

    /// Games separated by commas (possibly none).
    fn list(&mut self, st: &mut Store) -> Result<Vec<Game>> {
        let mut v = vec![];
        if matches!(self.peek(), Some('|' | '}')) {
            return Ok(v);
        }
        loop {
            v.push(self.sum(st)?);
            if !self.eat(',') {
                return Ok(v);
            }
        }
    }

    /// The inside of `{...}`: lists and runs of bars; the longest run splits first.
    fn braces(&mut self, st: &mut Store) -> Result<Game> {
        let mut pieces = vec![Piece::Opts(self.list(st)?)];
        while self.peek() == Some('|') {
            let mut n = 0;
            while self.eat('|') {
                n += 1;
            }
            pieces.push(Piece::Bars(n));
            pieces.push(Piece::Opts(self.list(st)?));
        }
        if pieces.len() == 1 {
            return Err(self.err("expected `|` between Left and Right options"));
        }
        match self.build(st, pieces)? {
            Piece::Opts(mut v) if v.len() == 1 => Ok(v.pop().unwrap()),
            _ => Err(self.err("malformed braces")),
        }
    }

    /// Splits at the one longest run of bars; a side with bars is one game.
    fn build(&self, st: &mut Store, mut pieces: Vec<Piece>) -> Result<Piece> {
        let runs: Vec<(usize, usize)> = pieces
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p {
                Piece::Bars(n) => Some((i, *n)),
                _ => None,
            })
            .collect();
        let Some(&(_, max)) = runs.iter().max_by_key(|r| r.1) else {
            return Ok(pieces.pop().unwrap());
        };
        let at: Vec<usize> = runs.iter().filter(|r| r.1 == max).map(|r| r.0).collect();
        if at.len() > 1 {
            return Err(self.err("two runs of bars of the same length in one game are ambiguous"));
        }
        let right = pieces.split_off(at[0] + 1);
        pieces.pop();
        let side = |p: Piece| match p {
            Piece::Opts(v) => v,
            Piece::Bars(_) => unreachable!("sides end in option lists"),
        };
        let l = side(self.build(st, pieces)?);
        let r = side(self.build(st, right)?);
        Ok(Piece::Opts(vec![st.canonical(l, r)?]))
    }
}
