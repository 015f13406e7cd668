//! Reading Rust source as the checks need it: comments and literal contents blanked (byte for
//! byte, so offsets and line numbers in the blanked text are the raw text's), then split into
//! the few tokens a path is made of.

/// `text` with comments and the contents of string and char literals blanked: a path in a
/// comment or a string is not an import. A string keeps its two quotes (raw strings too, at
/// the positions of theirs) so a token can point at the raw text of a literal.
pub fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, c: char| {
        if c == '\n' {
            out.push('\n');
        } else {
            out.push_str(&" ".repeat(c.len_utf8()));
        }
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                blank(&mut out, chars[i]);
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
        } else if c == 'r'
            && matches!(next, Some('#') | Some('"'))
            && !ident_char(chars.get(i.wrapping_sub(1)))
        {
            // A raw string: r"…" or r#"…"#, closed by a quote and as many hashes.
            let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            out.push_str(&" ".repeat(1 + hashes));
            out.push('"');
            i += 2 + hashes;
            while i < chars.len() && !chars[i..].starts_with(&close) {
                blank(&mut out, chars[i]);
                i += 1;
            }
            out.push('"');
            out.push_str(&" ".repeat(hashes));
            i += close.len();
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A char literal ('x', '\n', '\u{1b}'); a lifetime ('a) has no closing quote.
            // An escape ('\n', '\'', '\u{1b}') ends at the first quote after its second char.
            let end = if next == Some('\\') {
                chars[i + 3..]
                    .iter()
                    .position(|c| *c == '\'')
                    .map_or(chars.len() - 1, |p| i + 3 + p)
            } else {
                i + 2
            };
            for c in &chars[i..=end] {
                blank(&mut out, *c);
            }
            i = end + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

pub fn ident_char(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Ident(String),
    /// `::`
    Sep,
    /// A string literal; `at..end` is its content in the raw text.
    Str {
        end: usize,
    },
    Punct(char),
}

#[derive(Debug, Clone)]
pub struct Token {
    pub kind: Kind,
    /// Byte offset in the text (the content's start for a string).
    pub at: usize,
    pub line: usize,
}

impl Token {
    pub fn ident(&self) -> Option<&str> {
        match &self.kind {
            Kind::Ident(name) => Some(name),
            _ => None,
        }
    }

    pub fn is(&self, c: char) -> bool {
        self.kind == Kind::Punct(c)
    }
}

/// The tokens of blanked code: identifiers (`r#x` as `x`), `::`, strings and single
/// punctuation; numbers and whitespace are dropped.
pub fn tokens(code: &str) -> Vec<Token> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let word = |from: usize| {
            let mut j = from;
            while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                j += 1;
            }
            j
        };
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() || !c.is_ascii() {
            i += 1;
        } else if c.is_ascii_digit() {
            i = word(i);
        } else if c == b'r'
            && bytes.get(i + 1) == Some(&b'#')
            && bytes
                .get(i + 2)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        {
            i = word(i + 2);
            out.push(Token {
                kind: Kind::Ident(code[start + 2..i].into()),
                at: start,
                line,
            });
        } else if c.is_ascii_alphabetic() || c == b'_' {
            i = word(i);
            out.push(Token {
                kind: Kind::Ident(code[start..i].into()),
                at: start,
                line,
            });
        } else if c == b':' && bytes.get(i + 1) == Some(&b':') {
            out.push(Token {
                kind: Kind::Sep,
                at: start,
                line,
            });
            i += 2;
        } else if c == b'"' {
            let end = code[i + 1..].find('"').map_or(bytes.len(), |p| i + 1 + p);
            out.push(Token {
                kind: Kind::Str { end },
                at: i + 1,
                line,
            });
            line += code[i..end].matches('\n').count();
            i = end + 1;
        } else {
            out.push(Token {
                kind: Kind::Punct(c as char),
                at: start,
                line,
            });
            i += 1;
        }
    }
    out
}
