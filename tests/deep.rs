//! Values nested a million deep are printed, compared and dropped without overflowing the
//! stack; source nested too deep is refused with a clear error.
mod common;
use common::gamut;

/// A script whose `v` is `depth` lists (or sets) deep around 0: each call of `w` wraps its
/// argument in 150 brackets, the most one line may nest.
fn deep_script(open: char, close: char, calls: usize, rest: &str) -> String {
    let w = format!(
        "fn w(x) = {}x{}",
        open.to_string().repeat(150),
        close.to_string().repeat(150)
    );
    format!(
        "{w}\nfn w7(x) = w(w(w(w(w(w(w(x)))))))\nfn deep(n) = if n == 0 {{ 0 }} else {{ w7(deep(n - 1)) }}\nlet v = deep({calls})\n{rest}"
    )
}

fn run(args: &[&str], src: &str) -> (i32, String, String) {
    let file = tempfile::Builder::new().suffix(".game").tempfile().unwrap();
    std::fs::write(file.path(), src).unwrap();
    let out = gamut().args(args).arg(file.path()).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const DEPTH: usize = 1000 * 7 * 150;

#[test]
fn a_list_a_million_deep_prints_in_text_and_json() {
    let src = deep_script('[', ']', 1000, "v");
    let (code, out, err) = run(&[], &src);
    assert_eq!(code, 0, "{err}");
    let want = format!("{}0{}\n", "[".repeat(DEPTH), "]".repeat(DEPTH));
    assert!(out == want, "text output of {} bytes", out.len());
    let (code, out, err) = run(&["--json"], &src);
    assert_eq!(code, 0, "{err}");
    let want = format!(
        "{{\"line\":5,\"value\":{}0{}}}\n",
        "[".repeat(DEPTH),
        "]".repeat(DEPTH)
    );
    assert!(out == want, "JSON output of {} bytes", out.len());
}

#[test]
fn deep_values_compare_sort_and_drop() {
    // equality, order, membership, a set of them, str, rebinding (drops the old value) and
    // the end of the program (drops everything)
    let rest = "let u = deep(999)\n[v == v, v == u, sort([v, u]) == [u, v], v in [u, v], len({u, v, v})]\nlen(str(v))\nlet v = 0\nv";
    let (code, out, err) = run(&[], &deep_script('[', ']', 1000, rest));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "[true, false, true, true, 2]\n2_100_001\n0\n");
}

#[test]
fn a_set_a_million_deep_prints() {
    let (code, out, err) = run(&[], &deep_script('{', '}', 1000, "len(str(v))"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "2_100_001");
}

#[test]
fn deep_source_is_refused_clearly() {
    for src in [
        format!("{}1{}", "[".repeat(5000), "]".repeat(5000)),
        format!("{}1{}", "(".repeat(5000), ")".repeat(5000)),
        format!("1{}", " + 1".repeat(30_000)),
        format!("{}1", "-".repeat(30_000)),
        format!("{}1", "not ".repeat(30_000)),
    ] {
        let (code, _, err) = run(&[], &src);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("help:"), "{err}");
    }
    // recursion in the evaluator ends in an error, not an overflow
    let (code, _, err) = common::run_e("fn f(n) = [f(n + 1)]\nf(1)");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("recursion deeper than"), "{err}");
}
