//! `game` rules run compiled (src/lang/compile.rs): machine arithmetic where it is exact, the
//! interpreter where it is not, and a table of heaps for rulesets of one argument. Checked
//! against a brute force written here, and against the interpreter's own semantics where the
//! compiled code must step aside (overflow, short cuts, type errors).
mod common;
use common::{Rng, run_e};

/// A condition on a heap `n` and a take `k`: as gamut writes it and as Rust computes it.
struct Cond {
    text: String,
    holds: Box<dyn Fn(i64, i64) -> bool>,
}

fn random_cond(rng: &mut Rng) -> Cond {
    let (a, b) = (1 + rng.below(5) as i64, rng.below(4) as i64);
    match rng.below(7) {
        0 => Cond {
            text: format!("k % {a} == {}", b % a),
            holds: Box::new(move |_, k| k.rem_euclid(a) == b % a),
        },
        1 => Cond {
            text: format!("k <= {} or n % 2 == 0", a + b),
            holds: Box::new(move |n, k| k <= a + b || n % 2 == 0),
        },
        2 => Cond {
            text: format!("not (k // {a} == {b})"),
            holds: Box::new(move |_, k| k / a != b),
        },
        3 => Cond {
            text: format!("(if n > {} {{ k <= {a} }} else {{ k >= 1 }})", 3 * a),
            holds: Box::new(move |n, k| if n > 3 * a { k <= a } else { k >= 1 }),
        },
        4 => Cond {
            text: format!("2 * k != n - {b} and -k < 0"),
            holds: Box::new(move |n, k| 2 * k != n - b),
        },
        5 => Cond {
            text: format!("(n - k) % {} != {b}", a + 1),
            holds: Box::new(move |n, k| (n - k).rem_euclid(a + 1) != b),
        },
        _ => Cond {
            text: "true".into(),
            holds: Box::new(|_, _| true),
        },
    }
}

fn mex(xs: impl Iterator<Item = u32>) -> u32 {
    let mut seen = vec![false; 4096];
    for x in xs {
        seen[x as usize] = true;
    }
    seen.iter().position(|s| !s).unwrap() as u32
}

#[test]
fn random_take_and_split_rules_agree_with_a_brute_force() {
    let mut rng = Rng(0x5eed_c0de);
    for case in 0..24 {
        let take = random_cond(&mut rng);
        let split = random_cond(&mut rng);
        let top = 40 + rng.below(30) as i64;
        // a take of k, or a take of k that leaves two heaps a and n - k - a
        let src = format!(
            "game g(n) {{\n  move n - k for k in 1..n if {}\n  move a, n - k - a for k in 1..n, a in 1..n-k-1 if a <= n - k - a and {}\n}}\n\
             grundy(g({top}))\ngrundy(g, 0..{top})\ngrundy(g({}) + g({}))",
            take.text,
            split.text,
            top / 2,
            top / 3
        );
        let mut g: Vec<u32> = vec![];
        for n in 0..=top {
            let mut opts = vec![];
            for k in 1..=n {
                if (take.holds)(n, k) {
                    opts.push(g[(n - k) as usize]);
                }
                for a in 1..n - k {
                    if a <= n - k - a && (split.holds)(n, k) {
                        opts.push(g[a as usize] ^ g[(n - k - a) as usize]);
                    }
                }
            }
            g.push(mex(opts.into_iter()));
        }
        let want = format!(
            "{}\n{:?}\n{}\n",
            g[top as usize],
            g,
            g[(top / 2) as usize] ^ g[(top / 3) as usize]
        );
        let (code, out, err) = run_e(&src);
        assert_eq!(code, 0, "case {case}:\n{src}\n{err}");
        assert_eq!(out.replace('_', ""), want, "case {case}:\n{src}");
    }
}

#[test]
fn the_heap_table_agrees_with_the_generic_search_of_sums() {
    // the sum is searched by the generic search over options; the parts by the table
    let src = "game lk(n) {\n  move n - k for k in 1..n\n  move a, n - a for a in 1..n-1 if a <= n - a\n}\n\
               grundy(lk(9) + lk(7))\ngrundy(lk(9))\ngrundy(lk(7))\ngrundy(lk, 0..10)";
    // Lasker's Nim (Winning Ways): 4k+3 and 4k+4 swap, other heaps are their own nimber
    assert_eq!(
        run_e(src).1,
        "1\n9\n8\n[0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10]\n"
    );
}

#[test]
fn names_bound_again_give_new_values() {
    let src = "let S = [1, 2]\ngame s(n) { move n - x for x in S if x <= n }\ngrundy(s(10))\n\
               let S = [1, 2, 3]\ngrundy(s(10))";
    assert_eq!(run_e(src).1, "1\n2\n");
}

#[test]
fn overflow_and_short_cuts_are_the_interpreters() {
    // 2^62 * n overflows 64 bits for n >= 2: exact arithmetic takes over
    let big = "game big(n) { move n - 1 if n * 4611686018427387904 > 0 }\ngrundy(big(5))";
    assert_eq!(run_e(big).1, "1\n");
    // n // 0 is never computed: `and` stops at k > 0
    let short = "game sc(n) { move n - k for k in 0..n if k > 0 and n // k >= 1 }\ngrundy(sc(7))";
    assert_eq!(run_e(short).1, "7\n");
    // a move to a huge heap (which has no moves) is valued by the generic search, past the table
    let huge = "game h(n) { move 10^15 if n == 0\n move n - 1 if n > 0 and n <= 3 }\ngrundy(h(0))";
    assert_eq!(run_e(huge).1, "1\n");
}

#[test]
fn type_errors_and_negative_heaps_are_still_reported() {
    let (code, _, err) = run_e("game b(n) { move n - 1 if n }\ngrundy(b(3))");
    assert_eq!(code, 1);
    assert!(
        err.contains("expected true or false, got an integer"),
        "{err}"
    );
    let (code, _, err) = run_e("game b(n) { move n - 1 if n > 0 and 1 }\ngrundy(b(3))");
    assert_eq!(code, 1);
    assert!(err.contains("expected true or false"), "{err}");
    let (code, _, err) = run_e("game b(n) { move n - 2 if n > 0 }\ngrundy(b(3))");
    assert_eq!(code, 1);
    assert!(err.contains("negative argument (-1)"), "{err}");
    let (code, _, err) =
        run_e("game b(n) { move n + 1 if n < 5\n move n - 5 if n == 5 }\ngrundy(b(2))");
    assert_eq!(code, 1);
    assert!(err.contains("loopy"), "{err}");
}

#[test]
fn rules_over_strings_and_lists_run_compiled() {
    let src = r#"game tf(s) {
    left move  s[:i] + ".T" + s[i+2:]   for i in 0..len(s)-2 if s[i:i+2] == "T."
    left move  s[:i] + ".FT" + s[i+3:]  for i in 0..len(s)-3 if s[i:i+3] == "TF."
    right move s[:i] + "F." + s[i+2:]   for i in 0..len(s)-2 if s[i:i+2] == ".F"
    right move s[:i] + "FT." + s[i+3:]  for i in 0..len(s)-3 if s[i:i+3] == ".TF"
}
value(tf("TTT..FF")) == value(toads_frogs("TTT..FF"))
game nimlist(h) { move h[:i] + [h[i] - k] + h[i+1:] for i in 0..len(h)-1, k in 1..h[i] }
grundy(nimlist([3, 5, 6]))
grundy(nimlist([3, 5, 7]))"#;
    assert_eq!(run_e(src).1, "true\n0\n1\n");
}
