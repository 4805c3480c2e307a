//! Fuzzing the engines through the command line: random small groups, heap codes and scripted
//! rulesets through every query, with tiny memory budgets so that limits are hit often. Every
//! run must end with exit 0, 1 or 2 and no panic. The default run is short; the long run
//! (docs/reliability.md) is
//! `GAMUT_FUZZ_SECONDS=1200 cargo test --release --test fuzz_engines -- --ignored --nocapture`.
mod common;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::process::{Command, Stdio};
use std::time::Duration;

fn perm_text(images: &[usize]) -> String {
    // images is a shuffle of 0..n: print it as cycles
    let n = images.len();
    let mut seen = vec![false; n];
    let mut out = String::new();
    for s in 0..n {
        if seen[s] || images[s] == s {
            continue;
        }
        let mut c = vec![];
        let mut x = s;
        while !seen[x] {
            seen[x] = true;
            c.push((x + 1).to_string());
            x = images[x];
        }
        out.push_str(&format!("({})", c.join(",")));
    }
    if out.is_empty() { "()".into() } else { out }
}

fn perm() -> impl Strategy<Value = String> {
    (2usize..9)
        .prop_flat_map(|n| Just((0..n).collect::<Vec<usize>>()).prop_shuffle())
        .prop_map(|v| perm_text(&v))
}

fn code() -> impl Strategy<Value = String> {
    let digit = prop::sample::select(vec!['0', '1', '2', '3', '4', '5', '6', '7', 'F', '!', '?']);
    (
        prop::sample::select(vec!["0.", "4.", "0.[", "", "4!.", "0.0"]),
        prop::collection::vec(digit, 0..5),
    )
        .prop_map(|(p, d)| {
            let mut s = format!("{p}{}", d.iter().collect::<String>());
            if p.ends_with('[') {
                s.push(']');
            }
            s
        })
}

fn ruleset() -> impl Strategy<Value = String> {
    (1i64..4, 0i64..3, any::<bool>()).prop_map(|(k, c, split)| {
        let mut s = format!("game r(n) {{\n  move n - k for k in 1..min(n, {k})\n");
        if split {
            s.push_str(&format!(
                "  move a, n - a - {c} for a in 1..n - {c} - 1 if a <= n - a - {c}\n"
            ));
        }
        s.push('}');
        s
    })
}

fn program() -> impl Strategy<Value = String> {
    let queries = prop::sample::select(vec![
        "order(G)",
        "diameter(G)",
        "distances(G)",
        "orbit(G, {1, 2})",
        "orbits(G, sets(2))",
        "word(G, g1)",
        "antipodes(G, 2)",
        "hamiltonian(G)",
        "grundy(H(N))",
        "grundy(H, 0..N)",
        "outcome(H(N) + H(N))",
        "period(H, to: N)",
        "options(H(N))",
        "grundy(r(N))",
        "outcome(r(N) + r(3))",
        "grundy(misere(r(N)))",
        "period(r, to: N)",
        "len(options(r(N)))",
        "eval_word(G, \"(g1 g2^-1)^N\")",
        "wythoff_table(N, N)",
        "grundy(moore(2, [N, 3, 1]))",
    ]);
    (
        prop::collection::vec(perm(), 1..3),
        code(),
        ruleset(),
        prop::collection::vec(queries, 1..4),
        prop::sample::select(vec![0i64, 1, 5, 40, 300, 5000, 100000]),
    )
        .prop_map(|(perms, code, rules, qs, n)| {
            let gens: Vec<String> = (0..perms.len()).map(|i| format!("g{}", i + 1)).collect();
            let mut s = String::new();
            for (g, p) in gens.iter().zip(&perms) {
                s.push_str(&format!("gen {g} = {p}\n"));
            }
            s.push_str(&format!("group G = <{}>\n", gens.join(", ")));
            s.push_str(&format!("let H = octal({code:?})\n{rules}\n"));
            for q in qs {
                s.push_str(&q.replace('N', &n.to_string()));
                s.push('\n');
            }
            s
        })
}

/// Runs one program with a tiny budget and a time limit; returns the exit code, stderr and
/// the peak resident memory sampled while it ran.
fn run(src: &str, memory: &str) -> (Option<i32>, String, u64) {
    // GAMUT_BIN lets a long run use a copy of the binary while the tree is rebuilt
    let bin = std::env::var("GAMUT_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_gamut").into());
    let mut child = Command::new(bin)
        .args(["--memory", memory, "--threads", "1", "-e", src])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    let mut peak = 0;
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            let _ = child.stderr.take().unwrap().read_to_string(&mut err);
            return (st.code(), err, peak);
        }
        peak = peak.max(common::peak_memory_of(child.id()));
        if t0.elapsed() > Duration::from_secs(20) {
            // too slow for a fuzz case: stop it with SIGINT; it must end promptly
            let _ = Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status();
            let st = child.wait().unwrap();
            return (
                st.code().map(|c| if c == 130 { 1 } else { c }),
                String::new(),
                peak,
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `cases` programs (or until `seconds` have passed); returns the exit codes seen.
fn check(cases: u32, seconds: u64) -> [usize; 3] {
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let budgets = [
        ("2M", 2u64 << 20),
        ("16M", 16 << 20),
        ("64M", 64 << 20),
        ("1G", 1 << 30),
    ];
    let counter = std::sync::atomic::AtomicUsize::new(0);
    let codes: std::sync::Mutex<[usize; 3]> = std::sync::Mutex::new([0; 3]);
    let t0 = std::time::Instant::now();
    runner
        .run(&program(), |src| {
            if t0.elapsed().as_secs() >= seconds {
                return Ok(());
            }
            let i = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let (budget, bytes) = budgets[i % budgets.len()];
            let (code, err, peak) = run(&src, budget);
            prop_assert!(
                matches!(code, Some(0..=2)),
                "exit {code:?} for\n{src}\n{err}"
            );
            // the budget is for what the engines hold; the process itself takes a few MB
            prop_assert!(
                peak <= bytes + (32 << 20),
                "{} MB under --memory {budget} for\n{src}",
                peak >> 20
            );
            prop_assert!(!err.contains("internal error"), "panic for\n{src}\n{err}");
            codes.lock().unwrap()[code.unwrap() as usize] += 1;
            Ok(())
        })
        .unwrap();
    *codes.lock().unwrap()
}

#[test]
fn engines_survive_random_inputs_with_tiny_budgets() {
    check(24, 600);
}

#[test]
#[ignore]
fn engines_long_run() {
    let cases = std::env::var("GAMUT_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let seconds = std::env::var("GAMUT_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1200);
    let t0 = std::time::Instant::now();
    let c = check(cases, seconds);
    println!(
        "engine fuzz: {} programs in {:.0} s: exit 0: {}, exit 1: {}, exit 2: {}; no panic, no other exit",
        c.iter().sum::<usize>(),
        t0.elapsed().as_secs_f64(),
        c[0],
        c[1],
        c[2]
    );
}
