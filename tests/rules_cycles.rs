//! The Game of Cycles written by rules (`game ... on edges`, docs/language.md section 5) against
//! the native engine (`cycles`, section 7) on the boards of stdlib/cycles.game and the families
//! of Zandee's thesis "The Game of Cycles": cycle graphs, lines, spiders, trees, the diamond and
//! the double diamonds.

mod common;
use common::{run_e, values};
use serde_json::Value;

const RULES: &str = "
game cyc on edges {
    cells unmarked, marked
    move e to marked for e in unmarked if some into(head(e)) - e is not marked and some out_of(tail(e)) - e is not marked
    end for f in faces if f is marked
}
";

/// A map of move names to nimbers (the rules) or outcomes (the native engine under the
/// original rule), as outcomes.
fn outcomes(v: &Value) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = v
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, x)| {
            let o = match x {
                Value::String(s) => s.clone(),
                n => if n.as_u64().unwrap() == 0 { "P" } else { "N" }.to_string(),
            };
            (k.clone(), o)
        })
        .collect();
    out.sort();
    out
}

/// For each board: the moves of the start and of every option after one move, by the rules and
/// by the native engine (a start position with that edge marked).
fn compare(boards: &[&str]) {
    let mut src = RULES.to_string();
    src += "fn after(g) = [moves(o) for o in options(cyc(g))]\n";
    src += "fn native(g) = [moves(cycles(g, marked: [k])) for k in keys(moves(cyc(g)))]\n";
    for b in boards {
        src += &format!("let g = {b}\n[moves(cyc(g)), moves(cycles(g)), after(g), native(g)]\n");
    }
    for (b, v) in boards.iter().zip(values(&src)) {
        assert_eq!(outcomes(&v[0]), outcomes(&v[1]), "{b}");
        let (rules, native) = (v[2].as_array().unwrap(), v[3].as_array().unwrap());
        assert_eq!(rules.len(), native.len(), "{b}");
        for (r, n) in rules.iter().zip(native) {
            assert_eq!(outcomes(r), outcomes(n), "{b}");
        }
    }
}

#[test]
fn the_stdlib_boards_and_the_diamonds_agree_with_the_native_engine() {
    compare(&[
        "diamond",
        "double_diamond",
        "double_diamond(1)",
        "double_diamond(1, outer: \"ab/cb\")",
        "double_diamond(1, outer: \"de/fe\")",
        "double_diamond(2)",
        "graph { a - b - c - a, c - d; cells [a, b, c] }",
        "graph { a - b - c - d - a, a - c, b - d; cells [a, b, c], [a, c, d] }",
    ]);
}

#[test]
fn cycle_graphs_lines_and_spiders_agree_with_the_native_engine() {
    let mut boards: Vec<String> = (3..=12).map(|n| format!("cycle_graph({n})")).collect();
    boards.extend((1..=10).map(|n| format!("path_graph({n})")));
    boards.extend(
        [
            "spider(1, 1, 1)",
            "spider(1, 2, 3)",
            "spider(2, 2, 2)",
            "spider(0, 2, 3)",
        ]
        .map(String::from),
    );
    compare(&boards.iter().map(String::as_str).collect::<Vec<_>>());
}

#[test]
fn on_boards_without_cells_the_nimbers_are_the_native_normal_play_nimbers() {
    // with no cell to complete the original rule is normal play, and so is the rules game
    let v = values(&format!(
        "{RULES}
let boards = [path_graph(n) for n in 1..14] + [spider(a, b, c) for a in 0..2 for b in 1..3 for c in 2..4] + trees(1) + trees(2) + trees(3) + trees(4) + trees(5) + trees(6) + trees(7)
[grundy(cyc(g)) for g in boards]
[grundy(cycles(g, rule: \"normal\")) for g in boards]
[outcome(cyc(g)) for g in boards]
[outcome(cycles(g)) for g in boards]"
    ));
    assert_eq!(v[0], v[1]);
    assert_eq!(v[2], v[3]);
    // the thesis: the line L_n is a first-player win exactly when n is odd
    let lines: Vec<u64> = v[0].as_array().unwrap()[..14]
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    let odd: Vec<bool> = (1..=14).map(|n| n % 2 == 1).collect();
    assert_eq!(lines.iter().map(|&g| g != 0).collect::<Vec<_>>(), odd);
}

#[test]
fn a_completed_cell_ends_play_and_positions_read_as_arrows() {
    let v = values(&format!(
        "{RULES}
let p = cyc(graph {{ a - b - c - a; cells [a, b, c] }})
let q = options(options(p)[0])[0]
q
show(q)
moves(q)
let done = options(q)[0]
done
options(done)
grundy(done + nim(1))
winning(cyc(diamond))"
    ));
    assert_eq!(
        v[0],
        "cyc(graph { a - b, b - c, a - c; cells [a, b, c] }) with marked a>b b>c"
    );
    assert_eq!(v[1], "a -> b   b -> c   a -- c");
    // c>a completes the cell; a>c would make c a sink
    assert_eq!(v[2], serde_json::json!({"c>a": 0}));
    assert_eq!(
        v[3],
        "cyc(graph { a - b, b - c, a - c; cells [a, b, c] }) with marked a>b b>c c>a"
    );
    assert_eq!(v[4], serde_json::json!([]));
    // the board has no moves once a cell is complete; a sum goes on in the other component
    assert_eq!(v[5], 1);
    assert_eq!(v[6], serde_json::json!(["a>c", "c>a"]));
}

#[test]
fn bad_rules_on_edges_are_refused_with_a_hint() {
    for (src, msg) in [
        (
            "game g on edges { move e to full for e in unmarked }",
            "not a state",
        ),
        (
            "game g on edges { cells u, x, y\n move e to x for e in u }",
            "at most 2 cell states",
        ),
        (
            "game g on edges { cells u, m\n move e to m for e in u }\ng(grid(2, 2))",
            "graph board",
        ),
        (
            "game g on board { move c to filled for c in empty if into(head(c)) is empty }",
            "needs a game on edges",
        ),
        (
            "game g on edges { cells u, m\n move e to m for e in u if into(e) is u }",
            "not a vertex",
        ),
        (
            "game g on board { end for f in faces if f is filled }",
            "game on edges",
        ),
        (
            "game g on edges { cells u, m\n move e to m for e in u }\ng(graph { a; b })",
            "no edges",
        ),
    ] {
        let (code, _, err) = run_e(src);
        assert_ne!(code, 0, "{src}");
        assert!(err.contains(msg), "{src}: {err}");
    }
}

#[test]
fn drawn_starts_on_edges_read_back_what_show_writes_and_agree_with_marked_native_starts() {
    // every position two moves deep: show(q) read back is q
    let boards = [
        "diamond",
        "double_diamond",
        "spider(1, 2, 2)",
        "cycle_graph(5)",
    ];
    let mut src = RULES.to_string();
    for b in boards {
        src += &format!(
            "let g = {b}\n[[cyc(g, show(q)) == q for q in options(o)] for o in options(cyc(g))]\n"
        );
    }
    for (b, v) in boards.iter().zip(values(&src)) {
        let all: Vec<bool> = v
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|o| o.as_array().unwrap().iter().map(|x| x.as_bool().unwrap()))
            .collect();
        assert!(all.len() > 4 && all.iter().all(|&x| x), "{b}: {v}");
    }
    // a drawn start (unlisted edges unmarked, either spelling of an arrow) against the native
    // engine's start with the same edges marked
    for (b, drawn, marked) in [
        ("double_diamond", "a -> b   d->b", "[\"a>b\", \"d>b\"]"),
        ("diamond", "b -> a\\nc -- d   c -> a", "[\"b>a\", \"c>a\"]"),
        ("spider(1, 2, 2)", "o -> x1", "[\"o>x1\"]"),
    ] {
        let v = values(&format!(
            "{RULES}let g = {b}\nmoves(cyc(g, \"{drawn}\"))\nmoves(cycles(g, marked: {marked}))"
        ));
        assert!(!v[0].as_object().unwrap().is_empty(), "{b}");
        assert_eq!(outcomes(&v[0]), outcomes(&v[1]), "{b} {drawn}");
    }
    for (drawn, msg) in [
        ("a -> e", "`e` is not a vertex"),
        ("b -- d", "b - d is not an edge"),
        ("a -> b   b -> a", "listed twice"),
        ("a => b", "expected `--` or `->`"),
        ("a ->", "ends in the middle of an edge"),
    ] {
        let (code, _, err) = run_e(&format!("{RULES}cyc(diamond, \"{drawn}\")"));
        assert_ne!(code, 0, "{drawn}");
        assert!(err.contains(msg) && err.contains("help:"), "{drawn}: {err}");
    }
}
