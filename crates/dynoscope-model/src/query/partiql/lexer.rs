//! PartiQL's tokens as DynamoDB reads them: `'text'` strings (a quote doubled inside), `"name"`
//! identifiers (likewise), bare words, numbers, `?`, operators and brackets. Every token keeps
//! its column so an error can point at it.

use super::error::PartiqlError;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// A bare word: a keyword or an attribute name, decided by the parser.
    Word(String),
    /// A double-quoted identifier: always a name, never a keyword.
    Quoted(String),
    Str(String),
    /// Decimal text as written (sign handled by the parser).
    Num(String),
    Param,
    Star,
    Comma,
    Dot,
    Colon,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    /// `<<` and `>>`, PartiQL's bag (set) brackets.
    LBag,
    RBag,
    Op(&'static str),
    Minus,
    Semicolon,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    /// 1-based column (in characters) of the token's first character.
    pub col: usize,
    /// 0-based character offset just past the token's last character: with `col`, whether two
    /// tokens were written apart or adjacent.
    pub end: usize,
}

impl Tok {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("'{w}'"),
            Tok::Quoted(q) => format!("'\"{q}\"'"),
            Tok::Str(s) => format!("the string '{s}'"),
            Tok::Num(n) => format!("'{n}'"),
            Tok::Param => "'?'".into(),
            Tok::Star => "'*'".into(),
            Tok::Comma => "','".into(),
            Tok::Dot => "'.'".into(),
            Tok::Colon => "':'".into(),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::LBracket => "'['".into(),
            Tok::RBracket => "']'".into(),
            Tok::LBrace => "'{'".into(),
            Tok::RBrace => "'}'".into(),
            Tok::LBag => "'<<'".into(),
            Tok::RBag => "'>>'".into(),
            Tok::Op(op) => format!("'{op}'"),
            Tok::Minus => "'-'".into(),
            Tok::Semicolon => "';'".into(),
        }
    }
}

fn quoted(chars: &[char], start: usize, quote: char) -> Result<(String, usize), PartiqlError> {
    let mut out = String::new();
    let mut i = start + 1;
    loop {
        match chars.get(i) {
            None => {
                let what = if quote == '\'' { "string" } else { "name" };
                return Err(PartiqlError::syntax(format!(
                    "the {what} starting at column {} is never closed; add the closing {quote}",
                    start + 1
                )));
            }
            Some(&c) if c == quote => {
                if chars.get(i + 1) == Some(&quote) {
                    out.push(quote);
                    i += 2;
                } else {
                    return Ok((out, i + 1));
                }
            }
            Some(&c) => {
                out.push(c);
                i += 1;
            }
        }
    }
}

fn number(chars: &[char], start: usize) -> (String, usize) {
    let mut i = start;
    let digits = |i: &mut usize| {
        while chars.get(*i).is_some_and(char::is_ascii_digit) {
            *i += 1;
        }
    };
    digits(&mut i);
    if chars.get(i) == Some(&'.') && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
        i += 1;
        digits(&mut i);
    }
    if matches!(chars.get(i), Some('e' | 'E')) {
        let mut j = i + 1;
        if matches!(chars.get(j), Some('+' | '-')) {
            j += 1;
        }
        if chars.get(j).is_some_and(char::is_ascii_digit) {
            i = j;
            digits(&mut i);
        }
    }
    (chars[start..i].iter().collect(), i)
}

/// Where a `/* … */` comment starting at `start` ends (just past its `*/`). DynamoDB honours
/// these comments; a `/*` inside one is refused rather than guessed at, as lexers differ on
/// whether comments nest, and a statement must mean one thing here and there.
fn block_comment_end(chars: &[char], start: usize) -> Result<usize, PartiqlError> {
    let mut i = start + 2;
    loop {
        match (chars.get(i), chars.get(i + 1)) {
            (Some('*'), Some('/')) => return Ok(i + 2),
            (Some('/'), Some('*')) => {
                return Err(PartiqlError::syntax(format!(
                    "the comment starting at column {} has another '/*' inside it at column {}; remove the inner one",
                    start + 1,
                    i + 1
                )))
            }
            (Some(_), _) => i += 1,
            (None, _) => {
                return Err(PartiqlError::syntax(format!(
                    "the comment starting at column {} is never closed; add the closing */",
                    start + 1
                )))
            }
        }
    }
}

pub fn tokenize(text: &str) -> Result<Vec<Token>, PartiqlError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        let next = chars.get(i + 1).copied();
        let (tok, len) = match c {
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            '-' if next == Some('-') => {
                // A comment to the end of the line, which DynamoDB ends at CR as well as LF:
                // ending it at LF alone let `--<CR>UPDATE …` read as a comment here and as an
                // UPDATE there.
                while i < chars.len() && !matches!(chars[i], '\n' | '\r') {
                    i += 1;
                }
                continue;
            }
            '/' if next == Some('*') => {
                i = block_comment_end(&chars, i)?;
                continue;
            }
            '\'' | '"' => {
                let (s, end) = quoted(&chars, i, c)?;
                let tok = if c == '\'' { Tok::Str(s) } else { Tok::Quoted(s) };
                out.push(Token { tok, col, end });
                i = end;
                continue;
            }
            c if c.is_ascii_digit()
                || (c == '.' && next.is_some_and(|n| n.is_ascii_digit())) =>
            {
                let (n, end) = number(&chars, i);
                out.push(Token {
                    tok: Tok::Num(n),
                    col,
                    end,
                });
                i = end;
                continue;
            }
            c if c.is_alphabetic() || c == '_' => {
                let start = i;
                while chars
                    .get(i)
                    .is_some_and(|c| c.is_alphanumeric() || *c == '_')
                {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Word(chars[start..i].iter().collect()),
                    col,
                    end: i,
                });
                continue;
            }
            '?' => (Tok::Param, 1),
            '*' => (Tok::Star, 1),
            ',' => (Tok::Comma, 1),
            '.' => (Tok::Dot, 1),
            ':' => (Tok::Colon, 1),
            '(' => (Tok::LParen, 1),
            ')' => (Tok::RParen, 1),
            '[' => (Tok::LBracket, 1),
            ']' => (Tok::RBracket, 1),
            '{' => (Tok::LBrace, 1),
            '}' => (Tok::RBrace, 1),
            ';' => (Tok::Semicolon, 1),
            '-' => (Tok::Minus, 1),
            '=' => (Tok::Op("="), 1),
            '<' if next == Some('<') => (Tok::LBag, 2),
            '>' if next == Some('>') => (Tok::RBag, 2),
            '<' if next == Some('>') => (Tok::Op("<>"), 2),
            '<' if next == Some('=') => (Tok::Op("<="), 2),
            '>' if next == Some('=') => (Tok::Op(">="), 2),
            '!' if next == Some('=') => (Tok::Op("<>"), 2),
            '<' => (Tok::Op("<"), 1),
            '>' => (Tok::Op(">"), 1),
            '|' if next == Some('|') => (Tok::Op("||"), 2),
            '+' | '/' | '%' => (
                Tok::Op(match c {
                    '+' => "+",
                    '/' => "/",
                    _ => "%",
                }),
                1,
            ),
            other => {
                return Err(PartiqlError::syntax(format!(
                    "unexpected character '{other}' at column {col}; quote attribute names with special characters, as in \"order-id\""
                )))
            }
        };
        i += len;
        out.push(Token { tok, col, end: i });
    }
    Ok(out)
}
