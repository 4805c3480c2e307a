//! Where gamut disagrees with a seed, an independent method settles it (docs/seed-errata.md).
mod common;
use common::value;
use gamut::engine::group::cayley::act;
use gamut::engine::group::perm::Perm;
use gamut::lang::run::value::Value;
use serde_json::json;
use std::collections::{HashMap, HashSet, VecDeque};

fn group(name: &str) -> std::rc::Rc<gamut::engine::group::GroupVal> {
    let it = gamut::lang::run::eval::Interp::new(Box::new(|_, _| {}));
    let Value::Group(g) = it.globals.lookup(name).unwrap() else {
        panic!("{name}")
    };
    g
}

fn moves(g: &gamut::engine::group::GroupVal) -> Vec<Perm> {
    g.moves().into_iter().map(|(_, p)| p).collect()
}

/// Largest distance between two patterns of the orbit, one plain BFS per pattern.
fn naive_all_pairs(moves: &[Perm], start: Vec<u8>) -> (usize, u32) {
    let mut orbit: HashSet<Vec<u8>> = HashSet::from([start.clone()]);
    let mut q = VecDeque::from([start]);
    while let Some(x) = q.pop_front() {
        for m in moves {
            let y = act(m, &x).to_vec();
            if orbit.insert(y.clone()) {
                q.push_back(y);
            }
        }
    }
    let mut diameter = 0;
    for s in &orbit {
        let mut dist: HashMap<Vec<u8>, u32> = HashMap::from([(s.clone(), 0)]);
        let mut q = VecDeque::from([s.clone()]);
        while let Some(x) = q.pop_front() {
            let d = dist[&x];
            diameter = diameter.max(d);
            for m in moves {
                let y = act(m, &x).to_vec();
                if !dist.contains_key(&y) {
                    dist.insert(y.clone(), d + 1);
                    q.push_back(y);
                }
            }
        }
    }
    (orbit.len(), diameter)
}

#[test]
fn seed000_figure_3_3_gods_number_of_1_23_is_8_not_6() {
    let g = group("slide4_hard");
    let mut start = vec![0u8; 16];
    start[0] = 1;
    start[1] = 2;
    start[2] = 2;
    assert_eq!(naive_all_pairs(&moves(&g), start), (896, 8));
    assert_eq!(
        value("diameter(slide4_hard, [{1}, {2, 3}]).diameter"),
        json!(8)
    );
}

/// Burnside: orbits = average number of colourings fixed by an element. A colouring fixed by g
/// is constant on g's cycles, so count the ways to give whole cycles colour 0, 1 or 2.
fn burnside_orbits(g: &gamut::engine::group::GroupVal, k1: usize, k2: usize) -> u64 {
    let mut elements: HashSet<Perm> = HashSet::from([Perm::identity(g.degree)]);
    let mut q = VecDeque::from([Perm::identity(g.degree)]);
    while let Some(x) = q.pop_front() {
        for s in g.perms() {
            let y = x.then(&s);
            if elements.insert(y.clone()) {
                q.push_back(y);
            }
        }
    }
    let mut total = 0u64;
    for e in &elements {
        let mut lens: Vec<usize> = e.cycles().iter().map(|c| c.len()).collect();
        lens.extend(std::iter::repeat_n(
            1,
            g.degree - lens.iter().sum::<usize>(),
        ));
        // ways[a][b]: cycles so far give a cells of colour 1 and b of colour 2
        let mut ways = vec![vec![0u64; k2 + 1]; k1 + 1];
        ways[0][0] = 1;
        for l in lens {
            let mut next = ways.clone();
            for a in 0..=k1 {
                for b in 0..=k2 {
                    let w = ways[a][b];
                    if a + l <= k1 {
                        next[a + l][b] += w;
                    }
                    if b + l <= k2 {
                        next[a][b + l] += w;
                    }
                }
            }
            ways = next;
        }
        total += ways[k1][k2];
    }
    total / elements.len() as u64
}

#[test]
fn seed000_figure_2_18_two_colour_counts_checked_by_burnside() {
    let g = group("slide4_easy");
    for (k1, k2) in [
        (1, 1),
        (1, 2),
        (1, 3),
        (2, 2),
        (1, 4),
        (2, 3),
        (3, 5),
        (4, 4),
    ] {
        let ours = value(&format!(
            "orbits(slide4_easy, colorings({k1}, {k2})).orbits"
        ));
        assert_eq!(
            ours,
            json!(burnside_orbits(&g, k1, k2)),
            "colorings({k1}, {k2})"
        );
    }
    // the thesis' row 4 (3, 38 and 230 orbits of 16, 32 and 64 patterns) covers 15,984
    // patterns; the two-colour 4-box patterns number 16*C(15,3) + C(16,2)*C(14,2) = 18,200
    assert_eq!(3 * 16 + 38 * 32 + 230 * 64, 15_984);
    let sizes = value(
        "[orbits(slide4_easy, colorings(1, 3)).sizes, orbits(slide4_easy, colorings(2, 2)).sizes]",
    );
    let covered: u64 = sizes
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m.as_object().unwrap().iter())
        .map(|(k, v)| k.parse::<u64>().unwrap() * v.as_u64().unwrap())
        .sum();
    assert_eq!(covered, 18_200);
}

/// Figure 2.13: the text counts C(16, 3) = 520 colourings of three boxes, but C(16, 3) = 560,
/// which is also what the figure's own eleven three-box orders add up to.
#[test]
fn seed000_figure_2_13_three_box_colourings_are_560_not_520() {
    let direct = (0u32..1 << 16).filter(|m| m.count_ones() == 3).count();
    assert_eq!(direct, 560);
    // the orders the figure prints for [1,2,3], [1,2,5], ..., [1,6,12]
    let printed = [32, 64, 64, 64, 64, 64, 64, 16, 32, 32, 64];
    assert_eq!(printed.iter().sum::<u64>(), 560);
    let ours = value("orbits(slide4_easy, sets(3))");
    assert_eq!(ours["orbits"], json!(printed.len()));
    let mut sizes: Vec<u64> = vec![];
    for (size, count) in ours["sizes"].as_object().unwrap() {
        let size: u64 = size.parse().unwrap();
        sizes.extend(std::iter::repeat_n(size, count.as_u64().unwrap() as usize));
    }
    let mut printed = printed.to_vec();
    printed.sort();
    assert_eq!(sizes, printed);
}

/// Appendix A's search code mirrors the 4x4 board about the anti-diagonal with
/// (1,16)(2,12)(3,8)(5,15)(6,11): box 9 and box 14 also swap places, so that permutation is not
/// the reflection.
#[test]
fn seed000_anti_diagonal_mirror_needs_9_14() {
    // (row, col) -> (3 - col, 3 - row), boxes numbered 1..16 row by row
    let mirror: Vec<usize> = (0..16).map(|i| 4 * (3 - i % 4) + (3 - i / 4)).collect();
    let swaps = |pairs: &[(usize, usize)]| {
        let mut p: Vec<usize> = (0..16).collect();
        for &(a, b) in pairs {
            p.swap(a - 1, b - 1);
        }
        p
    };
    let thesis = [(1, 16), (2, 12), (3, 8), (5, 15), (6, 11)];
    assert_ne!(swaps(&thesis), mirror);
    assert_eq!(swaps(&[&thesis[..], &[(9, 14)]].concat()), mirror);
    assert_eq!(
        value(
            r#"let m = reflect(grid(4, 4), "antidiagonal")
[m == (1,16)(2,12)(3,8)(5,15)(6,11), m == (1,16)(2,12)(3,8)(5,15)(6,11)(9,14)]"#
        ),
        json!([false, true])
    );
}
