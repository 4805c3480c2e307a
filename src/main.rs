//! The `gamut` command: scripts, one-liners and the REPL.
use clap::{Parser, Subcommand};
use gamut::lang::error::Error;
use gamut::lang::eval::Interp;
use std::cell::RefCell;
use std::io::Write;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::Ordering;

#[derive(Parser)]
#[command(
    name = "gamut",
    version,
    about = "A REPL and script interpreter for permutation puzzles and combinatorial games"
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    cmd: Option<Cmd>,
    /// script to run (same as `gamut run FILE`)
    file: Option<PathBuf>,
    /// run a one-line program
    #[arg(short = 'e', value_name = "SOURCE")]
    source: Option<String>,
    /// print each value as a JSON line {"line": L, "value": V}
    #[arg(long, global = true)]
    json: bool,
    /// worker threads for parallel engines (default: all cores)
    #[arg(long, global = true, value_name = "N")]
    threads: Option<usize>,
}

#[derive(Subcommand)]
enum Cmd {
    /// run a .game script
    Run { file: PathBuf },
}

fn main() {
    // a panic is a bug in gamut: say so plainly instead of printing a Rust backtrace
    std::panic::set_hook(Box::new(|info| {
        eprintln!(
            "internal error in gamut: {info}\nthis is a bug; please report it with the input that caused it"
        );
    }));
    let cli = Cli::parse();
    if let Some(n) = cli.threads {
        if n == 0 {
            eprintln!("error: --threads must be at least 1");
            std::process::exit(2);
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .expect("thread pool set once");
    }
    // the evaluator recurses on nested expressions: give it a deep stack
    let code = std::thread::Builder::new()
        .stack_size(1 << 29)
        .spawn(move || run(cli))
        .expect("spawn interpreter thread")
        .join()
        .unwrap_or(1);
    std::process::exit(code);
}

fn run(cli: Cli) -> i32 {
    let file = match cli.cmd {
        Some(Cmd::Run { file }) => Some(file),
        None => cli.file,
    };
    let json = cli.json;
    let mut it = Interp::new(printer(json));
    let (name, text) = match (file, cli.source) {
        (Some(f), None) => match std::fs::read_to_string(&f) {
            Ok(t) => (f.display().to_string(), t),
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", f.display());
                return 2;
            }
        },
        (None, Some(src)) => ("<-e>".to_string(), src),
        (Some(_), Some(_)) => {
            eprintln!("error: give either a FILE or -e SOURCE, not both");
            return 2;
        }
        (None, None) => return repl(it),
    };
    ctrlc_cancels(&it);
    match it.run_source(&name, &text) {
        Ok(()) => 0,
        Err(e) => {
            report(&it, &e);
            e.exit_code()
        }
    }
}

fn printer(json: bool) -> gamut::lang::eval::Sink {
    Box::new(move |line, v| {
        let mut out = std::io::stdout().lock();
        let _ = if json {
            writeln!(
                out,
                "{}",
                serde_json::json!({"line": line, "value": v.to_json()})
            )
        } else {
            writeln!(out, "{}", v.to_text())
        };
        let _ = out.flush();
    })
}

/// Ctrl-C sets the interpreter's cancel flag, which every loop and engine polls.
fn ctrlc_cancels(it: &Interp) {
    let flag = it.ctl.cancel_flag().clone();
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
}

/// Render an error miette-style: file, line:column, the span underlined, a hint.
fn report(it: &Interp, e: &Error) {
    use miette::{LabeledSpan, MietteDiagnostic, NamedSource, Report};
    let mut diag = MietteDiagnostic::new(e.message.clone());
    if let Some(h) = &e.hint {
        diag = diag.with_help(h.clone());
    }
    let Some(span) = e.span.filter(|s| (s.src as usize) < it.sources.len()) else {
        eprintln!("error: {}", e.message);
        if let Some(h) = &e.hint {
            eprintln!("  help: {h}");
        }
        return;
    };
    let src = &it.sources[span.src as usize];
    let text = &src.text;
    let start = (span.start as usize).min(text.len());
    diag = diag.with_label(LabeledSpan::at(start..start + span.len(), "here"));
    let report =
        Report::new(diag).with_source_code(NamedSource::new(src.name.clone(), text.to_string()));
    eprintln!("{report:?}");
}

fn repl(mut it: Interp) -> i32 {
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
    let mut rl: rustyline::Editor<Helper, rustyline::history::DefaultHistory> =
        match rustyline::Editor::new() {
            Ok(rl) => rl,
            Err(e) => {
                eprintln!("error: cannot start the line editor: {e}");
                return 1;
            }
        };
    rl.set_helper(Some(Helper {
        names: names.clone(),
    }));
    let history = dirs::data_dir().map(|d| d.join("gamut").join("history.txt"));
    if let Some(h) = &history {
        let _ = std::fs::create_dir_all(h.parent().unwrap());
        let _ = rl.load_history(h);
    }
    ctrlc_cancels(&it);
    println!(
        "gamut {} — :help for help, :quit to leave",
        env!("CARGO_PKG_VERSION")
    );
    let mut n = 0;
    loop {
        let mut buf = String::new();
        let mut prompt = "gamut> ";
        let entry = loop {
            match rl.readline(prompt) {
                Ok(line) => {
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
                Err(_) => break None,
            }
        };
        let Some(entry) = entry else { break };
        let trimmed = entry.trim();
        if trimmed.is_empty() {
            continue;
        }
        let _ = rl.add_history_entry(trimmed);
        if let Some(h) = &history {
            let _ = rl.save_history(h);
        }
        if let Some(cmd) = trimmed.strip_prefix(':') {
            let mut words = cmd.split_whitespace();
            match (words.next(), words.next()) {
                (Some("quit") | Some("q"), _) => break,
                (Some("help"), None) => {
                    println!(
                        "Statements: let, fn, for, if, gen, group, board, game, use. An expression on its own is printed."
                    );
                    println!(
                        "Commands: :help NAME, :quit. Ctrl-C cancels a running query. Builtins:"
                    );
                    let names: Vec<&str> = it.builtins.keys().copied().collect();
                    println!("  {}", names.join(" "));
                }
                (Some("help"), Some(name)) => match it.builtins.get(name) {
                    Some(b) => println!("{}\n  {}", b.sig, b.help),
                    None => println!("no builtin named `{name}`"),
                },
                _ => println!("unknown command :{cmd} (try :help)"),
            }
            continue;
        }
        n += 1;
        it.ctl.cancel_flag().store(false, Ordering::Relaxed);
        // even a bug must not cost the session its bindings
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            it.run_source(&format!("<repl:{n}>"), &entry)
        }));
        if let Ok(Err(e)) = run {
            report(&it, &e);
        }
        it.ctl.cancel_flag().store(false, Ordering::Relaxed);
        refresh(&it, &names);
    }
    0
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
        let start = line[..pos]
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
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
