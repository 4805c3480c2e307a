//! Reading a message off one of the kernel's sockets so that a malformed one cannot end the
//! kernel. jupyter_zmq_client's `read` fails for a bad signature, a missing delimiter, too few
//! frames or content that does not fit the message type, and by then the message is gone, so
//! nothing could answer it. Here a message that cannot be trusted (framing, signature, header)
//! is refused with a line for the log, as ipykernel drops it, and a signed request whose
//! content is malformed is refused with an error reply.
use jupyter_protocol::{Header, JupyterMessage, JupyterMessageContent, UnknownMessage};
use jupyter_zmq_client::{Connection, RawMessage, RuntimeError};
use serde_json::{Value, json};
use zeromq::{SocketRecv, ZmqError};

pub enum Read {
    Message(JupyterMessage),
    /// why (for the log), and the reply where there is a request to answer
    Refused(String, Option<JupyterMessage>),
}

/// The next message on the socket. Only a failure of the socket itself is an error.
pub async fn read<S: SocketRecv>(conn: &mut Connection<S>) -> Result<Read, ZmqError> {
    let frames = conn.socket.recv().await?;
    Ok(match RawMessage::from_multipart(frames, &conn.mac) {
        Ok(raw) => decode(raw),
        Err(e) => Read::Refused(framing(e), None),
    })
}

fn framing(e: RuntimeError) -> String {
    match e {
        RuntimeError::MissingDelimiter => "frames without the <IDS|MSG> delimiter".into(),
        RuntimeError::MissingHmac => "no signature after the <IDS|MSG> delimiter".into(),
        RuntimeError::InsufficientMessageParts(n) => {
            format!("{n} frames after the signature, where a message has at least 4")
        }
        RuntimeError::DecodeError(_) => "a signature that is not hexadecimal".into(),
        RuntimeError::VerifyError(_) => "a signature that does not match this kernel's key".into(),
        e => e.to_string(),
    }
}

fn decode(raw: RawMessage) -> Read {
    let header: Header = match serde_json::from_slice(&raw.jparts[0]) {
        Ok(h) => h,
        Err(e) => return Read::Refused(format!("a malformed header: {e}"), None),
    };
    let mut msg = JupyterMessage {
        zmq_identities: raw.zmq_identities,
        content: UnknownMessage {
            msg_type: header.msg_type.clone(),
            content: Value::Null,
        }
        .into(),
        header,
        // an empty parent header is `{}`, which is no header
        parent_header: serde_json::from_slice(&raw.jparts[1]).ok(),
        metadata: json!({}),
        buffers: raw.jparts[4..].to_vec(),
        channel: None,
    };
    let parsed = serde_json::from_slice(&raw.jparts[2]).and_then(|metadata| {
        msg.metadata = metadata;
        let content = serde_json::from_slice(&raw.jparts[3])?;
        JupyterMessageContent::from_type_and_content(&msg.header.msg_type, content)
    });
    match parsed {
        Ok(content) => {
            msg.content = content;
            Read::Message(msg)
        }
        Err(e) => {
            let why = format!("malformed content in {}: {e}", msg.header.msg_type);
            let reply = error_reply(&msg, &why);
            Read::Refused(why, reply)
        }
    }
}

/// The error reply to a request (`X_request` gets `X_reply`); None for other messages.
pub fn error_reply(req: &JupyterMessage, why: &str) -> Option<JupyterMessage> {
    let kind = req.header.msg_type.strip_suffix("_request")?;
    let reply = UnknownMessage {
        msg_type: format!("{kind}_reply"),
        content: json!({
            "status": "error",
            "ename": "BadRequest",
            "evalue": why,
            "traceback": [format!("gamut-kernel refused the request: {why}")],
        }),
    };
    Some(reply.as_child_of(req))
}
