//! Golden tests: every examples/*.game runs and its stdout must equal examples/*.out.
//! `GAMUT_BLESS=1 cargo test --release --test examples` rewrites the expected files.
use std::path::{Path, PathBuf};
use std::process::Command;

/// Too slow for the default run: `cargo test --release --test examples -- --ignored`.
const SLOW: &[&str] = &["placement-tables.game", "slide4-hard-gods-number.game"];

fn examples(slow: bool) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir("examples")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .filter(|p| SLOW.contains(&p.file_name().unwrap().to_str().unwrap()) == slow)
        .collect();
    v.sort();
    v
}

fn check(path: &Path) -> Result<(), String> {
    let out = Command::new(env!("CARGO_BIN_EXE_gamut"))
        .arg("run")
        .arg(path)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    if !out.status.success() {
        return Err(format!(
            "{} failed: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let expected_path = path.with_extension("out");
    if std::env::var_os("GAMUT_BLESS").is_some() {
        std::fs::write(&expected_path, &stdout).unwrap();
        return Ok(());
    }
    let expected = std::fs::read_to_string(&expected_path)
        .map_err(|_| format!("{} is missing", expected_path.display()))?;
    if stdout != expected {
        let first = stdout
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(stdout.lines().count().min(expected.lines().count()));
        return Err(format!(
            "{}: output differs from {} at line {}:\n  got:      {:?}\n  expected: {:?}",
            path.display(),
            expected_path.display(),
            first + 1,
            stdout.lines().nth(first),
            expected.lines().nth(first)
        ));
    }
    Ok(())
}

fn run_all(paths: Vec<PathBuf>) {
    assert!(!paths.is_empty());
    let errors: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = paths.iter().map(|p| s.spawn(move || check(p))).collect();
        handles
            .into_iter()
            .filter_map(|h| h.join().unwrap().err())
            .collect()
    });
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn examples_match_expected_output() {
    run_all(examples(false));
}

#[test]
#[ignore = "takes minutes: the full 4x4 hard Cayley graph"]
fn slow_examples_match_expected_output() {
    run_all(examples(true));
}
