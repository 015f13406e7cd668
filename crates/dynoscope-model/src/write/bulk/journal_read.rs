//! A journal's bytes read back, as untrusted input: bounded in size and line length, and split
//! at the end of its last whole line. Lines are written whole and synced one by one, so only
//! the last one can be cut short (a crash, a full disk): a last line without its newline, or
//! one that is not JSON, is that torn line. It is ignored here, and a resumed run cuts the file
//! back to `whole_len` before it appends: appending after the fragment would glue the next
//! line to it and leave a bad line in the middle, which no later reader could take. A bad line
//! anywhere else is corruption, and refused.

use super::journal::{parse_whole, Journal};

/// The largest journal read back (it is read whole): a run of half a million 1 KB items
/// journals about 1.5 GB.
pub const MAX_JOURNAL_BYTES: u64 = 2 << 30;
/// The longest line: an item line holds a key and two images of at most 400 KB each, which
/// DynamoDB JSON may make six times longer (a control character is written `\u0007`).
pub const MAX_LINE_BYTES: usize = 8 << 20;

/// The last line, cut short by a crash: ignored, and cut off before a resumed run appends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Torn {
    /// Its line number.
    pub line: usize,
    /// Its length in bytes (with its newline, if it has one).
    pub bytes: usize,
}

/// A journal read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadBack {
    pub journal: Journal,
    /// The length of the whole lines: where a resumed run cuts the file before appending.
    pub whole_len: u64,
    pub torn: Option<Torn>,
}

/// Reads a journal's bytes: its whole lines must all be good; a torn last line is set apart.
pub fn read(bytes: &[u8]) -> Result<ReadBack, String> {
    if bytes.len() as u64 > MAX_JOURNAL_BYTES {
        return Err(format!(
            "the journal is {} bytes, more than the {MAX_JOURNAL_BYTES} a journal may hold",
            bytes.len()
        ));
    }
    let (whole_len, torn) = split_torn(bytes);
    let whole = &bytes[..whole_len];
    for (i, line) in whole.split(|&b| b == b'\n').enumerate() {
        if line.len() > MAX_LINE_BYTES {
            return Err(format!(
                "journal line {}: {} bytes, longer than any line a journal holds ({MAX_LINE_BYTES})",
                i + 1,
                line.len()
            ));
        }
    }
    let text = std::str::from_utf8(whole).map_err(|e| {
        let line = 1 + whole[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        format!("journal line {line}: not UTF-8 text")
    })?;
    Ok(ReadBack {
        journal: parse_whole(text)?,
        whole_len: whole_len as u64,
        torn,
    })
}

/// Where the whole lines end, and the torn last line after them (if any).
fn split_torn(bytes: &[u8]) -> (usize, Option<Torn>) {
    if bytes.is_empty() {
        return (0, None);
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let start = body.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let last = &body[start..];
    let terminated = body.len() < bytes.len();
    let is_json = std::str::from_utf8(last)
        .ok()
        .is_some_and(|t| serde_json::from_str::<serde_json::Value>(t).is_ok());
    if terminated && is_json {
        return (bytes.len(), None);
    }
    let line = 1 + bytes[..start].iter().filter(|&&b| b == b'\n').count();
    let torn = Torn {
        line,
        bytes: bytes.len() - start,
    };
    (start, Some(torn))
}

#[cfg(test)]
#[path = "journal_read_tests.rs"]
mod tests;
