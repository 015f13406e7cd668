//! The lexical half of [`super::ion`]'s parser: whitespace, symbols, strings and their
//! escapes, blobs and numbers.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use super::ion::plain_number;
use crate::item::number::{check_limits, parse as parse_number};

pub(super) struct Parser<'a> {
    pub(super) s: &'a [u8],
    pub(super) at: usize,
    pub(super) depth: usize,
}

pub(super) type Step<T> = Result<T, String>;

pub(super) fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

pub(super) fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

impl Parser<'_> {
    pub(super) fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    pub(super) fn rest_starts(&self, with: &[u8]) -> bool {
        self.s[self.at..].starts_with(with)
    }

    pub(super) fn ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    pub(super) fn expect(&mut self, b: u8, what: &str) -> Step<()> {
        self.ws();
        if self.peek() == Some(b) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected {what} at byte {}", self.at + 1))
        }
    }

    /// An identifier or a `'quoted symbol'`.
    pub(super) fn symbol(&mut self) -> Step<String> {
        if self.peek() == Some(b'\'') {
            return self.quoted(b'\'');
        }
        let start = self.at;
        while self.peek().is_some_and(is_ident) {
            self.at += 1;
        }
        Ok(String::from_utf8_lossy(&self.s[start..self.at]).into_owned())
    }

    /// `"short"`, or one or more `'''long'''` pieces joined.
    pub(super) fn string(&mut self) -> Step<String> {
        if self.peek() == Some(b'"') {
            return self.quoted(b'"');
        }
        let mut out = String::new();
        while self.rest_starts(b"'''") {
            self.at += 3;
            loop {
                if self.rest_starts(b"'''") {
                    self.at += 3;
                    break;
                }
                match self.peek() {
                    None => return Err("a ''' string is not closed".into()),
                    Some(b'\\') => self.escape(&mut out)?,
                    Some(_) => self.plain_char(&mut out),
                }
            }
            let after = self.at;
            self.ws();
            if !self.rest_starts(b"'''") {
                self.at = after;
            }
        }
        Ok(out)
    }

    pub(super) fn quoted(&mut self, quote: u8) -> Step<String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return Err("a quoted string is not closed".into()),
                Some(b) if b == quote => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => self.escape(&mut out)?,
                Some(_) => self.plain_char(&mut out),
            }
        }
    }

    pub(super) fn plain_char(&mut self, out: &mut String) {
        // The line is a &str, so a char starts here: copy its bytes whole.
        let rest = &self.s[self.at..];
        let len = match rest[0] {
            b if b < 0x80 => 1,
            b if b >= 0xf0 => 4,
            b if b >= 0xe0 => 3,
            _ => 2,
        };
        out.push_str(std::str::from_utf8(&rest[..len.min(rest.len())]).unwrap_or("\u{fffd}"));
        self.at += len;
    }

    pub(super) fn escape(&mut self, out: &mut String) -> Step<()> {
        self.at += 1;
        let Some(b) = self.peek() else {
            return Err("the line ends inside an escape".into());
        };
        self.at += 1;
        let simple = match b {
            b'a' => '\u{7}',
            b'b' => '\u{8}',
            b't' => '\t',
            b'n' => '\n',
            b'f' => '\u{c}',
            b'r' => '\r',
            b'v' => '\u{b}',
            b'0' => '\0',
            b'?' | b'\'' | b'"' | b'/' | b'\\' => b as char,
            b'\n' => return Ok(()),
            b'x' => self.hex_char(2)?,
            b'u' => self.utf16_escape()?,
            b'U' => self.hex_char(8)?,
            other => return Err(format!("unknown escape '\\{}'", other as char)),
        };
        out.push(simple);
        Ok(())
    }

    /// `\uXXXX` (its `\u` read): a character, or a high surrogate that must be followed by
    /// `\u` and a low one. A lone or mismatched surrogate is an error, never a guess.
    fn utf16_escape(&mut self) -> Step<char> {
        let at = self.at - 1;
        let first = self.hex(4)?;
        let lone = || format!("a lone UTF-16 surrogate \\u{first:04x} at byte {at}");
        match first {
            0xd800..=0xdbff => {
                if !self.rest_starts(b"\\u") {
                    return Err(lone());
                }
                self.at += 2;
                let second = self.hex(4)?;
                if !(0xdc00..=0xdfff).contains(&second) {
                    return Err(format!(
                        "\\u{first:04x} at byte {at} is not followed by a low surrogate (found \\u{second:04x})"
                    ));
                }
                let code = 0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00);
                char::from_u32(code).ok_or_else(lone)
            }
            0xdc00..=0xdfff => Err(lone()),
            _ => char::from_u32(first).ok_or_else(lone),
        }
    }

    pub(super) fn hex(&mut self, n: usize) -> Step<u32> {
        let digits = self
            .s
            .get(self.at..self.at + n)
            .filter(|d| d.iter().all(u8::is_ascii_hexdigit))
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .ok_or_else(|| format!("expected {n} hex digits at byte {}", self.at + 1))?;
        self.at += n;
        Ok(digits)
    }

    pub(super) fn hex_char(&mut self, n: usize) -> Step<char> {
        let code = self.hex(n)?;
        char::from_u32(code).ok_or_else(|| format!("escape {code:#x} is not a character"))
    }

    pub(super) fn blob(&mut self) -> Step<Vec<u8>> {
        self.at += 2;
        self.ws();
        if self.peek() == Some(b'"') || self.rest_starts(b"'''") {
            return Err("a clob is not a DynamoDB value".into());
        }
        let mut text = Vec::new();
        loop {
            match self.peek() {
                None => return Err("a blob is not closed with }}".into()),
                Some(b'}') if self.rest_starts(b"}}") => {
                    self.at += 2;
                    break;
                }
                Some(b) if b.is_ascii_whitespace() => self.at += 1,
                Some(b) => {
                    text.push(b);
                    self.at += 1;
                }
            }
        }
        BASE64
            .decode(&text)
            .map_err(|_| format!("blob '{}' is not base64", String::from_utf8_lossy(&text)))
    }

    /// An Ion int or decimal as DynamoDB number text. Floats (`1.5e0`) are exact decimal text
    /// too and read the same way; hex and binary ints, `nan` and `inf` are refused.
    pub(super) fn number(&mut self) -> Step<String> {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.' | b'_'))
        {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.at]).expect("ASCII");
        let spelled: String = text
            .chars()
            .filter(|&c| c != '_')
            .map(|c| if c == 'd' || c == 'D' { 'e' } else { c })
            .collect();
        let decimal = (!spelled.contains(['x', 'X', 'b', 'B']))
            .then(|| parse_number(&spelled))
            .flatten()
            .ok_or_else(|| format!("'{text}' is not an Ion decimal or int"))?;
        // The DynamoDB JSON reader's limits, on the parts: checked before `plain_number`
        // writes out the exponent's zeros, so a huge exponent costs nothing.
        check_limits(&decimal, text).map_err(|e| e.to_string())?;
        Ok(plain_number(&decimal))
    }
}
