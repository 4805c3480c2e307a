//! Progress of long queries on stderr: an indicatif bar with rate and ETA on a terminal,
//! aligned plain lines otherwise. Nothing is shown for tasks shorter than a second.
use gamut::engine::control::{Progress, num};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Show a task once it has run this long.
const SHOW_AFTER: Duration = Duration::from_millis(1000);
/// Plain (non-terminal) progress lines come at most this often.
const PLAIN_EVERY: Duration = Duration::from_secs(10);

pub struct Bars {
    terminal: bool,
    state: Mutex<State>,
    /// milliseconds since `epoch` of the last look at the clock (cheap filter for ticks)
    last_ms: AtomicU64,
    epoch: Instant,
}

struct State {
    label: String,
    total: Option<u64>,
    started: Instant,
    bar: Option<ProgressBar>,
    last_plain: Instant,
    done: u64,
    /// tasks begun and not ended: only the outermost is shown (inner ones are its steps)
    depth: usize,
    /// report lines of a task not yet shown (a task is shown once it runs a second)
    pending: Vec<String>,
}

impl Bars {
    /// `terminal`: stderr is one. A dumb terminal (an Emacs shell) cannot redraw a bar, so it
    /// gets the plain lines.
    pub fn new(terminal: bool) -> Bars {
        let now = Instant::now();
        Bars {
            terminal: terminal && std::env::var("TERM").is_ok_and(|t| t != "dumb"),
            state: Mutex::new(State {
                label: String::new(),
                total: None,
                started: now,
                bar: None,
                last_plain: now,
                done: 0,
                depth: 0,
                pending: vec![],
            }),
            last_ms: AtomicU64::new(0),
            epoch: now,
        }
    }

    fn make_bar(&self, st: &State) -> ProgressBar {
        let bar = match st.total {
            Some(t) => ProgressBar::with_draw_target(Some(t), ProgressDrawTarget::stderr()),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
        };
        let style = if st.total.is_some() {
            ProgressStyle::with_template(
                "{msg} [{bar:30}] {done}/{total} {rate} eta {eta} (Ctrl-C cancels)",
            )
        } else {
            ProgressStyle::with_template("{spinner} {msg} {done} {rate} {elapsed} (Ctrl-C cancels)")
        };
        // numbers grouped as everywhere in gamut's text (indicatif's own use commas)
        if let Ok(s) = style {
            bar.set_style(
                s.with_key("done", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", num(s.pos()));
                })
                .with_key("total", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", num(s.len().unwrap_or(0)));
                })
                .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}/s", num(s.per_sec().round() as u64));
                })
                .progress_chars("=> "),
            );
        }
        bar.set_message(st.label.clone());
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    }
}

fn plain_line(text: &str) {
    crate::err_line(text);
}

impl Progress for Bars {
    fn begin(&self, label: &str, total: Option<u64>) {
        let Ok(mut st) = self.state.lock() else {
            return;
        };
        st.depth += 1;
        if st.depth > 1 {
            return;
        }
        if let Some(b) = st.bar.take() {
            b.finish_and_clear();
        }
        st.label = label.to_string();
        st.total = total;
        st.started = Instant::now();
        st.last_plain = st.started;
        st.done = 0;
        // lines written just before the task began (a search's heading) stay pending: they
        // are shown with the task's own once it has run a second
    }

    fn advance(&self, done: u64) {
        // ticks come from many threads, often: look at the clock at most every 50 ms
        let now_ms = self.epoch.elapsed().as_millis() as u64;
        let last = self.last_ms.load(Ordering::Relaxed);
        if now_ms < last + 50
            || self
                .last_ms
                .compare_exchange(last, now_ms, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        let Ok(mut st) = self.state.lock() else {
            return;
        };
        if st.depth > 1 {
            return;
        }
        st.done = st.done.max(done);
        if st.started.elapsed() < SHOW_AFTER {
            return;
        }
        if self.terminal {
            if st.bar.is_none() {
                let b = self.make_bar(&st);
                st.bar = Some(b);
            }
            if let Some(b) = &st.bar {
                b.set_position(st.done);
            }
        } else if st.last_plain.elapsed() >= PLAIN_EVERY {
            st.last_plain = Instant::now();
            let secs = st.started.elapsed().as_secs_f64();
            let of = st
                .total
                .map(|t| format!(" of {}", num(t)))
                .unwrap_or_default();
            plain_line(&format!(
                "{:<28} {:>16}{of}  {:>8.1} s",
                st.label,
                num(st.done),
                secs
            ));
        }
    }

    fn end(&self) {
        let Ok(mut st) = self.state.lock() else {
            return;
        };
        st.depth = st.depth.saturating_sub(1);
        if st.depth > 0 {
            return;
        }
        if let Some(b) = st.bar.take() {
            b.finish_and_clear();
        }
        let secs = st.started.elapsed();
        if !self.terminal && secs >= PLAIN_EVERY && !st.label.is_empty() {
            plain_line(&format!(
                "{:<28} {:>16}  {:>8.1} s  done",
                st.label,
                num(st.done),
                secs.as_secs_f64()
            ));
        }
        st.label.clear();
        st.pending.clear();
    }

    fn line(&self, text: &str) {
        let Ok(mut st) = self.state.lock() else {
            return;
        };
        if st.started.elapsed() < SHOW_AFTER {
            st.pending.push(text.to_string());
            return;
        }
        let mut lines = std::mem::take(&mut st.pending);
        lines.push(text.to_string());
        for l in lines {
            match &st.bar {
                Some(b) => b.println(l),
                None => plain_line(&l),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search's heading, written just before its task begins, is shown with the task's
    /// lines (the ranked diameter search prints its memory that way).
    #[test]
    fn lines_written_before_a_task_stay_pending_for_it() {
        let bars = Bars::new(false);
        bars.line("heading");
        bars.begin("search", None);
        bars.line("layer 0");
        assert_eq!(bars.state.lock().unwrap().pending, ["heading", "layer 0"]);
        bars.end();
        assert!(bars.state.lock().unwrap().pending.is_empty());
    }
}
