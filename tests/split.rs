//! A query split into parts, run by separate processes (directly, and as a Slurm job array on a
//! one-node cluster), and merged: the merged answer must equal the single-process answer.
mod common;
mod tools;
use common::gamut;
use std::path::Path;
use std::process::Command;

const SCRIPT: &str = r#"use "chess"
let Q = placement(grid(5, 5), [queen])
let K = node_kayles(graph { a - b - c - d - e - a, a - f - g, c - h })
let S = kayles(7) + lasker(5) + placement(grid(2, 3), [knight])
let M = misere(kayles(4) + kayles(6))
let D = dots(2, 3, drawn: "AB BF EF GK")
"#;

fn succeeded(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn single(query: &str) -> String {
    let out = gamut()
        .arg("-e")
        .arg(format!("{SCRIPT}\n{query}"))
        .output()
        .unwrap();
    succeeded(&out);
    String::from_utf8(out.stdout).unwrap()
}

/// `gamut split` of SCRIPT and `query` into `parts` parts under `dir/run`.
fn try_split(dir: &Path, query: &str, parts: usize) -> std::process::Output {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("q.game"), SCRIPT).unwrap();
    gamut()
        .arg("split")
        .arg(dir.join("q.game"))
        .arg(query)
        .args(["--parts", &parts.to_string(), "--dir"])
        .arg(dir.join("run"))
        .output()
        .unwrap()
}

fn split(dir: &Path, query: &str, parts: usize) {
    let out = try_split(dir, query, parts);
    succeeded(&out);
}

/// `gamut part` of the split under `dir/run`.
fn part(dir: &Path, i: usize) -> std::process::Output {
    gamut()
        .arg("part")
        .arg(dir.join("run"))
        .arg(i.to_string())
        .output()
        .unwrap()
}

fn merge(dir: &Path) -> (i32, String, String) {
    let out = gamut().arg("merge").arg(dir.join("run")).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A path named `name` (not yet made) in a folder removed when the first value is dropped.
fn scratch(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join(name);
    (tmp, d)
}

#[test]
fn parts_run_one_by_one_merge_to_the_single_process_answer() {
    for (k, (query, parts)) in [
        ("grundy(Q)", 4),
        ("outcome(Q)", 3),
        ("grundy(K)", 5),
        ("grundy(S)", 7),
        ("outcome(M)", 2),
        // no options: lost by the mover in normal play, won in misère play
        ("outcome(kayles(0))", 2),
        ("outcome(misere(kayles(0) + kayles(0)))", 2),
        ("grundy(kayles(9))", 40),
        // a sum: the board's options folded by its symmetries, the heap's kept
        ("outcome(Q + nim(2))", 3),
        ("grundy(Q + Q)", 4),
        // Dots-and-Boxes: AE completes a box and keeps the turn
        ("value(D)", 5),
        ("value(dots(2, 2))", 3),
        // partizan: each side's moves; P, N, L and R
        ("outcome(clobber(\"xoxoxo|oxoxox\"))", 3),
        ("outcome(clobber(\"xoxox|oxoxo\"))", 4),
        ("outcome(clobber(\"xxo|xox\"))", 2),
        ("outcome(domineering(3, 4))", 3),
        ("outcome(domineering(2, 5))", 2),
        ("outcome(domineering(4, 4))", 3),
        ("outcome(toads_frogs(\"TT..F\"))", 2),
    ]
    .into_iter()
    .enumerate()
    {
        let (_tmp, dir) = scratch(&k.to_string());
        split(&dir, query, parts);
        // a missing part is named, not silently skipped
        let (code, _, err) = merge(&dir);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("parts not finished"), "{err}");
        for i in 0..parts {
            succeeded(&part(&dir, i));
        }
        let (code, out, err) = merge(&dir);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, single(query), "{query}");
    }
}

/// Options equal under the board's symmetries are searched once: 25 queens' squares on 5 x 5
/// fall into 6 classes, also in a sum (its components classed each, in any order), the 12 lines of an empty 2 x 2 Dots-and-Boxes board into 2 (border
/// and inner), the 49 of 4 x 5 into 14 (a corner box's two border sides are interchangeable);
/// heap options are kept as they are. A partizan position's options are classes for each
/// player apart: Domineering 3 x 4 has 8 vertical placements in 2 classes and 9 horizontal
/// ones in 4. A Right option that is the negative of a Left one is searched as that one:
/// Clobber 2 x 6 has 16 moves a side, paired by the half-turn, and Right's are Left's with the
/// colours swapped (the board flipped); on Domineering 4 x 4 Right's placements are Left's
/// transposed.
#[test]
fn a_split_searches_one_option_per_symmetry_class() {
    for (query, says) in [
        ("grundy(Q)", "25 options of the position (6 distinct"),
        (
            "value(dots(2, 2))",
            "12 options of the position (2 distinct",
        ),
        (
            "value(dots(4, 5))",
            "49 options of the position (14 distinct",
        ),
        ("grundy(kayles(9))", "9 options of the position (9 distinct"),
        // in a sum each component is classed: the 25 queen moves in 6 classes, 2 heap moves
        (
            "outcome(Q + nim(2))",
            "27 options of the position (8 distinct",
        ),
        // the moves in one of two equal components (the other's are the same), 6 classes
        ("grundy(Q + Q)", "25 options of the position (6 distinct"),
        (
            "outcome(clobber(\"xoxoxo|oxoxox\"))",
            "32 options of the position (8 distinct",
        ),
        (
            "outcome(domineering(3, 4))",
            "17 options of the position (6 distinct",
        ),
        (
            "outcome(domineering(4, 4))",
            "24 options of the position (4 distinct",
        ),
    ] {
        let (_tmp, dir) = scratch("classes");
        let out = try_split(&dir, query, 2);
        succeeded(&out);
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(text.contains(says), "{query}: {text}");
    }
}

#[test]
fn a_part_of_an_edited_script_is_refused() {
    let (_tmp, dir) = scratch("edited");
    split(&dir, "grundy(Q)", 2);
    // a part number past the plan is a usage error (exit 2)
    let out = part(&dir, 2);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("parts 0 to 1"));
    let script = dir.join("run/script.game");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, text.replace("grid(5, 5)", "grid(5, 4)")).unwrap();
    let out = part(&dir, 0);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("other options than the plan"));
}

/// An edited script split again into the same folder: the old parts are gone (they merged
/// into a stale answer), the new ones give the new answer; `use` is relative to the script's
/// folder, and the Slurm script runs from a folder whose name has a space.
#[test]
fn a_script_edited_and_split_again_merges_its_own_answer() {
    let (_tmp, dir) = scratch("again and again");
    let project = dir.join("my project");
    std::fs::create_dir_all(&project).unwrap();
    let rules = project.join("rules.game");
    std::fs::write(project.join("main.game"), "use \"./rules.game\"\n").unwrap();
    let run = |query: &str| {
        let out = gamut()
            .arg("split")
            .arg(project.join("main.game"))
            .arg(query)
            .args(["--parts", "2", "--dir"])
            .arg(dir.join("run"))
            .output()
            .unwrap();
        succeeded(&out);
        for i in ["0", "1"] {
            let out = Command::new("sh")
                .arg(dir.join("run/slurm.sh"))
                .env("SLURM_ARRAY_TASK_ID", i)
                .output()
                .unwrap();
            succeeded(&out);
        }
        merge(&dir)
    };
    std::fs::write(&rules, "game g(n) { move n - k for k in 1..n }\n").unwrap();
    assert_eq!(run("grundy(g(4))").1, "4\n");
    // taking 2 from 2 is no longer a move: g(2) is 1 and g(4) is 3
    std::fs::write(
        &rules,
        "game g(n) { move n - k for k in 1..n if n != 2 or k != 2 }\n",
    )
    .unwrap();
    let out = gamut()
        .arg("split")
        .arg(project.join("main.game"))
        .arg("grundy(g(4))")
        .args(["--parts", "2", "--dir"])
        .arg(dir.join("run"))
        .output()
        .unwrap();
    succeeded(&out);
    let (code, _, err) = merge(&dir);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("parts not finished"), "{err}");
    assert_eq!(run("grundy(g(4))").1, "3\n");
}

#[test]
fn only_grundy_outcome_and_scoring_values_split() {
    for (query, says) in [
        ("order(slide3_easy)", "`grundy(P)` or `outcome(P)`"),
        ("value(kayles(3))", "splits for a scoring game"),
        ("grundy(M)", "split `outcome(P)` for a misère position"),
    ] {
        let (_tmp, dir) = scratch("bad");
        let out = try_split(&dir, query, 2);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{query}"
        );
    }
}

/// Starts munge, slurmctld and slurmd as a one-node cluster in `dir`; `None` says why not.
fn one_node_cluster(dir: &Path) -> Result<(), String> {
    for tool in ["munged", "slurmctld", "slurmd", "sbatch", "sinfo"] {
        let found = Command::new("sh")
            .arg("-c")
            .arg(format!("command -v {tool} || test -x /usr/sbin/{tool}"))
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        if !found {
            return Err(format!(
                "{tool} is not installed (Debian: slurm-wlm, munge)"
            ));
        }
    }
    let host = String::from_utf8(Command::new("hostname").arg("-s").output().unwrap().stdout)
        .unwrap()
        .trim()
        .to_string();
    let d = dir.display();
    let conf = format!(
        "ClusterName=gamut\nSlurmctldHost={host}\nAuthType=auth/munge\nProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSchedulerType=sched/builtin\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nReturnToService=2\nSlurmUser=root\nMpiDefault=none\nSlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\nSlurmdSpoolDir={d}/spool\nStateSaveLocation={d}/state\nSlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\nNodeName={host} CPUs=2 State=UNKNOWN\nPartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n"
    );
    std::fs::create_dir_all(dir.join("spool")).unwrap();
    std::fs::create_dir_all(dir.join("state")).unwrap();
    std::fs::write(dir.join("slurm.conf"), conf).unwrap();
    let sh = |cmd: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .env("SLURM_CONF", dir.join("slurm.conf"))
            .env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    // munged may already run (a machine with Slurm installed as a service)
    if !sh(
        "pgrep -x munged >/dev/null || (mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null; munged --force)",
    ) {
        return Err("munged cannot start (it needs root and /etc/munge/munge.key)".into());
    }
    if !sh("slurmctld -f \"$SLURM_CONF\" && slurmd -f \"$SLURM_CONF\"") {
        return Err("slurmctld or slurmd cannot start (they need root)".into());
    }
    for _ in 0..60 {
        if sh("sinfo -h -o %T | grep -q idle") {
            return Ok(());
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    Err("the Slurm node did not become idle within 30 s".into())
}

/// Stops the cluster's daemons however the test ends.
struct Cluster(std::path::PathBuf);

impl Drop for Cluster {
    fn drop(&mut self) {
        for pid in ["slurmd.pid", "slurmctld.pid"] {
            if let Ok(p) = std::fs::read_to_string(self.0.join(pid)) {
                let _ = Command::new("kill").arg(p.trim()).status();
                // a daemon writes its state as it ends: wait, so the folder can be removed
                for _ in 0..100 {
                    let alive = Command::new("kill").args(["-0", p.trim()]).status();
                    if !alive.is_ok_and(|s| s.success()) {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
            }
        }
    }
}

#[test]
fn a_slurm_job_array_runs_the_parts() {
    let (_tmp, dir) = scratch("slurm");
    let cluster = Cluster(dir.join("cluster"));
    if let Err(why) = one_node_cluster(&cluster.0) {
        tools::found(false, &format!("Slurm cannot start here: {why}"));
        return;
    }
    // sbatch reads the log path itself: a space, a quote, a `#` and Slurm's `%` stay in it
    let (_runs_tmp, runs) = scratch("slurm %j \"q\" #x");
    split(&runs, "grundy(K)", 3);
    let out = Command::new("sbatch")
        .arg("--wait")
        .arg(runs.join("run/slurm.sh"))
        .env("SLURM_CONF", cluster.0.join("slurm.conf"))
        .output()
        .unwrap();
    drop(cluster);
    succeeded(&out);
    for i in 0..3 {
        let log = runs.join(format!("run/slurm-{i}.log"));
        assert!(log.exists(), "{} is missing", log.display());
    }
    let (code, merged, err) = merge(&runs);
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged, single("grundy(K)"));
}

/// The records split over sessions merge from their committed parts (docs/benchmarks.md),
/// past MCGS's table: Clobber on the 2 x 18 checkerboard is P (all 26 parts), and on 4 x 8 N
/// (one part done, a winning Left opening, whose negative is Right's: the board is its own
/// negative).
#[test]
fn the_committed_clobber_runs_merge_to_their_outcomes() {
    for (dir, want) in [("runs/clobber-2x18", "P"), ("runs/clobber-4x8", "N")] {
        let out = gamut().arg("merge").arg(dir).output().unwrap();
        succeeded(&out);
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), want, "{dir}");
    }
}

/// An outcome is N as soon as the finished parts give each side a winning move: the parts
/// still to run cannot change it. Queens on 5 x 5 split into 6 parts: part 4 holds a move to
/// a P-position, part 0 none. Clobber 2 x 5 in 4 parts: part 0 holds a winning move for each
/// side.
#[test]
fn a_finished_part_that_settles_the_outcome_is_enough() {
    for (query, parts, run, settled) in [
        ("outcome(Q)", 6, 4, true),
        ("outcome(Q)", 6, 0, false),
        ("outcome(clobber(\"xoxox|oxoxo\"))", 4, 0, true),
    ] {
        let (_tmp, dir) = scratch("settled");
        split(&dir, query, parts);
        succeeded(&part(&dir, run));
        let (code, out, err) = merge(&dir);
        if settled {
            assert_eq!(code, 0, "{query}: {err}");
            assert_eq!(out, single(query), "{query}");
            assert_eq!(out.trim(), "N");
        } else {
            assert_eq!(code, 1, "{query}: {out}");
            assert!(err.contains("parts not finished"), "{err}");
        }
    }
}
