//! CGSuite's notation: printing canonical forms as CGSuite prints them (plain text, with `±`),
//! and reading them back.
//!
//! Printing follows CGSuite's rules: numbers `3`, `-3/4`; `x ↑n *m` as `x^n*m` with `^`, `^^`,
//! `^3`, `v`, `vv`, `v3`, `*`, `*3` (`1/2^*`); a switch G = −G as `±` and its Left option(s)
//! (`±1`, `±(1*)`, `±{2,*}`); `{0||0|−x}` as `x.Tiny` (and `Miny`, with a number in front:
//! `1+2.Tiny`); other games as `{L|R}` where a lone option that is itself a braced game drops its
//! braces and the bar grows instead: `{2|1/2||-1}`, up to four bars.
use super::dyadic::Dyadic;
use super::store::{Game, Nus, Store};
use crate::engine::{Error, Result};
use std::cmp::Ordering;

const MAX_SLASHES: usize = 4;

impl Store {
    /// `g` in CGSuite notation.
    pub fn show(&mut self, g: Game) -> Result<String> {
        let mut out = String::new();
        self.write(g, &mut out, true, false)?;
        Ok(out)
    }

    /// Appends `g`; returns the bars it used when written without braces (0 when braced or
    /// written as a symbol).
    fn write(&mut self, g: Game, out: &mut String, brackets: bool, parens: bool) -> Result<usize> {
        if let Some(v) = self.nus(g) {
            let wrap = parens && !(v.ups == 0 || (v.number == Dyadic::ZERO && v.nim == 0));
            if wrap {
                out.push('(');
            }
            write_nus(v, out);
            if wrap {
                out.push(')');
            }
            return Ok(0);
        }
        let lo = self.sorted_options(g, true)?;
        let ro = self.sorted_options(g, false)?;
        if self.neg(g)? == g {
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
            if translate != self.zero() {
                self.write(translate, out, false, false)?;
                out.push('+');
            }
            let fraction = self.as_number(sub).is_some_and(|x| !x.is_integer());
            if fraction {
                out.push('(');
            }
            self.write(sub, out, true, true)?;
            if fraction {
                out.push(')');
            }
            out.push('.');
            out.push_str(name);
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
        let ([l], [r]) = (lo, ro) else {
            return Ok(None);
        };
        let (l, r) = (*l, *r);
        if self.is_number(l) {
            let (rl, rr) = (self.left(r)?, self.right(r)?);
            if let ([a], [b]) = (&rl[..], &rr[..])
                && *a == l
                && self.mean(*b)? < self.as_number(l).unwrap()
            {
                let nb = self.neg(*b)?;
                return Ok(Some((l, self.add(nb, l)?, "Tiny")));
            }
        }
        if self.is_number(r) {
            let (ll, lr) = (self.left(l)?, self.right(l)?);
            if let ([a], [b]) = (&ll[..], &lr[..])
                && *b == r
                && self.mean(*a)? > self.as_number(r).unwrap()
            {
                let nr = self.neg(r)?;
                return Ok(Some((r, self.add(*a, nr)?, "Miny")));
            }
        }
        Ok(None)
    }

    /// Options in CGSuite's display order: numbers, nimbers, other x↑n*m, then the rest
    /// lexicographically by their own sorted options.
    fn sorted_options(&mut self, g: Game, left: bool) -> Result<Vec<Game>> {
        let mut v = if left { self.left(g)? } else { self.right(g)? }.to_vec();
        let mut err = None;
        v.sort_by(|&a, &b| {
            self.display_cmp(a, b).unwrap_or_else(|e| {
                err = Some(e);
                Ordering::Equal
            })
        });
        err.map_or(Ok(v), Err)
    }

    fn display_cmp(&mut self, a: Game, b: Game) -> Result<Ordering> {
        if a == b {
            return Ok(Ordering::Equal);
        }
        let rank = |v: Option<Nus>| match v {
            Some(n) if n.ups == 0 && n.nim == 0 => 0,
            Some(n) if n.ups == 0 && n.number == Dyadic::ZERO => 1,
            Some(_) => 2,
            None => 3,
        };
        let (na, nb) = (self.nus(a), self.nus(b));
        let by_rank = rank(na).cmp(&rank(nb));
        if by_rank != Ordering::Equal {
            return Ok(by_rank);
        }
        if let (Some(x), Some(y)) = (na, nb) {
            return Ok((x.number, x.ups, x.nim).cmp(&(y.number, y.ups, y.nim)));
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

    /// Reads a game in CGSuite notation: `{1|*}`, `{2|1/2||-1}`, `±1`, `+-1`, `^*`, `*3`,
    /// `3/8`, `1^`, `vv*`, `2.Tiny`, sums and differences `1+2.Tiny`, `^-*`.
    pub fn parse(&mut self, text: &str) -> Result<Game> {
        let mut p = Parser {
            s: text.chars().filter(|c| !c.is_whitespace()).collect(),
            i: 0,
        };
        let g = p.sum(self)?;
        if p.i < p.s.len() {
            return Err(p.err("unexpected character"));
        }
        Ok(g)
    }
}

fn write_nus(v: Nus, out: &mut String) {
    if v.number != Dyadic::ZERO || (v.ups == 0 && v.nim == 0) {
        out.push_str(&v.number.to_string());
    }
    match v.ups {
        0 => {}
        1 => out.push('^'),
        2 => out.push_str("^^"),
        -1 => out.push('v'),
        -2 => out.push_str("vv"),
        n if n > 0 => out.push_str(&format!("^{n}")),
        n => out.push_str(&format!("v{}", -n)),
    }
    match v.nim {
        0 => {}
        1 => out.push('*'),
        m => out.push_str(&format!("*{m}")),
    }
}

struct Parser {
    s: Vec<char>,
    i: usize,
}

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
        let mut acc = self.term(st)?;
        loop {
            if self.peek() == Some('+') && self.s.get(self.i + 1) != Some(&'-') {
                self.i += 1;
                let t = self.term(st)?;
                acc = st.add(acc, t)?;
            } else if self.eat('-') {
                let t = self.term(st)?;
                acc = st.sub(acc, t)?;
            } else {
                return Ok(acc);
            }
        }
    }

    fn term(&mut self, st: &mut Store) -> Result<Game> {
        let g = self.atom(st)?;
        if self.eat('.') {
            let rest: String = self.s[self.i..].iter().take(4).collect();
            self.i += 4;
            let zero = st.zero();
            let n = st.neg(g)?;
            return match rest.as_str() {
                // Tiny(g) = {0 || 0 | −g}, Miny(g) = {g | 0 || 0}
                "Tiny" => {
                    let r = st.canonical(vec![zero], vec![n])?;
                    st.canonical(vec![zero], vec![r])
                }
                "Miny" => {
                    let l = st.canonical(vec![g], vec![zero])?;
                    st.canonical(vec![l], vec![zero])
                }
                _ => {
                    self.i -= 4;
                    Err(self.err("expected Tiny or Miny"))
                }
            };
        }
        Ok(g)
    }

    fn atom(&mut self, st: &mut Store) -> Result<Game> {
        match self.peek() {
            // `-1^` is −1 + ↑: a minus sign before digits belongs to the number
            Some('-') if self.s.get(self.i + 1).is_some_and(|c| c.is_ascii_digit()) => {
                self.i += 1;
                self.nus(st, true)
            }
            Some('-') => {
                self.i += 1;
                let g = self.term(st)?;
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
            Some(c) if c.is_ascii_digit() || "^v*↑↓⇑⇓".contains(c) => self.nus(st, false),
            _ => Err(self.err("expected a game")),
        }
    }

    /// `±G` = {G | −G}; `±{a,b}` = {a,b | −a,−b}.
    fn switch(&mut self, st: &mut Store) -> Result<Game> {
        let opts = if self.eat('{') {
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

    /// A number, ↑s and a star in that order: `3/8`, `1^*`, `vv`, `^3*2`, `*`.
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
                if d <= 0 || d.count_ones() != 1 {
                    return Err(self.err("the denominator must be a power of two"));
                }
                number = Dyadic::new(n, d.trailing_zeros())?;
            }
        }
        if negative {
            number = number.neg()?;
        }
        let mut ups: i64 = 0;
        if let Some(c @ ('^' | 'v' | '↑' | '↓' | '⇑' | '⇓')) = self.peek() {
            self.i += 1;
            let sign = if "^↑⇑".contains(c) { 1 } else { -1 };
            let mut n = if "⇑⇓".contains(c) { 2 } else { 1 };
            if n == 1 && self.eat(c) {
                n = 2;
            } else if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                n = self
                    .digits()
                    .filter(|&n| n >= 0)
                    .ok_or_else(|| self.err("too many ups"))?;
            }
            ups = sign * n;
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
        st.nus_game(Nus { number, ups, nim })
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
