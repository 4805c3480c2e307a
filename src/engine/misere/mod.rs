//! Misère theory of impartial games: Conway's genus (On Numbers and Games, ch. 12; Winning
//! Ways, ch. 13), misère canonical forms, and Plambeck and Siegel's misère quotients of heap
//! games ("Misère quotients for impartial games", JCTA 2008).
use crate::engine::impartial::{Game, mex};
use crate::engine::{Ctl, Error, Result};
use std::collections::HashMap;
use std::fmt;

pub mod canonical;
pub mod quotient;

/// Conway's genus g^{γ0 γ1 γ2 ...}: g is the normal-play nimber, γk the misère nimber of the
/// game plus k copies of *2. The superscript is ultimately periodic with period 2 and is kept
/// as the books write it: up to the point where it starts alternating, the first two terms of
/// the alternation included (0^120, 1^031, 2^20).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Genus {
    pub g: u32,
    pub gammas: Vec<u32>,
}

impl Genus {
    /// The genus of a game whose options have the genera `opts` (Conway's rule: g is the mex
    /// of the options' g; γ0 the mex of their γ0, 1 for a game without options; γk (k ≥ 1) the
    /// mex of their γk together with γ(k-1) and γ(k-1) ⊕ 1, the values of the two moves in a
    /// copy of *2, as the misère nimber of H + *1 is that of H ⊕ 1).
    pub fn of_options(opts: &[&Genus]) -> Genus {
        let g = mex(opts.iter().map(|o| o.g));
        let mut gam = vec![if opts.is_empty() {
            1
        } else {
            mex(opts.iter().map(|o| o.digit(0)))
        }];
        // from index `tail` on every option's superscript alternates: the recurrence then has
        // period 2, and two equal terms two apart repeat for ever
        let tail = opts.iter().map(|o| o.gammas.len()).max().unwrap_or(0);
        let mut k = 1;
        loop {
            let prev = gam[k - 1];
            let v = mex(opts.iter().map(|o| o.digit(k)).chain([prev, prev ^ 1]));
            gam.push(v);
            if k > tail && k >= 2 && gam[k] == gam[k - 2] {
                break;
            }
            k += 1;
        }
        while gam.len() > 2 && gam[gam.len() - 1] == gam[gam.len() - 3] {
            gam.pop();
        }
        Genus { g, gammas: gam }
    }

    /// γk for any k.
    pub fn digit(&self, k: usize) -> u32 {
        let n = self.gammas.len();
        if k < n {
            self.gammas[k]
        } else {
            self.gammas[n - 2 + (k - (n - 2)) % 2]
        }
    }

    /// The misère nimber (γ0): 0 exactly for a misère P-position.
    pub fn misere(&self) -> u32 {
        self.gammas[0]
    }

    /// One of the genera of tame games: 0^120, 1^031, or a^(a, a⊕2) (ONAG, ch. 12).
    pub fn is_tame(&self) -> bool {
        let g = self.g;
        (g == 0 && self.gammas == [1, 2, 0])
            || (g == 1 && self.gammas == [0, 3, 1])
            || self.gammas == [g, g ^ 2]
    }
}

impl fmt::Display for Genus {
    /// As the books and CGSuite print it: `0^120`, with commas and parentheses once a term has
    /// two digits (`2^(10,8)`).
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let parts: Vec<String> = self.gammas.iter().map(|v| v.to_string()).collect();
        if self.gammas.iter().any(|&v| v >= 10) {
            write!(f, "{}^({})", self.g, parts.join(","))
        } else {
            write!(f, "{}^{}", self.g, parts.concat())
        }
    }
}

/// How a game plays in misère sums (ONAG ch. 12; the names of CGSuite's phyla).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// its genus and those of all its positions are tame: it plays like a nim-heap
    Tame,
    /// not tame, every option tame, normal nimber 0 or 1
    Restive,
    /// not tame, every option tame, misère nimber 0 or 1 (and normal nimber at least 2)
    Restless,
    /// anything else
    Wild,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Tame => "tame",
            Class::Restive => "restive",
            Class::Restless => "restless",
            Class::Wild => "wild",
        }
    }

    fn of(genus: &Genus, options_tame: bool) -> Class {
        if !options_tame {
            Class::Wild
        } else if genus.is_tame() {
            Class::Tame
        } else if genus.g <= 1 {
            Class::Restive
        } else if genus.misere() <= 1 {
            Class::Restless
        } else {
            Class::Wild
        }
    }
}

/// Genera of sums, by search over the game tree: a sum is the sorted list of its components'
/// ids (components without moves dropped). The memo is kept across queries of one search, so
/// the genera of heaps 0..n share their work.
pub struct GenusSearch<P> {
    ids: HashMap<P, u32>,
    comp_opts: Vec<Vec<Vec<u32>>>,
    memo: HashMap<Vec<u32>, (Genus, Class)>,
}

/// About the bytes a memoized sum takes (its key, genus and the table's share).
const SUM_BYTES: u64 = 96;

impl<P: Clone + Eq + std::hash::Hash + Ord> Default for GenusSearch<P> {
    fn default() -> Self {
        GenusSearch {
            ids: HashMap::new(),
            comp_opts: vec![],
            memo: HashMap::new(),
        }
    }
}

impl<P: Clone + Eq + std::hash::Hash + Ord> GenusSearch<P> {
    /// The genus and class of the sum `root` of components of `game`.
    pub fn genus<G: Game<Pos = P>>(
        &mut self,
        game: &mut G,
        root: &[P],
        ctl: &Ctl,
    ) -> std::result::Result<(Genus, Class), G::Error> {
        let mut key = vec![];
        for p in root {
            key.extend(self.id(game, p)?);
        }
        key.sort_unstable();
        let task = ctl.task("genus search (positions)", None);
        // frames: a sum and its options (each a sorted sum), in the order they are finished
        let mut stack: Vec<(Vec<u32>, Vec<Vec<u32>>)> = vec![];
        let first = self.sum_options(&key);
        stack.push((key.clone(), first));
        let mut steps = 0u64;
        while let Some((sum, opts)) = stack.last() {
            steps += 1;
            if steps.is_multiple_of(1024) {
                task.set(self.memo.len() as u64)?;
                ctl.reserve(
                    (self.memo.len() as u64 + stack.len() as u64) * SUM_BYTES,
                    "the genus search",
                )?;
            }
            if self.memo.contains_key(sum) {
                stack.pop();
                continue;
            }
            if let Some(next) = opts.iter().find(|o| !self.memo.contains_key(*o)).cloned() {
                if stack.len() >= crate::engine::impartial::MAX_LINE {
                    return Err(
                        Error::limit("the genus search followed too many moves in a row")
                            .hint("every move must lead towards the end of the game")
                            .into(),
                    );
                }
                let o = self.sum_options(&next);
                stack.push((next, o));
                continue;
            }
            let (sum, opts) = stack.pop().unwrap();
            let entries: Vec<&(Genus, Class)> = opts.iter().map(|o| &self.memo[o]).collect();
            let genera: Vec<&Genus> = entries.iter().map(|e| &e.0).collect();
            let genus = Genus::of_options(&genera);
            let tame = entries.iter().all(|e| e.1 == Class::Tame);
            let class = Class::of(&genus, tame);
            self.memo.insert(sum, (genus, class));
        }
        Ok(self.memo[&key].clone())
    }

    /// The id of a component, its options listed on first sight; no ids for a component without
    /// moves (it adds nothing to a sum).
    fn id<G: Game<Pos = P>>(
        &mut self,
        game: &mut G,
        p: &P,
    ) -> std::result::Result<Option<u32>, G::Error> {
        if let Some(&id) = self.ids.get(p) {
            return Ok((!self.comp_opts[id as usize].is_empty()).then_some(id));
        }
        let id = self.comp_opts.len() as u32;
        self.ids.insert(p.clone(), id);
        self.comp_opts.push(vec![]);
        let mut opts = vec![];
        for o in game.options(p)? {
            let mut ids = vec![];
            for c in &o {
                ids.extend(self.id(game, c)?);
            }
            ids.sort_unstable();
            opts.push(ids);
        }
        opts.sort();
        opts.dedup();
        let moves = !opts.is_empty();
        self.comp_opts[id as usize] = opts;
        Ok(moves.then_some(id))
    }

    /// The options of a sum: one component replaced by one of its options.
    fn sum_options(&self, sum: &[u32]) -> Vec<Vec<u32>> {
        let mut out = vec![];
        for (i, &c) in sum.iter().enumerate() {
            if i > 0 && sum[i - 1] == c {
                continue;
            }
            for o in &self.comp_opts[c as usize] {
                let mut next: Vec<u32> = sum[..i].iter().chain(&sum[i + 1..]).copied().collect();
                next.extend(o);
                next.sort_unstable();
                out.push(next);
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

/// Genera of heaps 0..=n of a heap game given by its options (`options(h)` lists the options of
/// heap h, each as the heaps it leaves).
pub fn heap_genera<G: Game<Pos = u64>>(
    game: &mut G,
    n: u64,
    ctl: &Ctl,
) -> std::result::Result<Vec<(Genus, Class)>, G::Error> {
    let mut search = GenusSearch::default();
    let task = ctl.task("genus of heaps", Some(n + 1));
    let mut out = vec![];
    for h in 0..=n {
        task.set(h)?;
        out.push(search.genus(game, &[h], ctl)?);
    }
    Ok(out)
}

/// `Err` unless every option of heap h leaves only smaller heaps (the quotient's order of words
/// needs it).
pub fn check_smaller(h: u64, opts: &[Vec<u64>]) -> Result<()> {
    if let Some(o) = opts.iter().find(|o| o.iter().any(|&x| x >= h)) {
        return Err(Error::invalid(format!(
            "a move from heap {h} leaves heaps {o:?}, not all smaller"
        ))
        .hint("misère quotients are computed for rules whose moves leave smaller heaps"));
    }
    Ok(())
}
