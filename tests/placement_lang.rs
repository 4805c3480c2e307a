//! Placement games and Node-Kayles through the language: `moves`, `winning` and `options` on
//! grids, tori, graph boards and Node-Kayles, with one or several pieces, in sums, under misère
//! play and in JSON, against a brute-force solver written here.

mod common;
use common::{Rng, brute_numbers, gamut, values};
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};

/// A placement game by brute force: `att[p][s]` are the squares piece p on s attacks; a move
/// puts a piece on an empty square that no placed piece attacks.
struct Brute {
    att: Vec<Vec<Vec<usize>>>,
    /// how the language names a move of piece p on square s
    label: Box<dyn Fn(usize, usize) -> String>,
}

type Cells = Vec<Option<usize>>;

impl Brute {
    fn moves(&self, cells: &Cells) -> Vec<(usize, usize)> {
        let n = cells.len();
        let mut attacked = vec![false; n];
        for (s, c) in cells.iter().enumerate() {
            if let Some(p) = c {
                for &t in &self.att[*p][s] {
                    attacked[t] = true;
                }
            }
        }
        (0..n)
            .filter(|&s| cells[s].is_none() && !attacked[s])
            .flat_map(|s| (0..self.att.len()).map(move |p| (s, p)))
            .collect()
    }

    fn after(cells: &Cells, (s, p): (usize, usize)) -> Cells {
        let mut c = cells.clone();
        c[s] = Some(p);
        c
    }

    fn grundy(&self, cells: &Cells, memo: &mut HashMap<Cells, u32>) -> u32 {
        if let Some(&g) = memo.get(cells) {
            return g;
        }
        let seen: BTreeSet<u32> = self
            .moves(cells)
            .into_iter()
            .map(|m| self.grundy(&Self::after(cells, m), memo))
            .collect();
        let g = (0..).find(|g| !seen.contains(g)).unwrap();
        memo.insert(cells.clone(), g);
        g
    }

    /// Does the player to move win under misère play (the player who cannot move wins)?
    fn misere_wins(&self, cells: &Cells, memo: &mut HashMap<Cells, bool>) -> bool {
        if let Some(&w) = memo.get(cells) {
            return w;
        }
        let moves = self.moves(cells);
        let w = moves.is_empty()
            || moves
                .into_iter()
                .any(|m| !self.misere_wins(&Self::after(cells, m), memo));
        memo.insert(cells.clone(), w);
        w
    }

    /// Checks `moves`, `winning` and `options` of the position `pos` (a language expression)
    /// whose cells are `cells`, under both play conventions.
    fn check(&self, pos: &str, cells: &Cells) {
        let v = values(&format!(
            "let p = {pos}\nmoves(p)\nwinning(p)\noptions(p)\nmoves(misere(p))\nwinning(misere(p))\ngrundy(p + nim(2))"
        ));
        let moves = self.moves(cells);
        let (mut g, mut m) = (HashMap::new(), HashMap::new());
        let mut want_moves = serde_json::Map::new();
        let mut want_misere = serde_json::Map::new();
        let (mut want_win, mut want_mwin) = (BTreeSet::new(), BTreeSet::new());
        for &(s, p) in &moves {
            let (name, next) = ((self.label)(s, p), Self::after(cells, (s, p)));
            let value = self.grundy(&next, &mut g);
            let p_pos = !self.misere_wins(&next, &mut m);
            want_moves.insert(name.clone(), json!(value));
            want_misere.insert(name.clone(), json!(if p_pos { "P" } else { "N" }));
            if value == 0 {
                want_win.insert(name.clone());
            }
            if p_pos {
                want_mwin.insert(name);
            }
        }
        let set = |v: &Value| -> BTreeSet<String> {
            let items = v.as_array().unwrap();
            let out: BTreeSet<String> = items.iter().map(|x| x.as_str().unwrap().into()).collect();
            assert_eq!(out.len(), items.len(), "{pos}: repeated moves in {v}");
            out
        };
        assert_eq!(v[0], Value::Object(want_moves), "moves({pos})");
        assert_eq!(set(&v[1]), want_win, "winning({pos})");
        assert_eq!(
            v[2].as_array().unwrap().len(),
            moves.len(),
            "options({pos})"
        );
        assert_eq!(v[3], Value::Object(want_misere), "moves(misere({pos}))");
        assert_eq!(set(&v[4]), want_mwin, "winning(misere({pos}))");
        assert_eq!(
            v[5],
            json!(self.grundy(cells, &mut g) ^ 2),
            "{pos} + nim(2)"
        );
    }

    /// Checks the start, an option and an option of that (reached by `options(...)[0]`, the
    /// first move by square then piece).
    fn check_two_deep(&self, start: &str, n: usize) {
        let mut cells = vec![None; n];
        let mut pos = start.to_string();
        for _ in 0..3 {
            self.check(&pos, &cells);
            let Some(&first) = self.moves(&cells).first() else {
                return;
            };
            cells = Self::after(&cells, first);
            pos = format!("options({pos})[0]");
        }
    }
}

/// The squares a leaper with the given steps attacks from each square of a grid or torus.
fn leaper_attacks(rows: usize, cols: usize, torus: bool, steps: &[(i64, i64)]) -> Vec<Vec<usize>> {
    let (r, c) = (rows as i64, cols as i64);
    (0..rows * cols)
        .map(|s| {
            let (i, j) = ((s / cols) as i64, (s % cols) as i64);
            let mut out = BTreeSet::new();
            for &(a, b) in steps {
                for (x, y) in [(a, b), (b, a)] {
                    for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                        let (ti, tj) = (i + sx * x, j + sy * y);
                        let t = if torus {
                            Some((ti.rem_euclid(r) * c + tj.rem_euclid(c)) as usize)
                        } else if (0..r).contains(&ti) && (0..c).contains(&tj) {
                            Some((ti * c + tj) as usize)
                        } else {
                            None
                        };
                        if let Some(t) = t.filter(|&t| t != s) {
                            out.insert(t);
                        }
                    }
                }
            }
            out.into_iter().collect()
        })
        .collect()
}

fn board_brute(rows: usize, cols: usize, torus: bool, pieces: &[(&'static str, &[(i64, i64)])]) {
    let att = pieces
        .iter()
        .map(|(_, steps)| leaper_attacks(rows, cols, torus, steps))
        .collect();
    let names: Vec<&'static str> = pieces.iter().map(|p| p.0).collect();
    let brute = Brute {
        att,
        label: Box::new(move |s, p| {
            format!("{} on ({}, {})", names[p], s / cols + 1, s % cols + 1)
        }),
    };
    let board = if torus { "torus" } else { "grid" };
    let list: Vec<&str> = pieces.iter().map(|p| p.0).collect();
    let start = format!("placement({board}({rows}, {cols}), [{}])", list.join(", "));
    brute.check_two_deep(&start, rows * cols);
}

const KNIGHT: (&str, &[(i64, i64)]) = ("knight", &[(1, 2)]);
const KING: (&str, &[(i64, i64)]) = ("king", &[(0, 1), (1, 1)]);
const WAZIR: (&str, &[(i64, i64)]) = ("wazir", &[(0, 1)]);

#[test]
fn moves_winning_and_options_on_grids_and_tori() {
    for (rows, cols) in [(1, 1), (2, 3), (3, 3), (3, 4)] {
        for torus in [false, true] {
            board_brute(rows, cols, torus, &[KNIGHT]);
            board_brute(rows, cols, torus, &[KING]);
            // several pieces: a placed piece may attack an earlier one, so the squares of a
            // position are not a legal order of play
            board_brute(rows, cols, torus, &[KNIGHT, WAZIR]);
        }
    }
}

/// A graph board on vertices v0, v1, ... with each edge there with probability tenths/10: its
/// text and its adjacency lists.
fn random_graph(rng: &mut Rng, n: usize, tenths: usize) -> (String, Vec<Vec<usize>>) {
    let mut adj = vec![vec![]; n];
    let mut parts: Vec<String> = (0..n).map(|v| format!("v{v}")).collect();
    for a in 0..n {
        for b in a + 1..n {
            if rng.below(10) < tenths {
                adj[a].push(b);
                adj[b].push(a);
                parts.push(format!("v{a} - v{b}"));
            }
        }
    }
    (format!("graph {{ {} }}", parts.join(", ")), adj)
}

#[test]
fn moves_winning_and_options_on_graph_boards_and_node_kayles() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..40 {
        let n = 1 + rng.below(7);
        let (graph, adj) = random_graph(&mut rng, n, 4);
        let brute = Brute {
            att: vec![adj],
            label: Box::new(|s, _| format!("v{s}")),
        };
        // Node-Kayles, and the placement game on a graph board (whose pieces play no part)
        let game = if round % 2 == 0 {
            format!("node_kayles({graph})")
        } else {
            format!("placement({graph}, [knight, queen])")
        };
        brute.check_two_deep(&game, n);
    }
}

#[test]
fn node_kayles_moves_are_named_by_vertex_also_in_json_and_sums() {
    let json = |src: &str| {
        let out = gamut().args(["--json", "-e", src]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{src}");
        String::from_utf8(out.stdout).unwrap()
    };
    let g = "node_kayles(graph { a - b - c })";
    assert_eq!(
        json(&format!("moves({g})")),
        "{\"line\":1,\"value\":{\"a\":1,\"b\":0,\"c\":1}}\n"
    );
    assert_eq!(
        json(&format!("winning({g})")),
        "{\"line\":1,\"value\":[\"b\"]}\n"
    );
    assert_eq!(
        json(&format!("winning(misere({g}))")),
        "{\"line\":1,\"value\":[\"a\",\"c\"]}\n"
    );
    // in a sum an option is the whole position after the move
    let v = values(&format!(
        "options({g} + kayles(1))\nwinning({g} + nim(1))\nmoves(misere({g} + nim(1)))"
    ));
    let options: Vec<&str> = v[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap())
        .collect();
    assert!(options.contains(&"node_kayles(graph { a - b, b - c }) after b + kayles(1)"));
    assert!(options.contains(&"node_kayles(graph { a - b, b - c })"));
    // *2 + *1: the winning moves take an end of the path, leaving *1 + *1
    assert_eq!(
        v[1],
        json!([
            "node_kayles(graph { a - b, b - c }) after a + nim(1)",
            "node_kayles(graph { a - b, b - c }) after c + nim(1)"
        ])
    );
    assert_eq!(v[2].as_object().unwrap().len(), 4);
}

#[test]
fn graph_numbers_of_graph_boards_agree_with_brute_force() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..30 {
        let n = 1 + rng.below(12);
        let (g, adj) = random_graph(&mut rng, n, 3);
        let (gamma, i, alpha) = brute_numbers(&adj);
        let got = values(&format!(
            "domination_number({g})\nindependent_domination_number({g})\nindependence_number({g}, knight)"
        ));
        assert_eq!(got, [json!(gamma), json!(i), json!(alpha)], "{g}");
    }
}

#[test]
fn boards_of_512_cells_are_the_largest() {
    // Node-Kayles on a path is Dawson's chess (octal 0.137); 16 x 16 knights lose by the
    // point-reflection mirror
    let v = values(
        "grundy(placement(grid(1, 256), [wazir]))\ngrundy(octal(\"0.137\"), 256..256)\n\
         outcome(placement(grid(16, 16), [knight]))\nlen(options(placement(grid(16, 16), [queen])))",
    );
    assert_eq!(json!([v[0]]), v[1]);
    assert_eq!(v[2], json!("P"));
    assert_eq!(v[3], json!(256));
    // past 256 squares, sets of eight words: a king on 2 x n takes its column and the two
    // beside it, so kings on 2 x n and on 1 x n are Dawson's chess on n; 17 x 17 queens have
    // one option per square
    let v = values(
        "let o = octal(\"0.137\")\n\
         [grundy(placement(grid(2, n), [king])) for n in [129, 140]]\n\
         [grundy(placement(grid(n, 2), [king])) for n in [129, 140]]\n\
         [grundy(placement(grid(1, n), [king])) for n in [257, 270]]\n\
         [grundy(o(n)) for n in [129, 140]]\n[grundy(o(n)) for n in [257, 270]]\n\
         len(options(placement(grid(17, 17), [queen])))",
    );
    assert_eq!(v[0], v[3]);
    assert_eq!(v[1], v[3]);
    assert_eq!(v[2], v[4]);
    assert_eq!(v[5], json!(289));
    let (code, _, err) = common::run_e("grid(16, 33)");
    assert_eq!(code, 1);
    assert!(err.contains("1 to 512 cells"), "{err}");
    // games by rules keep to 256 cells, and say so
    let (code, _, err) =
        common::run_e("game pins on board { move c to filled for c in empty }\npins(grid(17, 17))");
    assert_eq!(code, 1);
    assert!(err.contains("at most 256 cells"), "{err}");
}

/// The whole-position misère searches keep to the memory budget and say which search stopped.
#[test]
fn misere_searches_keep_to_the_memory_budget() {
    let pins = "game pins on board {\n move c to filled for c in empty\n move c, d to filled for c in empty, d in adjacent(c) if d is empty\n}\noutcome(misere(pins(grid(8, 8))))";
    for (src, want) in [
        (
            "outcome(misere(placement(grid(9, 9), [knight])))",
            "the misère search passed its memory budget",
        ),
        (pins, "the misère search needs about"),
    ] {
        let (code, _, err) = common::run_e_with(&["--memory", "20M"], src);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(want), "{err}");
    }
}

/// The long searches of placement boards report progress (and so can be stopped): a
/// progress sink that cancels at the first report stops each of them.
#[test]
fn long_placement_searches_report_progress() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let flag = Arc::new(AtomicBool::new(false));
    let mut it = gamut::lang::run::eval::Interp::new(Box::new(|_, _| {}));
    it.ctl = gamut::engine::control::Ctl::new(flag.clone())
        .with_progress(Arc::new(common::CancelOnProgress(flag)));
    for q in [
        "outcome(misere(placement(grid(1, 300), [king])))",
        "grundy(placement(torus(17, 17), [king]))",
        "domination_number(grid(16, 16), knight)",
        "longest_play(placement(grid(9, 9), [knight], blocking: true))",
    ] {
        let e = it.run_source("<test>", q).unwrap_err();
        assert_eq!(e.kind, gamut::lang::error::Kind::Cancelled, "{q}");
        it.ctl.cancel_flag().store(false, Ordering::Relaxed);
    }
}
