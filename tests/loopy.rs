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
