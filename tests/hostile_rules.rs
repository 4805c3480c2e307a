//! Hostile rules and boards for games by rules (`game ... on board`): rules whose compiled
//! moves pass the memory budget are refused naming the rule, compiling can be cancelled, and
//! the symmetries of a graph board are found quickly on graphs where a plain backtracking
//! search runs for hours (random regular graphs), with answers that agree with brute force.
mod common;
use common::{CancelOnProgress, Rng, run_e_with, values};
use gamut::engine::board::{BoardGame, Move, Rules, Sym, grid_adjacency};
use gamut::engine::graph::{MAX_SYMS, automorphisms};
use gamut::engine::{Ctl, ErrorKind};
use std::collections::{HashMap, HashSet};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A random `d`-regular graph on `n` vertices (pairing model, tried again until simple).
fn random_regular(rng: &mut Rng, n: usize, d: usize) -> Vec<Vec<usize>> {
    'again: loop {
        let mut points: Vec<usize> = (0..n * d).map(|i| i / d).collect();
        for i in (1..points.len()).rev() {
            points.swap(i, rng.below(i + 1));
        }
        let mut adj = vec![vec![]; n];
        for pair in points.chunks(2) {
            let (a, b) = (pair[0], pair[1]);
            if a == b || adj[a].contains(&b) {
                continue 'again;
            }
            adj[a].push(b);
            adj[b].push(a);
        }
        return adj;
    }
}

/// A random graph on `n` vertices, each edge present with probability `percent` / 100.
fn random_graph(rng: &mut Rng, n: usize, percent: usize) -> Vec<Vec<usize>> {
    let mut adj = vec![vec![]; n];
    for a in 0..n {
        for b in a + 1..n {
            if rng.below(100) < percent {
                adj[a].push(b);
                adj[b].push(a);
            }
        }
    }
    adj
}

/// The circulant graph on `n` vertices joining i to i ± each step.
fn circulant(n: usize, steps: &[usize]) -> Vec<Vec<usize>> {
    (0..n)
        .map(|i| {
            let mut l: Vec<usize> = steps
                .iter()
                .flat_map(|&s| [(i + s) % n, (i + n - s) % n])
                .collect();
            l.sort_unstable();
            l.dedup();
            l
        })
        .collect()
}

/// The graph as the language writes it, edges in a shuffled order (the order the vertices are
/// first named in is their number on the board).
fn graph_text(rng: &mut Rng, adj: &[Vec<usize>]) -> String {
    let mut parts: Vec<String> = vec![];
    for (a, l) in adj.iter().enumerate() {
        parts.extend(l.iter().filter(|&&b| a < b).map(|b| format!("v{a} - v{b}")));
        if l.is_empty() {
            parts.push(format!("v{a}"));
        }
    }
    for i in (1..parts.len()).rev() {
        parts.swap(i, rng.below(i + 1));
    }
    format!("graph {{ {} }}", parts.join(", "))
}

fn is_automorphism(adj: &[Vec<usize>], map: &[usize]) -> bool {
    let mut seen = map.to_vec();
    seen.sort_unstable();
    seen.dedup();
    seen.len() == adj.len()
        && (0..adj.len()).all(|v| adj[v].iter().all(|&w| adj[map[v]].contains(&map[w])))
}

/// Every automorphism, by trying every permutation (Heap's algorithm).
fn brute_automorphisms(adj: &[Vec<usize>]) -> HashSet<Vec<usize>> {
    let n = adj.len();
    let mut p: Vec<usize> = (0..n).collect();
    let mut c = vec![0; n];
    let mut out = HashSet::new();
    if is_automorphism(adj, &p) {
        out.insert(p.clone());
    }
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                p.swap(0, i);
            } else {
                p.swap(c[i], i);
            }
            if is_automorphism(adj, &p) {
                out.insert(p.clone());
            }
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    out
}

/// The search lists automorphisms only, the identity first, each once: the whole group when it
/// has at most `MAX_SYMS` elements, else `MAX_SYMS` of them.
#[test]
fn automorphisms_are_the_group_or_as_many_as_kept_on_small_graphs() {
    let mut rng = Rng(0x5eed);
    let mut graphs: Vec<Vec<Vec<usize>>> = vec![
        vec![],
        vec![vec![]],
        circulant(8, &[1]),
        circulant(7, &[1, 2]),
        circulant(8, &[1, 4]),
        circulant(6, &[1, 2, 3]),
        vec![vec![1, 2, 3], vec![0], vec![0], vec![0]],
        vec![vec![]; 6],
    ];
    for i in 0..150 {
        graphs.push(random_graph(&mut rng, 1 + i % 8, [10, 30, 50, 80][i % 4]));
    }
    for i in 0..20 {
        graphs.push(random_regular(&mut rng, 4 + 2 * (i % 3), 3));
    }
    let mut sizes = HashSet::new();
    for adj in &graphs {
        let got = automorphisms(adj, &Ctl::default()).unwrap();
        let all = brute_automorphisms(adj);
        assert_eq!(got[0], (0..adj.len()).collect::<Vec<_>>(), "{adj:?}");
        let distinct: HashSet<&Vec<usize>> = got.iter().collect();
        assert_eq!(distinct.len(), got.len(), "{adj:?}");
        assert!(got.iter().all(|m| all.contains(m)), "{adj:?}: {got:?}");
        assert_eq!(got.len(), all.len().min(MAX_SYMS), "{adj:?}");
        sizes.insert(all.len());
    }
    // groups of many sizes, some past the cap
    assert!(
        sizes.len() > 8 && sizes.iter().any(|&s| s > MAX_SYMS),
        "{sizes:?}"
    );
}

/// Node-Kayles on a graph, as board rules of the engine: a move fills an empty cell and its
/// neighbours.
fn node_kayles_rules(adj: &[Vec<usize>], syms: Vec<Vec<usize>>) -> Rules {
    let moves = (0..adj.len())
        .map(|c| {
            let mut cells = adj[c].clone();
            cells.push(c);
            Move {
                need: vec![(vec![c], 1)],
                some: vec![],
                change: vec![(cells, 3, 1)],
                label: vec![c],
            }
        })
        .collect();
    Rules {
        cells: adj.len(),
        states: 2,
        moves,
        ends: vec![],
        syms: syms.into_iter().map(Sym::map).collect(),
        swap: None,
        cols: None,
    }
}

/// The nimber of Node-Kayles on the empty cells `set` (a bit set), by plain mex.
fn brute_node_kayles(adj: &[Vec<usize>], set: u64, memo: &mut HashMap<u64, u32>) -> u32 {
    if let Some(&v) = memo.get(&set) {
        return v;
    }
    let mut seen: Vec<u32> = (0..adj.len())
        .filter(|&c| set >> c & 1 == 1)
        .map(|c| {
            let rest = adj[c].iter().fold(set & !(1 << c), |s, &d| s & !(1 << d));
            brute_node_kayles(adj, rest, memo)
        })
        .collect();
    seen.sort_unstable();
    let v = (0..).find(|k| !seen.contains(k)).unwrap();
    memo.insert(set, v);
    v
}

/// On 60-vertex graphs (random 3-regular ones, whose group is small, and circulants, whose
/// group is larger than the maps kept, so the keys use a part of it that is not a group), the
/// board engine keyed under the maps found agrees with brute force on positions deep in play.
#[test]
fn node_kayles_keyed_under_the_maps_found_agrees_with_brute_force_on_60_vertices() {
    let mut rng = Rng(0xbeef);
    let graphs = [
        random_regular(&mut rng, 60, 3),
        random_regular(&mut rng, 60, 4),
        circulant(60, &[1, 7]),
        circulant(60, &[1, 2]),
    ];
    for (i, adj) in graphs.iter().enumerate() {
        let syms = automorphisms(adj, &Ctl::default()).unwrap();
        assert!(syms.iter().all(|m| is_automorphism(adj, m)));
        if i >= 2 {
            assert_eq!(syms.len(), MAX_SYMS, "circulant {i}");
        }
        let g = BoardGame::new(node_kayles_rules(adj, syms)).unwrap();
        for trial in 0..3 {
            let mut p = vec![0u8; 60];
            // random moves until at most 24 cells are empty
            while p.iter().filter(|&&s| s == 0).count() > 24 {
                let opts = g.options(&p).unwrap();
                p = opts[rng.below(opts.len())].1.clone();
            }
            let set = (0..60).filter(|&c| p[c] == 0).fold(0u64, |s, c| s | 1 << c);
            let want = brute_node_kayles(adj, set, &mut HashMap::new());
            let ctl = Ctl::default();
            assert_eq!(
                g.grundy(&p, &ctl).unwrap(),
                want,
                "graph {i}, trial {trial}"
            );
            assert_eq!(g.loses(&p, &ctl).unwrap(), want == 0);
        }
    }
}

const NK: &str = "game nk on board { move c, adjacent(c) to filled for c in empty }\n";

/// The case: a game by rules on a random 60-vertex graph (here 3-regular, where the
/// old search of the symmetries backtracked for hours from 40 vertices on) compiles and
/// answers; on smaller regular graphs and vertex-transitive ones it agrees with the built-in
/// Node-Kayles.
#[test]
fn games_by_rules_on_random_regular_graphs_answer_and_agree_with_node_kayles() {
    let mut rng = Rng(0xfeed);
    let mut src = NK.to_string();
    for n in [40, 60] {
        let adj = random_regular(&mut rng, n, 3);
        let g = graph_text(&mut rng, &adj);
        src += &format!("len(options(nk({g})))\n");
    }
    let mut small = vec![circulant(12, &[1, 3]), circulant(10, &[1, 2])];
    for i in 0..8 {
        small.push(random_regular(&mut rng, 10 + 2 * (i % 3), 3));
    }
    for adj in &small {
        let g = graph_text(&mut rng, adj);
        src += &format!("let g = {g}\n[grundy(nk(g)), grundy(node_kayles(g))]\n");
    }
    let got = values(&src);
    assert_eq!(got[0], 40);
    assert_eq!(got[1], 60);
    for (v, adj) in got[2..].iter().zip(&small) {
        let want = brute_node_kayles(adj, (1u64 << adj.len()) - 1, &mut HashMap::new());
        assert_eq!(v[0], want, "{adj:?}");
        assert_eq!(v[1], want, "{adj:?}");
    }
}

#[test]
fn the_symmetry_search_stops_when_cancelled() {
    let flag = Arc::new(AtomicBool::new(true));
    let e = automorphisms(&circulant(60, &[1, 7]), &Ctl::new(flag)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Cancelled);
}

/// Each binding of `c` and `d` is a move: 65_280 on a 16 x 16 board, which pass a small budget.
const BIG_RULE: &str =
    "move c, d to filled for c in empty, d in cells if adjacent(c) | adjacent(d) is empty";

/// Rules whose moves pass the budget are refused while they are made, naming the rule, with a
/// hint; under the default budget the same rules compile.
#[test]
fn rules_past_the_memory_budget_are_refused_naming_the_rule() {
    for (rules, at) in [
        (BIG_RULE.to_string(), "rule 1"),
        (
            format!("move c to filled for c in empty\n{BIG_RULE}"),
            "rule 2",
        ),
        (
            "move c to filled for c in empty
            end for c in empty, d in cells if adjacent(c) | adjacent(d) is empty"
                .to_string(),
            "end rule 1",
        ),
    ] {
        let src = format!("game g on board {{\n{rules}\n}}\nlet p = g(grid(16, 16))\n1");
        let (code, out, err) = run_e_with(&["--memory", "32M"], &src);
        assert_eq!(code, 1, "{rules}\n{out}{err}");
        assert!(
            err.contains("compiling `g` for this board passes the memory budget")
                && err.contains(&format!("at its {at}:"))
                && err.contains("fewer variables"),
            "{err}"
        );
    }
    let (code, out, err) = run_e_with(
        &["--memory", "1G"],
        &format!("game g on board {{ {BIG_RULE} }}\nlet p = g(grid(16, 16))\nlen(options(p))"),
    );
    // a move and its mirror image (c and d swapped) are one
    assert_eq!((code, out.trim()), (0, "32_640"), "{err}");
}

/// The engine checks its own estimate of the compiled rules against the budget it is given.
#[test]
fn the_engine_refuses_rules_past_the_budget() {
    let adj = grid_adjacency(16, 16, false);
    let rules = || node_kayles_rules(&adj, vec![]);
    let sides = vec![3; 256];
    let small = Ctl::default().with_memory(64 << 10);
    let e = BoardGame::with_sides(rules(), &sides, &small)
        .err()
        .unwrap();
    assert_eq!(e.kind, ErrorKind::Memory);
    assert!(
        e.message.contains("compiling the board game's rules"),
        "{}",
        e.message
    );
    let cancelled = Ctl::new(Arc::new(AtomicBool::new(true)));
    let e = BoardGame::with_sides(rules(), &sides, &cancelled)
        .err()
        .unwrap();
    assert_eq!(e.kind, ErrorKind::Cancelled);
    assert!(BoardGame::with_sides(rules(), &sides, &Ctl::default()).is_ok());
}

/// A rule whose bindings are a product over five variables, none of which gives a move, runs
/// for hours; its compiling reports progress and stops when cancelled.
#[test]
fn compiling_a_rule_of_many_variables_can_be_cancelled() {
    let flag = Arc::new(AtomicBool::new(false));
    let mut it = gamut::lang::run::eval::Interp::new(Box::new(|_, _| {}));
    it.ctl = Ctl::new(flag.clone()).with_progress(Arc::new(CancelOnProgress(flag)));
    let src = "game g on board {
        move a to filled for a in cells, b in cells, c in cells, d in cells, e in adjacent(a) - adjacent(a)
    }
    let p = g(grid(16, 16))";
    let e = it.run_source("<test>", src).unwrap_err();
    assert_eq!(e.kind, gamut::lang::error::Kind::Cancelled, "{}", e.message);
}

/// `gamut ARGS -e SRC` under a 4 GB address-space limit: exit code and stderr.
fn limited(args: &[&str], src: &str) -> (i32, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 4194304; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_gamut"))
        .args(args)
        .arg("-e")
        .arg(src)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Nested sets of cells stay as small as the board: `adjacent` sixteen deep listed each cell
/// once per path to it (4^16 of them) and aborted.
#[test]
fn deeply_nested_cell_sets_stay_small() {
    let deep = format!("{}c{}", "adjacent(".repeat(16), ")".repeat(16));
    let src = format!(
        "game g on board {{ move c to filled for c in empty if {deep} is empty }}\ngrundy(g(grid(3, 3)))"
    );
    let (code, err) = limited(&[], &src);
    assert_eq!(code, 0, "{err}");
}

/// Sixty conditions that each read many cells, over 65_280 bindings on a 16 x 16 board, under
/// a 4 GB address-space limit: an answer or a clear error, never an abort.
#[test]
#[ignore = "heavy: about a minute"]
fn sixty_conditions_on_a_16x16_board_never_abort() {
    let conds: Vec<String> = (0..60)
        .map(|i| {
            let piece = format!("leaper({}, {})", i % 6, 1 + i / 6);
            format!("some attacks({piece}, c) | attacks({piece}, d) is not filled")
        })
        .collect();
    let src = format!(
        "game g on board {{ move c, d to filled for c in empty, d in cells if {} }}\nlet p = g(grid(16, 16))\n1",
        conds.join(" and ")
    );
    for args in [&[][..], &["--memory", "256M"][..]] {
        let (code, err) = limited(args, &src);
        assert!(
            code == 0 || code == 1 && err.contains("passes the memory budget"),
            "{args:?}: exit {code}\n{err}"
        );
    }
}
