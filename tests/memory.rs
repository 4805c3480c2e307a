//! What a session keeps between queries is charged to its memory budget and given back, least
//! recently used first: a long run of small queries of every family does not grow.
//! (One test in its own binary, so that the process's memory is this test's alone.)
use gamut::lang::run::eval::Interp;

const BUDGET: u64 = 256 << 20;

/// The definitions, then about 2,000 queries of every family that keeps tables between
/// queries: the Game of Cycles (a board per tree), placement, rules over integers, board
/// rules (impartial and partizan), the native partizan games, heap games and the generic
/// search of sums, Dots-and-Boxes and partizan literals.
fn script(trees: u32) -> String {
    format!(
        r#"
game cut(m, n) {{
    left move (a, n), (m - a, n)  for a in 1..m-1
    right move (m, b), (m, n - b) for b in 1..n-1
}}
game take(n) {{ move n - k for k in 1..3 if k <= n }}
game cram on board {{
    cells empty, filled
    move c, d to filled for c in empty, d in adjacent(c) if d is empty
}}
game dom on board {{
    left move c, d to filled  for c in empty, d in down(c)  if d is empty
    right move c, d to filled for c in empty, d in right(c) if d is empty
}}
let pieces = [knight, king, queen, bishop, rook]
len([outcome(cycles(t)) for t in trees({trees})])
len([grundy(cycles(t, rule: "normal")) for t in trees({trees})])
len([grundy(placement(b(m, n), [p])) for b in [grid, torus] for m in 1..4 for n in 1..4 for p in pieces])
len([value(cut(m, n)) for m in 1..14 for n in 1..14])
len([grundy(take(n)) for n in 0..300])
len([grundy(cram(grid(m, n))) for m in 1..3 for n in 1..5])
len([value(dom(grid(m, n))) for m in 1..3 for n in 1..4])
len([value(domineering(m, n)) for m in 1..3 for n in 1..4])
len([grundy(kayles(n) + dawsons_kayles(n)) for n in 0..200])
len([value(dots(1, n)) for n in 1..4])
len([{{n | -n}} + {{n | *}} for n in 0..100])
"#
    )
}

fn status_kb(field: &str) -> u64 {
    let t = std::fs::read_to_string("/proc/self/status").unwrap();
    let l = t.lines().find(|l| l.starts_with(field)).unwrap();
    l.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn a_long_run_of_small_queries_of_every_family_keeps_to_the_budget() {
    if !std::path::Path::new("/proc/self/status").exists() {
        eprintln!("skipped: no /proc to read the process's memory from");
        return;
    }
    let mut it = Interp::new(Box::new(|_, _| {}));
    it.ctl = it.ctl.clone().with_memory(BUDGET);
    // 235 trees of 10 edges: every family once, the tables of each board kept
    it.run_source("<first>", &script(10)).unwrap();
    let after_first = status_kb("VmRSS:");
    // 1,301 trees of 12 edges, each a new board, twice: about 4,000 queries
    for _ in 0..2 {
        it.run_source("<again>", &script(12)).unwrap();
    }
    let after = status_kb("VmRSS:");
    let peak = status_kb("VmHWM:");
    assert!(
        it.ctl.kept() <= BUDGET / 2,
        "{} bytes kept between queries",
        it.ctl.kept()
    );
    // the old sessions kept every board's table: 2 MB a board, more than 5 GB here
    assert!(
        peak < 2 * (BUDGET >> 10),
        "peak {peak} KB under a budget of {} KB",
        BUDGET >> 10
    );
    assert!(
        after < after_first + (BUDGET >> 10) / 2,
        "resident memory grew from {after_first} KB to {after} KB"
    );
}
