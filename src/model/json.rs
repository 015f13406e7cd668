//! Conversion between items and their two JSON spellings.
//!
//! *Plain JSON* (`jsonl`): numbers written as exact JSON numbers (never through `f64`), binary as
//! base64 strings, sets as arrays, NULL as `null`. *DynamoDB JSON* (`ddb-jsonl`): the service's
//! own typed form, `{"S":"…"}`, `{"N":"…"}`, which round-trips every type exactly.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use serde_json::Value;
use std::fmt::Write as _;

use super::number::{is_json_number, to_json_number, validate_number};
use super::sanitize::needs_escape;
use super::value::{AttrValue, Item};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum JsonError {
    #[error("'{0}' is not valid JSON: {1}")]
    Syntax(String, String),
    #[error("{0} must be a JSON object, got '{1}'")]
    NotObject(&'static str, String),
    #[error("'{0}' is not DynamoDB JSON: {1}")]
    NotDynamoJson(String, String),
    #[error("{0}")]
    Number(String),
}

/// Which of the two JSON spellings to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonSpelling {
    /// Plain JSON (`jsonl`).
    Plain,
    /// DynamoDB JSON (`ddb-jsonl`).
    Dynamo,
}

/// Appends `item` as one line of plain JSON.
pub fn write_plain(out: &mut String, item: &Item) {
    out.push('{');
    for (i, (name, value)) in item.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_string(out, name);
        out.push(':');
        write_plain_value(out, value);
    }
    out.push('}');
}

fn write_plain_value(out: &mut String, value: &AttrValue) {
    match value {
        AttrValue::S(s) => write_json_string(out, s),
        AttrValue::N(n) => write_json_number(out, n),
        AttrValue::B(b) => write_json_string(out, &BASE64.encode(b)),
        AttrValue::Ss(v) => write_array(out, v, |out, s| write_json_string(out, s)),
        AttrValue::Ns(v) => write_array(out, v, |out, n| write_json_number(out, n)),
        AttrValue::Bs(v) => write_array(out, v, |out, b| write_json_string(out, &BASE64.encode(b))),
        AttrValue::M(m) => write_plain(out, m),
        AttrValue::L(v) => write_array(out, v, write_plain_value),
        AttrValue::Null => out.push_str("null"),
        AttrValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
    }
}

/// Appends `item` as one line of DynamoDB JSON.
pub fn write_dynamo(out: &mut String, item: &Item) {
    out.push('{');
    for (i, (name, value)) in item.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_string(out, name);
        out.push(':');
        write_dynamo_value(out, value);
    }
    out.push('}');
}

fn write_dynamo_value(out: &mut String, value: &AttrValue) {
    out.push_str("{\"");
    out.push_str(value.type_name());
    out.push_str("\":");
    match value {
        AttrValue::S(s) | AttrValue::N(s) => write_json_string(out, s),
        AttrValue::B(b) => write_json_string(out, &BASE64.encode(b)),
        AttrValue::Ss(v) | AttrValue::Ns(v) => {
            write_array(out, v, |out, s| write_json_string(out, s))
        }
        AttrValue::Bs(v) => write_array(out, v, |out, b| write_json_string(out, &BASE64.encode(b))),
        AttrValue::M(m) => write_dynamo(out, m),
        AttrValue::L(v) => write_array(out, v, write_dynamo_value),
        AttrValue::Null => out.push_str("true"),
        AttrValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
    }
    out.push('}');
}

/// Lines `item` takes as pretty JSON with one member or element per line, in either spelling
/// (DynamoDB JSON closes a container's `{"M": …` wrapper on the container's closing line). The
/// detail view draws exactly this many (tested in `ui::json_view`), and scrolling stops there.
pub fn pretty_line_count(item: &Item) -> usize {
    fn container(children: usize, lines: usize) -> usize {
        if children == 0 {
            1
        } else {
            2 + lines
        }
    }
    fn value(v: &AttrValue) -> usize {
        match v {
            AttrValue::M(m) => pretty_line_count(m),
            AttrValue::L(l) => container(l.len(), l.iter().map(value).sum()),
            AttrValue::Ss(v) | AttrValue::Ns(v) => container(v.len(), v.len()),
            AttrValue::Bs(v) => container(v.len(), v.len()),
            _ => 1,
        }
    }
    container(item.len(), item.iter().map(|(_, v)| value(v)).sum())
}

/// Appends `values` as a JSON array, each written by `each`.
pub fn write_array<T>(out: &mut String, values: &[T], mut each: impl FnMut(&mut String, &T)) {
    out.push('[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(out, v);
    }
    out.push(']');
}

/// An `N` value as an exact JSON number, all its digits kept. DynamoDB only stores valid
/// numbers, but the text comes from whoever answered the request: text that is no number is
/// written as a JSON string instead, so the line stays valid JSON and the text stays escaped
/// (written raw it broke the line, and could carry a terminal escape sequence).
pub fn write_json_number(out: &mut String, text: &str) {
    let number = to_json_number(text);
    if is_json_number(&number) {
        out.push_str(&number);
    } else {
        write_json_string(out, text);
    }
}

/// JSON string escaping. Control characters, and every other character the sanitiser shows as
/// an escape (DEL, C1 controls, bidi and invisible format characters; see
/// [`super::sanitize::needs_escape`]), are `\u`-escaped, so JSON output never carries a raw
/// terminal escape sequence or a bidi override even though it keeps the data exact.
pub fn write_json_string(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push('"');
    // Most strings need no escaping at all: checked eight bytes at a time, and copied whole.
    // Strings are most of what a scan to JSON lines writes, so this is its hottest loop.
    if is_clean(bytes) {
        out.push_str(s);
        out.push('"');
        return;
    }
    let mut start = 0;
    let mut i = 0;
    // Everything that needs escaping is ASCII, or a character whose UTF-8 starts with one of
    // the lead bytes in `may_need_escape`. Clean words are skipped, clean runs copied whole.
    while i < bytes.len() {
        if let Some(word) = bytes.get(i..i + 8) {
            let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
            if !may_need_escape(word) {
                i += 8;
                continue;
            }
        }
        // A word that may need escaping is looked at byte by byte.
        let stop = (i + 8).min(bytes.len());
        while i < stop {
            let (escape, width): (Option<&str>, usize) = match bytes[i] {
                b'"' => (Some("\\\""), 1),
                b'\\' => (Some("\\\\"), 1),
                b'\n' => (Some("\\n"), 1),
                b'\r' => (Some("\\r"), 1),
                b'\t' => (Some("\\t"), 1),
                0x00..=0x1f | 0x7f => (None, 1),
                // A lead byte, so a char boundary: the char decides.
                0xc2 | 0xd8 | 0xe1 | 0xe2 | 0xef => {
                    let c = s[i..].chars().next().expect("at a char boundary");
                    if !needs_escape(c) {
                        i += c.len_utf8();
                        continue;
                    }
                    (None, c.len_utf8())
                }
                _ => {
                    i += 1;
                    continue;
                }
            };
            out.push_str(&s[start..i]);
            match escape {
                Some(e) => out.push_str(e),
                None => {
                    let c = s[i..].chars().next().expect("at a char boundary");
                    push_unicode_escape(out, c);
                }
            }
            i += width;
            start = i;
        }
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// No byte needs a look (see [`may_need_escape`]). Every byte is tested as part of an eight-byte
/// word: a string's last word overlaps the one before it, and a string shorter than eight bytes
/// is gathered into one word from overlapping loads and padded with spaces, so short strings
/// (most attribute names and many values) take a handful of instructions.
fn is_clean(bytes: &[u8]) -> bool {
    const SPACES: u64 = 0x2020_2020_2020_2020;
    let n = bytes.len();
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"));
    let half = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"));
    match n {
        0 => true,
        1..=3 => {
            // Bytes 0, n/2 and n-1 cover every index of a string this short.
            let gathered = u64::from(bytes[0])
                | u64::from(bytes[n / 2]) << 8
                | u64::from(bytes[n - 1]) << 16
                | SPACES << 24;
            !may_need_escape(gathered)
        }
        4..=7 => !may_need_escape(u64::from(half(0)) | u64::from(half(n - 4)) << 32),
        _ => {
            let mut at = 0;
            while at + 8 <= n {
                if may_need_escape(word(at)) {
                    return false;
                }
                at += 8;
            }
            at == n || !may_need_escape(word(n - 8))
        }
    }
}

/// Whether any of the eight bytes (little-endian) is below 0x20, or is `"`, `\\`, DEL, or the
/// UTF-8 lead byte of a character the sanitiser escapes: 0xC2 (C1 controls, soft hyphen), 0xD8
/// (U+061C), 0xE1 (U+180E), 0xE2 (U+2000..U+2FFF: bidi controls, zero-width characters,
/// separators) and 0xEF (U+FEFF, U+FFF9..U+FFFB). Exact as a yes/no for the whole word (the
/// classic has-zero-byte trick), never a false no; a lead byte is only a maybe.
fn may_need_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x;
    let hits = (word.wrapping_sub(ONES * 0x20) & !word)
        | zero_byte(word ^ (ONES * u64::from(b'"')))
        | zero_byte(word ^ (ONES * u64::from(b'\\')))
        | zero_byte(word ^ (ONES * 0x7f))
        | zero_byte(word ^ (ONES * 0xc2))
        | zero_byte(word ^ (ONES * 0xd8))
        | zero_byte(word ^ (ONES * 0xe1))
        | zero_byte(word ^ (ONES * 0xe2))
        | zero_byte(word ^ (ONES * 0xef));
    hits & HIGHS != 0
}

/// `\uXXXX`, as a surrogate pair beyond the Basic Multilingual Plane.
fn push_unicode_escape(out: &mut String, c: char) {
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        let _ = write!(out, "\\u{:04x}", unit);
    }
}

/// `value` as JSON, with every character the sanitiser escapes `\u`-escaped (serde_json leaves
/// DEL, C1 and bidi controls raw). For `describe`, `hotkeys` and `--stats`, whose strings
/// (table, index and key names) come from the service.
pub fn to_safe_json<T: serde::Serialize>(value: &T, pretty: bool) -> String {
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    }
    .unwrap_or_default();
    escape_unsafe_chars(&text)
}

/// serde_json escapes control characters below 0x20 inside strings, and outside strings writes
/// only ASCII (with newlines and spaces when pretty). So every DEL or non-ASCII character the
/// sanitiser escapes is inside a string, where `\u` is its exact spelling.
fn escape_unsafe_chars(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if c == '\u{7f}' || (!c.is_ascii() && needs_escape(c)) {
            push_unicode_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

/// Parses `--values` in the short form: a JSON object of placeholders to plain JSON values.
/// Strings become S, numbers N (exact text), booleans BOOL, null NULL, arrays L, objects M.
pub fn parse_plain_values(text: &str) -> Result<Vec<(String, AttrValue)>, JsonError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| JsonError::Syntax(text.to_string(), e.to_string()))?;
    let Value::Object(map) = value else {
        return Err(JsonError::NotObject("--values", text.to_string()));
    };
    map.into_iter()
        .map(|(k, v)| Ok((k, plain_to_attr(v)?)))
        .collect()
}

pub fn plain_to_attr(value: Value) -> Result<AttrValue, JsonError> {
    Ok(match value {
        Value::String(s) => AttrValue::S(s),
        Value::Number(n) => {
            let text = n.to_string();
            validate_number(&text).map_err(|e| JsonError::Number(e.to_string()))?;
            AttrValue::N(text)
        }
        Value::Bool(b) => AttrValue::Bool(b),
        Value::Null => AttrValue::Null,
        Value::Array(v) => {
            AttrValue::L(v.into_iter().map(plain_to_attr).collect::<Result<_, _>>()?)
        }
        Value::Object(m) => AttrValue::M(Item::from_attrs(
            m.into_iter()
                .map(|(k, v)| Ok((k, plain_to_attr(v)?)))
                .collect::<Result<_, JsonError>>()?,
        )),
    })
}

/// Parses a JSON object of string to string (`--names`, `--expression-attribute-names`).
pub fn parse_names(flag: &'static str, text: &str) -> Result<Vec<(String, String)>, JsonError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| JsonError::Syntax(text.to_string(), e.to_string()))?;
    let Value::Object(map) = value else {
        return Err(JsonError::NotObject(flag, text.to_string()));
    };
    map.into_iter()
        .map(|(k, v)| match v {
            Value::String(s) => Ok((k, s)),
            other => Err(JsonError::NotObject(flag, format!("{k}: {other}"))),
        })
        .collect()
}

/// Parses a JSON object whose values are DynamoDB JSON (`--expression-attribute-values`).
pub fn parse_dynamo_values(text: &str) -> Result<Vec<(String, AttrValue)>, JsonError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| JsonError::Syntax(text.to_string(), e.to_string()))?;
    let Value::Object(map) = value else {
        return Err(JsonError::NotObject(
            "--expression-attribute-values",
            text.to_string(),
        ));
    };
    map.into_iter()
        .map(|(k, v)| Ok((k, dynamo_to_attr(&v)?)))
        .collect()
}

/// Parses one DynamoDB JSON item (`{"pk":{"S":"a"}}`).
pub fn parse_dynamo_item(text: &str) -> Result<Item, JsonError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| JsonError::Syntax(text.to_string(), e.to_string()))?;
    match dynamo_to_attr(&serde_json::json!({ "M": value }))? {
        AttrValue::M(item) => Ok(item),
        _ => unreachable!("an M descriptor always yields a map"),
    }
}

pub fn dynamo_to_attr(value: &Value) -> Result<AttrValue, JsonError> {
    let bad = |why: &str| JsonError::NotDynamoJson(value.to_string(), why.to_string());
    let Value::Object(map) = value else {
        return Err(bad("expected an object like {\"S\":\"text\"}"));
    };
    if map.len() != 1 {
        return Err(bad(
            "expected exactly one type descriptor (S, N, B, SS, NS, BS, M, L, NULL, BOOL)",
        ));
    }
    let (tag, inner) = map.iter().next().expect("len checked");
    let string = |v: &Value| {
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| bad("expected a string"))
    };
    let number = |v: &Value| -> Result<String, JsonError> {
        let text = v
            .as_str()
            .ok_or_else(|| bad("N takes a string like \"42\""))?;
        validate_number(text).map_err(|e| JsonError::Number(e.to_string()))?;
        Ok(text.to_string())
    };
    let binary = |v: &Value| -> Result<Vec<u8>, JsonError> {
        let text = v.as_str().ok_or_else(|| bad("B takes a base64 string"))?;
        BASE64
            .decode(text)
            .map_err(|_| bad("B takes a base64 string"))
    };
    let array = |v: &Value| {
        v.as_array()
            .cloned()
            .ok_or_else(|| bad("expected an array"))
    };
    Ok(match tag.as_str() {
        "S" => AttrValue::S(string(inner)?),
        "N" => AttrValue::N(number(inner)?),
        "B" => AttrValue::B(binary(inner)?),
        "SS" => AttrValue::Ss(array(inner)?.iter().map(string).collect::<Result<_, _>>()?),
        "NS" => AttrValue::Ns(array(inner)?.iter().map(number).collect::<Result<_, _>>()?),
        "BS" => AttrValue::Bs(array(inner)?.iter().map(binary).collect::<Result<_, _>>()?),
        "L" => AttrValue::L(
            array(inner)?
                .iter()
                .map(dynamo_to_attr)
                .collect::<Result<_, _>>()?,
        ),
        "M" => {
            let obj = inner.as_object().ok_or_else(|| bad("M takes an object"))?;
            AttrValue::M(Item::from_attrs(
                obj.iter()
                    .map(|(k, v)| Ok((k.clone(), dynamo_to_attr(v)?)))
                    .collect::<Result<_, JsonError>>()?,
            ))
        }
        "NULL" => AttrValue::Null,
        "BOOL" => AttrValue::Bool(
            inner
                .as_bool()
                .ok_or_else(|| bad("BOOL takes true or false"))?,
        ),
        _ => return Err(bad("unknown type descriptor")),
    })
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
