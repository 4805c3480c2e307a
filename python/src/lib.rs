//! Python bindings: `gamut.Session().run(code)` runs gamut code in one interpreter session and
//! returns the last value it shows, converted from its JSON form (int, bool, str, list, dict,
//! None; integers past 64 bits come as strings of digits, as in JSON); a picture comes as a
//! `gamut.Picture` holding its drawing, which Jupyter shows inline. What `print` prints goes to
//! Python's `sys.stdout`; warnings come as Python's `UserWarning`s.
//!
//! The interpreter lives on its own thread (its values are not `Send`); the calling thread waits
//! for the answer without the GIL and checks Python's signals between waits, so Ctrl-C cancels
//! the running query (through the interpreter's cancel flag, as in the REPL) and raises
//! KeyboardInterrupt.
use ::gamut::engine::Ctl;
use ::gamut::lang::error::Kind;
use ::gamut::lang::run::eval::Interp;
use ::gamut::lang::run::value::Value;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyUserWarning};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

create_exception!(gamut, GamutError, PyException, "An error in gamut code.");

/// What a run shows last: a value in its JSON form, or a picture drawn in its first format (on
/// the interpreter's thread, where the picture lives, once the run is over).
enum Shown {
    Json(serde_json::Value),
    Picture(Picture),
}

impl Shown {
    fn of(v: &Value) -> Shown {
        let Value::Picture(p) = v else {
            return Shown::Json(v.to_json());
        };
        let (data, error) = match p.bytes(p.formats[0]) {
            Ok(d) => (Some(d), None),
            Err(e) => (None, Some(e)),
        };
        Shown::Picture(Picture {
            title: p.title.clone(),
            format: p.formats[0],
            data,
            error,
        })
    }
}

enum Outcome {
    Value(Option<Shown>),
    Cancelled,
    /// the error's report: message, the span underlined, a hint
    Failed(String),
}

/// One interpreter session: names defined by one `run` are seen by the next.
#[pyclass]
struct Session {
    jobs: Sender<String>,
    /// each run's outcome with the warnings it gave and what it printed
    answers: Mutex<Receiver<(Outcome, Vec<String>, String)>>,
    cancel: Arc<AtomicBool>,
}

#[pymethods]
impl Session {
    #[new]
    fn new() -> PyResult<Session> {
        let (jobs, job_rx) = channel::<String>();
        let (answer_tx, answers) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = cancel.clone();
        // a deep stack, as the CLI gives the evaluator
        std::thread::Builder::new()
            .stack_size(1 << 29)
            .spawn(move || {
                let last: Rc<RefCell<Option<Value>>> = Rc::default();
                let shown = last.clone();
                let mut it = Interp::new(Box::new(move |_, v| {
                    *shown.borrow_mut() = Some(v.clone());
                }));
                let warnings: Rc<RefCell<Vec<String>>> = Rc::default();
                let warned = warnings.clone();
                it.warn_sink = Some(Box::new(move |w| warned.borrow_mut().push(w.to_string())));
                // what `print` prints goes to Python's standard output (a notebook cell's)
                let printed: Rc<RefCell<String>> = Rc::default();
                let prints = printed.clone();
                it.print_sink = Some(Box::new(move |_, v| {
                    let mut p = prints.borrow_mut();
                    p.push_str(&v.to_text());
                    p.push('\n');
                }));
                it.ctl = Ctl::new(flag);
                for code in job_rx {
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        it.run_source("<python>", &code)
                    }));
                    let value = last.take().as_ref().map(Shown::of);
                    let out = match r {
                        Ok(Ok(())) => Outcome::Value(value),
                        Ok(Err(e)) if e.kind == Kind::Cancelled => Outcome::Cancelled,
                        Ok(Err(e)) => Outcome::Failed(::gamut::lang::error::render(&it, &e)),
                        Err(_) => Outcome::Failed("internal error in gamut (a bug)".into()),
                    };
                    if answer_tx
                        .send((out, warnings.take(), printed.take()))
                        .is_err()
                    {
                        break;
                    }
                }
            })
            .map_err(|e| GamutError::new_err(format!("cannot start the interpreter: {e}")))?;
        Ok(Session {
            jobs,
            answers: Mutex::new(answers),
            cancel,
        })
    }

    /// Runs gamut code; returns the last value it shows (None if it shows none).
    fn run(&mut self, py: Python<'_>, code: &str) -> PyResult<PyObject> {
        let gone = || GamutError::new_err("the gamut interpreter has stopped");
        // cleared here, not when the interpreter takes the job: a Ctrl-C that comes before it
        // does (while it starts up, say) must still cancel this run
        self.cancel.store(false, Ordering::Relaxed);
        self.jobs.send(code.to_string()).map_err(|_| gone())?;
        let mut interrupted = None;
        let outcome = loop {
            let answers = &self.answers;
            let wait = py.allow_threads(move || {
                let a = answers.lock().map_err(|_| RecvTimeoutError::Disconnected)?;
                a.recv_timeout(Duration::from_millis(50))
            });
            match wait {
                Ok(o) => break o,
                Err(RecvTimeoutError::Timeout) => {
                    if interrupted.is_none()
                        && let Err(e) = py.check_signals()
                    {
                        // stop the query, then raise once the interpreter has let go
                        self.cancel.store(true, Ordering::Relaxed);
                        interrupted = Some(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Err(gone()),
            }
        };
        if let Some(e) = interrupted {
            return Err(e);
        }
        let (outcome, warnings, printed) = outcome;
        if !printed.is_empty() {
            py.import("sys")?
                .getattr("stdout")?
                .call_method1("write", (printed,))?;
        }
        // as Python's warnings (a table's failed cells, say), shown once per place by default
        for w in warnings {
            let text = std::ffi::CString::new(w.replace('\0', " ")).unwrap_or_default();
            PyErr::warn(py, &py.get_type::<PyUserWarning>(), &text, 1)?;
        }
        match outcome {
            Outcome::Value(Some(Shown::Json(v))) => to_py(py, &v),
            Outcome::Value(Some(Shown::Picture(p))) => Ok(p.into_pyobject(py)?.into_any().unbind()),
            Outcome::Value(None) => Ok(py.None()),
            Outcome::Cancelled => Err(GamutError::new_err("cancelled")),
            Outcome::Failed(report) => Err(GamutError::new_err(report)),
        }
    }
}

/// A drawing (`export(x)`, `plot(data)`): `title`, `format` ("svg" or "png") and `data`, the
/// file's bytes, which Jupyter and IPython show inline; when it cannot be drawn here (Graphviz
/// missing, say), `data` is None and `error` says why.
#[pyclass(frozen)]
struct Picture {
    #[pyo3(get)]
    title: String,
    #[pyo3(get)]
    format: &'static str,
    data: Option<Vec<u8>>,
    #[pyo3(get)]
    error: Option<String>,
}

#[pymethods]
impl Picture {
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.data.as_ref().map(|d| PyBytes::new(py, d))
    }

    fn _repr_svg_(&self) -> Option<String> {
        let d = self.data.as_ref().filter(|_| self.format == "svg")?;
        Some(String::from_utf8_lossy(d).into_owned())
    }

    fn _repr_png_<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        let d = self.data.as_ref().filter(|_| self.format == "png")?;
        Some(PyBytes::new(py, d))
    }

    fn __repr__(&self) -> String {
        format!("<gamut picture ({}): {}>", self.format, self.title)
    }
}

fn to_py(py: Python<'_>, v: &serde_json::Value) -> PyResult<PyObject> {
    use serde_json::Value as J;
    Ok(match v {
        J::Null => py.None(),
        J::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any().unbind(),
            (_, Some(u)) => u.into_pyobject(py)?.into_any().unbind(),
            _ => n
                .as_f64()
                .unwrap_or(f64::NAN)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        },
        J::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        J::Array(a) => {
            let items = a
                .iter()
                .map(|x| to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        J::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, to_py(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

#[pymodule]
#[pyo3(name = "gamut")]
fn gamut_py(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Session>()?;
    m.add_class::<Picture>()?;
    m.add("GamutError", m.py().get_type::<GamutError>())?;
    Ok(())
}
