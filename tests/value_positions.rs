//! `game` rulesets whose arguments are any value: lists, strings, sets and large integers,
//! checked against the built-in engines and against plain recursion written here.
mod common;
use common::{Rng, run_e, value, values};

const NIMLIST: &str = "game nimlist(h) { move [if j == i { h[j] - k } else { h[j] } for j in 0..len(h)-1] for i in 0..len(h)-1, k in 1..h[i] }\n";

/// Kayles on a row drawn as a list of 1 (a pin) and 0 (a gap): a move knocks down one pin or two
/// adjacent ones.
const KAYLES_LIST: &str = "game kl(row) {
    move [if j == i { 0 } else { row[j] } for j in 0..len(row)-1] for i in 0..len(row)-1 if row[i] == 1
    move [if j == i or j == i + 1 { 0 } else { row[j] } for j in 0..len(row)-1] for i in 0..len(row)-2 if row[i] == 1 and row[i+1] == 1
}\n";

#[test]
fn nim_on_a_list_of_heaps_is_the_nim_sum() {
    let mut rng = Rng(7);
    for _ in 0..12 {
        let heaps: Vec<usize> = (0..1 + rng.below(3)).map(|_| rng.below(6)).collect();
        let list = format!("{heaps:?}");
        let got = value(&format!("{NIMLIST}grundy(nimlist({list}))"));
        let want = heaps.iter().fold(0, |a, h| a ^ h);
        assert_eq!(got, want, "nimlist({list})");
    }
    assert_eq!(value(&format!("{NIMLIST}grundy(nimlist([3, 5, 6]))")), 0);
}

#[test]
fn kayles_on_a_list_agrees_with_the_built_in_kayles() {
    for n in 0..9 {
        let row = format!("{:?}", vec![1; n]);
        let got = value(&format!("{KAYLES_LIST}grundy(kl({row}))"));
        let want = value(&format!("grundy(kayles({n}))"));
        assert_eq!(got, want, "a row of {n} pins");
    }
    // a gap splits the row: the value is the nim-sum of the two sides
    let got = value(&format!("{KAYLES_LIST}grundy(kl([1, 1, 1, 0, 1, 1]))"));
    assert_eq!(got, value("grundy(kayles(3) + kayles(2))"));
}

/// The game on strings: a move deletes one character, or two equal adjacent ones. The nimber
/// by plain recursion over Rust strings.
fn brute(s: &str, memo: &mut std::collections::HashMap<String, u32>) -> u32 {
    if let Some(&g) = memo.get(s) {
        return g;
    }
    let b = s.as_bytes();
    let mut opts = std::collections::HashSet::new();
    for i in 0..b.len() {
        opts.insert(brute(&format!("{}{}", &s[..i], &s[i + 1..]), memo));
        if i + 1 < b.len() && b[i] == b[i + 1] {
            opts.insert(brute(&format!("{}{}", &s[..i], &s[i + 2..]), memo));
        }
    }
    let g = (0..).find(|g| !opts.contains(g)).unwrap();
    memo.insert(s.to_string(), g);
    g
}

#[test]
fn a_game_on_strings_agrees_with_plain_recursion() {
    let rules = r#"game del(s) {
    move join([s[j] for j in 0..len(s)-1 if j != i]) for i in 0..len(s)-1
    move join([s[j] for j in 0..len(s)-1 if j != i and j != i + 1]) for i in 0..len(s)-2 if s[i] == s[i+1]
}
fn join(xs) = if len(xs) == 0 { "" } else { xs[0] + join([xs[k] for k in 1..len(xs)-1]) }
"#;
    let mut memo = Default::default();
    let mut rng = Rng(11);
    for _ in 0..8 {
        let s: String = (0..rng.below(7))
            .map(|_| ["a", "b"][rng.below(2)])
            .collect();
        let got = value(&format!("{rules}grundy(del(\"{s}\"))"));
        assert_eq!(got, brute(&s, &mut memo), "del(\"{s}\")");
    }
}

#[test]
fn positions_of_values_are_equal_by_value_and_print_as_written() {
    let v = values(&format!(
        "{NIMLIST}nimlist([1, 2]) == nimlist([1, 2])\nnimlist([1, 2]) == nimlist([2, 1])\nnimlist([1, 2])\nmoves(nimlist([1, 2]))\noutcome(misere(nimlist([1, 1])))\ngrundy(nimlist([2]) + nim(3))"
    ));
    assert_eq!(v[0], true);
    assert_eq!(v[1], false);
    assert_eq!(v[2], "nimlist([1, 2])");
    assert_eq!(
        v[3],
        serde_json::json!({"nimlist([0, 2])": 2, "nimlist([1, 1])": 0, "nimlist([1, 0])": 1})
    );
    // misère Nim on two heaps of 1: the player to move takes one and leaves the last to the other
    assert_eq!(v[4], "N");
    assert_eq!(v[5], 1);
    let s = value("game g(s) { move s + \"x\" for k in [1] if len(s) < 3 }\ng(\"a\\\"b\")");
    assert_eq!(s, "g(\"a\\\"b\")");
    // a partizan ruleset over strings: Left appends L up to length 3, Right R up to length 2
    let cut = "game cut(s) {\n left move s + \"L\" for k in [1] if len(s) < 3\n right move s + \"R\" for k in [1] if len(s) < 2\n}\n";
    assert_eq!(value(&format!("{cut}value(cut(\"\"))")), "1");
    assert_eq!(value(&format!("{cut}value(cut(\"L\"))")), "1*");
}

#[test]
fn arguments_that_cannot_name_a_position_are_refused() {
    let (code, _, err) = run_e("game g(x) { move x for k in [1] if false }\ng(fn(a) = a)");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not a function"), "{err}");
    let (code, _, err) = run_e("game g(x) { move x - 5 for k in [1] if x > 0 }\ngrundy(g(3))");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("negative argument (-2)"), "{err}");
    // a value past 64 bits is a value like any other: three moves from 2^70 to 2^70 - 3
    assert_eq!(
        value("game g(x) { move x - 1 for k in [1] if x > 2^70 - 3 }\ngrundy(g(2^70))"),
        1
    );
}

/// A fraction is a value like any other: `x - 1` from 7/2 down to 1/2 is three moves.
#[test]
fn fractions_name_positions() {
    assert_eq!(
        value(
            "game g(x) { move x - 1 if x > 1 }\n[grundy(g(7/2)), grundy(g(5/2)), grundy(g(1/2))]"
        ),
        serde_json::json!([1, 0, 0])
    );
    let (code, _, err) = run_e("game g(x) { move x }\ngrundy(g(kayles(3)))");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("not a position") && err.contains("arguments are data"),
        "{err}"
    );
}

/// Arguments that grow without end are refused within the memory budget, not kept until the
/// machine runs out: every string of the line of play is kept.
#[test]
fn growing_arguments_are_refused_within_the_budget() {
    let (code, _, err) = common::run_e_with(
        &["--memory", "256M"],
        "game s(x) { move x + \"a\" if len(x) < 200000 }\ngrundy(s(\"\"))",
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("keeping the positions' arguments"), "{err}");
}

/// Every finite game is accepted: a line of play of 300,000 moves is searched to its end.
#[test]
fn long_finite_plays_are_searched_to_the_end() {
    assert_eq!(
        value("game d2(a, b) { move (a - 1, b) if a > 0 }\ngrundy(d2(300000, 1))"),
        0
    );
}
