//! One line of the MCP transport, decoded before rmcp sees it: a line rmcp cannot decode would
//! get no answer (it drops text that is not JSON) or an answer without the request's id (a
//! request whose params do not fit its method), and the client would wait forever. Here
//! every line that is not a message rmcp takes is answered as JSON-RPC says: -32700 when it
//! is no JSON value (bad syntax, a lone UTF-16 surrogate, nesting deeper than
//! [`MAX_DEPTH`], longer than [`MAX_LINE_BYTES`]), -32600 when it is no request, -32602 when
//! its params are not what its method takes; always with the request's id when one can be
//! read, by [`top_level_id`], which scans without recursion and survives a cut line.

use rmcp::model::{ClientJsonRpcMessage, ErrorData, RequestId};
use serde_json::Value;

use super::cursor::MAX_CURSOR_CHARS;

/// A request line is at most this long: a tool's arguments are a statement, a few keys and a
/// cursor (at most [`MAX_CURSOR_CHARS`], about 1.2 MB for 50 merged Queries at the largest
/// legal key), with 1 MiB to spare for the rest.
pub const MAX_LINE_BYTES: usize = MAX_CURSOR_CHARS + 1024 * 1024;

/// JSON nested deeper than this is refused before it is decoded: no argument of any tool nests
/// past a handful of levels, and a DynamoDB item is at most 32 deep.
pub const MAX_DEPTH: usize = 64;

/// What becomes of one line.
#[derive(Debug)]
pub enum Decoded {
    /// A message for rmcp.
    Message(Box<ClientJsonRpcMessage>),
    /// An error answer for the client.
    Answer(ErrorData, Option<RequestId>),
    /// Nothing to answer: a blank line, or a notification that cannot be decoded (JSON-RPC
    /// forbids answering a notification).
    Skip(Option<String>),
}

/// Decodes one line (without its newline); `cut` says that more followed past
/// [`MAX_LINE_BYTES`] and was dropped.
pub fn decode(line: &[u8], cut: bool) -> Decoded {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) && !cut {
        return Decoded::Skip(None);
    }
    let parse_error = |why: String| {
        Decoded::Answer(
            ErrorData::parse_error(format!("{why}; nothing was done"), None),
            top_level_id(line),
        )
    };
    if cut {
        return parse_error(format!(
            "the request is longer than {MAX_LINE_BYTES} bytes, the most this server reads in one line"
        ));
    }
    let depth = max_depth(line);
    if depth > MAX_DEPTH {
        return parse_error(format!(
            "the request's JSON nests more than {MAX_DEPTH} levels deep, which no tool's arguments need"
        ));
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(e) if has_surrogate_escape(line) => {
            return parse_error(format!(
                "the request's JSON holds a lone UTF-16 surrogate escape ({e}), as a string cut in the middle of a character is written; send whole characters"
            ))
        }
        Err(e) => return parse_error(format!("the request is not JSON ({e})")),
    };
    let id = value.get("id").and_then(request_id);
    match serde_json::from_value::<ClientJsonRpcMessage>(value.clone()) {
        Ok(message) => Decoded::Message(Box::new(message)),
        Err(e) => {
            let method = value.get("method").and_then(Value::as_str);
            let is_request = value.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
                && method.is_some()
                && id.is_some();
            match (value.get("id"), method) {
                (None, Some(method)) if value.is_object() => Decoded::Skip(Some(format!(
                    "a notification {method} that cannot be decoded ({e})"
                ))),
                _ if is_request => Decoded::Answer(
                    ErrorData::invalid_params(
                        format!(
                            "the params of {} are not what it takes ({e}); nothing was done",
                            method.unwrap_or_default()
                        ),
                        None,
                    ),
                    id,
                ),
                _ => Decoded::Answer(
                    ErrorData::invalid_request(
                        format!("the line is not a JSON-RPC 2.0 request ({e}); send an object with jsonrpc \"2.0\", a method, and an id that is a string or an integer"),
                        None,
                    ),
                    id,
                ),
            }
        }
    }
}

/// Whether the line writes a UTF-16 surrogate as an escape (`\\ud83d`): serde_json, right
/// to refuse a lone one, names it only as a bad escape.
fn has_surrogate_escape(line: &[u8]) -> bool {
    // An escape only when its backslash is not itself escaped; counted last, so each run of
    // backslashes is counted once.
    line.windows(4).enumerate().any(|(i, w)| {
        w[0] == b'\\'
            && w[1] == b'u'
            && w[2].eq_ignore_ascii_case(&b'd')
            && matches!(w[3].to_ascii_lowercase(), b'8'..=b'9' | b'a'..=b'f')
            && line[..i].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 0
    })
}

fn request_id(value: &Value) -> Option<RequestId> {
    match value {
        Value::Number(n) => n.as_i64().map(RequestId::Number),
        Value::String(s) => Some(RequestId::String(s.as_str().into())),
        _ => None,
    }
}

/// How deep the line's brackets nest (strings skipped), counted without recursion.
fn max_depth(line: &[u8]) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in line {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// The `id` of a line's top-level object when it can be read, whatever else in the line is
/// broken: the line is scanned member by member, each other member's value skipped by
/// counting brackets, so a bad value elsewhere, any nesting, or a cut end do not hide it.
pub fn top_level_id(line: &[u8]) -> Option<RequestId> {
    let mut at = skip_ws(line, 0);
    if line.get(at) != Some(&b'{') {
        return None;
    }
    at += 1;
    loop {
        at = skip_ws(line, at);
        let key_start = at;
        let key_end = string_end(line, at)?;
        at = skip_ws(line, key_end);
        if line.get(at) != Some(&b':') {
            return None;
        }
        at = skip_ws(line, at + 1);
        let value_end = value_end(line, at)?;
        if &line[key_start..key_end] == b"\"id\"" {
            let value: Value = serde_json::from_slice(&line[at..value_end]).ok()?;
            return request_id(&value);
        }
        at = skip_ws(line, value_end);
        match line.get(at) {
            Some(b',') => at += 1,
            _ => return None,
        }
    }
}

fn skip_ws(line: &[u8], mut at: usize) -> usize {
    while line.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// The end (after its closing quote) of the string starting at `at`.
fn string_end(line: &[u8], at: usize) -> Option<usize> {
    if line.get(at) != Some(&b'"') {
        return None;
    }
    let mut i = at + 1;
    while i < line.len() {
        match line[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The end of the value starting at `at`: a string, a bracketed value (its brackets counted,
/// strings inside skipped), or a scalar up to the next delimiter.
fn value_end(line: &[u8], at: usize) -> Option<usize> {
    match line.get(at)? {
        b'"' => string_end(line, at),
        b'[' | b'{' => {
            let mut depth = 0usize;
            let mut i = at;
            while i < line.len() {
                match line[i] {
                    b'"' => {
                        i = string_end(line, i)?;
                        continue;
                    }
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            // A scalar the line's end cuts short could be read wrong (`12` of `1234`).
            let len = line[at..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']') || b.is_ascii_whitespace())?;
            Some(at + len)
        }
    }
}

#[cfg(test)]
#[path = "frame_tests.rs"]
mod tests;
