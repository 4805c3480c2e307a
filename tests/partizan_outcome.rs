//! The outcome-only partizan search against the outcome of canonical values.
use gamut::engine::Ctl;
use gamut::engine::partizan::games::{Board, Clobber, Domineering, Stones};
use gamut::engine::partizan::outcome::{self, Small};
use gamut::engine::partizan::{Outcome, Rules, Store, value};
use std::collections::HashMap;
use std::time::Instant;

/// The outcome by canonical value and by the search (its own memo, so that nothing valued for
/// the first answer leaks into the second), for each size of the `small` test.
fn both<R: Rules<Error = gamut::engine::Error>>(
    rules: &mut R,
    store: &mut Store,
    values: &mut HashMap<R::Pos, gamut::engine::partizan::Game>,
    p: &R::Pos,
    small: &[&Small<R::Pos>],
) -> (Outcome, Vec<Outcome>) {
    let ctl = Ctl::default();
    let g = value(rules, store, values, p, &ctl).unwrap();
    let want = store.outcome(g).unwrap();
    let got = small
        .iter()
        .map(|s| outcome::outcome(rules, store, &mut HashMap::new(), p, *s, &ctl).unwrap())
        .collect();
    (want, got)
}

fn clobber(rows: usize, cols: usize, cells: &[u8]) -> Stones {
    let mut s = Stones {
        rows: rows as u8,
        cols: cols as u8,
        black: 0,
        white: 0,
    };
    for (i, &c) in cells.iter().enumerate() {
        match c {
            1 => s.black |= 1 << i,
            2 => s.white |= 1 << i,
            _ => {}
        }
    }
    s
}

/// Every filling of a `rows` × `cols` Clobber board; returns how many outcomes of each class.
fn every_clobber(rows: usize, cols: usize) -> [usize; 4] {
    let n = rows * cols;
    let mut store = Store::default();
    let mut values = HashMap::new();
    let none = |_: &Stones| false;
    let two = outcome::clobber_small(2);
    let mut classes = [0; 4];
    for code in 0..3usize.pow(n as u32) {
        let cells: Vec<u8> = (0..n)
            .map(|i| (code / 3usize.pow(i as u32) % 3) as u8)
            .collect();
        let s = clobber(rows, cols, &cells);
        let (want, got) = both(&mut Clobber, &mut store, &mut values, &s, &[&none, &two]);
        for g in got {
            assert_eq!(g, want, "Clobber {}", Clobber.describe(&s));
        }
        classes[want as usize] += 1;
    }
    classes
}

#[test]
fn clobber_rows_up_to_eight() {
    for n in 1..=8 {
        let classes = every_clobber(1, n);
        // the search must meet every class to be tested on it (a 1 × 1 board is all 0)
        if n >= 3 {
            assert!(classes.iter().all(|&c| c > 0), "1×{n}: {classes:?}");
        }
    }
}

#[test]
fn clobber_2x4_and_3x3() {
    every_clobber(2, 4);
    every_clobber(3, 3);
}

/// A small generator (xorshift), so that the boards are the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn dims(rng: &mut Rng) -> (usize, usize) {
    loop {
        let (r, c) = (1 + rng.next(6) as usize, 1 + rng.next(6) as usize);
        if r * c <= 12 && r * c >= 4 {
            return (r, c);
        }
    }
}

#[test]
fn random_clobber_boards() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut store = Store::default();
    let mut values = HashMap::new();
    let none = |_: &Stones| false;
    let four = outcome::clobber_small(4);
    let mut classes = [0; 4];
    for _ in 0..200 {
        let (r, c) = dims(&mut rng);
        // mostly stones, some holes
        let cells: Vec<u8> = (0..r * c)
            .map(|_| [1, 2, 1, 2, 1, 2, 0][rng.next(7) as usize])
            .collect();
        let s = clobber(r, c, &cells);
        let (want, got) = both(&mut Clobber, &mut store, &mut values, &s, &[&none, &four]);
        for g in got {
            assert_eq!(g, want, "Clobber {}", Clobber.describe(&s));
        }
        classes[want as usize] += 1;
    }
    assert!(classes.iter().all(|&c| c > 0), "{classes:?}");
}

#[test]
fn random_domineering_boards() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut store = Store::default();
    let mut values = HashMap::new();
    let none = |_: &Board| false;
    let four = outcome::domineering_small(4);
    let mut classes = [0; 4];
    for _ in 0..200 {
        let (r, c) = dims(&mut rng);
        let mut b = Board::full(r, c).unwrap();
        for i in 0..r * c {
            if rng.next(5) == 0 {
                b.bits &= !(1 << i);
            }
        }
        let (want, got) = both(
            &mut Domineering,
            &mut store,
            &mut values,
            &b,
            &[&none, &four],
        );
        for g in got {
            assert_eq!(g, want, "Domineering {}", Domineering.describe(&b));
        }
        classes[want as usize] += 1;
    }
    assert!(classes.iter().all(|&c| c > 0), "{classes:?}");
}

/// A cancelled search stops with the error, not an answer.
#[test]
fn cancellation_stops_the_search() {
    let ctl = Ctl::default();
    ctl.cancel_flag()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let s = Stones::parse("xoxoxo|oxoxox|xoxoxo").unwrap();
    let r = outcome::outcome(
        &mut Clobber,
        &mut Store::default(),
        &mut HashMap::new(),
        &s,
        &|_: &Stones| false,
        &ctl,
    );
    assert!(r.is_err());
}

/// The start positions of docs/benchmarks.md, "MCGS side by side", timed (printed, not
/// asserted): `cargo test --release --test partizan_outcome -- --ignored --nocapture`.
#[test]
#[ignore]
fn bench_mcgs_positions() {
    let filter = std::env::var("OUTCOME_CASE").unwrap_or_default();
    let checker = |r: usize, c: usize| {
        let rows: Vec<String> = (0..r)
            .map(|i| {
                (0..c)
                    .map(|j| if (i + j) % 2 == 0 { 'x' } else { 'o' })
                    .collect()
            })
            .collect();
        Stones::parse(&rows.join("|")).unwrap()
    };
    let ctl = Ctl::default();
    for (name, r, c) in [("clobber", 2, 9), ("clobber", 3, 6), ("domineering", 5, 6)] {
        let case = format!("{name}:{r}x{c}");
        if !case.contains(&filter) {
            continue;
        }
        let mut store = Store::new(&ctl);
        let t = Instant::now();
        let o = if name == "clobber" {
            let small = outcome::clobber_small(small_size(7));
            outcome::outcome(
                &mut Clobber,
                &mut store,
                &mut HashMap::new(),
                &checker(r, c),
                &small,
                &ctl,
            )
        } else {
            let small = outcome::domineering_small(small_size(8));
            let b = Board::full(r, c).unwrap();
            outcome::outcome(
                &mut Domineering,
                &mut store,
                &mut HashMap::new(),
                &b,
                &small,
                &ctl,
            )
        }
        .unwrap();
        println!("{case} {o:?} {:.3}s", t.elapsed().as_secs_f64());
    }
}

fn small_size(default: u32) -> u32 {
    std::env::var("OUTCOME_SMALL")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// What a search added to its memo and store must fit its budget: the answer, or an error
/// that names the budget. (The memo was not charged, and the store's budget grew with every
/// value it was asked for.)
#[test]
fn values_met_keep_to_the_budget() {
    let board = Stones::parse("xoxoxoxoxo|oxoxoxoxox").unwrap();
    let entry = (std::mem::size_of::<Stones>()
        + std::mem::size_of::<gamut::engine::partizan::Game>()
        + 16) as u64;
    for budget in [1u64 << 20, 4 << 20] {
        for small in [5, 8] {
            let ctl = Ctl::default().with_memory(budget);
            let mut store = Store::new(&ctl);
            let mut memo = HashMap::new();
            let r = outcome::outcome(
                &mut Clobber,
                &mut store,
                &mut memo,
                &board,
                &outcome::clobber_small(small),
                &ctl,
            );
            let used = memo.len() as u64 * entry + store.bytes();
            match r {
                Ok(o) => assert_eq!(o, Outcome::N),
                Err(e) => assert!(e.to_string().contains("memory"), "{e}"),
            }
            assert!(
                used <= budget + budget / 2,
                "{used} bytes for a budget of {budget}"
            );
        }
    }
}

/// The outcome search orders moves by the opponent's replies, counted by `mobility` without
/// generating them: the count must be the number of options.
#[test]
fn mobility_counts_the_options() {
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    for _ in 0..300 {
        let (r, c) = dims(&mut rng);
        let cells: Vec<u8> = (0..r * c).map(|_| rng.next(3) as u8).collect();
        let s = clobber(r, c, &cells);
        let mut b = Board::full(r, c).unwrap();
        b.bits = s.black | s.white;
        for left in [true, false] {
            let (cl, dom) = if left {
                (Clobber.left(&s).unwrap(), Domineering.left(&b).unwrap())
            } else {
                (Clobber.right(&s).unwrap(), Domineering.right(&b).unwrap())
            };
            let what = Clobber.describe(&s);
            assert_eq!(
                Clobber.mobility(&s, left) as usize,
                cl.len(),
                "Clobber {what}"
            );
            assert_eq!(
                Domineering.mobility(&b, left) as usize,
                dom.len(),
                "Domineering {what}"
            );
        }
    }
}

/// The checkerboard outcomes MCGS publishes (Folkersen, Müller and Du, the results page of
/// MCGS, "Clobber on a Grid"; 2 × n, 3 × n and 4 × n from Grossman's 2004 report and MCGS
/// itself): the outcome search must give each.
#[test]
fn clobber_checkerboards_match_mcgs_published_outcomes() {
    let checker = |r: usize, c: usize| {
        let rows: Vec<String> = (0..r)
            .map(|i| (0..c).map(|j| ['x', 'o'][(i + j) % 2]).collect())
            .collect();
        Stones::parse(&rows.join("|")).unwrap()
    };
    let table: [(usize, &str); 3] = [(2, "NPNNPNNPNNP"), (3, "NPNPN"), (4, "NN")];
    let ctl = Ctl::default();
    for (rows, outcomes) in table {
        for (k, want) in outcomes.chars().enumerate() {
            let cols = rows + k;
            let mut store = Store::new(&ctl);
            let small = outcome::clobber_small(7);
            let board = checker(rows, cols);
            let got = outcome::outcome(
                &mut Clobber,
                &mut store,
                &mut HashMap::new(),
                &board,
                &small,
                &ctl,
            )
            .unwrap();
            assert_eq!(
                format!("{got:?}"),
                want.to_string(),
                "Clobber {rows} x {cols}"
            );
        }
    }
}
