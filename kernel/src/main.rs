//! `gamut-kernel`: gamut in Jupyter. `gamut-kernel install [--user | --prefix DIR]` writes the
//! kernelspec; Jupyter then starts `gamut-kernel CONNECTION_FILE`.
//!
//! One interpreter per kernel lives on its own thread (values are not `Send`); the protocol
//! runs on a single-threaded tokio runtime and talks to it through channels. A malformed
//! message is refused (src/wire.rs) and a peer sending one too large is cut off
//! (src/guard.rs); neither ends the kernel.
mod guard;
mod wire;

use gamut::engine::Ctl;
use gamut::lang::error::Kind;
use gamut::lang::run::eval::Interp;
use gamut::lang::run::value::Value;
use jupyter_protocol::{
    CodeMirrorMode, CommInfoReply, CompleteReply, ConnectionInfo, DisplayData, ErrorOutput,
    ExecuteInput, ExecuteReply, ExecuteResult, ExecutionCount, HistoryReply, InspectReply,
    InterruptReply, IoPubWelcome, IsCompleteReply, IsCompleteReplyStatus, JupyterMessage,
    JupyterMessageContent, KernelInfoReply, LanguageInfo, Media, MediaType, ReplyError,
    ReplyStatus, ShutdownReply, Status, StreamContent, Transient,
};
use jupyter_zmq_client::{
    KernelIoPubXPubConnection, RouterSendConnection, RuntimeError, SubscriptionEvent,
    create_kernel_control_connection, create_kernel_heartbeat_connection,
    create_kernel_iopub_xpub_connection, create_kernel_shell_connection,
    create_kernel_stdin_connection,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};
use zeromq::ZmqError;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("install") => install(&args[1..]),
        Some(file) if args.len() == 1 && !file.starts_with('-') => serve(file),
        _ => {
            eprintln!(
                "usage: gamut-kernel install [--user | --prefix DIR]\n       gamut-kernel CONNECTION_FILE   (as Jupyter starts it)"
            );
            2
        }
    };
    std::process::exit(code);
}

/// Writes `kernels/gamut/kernel.json` for this binary: system-wide, for the user, or under a
/// prefix (a virtual environment's, say), as `jupyter kernelspec install` places them.
fn install(args: &[String]) -> i32 {
    let base = match args {
        [] => Ok(std::path::PathBuf::from("/usr/local/share/jupyter")),
        [u] if u == "--user" => user_data_dir(),
        [p, dir] if p == "--prefix" => Ok(std::path::Path::new(dir).join("share/jupyter")),
        _ => Err("usage: gamut-kernel install [--user | --prefix DIR]".to_string()),
    };
    let exe = std::env::current_exe().and_then(|p| p.canonicalize());
    let (base, exe) = match (base, exe) {
        (Ok(b), Ok(e)) => (b, e),
        (Err(e), _) => {
            eprintln!("error: {e}");
            return 2;
        }
        (_, Err(e)) => {
            eprintln!("error: cannot find this program's path: {e}");
            return 1;
        }
    };
    let dir = base.join("kernels").join("gamut");
    let spec = serde_json::json!({
        "argv": [exe, "{connection_file}"],
        "display_name": "gamut",
        "language": "gamut",
        "interrupt_mode": "signal",
    });
    let r = std::fs::create_dir_all(&dir).and_then(|_| {
        std::fs::write(
            dir.join("kernel.json"),
            serde_json::to_string_pretty(&spec).unwrap_or_default(),
        )
    });
    match r {
        Ok(()) => {
            println!("installed the gamut kernel in {}", dir.display());
            0
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", dir.display());
            eprintln!("  help: use --user to install for yourself only");
            1
        }
    }
}

/// Jupyter's data folder for this user, where `jupyter kernelspec install --user` writes:
/// `$JUPYTER_DATA_DIR` if set, as jupyter_core's `jupyter_data_dir()` has it.
fn user_data_dir() -> Result<std::path::PathBuf, String> {
    match std::env::var_os("JUPYTER_DATA_DIR") {
        Some(d) if !d.is_empty() => Ok(d.into()),
        _ => jupyter_zmq_client::dirs::user_data_dir().map_err(|e| e.to_string()),
    }
}

fn serve(file: &str) -> i32 {
    let info: ConnectionInfo = match std::fs::read_to_string(file)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
    {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: cannot read the connection file {file}: {e}");
            return 2;
        }
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let (jobs, events) = match start_interp(cancel.clone()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: cannot start the interpreter thread: {e}");
            return 1;
        }
    };
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the kernel's runtime: {e}");
            return 1;
        }
    };
    match rt.block_on(run(info, cancel, jobs, events)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

enum Printed {
    Text(String),
    Picture(Vec<MediaType>),
    /// a warning, for the cell's stderr stream
    Warning(String),
}

enum Job {
    Execute(String),
    Complete(String, usize),
    Inspect(String, usize),
}

enum Event {
    /// a value the cell printed, in every form it has
    Output(Vec<MediaType>),
    /// what `print` printed: text for stdout, or a picture to display; or a warning
    Print(Printed),
    /// the cell ended: an error is (name, message, rendered report)
    Done(Option<(String, String, String)>),
    Completion(Vec<String>, usize, usize),
    Inspection(Option<String>),
}

/// The interpreter thread: one session for the kernel's life. A deep stack as the CLI gives it.
fn start_interp(
    cancel: Arc<AtomicBool>,
) -> std::io::Result<(std::sync::mpsc::Sender<Job>, UnboundedReceiver<Event>)> {
    let (job_tx, job_rx) = std::sync::mpsc::channel::<Job>();
    let (ev_tx, ev_rx) = unbounded_channel();
    std::thread::Builder::new()
        .stack_size(1 << 29)
        .spawn(move || {
            let out = ev_tx.clone();
            let mut it = Interp::new(Box::new(move |_, v| {
                let _ = out.send(Event::Output(media(v)));
            }));
            let printed = ev_tx.clone();
            it.print_sink = Some(Box::new(move |_, v| {
                let p = match v {
                    Value::Picture(_) => Printed::Picture(media(v)),
                    _ => Printed::Text(format!("{}\n", v.to_text())),
                };
                let _ = printed.send(Event::Print(p));
            }));
            let warned = ev_tx.clone();
            it.warn_sink = Some(Box::new(move |w| {
                let _ = warned.send(Event::Print(Printed::Warning(format!("warning: {w}\n"))));
            }));
            it.ctl = Ctl::new(cancel);
            for job in job_rx {
                let ev = match job {
                    Job::Execute(code) => Event::Done(execute(&mut it, &code)),
                    Job::Complete(code, pos) => {
                        let (start, end, words) = complete(&it, &code, pos);
                        Event::Completion(words, start, end)
                    }
                    Job::Inspect(code, pos) => Event::Inspection(inspect(&it, &code, pos)),
                };
                if ev_tx.send(ev).is_err() {
                    break;
                }
            }
        })?;
    Ok((job_tx, ev_rx))
}

/// A printed value as plain text, JSON, HTML where it has one (tables, records, lists of
/// records or lists) and a picture as SVG or PNG (its first format).
fn media(v: &Value) -> Vec<MediaType> {
    let mut text = v.to_text();
    let mut m = vec![];
    if let Value::Picture(p) = v {
        let ext = p.formats[0];
        match p.bytes(ext) {
            Ok(b) if ext == "png" => m.push(MediaType::Png(base64(&b))),
            Ok(b) => m.push(MediaType::Svg(String::from_utf8_lossy(&b).into_owned())),
            Err(e) => text = format!("{text}\n(cannot draw it here: {e})"),
        }
    }
    if let Some(h) = v.to_html() {
        m.push(MediaType::Html(h));
    }
    m.push(MediaType::Json(v.to_json()));
    m.push(MediaType::Plain(text));
    m
}

/// Standard base64 with padding, as Jupyter carries PNG images.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            out.push(if i <= chunk.len() {
                ABC[(n >> (18 - 6 * i) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    out
}

/// Runs a cell as the REPL runs an entry: the last value shown becomes `_`.
fn execute(it: &mut Interp, code: &str) -> Option<(String, String, String)> {
    it.ctl.cancel_flag().store(false, Ordering::Relaxed);
    it.last = None;
    // even a bug must not cost the session its bindings
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        it.run_source("<cell>", code)
    }));
    it.ctl.cancel_flag().store(false, Ordering::Relaxed);
    if let Some(v) = it.last.take() {
        it.globals.define("_".into(), v);
    }
    match run {
        Ok(Ok(())) => None,
        Ok(Err(e)) if e.kind == Kind::Cancelled => {
            Some(("Cancelled".into(), "cancelled".into(), "cancelled".into()))
        }
        Ok(Err(e)) => Some((
            format!("{:?}Error", e.kind),
            e.message.clone(),
            gamut::lang::error::render(it, &e),
        )),
        Err(_) => Some((
            "InternalError".into(),
            "internal error in gamut".into(),
            "internal error in gamut: this is a bug; please report it with the cell that caused it"
                .into(),
        )),
    }
}

/// The byte offset of a cursor given in characters, as Jupyter gives it.
fn byte_at(code: &str, chars: usize) -> usize {
    code.char_indices()
        .nth(chars)
        .map_or(code.len(), |(i, _)| i)
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where the word that ends at byte `at` starts.
fn word_start(code: &str, at: usize) -> usize {
    code[..at]
        .char_indices()
        .rev()
        .find(|(_, c)| !is_word(*c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// The word ending at the cursor, completed from builtins and names defined in the session.
/// Returns (start, end) in characters and the candidates.
fn complete(it: &Interp, code: &str, pos: usize) -> (usize, usize, Vec<String>) {
    let end = byte_at(code, pos);
    let start = word_start(code, end);
    let word = &code[start..end];
    let mut names: Vec<String> = it.globals.names().iter().map(|s| s.to_string()).collect();
    names.extend(it.builtins.keys().map(|s| s.to_string()));
    names.retain(|n| !word.is_empty() && n.starts_with(word));
    names.sort();
    names.dedup();
    let cstart = code[..start].chars().count();
    (cstart, pos, names)
}

/// The `:help` text of the name under (or just before) the cursor.
fn inspect(it: &Interp, code: &str, pos: usize) -> Option<String> {
    let at = byte_at(code, pos);
    let start = word_start(code, at);
    let end = code[at..]
        .find(|c| !is_word(c))
        .map_or(code.len(), |i| at + i);
    let name = &code[start..end];
    if name.is_empty() {
        return None;
    }
    gamut::lang::help::help(it, name).or_else(|| {
        it.globals
            .lookup(name)
            .map(|v| format!("`{name}` is a {} defined in this session", v.type_name()))
    })
}

struct Kernel {
    iopub: KernelIoPubXPubConnection,
    shell: RouterSendConnection,
    jobs: std::sync::mpsc::Sender<Job>,
    events: UnboundedReceiver<Event>,
    count: ExecutionCount,
}

type Res<T> = Result<T, Box<dyn std::error::Error>>;

async fn run(
    info: ConnectionInfo,
    cancel: Arc<AtomicBool>,
    jobs: std::sync::mpsc::Sender<Job>,
    events: UnboundedReceiver<Event>,
) -> Res<()> {
    let session = format!("gamut-{}", std::process::id());
    // the kernel's sockets listen in a private folder; the guard, on the connection file's ports
    let private = guard::Private::new()
        .map_err(|e| format!("cannot make a folder for the kernel's sockets: {e}"))?;
    let inner = private.inner(&info);
    let mut heartbeat = create_kernel_heartbeat_connection(&inner).await?;
    let (shell, mut shell_in) = create_kernel_shell_connection(&inner, &session)
        .await?
        .split();
    let mut control = create_kernel_control_connection(&inner, &session).await?;
    let _stdin = create_kernel_stdin_connection(&inner, &session).await?;
    let iopub = create_kernel_iopub_xpub_connection(&inner, &session).await?;
    for (channel, port, at) in [
        ("heartbeat", info.hb_port, inner.hb_port),
        ("shell", info.shell_port, inner.shell_port),
        ("control", info.control_port, inner.control_port),
        ("stdin", info.stdin_port, inner.stdin_port),
        ("iopub", info.iopub_port, inner.iopub_port),
    ] {
        let listener = guard::bind(&info, port)
            .await
            .map_err(|e| format!("cannot listen on the {channel} port {port}: {e}"))?;
        tokio::spawn(guard::serve(listener, guard::ipc_path(&inner, at), channel));
    }
    let mut k = Kernel {
        iopub,
        shell,
        jobs,
        events,
        count: ExecutionCount::new(0),
    };
    // SIGINT (Jupyter's interrupt, as `interrupt_mode` is "signal") cancels the running cell
    let sig = cancel.clone();
    tokio::spawn(async move {
        while tokio::signal::ctrl_c().await.is_ok() {
            sig.store(true, Ordering::Relaxed);
        }
    });
    // a peer that sends garbage fails one beat; only a closed socket ends the heartbeat
    tokio::spawn(async move {
        while !matches!(
            heartbeat.single_heartbeat().await,
            Err(RuntimeError::ZmqError(ZmqError::NoMessage))
        ) {}
    });
    let (stop_tx, mut stop_rx) = unbounded_channel::<()>();
    // SIGTERM ends the kernel as a shutdown request does (the private folder is removed)
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    let stop_on_term = stop_tx.clone();
    tokio::spawn(async move {
        if term.recv().await.is_some() {
            let _ = stop_on_term.send(());
        }
    });
    tokio::spawn(async move {
        while let Ok(read) = wire::read(&mut control).await {
            let msg = match read {
                wire::Read::Message(m) => m,
                wire::Read::Refused(why, reply) => {
                    eprintln!("gamut-kernel: refused a message on the control channel: {why}");
                    if let Some(r) = reply {
                        let _ = control.send(r).await;
                    }
                    continue;
                }
            };
            let reply = match &msg.content {
                JupyterMessageContent::KernelInfoRequest(_) => kernel_info().as_child_of(&msg),
                JupyterMessageContent::InterruptRequest(_) => {
                    cancel.store(true, Ordering::Relaxed);
                    InterruptReply::new().as_child_of(&msg)
                }
                JupyterMessageContent::ShutdownRequest(req) => {
                    let r = ShutdownReply {
                        restart: req.restart,
                        status: ReplyStatus::Ok,
                        error: None,
                    }
                    .as_child_of(&msg);
                    let _ = control.send(r).await;
                    let _ = stop_tx.send(());
                    return;
                }
                _ => match unserved(&msg, "control") {
                    Some(r) => r,
                    None => continue,
                },
            };
            let _ = control.send(reply).await;
        }
    });
    loop {
        tokio::select! {
            read = wire::read(&mut shell_in) => match read? {
                wire::Read::Message(msg) => {
                    if let Err(e) = k.handle(&msg).await {
                        eprintln!("gamut-kernel: {e}");
                    }
                }
                wire::Read::Refused(why, reply) => {
                    eprintln!("gamut-kernel: refused a message on the shell channel: {why}");
                    if let Some(r) = reply
                        && let Err(e) = k.shell.send(r).await
                    {
                        eprintln!("gamut-kernel: {e}");
                    }
                }
            },
            ev = k.iopub.recv_subscription() => {
                if let Ok(SubscriptionEvent::Subscribe(topic)) = ev
                    && let Err(e) = k.iopub.send(IoPubWelcome::new(topic).into()).await
                {
                    eprintln!("gamut-kernel: {e}");
                }
            }
            // returning drops `private`, which removes the sockets' folder
            _ = stop_rx.recv() => return Ok(()),
        }
    }
}

impl Kernel {
    async fn handle(&mut self, msg: &JupyterMessage) -> Res<()> {
        self.iopub.send(Status::busy().as_child_of(msg)).await?;
        let reply = match &msg.content {
            JupyterMessageContent::KernelInfoRequest(_) => Some(kernel_info().as_child_of(msg)),
            JupyterMessageContent::ExecuteRequest(req) => {
                Some(self.execute(&req.code, req.silent, msg).await?)
            }
            JupyterMessageContent::CompleteRequest(req) => {
                self.jobs
                    .send(Job::Complete(req.code.clone(), req.cursor_pos))?;
                match self.events.recv().await {
                    Some(Event::Completion(matches, start, end)) => Some(
                        CompleteReply {
                            matches,
                            cursor_start: start,
                            cursor_end: end,
                            metadata: Default::default(),
                            status: ReplyStatus::Ok,
                            error: None,
                        }
                        .as_child_of(msg),
                    ),
                    _ => return Err("the interpreter thread ended".into()),
                }
            }
            JupyterMessageContent::InspectRequest(req) => {
                self.jobs
                    .send(Job::Inspect(req.code.clone(), req.cursor_pos))?;
                match self.events.recv().await {
                    Some(Event::Inspection(text)) => Some(
                        InspectReply {
                            found: text.is_some(),
                            data: text
                                .map_or_else(Media::default, |t| Media::from(MediaType::Plain(t))),
                            metadata: Default::default(),
                            status: ReplyStatus::Ok,
                            error: None,
                        }
                        .as_child_of(msg),
                    ),
                    _ => return Err("the interpreter thread ended".into()),
                }
            }
            JupyterMessageContent::IsCompleteRequest(_) => Some(
                IsCompleteReply {
                    status: IsCompleteReplyStatus::Unknown,
                    indent: String::new(),
                }
                .as_child_of(msg),
            ),
            JupyterMessageContent::HistoryRequest(_) => Some(
                HistoryReply {
                    history: vec![],
                    status: ReplyStatus::Ok,
                    error: None,
                }
                .as_child_of(msg),
            ),
            JupyterMessageContent::CommInfoRequest(_) => Some(
                CommInfoReply {
                    status: ReplyStatus::Ok,
                    comms: Default::default(),
                    error: None,
                }
                .as_child_of(msg),
            ),
            _ => unserved(msg, "shell"),
        };
        if let Some(r) = reply {
            self.shell.send(r).await?;
        }
        self.iopub.send(Status::idle().as_child_of(msg)).await?;
        Ok(())
    }

    /// Runs a cell. Every value but the last goes out as display data as it is printed; the
    /// last is the cell's result. `print` writes to stdout (a picture is displayed); what was
    /// shown before it goes out first, so that the order is kept.
    async fn execute(
        &mut self,
        code: &str,
        silent: bool,
        msg: &JupyterMessage,
    ) -> Res<JupyterMessage> {
        if !silent {
            self.count.0 += 1;
            let input = ExecuteInput {
                code: code.to_string(),
                execution_count: self.count,
            };
            self.iopub.send(input.as_child_of(msg)).await?;
        }
        self.jobs.send(Job::Execute(code.to_string()))?;
        let mut last: Option<Vec<MediaType>> = None;
        let failed = loop {
            match self.events.recv().await {
                Some(Event::Output(m)) => {
                    if let Some(prev) = last.replace(m)
                        && !silent
                    {
                        let d = DisplayData::new(Media::new(prev));
                        self.iopub.send(d.as_child_of(msg)).await?;
                    }
                }
                Some(Event::Print(p)) => {
                    if silent {
                        continue;
                    }
                    if let Some(prev) = last.take() {
                        let d = DisplayData::new(Media::new(prev));
                        self.iopub.send(d.as_child_of(msg)).await?;
                    }
                    let out = match p {
                        Printed::Text(t) => StreamContent::stdout(&t).as_child_of(msg),
                        Printed::Warning(t) => StreamContent::stderr(&t).as_child_of(msg),
                        Printed::Picture(m) => DisplayData::new(Media::new(m)).as_child_of(msg),
                    };
                    self.iopub.send(out).await?;
                }
                Some(Event::Done(e)) => break e,
                _ => return Err("the interpreter thread ended".into()),
            }
        };
        if let Some(m) = last
            && !silent
        {
            let r = ExecuteResult {
                execution_count: self.count,
                data: Media::new(m),
                metadata: Default::default(),
                transient: Some(Transient::default()),
            };
            self.iopub.send(r.as_child_of(msg)).await?;
        }
        let mut reply = ExecuteReply {
            status: ReplyStatus::Ok,
            execution_count: self.count,
            payload: vec![],
            user_expressions: Some(Default::default()),
            error: None,
        };
        if let Some((ename, evalue, report)) = failed {
            let traceback = vec![report];
            if !silent {
                let out = ErrorOutput {
                    ename: ename.clone(),
                    evalue: evalue.clone(),
                    traceback: traceback.clone(),
                };
                self.iopub.send(out.as_child_of(msg)).await?;
            }
            reply.status = ReplyStatus::Error;
            reply.error = Some(Box::new(ReplyError {
                ename,
                evalue,
                traceback,
            }));
        }
        Ok(reply.as_child_of(msg))
    }
}

/// The error reply to a request this kernel does not serve (an unknown message type, say), so
/// that the client is not left waiting; None for a message that is no request.
fn unserved(msg: &JupyterMessage, channel: &str) -> Option<JupyterMessage> {
    let why = format!("{} is no request this kernel serves", msg.header.msg_type);
    let reply = wire::error_reply(msg, &why)?;
    eprintln!("gamut-kernel: refused a message on the {channel} channel: {why}");
    Some(reply)
}

fn kernel_info() -> KernelInfoReply {
    KernelInfoReply {
        status: ReplyStatus::Ok,
        protocol_version: "5.3".to_string(),
        implementation: "gamut-kernel".to_string(),
        implementation_version: env!("CARGO_PKG_VERSION").to_string(),
        language_info: LanguageInfo {
            name: "gamut".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            mimetype: Some("text/x-gamut".to_string()),
            file_extension: Some(".game".to_string()),
            pygments_lexer: None,
            codemirror_mode: Some(CodeMirrorMode::Simple("text".to_string())),
            nbconvert_exporter: None,
        },
        banner: format!(
            "gamut {} — help(NAME) or Shift-Tab on a name for help; interrupt cancels a running query",
            env!("CARGO_PKG_VERSION")
        ),
        help_links: vec![],
        debugger: false,
        error: None,
    }
}
