//! A JSON string's place and unescaped length, read without decoding it: the size-and-key
//! pass sizes every string of every item and keeps none of them.

/// A string's text in the line (between its quotes) and its UTF-8 length once unescaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct JsonString {
    pub start: usize,
    pub end: usize,
    pub len: usize,
    pub escaped: bool,
}

/// Bytes that end the quick run through a string: the quote, a backslash, control characters.
const STRING_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 0x20 {
        table[c] = true;
        c += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// The string whose opening quote is `b[at]`, and where the text after it starts. `None` for
/// what serde_json rejects (a raw control character, an unknown escape, a surrogate not in a
/// pair) and for no string at all. `b` is UTF-8, so raw bytes count as they are.
pub(super) fn scan_string(b: &[u8], at: usize) -> Option<(JsonString, usize)> {
    if b.get(at) != Some(&b'"') {
        return None;
    }
    let start = at + 1;
    let mut i = start;
    // Bytes the escapes take in the line beyond the UTF-8 they stand for.
    let mut shrink = 0;
    loop {
        i = skip_plain(b, i);
        match *b.get(i)? {
            b'"' => break,
            b'\\' => match *b.get(i + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                    i += 2;
                    shrink += 1;
                }
                b'u' => {
                    let unit = hex4(b, i + 2)?;
                    i += 6;
                    let utf8 = match unit {
                        0xD800..=0xDBFF => {
                            if b.get(i..i + 2) != Some(b"\\u") {
                                return None;
                            }
                            if !(0xDC00..=0xDFFF).contains(&hex4(b, i + 2)?) {
                                return None;
                            }
                            i += 6;
                            // Twelve bytes in the line, one four-byte character.
                            shrink += 8;
                            continue;
                        }
                        0xDC00..=0xDFFF => return None,
                        0..=0x7F => 1,
                        0x80..=0x7FF => 2,
                        _ => 3,
                    };
                    shrink += 6 - utf8;
                }
                _ => return None,
            },
            // A raw control character: not JSON.
            _ => return None,
        }
    }
    let found = JsonString {
        start,
        end: i,
        len: i - start - shrink,
        escaped: shrink > 0,
    };
    Some((found, i + 1))
}

/// The first byte at or after `i` that [`STRING_STOP`] names (or the end): eight bytes at a
/// time while none of them is one, since most of a line is the text of its strings.
fn skip_plain(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Whether a byte of `word` is zero: exact for the whole word (a borrow only flags bytes
    // above a real zero byte).
    let has_zero = |word: u64| word.wrapping_sub(ONES) & !word & HIGHS != 0;
    while let Some(chunk) = b.get(i..i + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS != 0;
        if control
            || has_zero(word ^ (ONES * u64::from(b'"')))
            || has_zero(word ^ (ONES * u64::from(b'\\')))
        {
            break;
        }
        i += 8;
    }
    while b.get(i).is_some_and(|&c| !STRING_STOP[c as usize]) {
        i += 1;
    }
    i
}

fn hex4(b: &[u8], at: usize) -> Option<u32> {
    let mut unit = 0;
    for &d in b.get(at..at + 4)? {
        unit = unit * 16 + (d as char).to_digit(16)?;
    }
    Some(unit)
}

#[cfg(test)]
#[path = "json_string_tests.rs"]
mod tests;
