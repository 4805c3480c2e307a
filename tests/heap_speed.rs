//! The fast heap engine against the plain mex, and the heavy runs behind the "Heap games"
//! benchmarks (`--ignored`).
use gamut::engine::Ctl;
use gamut::engine::heap::{self, Code};
use proptest::prelude::*;

fn check(text: &str, n: u64) {
    let code = Code::parse(text).unwrap();
    let ctl = Ctl::default();
    let fast = heap::values(&code, n, &ctl).unwrap();
    let naive = heap::naive_values(&code, n, &ctl).unwrap();
    if let Some(i) = (0..fast.len()).find(|&i| fast[i] != naive[i]) {
        panic!("{text}: heap {i}: fast {} naive {}", fast[i], naive[i]);
    }
}

#[test]
fn grundys_game_equals_naive_to_2_16() {
    check("4!.0", 1 << 16);
}

#[test]
fn grundys_game_does_not_depend_on_the_thread_count() {
    let code = Code::parse("4!.0").unwrap();
    let on = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| heap::values16(&code, 1 << 18, &Ctl::default()).unwrap())
    };
    assert!(on(1) == on(2) && on(2) == on(3));
}

#[test]
fn named_codes_equal_naive() {
    for text in [
        "0.77", "0.07", "0.137", "0.007", "0.16", "0.644", "0.106", "4.07", "0.6", "0.4", "4.0",
        "0.04", "0.14",
    ] {
        check(text, 3000);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn fast_equals_naive_on_random_codes(
        digits in prop::collection::vec(0u8..16, 1..6),
        unequal in any::<bool>(),
        d0 in prop::sample::select(vec![0u8, 4, 8, 12]),
    ) {
        let text = format!(
            "{:X}{}.{}",
            d0,
            if unequal { "!" } else { "" },
            digits.iter().map(|d| format!("{d:X}")).collect::<String>()
        );
        let code = Code::parse(&text).unwrap();
        let n = if code.digits.iter().any(|d| d & 8 != 0) { 150 } else { 1500 };
        let ctl = Ctl::default();
        prop_assert_eq!(heap::values(&code, n, &ctl).unwrap(), heap::naive_values(&code, n, &ctl).unwrap(), "{}", text);
    }
}

/// Fletcher-32 of the values as u16, as ogsolve prints it (to compare results with it).
fn checksum(g: &[u16]) -> u32 {
    let (mut a, mut b) = (0u16, 0u16);
    for &v in g {
        a = a.wrapping_add(v);
        b = b.wrapping_add(a);
    }
    ((b as u32) << 16) | a as u32
}

/// One engine run for the benchmark scripts: HEAP_CODE (CGSuite code) and HEAP_N (last heap).
/// Prints the checksum, the last value and the engine time.
#[test]
#[ignore]
fn bench_code() {
    let text = std::env::var("HEAP_CODE").unwrap_or_else(|_| "0.106".into());
    let n: u64 = std::env::var("HEAP_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let code = Code::parse(&text).unwrap();
    let t = std::time::Instant::now();
    let g = heap::values16(&code, n, &Ctl::default()).unwrap();
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{text} to {n}: last {} checksum {:X} in {secs:.3} s",
        g[n as usize],
        checksum(&g)
    );
}

/// Grundy's game to 2^HEAP_LOG (26 by default): at every power of two, the largest value among
/// heaps below it and the heap where that value first occurs; then the engine time and peak
/// memory of the values (2 bytes a heap).
#[test]
#[ignore]
fn grundys_game_records() {
    let log: u32 = std::env::var("HEAP_LOG")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(26);
    let code = Code::parse("4!.0").unwrap();
    let t = std::time::Instant::now();
    let g = heap::values16(&code, (1u64 << log) - 1, &Ctl::default()).unwrap();
    let secs = t.elapsed().as_secs_f64();
    let (mut best, mut at) = (0u16, 0usize);
    println!("| heaps below | largest value | first at |\n|---|---|---|");
    for (i, &v) in g.iter().enumerate() {
        if v > best {
            (best, at) = (v, i);
        }
        if (i + 1).is_power_of_two() && i + 1 >= 1 << 10 {
            println!("| 2^{} | {best} | {at} |", (i + 1).trailing_zeros());
        }
    }
    println!(
        "engine time {secs:.1} s for {} heaps; values take {} MB",
        g.len(),
        (g.len() * 2) >> 20
    );
}
