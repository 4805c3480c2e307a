//! Errors carry a span into one of the interpreter's sources and a hint for the user.
use crate::engine;
use crate::lang::syntax::ast::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Parse,
    Runtime,
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
            Kind::Runtime | Kind::Cancelled => 1,
        }
    }
}

/// An engine's error gets the call's span from the evaluator (`at`).
impl From<engine::Error> for Error {
    fn from(e: engine::Error) -> Error {
        Error {
            kind: match e.kind {
                engine::ErrorKind::Cancelled => Kind::Cancelled,
                _ => Kind::Runtime,
            },
            message: e.message,
            span: None,
            hint: e.hint,
            at_end: false,
        }
    }
}
