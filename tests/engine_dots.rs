//! The Dots-and-Boxes engine against an independent retrograde reference (every subset of lines,
//! most lines first) and against G. P. Michon, "Mathematical Games (Two Players, No Chance)",
//! the Boxer's Puzzle of Sam Loyd and the 3 x 3 game (Michon, "Mathematical Games").
mod common;
use common::Rng;
use gamut::engine::Ctl;
use gamut::engine::dots::{Dots, Position, Solver, best_of};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// Box masks built from the dot names alone (not from the engine's tables).
fn boxes(b: &Dots) -> Vec<u64> {
    let name = |i: usize| {
        if i < 26 {
            (b'A' + i as u8) as char
        } else {
            (b'a' + (i - 26) as u8) as char
        }
    };
    let w = b.cols() + 1;
    let line = |x: usize, y: usize| b.line_by_name(&format!("{}{}", name(x), name(y))).unwrap();
    let mut out = Vec::new();
    for r in 0..b.rows() {
        for c in 0..b.cols() {
            let d = r * w + c;
            out.push(
                1u64 << line(d, d + 1)
                    | 1 << line(d + w, d + w + 1)
                    | 1 << line(d, d + w)
                    | 1 << line(d + 1, d + w + 1),
            );
        }
    }
    out
}

/// The retrograde reference: the value of every set of lines, most lines first.
fn retrograde(b: &Dots) -> Vec<i8> {
    let n = b.num_lines();
    assert!(n <= 31);
    let bx = boxes(b);
    let mut touch = vec![Vec::new(); n];
    for (i, &m) in bx.iter().enumerate() {
        for (l, t) in touch.iter_mut().enumerate() {
            if m >> l & 1 == 1 {
                t.push(bx[i]);
            }
        }
    }
    let full = (1u64 << n) - 1;
    let mut v = vec![0i8; 1 << n];
    for s in (0..full).rev() {
        let mut best = i32::MIN;
        let mut free = !s & full;
        while free != 0 {
            let l = free.trailing_zeros() as usize;
            free &= free - 1;
            let p = s | 1 << l;
            let k = touch[l].iter().filter(|&&m| p & m == m).count() as i32;
            let c = v[p as usize] as i32;
            best = best.max(if k > 0 { k + c } else { -c });
        }
        v[s as usize] = best as i8;
    }
    v
}

#[test]
fn every_position_of_every_board_up_to_20_lines() {
    let ctl = Ctl::default();
    for (m, n) in [
        (1, 1),
        (1, 2),
        (1, 3),
        (2, 2),
        (1, 4),
        (1, 5),
        (2, 3),
        (1, 6),
    ] {
        let b = Dots::new(m, n).unwrap();
        assert!(b.num_lines() <= 20);
        let reference = retrograde(&b);
        // a tiny table, so that replacement is exercised too
        let solver = Solver::with_table_bytes(&b, 1 << 16, &ctl).unwrap();
        for s in 0..reference.len() as u64 {
            let pos = b.position(s).unwrap();
            let v = solver.value(&pos, &ctl).unwrap();
            assert_eq!(
                v,
                reference[s as usize] as i32,
                "{m} x {n}, lines {}",
                b.lines_text(&pos)
            );
        }
    }
}

/// The value of position `s` equals the reference.
fn check_value(b: &Dots, solver: &Solver, s: u64, reference: &[i8], ctl: &Ctl) {
    let pos = b.position(s).unwrap();
    assert_eq!(
        solver.value(&pos, ctl).unwrap(),
        reference[s as usize] as i32,
        "{} x {}: {}",
        b.rows(),
        b.cols(),
        b.lines_text(&pos)
    );
}

/// Every move's value from position `s` equals its boxes plus (or minus, when the turn
/// passes) the reference value after it.
fn check_moves(b: &Dots, solver: &Solver, s: u64, reference: &[i8], ctl: &Ctl) {
    let pos = b.position(s).unwrap();
    for mv in solver.moves(&pos, ctl).unwrap() {
        let c = reference[(s | 1 << mv.line) as usize] as i32;
        let want = if mv.captures > 0 { mv.captures + c } else { -c };
        assert_eq!(
            mv.value,
            want,
            "{} + {}",
            b.lines_text(&pos),
            b.line_name(mv.line)
        );
    }
}

#[test]
fn moves_agree_with_the_reference_on_small_boards() {
    let ctl = Ctl::default();
    for (m, n, step) in [(1, 3, 1), (2, 2, 1), (1, 4, 3), (2, 3, 97)] {
        let b = Dots::new(m, n).unwrap();
        let reference = retrograde(&b);
        let solver = Solver::new(&b, &ctl).unwrap();
        let mut s = 0u64;
        while (s as usize) < reference.len() {
            check_moves(&b, &solver, s, &reference, &ctl);
            s += step;
        }
    }
}

#[test]
fn random_positions_of_the_3x3_board() {
    let ctl = Ctl::default();
    let b = Dots::new(3, 3).unwrap();
    let t = Instant::now();
    let reference = retrograde(&b);
    eprintln!("3 x 3 retrograde: {:?}", t.elapsed());
    assert_eq!(reference[0], -3);
    let solver = Solver::new(&b, &ctl).unwrap();
    let small = Solver::with_table_bytes(&b, 1 << 14, &ctl).unwrap();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for i in 0..1500 {
        // densities from sparse to nearly full
        let keep = rng.next() % 24;
        let mut s = 0u64;
        for l in 0..24 {
            if rng.next() % 24 < keep {
                s |= 1 << l;
            }
        }
        let which = if i % 3 == 0 && keep >= 12 {
            &small
        } else {
            &solver
        };
        check_value(&b, which, s, &reference, &ctl);
        if i % 10 == 0 {
            check_moves(&b, which, s, &reference, &ctl);
        }
    }
}

/// Positions where the mover can capture a box whose last side leads into a box with two free
/// sides (the choice between taking and the double-deal, which the search bounds below by 0
/// without searching), on 2 x 3, 2 x 4 and 3 x 3, with a small table, against the reference.
#[test]
fn capture_choices_agree_with_the_reference() {
    let ctl = Ctl::default();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for (m, n) in [(2, 3), (2, 4), (3, 3)] {
        let b = Dots::new(m, n).unwrap();
        let reference = retrograde(&b);
        let bx = boxes(&b);
        let solver = Solver::with_table_bytes(&b, 1 << 16, &ctl).unwrap();
        let nl = b.num_lines() as u64;
        let mut found = 0;
        while found < 600 {
            let keep = rng.next() % nl;
            let s = (0..nl).fold(0u64, |s, l| s | u64::from(rng.next() % nl < keep) << l);
            let free = |mask: u64| (mask & !s).count_ones();
            let choice = bx.iter().any(|&x| {
                free(x) == 1
                    && bx
                        .iter()
                        .any(|&y| y != x && x & y & !s != 0 && free(y) == 2)
            });
            if !choice {
                continue;
            }
            found += 1;
            check_value(&b, &solver, s, &reference, &ctl);
            if found % 10 == 0 {
                check_moves(&b, &solver, s, &reference, &ctl);
            }
        }
    }
}

/// The value of one position by plain memoised negamax over the positions reachable from it
/// (for boards too large for the retrograde table).
fn brute(bx: &[u64], full: u64, s: u64, memo: &mut std::collections::HashMap<u64, i8>) -> i32 {
    if s == full {
        return 0;
    }
    if let Some(&v) = memo.get(&s) {
        return v as i32;
    }
    let mut best = i32::MIN;
    let mut free = !s & full;
    while free != 0 {
        let l = free.trailing_zeros();
        free &= free - 1;
        let p = s | 1 << l;
        let k = bx
            .iter()
            .filter(|&&m| m >> l & 1 == 1 && p & m == m)
            .count() as i32;
        let c = brute(bx, full, p, memo);
        best = best.max(if k > 0 { k + c } else { -c });
    }
    memo.insert(s, best as i8);
    best
}

/// A random set of `drawn` of the board's lines.
fn random_lines(rng: &mut Rng, nlines: u32, drawn: u32) -> u64 {
    let mut s = 0u64;
    while s.count_ones() < drawn {
        s |= 1 << (rng.next() % nlines as u64);
    }
    s
}

/// Mid-game positions (10 lines drawn or more) of 3 x 3, 2 x 4 and 3 x 4 against the retrograde
/// reference or memoised negamax, on 1 and 2 threads, with a table large enough and a tiny one
/// (replacement): every pruning of the search (captures, chains, bounds, symmetries) is
/// exercised on positions rich in chains, junctions and loops.
#[test]
fn mid_game_positions_agree_with_the_reference() {
    let ctl = Ctl::default();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut rng = Rng(0x5851_F42D_4C95_7F2D + threads as u64);
            for (m, n) in [(3, 3), (2, 4)] {
                let b = Dots::new(m, n).unwrap();
                let reference = retrograde(&b);
                let nl = b.num_lines() as u32;
                let big = Solver::new(&b, &ctl).unwrap();
                let tiny = Solver::with_table_bytes(&b, 1 << 12, &ctl).unwrap();
                for i in 0..400 {
                    let s = random_lines(&mut rng, nl, 10 + (i % (nl - 10)));
                    let solver = if i % 2 == 0 { &big } else { &tiny };
                    check_value(&b, solver, s, &reference, &ctl);
                    if i % 8 == 0 {
                        check_moves(&b, solver, s, &reference, &ctl);
                    }
                }
            }
            let b = Dots::new(3, 4).unwrap();
            let bx = boxes(&b);
            let full = (1u64 << b.num_lines()) - 1;
            let big = Solver::new(&b, &ctl).unwrap();
            let tiny = Solver::with_table_bytes(&b, 1 << 12, &ctl).unwrap();
            for i in 0..24 {
                let s = random_lines(&mut rng, 31, 14 + i % 12);
                let mut memo = std::collections::HashMap::new();
                let want = brute(&bx, full, s, &mut memo);
                let pos = b.position(s).unwrap();
                for solver in [&big, &tiny] {
                    assert_eq!(
                        solver.value(&pos, &ctl).unwrap(),
                        want,
                        "3 x 4: {}",
                        b.lines_text(&pos)
                    );
                }
            }
        });
    }
}

/// Boards of 60 and 64 lines: a table entry keeps only the bits of the key that its bucket does
/// not give, so the smallest table grows with the lines (32 MB for 5 x 5, 512 MB for 1 x 21) and a
/// smaller budget is refused; late positions of 5 x 5 against memoised negamax.
#[test]
fn boards_with_long_keys() {
    let ctl = Ctl::default();
    let b = Dots::new(5, 5).unwrap();
    let solver = Solver::with_table_bytes(&b, 1 << 12, &ctl).unwrap();
    assert_eq!(solver.stats().table_bytes, 32 << 20);
    let bx = boxes(&b);
    let full = (1u64 << b.num_lines()) - 1;
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for i in 0..12 {
        let s = random_lines(&mut rng, 60, 44 + i % 4);
        let want = brute(&bx, full, s, &mut std::collections::HashMap::new());
        let pos = b.position(s).unwrap();
        assert_eq!(
            solver.value(&pos, &ctl).unwrap(),
            want,
            "5 x 5: {}",
            b.lines_text(&pos)
        );
    }
    let small = Ctl::default().with_memory(16 << 20);
    let e = Solver::with_table_bytes(&b, 1 << 12, &small).err().unwrap();
    assert_eq!(e.kind, gamut::engine::ErrorKind::Memory);
    let e = Solver::new(&Dots::new(1, 21).unwrap(), &small)
        .err()
        .unwrap();
    assert_eq!(e.kind, gamut::engine::ErrorKind::Memory);
}

/// Positions with 22 free lines or more are searched in parallel: the values are the same on
/// 1, 2 and 3 threads, and equal to the reference.
#[test]
fn values_do_not_depend_on_the_thread_count() {
    let ctl = Ctl::default();
    let b = Dots::new(3, 3).unwrap();
    let reference = retrograde(&b);
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut positions: Vec<u64> = (0..24).map(|l| 1u64 << l).collect();
    positions.push(0);
    for _ in 0..20 {
        positions.push(1 << (rng.next() % 24) | 1 << (rng.next() % 24));
    }
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let solver = Solver::new(&b, &ctl).unwrap();
            for &s in &positions {
                check_value(&b, &solver, s, &reference, &ctl);
            }
        });
    }
}

/// Michon: "The above 3 by 3 game ... turns out to be a win for the second player who can always
/// capture at least 6 boxes and leave only 3 for the first player. (The first player's opening
/// move turns out to be irrelevant to the final score in perfect play.)"
#[test]
fn michon_empty_3x3_second_player_wins_by_3() {
    let ctl = Ctl::default();
    let b = Dots::new(3, 3).unwrap();
    let e = b.empty();
    assert_eq!(b.value(&e, &ctl).unwrap(), -3);
    let mv = b.moves(&e, &ctl).unwrap();
    assert_eq!(mv.len(), 24);
    assert!(mv.iter().all(|m| m.value == -3 && m.captures == 0));
    assert!(b.winning(&e, &ctl).unwrap().is_empty());
}

const BOXER: &str = "AB BC CD FG KL NO OP AE EI FJ IM JN";

/// Michon, Sam Loyd's Boxer's Puzzle: "By playing GH, the first player will end up owning 7 boxes
/// and leave only 2 boxes to the opponent."
#[test]
fn michon_boxers_puzzle_gh_wins_7_to_2() {
    let ctl = Ctl::default();
    let b = Dots::new(3, 3).unwrap();
    let pos = b.parse_lines(BOXER).unwrap();
    assert_eq!(b.boxes_left(&pos), 9);
    assert_eq!(
        b.show(&pos),
        "A---B---C---D\n|\nE   F---G   H\n|   |\nI   J   K---L\n|   |\nM   N---O---P\n"
    );
    assert_eq!(b.value(&pos, &ctl).unwrap(), 5); // 7 - 2
    let mv = b.moves(&pos, &ctl).unwrap();
    let names: Vec<String> = best_of(&mv).iter().map(|&l| b.line_name(l)).collect();
    assert_eq!(names, ["GH"]);
    assert_eq!(mv.len(), 12);
}

/// Michon's account of the other eleven moves: "MN, IJ, EF, BF and CG allow the opponent to
/// obtain 4 boxes on the next turn alone ... GK, JK, KO and LP allow the opponent to capture 3
/// boxes in the next turn ... DH or HL: ... her opponent could play the other and would capture
/// all 9 boxes". He counts the boxes given away at once, a bound; these are the values under
/// perfect play (net for the mover, of 9 boxes), checked against the retrograde reference.
#[test]
fn michon_boxers_puzzle_every_move() {
    let ctl = Ctl::default();
    let b = Dots::new(3, 3).unwrap();
    let pos = b.parse_lines(BOXER).unwrap();
    let reference = retrograde(&b);
    let mv = b.moves(&pos, &ctl).unwrap();
    let mut got = Vec::new();
    for m in &mv {
        let p = pos.lines | 1 << m.line;
        assert_eq!(m.captures, 0);
        assert_eq!(m.value, -(reference[p as usize] as i32));
        got.push((b.line_name(m.line), m.value));
    }
    got.sort();
    // under perfect play every move but GH loses all nine boxes
    let want: Vec<(String, i32)> = [
        ("BF", -9),
        ("CG", -9),
        ("DH", -9),
        ("EF", -9),
        ("GH", 5),
        ("GK", -9),
        ("HL", -9),
        ("IJ", -9),
        ("JK", -9),
        ("KO", -9),
        ("LP", -9),
        ("MN", -9),
    ]
    .iter()
    .map(|&(n, v)| (n.to_string(), v))
    .collect();
    assert_eq!(got, want);
    // every value is at most what Michon's count of the boxes given away at once allows
    for (name, v) in &got {
        let given = match name.as_str() {
            "MN" | "IJ" | "EF" | "BF" | "CG" => 4,
            "GK" | "JK" | "KO" | "LP" => 3,
            "DH" | "HL" => 9,
            _ => 0,
        };
        // the mover can win at most the 9 - given boxes left after the opponent's capture
        assert!(*v <= (9 - given) - given, "{name}: {v}");
    }
}

#[test]
fn names_parsing_and_drawing() {
    let b = Dots::new(3, 3).unwrap();
    assert_eq!(b.num_lines(), 24);
    assert_eq!(b.num_symmetries(), 8);
    assert_eq!(Dots::new(2, 3).unwrap().num_symmetries(), 4);
    let p = b.parse_lines("AB, HG  EA").unwrap();
    assert_eq!(b.lines_text(&p), "AB AE GH");
    let e = b.parse_lines("AB AC").unwrap_err();
    assert!(
        e.message.contains("\"AC\"") && e.message.contains("not adjacent"),
        "{}",
        e.message
    );
    let e = b.parse_lines("AB AZ").unwrap_err();
    assert!(e.message.contains("no dot Z"), "{}", e.message);
    let e = b.parse_lines("AB BA").unwrap_err();
    assert!(
        e.message.contains("\"BA\"") && e.message.contains("twice"),
        "{}",
        e.message
    );
    assert!(Dots::new(5, 5).is_ok());
    assert!(Dots::new(5, 6).is_err());
    assert!(Dots::new(0, 3).is_err());
    let big = Dots::new(5, 5).unwrap();
    assert_eq!(big.line_name(big.num_lines() - 1), "ij"); // dots A..Z then a..j
    let p = b.parse_lines("AB AE BF EF FG").unwrap();
    assert_eq!(
        b.show(&p),
        "A---B   C   D\n| # |\nE---F---G   H\n\nI   J   K   L\n\nM   N   O   P\n"
    );
}

#[test]
fn small_empty_boards() {
    let ctl = Ctl::default();
    // values checked against the retrograde reference in the exhaustive test
    for (m, n, v) in [(1, 1, -1), (1, 2, 0), (2, 2, 2), (1, 3, -1), (2, 3, -2)] {
        let b = Dots::new(m, n).unwrap();
        assert_eq!(b.value(&b.empty(), &ctl).unwrap(), v, "{m} x {n}");
    }
}

#[test]
fn cancellation_stops_a_search() {
    let b = Dots::new(4, 4).unwrap();
    let ctl = Ctl::default().with_memory(1 << 30);
    ctl.cancel_flag()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let solver = Solver::with_table_bytes(&b, 1 << 20, &ctl).unwrap();
    let e = solver.value(&b.empty(), &ctl).unwrap_err();
    assert_eq!(e.kind, gamut::engine::ErrorKind::Cancelled);
    let _ = Position::default();
}

#[test]
fn memory_budget_is_respected() {
    let b = Dots::new(3, 3).unwrap();
    let ctl = Ctl::default().with_memory(1 << 20);
    let e = Solver::with_table_bytes(&b, 1 << 24, &ctl).err().unwrap();
    assert_eq!(e.kind, gamut::engine::ErrorKind::Memory);
    let s = Solver::new(&b, &ctl).unwrap();
    assert!(s.stats().table_bytes <= 1 << 19);
}

/// CPU seconds (user + system, all threads) of this process so far, from /proc/self/stat.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |x| x.1);
    let f: Vec<f64> = after
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    if f.len() > 13 {
        (f[11] + f[12]) / 100.0
    } else {
        0.0
    }
}

/// Values, times and node counts of empty boards: `cargo test --release --test engine_dots
/// -- --ignored --nocapture empty_boards`. Boards from the environment variable DOTS_BOARDS
/// ("3x4,4x4"), by default the small ones.
#[test]
#[ignore]
fn empty_boards_bench() {
    struct Print(Instant);
    impl gamut::engine::control::Progress for Print {
        fn begin(&self, label: &str, _: Option<u64>) {
            eprintln!(
                "[{:.1} s, cpu {:.1} s] {label}",
                self.0.elapsed().as_secs_f64(),
                cpu_seconds()
            );
        }
        fn advance(&self, done: u64) {
            eprintln!(
                "[{:.1} s, cpu {:.1} s] {done} root moves done",
                self.0.elapsed().as_secs_f64(),
                cpu_seconds()
            );
        }
        fn end(&self) {}
    }
    let mut ctl = Ctl::default();
    if std::env::var("DOTS_PROGRESS").is_ok() {
        ctl = ctl.with_progress(std::sync::Arc::new(Print(Instant::now())));
    }
    let list = std::env::var("DOTS_BOARDS")
        .unwrap_or_else(|_| "1x1,1x2,1x3,1x4,1x5,1x6,1x7,1x8,1x9,1x10,2x2,2x3,2x4,2x5,3x3".into());
    for spec in list.split(',') {
        let (m, n) = spec.split_once('x').unwrap();
        let (m, n): (usize, usize) = (m.trim().parse().unwrap(), n.trim().parse().unwrap());
        let b = Dots::new(m, n).unwrap();
        let t = Instant::now();
        let c = cpu_seconds();
        // DOTS_TABLE_MB: a table of another size than the default (at most 1 GB)
        let solver = match std::env::var("DOTS_TABLE_MB") {
            Ok(mb) => Solver::with_table_bytes(&b, mb.parse::<u64>().unwrap() << 20, &ctl),
            Err(_) => Solver::new(&b, &ctl),
        }
        .unwrap();
        // DOTS_TABLE_FILE: a run too long for one sitting starts from the table a stopped run
        // saved, and saves its own every DOTS_SAVE_MINUTES (default 10)
        let file = std::env::var("DOTS_TABLE_FILE")
            .ok()
            .map(std::path::PathBuf::from);
        assert!(
            file.is_none() || !list.contains(','),
            "DOTS_TABLE_FILE is the table of one board: give DOTS_BOARDS one board"
        );
        if let Some(f) = file.as_deref().filter(|f| f.exists()) {
            solver.load_table(f).unwrap();
            eprintln!(
                "[{:.1} s] table loaded from {}",
                t.elapsed().as_secs_f64(),
                f.display()
            );
        }
        let minutes: u64 = std::env::var("DOTS_SAVE_MINUTES").map_or(10, |m| m.parse().unwrap());
        let (done, wait) = std::sync::mpsc::channel::<()>();
        let v = std::thread::scope(|sc| {
            if let Some(f) = file.as_deref() {
                let solver = &solver;
                sc.spawn(move || {
                    while let Err(RecvTimeoutError::Timeout) =
                        wait.recv_timeout(Duration::from_secs(60 * minutes))
                    {
                        let s = Instant::now();
                        let used = solver.save_table(f).unwrap();
                        let st = solver.stats();
                        eprintln!(
                            "[{:.1} s, cpu {:.1} s] {} nodes; table saved to {} in {:.1} s, {:.1} % of its entries in use",
                            t.elapsed().as_secs_f64(),
                            cpu_seconds(),
                            st.nodes,
                            f.display(),
                            s.elapsed().as_secs_f64(),
                            100.0 * used as f64 / (st.table_bytes / 8) as f64
                        );
                    }
                });
            }
            let v = solver.value(&b.empty(), &ctl).unwrap();
            drop(done);
            v
        });
        let st = solver.stats();
        println!(
            "{m} x {n}: value {v:+}  time {:.3} s (cpu {:.2} s)  nodes {}  table {} MB",
            t.elapsed().as_secs_f64(),
            cpu_seconds() - c,
            st.nodes,
            st.table_bytes >> 20
        );
        if b.num_lines() <= 31 && std::env::var("DOTS_RETRO").is_ok() {
            let t = Instant::now();
            let c = cpu_seconds();
            let r = retrograde(&b);
            println!(
                "   retrograde: value {:+}  time {:.3} s (cpu {:.2} s)  table {} MB",
                r[0],
                t.elapsed().as_secs_f64(),
                cpu_seconds() - c,
                r.len() >> 20
            );
        }
    }
}

/// Prints the Boxer's Puzzle: the drawing and every move with its value (docs/dots-results.md).
#[test]
#[ignore]
fn boxers_puzzle_report() {
    let ctl = Ctl::default();
    let b = Dots::new(3, 3).unwrap();
    let pos = b.parse_lines(BOXER).unwrap();
    print!("{}", b.show(&pos));
    println!("value {:+}", b.value(&pos, &ctl).unwrap());
    for m in b.moves(&pos, &ctl).unwrap() {
        println!("{} {:+}", b.line_name(m.line), m.value);
    }
    let after = b.play(&pos, b.line_by_name("GH").unwrap()).unwrap();
    print!("after GH:\n{}", b.show(&after));
    for m in b.moves(&after, &ctl).unwrap() {
        println!("  opponent {} {:+}", b.line_name(m.line), m.value);
    }
}

/// A saved table reads back to the same answers; a file damaged on disk (a bit flipped in
/// every entry, or cut short) is refused and leaves the table empty, never a panic or a wrong
/// value.
#[test]
fn a_damaged_table_file_is_refused() {
    let b = Dots::new(2, 3).unwrap();
    let ctl = Ctl::default();
    let solver = Solver::with_table_bytes(&b, 1 << 16, &ctl).unwrap();
    let want = solver.value(&b.empty(), &ctl).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("table");
    assert!(solver.save_table(&path).unwrap() > 0);
    let again = Solver::with_table_bytes(&b, 1 << 16, &ctl).unwrap();
    again.load_table(&path).unwrap();
    assert_eq!(again.value(&b.empty(), &ctl).unwrap(), want);
    let good = std::fs::read(&path).unwrap();
    // the header is 16 + 3 * 8 bytes and the table's size 8 more; entries follow
    let start = 48;
    for bit in [0, 6, 12, 17, 22, 40, 63] {
        let mut bad = good.clone();
        let end = bad.len() - 8;
        for w in bad[start..end].chunks_exact_mut(8) {
            if w.iter().any(|&x| x != 0) {
                w[bit / 8] ^= 1 << (bit % 8);
            }
        }
        std::fs::write(&path, &bad).unwrap();
        let fresh = Solver::with_table_bytes(&b, 1 << 16, &ctl).unwrap();
        let e = fresh.load_table(&path).unwrap_err();
        assert!(e.to_string().contains("damaged"), "bit {bit}: {e}");
        assert_eq!(fresh.value(&b.empty(), &ctl).unwrap(), want, "bit {bit}");
    }
    std::fs::write(&path, &good[..good.len() - 5]).unwrap();
    let fresh = Solver::with_table_bytes(&b, 1 << 16, &ctl).unwrap();
    assert!(fresh.load_table(&path).is_err());
}
