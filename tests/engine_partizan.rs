//! The partizan-game engine: canonical forms, CGSuite notation, thermography, rulesets.
use gamut::engine::partizan::{Dyadic, Game, Outcome, Relation, Store};

fn p(s: &mut Store, t: &str) -> Game {
    s.parse(t).unwrap_or_else(|e| panic!("{t}: {e}"))
}

fn show(s: &mut Store, g: Game) -> String {
    s.show(g).unwrap()
}

#[test]
fn prints_known_forms() {
    let mut s = Store::default();
    for (input, want) in [
        ("{|}", "0"),
        ("{0|}", "1"),
        ("{|0}", "-1"),
        ("{0|1}", "1/2"),
        ("{-1|-1/2}", "-3/4"),
        ("{0|0}", "*"),
        ("{0,*|0,*}", "*2"),
        ("{0,*,*2|0,*,*2}", "*3"),
        ("{0|*}", "^"),
        ("{*|0}", "v"),
        ("{0,*|0}", "^*"),
        ("{0|0,*}", "v*"),
        ("{0|^*}", "^^"),
        ("{0|^}", "^^*"),
        ("{1|-1}", "±1"),
        ("{1/2|-1/2}", "±1/2"),
        ("{1|*}", "{1|*}"),
        ("{2|1/2||-1}", "{2|1/2||-1}"),
        ("{1|1}", "1*"),
        ("{1|1*}", "1^"),
        ("{3|1}", "{3|1}"),
        ("{0||0|-2}", "Tiny(2)"),
        ("{2|0||0}", "Miny(2)"),
        ("{1||1|-1}", "1Tiny(2)"),
        ("{1*|-1*}", "±(1*)"),
    ] {
        let g = p(&mut s, input);
        assert_eq!(show(&mut s, g), want, "{input}");
        let back = p(&mut s, want);
        assert_eq!(back, g, "round trip of {want}");
    }
}

/// Inputs and the strings CGSuite prints for them, from CGSuite's own test suite (Aaron Siegel,
/// CGSuite: `CanonicalShortGameTestCase`, `EvalTest` "game specifiers" and "infix ops", and
/// `GameGridTest`/`GameStripTest`/`GameGraphTest`, whose positions are checked in
/// tests/partizan_lang.rs). CGSuite writes `+-` where gamut writes `±`.
#[test]
fn prints_as_cgsuite_prints() {
    let mut s = Store::default();
    for (input, want) in [
        ("9/8+*", "9/8*"),
        ("6+^*", "6^*"),
        ("73/16+v9*8", "73/16v9*8"),
        ("^^^^^^+vvv*+^19*3+v14", "^8*2"),
        ("{0|^*5}", "^^*4"),
        ("{0|*||*|||*||||*}", "^[4]"),
        ("{0||0|v*}", "{0|^<2>}"),
        ("{0|v*}", "^<2>"),
        ("{0,*|v}", "^<2>*"),
        ("{^|*}", "^[2]"),
        ("{0,^*|0}", "^[2]*"),
        ("{0||0|vvv}", "{0||0|v3}"),
        ("{^^^|vv}", "{^3|vv}"),
        ("{1|^^^||^}", "{1|^3||^}"),
        (
            "{0||0,v*|vv|||{0||0,v*|vv|||vv,{0,v*|vv}},{0||0,v*|vv}|{0||0,v*|vv|||vv,{0,v*|vv}||||vv}}",
            "{0||0,v*|vv|||{0||0,v*|vv|||vv,{0,v*|vv}},{0||0,v*|vv}|{0||0,v*|vv|||vv,{0,v*|vv}||||vv}}",
        ),
        ("{0||0|-3/2}", "Tiny(3/2)"),
        ("{0|||0||-1|-3}", "Tiny({3|1})"),
        ("{5||3|1|||0||||0}", "Miny({5||3|1})"),
        ("{0||0|-1/4}", "Tiny(1/4)"),
        ("{1|0||0}", "Miny(1)"),
        ("{3||2+*|1+*}", "{3||2*|1*}"),
        (
            "{3/2+*|1/2||{0|-3},{-1+*,{-1/2|-1+*}|-5/2}}",
            "{3/2*|1/2||{0|-3},{-1*,{-1/2|-1*}|-5/2}}",
        ),
        ("{3|||2||1|0,*||||-1/2}", "{3|||2||1|0,*||||-1/2}"),
        ("+-{1,1+*}", "±{1,1*}"),
        ("+-(1/2)", "±1/2"),
        ("3+-1", "{4|2}"),
        ("+-1+-2+-3+-4", "±{10|8||6|4|||4|2||0|-2}"),
        (
            "{12|||11||10,{11|10}|9Tiny({2|1})}",
            "{12|||11||10,{11|10}|9Tiny({2|1})}",
        ),
        ("{2||0,+-2|-4}", "{2||0,±2|-4}"),
        ("{2,{4|0}|-2}", "{2,{4|0}|-2}"),
    ] {
        let g = p(&mut s, input);
        assert_eq!(show(&mut s, g), want, "{input}");
        let back = p(&mut s, want);
        assert_eq!(back, g, "round trip of {want}");
    }
}

#[test]
fn small_identities() {
    let mut s = Store::default();
    let half = p(&mut s, "1/2");
    let one = p(&mut s, "1");
    assert_eq!(s.add(half, half).unwrap(), one);
    let star = p(&mut s, "*");
    assert_eq!(s.add(star, star).unwrap(), s.zero());
    let up = p(&mut s, "^");
    assert_eq!(s.compare(up, s.zero()).unwrap(), Relation::Greater);
    assert_eq!(s.compare(up, star).unwrap(), Relation::Fuzzy);
    let upup = s.add(up, up).unwrap();
    let uus = s.add(upup, star).unwrap();
    assert_eq!(show(&mut s, uus), "^^*");
    assert_eq!(s.outcome(uus).unwrap(), Outcome::L);
    let _ = Dyadic::ZERO;
}

use gamut::engine::Ctl;
use gamut::engine::partizan::games::{
    Board, Cake, Clobber, Domineering, Hackenbush, Picture, Placement, Stones, Subtraction,
    ToadsAndFrogs, cake,
};
use gamut::engine::partizan::{Nus, Rules, value};
use proptest::prelude::*;
use std::collections::HashMap;

fn val<R: Rules<Error = gamut::engine::Error>>(rules: &mut R, s: &mut Store, pos: &R::Pos) -> Game {
    value(rules, s, &mut HashMap::new(), pos, &Ctl::default()).unwrap()
}

/// An independent reference: games as explicit trees, compared by the definition only.
#[derive(Clone, Debug)]
struct Tree(Vec<Tree>, Vec<Tree>);

fn tree(s: &mut Store, g: Game) -> Tree {
    let l = s.left(g).unwrap().to_vec();
    let r = s.right(g).unwrap().to_vec();
    Tree(
        l.into_iter().map(|o| tree(s, o)).collect(),
        r.into_iter().map(|o| tree(s, o)).collect(),
    )
}

fn tree_le(a: &Tree, b: &Tree) -> bool {
    !a.0.iter().any(|al| tree_le(b, al)) && !b.1.iter().any(|br| tree_le(br, a))
}

fn tree_sum(a: &Tree, b: &Tree) -> Tree {
    let mut l: Vec<Tree> = a.0.iter().map(|x| tree_sum(x, b)).collect();
    l.extend(b.0.iter().map(|y| tree_sum(a, y)));
    let mut r: Vec<Tree> = a.1.iter().map(|x| tree_sum(x, b)).collect();
    r.extend(b.1.iter().map(|y| tree_sum(a, y)));
    Tree(l, r)
}

/// Builds a canonical form through the store from an explicit tree.
fn from_tree(s: &mut Store, t: &Tree) -> Game {
    let l = t.0.iter().map(|x| from_tree(s, x)).collect();
    let r = t.1.iter().map(|x| from_tree(s, x)).collect();
    s.canonical(l, r).unwrap()
}

/// x + n·↑ + *m from its canonical forms agrees with the sum built by the general algorithm
/// (Siegel, Combinatorial Game Theory, II.4: the canonical forms of ↑n*m).
#[test]
fn number_up_star_forms() {
    let mut s = Store::default();
    for x in [Dyadic::ZERO, Dyadic::new(-3, 2).unwrap()] {
        for ups in -3i64..=3 {
            for nim in 0..4 {
                let direct = s
                    .nus_game(Nus {
                        number: x,
                        ups,
                        nim,
                    })
                    .unwrap();
                // the same value as an explicit sum, canonicalized without the shortcuts
                let xg = s.number(x).unwrap();
                let mut t = tree(&mut s, xg);
                let one_up = s.up(ups.signum()).unwrap();
                let u = tree(&mut s, one_up);
                for _ in 0..ups.abs() {
                    let sum = from_tree(&mut s, &tree_sum(&t, &u));
                    t = tree(&mut s, sum);
                }
                let st = s.nimber(nim).unwrap();
                t = tree_sum(&t, &tree(&mut s, st));
                assert_eq!(from_tree(&mut s, &t), direct, "{x} {ups} {nim}");
                assert_eq!(
                    s.nus(direct),
                    Some(Nus {
                        number: x,
                        ups,
                        nim
                    })
                );
            }
        }
    }
}

fn random_games(seed: u64, n: usize) -> (Store, Vec<Game>) {
    let mut s = Store::default();
    let mut pool = vec![s.zero()];
    for t in [
        "1",
        "-1",
        "*",
        "1/2",
        "^",
        "{1|-1}",
        "{2|1/2||-1}",
        "^<2>",
        "v[3]*",
    ] {
        pool.push(s.parse(t).unwrap());
    }
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..n {
        let k = pool.len() as u64;
        let l = (0..next() % 3)
            .map(|_| pool[(next() % k) as usize])
            .collect();
        let r = (0..next() % 3)
            .map(|_| pool[(next() % k) as usize])
            .collect();
        let g = s.canonical(l, r).unwrap();
        pool.push(g);
    }
    (s, pool)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// G − G = 0, G + H = H + G, (G + H) + K = G + (H + K), −(−G) = G, the order agrees
    /// with the outcome of the difference, and with the definition on explicit trees.
    #[test]
    fn group_laws(seed in any::<u64>()) {
        let (mut s, pool) = random_games(seed, 60);
        let k = pool.len();
        for i in 0..k {
            let (g, h, j) = (pool[i], pool[(i * 7 + 3) % k], pool[(i * 13 + 5) % k]);
            let ng = s.neg(g).unwrap();
            prop_assert_eq!(s.add(g, ng).unwrap(), s.zero());
            prop_assert_eq!(s.neg(ng).unwrap(), g);
            prop_assert_eq!(s.add(g, h).unwrap(), s.add(h, g).unwrap());
            let gh = s.add(g, h).unwrap();
            let hj = s.add(h, j).unwrap();
            prop_assert_eq!(s.add(gh, j).unwrap(), s.add(g, hj).unwrap());
            let d = s.sub(g, h).unwrap();
            let rel = s.compare(g, h).unwrap();
            let out = s.outcome(d).unwrap();
            let want = match rel {
                Relation::Greater => Outcome::L,
                Relation::Less => Outcome::R,
                Relation::Equal => Outcome::P,
                Relation::Fuzzy => Outcome::N,
            };
            prop_assert_eq!(out, want);
            if s.birthday(g) + s.birthday(h) <= 9 {
                let (tg, th) = (tree(&mut s, g), tree(&mut s, h));
                prop_assert_eq!(tree_le(&tg, &th), s.leq(g, h).unwrap());
                // uniqueness: the sum built from explicit trees is the same node
                prop_assert_eq!(from_tree(&mut s, &tree_sum(&tg, &th)), gh);
            }
            let text = s.show(g).unwrap();
            prop_assert_eq!(s.parse(&text).unwrap(), g, "{}", text);
        }
    }
}

/// Numbers and infinitesimals in order: ↑ > 0, ↑ ‖ *, ↑* ‖ 0, ⇑* > 0, ↑ < 1/64, * < 1/2.
#[test]
fn numbers_and_infinitesimals() {
    let mut s = Store::default();
    let cases = [
        ("^", "0", Relation::Greater),
        ("^", "*", Relation::Fuzzy),
        ("^*", "0", Relation::Fuzzy),
        ("^^*", "0", Relation::Greater),
        ("^*2", "0", Relation::Greater),
        ("^", "1/64", Relation::Less),
        ("*", "1/2", Relation::Less),
        ("*", "-1/2", Relation::Greater),
        ("1/2+1/2", "1", Relation::Equal),
        ("*+*", "0", Relation::Equal),
        ("^+^+*", "^^*", Relation::Equal),
        ("{1|-1}", "0", Relation::Fuzzy),
        ("{1|-1}", "2", Relation::Less),
        ("3/8", "1/4+1/8", Relation::Equal),
        ("{0||0|-2}", "^", Relation::Less),
        ("{0||0|-2}", "0", Relation::Greater),
    ];
    for (a, b, want) in cases {
        let (g, h) = (p(&mut s, a), p(&mut s, b));
        assert_eq!(s.compare(g, h).unwrap(), want, "{a} vs {b}");
    }
}

/// Stops, mean, temperature and cooling of switches and hot games (Siegel, II.5; Winning
/// Ways ch. 6: {2|-1/2} of the 2 × 3 Domineering board has mean 3/4 and temperature 5/4).
#[test]
fn thermography() {
    let mut s = Store::default();
    for (g, mean, temp, ls, rs) in [
        ("{2|-1/2}", "3/4", "5/4", "2", "-1/2"),
        ("{1|-1}", "0", "1", "1", "-1"),
        ("1/2", "1/2", "-1/2", "1/2", "1/2"),
        ("3", "3", "-1", "3", "3"),
        ("^", "0", "0", "0", "0"),
        ("{3|1||0}", "1", "1", "1", "0"),
        ("{5|0||-10}", "-15/4", "25/4", "0", "-10"),
    ] {
        let x = p(&mut s, g);
        assert_eq!(s.mean(x).unwrap().to_string(), mean, "mean {g}");
        assert_eq!(
            s.temperature(x).unwrap().to_string(),
            temp,
            "temperature {g}"
        );
        assert_eq!(s.left_stop(x).to_string(), ls, "left stop {g}");
        assert_eq!(s.right_stop(x).to_string(), rs, "right stop {g}");
    }
    // ±1 cooled by 1 is *, by 2 it is 0; {2|-1/2} cooled by 5/4 is 3/4*
    let pm = p(&mut s, "{1|-1}");
    let c = s.cool(pm, Dyadic::int(1)).unwrap();
    assert_eq!(show(&mut s, c), "*");
    let c = s.cool(pm, Dyadic::int(2)).unwrap();
    assert_eq!(show(&mut s, c), "0");
    let g = p(&mut s, "{2|-1/2}");
    let c = s.cool(g, Dyadic::new(5, 2).unwrap()).unwrap();
    assert_eq!(show(&mut s, c), "3/4*");
    // heating undoes cooling for this game
    let back = s.heat(c, Dyadic::new(5, 2).unwrap()).unwrap();
    assert_eq!(s.compare(back, g).unwrap(), Relation::Equal);
    // the walls of ±1: from (−1, 2) down to the mast at 0 from t = 1
    let th = s.thermograph(pm).unwrap();
    assert_eq!(th.left.at(Dyadic::int(0)).unwrap(), Dyadic::int(1));
    assert_eq!(th.right.at(Dyadic::int(0)).unwrap(), Dyadic::int(-1));
    assert_eq!(th.left.at(Dyadic::int(5)).unwrap(), Dyadic::ZERO);
}

/// Berlekamp's sign-expansion rule for Blue-Red Hackenbush strings (Winning Ways ch. 2): the
/// edges up to the first colour change count ±1 each, every later edge halves the step.
fn berlekamp(colours: &str) -> Dyadic {
    let mut v = Dyadic::ZERO;
    let mut step = Dyadic::int(1);
    let first = colours.chars().next();
    let mut changed = false;
    for c in colours.chars() {
        if Some(c) != first {
            changed = true;
        }
        if changed {
            step = step.half().unwrap();
        }
        v = if c == 'B' {
            v.add(step).unwrap()
        } else {
            v.sub(step).unwrap()
        };
    }
    v
}

#[test]
fn hackenbush_strings() {
    let mut s = Store::default();
    // Winning Ways ch. 2: blue-red = 1/2, blue-red-red = 1/4
    let g = val(&mut Hackenbush, &mut s, &Picture::string("BR").unwrap());
    assert_eq!(show(&mut s, g), "1/2");
    let g = val(&mut Hackenbush, &mut s, &Picture::string("BRR").unwrap());
    assert_eq!(show(&mut s, g), "1/4");
    for n in 1..=7 {
        for bits in 0..1u32 << n {
            let str: String = (0..n)
                .map(|i| if bits >> i & 1 == 1 { 'B' } else { 'R' })
                .collect();
            let g = val(&mut Hackenbush, &mut s, &Picture::string(&str).unwrap());
            assert_eq!(s.as_number(g), Some(berlekamp(&str)), "{str}");
        }
    }
    // a green edge is *, two green edges in a string *2... no: a green string of n is *n
    let g = val(&mut Hackenbush, &mut s, &Picture::string("GGG").unwrap());
    assert_eq!(show(&mut s, g), "*3");
}

/// A blue-red Hackenbush graph: a triangle on the ground with a flower, checked against the
/// sum of its parts where they meet only at the ground.
#[test]
fn hackenbush_graph_splits_at_the_ground() {
    use gamut::engine::partizan::games::Colour::*;
    let mut s = Store::default();
    let tri = Picture {
        edges: vec![(0, 1, Blue), (1, 2, Red), (2, 0, Blue)],
    };
    let stalk = Picture {
        edges: vec![(0, 3, Red), (3, 4, Blue), (3, 5, Green)],
    };
    let both = Picture {
        edges: tri.edges.iter().chain(&stalk.edges).copied().collect(),
    };
    let (a, b) = (
        val(&mut Hackenbush, &mut s, &tri),
        val(&mut Hackenbush, &mut s, &stalk),
    );
    let g = val(&mut Hackenbush, &mut s, &both);
    assert_eq!(g, s.add(a, b).unwrap());
    // the triangle: Left cuts a ground edge (leaving a blue-red string, 1/2) or Right cuts the
    // top (leaving two blue stalks, 2): {1/2 | 2} = 1
    assert_eq!(show(&mut s, a), "1");
}

/// Domineering (Left vertical). Winning Ways ch. 1–2: 2 × 2 = ±1, a vertical 2 × 1 = 1, a
/// horizontal 1 × 2 = −1, 2 × 3 (2 rows) = {2|−1/2}; the 1 × n strips are −⌊n/2⌋; the value of
/// the transposed board is the negative.
#[test]
fn domineering_published() {
    let mut s = Store::default();
    let dom = |s: &mut Store, r, c| val(&mut Domineering, s, &Board::full(r, c).unwrap());
    let cases = [
        (2, 2, "±1"),
        (2, 1, "1"),
        (1, 2, "-1"),
        (2, 3, "{2|-1/2}"),
        (3, 2, "{1/2|-2}"),
        (3, 3, "±1"),
    ];
    for (r, c, want) in cases {
        let g = dom(&mut s, r, c);
        assert_eq!(show(&mut s, g), want, "{r}×{c}");
    }
    for n in 1..10 {
        let g = dom(&mut s, 1, n);
        assert_eq!(s.as_number(g), Some(Dyadic::int(-(n as i64 / 2))));
    }
    for r in 1..5 {
        for c in 1..5 {
            let (a, b) = (dom(&mut s, r, c), dom(&mut s, c, r));
            assert_eq!(s.neg(a).unwrap(), b);
        }
    }
}

/// Values computed by cgt-tools (t4ccer/cgt-tools, an independent implementation) for random
/// Domineering positions and Toads-and-Frogs rows, stored in tests/data.
#[test]
fn agrees_with_cgt_tools() {
    let data = std::fs::read_to_string("tests/data/partizan_cgt_tools.tsv").unwrap();
    let mut s = Store::default();
    let mut n = 0;
    for line in data.lines() {
        let (pos, want) = line.split_once('\t').unwrap();
        let want = p(&mut s, want);
        let got = if pos.contains(['T', 'F']) && !pos.contains('|') {
            val(
                &mut ToadsAndFrogs,
                &mut s,
                &ToadsAndFrogs::parse(pos).unwrap(),
            )
        } else {
            val(&mut Domineering, &mut s, &Board::parse(pos).unwrap())
        };
        assert_eq!(got, want, "{pos}");
        n += 1;
    }
    assert!(n > 200);
}

/// Cutcake (Winning Ways ch. 2): for a cake of width w and height h with 2^k ≤ h < 2^(k+1)
/// and w ≥ h the value is ⌊w / 2^k⌋ − 1; the transposed cake has the negative value.
#[test]
fn cutcake_table() {
    let mut s = Store::default();
    let f = |w: u32, h: u32| -> i64 {
        let k = 31 - h.leading_zeros();
        (w >> k) as i64 - 1
    };
    for w in 1..=10 {
        for h in 1..=10 {
            let g = val(&mut Cake { maundy: false }, &mut s, &cake(w, h).unwrap());
            let want = if w >= h { f(w, h) } else { -f(h, w) };
            assert_eq!(s.as_number(g), Some(Dyadic::int(want)), "{w}×{h}");
        }
    }
}

/// Maundy Cake (Winning Ways ch. 2): a strip of width n has value M(n) = n/p1 + n/(p1 p2) + …
/// over the prime factors p1 ≤ p2 ≤ … (Left's strip); Right's strips are the negatives, and
/// transposing any cake negates it.
#[test]
fn maundy_cake() {
    let mut s = Store::default();
    let m = |mut n: u32| -> i64 {
        let mut primes = vec![];
        let mut p = 2;
        while n > 1 {
            while n.is_multiple_of(p) {
                primes.push(p);
                n /= p;
            }
            p += 1;
        }
        let total: u32 = primes.iter().product();
        let mut acc = 0;
        let mut d = 1;
        for q in primes {
            d *= q;
            acc += (total / d) as i64;
        }
        acc
    };
    for n in 1..=40 {
        let g = val(&mut Cake { maundy: true }, &mut s, &cake(n, 1).unwrap());
        assert_eq!(s.as_number(g), Some(Dyadic::int(m(n))), "{n}×1");
        let g = val(&mut Cake { maundy: true }, &mut s, &cake(1, n).unwrap());
        assert_eq!(s.as_number(g), Some(Dyadic::int(-m(n))), "1×{n}");
    }
    for w in 1..=8 {
        for h in 1..=8 {
            let a = val(&mut Cake { maundy: true }, &mut s, &cake(w, h).unwrap());
            let b = val(&mut Cake { maundy: true }, &mut s, &cake(h, w).unwrap());
            assert_eq!(s.neg(a).unwrap(), b);
        }
    }
}

/// Partizan subtraction: with Left taking 1 and Right taking 2 the heaps are worth n·(1/2)…
/// checked against the definition on explicit option lists.
#[test]
fn subtraction_games() {
    let mut s = Store::default();
    let mut rules = Subtraction {
        left: vec![1, 3],
        right: vec![2],
    };
    let mut by_hand: Vec<Game> = vec![];
    for n in 0..30u64 {
        let l = [1u64, 3]
            .iter()
            .filter(|&&k| k <= n)
            .map(|&k| by_hand[(n - k) as usize])
            .collect();
        let r = [2u64]
            .iter()
            .filter(|&&k| k <= n)
            .map(|&k| by_hand[(n - k) as usize])
            .collect();
        let g = s.canonical(l, r).unwrap();
        by_hand.push(g);
        assert_eq!(val(&mut rules, &mut s, &n), g, "heap {n}");
    }
}

/// Col and Snort on paths (Winning Ways ch. 2: Col on a path of two vertices is 0, a lone
/// vertex is *; Snort on a lone vertex is * and on two joined vertices ±1).
#[test]
fn col_and_snort() {
    let mut s = Store::default();
    let path = |n: usize| (1..n).map(|i| (i - 1, i)).collect::<Vec<_>>();
    let mut col = Placement::col(1, &[]).unwrap();
    let start = col.start();
    let g = val(&mut col, &mut s, &start);
    assert_eq!(show(&mut s, g), "*");
    let mut col = Placement::col(2, &path(2)).unwrap();
    let start = col.start();
    let g = val(&mut col, &mut s, &start);
    assert_eq!(show(&mut s, g), "0");
    let mut snort = Placement::snort(2, &path(2)).unwrap();
    let start = snort.start();
    let g = val(&mut snort, &mut s, &start);
    assert_eq!(show(&mut s, g), "±1");
    // Col values are numbers or numbers plus * (Winning Ways): check on paths and cycles
    for n in 1..12 {
        let mut edges = path(n);
        for e in [edges.clone(), {
            edges.push((n - 1, 0));
            edges
        }] {
            if n < 3 && e.len() >= n {
                continue;
            }
            let mut col = Placement::col(n, &e).unwrap();
            let start = col.start();
            let g = val(&mut col, &mut s, &start);
            let v = s.nus(g).unwrap();
            assert!(v.ups == 0 && v.nim <= 1, "Col on {n}: {}", show(&mut s, g));
        }
    }
}

/// Clobber: a lone black-white pair is 0 (each player has one move leaving a single stone);
/// `xo|ox` cross-checked by explicit option lists; symmetric boards have equal values.
#[test]
fn clobber() {
    let mut s = Store::default();
    let g = val(&mut Clobber, &mut s, &Stones::parse("xo").unwrap());
    assert_eq!(show(&mut s, g), "*");
    let g = val(&mut Clobber, &mut s, &Stones::parse("xoo").unwrap());
    // Left: xoo → .xo (= *), Right: o.o (0) or x... → {*|0} = ↓? no: Left's x takes the o: .xo
    let star = p(&mut s, "*");
    let zero = s.zero();
    let byhand = s.canonical(vec![star], vec![zero]).unwrap();
    assert_eq!(g, byhand);
    for pos in ["xox|oxo", "xoxo|oxox", "xxo|oox"] {
        let a = val(&mut Clobber, &mut s, &Stones::parse(pos).unwrap());
        // swapping colours negates
        let swapped: String = pos
            .chars()
            .map(|c| match c {
                'x' => 'o',
                'o' => 'x',
                c => c,
            })
            .collect();
        let b = val(&mut Clobber, &mut s, &Stones::parse(&swapped).unwrap());
        assert_eq!(s.neg(a).unwrap(), b, "{pos}");
    }
}

/// A ruleset searched by the generic search alone, without its dedicated shortcut.
struct Generic<R>(R);

impl<R: Rules> Rules for Generic<R> {
    type Pos = R::Pos;
    type Error = R::Error;
    fn left(&mut self, p: &R::Pos) -> Result<Vec<R::Pos>, R::Error> {
        self.0.left(p)
    }
    fn right(&mut self, p: &R::Pos) -> Result<Vec<R::Pos>, R::Error> {
        self.0.right(p)
    }
    fn components(&mut self, p: &R::Pos) -> Vec<R::Pos> {
        self.0.components(p)
    }
    fn describe(&self, p: &R::Pos) -> String {
        self.0.describe(p)
    }
}

/// The dedicated Domineering and Clobber searches (bit frames, one memo entry for all the
/// symmetric images, transposition or swapped colours read as negation) agree with the generic
/// search on random boards of every shape that fits their 8 × 8 frame.
#[test]
fn dedicated_searches_agree_with_generic() {
    let mut s = Store::default();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    for _ in 0..300 {
        let (rows, cols) = (1 + next(8) as usize, 1 + next(8) as usize);
        if rows * cols > 16 {
            continue;
        }
        let cell = |k: u64, text: &str| text.as_bytes()[k as usize] as char;
        let board: Vec<String> = (0..rows)
            .map(|_| (0..cols).map(|_| cell(next(4), "..#.")).collect())
            .collect();
        let b = Board::parse(&board.join("|")).unwrap();
        let fast = val(&mut Domineering, &mut s, &b);
        let slow = val(&mut Generic(Domineering), &mut s, &b);
        assert_eq!(fast, slow, "Domineering {}", board.join("|"));
        let stones: Vec<String> = (0..rows)
            .map(|_| (0..cols).map(|_| cell(next(5), "xoxo.")).collect())
            .collect();
        let c = Stones::parse(&stones.join("|")).unwrap();
        let fast = val(&mut Clobber, &mut s, &c);
        let slow = val(&mut Generic(Clobber), &mut s, &c);
        assert_eq!(fast, slow, "Clobber {}", stones.join("|"));
    }
}

/// Errors are refused clearly: too large boards, bad notation, overflowing numbers.
#[test]
fn refusals() {
    let mut s = Store::default();
    assert!(Board::full(9, 9).is_err());
    for bad in ["{1|", "{1||2||3}", "3/6", "*x", "99999999999999999999"] {
        assert!(s.parse(bad).is_err(), "{bad}");
    }
    let big = Dyadic::int(i64::MAX);
    assert!(big.add(Dyadic::int(1)).is_err());
}

/// Atomic weights (Siegel, Combinatorial Game Theory, II.7): aw(n·↑ + *m) = n, and the
/// weight is additive on all-small games; games that are not all-small are refused.
#[test]
fn atomic_weights() {
    let mut s = Store::default();
    for (g, w) in [
        ("^", "1"),
        ("^^*", "2"),
        ("v3*2", "-3"),
        ("*5", "0"),
        ("{0|^*}", "2"),
    ] {
        let x = p(&mut s, g);
        let a = s.atomic_weight(x).unwrap();
        assert_eq!(show(&mut s, a), w, "aw {g}");
    }
    let one = p(&mut s, "1");
    assert!(s.atomic_weight(one).is_err());
    // random all-small games from infinitesimal pieces
    let mut pool: Vec<Game> = ["0", "*", "^", "v", "^*", "*2"]
        .iter()
        .map(|t| p(&mut s, t))
        .collect();
    let mut x = 0x9e3779b97f4a7c15u64;
    for _ in 0..150 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let k = pool.len() as u64;
        let pick = |i: u64| pool[((x >> (8 * i)) % k) as usize];
        let (l, r) = (vec![pick(0), pick(1)], vec![pick(2)]);
        let g = s.canonical(l, r).unwrap();
        if s.is_all_small(g).unwrap() {
            pool.push(g);
        }
    }
    let k = pool.len();
    for i in 0..k {
        let (g, h) = (pool[i], pool[(i * 5 + 1) % k]);
        let (ag, ah) = (s.atomic_weight(g).unwrap(), s.atomic_weight(h).unwrap());
        let sum = s.add(g, h).unwrap();
        let want = s.add(ag, ah).unwrap();
        assert_eq!(
            s.atomic_weight(sum).unwrap(),
            want,
            "aw({}) + aw({})",
            show(&mut s, g),
            show(&mut s, h)
        );
    }
}

/// Knights against queens: checked against a direct recursion over the board written here
/// (sets of placed pieces, options by the rule "no piece attacks an opposing one").
#[test]
fn knights_against_queens() {
    fn attacks(rows: i64, cols: i64, v: i64, knight: bool) -> Vec<i64> {
        let mut out = vec![];
        for r in 0..rows {
            for c in 0..cols {
                let (dr, dc) = (r - v / cols, c - v % cols);
                let hit = if knight {
                    dr * dr + dc * dc == 5
                } else {
                    (dr, dc) != (0, 0) && (dr == 0 || dc == 0 || dr.abs() == dc.abs())
                };
                if hit {
                    out.push(r * cols + c);
                }
            }
        }
        out
    }
    fn brute(
        s: &mut Store,
        rows: i64,
        cols: i64,
        knights: u64,
        queens: u64,
        memo: &mut HashMap<(u64, u64), Game>,
    ) -> Game {
        if let Some(&g) = memo.get(&(knights, queens)) {
            return g;
        }
        let n = rows * cols;
        let (mut l, mut r) = (vec![], vec![]);
        for v in 0..n {
            if (knights | queens) >> v & 1 == 1 {
                continue;
            }
            let near: Vec<i64> = attacks(rows, cols, v, true)
                .into_iter()
                .chain(attacks(rows, cols, v, false))
                .collect();
            if !near.iter().any(|&u| queens >> u & 1 == 1) {
                l.push(brute(s, rows, cols, knights | 1 << v, queens, memo));
            }
            if !near.iter().any(|&u| knights >> u & 1 == 1) {
                r.push(brute(s, rows, cols, knights, queens | 1 << v, memo));
            }
        }
        let g = s.canonical(l, r).unwrap();
        memo.insert((knights, queens), g);
        g
    }
    let mut s = Store::default();
    for (rows, cols) in [(1, 3), (2, 2), (2, 3), (3, 3)] {
        let mut kq = Placement::pieces(rows, cols, "knight", "queen").unwrap();
        let start = kq.start();
        let g = val(&mut kq, &mut s, &start);
        let want = brute(&mut s, rows as i64, cols as i64, 0, 0, &mut HashMap::new());
        assert_eq!(g, want, "{rows}×{cols}");
    }
    assert!(Placement::pieces(3, 3, "pawn", "queen").is_err());
}

/// A store can move to another thread (the language may evaluate on a worker).
#[test]
fn store_is_send() {
    fn send<T: Send>(_: &T) {}
    send(&Store::default());
}

/// Toads-and-Frogs rows may mark empty squares with `.`, `_` or `□`; other letters are refused.
#[test]
fn toads_and_frogs_notation() {
    let mut s = Store::default();
    let mut row = |t: &str| {
        val(
            &mut ToadsAndFrogs,
            &mut s,
            &ToadsAndFrogs::parse(t).unwrap(),
        )
    };
    let (a, b, c) = (row("TT□□FF"), row("TT__FF"), row("TT..FF"));
    assert!(a == b && b == c);
    assert!(ToadsAndFrogs::parse("TXF").is_err());
}

/// Erickson's conjectures on Toads-and-Frogs starting positions (Jeff Erickson, "New Toads and
/// Frogs results", Games of No Chance, MSRI Publications 29, 1996), as restated and proved by
/// Thotsaporn Thanatipanonda ("Further Hopping with Toads and Frogs", Electronic Journal of
/// Combinatorics 18, 2011): with T^a a toads, F^b b frogs and □ an empty square,
/// E1: T^a □□ F^b = {{a−3 | a−b} | {* | 3−b}} for a > b ≥ 2;
/// E2: T^a □□□ FF = {a−2 | a−2} for a ≥ 2;
/// E3: T^a □□□ FFF = a − 7/2 for a ≥ 5.
/// cgt-tools (t4ccer/cgt-tools, `ToadsAndFrogs::canonical_form`) gives the same values on
/// these positions (run side by side when this test was written; see docs/benchmarks.md).
#[test]
fn toads_and_frogs_erickson() {
    let mut s = Store::default();
    let strip = |a: i64, k: usize, b: i64| {
        "T".repeat(a as usize) + &".".repeat(k) + &"F".repeat(b as usize)
    };
    let tf = |s: &mut Store, text: &str| {
        val(&mut ToadsAndFrogs, s, &ToadsAndFrogs::parse(text).unwrap())
    };
    let mut checked = 0;
    for a in 2..=7i64 {
        for b in 2..a {
            let (x, y, z) = (
                s.integer(a - 3).unwrap(),
                s.integer(a - b).unwrap(),
                s.integer(3 - b).unwrap(),
            );
            let star = s.nimber(1).unwrap();
            let l = s.canonical(vec![x], vec![y]).unwrap();
            let r = s.canonical(vec![star], vec![z]).unwrap();
            let want = s.canonical(vec![l], vec![r]).unwrap();
            assert_eq!(tf(&mut s, &strip(a, 2, b)), want, "E1 a={a} b={b}");
            checked += 1;
        }
        let n = s.integer(a - 2).unwrap();
        let want = s.canonical(vec![n], vec![n]).unwrap();
        assert_eq!(tf(&mut s, &strip(a, 3, 2)), want, "E2 a={a}");
        if a >= 5 {
            let want = s.number(Dyadic::new(2 * a - 7, 1).unwrap()).unwrap();
            assert_eq!(tf(&mut s, &strip(a, 3, 3)), want, "E3 a={a}");
        }
    }
    assert_eq!(checked, 15);
    // the forms as CGSuite (and cgt-tools) print two of them
    let g = tf(&mut s, "TTTTTT..FFFF");
    assert_eq!(show(&mut s, g), "{3|2||*|-1}");
    let g = tf(&mut s, "TTTTT...FFF");
    assert_eq!(show(&mut s, g), "3/2");
}

/// Clobber written plainly (a cell list, no components, no symmetries): the reference for the
/// bitboard rules.
struct PlainClobber {
    rows: usize,
    cols: usize,
}

impl PlainClobber {
    fn moves(&self, cells: &[u8], me: u8) -> Vec<Vec<u8>> {
        let mut out = vec![];
        for i in 0..cells.len() {
            if cells[i] != me {
                continue;
            }
            let (r, c) = (i / self.cols, i % self.cols);
            let near = [
                (r > 0).then(|| i - self.cols),
                (r + 1 < self.rows).then(|| i + self.cols),
                (c > 0).then(|| i - 1),
                (c + 1 < self.cols).then(|| i + 1),
            ];
            for j in near.into_iter().flatten() {
                if cells[j] == 3 - me {
                    let mut t = cells.to_vec();
                    t[i] = 0;
                    t[j] = me;
                    out.push(t);
                }
            }
        }
        out
    }
}

impl Rules for PlainClobber {
    type Pos = Vec<u8>;
    type Error = gamut::engine::Error;
    fn left(&mut self, p: &Vec<u8>) -> gamut::engine::Result<Vec<Vec<u8>>> {
        Ok(self.moves(p, 1))
    }
    fn right(&mut self, p: &Vec<u8>) -> gamut::engine::Result<Vec<Vec<u8>>> {
        Ok(self.moves(p, 2))
    }
    fn describe(&self, p: &Vec<u8>) -> String {
        format!("{p:?}")
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    /// Random Clobber boards up to 3 × 4: the bitboard rules (components, cropping, the eight
    /// symmetries) give the plain search's value.
    #[test]
    fn clobber_matches_the_plain_search(
        rows in 1usize..4,
        cols in 1usize..5,
        cells in prop::collection::vec(0u8..3, 12),
    ) {
        let cells = &cells[..rows * cols];
        let text = cells
            .chunks(cols)
            .map(|r| r.iter().map(|&c| ['.', 'x', 'o'][c as usize]).collect::<String>())
            .collect::<Vec<_>>()
            .join("|");
        let mut s = Store::default();
        let fast = val(&mut Clobber, &mut s, &Stones::parse(&text).unwrap());
        let plain = val(&mut PlainClobber { rows, cols }, &mut s, &cells.to_vec());
        prop_assert_eq!(fast, plain, "{}", text);
    }
}
