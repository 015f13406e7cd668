//! Splits an expression into tokens that remember their column, so every error can point at
//! the character a user would count to.

use super::error::ExpressionError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Keyword {
    And,
    Or,
    Not,
    Between,
    In,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    /// A bare attribute name or function name.
    Name(String),
    /// `#name`, sigil included.
    NameRef(String),
    /// `:value`, sigil included.
    ValueRef(String),
    /// Digits: a list index inside `[]`, a refused literal anywhere else.
    Number,
    /// A quoted literal, without its quotes; always refused.
    Text(String),
    Keyword(Keyword),
    Cmp(Cmp),
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Dot,
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) tok: Tok,
    /// 1-based column in characters, as a user counts them.
    pub(super) col: usize,
    /// The text as written, for messages.
    pub(super) text: String,
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn scan_while(chars: &[char], from: usize, pred: impl Fn(char) -> bool) -> usize {
    chars[from..]
        .iter()
        .position(|&c| !pred(c))
        .map_or(chars.len(), |n| from + n)
}

pub(super) fn tokenize(kind: &str, expr: &str) -> Result<Vec<Token>, ExpressionError> {
    let chars: Vec<char> = expr.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let col = i + 1;
        let next = chars.get(i + 1).copied();
        let tok = match chars[i] {
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            '[' => Tok::LBracket,
            ']' => Tok::RBracket,
            ',' => Tok::Comma,
            '.' => Tok::Dot,
            '=' => Tok::Cmp(Cmp::Eq),
            '<' if next == Some('=') => Tok::Cmp(Cmp::Le),
            '<' if next == Some('>') => Tok::Cmp(Cmp::Ne),
            '<' => Tok::Cmp(Cmp::Lt),
            '>' if next == Some('=') => Tok::Cmp(Cmp::Ge),
            '>' => Tok::Cmp(Cmp::Gt),
            '!' if next == Some('=') => {
                return Err(ExpressionError::Syntax {
                    kind: kind.to_string(),
                    col,
                    expected: "'<>' for not-equal".to_string(),
                    found: "'!='".to_string(),
                })
            }
            sigil @ ('#' | ':') => {
                let end = scan_while(&chars, i + 1, is_word_char);
                if end == i + 1 {
                    return Err(ExpressionError::EmptyPlaceholder {
                        kind: kind.to_string(),
                        sigil,
                        col,
                    });
                }
                i = end;
                let text: String = chars[start..end].iter().collect();
                if sigil == '#' {
                    Tok::NameRef(text)
                } else {
                    Tok::ValueRef(text)
                }
            }
            quote @ ('\'' | '"') => {
                let close = chars[i + 1..].iter().position(|&c| c == quote);
                let inner_end = close.map_or(chars.len(), |n| i + 1 + n);
                i = (inner_end + 1).min(chars.len());
                Tok::Text(chars[start + 1..inner_end].iter().collect())
            }
            c if c.is_ascii_digit() => {
                let mut end = scan_while(&chars, i, |c| c.is_ascii_digit());
                if chars.get(end) == Some(&'.')
                    && chars.get(end + 1).is_some_and(char::is_ascii_digit)
                {
                    end = scan_while(&chars, end + 1, |c| c.is_ascii_digit());
                }
                if chars.get(end).is_some_and(|&c| is_word_char(c)) {
                    let name_end = scan_while(&chars, end, is_word_char);
                    return Err(ExpressionError::NameStartsWithDigit {
                        kind: kind.to_string(),
                        name: chars[start..name_end].iter().collect(),
                        col,
                    });
                }
                i = end;
                Tok::Number
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                i = scan_while(&chars, i, is_word_char);
                let word: String = chars[start..i].iter().collect();
                // DynamoDB keywords are case-insensitive.
                match word.to_ascii_uppercase().as_str() {
                    "AND" => Tok::Keyword(Keyword::And),
                    "OR" => Tok::Keyword(Keyword::Or),
                    "NOT" => Tok::Keyword(Keyword::Not),
                    "BETWEEN" => Tok::Keyword(Keyword::Between),
                    "IN" => Tok::Keyword(Keyword::In),
                    _ => Tok::Name(word),
                }
            }
            ch => {
                return Err(ExpressionError::UnexpectedChar {
                    kind: kind.to_string(),
                    ch,
                    col,
                })
            }
        };
        // Single-character tokens have not advanced yet; longer ones set `i` themselves.
        if i == start {
            i += match tok {
                Tok::Cmp(Cmp::Le | Cmp::Ne | Cmp::Ge) => 2,
                _ => 1,
            };
        }
        tokens.push(Token {
            tok,
            col,
            text: chars[start..i].iter().collect(),
        });
    }
    check_nesting(kind, &tokens)?;
    Ok(tokens)
}

/// How deep brackets may nest in an expression (the key condition parser's bound too).
pub(super) const MAX_DEPTH: usize = 64;
/// DynamoDB allows 300 operators in an expression. AND/OR chains are read in a loop but build
/// a tree as deep as they are long, and NOT chains recurse: bounding them here keeps every
/// parser and evaluator of the tokens off the stack.
const MAX_LOGICAL_OPERATORS: usize = 300;

/// The one bound on recursion for every reader of these tokens (the grammar check, the key
/// condition parser and the local filter evaluator), checked where they are all made.
fn check_nesting(kind: &str, tokens: &[Token]) -> Result<(), ExpressionError> {
    let (mut depth, mut logical) = (0usize, 0usize);
    for t in tokens {
        match t.tok {
            Tok::LParen | Tok::LBracket => depth += 1,
            Tok::RParen | Tok::RBracket => depth = depth.saturating_sub(1),
            Tok::Keyword(Keyword::And | Keyword::Or | Keyword::Not) => logical += 1,
            _ => {}
        }
        let kind = || kind.to_string();
        if depth > MAX_DEPTH {
            return Err(ExpressionError::TooDeep {
                kind: kind(),
                col: t.col,
            });
        }
        if logical > MAX_LOGICAL_OPERATORS {
            return Err(ExpressionError::TooManyOperators {
                kind: kind(),
                col: t.col,
            });
        }
    }
    Ok(())
}
