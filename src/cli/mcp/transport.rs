//! The server's stdio transport: rmcp's own drops a line it cannot decode without an answer,
//! or answers it without the request's id, and the client waits forever. This one reads each
//! line itself (at most [`MAX_LINE_BYTES`] kept of it), decodes it by [`frame::decode`],
//! hands rmcp the messages it takes, and answers every other request itself. One writer task
//! owns stdout, so an answer of the filter and rmcp's own never interleave within a line.

use std::io;

use rmcp::model::ServerJsonRpcMessage;
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::frame::{self, Decoded, MAX_LINE_BYTES};

/// Answers waiting for the writer; a client that reads nothing stops the server from reading.
const QUEUE: usize = 64;

pub struct Filtered<R> {
    read: BufReader<R>,
    /// The line read so far: `receive` is cancelled whenever an answer is ready first, and the
    /// next call goes on with the same line.
    line: Vec<u8>,
    /// Bytes of the current line dropped past [`MAX_LINE_BYTES`].
    cut: bool,
    /// An answer of the filter the writer has not taken yet.
    pending: Option<ServerJsonRpcMessage>,
    out: Option<mpsc::Sender<ServerJsonRpcMessage>>,
    writer: Option<JoinHandle<io::Result<()>>>,
}

/// The transport over this process's stdin and stdout.
pub fn stdio() -> Filtered<tokio::io::Stdin> {
    Filtered::new(tokio::io::stdin(), tokio::io::stdout())
}

impl<R: tokio::io::AsyncRead + Unpin + Send> Filtered<R> {
    pub fn new<W: AsyncWrite + Unpin + Send + 'static>(read: R, write: W) -> Self {
        let (out, queue) = mpsc::channel(QUEUE);
        Filtered {
            read: BufReader::new(read),
            line: Vec::new(),
            cut: false,
            pending: None,
            out: Some(out),
            writer: Some(tokio::spawn(write_lines(write, queue))),
        }
    }

    /// The next line, whole or cut at [`MAX_LINE_BYTES`]; `None` at the end of input. Safe to
    /// cancel: what was read stays in `self.line`.
    async fn next_line(&mut self) -> io::Result<Option<(Vec<u8>, bool)>> {
        loop {
            let buf = self.read.fill_buf().await?;
            if buf.is_empty() {
                // A last line without its newline is still a request.
                if self.line.is_empty() && !self.cut {
                    return Ok(None);
                }
                return Ok(Some((
                    std::mem::take(&mut self.line),
                    std::mem::take(&mut self.cut),
                )));
            }
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(end) => (&buf[..end], Some(end + 1)),
                None => (buf, None),
            };
            let room = MAX_LINE_BYTES.saturating_sub(self.line.len());
            self.line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            self.cut |= chunk.len() > room;
            let used = done.unwrap_or(buf.len());
            self.read.consume(used);
            if done.is_some() {
                return Ok(Some((
                    std::mem::take(&mut self.line),
                    std::mem::take(&mut self.cut),
                )));
            }
        }
    }

    /// Hands the writer the pending answer; safe to cancel (a reserved place is not a sent
    /// answer, and the answer stays pending).
    async fn flush_pending(&mut self) -> bool {
        let (Some(out), true) = (&self.out, self.pending.is_some()) else {
            return self.out.is_some();
        };
        match out.reserve().await {
            Ok(permit) => {
                permit.send(self.pending.take().expect("checked above"));
                true
            }
            Err(_) => false,
        }
    }
}

/// Writes each message as one line, flushed.
async fn write_lines<W: AsyncWrite + Unpin>(
    mut write: W,
    mut queue: mpsc::Receiver<ServerJsonRpcMessage>,
) -> io::Result<()> {
    while let Some(message) = queue.recv().await {
        let mut value = serde_json::to_value(&message)?;
        // JSON-RPC: an error whose request's id could not be read has a null id (rmcp leaves
        // the member out).
        if let Some(answer) = value.as_object_mut().filter(|a| a.contains_key("error")) {
            answer.entry("id").or_insert(serde_json::Value::Null);
        }
        let mut bytes = serde_json::to_vec(&value)?;
        bytes.push(b'\n');
        write.write_all(&bytes).await?;
        write.flush().await?;
    }
    Ok(())
}

impl<R: tokio::io::AsyncRead + Unpin + Send + 'static> Transport<RoleServer> for Filtered<R> {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        let out = self.out.clone();
        async move {
            let closed = || io::Error::new(io::ErrorKind::BrokenPipe, "the MCP output is closed");
            out.ok_or_else(closed)?
                .send(item)
                .await
                .map_err(|_| closed())
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if !self.flush_pending().await {
                return None;
            }
            let (line, cut) = match self.next_line().await {
                Ok(Some(line)) => line,
                Ok(None) => return None,
                Err(e) => {
                    tracing::error!("the MCP input could not be read: {e}");
                    return None;
                }
            };
            match frame::decode(&line, cut) {
                Decoded::Message(message) => return Some(*message),
                Decoded::Answer(error, id) => {
                    tracing::info!(id = ?id, code = error.code.0, message = %error.message, "mcp request answered by the transport");
                    self.pending = Some(ServerJsonRpcMessage::error(error, id));
                }
                Decoded::Skip(Some(why)) => tracing::info!("mcp line skipped: {why}"),
                Decoded::Skip(None) => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.flush_pending().await;
        drop(self.out.take());
        match self.writer.take() {
            Some(writer) => writer.await.map_err(io::Error::other)?,
            None => Ok(()),
        }
    }
}
