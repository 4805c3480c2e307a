//! What every engine shares: plain error kinds (no source spans; the language attaches those),
//! a control handle for cancellation and progress, and the memory budget.
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// an argument the engine cannot take (bad code, bad board, bad position)
    Invalid,
    /// a size or depth limit would be passed
    Limit,
    /// the memory budget would be passed
    Memory,
    /// the user asked the engine to stop
    Cancelled,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
    pub hint: Option<String>,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn invalid(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Invalid,
            message: message.into(),
            hint: None,
        }
    }
    pub fn limit(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Limit,
            message: message.into(),
            hint: None,
        }
    }
    pub fn cancelled() -> Error {
        Error {
            kind: ErrorKind::Cancelled,
            message: "cancelled".into(),
            hint: None,
        }
    }
    pub fn hint(mut self, h: impl Into<String>) -> Error {
        self.hint = Some(h.into());
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Receives progress of long computations (the CLI draws a bar; tests and libraries need none).
pub trait Progress: Send + Sync {
    /// A task starts: `total` units of work if known.
    fn begin(&self, label: &str, total: Option<u64>);
    /// `done` units of the current task are finished.
    fn advance(&self, done: u64);
    /// The current task is over.
    fn end(&self);
    /// A line of a report (e.g. one line per search depth), shown above the bar.
    fn line(&self, _text: &str) {}
}

/// The handle an engine polls for cancellation, ticks for progress and asks for memory.
/// Cloning shares the flag, so one Ctrl-C reaches every worker thread.
#[derive(Clone)]
pub struct Ctl {
    cancel: Arc<AtomicBool>,
    progress: Option<Arc<dyn Progress>>,
    memory: Option<u64>,
    /// bytes a session keeps between queries (tables, memos): charged to the budget, so a
    /// query may use only the rest
    kept: Arc<AtomicU64>,
}

impl Default for Ctl {
    fn default() -> Ctl {
        Ctl::new(Arc::new(AtomicBool::new(false)))
    }
}

impl Ctl {
    /// A handle whose searches stop once `cancel` is set.
    pub fn new(cancel: Arc<AtomicBool>) -> Ctl {
        Ctl {
            cancel,
            progress: None,
            memory: None,
            kept: Arc::default(),
        }
    }

    pub fn with_progress(mut self, p: Arc<dyn Progress>) -> Ctl {
        self.progress = Some(p);
        self
    }

    /// Overrides the memory budget (bytes); by default it is the memory available to the process.
    pub fn with_memory(mut self, bytes: u64) -> Ctl {
        self.memory = Some(bytes);
        self
    }

    pub fn cancel_flag(&self) -> &Arc<AtomicBool> {
        &self.cancel
    }

    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// `Err(cancelled)` once cancellation was requested.
    pub fn check(&self) -> Result<()> {
        if self.cancelled() {
            Err(Error::cancelled())
        } else {
            Ok(())
        }
    }

    /// The whole memory budget in bytes, what the session keeps between queries included.
    pub fn budget(&self) -> u64 {
        self.memory.unwrap_or_else(available_memory)
    }

    /// The memory a query may use: the budget less what the session keeps between queries.
    pub fn memory(&self) -> u64 {
        self.budget().saturating_sub(self.kept())
    }

    /// Bytes the session keeps between queries (shared by every clone of the handle).
    pub fn kept(&self) -> u64 {
        self.kept.load(Ordering::Relaxed)
    }

    pub fn set_kept(&self, bytes: u64) {
        self.kept.store(bytes, Ordering::Relaxed);
    }

    /// Refuses, with the estimate in the message, an allocation of `bytes` for `what` that
    /// would pass the budget.
    pub fn reserve(&self, bytes: u64, what: &str) -> Result<()> {
        let have = self.memory();
        if bytes > have {
            return Err(over_budget(bytes, have, what));
        }
        Ok(())
    }

    /// Shows a line of a report (one per search depth, say) where progress goes.
    pub fn line(&self, text: &str) {
        if let Some(p) = &self.progress {
            p.line(text);
        }
    }

    /// Starts a task that reports progress; dropping it ends the task.
    pub fn task(&self, label: &str, total: Option<u64>) -> Task<'_> {
        if let Some(p) = &self.progress {
            p.begin(label, total);
        }
        Task {
            ctl: self,
            done: AtomicU64::new(0),
        }
    }
}

/// A running task: `tick` adds finished work, polls cancellation and reports progress.
/// It is `Sync`, so rayon workers may tick the same task.
pub struct Task<'a> {
    ctl: &'a Ctl,
    done: AtomicU64,
}

impl Task<'_> {
    pub fn tick(&self, n: u64) -> Result<()> {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        if let Some(p) = &self.ctl.progress {
            p.advance(done);
        }
        self.ctl.check()
    }

    /// Sets the absolute amount of finished work.
    pub fn set(&self, done: u64) -> Result<()> {
        self.done.store(done, Ordering::Relaxed);
        if let Some(p) = &self.ctl.progress {
            p.advance(done);
        }
        self.ctl.check()
    }
}

impl Drop for Task<'_> {
    fn drop(&mut self) {
        if let Some(p) = &self.ctl.progress {
            p.end();
        }
    }
}

/// The error for `what` needing `bytes` when `have` is the budget.
pub fn over_budget(bytes: u64, have: u64, what: &str) -> Error {
    let (mut need, mut free) = (human_bytes(bytes), human_bytes(have));
    if need == free {
        // rounded alike: the exact numbers show the difference
        (need, free) = (
            format!("{} bytes", num(bytes)),
            format!("{} bytes", num(have)),
        );
    }
    Error {
        kind: ErrorKind::Memory,
        message: format!("{what} needs about {need} of memory; {free} is available"),
        hint: None,
    }
    .hint("try a smaller input, or raise the budget with --memory if more is really free")
}

/// Memory the process may use in all: the least of MemAvailable (plus what the process holds
/// already), the cgroup limit and the address-space rlimit (less the address space reserved
/// but not used, such as thread stacks); 4 GB where none can be read. Reading it costs four
/// files in /proc and /sys, so a reading is reused for 100 ms: the sum hardly moves as the
/// process grows, since what it holds is counted on both sides.
pub fn available_memory() -> u64 {
    static LAST: std::sync::Mutex<Option<(std::time::Instant, u64)>> = std::sync::Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    match *last {
        Some((at, bytes)) if at.elapsed() < std::time::Duration::from_millis(100) => bytes,
        _ => {
            let bytes = read_available_memory();
            *last = Some((std::time::Instant::now(), bytes));
            bytes
        }
    }
}

fn read_available_memory() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").ok();
    let page = 4096u64;
    let (vsize, rss) = statm
        .as_deref()
        .and_then(|t| {
            let mut w = t.split_whitespace();
            let v = w.next()?.parse::<u64>().ok()?;
            let r = w.next()?.parse::<u64>().ok()?;
            Some((v * page, r * page))
        })
        .unwrap_or((0, 0));
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok().and_then(|t| {
        t.lines()
            .find(|l| l.starts_with("MemAvailable:"))
            .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .map(|kb| kb * 1024 + rss)
    });
    let cgroup = [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .find_map(|p| std::fs::read_to_string(p).ok()?.trim().parse::<u64>().ok());
    let rlimit = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("Max address space"))
                .and_then(|l| l.split_whitespace().nth(3)?.parse::<u64>().ok())
        })
        .map(|lim| lim.saturating_sub(vsize.saturating_sub(rss)));
    [meminfo, cgroup, rlimit]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(4 << 30)
}

/// About the bytes a hash map's table takes (its keys' own heap data not counted).
pub fn map_bytes<K, V, S>(m: &std::collections::HashMap<K, V, S>) -> u64 {
    (m.capacity() * (std::mem::size_of::<(K, V)>() + 1)) as u64
}

pub fn human_bytes(b: u64) -> String {
    if b >= 1 << 30 {
        format!("{:.1} GB", b as f64 / (1u64 << 30) as f64)
    } else if b >= 1 << 20 {
        format!("{:.1} MB", b as f64 / (1u64 << 20) as f64)
    } else if b >= 1 << 10 {
        format!("{:.1} KB", b as f64 / (1u64 << 10) as f64)
    } else {
        format!("{b} bytes")
    }
}

/// The one digit-grouping rule of text output: integers of more than three digits are grouped
/// by thousands with `_` (`19_612`, `-1_000_000`), which never reads as a list separator and is
/// also how integer literals may be written. JSON output is never grouped.
pub fn grouped(digits: &str) -> String {
    let (sign, d) = digits.strip_prefix('-').map_or(("", digits), |d| ("-", d));
    if d.len() <= 3 || !d.bytes().all(|b| b.is_ascii_digit()) {
        return digits.to_string();
    }
    let mut out = String::with_capacity(digits.len() + d.len() / 3);
    out.push_str(sign);
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i) % 3 == 0 {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// `grouped` for any integer.
/// The column headings of per-depth progress lines (`depth_line`), `extra` last.
pub fn depth_heading(extra: &str) -> String {
    format!(
        "{:>5}  {:>16}  {:>18}  {:>9}  {extra}",
        "depth", "count", "cumulative", "seconds"
    )
    .trim_end()
    .to_string()
}

/// One line of per-depth progress of a breadth-first search, under `depth_heading`.
pub fn depth_line(depth: usize, count: u64, cumulative: u64, secs: f64, extra: &str) -> String {
    format!(
        "{depth:>5}  {:>16}  {:>18}  {secs:>9.1}  {extra}",
        num(count),
        num(cumulative)
    )
    .trim_end()
    .to_string()
}

pub fn num(n: impl fmt::Display) -> String {
    grouped(&n.to_string())
}

/// The largest script or data file read: an endless input (`/dev/zero`) or a huge one is
/// refused rather than read into memory.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// All of `r`, refused past [`MAX_FILE_BYTES`].
pub fn read_capped(r: impl std::io::Read) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = vec![];
    r.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::other(format!(
            "longer than {} (files are read whole, up to that size)",
            human_bytes(MAX_FILE_BYTES)
        )));
    }
    Ok(bytes)
}

/// A text file, read with [`read_capped`].
pub fn read_text_file(path: impl AsRef<std::path::Path>) -> std::io::Result<String> {
    utf8_text(read_capped_file(path)?)
}

/// The bytes as text, or an error naming the first byte that is not UTF-8.
pub fn utf8_text(bytes: Vec<u8>) -> std::io::Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// A file's bytes, read with [`read_capped`].
pub fn read_capped_file(path: impl AsRef<std::path::Path>) -> std::io::Result<Vec<u8>> {
    read_capped(std::fs::File::open(path)?)
}
