//! Tests that use a tool from outside Rust (Graphviz, GAP, Slurm, Python packages). Where the
//! tool is missing, such a test (or the part of it that needs the tool) is skipped and says so
//! as `SKIPPED in test_name: why` on the terminal, past libtest's capture, so that a plain
//! `cargo test` shows it next to the test's "ok". With GAMUT_REQUIRE_TOOLS=1 (`.ci/run` sets
//! it) a missing tool fails the test instead. Included by tests/pictures.rs, tests/split.rs,
//! kernel/tests/kernel.rs and python/tests/wheel.rs.
use std::io::Write;

/// `found`, where a test needs a tool; when it is false, reports the skip (`why` says what is
/// missing and how to install it), or panics under GAMUT_REQUIRE_TOOLS=1.
pub fn found(found: bool, why: &str) -> bool {
    if found {
        return true;
    }
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    if std::env::var_os("GAMUT_REQUIRE_TOOLS").is_some_and(|v| v == "1") {
        panic!("{test}: {why}; GAMUT_REQUIRE_TOOLS=1 requires every tool the tests use");
    }
    // libtest captures print! and eprint!, not writes to the stderr handle
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED in {test}: {why} (GAMUT_REQUIRE_TOOLS=1 makes this a failure)"
    );
    false
}
