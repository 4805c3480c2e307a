//! GAP interop: permutation groups written as `G := Group([(1,2,3), (1,2)]);`.
//!
//! Writing gives plain GAP that `Read("g.g");` accepts, with the generator names kept in a
//! comment (`# generators: R, U, C`) so that a round trip keeps them. Reading accepts what GAP
//! users write for permutation groups: `name := Group([p, q, ...]);` or `Group(p, q)`,
//! permutations as products of cycles (`(1,2)(3,4)`, `()`, with `*` between factors),
//! permutations bound to names first (`R := (1,2,3,4);` then `Group([R, U])`, which keeps the
//! names), `#` comments and `;;`.
use super::perm::{MAX_DEGREE, Perm};

/// One group read from GAP text: its name, and its generators with their names.
#[derive(Debug, Clone)]
pub struct GapGroup {
    pub name: String,
    pub gens: Vec<(String, Perm)>,
}

/// GAP text for a group called `name` with named generators.
pub fn write(name: &str, gens: &[(String, Perm)]) -> String {
    let names: Vec<&str> = gens.iter().map(|(n, _)| n.as_str()).collect();
    let perms: Vec<String> = gens.iter().map(|(_, p)| p.to_string()).collect();
    format!(
        "# written by gamut; read it in GAP with Read(\"file.g\");\n# generators: {}\n{} := Group([{}]);\n",
        names.join(", "),
        gap_name(name),
        perms.join(", ")
    )
}

/// A GAP identifier made from `name` (letters, digits and `_`, not starting with a digit).
pub fn gap_name(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'G');
    }
    s
}

/// Every group assigned in the text, in order. Errors carry the line number.
pub fn read(text: &str) -> Result<Vec<GapGroup>, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        names_hint: None,
    };
    let mut perms: Vec<(String, Perm)> = vec![];
    let mut out = vec![];
    loop {
        p.skip();
        if p.i >= p.s.len() {
            break;
        }
        // a statement: `name := expr;` or anything else up to `;` (ignored)
        let start = p.i;
        let Some(name) = p.ident() else {
            p.skip_statement();
            continue;
        };
        p.skip();
        if !p.eat(":=") {
            p.i = start;
            p.skip_statement();
            continue;
        }
        p.skip();
        let save = p.i;
        if let Some(kw) = p.ident() {
            if kw == "Group" {
                let gens = p.group_args(&perms)?;
                let hint = p.names_hint.take();
                let gens = match hint {
                    Some(ns) if ns.len() == gens.len() => gens
                        .into_iter()
                        .zip(ns)
                        .map(|((_, perm), n)| (n, perm))
                        .collect(),
                    _ => gens,
                };
                out.push(GapGroup { name, gens });
                p.skip_statement();
                continue;
            }
            p.i = save;
        } else {
            p.i = save;
        }
        if p.peek() == Some(b'(') {
            let perm = p.perm_product(&perms)?;
            perms.retain(|(n, _)| *n != name);
            perms.push((name, perm));
        }
        p.skip_statement();
    }
    Ok(out)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    /// names from a `# generators: R, U, C` comment, for the next group
    names_hint: Option<Vec<String>>,
}

impl Parser<'_> {
    fn line(&self) -> usize {
        self.s[..self.i.min(self.s.len())]
            .iter()
            .filter(|&&c| c == b'\n')
            .count()
            + 1
    }

    fn err(&self, what: &str) -> String {
        format!("GAP text, line {}: {what}", self.line())
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    /// Skip blanks, line continuations and comments (remembering a generator-names comment).
    fn skip(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_ascii_whitespace() {
                self.i += 1;
            } else if c == b'\\' && self.s.get(self.i + 1) == Some(&b'\n') {
                self.i += 2;
            } else if c == b'#' {
                let end = self.s[self.i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(self.s.len(), |k| self.i + k);
                let comment = String::from_utf8_lossy(&self.s[self.i + 1..end]);
                if let Some(rest) = comment.trim().strip_prefix("generators:") {
                    self.names_hint = Some(rest.split(',').map(|n| n.trim().to_string()).collect());
                }
                self.i = end;
            } else {
                break;
            }
        }
    }

    fn eat(&mut self, t: &str) -> bool {
        if self.s[self.i..].starts_with(t.as_bytes()) {
            self.i += t.len();
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> Option<String> {
        let start = self.i;
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == b'_' {
                self.i += 1;
            } else {
                break;
            }
        }
        if self.i == start || self.s[start].is_ascii_digit() {
            self.i = start;
            return None;
        }
        Some(String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    /// Skip to just past the next `;` outside brackets (`;;` counts as one).
    fn skip_statement(&mut self) {
        let mut depth = 0i32;
        while let Some(c) = self.peek() {
            match c {
                b'#' => {
                    self.skip();
                    continue;
                }
                b'"' => {
                    self.i += 1;
                    while let Some(c) = self.peek() {
                        self.i += 1;
                        if c == b'\\' {
                            self.i += 1;
                        } else if c == b'"' {
                            break;
                        }
                    }
                    continue;
                }
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b';' if depth <= 0 => {
                    self.i += 1;
                    if self.peek() == Some(b';') {
                        self.i += 1;
                    }
                    return;
                }
                _ => {}
            }
            self.i += 1;
        }
    }

    fn number(&mut self) -> Result<usize, String> {
        self.skip();
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        let t = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        let n: usize = t
            .parse()
            .map_err(|_| self.err("expected a point (a positive integer) in a cycle"))?;
        if n == 0 || n > MAX_DEGREE {
            return Err(self.err(&format!("point {n} is not in 1..{MAX_DEGREE}")));
        }
        Ok(n)
    }

    /// Cycles `(a,b,c)(d,e)` or `()`, as 1-based point lists.
    fn cycles(&mut self) -> Result<Vec<Vec<usize>>, String> {
        let mut cs = vec![];
        loop {
            self.skip();
            if self.peek() != Some(b'(') {
                break;
            }
            self.i += 1;
            self.skip();
            let mut c = vec![];
            if self.peek() == Some(b')') {
                self.i += 1;
                continue;
            }
            loop {
                c.push(self.number()?);
                self.skip();
                match self.peek() {
                    Some(b',') => self.i += 1,
                    Some(b')') => {
                        self.i += 1;
                        break;
                    }
                    _ => return Err(self.err("a cycle is points separated by commas, as (1,2,3)")),
                }
            }
            cs.push(c);
        }
        Ok(cs)
    }

    fn one_perm(&mut self, named: &[(String, Perm)]) -> Result<(Option<String>, Perm), String> {
        self.skip();
        if self.peek() == Some(b'(') {
            let cs = self.cycles()?;
            let n = cs.iter().flatten().copied().max().unwrap_or(0);
            let zero: Vec<Vec<usize>> = cs
                .iter()
                .map(|c| c.iter().map(|p| p - 1).collect())
                .collect();
            // GAP multiplies the cycles left to right, each acting on the result so far
            let mut acc = Perm::identity(n);
            for c in zero {
                let q = Perm::from_cycles(n, &[c])
                    .map_err(|(_, _, m)| self.err(&format!("in a cycle: {m}")))?;
                acc = acc.then(&q);
            }
            return Ok((None, acc));
        }
        let Some(id) = self.ident() else {
            return Err(self.err("expected a permutation such as (1,2,3)(4,5)"));
        };
        named
            .iter()
            .rev()
            .find(|(n, _)| *n == id)
            .map(|(n, p)| (Some(n.clone()), p.clone()))
            .ok_or_else(|| self.err(&format!("`{id}` is not a permutation defined above")))
    }

    /// A product `p * q * ...` (GAP multiplies left to right, as gamut does).
    fn perm_product(&mut self, named: &[(String, Perm)]) -> Result<Perm, String> {
        Ok(self.named_product(named)?.1)
    }

    fn named_product(
        &mut self,
        named: &[(String, Perm)],
    ) -> Result<(Option<String>, Perm), String> {
        let (mut name, mut acc) = self.one_perm(named)?;
        loop {
            self.skip();
            if self.peek() != Some(b'*') {
                return Ok((name, acc));
            }
            self.i += 1;
            let (_, q) = self.one_perm(named)?;
            acc = acc.then(&q);
            name = None;
        }
    }

    /// `([p, q, ...])` or `(p, q, ...)` after `Group`.
    fn group_args(&mut self, named: &[(String, Perm)]) -> Result<Vec<(String, Perm)>, String> {
        self.skip();
        if !self.eat("(") {
            return Err(self.err("expected `(` after Group"));
        }
        self.skip();
        let bracket = self.eat("[");
        let mut gens = vec![];
        loop {
            self.skip();
            if matches!(self.peek(), Some(b']') | Some(b')')) {
                break;
            }
            let (name, p) = self.named_product(named)?;
            let k = gens.len() + 1;
            gens.push((name.unwrap_or_else(|| format!("g{k}")), p));
            self.skip();
            if !self.eat(",") {
                break;
            }
        }
        self.skip();
        if bracket && !self.eat("]") {
            return Err(self.err("expected `]` closing the generator list"));
        }
        self.skip();
        if !self.eat(")") {
            return Err(self.err("expected `)` closing Group(...)"));
        }
        if gens.is_empty() {
            return Err(self.err("a group needs at least one generator"));
        }
        Ok(gens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let r = Perm::from_cycles(4, &[vec![0, 1], vec![2, 3]]).unwrap();
        let c = Perm::from_cycles(4, &[vec![0, 1, 3, 2]]).unwrap();
        let text = write(
            "slide2",
            &[("R".into(), r.clone()), ("C".into(), c.clone())],
        );
        let gs = read(&text).unwrap();
        assert_eq!(gs.len(), 1);
        assert_eq!(gs[0].name, "slide2");
        assert_eq!(gs[0].gens[0].0, "R");
        assert_eq!(gs[0].gens[1].1, c);
    }

    #[test]
    fn named_perms_and_products() {
        let gs = read("a := (1,2);; b := (2,3)*(1,2);\nG := Group(a, b); H:=Group([(1,2)(3,4)]);")
            .unwrap();
        assert_eq!(gs.len(), 2);
        assert_eq!(gs[0].gens[0].0, "a");
        assert_eq!(gs[0].gens[1].0, "b");
        assert_eq!(gs[0].gens[1].1.to_string(), "(1,2,3)");
        assert_eq!(gs[1].gens[0].0, "g1");
    }
}
