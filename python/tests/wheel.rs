//! Builds the wheel with maturin and runs tests/test_session.py against it. Needs Python with
//! maturin (`.ci/run` installs it into a virtual environment); without it the test is skipped as
//! tests/tools/mod.rs says.
use std::path::Path;
use std::process::Command;

#[path = "../../tests/tools/mod.rs"]
mod tools;

#[test]
fn the_wheel_imports_and_computes() {
    let python = std::env::var("GAMUT_PYTHON").unwrap_or_else(|_| "python3".into());
    let has = Command::new(&python)
        .args(["-c", "import maturin"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !tools::found(
        has,
        &format!("{python} lacks maturin (pip install maturin; GAMUT_PYTHON names the Python)"),
    ) {
        return;
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("gamut-wheel-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = |args: &[&str], cwd: &Path, env: Option<&Path>| {
        let mut c = Command::new(&python);
        c.args(args).current_dir(cwd);
        if let Some(p) = env {
            c.env("PYTHONPATH", p);
        }
        let out = c.output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        println!("{text}");
        assert!(out.status.success(), "{text}");
    };
    let wheels = dir.join("wheels");
    let site = dir.join("site");
    let (w, s) = (wheels.to_str().unwrap(), site.to_str().unwrap());
    run(
        &["-m", "maturin", "build", "--release", "--quiet", "-o", w],
        here,
        None,
    );
    let wheel = std::fs::read_dir(&wheels)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .expect("maturin wrote no wheel");
    let wheel = wheel.to_str().unwrap();
    run(
        &[
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            s,
            wheel,
        ],
        here,
        None,
    );
    run(
        &["-m", "unittest", "-v", "test_session"],
        &here.join("tests"),
        Some(&site),
    );
    let _ = std::fs::remove_dir_all(&dir);
}
