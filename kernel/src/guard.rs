//! The kernel's ports face the network through a guard. The zeromq crate reserves memory for a
//! frame as long as the frame's header claims before the kernel sees any of it, so one header
//! claiming a terabyte aborts the kernel. The guard listens on the connection file's ports,
//! follows ZMTP's framing (a 64-byte greeting, then frames: a flags byte, a length of 1 or 8
//! bytes, the body) of what each peer sends, and passes the bytes on to the kernel's zeromq
//! sockets, which listen in a folder only this user can enter. A peer whose message would pass
//! the limit is cut off before the header that passes it goes on; the kernel serves the others.
use gamut::engine::control::{available_memory, human_bytes};
use jupyter_protocol::{ConnectionInfo, Transport};
use std::path::PathBuf;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, UnixListener, UnixStream};

/// The most one message may hold: far past any cell, and small enough to parse.
const MAX_MESSAGE: u64 = 256 << 20;
/// What zeromq holds for a frame besides its body.
const FRAME_COST: u64 = 64;
/// Parsed JSON takes up to 32 times its text (an array of one-digit numbers: 2 bytes of text,
/// a 32-byte value in a vector that may be half empty).
const PARSE_FACTOR: u64 = 32;

/// The limit on one message: MAX_MESSAGE, and what the memory there is can parse.
pub fn message_limit() -> u64 {
    MAX_MESSAGE.min(available_memory() / PARSE_FACTOR)
}

enum State {
    Greeting(usize),
    Flags,
    Length {
        more: bool,
        need: usize,
        have: usize,
        bytes: [u8; 8],
    },
    Body {
        more: bool,
        left: u64,
    },
}

/// Follows the framing of what one peer sends and keeps each message within the limit.
pub struct Frames {
    state: State,
    /// what the message under way holds so far
    message: u64,
}

impl Frames {
    pub fn new() -> Frames {
        Frames {
            state: State::Greeting(64),
            message: 0,
        }
    }

    /// Follows `buf`, the next bytes the peer sent. An error says why the peer is cut off.
    pub fn feed(&mut self, mut buf: &[u8]) -> Result<(), String> {
        while !buf.is_empty() {
            match &mut self.state {
                State::Greeting(left) => {
                    let n = (*left).min(buf.len());
                    *left -= n;
                    buf = &buf[n..];
                    if *left == 0 {
                        self.state = State::Flags;
                    }
                }
                State::Flags => {
                    let flags = buf[0];
                    buf = &buf[1..];
                    self.state = State::Length {
                        // a command (bit 2) is a message of its own
                        more: flags & 1 != 0 && flags & 4 == 0,
                        need: if flags & 2 != 0 { 8 } else { 1 },
                        have: 0,
                        bytes: [0; 8],
                    };
                }
                State::Length {
                    more,
                    need,
                    have,
                    bytes,
                } => {
                    let n = (*need - *have).min(buf.len());
                    bytes[*have..*have + n].copy_from_slice(&buf[..n]);
                    *have += n;
                    buf = &buf[n..];
                    if have == need {
                        let len = bytes[..*need]
                            .iter()
                            .fold(0u64, |a, &b| a << 8 | u64::from(b));
                        let total = self.message.saturating_add(len).saturating_add(FRAME_COST);
                        let limit = message_limit();
                        if total > limit {
                            return Err(format!(
                                "a message of more than {}, past the limit of {}",
                                human_bytes(total),
                                human_bytes(limit)
                            ));
                        }
                        self.message = total;
                        self.state = State::Body {
                            more: *more,
                            left: len,
                        };
                        if len == 0 {
                            self.body_read();
                        }
                    }
                }
                State::Body { left, .. } => {
                    let n = (*left).min(buf.len() as u64);
                    *left -= n;
                    buf = &buf[n as usize..];
                    if *left == 0 {
                        self.body_read();
                    }
                }
            }
        }
        Ok(())
    }

    /// A frame's body has been read: the next frame follows, of this message or a new one.
    fn body_read(&mut self) {
        if let State::Body { more: false, .. } = self.state {
            self.message = 0;
        }
        self.state = State::Flags;
    }
}

/// The folder where the kernel's own sockets listen, removed when the kernel ends.
pub struct Private(pub PathBuf);

impl Private {
    pub fn new() -> std::io::Result<Private> {
        use std::os::unix::fs::DirBuilderExt;
        let mut i = 0;
        loop {
            let dir = std::env::temp_dir().join(format!("gamut-kernel-{}-{i}", std::process::id()));
            // created afresh (a folder left by a killed kernel of the same id is passed over)
            match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
                Ok(()) => return Ok(Private(dir)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && i < 100 => i += 1,
                Err(e) => return Err(e),
            }
        }
    }

    /// The connection info of the kernel's own sockets: `ipc` endpoints in this folder.
    pub fn inner(&self, public: &ConnectionInfo) -> ConnectionInfo {
        ConnectionInfo {
            ip: self.0.join("k").to_string_lossy().into_owned(),
            transport: Transport::IPC,
            shell_port: 1,
            iopub_port: 2,
            stdin_port: 3,
            control_port: 4,
            hb_port: 5,
            ..public.clone()
        }
    }
}

impl Drop for Private {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The path of an `ipc` endpoint, as Jupyter names them.
pub fn ipc_path(info: &ConnectionInfo, port: u16) -> PathBuf {
    PathBuf::from(format!("{}-{}", info.ip, port))
}

pub enum Listener {
    Tcp(TcpListener),
    Unix(UnixListener),
}

/// Listens on one of the connection file's ports.
pub async fn bind(info: &ConnectionInfo, port: u16) -> std::io::Result<Listener> {
    match info.transport {
        Transport::TCP => {
            // ZeroMQ's `*` is every interface
            let ip = if info.ip == "*" { "0.0.0.0" } else { &info.ip };
            Ok(Listener::Tcp(TcpListener::bind((ip, port)).await?))
        }
        Transport::IPC => Ok(Listener::Unix(UnixListener::bind(ipc_path(info, port))?)),
    }
}

/// Passes each peer that connects on to the kernel's socket at `inner`, through the guard.
pub async fn serve(listener: Listener, inner: PathBuf, channel: &'static str) {
    loop {
        let accepted = match &listener {
            Listener::Tcp(l) => l.accept().await.map(|(s, _)| {
                // small messages go out at once, as ZeroMQ sends them
                let _ = s.set_nodelay(true);
                drop(tokio::spawn(pass(s, inner.clone(), channel)));
            }),
            Listener::Unix(l) => l
                .accept()
                .await
                .map(|(s, _)| drop(tokio::spawn(pass(s, inner.clone(), channel)))),
        };
        if let Err(e) = accepted {
            // out of file descriptors, say: wait rather than spin
            eprintln!("gamut-kernel: cannot accept a connection on the {channel} port: {e}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
}

async fn pass<S: AsyncRead + AsyncWrite>(peer: S, inner: PathBuf, channel: &'static str) {
    let kernel = match UnixStream::connect(&inner).await {
        Ok(k) => k,
        Err(e) => {
            eprintln!("gamut-kernel: cannot reach the {channel} socket: {e}");
            return;
        }
    };
    let (mut from_peer, mut to_peer) = tokio::io::split(peer);
    let (mut from_kernel, mut to_kernel) = kernel.into_split();
    let up = async {
        let mut frames = Frames::new();
        let mut buf = vec![0u8; 64 << 10];
        loop {
            match from_peer.read(&mut buf).await {
                Ok(0) | Err(_) => return None,
                Ok(n) => {
                    if let Err(why) = frames.feed(&buf[..n]) {
                        return Some(why);
                    }
                    if to_kernel.write_all(&buf[..n]).await.is_err() {
                        return None;
                    }
                }
            }
        }
    };
    let down = tokio::io::copy(&mut from_kernel, &mut to_peer);
    // either side ending ends both connections
    tokio::select! {
        cut = up => if let Some(why) = cut {
            eprintln!("gamut-kernel: cut off a peer on the {channel} channel: {why}");
        },
        _ = down => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(flags: u8, body: &[u8]) -> Vec<u8> {
        let mut f = vec![flags];
        if flags & 2 != 0 {
            f.extend((body.len() as u64).to_be_bytes());
        } else {
            f.push(body.len() as u8);
        }
        f.extend(body);
        f
    }

    #[test]
    fn frames_are_followed_across_any_split() {
        let mut wire = vec![0xff; 64];
        wire.extend(frame(4, b"\x05READY")); // a command
        wire.extend(frame(1, b"<IDS|MSG>")); // more to come
        wire.extend(frame(3, &[7; 300])); // long, more to come
        wire.extend(frame(0, b"")); // the message's last frame, empty
        for chunk in [1, 2, 7, 63, 64, 65, 1000] {
            let mut f = Frames::new();
            for part in wire.chunks(chunk) {
                f.feed(part).unwrap();
            }
            assert!(matches!(f.state, State::Flags), "chunks of {chunk}");
            assert_eq!(f.message, 0, "chunks of {chunk}");
        }
    }

    #[test]
    fn a_message_past_the_limit_is_refused_at_its_header() {
        let mut f = Frames::new();
        f.feed(&[0xff; 64]).unwrap();
        let e = f.feed(&[2, 0, 0, 1, 0, 0, 0, 0, 0]).unwrap_err();
        assert!(e.contains("1024.0 GB"), "{e}");
        // frames of 100 MB each: the message passes the limit, however much memory there is
        let mut f = Frames::new();
        f.feed(&[0xff; 64]).unwrap();
        let body = vec![0u8; 1 << 20];
        let refused = (0..3).any(|_| {
            f.feed(&frame(3, &[])[..1]).unwrap();
            if f.feed(&(100u64 << 20).to_be_bytes()).is_err() {
                return true;
            }
            (0..100).for_each(|_| f.feed(&body).unwrap());
            false
        });
        assert!(refused);
    }
}
