//! `loopy game`: rulesets whose plays may go on for ever, valued by generalized Sprague–Grundy
//! values (Smith). Checked against a retrograde outcome solver written here.
mod common;
use common::{Rng, run_e, values};
use serde_json::json;

/// Outcomes of the subtraction game "take t in S, or add a in A while staying at most cap",
/// heaps 0..=cap, by retrograde analysis: P when every move goes to N, N when some move goes
/// to P, D otherwise.
fn retrograde(take: &[i64], add: &[i64], cap: i64) -> Vec<&'static str> {
    let moves = |n: i64| -> Vec<i64> {
        let mut m: Vec<i64> = take.iter().filter(|&&t| t <= n).map(|t| n - t).collect();
        m.extend(add.iter().filter(|&&a| n + a <= cap).map(|a| n + a));
        m
    };
    let mut out: Vec<Option<&str>> = vec![None; cap as usize + 1];
    loop {
        let mut changed = false;
        for n in 0..=cap {
            if out[n as usize].is_some() {
                continue;
            }
            let o: Vec<Option<&str>> = moves(n).iter().map(|&m| out[m as usize]).collect();
            let r = if o.contains(&Some("P")) {
                "N"
            } else if o.iter().all(|x| *x == Some("N")) {
                "P"
            } else {
                continue;
            };
            out[n as usize] = Some(r);
            changed = true;
        }
        if !changed {
            return out.into_iter().map(|o| o.unwrap_or("D")).collect();
        }
    }
}

#[test]
fn loopy_subtraction_games_agree_with_retrograde_analysis() {
    let mut rng = Rng(99);
    for _ in 0..40 {
        let take: Vec<i64> = (1..=4).filter(|_| rng.below(2) == 0).collect();
        let take = if take.is_empty() { vec![1] } else { take };
        let add: Vec<i64> = (1..=3).filter(|_| rng.below(3) == 0).collect();
        let cap = 5 + rng.below(20) as i64;
        let src = format!(
            "loopy game g(n) {{\n move n - t for t in {take:?} if t <= n\n move n + a for a in {add:?} if n + a <= {cap}\n}}\n[outcome(g(n)) for n in 0..{cap}]\ngrundy(g, 0..{cap})"
        );
        let got = values(&src);
        let want = retrograde(&take, &add, cap);
        assert_eq!(got[0], json!(want), "{src}");
        // a finite value is P exactly at 0, an infinite one a draw unless 0 is among its options
        for (n, v) in got[1].as_array().unwrap().iter().enumerate() {
            let o = match v {
                serde_json::Value::Number(x) if x.as_u64() == Some(0) => "P",
                serde_json::Value::Number(_) => "N",
                serde_json::Value::String(s) if s.starts_with("∞(0") => "N",
                _ => "D",
            };
            assert_eq!(o, want[n], "{src}: heap {n} is {v}");
        }
    }
}

#[test]
fn sums_follow_smiths_rule_and_cycles_without_loopy_are_errors() {
    let got = values(
        "loopy game back(n) { move 1 - n }
         loopy game esc(n) { move 1 - n if n < 2
                             move 2 if n == 0 }
         [grundy(back(0)), grundy(esc(0)), grundy(esc(2)), grundy(esc(0) + nim(3)), outcome(back(0) + nim(1))]",
    );
    // esc(1)'s one move is back to esc(0), which wins by moving to the end esc(2): so esc(1) is
    // P (0) and esc(0) is 1, although esc(0) and esc(1) lie on a cycle; back(0) is a draw
    assert_eq!(got[0], json!(["∞", 1, 0, 2, "D"]));
    let (code, _, err) = run_e("game bad(n) { move 1 - n }\ngrundy(bad(0))");
    assert_eq!(code, 1);
    assert!(
        err.contains("the game is loopy: bad(0) can be reached from itself"),
        "{err}"
    );
    assert!(err.contains("declare the ruleset"), "{err}");
    let (code, _, err) = run_e("loopy game back(n) { move 1 - n }\noutcome(misere(back(0)))");
    assert_eq!(code, 1);
    assert!(err.contains("misère play of loopy games"), "{err}");
}

#[test]
fn moves_and_winning_of_loopy_positions() {
    let got = values(
        "loopy game esc(n) { move 1 - n if n < 2
                             move 2 if n == 0 }
         loopy game d(n) { move 1 - n if n < 2
                           move n + 1 if n >= 1 and n < 3 }
         [moves(esc(0)), winning(esc(0)), moves(esc(1)), winning(esc(1))]
         [moves(d(0)), winning(d(0)), moves(d(1)), winning(d(1)), winning(d(2))]
         [moves(d(1) + nim(1)), winning(d(1) + nim(1)), winning(d(0) + nim(1))]",
    );
    // esc(1) (P) and the end esc(2) are both wins from esc(0); esc(1)'s one move loses
    assert_eq!(
        got[0],
        json!([{"esc(1)": 0, "esc(2)": 0}, ["esc(1)", "esc(2)"], {"esc(0)": 1}, []])
    );
    // d(0) <-> d(1) is a cycle, d(1) may also move to d(2), which moves to the end d(3):
    // d(2) is 1, d(1) ∞(1) and d(0) ∞, both draws. No move wins from d(0) or d(1): the moves
    // that keep the draw are listed
    assert_eq!(
        got[1],
        json!([
            {"d(1)": "∞(1)"},
            ["d(1)"],
            {"d(0)": "∞", "d(2)": 1},
            ["d(0)"],
            ["d(3)"]
        ])
    );
    // d(1) + *1 is ∞(0): the move to d(2) + *1 (0) wins; from d(0) + *1 (∞) no move wins
    // (d(1) + *1 is N) and the move to d(0) keeps the draw
    assert_eq!(
        got[2],
        json!([
            {"d(0) + nim(1)": "∞", "d(2) + nim(1)": 0, "d(1)": "∞(1)"},
            ["d(2) + nim(1)"],
            ["d(0)"]
        ])
    );
    let (code, _, err) = run_e("loopy game back(n) { move 1 - n }\nwinning(misere(back(0)))");
    assert_eq!(code, 1);
    assert!(err.contains("misère play of loopy games"), "{err}");
}

/// A ruleset keeps its labelled positions between queries only while the names its rules read
/// keep their values.
#[test]
fn kept_values_follow_the_names_the_rules_read() {
    let rules = "loopy game g(n) { move n - t for t in [1, k] if t <= n
                                  move n + 2 if n % 3 == 1 and n + 2 <= 12 }";
    let got = values(&format!(
        "let k = 2\n{rules}\ngrundy(g, 0..12)\nlet k = 3\ngrundy(g, 0..12)"
    ));
    let fresh = values(&format!("let k = 3\n{rules}\ngrundy(g, 0..12)"));
    assert_ne!(got[0], got[1]);
    assert_eq!(got[1], fresh[0]);
}

/// The labelled positions are charged to the memory budget: a graph past it is refused with
/// the budget named, not grown.
#[test]
fn loopy_positions_are_charged_to_the_budget() {
    let (code, _, err) = common::run_e_with(
        &["--memory", "20M"],
        "loopy game s(n) { move n - 1 if n > 0\n move n + 1 if n < 1000000 }\ngrundy(s(0))",
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("memory"), "{err}");
}
