//! Board games by rules whose plays end though a cell can come back to a state it left
//! (docs/language.md section 5, "Every play must end"): Konane's jump empties two cells and
//! fills one, so play ends only because each jump takes a stone. Such rules are searched over
//! whole boards; the answers are checked against plain recursive searches written here, and a
//! rule that really loops is reported with its line of play, not searched forever.

mod common;
use common::{CancelOnProgress, Rng, run_e, run_e_with, values};
use gamut::engine::Ctl;
use gamut::engine::board::{BoardGame, Move, Rules};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

const DIRS: [(&str, i64, i64); 4] = [
    ("up", -1, 0),
    ("down", 1, 0),
    ("left", 0, -1),
    ("right", 0, 1),
];

/// Konane by its rules: Left's black stone jumps a white one next to it into the empty cell
/// beyond, in one of the four directions, and the white stone leaves the board; Right's white
/// stones jump black ones alike.
fn konane() -> String {
    let mut src = "game konane on board {\n    cells empty, black, white\n".to_string();
    for (side, me, them) in [("left", "black", "white"), ("right", "white", "black")] {
        for (d, _, _) in DIRS {
            src += &format!(
                "    {side} move c, d to empty, e to {me} for c in {me}, d in {d}(c), e in {d}(d) if d is {them} and e is empty\n"
            );
        }
    }
    src + "}\n"
}

/// The same jumps for one kind of peg, for both players (an impartial game).
fn pegs() -> String {
    let mut src = "game pegs on board {\n    cells empty, peg\n".to_string();
    for (d, _, _) in DIRS {
        src += &format!(
            "    move c, d to empty, e to peg for c in peg, d in {d}(c), e in {d}(d) if d is peg and e is empty\n"
        );
    }
    src + "}\n"
}

/// A board: its rows and columns, a state per cell (0 empty), row by row.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Board {
    rows: usize,
    cols: usize,
    cells: Vec<u8>,
}

impl Board {
    fn random(rows: usize, cols: usize, kinds: u8, rng: &mut Rng) -> Board {
        // about a third of the cells empty
        let cells = (0..rows * cols)
            .map(|_| match rng.below(3) {
                0 => 0,
                _ => 1 + rng.below(kinds as usize) as u8,
            })
            .collect();
        Board { rows, cols, cells }
    }

    /// As `show` draws a position: `.` empty, else the state's first letter.
    fn drawn(&self, letters: &[char]) -> String {
        self.cells
            .chunks(self.cols)
            .map(|r| r.iter().map(|&s| letters[s as usize]).collect::<String>())
            .collect::<Vec<_>>()
            .join("|")
    }

    /// The boards after a jump by a stone of state `me` over one of state `them`.
    fn jumps(&self, me: u8, them: u8) -> Vec<Board> {
        let mut out = vec![];
        let at = |r: i64, c: i64| {
            ((0..self.rows as i64).contains(&r) && (0..self.cols as i64).contains(&c))
                .then(|| r as usize * self.cols + c as usize)
        };
        for r in 0..self.rows as i64 {
            for c in 0..self.cols as i64 {
                for (_, dr, dc) in DIRS {
                    let (Some(a), Some(b), Some(e)) =
                        (at(r, c), at(r + dr, c + dc), at(r + 2 * dr, c + 2 * dc))
                    else {
                        continue;
                    };
                    if self.cells[a] == me && self.cells[b] == them && self.cells[e] == 0 {
                        let mut q = self.clone();
                        (q.cells[a], q.cells[b], q.cells[e]) = (0, 0, me);
                        out.push(q);
                    }
                }
            }
        }
        out
    }
}

/// Whether the player of stones `me` (1 black, Left; 2 white, Right), moving first, wins Konane.
fn wins(b: &Board, me: u8, memo: &mut HashMap<(Board, u8), bool>) -> bool {
    if let Some(&w) = memo.get(&(b.clone(), me)) {
        return w;
    }
    let w = b.jumps(me, 3 - me).iter().any(|q| !wins(q, 3 - me, memo));
    memo.insert((b.clone(), me), w);
    w
}

/// The outcome class of a Konane position, as gamut writes it.
fn outcome(b: &Board, memo: &mut HashMap<(Board, u8), bool>) -> &'static str {
    match (wins(b, 1, memo), wins(b, 2, memo)) {
        (true, true) => "N",
        (true, false) => "L",
        (false, true) => "R",
        (false, false) => "P",
    }
}

/// The nimber of a position of the peg game, and whether the player to move wins it under
/// misère play.
fn peg_values(b: &Board, memo: &mut HashMap<Board, (u32, bool)>) -> (u32, bool) {
    if let Some(&v) = memo.get(b) {
        return v;
    }
    let opts: Vec<(u32, bool)> = b.jumps(1, 1).iter().map(|q| peg_values(q, memo)).collect();
    let g = (0..).find(|g| opts.iter().all(|o| o.0 != *g)).unwrap();
    let misere = opts.is_empty() || opts.iter().any(|o| !o.1);
    memo.insert(b.clone(), (g, misere));
    (g, misere)
}

/// Random Konane positions on small boards: gamut's outcome class and the number of each
/// player's jumps agree with the plain search above.
#[test]
fn konane_by_rules_agrees_with_a_plain_search() {
    let mut rng = Rng(0x6b6f_6e61_6e65);
    let mut boards = vec![];
    for (rows, cols, n) in [(1, 6, 10), (2, 4, 15), (3, 3, 20), (3, 4, 20), (4, 4, 20)] {
        for _ in 0..n {
            boards.push(Board::random(rows, cols, 2, &mut rng));
        }
    }
    // the standard starts: a checkerboard less two adjacent stones
    boards.push(Board {
        rows: 4,
        cols: 4,
        cells: vec![1, 2, 1, 2, 2, 0, 0, 2, 1, 2, 1, 2, 2, 1, 2, 1],
    });
    boards.push(Board {
        rows: 3,
        cols: 4,
        cells: vec![0, 0, 1, 2, 2, 1, 2, 1, 1, 2, 1, 2],
    });
    let mut src = konane();
    for b in &boards {
        src += &format!(
            "let p = konane(grid({}, {}), \"{}\")\n[outcome(p), len(left_options(p)), len(right_options(p))]\n",
            b.rows,
            b.cols,
            b.drawn(&['.', 'b', 'w'])
        );
    }
    let got = values(&src);
    let mut memo = HashMap::new();
    let mut classes = HashMap::new();
    for (b, v) in boards.iter().zip(&got) {
        let want = outcome(b, &mut memo);
        *classes.entry(want).or_insert(0) += 1;
        let drawn = b.drawn(&['.', 'b', 'w']);
        assert_eq!(v[0], want, "{drawn}");
        assert_eq!(v[1], b.jumps(1, 2).len(), "Left's jumps in {drawn}");
        assert_eq!(v[2], b.jumps(2, 1).len(), "Right's jumps in {drawn}");
    }
    // the cases are not all of one class
    assert_eq!(classes.len(), 4, "{classes:?}");
}

/// The impartial game of the same jumps: nimbers, outcomes and misère outcomes agree with the
/// plain search above.
#[test]
fn the_impartial_jumping_game_agrees_with_a_plain_search() {
    let mut rng = Rng(0x7065_6773);
    let mut boards = vec![];
    for (rows, cols) in [(1, 7), (2, 4), (3, 3), (3, 4), (4, 4)] {
        for _ in 0..12 {
            boards.push(Board::random(rows, cols, 1, &mut rng));
        }
    }
    let mut src = pegs();
    for b in &boards {
        src += &format!(
            "let p = pegs(grid({}, {}), \"{}\")\n[grundy(p), outcome(p), outcome(misere(p))]\n",
            b.rows,
            b.cols,
            b.drawn(&['.', 'p'])
        );
    }
    let got = values(&src);
    let mut memo = HashMap::new();
    let mut nimbers = std::collections::HashSet::new();
    for (b, v) in boards.iter().zip(&got) {
        let (g, misere) = peg_values(b, &mut memo);
        nimbers.insert(g);
        let drawn = b.drawn(&['.', 'p']);
        assert_eq!(v[0], g, "{drawn}");
        assert_eq!(v[1], if g == 0 { "P" } else { "N" }, "{drawn}");
        assert_eq!(v[2], if misere { "N" } else { "P" }, "misère {drawn}");
    }
    assert!(nimbers.len() >= 3, "{nimbers:?}");
}

/// A stone that steps to either side comes back where it was: each search reports the loop
/// with its line of play drawn, and exits with code 1.
#[test]
fn a_rule_that_really_loops_is_reported_with_its_cycle() {
    let impartial = "game step on board {
        cells empty, stone
        move c to empty, d to stone for c in stone, d in adjacent(c) if d is empty
    }
    let p = step(grid(2, 3), \"s..|...\")\n";
    let partizan = "game step2 on board {
        cells empty, black, white
        left move c to empty, d to black for c in black, d in adjacent(c) if d is empty
        right move c to white for c in empty
    }
    let p = step2(grid(1, 3), \"b..\")\n";
    for (rules, query) in [
        (impartial, "grundy(p)"),
        (impartial, "outcome(p)"),
        (impartial, "outcome(misere(p))"),
        (impartial, "grundy(p + nim(2))"),
        (partizan, "value(p)"),
    ] {
        let (code, out, err) = run_e(&format!("{rules}{query}"));
        assert_eq!(code, 1, "{query}\n{out}{err}");
        assert!(
            err.contains("the game is loopy: a line of play of 2 moves comes back"),
            "{query}\n{err}"
        );
        // the line drawn as `show` draws positions: there and back
        let drawn = if rules == impartial {
            "s . .  ->  . s .  ->  s . ."
        } else {
            "b . .  ->  . b .  ->  b . ."
        };
        assert!(err.contains(drawn), "{query}\n{err}");
        assert!(err.contains("every play must end"), "{err}");
    }
}

/// The plain search keeps to the memory budget and stops when cancelled.
#[test]
fn the_plain_search_keeps_to_the_budget_and_can_be_cancelled() {
    let src = format!(
        "{}value(konane(grid(5, 5), \"bwbwb|wbwbw|bw..b|wbwbw|bwbwb\"))",
        konane()
    );
    let (code, out, err) = run_e_with(&["--memory", "8M"], &src);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("the board game's search needs about"), "{err}");

    let flag = Arc::new(AtomicBool::new(false));
    let mut it = gamut::lang::run::eval::Interp::new(Box::new(|_, _| {}));
    it.ctl = Ctl::new(flag.clone()).with_progress(Arc::new(CancelOnProgress(flag)));
    let e = it.run_source("<test>", &src).unwrap_err();
    assert_eq!(e.kind, gamut::lang::error::Kind::Cancelled, "{}", e.message);
}

/// Rules that pass the check of the compiled moves keep the fast search; Konane's do not, and
/// the engine values it all the same.
#[test]
fn only_rules_not_shown_to_end_take_the_plain_search() {
    // a row of three cells: jump a peg over its neighbour into the empty cell beyond
    let jump = |a: usize, b: usize, e: usize| Move {
        need: vec![(vec![a, b], 2), (vec![e], 1)],
        some: vec![],
        change: vec![(vec![a, b], 3, 0), (vec![e], 3, 1)],
        label: vec![a, b, e],
    };
    let rules = |moves| Rules {
        cells: 3,
        states: 2,
        moves,
        ends: vec![],
        syms: vec![],
        swap: None,
        cols: Some(3),
    };
    let pegs = BoardGame::new(rules(vec![jump(0, 1, 2), jump(2, 1, 0)])).unwrap();
    assert!(!pegs.is_monotone());
    let ctl = Ctl::default();
    assert_eq!(pegs.grundy(&[1, 1, 0], &ctl).unwrap(), 1);
    assert_eq!(pegs.grundy(&[1, 0, 1], &ctl).unwrap(), 0);
    assert!(!pegs.loses(&[0, 1, 1], &ctl).unwrap());
    let fill = Move {
        need: vec![(vec![0, 1], 1)],
        some: vec![],
        change: vec![(vec![0, 1], 3, 1)],
        label: vec![0, 1],
    };
    let cram = BoardGame::new(rules(vec![fill])).unwrap();
    assert!(cram.is_monotone());
    assert_eq!(cram.grundy(&[0, 0, 0], &ctl).unwrap(), 1);

    let src = format!("{}{}", konane(), "let p = konane(grid(1, 4), \"bw..\")\n1");
    assert_eq!(values(&src).len(), 1);
}
