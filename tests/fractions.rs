//! Contract v2 (the language issue): `/` is exact division, `//` floor division with `%` its
//! remainder; a dyadic fraction is a game number; slices and the string builtins, so that the
//! contract's rulesets over strings and lists work as written.
mod common;
use common::{Rng, run_e, value, values};
use serde_json::json;

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

/// p/q in lowest terms as gamut prints it, computed with machine integers.
fn text(p: i128, q: i128) -> String {
    let g = gcd(p, q);
    let (p, q) = if q < 0 {
        (-p / g, -q / g)
    } else {
        (p / g, q / g)
    };
    if q == 1 {
        p.to_string()
    } else {
        format!("{p}/{q}")
    }
}

#[test]
fn arithmetic_of_fractions_agrees_with_machine_integers() {
    let mut rng = Rng(7);
    let mut src = String::new();
    let mut want = vec![];
    for _ in 0..300 {
        let mut r = || rng.below(41) as i128 - 20;
        let (a, b, c, d) = (r(), r(), r(), r());
        let (b, d) = (if b == 0 { 7 } else { b }, if d == 0 { -3 } else { d });
        src += &format!(
            "str({a}/{b} + {c}/{d}); str({a}/{b} - {c}/{d}); str(({a}/{b}) * ({c}/{d}))\n"
        );
        want.push(text(a * d + c * b, b * d));
        want.push(text(a * d - c * b, b * d));
        want.push(text(a * c, b * d));
        if c != 0 {
            src += &format!("str(({a}/{b}) / ({c}/{d}))\n");
            want.push(text(a * d, b * c));
        }
        // floor division and its remainder: x == y * (x // y) + x % y, 0 <= |x % y| < |y|
        src += &format!("{a} // {b}; {a} % {b}; ({a}/{b}) < ({c}/{d})\n");
        let mut q = a / b;
        if a % b != 0 && (a < 0) != (b < 0) {
            q -= 1;
        }
        want.push(q.to_string());
        want.push((a - b * q).to_string());
        let less = if b * d > 0 {
            a * d < c * b
        } else {
            a * d > c * b
        };
        want.push(less.to_string());
    }
    let got: Vec<String> = values(&src)
        .into_iter()
        .map(|v| match v {
            serde_json::Value::String(s) => s,
            v => v.to_string(),
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn fractions_print_reduce_and_compare_as_numbers() {
    let (code, out, _) = run_e("[7 / 2, 6 / 3, 6 / 4, 1/2 + 1/2, 2^-3, (2/3)^2, -(1/3)]");
    assert_eq!(code, 0);
    assert_eq!(out, "[7/2, 2, 3/2, 1, 1/8, 4/9, -1/3]\n");
    assert_eq!(value("3 / 4"), json!("3/4"));
    assert_eq!(
        value("sort([1, 1/2, -5/4, 1/3])"),
        json!(["-5/4", "1/3", "1/2", 1])
    );
    assert_eq!(value("{1/2, 2/4, 3/6}"), json!(["1/2"]));
    assert_eq!(
        value("[floor(-7/2), ceil(7/2), sum([1/2, 1/3, 1/6])]"),
        json!([-4, 4, 1])
    );
    let (code, _, err) = run_e("[1, 2, 3][1/2]");
    assert_eq!(code, 1);
    assert!(
        err.contains("an index must be an integer, not a fraction"),
        "{err}"
    );
    let (code, _, err) = run_e("1 / (2 - 2)");
    assert_eq!(code, 1);
    assert!(err.contains("division by zero"), "{err}");
}

/// A dyadic fraction is a game number where a game is needed; another fraction is refused.
#[test]
fn dyadic_fractions_are_game_numbers() {
    let cases = [
        ("cool({3|-3}, 1/2)", "±5/2"),
        ("1/2 + ^", "1/2^"),
        ("{1/2 | 3/4}", "5/8"),
        ("-3/8 + *", "-3/8*"),
        ("2^70/2^68 + ^", "4^"),
        // beside an impartial position, whose value is a nimber
        ("value(1/2 + kayles(3))", "1/2+*3"),
        ("value(kayles(3) - 1/2)", "-1/2+*3"),
        ("value(1 + kayles(3))", "1+*3"),
        ("kayles(4) + 1", "1*"),
        ("outcome(1/2)", "L"),
        ("outcome(-3/4)", "R"),
    ];
    for (src, want) in cases {
        assert_eq!(value(src), json!(want), "{src}");
    }
    assert_eq!(value("value(hackenbush(\"BRR\")) == 1/4"), json!(true));
    assert_eq!(
        value("[1/2 > kayles(3), 1/2 < kayles(3), kayles(0) == 0]"),
        json!([true, false, true])
    );
    assert_eq!(
        value("[winning(1/2, \"L\"), winning(1, \"L\"), degree(1/2)]"),
        json!([["0"], ["0"], "0"])
    );
    for src in ["1/3 + ^", "{1/3 | 1}", "cool({3|-3}, 1/3)"] {
        let (code, _, err) = run_e(src);
        assert_eq!(code, 1, "{src}");
        assert!(err.contains("1/3 is not a dyadic number"), "{src}: {err}");
    }
}

#[test]
fn slices_are_half_open_as_in_python() {
    let got = value(
        "let s = \"abcdef\"
         [s[1:3], s[:2], s[4:], s[-2:], s[:-1], s[3:1], s[:], s[-100:100], \"héllo\"[1:3]]",
    );
    assert_eq!(
        got,
        json!([
            "bc", "ab", "ef", "ef", "abcde", "", "abcdef", "abcdef", "él"
        ])
    );
    assert_eq!(
        value("let xs = [1, 2, 3, 4]; [xs[1:3], xs[:0], xs[2:], xs[:-1], xs[5:]]"),
        json!([[2, 3], [], [3, 4], [1, 2, 3], []])
    );
    let (code, _, err) = run_e("(1..4)[1:2]");
    assert_eq!(code, 1);
    assert!(err.contains("cannot be sliced"), "{err}");
}

#[test]
fn string_builtins() {
    assert_eq!(
        value(
            "[count(\"T.T.\", \"T.\"), count([1, 2, 1], 1), find(\"héllo\", \"l\"), find([1, 2], 3), index(\"TF.\", \".\")]"
        ),
        json!([2, 2, 2, -1, 2])
    );
    assert_eq!(
        value("[replace(\"TT.F\", \"T.\", \".T\"), replace([1, 2, 1], 1, 0)]"),
        json!(["T.TF", [0, 2, 0]])
    );
}

/// The contract's Toads-and-Frogs over a string, against the built-in ruleset.
#[test]
fn toads_and_frogs_by_rules_over_strings_agree_with_the_builtin() {
    let rules = r#"
game tf(s) {
    left move  s[:i] + ".T" + s[i+2:]   for i in 0..len(s)-2 if s[i:i+2] == "T."
    left move  s[:i] + ".FT" + s[i+3:]  for i in 0..len(s)-3 if s[i:i+3] == "TF."
    right move s[:i] + "F." + s[i+2:]   for i in 0..len(s)-2 if s[i:i+2] == ".F"
    right move s[:i] + "FT." + s[i+3:]  for i in 0..len(s)-3 if s[i:i+3] == ".TF"
}
"#;
    let mut rng = Rng(11);
    let mut src = rules.to_string();
    for _ in 0..60 {
        let n = 3 + rng.below(6);
        let s: String = (0..n).map(|_| ['T', 'F', '.'][rng.below(3)]).collect();
        src += &format!("value(tf(\"{s}\")) == value(toads_frogs(\"{s}\"))\n");
    }
    src += "value(tf(\"TTT..FF\")) == value(toads_frogs(\"TTT..FF\"))\n";
    for (i, v) in values(&src).into_iter().enumerate() {
        assert_eq!(v, json!(true), "position {i}");
    }
}

/// The contract's Nim over a list of heaps: its nimber is the nim-sum of the heaps.
#[test]
fn nim_over_a_list_of_heaps_is_the_nim_sum() {
    let mut src = "game nimlist(h) { move h[:i] + [h[i] - k] + h[i+1:] for i in 0..len(h)-1, k in 1..h[i] }\n".to_string();
    let mut want = vec![];
    let mut rng = Rng(3);
    for _ in 0..20 {
        let h: Vec<usize> = (0..1 + rng.below(3)).map(|_| rng.below(7)).collect();
        src += &format!("grundy(nimlist({h:?}))\n");
        want.push(json!(h.iter().fold(0, |a, b| a ^ b)));
    }
    src += "grundy(nimlist([3, 5, 6]))\n";
    want.push(json!(0));
    assert_eq!(values(&src), want);
}
