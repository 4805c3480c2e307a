//! Conway's misère canonical forms of impartial games (On Numbers and Games, ch. 12; Winning
//! Ways, ch. 13; Siegel, Combinatorial Game Theory, ch. V). A form is a set of forms with no
//! reversible option; forms are hash-consed, so two games are equal in misère play exactly when
//! their forms have the same id.
//!
//! Misère play dominates no option; an option G' is reversible when it has an option G'' equal to
//! G, and bypassing it (the Grundy–Smith rule) is all that simplifies a game (Conway). With
//! canonical options, G = K for a canonical K ≠ 0 exactly when G's options are K's options
//! together with options that each have K as an option; G = 0 (the endgame proviso) exactly
//! when every option has 0 as an option and some option is a misère P-position.
use crate::engine::impartial::{Game, MAX_LINE, mex};
use crate::engine::{Ctl, Error, Result};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::Hash;

/// The id of a canonical form in a [`Forms`] table.
pub type Form = u32;

/// The game without options.
pub const ZERO: Form = 0;

struct Rec {
    /// canonical options, sorted by id
    opts: Box<[Form]>,
    birthday: u32,
    /// misère nimber (G⁻): 0 exactly for a misère P-position
    misere: u32,
    /// normal-play nimber (G⁺)
    normal: u32,
}

/// A table of canonical forms, with their sums memoized.
pub struct Forms {
    recs: Vec<Rec>,
    index: HashMap<Box<[Form]>, Form>,
    sums: HashMap<(Form, Form), Form>,
    nims: Vec<Form>,
    words: u64,
    /// for printing: X with X + *i = G when there is one
    diffs: HashMap<(Form, u32), Option<Form>>,
    /// for printing: a form's even part and whether the form is odd (its even part plus *)
    parity: HashMap<Form, (Form, bool)>,
    /// for printing: the options of an even form in CGSuite's canonical order
    order: HashMap<Form, Vec<Form>>,
}

/// About the bytes of a form besides its options, of a memoized sum, of an option (kept twice).
const REC_BYTES: u64 = 96;
const SUM_BYTES: u64 = 40;
const OPT_BYTES: u64 = 8;

/// The longest printed form, in bytes.
const MAX_TEXT: usize = 1 << 24;

impl Default for Forms {
    fn default() -> Self {
        let mut f = Forms {
            recs: vec![],
            index: HashMap::new(),
            sums: HashMap::new(),
            nims: vec![],
            words: 0,
            diffs: HashMap::new(),
            parity: HashMap::new(),
            order: HashMap::new(),
        };
        f.make(vec![]);
        f.nims.push(ZERO);
        f
    }
}

impl Forms {
    /// How many distinct forms the table holds.
    pub fn len(&self) -> usize {
        self.recs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }

    /// The options of `g`, sorted by id.
    pub fn options(&self, g: Form) -> &[Form] {
        &self.recs[g as usize].opts
    }

    pub fn birthday(&self, g: Form) -> u32 {
        self.recs[g as usize].birthday
    }

    /// The misère nimber: 0 exactly when the player to move loses in misère play.
    pub fn misere_nimber(&self, g: Form) -> u32 {
        self.recs[g as usize].misere
    }

    /// The normal-play nimber.
    pub fn nimber(&self, g: Form) -> u32 {
        self.recs[g as usize].normal
    }

    fn bytes(&self) -> u64 {
        self.recs.len() as u64 * REC_BYTES
            + self.words * OPT_BYTES
            + (self.sums.len() + self.diffs.len()) as u64 * SUM_BYTES
    }

    fn has_option(&self, g: Form, o: Form) -> bool {
        self.options(g).binary_search(&o).is_ok()
    }

    fn make(&mut self, opts: Vec<Form>) -> Form {
        let r = |o: &Form| &self.recs[*o as usize];
        let rec = Rec {
            birthday: opts.iter().map(|o| r(o).birthday + 1).max().unwrap_or(0),
            misere: if opts.is_empty() {
                1
            } else {
                mex(opts.iter().map(|o| r(o).misere))
            },
            normal: mex(opts.iter().map(|o| r(o).normal)),
            opts: opts.into(),
        };
        let id = self.recs.len() as Form;
        self.words += rec.opts.len() as u64;
        self.index.insert(rec.opts.clone(), id);
        self.recs.push(rec);
        id
    }

    /// The canonical form of the game whose options have the canonical forms `opts`.
    pub fn canon(&mut self, mut opts: Vec<Form>, ctl: &Ctl) -> Result<Form> {
        opts.sort_unstable();
        opts.dedup();
        if let Some(&g) = self.index.get(&opts[..]) {
            return Ok(g);
        }
        if opts.iter().all(|&o| self.has_option(o, ZERO))
            && opts.iter().any(|&o| self.misere_nimber(o) == 0)
        {
            return Ok(ZERO);
        }
        // K's options are born before K and the reversible options after it: K's options are
        // the options up to a gap of two or more in the birthdays
        let mut by_day = opts.clone();
        by_day.sort_unstable_by_key(|&o| (self.birthday(o), o));
        for j in 1..by_day.len() {
            if self.birthday(by_day[j]) > self.birthday(by_day[j - 1]) + 1 {
                let mut head = by_day[..j].to_vec();
                head.sort_unstable();
                if let Some(&k) = self.index.get(&head[..])
                    && by_day[j..].iter().all(|&o| self.has_option(o, k))
                {
                    return Ok(k);
                }
            }
        }
        ctl.check()?;
        let need = self.bytes() + REC_BYTES + 2 * OPT_BYTES * opts.len() as u64;
        ctl.reserve(need, "the misère canonical forms")?;
        Ok(self.make(opts))
    }

    /// The nim-heap *n.
    pub fn nim(&mut self, n: u32, ctl: &Ctl) -> Result<Form> {
        while self.nims.len() <= n as usize {
            let opts = self.nims.clone();
            let g = self.canon(opts, ctl)?;
            self.nims.push(g);
        }
        Ok(self.nims[n as usize])
    }

    /// The canonical form of the sum a + b.
    pub fn add(&mut self, a: Form, b: Form, ctl: &Ctl) -> Result<Form> {
        let key = |a: Form, b: Form| if a <= b { (a, b) } else { (b, a) };
        // frames: a pair and how many of its options are known
        let mut stack = vec![(key(a, b), 0usize)];
        let mut steps = 0u64;
        while let Some(&((x, y), mut next)) = stack.last() {
            if x == ZERO || self.sums.contains_key(&(x, y)) {
                stack.pop();
                continue;
            }
            steps += 1;
            if steps.is_multiple_of(1024) {
                ctl.check()?;
                ctl.reserve(
                    self.bytes() + stack.len() as u64 * SUM_BYTES,
                    "the sums of misère canonical forms",
                )?;
            }
            let (nx, ny) = (self.options(x).len(), self.options(y).len());
            let mut missing = None;
            while next < nx + ny {
                let k = if next < nx {
                    key(self.options(x)[next], y)
                } else {
                    key(x, self.options(y)[next - nx])
                };
                next += 1;
                if k.0 != ZERO && !self.sums.contains_key(&k) {
                    missing = Some(k);
                    break;
                }
            }
            if let Some(k) = missing {
                stack.last_mut().unwrap().1 = next;
                stack.push((k, 0));
                continue;
            }
            let sum = |s: &Self, k: (Form, Form)| if k.0 == ZERO { k.1 } else { s.sums[&k] };
            let mut opts = Vec::with_capacity(nx + ny);
            opts.extend(self.options(x).iter().map(|&o| sum(self, key(o, y))));
            opts.extend(self.options(y).iter().map(|&o| sum(self, key(x, o))));
            let g = self.canon(opts, ctl)?;
            self.sums.insert((x, y), g);
            stack.pop();
        }
        let k = key(a, b);
        Ok(if k.0 == ZERO { k.1 } else { self.sums[&k] })
    }

    /// `g` in CGSuite's notation for misère canonical forms: `*[0]`, `*[2]`, `*[2#]` (the game
    /// whose only option is *2), `*[2#0]` (options listed, the largest first), `*[2[2]]` (a
    /// subscript: *2 + *2), `*[2[#1]]` (2# + *), `*[(2#1)[-2]]` (a subscript minus: 2#1 − *2);
    /// heaps of 10 and more are written `&10;`.
    pub fn display(&mut self, g: Form, ctl: &Ctl) -> Result<String> {
        let mut out = String::new();
        let mut sub = false;
        self.write(g, &mut out, false, &mut sub, ctl)?;
        if sub {
            out.push(']');
        }
        Ok(format!("*[{out}]"))
    }

    /// CGSuite's printer: a nim-heap as its size; else, as X plus or minus a nim-heap *i when
    /// such an X is born earlier; else an odd game as its even part plus *; else its options.
    /// `sub` says a subscript is open (set when one is opened, so that the caller closes it).
    fn write(
        &mut self,
        g: Form,
        out: &mut String,
        paren: bool,
        sub: &mut bool,
        ctl: &Ctl,
    ) -> Result<()> {
        ctl.check()?;
        if out.len() > MAX_TEXT {
            return Err(Error::limit(format!(
                "the misère canonical form takes more than {} characters to print",
                crate::engine::control::num(MAX_TEXT)
            ))
            .hint("ask for its genus, or for a smaller position"));
        }
        let b = self.birthday(g);
        if self.nim(b, ctl)? == g {
            out.push_str(&digit(b));
            if *sub {
                out.push('[');
            }
            return Ok(());
        }
        self.prep(g, ctl)?;
        let (even, odd) = self.parity[&g];
        let mut i = if odd { 3 } else { 2 };
        while i < b {
            if let Some(x) = self.minus(g, i, ctl)?
                && self.birthday(x) < b
            {
                *sub = true;
                self.write(x, out, true, sub, ctl)?;
                out.push_str(&digit(i));
                return Ok(());
            }
            let n = self.nim(i, ctl)?;
            let s = self.add(g, n, ctl)?;
            if self.birthday(s) < b {
                *sub = true;
                self.write(s, out, true, sub, ctl)?;
                out.push('-');
                out.push_str(&digit(i));
                return Ok(());
            }
            i += 2;
        }
        if odd {
            *sub = true;
            self.write(even, out, true, sub, ctl)?;
            out.push('1');
            return Ok(());
        }
        let opts = self.order[&g].clone();
        if let [o] = opts[..] {
            self.write(o, out, true, sub, ctl)?;
            out.push('#');
            return Ok(());
        }
        let outer = *sub;
        if paren {
            out.push('(');
        }
        for &o in opts.iter().rev() {
            let mut s = false;
            self.write(o, out, true, &mut s, ctl)?;
            if s {
                out.push(']');
            }
        }
        if paren {
            out.push(')');
        }
        *sub = outer;
        if *sub {
            out.push('[');
        }
        Ok(())
    }

    /// X with X + *i = g, if there is one (unique by Conway's cancellation theorem): tried as
    /// the game of the differences of g's options, and kept only if it adds back to g. This
    /// can miss a difference whose sum lost options to reversibility; printing then lists
    /// options where CGSuite, which searches all partitions, writes a subscript.
    fn minus(&mut self, g: Form, i: u32, ctl: &Ctl) -> Result<Option<Form>> {
        if let Some(&x) = self.diffs.get(&(g, i)) {
            return Ok(x);
        }
        let n = self.nim(i, ctl)?;
        let x = if g == n {
            Some(ZERO)
        } else if g == ZERO {
            None
        } else if i % 2 == 1 {
            // G − *i = (G + *) − *(i − 1), as * + * = 0
            let star = self.nim(1, ctl)?;
            let h = self.add(g, star, ctl)?;
            self.minus(h, i - 1, ctl)?
        } else {
            let mut xs = vec![];
            for o in self.options(g).to_vec() {
                xs.extend(self.minus(o, i, ctl)?);
            }
            let x = self.canon(xs, ctl)?;
            (self.add(x, n, ctl)? == g).then_some(x)
        };
        self.diffs.insert((g, i), x);
        Ok(x)
    }

    /// Even parts and CGSuite's order of options, for `g` and what its printing compares.
    fn prep(&mut self, g: Form, ctl: &Ctl) -> Result<()> {
        if self.parity.contains_key(&g) {
            return Ok(());
        }
        let star = self.nim(1, ctl)?;
        let h = self.add(g, star, ctl)?;
        let (even, odd) = if self.birthday(h) < self.birthday(g) {
            (h, true)
        } else {
            (g, false)
        };
        if !self.order.contains_key(&even) {
            let mut opts = self.options(even).to_vec();
            for &o in &opts {
                self.prep(o, ctl)?;
            }
            opts.sort_by(|&a, &b| self.cmp(a, b));
            self.order.insert(even, opts);
        }
        self.parity.insert(even, (even, false));
        self.parity.insert(g, (even, odd));
        Ok(())
    }

    /// CGSuite's canonical order: by the even part's birthday, number of options, normal and
    /// misère nimbers, then its options in this order; an even game before its odd partner.
    fn cmp(&self, a: Form, b: Form) -> Ordering {
        let ((ea, oa), (eb, ob)) = (self.parity[&a], self.parity[&b]);
        let key = |e: Form| {
            let r = &self.recs[e as usize];
            (r.birthday, r.opts.len(), r.normal, r.misere)
        };
        key(ea).cmp(&key(eb)).then_with(|| {
            self.order[&ea]
                .iter()
                .zip(&self.order[&eb])
                .map(|(&x, &y)| self.cmp(x, y))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
                .then(oa.cmp(&ob))
        })
    }
}

/// A heap size as CGSuite writes it in a form.
fn digit(n: u32) -> String {
    if n < 10 {
        n.to_string()
    } else {
        format!("&{n};")
    }
}

/// Canonical forms of positions of a game, memoized by position; a move to several components
/// gives the sum of their forms.
pub struct FormSearch<P> {
    memo: HashMap<P, Form>,
}

/// About the bytes a memoized position or a component of an option takes.
const POS_BYTES: u64 = 64;

fn comps<P>(opts: &[Vec<P>]) -> u64 {
    opts.iter().map(|o| o.len() as u64).sum()
}

impl<P: Clone + Eq + Hash + Ord> Default for FormSearch<P> {
    fn default() -> Self {
        FormSearch {
            memo: HashMap::new(),
        }
    }
}

impl<P: Clone + Eq + Hash + Ord> FormSearch<P> {
    /// The canonical form of the position `root` of `game`.
    pub fn form<G: Game<Pos = P>>(
        &mut self,
        forms: &mut Forms,
        game: &mut G,
        root: &P,
        ctl: &Ctl,
    ) -> std::result::Result<Form, G::Error> {
        if let Some(&f) = self.memo.get(root) {
            return Ok(f);
        }
        let task = ctl.task("misère canonical forms (positions)", None);
        // frames: a position, its options, and the next (option, component) to look at
        let first = game.options(root)?;
        // the components the frames hold
        let mut held = comps(&first);
        let mut stack = vec![(root.clone(), first, (0usize, 0usize))];
        let mut steps = 0u64;
        while !stack.is_empty() {
            steps += 1;
            if steps.is_multiple_of(1024) {
                task.set(self.memo.len() as u64)?;
                ctl.reserve(
                    forms.bytes()
                        + (self.memo.len() + stack.len()) as u64 * POS_BYTES
                        + held * POS_BYTES,
                    "the misère canonical forms",
                )?;
            }
            let (_, opts, (i, j)) = stack.last_mut().unwrap();
            let mut next = None;
            while *i < opts.len() {
                if *j >= opts[*i].len() {
                    (*i, *j) = (*i + 1, 0);
                    continue;
                }
                let c = &opts[*i][*j];
                *j += 1;
                if !self.memo.contains_key(c) {
                    next = Some(c.clone());
                    break;
                }
            }
            if let Some(c) = next {
                if stack.len() >= MAX_LINE {
                    return Err(Error::limit(
                        "the search for the misère canonical form followed too many moves in a row",
                    )
                    .hint("every move must lead towards the end of the game")
                    .into());
                }
                let o = game.options(&c)?;
                held += comps(&o);
                stack.push((c, o, (0, 0)));
                ctl.reserve(
                    forms.bytes()
                        + (self.memo.len() + stack.len()) as u64 * POS_BYTES
                        + held * POS_BYTES,
                    "the misère canonical forms",
                )?;
                continue;
            }
            let (p, opts, _) = stack.pop().unwrap();
            held -= comps(&opts);
            if self.memo.contains_key(&p) {
                continue;
            }
            let mut fs = Vec::with_capacity(opts.len());
            for o in &opts {
                let mut s = ZERO;
                for c in o {
                    s = forms.add(s, self.memo[c], ctl)?;
                }
                fs.push(s);
            }
            let f = forms.canon(fs, ctl)?;
            self.memo.insert(p, f);
        }
        Ok(self.memo[root])
    }
}
