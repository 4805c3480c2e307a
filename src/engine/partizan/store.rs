//! The game store: every canonical form is one node of an arena, found again by its sorted
//! option ids, so equal games are the same [`Game`] id. Construction from options reduces to
//! canonical form (dominated options removed, reversible ones bypassed: Siegel, *Combinatorial
//! Game Theory*, ch. II); sums, negatives and comparisons are memoized by id.
use super::dyadic::Dyadic;
use super::thermo::Thermograph;
use crate::engine::control::over_budget;
use crate::engine::{Ctl, Error, Result};
use std::collections::HashMap;
use std::sync::Arc;

/// A canonical form's key: its sorted Left and Right option ids.
type Options = (Arc<[Game]>, Arc<[Game]>);

pub(super) type Map<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

/// A canonical short game: an id into its [`Store`]. Equal games have equal ids.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Game(u32);

impl Game {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A number plus a multiple of ↑ plus a nimber: `number + ups·↑ + *nim`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Nus {
    pub number: Dyadic,
    pub ups: i64,
    pub nim: u32,
}

/// Outcome classes: who wins with best play.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// Left wins whoever starts
    L,
    /// Right wins whoever starts
    R,
    /// the player to move wins
    N,
    /// the previous player (the one not to move) wins
    P,
}

impl Outcome {
    /// The class from whether Left wins moving first and whether Right does.
    pub fn of(left_wins: bool, right_wins: bool) -> Outcome {
        match (left_wins, right_wins) {
            (true, true) => Outcome::N,
            (true, false) => Outcome::L,
            (false, true) => Outcome::R,
            (false, false) => Outcome::P,
        }
    }
}

/// The order between two games: short games are partially ordered.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Relation {
    Less,
    Equal,
    Greater,
    /// confused with (‖): neither ≤ nor ≥
    Fuzzy,
}

struct Node {
    left: Arc<[Game]>,
    right: Arc<[Game]>,
    /// numbers get their options when first asked (so `1000` is one node, not a chain)
    lazy: bool,
    nus: Option<Nus>,
    birthday: u32,
    left_stop: Dyadic,
    right_stop: Dyadic,
}

/// Bytes a node takes with its share of the tables (the memory estimate).
const NODE_BYTES: u64 = 160;

/// The most slots of the comparison cache (8 bytes each).
const LEQ_SLOTS: usize = 1 << 20;

/// The arena of canonical forms and the memo tables of the operations on them (`Send`, so a
/// store can move to a worker thread).
pub struct Store {
    nodes: Vec<Node>,
    by_options: Map<Options, Game>,
    numbers: Map<Dyadic, Game>,
    neg: Map<Game, Game>,
    sums: Map<(Game, Game), Game>,
    /// A lossy cache of comparisons `(G, H) → G ≤ H`, a slot per hash of the pair: a later
    /// result overwrites an earlier one and a lost one is recomputed, so the cache's memory
    /// follows the store's size up to [`LEQ_SLOTS`] instead of the number of comparisons
    /// (and a small table stays in the processor's cache).
    leq: Vec<u64>,
    pub(super) thermo: Map<Game, Arc<Thermograph>>,
    pub(super) cooled: Map<(Game, Dyadic), Game>,
    pub(super) heated: Map<(Game, Dyadic), Game>,
    ctl: Ctl,
    budget: u64,
    /// Bytes of this store that the session already counts among what it keeps.
    counted: u64,
    steps: u64,
}

impl Default for Store {
    fn default() -> Store {
        Store::new(&Ctl::default())
    }
}

impl Store {
    /// An empty store; its long operations poll `ctl` and keep to its memory budget.
    pub fn new(ctl: &Ctl) -> Store {
        let mut s = Store {
            nodes: vec![],
            by_options: Map::default(),
            numbers: Map::default(),
            neg: Map::default(),
            sums: Map::default(),
            leq: vec![0; 1 << 12],
            thermo: Map::default(),
            cooled: Map::default(),
            heated: Map::default(),
            ctl: ctl.clone(),
            budget: ctl.memory(),
            counted: 0,
            steps: 0,
        };
        s.number(Dyadic::ZERO).expect("zero fits");
        s
    }

    /// Polls cancellation of new operations against `ctl` from now on.
    pub fn set_ctl(&mut self, ctl: &Ctl) {
        self.ctl = ctl.clone();
        // `ctl.memory()` leaves out what the session keeps, this store's counted bytes among
        // them; its growth since then is not kept yet, so it is not added
        self.budget = ctl.memory().saturating_add(self.counted);
    }

    /// Tells the store how many of its bytes the session counts as kept (after each query).
    pub fn set_counted(&mut self, bytes: u64) {
        self.counted = bytes;
    }

    /// How many canonical forms the store holds.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The estimated bytes the store holds.
    pub fn bytes(&self) -> u64 {
        let entries = self.nodes.len() + self.sums.len();
        entries as u64 * NODE_BYTES + self.leq.len() as u64 * 8
    }

    /// Drops the memo tables of the operations (sums, negatives, comparisons, thermographs,
    /// cooling and heating); the canonical forms stay, since values name them by id.
    pub fn forget_memos(&mut self) {
        self.neg = Map::default();
        self.sums = Map::default();
        self.leq = vec![0; 1 << 12];
        self.thermo = Map::default();
        self.cooled = Map::default();
        self.heated = Map::default();
    }

    pub(super) fn tick(&mut self) -> Result<()> {
        self.steps += 1;
        self.ctl.check()?;
        if self.steps.is_multiple_of(1024) {
            let bytes = self.bytes();
            if bytes > self.budget {
                return Err(over_budget(bytes, self.budget, "the canonical-form store"));
            }
        }
        Ok(())
    }

    fn node(&self, g: Game) -> &Node {
        &self.nodes[g.index()]
    }

    pub fn zero(&self) -> Game {
        Game(0)
    }

    /// The canonical form of a number.
    pub fn number(&mut self, x: Dyadic) -> Result<Game> {
        if let Some(&g) = self.numbers.get(&x) {
            return Ok(g);
        }
        let birthday =
            x.numerator().unsigned_abs().div_ceil(1u64 << x.exponent()) + x.exponent() as u64;
        let g = self.push(Node {
            left: Arc::from([]),
            right: Arc::from([]),
            lazy: true,
            nus: Some(Nus {
                number: x,
                ups: 0,
                nim: 0,
            }),
            birthday: u32::try_from(birthday).map_err(|_| Error::limit("number too large"))?,
            left_stop: x,
            right_stop: x,
        })?;
        self.numbers.insert(x, g);
        Ok(g)
    }

    pub fn integer(&mut self, n: i64) -> Result<Game> {
        self.number(Dyadic::int(n))
    }

    fn push(&mut self, n: Node) -> Result<Game> {
        let id = u32::try_from(self.nodes.len())
            .map_err(|_| Error::limit("more than 2^32 games in the store"))?;
        self.nodes.push(n);
        Ok(Game(id))
    }

    /// Left options of a canonical form.
    pub fn left(&mut self, g: Game) -> Result<Arc<[Game]>> {
        self.fill(g)?;
        Ok(self.node(g).left.clone())
    }
    /// Right options of a canonical form.
    pub fn right(&mut self, g: Game) -> Result<Arc<[Game]>> {
        self.fill(g)?;
        Ok(self.node(g).right.clone())
    }

    /// Gives a number its options: n-1 | (n > 0), | n+1 (n < 0), (m-1)/2^k | (m+1)/2^k.
    fn fill(&mut self, g: Game) -> Result<()> {
        if !self.node(g).lazy {
            return Ok(());
        }
        let x = self.node(g).left_stop;
        let (l, r) = if x.is_integer() {
            let n = x.numerator();
            match n.signum() {
                1 => (vec![self.integer(n - 1)?], vec![]),
                -1 => (vec![], vec![self.integer(n + 1)?]),
                _ => (vec![], vec![]),
            }
        } else {
            let (m, k) = (x.numerator(), x.exponent());
            (
                vec![self.number(Dyadic::new(m - 1, k)?)?],
                vec![self.number(Dyadic::new(m + 1, k)?)?],
            )
        };
        let n = &mut self.nodes[g.index()];
        n.left = l.into();
        n.right = r.into();
        n.lazy = false;
        Ok(())
    }

    /// The number, ↑-multiple and nimber of a game of that form.
    pub fn nus(&self, g: Game) -> Option<Nus> {
        self.node(g).nus
    }
    /// The value when `g` is a number.
    pub fn as_number(&self, g: Game) -> Option<Dyadic> {
        self.nus(g)
            .filter(|n| n.ups == 0 && n.nim == 0)
            .map(|n| n.number)
    }
    pub fn is_number(&self, g: Game) -> bool {
        self.as_number(g).is_some()
    }
    /// The nim value when `g` is a nimber.
    pub fn as_nimber(&self, g: Game) -> Option<u32> {
        self.nus(g)
            .filter(|n| n.ups == 0 && n.number == Dyadic::ZERO)
            .map(|n| n.nim)
    }
    pub fn birthday(&self, g: Game) -> u32 {
        self.node(g).birthday
    }
    pub fn left_stop(&self, g: Game) -> Dyadic {
        self.node(g).left_stop
    }
    pub fn right_stop(&self, g: Game) -> Dyadic {
        self.node(g).right_stop
    }

    /// Interns a canonical form given by its canonical options (numbers go by value).
    fn intern(&mut self, mut left: Vec<Game>, mut right: Vec<Game>) -> Result<Game> {
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        // a canonical game with at most one number on each side, Left's below Right's, is a number
        if left.len() <= 1 && right.len() <= 1 {
            let l = left.first().map(|&g| self.as_number(g));
            let r = right.first().map(|&g| self.as_number(g));
            if l != Some(None) && r != Some(None) {
                let (l, r) = (l.flatten(), r.flatten());
                if !matches!((l, r), (Some(a), Some(b)) if a >= b) {
                    return self.number(Dyadic::simplest_between(l, r)?);
                }
            }
        }
        let key = (Arc::from(left), Arc::from(right));
        if let Some(&g) = self.by_options.get(&key) {
            return Ok(g);
        }
        let (left, right): (Arc<[Game]>, Arc<[Game]>) = key;
        let birthday = 1 + left
            .iter()
            .chain(right.iter())
            .map(|&o| self.birthday(o))
            .max()
            .unwrap_or(0);
        let left_stop = left
            .iter()
            .map(|&o| self.right_stop(o))
            .max()
            .expect("non-numbers have Left options");
        let right_stop = right
            .iter()
            .map(|&o| self.left_stop(o))
            .min()
            .expect("non-numbers have Right options");
        let nus = self.recognize(&left, &right);
        let g = self.push(Node {
            left: left.clone(),
            right: right.clone(),
            lazy: false,
            nus,
            birthday,
            left_stop,
            right_stop,
        })?;
        self.by_options.insert((left, right), g);
        Ok(g)
    }

    /// Is the canonical form {left | right} one of x + n·↑ + *m? The canonical forms are
    /// x*m = {x*k (k < m) | x*k (k < m)}, and for n ≥ 1 x + n·↑ + *m = {x | x + (n−1)·↑ + *(m⊕1)}
    /// except ↑* = {0, * | 0}; the negatives mirror them.
    fn recognize(&self, left: &[Game], right: &[Game]) -> Option<Nus> {
        let l: Vec<Nus> = left.iter().map(|&g| self.nus(g)).collect::<Option<_>>()?;
        let r: Vec<Nus> = right.iter().map(|&g| self.nus(g)).collect::<Option<_>>()?;
        if left == right {
            let x = l[0].number;
            let mut nims: Vec<u32> = l.iter().map(|n| n.nim).collect();
            nims.sort_unstable();
            let ok = l.iter().all(|n| n.number == x && n.ups == 0)
                && nims.iter().enumerate().all(|(k, &m)| m == k as u32);
            return ok.then_some(Nus {
                number: x,
                ups: 0,
                nim: l.len() as u32,
            });
        }
        let sided = |near: &[Nus], far: &[Nus], sign: i64| -> Option<Nus> {
            let [f] = far else { return None };
            if f.ups * sign < 0 {
                return None;
            }
            let cand = Nus {
                number: f.number,
                ups: f.ups + sign,
                nim: f.nim ^ 1,
            };
            let plain = Nus {
                number: f.number,
                ups: 0,
                nim: 0,
            };
            let mut want = vec![plain];
            if cand.ups == sign && cand.nim == 1 {
                want.push(Nus { nim: 1, ..plain });
            }
            let mut have = near.to_vec();
            have.sort_by_key(|n| n.nim);
            (have == want).then_some(cand)
        };
        sided(&l, &r, 1).or_else(|| sided(&r, &l, -1))
    }

    /// The canonical form of x + n·↑ + *m, built directly from the forms above.
    pub fn nus_game(&mut self, v: Nus) -> Result<Game> {
        let x = self.number(v.number)?;
        if v.ups == 0 {
            if v.nim == 0 {
                return Ok(x);
            }
            // x + *m = {x + *k | x + *k} (k < m), built up from x: m nodes holding m² options
            let m = u64::from(v.nim);
            let need = self.bytes() + m * NODE_BYTES + 4 * m * m;
            if need > self.budget {
                return Err(over_budget(need, self.budget, "the canonical-form store"));
            }
            let mut opts = vec![x];
            for _ in 0..v.nim {
                self.tick()?;
                let g = self.intern(opts.clone(), opts.clone())?;
                opts.push(g);
            }
            return Ok(opts[v.nim as usize]);
        }
        // build up from the nimber end: x*m', then one ↑ (or ↓) at a time
        let sign = v.ups.signum();
        let steps = v.ups.unsigned_abs();
        // a node for each step (`^3000000` is three million of them)
        let need = self
            .bytes()
            .saturating_add(steps.saturating_mul(NODE_BYTES));
        if need > self.budget {
            return Err(over_budget(need, self.budget, "the canonical-form store"));
        }
        let mut nim = if steps % 2 == 1 { v.nim ^ 1 } else { v.nim };
        let mut cur = self.nus_game(Nus { ups: 0, nim, ..v })?;
        for k in 1..=steps {
            self.tick()?;
            nim ^= 1;
            let mut near = vec![x];
            if k == 1 && nim == 1 {
                near.push(self.nus_game(Nus {
                    ups: 0,
                    nim: 1,
                    ..v
                })?);
            }
            cur = if sign > 0 {
                self.intern(near, vec![cur])?
            } else {
                self.intern(vec![cur], near)?
            };
        }
        Ok(cur)
    }

    pub fn nimber(&mut self, m: u32) -> Result<Game> {
        self.nus_game(Nus {
            number: Dyadic::ZERO,
            ups: 0,
            nim: m,
        })
    }

    /// n·↑ (n < 0: ↓s).
    pub fn up(&mut self, n: i64) -> Result<Game> {
        self.nus_game(Nus {
            number: Dyadic::ZERO,
            ups: n,
            nim: 0,
        })
    }

    /// G ≤ H.
    pub fn leq(&mut self, g: Game, h: Game) -> Result<bool> {
        if g == h {
            return Ok(true);
        }
        // stops keep the order, and a number between L(G) < R(H) puts G below it and H above
        // (Siegel, Combinatorial Game Theory, II.6)
        let (lg, rg) = (self.left_stop(g), self.right_stop(g));
        let (lh, rh) = (self.left_stop(h), self.right_stop(h));
        if lg > lh || rg > rh {
            return Ok(false);
        }
        if lg < rh {
            return Ok(true);
        }
        // a slot holds the pair and the answer in its last bit; the pair (0, 0) never comes here,
        // so 0 marks an empty slot (pairs whose second id needs 32 bits are not cached)
        let tag = (g.0 as u64) << 31 | h.0 as u64;
        let cacheable = h.0 >> 31 == 0;
        let slot =
            |len: usize| (tag.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & (len - 1);
        let cached = self.leq[slot(self.leq.len())];
        if cacheable && cached >> 1 == tag {
            return Ok(cached & 1 == 1);
        }
        let b = stacker::maybe_grow(64 * 1024, 4 << 20, || self.leq_fresh(g, h))?;
        let len = self.leq.len();
        if len < LEQ_SLOTS && self.nodes.len() * 4 > len {
            self.leq = vec![0; len * 2];
        }
        if cacheable {
            let i = slot(self.leq.len());
            self.leq[i] = tag << 1 | b as u64;
        }
        Ok(b)
    }

    fn leq_fresh(&mut self, g: Game, h: Game) -> Result<bool> {
        self.tick()?;
        if let (Some(a), Some(b)) = (self.nus(g), self.nus(h)) {
            if a.number != b.number {
                return Ok(a.number < b.number);
            }
            // 0 ≤ (b − a) = k·↑ + *j: true iff k ≥ 2, or k = 1 and j ≠ 1, or k = j = 0
            let (k, j) = (b.ups - a.ups, a.nim ^ b.nim);
            return Ok(k >= 2 || (k == 1 && j != 1) || (k == 0 && j == 0));
        }
        // a number against a non-number: decided by the stops unless they are equal
        if let Some(x) = self.as_number(g) {
            let rs = self.right_stop(h);
            if x != rs {
                return Ok(x < rs);
            }
        }
        if let Some(y) = self.as_number(h) {
            let ls = self.left_stop(g);
            if ls != y {
                return Ok(ls < y);
            }
        }
        for gl in self.left(g)?.iter() {
            if self.leq(h, *gl)? {
                return Ok(false);
            }
        }
        for hr in self.right(h)?.iter() {
            if self.leq(*hr, g)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// How `g` compares with `h`.
    pub fn compare(&mut self, g: Game, h: Game) -> Result<Relation> {
        Ok(match (self.leq(g, h)?, self.leq(h, g)?) {
            (true, true) => Relation::Equal,
            (true, false) => Relation::Less,
            (false, true) => Relation::Greater,
            (false, false) => Relation::Fuzzy,
        })
    }

    /// The outcome class: L when G > 0, R when G < 0, P when G = 0, N when G ‖ 0.
    pub fn outcome(&mut self, g: Game) -> Result<Outcome> {
        let z = self.zero();
        Ok(match self.compare(g, z)? {
            Relation::Greater => Outcome::L,
            Relation::Less => Outcome::R,
            Relation::Equal => Outcome::P,
            Relation::Fuzzy => Outcome::N,
        })
    }

    /// −G.
    pub fn neg(&mut self, g: Game) -> Result<Game> {
        if let Some(&n) = self.neg.get(&g) {
            return Ok(n);
        }
        let n = if let Some(v) = self.nus(g) {
            self.nus_game(Nus {
                number: v.number.neg()?,
                ups: v
                    .ups
                    .checked_neg()
                    .ok_or_else(|| Error::limit("too many ups"))?,
                nim: v.nim,
            })?
        } else {
            stacker::maybe_grow(64 * 1024, 4 << 20, || -> Result<Game> {
                self.tick()?;
                let (l, r) = (self.left(g)?, self.right(g)?);
                let nl = r.iter().map(|&o| self.neg(o)).collect::<Result<Vec<_>>>()?;
                let nr = l.iter().map(|&o| self.neg(o)).collect::<Result<Vec<_>>>()?;
                self.intern(nl, nr)
            })?
        };
        self.neg.insert(g, n);
        self.neg.insert(n, g);
        Ok(n)
    }

    /// G + H.
    pub fn add(&mut self, g: Game, h: Game) -> Result<Game> {
        let (g, h) = if g <= h { (g, h) } else { (h, g) };
        if g == self.zero() {
            return Ok(h);
        }
        if let Some(&s) = self.sums.get(&(g, h)) {
            return Ok(s);
        }
        let s = stacker::maybe_grow(64 * 1024, 4 << 20, || self.add_fresh(g, h))?;
        self.sums.insert((g, h), s);
        Ok(s)
    }

    fn add_fresh(&mut self, g: Game, h: Game) -> Result<Game> {
        self.tick()?;
        if let (Some(a), Some(b)) = (self.nus(g), self.nus(h)) {
            return self.nus_game(Nus {
                number: a.number.add(b.number)?,
                ups: a
                    .ups
                    .checked_add(b.ups)
                    .ok_or_else(|| Error::limit("too many ups"))?,
                nim: a.nim ^ b.nim,
            });
        }
        // number translation: x + H = {HL + x | HR + x} when H is not a number
        let (gn, hn) = (self.is_number(g), self.is_number(h));
        let mut left = vec![];
        let mut right = vec![];
        if !gn {
            for &o in self.left(g)?.iter() {
                left.push(self.add(o, h)?);
            }
            for &o in self.right(g)?.iter() {
                right.push(self.add(o, h)?);
            }
        }
        if !hn {
            for &o in self.left(h)?.iter() {
                left.push(self.add(g, o)?);
            }
            for &o in self.right(h)?.iter() {
                right.push(self.add(g, o)?);
            }
        }
        self.canonical(left, right)
    }

    /// G − H.
    pub fn sub(&mut self, g: Game, h: Game) -> Result<Game> {
        let n = self.neg(h)?;
        self.add(g, n)
    }

    /// The sum of many games.
    pub fn sum(&mut self, gs: impl IntoIterator<Item = Game>) -> Result<Game> {
        let mut acc = self.zero();
        for g in gs {
            acc = self.add(acc, g)?;
        }
        Ok(acc)
    }

    /// The canonical form of {left | right}, where the options are canonical forms (any
    /// order, repeats allowed).
    pub fn canonical(&mut self, mut left: Vec<Game>, mut right: Vec<Game>) -> Result<Game> {
        loop {
            self.tick()?;
            left.sort_unstable();
            left.dedup();
            right.sort_unstable();
            right.dedup();
            self.undominated(&mut left, true)?;
            self.undominated(&mut right, false)?;
            let mut memo = Map::default();
            if !self.bypass_one(&mut left, &right, true, &mut memo)?
                && !self.bypass_one(&mut right, &left, false, &mut memo)?
            {
                return self.intern(left, right);
            }
        }
    }

    /// Bypasses the first reversible option of one side (`left`: Left's options `mine`, with
    /// Right's `theirs`): GL is reversible through a GLR ≤ G and gives way to GLR's Left
    /// options (mirrored for Right). Returns whether one was found.
    fn bypass_one(
        &mut self,
        mine: &mut Vec<Game>,
        theirs: &[Game],
        left: bool,
        memo: &mut Map<(Game, bool), bool>,
    ) -> Result<bool> {
        for i in 0..mine.len() {
            let o = mine[i];
            let back = if left { self.right(o)? } else { self.left(o)? };
            for &b in back.iter() {
                let reverses = if left {
                    self.le_virtual(b, mine, theirs, true, memo)?
                } else {
                    self.le_virtual(b, theirs, mine, false, memo)?
                };
                if reverses {
                    mine.swap_remove(i);
                    mine.extend(if left { self.left(b)? } else { self.right(b)? }.iter());
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Keeps the options not dominated by another (Left keeps its largest, Right its smallest).
    fn undominated(&mut self, opts: &mut Vec<Game>, left: bool) -> Result<()> {
        let mut keep = vec![true; opts.len()];
        for i in 0..opts.len() {
            if !keep[i] {
                continue;
            }
            for j in 0..opts.len() {
                if i == j || !keep[j] {
                    continue;
                }
                let (a, b) = if left {
                    (opts[i], opts[j])
                } else {
                    (opts[j], opts[i])
                };
                // option i is dominated by j
                if self.leq(a, b)? {
                    keep[i] = false;
                    break;
                }
            }
        }
        let mut k = keep.iter();
        opts.retain(|_| *k.next().unwrap());
        Ok(())
    }

    /// With V = {vl | vr}: `h ≤ V` when `below`, else `h ≥ V`. V is not yet canonical, so
    /// these comparisons are memoized per construction in `memo`.
    fn le_virtual(
        &mut self,
        h: Game,
        vl: &[Game],
        vr: &[Game],
        below: bool,
        memo: &mut Map<(Game, bool), bool>,
    ) -> Result<bool> {
        if let Some(&b) = memo.get(&(h, below)) {
            return Ok(b);
        }
        let b = stacker::maybe_grow(64 * 1024, 4 << 20, || -> Result<bool> {
            self.tick()?;
            if below {
                // h ≤ V: no VR ≤ h, and no HL with V ≤ HL
                for &r in vr {
                    if self.leq(r, h)? {
                        return Ok(false);
                    }
                }
                for &hl in self.left(h)?.iter() {
                    if self.le_virtual(hl, vl, vr, false, memo)? {
                        return Ok(false);
                    }
                }
            } else {
                // h ≥ V: no VL ≥ h, and no HR with HR ≤ V
                for &l in vl {
                    if self.leq(h, l)? {
                        return Ok(false);
                    }
                }
                for &hr in self.right(h)?.iter() {
                    if self.le_virtual(hr, vl, vr, true, memo)? {
                        return Ok(false);
                    }
                }
            }
            Ok(true)
        })?;
        memo.insert((h, below), b);
        Ok(b)
    }
}
