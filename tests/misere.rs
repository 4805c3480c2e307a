//! Misère theory: Conway's genus and Plambeck and Siegel's misère quotients, against brute force
//! written from the definitions, the misère search of sums, and what the literature prints.
use gamut::engine::Ctl;
use gamut::engine::heap::{self, Code};
use gamut::engine::impartial::misere_wins;
use gamut::engine::misere::{self, Class, Genus, quotient};
use std::collections::HashMap;

fn opts_of(code: &str, n: u64) -> Vec<Vec<Vec<u64>>> {
    let c = Code::parse(code).unwrap();
    (0..=n).map(|h| c.options(h)).collect()
}

fn genera(code: &str, n: u64) -> Vec<(Genus, Class)> {
    misere::heap_genera(&mut Code::parse(code).unwrap(), n, &Ctl::default()).unwrap()
}

/// Misère nimber of a sum of heaps of `code` plus `twos` copies of *2 and `ones` of *1, from
/// the definition (1 with no move, else the mex of the options).
fn misere_nimber(
    code: &Code,
    heaps: Vec<u64>,
    twos: u32,
    ones: u32,
    memo: &mut HashMap<(Vec<u64>, u32, u32), u32>,
) -> u32 {
    let mut heaps = heaps;
    heaps.retain(|&h| h > 0);
    heaps.sort();
    let key = (heaps.clone(), twos, ones);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut opts = vec![];
    for i in 0..heaps.len() {
        for o in code.options(heaps[i]) {
            let mut next = heaps.clone();
            next.remove(i);
            next.extend(o);
            opts.push(misere_nimber(code, next, twos, ones, memo));
        }
    }
    if twos > 0 {
        opts.push(misere_nimber(code, heaps.clone(), twos - 1, ones + 1, memo));
        opts.push(misere_nimber(code, heaps.clone(), twos - 1, ones, memo));
    }
    if ones > 0 {
        opts.push(misere_nimber(code, heaps.clone(), twos, ones - 1, memo));
    }
    let v = if opts.is_empty() {
        1
    } else {
        (0..).find(|v| !opts.contains(v)).unwrap()
    };
    memo.insert(key, v);
    v
}

#[test]
fn genus_agrees_with_the_definition() {
    for code in ["0.77", "0.07", "0.137", "4.0", "0.75", "0.[3]"] {
        let n = 9;
        let c = Code::parse(code).unwrap();
        let normal = heap::naive_values(&c, n, &Ctl::default()).unwrap();
        let mut memo = HashMap::new();
        for (h, (g, _)) in genera(code, n).iter().enumerate() {
            assert_eq!(g.g, normal[h], "{code} heap {h}: g");
            for k in 0..7 {
                let want = misere_nimber(&c, vec![h as u64], k, 0, &mut memo);
                assert_eq!(g.digit(k as usize), want, "{code} heap {h}: γ{k} of {g}");
            }
        }
    }
}

#[test]
fn genus_of_nim_heaps_as_the_books_print_them() {
    // On Numbers and Games, ch. 12: 0^120, 1^031, 2^20, 3^31 (the tame genera of nim-heaps)
    let g: Vec<String> = genera("0.[3]", 4).iter().map(|g| g.0.to_string()).collect();
    assert_eq!(g, ["0^120", "1^031", "2^20", "3^31", "4^46"]);
    assert!(genera("0.[3]", 6).iter().all(|g| g.1 == Class::Tame));
}

#[test]
fn genus_prints_two_digit_terms_with_commas() {
    let g = Genus {
        g: 2,
        gammas: vec![10, 8],
    };
    assert_eq!(g.to_string(), "2^(10,8)");
}

fn sizes(code: &str, n: u64) -> quotient::Quotient {
    quotient::quotient(&opts_of(code, n), &Ctl::default()).unwrap()
}

#[test]
fn quotient_of_0_75_is_r8() {
    // Plambeck, "Taming the wild in impartial combinatorial games" (INTEGERS 5, 2005):
    // 0.75 has the quotient R8 = ⟨a, b, c | a² = 1, b³ = b, bc = ab, c² = b²⟩, P = {a, b²}
    let q = sizes("0.75", 40);
    assert_eq!(q.size(), 8);
    assert_eq!(
        q.presentation(),
        "⟨a, b, c | a² = 1, bc = ab, c² = b², b³ = b⟩"
    );
    assert_eq!(q.p_portion(), ["a", "b²"]);
    assert_eq!(q.stable_from(), Some(5));
}

#[test]
fn quotient_of_a_tame_game_is_the_tame_quotient() {
    // Nim to heap 3: the tame quotient T2 = ⟨a, b | a² = 1, b³ = b⟩, P = {a, b²}
    let q = sizes("0.[3]", 3);
    assert_eq!(q.size(), 6);
    assert_eq!(q.presentation(), "⟨a, b | a² = 1, b³ = b⟩");
    assert_eq!(q.p_portion(), ["a", "b²"]);
    // heaps of 1 only: ⟨a | a² = 1⟩
    assert_eq!(sizes("0.1", 5).presentation(), "⟨a | a² = 1⟩");
}

#[test]
fn quotient_of_dawsons_kayles_to_heap_30_has_360_elements() {
    // Siegel (and Plambeck and Siegel, JCTA 2008): the quotient of 0.07 computed to heap 30
    // has 360 elements
    let q = sizes("0.07", 30);
    assert_eq!(q.size(), 360);
}

#[test]
fn every_quotient_has_even_order() {
    // Plambeck and Siegel: every impartial misère quotient has even order
    for code in [
        "0.77", "0.75", "0.07", "0.137", "0.15", "0.51", "0.6", "0.31", "4.0",
    ] {
        let q = sizes(code, 16);
        assert!(q.size().is_multiple_of(2), "{code}: {}", q.size());
    }
}

#[test]
fn quotient_predicts_the_misere_search_on_random_sums() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for (code, n) in [
        ("0.77", 20),
        ("0.07", 18),
        ("0.75", 16),
        ("0.137", 14),
        ("4.0", 12),
    ] {
        let q = sizes(code, n);
        let mut c = Code::parse(code).unwrap();
        for _ in 0..60 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let k = 1 + seed % 3;
            let sum: Vec<u64> = (0..k).map(|i| (seed >> (8 + 8 * i)) % (n + 1)).collect();
            let wins = misere_wins(&mut c, sum.clone(), &Ctl::default()).unwrap();
            assert_eq!(!wins, q.is_p(&sum), "{code}: {sum:?}");
        }
    }
}

#[test]
fn quotient_refuses_moves_to_larger_heaps() {
    let opts = vec![vec![], vec![vec![2]], vec![vec![]]];
    let e = quotient::quotient(&opts, &Ctl::default()).unwrap_err();
    assert!(e.message.contains("not all smaller"), "{}", e.message);
}
