//! The placement engine against a brute-force reference solver, the thesis' tables
//! (T. R. Boone, "Abstractions and Analyses of Grid Games", 2016: Figure 3.2.1 and
//! Appendix A.1), OEIS A344227 and A316632, and the board-graph theory of Appendix B.
mod common;
use common::brute_numbers;
use gamut::engine::Ctl;
use gamut::engine::graph::Graph;
use gamut::engine::placement::{
    Board, Outcome, Part, Piece, Placement, Tour, domination_number, independence_number,
    independent_domination_number, node_kayles, piece_graph, tour,
};
use std::collections::HashMap;
use std::time::Instant;

// ---------------------------------------------------------------------------------------------
// The brute-force reference: its own attack geometry, memoised mex over whole positions (the
// contents of every square), no decomposition, no symmetry.

struct Brute {
    rows: i64,
    cols: i64,
    torus: bool,
    /// per piece: (step, slides)
    pieces: Vec<Vec<((i64, i64), bool)>>,
    blocking: bool,
    memo: HashMap<Vec<u8>, u32>,
}

impl Brute {
    fn new(rows: usize, cols: usize, torus: bool, pieces: &[Piece], blocking: bool) -> Brute {
        let pieces = pieces
            .iter()
            .map(|p| {
                let mut steps = vec![];
                for part in p.parts() {
                    let (a, b, slides) = match *part {
                        Part::Leap(a, b) => (a as i64, b as i64, false),
                        Part::Ride(a, b) => (a as i64, b as i64, true),
                    };
                    for (x, y) in [
                        (a, b),
                        (b, a),
                        (-a, b),
                        (-b, a),
                        (a, -b),
                        (b, -a),
                        (-a, -b),
                        (-b, -a),
                    ] {
                        if !steps.contains(&((x, y), slides)) {
                            steps.push(((x, y), slides));
                        }
                    }
                }
                steps
            })
            .collect();
        Brute {
            rows: rows as i64,
            cols: cols as i64,
            torus,
            pieces,
            blocking,
            memo: HashMap::new(),
        }
    }

    fn norm(&self, r: i64, c: i64) -> Option<usize> {
        if self.torus {
            Some((r.rem_euclid(self.rows) * self.cols + c.rem_euclid(self.cols)) as usize)
        } else if r < 0 || c < 0 || r >= self.rows || c >= self.cols {
            None
        } else {
            Some((r * self.cols + c) as usize)
        }
    }

    /// Is square `t` attacked in `cells` (0 empty, p + 1 a piece)?
    #[allow(clippy::while_let_loop)]
    fn attacked(&self, cells: &[u8], t: usize) -> bool {
        let n = cells.len();
        for s in 0..n {
            if cells[s] == 0 {
                continue;
            }
            let (r, c) = (s as i64 / self.cols, s as i64 % self.cols);
            for &((dr, dc), slides) in &self.pieces[cells[s] as usize - 1] {
                let mut k = 1;
                loop {
                    let Some(u) = self.norm(r + k * dr, c + k * dc) else {
                        break;
                    };
                    if u == s || k > (self.rows * self.cols) {
                        break;
                    }
                    if u == t {
                        return true;
                    }
                    if !slides || (self.blocking && cells[u] != 0) {
                        break;
                    }
                    k += 1;
                }
            }
        }
        false
    }

    fn grundy(&mut self, cells: &mut Vec<u8>) -> u32 {
        if let Some(&v) = self.memo.get(cells) {
            return v;
        }
        let mut seen = vec![];
        for t in 0..cells.len() {
            if cells[t] != 0 || self.attacked(cells, t) {
                continue;
            }
            for p in 0..self.pieces.len() {
                cells[t] = p as u8 + 1;
                let v = self.grundy(cells);
                cells[t] = 0;
                seen.push(v);
            }
        }
        let mut g = 0;
        while seen.contains(&g) {
            g += 1;
        }
        self.memo.insert(cells.clone(), g);
        g
    }

    fn start(&mut self) -> u32 {
        let mut cells = vec![0; (self.rows * self.cols) as usize];
        self.grundy(&mut cells)
    }
}

/// Brute-force Node-Kayles on a graph given by adjacency lists: memo over chosen sets.
fn brute_kayles(adj: &[Vec<usize>], chosen: u64, memo: &mut HashMap<u64, u32>) -> u32 {
    if let Some(&v) = memo.get(&chosen) {
        return v;
    }
    let n = adj.len();
    let mut seen = vec![];
    for v in 0..n {
        let free = chosen >> v & 1 == 0 && adj[v].iter().all(|&u| chosen >> u & 1 == 0);
        if free {
            seen.push(brute_kayles(adj, chosen | 1 << v, memo));
        }
    }
    let mut g = 0;
    while seen.contains(&g) {
        g += 1;
    }
    memo.insert(chosen, g);
    g
}

// ---------------------------------------------------------------------------------------------

fn ctl() -> Ctl {
    Ctl::default()
}

fn piece_sets() -> Vec<(&'static str, Vec<Piece>)> {
    let (n, b, q, r, k) = (
        Piece::knight(),
        Piece::bishop(),
        Piece::queen(),
        Piece::rook(),
        Piece::king(),
    );
    vec![
        ("Knights", vec![n.clone()]),
        ("Bishops", vec![b.clone()]),
        ("Queens", vec![q.clone()]),
        ("Rooks", vec![r.clone()]),
        ("Kings", vec![k.clone()]),
        ("BishopsKnights", vec![b.clone(), n.clone()]),
        ("BishopsRooks", vec![b.clone(), r.clone()]),
        ("BishopsQueens", vec![b.clone(), q.clone()]),
        ("KingsKnights", vec![k.clone(), n.clone()]),
        ("KnightsQueens", vec![n.clone(), q.clone()]),
        ("QueensRooks", vec![q, r]),
    ]
}

fn grundy_grid(rows: usize, cols: usize, pieces: &[Piece], blocking: bool) -> u32 {
    let g = Placement::new(Board::Grid { rows, cols }, pieces.to_vec(), blocking).unwrap();
    g.grundy(&g.start(), &ctl()).unwrap()
}

#[test]
fn brute_force_agrees_up_to_4x4_every_piece_set_both_rules() {
    for (name, pieces) in piece_sets() {
        for blocking in [false, true] {
            for rows in 1..=4 {
                for cols in 1..=4 {
                    let want = Brute::new(rows, cols, false, &pieces, blocking).start();
                    let got = grundy_grid(rows, cols, &pieces, blocking);
                    assert_eq!(got, want, "{name} {rows}x{cols} blocking {blocking}");
                }
            }
        }
    }
}

#[test]
fn brute_force_agrees_on_tori_and_fairy_pieces() {
    let sets = vec![
        vec![Piece::knight()],
        vec![Piece::queen()],
        vec![Piece::leaper(0, 2) | Piece::rider(1, 1)],
        vec![Piece::leaper(1, 3), Piece::wazir()],
    ];
    for pieces in &sets {
        for blocking in [false, true] {
            for (rows, cols) in [(2, 3), (3, 3), (3, 4), (4, 4)] {
                let want = Brute::new(rows, cols, true, pieces, blocking).start();
                let g =
                    Placement::new(Board::Torus { rows, cols }, pieces.clone(), blocking).unwrap();
                let got = g.grundy(&g.start(), &ctl()).unwrap();
                assert_eq!(
                    got, want,
                    "torus {rows}x{cols} {pieces:?} blocking {blocking}"
                );
            }
        }
    }
}

#[test]
fn brute_force_agrees_below_the_start() {
    // every position one and two moves in, on boards up to 4x4, mixed pieces
    for (name, pieces) in piece_sets().into_iter().filter(|(n, _)| n.len() > 8) {
        for blocking in [false, true] {
            let g =
                Placement::new(Board::Grid { rows: 3, cols: 4 }, pieces.clone(), blocking).unwrap();
            let mut brute = Brute::new(3, 4, false, &pieces, blocking);
            for p1 in g.options(&g.start()) {
                for p2 in g.options(&p1).into_iter().chain([p1.clone()]) {
                    let mut cells: Vec<u8> = (0..12)
                        .map(|s| p2.piece_at(s).map_or(0, |p| p as u8 + 1))
                        .collect();
                    assert_eq!(
                        g.grundy(&p2, &ctl()).unwrap(),
                        brute.grundy(&mut cells),
                        "{name} {blocking}\n{}",
                        g.show(&p2)
                    );
                }
            }
        }
    }
}

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    /// The edges of a random graph on n vertices, each there with probability density/10.
    fn edges(&mut self, n: usize, density: u64) -> Vec<(usize, usize)> {
        let mut edges = vec![];
        for a in 0..n {
            for b in a + 1..n {
                if self.next() % 10 < density {
                    edges.push((a, b));
                }
            }
        }
        edges
    }
}

/// A random graph of 1 to `max` vertices (edge probability 0.1 to 0.6), with its edges.
fn random_graph(rng: &mut Lcg, max: u64) -> (Graph, Vec<(usize, usize)>) {
    let n = 1 + (rng.next() % max) as usize;
    let density = 1 + rng.next() % 6;
    let edges = rng.edges(n, density);
    let names = (0..n).map(|i| format!("v{i}")).collect();
    (Graph::new(names, &edges).unwrap(), edges)
}

#[test]
fn node_kayles_agrees_with_brute_force_on_random_graphs() {
    let mut rng = Lcg(12345);
    for round in 0..300 {
        let (graph, edges) = random_graph(&mut rng, 14);
        let game = node_kayles(&graph).unwrap();
        let want = brute_kayles(&graph.adjacency(), 0, &mut HashMap::new());
        let got = game.grundy(&game.start(), &ctl()).unwrap();
        assert_eq!(got, want, "round {round}: {edges:?}");
        // and one move in
        for opt in game.options(&game.start()).into_iter().take(3) {
            let chosen = opt.placed().iter().fold(0u64, |a, &(s, _)| a | 1 << s);
            let want = brute_kayles(&graph.adjacency(), chosen, &mut HashMap::new());
            assert_eq!(game.grundy(&opt, &ctl()).unwrap(), want);
        }
    }
}

#[test]
fn outcomes_by_win_loss_search_agree_with_brute_force() {
    // `outcome` runs its own search (a fresh game has no cached values to lean on)
    for (name, pieces) in piece_sets() {
        for (rows, cols) in [(1, 4), (2, 3), (3, 3), (3, 4), (4, 4)] {
            let want = Brute::new(rows, cols, false, &pieces, false).start();
            let g = Placement::new(Board::Grid { rows, cols }, pieces.clone(), false).unwrap();
            let got = g.outcome(&g.start(), &ctl()).unwrap();
            assert_eq!(got == Outcome::P, want == 0, "{name} {rows}x{cols}");
            // one move in, where the board splits into pieces of every size
            let mut brute = Brute::new(rows, cols, false, &pieces, false);
            for p in g.options(&g.start()) {
                let mut cells: Vec<u8> = (0..rows * cols)
                    .map(|s| p.piece_at(s).map_or(0, |x| x as u8 + 1))
                    .collect();
                let want = brute.grundy(&mut cells) == 0;
                let fresh = Placement::new(Board::Grid { rows, cols }, pieces.clone(), false);
                let got = fresh.unwrap().outcome(&p, &ctl()).unwrap() == Outcome::P;
                assert_eq!(got, want, "{name} {rows}x{cols}\n{}", g.show(&p));
            }
        }
    }
    let mut rng = Lcg(777);
    for round in 0..200 {
        let (graph, edges) = random_graph(&mut rng, 16);
        let game = node_kayles(&graph).unwrap();
        let want = brute_kayles(&graph.adjacency(), 0, &mut HashMap::new()) == 0;
        let got = game.outcome(&game.start(), &ctl()).unwrap() == Outcome::P;
        assert_eq!(got, want, "round {round}: {edges:?}");
    }
}

#[test]
fn values_do_not_depend_on_the_thread_count() {
    let run = |threads: usize| -> Vec<u32> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut out: Vec<u32> = (1..=9).map(queens).collect();
            out.extend((1..=12).map(|n| kayles_grid(3, n)));
            let g = Placement::new(
                Board::Grid { rows: 5, cols: 5 },
                vec![Piece::knight(), Piece::queen()],
                false,
            )
            .unwrap();
            out.push(g.grundy(&g.start(), &ctl()).unwrap());
            let q = Placement::new(
                Board::Grid { rows: 9, cols: 9 },
                vec![Piece::queen()],
                false,
            );
            let q = q.unwrap();
            out.push((q.outcome(&q.start(), &ctl()).unwrap() == Outcome::P) as u32);
            out
        })
    };
    let one = run(1);
    assert_eq!(one[..9], A344227[..9]);
    assert_eq!(one[9..21], A316632[..12]);
    assert_eq!(one[22], 0, "queens 9x9 is *1, a first-player win");
    assert_eq!(run(3), one);
}

/// Boards of 17 to 25 squares, past the engine's small-component mex, where the mirror rule
/// (a position symmetric under a half-turn or reflection that no move can spoil is 0) and the
/// table decide: random positions, searched with 1 and 3 threads, against the brute force.
#[test]
fn values_past_the_small_mex_agree_with_brute_force_on_1_and_3_threads() {
    let mut rng = Lcg(4242);
    // knights make the brute force slow at this size
    let sets: Vec<_> = piece_sets()
        .into_iter()
        .filter(|(n, _)| !n.contains("Knights"))
        .collect();
    for round in 0..24 {
        let (rows, cols) = [(5, 5), (4, 5), (3, 6), (6, 3), (3, 7), (4, 6)][round % 6];
        let (name, pieces) = &sets[rng.next() as usize % sets.len()];
        let mut brute = Brute::new(rows, cols, false, pieces, false);
        let g = Placement::new(Board::Grid { rows, cols }, pieces.clone(), false).unwrap();
        // the start, a move on the centre square or pair (symmetric), and a random line
        let n = rows * cols;
        let centre = (rows / 2) * cols + cols / 2;
        let mut positions = vec![g.start(), g.position(&[(centre, 0)]).unwrap()];
        if rows % 2 == 0 || cols % 2 == 0 {
            let twin = n - 1 - centre;
            if let Ok(p) = g.position(&[(centre, 0), (twin, 0)]) {
                positions.push(p);
            }
        }
        let mut p = g.start();
        for _ in 0..2 {
            let opts = g.options(&p);
            if opts.is_empty() {
                break;
            }
            p = opts[rng.next() as usize % opts.len()].clone();
            positions.push(p.clone());
        }
        for p in positions {
            let mut cells: Vec<u8> = (0..n)
                .map(|s| p.piece_at(s).map_or(0, |x| x as u8 + 1))
                .collect();
            let want = brute.grundy(&mut cells);
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                // a fresh game each time: nothing carried over in its table
                let fresh = Placement::new(Board::Grid { rows, cols }, pieces.clone(), false);
                let fresh = fresh.unwrap();
                let got = pool.install(|| fresh.grundy(&p, &ctl()).unwrap());
                assert_eq!(
                    got,
                    want,
                    "{name} {rows}x{cols}, {threads} threads\n{}",
                    g.show(&p)
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The thesis' tables: rows m = 1..6, columns n = 1..6; `-` marks a blank of the thesis.

fn parse(table: &str) -> Vec<Vec<Option<u32>>> {
    table
        .trim()
        .lines()
        .map(|l| l.split_whitespace().map(|x| x.parse().ok()).collect())
        .collect()
}

/// Asserts every printed entry, except the misprints listed as `(m, n, printed, correct)`:
/// there the engine must give `correct`, and so must the brute-force solver.
fn check_table(pieces: &[Piece], table: &str, name: &str, errata: &[(usize, usize, u32, u32)]) {
    for (m, row) in parse(table).iter().enumerate() {
        for (n, want) in row.iter().enumerate() {
            if let Some(want) = want {
                let (m, n) = (m + 1, n + 1);
                let got = grundy_grid(m, n, pieces, false);
                match errata.iter().find(|e| (e.0, e.1) == (m, n)) {
                    Some(&(_, _, printed, correct)) => {
                        assert_eq!(*want, printed);
                        assert_eq!(got, correct, "{name}: {m}x{n}");
                        let brute = Brute::new(m, n, false, pieces, false).start();
                        assert_eq!(brute, correct, "{name}: {m}x{n} (brute force)");
                    }
                    None => assert_eq!(got, *want, "{name}: {m}x{n}"),
                }
            }
        }
    }
}

#[test]
fn figure_3_2_1_knights_and_bishops() {
    let pairs = "
        1,1 0,0 1,1 0,0 1,1 0,0
        0,0 0,0 0,0 0,0 0,0 0,0
        1,1 0,0 1,2 0,0 4,1 0,0
        0,0 0,0 0,0 0,0 0,0 0,0
        1,1 0,0 4,1 0,0 1,1 0,0
        0,0 0,0 0,0 0,0 0,0 0,0";
    for (m, row) in pairs.trim().lines().enumerate() {
        for (n, pair) in row.split_whitespace().enumerate() {
            let (k, b) = pair.split_once(',').unwrap();
            let (k, b): (u32, u32) = (k.parse().unwrap(), b.parse().unwrap());
            assert_eq!(
                grundy_grid(m + 1, n + 1, &[Piece::knight()], false),
                k,
                "knights {}x{}",
                m + 1,
                n + 1
            );
            assert_eq!(
                grundy_grid(m + 1, n + 1, &[Piece::bishop()], false),
                b,
                "bishops {}x{}",
                m + 1,
                n + 1
            );
        }
    }
}

const QUEENS: &str = "
1 1 1 1 1 1
1 1 2 0 0 0
1 2 2 3 1 1
1 0 3 1 2 0
1 0 1 2 3 0
1 0 1 0 0 1";
const ROOKS: &str = "
1 1 1 1 1 1
1 0 0 0 0 0
1 0 1 1 1 1
1 0 1 0 0 0
1 0 1 0 1 1
1 0 1 0 1 0";
const KINGS: &str = "
1 1 2 0 3 1
1 1 2 0 3 1
2 2 1 0 3 2
0 0 0 0 0 0
3 3 3 0 4 3
1 1 2 0 3 1";
const BISHOPS_KNIGHTS: &str = "
1 0 1 0 1 0
0 0 0 0 0 0
1 0 3 0 1 -
0 0 0 0 - -
1 0 1 - - -
0 0 - - - -";
const BISHOPS_ROOKS: &str = "
1 2 1 2 1 2
2 0 0 0 0 0
1 0 2 3 2 1
2 0 3 3 0 -
1 0 2 0 - -
2 0 1 - - -";
const BISHOPS_QUEENS: &str = "
1 2 1 2 1 2
2 2 4 0 0 0
1 4 4 1 1 2
2 0 1 1 4 2
1 0 1 4 2 -
2 0 2 2 - -";
const KINGS_KNIGHTS: &str = "
1 2 3 0 1 2
2 2 3 0 1 1
3 3 1 0 2 -
0 0 0 0 - -
1 1 2 - - -
2 1 - - - -";
const KNIGHTS_QUEENS: &str = "
1 2 1 2 1 2
2 2 3 0 0 0
1 3 3 1 6 2
2 0 1 2 0 -
1 0 6 0 - -
2 0 2 - - -";
const QUEENS_ROOKS: &str = "
1 1 1 1 1 1
1 2 2 0 0 0
1 2 3 3 1 1
1 0 3 2 0 0
1 0 1 0 3 1
1 0 1 0 1 1";

#[test]
fn figure_a_1_1_queens() {
    check_table(&[Piece::queen()], QUEENS, "A.1.1 Queens", &[]);
}
#[test]
fn figure_a_1_2_rooks() {
    check_table(&[Piece::rook()], ROOKS, "A.1.2 Rooks", &[]);
}
#[test]
fn figure_a_1_3_kings() {
    check_table(&[Piece::king()], KINGS, "A.1.3 Kings", &[]);
}
#[test]
fn figure_a_1_4_bishops_knights() {
    check_table(
        &[Piece::bishop(), Piece::knight()],
        BISHOPS_KNIGHTS,
        "A.1.4 BishopsKnights",
        &[],
    );
}
#[test]
fn figure_a_1_5_bishops_rooks() {
    check_table(
        &[Piece::bishop(), Piece::rook()],
        BISHOPS_ROOKS,
        "A.1.5 BishopsRooks",
        &[],
    );
}
#[test]
fn figure_a_1_6_bishops_queens() {
    check_table(
        &[Piece::bishop(), Piece::queen()],
        BISHOPS_QUEENS,
        "A.1.6 BishopsQueens",
        &[
            (3, 5, 1, 2),
            (3, 6, 2, 1),
            (4, 5, 4, 2),
            (4, 6, 2, 0),
            (5, 3, 1, 2),
            (5, 4, 4, 2),
            (5, 5, 2, 1),
            (6, 3, 2, 1),
            (6, 4, 2, 0),
        ],
    );
}
/// How many printed entries of a figure differ from the engine under each rule:
/// (printed, differing from pass-through, differing from blocking).
fn mismatches(pieces: &[Piece], table: &str) -> (usize, usize, usize) {
    let mut counts = (0, 0, 0);
    for (m, row) in parse(table).iter().enumerate() {
        for (n, want) in row.iter().enumerate() {
            if let Some(want) = *want {
                counts.0 += 1;
                counts.1 += usize::from(grundy_grid(m + 1, n + 1, pieces, false) != want);
                counts.2 += usize::from(grundy_grid(m + 1, n + 1, pieces, true) != want);
            }
        }
    }
    counts
}

/// Figure A.1.6 alone was computed with blocking slides (an attack stops at the first piece):
/// all 33 printed entries are the blocking values, 9 of them differ from the pass-through rule
/// that Figures A.1.5 and A.1.8 (the other tables with sliders and a second piece) follow.
#[test]
fn figure_a_1_6_is_the_blocking_rule() {
    let (b, q, r, n) = (
        Piece::bishop(),
        Piece::queen(),
        Piece::rook(),
        Piece::knight(),
    );
    assert_eq!(
        mismatches(&[b.clone(), q.clone()], BISHOPS_QUEENS),
        (33, 9, 0)
    );
    assert_eq!(mismatches(&[b, r], BISHOPS_ROOKS), (30, 0, 5));
    assert_eq!(mismatches(&[n, q], KNIGHTS_QUEENS), (30, 0, 9));
}

#[test]
fn figure_a_1_7_kings_knights() {
    check_table(
        &[Piece::king(), Piece::knight()],
        KINGS_KNIGHTS,
        "A.1.7 KingsKnights",
        &[],
    );
}
#[test]
fn figure_a_1_8_knights_queens() {
    check_table(
        &[Piece::knight(), Piece::queen()],
        KNIGHTS_QUEENS,
        "A.1.8 KnightsQueens",
        &[],
    );
}
#[test]
fn figure_a_1_9_queens_rooks() {
    check_table(
        &[Piece::queen(), Piece::rook()],
        QUEENS_ROOKS,
        "A.1.9 QueensRooks",
        &[],
    );
}

// ---------------------------------------------------------------------------------------------
// Published sequences

const A344227: [u32; 13] = [1, 1, 2, 1, 3, 1, 2, 3, 1, 0, 1, 0, 1];
const A316632: [u32; 16] = [2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3];

fn queens(n: usize) -> u32 {
    grundy_grid(n, n, &[Piece::queen()], false)
}
fn kayles_grid(m: usize, n: usize) -> u32 {
    grundy_grid(m, n, &[Piece::wazir()], false)
}

#[test]
fn oeis_a344227_queens_up_to_8() {
    for n in 1..=8 {
        assert_eq!(queens(n), A344227[n - 1], "queens {n}x{n}");
    }
}

#[test]
#[ignore]
fn oeis_a344227_queens_9_to_13() {
    for n in 9..=13 {
        let t = Instant::now();
        let g = queens(n);
        println!("queens {n}x{n}: {g} in {:.1?}", t.elapsed());
        assert_eq!(g, A344227[n - 1], "queens {n}x{n}");
    }
}

/// a(14..16) past the OEIS entry, as found by T. Rudd's queens-nimbers (2026); a(17) = 2.
const RUDD_14_TO_16: [u32; 3] = [0, 1, 0];

#[test]
#[ignore]
fn queens_14_agrees_with_rudd() {
    // 15 and 16 take many minutes on 2 cores: `sh bench/placement-run.sh "queens 15"`
    let t = Instant::now();
    let g = queens(14);
    println!("queens 14x14: {g} in {:.1?}", t.elapsed());
    assert_eq!(g, RUDD_14_TO_16[0]);
}

#[test]
fn oeis_a316632_node_kayles_3xn_up_to_11() {
    for n in 1..=11 {
        assert_eq!(kayles_grid(3, n), A316632[n - 1], "3x{n}");
    }
}

#[test]
#[ignore]
fn oeis_a316632_node_kayles_3xn_12_to_16() {
    for n in 12..=16 {
        let t = Instant::now();
        let g = kayles_grid(3, n);
        println!("3x{n}: {g} in {:.1?}", t.elapsed());
        assert_eq!(g, A316632[n - 1], "3x{n}");
    }
}

// ---------------------------------------------------------------------------------------------
// Statements of the thesis

#[test]
fn theorem_2_2_2_knights_even_side_zero_both_odd_nonzero() {
    for m in 1..=6 {
        for n in 1..=6 {
            let g = grundy_grid(m, n, &[Piece::knight()], false);
            if m % 2 == 0 || n % 2 == 0 {
                assert_eq!(g, 0, "{m}x{n}");
            } else {
                assert_ne!(g, 0, "{m}x{n}");
            }
        }
    }
}

#[test]
fn theorem_3_2_2_knights_and_bishops_share_outcome() {
    for m in 1..=6 {
        for n in 1..=6 {
            let k = grundy_grid(m, n, &[Piece::knight()], false);
            let b = grundy_grid(m, n, &[Piece::bishop()], false);
            assert_eq!(k == 0, b == 0, "{m}x{n}: knights *{k}, bishops *{b}");
        }
    }
}

/// Every terminal set (maximal independent set of the knight graph) of an m x n board, by size.
fn terminal_set_sizes(m: usize, n: usize) -> Vec<usize> {
    let adj = piece_graph(&Board::Grid { rows: m, cols: n }, &Piece::knight()).unwrap();
    let cells = m * n;
    let closed: Vec<u64> = (0..cells)
        .map(|v| adj[v].iter().fold(1u64 << v, |a, &u| a | 1 << u))
        .collect();
    let mut sizes = vec![];
    // enumerate independent sets by recursion; keep the maximal ones
    fn rec(v: usize, chosen: u64, dead: u64, closed: &[u64], out: &mut Vec<usize>) {
        let cells = closed.len();
        if v == cells {
            let all = if cells == 64 {
                u64::MAX
            } else {
                (1u64 << cells) - 1
            };
            if dead == all {
                out.push(chosen.count_ones() as usize);
            }
            return;
        }
        if dead >> v & 1 == 0 {
            rec(v + 1, chosen | 1 << v, dead | closed[v], closed, out);
        }
        rec(v + 1, chosen, dead, closed, out);
    }
    rec(0, 0, 0, &closed, &mut sizes);
    sizes.sort();
    sizes.dedup();
    sizes
}

#[test]
fn proposition_2_2_3_terminal_set_parity_fails_on_3x3() {
    // Counter-example: the top row of 3 x 3 plus the centre is a terminal set of 4 knights.
    let g = Placement::new(
        Board::Grid { rows: 3, cols: 3 },
        vec![Piece::knight()],
        false,
    )
    .unwrap();
    let mut pos = g.start();
    for s in [0, 1, 2, 4] {
        pos = g
            .play(
                &pos,
                gamut::engine::placement::Move {
                    square: s,
                    piece: 0,
                },
            )
            .unwrap();
    }
    assert!(g.is_terminal(&pos));
    assert_eq!(pos.placed().len() % 2, 0); // while 3 * 3 is odd
    assert_eq!(terminal_set_sizes(3, 3), vec![4, 5]);
    // where it holds and where it fails, boards up to 20 squares
    let mut fails = vec![];
    for m in 1..=4 {
        for n in m..=5 {
            let bad = terminal_set_sizes(m, n)
                .into_iter()
                .any(|k| k % 2 != (m * n) % 2);
            if bad {
                fails.push((m, n));
            }
        }
    }
    assert_eq!(fails, vec![(2, 5), (3, 3), (3, 4), (3, 5), (4, 4), (4, 5)]);
}

// ---------------------------------------------------------------------------------------------
// Board graphs (Appendix B, section 1.3)

fn schwenk_has_tour(m: usize, n: usize) -> bool {
    let (m, n) = (m.min(n), m.max(n));
    !(m % 2 == 1 && n % 2 == 1 || m == 1 || m == 2 || m == 4 || m == 3 && [4, 6, 8].contains(&n))
}

#[test]
fn schwenk_theorem_for_all_boards_up_to_10() {
    for m in 1..=10 {
        for n in m..=10 {
            let t = tour(m, n, &Piece::knight(), &ctl()).unwrap();
            match &t {
                Tour::Closed(path) => {
                    assert!(schwenk_has_tour(m, n), "{m}x{n} toured");
                    assert_eq!(path.len(), m * n);
                    let adj =
                        piece_graph(&Board::Grid { rows: m, cols: n }, &Piece::knight()).unwrap();
                    let mut seen = path.clone();
                    seen.sort();
                    seen.dedup();
                    assert_eq!(seen.len(), m * n);
                    for i in 0..path.len() {
                        assert!(adj[path[i]].contains(&path[(i + 1) % path.len()]));
                    }
                }
                Tour::Impossible(why) => {
                    assert!(!schwenk_has_tour(m, n), "{m}x{n}: no tour ({why})")
                }
            }
        }
    }
}

#[test]
fn graph_numbers_of_small_boards() {
    let c = ctl();
    let knights = |m, n| piece_graph(&Board::Grid { rows: m, cols: n }, &Piece::knight()).unwrap();
    // shortest/longest plays agree with i and alpha for one piece
    for (m, n) in [(3, 3), (4, 4), (4, 5), (5, 5)] {
        let g = Placement::new(
            Board::Grid { rows: m, cols: n },
            vec![Piece::knight()],
            false,
        )
        .unwrap();
        let adj = knights(m, n);
        assert_eq!(
            g.shortest_play(&g.start(), &c).unwrap() as usize,
            independent_domination_number(&adj, &c).unwrap()
        );
        assert_eq!(
            g.longest_play(&g.start(), &c).unwrap() as usize,
            independence_number(&adj, &c).unwrap()
        );
    }
    // queens on (2, 4), (3, 4), (4, 4) dominate 5 x 7 (the domination bound was once too high)
    let queens = piece_graph(&Board::Grid { rows: 5, cols: 7 }, &Piece::queen()).unwrap();
    assert_eq!(domination_number(&queens, &c).unwrap(), 3);
}

type Number = fn(&[Vec<usize>], &Ctl) -> gamut::engine::Result<usize>;
const GAMMA: Number = domination_number;
const I: Number = independent_domination_number;
const ALPHA: Number = independence_number;

/// Asserts `f` of `piece` on the n x n grid (or torus) for n = 1, 2, ... against the terms of
/// the OEIS sequence `seq`.
fn check_oeis(seq: &str, f: Number, piece: &Piece, torus: bool, terms: &[usize]) {
    for (k, &want) in terms.iter().enumerate() {
        let n = k + 1;
        let board = if torus {
            Board::Torus { rows: n, cols: n }
        } else {
            Board::Grid { rows: n, cols: n }
        };
        let adj = piece_graph(&board, piece).unwrap();
        assert_eq!(f(&adj, &ctl()).unwrap(), want, "{seq}, {board}");
    }
}

#[test]
fn graph_numbers_of_square_boards_match_oeis() {
    let (n, q, k, r, b) = (
        Piece::knight(),
        Piece::queen(),
        Piece::king(),
        Piece::rook(),
        Piece::bishop(),
    );
    // knights: γ A006075 (Dudeney's 12 on 8 x 8), i A342576, α A030978 (offset 0, from n = 1)
    check_oeis(
        "A006075",
        GAMMA,
        &n,
        false,
        &[1, 4, 4, 4, 5, 8, 10, 12, 14, 16],
    );
    check_oeis("A342576", I, &n, false, &[1, 4, 4, 4, 5, 8, 13, 14, 14, 16]);
    let a030978 = [1, 4, 5, 8, 13, 18, 25, 32, 41, 50, 61, 72, 85, 98, 113];
    check_oeis("A030978", ALPHA, &n, false, &a030978);
    // queens: γ A075458, i A075324; α = n but for n = 2, 3 (A000170: n queens fit iff n != 2, 3)
    let a075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6];
    check_oeis("A075458", GAMMA, &q, false, &a075458);
    let a075324 = [1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5, 7, 7];
    check_oeis("A075324", I, &q, false, &a075324);
    let queens_fit = [1, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    check_oeis("A000170", ALPHA, &q, false, &queens_fit);
    // kings: γ A075561 = floor((n + 2)/3)^2, met by independent kings at block centres so i
    // too; α A008794(n + 1) = ceil(n/2)^2
    let a075561 = [1, 1, 1, 4, 4, 4, 9, 9, 9, 16, 16, 16, 25, 25, 25];
    check_oeis("A075561", GAMMA, &k, false, &a075561);
    check_oeis("A075561", I, &k, false, &a075561);
    let a008794 = [1, 1, 4, 4, 9, 9, 16, 16, 25, 25, 36, 36, 49, 49, 64];
    check_oeis("A008794", ALPHA, &k, false, &a008794);
    // rooks: n for γ, i and α (A000027)
    let a000027: Vec<usize> = (1..=15).collect();
    check_oeis("A000027", GAMMA, &r, false, &a000027[..7]);
    check_oeis("A000027", I, &r, false, &a000027[..9]);
    check_oeis("A000027", ALPHA, &r, false, &a000027);
    // bishops: γ = i = n (A182333 counts the minimum dominating sets of n bishops); α = 2n - 2
    // for n > 1 (A146304 places "up to 2n-2" non-attacking bishops)
    check_oeis("A182333", GAMMA, &b, false, &a000027[..9]);
    check_oeis("A182333", I, &b, false, &a000027[..10]);
    let bishops_fit: Vec<usize> = (1..=15).map(|n| (2 * n - 2).max(1)).collect();
    check_oeis("A146304", ALPHA, &b, false, &bishops_fit);
    // tori: knights γ A279407, queens γ A279402 and i A279404, kings α A189889
    check_oeis("A279407", GAMMA, &n, true, &[1, 2, 3, 4, 5, 6, 9, 8]);
    let a279402 = [1, 1, 1, 2, 3, 3, 4, 4, 5, 5, 5, 6];
    check_oeis("A279402", GAMMA, &q, true, &a279402);
    let a279404 = [1, 1, 1, 2, 5, 4, 5, 4, 5, 5, 5, 6];
    check_oeis("A279404", I, &q, true, &a279404);
    check_oeis(
        "A189889",
        ALPHA,
        &k,
        true,
        &[1, 1, 1, 4, 5, 9, 10, 16, 18, 25],
    );
}

/// The terms that take seconds each.
#[test]
#[ignore]
fn graph_numbers_of_larger_square_boards_match_oeis() {
    let t = Instant::now();
    let (n, q, r, b) = (
        Piece::knight(),
        Piece::queen(),
        Piece::rook(),
        Piece::bishop(),
    );
    let a342576 = [1, 4, 4, 4, 5, 8, 13, 14, 14, 16, 22, 24];
    check_oeis("A342576", I, &n, false, &a342576);
    let a075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7];
    check_oeis("A075458", GAMMA, &q, false, &a075458);
    check_oeis("A000027", GAMMA, &r, false, &[1, 2, 3, 4, 5, 6, 7, 8]);
    let n_up_to_11: Vec<usize> = (1..=11).collect();
    check_oeis("A182333", I, &b, false, &n_up_to_11);
    check_oeis("A279407", GAMMA, &n, true, &[1, 2, 3, 4, 5, 6, 9, 8, 12]);
    println!("in {:.1?}", t.elapsed());
}

#[test]
#[ignore]
fn knights_8x8_domination_is_12() {
    let c = ctl();
    let adj = piece_graph(&Board::Grid { rows: 8, cols: 8 }, &Piece::knight()).unwrap();
    let t = Instant::now();
    assert_eq!(domination_number(&adj, &c).unwrap(), 12);
    println!("gamma(knights 8x8) = 12 in {:.1?}", t.elapsed());
    let t = Instant::now();
    println!(
        "i(knights 8x8) = {} in {:.1?}",
        independent_domination_number(&adj, &c).unwrap(),
        t.elapsed()
    );
}

fn engine_numbers(adj: &[Vec<usize>]) -> (usize, usize, usize) {
    let c = ctl();
    (
        domination_number(adj, &c).unwrap(),
        independent_domination_number(adj, &c).unwrap(),
        independence_number(adj, &c).unwrap(),
    )
}

#[test]
fn graph_numbers_agree_with_brute_force_on_random_boards() {
    let pieces = [
        Piece::knight(),
        Piece::king(),
        Piece::queen(),
        Piece::rook(),
        Piece::bishop(),
        Piece::wazir(),
        Piece::leaper(1, 3),
        Piece::leaper(2, 2),
        Piece::rider(1, 2),
        Piece::leaper(0, 2) | Piece::rider(1, 1),
        Piece::knight() | Piece::bishop(),
    ];
    let mut rng = Lcg(2024);
    for round in 0..400 {
        let (rows, cols) = (1 + rng.next() as usize % 5, 1 + rng.next() as usize % 4);
        let torus = rng.next().is_multiple_of(2);
        let piece = &pieces[rng.next() as usize % pieces.len()];
        // the reference graph from the brute-force solver's own geometry
        let brute = Brute::new(rows, cols, torus, std::slice::from_ref(piece), false);
        let n = rows * cols;
        let adj: Vec<Vec<usize>> = (0..n)
            .map(|s| {
                let mut cells = vec![0; n];
                cells[s] = 1;
                (0..n).filter(|&t| brute.attacked(&cells, t)).collect()
            })
            .collect();
        let board = if torus {
            Board::Torus { rows, cols }
        } else {
            Board::Grid { rows, cols }
        };
        assert_eq!(
            engine_numbers(&piece_graph(&board, piece).unwrap()),
            brute_numbers(&adj),
            "round {round}: {piece:?} on {board}"
        );
    }
}

#[test]
fn graph_numbers_agree_with_brute_force_on_random_graphs() {
    let mut rng = Lcg(777);
    for round in 0..400 {
        let n = rng.next() as usize % 19;
        let density = 1 + rng.next() % 8;
        let edges = rng.edges(n, density);
        let names = (0..n).map(|i| format!("v{i}")).collect();
        let adj = Graph::new(names, &edges).unwrap().adjacency();
        assert_eq!(
            engine_numbers(&adj),
            brute_numbers(&adj),
            "round {round}: {edges:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// API behaviour

#[test]
fn api_show_moves_and_errors() {
    let c = ctl();
    let g = Placement::new(
        Board::Grid { rows: 3, cols: 3 },
        vec![Piece::knight(), Piece::bishop()],
        false,
    )
    .unwrap();
    let pos = g
        .play(
            &g.start(),
            gamut::engine::placement::Move {
                square: 4,
                piece: 1,
            },
        )
        .unwrap();
    assert_eq!(g.show(&pos), "x . x\n. B .\nx . x\n");
    assert_eq!(g.moves(&pos).len(), 8);
    assert!(
        g.play(
            &pos,
            gamut::engine::placement::Move {
                square: 0,
                piece: 0
            }
        )
        .is_err()
    );
    assert_eq!(format!("{}", Piece::queen()), "rider(0, 1) | rider(1, 1)");
    assert_eq!(format!("{}", Piece::knight()), "leaper(1, 2)");
    assert!(
        Placement::new(
            Board::Grid { rows: 16, cols: 33 },
            vec![Piece::knight()],
            false
        )
        .is_err()
    );
    assert!(
        Placement::new(
            Board::Grid { rows: 16, cols: 32 },
            vec![Piece::knight()],
            false
        )
        .is_ok()
    );
    assert!(
        Placement::new(
            Board::Grid { rows: 0, cols: 3 },
            vec![Piece::knight()],
            false
        )
        .is_err()
    );
    // winning moves lead to P-positions
    let k = Placement::new(
        Board::Grid { rows: 5, cols: 5 },
        vec![Piece::knight()],
        false,
    )
    .unwrap();
    for mv in k.winning_moves(&k.start(), &c).unwrap() {
        assert_eq!(k.grundy(&k.play(&k.start(), mv).unwrap(), &c).unwrap(), 0);
    }
    // cancellation
    let stop = Ctl::default();
    stop.cancel_flag()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let big = Placement::new(
        Board::Grid { rows: 12, cols: 12 },
        vec![Piece::queen()],
        false,
    )
    .unwrap();
    assert!(big.grundy(&big.start(), &stop).is_err());
}

// ---------------------------------------------------------------------------------------------
// Benchmarks (run with --ignored --nocapture)

#[test]
#[ignore]
fn bench_thesis_tables_6x6_vs_brute_force() {
    let t = Instant::now();
    let mut engine = vec![];
    for (_, pieces) in piece_sets() {
        for m in 1..=6 {
            for n in 1..=6 {
                engine.push(grundy_grid(m, n, &pieces, false));
            }
        }
    }
    let te = t.elapsed();
    println!("engine: all eleven piece sets, 1..6 x 1..6: {te:.2?}");
    let t = Instant::now();
    let mut brute = vec![];
    for (name, pieces) in piece_sets() {
        for m in 1..=6 {
            for n in 1..=6 {
                if m * n > 20 && pieces.len() > 1 || m * n > 25 {
                    brute.push(None);
                    continue;
                }
                let _ = name;
                brute.push(Some(Brute::new(m, n, false, &pieces, false).start()));
            }
        }
    }
    let tb = t.elapsed();
    for (e, b) in engine.iter().zip(&brute) {
        if let Some(b) = b {
            assert_eq!(e, b);
        }
    }
    println!(
        "brute force (boards of at most 20/25 squares): {tb:.2?}; ratio {:.0}",
        tb.as_secs_f64() / te.as_secs_f64()
    );
}

#[test]
#[ignore]
fn bench_tables_to_8x8() {
    for (name, pieces) in piece_sets() {
        println!("{name}");
        for m in 1..=8 {
            let mut line = String::new();
            for n in 1..=8 {
                let t = Instant::now();
                let g = grundy_grid(m, n, &pieces, false);
                line.push_str(&format!(" {g}({:.1}s)", t.elapsed().as_secs_f64()));
            }
            println!("{m}:{line}");
        }
    }
}
