//! Partizan board games written by rules (`left move` / `right move` in `game ... on board`)
//! against the built-in engines (`domineering`, `clobber`, `snort`, `col`, `pieces_game`) on
//! every board up to 4 x 4, on random drawn positions and on random graphs of up to 10
//! vertices, and against published values.
mod common;
use common::{Rng, gamut, run_e, value, values};
use serde_json::json;

const RULES: &str = "
game dom on board {
    left move c, d to filled for c in empty, d in down(c) if d is empty
    right move c, d to filled for c in empty, d in right(c) if d is empty
}
game clob on board {
    cells empty, x, o
    left move c to empty, d to x for c in x, d in adjacent(c) if d is o
    right move c to empty, d to o for c in o, d in adjacent(c) if d is x
}
game snort_r on board {
    cells empty, blue, red
    left move c to blue for c in empty if adjacent(c) is not red
    right move c to red for c in empty if adjacent(c) is not blue
}
game col_r on board {
    cells empty, blue, red
    left move c to blue for c in empty if adjacent(c) is not blue
    right move c to red for c in empty if adjacent(c) is not red
}
";

/// A placement game of two chess pieces by rules, named `pieces`.
fn pieces_rules(left: &str, right: &str) -> String {
    format!(
        "game pieces on board {{
    cells empty, {left}, {right}
    left move c to {left} for c in empty if attacks({left}, c) | attacks({right}, c) is not {right}
    right move c to {right} for c in empty if attacks({right}, c) | attacks({left}, c) is not {left}
}}\n"
    )
}

/// Runs `rules` and then `[value(a), value(b)]` for each pair, and checks the two agree.
fn agree(rules: &str, pairs: &[(String, String)]) {
    agree_by(rules, ["value", "value"], pairs)
}

/// As [`agree`], with the queries `[qa(a), qb(b)]` (`qb` may wrap: "outcome(value" closes
/// with two brackets).
fn agree_by(rules: &str, [qa, qb]: [&str; 2], pairs: &[(String, String)]) {
    let close = ")".repeat(qb.matches('(').count() + 1);
    let mut src = rules.to_string();
    for (a, b) in pairs {
        src.push_str(&format!("[{qa}({a}), {qb}({b}{close}]\n"));
    }
    let got = values(&src);
    assert_eq!(got.len(), pairs.len());
    for ((a, b), v) in pairs.iter().zip(got) {
        assert_eq!(v[0], v[1], "{a} is {} but {b} is {}", v[0], v[1]);
    }
}

/// The pairs `f(m, n)` gives for the boards from 1 x 1 to 4 x 4.
fn every_board(f: impl Fn(usize, usize) -> Option<(String, String)>) -> Vec<(String, String)> {
    let mut out = vec![];
    for m in 1..=4 {
        out.extend((1..=4).filter_map(|n| f(m, n)));
    }
    out
}

/// `count` random drawings on boards up to `side` x `side`, each cell a pair of `marks` (the
/// rules game's letter, the built-in's), as pairs (`ours(grid(m, n), drawing)`,
/// `theirs(drawing)`).
fn drawings(
    seed: u64,
    count: usize,
    side: usize,
    marks: &[(char, char)],
    ours: &str,
    theirs: &str,
) -> Vec<(String, String)> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|_| {
            let (m, n) = (1 + rng.below(side), 1 + rng.below(side));
            let (mut a, mut b) = (vec![], vec![]);
            for _ in 0..m {
                let row: Vec<(char, char)> =
                    (0..n).map(|_| marks[rng.below(marks.len())]).collect();
                a.push(row.iter().map(|x| x.0).collect::<String>());
                b.push(row.iter().map(|x| x.1).collect::<String>());
            }
            let (a, b) = (a.join("|"), b.join("|"));
            (
                format!("{ours}(grid({m}, {n}), {a:?})"),
                format!("{theirs}({b:?})"),
            )
        })
        .collect()
}

/// Published values: Domineering 2 x 2 = ±1, 2 x 3 = {2|-1/2}, 3 x 3 = ±1 (Berlekamp, Conway
/// and Guy, *Winning Ways*, ch. 2; Albert, Nowakowski and Wolfe, *Lessons in Play*, ch. 2).
#[test]
fn domineering_published_values() {
    let v = values(&format!(
        "{RULES}value(dom(grid(2, 2)))\nvalue(dom(grid(2, 3)))\nvalue(dom(grid(3, 3)))\nvalue(dom(grid(3, 2)))"
    ));
    assert_eq!(
        v,
        [
            json!("±1"),
            json!("{2|-1/2}"),
            json!("±1"),
            json!("{1/2|-2}")
        ]
    );
}

#[test]
fn domineering_every_board_to_4x4() {
    let mut pairs = every_board(|m, n| {
        Some((
            format!("dom(grid({m}, {n}))"),
            format!("domineering({m}, {n})"),
        ))
    });
    let marks = [('.', '.'), ('.', '.'), ('f', '#')];
    pairs.extend(drawings(0x5eed_d0e1, 60, 4, &marks, "dom", "domineering"));
    agree(RULES, &pairs);
}

/// The transpose of a Domineering position is its negative: a symmetry that swaps the players'
/// moves must not be used as a key.
#[test]
fn domineering_transpose_is_negative() {
    let mut rng = Rng(77);
    let mut src = RULES.to_string();
    let mut count = 0;
    for n in 2..=4 {
        for _ in 0..8 {
            let cells: Vec<bool> = (0..n * n).map(|_| rng.below(4) == 0).collect();
            let draw = |t: bool| {
                (0..n)
                    .map(|r| {
                        (0..n)
                            .map(|c| {
                                let i = if t { c * n + r } else { r * n + c };
                                if cells[i] { 'f' } else { '.' }
                            })
                            .collect::<String>()
                    })
                    .collect::<Vec<_>>()
                    .join("|")
            };
            src.push_str(&format!(
                "value(dom(grid({n}, {n}), {:?})) == -value(dom(grid({n}, {n}), {:?}))\n",
                draw(false),
                draw(true)
            ));
            count += 1;
        }
    }
    assert_eq!(values(&src), vec![json!(true); count]);
}

#[test]
fn clobber_boards() {
    // checkerboards up to 4 x 3 and 3 x 4 (4 x 4 takes seconds)
    let mut pairs = every_board(|m, n| {
        let rows: Vec<String> = (0..m)
            .map(|r| {
                (0..n)
                    .map(|c| if (r + c) % 2 == 0 { 'x' } else { 'o' })
                    .collect()
            })
            .collect();
        let t = rows.join("|");
        (m * n <= 12).then(|| {
            (
                format!("clob(grid({m}, {n}), {t:?})"),
                format!("clobber({t:?})"),
            )
        })
    });
    let marks = [('.', '.'), ('x', 'x'), ('o', 'o')];
    pairs.extend(drawings(0xc10b, 40, 4, &marks, "clob", "clobber"));
    agree(RULES, &pairs);
}

/// The outcome search over rules positions (components of more than 8 cells searched, not
/// valued) against the outcome of the built-in engines' canonical values, on boards up to
/// 6 x 6 with a third of the cells filled or stones.
#[test]
fn outcomes_by_search_match_values() {
    let dom = drawings(
        0x0dd5,
        40,
        6,
        &[('.', '.'), ('.', '.'), ('f', '#')],
        "dom",
        "domineering",
    );
    let marks = [('x', 'x'), ('o', 'o'), ('.', '.')];
    let clob = drawings(0xc10b5, 40, 5, &marks, "clob", "clobber");
    agree_by(RULES, ["outcome", "outcome(value"], &[dom, clob].concat());
}

/// A random graph on `n` vertices `v0`, ..., each edge with probability 3/10.
fn random_graph(rng: &mut Rng, n: usize) -> String {
    let mut parts: Vec<String> = (0..n).map(|v| format!("v{v}")).collect();
    for a in 0..n {
        for b in a + 1..n {
            if rng.below(10) < 3 {
                parts.push(format!("v{a} - v{b}"));
            }
        }
    }
    format!("graph {{ {} }}", parts.join(", "))
}

#[test]
fn snort_and_col_on_random_graphs() {
    let mut rng = Rng(0x5a0c);
    let mut pairs = vec![];
    for k in 0..40 {
        let g = random_graph(&mut rng, 1 + k % 10);
        pairs.push((format!("snort_r({g})"), format!("snort({g})")));
        pairs.push((format!("col_r({g})"), format!("col({g})")));
    }
    agree(RULES, &pairs);
}

#[test]
fn placement_of_two_pieces() {
    let pairs = every_board(|m, n| {
        Some((
            format!("pieces(grid({m}, {n}))"),
            format!("pieces_game({m}, {n}, \"knight\", \"queen\")"),
        ))
    });
    agree(&pieces_rules("knight", "queen"), &pairs);
    for (l, r) in [("king", "rook"), ("bishop", "knight")] {
        let pairs: Vec<(String, String)> = [(2, 3), (3, 3), (3, 4)]
            .iter()
            .map(|(m, n)| {
                (
                    format!("pieces(grid({m}, {n}))"),
                    format!("pieces_game({m}, {n}, {l:?}, {r:?})"),
                )
            })
            .collect();
        agree(&pieces_rules(l, r), &pairs);
    }
}

/// Options, outcome, sums with impartial positions and the drawing of a position.
#[test]
fn queries_on_rules_positions() {
    let v = values(&format!(
        "{RULES}let p = dom(grid(2, 3))
len(left_options(p))
len(right_options(p))
[value(q) for q in right_options(p)] == [value(q) for q in right_options(domineering(2, 3))]
outcome(p)
outcome(dom(grid(1, 3)))
value(p + kayles(3)) == value(domineering(2, 3) + kayles(3))
value(p + clob(grid(1, 2), \"xo\")) == value(domineering(2, 3) + clobber(\"xo\"))
show(left_options(p)[1])
show(clob(grid(2, 2), \"x.|.o\"))"
    ));
    assert_eq!(
        v,
        [
            json!(3),
            json!(4),
            json!(true),
            json!("N"),
            json!("R"),
            json!(true),
            json!(true),
            json!(". f .\n. f ."),
            json!("x .\n. o"),
        ]
    );
    let (code, out, _) = run_e(&format!("{RULES}value(dom(grid(3, 3)))"));
    assert_eq!((code, out.trim()), (0, "±1"));
    assert_eq!(
        value(&format!("{RULES}dom(grid(2, 2), \"f.|..\")")),
        json!("dom(grid(2, 2)) with filled (1, 1)")
    );
}

#[test]
fn mistakes_are_explained() {
    let cases = [
        (
            format!("{RULES}dom(graph {{ a - b }})"),
            "the paths ray, slide and jumps need a grid",
        ),
        (format!("{RULES}dom(grid(2, 2), \"f..|..\")"), "has 3 cells, not 2"),
        (format!("{RULES}dom(grid(2, 2), \"f.\")"), "has 1 row, not 2"),
        (format!("{RULES}clob(grid(1, 2), \"xq\")"), "`q` is not the first letter of a state"),
        (format!("{RULES}grundy(dom(grid(2, 2)))"), "partizan"),
        (
            "game back on board {\n left move c to filled for c in empty\n right move c to empty for c in filled\n}\nvalue(back(grid(1, 2)))".into(),
            "loopy",
        ),
        (
            // Clobber's capture, but from any cell: an empty cell "emptied" again moves nothing
            // on for good, and from `.x` play goes round
            "game c on board {\n cells empty, x, o\n left move c to empty, d to x for c in cells, d in adjacent(c) if d is o\n right move c to o for c in x\n}\nvalue(c(grid(1, 2), \".x\"))".into(),
            "loopy",
        ),
    ];
    for (src, want) in cases {
        let (code, _, err) = run_e(&src);
        assert_ne!(code, 0, "{src}");
        assert!(err.contains(want), "{src}: {err}");
    }
}

/// A search larger than the memory budget stops with the budget in the message.
#[test]
fn the_search_keeps_to_the_memory_budget() {
    let out = gamut()
        .args([
            "--memory",
            "8M",
            "-e",
            &format!("{RULES}value(dom(grid(6, 6)))"),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("needs about"), "{err}");
}

/// A plain `move` is for both players: on a strip, Left may fill one cell and either player
/// two adjacent ones, against the same game written as a `game` block over strip lengths.
#[test]
fn plain_moves_are_for_both() {
    let src = "game mixed on board {
    left move c to filled for c in empty
    move c, d to filled for c in empty, d in right(c) if d is empty
}
game strip(n) {
    left move a, n - 1 - a for a in 0..n-1
    move a, n - 2 - a for a in 0..n-2
}
[value(mixed(grid(1, n))) for n in 1..9] == [value(strip(n)) for n in 1..9]
[value(mixed(grid(1, n))) for n in 1..3]";
    // by hand: 1 x 2 is {1, 0 | 0} = {1|0}; on 1 x 3 Left's middle cell leaves 1 + 1
    assert_eq!(values(src), [json!(true), json!(["1", "{1|0}", "{2|1}"])]);
}

/// `moves` and `winning` name the options of a rules position by their moves, as impartial
/// board games do: each named move, played on the built-in Domineering board (its two cells
/// filled), has the value `moves` gives, and `winning` lists those after which the mover wins
/// by the built-in's outcome (L or P for Left, R or P for Right).
#[test]
fn moves_of_rules_positions_are_named_by_their_cells() {
    let start = ["#..|...|...", "...|.#.|..."];
    for board in start {
        let drawing = board.replace('#', "f");
        let v = values(&format!(
            "{RULES}let p = dom(grid(3, 3), \"{drawing}\")\nmoves(p)\nwinning(p, \"L\")\nwinning(p, \"R\")"
        ));
        for (side, rule, mover) in [("left", 1, ["L", "P"]), ("right", 2, ["R", "P"])] {
            let named = v[0][side].as_object().unwrap();
            let winning: Vec<&str> = v[if side == "left" { 1 } else { 2 }]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            assert!(!named.is_empty());
            for (label, val) in named {
                // "rule k at (r, c) (r, c)": fill those cells of the drawing
                let rest = label.strip_prefix(&format!("rule {rule} at ")).unwrap();
                let mut rows: Vec<Vec<char>> =
                    board.split('|').map(|r| r.chars().collect()).collect();
                for cell in rest.split(") (") {
                    let nums: Vec<usize> = cell
                        .trim_matches(|c| c == '(' || c == ')')
                        .split(", ")
                        .map(|x| x.parse().unwrap())
                        .collect();
                    assert_eq!(rows[nums[0] - 1][nums[1] - 1], '.', "{label}");
                    rows[nums[0] - 1][nums[1] - 1] = '#';
                }
                let after: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
                let built_in = format!("domineering(\"{}\")", after.join("|"));
                let w = values(&format!("value({built_in})\noutcome({built_in})"));
                assert_eq!(&w[0], val, "{label}");
                let wins = mover.contains(&w[1].as_str().unwrap());
                assert_eq!(winning.contains(&label.as_str()), wins, "{label}");
            }
        }
    }
}
