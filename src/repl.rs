//! The interactive loop: multi-line input, completion, history, `:` commands.
use crate::{err_line, report, signals_cancel};
use gamut::lang::run::eval::Interp;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many queries are running (0 while the REPL waits for input).
pub static RUNNING: AtomicUsize = AtomicUsize::new(0);

fn out_line(text: &str) {
    let mut o = std::io::stdout().lock();
    let _ = writeln!(o, "{text}");
    let _ = o.flush();
}

pub fn repl(mut it: Interp) -> i32 {
    use rustyline::error::ReadlineError;
    let names: Rc<RefCell<Vec<String>>> = Rc::new(RefCell::new(vec![]));
    let refresh = |it: &Interp, names: &Rc<RefCell<Vec<String>>>| {
        let mut v: Vec<String> = it.globals.names().iter().map(|s| s.to_string()).collect();
        v.extend(it.builtins.keys().map(|s| s.to_string()));
        v.sort();
        v.dedup();
        *names.borrow_mut() = v;
    };
    refresh(&it, &names);
    let prelude: std::collections::HashSet<String> =
        it.globals.names().iter().map(|s| s.to_string()).collect();
    let config = rustyline::Config::builder()
        .completion_type(rustyline::CompletionType::List)
        .build();
    let mut rl: rustyline::Editor<Helper, rustyline::history::DefaultHistory> =
        match rustyline::Editor::with_config(config) {
            Ok(rl) => rl,
            Err(e) => {
                err_line(&format!("error: cannot start the line editor: {e}"));
                return 1;
            }
        };
    rl.set_helper(Some(Helper {
        names: names.clone(),
    }));
    let history = dirs::data_dir().map(|d| d.join("gamut").join("history.txt"));
    if let Some(h) = &history {
        if let Some(parent) = h.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = rl.load_history(h);
    }
    signals_cancel(&it, false);
    out_line(&format!(
        "gamut {} — :help for help, :quit to leave",
        env!("CARGO_PKG_VERSION")
    ));
    let mut n = 0;
    let mut bad_reads = 0;
    loop {
        let mut buf = String::new();
        let mut prompt = "gamut> ";
        let entry = loop {
            match rl.readline(prompt) {
                Ok(line) => {
                    bad_reads = 0;
                    buf.push_str(&line);
                    buf.push('\n');
                    if buf.trim().starts_with(':') {
                        break Some(buf.clone());
                    }
                    // keep reading while the input is incomplete
                    match gamut::lang::syntax::parse_program(&buf, 0) {
                        Err(e) if e.at_end && !line.trim().is_empty() => prompt = "  ... ",
                        _ => break Some(buf.clone()),
                    }
                }
                Err(ReadlineError::Interrupted) => break Some(String::new()),
                Err(ReadlineError::Eof) => break None,
                Err(e) => {
                    // e.g. a line that is not UTF-8: say so and keep the session
                    bad_reads += 1;
                    err_line(&format!(
                        "error: that input could not be read ({e}); it was ignored"
                    ));
                    if bad_reads > 20 {
                        return 1;
                    }
                    break Some(String::new());
                }
            }
        };
        let Some(entry) = entry else { break };
        let trimmed = entry.trim();
        if trimmed.is_empty() {
            continue;
        }
        let _ = rl.add_history_entry(trimmed);
        if let Some(h) = &history {
            // append, so that two sessions at once merge their histories
            let _ = rl.append_history(h);
        }
        // unless the user bound the name
        if matches!(
            trimmed,
            "help" | "quit" | "exit" | "help()" | "quit()" | "exit()"
        ) && it.globals.lookup(trimmed.trim_end_matches("()")).is_none()
        {
            out_line("commands start with a colon: :help for help, :quit (or Ctrl-D) to leave");
            continue;
        }
        if let Some(cmd) = trimmed.strip_prefix(':') {
            let cmd = cmd.trim();
            let (word, rest) = cmd.split_once(char::is_whitespace).unwrap_or((cmd, ""));
            let rest = rest.trim();
            match word {
                "quit" | "q" | "exit" => break,
                "help" | "h" if rest.is_empty() => help_all(&it),
                "help" | "h" => help_on(&it, rest),
                "vars" => {
                    let mut vars: Vec<String> = it
                        .globals
                        .names()
                        .iter()
                        .map(|s| s.to_string())
                        .filter(|s| !prelude.contains(s))
                        .collect();
                    vars.sort();
                    vars.dedup();
                    if vars.is_empty() {
                        out_line("no names defined in this session yet");
                    }
                    for v in vars {
                        if let Some(val) = it.globals.lookup(&v) {
                            let mut text = val.to_text().replace('\n', " ");
                            if text.chars().count() > 60 {
                                text = text.chars().take(57).collect::<String>() + "...";
                            }
                            out_line(&format!("{v:<16} {:<12} {text}", val.type_name()));
                        }
                    }
                }
                "time" if !rest.is_empty() => {
                    let t0 = std::time::Instant::now();
                    n += 1;
                    run_entry(&mut it, &format!("<repl:{n}>"), rest);
                    out_line(&format!("time: {:.3} s", t0.elapsed().as_secs_f64()));
                }
                "load" if !rest.is_empty() => {
                    let path = rest.trim_matches('"');
                    match gamut::engine::control::read_text_file(path) {
                        Ok(text) => {
                            let was = it.base_dir.replace(
                                std::path::Path::new(path)
                                    .parent()
                                    .map(|p| p.to_path_buf())
                                    .unwrap_or_default(),
                            );
                            run_entry(&mut it, path, &text);
                            it.base_dir = was;
                        }
                        Err(e) => err_line(&format!("error: cannot read {path}: {e}")),
                    }
                }
                "time" => err_line(":time needs an expression, e.g. :time order(slide4_hard)"),
                "load" => err_line(":load needs a file, e.g. :load mygames.game"),
                _ => out_line(&format!(
                    "unknown command :{cmd} (commands: :help [NAME], :load FILE, :time EXPR, :vars, :quit)"
                )),
            }
            refresh(&it, &names);
            continue;
        }
        n += 1;
        run_entry(&mut it, &format!("<repl:{n}>"), &entry);
        refresh(&it, &names);
    }
    0
}

/// Runs one entry; the last value shown becomes `_`.
fn run_entry(it: &mut Interp, name: &str, text: &str) {
    it.ctl.cancel_flag().store(false, Ordering::Relaxed);
    it.last = None;
    RUNNING.fetch_add(1, Ordering::Relaxed);
    // even a bug must not cost the session its bindings
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| it.run_source(name, text)));
    RUNNING.fetch_sub(1, Ordering::Relaxed);
    if let Ok(Err(e)) = run {
        report(it, &e);
    }
    if let Some(v) = it.last.take() {
        it.globals.define("_".into(), v);
    }
    it.ctl.cancel_flag().store(false, Ordering::Relaxed);
}

fn help_all(it: &Interp) {
    out_line(
        "Statements: let, fn, for, if/else, gen, group, board, game (move), use. An expression on its own is printed.",
    );
    out_line(
        "Commands: :help NAME, :load FILE, :time EXPR, :vars, :quit. `_` is the last result. Ctrl-C cancels a running query.",
    );
    out_line(
        "Games by rules (game NAME on board, :help on): cells empty filled adjacent up down left right attacks to from is some end; on edges: edges marked unmarked faces into out_of head tail.",
    );
    let mut fams: Vec<(&str, Vec<&str>)> = vec![];
    for b in it.builtins.values() {
        match fams.iter_mut().find(|(f, _)| *f == b.family) {
            Some((_, v)) => v.push(b.name),
            None => fams.push((b.family, vec![b.name])),
        }
    }
    for (fam, mut names) in fams {
        names.sort();
        out_line(&format!("{fam}:"));
        out_line(&wrap(&names.join(" "), 96, "  "));
    }
    let mut lib: Vec<String> = gamut::lang::run::eval::stdlib_names()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    lib.sort();
    out_line("standard library:");
    out_line(&wrap(&lib.join(" "), 96, "  "));
}

fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::from(indent);
    for w in text.split(' ') {
        if line.len() + w.len() + 1 > width && !line.trim().is_empty() {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(indent);
        }
        line.push_str(w);
        line.push(' ');
    }
    out.push_str(line.trim_end());
    out
}

fn help_on(it: &Interp, name: &str) {
    let name = name.trim_end_matches("()");
    if let Some(text) = gamut::lang::help::help(it, name) {
        out_line(&text);
        return;
    }
    if let Some(v) = it.globals.lookup(name) {
        out_line(&format!(
            "`{name}` is {} defined in this session",
            v.a_type()
        ));
        return;
    }
    let mut cands: Vec<String> = it.builtins.keys().map(|s| s.to_string()).collect();
    cands.extend(
        gamut::lang::help::STATEMENTS
            .iter()
            .map(|(k, _, _)| k.to_string()),
    );
    cands.extend(
        gamut::lang::run::eval::stdlib_names()
            .into_iter()
            .map(|(n, _)| n),
    );
    match gamut::lang::error::closest(name, &cands) {
        Some(c) => out_line(&format!("nothing is named `{name}`; did you mean `{c}`?")),
        None => out_line(&format!(
            "nothing is named `{name}`; :help lists everything"
        )),
    }
}

struct Helper {
    names: Rc<RefCell<Vec<String>>>,
}

impl rustyline::completion::Completer for Helper {
    type Candidate = String;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let pos = pos.min(line.len());
        if !line.is_char_boundary(pos) {
            return Ok((pos, vec![]));
        }
        // the word before the cursor, found by characters (never inside a multibyte one)
        let start = line[..pos]
            .char_indices()
            .rev()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let word = &line[start..pos];
        if word.is_empty() {
            return Ok((pos, vec![]));
        }
        let c = self
            .names
            .borrow()
            .iter()
            .filter(|n| n.starts_with(word))
            .cloned()
            .collect();
        Ok((start, c))
    }
}
impl rustyline::hint::Hinter for Helper {
    type Hint = String;
}
impl rustyline::highlight::Highlighter for Helper {}
impl rustyline::validate::Validator for Helper {}
impl rustyline::Helper for Helper {}
