//! MCP over stdin and stdout, newline-delimited, with the limits a server that runs for days
//! needs against a client that misbehaves:
//!
//! - **Backpressure.** At most [`MAX_IN_FLIGHT`] requests are read and not yet answered.
//!   Each holds a slot from the moment it is read until its answer is written to stdout (or
//!   the client cancels it); with every slot taken, stdin is not read, the pipe fills and the
//!   client blocks. A client that sends without reading answers cannot make the server buffer
//!   them: what is held is a few dozen answers and one message.
//! - **Every message gets an answer.** A line that is not JSON gets a parse error (-32700),
//!   one that is JSON but not a JSON-RPC message an invalid request (-32600), and one longer
//!   than [`MAX_MESSAGE_BYTES`](super::MAX_MESSAGE_BYTES) is dropped unread as it streams
//!   past and gets an invalid request error; each with the message's id when its top level
//!   has one, so a client waiting on it is not left hanging. (Notifications the protocol does
//!   not know are let through or ignored as rmcp's own transport does.)
//! - **A client that went away is not an error.** Answers to a closed stdout are dropped
//!   quietly: a client that cancels by closing the pipe must not leave errors in the log.

use rmcp::model::{ClientNotification, ErrorData, JsonRpcMessage, RequestId};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use std::collections::HashMap;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

/// Requests read and not yet answered, at most.
pub const MAX_IN_FLIGHT: usize = 32;
/// How much of a dropped message is kept to find its id.
const HEAD_BYTES: usize = 4096;

/// What the reader passes on: a whole line, or the head of one too long to keep.
enum Line {
    Whole(Vec<u8>),
    Oversized(Vec<u8>),
}

type Output<W> = Arc<tokio::sync::Mutex<Option<W>>>;

/// The transport: lines from a reader task, answers to `W` one at a time.
pub struct Stdio<W> {
    lines: mpsc::Receiver<Line>,
    slots: Arc<Semaphore>,
    /// The slot taken for the next message, kept across a cancelled `receive`.
    held: Option<OwnedSemaphorePermit>,
    /// The slots of requests read and not answered yet, by id.
    in_flight: Arc<std::sync::Mutex<HashMap<RequestId, OwnedSemaphorePermit>>>,
    out: Output<W>,
}

/// The transport over the process's stdin and stdout.
pub fn stdio(cap: usize) -> Stdio<tokio::io::Stdout> {
    Stdio::new(tokio::io::stdin(), tokio::io::stdout(), cap)
}

impl<W: AsyncWrite + Send + Unpin + 'static> Stdio<W> {
    /// Reads newline-delimited messages of at most `cap` bytes from `input` and writes
    /// answers to `output`.
    pub fn new<R: AsyncRead + Send + Unpin + 'static>(input: R, output: W, cap: usize) -> Self {
        // One line waits at most: the reader stops when the server does not take it.
        let (tx, lines) = mpsc::channel(1);
        tokio::spawn(read_lines(input, cap, tx));
        Self {
            lines,
            slots: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
            held: None,
            in_flight: Default::default(),
            out: Arc::new(tokio::sync::Mutex::new(Some(output))),
        }
    }

    /// Answers a message that cannot be served, releasing `slot` once written. Written from
    /// a task of its own: `receive` may be cancelled at any await, a write must not be.
    fn refuse(&mut self, error: ErrorData, id: Option<RequestId>) {
        let slot = self.held.take();
        let out = self.out.clone();
        tokio::spawn(async move {
            let message = TxJsonRpcMessage::<RoleServer>::error(error, id);
            let _ = write(&out, &message).await;
            drop(slot);
        });
    }

    fn release(&self, id: &RequestId) {
        self.in_flight
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id);
    }
}

impl<W: AsyncWrite + Send + Unpin + 'static> rmcp::transport::Transport<RoleServer> for Stdio<W> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let id = match &item {
            JsonRpcMessage::Response(r) => Some(r.id.clone()),
            JsonRpcMessage::Error(e) => e.id.clone(),
            _ => None,
        };
        let slot = id.and_then(|id| {
            self.in_flight
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&id)
        });
        let out = self.out.clone();
        async move {
            let written = write(&out, &item).await;
            drop(slot);
            written
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if self.held.is_none() {
                self.held = Some(self.slots.clone().acquire_owned().await.ok()?);
            }
            let bytes = match self.lines.recv().await? {
                Line::Whole(bytes) => bytes,
                Line::Oversized(head) => {
                    let cap = super::MAX_MESSAGE_BYTES;
                    tracing::warn!("a message over {cap} bytes was dropped unread");
                    let error = ErrorData::invalid_request(
                        format!("the message is over {cap} bytes and was dropped unread"),
                        None,
                    );
                    self.refuse(error, top_level_id(&head));
                    continue;
                }
            };
            let line = trimmed(&bytes);
            if line.is_empty() {
                continue;
            }
            match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(line) {
                Ok(JsonRpcMessage::Request(request)) => {
                    let slot = self.held.take().expect("a slot was taken above");
                    // A repeated id replaces the other: one answer comes, one slot is held.
                    self.in_flight
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .insert(request.id.clone(), slot);
                    return Some(JsonRpcMessage::Request(request));
                }
                Ok(message) => {
                    // A cancelled request gets no answer: its slot is free now.
                    if let JsonRpcMessage::Notification(n) = &message
                        && let ClientNotification::CancelledNotification(c) = &n.notification
                        && let Some(id) = &c.params.request_id
                    {
                        self.release(id);
                    }
                    return Some(message);
                }
                Err(err) => match unanswered(line, &err) {
                    Some((error, id)) => self.refuse(error, id),
                    None => tracing::debug!("ignoring a notification this server does not know"),
                },
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        if let Some(mut out) = self.out.lock().await.take() {
            let _ = out.shutdown().await;
        }
        Ok(())
    }
}

/// The error a line that did not deserialize gets, and its id; None for a notification of
/// a method this server does not know (rmcp's transport ignores those too, and a JSON-RPC
/// notification gets no answer).
fn unanswered(line: &[u8], err: &serde_json::Error) -> Option<(ErrorData, Option<RequestId>)> {
    let id = top_level_id(line);
    use serde_json::error::Category;
    match err.classify() {
        Category::Syntax | Category::Eof => Some((
            ErrorData::parse_error(format!("the message is not JSON: {err}"), None),
            id,
        )),
        Category::Data | Category::Io => {
            let value: serde_json::Value = serde_json::from_slice(line).ok()?;
            let notification = value.get("id").is_none() && value.get("method").is_some();
            if notification {
                return None;
            }
            Some((
                ErrorData::invalid_request(
                    format!("the message is not a JSON-RPC request or notification: {err}"),
                    None,
                ),
                id,
            ))
        }
    }
}

/// The line without a byte order mark and a carriage return.
fn trimmed(line: &[u8]) -> &[u8] {
    let line = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line);
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Writes one message and its newline. A closed output (the client went away) drops the
/// message quietly: there is nobody left to tell.
async fn write<W: AsyncWrite + Unpin>(
    out: &Output<W>,
    message: &TxJsonRpcMessage<RoleServer>,
) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(message)?;
    bytes.push(b'\n');
    let mut guard = out.lock().await;
    let Some(writer) = guard.as_mut() else {
        return Ok(());
    };
    let written = async {
        writer.write_all(&bytes).await?;
        writer.flush().await
    }
    .await;
    match written {
        Err(err) if gone(&err) => {
            tracing::debug!("the client closed its end; answers are dropped from now on");
            *guard = None;
            Ok(())
        }
        other => other,
    }
}

fn gone(err: &std::io::Error) -> bool {
    matches!(
        err.kind(),
        std::io::ErrorKind::BrokenPipe
            | std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::NotConnected
    )
}

/// Splits `input` into lines of at most `cap` bytes for the transport. A line is held until
/// its newline (so at most `cap` bytes are buffered); a longer one is dropped as it streams
/// past and only its head is passed on. Stops when the transport is gone.
async fn read_lines<R: AsyncRead + Unpin>(input: R, cap: usize, tx: mpsc::Sender<Line>) {
    let mut input = BufReader::with_capacity(64 * 1024, input);
    let mut line: Vec<u8> = Vec::new();
    let mut oversized = false;
    loop {
        let chunk = match input.fill_buf().await {
            Ok([]) | Err(_) => break,
            Ok(chunk) => chunk,
        };
        let (piece, ends) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (&chunk[..=at], true),
            None => (chunk, false),
        };
        if oversized {
            if line.len() < HEAD_BYTES {
                line.extend_from_slice(&piece[..piece.len().min(HEAD_BYTES - line.len())]);
            }
        } else if line.len() + piece.len() > cap + 1 {
            oversized = true;
            line.truncate(HEAD_BYTES);
            let room = HEAD_BYTES.saturating_sub(line.len());
            line.extend_from_slice(&piece[..piece.len().min(room)]);
            line.shrink_to_fit();
        } else {
            line.extend_from_slice(piece);
        }
        let used = piece.len();
        input.consume(used);
        if ends {
            let taken = std::mem::take(&mut line);
            let message = match std::mem::take(&mut oversized) {
                true => Line::Oversized(taken),
                false => Line::Whole(taken),
            };
            if tx.send(message).await.is_err() {
                return;
            }
        }
    }
    if !line.is_empty() && !oversized {
        let _ = tx.send(Line::Whole(line)).await;
    }
}

/// The `id` member of the top-level object of a message that may not parse (cut short,
/// nested beyond any parser's limit, or not JSON at all): the bytes are scanned once, depth
/// counted, strings skipped, no recursion. None when there is no number or string id at
/// depth one.
pub fn top_level_id(bytes: &[u8]) -> Option<RequestId> {
    let mut depth = 0usize;
    let mut i = 0;
    // The last string read at depth one, and where it ended: a key, if ':' follows.
    let mut last_key: Option<(usize, usize)> = None;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let start = i + 1;
                let end = string_end(bytes, start)?;
                if depth == 1 {
                    last_key = Some((start, end));
                }
                i = end + 1;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b':' if depth == 1 && last_key.is_some_and(|(s, e)| &bytes[s..e] == b"id") => {
                return id_value(&bytes[i + 1..]);
            }
            b',' => last_key = None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Where the string starting at `start` (after its quote) ends: the index of its closing
/// quote.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// A request id at the start of `rest`: a string or an integer.
fn id_value(rest: &[u8]) -> Option<RequestId> {
    let start = rest.iter().position(|b| !b.is_ascii_whitespace())?;
    let rest = &rest[start..];
    let end = match rest.first()? {
        b'"' => string_end(rest, 1)? + 1,
        b'-' | b'0'..=b'9' => rest
            .iter()
            .position(|b| !(b.is_ascii_digit() || *b == b'-'))
            .unwrap_or(rest.len()),
        _ => return None,
    };
    serde_json::from_slice(&rest[..end]).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_level_id_is_found_past_nesting_and_inside_no_string() {
        let deep = format!(
            "{{\"jsonrpc\":\"2.0\",\"params\":{{\"id\":7,\"x\":\"\\\"id\\\": 9\",\"deep\":{}{}}},\"id\":\"abc\"}}",
            "[".repeat(200_000),
            "]".repeat(200_000)
        );
        assert_eq!(
            top_level_id(deep.as_bytes()),
            Some(RequestId::String("abc".into()))
        );
        assert_eq!(
            top_level_id(br#"{"id": -12, "method": "x""#),
            Some(RequestId::Number(-12))
        );
        assert_eq!(
            top_level_id(br#"{"method": "x", "params": {"id": 3}}"#),
            None
        );
        assert_eq!(top_level_id(br#"{"id": null}"#), None);
        assert_eq!(top_level_id(b"not json at all"), None);
    }
}
