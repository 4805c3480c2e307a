//! `--json` output is for programs: numbers are never digit-grouped, map keys included.
mod common;
use common::gamut;

/// `gamut --json -e SRC`: the printed JSON lines, each checked to be JSON.
fn json_out(src: &str) -> String {
    let out = gamut().arg("--json").arg("-e").arg(src).output().unwrap();
    assert!(
        out.status.success(),
        "{src}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect(line);
    }
    text
}

/// A digit, `_`, a digit: a grouped number.
fn has_grouping(text: &str) -> bool {
    text.as_bytes()
        .windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'_' && w[2].is_ascii_digit())
}

#[test]
fn map_keys_are_plain_digits() {
    let out = json_out("orbits(slide4_hard, sets(6)).sizes");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        v["value"],
        serde_json::json!({"56": 1, "896": 1, "3136": 1, "3920": 1})
    );
}

/// A key that is a position is its text form, escaped once (it was escaped twice).
#[test]
fn map_keys_are_text_forms() {
    let out = json_out("moves(domineering(\"..|..\"))");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let keys: Vec<&String> = v["value"]["left"].as_object().unwrap().keys().collect();
    assert!(
        keys.iter()
            .all(|k| k.starts_with("domineering(\"") && !k.contains('\\')),
        "{keys:?}"
    );
}

#[test]
fn no_query_family_groups_digits() {
    // each query prints numbers of four digits or more somewhere
    let queries = [
        // groups
        "order(slide4_hard)",
        "orbits(slide4_hard, sets(6))",
        "diameter(slide3_hard)",
        "orbit(slide4_hard, {1, 2, 3}).elements[0]",
        // heap games
        "grundy(kayles, 1000..1002)",
        "moves(nim(1000) + nim(2000))",
        "period(subtraction({1000, 2000}))",
        "moves(moore(2, [1, 1000]))",
        // placement
        "[independence_number(grid(4, 4), king) * 1000]",
        "moves(placement(grid(2, 2), [knight]))",
        // the Game of Cycles
        "len(trees(13))",
        "moves(cycles(diamond))",
        // Dots-and-Boxes
        "moves(dots(2, 2))",
        "[value(dots(1, 2)), 1000]",
        // the rest
        "print(\"n\", 3136, [1000])",
        "table(fn(m, n) = 1000 * m + n, 1..2, 1..2)",
        "2^70",
        "2^3000000",
        "{1000, 2000}",
        "5000..5002",
    ];
    for q in queries {
        let out = json_out(q);
        assert!(!has_grouping(&out), "{q} printed {out}");
    }
}

#[test]
fn print_of_several_values_is_an_array() {
    let out = json_out("print(\"n\", 3136, [1000])");
    assert_eq!(out.trim(), r#"{"line":1,"value":["n",3136,[1000]]}"#);
}

#[test]
fn a_huge_integer_says_its_length_without_grouping() {
    let out = json_out("2^3000000");
    assert!(out.contains("(an integer of about 903090 digits)"), "{out}");
    // text output groups it
    let (_, text, _) = common::run_e("2^3000000");
    assert!(text.contains("903_090 digits"), "{text}");
}
