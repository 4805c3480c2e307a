//! A proven upper bound on the order of a permutation group from its orbits and block systems,
//! for the random Schreier–Sims chain to meet. An intransitive group lies in the direct product
//! of its constituents (its actions on its orbits), so |G| ≤ Π |G^O|. A transitive group with
//! a block system B of b blocks lies in G^B ⋉ Π_Δ G_Δ^Δ: the kernel of the action on the
//! blocks acts on each block Δ as a subgroup of the block stabilizer's action G_Δ^Δ, and the
//! blocks are conjugate, so |G| ≤ |G^B| · |G_Δ^Δ|^b. Each factor is the exact order of a group
//! of smaller degree (found the same way), on generators that are exact: the images of G's
//! generators, and for G_Δ the Schreier generators of the action on the blocks (Schreier's
//! lemma). Signs cut it further: the signs of an element on the orbits whose constituents hold
//! odd permutations take every value in the product, and G's take only the values spanned by
//! its generators'; in the block case, even generators and an odd element of G_Δ^Δ halve it.
//! The bound is reached by direct and wreath products and their even parts, where random
//! Schreier–Sims then needs no further test.
use super::giant::{Giant, is_even};
use super::perm::Perm;
use super::schreier::StabChain;
use crate::engine::{Ctl, Result};
use num_bigint::BigUint;

/// |G| ≤ the result, or None for a primitive group (no bound of this kind).
pub fn order_bound(degree: usize, gens: &[Perm], ctl: &Ctl) -> Result<Option<BigUint>> {
    let orbits = orbits(degree, gens);
    match orbits.len() {
        0 => Ok(None),
        1 => {
            let gens = restricted(gens, &orbits[0]);
            transitive_bound(orbits[0].len(), &gens, ctl)
        }
        _ => {
            let mut bound = BigUint::from(1u32);
            // each generator's signs on the orbits, one bit an orbit (1: odd)
            let mut signs = vec![vec![0u64; orbits.len().div_ceil(64)]; gens.len()];
            let mut odd_orbits = 0;
            for (i, o) in orbits.iter().enumerate() {
                let on_o = restricted(gens, o);
                bound *= order(o.len(), &on_o, ctl)?;
                let mut odd = false;
                for (s, g) in signs.iter_mut().zip(&on_o) {
                    if !is_even(g) {
                        s[i / 64] |= 1 << (i % 64);
                        odd = true;
                    }
                }
                odd_orbits += usize::from(odd);
            }
            Ok(Some(bound >> (odd_orbits - rank(signs))))
        }
    }
}

/// The exact order: a giant by Jordan's theorem, else by Schreier–Sims.
fn order(degree: usize, gens: &[Perm], ctl: &Ctl) -> Result<BigUint> {
    Ok(match Giant::recognize(degree, gens, ctl)? {
        Some(g) => g.order(),
        None => StabChain::build(degree, gens, ctl)?.order(),
    })
}

/// The bound of a transitive group on points 0..n from its smallest block system.
fn transitive_bound(n: usize, gens: &[Perm], ctl: &Ctl) -> Result<Option<BigUint>> {
    let Some(block) = smallest_blocks(n, gens, ctl)? else {
        return Ok(None);
    };
    // blocks numbered by their least points; Δ is block 0, the one holding point 0
    let mut number = vec![usize::MAX; n];
    let mut b = 0;
    for x in 0..n {
        if number[block[x]] == usize::MAX {
            number[block[x]] = b;
            b += 1;
        }
    }
    let of = |x: usize| number[block[x]];
    let on_blocks: Vec<Perm> = gens
        .iter()
        .map(|g| {
            let mut img = vec![0u16; b];
            for x in 0..n {
                img[of(x)] = of(g.apply(x)) as u16;
            }
            Perm::from_images(img)
        })
        .collect();
    // a transversal of the blocks: rep[i] maps block 0 to block i
    let mut rep: Vec<Option<Perm>> = vec![None; b];
    rep[0] = Some(Perm::identity(n));
    let mut queue = vec![0];
    let mut i = 0;
    while i < queue.len() {
        let k = queue[i];
        i += 1;
        let x = rep[k].as_ref().expect("reached").apply(0);
        for g in gens {
            let j = of(g.apply(x));
            if rep[j].is_none() {
                rep[j] = Some(rep[k].as_ref().expect("reached").then(g));
                queue.push(j);
            }
        }
    }
    // Schreier generators of the stabilizer of block 0, on its points
    let delta: Vec<usize> = (0..n).filter(|&x| of(x) == 0).collect();
    let mut local: Vec<Perm> = vec![];
    for r in rep.iter().flatten() {
        ctl.check()?;
        for g in gens {
            let rg = r.then(g);
            let back = rep[of(rg.apply(0))].as_ref().expect("transitive").inverse();
            local.push(restricted(&[rg.then(&back)], &delta).remove(0));
        }
    }
    local.retain(|p| !p.is_identity());
    local.sort_unstable();
    local.dedup();
    let top = order(b, &on_blocks, ctl)?;
    let inside = if local.is_empty() {
        BigUint::from(1u32)
    } else {
        order(delta.len(), &local, ctl)?
    };
    let bound = top * inside.pow(b as u32);
    // an odd element of G_Δ^Δ, on one block alone, is an odd element of the bounding group
    let halved = gens.iter().all(is_even) && !local.iter().all(is_even);
    Ok(Some(bound >> usize::from(halved)))
}

/// The rank over GF(2) of bit vectors.
fn rank(mut rows: Vec<Vec<u64>>) -> usize {
    let mut r = 0;
    let words = rows.first().map_or(0, Vec::len);
    for bit in 0..words * 64 {
        let (w, m) = (bit / 64, 1u64 << (bit % 64));
        let Some(p) = (r..rows.len()).find(|&i| rows[i][w] & m != 0) else {
            continue;
        };
        rows.swap(r, p);
        for i in 0..rows.len() {
            if i != r && rows[i][w] & m != 0 {
                let pivot = rows[r].clone();
                rows[i].iter_mut().zip(&pivot).for_each(|(a, b)| *a ^= b);
            }
        }
        r += 1;
    }
    r
}

/// The smallest nontrivial block system of a transitive group on 0..n, each point's block
/// named by a point of it, or None when the group is primitive. For each β the finest
/// system with 0 and β in one block (Atkinson's algorithm: merge the classes of x^g and y^g
/// for each merged pair x, y, by union-find).
fn smallest_blocks(n: usize, gens: &[Perm], ctl: &Ctl) -> Result<Option<Vec<usize>>> {
    let mut best: Option<(usize, Vec<usize>)> = None;
    for beta in 1..n {
        ctl.check()?;
        if best.as_ref().is_some_and(|(_, b)| b[beta] == b[0]) {
            // the finest system joining 0 and a point of a smallest block is that one
            continue;
        }
        let mut parent: Vec<usize> = (0..n).collect();
        parent[beta] = 0;
        let mut classes = n - 1;
        let mut pairs = vec![(0, beta)];
        while let Some((x, y)) = pairs.pop() {
            if classes == 1 {
                break;
            }
            for g in gens {
                let (u, v) = (root(&mut parent, g.apply(x)), root(&mut parent, g.apply(y)));
                if u != v {
                    parent[u.max(v)] = u.min(v);
                    classes -= 1;
                    pairs.push((u, v));
                }
            }
        }
        let block: Vec<usize> = (0..n).map(|x| root(&mut parent, x)).collect();
        let size = block.iter().filter(|&&r| r == block[0]).count();
        if size < n && best.as_ref().is_none_or(|(s, _)| size < *s) {
            best = Some((size, block));
        }
    }
    Ok(best.map(|(_, b)| b))
}

/// The root of x's tree in a union-find forest, halving the path on the way.
pub(super) fn root(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// The orbits of more than one point, each sorted, in the order of their least points.
fn orbits(degree: usize, gens: &[Perm]) -> Vec<Vec<usize>> {
    let mut seen = vec![false; degree];
    let mut out = vec![];
    for start in 0..degree {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut orbit = vec![start];
        let mut i = 0;
        while i < orbit.len() {
            for g in gens {
                let y = g.apply(orbit[i]);
                if !seen[y] {
                    seen[y] = true;
                    orbit.push(y);
                }
            }
            i += 1;
        }
        if orbit.len() > 1 {
            orbit.sort_unstable();
            out.push(orbit);
        }
    }
    out
}

/// The generators' actions on a union of orbits (sorted), its points renumbered 0.. in order.
fn restricted(gens: &[Perm], points: &[usize]) -> Vec<Perm> {
    gens.iter()
        .map(|g| {
            Perm::from_images(
                points
                    .iter()
                    .map(|&x| points.binary_search(&g.apply(x)).expect("an orbit") as u16)
                    .collect(),
            )
        })
        .collect()
}
