//! Schreier–Sims: base, strong generators and transversals of a permutation group given by
//! generators. The order is the product of the basic orbit lengths.
//!
//! The chain is first grown from random elements (random Schreier–Sims: sift a random element,
//! add what is left of it), which finds a base and, nearly always, the order; it is rebuilt on
//! that base with a few generators a level, and then proven complete by the deterministic
//! test: every Schreier generator of every level sifts through the levels below it (Sims).
//! Only a known order may stop before that test: a chain whose orbit lengths multiply to |G|
//! is complete. The order is known for a giant (`build_known`), or when the random chain meets
//! the upper bound from G's orbits and blocks (bound.rs); the chain is then grown again on its
//! base points in order, with the order as its stop.
use super::bound::{order_bound, root};
use super::perm::Perm;
use crate::engine::control::{Task, over_budget};
use crate::engine::{Ctl, Result};
use num_bigint::BigUint;
use rayon::prelude::*;

/// One level of the stabilizer chain: the base point, the strong generators fixing the
/// earlier base points, and a transversal (rep[i] maps the base point to orbit[i]).
#[derive(Clone, Debug)]
pub struct Level {
    pub point: usize,
    pub gens: Vec<Perm>,
    pub orbit: Vec<usize>,
    pub reps: Vec<Perm>,
    /// the inverses of `reps`, for sifting
    inv: Vec<Perm>,
    /// the Schreier tree: orbit[i] was first reached from orbit[tree[i].0] by gens[tree[i].1]
    tree: Vec<(u32, u32)>,
    /// position of a point in `orbit`, or u32::MAX
    pub pos: Vec<u32>,
    /// the points the generators move: everything below this level happens there
    support: Vec<usize>,
    in_support: Vec<bool>,
}

#[derive(Clone, Debug)]
pub struct StabChain {
    pub degree: usize,
    pub levels: Vec<Level>,
    /// new base points are taken orbit by orbit of G (this key, least first), so that the
    /// stabilizers deep in the chain move few points and sifting there is cheap
    key: Vec<usize>,
}

impl Level {
    fn new(point: usize, degree: usize) -> Level {
        let mut pos = vec![u32::MAX; degree];
        pos[point] = 0;
        Level {
            point,
            gens: vec![],
            orbit: vec![point],
            reps: vec![Perm::identity(degree)],
            inv: vec![Perm::identity(degree)],
            tree: vec![(u32::MAX, u32::MAX)],
            pos,
            support: vec![],
            in_support: vec![false; degree],
        }
    }

    /// Adds a generator and extends the orbit and transversal by what it newly reaches.
    fn add_gen(&mut self, g: Perm) {
        for (x, &y) in g.images().iter().enumerate() {
            if x != y as usize && !self.in_support[x] {
                self.in_support[x] = true;
                self.support.push(x);
            }
        }
        self.gens.push(g);
        let s = self.gens.len() - 1;
        let old = self.orbit.len();
        for i in 0..old {
            self.visit(i, s);
        }
        let mut i = old;
        while i < self.orbit.len() {
            for s in 0..self.gens.len() {
                self.visit(i, s);
            }
            i += 1;
        }
    }

    fn visit(&mut self, i: usize, s: usize) {
        let q = self.gens[s].apply(self.orbit[i]);
        if self.pos[q] == u32::MAX {
            self.pos[q] = self.orbit.len() as u32;
            self.orbit.push(q);
            let r = self.reps[i].then(&self.gens[s]);
            self.inv.push(r.inverse());
            self.reps.push(r);
            self.tree.push((i as u32, s as u32));
        }
    }
}

/// Product-replacement random elements (Celler, Leedham-Green, Murray, Niemeyer, O'Brien) with
/// an accumulator; a fixed seed, so that runs repeat exactly.
pub struct RandomElements {
    slots: Vec<Perm>,
    acc: Perm,
    state: u64,
}

impl RandomElements {
    pub fn new(degree: usize, gens: &[Perm]) -> RandomElements {
        RandomElements::seeded(degree, gens, 0)
    }

    /// Another fixed sequence for each seed.
    pub fn seeded(degree: usize, gens: &[Perm], seed: u64) -> RandomElements {
        let mut slots: Vec<Perm> = gens.iter().map(|g| g.extended(degree)).collect();
        if slots.is_empty() {
            slots.push(Perm::identity(degree));
        }
        while slots.len() < 10 {
            slots.push(slots[slots.len() % gens.len().max(1)].clone());
        }
        let mut r = RandomElements {
            slots,
            acc: Perm::identity(degree),
            state: 0x9e37_79b9_7f4a_7c15 ^ seed.wrapping_mul(0xd1b5_4a32_d192_ed03),
        };
        for _ in 0..50 {
            r.next_element();
        }
        r
    }

    fn next_u64(&mut self) -> u64 {
        // splitmix64
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn next_element(&mut self) -> Perm {
        let n = self.slots.len() as u64;
        let i = (self.next_u64() % n) as usize;
        let mut j = (self.next_u64() % (n - 1)) as usize;
        if j >= i {
            j += 1;
        }
        let r = self.next_u64();
        let other = if r & 1 == 0 {
            self.slots[j].clone()
        } else {
            self.slots[j].inverse()
        };
        self.slots[i] = if r & 2 == 0 {
            self.slots[i].then(&other)
        } else {
            other.then(&self.slots[i])
        };
        self.acc = self.acc.then(&self.slots[i]);
        self.acc.clone()
    }
}

/// Random elements in a row that must sift through before the random phase stops.
const SIFTED_IN_A_ROW: usize = 30;
/// Random stabilizer elements in a row that join no two orbits before a level of the rebuilt
/// chain has its generators (fewer costs repairs in Sims' test, more costs sifts there).
const IDLE_IN_A_ROW: usize = 3;

impl StabChain {
    pub fn new(degree: usize, gens: &[Perm]) -> StabChain {
        match StabChain::build(degree, gens, &Ctl::default().with_memory(u64::MAX)) {
            Ok(c) => c,
            Err(_) => unreachable!("a handle that is never cancelled and has no memory bound"),
        }
    }

    /// Random Schreier–Sims, then Sims' deterministic test; polls `ctl` for cancellation and
    /// refuses transversals past its memory budget.
    pub fn build(degree: usize, gens: &[Perm], ctl: &Ctl) -> Result<StabChain> {
        StabChain::build_with(degree, gens, None, true, ctl)
    }

    /// The chain of a group whose order is known by proof (a giant): random Schreier–Sims
    /// until the orbit lengths multiply to `order`, the deterministic test only if they do not.
    pub fn build_known(
        degree: usize,
        gens: &[Perm],
        order: &BigUint,
        ctl: &Ctl,
    ) -> Result<StabChain> {
        StabChain::build_with(degree, gens, Some(order), true, ctl)
    }

    /// The deterministic Schreier–Sims alone (no random phase), kept as the reference the
    /// random one is tested against.
    pub fn deterministic(degree: usize, gens: &[Perm], ctl: &Ctl) -> Result<StabChain> {
        StabChain::build_with(degree, gens, None, false, ctl)
    }

    fn build_with(
        degree: usize,
        gens: &[Perm],
        known: Option<&BigUint>,
        random: bool,
        ctl: &Ctl,
    ) -> Result<StabChain> {
        let task = ctl.task("Schreier–Sims (generators sifted)", None);
        let budget = ctl.memory();
        let gens: Vec<Perm> = gens
            .iter()
            .map(|g| g.extended(degree))
            .filter(|g| !g.is_identity())
            .collect();
        let mut chain = StabChain {
            degree,
            levels: vec![],
            key: orbit_key(degree, &gens),
        };
        chain.sift_in(&gens, budget)?;
        if random {
            chain.grow(&gens, known, &task, budget)?;
        }
        if known.is_some_and(|o| chain.order() == *o) {
            return Ok(chain);
        }
        // the random chain's order is a lower bound (its levels are nested subgroups of G);
        // meeting a proven upper bound, it is the order and the chain is complete
        if random && known.is_none() {
            let order = chain.order();
            if order_bound(degree, &gens, ctl)?.is_some_and(|b| order == b) {
                return chain.rebased(&gens, &order, &task, budget);
            }
        }
        if random {
            chain = chain.regenerated(&gens, &task, budget)?;
        }
        chain.complete(&task, budget)?;
        Ok(chain)
    }

    /// Sifts each generator and adds what is left of it.
    fn sift_in(&mut self, gens: &[Perm], budget: u64) -> Result<()> {
        for g in gens {
            let (res, j) = self.strip(g, 0);
            if !res.is_identity() {
                self.add_strong_generator(res, 0, j, budget)?;
            }
        }
        Ok(())
    }

    /// Random Schreier–Sims: sifts product-replacement random elements of G and adds what is
    /// left of them, until 30 in a row sift through or the orbit lengths multiply to `known`.
    /// Residues join every level from the first, so the levels' groups are nested.
    fn grow(
        &mut self,
        gens: &[Perm],
        known: Option<&BigUint>,
        task: &Task,
        budget: u64,
    ) -> Result<()> {
        if gens.is_empty() {
            return Ok(());
        }
        let mut rng = RandomElements::new(self.degree, gens);
        let mut in_a_row = 0;
        while in_a_row < SIFTED_IN_A_ROW && known.is_none_or(|o| self.order() < *o) {
            task.tick(1)?;
            let (res, j) = self.strip(&rng.next_element(), 0);
            if res.is_identity() {
                in_a_row += 1;
            } else {
                in_a_row = 0;
                self.add_strong_generator(res, 0, j, budget)?;
            }
        }
        Ok(())
    }

    /// A complete chain of order `order` on the same base points taken orbit by orbit of G (as
    /// `regenerated` takes them, so that deep stabilizers move few points and the ranked
    /// search's levels come in that order): random Schreier–Sims on those levels until the
    /// orbit lengths multiply to the order, levels left with one point dropped (their group
    /// is the next one's). This chain if the order is not reached.
    fn rebased(
        self,
        gens: &[Perm],
        order: &BigUint,
        task: &Task,
        budget: u64,
    ) -> Result<StabChain> {
        let mut base = self.base();
        base.sort_unstable_by_key(|&p| (self.key[p], p));
        let mut chain = StabChain {
            degree: self.degree,
            levels: base.iter().map(|&b| Level::new(b, self.degree)).collect(),
            key: self.key.clone(),
        };
        chain.sift_in(gens, budget)?;
        chain.grow(gens, Some(order), task, budget)?;
        if chain.order() != *order {
            return Ok(self);
        }
        chain.levels.retain(|l| l.orbit.len() > 1);
        Ok(chain)
    }

    /// The same base points with a few strong generators a level, for a cheap Sims test (it
    /// sifts |orbit| × |generators| Schreier generators a level; nested generating sets, each
    /// level holding every deeper level's generators, made that about 200 × |orbit| a level on
    /// the 7×7×7 cube). Level 0 takes the given generators of G; each deeper level takes random
    /// elements of the stabilizer of the point above, made from that level's own generators
    /// (a product-replacement element g, then g·u⁻¹ with u the transversal element of the
    /// point's image): each that joins two of their orbits, and the first that does not, until
    /// three in a row join none. Being words in the
    /// generators above, they lie in that level's group, which is all the test needs of them;
    /// if they generate less than the stabilizer, the test finds what is missing and adds it.
    /// The base points are taken orbit by orbit of G, so that deep stabilizers move few points
    /// and sifting there is cheap.
    fn regenerated(&self, gens: &[Perm], task: &Task, budget: u64) -> Result<StabChain> {
        let mut base = self.base();
        base.sort_unstable_by_key(|&p| (self.key[p], p));
        let mut chain = StabChain {
            degree: self.degree,
            levels: vec![],
            key: self.key.clone(),
        };
        let mut t: Vec<Perm> = gens.to_vec();
        for (i, &b) in base.iter().enumerate() {
            let mut level = Level::new(b, self.degree);
            for g in &t {
                level.add_gen(g.clone());
            }
            if level.orbit.len() == 1 {
                continue;
            }
            t.clear();
            if i + 1 < base.len() {
                // a sequence of its own: the same words at every level would repeat a pattern
                let mut rng = RandomElements::seeded(self.degree, &level.gens, i as u64 + 1);
                // the orbits of the elements so far, as a union-find forest
                let mut parent: Vec<usize> = (0..self.degree).collect();
                let mut still = 0;
                while still < IDLE_IN_A_ROW {
                    task.tick(1)?;
                    let g = rng.next_element();
                    let g = g.then(&level.inv[level.pos[g.apply(b)] as usize]);
                    let mut grew = false;
                    for (x, &y) in g.images().iter().enumerate() {
                        let (rx, ry) = (root(&mut parent, x), root(&mut parent, y as usize));
                        if rx != ry {
                            parent[rx.max(ry)] = rx.min(ry);
                            grew = true;
                        }
                    }
                    // one element past the orbits' growth: the group often needs it
                    if !g.is_identity() && (grew || still == 0) {
                        t.push(g);
                    }
                    if grew {
                        still = 0;
                    } else {
                        still += 1;
                    }
                }
            }
            chain.levels.push(level);
            chain.check_budget(budget)?;
        }
        Ok(chain)
    }

    /// Sift g through the levels from `from`; returns the residue and the level it stopped at.
    pub fn strip(&self, g: &Perm, from: usize) -> (Perm, usize) {
        let mut h = g.images().to_vec();
        let j = self.strip_in_place(&mut h, from);
        (Perm::from_images(h), j)
    }

    fn strip_in_place(&self, h: &mut [u16], from: usize) -> usize {
        for (i, l) in self.levels.iter().enumerate().skip(from) {
            let k = l.pos[h[l.point] as usize];
            if k == u32::MAX {
                return i;
            }
            if k == 0 {
                continue;
            }
            let inv = l.inv[k as usize].images();
            h.iter_mut().for_each(|x| *x = inv[*x as usize]);
        }
        self.levels.len()
    }

    /// Sifting that keeps h's inverse too, so that a level changes only the points its
    /// support holds: h·u⁻¹ differs from h only where h lands in the support of u.
    fn strip_sparse(
        &self,
        h: &mut [u16],
        hinv: &mut [u16],
        tmp: &mut Vec<u16>,
        from: usize,
    ) -> usize {
        for (i, l) in self.levels.iter().enumerate().skip(from) {
            let k = l.pos[h[l.point] as usize];
            if k == u32::MAX {
                return i;
            }
            if k == 0 {
                // h fixes the base point: its transversal element is the identity
                continue;
            }
            let inv = l.inv[k as usize].images();
            tmp.clear();
            tmp.extend(l.support.iter().map(|&y| hinv[y]));
            for (&y, &x) in l.support.iter().zip(tmp.iter()) {
                let z = inv[y];
                h[x as usize] = z;
                hinv[z as usize] = x;
            }
        }
        self.levels.len()
    }

    /// Add g, which fixes the base points before `from`, as a strong generator of levels
    /// `from..=to`, opening a new level (at a point g moves) when `to` is past the end.
    fn add_strong_generator(&mut self, g: Perm, from: usize, to: usize, budget: u64) -> Result<()> {
        for l in from..=to {
            if l == self.levels.len() {
                let moved = (0..self.degree)
                    .filter(|&p| g.apply(p) != p)
                    .min_by_key(|&p| (self.key[p], p))
                    .expect("non-identity residue");
                self.levels.push(Level::new(moved, self.degree));
            }
            self.levels[l].add_gen(g.clone());
        }
        self.check_budget(budget)
    }

    fn check_budget(&self, budget: u64) -> Result<()> {
        // transversals and their inverses, 2 bytes a point
        let points: usize = self.levels.iter().map(|l| l.orbit.len()).sum();
        let bytes = (points as u64).saturating_mul(4 * self.degree as u64);
        if bytes > budget {
            return Err(over_budget(bytes, budget, "the stabilizer chain"));
        }
        Ok(())
    }

    /// Sims' test: every Schreier generator of every level, deepest level first, must sift to
    /// the identity through the levels below; one that does not is added, and the levels it
    /// changed are tested again, on their new Schreier generators only: one that sifted through
    /// still does, since levels only grow and keep their transversal elements. The generators
    /// of a level are sifted in parallel; the first failure in their order is the one kept, so
    /// the chain does not depend on thread count.
    fn complete(&mut self, task: &Task, budget: u64) -> Result<()> {
        // per level, the orbit points and generators whose Schreier generators all sift
        let mut tested = vec![(0, 0); self.levels.len()];
        let mut i = self.levels.len();
        while i > 0 {
            let lvl = i - 1;
            let l = &self.levels[lvl];
            let (done_k, done_s) = tested[lvl];
            let pairs: Vec<(usize, usize)> = (0..l.orbit.len())
                .flat_map(|k| (0..l.gens.len()).map(move |s| (k, s)))
                .filter(|&(k, s)| {
                    if k < done_k && s < done_s {
                        return false;
                    }
                    // a tree edge gives the identity
                    let gamma = l.gens[s].apply(l.orbit[k]);
                    l.tree[l.pos[gamma] as usize] != (k as u32, s as u32)
                })
                .collect();
            let chain = &*self;
            let support = &l.support;
            let found = pairs
                .par_iter()
                .map_init(
                    || {
                        let id: Vec<u16> = (0..chain.degree as u16).collect();
                        (id.clone(), id, vec![])
                    },
                    |(h, hinv, tmp), &(k, s)| -> Option<Result<(Perm, usize)>> {
                        if let Err(e) = task.tick(1) {
                            return Some(Err(e));
                        }
                        let l = &chain.levels[lvl];
                        let gamma = l.gens[s].apply(l.orbit[k]);
                        let (u, g) = (l.reps[k].images(), l.gens[s].images());
                        let v = l.inv[l.pos[gamma] as usize].images();
                        // h is the identity off the support, and stays so
                        for &x in support {
                            let y = v[g[u[x] as usize] as usize];
                            h[x] = y;
                            hinv[y as usize] = x as u16;
                        }
                        let j = chain.strip_sparse(h, hinv, tmp, lvl + 1);
                        let id = support.iter().all(|&x| x == h[x] as usize);
                        let out = (!id).then(|| Ok((Perm::from_images(h.clone()), j)));
                        for &x in support {
                            h[x] = x as u16;
                            hinv[x] = x as u16;
                        }
                        out
                    },
                )
                .find_map_first(|r| r);
            match found {
                Some(r) => {
                    let (res, j) = r?;
                    self.add_strong_generator(res, lvl + 1, j, budget)?;
                    tested.resize(self.levels.len(), (0, 0));
                    // recheck from the deepest level that changed
                    i = j + 1;
                }
                None => {
                    tested[lvl] = (l.orbit.len(), l.gens.len());
                    i -= 1;
                }
            }
        }
        Ok(())
    }

    pub fn order(&self) -> BigUint {
        self.levels.iter().fold(BigUint::from(1u32), |acc, l| {
            acc * BigUint::from(l.orbit.len())
        })
    }

    pub fn contains(&self, g: &Perm) -> bool {
        if g.degree() > self.degree
            && g.images()[self.degree..]
                .iter()
                .enumerate()
                .any(|(i, &x)| x as usize != self.degree + i)
        {
            return false;
        }
        let g = g.extended(self.degree);
        let g = Perm::from_images(g.images()[..self.degree].to_vec());
        self.strip(&g, 0).0.is_identity()
    }

    pub fn base(&self) -> Vec<usize> {
        self.levels.iter().map(|l| l.point).collect()
    }
}

/// Each point's G-orbit, numbered by the orbits' least points.
fn orbit_key(degree: usize, gens: &[Perm]) -> Vec<usize> {
    let mut key = vec![usize::MAX; degree];
    for start in 0..degree {
        if key[start] != usize::MAX {
            continue;
        }
        key[start] = start;
        let mut stack = vec![start];
        while let Some(x) = stack.pop() {
            for g in gens {
                let y = g.apply(x);
                if key[y] == usize::MAX {
                    key[y] = start;
                    stack.push(y);
                }
            }
        }
    }
    key
}
