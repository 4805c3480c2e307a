//! Errors carry a span into one of the interpreter's sources and a hint for the user.
use crate::engine;
use crate::lang::syntax::ast::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Parse,
    Runtime,
    /// a runtime error: the memory budget would be passed
    Memory,
    Cancelled,
}

#[derive(Debug, Clone)]
pub struct Error {
    pub kind: Kind,
    pub message: String,
    pub span: Option<Span>,
    pub hint: Option<String>,
    /// a parse error at the end of the input (the REPL then asks for another line)
    pub at_end: bool,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn runtime(message: impl Into<String>, span: Span) -> Error {
        Error {
            kind: Kind::Runtime,
            message: message.into(),
            span: Some(span),
            hint: None,
            at_end: false,
        }
    }

    /// An engine error not yet tied to source; the evaluator attaches the call's span.
    pub fn plain(message: impl Into<String>) -> Error {
        Error {
            kind: Kind::Runtime,
            message: message.into(),
            span: None,
            hint: None,
            at_end: false,
        }
    }

    pub fn cancelled() -> Error {
        Error {
            kind: Kind::Cancelled,
            message: "cancelled".into(),
            span: None,
            hint: None,
            at_end: false,
        }
    }

    pub fn hint(mut self, h: impl Into<String>) -> Error {
        self.hint = Some(h.into());
        self
    }

    pub fn at(mut self, span: Span) -> Error {
        self.span.get_or_insert(span);
        self
    }

    pub fn exit_code(&self) -> i32 {
        match self.kind {
            Kind::Parse => 2,
            Kind::Runtime | Kind::Memory | Kind::Cancelled => 1,
        }
    }
}

/// An engine's error gets the call's span from the evaluator (`at`).
impl From<engine::Error> for Error {
    fn from(e: engine::Error) -> Error {
        Error {
            kind: match e.kind {
                engine::ErrorKind::Cancelled => Kind::Cancelled,
                engine::ErrorKind::Memory => Kind::Memory,
                _ => Kind::Runtime,
            },
            message: e.message,
            span: None,
            hint: e.hint,
            at_end: false,
        }
    }
}

/// An error rendered miette-style: file, line:column, the span underlined, a hint.
pub fn render(it: &crate::lang::run::eval::Interp, e: &Error) -> String {
    use miette::{LabeledSpan, MietteDiagnostic, NamedSource, Report};
    let mut e = e.clone();
    if e.hint.is_none() && e.kind == Kind::Runtime {
        e.hint = Some("docs/errors.md lists the messages and what to do about them".into());
    }
    let mut diag = MietteDiagnostic::new(e.message.clone());
    if let Some(h) = &e.hint {
        diag = diag.with_help(h.clone());
    }
    let Some(span) = e.span.filter(|s| (s.src as usize) < it.sources.len()) else {
        return plain(format!("error: {}", e.message), &e.hint);
    };
    let src = &it.sources[span.src as usize];
    let text = &src.text;
    let start = (span.start as usize).min(text.len());
    let end = (start + span.len()).min(text.len());
    // very long lines are reported plainly (the drawing would be unreadable, and miette's
    // layout of them is not robust)
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    if line_end - line_start > 2000 || !text.is_char_boundary(start) || !text.is_char_boundary(end)
    {
        let line = text[..start].matches('\n').count() + 1;
        let col = text[line_start..start].chars().count() + 1;
        return plain(
            format!("error: {}\n  at {}:{line}:{col}", e.message, src.name),
            &e.hint,
        );
    }
    diag = diag.with_label(LabeledSpan::at(start..end, "here"));
    let report =
        Report::new(diag).with_source_code(NamedSource::new(src.name.clone(), text.to_string()));
    format!("{report:?}")
}

fn plain(text: String, hint: &Option<String>) -> String {
    match hint {
        Some(h) => format!("{text}\n  help: {h}"),
        None => text,
    }
}

/// The candidate nearest to `name` by edit distance, if it is close enough to be a typo.
pub fn closest(name: &str, cands: &[String]) -> Option<String> {
    fn dist(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut cur = vec![i + 1];
            for (j, cb) in b.iter().enumerate() {
                cur.push(
                    (prev[j] + (ca != *cb) as usize)
                        .min(prev[j + 1] + 1)
                        .min(cur[j] + 1),
                );
            }
            prev = cur;
        }
        prev[b.len()]
    }
    let limit = (name.chars().count() / 3).max(1);
    cands
        .iter()
        .map(|c| (dist(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c.clone())
}
