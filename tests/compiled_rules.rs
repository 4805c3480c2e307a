//! `game` rules run compiled (src/lang/compile.rs): machine arithmetic where it is exact, the
//! interpreter where it is not, and a table of heaps for rulesets of one argument. Checked
//! against a brute force written here, and against the interpreter's own semantics where the
//! compiled code must step aside (overflow, short cuts, type errors).
mod common;
use common::{Rng, run_e};
use gamut::lang::help::help;
use gamut::lang::run::eval::Interp;

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

/// Conditions that bound the range of the loop variable (`p*k + q*n op r*k + s`, taken out of
/// the loop), alone, before a condition tested per element, and after one.
#[test]
fn range_bounds_taken_from_conditions_agree_with_a_brute_force() {
    let mut rng = Rng(0xb0_0d5);
    let ops = ["<", "<=", ">", ">=", "==", "!="];
    for case in 0..40 {
        let c: Vec<i64> = (0..4).map(|_| rng.below(7) as i64 - 3).collect();
        let op = ops[rng.below(6)];
        let m = 2 + rng.below(3) as i64;
        let bound = format!("{}*k + {}*n {op} {}*k + {}", c[0], c[1], c[2], c[3]);
        let holds = move |n: i64, k: i64| {
            let (l, r) = (c[0] * k + c[1] * n, c[2] * k + c[3]);
            match op {
                "<" => l < r,
                "<=" => l <= r,
                ">" => l > r,
                ">=" => l >= r,
                "==" => l == r,
                _ => l != r,
            }
        };
        let (cond, both): (String, Box<dyn Fn(i64, i64) -> bool>) = match case % 3 {
            0 => (bound, Box::new(holds)),
            1 => (
                format!("{bound} and k % {m} != 1"),
                Box::new(move |n, k| holds(n, k) && k % m != 1),
            ),
            _ => (
                format!("k % {m} != 1 and {bound}"),
                Box::new(move |n, k| k % m != 1 && holds(n, k)),
            ),
        };
        // a take of k, or a split into a and n - k - a with the bound on a
        let src = format!(
            "game g(n) {{\n  move n - k for k in 1..n if {cond}\n  move a, n - 1 - a for a in 1..n-2 if {}\n}}\ngrundy(g, 0..40)",
            cond.replace('k', "a")
        );
        let mut g: Vec<u32> = vec![];
        for n in 0..=40 {
            let takes = (1..=n).filter(|&k| both(n, k)).map(|k| g[(n - k) as usize]);
            let splits = (1..=n - 2)
                .filter(|&a| both(n, a))
                .map(|a| g[a as usize] ^ g[(n - 1 - a) as usize]);
            let opts: Vec<u32> = takes.chain(splits).collect();
            g.push(mex(opts.into_iter()));
        }
        let (code, out, err) = run_e(&src);
        assert_eq!(code, 0, "case {case}:\n{src}\n{err}");
        assert_eq!(
            out.replace('_', ""),
            format!("{g:?}\n"),
            "case {case}:\n{src}"
        );
    }
    // a bound whose loop-free part overflows 64 bits leaves the test to the interpreter
    let big = "game b(n) { move n - k for k in 1..n if 4611686018427387904 * k >= 4611686018427387904 * 3 }\ngrundy(b, 0..9)";
    assert_eq!(run_e(big).1, "[0, 0, 0, 1, 1, 1, 2, 2, 2, 3]\n");
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
    // rulesets of two arguments (the generic search's memo) and partizan ones (their own memo)
    let two = "let S = [1, 2]\ngame s(a, b) { move (a - x, b) for x in S if x <= a }\ngrundy(s(10, 0))\n\
               let S = [1, 2, 3]\ngrundy(s(10, 0))";
    assert_eq!(run_e(two).1, "1\n2\n");
    let sides = "let T = 1\ngame p(n) {\n left move n - T if n >= T\n right move n - 1 if n >= 1\n}\n\
                 value(p(2))\nlet T = 2\nvalue(p(2))";
    assert_eq!(run_e(sides).1, "0\n{0|-1}\n");
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

/// A play too long to search names the position by its argument, not by the code the search
/// keeps for an integer past 64 bits.
#[test]
fn a_long_play_names_its_position_by_value() {
    let (code, _, err) = run_e("game t(n) { move n - 1 if n > 0 }\ngrundy(t(10^30))");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("t(999_999_999_999_999_999_999_998_000_000)"),
        "{err}"
    );
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

/// A rule of a heap `n` as gamut writes it, and its options as Rust lists them.
struct Rule {
    text: String,
    /// a take-and-break game's rule
    octal: bool,
    options: Box<dyn Fn(i64) -> Vec<Vec<i64>>>,
}

fn random_rule(rng: &mut Rng) -> Rule {
    let set: Vec<i64> = (1..=6).filter(|_| rng.below(3) == 0).collect();
    let set = if set.is_empty() { vec![2] } else { set };
    let list = format!("{set:?}");
    let s2 = set.clone();
    match rng.below(9) {
        // take from a set, leaving a heap or none (or at least one, or at least two)
        0 => Rule {
            text: format!("move n - k for k in {list} if k <= n"),
            octal: true,
            options: Box::new(move |n| {
                s2.iter()
                    .filter(|&&k| k <= n)
                    .map(|k| vec![n - k])
                    .collect()
            }),
        },
        1 => Rule {
            text: format!("move n - k for k in {list} if n - k > 0"),
            octal: true,
            options: Box::new(move |n| {
                s2.iter().filter(|&&k| k < n).map(|k| vec![n - k]).collect()
            }),
        },
        2 => Rule {
            text: format!("move n - k for k in {list} if n >= k + 2"),
            octal: false,
            options: Box::new(move |n| {
                s2.iter()
                    .filter(|&&k| k + 2 <= n)
                    .map(|k| vec![n - k])
                    .collect()
            }),
        },
        // take any number from 2 on
        3 => Rule {
            text: "move n - k for k in 2..n".into(),
            octal: true,
            options: Box::new(|n| (2..=n).map(|k| vec![n - k]).collect()),
        },
        // take from a set and split the rest into two heaps: any, unequal, or any (each twice)
        4 => Rule {
            text: format!("move a, n - k - a for k in {list}, a in 1..n-k-1 if a <= n - k - a"),
            octal: true,
            options: Box::new(move |n| split(&s2, n, |a, b| a <= b)),
        },
        5 => Rule {
            text: format!("move a, n - k - a for k in {list}, a in 1..n-k-1 if 2 * a < n - k"),
            octal: true,
            options: Box::new(move |n| split(&s2, n, |a, b| a < b)),
        },
        6 => Rule {
            text: format!("move n - k - a, a for k in {list}, a in 1..n-k-1"),
            octal: true,
            options: Box::new(move |n| split(&s2, n, |_, _| true)),
        },
        // split without taking, into unequal heaps (Grundy's game)
        7 => Rule {
            text: "move a, n - a for a in 1..n-1 if a < n - a".into(),
            octal: true,
            options: Box::new(|n| split(&[0], n, |a, b| a < b)),
        },
        // not a take-and-break game: a heap of 0 may stay beside the rest
        _ => Rule {
            text: format!("move a, n - k - a for k in {list}, a in 0..n-k if a <= n - k - a"),
            octal: false,
            options: Box::new(move |n| {
                let mut out = vec![];
                for &k in &s2 {
                    for a in 0..=(n - k) {
                        if a <= n - k - a {
                            out.push(vec![a, n - k - a]);
                        }
                    }
                }
                out
            }),
        },
    }
}

/// The splits of `n - k` into `a` and `b`, both at least 1, for `k` in `set`, where `keep(a, b)`.
fn split(set: &[i64], n: i64, keep: impl Fn(i64, i64) -> bool) -> Vec<Vec<i64>> {
    let mut out = vec![];
    for &k in set {
        for a in 1..n - k {
            if keep(a, n - k - a) {
                out.push(vec![a, n - k - a]);
            }
        }
    }
    out
}

/// Rules that are a take-and-break game are valued by the heap engine (`:help` says which);
/// the values must be the rules' own, whichever engine finds them.
#[test]
fn rules_handed_to_the_heap_engine_keep_their_values() {
    let mut rng = Rng(0x0c7a1);
    for case in 0..40 {
        let rules: Vec<Rule> = (0..1 + rng.below(3))
            .map(|_| random_rule(&mut rng))
            .collect();
        let body: Vec<&str> = rules.iter().map(|r| r.text.as_str()).collect();
        let src = format!(
            "game g(n) {{\n  {}\n}}\ngrundy(g, 0..60)\ngrundy(g(60) + g(17))\nperiod(g, to: 60).checked_to",
            body.join("\n  ")
        );
        let mut g: Vec<u32> = vec![];
        for n in 0..=60 {
            let opts = rules.iter().flat_map(|r| (r.options)(n));
            g.push(mex(
                opts.map(|o| o.iter().fold(0, |x, &h| x ^ g[h as usize]))
            ));
        }
        let want = format!("{g:?}\n{}\n60\n", g[60] ^ g[17]);
        let (code, out, err) = run_e(&src);
        assert_eq!(code, 0, "case {case}:\n{src}\n{err}");
        assert_eq!(out.replace('_', ""), want, "case {case}:\n{src}");
        let mut it = Interp::new(Box::new(|_, _| {}));
        it.run_source(
            "<test>",
            &format!("game g(n) {{\n  {}\n}}", body.join("\n  ")),
        )
        .unwrap();
        let help = help(&it, "g").unwrap();
        let octal = rules.iter().all(|r| r.octal);
        assert_eq!(
            help.contains("take-and-break"),
            octal,
            "case {case}:\n{src}\n{help}"
        );
    }
}

/// A slice end or an index of a string `s` in a loop over `i`: in range, negative, past the
/// end, or past 64 bits.
fn random_end(rng: &mut Rng) -> String {
    let c = rng.below(4);
    match rng.below(9) {
        0 | 1 => "i".into(),
        2 => format!("i + {c}"),
        3 => format!("i - {c}"),
        4 => format!("{}", c as i64 - 2),
        5 => format!("len(s) - {c}"),
        6 => "2 * i".into(),
        7 => "-i".into(),
        _ => ["10^20", "-10^20"][rng.below(2)].into(),
    }
}

fn random_str(rng: &mut Rng, max: usize, alphabet: &[&str]) -> String {
    (0..rng.below(max + 1))
        .map(|_| alphabet[rng.below(alphabet.len())])
        .collect()
}

/// `s[a:b]` with either end left out.
fn random_slice(rng: &mut Rng) -> String {
    let end = |rng: &mut Rng| match rng.below(4) {
        0 => String::new(),
        _ => random_end(rng),
    };
    let (a, b) = (end(rng), end(rng));
    format!("s[{a}:{b}]")
}

/// A test of `s` against a constant, as the compiler takes it apart.
fn random_test(rng: &mut Rng) -> String {
    let lit = format!("{:?}", random_str(rng, 3, &["T", ".", "F", "é"]));
    let op = ["==", "!="][rng.below(2)];
    match rng.below(5) {
        0 => format!("{lit} {op} {}", random_slice(rng)),
        1 => {
            // an index in range, both ways of counting
            let at = ["i", "-1 - i", "len(s) - 1 - i"][rng.below(3)];
            format!("(i >= 0 and i < len(s) and s[{at}] {op} {lit})")
        }
        2 => "true".into(),
        _ => format!("{} {op} {lit}", random_slice(rng)),
    }
}

/// A string-valued `+` chain of slices, constants and other strings.
fn random_chain(rng: &mut Rng) -> String {
    let parts: Vec<String> = (0..2 + rng.below(4))
        .map(|_| match rng.below(6) {
            0..=2 => random_slice(rng),
            3 => format!("{:?}", random_str(rng, 3, &["T", ".", "F", "é"])),
            4 => "s".into(),
            _ => format!(
                "(if i % 2 == 0 {{ {:?} }} else {{ s[i:] }})",
                random_str(rng, 2, &["T", "."])
            ),
        })
        .collect();
    parts.join(" + ")
}

/// The options of random string rules, compiled, against the same expressions evaluated by the
/// interpreter in a list comprehension (which the rule compiler never sees).
#[test]
fn random_string_rules_agree_with_the_interpreter() {
    let mut rng = Rng(0x7f5e_ed57);
    for case in 0..60 {
        let (chain, test) = (random_chain(&mut rng), random_test(&mut rng));
        let test = match rng.below(3) {
            0 => format!("{test} and {}", random_test(&mut rng)),
            1 => format!("{test} or {}", random_test(&mut rng)),
            _ => test,
        };
        let from = rng.below(4) as i64 - 2;
        let to = ["len(s)", "len(s) - 2", "len(s) + 1", "3"][rng.below(4)];
        let strings: Vec<String> = (0..6)
            .map(|_| {
                let alphabet: &[&str] = if rng.below(4) == 0 {
                    &["T", ".", "F", "é"]
                } else {
                    &["T", ".", "F"]
                };
                format!("{:?}", random_str(&mut rng, 7, alphabet))
            })
            .collect();
        let strings = strings.join(", ");
        let src = format!(
            "game g(s) {{ move {chain} for i in {from}..{to} if {test} }}\n\
             [set(options(g(s))) for s in [{strings}]]\n\
             [set([g(x) for x in [{chain} for i in {from}..{to} if {test}]]) for s in [{strings}]]"
        );
        lines_agree(case, &src);
    }
}

/// Lists the same ways: a slice compared with a constant list, and a chain of list slices.
#[test]
fn random_list_rules_agree_with_the_interpreter() {
    let mut rng = Rng(0x1157_5eed);
    for case in 0..30 {
        let konst = format!(
            "{:?}",
            (0..rng.below(3)).map(|_| rng.below(3)).collect::<Vec<_>>()
        );
        let test = format!("{} == {konst}", random_slice(&mut rng));
        let chain = format!(
            "{} + [i] + {}",
            random_slice(&mut rng),
            random_slice(&mut rng)
        );
        let lists: Vec<String> = (0..5)
            .map(|_| {
                format!(
                    "{:?}",
                    (0..rng.below(6)).map(|_| rng.below(3)).collect::<Vec<_>>()
                )
            })
            .collect();
        let lists = lists.join(", ");
        let src = format!(
            "game g(s) {{ move {chain} for i in 0..len(s) if {test} }}\n\
             [set(options(g(s))) for s in [{lists}]]\n\
             [set([g(x) for x in [{chain} for i in 0..len(s) if {test}]]) for s in [{lists}]]"
        );
        lines_agree(case, &src);
    }
}

/// Bad operands of a test or a chain give the interpreter's errors.
#[test]
fn string_tests_and_chains_keep_the_interpreters_errors() {
    for (rule, inline) in [
        (
            r#"move s for i in 0..1 if s[i:"a"] == "T""#,
            r#"s[0:"a"] == "T""#,
        ),
        (
            r#"move s for i in 0..1 if s[i + 5] == "T""#,
            r#"s[5] == "T""#,
        ),
        (r#"move s[:i] + 1 for i in 0..1"#, r#"s[:0] + 1"#),
        (
            r#"move 1 + s[:i] + "x" for i in 0..1"#,
            r#"1 + s[:0] + "x""#,
        ),
        (
            r#"move s[i:] + "x" for i in 0..1 if s[i:] == "T""#,
            r#"3[0:] == "T""#,
        ),
    ] {
        let (code, _, want) = run_e(&format!("let s = \"T.F\"\n{inline}"));
        assert_eq!(code, 1, "{inline}");
        let message = want.lines().next().unwrap().trim().to_string();
        let arg = if inline.starts_with("3[") {
            "3"
        } else {
            "\"T.F\""
        };
        let (code, _, err) = run_e(&format!("game g(s) {{ {rule} }}\noptions(g({arg}))"));
        assert_eq!(code, 1, "{rule}");
        assert!(err.contains(&message), "{rule}: {err}\nwant {message}");
    }
}

/// A loop whose whole condition is one slice of a fixed string compared with a string runs as a
/// byte scan: its ends (negative, past the end, overflowing 64 bits, of any slope), empty and
/// negative ranges, strings that are not ASCII and a string read from the defining scope, against
/// the interpreter.
#[test]
fn slice_scans_agree_with_the_interpreter() {
    let mut rng = Rng(0x5ca9_0b17);
    let end = |rng: &mut Rng| match rng.below(7) {
        0 => String::new(),
        1 => "9223372036854775806 + 2 * i".into(),
        2 => "-3 * i + 1".into(),
        3 => "i - 9223372036854775807".into(),
        _ => random_end(rng),
    };
    for case in 0..80 {
        let (a, b) = (end(&mut rng), end(&mut rng));
        let base = ["s", "s", "t"][rng.below(3)];
        let lit = format!("{:?}", random_str(&mut rng, 3, &["T", ".", "F", "é"]));
        let op = ["==", "!="][rng.below(2)];
        let test = match rng.below(2) {
            0 => format!("{base}[{a}:{b}] {op} {lit}"),
            _ => format!("{lit} {op} {base}[{a}:{b}]"),
        };
        let chain = random_chain(&mut rng);
        let from = rng.below(6) as i64 - 3;
        let to = ["len(s)", "len(s) - 2", "len(s) + 2", "-1", "1"][rng.below(5)];
        let strings: Vec<String> = (0..6)
            .map(|_| {
                let alphabet: &[&str] = match rng.below(4) {
                    0 => &["T", ".", "F", "é"],
                    _ => &["T", ".", "F"],
                };
                format!("{:?}", random_str(&mut rng, 7, alphabet))
            })
            .collect();
        let t = format!("{:?}", random_str(&mut rng, 6, &["T", ".", "F", "é"]));
        let strings = strings.join(", ");
        let src = format!(
            "let t = {t}\n\
             game g(s) {{ move {chain} for i in {from}..{to} if {test} }}\n\
             [set(options(g(s))) for s in [{strings}]]\n\
             [set([g(x) for x in [{chain} for i in {from}..{to} if {test}]]) for s in [{strings}]]"
        );
        lines_agree(case, &src);
    }
}

/// Runs `src`, whose two printed lines (the compiled rules' options, then the interpreter's
/// evaluation of the same expressions) must agree.
fn lines_agree(case: usize, src: &str) {
    let (code, out, err) = run_e(src);
    assert_eq!(code, 0, "case {case}: {src}\n{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "case {case}: {src}\n{out}");
    assert_eq!(lines[0], lines[1], "case {case}: {src}");
}
