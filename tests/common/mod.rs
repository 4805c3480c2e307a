//! Run gamut source in-process and collect the printed values as JSON, or run the binary.
use assert_cmd::Command;
use gamut::lang::run::eval::Interp;
use std::cell::RefCell;
use std::rc::Rc;

#[allow(dead_code)]
pub fn values(src: &str) -> Vec<serde_json::Value> {
    let out = Rc::new(RefCell::new(vec![]));
    let sink = out.clone();
    let mut it = Interp::new(Box::new(move |_, v| sink.borrow_mut().push(v.to_json())));
    if let Err(e) = it.run_source("<test>", src) {
        panic!("{}: {:?}", e.message, e.hint);
    }
    out.take()
}

/// The value of one expression.
#[allow(dead_code)]
pub fn value(src: &str) -> serde_json::Value {
    let mut v = values(src);
    assert_eq!(v.len(), 1, "expected one value from {src}");
    v.remove(0)
}

/// The gamut binary, ready for arguments.
#[allow(dead_code)]
pub fn gamut() -> Command {
    Command::cargo_bin("gamut").unwrap()
}

/// `gamut -e SRC`: exit code, stdout, stderr.
#[allow(dead_code)]
pub fn run_e(src: &str) -> (i32, String, String) {
    run_e_with(&[], src)
}

/// `gamut OPTS -e SRC`: exit code, stdout, stderr.
#[allow(dead_code)]
pub fn run_e_with(opts: &[&str], src: &str) -> (i32, String, String) {
    let out = gamut().args(opts).arg("-e").arg(src).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The peak resident memory of a running process so far (VmHWM), in bytes; 0 once it is gone.
#[allow(dead_code)]
pub fn peak_memory_of(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|t| {
            let l = t.lines().find(|l| l.starts_with("VmHWM:"))?;
            l.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map_or(0, |kb| kb << 10)
}

/// A small deterministic generator (xorshift), so random cases are the same on every run.
#[allow(dead_code)]
pub struct Rng(pub u64);

#[allow(dead_code)]
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// γ, i and α of a graph of at most 20 vertices, by trying every set of vertices.
#[allow(dead_code)]
pub fn brute_numbers(adj: &[Vec<usize>]) -> (usize, usize, usize) {
    let n = adj.len();
    assert!(n <= 20);
    let closed: Vec<u32> = (0..n)
        .map(|v| adj[v].iter().fold(1 << v, |m, &u| m | 1 << u))
        .collect();
    let full = (1u32 << n) - 1;
    let (mut gamma, mut i, mut alpha) = (n, n, 0);
    for set in 0..=full {
        let mut covered = 0;
        let mut independent = true;
        for v in (0..n).filter(|&v| set >> v & 1 == 1) {
            covered |= closed[v];
            independent &= closed[v] & set == 1 << v;
        }
        let size = set.count_ones() as usize;
        if covered == full {
            gamma = gamma.min(size);
            if independent {
                i = i.min(size);
            }
        }
        if independent {
            alpha = alpha.max(size);
        }
    }
    (gamma, i, alpha)
}

/// A progress hook that cancels the work at its first progress past zero.
#[allow(dead_code)]
pub struct CancelOnProgress(pub std::sync::Arc<std::sync::atomic::AtomicBool>);

impl gamut::engine::control::Progress for CancelOnProgress {
    fn begin(&self, _: &str, _: Option<u64>) {}
    fn advance(&self, done: u64) {
        if done > 0 {
            self.0.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
    fn end(&self) {}
}

/// The `game NAME ... { ... }` block of an example, so a test checks the rule users read.
#[allow(dead_code)]
pub fn example_rule(example: &str, name: &str) -> String {
    let path = format!("{}/examples/{example}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find(&format!("game {name}")).unwrap();
    let end = start + text[start..].find("\n}").unwrap() + 2;
    text[start..end].to_string()
}
