//! Deterministic Schreier–Sims: base, strong generators and transversals of a permutation
//! group given by generators. The order is the product of the basic orbit lengths.
use super::perm::Perm;
use num_bigint::BigUint;

/// One level of the stabilizer chain: the base point, the strong generators fixing the
/// earlier base points, and a transversal (rep[i] maps the base point to orbit[i]).
#[derive(Clone, Debug)]
pub struct Level {
    pub point: usize,
    pub gens: Vec<Perm>,
    pub orbit: Vec<usize>,
    pub reps: Vec<Perm>,
    /// position of a point in `orbit`, or u32::MAX
    pub pos: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct StabChain {
    pub degree: usize,
    pub levels: Vec<Level>,
}

impl Level {
    fn new(point: usize, degree: usize) -> Level {
        let mut l = Level {
            point,
            gens: vec![],
            orbit: vec![],
            reps: vec![],
            pos: vec![],
        };
        l.rebuild(degree);
        l
    }

    fn rebuild(&mut self, degree: usize) {
        self.orbit = vec![self.point];
        self.reps = vec![Perm::identity(degree)];
        self.pos = vec![u32::MAX; degree];
        self.pos[self.point] = 0;
        let mut i = 0;
        while i < self.orbit.len() {
            for g in &self.gens {
                let q = g.apply(self.orbit[i]);
                if self.pos[q] == u32::MAX {
                    self.pos[q] = self.orbit.len() as u32;
                    self.orbit.push(q);
                    self.reps.push(self.reps[i].then(g));
                }
            }
            i += 1;
        }
    }
}

impl StabChain {
    pub fn new(degree: usize, gens: &[Perm]) -> StabChain {
        match StabChain::build(degree, gens, &crate::engine::Ctl::default()) {
            Ok(c) => c,
            Err(_) => unreachable!("a handle that is never cancelled"),
        }
    }

    /// Schreier–Sims, polling `ctl` for cancellation (degree 144 and more can take long).
    pub fn build(
        degree: usize,
        gens: &[Perm],
        ctl: &crate::engine::Ctl,
    ) -> crate::engine::Result<StabChain> {
        let task = ctl.task("Schreier–Sims (generators sifted)", None);
        let mut chain = StabChain {
            degree,
            levels: vec![],
        };
        let gens: Vec<Perm> = gens
            .iter()
            .map(|g| g.extended(degree))
            .filter(|g| !g.is_identity())
            .collect();
        for g in gens {
            let (res, j) = chain.strip(&g, 0);
            if !res.is_identity() {
                chain.add_strong_generator(res, 0, j);
                chain.complete(&task)?;
            }
        }
        Ok(chain)
    }

    /// Sift g through the levels from `from`; returns the residue and the level it stopped at.
    pub fn strip(&self, g: &Perm, from: usize) -> (Perm, usize) {
        let mut h = g.clone();
        for (i, l) in self.levels.iter().enumerate().skip(from) {
            let beta = h.apply(l.point);
            let k = l.pos[beta];
            if k == u32::MAX {
                return (h, i);
            }
            h = h.then(&l.reps[k as usize].inverse());
        }
        let n = self.levels.len();
        (h, n)
    }

    /// Add g, which fixes the base points before `from`, as a strong generator of levels
    /// `from..=to`, opening a new level (at a point g moves) when `to` is past the end.
    fn add_strong_generator(&mut self, g: Perm, from: usize, to: usize) {
        for l in from..=to {
            if l == self.levels.len() {
                let moved = (0..self.degree)
                    .find(|&p| g.apply(p) != p)
                    .expect("non-identity residue");
                self.levels.push(Level::new(moved, self.degree));
            }
            self.levels[l].gens.push(g.clone());
            self.levels[l].rebuild(self.degree);
        }
    }

    /// Check every Schreier generator, deepest level first, until all sift to the identity.
    fn complete(&mut self, task: &crate::engine::control::Task) -> crate::engine::Result<()> {
        let mut i = self.levels.len();
        'outer: while i > 0 {
            let lvl = i - 1;
            let (orbit_len, ngens) = (self.levels[lvl].orbit.len(), self.levels[lvl].gens.len());
            for k in 0..orbit_len {
                for s in 0..ngens {
                    let l = &self.levels[lvl];
                    let beta = l.orbit[k];
                    let gamma = l.gens[s].apply(beta);
                    let sg = l.reps[k]
                        .then(&l.gens[s])
                        .then(&l.reps[l.pos[gamma] as usize].inverse());
                    task.tick(1)?;
                    if sg.is_identity() {
                        continue;
                    }
                    let (res, j) = self.strip(&sg, lvl + 1);
                    if !res.is_identity() {
                        self.add_strong_generator(res, lvl + 1, j);
                        // recheck from the deepest level that changed
                        i = j + 1;
                        continue 'outer;
                    }
                }
            }
            i -= 1;
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
