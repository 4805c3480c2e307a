//! Games in CGSuite's notation nested far too deep, or of absurd size, are refused clearly:
//! never a stack overflow or an allocation past the memory budget.
mod common;
use common::run_e_with;

#[test]
fn deep_nesting_in_game_strings_is_refused() {
    for src in [
        r#"game("-" * 4000000 + "1")"#,
        r#"game("{" * 1000000 + "0|" + "}" * 1000000)"#,
        r#"game("(" * 5000000 + "1" + ")" * 5000000)"#,
        r#"game("±" * 3000000 + "1")"#,
        r#"game("Tiny(" * 100000 + "1" + ")" * 100000)"#,
    ] {
        let (code, _, err) = run_e_with(&[], src);
        assert_eq!(code, 1, "{src}: {err}");
        assert!(err.contains("nests more than 200 deep"), "{src}: {err}");
    }
    // nesting within the bound reads as before
    let (code, out, err) = run_e_with(&[], r#"game("-" * 150 + "1")"#);
    assert_eq!((code, out.trim()), (0, "1"), "{err}");
}

#[test]
fn many_ups_keep_to_the_memory_budget() {
    let (code, _, err) = run_e_with(&["--memory", "64M"], r#"game("^3000000")"#);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("canonical-form store needs about"), "{err}");
    let (code, out, _) = run_e_with(&["--memory", "64M"], r#"game("^300")"#);
    assert_eq!((code, out.trim()), (0, "^300"));
}
