//! Everyday use: what a new user trips over. Each test is a reproduction of a reported defect.

mod common;
use common::{gamut, run_e};

fn err_of(src: &str) -> (i32, String) {
    let (code, _, err) = run_e(src);
    (code, err)
}

#[test]
fn digits_are_grouped_with_underscores_never_commas() {
    let (_, out, _) = run_e("diameter(slide3_hard)");
    assert!(out.contains("8_660, 19_612, 41_408"), "{out}");
    assert!(!out.contains("19,612"));
    // the same rule in lists, tables and ranges; literals may be written that way too
    assert_eq!(run_e("[1234, 12]").1, "[1_234, 12]\n");
    assert_eq!(run_e("1_000_000 + 1").1, "1_000_001\n");
    assert!(
        run_e("table(fn(a, b) = a * 1000 * b, 1..2, 1..2)")
            .1
            .contains("2_000")
    );
    // JSON is never grouped
    let out = gamut().args(["--json", "-e", "12345"]).output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"line\":1,\"value\":12345}\n"
    );
}

#[test]
fn global_options_work_in_any_position_and_scripts_come_from_stdin() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let f = dir.join("s.game");
    std::fs::write(&f, "1 + 1\n").unwrap();
    let out = gamut().args(["--json", "run"]).arg(&f).output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"line\":1,\"value\":2}\n"
    );
    let out = gamut()
        .args(["--threads", "2", "run"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2\n");
    let out = gamut().arg("run").arg(&f).arg("--json").output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"line\":1,\"value\":2}\n"
    );
    assert_eq!(run_e("-7 // 2").1, "-4\n");
    assert_eq!(run_e("-7 / 2").1, "-7/2\n");
    let out = gamut()
        .args(["run", "-"])
        .write_stdin("3 * 3\n")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "9\n");
    // a script on stdin: no banner, and the script's exit status
    let out = gamut().write_stdin("2 + 2\n").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "4\n");
    assert_eq!(out.status.code(), Some(0));
    let out = gamut().write_stdin("nosuchname\n").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn use_loads_the_users_own_file_relative_to_the_script() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::write(dir.join("lib/mylib.game"), "fn triple(x) = 3 * x\n").unwrap();
    std::fs::write(
        dir.join("main.game"),
        "use \"./lib/mylib.game\"\ntriple(14)\n",
    )
    .unwrap();
    let out = gamut()
        .arg("run")
        .arg(dir.join("main.game"))
        .current_dir("/")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "42\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (code, err) = err_of("use \"./no/such.game\"");
    assert_eq!(code, 1);
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn lines_continue_after_operators_and_else_may_start_a_line() {
    assert_eq!(run_e("fn f(x) =\n  x + 1\nf(2)").1, "3\n");
    assert_eq!(run_e("let y = 1 +\n  2\ny").1, "3\n");
    assert_eq!(
        run_e("if 1 > 2 {\n  print(1)\n}\nelse {\n  print(2)\n}").1,
        "2\n"
    );
    assert_eq!(run_e("let z = if false { 1 }\n  else { 5 }\nz").1, "5\n");
}

#[test]
fn messages_say_what_is_wrong() {
    let cases: &[(&str, &str)] = &[
        (r#"print "hi""#, "parentheses"),
        ("kayles(10^30)", "too large for a position"),
        ("let y = if false { 1 }", "needs an `else`"),
        (r#"eval_word(slide2, "R Q")"#, "`Q` is not a generator"),
        ("1.5", "no decimal numbers"),
        ("group G = <R, Q>", "gen R ="),
        ("game g(n) { mvoe n - 1 }", "`mvoe`"),
        (
            "game h(n) { move kayles(n - 1) }\ngrundy(h(3))",
            "`move a, n - a` for two heaps",
        ),
        ("order(slide2, 1)", "takes 1 argument, got 2"),
        ("grid(\"a\", 2)", "not a string"),
        ("grundyy(nim(3))", "did you mean `grundy`"),
        ("octal(\"\")", "not an octal code with any move"),
        ("octal(\"0.\")", "not an octal code with any move"),
        ("(1,2,1)", "appears twice"),
        ("(0,1)", "numbered from 1"),
        ("let x = 1\nif x = 1 { print(x) }", "`==`"),
        ("for i in 1..3 { print(i)", "never closed"),
        // messages that named the wrong fault
        ("len(1..2^70)", "must lie between -2^63 and 2^63 - 1"),
        ("1..\"a\"", "needs integer ends, not a string"),
        ("\"ab\" * -1", "cannot be repeated -1 times"),
        (
            "\"ab\" * 10^9",
            "this string would have 2_000_000_000 bytes",
        ),
        ("[1, 2][2^63]", "is out of range for a list of length 2"),
        ("[1][\"a\"]", "must be an integer, not a string"),
        ("fn f(x, x) = x", "the parameter `x` is named twice"),
        ("game g(n, n) { move n - 1 if n > 0 }", "named twice"),
        ("len(1)", "len takes a list, set, range, string or map"),
        ("let café = 1", "`é` (U+00E9) is not part of gamut's syntax"),
        ("\"a\\q\"", "an unknown escape in a string"),
        (
            "pad(5, -2^63)",
            "a width of 9_223_372_036_854_775_808 columns",
        ),
        ("format(\"{}\", 1, 2)", "the template has 1 {} but 2 values"),
        ("group((1,2,3))", "takes its generators by name"),
        (
            "hamiltonian(slide2, limit: -1)",
            "`limit:` is the search budget",
        ),
        (
            "walks(slide2, 2, size: -1)",
            "`size:` is the matrix side in pixels",
        ),
        (
            "winning(kayles(5), \"L\")",
            "named only for a partizan position",
        ),
        ("domineering(\"x.\")", "'x' in row 1 is not a cell"),
        ("path_graph(63)", "63 is outside 1..62"),
        ("trees(17)", "trees are listed up to 16 edges"),
        ("graph { a - b - a; cells [a, b] }", "a cell of 2 vertices"),
        (
            "graph { a - b - c - a; cells [a, b, a] }",
            "visits `a` twice",
        ),
        ("mex([\"a\"])", "`mex` takes integers; this holds a string"),
        (
            "let s = \"a\" * 9000000\ns + s",
            "this string would have 18_000_000 bytes",
        ),
        (
            "let l = list(1..11000000)\nlen(l + l)",
            "this list would have 22_000_000 elements",
        ),
        (
            "str(list(1..3000000))",
            "this string would have 30_887_898 bytes",
        ),
    ];
    for (src, want) in cases {
        let (code, err) = err_of(src);
        assert!(code == 1 || code == 2, "{src}: exit {code}");
        assert!(err.contains(want), "{src}: expected {want:?} in\n{err}");
        assert!(
            !err.contains("a integer") && !err.contains(" 1 arguments"),
            "{err}"
        );
    }
    // a failing table cell is a warning (the table survives), with the corrected grammar
    let (code, err) = err_of("table(fn(m) = m, 1..3, 1..3)");
    assert_eq!(code, 0);
    assert!(
        err.contains("this function takes 1 argument, got 2"),
        "{err}"
    );
    let (_, err) = err_of("game g(n) { mvoe n - 1 }");
    assert!(err.contains("did you mean `move`"), "{err}");
}

#[test]
fn every_runtime_error_has_a_hint() {
    for src in [
        "(0,1)",
        "xor(1, -1)",
        "order(1)",
        "[1][5]",
        "1 / 0",
        "\"a\" - 1",
    ] {
        let (_, err) = err_of(src);
        assert!(err.contains("help:"), "{src}: no hint in\n{err}");
    }
}

#[test]
fn none_prints_and_is_null_in_json() {
    assert_eq!(run_e("period(nim, to: 10).period").1, "none\n");
    assert_eq!(run_e("none").1, "none\n");
    let out = gamut()
        .args(["--json", "-e", "period(nim, to: 10).period"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"line\":1,\"value\":null}\n"
    );
}

#[test]
fn records_and_tables_are_easy_to_scan() {
    let (_, out, _) = run_e("print(\"d =\", diameter(slide2))");
    assert_eq!(
        out,
        "d =\n  diameter: 2\n  size: 8\n  distribution: [1, 4, 3]\n"
    );
    // records printed in a loop are told apart by a blank line; one-line values are not
    let (_, out, _) = run_e("for g in [slide2, slide2] { print(diameter(g)) }\n1\n2");
    assert_eq!(
        out,
        "diameter: 2\nsize: 8\ndistribution: [1, 4, 3]\n\ndiameter: 2\nsize: 8\ndistribution: [1, 4, 3]\n1\n2\n"
    );
    let (_, out, _) = run_e("table(fn(r, c) = r, [kayles, nim], 1..2)");
    assert!(out.contains("kayles |"), "{out}");
    assert!(out.contains("-+-"), "{out}");
    // a failing cell is empty and warned about; the table survives
    let (code, out, err) = run_e("table(fn(a, b) = a / b, 1..2, 0..1)");
    assert_eq!(code, 0);
    assert!(err.contains("warning: 2 cells"), "{err}");
    assert!(out.contains("2 |   2"), "{out}");
    // a cell whose value is none prints `.`, apart from a failed one
    let (_, out, _) = run_e("table(fn(m, n) = if m == n { none } else { m }, 1..2, 1..2)");
    assert!(out.ends_with("1 | . 1\n2 | 2 .\n"), "{out}");
}

#[test]
fn comprehensions_blocks_and_a_byte_order_mark() {
    assert_eq!(
        run_e("[x * y for x in 1..3 for y in 1..2 if x != y]").1,
        "[2, 2, 3, 6]\n"
    );
    assert_eq!(run_e("fn f(x) { let y = x * x; y + 1 }\nf(3)").1, "10\n");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("b.game"), "\u{feff}1 + 2\n").unwrap();
    let out = gamut().arg(dir.join("b.game")).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "3\n");
}

#[test]
fn options_drop_terminal_components_and_merge_equal_sums() {
    let src =
        "game sp(n) { move a, n - 1 - a for a in 0..n-1 }\noptions(sp(5))\nlen(options(sp(5)))";
    let (code, out, err) = run_e(src);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("sp(0)"), "{out}");
    assert!(
        out.contains("sp(1) + sp(3)") && !out.contains("sp(3) + sp(1)"),
        "{out}"
    );
    assert!(out.ends_with("\n3\n"), "{out}");
    // native engines too: equal options of a sum are one option, and a map key appears once
    assert_eq!(run_e("options(nim(1) + nim(1))").1, "[nim(1)]\n");
    assert_eq!(
        run_e("moves(nim(2) + nim(2))").1,
        "{nim(1) + nim(2): 3, nim(2): 2}\n"
    );
}

#[test]
fn boards_are_drawn_with_numbers_moves_and_patterns() {
    assert_eq!(run_e("show(grid(2, 3))").1, "1 2 3\n4 5 6\n");
    assert_eq!(
        run_e("show(grid(1, 3), shift(grid(1, 3), \"right\"))")
            .1
            .lines()
            .count(),
        1
    );
    assert_eq!(run_e("show(grid(2, 2), [{1}, {4}])").1, "# .\n. @\n");
}

#[test]
fn board_game_messages_use_the_right_article() {
    let (code, _, err) = run_e("placement(grid(3, 3), [1])");
    assert_eq!(code, 1);
    assert!(err.contains("not an integer"), "{err}");
    let (code, _, err) = run_e("cycles(diamond, marked: [1])");
    assert_eq!(code, 1);
    assert!(err.contains("not an integer"), "{err}");
    let (code, out, _) = run_e("graph { }");
    assert_eq!((code, out.trim()), (0, "graph { }"));
}

#[test]
fn boards_turn_reflect_and_shift_one_line() {
    let b = "let b = grid(3, 4)\n";
    let run = |e: &str| run_e(&format!("{b}{e}")).1;
    assert_eq!(run("shift(b, \"right\", row: 2)"), "(5,6,7,8)\n");
    assert_eq!(run("shift(b, \"up\", col: 4)"), "(4,12,8)\n");
    assert_eq!(run("shift(b, \"down\", col: 1)"), "(1,5,9)\n");
    assert_eq!(run("half_turn(b)"), "(1,12)(2,11)(3,10)(4,9)(5,8)(6,7)\n");
    assert_eq!(
        run("reflect(b, \"vertical\")"),
        "(1,4)(2,3)(5,8)(6,7)(9,12)(10,11)\n"
    );
    assert_eq!(
        run("reflect(b, \"horizontal\")"),
        "(1,9)(2,10)(3,11)(4,12)\n"
    );
    // on a square board: the diagonal reflection is the transpose, and the reflections and
    // turns generate the dihedral group of order 8
    assert_eq!(
        run_e("reflect(grid(3, 3), \"diagonal\")").1,
        "(2,4)(3,7)(6,8)\n"
    );
    let (_, out, _) = run_e(
        "let s = grid(4, 4)\norder(group(Q: rotate(s), D: reflect(s, \"antidiagonal\")))\nrotate(s) * rotate(s) == half_turn(s)",
    );
    assert_eq!(out, "8\ntrue\n");
    // a row goes with right and left, a column with up and down; both in range
    for (e, msg) in [
        ("shift(b, \"up\", row: 2)", "`row:` does not go with \"up\""),
        ("shift(b, \"right\", row: 4)", "has no row 4"),
        ("reflect(b, \"diagonal\")", "needs a square board"),
        (
            "shift(b, \"right\", row: 10^30)",
            "`row:` is too large a number here",
        ),
    ] {
        let (code, _, err) = run_e(&format!("{b}{e}"));
        assert_eq!(code, 1, "{e}");
        assert!(err.contains(msg), "{e}: {err}");
    }
}

/// Generator names are unique, so a printed word reads back; a group's points depend on the
/// permutations, not on how they were built; the trivial group is refused however it is written.
#[test]
fn groups_name_generators_once_and_act_on_the_points_they_move() {
    let (code, out, err) = run_e(
        "gen g1 = (1,2,3)\ngroup G = <(1,2), g1>\ngenerators(G)\n\
         eval_word(G, word(G, (1,3)).word)\n\
         degree(group(a: (1,2) * (1,5)^2))\norbits(group(a: (1,2) * (1,5)^2), sets(2)).sizes",
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "{g2: (1,2), g1: (1,2,3)}\n(1,3)\n2\n{1: 1}\n", "")
    );
    // a power past 64 bits, by its remainder modulo the order (2^63 and 2^64 are 2 and 1 mod 3)
    let (code, out, _) = run_e("(1,2,3)^(2^63)\n(1,2,3)^(2^64)\n(1,2,3)^(-(2^64))");
    assert_eq!((code, out.as_str()), (0, "(1,3,2)\n(1,2,3)\n(1,3,2)\n"));
    for (src, msg) in [
        (
            "group(R: (1,2,3), R: (1,2))",
            "the keyword `R` is given twice",
        ),
        (
            "gen R = (1,2)\ngroup G = <R, R>",
            "the generator `R` is named twice",
        ),
        (
            "group(a: (1,2)^2)",
            "at least one generator that moves a point",
        ),
        ("group(a: ())", "at least one generator that moves a point"),
        (
            "show(grid(2, 2), (1,5))",
            "moves cell 5, which is not on this 2x2 board",
        ),
        // misère needs a last move to lose; under the original rule a completed cell wins
        (
            "misere(cycles(diamond))",
            "misère play of the Game of Cycles needs the normal rule",
        ),
    ] {
        let (code, err) = err_of(src);
        assert_eq!(code, 1, "{src}");
        assert!(err.contains(msg), "{src}: {err}");
    }
}

/// Hamiltonian cycles the plain Warnsdorff backtracking missed within the default budget:
/// S5 by a 5-cycle and a transposition (Compton and Williamson: every such graph has one) and
/// two Cayley graphs of A5; each word found is checked by walking it.
#[test]
fn hamiltonian_finds_the_cycles_of_small_symmetric_and_alternating_groups() {
    for gens in [
        "a: (1,2,3,4,5), b: (1,2)",
        "a: (1,2,3), b: (1,2,3,4,5)",
        "a: (1,2)(3,4), b: (1,3,5)",
    ] {
        let (code, out, err) = run_e(&format!(
            "let G = group({gens})\nlet h = hamiltonian(G)\n[h.length == order(G), is_hamiltonian(G, h.word)]"
        ));
        assert_eq!((code, out.as_str()), (0, "[true, true]\n"), "{gens}: {err}");
    }
}

/// `binomial` and `product` of large arguments: built from prime factors and balanced products
/// (one factor at a time was quadratic and ignored Ctrl-C), and refused before any work when the
/// result would pass 2^24 bits. Checked against Pascal's triangle and a product mod a prime.
#[test]
fn binomial_and_product_are_fast_exact_and_refused_past_the_size_limit() {
    const P: u128 = 1_000_000_007;
    let pow = |mut b: u128, mut e: u128| {
        let mut r = 1;
        while e > 0 {
            if e & 1 == 1 {
                r = r * b % P;
            }
            b = b * b % P;
            e >>= 1;
        }
        r
    };
    // C(n, k) mod P by the multiplicative formula with inverses (P is prime and above k)
    let modular =
        |n: u128, k: u128| (0..k).fold(1, |acc, i| acc * ((n - i) % P) % P * pow(i + 1, P - 2) % P);
    let mut pascal = vec![vec![1u128]];
    for n in 1..=70usize {
        let prev = &pascal[n - 1];
        let row = (0..=n)
            .map(|k| {
                if k == 0 || k == n {
                    1
                } else {
                    prev[k - 1] + prev[k]
                }
            })
            .collect();
        pascal.push(row);
    }
    let small: Vec<String> = (0..=70)
        .flat_map(|n| (0..=n + 1).map(move |k| format!("binomial({n}, {k})")))
        .collect();
    let got = common::value(&format!("[{}]", small.join(", ")));
    let want: Vec<u128> = (0..=70)
        .flat_map(|n| {
            (0..=n + 1)
                .map(|k| pascal[n].get(k).copied().unwrap_or(0))
                .collect::<Vec<_>>()
        })
        .collect();
    let got: Vec<u128> = got
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.to_string().trim_matches('"').parse().unwrap())
        .collect();
    assert_eq!(got, want);
    for (n, k) in [
        (1_000_000u128, 500_000u128),
        (10u128.pow(18), 20_000),
        (2 << 40, 3),
    ] {
        let (code, out, err) = run_e(&format!("binomial({n}, {k}) % {P}"));
        assert_eq!(
            (code, out.trim().replace('_', "")),
            (0, modular(n, k).to_string()),
            "{err}"
        );
    }
    let factorial = (1..=100_000u128).fold(1, |acc, i| acc * i % P);
    let (code, out, _) = run_e(&format!("product(1..100000) % {P}"));
    assert_eq!(
        (code, out.trim().replace('_', "")),
        (0, factorial.to_string())
    );
    for src in [
        "product(1..10^6)",
        "binomial(10^18, 10^6)",
        "binomial(2^40, 2^39)",
    ] {
        let (code, err) = err_of(src);
        assert_eq!(code, 1, "{src}");
        assert!(err.contains("more than the 16_777_216"), "{src}: {err}");
    }
    // a subtraction set of 200,000 numbers (quadratic before) is built in linear time
    assert_eq!(
        run_e("grundy(subtraction(set(1..2*10^5)), 0..3)").1,
        "[0, 1, 2, 3]\n"
    );
}

/// A lone carriage return (old Mac line ends) ends a line: the error names line 3 and draws it.
#[test]
fn lone_carriage_returns_end_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let f = dir.join("cr.game");
    std::fs::write(&f, "1\r2\r\"a\" + 1\r").unwrap();
    let out = gamut().arg("run").arg(&f).output().unwrap();
    let (stdout, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(stdout, "1\n2\n");
    assert!(
        err.contains("cr.game:3:1]") && err.contains(" 3 │ \"a\" + 1"),
        "{err}"
    );
}

/// The memory budget holds for lists of lists (the check ran only when the running count hit a
/// multiple of 65,536 exactly, which elements of 1,001 rarely do), and a message about a small
/// budget shows numbers that differ.
#[test]
fn lists_of_lists_are_held_to_the_memory_budget() {
    let (code, _, err) = common::run_e_with(
        &["--memory", "5M"],
        "len([list(1..1000) for i in 1..10000])",
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("building these lists needs about"), "{err}");
    let (_, _, err) = common::run_e_with(&["--memory", "1k"], "diameter(slide3_hard)");
    assert!(err.contains("bytes of memory; 1_024 bytes"), "{err}");
}

/// `sort`, `set`, `union` and `intersection` of long lists sort in runs and merge them,
/// polling Ctrl-C: the answers equal Rust's sort, and a cancel during the sort stops it.
#[test]
fn long_sorts_are_exact_and_stop_when_cancelled() {
    // 300,007 is prime, so i * 7919 mod it runs through distinct values in a scrambled order
    let n = 300_000i64;
    let xs: Vec<i64> = (0..n).map(|i| (i * 7919) % 300_007 % 100_000).collect();
    let list = format!(
        "let xs = [(i * 7919) % 300007 % 100000 for i in 0..{}]",
        n - 1
    );
    let mut want = xs.clone();
    want.sort();
    let got = common::values(&format!("{list}\nsort(xs)"));
    let got: Vec<i64> = got[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(got, want);
    want.dedup();
    let got = common::values(&format!(
        "{list}\nlen(set(xs))\nlen(union(xs, [-1, 200000]))\nlen(intersection(xs, 0..999))"
    ));
    assert_eq!(got, [want.len() as i64, want.len() as i64 + 2, 1000]);
    // mixed kinds keep their order too
    assert_eq!(
        common::value("sort([\"b\", 2, [1], \"a\", 1])"),
        serde_json::json!([1, 2, "a", "b", [1]])
    );

    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut it = gamut::lang::run::eval::Interp::new(Box::new(|_, _| {}));
    it.run_source("<test>", &list).unwrap();
    it.ctl = gamut::engine::control::Ctl::new(flag.clone())
        .with_progress(std::sync::Arc::new(common::CancelOnProgress(flag)));
    for q in ["sort(xs)", "set(xs)"] {
        let e = it.run_source("<test>", q).unwrap_err();
        assert_eq!(e.kind, gamut::lang::error::Kind::Cancelled, "{q}");
        it.ctl
            .cancel_flag()
            .store(false, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Messages name what is wrong: the slice's start, the number a subtraction set cannot hold, a
/// chained comparison; large counts are grouped.
#[test]
fn messages_name_what_is_wrong() {
    for (src, message, hint) in [
        (
            "[1, 2][\"a\":]",
            "slice's start and end must be integers",
            "",
        ),
        (
            "subtraction({0, 2})",
            "holds positive integers, not 0",
            "amounts a move may take",
        ),
        (
            "2 < 3 < 4",
            "not defined for a boolean",
            "comparisons do not chain",
        ),
        (
            "diameter(slide2, {1, 2}, strategy: \"ranked\")",
            "are for the diameter of a whole group",
            "explores the patterns reachable",
        ),
        (
            "board b = 3",
            "`board` needs a board, not an integer",
            "`let` binds any other value",
        ),
        (
            "orbits(slide6_easy, sets(18))",
            "9_075_135_300 patterns; the limit is 20_000_000",
            "",
        ),
    ] {
        let (code, _, err) = run_e(src);
        assert_eq!(code, 1, "{src}: {err}");
        assert!(err.contains(message) && err.contains(hint), "{src}: {err}");
    }
}
