//! `period` of rulesets defined by `game` rules: values from the generic search, the period
//! (and saltus) they show, never claimed proven.
mod common;
use common::{run_e, value};
use serde_json::json;

/// Lasker's Nim by brute force: take any number, or split a heap into two.
fn lasker(n: usize) -> Vec<i64> {
    let mut g = vec![0i64; n + 1];
    for h in 1..=n {
        let mut seen = vec![false; 2 * h + 2];
        for k in 1..=h {
            seen[g[h - k] as usize] = true;
        }
        for a in 1..h {
            seen[(g[a] ^ g[h - a]) as usize] = true;
        }
        g[h] = seen.iter().position(|s| !s).unwrap() as i64;
    }
    g
}

#[test]
fn laskers_nim_is_arithmetic_periodic() {
    let r = value("period(lasker)");
    assert_eq!(
        r,
        json!({"preperiod": 1, "period": 4, "saltus": 4, "proven": false, "checked_to": 256})
    );
    // what the record says, checked on the brute-force values
    let g = lasker(256);
    for n in 1..=252 {
        assert_eq!(g[n + 4], g[n] + 4, "heap {n}");
    }
    assert_ne!(g[4], g[0] + 4);
}

/// A subtraction game written as rules is handed to the heap engine, and its period is proven
/// by the periodicity theorem; with a condition that hides the game (`n >= 0` is no bound the
/// recognition reads), the values of the rules show the same period, unproven.
#[test]
fn a_subtraction_game_by_rules_has_the_period_of_the_heap_engine() {
    for set in [
        "{1, 2, 3}",
        "{1, 3}",
        "{2, 3, 7}",
        "{1, 4}",
        "{2, 5, 6}",
        "{3, 4, 9}",
    ] {
        for (cond, proven) in [("k <= n", true), ("k <= n and n >= 0", false)] {
            let src = format!(
                "let s = {set}\ngame f(n) {{ move n - k for k in s if {cond} }}\nlet r = period(f)\nlet h = period(subtraction(s))\n[r.preperiod, r.period, r.saltus, r.proven, h.preperiod, h.period]"
            );
            let v = value(&src);
            assert_eq!(v[0], v[4], "{set}: {v}");
            assert_eq!(v[1], v[5], "{set}: {v}");
            assert_eq!(v[2], 0, "{set}: {v}");
            assert_eq!(v[3], proven, "{set} if {cond}: {v}");
        }
    }
}

#[test]
fn no_period_in_the_values_is_none() {
    // Grundy's game is not known to be periodic; its first 100 values show no period
    let r =
        value("game twos(n) { move a, n - a for a in 1..n-1 if a < n - a }\nperiod(twos, to: 100)");
    assert_eq!(
        r,
        json!({"preperiod": null, "period": null, "saltus": null, "proven": false, "checked_to": 100})
    );
}

#[test]
fn period_refuses_rulesets_of_several_heaps() {
    let (code, _, err) = run_e("period(wythoff)");
    assert_eq!(code, 1);
    assert!(err.contains("period needs a ruleset of one heap"), "{err}");
}
