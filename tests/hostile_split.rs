//! What `gamut split`, `part` and `merge` refuse: parts of another query, forged plans and
//! parts, and folder names that would smuggle a line into slurm.sh.
mod common;
use common::gamut;
use std::path::{Path, PathBuf};

const SCRIPT: &str = "let S = kayles(7) + kayles(3)\n";

/// A folder holding the script, removed when the first value is dropped.
fn scratch() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().to_path_buf();
    std::fs::write(d.join("s.game"), SCRIPT).unwrap();
    (tmp, d)
}

fn run(args: &[&std::ffi::OsStr]) -> (i32, String) {
    let out = gamut().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    (
        out.status.code().unwrap(),
        err + &String::from_utf8_lossy(&out.stdout),
    )
}

fn split(dir: &Path, run_dir: &Path, query: &str, parts: usize) -> (i32, String) {
    let p = parts.to_string();
    run(&[
        "split".as_ref(),
        dir.join("s.game").as_os_str(),
        query.as_ref(),
        "--parts".as_ref(),
        p.as_ref(),
        "--dir".as_ref(),
        run_dir.as_os_str(),
    ])
}

fn part(run_dir: &Path, i: usize) -> (i32, String) {
    let i = i.to_string();
    run(&["part".as_ref(), run_dir.as_os_str(), i.as_ref()])
}

fn merge(run_dir: &Path) -> (i32, String) {
    run(&["merge".as_ref(), run_dir.as_os_str()])
}

#[test]
fn parts_of_another_query_are_refused() {
    let (_tmp, dir) = scratch();
    let (g, o) = (dir.join("g"), dir.join("o"));
    assert_eq!(split(&dir, &g, "grundy(S)", 2).0, 0);
    assert_eq!(split(&dir, &o, "outcome(S)", 2).0, 0);
    for i in 0..2 {
        assert_eq!(part(&g, i).0, 0);
        assert_eq!(part(&o, i).0, 0);
    }
    // the outcome split merges to N (7 and 3 pins: nimbers 2 and 3)
    let (code, out) = merge(&o);
    assert_eq!((code, out.trim()), (0, "N"));
    // grundy parts in the outcome split: the nimbers of the options are not outcomes
    for i in 0..2 {
        let name = format!("part-{i}.json");
        std::fs::copy(g.join(&name), o.join(&name)).unwrap();
    }
    let (code, err) = merge(&o);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("belongs to another split"), "{err}");
}

#[test]
fn forged_plans_and_parts_are_refused() {
    let (_tmp, dir) = scratch();
    let r = dir.join("r");
    assert_eq!(split(&dir, &r, "grundy(S)", 2).0, 0);
    for i in 0..2 {
        assert_eq!(part(&r, i).0, 0);
    }
    let plan_path = r.join("plan.json");
    let plan = std::fs::read_to_string(&plan_path).unwrap();
    let v: serde_json::Value = serde_json::from_str(&plan).unwrap();
    let n = v["options"].as_u64().unwrap();
    for forged in ["1000000000000000", "9223372036854775813", "-1", "\"x\""] {
        let text = plan.replace(
            &format!("\"options\": {n}"),
            &format!("\"options\": {forged}"),
        );
        assert_ne!(text, plan);
        std::fs::write(&plan_path, text).unwrap();
        let (code, err) = merge(&r);
        assert_eq!(code, 1, "{forged}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("internal error"),
            "{err}"
        );
    }
    std::fs::write(&plan_path, &plan).unwrap();
    assert_eq!(merge(&r).0, 0);
    // an answer moved to an option of the other part, then an answer that is not a nimber
    let p0 = r.join("part-0.json");
    let text = std::fs::read_to_string(&p0).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["answers"][0][0] = serde_json::json!(1);
    std::fs::write(&p0, v.to_string()).unwrap();
    let (code, err) = merge(&r);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not one of this part's"), "{err}");
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["answers"][0][1] = serde_json::json!("P");
    std::fs::write(&p0, v.to_string()).unwrap();
    let (code, err) = merge(&r);
    assert_eq!(code, 1, "{err}");
}

/// A partizan plan's `mirrors` (Left's options whose answers also count for Right) must name
/// Left's options: anything else is refused, not read out of bounds.
#[test]
fn forged_mirrors_are_refused() {
    let (_tmp, dir) = scratch();
    let r = dir.join("r");
    assert_eq!(split(&dir, &r, "outcome(clobber(\"xoxo|oxox\"))", 2).0, 0);
    for i in 0..2 {
        assert_eq!(part(&r, i).0, 0);
    }
    let plan_path = r.join("plan.json");
    let plan = std::fs::read_to_string(&plan_path).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&plan).unwrap();
    assert!(!v["mirrors"].as_array().unwrap().is_empty(), "{plan}");
    assert_eq!(merge(&r).0, 0);
    let lefts = v["lefts"].clone();
    for forged in [
        lefts,
        serde_json::json!(1u64 << 62),
        serde_json::json!(-1),
        serde_json::json!("x"),
    ] {
        v["mirrors"] = serde_json::json!([forged]);
        std::fs::write(&plan_path, v.to_string()).unwrap();
        let (code, err) = merge(&r);
        assert_eq!(code, 1, "{forged}: {err}");
        assert!(err.contains("`mirrors`"), "{err}");
    }
}

#[test]
fn a_folder_name_cannot_add_a_line_to_the_slurm_script() {
    let (_tmp, dir) = scratch();
    let evil = dir.join("x\ntouch INJECTED\n#");
    let (code, err) = split(&dir, &evil, "grundy(S)", 2);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("control character"), "{err}");
    assert!(!evil.exists());
    // quotes and spaces are fine: every path in slurm.sh is one quoted shell word
    let odd = dir.join("it's a $(dir)");
    assert_eq!(split(&dir, &odd, "grundy(S)", 2).0, 0);
    let sh = std::fs::read_to_string(odd.join("slurm.sh")).unwrap();
    let exec = sh.lines().find(|l| l.starts_with("exec ")).unwrap();
    assert!(exec.contains("'\\''s a $(dir)'"), "{exec}");
}

/// A split written again into its folder while a part of the earlier one still runs: that
/// part's file arrives after the new split removed the old ones. The query and the script are
/// the same (a file the script `use`s may not be), so only the plan's id tells the parts apart.
#[test]
fn a_part_of_an_earlier_split_into_the_folder_is_refused() {
    let (_tmp, dir) = scratch();
    let r = dir.join("r");
    assert_eq!(split(&dir, &r, "grundy(S)", 2).0, 0);
    assert_eq!(part(&r, 1).0, 0);
    let late = std::fs::read(r.join("part-1.json")).unwrap();
    assert_eq!(split(&dir, &r, "grundy(S)", 2).0, 0);
    assert_eq!(part(&r, 0).0, 0);
    std::fs::write(r.join("part-1.json"), late).unwrap();
    let (code, err) = merge(&r);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("part-1.json") && err.contains("earlier split"),
        "{err}"
    );
    // run again, the part answers the new plan (nimbers 2 and 3 of 7 and 3 pins)
    assert_eq!(part(&r, 1).0, 0);
    let (code, out) = merge(&r);
    assert_eq!((code, out.trim()), (0, "1"));
}

/// sbatch reads its `#SBATCH` lines itself: the log path is one double-quoted argument there
/// (`\"` for a quote, `%%` for a `%`, which is Slurm's pattern sign), and a backslash, which
/// turns Slurm's patterns off, is refused before anything is written.
#[test]
fn the_log_path_is_quoted_as_sbatch_reads_it() {
    let (_tmp, dir) = scratch();
    let bs = dir.join("a\\b");
    let (code, err) = split(&dir, &bs, "grundy(S)", 2);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("backslash"), "{err}");
    assert!(!bs.exists());
    // a folder that is not UTF-8 (reached by a link: --dir is text) would be written as
    // another path
    let odd = dir.join(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"a\xffb"));
    std::fs::create_dir(&odd).unwrap();
    std::os::unix::fs::symlink(&odd, dir.join("link")).unwrap();
    let (code, err) = split(&dir, &dir.join("link"), "grundy(S)", 2);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not UTF-8"), "{err}");
    assert!(!odd.join("plan.json").exists());
    let r = dir.join("x a'b \"c\" %j #d $(touch X)");
    let (code, err) = split(&dir, &r, "grundy(S)", 2);
    assert_eq!(code, 0, "{err}");
    let sh = std::fs::read_to_string(r.join("slurm.sh")).unwrap();
    let canon = r.canonicalize().unwrap().display().to_string();
    let log = canon.replace('%', "%%").replace('"', "\\\"");
    let want = format!("#SBATCH --output=\"{log}/slurm-%a.log\"");
    assert!(sh.lines().any(|l| l == want), "{sh}");
    // and the shell runs the part the script names, in that folder
    let out = std::process::Command::new("sh")
        .arg(r.join("slurm.sh"))
        .env("SLURM_ARRAY_TASK_ID", "1")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(r.join("part-1.json").exists());
    assert!(!dir.join("X").exists());
}

/// A plan is input: its counts are bounded before any use (options as a list's 20_000_000),
/// and a plan or part file is parsed only if the memory budget holds what it may parse into.
#[test]
fn plan_counts_and_file_sizes_are_bounded() {
    let (_tmp, dir) = scratch();
    let r = dir.join("r");
    assert_eq!(split(&dir, &r, "grundy(S)", 2).0, 0);
    for i in 0..2 {
        assert_eq!(part(&r, i).0, 0);
    }
    let plan_path = r.join("plan.json");
    let plan = std::fs::read_to_string(&plan_path).unwrap();
    let forge = |k: &str, v: serde_json::Value| {
        let mut p: serde_json::Value = serde_json::from_str(&plan).unwrap();
        p[k] = v;
        std::fs::write(&plan_path, p.to_string()).unwrap();
    };
    for (k, v) in [("options", 20_000_001u64), ("parts", 100_001)] {
        forge(k, v.into());
        for (code, err) in [merge(&r), part(&r, 0)] {
            assert_eq!(code, 1, "{k} {v}: {err}");
            assert!(err.contains("plan.json") && err.contains(k), "{err}");
        }
    }
    let memory = |args: &[&str]| {
        let out = gamut()
            .args(["--memory", "8M"])
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        (out.status.code().unwrap(), err)
    };
    let r_ = r.to_str().unwrap();
    // a megabyte of JSON may parse into 16 (a value is 32 bytes)
    let pad = " ".repeat(1 << 20);
    std::fs::write(&plan_path, plan.clone() + &pad).unwrap();
    for args in [&["merge", r_][..], &["part", r_, "0"]] {
        let (code, err) = memory(args);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("plan.json") && err.contains("of memory"),
            "{err}"
        );
    }
    std::fs::write(&plan_path, &plan).unwrap();
    let p0 = r.join("part-0.json");
    let part0 = std::fs::read_to_string(&p0).unwrap();
    std::fs::write(&p0, part0.clone() + &pad).unwrap();
    let (code, err) = memory(&["merge", r_]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("part-0.json") && err.contains("of memory"),
        "{err}"
    );
    std::fs::write(&p0, &part0).unwrap();
    assert_eq!(memory(&["merge", r_]).0, 0);
}
