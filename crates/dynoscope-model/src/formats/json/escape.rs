//! JSON string escaping that matches the sanitiser: what a terminal must never receive raw is
//! `\u`-escaped, with clean text copied whole.

use std::fmt::Write as _;

use crate::text::sanitize::needs_escape;

/// JSON string escaping. Control characters, and every other character the sanitiser shows as
/// an escape (DEL, C1 controls, every format character and default-ignorable code point, the
/// line and paragraph separators; the table of [`needs_escape`]),
/// are `\u`-escaped, so JSON output never carries a raw terminal escape sequence or a bidi
/// override even though it keeps the data exact.
pub fn append_json_string(out: &mut String, s: &str) {
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
            if !may_need_escape(word, || next_word(bytes, i)) {
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
                0xc2 | 0xcd | 0xd8 | 0xdb | 0xdc | 0xe0..=0xe3 | 0xef | 0xf0 | 0xf3 => {
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
            // Gathered bytes 0, 1 and 2 are contiguous in a string of three, the only length
            // a lead byte of the two-byte tests (0xE3) fits in with its successor.
            !may_need_escape(gathered, || Some(gathered >> 8 | u64::from(b' ') << 56))
        }
        4..=7 => !may_need_escape(u64::from(half(0)) | u64::from(half(n - 4)) << 32, || None),
        _ => {
            let mut at = 0;
            while at + 8 <= n {
                if may_need_escape(word(at), || next_word(bytes, at)) {
                    return false;
                }
                at += 8;
            }
            at == n || !may_need_escape(word(n - 8), || next_word(bytes, n - 8))
        }
    }
}

/// The eight bytes after the first of the word at `at`: each byte's successor, for the
/// two-byte tests of [`may_need_escape`]. The string's last word has a space after its last
/// byte, which ends the string and so starts no character.
fn next_word(bytes: &[u8], at: usize) -> Option<u64> {
    let load = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("eight bytes"));
    match bytes.get(at + 1..at + 9) {
        Some(next) => Some(load(next)),
        None => bytes
            .get(at..at + 8)
            .map(|last| load(last) >> 8 | u64::from(b' ') << 56),
    }
}

/// Whether any of the eight bytes (little-endian) is below 0x20, or is `"`, `\\`, DEL, or may
/// start a character the escaper's table (`text::escaped`) lists. Exact as a yes/no for the
/// whole word (the classic has-zero-byte trick flags every zero byte, and only a byte above a
/// zero one falsely), never a false no; a lead byte is only a maybe.
///
/// A word of ASCII is settled by the first four tests. Otherwise the lead bytes: 0xC2 (C1
/// controls, soft hyphen), 0xCD (U+034F), 0xD8, 0xDB, 0xDC (Arabic and Syriac format
/// characters), 0xE0-0xE2 (U+0800-U+2FFF: Arabic marks, Hangul fillers, Khmer and Mongolian,
/// bidi controls, zero-width characters, separators), 0xEF (variation selectors, U+FEFF,
/// U+FFA0, U+FFF0-U+FFFB) and 0xF3 (the tag block, plane 14). Two lead bytes that start
/// common text (kana, emoji) are a maybe only with the second byte of an escaped range:
/// 0xE3 0x85 (U+3164) and 0xF0 0x91/0x93/0x9B/0x9D (the supplementary format characters),
/// tested against `next`, each byte's successor (loaded only for a word that is not ASCII); without it (a short string gathered from
/// overlapping loads) the lead byte alone is a maybe.
#[inline(always)]
fn may_need_escape(word: u64, next: impl FnOnce() -> Option<u64>) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x;
    let ascii = (word.wrapping_sub(ONES * 0x20) & !word)
        | zero_byte(word ^ (ONES * u64::from(b'"')))
        | zero_byte(word ^ (ONES * u64::from(b'\\')))
        | zero_byte(word ^ (ONES * 0x7f));
    if word & HIGHS == 0 {
        return ascii & HIGHS != 0;
    }
    let lead = zero_byte(word ^ (ONES * 0xc2))
        | zero_byte(word ^ (ONES * 0xcd))
        | zero_byte(word ^ (ONES * 0xd8))
        | zero_byte(word ^ (ONES * 0xdb))
        | zero_byte(word ^ (ONES * 0xdc))
        | zero_byte((word & (ONES * 0xfe)) ^ (ONES * 0xe0))
        | zero_byte(word ^ (ONES * 0xe2))
        | zero_byte(word ^ (ONES * 0xef))
        | zero_byte(word ^ (ONES * 0xf3));
    let (e3, f0) = (
        zero_byte(word ^ (ONES * 0xe3)),
        zero_byte(word ^ (ONES * 0xf0)),
    );
    let pairs = match next() {
        // 0x91, 0x93, 0x99 and 0x9B are 0x91 under the mask 0xF5 (0x99 only a false maybe).
        Some(next) => {
            (e3 & zero_byte(next ^ (ONES * 0x85)))
                | (f0
                    & (zero_byte((next & (ONES * 0xf5)) ^ (ONES * 0x91))
                        | zero_byte(next ^ (ONES * 0x9d))))
        }
        None => e3 | f0,
    };
    (ascii | lead | pairs) & HIGHS != 0
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
