//! Groups of large degree: the giants by Jordan's theorem, random Schreier–Sims against the
//! deterministic one, and puzzle groups against published orders and GAP.
use gamut::engine::Ctl;
use gamut::engine::group::GroupVal;
use gamut::engine::group::bound::order_bound;
use gamut::engine::group::perm::Perm;
use gamut::engine::group::schreier::StabChain;
use num_bigint::BigUint;
use proptest::prelude::*;
use std::rc::Rc;

mod common;

fn fact(n: usize) -> BigUint {
    (2..=n).fold(BigUint::from(1u32), |a, k| a * BigUint::from(k))
}

/// One cycle through the (0-based) points, on `degree` points.
fn cyc(degree: usize, pts: impl IntoIterator<Item = usize>) -> Perm {
    Perm::from_cycles(degree, &[pts.into_iter().collect()]).unwrap()
}

fn group(gens: Vec<Perm>) -> GroupVal {
    GroupVal::new(
        gens.into_iter()
            .enumerate()
            .map(|(i, p)| (Rc::from(format!("g{i}").as_str()), p))
            .collect(),
    )
    .unwrap()
}

/// A shuffle of 0..n from the test's generator.
fn shuffle(n: usize, rng: &mut common::Rng) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        v.swap(i, rng.below(i + 1));
    }
    v
}

/// A generating set moved to other points: p ↦ σ⁻¹ p σ for a random σ.
fn relabel(gens: &[Perm], rng: &mut common::Rng) -> Vec<Perm> {
    let n = gens[0].degree();
    let s = shuffle(n, rng);
    let sigma = Perm::from_images(s.iter().map(|&x| x as u16).collect());
    gens.iter()
        .map(|g| sigma.inverse().then(g).then(&sigma))
        .collect()
}

#[test]
fn symmetric_and_alternating_groups_by_several_generating_sets() {
    let mut rng = common::Rng(0x5eed);
    for n in [8, 9, 10, 11, 13, 16, 31, 50, 100, 150, 255, 256, 500, 1000] {
        let sets: Vec<(Vec<Perm>, bool)> = vec![
            (vec![cyc(n, [0, 1]), cyc(n, 0..n)], false),
            (
                vec![
                    cyc(n, [0, 1, 2]),
                    cyc(n, if n % 2 == 1 { 0..n } else { 1..n }),
                ],
                true,
            ),
            (vec![cyc(n, [0, 1]), cyc(n, 1..n)], false),
            // an (n-1)-cycle and a 3-cycle through its fixed point: 2-transitive with a
            // 3-cycle, so A_n or S_n by the parity of the (n-1)-cycle
            (vec![cyc(n, 0..n - 1), cyc(n, n - 3..n)], n % 2 == 0),
        ];
        for (gens, alternating) in sets {
            let gens = relabel(&gens, &mut rng);
            let g = group(gens.clone());
            let want = if alternating { fact(n) / 2u32 } else { fact(n) };
            assert_eq!(g.order(), want, "n = {n}, alternating {alternating}");
            assert!(g.giant().is_some(), "n = {n}: not recognized");
            // membership: products of generators are in, a transposition only in S_n
            let w = gens[0].then(&gens[1]).then(&gens[0]);
            assert!(g.contains(&w));
            assert_eq!(g.contains(&cyc(n, [3, 5])), !alternating, "n = {n}");
            assert!(
                !g.contains(&cyc(n + 1, [0, n])),
                "n = {n}: a point past the degree"
            );
        }
    }
}

#[test]
fn small_giants_agree_with_deterministic_schreier_sims() {
    let mut rng = common::Rng(7);
    for n in 8..=14 {
        for _ in 0..5 {
            // two random permutations generate S_n or A_n most of the time
            let gens: Vec<Perm> = (0..2)
                .map(|_| {
                    Perm::from_images(shuffle(n, &mut rng).iter().map(|&x| x as u16).collect())
                })
                .collect();
            let det = StabChain::deterministic(n, &gens, &Ctl::default()).unwrap();
            let g = group(gens.clone());
            assert_eq!(g.order(), det.order(), "n = {n}, {gens:?}");
            let p = Perm::from_images(shuffle(n, &mut rng).iter().map(|&x| x as u16).collect());
            assert_eq!(g.contains(&p), det.contains(&p));
        }
    }
}

/// Generators of a random group of a known shape on at most 40 points: a direct product of
/// symmetric and cyclic groups, a wreath product S_a ≀ S_b (imprimitive), a diagonal subgroup,
/// and its order.
fn shaped_group(kind: usize, a: usize, b: usize) -> (Vec<Perm>, Option<BigUint>) {
    match kind {
        // S_a × C_b on disjoint points: intransitive
        0 => {
            let n = a + b;
            (
                vec![cyc(n, [0, 1]), cyc(n, 0..a), cyc(n, a..a + b)],
                Some(fact(a) * BigUint::from(b)),
            )
        }
        // S_a ≀ S_b on a·b points: blocks {ia..ia+a-1} permuted by S_b
        1 => {
            let n = a * b;
            let mut gens = vec![cyc(n, [0, 1]), cyc(n, 0..a)];
            let shift: Vec<u16> = (0..n).map(|x| ((x + a) % n) as u16).collect();
            gens.push(Perm::from_images(shift));
            let swap: Vec<u16> = (0..n)
                .map(|x| match x / a {
                    0 => (x + a) as u16,
                    1 => (x - a) as u16,
                    _ => x as u16,
                })
                .collect();
            gens.push(Perm::from_images(swap));
            let order = fact(a).pow(b as u32) * fact(b);
            (gens, Some(order))
        }
        // S_a acting diagonally on two copies: order a!
        2 => {
            let n = 2 * a;
            let t = Perm::from_cycles(n, &[vec![0, 1], vec![a, a + 1]]).unwrap();
            let c = Perm::from_cycles(n, &[(0..a).collect(), (a..2 * a).collect()]).unwrap();
            (vec![t, c], Some(fact(a)))
        }
        // S_a on the 2-subsets of a points (primitive, not a giant for a ≥ 5)
        _ => {
            let pairs: Vec<(usize, usize)> = (0..a)
                .flat_map(|i| (i + 1..a).map(move |j| (i, j)))
                .collect();
            let index = |i: usize, j: usize| {
                let (i, j) = (i.min(j), i.max(j));
                pairs.iter().position(|&p| p == (i, j)).unwrap()
            };
            let on_pairs = |f: &dyn Fn(usize) -> usize| {
                Perm::from_images(
                    pairs
                        .iter()
                        .map(|&(i, j)| index(f(i), f(j)) as u16)
                        .collect(),
                )
            };
            let t = on_pairs(&|x| match x {
                0 => 1,
                1 => 0,
                x => x,
            });
            let c = on_pairs(&|x| (x + 1) % a);
            (vec![t, c], Some(fact(a)))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_schreier_sims_agrees_with_the_deterministic_one(
        kind in 0usize..4, a in 3usize..8, b in 2usize..5, seed in any::<u64>(),
    ) {
        let mut rng = common::Rng(seed | 1);
        let (gens, order) = shaped_group(kind, a, b);
        let gens = relabel(&gens, &mut rng);
        let n = gens[0].degree();
        let det = StabChain::deterministic(n, &gens, &Ctl::default()).unwrap();
        let g = group(gens.clone());
        prop_assert_eq!(g.order(), det.order());
        if let Some(o) = order {
            prop_assert_eq!(g.order(), o);
        }
        let rss = StabChain::build(n, &gens, &Ctl::default()).unwrap();
        prop_assert_eq!(rss.order(), det.order());
        for _ in 0..10 {
            let p = Perm::from_images(shuffle(n, &mut rng).iter().map(|&x| x as u16).collect());
            prop_assert_eq!(g.contains(&p), det.contains(&p));
            let w = gens[rng.below(gens.len())].then(&gens[rng.below(gens.len())]);
            prop_assert!(g.contains(&w));
        }
    }
}

/// The number of elements of the group, by search from the identity, or None past `cap`: an
/// order found without stabilizer chains.
fn closure(gens: &[Perm], cap: usize) -> Option<usize> {
    let n = gens[0].degree();
    let mut seen = std::collections::HashSet::new();
    let id = Perm::identity(n);
    seen.insert(id.clone());
    let mut queue = vec![id];
    while let Some(x) = queue.pop() {
        for g in gens {
            let y = x.then(g);
            if seen.insert(y.clone()) {
                if seen.len() > cap {
                    return None;
                }
                queue.push(y);
            }
        }
    }
    Some(seen.len())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Random groups of up to 12 points, transitive or not: two or three random permutations,
    /// each moving the points of a random set of blocks; the order by Schreier–Sims against
    /// the number of elements found by search.
    #[test]
    fn schreier_sims_counts_the_elements_of_small_groups(
        n in 4usize..=12, k in 2usize..=3, seed in any::<u64>(),
    ) {
        let mut rng = common::Rng(seed | 1);
        let cut = 1 + rng.below(n - 1);
        let gens: Vec<Perm> = (0..k)
            .map(|i| {
                // one generator on all points, the others on the first `cut` only: often
                // intransitive, often imprimitive
                let m = if i == 0 { n } else { cut.max(2) };
                let mut img: Vec<u16> = shuffle(m, &mut rng).iter().map(|&x| x as u16).collect();
                img.extend(m as u16..n as u16);
                Perm::from_images(img)
            })
            .collect();
        let want = closure(&gens, 50_000);
        prop_assume!(want.is_some());
        let want = want.unwrap();
        let chain = StabChain::build(n, &gens, &Ctl::default()).unwrap();
        prop_assert_eq!(chain.order(), BigUint::from(want));
        if let Some(b) = order_bound(n, &gens, &Ctl::default()).unwrap() {
            prop_assert!(b >= BigUint::from(want), "bound {} below {}", b, want);
        }
        if want == 1 {
            // every shuffle the identity: the language refuses the trivial group
            prop_assert!(GroupVal::new(vec![(Rc::from("g"), gens[0].clone())]).is_err());
        } else {
            prop_assert_eq!(group(gens.clone()).order(), BigUint::from(want));
        }
    }
}

#[test]
fn wreath_and_direct_products_of_large_degree_have_their_orders() {
    let mut rng = common::Rng(11);
    // S_a ≀ S_b by the generators of `shaped_group`, moved to random points
    for (a, b) in [(5, 20), (2, 60), (3, 40), (10, 10), (4, 25)] {
        let (gens, order) = shaped_group(1, a, b);
        let g = group(relabel(&gens, &mut rng));
        assert_eq!(Some(g.order()), order, "S_{a} wr S_{b}");
    }
    // S_30 × A_41 × C_7 × (S_4 ≀ S_10) on 118 disjoint points: the product of the orders
    let n = 30 + 41 + 7 + 40;
    let mut gens = vec![cyc(n, [0, 1]), cyc(n, 0..30)];
    gens.push(cyc(n, 30..33));
    gens.push(cyc(n, 30..71));
    gens.push(cyc(n, 71..78));
    let (w, _) = shaped_group(1, 4, 10);
    for p in w {
        let img: Vec<u16> = (0..n)
            .map(|x| {
                if x < 78 {
                    x as u16
                } else {
                    78 + p.apply(x - 78) as u16
                }
            })
            .collect();
        gens.push(Perm::from_images(img));
    }
    let want = fact(30) * (fact(41) / 2u32) * BigUint::from(7u32) * fact(4).pow(10) * fact(10);
    let gens = relabel(&gens, &mut rng);
    assert_eq!(group(gens.clone()).order(), want);
    let det = StabChain::deterministic(n, &gens, &Ctl::default()).unwrap();
    assert_eq!(det.order(), want);
}

/// S_a acting on b blocks of a points at once, the blocks permuted by S_b: an imprimitive
/// group of order a!·b! whose kernel on the blocks is diagonal, so the bound from the blocks,
/// (a!)^b·b!, is not reached and the order needs Sims' test.
fn diagonal_wreath(a: usize, b: usize) -> Vec<Perm> {
    let n = a * b;
    let on_each = |f: &dyn Fn(usize) -> usize| {
        Perm::from_images((0..n).map(|x| (x / a * a + f(x % a)) as u16).collect())
    };
    let t = on_each(&|x| [1, 0].get(x).copied().unwrap_or(x));
    let c = on_each(&|x| (x + 1) % a);
    let shift = Perm::from_images((0..n).map(|x| ((x + a) % n) as u16).collect());
    let swap = Perm::from_images(
        (0..n)
            .map(|x| if x < 2 * a { (x + a) % (2 * a) } else { x } as u16)
            .collect(),
    );
    vec![t, c, shift, swap]
}

#[test]
fn block_systems_bound_the_order() {
    let ctl = Ctl::default();
    let mut rng = common::Rng(23);
    // `even`: the diagonal group's generators are even permutations, and S_a is not
    for (a, b, even) in [(6, 50, true), (2, 150, true), (3, 4, false), (5, 20, false)] {
        // a wreath product reaches the bound: random Schreier–Sims stops there
        let (gens, order) = shaped_group(1, a, b);
        let gens = relabel(&gens, &mut rng);
        let order = order.unwrap();
        assert_eq!(
            order_bound(a * b, &gens, &ctl).unwrap(),
            Some(order.clone())
        );
        assert_eq!(group(gens).order(), order, "S_{a} wr S_{b}");
        // the diagonal one does not; with even generators, the bound is halved
        let gens = relabel(&diagonal_wreath(a, b), &mut rng);
        let bound = fact(a).pow(b as u32) * fact(b) / if even { 2u32 } else { 1 };
        assert_eq!(order_bound(a * b, &gens, &ctl).unwrap(), Some(bound));
        assert_eq!(
            group(gens).order(),
            fact(a) * fact(b),
            "diagonal S_{a} by S_{b}"
        );
    }
    // S_5 x A_6 on 11 points: the product of the constituents; a primitive group: no bound
    let gens = vec![
        cyc(11, [0, 1]),
        cyc(11, 0..5),
        cyc(11, 5..8),
        cyc(11, 6..11),
    ];
    assert_eq!(
        order_bound(11, &gens, &ctl).unwrap(),
        Some(fact(5) * fact(6) / 2u32)
    );
    // S_5 on two orbits at once: the two signs are equal, so a half of S_5 x S_5
    let d = |p: &[usize]| {
        let q: Vec<usize> = p.iter().map(|x| x + 5).collect();
        Perm::from_cycles(10, &[p.to_vec(), q]).unwrap()
    };
    let gens = vec![d(&[0, 1]), d(&[0, 1, 2, 3, 4])];
    assert_eq!(
        order_bound(10, &gens, &ctl).unwrap(),
        Some(fact(5) * fact(5) / 2u32)
    );
    let (gens, _) = shaped_group(3, 7, 0);
    assert_eq!(order_bound(21, &gens, &ctl).unwrap(), None);
    // the diagonal S_3 by S_4 against the number of its elements found by search
    let gens = diagonal_wreath(3, 4);
    assert_eq!(
        BigUint::from(closure(&gens, 50_000).unwrap()),
        group(gens).order()
    );
}

/// Random groups of degree 50-300 written by `bench/puzzles.py` (tests/data/groups: the
/// generators, and `orders.txt`: the order GAP 4.12 finds for each, `Size(Group(...))` on the
/// same generators).
#[test]
fn random_groups_have_the_orders_gap_finds() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/groups");
    let orders = std::fs::read_to_string(format!("{dir}/orders.txt")).unwrap();
    let mut count = 0;
    for line in orders.lines().filter(|l| !l.starts_with('#')) {
        let (name, want) = line.split_once(' ').unwrap();
        let v = common::value(&format!("use \"{dir}/{name}.game\"\norder({name})"));
        // a number, or a string when it is past 64 bits
        assert_eq!(v.to_string().trim_matches('"'), want, "{name}");
        count += 1;
    }
    assert!(count >= 21, "{count} groups");
}

/// Runs a script that loads a puzzle and returns its order as text.
fn puzzle_order(name: &str) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/puzzles");
    let v = common::value(&format!("use \"{dir}/{name}.game\"\norder({name})"));
    v.as_str().unwrap().to_string()
}

#[test]
fn rubiks_cube_and_megaminx_have_their_published_orders() {
    // Rubik's cube: 8!·3^7·12!·2^11/2 (with the centres fixed, every sticker is told apart
    // by its piece, so the sticker group has the order of the positions)
    let cube3 = fact(8) * BigUint::from(3u32).pow(7) * fact(12) * BigUint::from(2u32).pow(10);
    assert_eq!(puzzle_order("cube3"), cube3.to_string());
    // Megaminx: 20!/2·3^19 · 30!/2·2^29 (Wikipedia, "Megaminx")
    let mega = fact(20) / 2u32 * BigUint::from(3u32).pow(19) * fact(30) / 2u32
        * BigUint::from(2u32).pow(29);
    assert_eq!(puzzle_order("megaminx"), mega.to_string());
}

#[test]
fn big_cubes_have_the_orders_gap_finds() {
    // GAP 4.12, Size(Group(...)) on the same generators (tests/data/puzzles/*.g)
    assert_eq!(
        puzzle_order("cube4"),
        "16972688908618238933770849245964147960401887232000000000"
    );
    assert_eq!(
        puzzle_order("cube5"),
        "2582636272886959379162819698174683585918088940054237132144778804568925405184000000000000000"
    );
}

#[test]
fn seven_cube_has_its_order() {
    // corners (8!·3^7), midges (12!·2^11), two wing orbits and six centre orbits of pieces
    // (24! each), each its whole constituent, tied by parity: the turns' signs on those ten
    // orbits span a space of dimension 3 (face, second and third layer turns), so the product
    // is cut by 2^(10−3). The value recorded here before (never run: it was ignored as slow)
    // had 6 zeros too many; GAP 4.12.1 and the main branch's build give this one.
    let want = fact(8)
        * BigUint::from(3u32).pow(7)
        * fact(12)
        * BigUint::from(2u32).pow(11)
        * fact(24).pow(8)
        / BigUint::from(2u32).pow(7);
    assert_eq!(puzzle_order("cube7"), want.to_string());
}

#[test]
fn orbits_of_giants_are_refused_at_once_when_too_big() {
    let (code, _, err) = common::run_e(
        "let S = group(t: (1,2), c: cycle(list(1..255)))\norbit(S, set(1..100)).size",
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("more than the 20_000_000"), "{err}");
    let v = common::values(
        "let S = group(t: (1,2), c: cycle(list(1..255)))\norbit(S, 7).size\norbit(S, [set(1..2)]).size",
    );
    assert_eq!(
        v,
        vec![serde_json::json!(255), serde_json::json!(255 * 254 / 2)]
    );
}

#[test]
fn antipodes_are_the_least_of_the_last_layer_whatever_the_chain() {
    use gamut::engine::group::Board;
    use gamut::engine::group::ranked::{self, KEEP_ANTIPODES, Ranker};
    use std::collections::HashMap;
    // the 3x3 Rubik's Slide, hard mode: 181,440 elements
    let b = Board {
        rows: 3,
        cols: 3,
        torus: false,
    };
    let gens = vec![
        b.shift("right", None).unwrap(),
        b.shift("up", None).unwrap(),
        b.ring_rotate(),
    ];
    let moves: Vec<Perm> = gens.iter().flat_map(|g| [g.clone(), g.inverse()]).collect();
    // the last layer by plain breadth-first search, least first
    let mut dist = HashMap::from([(Perm::identity(9), 0)]);
    let mut layer = vec![Perm::identity(9)];
    let mut last = vec![];
    while !layer.is_empty() {
        last = layer.clone();
        let d = dist[&layer[0]] + 1;
        layer = layer
            .iter()
            .flat_map(|g| moves.iter().map(move |s| g.then(s)))
            .filter(|h| {
                if dist.contains_key(h) {
                    return false;
                }
                dist.insert(h.clone(), d);
                true
            })
            .collect();
    }
    last.sort();
    last.truncate(KEEP_ANTIPODES);
    // two chains that rank the elements differently: the random one and the deterministic one
    let ctl = Ctl::default();
    let rks: Vec<Ranker> = [
        StabChain::build(9, &gens, &ctl).unwrap(),
        StabChain::deterministic(9, &gens, &ctl).unwrap(),
    ]
    .iter()
    .map(|c| Ranker::new(c, &moves).unwrap())
    .collect();
    assert!(last.iter().any(|g| rks[0].rank(g) != rks[1].rank(g)));
    for rk in &rks {
        let layers = ranked::bfs(rk, &ctl, None, |_, _, _| {}).unwrap();
        assert_eq!(layers.antipodes, last);
    }
}
