//! Text output groups digits everywhere, error messages and progress included; per-depth
//! progress has column headings.
mod common;
use common::run_e;
use gamut::engine::control::{Ctl, Progress};
use gamut::lang::run::eval::Interp;
use std::sync::{Arc, Mutex};

#[test]
fn error_messages_group_their_numbers() {
    for (src, want) in [
        ("[1, 2][5000]", "index 5_000 is out of range"),
        ("\"ab\"[-5000]", "index -5_000 is out of range"),
        (
            "grundy(kayles, 3000..2000)",
            "the range 3_000..2_000 is empty",
        ),
        ("period(kayles, to: -1000)", "not -1_000"),
        ("kayles(-1234)", "got -1_234"),
        ("grid(1000, 2000)", "a 1_000x2_000 grid"),
    ] {
        let (code, _, err) = run_e(src);
        assert_eq!(code, 1, "{src}: {err}");
        assert!(err.contains(want), "{src}: {err}");
    }
}

/// Records the report lines of a computation.
#[derive(Default)]
struct Lines(Mutex<Vec<String>>);

impl Progress for Lines {
    fn begin(&self, _: &str, _: Option<u64>) {}
    fn advance(&self, _: u64) {}
    fn end(&self) {}
    fn line(&self, text: &str) {
        self.0.lock().unwrap().push(text.to_string());
    }
}

#[test]
fn per_depth_progress_has_headings_and_grouped_counts() {
    let lines = Arc::new(Lines::default());
    let mut it = Interp::new(Box::new(|_, _| {}));
    it.ctl = Ctl::new(Default::default()).with_progress(lines.clone());
    it.run_source("<test>", "diameter(slide3_hard, strategy: \"memory\")")
        .unwrap();
    let lines = lines.0.lock().unwrap();
    let head: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(
        head,
        ["depth", "count", "cumulative", "seconds"],
        "{lines:?}"
    );
    // depth 12 of the 362_880 elements: 106_800 of them, 260_712 within it
    let row: Vec<&str> = lines[13].split_whitespace().collect();
    assert_eq!(row[..3], ["12", "106_800", "260_712"], "{lines:?}");
    let last: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert_eq!(last[..3], ["17", "4", "362_880"], "{lines:?}");
}
