//! Positions print as typed, and a misère position is never silently summed.
mod common;
use common::{run_e, value};
use serde_json::json;

#[test]
fn moore_prints_the_k_typed() {
    assert_eq!(value("moore(2, [3])"), "moore(2, [3])");
    assert_eq!(value("moore(5, [3, 4])"), "moore(5, [3, 4])");
    assert_eq!(value("str(moore(7, []))"), "moore(7, [])");
    // k above the number of heaps plays as "any number of heaps": Moore's theorem with every
    // heap counted mod k + 1 > number of heaps means all heaps must be empty to be lost
    assert_eq!(value("outcome(moore(5, [1, 1]))"), "N");
    assert_eq!(value("outcome(moore(1, [1, 1]))"), "P");
    assert_eq!(
        value("options(moore(9, [1, 1]))"),
        json!(["moore(9, [])", "moore(9, [1])"])
    );
}

#[test]
fn a_misere_position_in_a_sum_is_refused_with_the_sum_to_write() {
    for (src, hint) in [
        ("misere(kayles(3)) + nim(1)", "misere(kayles(3) + nim(1))"),
        ("nim(2) + misere(nim(1))", "misere(nim(2) + nim(1))"),
        ("misere(nim(1)) + misere(nim(1))", "misere(nim(1) + nim(1))"),
        // misère play is for impartial positions: no sum to write
        (
            "clobber(\"xo\") + misere(nim(1))",
            "misère play is for impartial positions only",
        ),
        (
            "misere(nim(1)) + clobber(\"xo\")",
            "misère play is for impartial positions only",
        ),
    ] {
        let (code, _, err) = run_e(src);
        assert_eq!(code, 1, "{src}: {err}");
        assert!(
            err.contains("a misère position cannot be part of a sum"),
            "{src}: {err}"
        );
        assert!(err.contains(hint), "{src}: {err}");
    }
    // the hint's sum is a game: misère Nim with heaps 1, 1 is won by the player to move
    assert_eq!(value("outcome(misere(nim(1) + nim(1)))"), "N");
}
