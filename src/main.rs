//! The `gamut` command: scripts, one-liners and the REPL.
use clap::Parser;
use gamut::engine::Ctl;
use gamut::lang::error::{Error, Kind};
use gamut::lang::run::eval::Interp;
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

mod progress;
mod repl;

#[derive(Parser)]
#[command(
    name = "gamut",
    version,
    about = "A REPL and script interpreter for permutation puzzles and combinatorial games",
    override_usage = "gamut [OPTIONS] [run] [FILE | -]\n       gamut [OPTIONS] -e SOURCE\n       gamut [OPTIONS]            (the REPL, or a script read from a pipe)\n       gamut split FILE QUERY --parts N --dir DIR   (then `gamut part DIR I` for each I, `gamut merge DIR`)"
)]
struct Cli {
    /// `run FILE`, `FILE`, or `-` for a script read from standard input
    #[arg(value_name = "FILE")]
    args: Vec<String>,
    /// run a one-line program
    #[arg(short = 'e', value_name = "SOURCE", allow_hyphen_values = true)]
    source: Option<String>,
    /// print each value as a JSON line {"line": L, "value": V}
    #[arg(long, global = true)]
    json: bool,
    /// worker threads for parallel engines (default: all cores)
    #[arg(long, global = true, value_name = "N")]
    threads: Option<usize>,
    /// memory budget for searches and values, e.g. 512M or 2G (default: the memory available)
    #[arg(long, global = true, value_name = "SIZE")]
    memory: Option<String>,
    /// `gamut split`: how many parts to split the query into
    #[arg(long, value_name = "N")]
    parts: Option<usize>,
    /// `gamut split`: the folder the parts are written to
    #[arg(long, value_name = "DIR")]
    dir: Option<String>,
}

/// More worker threads than this only cost memory (and may pass the process's thread limit).
const MAX_THREADS: usize = 1024;

/// What became of standard output: 0 fine, 1 closed by the reader, 2 failed otherwise.
static OUT_STATE: AtomicU8 = AtomicU8::new(0);
static OUT_ERROR: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// Writes a line to stderr; a closed stderr is not worth dying for.
pub fn err_line(text: &str) {
    let mut e = std::io::stderr().lock();
    let _ = writeln!(e, "{text}");
    let _ = e.flush();
}

fn main() {
    // a panic is a bug in gamut: say so plainly instead of printing a Rust backtrace
    std::panic::set_hook(Box::new(|info| {
        err_line(&format!(
            "internal error in gamut: {info}\nthis is a bug; please report it with the input that caused it"
        ));
    }));
    let cli = Cli::parse();
    if let Some(n) = cli.threads {
        if n == 0 || n > MAX_THREADS {
            err_line(&format!("error: --threads must be from 1 to {MAX_THREADS}"));
            std::process::exit(2);
        }
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
        {
            err_line(&format!("error: cannot start {n} worker threads: {e}"));
            err_line("  help: use a smaller --threads");
            std::process::exit(2);
        }
    }
    let memory = match cli.memory.as_deref().map(parse_size) {
        None => None,
        Some(Some(b)) => Some(b),
        Some(None) => {
            err_line("error: --memory is a size such as 512M, 2G or a number of bytes");
            std::process::exit(2);
        }
    };
    // the evaluator recurses on nested expressions: give it a deep stack (it also checks how
    // much is left, so that deep recursion ends in an error, not an overflow)
    let code = match std::thread::Builder::new()
        .stack_size(1 << 29)
        .spawn(move || run(cli, memory))
    {
        Ok(h) => h.join().unwrap_or(1),
        Err(e) => {
            err_line(&format!("error: cannot start the interpreter thread: {e}"));
            1
        }
    };
    std::process::exit(code);
}

/// "512M", "2G", "1048576" → bytes.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let i = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let n: u64 = s[..i].parse().ok()?;
    let mult: u64 = match s[i..].trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" => 1 << 10,
        "M" | "MB" => 1 << 20,
        "G" | "GB" => 1 << 30,
        "T" | "TB" => 1 << 40,
        _ => return None,
    };
    n.checked_mul(mult).filter(|&b| b > 0)
}

fn run(cli: Cli, memory: Option<u64>) -> i32 {
    let mut args = cli.args.clone();
    if let Some(cmd @ ("split" | "part" | "merge")) = args.first().map(String::as_str) {
        return batch(cmd, &cli, &args[1..], memory);
    }
    if args.first().is_some_and(|a| a == "run") {
        args.remove(0);
        if args.is_empty() {
            err_line(
                "error: `gamut run` needs a FILE (or - to read the script from standard input)",
            );
            return 2;
        }
    }
    if args.len() > 1 {
        err_line(&format!(
            "error: one script at a time; got {}",
            args.join(" ")
        ));
        return 2;
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let mut it = Interp::new(printer(cli.json, cancel.clone()));
    it.json = cli.json;
    let mut ctl = Ctl::new(cancel.clone()).with_progress(Arc::new(progress::Bars::new(
        std::io::stderr().is_terminal(),
    )));
    if let Some(m) = memory {
        ctl = ctl.with_memory(m);
    }
    it.ctl = ctl;
    let file = args.pop();
    let (name, text) = match (file, cli.source) {
        (Some(f), None) if f == "-" => match read_stdin() {
            Ok(t) => ("<stdin>".to_string(), t),
            Err(e) => {
                err_line(&format!("error: cannot read standard input: {e}"));
                return 2;
            }
        },
        (Some(f), None) => match gamut::engine::control::read_capped_file(&f) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(t) => {
                    it.base_dir = std::path::Path::new(&f).parent().map(|p| p.to_path_buf());
                    (f, t)
                }
                Err(e) => {
                    err_line(&format!(
                        "error: {f} is not UTF-8 text (invalid byte at offset {})",
                        e.utf8_error().valid_up_to()
                    ));
                    return 2;
                }
            },
            Err(e) => {
                err_line(&format!("error: cannot read {f}: {e}"));
                // a word where a script was expected: a subcommand misremembered, say
                if e.kind() == std::io::ErrorKind::NotFound && !f.contains(['.', '/']) {
                    err_line("  help: `gamut --help` lists the commands and options");
                }
                return 2;
            }
        },
        (None, Some(src)) => ("<-e>".to_string(), src),
        (Some(_), Some(_)) => {
            err_line("error: give either a FILE or -e SOURCE, not both");
            return 2;
        }
        (None, None) if !std::io::stdin().is_terminal() => match read_stdin() {
            Ok(t) => ("<stdin>".to_string(), t),
            Err(e) => {
                err_line(&format!("error: cannot read standard input: {e}"));
                return 2;
            }
        },
        (None, None) => return repl::repl(it),
    };
    signals_cancel(&it, true);
    let r = it.run_source(&name, &text);
    let code = match r {
        Ok(()) => 0,
        Err(e) if e.kind == Kind::Cancelled => {
            if OUT_STATE.load(Ordering::Relaxed) == 0 {
                err_line("cancelled");
            }
            130
        }
        Err(e) => {
            report(&it, &e);
            e.exit_code()
        }
    };
    // the process ends here: its tables go back to the system with it, not entry by entry
    std::mem::forget(it);
    finish_output(code)
}

/// `gamut split`, `gamut part` and `gamut merge`: one query over many processes (`lang::split`).
fn batch(cmd: &str, cli: &Cli, args: &[String], memory: Option<u64>) -> i32 {
    use gamut::lang::split;
    let usage = match cmd {
        "split" => "gamut split FILE QUERY --parts N --dir DIR",
        "part" => "gamut part DIR I",
        _ => "gamut merge DIR",
    };
    let want = if cmd == "merge" { 1 } else { 2 };
    if args.len() != want || (cmd == "split") != (cli.parts.is_some() && cli.dir.is_some()) {
        err_line(&format!("error: usage: {usage}"));
        return 2;
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let mut it = Interp::new(Box::new(|_, _| {}));
    it.ctl = Ctl::new(cancel).with_progress(Arc::new(progress::Bars::new(
        std::io::stderr().is_terminal(),
    )));
    if let Some(m) = memory {
        it.ctl = it.ctl.clone().with_memory(m);
    }
    signals_cancel(&it, true);
    let r = match cmd {
        "split" => {
            let file = std::path::Path::new(&args[0]);
            match gamut::engine::control::read_text_file(file) {
                Ok(text) => {
                    let gamut = std::env::current_exe().unwrap_or_else(|_| "gamut".into());
                    let dir = std::path::Path::new(cli.dir.as_deref().unwrap_or("."));
                    let parts = cli.parts.unwrap_or(1);
                    split::plan(&mut it, &text, file.parent(), &args[1], parts, dir, &gamut)
                        .map(|msg| err_line(&msg))
                }
                Err(e) => {
                    err_line(&format!("error: cannot read {}: {e}", args[0]));
                    return 2;
                }
            }
        }
        "part" => match args[1].parse::<usize>() {
            Ok(i) => split::part(&mut it, std::path::Path::new(&args[0]), i),
            Err(_) => {
                err_line(&format!("error: usage: {usage} (I is a part number)"));
                return 2;
            }
        },
        _ => split::merge(&it.ctl, std::path::Path::new(&args[0])).map(|v| {
            let mut print = printer(cli.json, it.ctl.cancel_flag().clone());
            print(1, &v);
        }),
    };
    let code = match r {
        Ok(()) => 0,
        Err(e) => {
            report(&it, &e);
            e.exit_code()
        }
    };
    finish_output(code)
}

fn read_stdin() -> std::io::Result<String> {
    gamut::engine::control::utf8_text(gamut::engine::control::read_capped(std::io::stdin())?)
}

/// The exit status once output is flushed: a reader that went away ends the run quietly
/// (141, as SIGPIPE would); any other failure to write (a full disk) is an error.
fn finish_output(code: i32) -> i32 {
    if OUT_STATE.load(Ordering::Relaxed) == 0
        && let Err(e) = std::io::stdout().flush()
    {
        note_output_error(&e);
    }
    match OUT_STATE.load(Ordering::Relaxed) {
        1 => 141,
        2 => {
            err_line(&format!(
                "error: cannot write the output: {}",
                OUT_ERROR.lock().map(|s| s.clone()).unwrap_or_default()
            ));
            1
        }
        _ => code,
    }
}

fn note_output_error(e: &std::io::Error) {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        OUT_STATE.store(1, Ordering::Relaxed);
    } else {
        if let Ok(mut s) = OUT_ERROR.lock() {
            *s = e.to_string();
        }
        OUT_STATE.store(2, Ordering::Relaxed);
    }
}

fn printer(json: bool, cancel: Arc<AtomicBool>) -> gamut::lang::run::eval::Sink {
    // two blocks (records, tables) printed in a row are told apart by a blank line
    let mut after_block = false;
    Box::new(move |line, v| {
        if OUT_STATE.load(Ordering::Relaxed) != 0 {
            return;
        }
        let text = if json {
            format!("{{\"line\":{line},\"value\":{}}}", v.json_text())
        } else {
            v.to_text()
        };
        let block = !json && text.contains('\n');
        let gap = if block && after_block { "\n" } else { "" };
        after_block = block;
        let mut out = std::io::stdout().lock();
        let r = writeln!(out, "{gap}{text}").and_then(|_| out.flush());
        if let Err(e) = r {
            note_output_error(&e);
            // nobody reads what follows: stop the script
            cancel.store(true, Ordering::Relaxed);
        }
    })
}

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP set the interpreter's cancel flag, which every loop and
/// engine polls. A script that has not stopped 1.5 s later is ended anyway (exit 130).
#[cfg(unix)]
pub fn signals_cancel(it: &Interp, script: bool) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let flag = it.ctl.cancel_flag().clone();
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        for sig in signals.forever() {
            on_signal(&flag, script, sig == SIGINT);
        }
    });
}

/// Elsewhere only Ctrl-C is caught.
#[cfg(not(unix))]
pub fn signals_cancel(it: &Interp, script: bool) {
    let flag = it.ctl.cancel_flag().clone();
    let _ = ctrlc::set_handler(move || on_signal(&flag, script, true));
}

/// In the REPL with no query running, Ctrl-C reaches gamut as a signal only where rustyline
/// reads without raw mode (TERM=dumb, an Emacs shell); it must not end the session there, but
/// SIGTERM and SIGHUP do (exit 143).
fn on_signal(flag: &AtomicBool, script: bool, interrupt: bool) {
    if !script && repl::RUNNING.load(Ordering::Relaxed) == 0 {
        if !interrupt {
            std::process::exit(143);
        }
        return;
    }
    flag.store(true, Ordering::Relaxed);
    if script {
        std::thread::spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(1500));
            err_line("cancelled");
            std::process::exit(130);
        });
    }
}

/// Prints an error miette-style (`gamut::lang::error::render`).
pub fn report(it: &Interp, e: &Error) {
    if e.kind == Kind::Cancelled {
        err_line("cancelled");
    } else {
        err_line(&gamut::lang::error::render(it, e));
    }
}
