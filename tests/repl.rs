//! The REPL driven in a real terminal (tmux): multi-line input, completion, Ctrl-C cancelling a
//! long query while the session keeps its bindings, history kept on disk.
use std::process::Command;
use std::time::{Duration, Instant};

struct Session {
    name: String,
}

impl Session {
    fn start(home: &std::path::Path) -> Session {
        Session::start_named(home, "main")
    }
    fn start_named(home: &std::path::Path, tag: &str) -> Session {
        Session::start_with(home, tag, "")
    }
    /// `env`: more variables for gamut, `NAME=value ...`
    fn start_with(home: &std::path::Path, tag: &str, env: &str) -> Session {
        let name = format!("gamut-test-{}-{tag}", std::process::id());
        let cmd = format!(
            "XDG_DATA_HOME={} {env} {}",
            home.display(),
            env!("CARGO_BIN_EXE_gamut")
        );
        let ok = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-s",
                &name,
                "-x",
                "150",
                "-y",
                "50",
                &cmd,
            ])
            .status()
            .unwrap();
        assert!(
            ok.success(),
            "tmux could not start (is tmux installed? .ci/run installs it)"
        );
        Session { name }
    }
    fn keys(&self, keys: &[&str]) {
        for k in keys {
            Command::new("tmux")
                .args(["send-keys", "-t", &self.name, k])
                .status()
                .unwrap();
            std::thread::sleep(Duration::from_millis(80));
        }
    }
    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.name, "-S", "-200"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
    fn wait_for(&self, text: &str) -> String {
        let t0 = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "never saw {text:?} on the screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.name])
            .status();
    }
}

#[test]
fn repl_multiline_completion_cancel_and_history() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let s = Session::start(home);
    s.wait_for("gamut>");
    // a list continued on a second line
    s.keys(&[
        "let xs = [10,",
        "Enter",
        "20]",
        "Enter",
        "len(xs) + 1000",
        "Enter",
    ]);
    s.wait_for("1_002");
    // tab completion of a stdlib name, then call it
    s.keys(&["grundy(kayl", "Tab", "(13))", "Enter"]);
    let screen = s.wait_for("grundy(kayles(13))");
    assert!(screen.contains("grundy(kayles(13))"), "{screen}");
    // a long query cancelled by Ctrl-C: the session survives with its bindings
    s.keys(&["len(grundy(grundys_game, 0..2000000))", "Enter"]);
    std::thread::sleep(Duration::from_millis(700));
    s.keys(&["C-c"]);
    s.wait_for("cancelled");
    s.keys(&["xs[1] * 3", "Enter"]);
    s.wait_for("60");
    s.keys(&[":help order", "Enter"]);
    s.wait_for("order(G) or order(P)");
    // commands without their argument say what they need; a name the user bound is a name
    s.keys(&[":time", "Enter"]);
    s.wait_for(":time needs an expression");
    s.keys(&["let help = 4321", "Enter", "help", "Enter"]);
    s.wait_for("4_321");
    s.keys(&[":quit", "Enter"]);
    std::thread::sleep(Duration::from_millis(500));
    let history = std::fs::read_to_string(home.join("gamut").join("history.txt")).unwrap();
    assert!(history.contains("len(xs) + 1000"), "{history}");
}

#[test]
fn repl_continuation_help_progress_and_tab_after_multibyte() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let s = Session::start_named(home, "everyday");
    s.wait_for("gamut>");
    // a line ending in `=` or an operator continues; the joined input is accepted
    s.keys(&[
        "fn f(x) =",
        "Enter",
        "x + 1",
        "Enter",
        "let y = 40 +",
        "Enter",
        "f(1)",
        "Enter",
        "y * 10",
        "Enter",
    ]);
    s.wait_for("420");
    // help on stdlib names and statements, and the words people type first
    s.keys(&[":help nim", "Enter"]);
    s.wait_for("stdlib/heaps.game");
    s.keys(&[":help let", "Enter"]);
    s.wait_for("let n = 13");
    s.keys(&[":help move", "Enter"]);
    s.wait_for("inside `game`");
    s.keys(&["quit", "Enter"]);
    s.wait_for("commands start with a colon");
    // Tab after a multibyte character neither panics nor loses the session
    s.keys(&["\"×\" + \"ab\" ×gru", "Tab", "C-u", "y + 1", "Enter"]);
    s.wait_for("43");
    // `_` is the last result
    s.keys(&["_ * 2", "Enter"]);
    s.wait_for("86");
    // a long query shows a progress bar with rate and ETA; Ctrl-C prints one message
    s.keys(&["len(grundy(lasker, 0..100000))", "Enter"]);
    s.wait_for("Ctrl-C cancels");
    s.keys(&["C-c"]);
    let screen = s.wait_for("cancelled");
    assert_eq!(screen.matches("cancelled").count(), 1, "{screen}");
    s.keys(&["y", "Enter"]);
    s.wait_for("\n42\n");
    s.keys(&[":quit", "Enter"]);
}

#[test]
fn repl_load_vars_time_and_tab_listing() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let lib = home.join("lib.game");
    std::fs::write(&lib, "let loaded = 7\nfn twice(x) = 2 * x\n").unwrap();
    let s = Session::start_named(home, "tools");
    s.wait_for("gamut>");
    // :load runs a file into the session
    s.keys(&[&format!(":load {}", lib.display()), "Enter"]);
    s.keys(&["twice(loaded) + 1000", "Enter"]);
    s.wait_for("1_014");
    // :vars lists what the session defined (not the prelude), with types
    s.keys(&[":vars", "Enter"]);
    let screen = s.wait_for("twice ");
    assert!(
        screen
            .lines()
            .any(|l| l.starts_with("loaded") && l.contains("integer") && l.ends_with(" 7")),
        "{screen}"
    );
    assert!(!screen.contains("kayles "), "{screen}");
    // :time prints the value, then the time taken
    s.keys(&[":time grundy(kayles(70)) + 500", "Enter"]);
    let screen = s.wait_for("time: ");
    assert!(screen.contains("506\ntime: "), "{screen}");
    // Tab completes the common prefix, a second Tab lists the candidates
    s.keys(&["grundys", "Tab", "C-u", "wytho", "Tab", "Tab"]);
    let screen = s.wait_for("wythoff_table");
    assert!(screen.contains("wythoff_period"), "{screen}");
    s.keys(&["C-u", ":quit", "Enter"]);
}

#[test]
fn repl_keeps_every_line_that_arrives_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let s = Session::start_named(home, "paste");
    s.wait_for("gamut>");
    // a paste without bracketed paste (tmux paste-buffer without -p): the lines reach the
    // REPL in one read, a multi-line entry among them
    let buffer = format!("gamut-paste-{}", std::process::id());
    let text =
        "let a = 1000\nlet b = [a,\n  2 * a]\nprint(\"sum\", a + b[1])\nprint(\"last\", 41 + 1)\n";
    let set = Command::new("tmux")
        .args(["set-buffer", "-b", &buffer, text])
        .status()
        .unwrap();
    assert!(set.success());
    let paste = Command::new("tmux")
        .args(["paste-buffer", "-d", "-b", &buffer, "-t", &s.name])
        .status()
        .unwrap();
    assert!(paste.success());
    let screen = s.wait_for("last 42");
    assert!(screen.contains("sum 3_000"), "{screen}");
    // typed ahead while a query runs: the lines wait and then run in order
    s.keys(&[
        "grundy(kayles(3000)) + 0 * len([1 for i in 1..2000000])",
        "Enter",
    ]);
    s.keys(&[
        "print(\"ahead\", 1)",
        "Enter",
        "print(\"ahead\", 2)",
        "Enter",
    ]);
    let screen = s.wait_for("ahead 2");
    let one = screen
        .find("ahead 1")
        .expect("the first typed-ahead line ran");
    assert!(one < screen.find("ahead 2").unwrap(), "{screen}");
    s.keys(&[":quit", "Enter"]);
}

/// With TERM=dumb (an Emacs shell) rustyline reads without raw mode, so Ctrl-C reaches gamut as
/// SIGINT: at the prompt it keeps the session (it used to end it), during a query it cancels it;
/// progress comes as plain lines, not as a bar redrawn in place.
#[test]
fn ctrl_c_in_a_dumb_terminal_keeps_the_session() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let s = Session::start_with(home, "dumb", "TERM=dumb");
    s.wait_for("gamut>");
    s.keys(&["C-c"]);
    std::thread::sleep(Duration::from_millis(300));
    s.keys(&["6 * 7", "Enter"]);
    s.wait_for("42");
    // past the second after which a bar would show: a dumb terminal gets no bar to redraw
    s.keys(&["len(grundy(grundys_game, 0..20000000))", "Enter"]);
    std::thread::sleep(Duration::from_millis(2500));
    let screen = s.screen();
    assert!(!screen.contains("eta"), "{screen}");
    s.keys(&["C-c"]);
    s.wait_for("cancelled");
    s.keys(&["6 * 8", "Enter"]);
    s.wait_for("48");
    s.keys(&[":quit", "Enter"]);
}
