//! The command line: exit codes, JSON shapes, rendered errors.

mod common;
use common::{gamut, run_e};

fn json_lines(src: &str) -> Vec<serde_json::Value> {
    let out = gamut().arg("--json").arg("-e").arg(src).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn big_integers_are_exact() {
    // text output groups digits with `_`; JSON gives the plain digits
    assert_eq!(
        run_e("2^100").1,
        "1_267_650_600_228_229_401_496_703_205_376\n"
    );
}

#[test]
fn json_shapes_follow_section_7() {
    let v = json_lines(
        "2^100\n7\n\"s\"\n[1, {2, 1}]\n(3,1,2)(5,4)\n()\ndiameter(slide4_easy)\norbits(slide4_easy, sets(2))\ntable(fn(a, b) = a * b, 1..2, 1..3)\noutcome(nim(1) + nim(1))\ntrue",
    );
    assert_eq!(
        v[0],
        serde_json::json!({"line": 1, "value": "1267650600228229401496703205376"})
    );
    assert_eq!(v[1]["value"], 7);
    assert_eq!(v[2]["value"], "s");
    assert_eq!(v[3]["value"], serde_json::json!([1, [1, 2]]));
    assert_eq!(v[4]["value"], "(1,2,3)(4,5)");
    assert_eq!(v[5]["value"], "()");
    assert_eq!(
        v[6]["value"],
        serde_json::json!({"diameter": 6, "size": 64, "distribution": [1, 6, 15, 20, 15, 6, 1]})
    );
    assert_eq!(
        v[7]["value"],
        serde_json::json!({"orbits": 5, "sizes": {"8": 1, "16": 1, "32": 3}})
    );
    assert_eq!(
        v[8]["value"],
        serde_json::json!({"rows": [1, 2], "cols": [1, 2, 3], "values": [[1, 2, 3], [2, 4, 6]]})
    );
    assert_eq!(v[9]["value"], "P");
    assert_eq!(v[10]["line"], 11);
    // rulesets print as they are written
    assert_eq!(
        json_lines("subtraction({7, 2, 3})(10)")[0]["value"],
        "subtraction({2, 3, 7})(10)"
    );
    // nothing but JSON lines on stdout, even with print (several values: an array of them)
    let p = json_lines("print(\"a\", 1)\nprint([1])");
    assert_eq!(p[0]["value"], serde_json::json!(["a", 1]));
    assert_eq!(p[1]["value"], serde_json::json!([1]));
}

#[test]
fn parse_errors_exit_2_with_the_span_and_a_hint() {
    let (code, out, err) = run_e("let x = (1 + 2");
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("<-e>:1"), "{err}");
    assert!(err.contains("help:"), "{err}");
    let (code, _, err) = run_e("\"unterminated");
    assert_eq!(code, 2);
    assert!(err.contains("not closed"), "{err}");
    let (code, _, err) = run_e("R = 3");
    assert_eq!(code, 2);
    assert!(err.contains("let name = value"), "{err}");
}

#[test]
fn runtime_errors_exit_1_and_underline_the_culprit() {
    let (code, _, err) = run_e("let order_of_things = 3\norder(slide4_esy)");
    assert_eq!(code, 1);
    assert!(err.contains("unknown name `slide4_esy`"), "{err}");
    assert!(err.contains("did you mean `slide4_easy`?"), "{err}");
    assert!(err.contains("<-e>:2:7"), "{err}");
    let (code, _, err) = run_e("1 / 0");
    assert_eq!(code, 1);
    assert!(err.contains("division by zero"), "{err}");
    let (code, _, err) = run_e("fn f(n) = f(n + 1)\nf(1)");
    assert_eq!(code, 1);
    assert!(err.contains("recursion deeper than"), "{err}");
    let (code, _, err) = run_e("(1,2,2)");
    assert_eq!(code, 1);
    assert!(err.contains("point 2 appears twice"), "{err}");
    let (code, _, err) = run_e("order(1, 2)");
    assert_eq!(code, 1);
    assert!(err.contains("takes 1 argument, got 2"), "{err}");
    let (code, _, err) = run_e("grundy(kayles, 5..2)");
    assert_eq!(code, 1);
    assert!(err.contains("empty"), "{err}");
}

#[test]
fn output_before_an_error_is_kept() {
    let (code, out, _) = run_e("1\n2\nnope");
    assert_eq!(code, 1);
    assert_eq!(out, "1\n2\n");
}

#[test]
fn scripts_run_by_path_and_with_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let f = dir.join("t.game");
    std::fs::write(
        &f,
        "let x = [1,\n  2]   # continues inside brackets\nlen(x); x[0]\n",
    )
    .unwrap();
    for args in [vec!["run", f.to_str().unwrap()], vec![f.to_str().unwrap()]] {
        let out = gamut().args(&args).output().unwrap();
        assert!(out.status.success());
        assert_eq!(String::from_utf8(out.stdout).unwrap(), "2\n1\n");
    }
    let out = gamut().arg(dir.join("missing.game")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(
        gamut().arg("--bogus").output().unwrap().status.code(),
        Some(2)
    );
    assert_eq!(
        gamut()
            .args(["--threads", "0", "-e", "1"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
    // a bare word where a script was expected points at --help
    let out = gamut().arg("help").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`gamut --help` lists the commands"));
}

#[test]
fn huge_queries_refuse_clearly() {
    let (code, _, err) = run_e(
        "group S = <(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20), (1,2)>\ndiameter(S)",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("more than a 64-bit rank can index") || err.contains("memory"),
        "{err}"
    );
    let (code, _, err) = run_e("diameter(slide4_hard, memory: \"100M\")");
    assert_eq!(code, 1);
    assert!(err.contains("the search needs 387.6 MB"), "{err}");
    let (code, _, err) = run_e("orbits(slide6_easy, sets(18))");
    assert_eq!(code, 1);
    assert!(err.contains("patterns; the limit is"), "{err}");
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let src = "diameter(slide3_hard)\ndiameter(slide4_hard, [{1, 2}, {3, 4, 5}])";
    let one = gamut()
        .args(["--threads", "1", "-e", src])
        .output()
        .unwrap();
    let two = gamut()
        .args(["--threads", "2", "-e", src])
        .output()
        .unwrap();
    assert!(one.status.success() && two.status.success());
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn export_writes_dot_and_png() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let out = gamut()
        .current_dir(dir)
        .arg("-e")
        .arg("export(slide2, \"toy.dot\")\nexport(orbit(slide4_easy, {1, 11}), \"sub.dot\")\nexport(walks(slide4_easy, 6), \"walk6.png\")")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let toy = std::fs::read_to_string(dir.join("toy.dot")).unwrap();
    // 8 elements; R and U are involutions (4 edges each), C a quarter turn (8 edges)
    assert_eq!(toy.matches("[label=\"").count(), 8);
    assert_eq!(toy.matches(" -- ").count(), 16);
    assert!(toy.contains("n0 [label=\"I\"]"));
    let sub = std::fs::read_to_string(dir.join("sub.dot")).unwrap();
    assert!(sub.contains("Sub-game of {1, 11}"), "{sub}");
    let png = std::fs::read(dir.join("walk6.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let (code, _, err) = run_e("export(walks(slide2, 1), \"w.dot\")");
    assert_eq!(code, 1);
    assert!(err.contains("exports to .png"), "{err}");
}
