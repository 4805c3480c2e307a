//! Runs jupyter_kernel_test's standard checks (tests/kernel_test.py), sends malformed messages
//! (tests/malformed_test.py) and executes notebooks (tests/notebook_test.py) with this kernel,
//! installed into a temporary Jupyter path. Needs Python with jupyter_client,
//! jupyter_kernel_test, nbclient and nbformat (`.ci/run` installs them into a virtual
//! environment), and Graphviz for the pictures cells show; without them a test is skipped as
//! tests/tools/mod.rs says.
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../tests/tools/mod.rs"]
mod tools;

fn python() -> String {
    std::env::var("GAMUT_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Whether Python has the modules; if not, the skip is reported (tests/tools/mod.rs).
fn has_modules(mods: &str) -> bool {
    let has = Command::new(python())
        .args(["-c", &format!("import {mods}")])
        .output()
        .is_ok_and(|o| o.status.success());
    tools::found(
        has,
        &format!(
            "{} lacks one of {mods} (pip install jupyter_client jupyter_kernel_test nbclient nbformat; GAMUT_PYTHON names the Python)",
            python()
        ),
    )
}

/// Whether Graphviz draws here, as cells showing pictures need.
fn has_dot() -> bool {
    tools::found(
        Command::new("dot").arg("-V").output().is_ok(),
        "Graphviz's `dot` is not installed (apt-get install graphviz)",
    )
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
    if !has_modules("jupyter_client, jupyter_kernel_test") || !has_dot() {
        return;
    }
    let dir = installed("kernel");
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    run_python(&dir, &tests, &["-m", "unittest", "-v", "kernel_test"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn notebooks_reproduce_the_golden_outputs() {
    if !has_modules("nbclient, nbformat") || !has_dot() {
        return;
    }
    let dir = installed("notebook");
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    run_python(&dir, &tests, &["-m", "unittest", "-v", "notebook_test"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_messages_leave_the_kernel_serving() {
    if !has_modules("jupyter_client, zmq") {
        return;
    }
    let dir = installed("malformed");
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    run_python(&dir, &tests, &["-m", "unittest", "-v", "malformed_test"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `install --user` writes where `jupyter kernelspec install --user` does: $JUPYTER_DATA_DIR if
/// set, else $XDG_DATA_HOME/jupyter; where Python has jupyter_core, also as it says.
#[test]
fn install_user_honours_jupyter_data_dir() {
    let base = std::env::temp_dir().join(format!("gamut-userdir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let install = |data: Option<&Path>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_gamut-kernel"));
        c.args(["install", "--user"])
            .env("HOME", base.join("home"))
            .env("XDG_DATA_HOME", base.join("xdg"))
            .env_remove("JUPYTER_DATA_DIR");
        if let Some(d) = data {
            c.env("JUPYTER_DATA_DIR", d);
        }
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let spec = |dir: &Path| dir.join("kernels/gamut/kernel.json");
    install(Some(&base.join("data")));
    assert!(spec(&base.join("data")).is_file());
    assert!(!spec(&base.join("xdg/jupyter")).exists());
    install(None);
    assert!(spec(&base.join("xdg/jupyter")).is_file());
    // jupyter_core's own answer is the same, for both
    if has_modules("jupyter_core") {
        for (data, want) in [
            (Some(base.join("data")), base.join("data")),
            (None, base.join("xdg/jupyter")),
        ] {
            let mut c = Command::new(python());
            c.args([
                "-c",
                "from jupyter_core.paths import jupyter_data_dir; print(jupyter_data_dir())",
            ])
            .env("HOME", base.join("home"))
            .env("XDG_DATA_HOME", base.join("xdg"))
            .env_remove("JUPYTER_DATA_DIR")
            .env_remove("JUPYTER_PLATFORM_DIRS");
            if let Some(d) = &data {
                c.env("JUPYTER_DATA_DIR", d);
            }
            let out = c.output().unwrap();
            let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
            assert_eq!(Path::new(&dir), want);
        }
    }
    let _ = std::fs::remove_dir_all(&base);
}
