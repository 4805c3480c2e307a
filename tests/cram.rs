//! Cram: the dedicated engine (`engine::cram`) against the generic board engine, published
//! values, and the board rules that are handed to it (and those that must not be).
mod common;
use common::{run_e, values};
use gamut::engine::Ctl;
use gamut::engine::board::{BoardGame, Move, Rules, grid_adjacency};
use gamut::engine::cram::Cram;

/// Cram on a grid by the generic board engine: a move fills two adjacent empty cells.
fn generic(rows: usize, cols: usize) -> BoardGame {
    let adj = grid_adjacency(rows, cols, false);
    let mut moves = vec![];
    for (c, near) in adj.iter().enumerate() {
        for &d in near.iter().filter(|&&d| d > c) {
            moves.push(Move {
                need: vec![(vec![c, d], 1)],
                some: vec![],
                change: vec![(vec![c, d], 3, 1)],
                label: vec![c, d],
            });
        }
    }
    let rules = Rules {
        cells: rows * cols,
        states: 2,
        moves,
        ends: vec![],
        syms: vec![],
        swap: None,
        cols: Some(cols),
    };
    BoardGame::new(rules).unwrap()
}

/// xorshift64: fixed seeds, so a failure repeats.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn states(empty: &[bool]) -> Vec<u8> {
    empty.iter().map(|&e| u8::from(!e)).collect()
}

/// Every board of up to 20 cells, empty and partly filled at random: the same nimbers and
/// outcomes as the generic engine.
#[test]
fn the_engine_agrees_with_the_generic_board_engine() {
    let ctl = Ctl::default();
    let mut rng = Rng(0xc4a3);
    for rows in 1..=5 {
        for cols in 1..=20 / rows {
            let (cram, generic) = (Cram::new(rows, cols).unwrap(), generic(rows, cols));
            let n = rows * cols;
            let mut boards = vec![vec![true; n]];
            for _ in 0..12 {
                // a third to two thirds of the cells filled
                let k = 1 + rng.next() % 2;
                boards.push((0..n).map(|_| rng.next() % 3 >= k).collect());
            }
            for b in boards {
                let want = generic.grundy(&states(&b), &ctl).unwrap();
                let got = cram.grundy(&b, &ctl).unwrap();
                assert_eq!(got, want, "{rows} x {cols}, empty {b:?}");
                assert_eq!(cram.loses(&b, &ctl).unwrap(), want == 0, "{rows} x {cols}");
            }
        }
    }
}

/// The same engine from a fresh memo and from one filled by other queries.
#[test]
fn answers_do_not_depend_on_what_the_memo_holds() {
    let ctl = Ctl::default();
    let (kept, generic) = (Cram::new(4, 5).unwrap(), generic(4, 5));
    let mut rng = Rng(0x5eed);
    for _ in 0..60 {
        let b: Vec<bool> = (0..20).map(|_| !rng.next().is_multiple_of(4)).collect();
        let want = generic.grundy(&states(&b), &ctl).unwrap();
        assert_eq!(kept.grundy(&b, &ctl).unwrap(), want);
        let fresh = Cram::new(4, 5).unwrap();
        assert_eq!(fresh.loses(&b, &ctl).unwrap(), want == 0);
        assert_eq!(fresh.grundy(&b, &ctl).unwrap(), want);
    }
    assert!(kept.kept_bytes() > 0);
    kept.forget();
    assert_eq!(kept.kept_bytes(), 0);
}

/// Nimbers of Cram on the m x n boards, from Beling, impartial-games README (Nov 2025), the
/// table "Cram (under the normal play convention)".
const BELING: &[(usize, usize, u32)] = &[
    (4, 4, 0),
    (4, 5, 2),
    (4, 6, 0),
    (4, 7, 3),
    (4, 8, 0),
    (4, 9, 1),
    (5, 5, 0),
    (5, 6, 2),
    (5, 7, 1),
    (6, 6, 0),
];

/// The same table's larger boards (seconds to minutes each).
const BELING_LARGE: &[(usize, usize, u32)] = &[(5, 8, 1), (4, 11, 1)];

fn check_published(table: &[(usize, usize, u32)]) {
    let ctl = Ctl::default();
    for &(m, n, g) in table {
        let c = Cram::new(m, n).unwrap();
        assert_eq!(c.grundy(&vec![true; m * n], &ctl).unwrap(), g, "{m} x {n}");
        // the board turned is the same game
        let c = Cram::new(n, m).unwrap();
        assert_eq!(
            c.loses(&vec![true; m * n], &ctl).unwrap(),
            g == 0,
            "{n} x {m}"
        );
    }
}

#[test]
fn published_nimbers_of_small_boards() {
    check_published(BELING);
}

#[test]
#[ignore = "minutes"]
fn published_nimbers_of_larger_boards() {
    check_published(BELING_LARGE);
}

/// Even by even boards need no search: the second player answers each move by its image under
/// the half turn. So does any component that turn keeps with no cell or domino its own image.
#[test]
fn the_symmetry_strategy_values_boards_without_search() {
    let ctl = Ctl::default();
    for (m, n) in [(6, 6), (4, 10), (8, 8), (2, 30)] {
        let c = Cram::new(m, n).unwrap();
        assert_eq!(c.grundy(&vec![true; m * n], &ctl).unwrap(), 0, "{m} x {n}");
        assert_eq!(c.kept_bytes(), 0, "{m} x {n} searched");
    }
    // 7 x 7 with its middle cell filled
    let c = Cram::new(7, 7).unwrap();
    let mut b = vec![true; 49];
    b[24] = false;
    assert_eq!(c.grundy(&b, &ctl).unwrap(), 0);
    assert_eq!(c.kept_bytes(), 0);
}

/// Boards past 64 cells are not the engine's; bad positions are errors.
#[test]
fn the_engine_refuses_what_it_cannot_take() {
    assert!(Cram::new(8, 9).is_err());
    assert!(Cram::new(0, 3).is_err());
    let c = Cram::new(2, 2).unwrap();
    assert!(c.grundy(&[true; 3], &Ctl::default()).is_err());
}

/// A cancelled search stops with the cancellation error.
#[test]
fn a_search_can_be_cancelled() {
    let ctl = Ctl::default();
    ctl.cancel_flag()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let c = Cram::new(5, 7).unwrap();
    let e = c.grundy(&[true; 35], &ctl).unwrap_err();
    assert_eq!(e.kind, gamut::engine::ErrorKind::Cancelled);
}

/// A memo cut short by a small budget gives the same answers.
#[test]
fn a_small_budget_slows_the_search_but_keeps_its_answers() {
    let ctl = Ctl::default().with_memory(64 << 10);
    let c = Cram::new(5, 5).unwrap();
    assert_eq!(c.grundy(&[true; 25], &ctl).unwrap(), 0);
    let c = Cram::new(4, 7).unwrap();
    assert_eq!(c.grundy(&[true; 28], &ctl).unwrap(), 3);
}

/// The nimber of a game whose moves, each (cells that must be empty, cells it fills), are
/// played from the empty cells `start`: plain memoised mex, for boards of up to 16 cells.
fn brute(moves: &[(u32, u32)], start: u32) -> u32 {
    fn go(p: u32, moves: &[(u32, u32)], memo: &mut std::collections::HashMap<u32, u32>) -> u32 {
        if let Some(&g) = memo.get(&p) {
            return g;
        }
        let mut seen = 0u64;
        for &(_, fill) in moves.iter().filter(|m| m.0 & p == m.0) {
            seen |= 1 << go(p & !fill, moves, memo);
        }
        let g = seen.trailing_ones();
        memo.insert(p, g);
        g
    }
    go(start, moves, &mut Default::default())
}

/// The cell (r, c) of a rows x cols grid as a bit, `None` off the board.
fn at(rows: usize, cols: usize, r: i64, c: i64) -> Option<u32> {
    ((0..rows as i64).contains(&r) && (0..cols as i64).contains(&c))
        .then(|| 1 << (r as usize * cols + c as usize))
}

/// Moves filling the pair (r, c), (r + dr, c + dc) wherever both are on the board.
fn pairs(rows: usize, cols: usize, steps: &[(i64, i64)]) -> Vec<(u32, u32)> {
    let mut out = vec![];
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            for &(dr, dc) in steps {
                if let (Some(a), Some(b)) = (at(rows, cols, r, c), at(rows, cols, r + dr, c + dc)) {
                    out.push((a | b, a | b));
                }
            }
        }
    }
    out
}

const ORTHOGONAL: [(i64, i64); 2] = [(0, 1), (1, 0)];

/// A gamut session's `:help` of a name after running `src`.
fn help_after(src: &str, name: &str) -> String {
    let mut it = gamut::lang::run::eval::Interp::new(Box::new(|_, _| {}));
    it.run_source("<test>", src).unwrap();
    gamut::lang::help::help(&it, name).unwrap_or_default()
}

const CRAM_ENGINE: &str = "valued by the Cram engine";

/// Cram written by its rules, in several ways, is handed to the Cram engine and keeps the
/// generic engine's values: empty boards, drawn starts, outcomes and sums.
#[test]
fn cram_by_rules_goes_to_the_cram_engine() {
    let ruleses = [
        "game cram on board {\n cells empty, filled\n move c, d to filled for c in empty, d in adjacent(c) if d is empty\n}",
        "game cram on board { move c, d to filled for c in empty, d in right(c) | down(c) if d is empty }",
        // a third state never asked about: walls drawn in the start
        "game cram on board {\n cells empty, filled, wall\n move c, d to filled for c in empty, d in adjacent(c) if d is empty\n}",
    ];
    let ctl = Ctl::default();
    for rules in ruleses {
        let src = format!(
            "{rules}\n[grundy(cram(grid(m, n))) for m in 1..4 for n in 1..5]\n\
             grundy(cram(grid(3, 4), \"f..f|....|.f..\"))\noutcome(cram(grid(4, 4)))\n\
             grundy(cram(grid(2, 3)) + kayles(4))"
        );
        let got = values(&src);
        let mut want = vec![];
        for m in 1..=4 {
            for n in 1..=5 {
                want.push(generic(m, n).grundy(&vec![0; m * n], &ctl).unwrap());
            }
        }
        assert_eq!(got[0], serde_json::json!(want), "{rules}");
        let drawn = [1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0];
        let g = generic(3, 4).grundy(&drawn, &ctl).unwrap();
        assert_eq!(got[1], serde_json::json!(g), "{rules}");
        assert_eq!(got[2], serde_json::json!("P"), "{rules}");
        // *1 + kayles(4) = *1 + *1
        assert_eq!(got[3], serde_json::json!(0), "{rules}");
        let help = help_after(&format!("{rules}\nlet p = cram(grid(3, 3))"), "cram");
        assert!(help.contains(CRAM_ENGINE), "{rules}\n{help}");
    }
}

/// Rules near Cram are not Cram: each keeps its own values, from the generic engine.
#[test]
fn near_cram_rules_are_not_handed_to_the_cram_engine() {
    // (rules, board rows, cols, the game's moves as (need, fill) cells)
    type Moves = fn(usize, usize) -> Vec<(u32, u32)>;
    let cases: [(&str, Moves); 5] = [
        // a diagonal neighbour too
        (
            "move c, d to filled for c in empty, d in adjacent(c) | right(down(c)) if d is empty",
            |r, c| pairs(r, c, &[(0, 1), (1, 0), (1, 1)]),
        ),
        // three cells in a line
        (
            "move c, d, e to filled for c in empty, d in right(c), e in right(d) if d is empty and e is empty\n move c, d, e to filled for c in empty, d in down(c), e in down(d) if d is empty and e is empty",
            |rows, cols| {
                let mut out = vec![];
                for r in 0..rows as i64 {
                    for c in 0..cols as i64 {
                        for (dr, dc) in ORTHOGONAL {
                            let cells = [0, 1, 2].map(|k| at(rows, cols, r + k * dr, c + k * dc));
                            if let [Some(a), Some(b), Some(d)] = cells {
                                out.push((a | b | d, a | b | d));
                            }
                        }
                    }
                }
                out
            },
        ),
        // a condition: the cell above c empty too (or off the board)
        (
            "move c, d to filled for c in empty, d in adjacent(c) if d is empty and up(c) is empty",
            |rows, cols| {
                let mut out = vec![];
                for r in 0..rows as i64 {
                    for c in 0..cols as i64 {
                        let a = at(rows, cols, r, c).unwrap();
                        let up = at(rows, cols, r - 1, c).unwrap_or(0);
                        for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                            if let Some(b) = at(rows, cols, r + dr, c + dc) {
                                out.push((a | b | up, a | b));
                            }
                        }
                    }
                }
                out
            },
        ),
        // horizontal dominoes only
        (
            "move c, d to filled for c in empty, d in right(c) if d is empty",
            |r, c| pairs(r, c, &[(0, 1)]),
        ),
        // one cell filled, beside an empty one
        (
            "move c to filled for c in empty, d in adjacent(c) if d is empty",
            |rows, cols| {
                pairs(rows, cols, &ORTHOGONAL)
                    .into_iter()
                    .flat_map(|(ab, _)| {
                        let low = ab & ab.wrapping_neg();
                        [(ab, low), (ab, ab ^ low)]
                    })
                    .collect()
            },
        ),
    ];
    for (rules, moves) in cases {
        let src = format!("game near on board {{\n {rules}\n}}");
        let mut differs = false;
        let mut want = vec![];
        for (m, n) in [(2, 3), (3, 3), (3, 4), (4, 4)] {
            let full = (1u32 << (m * n)) - 1;
            let g = brute(&moves(m, n), full);
            differs |= g != brute(&pairs(m, n, &ORTHOGONAL), full);
            want.push(g);
        }
        // the test could tell Cram's values from these
        assert!(differs, "{rules}");
        let got = values(&format!(
            "{src}\n[grundy(near(grid(2, 3))), grundy(near(grid(3, 3))), grundy(near(grid(3, 4))), grundy(near(grid(4, 4)))]"
        ));
        assert_eq!(got[0], serde_json::json!(want), "{rules}");
        let help = help_after(&format!("{src}\nlet p = near(grid(3, 3))"), "near");
        assert!(!help.contains(CRAM_ENGINE), "{rules}\n{help}");
        assert!(help.contains("generic board engine"), "{rules}\n{help}");
    }
    // Cram's own rules on a torus or a graph are not Cram on a grid
    let cram =
        "game cram on board { move c, d to filled for c in empty, d in adjacent(c) if d is empty }";
    let help = help_after(
        &format!("{cram}\nlet p = cram(torus(3, 4))\nlet q = cram(graph {{ a - b - c }})"),
        "cram",
    );
    assert!(!help.contains(CRAM_ENGINE), "{help}");
}

/// Boards past the engine's 64 cells stay with the generic engine.
#[test]
fn boards_past_64_cells_stay_generic() {
    let (code, out, err) = run_e(
        "game cram on board { move c, d to filled for c in empty, d in adjacent(c) if d is empty }\n\
         grundy(cram(grid(1, 70)))",
    );
    assert_eq!(code, 0, "{err}");
    // Cram on a row is Dawson's Kayles
    let want = values("grundy(dawsons_kayles(70))");
    assert_eq!(out.trim(), want[0].to_string());
    let help = help_after(
        "game cram on board { move c, d to filled for c in empty, d in adjacent(c) if d is empty }\nlet p = cram(grid(1, 70))",
        "cram",
    );
    assert!(help.contains("generic board engine"), "{help}");
}
