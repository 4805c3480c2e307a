//! Paths in board rules (docs/language.md, "Board games by rules"): `ray`, `slide` and `jumps`
//! against brute forces in this file, jump chains against Konane written one line per jump
//! count, and start positions on graph boards read back from `show`.
mod common;
use common::{Rng, example_rule as rule, run_e, values};
use std::collections::{HashMap, HashSet};

/// A board of `rows` × `cols` cells, row by row, wrapping when `torus`.
struct Grid {
    rows: usize,
    cols: usize,
    torus: bool,
}

impl Grid {
    /// The next cell from `x` in direction `d` (up, down, left, right), short of `start`.
    fn step(&self, x: usize, d: usize, start: usize) -> Option<usize> {
        let (dr, dc) = [(-1, 0), (1, 0), (0, -1), (0, 1)][d];
        let (mut r, mut c) = ((x / self.cols) as i64 + dr, (x % self.cols) as i64 + dc);
        if self.torus {
            r = r.rem_euclid(self.rows as i64);
            c = c.rem_euclid(self.cols as i64);
        }
        let inside = (0..self.rows as i64).contains(&r) && (0..self.cols as i64).contains(&c);
        let y = r as usize * self.cols + c as usize;
        (inside && y != start).then_some(y)
    }
    fn drawing(&self, s: &[u8]) -> String {
        s.chunks(self.cols)
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect::<Vec<_>>()
            .join("|")
    }
}

/// The positions a rook trail move leads to: a rook moves along empty cells (to any of them,
/// or with `slide` to the last) and leaves a wall.
fn rook_options(g: &Grid, p: &[u8], slide: bool) -> Vec<Vec<u8>> {
    let mut out = vec![];
    for c in (0..p.len()).filter(|&c| p[c] == b'r') {
        for d in 0..4 {
            let mut ray = vec![];
            let mut x = c;
            while let Some(y) = g.step(x, d, c).filter(|&y| p[y] == b'.') {
                ray.push(y);
                x = y;
            }
            let ends = if slide {
                ray.last().copied().into_iter().collect()
            } else {
                ray
            };
            for y in ends {
                let mut q = p.to_vec();
                q[c] = b'w';
                q[y] = b'r';
                out.push(q);
            }
        }
    }
    out
}

fn mex_grundy(g: &Grid, p: &[u8], slide: bool, memo: &mut HashMap<Vec<u8>, u32>) -> u32 {
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let seen: HashSet<u32> = rook_options(g, p, slide)
        .iter()
        .map(|q| mex_grundy(g, q, slide, memo))
        .collect();
    let v = (0..).find(|k| !seen.contains(k)).unwrap();
    memo.insert(p.to_vec(), v);
    v
}

/// Random rook trail and rook slide positions on small grids and tori: the nimber by rules is
/// the brute force's.
#[test]
fn rays_and_slides_match_brute_force() {
    let rules = format!(
        "{}\n{}\n",
        rule("rules-rook-trail.game", "rook_trail"),
        rule("rules-rook-trail.game", "rook_slide")
    );
    let mut rng = Rng(0x5eed_2026);
    let mut src = rules.clone();
    let mut want = vec![];
    for k in 0..60 {
        let (rows, cols) = (1 + rng.below(3), 2 + rng.below(4));
        let g = Grid {
            rows,
            cols,
            torus: k % 3 == 0,
        };
        let p: Vec<u8> = (0..rows * cols)
            .map(|_| [b'.', b'.', b'.', b'r', b'w'][rng.below(5)])
            .collect();
        let board = format!("{}({rows}, {cols})", if g.torus { "torus" } else { "grid" });
        for (slide, name) in [(false, "rook_trail"), (true, "rook_slide")] {
            want.push(mex_grundy(&g, &p, slide, &mut HashMap::new()));
            src += &format!("grundy({name}({board}, {:?}))\n", g.drawing(&p));
        }
    }
    let got: Vec<u32> = values(&src)
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect();
    assert_eq!(got, want);
    assert!(
        want.iter().any(|&v| v > 1),
        "the cases reach nimbers past 1"
    );
}

/// Konane positions as rows of `.`, `b` (Left), `w` (Right): the positions each player's jump
/// chains lead to.
fn konane_options(g: &Grid, p: &[u8], me: u8) -> Vec<Vec<u8>> {
    let other = if me == b'b' { b'w' } else { b'b' };
    let mut out = vec![];
    for c in (0..p.len()).filter(|&c| p[c] == me) {
        for d in 0..4 {
            let mut q = p.to_vec();
            q[c] = b'.';
            let mut x = c;
            while let Some(o) = g.step(x, d, c).filter(|&o| p[o] == other) {
                let Some(y) = g.step(o, d, c).filter(|&y| p[y] == b'.') else {
                    break;
                };
                q[o] = b'.';
                let mut r = q.clone();
                r[y] = me;
                out.push(r);
                x = y;
            }
        }
    }
    out
}

/// Whether the player to move (`b` or `w`) wins.
fn konane_wins(g: &Grid, p: &[u8], me: u8, memo: &mut HashMap<(Vec<u8>, u8), bool>) -> bool {
    if let Some(&w) = memo.get(&(p.to_vec(), me)) {
        return w;
    }
    let other = if me == b'b' { b'w' } else { b'b' };
    let w = konane_options(g, p, me)
        .iter()
        .any(|q| !konane_wins(g, q, other, memo));
    memo.insert((p.to_vec(), me), w);
    w
}

/// Konane by one chain line per player, on rows of 7 to 10 cells and 2-row boards where chains
/// of three jumps occur: options and outcomes as the brute force finds them.
#[test]
fn jump_chains_match_brute_force() {
    let rules = rule("rules-konane-chains.game", "konane");
    let mut rng = Rng(0x6b6f_6e61);
    let mut src = rules + "\n";
    let mut want = vec![];
    let mut longest = 0;
    // chains of three jumps, then random boards
    let mut cases: Vec<(usize, usize, Vec<u8>)> = [
        (1, 7, "bw.w.w."),
        (1, 9, ".w.w.w.bw"),
        (1, 10, "bw.w.w.w.b"),
        (2, 7, "bw.w.w.|.b.b.bw"),
    ]
    .map(|(r, c, p)| (r, c, p.replace('|', "").into_bytes()))
    .to_vec();
    for k in 0..50 {
        let (rows, cols) = if k % 5 == 4 {
            (2, 5 + rng.below(2))
        } else {
            (1, 7 + rng.below(4))
        };
        // alternating stones and gaps make long chains likely
        let p: Vec<u8> = (0..rows * cols)
            .map(|i| match rng.below(4) {
                0 => b'.',
                1 => b'b',
                2 => b'w',
                _ => [b'.', b'w'][i % 2],
            })
            .collect();
        cases.push((rows, cols, p));
    }
    for (rows, cols, p) in cases {
        let g = Grid {
            rows,
            cols,
            torus: false,
        };
        let draw = |q: &[u8]| {
            q.chunks(cols)
                .map(|r| {
                    r.iter()
                        .map(|&c| (c as char).to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        let mut memo = HashMap::new();
        let (lw, rw) = (
            konane_wins(&g, &p, b'b', &mut memo),
            konane_wins(&g, &p, b'w', &mut memo),
        );
        let outcome = match (lw, rw) {
            (true, true) => "N",
            (true, false) => "L",
            (false, true) => "R",
            (false, false) => "P",
        };
        for me in [b'b', b'w'] {
            let mut opts: Vec<String> =
                konane_options(&g, &p, me).iter().map(|q| draw(q)).collect();
            for q in konane_options(&g, &p, me) {
                let jumped = p.iter().zip(&q).filter(|(a, b)| a != b).count() - 2;
                longest = longest.max(jumped);
            }
            opts.sort();
            want.push(serde_json::json!(opts));
        }
        want.push(serde_json::json!(outcome));
        let pos = format!("konane(grid({rows}, {cols}), {:?})", g.drawing(&p));
        src += &format!(
            "sort([show(q) for q in left_options({pos})])\n\
             sort([show(q) for q in right_options({pos})])\n\
             outcome({pos})\n"
        );
    }
    assert_eq!(values(&src), want);
    assert!(longest >= 3, "some chain jumps three stones");
}

/// Konane with one chain line per player is Konane with one line per direction and jump count
/// (bench/rules-konane.game, single and double jumps: every jump on boards of at most 6 cells
/// a side), on random boards up to 6 wide.
#[test]
fn jump_chains_match_explicit_lines() {
    let path = format!("{}/bench/rules-konane.game", env!("CARGO_MANIFEST_DIR"));
    let bench = std::fs::read_to_string(path).unwrap();
    let start = bench.find("game konane").unwrap();
    let end = start + bench[start..].find("\n}").unwrap() + 2;
    let explicit = bench[start..end].replace("game konane", "game konane2");
    // the bench plays x and o; the chain rule black and white
    let chains = rule("rules-konane-chains.game", "konane")
        .replace("black", "x")
        .replace("white", "o");
    let mut rng = Rng(0x2026_1129);
    let mut src = format!("{chains}\n{explicit}\n");
    let mut n = 0;
    for _ in 0..40 {
        let (rows, cols) = (1 + rng.below(3), 3 + rng.below(4));
        let p: String = (0..rows * cols)
            .map(|i| match rng.below(3) {
                0 => '.',
                1 => ['x', 'o'][i % 2],
                _ => ['x', 'o'][(i + 1) % 2],
            })
            .collect::<Vec<_>>()
            .chunks(cols)
            .map(|r| r.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("|");
        src += &format!(
            "value(konane(grid({rows}, {cols}), {p:?})) == value(konane2(grid({rows}, {cols}), {p:?}))\n"
        );
        n += 1;
    }
    let got = values(&src);
    assert_eq!(got, vec![serde_json::json!(true); n]);
}

/// A random graph of `n` vertices v0, v1, ... as `graph { ... }` text.
fn random_graph(rng: &mut Rng, n: usize) -> String {
    let mut edges = vec![];
    for a in 0..n {
        for b in a + 1..n {
            if rng.below(3) == 0 {
                edges.push(format!("v{a} - v{b}"));
            }
        }
    }
    // every vertex named alone first keeps them in order and keeps isolated ones
    let alone = (0..n).map(|v| format!("v{v}"));
    format!(
        "graph {{ {} }}",
        alone.chain(edges).collect::<Vec<_>>().join(", ")
    )
}

/// Random positions on graph boards: `show(P)` read back as a start is `P`, in long and short
/// form, and so are the options of each.
#[test]
fn graph_starts_read_back_show() {
    let rules = rule("rules-graph-start.game", "node_kayles_r");
    let states = ["empty", "taken", "blocked"];
    let mut rng = Rng(0x67_7261_7068);
    let mut src = rules + "\n";
    let mut want = vec![];
    for _ in 0..25 {
        let n = 2 + rng.below(7);
        let g = random_graph(&mut rng, n);
        let cells: Vec<usize> = (0..n).map(|_| rng.below(3)).collect();
        let long: Vec<String> = (0..n)
            .map(|v| format!("v{v}: {}", states[cells[v]]))
            .collect();
        // the short form: letters, first-state vertices left out, in any order
        let short: Vec<String> = (0..n)
            .rev()
            .filter(|&v| cells[v] > 0)
            .map(|v| format!("v{v}:{}", &states[cells[v]][..1]))
            .collect();
        src += &format!(
            "let p = node_kayles_r({g}, {:?})\n\
             show(p)\n\
             node_kayles_r({g}, {:?}) == p\n\
             node_kayles_r({g}, show(p)) == p\n\
             [node_kayles_r({g}, show(q)) == q for q in options(p)] == [true for q in options(p)]\n",
            long.join("\n"),
            short.join(", ")
        );
        want.push(serde_json::json!(long.join("\n")));
        want.extend(vec![serde_json::json!(true); 3]);
    }
    assert_eq!(values(&src), want);
}

/// Bad paths and bad graph starts are errors with a hint (exit code 1), never a panic.
#[test]
fn bad_paths_and_starts_are_clear_errors() {
    let game = "game t on board { cells empty, rook, wall\n";
    let cases: [(&str, &str); 9] = [
        (
            "move c to wall for c in rook, d in ray(sideways, c)\n}\nt(grid(2, 2))",
            "not a direction",
        ),
        (
            "move c to wall for c in rook, d in ray(up)\n}\nt(grid(2, 2))",
            "`ray` takes 2 or 3 arguments",
        ),
        (
            "move c to wall for c in rook, d in jumps(up, c, rook)\n}\nt(grid(2, 2))",
            "`jumps` takes 4 arguments",
        ),
        (
            "move c to wall for c in rook, d in ray(up, c, stone)\n}\nt(grid(2, 2))",
            "`stone` is not a state",
        ),
        (
            "move c to wall for c in rook, d in ray(up, c) | adjacent(c)\n}\nt(grid(2, 2))",
            "over paths or over cells, not both",
        ),
        (
            "move ray(up, c) to wall for c in rook\n}\nt(grid(2, 2))",
            "what a `for` variable ranges over",
        ),
        (
            "move jumped(d) to wall for c in rook, d in ray(up, c)\n}\nt(grid(2, 2))",
            "`jumped` takes a variable bound by `jumps(...)`",
        ),
        (
            "move c to wall for c in rook, d in slide(up, c)\n}\nt(graph { a - b })",
            "need a grid or",
        ),
        (
            "move c to wall for c in empty\n}\nt(graph { a - b }, \"a: rook, c: wall\")",
            "`c` is not a vertex of the board",
        ),
    ];
    for (rest, want) in cases {
        let (code, _, err) = run_e(&format!("{game}{rest}"));
        assert_eq!(code, 1, "{rest}: {err}");
        assert!(err.contains(want), "{rest}: {err}");
        assert!(
            err.contains("help:") || want.contains("grid or torus"),
            "{rest}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let start = "game t on board { cells empty, rook, wall\nmove c to wall for c in empty\n}\n";
    for (text, want) in [
        ("a: stone", "`stone` is not a state of `t`"),
        ("a: x", "`x` is not a state of `t`"),
        ("a rook", "expected `vertex: state`"),
        ("a: r, a: w", "the vertex a is listed twice"),
    ] {
        let (code, _, err) = run_e(&format!("{start}t(graph {{ a - b }}, {text:?})"));
        assert_eq!(code, 1, "{text}: {err}");
        assert!(err.contains(want), "{text}: {err}");
        assert!(err.contains("help:"), "{text}: {err}");
    }
}
