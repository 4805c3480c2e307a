//! Hostile inputs end in a clear error (exit 1 or 2) or the right answer, within
//! seconds, under a 4 GB address-space limit, with no panic, overflow or abort; SIGINT stops
//! a script within 2 seconds.
mod common;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `gamut ARGS` under `ulimit -v 4 GB`; returns (status, stdout, stderr, seconds).
fn limited(args: &[&str], stdin: Option<&str>) -> (i32, String, String, f64) {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -v 4194304; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_gamut"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let t0 = Instant::now();
    let mut child = cmd.spawn().unwrap();
    if let Some(text) = stdin {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        t0.elapsed().as_secs_f64(),
    )
}

/// A clear error: exit 1 or 2, no panic, no Rust overflow text, quickly.
fn refused(src: &str, needle: &str) {
    let (code, _, err, secs) = limited(&["-e", src], None);
    assert!(code == 1 || code == 2, "{src}: exit {code}\n{err}");
    for bad in [
        "panicked",
        "internal error",
        "capacity overflow",
        "stack overflow",
        "memory allocation",
    ] {
        assert!(!err.contains(bad), "{src}: {err}");
    }
    assert!(err.contains(needle), "{src}: expected {needle:?} in\n{err}");
    assert!(secs < 60.0, "{src}: took {secs:.1} s");
}

fn answers(src: &str, want: &str) {
    let (code, out, err, secs) = limited(&["-e", src], None);
    assert_eq!(code, 0, "{src}: {err}");
    assert_eq!(out.trim_end(), want, "{src}");
    assert!(secs < 20.0, "{src}: took {secs:.1} s");
}

#[test]
fn size_checks_do_not_overflow() {
    refused(
        r#"shift(grid(4294967296, 4294967296), "right")"#,
        "grid is not supported",
    );
    refused(
        r#""ab" * 4611686018427387904"#,
        "16_777_216 a string may have",
    );
    refused("wythoff_table(3, 6148914691236517206)", "ten million cells");
}

#[test]
fn ranges_are_not_listed_needlessly() {
    let (code, out, err, _) = limited(&["--json", "-e", "0..1000000000000"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#""from":0"#), "{out}");
    answers("0..2^63-1", "0..9_223_372_036_854_775_807");
    refused("list(0..30000000)", "too many to list");
    answers("len(0..9223372036854775807)", "9_223_372_036_854_775_808");
    answers(
        "len(-9223372036854775808..9223372036854775807)",
        "18_446_744_073_709_551_616",
    );
}

#[test]
fn deep_recursion_is_an_error_not_a_stack_overflow() {
    refused(r#"eval_word(slide2, "(" * 10000000)"#, "nested more than");
    refused(
        "game g(n) { move n - 1 for k in (if n > 0 { [grundy(g(n - 1))] } else { [] }) }\ngrundy(g(100000))",
        "nests too deeply",
    );
    // 300 negations inside each of 1990 calls: an error about depth, not a stack overflow
    let negs = "-".repeat(300);
    let src = format!("fn f(n) = if n < 1 {{ 0 }} else {{ {negs}f(n - 1) }}\nf(1990)");
    let (code, out, err, _) = limited(&["-e", &src], None);
    assert!(
        (code == 0 && out == "0\n") || (code == 1 && err.contains("nests too deeply")),
        "exit {code}: {out}{err}"
    );
    answers(
        &format!("fn f(n) = if n < 1 {{ 0 }} else {{ {negs}f(n - 1) }}\nf(100)"),
        "0",
    );
    let long = format!("1{}", " + 1".repeat(600_000));
    let (code, _, err, _) = limited(&["run", "-"], Some(&long));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("operators in one statement"), "{err}");
}

#[test]
fn growing_values_are_refused_with_an_estimate() {
    refused("fn sq(x) = x * x\nlet x = 2^8388607\nsq(sq(x))", "bits");
    refused(
        "[[y for y in 1..20000000] for x in 1..1000]",
        "elements together",
    );
    answers(r#"eval_word(slide2, "R^-9223372036854775808")"#, "()");
    answers(
        r#"eval_word(slide2, "((((R^100000)^100000)^100000)^100000)")"#,
        "()",
    );
    refused(
        "game up(a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t) { move (a+1,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t) }\ngrundy(up(0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0))",
        "",
    );
}

#[test]
fn an_endless_ruleset_is_named_as_such() {
    refused("game up(n) { move n + 1 }\ngrundy(up(0))", "moves in a row");
}

#[test]
fn memory_budget_is_in_the_message() {
    let (code, _, err, _) = limited(&["--memory", "1M", "-e", "len(list(0..1000000))"], None);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("needs about"), "{err}");
}

#[test]
fn wrong_answers_are_right_now() {
    answers("grundy(moore(4294967296, [1, 2]))", "3");
    answers("len(str(eval_word(slide2, \"R \" * 2000000)))", "2");
    refused("options(nim(10^18))", "has more than");
}

#[test]
fn huge_integers_print_quickly() {
    let (code, out, err, secs) = limited(&["-e", "2^16777215"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("5_050_445 digits"), "{out}");
    assert!(secs < 5.0);
}

#[test]
fn nested_parentheses_parse_in_linear_time() {
    let src = format!("{}1{}", "(".repeat(60), ")".repeat(60));
    answers(&src, "1");
    let src = format!("{}1{}", "[".repeat(60), "]".repeat(60));
    let (code, _, err, secs) = limited(&["-e", &src], None);
    assert_eq!(code, 0, "{err}");
    assert!(secs < 5.0);
    // brackets inside strings do not count towards nesting
    answers(&format!("len(\"{}\")", "(".repeat(500)), "500");
}

#[test]
fn bad_thread_counts_are_refused() {
    let (code, _, err, _) = limited(&["--threads", "100000", "-e", "1"], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--threads"), "{err}");
}

/// SIGINT during each of the four hangs ends the run within 2 seconds (130), or the
/// query now finishes by itself.
#[test]
fn sigint_stops_each_hang_within_two_seconds() {
    for src in [
        "order(slide_hard(12))",
        "let x = 2^16777215\nx * 1\nx",
        r#"eval_word(slide2, "R " * 2000000)"#,
        "options(nim(10^18))",
        "len(grundy(lasker, 0..100000))",
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let file = dir.join("hang.game");
        std::fs::write(&file, src).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamut"))
            .arg("run")
            .arg(&file)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        let _ = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status();
        let t0 = Instant::now();
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                let code = status.code().unwrap_or(-1);
                assert!([0, 1, 130].contains(&code), "{src}: exit {code}");
                break;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(2),
                "{src}: still running 2 s after SIGINT"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn sigterm_ends_a_script_promptly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamut"))
        .args(["-e", "order(slide_hard(12))"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            t0.elapsed() < Duration::from_secs(2),
            "still running after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn closed_stderr_and_stdout_end_quietly() {
    let bin = env!("CARGO_BIN_EXE_gamut");
    for _ in 0..10 {
        // the reader of stderr goes away after one byte
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "\"{bin}\" -e 'grid(16,33)' 2>&1 | head -c 1 >/dev/null; echo ${{PIPESTATUS[0]}}"
            ))
            .output()
            .unwrap();
        let code: i32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
        assert!(code == 1 || code == 141, "exit {code}");
        // stderr closed outright
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("\"{bin}\" -e 'grid(16,33)' 2>&-; echo $?"))
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1");
    }
    // stdout closed by the reader: quiet, no panic
    let tmp = tempfile::tempdir().unwrap();
    let err_file = tmp.path().join("err");
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "\"{bin}\" -e 'for i in 1..100000 {{ print(i) }}' 2>{err_file:?} | head -1"
        ))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
    let err = std::fs::read_to_string(&err_file).unwrap_or_default();
    assert!(
        !err.contains("panic") && !err.contains("internal error"),
        "{err}"
    );
}

#[test]
fn a_full_disk_is_an_error() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let status = Command::new(env!("CARGO_BIN_EXE_gamut"))
        .args(["-e", "1"])
        .stdout(Stdio::from(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        ))
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
}

/// Runs `gamut ARGS`, sampling its peak resident memory (VmHWM) until it ends: (status,
/// stderr, peak bytes).
fn peak_memory(args: &[&str]) -> (i32, String, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamut"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut peak = 0;
    let code = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st.code().unwrap_or(-1);
        }
        peak = peak.max(common::peak_memory_of(child.id()));
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut err = String::new();
    use std::io::Read;
    child.stderr.unwrap().read_to_string(&mut err).unwrap();
    (code, err, peak)
}

#[test]
fn game_searches_and_option_lists_stay_within_the_memory_budget() {
    // a position with 50,000 options (the option lists outgrow the table) and a game of
    // 9 million small positions (the table outgrows everything else)
    let wide = "game r(n) {\n  move n - 1 for k in [1] if n > 0\n  move a, n - a - 1 for a in 1..n - 2 if a <= n - a - 1\n}\ngrundy(r(100000))";
    let deep = "game t(a, b) {\n  move (a - 1, b) for k in [1] if a > 0\n  move (a, b - 1) for k in [1] if b > 0\n}\ngrundy(t(3000, 3000))";
    // found by fuzzing: one heap with 6 million options, listed
    let listed = "let H = octal(\"0.[4]\")\noptions(H(5000))";
    // found by an audit: cakes whose cuts are counted in millions (a partizan search)
    let cakes = "value(cutcake(10^6, 10^6))";
    let maundy = "value(maundy_cake(2^30, 2^30))";
    for src in [wide, deep, listed, cakes, maundy] {
        let (code, err, peak) = peak_memory(&["--memory", "64M", "--threads", "1", "-e", src]);
        assert_eq!(code, 1, "{src}\n{err}");
        assert!(
            err.contains("needs about") || err.contains("too many to list"),
            "{err}"
        );
        assert!(peak <= 64 << 20, "{src}: peak {} MB", peak >> 20);
    }
}

/// An endless input is refused once past the largest file read (256 MB), not read forever.
#[test]
fn an_endless_file_is_refused() {
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    for (args, want) in [
        (&["-e", "use \"/dev/zero\""][..], 1),
        (&["-e", "import_gap(\"/dev/zero\")"][..], 1),
        (&["/dev/zero"][..], 2),
    ] {
        let (code, err, peak) = peak_memory(args);
        assert_eq!(code, want, "{args:?}: {err}");
        assert!(err.contains("longer than 256.0 MB"), "{args:?}: {err}");
        assert!(peak < 600 << 20, "{args:?}: peak {} MB", peak >> 20);
    }
}

/// A script is read within the memory budget: one too large to parse under it is refused
/// before the parser starts (5 million lines under 256 MB, one 40 MB line under the 4 GB
/// limit aborted), and a long script prints its lines in linear time (each line's number was
/// counted from the start of the file).
#[test]
fn large_scripts_are_read_within_the_budget() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let many = dir.join("many.game");
    std::fs::write(&many, "1\n".repeat(5_000_000)).unwrap();
    let path = many.to_str().unwrap();
    let (code, _, err, secs) = limited(&["--memory", "256M", "run", path], None);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("reading") && err.contains("needs about"),
        "{err}"
    );
    assert!(secs < 20.0, "took {secs:.1} s");
    let long = dir.join("long.game");
    std::fs::write(&long, format!("len([{}])\n", "1,".repeat(20_000_000))).unwrap();
    let (code, _, err, _) = limited(&["run", long.to_str().unwrap()], None);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("needs about"), "{err}");
    std::fs::write(&many, "1\n".repeat(100_000)).unwrap();
    let (code, out, err, secs) = limited(&["run", path], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 100_000);
    assert!(secs < 60.0, "took {secs:.1} s");
}
