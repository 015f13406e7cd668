//! An item as pretty JSON lines, one member or element per line, in plain JSON or DynamoDB
//! JSON, as tokens the detail view colours. Every string is escaped as JSON is written
//! ([`append_json_string`]: quotes and backslashes escaped, control, bidi and invisible characters
//! as visible `\u` escapes), so the text is valid JSON and inert; very long strings are cut with
//! their length shown. The detail view draws these lines and `update`
//! scrolls and wraps by them, so both measure the same text.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use super::append_json_string;
use super::JsonSpelling;
use crate::item::number::{is_json_number, to_json_number};
use crate::item::value::{AttrValue, Item};

/// What a piece of a line is, for its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    Punct,
    Key,
    Str,
    Number,
    Literal,
    TypeTag,
}

pub type Piece = (Token, String);
pub type PrettyLine = Vec<Piece>;

/// The text of a line, without its tokens.
pub fn line_text(line: &PrettyLine) -> String {
    line.iter().map(|(_, text)| text.as_str()).collect()
}

fn piece(text: impl Into<String>, token: Token) -> Piece {
    (token, text.into())
}

/// Characters of one string shown before it is cut.
pub const MAX_STRING_CHARS: usize = 2_000;

pub fn pretty_lines(item: &Item, mode: JsonSpelling) -> Vec<PrettyLine> {
    let mut out = Vec::new();
    let mut w = Writer {
        out: &mut out,
        mode,
    };
    w.map(item, 0, Vec::new(), false);
    out
}

struct Writer<'a> {
    out: &'a mut Vec<PrettyLine>,
    mode: JsonSpelling,
}

fn indent(depth: usize) -> Piece {
    (Token::Punct, "  ".repeat(depth))
}

fn punct(text: &str) -> Piece {
    (Token::Punct, text.to_owned())
}

/// `text` as a JSON string (the sanitiser's `\x1b` is no JSON escape; `\u001b` is, and shows
/// as plainly).
fn quoted(text: &str) -> String {
    let count = text.chars().count();
    let mut out = String::with_capacity(text.len().min(MAX_STRING_CHARS * 4) + 2);
    if count > MAX_STRING_CHARS {
        let mut cut: String = text.chars().take(MAX_STRING_CHARS).collect();
        cut.push('…');
        append_json_string(&mut out, &cut);
        out.push_str(&format!(" ({count} chars)"));
    } else {
        append_json_string(&mut out, text);
    }
    out
}

impl Writer<'_> {
    /// Writes `{ … }` for a map; `prefix` holds pieces already on the opening line (a key).
    fn map(&mut self, item: &Item, depth: usize, mut prefix: Vec<Piece>, comma: bool) {
        if item.is_empty() {
            prefix.push(punct(if comma { "{}," } else { "{}" }));
            self.out.push(prefix);
            return;
        }
        prefix.push(punct("{"));
        self.out.push(prefix);
        let last = item.len() - 1;
        for (i, (name, value)) in item.iter().enumerate() {
            let key = vec![
                indent(depth + 1),
                piece(quoted(name), Token::Key),
                punct(": "),
            ];
            self.value(value, depth + 1, key, i < last);
        }
        self.out
            .push(vec![indent(depth), punct(if comma { "}," } else { "}" })]);
    }

    fn list<T>(
        &mut self,
        values: &[T],
        depth: usize,
        mut prefix: Vec<Piece>,
        comma: bool,
        mut each: impl FnMut(&mut Self, &T, usize, Vec<Piece>, bool),
    ) {
        if values.is_empty() {
            prefix.push(punct(if comma { "[]," } else { "[]" }));
            self.out.push(prefix);
            return;
        }
        prefix.push(punct("["));
        self.out.push(prefix);
        for (i, v) in values.iter().enumerate() {
            each(
                self,
                v,
                depth + 1,
                vec![indent(depth + 1)],
                i + 1 < values.len(),
            );
        }
        self.out
            .push(vec![indent(depth), punct(if comma { "]," } else { "]" })]);
    }

    fn scalar(&mut self, mut prefix: Vec<Piece>, span: Piece, comma: bool) {
        prefix.push(span);
        if comma {
            prefix.push(punct(","));
        }
        self.out.push(prefix);
    }

    fn value(&mut self, value: &AttrValue, depth: usize, prefix: Vec<Piece>, comma: bool) {
        match self.mode {
            JsonSpelling::Plain => self.plain(value, depth, prefix, comma),
            JsonSpelling::Dynamo => self.dynamo(value, depth, prefix, comma),
        }
    }

    fn plain(&mut self, value: &AttrValue, depth: usize, prefix: Vec<Piece>, comma: bool) {
        let string = |s: &str| piece(quoted(s), Token::Str);
        // Text that is no number (only a misbehaving server sends one) is shown as a string,
        // through the sanitiser, as `jsonl` writes it.
        let number = |n: &str| match to_json_number(n) {
            json if is_json_number(&json) => piece(json.into_owned(), Token::Number),
            _ => piece(quoted(n), Token::Str),
        };
        match value {
            AttrValue::S(s) => self.scalar(prefix, string(s), comma),
            AttrValue::N(n) => self.scalar(prefix, number(n), comma),
            AttrValue::B(b) => self.scalar(prefix, string(&BASE64.encode(b)), comma),
            AttrValue::Bool(b) => self.scalar(prefix, piece(b.to_string(), Token::Literal), comma),
            AttrValue::Null => self.scalar(prefix, piece("null", Token::Literal), comma),
            AttrValue::Ss(v) => self.list(v, depth, prefix, comma, |w, s, _, p, c| {
                w.scalar(p, string(s), c)
            }),
            AttrValue::Ns(v) => self.list(v, depth, prefix, comma, |w, n, _, p, c| {
                w.scalar(p, number(n), c)
            }),
            AttrValue::Bs(v) => self.list(v, depth, prefix, comma, |w, b, _, p, c| {
                w.scalar(p, string(&BASE64.encode(b)), c)
            }),
            AttrValue::L(v) => {
                self.list(v, depth, prefix, comma, |w, x, d, p, c| w.plain(x, d, p, c))
            }
            AttrValue::M(m) => self.map(m, depth, prefix, comma),
        }
    }

    /// DynamoDB JSON: `{"S": "…"}` on one line for scalars, nested blocks for containers.
    fn dynamo(&mut self, value: &AttrValue, depth: usize, mut prefix: Vec<Piece>, comma: bool) {
        let tag = value.type_name();
        let open = |prefix: &mut Vec<Piece>| {
            prefix.push(punct("{"));
            prefix.push(piece(format!("\"{tag}\""), Token::TypeTag));
            prefix.push(punct(": "));
        };
        let scalar: Option<Piece> = match value {
            AttrValue::S(s) => Some(piece(quoted(s), Token::Str)),
            AttrValue::N(n) => Some(piece(quoted(n), Token::Number)),
            AttrValue::B(b) => Some(piece(format!("\"{}\"", BASE64.encode(b)), Token::Str)),
            AttrValue::Bool(b) => Some(piece(b.to_string(), Token::Literal)),
            AttrValue::Null => Some(piece("true", Token::Literal)),
            _ => None,
        };
        if let Some(span) = scalar {
            open(&mut prefix);
            prefix.push(span);
            prefix.push(punct(if comma { "}," } else { "}" }));
            self.out.push(prefix);
            return;
        }
        open(&mut prefix);
        match value {
            AttrValue::Ss(v) | AttrValue::Ns(v) => {
                let number = matches!(value, AttrValue::Ns(_));
                self.list(v, depth, prefix, false, |w, s, _, p, c| {
                    let span = if number {
                        piece(quoted(s), Token::Number)
                    } else {
                        piece(quoted(s), Token::Str)
                    };
                    w.scalar(p, span, c)
                })
            }
            AttrValue::Bs(v) => self.list(v, depth, prefix, false, |w, b, _, p, c| {
                w.scalar(p, piece(format!("\"{}\"", BASE64.encode(b)), Token::Str), c)
            }),
            AttrValue::L(v) => self.list(v, depth, prefix, false, |w, x, d, p, c| {
                w.dynamo(x, d, p, c)
            }),
            AttrValue::M(m) => self.map(m, depth, prefix, false),
            _ => unreachable!("scalars handled above"),
        }
        // Close the `{"L": …` wrapper on the container's closing line.
        if let Some(last) = self.out.last_mut() {
            last.push(punct(if comma { "}," } else { "}" }));
        }
    }
}
