//! Engines against independent methods: brute force, naive searches, closed formulas.
use gamut::engine::group::cayley::{SchreierGraph, act};
use gamut::engine::group::perm::Perm;
use gamut::engine::group::ranked::{self, Ranker};
use gamut::engine::group::schreier::StabChain;
use gamut::engine::{Ctl, heap, impartial, moore};
use proptest::prelude::*;

mod common;
use std::collections::{HashMap, HashSet, VecDeque};

fn perm_strategy(n: usize) -> impl Strategy<Value = Perm> {
    Just((0..n as u16).collect::<Vec<u16>>())
        .prop_shuffle()
        .prop_map(Perm::from_images)
}

/// Every element by closure under the generators (the brute-force reference).
fn enumerate(gens: &[Perm], n: usize) -> HashSet<Perm> {
    let mut seen = HashSet::from([Perm::identity(n)]);
    let mut queue = VecDeque::from([Perm::identity(n)]);
    while let Some(g) = queue.pop_front() {
        for s in gens {
            let h = g.then(s);
            if seen.insert(h.clone()) {
                queue.push_back(h);
            }
        }
    }
    seen
}

fn with_inverses(gens: &[Perm]) -> Vec<Perm> {
    let mut m: Vec<Perm> = vec![];
    for g in gens {
        for q in [g.clone(), g.inverse()] {
            if !q.is_identity() && !m.contains(&q) {
                m.push(q);
            }
        }
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// `A == B` holds exactly when the groups have the same elements (enumerated), whatever
    /// their names and generators; `derived` makes B another generating set of A's group.
    #[test]
    fn groups_are_equal_when_their_elements_are(
        a in prop::collection::vec(perm_strategy(5), 1..4),
        b in prop::collection::vec(perm_strategy(5), 1..4),
        derived in any::<bool>(),
    ) {
        let b = match (derived, a.len()) {
            (false, _) => b,
            (true, 1) => vec![a[0].inverse()],
            // a_k and a_1 then a_k, with a_2 ... a_(k-1), generate what a_1 ... a_k do
            (true, k) => {
                let mut v = vec![a[k - 1].clone(), a[0].then(&a[k - 1])];
                v.extend(a[1..k - 1].iter().cloned());
                v
            }
        };
        prop_assume!(a.iter().any(|p| !p.is_identity()) && b.iter().any(|p| !p.is_identity()));
        let list = |gs: &[Perm]| gs.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ");
        let src = format!("group A = <{}>\ngroup B = <{}>\nA == B\nA != B", list(&a), list(&b));
        let same = enumerate(&a, 5) == enumerate(&b, 5);
        prop_assert_eq!(common::values(&src), vec![serde_json::json!(same), serde_json::json!(!same)], "{}", src);
    }

    #[test]
    fn schreier_sims_order_equals_enumeration(n in 2usize..8, gens in prop::collection::vec(any::<prop::sample::Index>(), 1..4)) {
        let pool: Vec<Perm> = (0..gens.len()).map(|i| {
            // a deterministic family of permutations indexed by the sample
            let mut img: Vec<u16> = (0..n as u16).collect();
            let k = gens[i].index(1 << 20);
            for j in (1..n).rev() { img.swap(j, (k >> j) % (j + 1)); }
            Perm::from_images(img)
        }).collect();
        let chain = StabChain::new(n, &pool);
        let all = enumerate(&pool, n);
        prop_assert_eq!(chain.order(), num_bigint::BigUint::from(all.len()));
        for g in all.iter().take(50) {
            prop_assert!(chain.contains(g));
        }
    }

    #[test]
    fn membership_rejects_outsiders(p in perm_strategy(6)) {
        // <(1,2,3)> has order 3: everything else is outside
        let c = StabChain::new(6, &[Perm::from_cycles(6, &[vec![0, 1, 2]]).unwrap()]);
        let inside = p.then(&p).then(&p).is_identity() && (3..6).all(|i| p.apply(i) == i) && (p.is_identity() || p.apply(0) != 0);
        prop_assert_eq!(c.contains(&p), inside);
    }

    #[test]
    fn rank_and_unrank_round_trip(a in perm_strategy(9), b in perm_strategy(9), seed in any::<u64>()) {
        let chain = StabChain::new(9, &[a.clone(), b.clone()]);
        let rk = Ranker::new(&chain, &with_inverses(&[a, b])).unwrap();
        let r = seed % rk.size;
        let g = rk.unrank(r);
        prop_assert!(chain.contains(&g));
        prop_assert_eq!(rk.rank(&g), r);
    }

    #[test]
    fn sparse_space_equals_naive_mex(digits in prop::collection::vec(0u8..8, 1..5), unequal in any::<bool>(), d0 in prop::sample::select(vec![0u8, 4])) {
        let text = format!("{}{}.{}", d0, if unequal { "!" } else { "" }, digits.iter().map(|d| d.to_string()).collect::<String>());
        let code = heap::Code::parse(&text).unwrap();
        prop_assert_eq!(heap::values(&code, 2000, &Ctl::default()).unwrap(), heap::naive_values(&code, 2000, &Ctl::default()).unwrap(), "{}", text);
    }
}

/// Every group of the stdlib.
fn stdlib_groups() -> Vec<(&'static str, std::rc::Rc<gamut::engine::group::GroupVal>)> {
    let it = gamut::lang::run::eval::Interp::new(Box::new(|_, _| {}));
    [
        "slide2",
        "slide3_easy",
        "slide3_hard",
        "slide4_easy",
        "slide5_easy",
        "slide6_easy",
    ]
    .into_iter()
    .map(|name| match it.globals.lookup(name) {
        Some(gamut::lang::run::value::Value::Group(g)) => (name, g),
        _ => panic!("{name} is not a stdlib group"),
    })
    .collect()
}

#[test]
fn stdlib_groups_order_equals_bfs_enumeration() {
    for (name, g) in stdlib_groups() {
        let all = enumerate(&g.perms(), g.degree);
        assert_eq!(g.order(), num_bigint::BigUint::from(all.len()), "{name}");
    }
}

/// Distances from the identity by plain queue BFS over explicit elements.
fn naive_distribution(gens: &[Perm], n: usize) -> Vec<u64> {
    let moves = with_inverses(gens);
    let mut dist: HashMap<Perm, u32> = HashMap::from([(Perm::identity(n), 0)]);
    let mut queue = VecDeque::from([Perm::identity(n)]);
    while let Some(g) = queue.pop_front() {
        let d = dist[&g];
        for s in &moves {
            let h = g.then(s);
            if !dist.contains_key(&h) {
                dist.insert(h.clone(), d + 1);
                queue.push_back(h);
            }
        }
    }
    let mut out = vec![0u64; *dist.values().max().unwrap() as usize + 1];
    dist.values().for_each(|&d| out[d as usize] += 1);
    out
}

/// The ranked search with the direction left to the cost model, forced forward and forced
/// backward, on 1 and 2 threads.
fn ranked_runs(g: &gamut::engine::group::GroupVal) -> Vec<Vec<u64>> {
    let moves: Vec<Perm> = g.moves().into_iter().map(|(_, p)| p).collect();
    let rk = Ranker::new(g.chain_ctl(&Ctl::default()).unwrap(), &moves).unwrap();
    let mut out = vec![];
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for only in [
            None,
            Some(ranked::Direction::Forward),
            Some(ranked::Direction::Backward),
        ] {
            let layers = pool
                .install(|| ranked::bfs(&rk, &Ctl::default(), only, |_, _, _| {}))
                .unwrap();
            let last = layers.counts.len() - 1;
            for p in layers.antipodes.iter().take(3) {
                assert_eq!(naive_distance(&g.perms(), p), last);
            }
            out.push(layers.counts);
        }
    }
    out
}

/// The distance of one element by plain BFS.
fn naive_distance(gens: &[Perm], target: &Perm) -> usize {
    let moves = with_inverses(gens);
    let n = target.degree();
    let mut dist: HashMap<Perm, usize> = HashMap::from([(Perm::identity(n), 0)]);
    let mut queue = VecDeque::from([Perm::identity(n)]);
    while let Some(g) = queue.pop_front() {
        if g == *target {
            return dist[&g];
        }
        for s in &moves {
            let h = g.then(s);
            if !dist.contains_key(&h) {
                dist.insert(h.clone(), dist[&g] + 1);
                queue.push_back(h);
            }
        }
    }
    unreachable!("the target is in the group")
}

#[test]
fn ranked_bfs_agrees_with_naive_bfs_on_stdlib_groups() {
    for (name, g) in stdlib_groups() {
        let want = naive_distribution(&g.perms(), g.degree);
        for d in ranked_runs(&g) {
            assert_eq!(d, want, "{name}");
        }
    }
}

#[test]
fn ranked_bfs_on_a_degree_above_16_uses_the_scalar_path() {
    // the 5x5 easy group acts on 25 points
    let it = gamut::lang::run::eval::Interp::new(Box::new(|_, _| {}));
    let gamut::lang::run::value::Value::Group(g) = it.globals.lookup("slide5_easy").unwrap() else {
        panic!()
    };
    for d in ranked_runs(&g) {
        assert_eq!(d, vec![1, 6, 17, 28, 28, 16, 4]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random generating sets of groups of degree up to 7.
    #[test]
    fn ranked_bfs_agrees_with_naive_bfs_on_random_groups(
        gens in proptest::collection::vec(perm_strategy(7), 1..4)
    ) {
        let g = gamut::engine::group::GroupVal::new(
            gens.iter().enumerate().map(|(i, p)| (format!("g{i}").into(), p.clone())).collect(),
        );
        let Ok(g) = g else { return Ok(()) };
        let want = naive_distribution(&g.perms(), g.degree);
        for d in ranked_runs(&g) {
            prop_assert_eq!(&d, &want);
        }
    }
}

/// All-pairs diameter by one plain BFS per vertex.
fn naive_all_pairs(moves: &[Perm], start: &[u8]) -> (usize, u32) {
    let sg = SchreierGraph::explore(moves, start, 1 << 20, &Ctl::default()).unwrap();
    let mut best = 0;
    for s in &sg.states {
        let mut dist: HashMap<Box<[u8]>, u32> = HashMap::from([(s.clone(), 0)]);
        let mut q = VecDeque::from([s.clone()]);
        while let Some(x) = q.pop_front() {
            let d = dist[&x];
            best = best.max(d);
            for m in moves {
                let y = act(m, &x);
                if !dist.contains_key(&y) {
                    dist.insert(y.clone(), d + 1);
                    q.push_back(y);
                }
            }
        }
    }
    (sg.len(), best)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn all_pairs_diameter_equals_naive(a in perm_strategy(7), b in perm_strategy(7), cells in prop::collection::vec(0u8..3, 7)) {
        let moves = with_inverses(&[a, b]);
        prop_assume!(!moves.is_empty());
        let sg = SchreierGraph::explore(&moves, &cells, 1 << 20, &Ctl::default()).unwrap();
        let (size, d) = naive_all_pairs(&moves, &cells);
        prop_assert_eq!(sg.len(), size);
        prop_assert_eq!(sg.all_pairs_diameter(&Ctl::default()).unwrap(), d);
    }

    #[test]
    fn moore_formula_equals_search(k in 1u32..4, heaps in prop::collection::vec(0i64..5, 1..5)) {
        let mut memo = HashMap::new();
        let mut sorted = heaps.clone();
        sorted.sort();
        let g = impartial::grundy(&mut moore::Moore(k), &mut memo, &sorted, &Ctl::default()).unwrap();
        prop_assert_eq!(g == 0, moore::is_p_position(k, &heaps));
    }
}

#[test]
fn misere_bouton_rule_equals_search() {
    // heaps up to 4, up to 4 of them: the rule in outcome() against the misère search
    let mut nim = heap::Code::parse("0.[3]").unwrap();
    for a in 0..5i64 {
        for b in 0..5 {
            for c in 0..5 {
                let heaps = vec![a, b, c];
                let comps = heaps.iter().map(|&h| h as u64).collect();
                let search = impartial::misere_wins(&mut nim, comps, &Ctl::default()).unwrap();
                let rule = if heaps.iter().all(|&h| h <= 1) {
                    heaps.iter().filter(|&&h| h == 1).count() % 2 == 0
                } else {
                    heaps.iter().fold(0, |x, h| x ^ h) != 0
                };
                assert_eq!(search, rule, "{heaps:?}");
            }
        }
    }
}

#[test]
fn rule_kayles_equals_octal_and_sums_are_nim_sums() {
    let v = common::values(
        "game k(n) {
    move a, n - 1 - a for a in 0..n-1 if a <= n - 1 - a
    move a, n - 2 - a for a in 0..n-2 if a <= n - 2 - a
}
grundy(k, 0..60) == grundy(kayles, 0..60)
for a in 0..12 { for b in 0..12 { print(grundy(k(a) + kayles(b) + nim(3)) == xor(xor(grundy(kayles(a)), grundy(kayles(b))), 3)) } }",
    );
    assert_eq!(v.len(), 1 + 13 * 13);
    assert!(v.iter().all(|x| *x == serde_json::json!(true)));
}

#[test]
fn octal_bang_belongs_to_the_digit_it_follows() {
    // CGSuite's notation: only the marked digit's splits must be unequal. The references are
    // rulesets written move by move.
    let v = common::values(
        "game r(n) {
    move n - 1 for k in [1] if n >= 1
    move a, n - 1 - a for a in 1..n-2 if a <= n - 1 - a
    move n - 2 for k in [1] if n >= 2
    move a, n - 2 - a for a in 1..n-3 if a < n - 2 - a
}
game s(n) {
    move a, n - a for a in 1..n-1 if a < n - a
    move n - 1 for k in [1] if n >= 2
    move a, n - 1 - a for a in 1..n-2 if a <= n - 1 - a
}
grundy(r, 0..60) == grundy(octal(\"0.77!\"), 0..60)
grundy(s, 0..60) == grundy(octal(\"4!.6\"), 0..60)
grundy(octal(\"0.7!7\"), 0..60) == grundy(octal(\"0.7!7!\"), 0..60)",
    );
    assert_eq!(v[..2], [serde_json::json!(true), serde_json::json!(true)]);
    // 0.7!7 and 0.7!7! differ: the second digit's equal splits count only in the first
    assert_eq!(v[2], serde_json::json!(false));
}
