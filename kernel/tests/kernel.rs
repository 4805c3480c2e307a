//! Runs jupyter_kernel_test's standard checks (tests/kernel_test.py) and executes notebooks
//! (tests/notebook_test.py) with this kernel, installed into a temporary Jupyter path. Needs
//! Python with jupyter_client, jupyter_kernel_test, nbclient and nbformat (`.ci/run` installs
//! them into a virtual environment); without them the test says so and passes.
use std::path::{Path, PathBuf};
use std::process::Command;

fn python() -> String {
    std::env::var("GAMUT_PYTHON").unwrap_or_else(|_| "python3".into())
}

fn has_modules(mods: &str) -> bool {
    Command::new(python())
        .args(["-c", &format!("import {mods}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A fresh folder with the kernelspec installed under it (`install --prefix`).
fn installed(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamut-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_gamut-kernel"))
        .args(["install", "--prefix"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let spec =
        std::fs::read_to_string(dir.join("share/jupyter/kernels/gamut/kernel.json")).unwrap();
    assert!(spec.contains("{connection_file}"), "{spec}");
    dir
}

fn run_python(dir: &Path, cwd: &Path, args: &[&str]) {
    let out = Command::new(python())
        .args(args)
        .current_dir(cwd)
        .env("JUPYTER_PATH", dir.join("share/jupyter"))
        .env("JUPYTER_RUNTIME_DIR", dir.join("runtime"))
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{text}");
    assert!(out.status.success(), "{text}");
}

#[test]
fn jupyter_kernel_test_suite() {
    if !has_modules("jupyter_client, jupyter_kernel_test") {
        println!(
            "skipped: {} lacks jupyter_client or jupyter_kernel_test",
            python()
        );
        return;
    }
    let dir = installed("kernel");
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    run_python(&dir, &tests, &["-m", "unittest", "-v", "kernel_test"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn notebooks_reproduce_the_golden_outputs() {
    if !has_modules("nbclient, nbformat") {
        println!("skipped: {} lacks nbclient or nbformat", python());
        return;
    }
    let dir = installed("notebook");
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    run_python(&dir, &tests, &["-m", "unittest", "-v", "notebook_test"]);
    let _ = std::fs::remove_dir_all(&dir);
}
