//! A query split over many processes: `grundy(P)`, `outcome(P)` or a scoring game's `value(P)`
//! is answered from the values of P's options, which are independent, so each of N parts
//! computes every N-th option and a merge takes the mex (looks for an option that is a loss,
//! for each side of a partizan position; takes the best score). A batch system runs the parts: a Slurm job array or GNU parallel;
//! gamut only writes the parts and merges their results.
//!
//! The folder holds `plan.json` (an id drawn anew by every split, the query, the script's text,
//! the number of options and a fingerprint of the query, the script and the options' list),
//! `script.game`, `slurm.sh`, and one `part-I.json` per finished part. Every part lists the
//! options again and checks the fingerprint, so a part run by another build, on an edited script
//! or for another query is refused rather than merged; a part names its plan, query and options,
//! and the merge checks each of its answers (the option it answers, the kind of answer) before
//! using it. A plan or part is a file anyone can edit: its counts are bounded before any use.
use crate::engine::Ctl;
use crate::engine::partizan::Outcome;
use crate::lang::error::{Error, Result};
use crate::lang::run::cgt;
use crate::lang::run::eval::{Interp, MAX_ELEMENTS};
use crate::lang::run::rules::{Component, Position};
use crate::lang::run::value::Value;
use crate::lang::syntax::ast::Side;
use crate::lang::syntax::ast::{Expr, ExprKind, Stmt};
use serde_json::{Value as Json, json};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The queries a split can answer: each is a function of the options' answers alone.
const QUERIES: [&str; 3] = ["grundy", "outcome", "value"];

/// More parts than this would only write files.
pub const MAX_PARTS: usize = 100_000;

struct Query {
    name: &'static str,
    position: Expr,
}

fn parse_query(it: &mut Interp, text: &str) -> Result<Query> {
    let bad = || {
        Error::plain(format!("cannot split `{text}`"))
            .hint("a split query is `grundy(P)` or `outcome(P)` for an impartial position P, e.g. `grundy(placement(grid(13, 13), [queen]))`, `outcome(P)` for a partizan one, e.g. `outcome(clobber(\"xoxo|oxox\"))`, or `value(P)` for a scoring game, e.g. `value(dots(4, 5))`")
    };
    let prog = it.parse("<query>", text)?;
    let [Stmt::Expr(e)] = prog.as_slice() else {
        return Err(bad());
    };
    let ExprKind::Call {
        callee,
        args,
        kwargs,
    } = &e.kind
    else {
        return Err(bad());
    };
    let (ExprKind::Ident(f), [arg], []) = (&callee.kind, args.as_slice(), kwargs.as_slice()) else {
        return Err(bad());
    };
    let name = QUERIES.into_iter().find(|q| **q == **f).ok_or_else(bad)?;
    Ok(Query {
        name,
        position: arg.clone(),
    })
}

/// A component's part of a class key: the family's class key (the state up to the board's
/// symmetries, `true`) where it has one, else the state itself.
type Part = (usize, bool, Vec<u64>);

/// A key options of equal value share: the parts of its components, sorted (the order of a
/// sum's components does not matter). `None` for a misère option, which is kept as it is.
fn class_of(o: &Value) -> Option<Vec<Part>> {
    sorted_parts(o, |c| {
        Some(match c.rs.family.class_key(&c.args) {
            Some(k) => (c.rs.id, true, k),
            None => (c.rs.id, false, c.args.iter().map(|&a| a as u64).collect()),
        })
    })
}

/// The class of an option's negative (see [`Family::negative_class_key`]), when each of its
/// components has one.
fn negative_class_of(o: &Value) -> Option<Vec<Part>> {
    sorted_parts(o, |c| {
        Some((c.rs.id, true, c.rs.family.negative_class_key(&c.args)?))
    })
}

/// The parts of a normal-play position's components, sorted (their order does not matter);
/// `None` when one has none.
fn sorted_parts(o: &Value, part: impl Fn(&Component) -> Option<Part>) -> Option<Vec<Part>> {
    let Value::Position(p) = o else { return None };
    if p.misere {
        return None;
    }
    let mut key = p.comps.iter().map(part).collect::<Option<Vec<Part>>>()?;
    key.sort();
    Some(key)
}

/// The options of a split's position.
struct Listed {
    /// one option per class of equal value (see [`class_of`]), in the order every process
    /// lists them, each with the points its mover scores on the way (for `value`; 0 otherwise)
    opts: Vec<(Value, i64)>,
    /// how many options there are in all
    all: usize,
    /// FNV-1a of the text of `opts`
    fingerprint: u64,
    /// misère play: a position without options is then won by the player to move
    misere: bool,
    /// a partizan position: its first `lefts` options are Left's, the others Right's
    lefts: Option<usize>,
    /// Left's options whose negatives are Right's options too: their answers count for both
    mirrors: Vec<usize>,
}

fn options(it: &mut Interp, script: &str, query: &str, q: &Query) -> Result<Listed> {
    it.run_source("script.game", script)?;
    let env = it.globals.clone();
    let p = it.eval(&q.position, &env)?;
    let span = q.position.span;
    let misere = matches!(&p, Value::Position(pos) if pos.misere);
    if q.name == "grundy" && misere {
        return Err(Error::runtime(
            "grundy values are for normal play; a misère position has none",
            span,
        )
        .hint("split `outcome(P)` for a misère position"));
    }
    let mut lefts = None;
    let opts: Vec<(Value, i64)> = if q.name == "value" {
        let scored = match &p {
            Value::Position(pos) => match pos.the_one() {
                Some(c) => {
                    c.rs.family
                        .scoring_moves(&c.args)?
                        .map(|m| (c.rs.clone(), m))
                }
                None => None,
            },
            _ => None,
        };
        let Some((rs, moves)) = scored else {
            return Err(
                Error::runtime(format!("value({}) does not split", p.to_text()), span)
                    .hint("`value(P)` splits for a scoring game, e.g. `value(dots(4, 5))`"),
            );
        };
        moves
            .into_iter()
            .map(|(args, taken)| {
                (
                    Value::Position(Rc::new(Position::single(rs.clone(), args))),
                    taken,
                )
            })
            .collect()
    } else if let Some(l) = cgt::option_positions(it, &p, Side::Left)? {
        let r = cgt::option_positions(it, &p, Side::Right)?.unwrap_or_default();
        lefts = Some(l.len());
        l.into_iter().chain(r).map(|o| (o, 0)).collect()
    } else {
        match it.call_values(&Value::Builtin("options"), vec![p], span)? {
            Value::List(xs) => xs.iter().map(|o| (o.clone(), 0)).collect(),
            v => return Err(Error::runtime(format!("options gave {}", v.a_type()), span)),
        }
    };
    let all = opts.len();
    let mut seen = std::collections::HashSet::new();
    // a Left option's class, and its index among the options kept
    let mut left_class = std::collections::HashMap::new();
    let mut mirrors = std::collections::BTreeSet::new();
    let mut kept: Vec<(bool, Value, i64)> = vec![];
    for (i, (o, taken)) in opts.into_iter().enumerate() {
        // a partizan position's options are of one class only for the same player
        let left = lefts.is_some_and(|n| i < n);
        if lefts.is_some() && !left {
            // Right's move to -X wins exactly when Left's move to X does
            if let Some(&j) = negative_class_of(&o).and_then(|k| left_class.get(&k)) {
                mirrors.insert(j);
                continue;
            }
        }
        if let Some(k) = class_of(&o) {
            if !seen.insert((k.clone(), taken, left)) {
                continue;
            }
            if left {
                left_class.insert(k, kept.len());
            }
        }
        kept.push((left, o, taken));
    }
    let lefts = lefts.map(|_| kept.iter().filter(|(left, _, _)| *left).count());
    let opts: Vec<(Value, i64)> = kept.into_iter().map(|(_, o, t)| (o, t)).collect();
    let mirrors: Vec<usize> = mirrors.into_iter().collect();
    // the query, the script and the options: parts of another query or of an edited script
    // never merge with the new plan
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let texts = opts.iter().map(|(o, _)| o.to_text());
    let head = [
        query.to_string(),
        script.to_string(),
        format!("{lefts:?} {mirrors:?}"),
    ];
    for text in head.into_iter().chain(texts) {
        for b in text.bytes().chain([b'\n']) {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    Ok(Listed {
        opts,
        all,
        fingerprint: h,
        misere,
        lefts,
        mirrors,
    })
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> Error {
    Error::plain(format!("cannot {what} {}: {e}", path.display()))
}

/// A plan or a part, read whole if the memory budget holds what it may parse into: a JSON
/// value is 32 bytes, so up to 16 times the text, and the text itself.
fn read_json(ctl: &Ctl, path: &Path) -> Result<Json> {
    let len = std::fs::metadata(path)
        .map_err(|e| io_error("read", path, e))?
        .len();
    ctl.reserve(
        len.saturating_mul(17),
        &format!("reading {}", path.display()),
    )?;
    let text =
        crate::engine::control::read_text_file(path).map_err(|e| io_error("read", path, e))?;
    serde_json::from_str(&text)
        .map_err(|e| Error::plain(format!("{} is not a part of a split: {e}", path.display())))
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| io_error("write", path, e))
}

/// `gamut split` (the interpreter's printed values are not wanted: give it a silent sink): writes the plan, the script and a Slurm array job into `dir`; returns what to
/// run next.
pub fn plan(
    it: &mut Interp,
    script: &str,
    base_dir: Option<&Path>,
    query: &str,
    parts: usize,
    dir: &Path,
    gamut: &Path,
) -> Result<String> {
    if parts == 0 || parts > MAX_PARTS {
        return Err(Error::plain(format!(
            "--parts must be from 1 to {MAX_PARTS}"
        )));
    }
    let base = base_dir
        .map(|b| {
            if b.as_os_str().is_empty() {
                Path::new(".")
            } else {
                b
            }
        })
        .and_then(|b| b.canonicalize().ok())
        .map(|b| b.display().to_string());
    // `use` in the script is relative to the script's folder, as in `gamut run`
    it.base_dir = base.as_ref().map(PathBuf::from);
    // refused before anything is written: these paths go into slurm.sh
    let g = shell_word(gamut)?;
    sbatch_log(&std::path::absolute(dir).map_err(|e| io_error("find", dir, e))?)?;
    let q = parse_query(it, query)?;
    let Listed {
        opts,
        all,
        fingerprint,
        misere,
        lefts,
        mirrors,
    } = options(it, script, query, &q)?;
    std::fs::create_dir_all(dir).map_err(|e| io_error("create", dir, e))?;
    let dir = dir.canonicalize().map_err(|e| io_error("find", dir, e))?;
    // again: a link on the way may lead to a folder of another name
    let (d, log) = (shell_word(&dir)?, sbatch_log(&dir)?);
    // the answers of an earlier split into this folder belong to its plan, not this one
    let listing = std::fs::read_dir(&dir).map_err(|e| io_error("read", &dir, e))?;
    for entry in listing.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("part-") && name.ends_with(".json") {
            std::fs::remove_file(entry.path()).map_err(|e| io_error("remove", &entry.path(), e))?;
        }
    }
    let plan = json!({
        "id": new_id(),
        "query": query,
        "answer": q.name,
        "base_dir": base,
        "parts": parts,
        "options": opts.len(),
        "misere": misere,
        "lefts": lefts,
        "mirrors": mirrors,
        "fingerprint": fingerprint.to_string(),
    });
    write(&dir.join("plan.json"), &format!("{plan:#}\n"))?;
    write(&dir.join("script.game"), script)?;
    let last = parts - 1;
    let slurm = format!(
        "#!/bin/sh\n#SBATCH --job-name=gamut-split\n#SBATCH --array=0-{last}\n#SBATCH --output={log}\nexec {g} part {d} \"$SLURM_ARRAY_TASK_ID\"\n",
    );
    write(&dir.join("slurm.sh"), &slurm)?;
    Ok(format!(
        "{} options of the position ({} distinct under its symmetries) in {parts} parts, written to {}\n  Slurm:        sbatch {}\n  GNU parallel: parallel {g} part {d} ::: $(seq 0 {last})\n  then:         {g} merge {d}",
        crate::engine::control::num(all),
        crate::engine::control::num(opts.len()),
        dir.display(),
        shell_word(&dir.join("slurm.sh"))?,
    ))
}

/// A fresh plan id: the time, the process id and a count of this process's splits, hashed with
/// the random keys of std's hash maps.
fn new_id() -> String {
    use std::hash::BuildHasher;
    use std::sync::atomic::{AtomicU64, Ordering};
    static SPLITS: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let n = SPLITS.fetch_add(1, Ordering::Relaxed);
    let h = std::collections::hash_map::RandomState::new().hash_one((now, std::process::id(), n));
    format!("{h:016x}")
}

/// The text of a path written into slurm.sh: refused if it is not UTF-8 (the script would name
/// another path) or holds a control character (a newline would start a command of its own).
fn path_text(p: &Path) -> Result<&str> {
    let shown = format!("{:?}", p.as_os_str());
    let text = p.to_str().ok_or_else(|| {
        Error::plain(format!("the path {shown} is not UTF-8 text"))
            .hint("a split's folder and gamut's path are written into slurm.sh: name them in UTF-8")
    })?;
    if text.chars().any(char::is_control) {
        return Err(Error::plain(format!(
            "the path {shown} holds a control character (a newline, say)"
        ))
        .hint("a split's folder and gamut's path are written into slurm.sh: name them without control characters"));
    }
    Ok(text)
}

/// A path as one shell word (single quotes; a quote inside becomes '\'').
fn shell_word(p: &Path) -> Result<String> {
    Ok(format!("'{}'", path_text(p)?.replace('\'', "'\\''")))
}

/// The parts' log files as one argument of an `#SBATCH` line, which sbatch reads itself: in
/// double quotes, `\"` for a quote, `%%` for a `%` (Slurm's pattern sign). A backslash in the
/// file name turns Slurm's patterns off, so the `%a` would not name the part: refused.
fn sbatch_log(dir: &Path) -> Result<String> {
    let text = path_text(dir)?;
    if text.contains('\\') {
        return Err(Error::plain(format!(
            "the path {text:?} holds a backslash, which Slurm's log file names cannot hold"
        ))
        .hint("choose a --dir without backslashes"));
    }
    let folder = text.replace('%', "%%").replace('"', "\\\"");
    Ok(format!("\"{folder}/slurm-%a.log\""))
}

/// The plan in `dir`, its counts checked before any use: parts up to [`MAX_PARTS`], options no
/// more than a list may hold.
fn plan_of(ctl: &Ctl, dir: &Path) -> Result<(Json, usize)> {
    let path = dir.join("plan.json");
    let plan = read_json(ctl, &path)?;
    let bad = |why: String| {
        Error::plain(format!(
            "{} is not a plan of a split: {why}",
            path.display()
        ))
        .hint("write the split again with `gamut split`")
    };
    let count = |k: &str, lo: u64, hi: u64| {
        plan[k]
            .as_u64()
            .filter(|c| (lo..=hi).contains(c))
            .ok_or_else(|| {
                let hi = crate::engine::control::num(hi);
                bad(format!("`{k}` is not a whole number from {lo} to {hi}"))
            })
    };
    let parts = count("parts", 1, MAX_PARTS as u64)? as usize;
    count("options", 0, MAX_ELEMENTS)?;
    if !plan["id"].is_string() {
        return Err(bad("it has no `id`".into()));
    }
    Ok((plan, parts))
}

/// `gamut part DIR I`: answers the query for options I, I + N, I + 2N, ... into `part-I.json`.
pub fn part(it: &mut Interp, dir: &Path, index: usize) -> Result<()> {
    let (plan, parts) = plan_of(&it.ctl, dir)?;
    if index >= parts {
        // a wrong command line, so exit status 2 as for a parse error
        return Err(Error {
            kind: crate::lang::error::Kind::Parse,
            ..Error::plain(format!(
                "part {index} does not exist: the split has parts 0 to {}",
                parts - 1
            ))
        });
    }
    let script = crate::engine::control::read_text_file(dir.join("script.game"))
        .map_err(|e| io_error("read", &dir.join("script.game"), e))?;
    it.base_dir = plan["base_dir"].as_str().map(PathBuf::from);
    let query = plan["query"].as_str().unwrap_or("");
    let q = parse_query(it, query)?;
    let Listed {
        opts,
        fingerprint,
        lefts,
        ..
    } = options(it, &script, query, &q)?;
    if plan["fingerprint"].as_str() != Some(fingerprint.to_string().as_str()) {
        return Err(Error::plain(
            "this part lists other options than the plan: the script or gamut changed since the split",
        )
        .hint("write the split again with `gamut split`"));
    }
    let mut answers = vec![];
    for (i, (o, taken)) in opts.into_iter().enumerate().skip(index).step_by(parts) {
        it.ctl.check()?;
        if let Some(n) = lefts {
            // whether the move to this option wins: the opponent, moving first there, loses
            let opponent_left = i >= n;
            let w = cgt::wins(it, &o, opponent_left)?.ok_or_else(|| {
                Error::runtime(
                    format!("outcome({}) does not split", o.to_text()),
                    q.position.span,
                )
                .hint("the options of a partizan position split when each is a short game")
            })?;
            answers.push(json!([i, !w]));
            continue;
        }
        // an error is reported at the query's position
        let v = it.call_values(&Value::Builtin(q.name), vec![o], q.position.span)?;
        let answer = match (q.name, &v) {
            // the mover's score: what the move takes, then the option's value for whoever moves
            // there (the same player after a capture, the opponent otherwise)
            ("value", Value::Int(v)) if taken > 0 => json!(taken + v),
            ("value", Value::Int(v)) => json!(-v),
            _ => v.to_json(),
        };
        answers.push(json!([i, answer]));
    }
    let out = json!({
        "plan": plan["id"],
        "part": index,
        "parts": parts,
        "query": query,
        "fingerprint": fingerprint.to_string(),
        "answers": answers,
    });
    let path = dir.join(format!("part-{index}.json"));
    // written whole under another name first, so a killed part leaves no half file to merge
    let tmp = dir.join(format!(".part-{index}.json.tmp"));
    write(&tmp, &out.to_string())?;
    std::fs::rename(&tmp, &path).map_err(|e| io_error("write", &path, e))
}

/// `gamut merge DIR`: the query's answer from the parts' answers.
pub fn merge(ctl: &Ctl, dir: &Path) -> Result<Value> {
    let (plan, parts) = plan_of(ctl, dir)?;
    let kind = plan["answer"].as_str().unwrap_or("");
    let (Some(n), true) = (plan["options"].as_u64(), QUERIES.contains(&kind)) else {
        return Err(Error::plain(format!(
            "{}/plan.json is not a plan of a split",
            dir.display()
        ))
        .hint("write the split again with `gamut split`"));
    };
    let lefts = match &plan["lefts"] {
        Json::Null => None,
        l => Some(l.as_u64().filter(|&l| l <= n).ok_or_else(|| {
            Error::plain(format!(
                "{}/plan.json is not a plan of a split: `lefts` is not a count of options",
                dir.display()
            ))
        })?),
    };
    let mirrors: Vec<u64> = match &plan["mirrors"] {
        Json::Null => vec![],
        m => m
            .as_array()
            .and_then(|m| m.iter().map(|j| j.as_u64().filter(|&j| lefts.is_some_and(|l| j < l))).collect())
            .ok_or_else(|| {
                Error::plain(format!(
                    "{}/plan.json is not a plan of a split: `mirrors` is not a list of Left's options",
                    dir.display()
                ))
            })?,
    };
    // by option; filled from what the parts hold, so a forged count allocates nothing
    let mut answers: std::collections::BTreeMap<u64, Json> = Default::default();
    let mut missing = vec![];
    for i in 0..parts {
        let path = dir.join(format!("part-{i}.json"));
        if !path.exists() {
            missing.push(i.to_string());
            continue;
        }
        let p = read_json(ctl, &path)?;
        let foreign = |why: &str| {
            Error::plain(format!(
                "{} belongs to another split: {why}",
                path.display()
            ))
            .hint("run the part again with `gamut part`, or write the split again")
        };
        if p["fingerprint"] != plan["fingerprint"] || p["query"] != plan["query"] {
            return Err(foreign("it answers another query or script"));
        }
        if p["part"].as_u64() != Some(i as u64) || p["parts"].as_u64() != Some(parts as u64) {
            return Err(foreign("it is another part of the plan"));
        }
        // the same query and script: a part of an earlier split still running when the split
        // was written again, say (a file the script `use`s may have changed in between)
        if p["plan"] != plan["id"] {
            return Err(foreign(
                "it was written for another split of this query (an earlier split into this folder, say)",
            ));
        }
        for a in p["answers"].as_array().into_iter().flatten() {
            let (Some(j), v) = (a[0].as_u64(), &a[1]) else {
                return Err(foreign("an answer names no option"));
            };
            let fits = match kind {
                "outcome" if lefts.is_some() => v.is_boolean(),
                "outcome" => v == "N" || v == "P",
                "value" => v.is_i64(),
                _ => v.is_u64(),
            };
            if j >= n || j % parts as u64 != i as u64 || !fits {
                return Err(foreign(&format!(
                    "its answer {a} is not one of this part's"
                )));
            }
            if answers.insert(j, v.clone()).is_some() {
                return Err(foreign(&format!("it answers option {j} twice")));
            }
        }
    }
    // an outcome the finished parts already settle: N once each side has a winning move (a
    // move to a P-position, impartial), whatever the parts still to run would add
    let win = |j: &u64| answers.get(j) == Some(&Json::Bool(true));
    let settled = match lefts {
        Some(l) => {
            answers.keys().any(|j| *j < l && win(j))
                && (answers.keys().any(|j| *j >= l && win(j)) || mirrors.iter().any(win))
        }
        None => kind == "outcome" && answers.values().any(|a| a == "P"),
    };
    if settled {
        return Ok(Value::str(cgt::outcome_text(Outcome::N)));
    }
    if !missing.is_empty() {
        return Err(Error::plain(format!(
            "parts not finished ({} of {parts}): {}",
            missing.len(),
            missing.join(" ")
        ))
        .hint(format!("run them with `gamut part {} I`", dir.display())));
    }
    let answers: Vec<Json> = answers.into_values().collect();
    if answers.len() as u64 != n {
        return Err(Error::plain("the parts do not answer every option")
            .hint("write the split again with `gamut split`"));
    }
    if let Some(l) = lefts {
        // a side wins moving first when one of its moves wins; Right's moves to the negatives
        // of Left's options `mirrors` win as those do
        let wins = |a: &[Json]| a.iter().any(|a| a == &Json::Bool(true));
        let mirrored: Vec<Json> = mirrors
            .iter()
            .map(|&j| answers[j as usize].clone())
            .collect();
        let (l, r) = answers.split_at(l as usize);
        let right = wins(r) || wins(&mirrored);
        return Ok(Value::str(cgt::outcome_text(Outcome::of(wins(l), right))));
    }
    Ok(match kind {
        // N when some option is a P, or when there is none in misère play
        "outcome" => Value::str(
            if answers.iter().any(|a| a == "P")
                || (answers.is_empty() && plan["misere"] == Json::Bool(true))
            {
                "N"
            } else {
                "P"
            },
        ),
        // a game with no moves left scores nothing more
        "value" => Value::Int(answers.iter().filter_map(|a| a.as_i64()).max().unwrap_or(0)),
        _ => {
            let mut seen: Vec<u64> = answers.iter().filter_map(|a| a.as_u64()).collect();
            seen.sort_unstable();
            seen.dedup();
            let mex = seen.iter().enumerate().find(|&(i, &g)| i as u64 != g);
            Value::Int(mex.map_or(seen.len(), |(i, _)| i) as i64)
        }
    })
}
