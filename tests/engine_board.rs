//! Board games written by rules (`game ... on board`) against the native engines and against
//! brute force written here, on every board up to 4 x 4 and on random graphs of up to 10
//! vertices.

mod common;
use common::{run_e, values};
use gamut::engine::Ctl;
use gamut::engine::board::{BoardGame, Move, Rules, grid_adjacency};
use std::collections::HashMap;

const RULES: &str = "
game cram on board {
    cells empty, filled
    move c, d to filled for c in empty, d in adjacent(c) if d is empty
}
game nk on board { move c, adjacent(c) to filled for c in empty }
game lonely on board { move c to filled for c in empty if adjacent(c) is empty }
game crowded on board { move c to filled for c in empty if some adjacent(c) is empty }
game pair on board {
    move c to filled for c in empty
    end for c in filled, d in adjacent(c) if d is filled
}
";

fn ints(v: &serde_json::Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// Nimbers by brute force: a position is the bit set of cells still in play; `opts` lists the
/// options of a position.
fn brute(start: u32, opts: &dyn Fn(u32) -> Vec<u32>, memo: &mut HashMap<u32, u32>) -> u32 {
    if let Some(&v) = memo.get(&start) {
        return v;
    }
    let mut seen: Vec<u32> = opts(start)
        .into_iter()
        .map(|q| brute(q, opts, memo))
        .collect();
    seen.sort_unstable();
    let g = (0..).find(|k| !seen.contains(k)).unwrap();
    memo.insert(start, g);
    g
}

fn grid_adj(m: usize, n: usize) -> Vec<Vec<usize>> {
    grid_adjacency(m, n, false)
}

/// Cram (Arc-Kayles on the board graph): remove two adjacent cells in play.
fn arc_kayles(adj: &[Vec<usize>]) -> u32 {
    let opts = |a: u32| {
        let mut v = vec![];
        for (c, nb) in adj.iter().enumerate() {
            for &d in nb {
                if c < d && a >> c & 1 == 1 && a >> d & 1 == 1 {
                    v.push(a & !(1 << c) & !(1 << d));
                }
            }
        }
        v
    };
    brute((1u32 << adj.len()) - 1, &opts, &mut HashMap::new())
}

/// Node-Kayles: remove a cell in play and its neighbours.
fn node_kayles(adj: &[Vec<usize>]) -> u32 {
    let opts = |a: u32| {
        (0..adj.len())
            .filter(|&c| a >> c & 1 == 1)
            .map(|c| adj[c].iter().fold(a & !(1 << c), |x, &d| x & !(1 << d)))
            .collect()
    };
    brute((1u32 << adj.len()) - 1, &opts, &mut HashMap::new())
}

/// Fill an empty cell whose neighbours are all empty (`every`), or one of whose neighbours is
/// empty (`some`); a position is the set of empty cells.
fn lonely(adj: &[Vec<usize>], some: bool) -> u32 {
    let opts = |a: u32| {
        (0..adj.len())
            .filter(|&c| {
                let mut empty = adj[c].iter().map(|&d| a >> d & 1 == 1);
                let ok = if some {
                    empty.any(|x| x)
                } else {
                    empty.all(|x| x)
                };
                a >> c & 1 == 1 && ok
            })
            .map(|c| a & !(1 << c))
            .collect()
    };
    brute((1u32 << adj.len()) - 1, &opts, &mut HashMap::new())
}

/// Fill any empty cell; play ends once two neighbours are filled.
fn pair(adj: &[Vec<usize>]) -> u32 {
    let all = (1u32 << adj.len()) - 1;
    let opts = |a: u32| {
        let filled = |c: usize| a >> c & 1 == 0;
        let over = (0..adj.len()).any(|c| filled(c) && adj[c].iter().any(|&d| filled(d)));
        (0..adj.len())
            .filter(|&c| !over && !filled(c))
            .map(|c| a & !(1 << c))
            .collect()
    };
    brute(all, &opts, &mut HashMap::new())
}

#[test]
fn grid_games_agree_with_brute_force_up_to_4x4() {
    let mut src = RULES.to_string();
    let mut want = vec![];
    for m in 1..=4 {
        for n in 1..=4 {
            let adj = grid_adj(m, n);
            src += &format!(
                "let b = grid({m}, {n})\n[grundy(cram(b)), grundy(nk(b)), grundy(lonely(b)), grundy(crowded(b))]\n"
            );
            want.push(vec![
                arc_kayles(&adj) as u64,
                node_kayles(&adj) as u64,
                lonely(&adj, false) as u64,
                lonely(&adj, true) as u64,
            ]);
        }
    }
    let got: Vec<Vec<u64>> = values(&src).iter().map(ints).collect();
    assert_eq!(got, want);
}

/// A random graph on `n` vertices from a small linear congruential generator.
fn random_graph(seed: &mut u64, n: usize) -> (String, Vec<Vec<usize>>) {
    let mut adj = vec![vec![]; n];
    let mut parts: Vec<String> = (0..n).map(|v| format!("v{v}")).collect();
    for a in 0..n {
        for b in a + 1..n {
            *seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            if (*seed >> 33) % 100 < 30 {
                adj[a].push(b);
                adj[b].push(a);
                parts.push(format!("v{a} - v{b}"));
            }
        }
    }
    (format!("graph {{ {} }}", parts.join(", ")), adj)
}

#[test]
fn graph_games_agree_with_brute_force_and_node_kayles_on_random_graphs() {
    let mut seed = 7;
    let mut src = RULES.to_string();
    let mut want = vec![];
    for i in 0..60 {
        let (g, adj) = random_graph(&mut seed, 1 + i % 10);
        src += &format!(
            "let g = {g}\n[grundy(cram(g)), grundy(nk(g)), grundy(node_kayles(g)), grundy(lonely(g)), grundy(crowded(g)), grundy(pair(g))]\n"
        );
        let nk = node_kayles(&adj) as u64;
        let (every, some) = (lonely(&adj, false) as u64, lonely(&adj, true) as u64);
        let pair = pair(&adj) as u64;
        want.push(vec![arc_kayles(&adj) as u64, nk, nk, every, some, pair]);
    }
    let got: Vec<Vec<u64>> = values(&src).iter().map(ints).collect();
    assert_eq!(got, want);
}

#[test]
fn placement_by_rules_agrees_with_the_placement_engine() {
    let src = "
game queens on board { cells empty, taken
    move c, attacks(queen, c) to taken for c in empty }
game knights on board { cells empty, taken
    move c, attacks(knight, c) to taken for c in empty }
game kings on board { cells empty, taken
    move c, attacks(king, c) to taken for c in empty }
game rooks on board { cells empty, taken
    move c, attacks(rook, c) to taken for c in empty }
game bishops_knights on board {
    cells empty, bishop, knight, attacked
    move c to bishop, attacks(bishop, c) from empty to attacked for c in empty
    move c to knight, attacks(knight, c) from empty to attacked for c in empty
}
let boards = [grid(m, n) for m in 1..4 for n in 1..4] + [torus(3, 3), torus(4, 4), torus(3, 4)]
[[grundy(queens(b)), grundy(knights(b)), grundy(kings(b)), grundy(rooks(b)), grundy(bishops_knights(b))] for b in boards]
[[grundy(placement(b, [p])) for p in [queen, knight, king, rook]] + [grundy(placement(b, [bishop, knight]))] for b in boards]
fn after(p) = sort([grundy(o) for o in options(p)])
[after(queens(grid(3, 4))), after(bishops_knights(grid(3, 3)))]
[after(placement(grid(3, 4), [queen])), after(placement(grid(3, 3), [bishop, knight]))]
";
    let v = values(src);
    assert_eq!(v[0], v[1]);
    assert_eq!(v[2], v[3]);
}

#[test]
fn linear_cram_is_dawsons_kayles_and_node_kayles_on_a_path_is_dawsons_chess() {
    let v = values(&format!(
        "{RULES}
[grundy(cram(grid(1, n))) for n in 1..40]
grundy(octal(\"0.07\"), 1..40)
[grundy(nk(grid(1, n))) for n in 1..40]
grundy(octal(\"0.137\"), 1..40)"
    ));
    assert_eq!(v[0], v[1]);
    assert_eq!(v[2], v[3]);
}

#[test]
fn queries_name_moves_and_combine_with_other_rulesets() {
    let v = values(&format!(
        "{RULES}
let p = cram(grid(2, 3))
winning(p)
show(p)
show(options(p)[0])
options(p)[0]
grundy(p + kayles(3))
outcome(misere(nk(grid(1, 3))))
grundy(nk(graph {{ a - b - c }}))"
    ));
    assert_eq!(
        v[0],
        serde_json::json!(["(1, 1) (2, 1)", "(1, 2) (2, 2)", "(1, 3) (2, 3)"])
    );
    assert_eq!(v[1], ". . .\n. . .");
    assert_eq!(v[2], "f f .\n. . .");
    assert_eq!(v[3], "cram(grid(2, 3)) with filled (1, 1) (1, 2)");
    // cram(2 x 3) = *1, kayles(3) = *3
    assert_eq!(v[4], 2);
    // misère Node-Kayles on a path of 3: taking the middle leaves nothing, and loses
    assert_eq!(v[5], "N");
    assert_eq!(v[6], 2);
}

#[test]
fn bad_rules_are_refused_with_a_hint() {
    for (src, msg) in [
        (
            "game g on board { move c to empty for c in filled }\ngame h on board { move c to filled for c in empty\n move c to empty for c in filled }\ngrundy(h(grid(2, 2)))",
            "loopy",
        ),
        (
            "game g on board { move c to full for c in empty }",
            "not a state",
        ),
        (
            "game g on board { move d to filled for c in empty }",
            "not a variable",
        ),
        (
            "game g on board { move c, attacks(knight, c) to filled for c in empty }\ng(graph { a - b })",
            "grid or torus",
        ),
        (
            "game g on board { move c to filled for c in empty }\ng(3)",
            "on a board",
        ),
        (
            "game g on board { move c, 3 to filled for c in empty }",
            "not a set of cells",
        ),
    ] {
        let (code, _, err) = run_e(src);
        assert_ne!(code, 0, "{src}");
        assert!(err.contains(msg), "{src}: {err}");
    }
}

fn cram_rules(m: usize, n: usize) -> Rules {
    let adj = grid_adjacency(m, n, false);
    let mut moves = vec![];
    for (c, nb) in adj.iter().enumerate() {
        for &d in nb {
            moves.push(Move {
                need: vec![(vec![c, d], 1)],
                some: vec![],
                change: vec![(vec![c, d], 3, 1)],
                label: vec![c, d],
            });
        }
    }
    Rules {
        cells: m * n,
        states: 2,
        moves,
        ends: vec![],
        syms: vec![],
        swap: None,
        cols: Some(n),
    }
}

#[test]
fn positions_split_where_no_live_move_joins_them() {
    let g = BoardGame::new(cram_rules(1, 7)).unwrap();
    // . . # . # . .  : the lone empty cell can never be filled, the pairs are apart
    let p = [0, 0, 1, 0, 1, 0, 0];
    assert_eq!(g.components(&p).unwrap(), 2);
    assert_eq!(g.grundy(&p, &Ctl::default()).unwrap(), 0);
    assert_eq!(g.options(&p).unwrap().len(), 2);
    // both orders of a domino are one move
    assert_eq!(g.moves().len(), 6);
}

#[test]
fn the_search_stops_when_cancelled_and_keeps_its_memo_within_the_budget() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let g = BoardGame::new(cram_rules(4, 4)).unwrap();
    let err = g
        .grundy(&[0; 16], &Ctl::new(Arc::new(AtomicBool::new(true))))
        .unwrap_err();
    assert!(err.to_string().contains("cancel"), "{err}");
    // a table of two slots per shard, entries pushed out as new ones come: slower, same answer
    let small = BoardGame::new(cram_rules(3, 5)).unwrap();
    let tiny = small.grundy(&[0; 15], &Ctl::default().with_memory(1000));
    let big = BoardGame::new(cram_rules(3, 5)).unwrap();
    assert_eq!(
        tiny.unwrap(),
        big.grundy(&[0; 15], &Ctl::default()).unwrap()
    );
}

/// Heavy: `cargo test --release --test engine_board -- --ignored`.
#[test]
#[ignore]
fn cram_on_larger_boards_agrees_with_brute_force() {
    let boards = [(4, 5), (3, 7), (4, 6), (5, 5)];
    let mut src = RULES.to_string();
    for (m, n) in boards {
        src += &format!("grundy(cram(grid({m}, {n})))\n");
    }
    let got: Vec<u64> = values(&src).iter().map(|v| v.as_u64().unwrap()).collect();
    let want: Vec<u64> = boards
        .iter()
        .map(|&(m, n)| arc_kayles(&grid_adj(m, n)) as u64)
        .collect();
    assert_eq!(got, want);
}

/// Random rules on a random graph, built the same at every cell so that the graph's
/// symmetries are the rules' too: per rule, a cell `c` in state `a` (with, for a domino rule,
/// a neighbour in state `a` too) takes a later state `b`, and its neighbours in the states
/// `from` take the state `to` (every state of `from` before `to`).
fn random_rules(seed: &mut u64, adj: &[Vec<usize>], cols: Option<usize>) -> Rules {
    let mut rnd = |k: u64| {
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (*seed >> 33) % k
    };
    let states = 2 + rnd(3) as usize;
    let mut moves = vec![];
    for _ in 0..1 + rnd(2) {
        let a = rnd(states as u64 - 1) as u8;
        let b = a + 1 + rnd(states as u64 - 1 - a as u64) as u8;
        let to = 1 + rnd(states as u64 - 1) as u8;
        let from = (rnd(1 << to) as u8) & ((1 << to) - 1);
        let domino = rnd(2) == 0;
        for (c, nb) in adj.iter().enumerate() {
            let pairs: Vec<Vec<usize>> = if domino {
                nb.iter().map(|&d| vec![c, d]).collect()
            } else {
                vec![vec![c]]
            };
            for cells in pairs {
                let mut change = vec![(cells.clone(), 1 << a, b)];
                let others: Vec<usize> =
                    nb.iter().copied().filter(|d| !cells.contains(d)).collect();
                if from != 0 && !others.is_empty() {
                    change.push((others, from, to));
                }
                moves.push(Move {
                    need: vec![(cells.clone(), 1 << a)],
                    some: vec![],
                    change,
                    label: cells,
                });
            }
        }
    }
    Rules {
        cells: adj.len(),
        states,
        moves,
        ends: vec![],
        syms: gamut::engine::graph::automorphisms(adj, &Ctl::default())
            .unwrap()
            .into_iter()
            .map(gamut::engine::board::Sym::map)
            .collect(),
        swap: None,
        cols,
    }
}

/// The nimber of `p` by plain mex over the engine's options.
fn mex_value(g: &BoardGame, p: &[u8], memo: &mut HashMap<Vec<u8>, u32>) -> u32 {
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let mut seen: Vec<u32> = g
        .options(p)
        .unwrap()
        .into_iter()
        .map(|(_, q)| mex_value(g, &q, memo))
        .collect();
    seen.sort_unstable();
    let v = (0..).find(|k| !seen.contains(k)).unwrap();
    memo.insert(p.to_vec(), v);
    v
}

#[test]
fn outcomes_by_win_loss_search_agree_with_mex_on_random_boards_and_thread_counts() {
    let mut seed = 11;
    let mut values = std::collections::BTreeSet::new();
    let pools: Vec<rayon::ThreadPool> = [1, 3]
        .iter()
        .map(|&n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
        .collect();
    for i in 0..80 {
        let (adj, cols) = if i % 2 == 0 {
            let (m, n) = (1 + i / 2 % 3, 2 + i / 6 % 3);
            (grid_adj(m, n), Some(n))
        } else {
            (random_graph(&mut seed, 3 + i % 7).1, None)
        };
        let rules = || random_rules(&mut seed.clone(), &adj, cols);
        let brute = BoardGame::new(rules()).unwrap();
        let mut memo = HashMap::new();
        // the start and a few positions reached by random plays
        let mut p = vec![0u8; adj.len()];
        for step in 0..3 {
            let v = mex_value(&brute, &p, &mut memo);
            values.insert(v);
            for pool in &pools {
                // a fresh game each time: the outcome search must stand alone
                let g = BoardGame::new(rules()).unwrap();
                let ctl = Ctl::default();
                assert_eq!(
                    pool.install(|| g.loses(&p, &ctl)).unwrap(),
                    v == 0,
                    "{i} {p:?}"
                );
                assert_eq!(pool.install(|| g.grundy(&p, &ctl)).unwrap(), v, "{i} {p:?}");
                assert_eq!(pool.install(|| g.loses(&p, &ctl)).unwrap(), v == 0);
            }
            let opts = brute.options(&p).unwrap();
            if opts.is_empty() {
                break;
            }
            p = opts[(i + step) % opts.len()].1.clone();
        }
        random_rules(&mut seed, &adj, cols);
    }
    // the rules reach values past 0 and 1
    assert!(values.iter().any(|&v| v >= 3), "{values:?}");
}

/// Misère play by plain recursion over the engine's options: the mover loses when there are
/// moves and each leaves the opponent winning.
fn misere_loses(g: &BoardGame, p: &[u8], memo: &mut HashMap<Vec<u8>, bool>) -> bool {
    if let Some(&l) = memo.get(p) {
        return l;
    }
    let opts = g.options(p).unwrap();
    let l = !opts.is_empty() && opts.iter().all(|(_, q)| !misere_loses(g, q, memo));
    memo.insert(p.to_vec(), l);
    l
}

/// The whole-board misère search (keyed under the symmetries) against plain recursion, on
/// random rules on grids and random graphs, from the start and from positions on the way; and
/// through the language, against the generic search of sums (`+ kayles(0)` takes that path).
#[test]
fn misere_outcomes_agree_with_plain_recursion_on_random_boards() {
    let mut seed = 29;
    let mut seen = [0; 2];
    for i in 0..60 {
        let (adj, cols) = if i % 2 == 0 {
            let (m, n) = (1 + i / 2 % 3, 2 + i / 6 % 3);
            (grid_adj(m, n), Some(n))
        } else {
            (random_graph(&mut seed, 3 + i % 7).1, None)
        };
        let g = BoardGame::new(random_rules(&mut seed, &adj, cols)).unwrap();
        let mut memo = HashMap::new();
        let mut p = vec![0u8; adj.len()];
        for step in 0..3 {
            let want = misere_loses(&g, &p, &mut memo);
            seen[want as usize] += 1;
            assert_eq!(
                g.misere_loses(&p, &Ctl::default()).unwrap(),
                want,
                "{i} {p:?}"
            );
            let opts = g.options(&p).unwrap();
            if opts.is_empty() {
                break;
            }
            p = opts[(i + step) % opts.len()].1.clone();
        }
    }
    assert!(seen[0] > 10 && seen[1] > 10, "{seen:?}");
    for b in ["grid(3, 4)", "grid(2, 5)", "grid(3, 3)"] {
        let src = format!(
            "{RULES}\n[outcome(misere(G(b))) == outcome(misere(G(b) + kayles(0))) for G in [cram, nk, lonely, crowded]]"
        )
        .replace("(b)", &format!("({b})"));
        assert_eq!(
            values(&src)[0],
            serde_json::json!([true, true, true, true]),
            "{b}"
        );
    }
}
