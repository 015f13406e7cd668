//! Bracket pairing, checked before anything else reads the tokens.

use super::error::ExpressionError;
use super::tokenizer::{Tok, Token};

pub(super) fn closer(open: char) -> char {
    if open == '[' {
        ']'
    } else {
        ')'
    }
}

/// Parentheses and brackets must pair up; errors point at the offending one.
pub(super) fn check_brackets(kind: &str, tokens: &[Token]) -> Result<(), ExpressionError> {
    let mut open: Vec<(char, usize)> = Vec::new();
    for token in tokens {
        let closing = match token.tok {
            Tok::LParen => {
                open.push(('(', token.col));
                continue;
            }
            Tok::LBracket => {
                open.push(('[', token.col));
                continue;
            }
            Tok::RParen => ')',
            Tok::RBracket => ']',
            _ => continue,
        };
        match open.pop() {
            Some((ch, _)) if closer(ch) == closing => {}
            _ => {
                return Err(ExpressionError::UnmatchedClose {
                    kind: kind.to_string(),
                    ch: closing,
                    col: token.col,
                })
            }
        }
    }
    match open.pop() {
        Some((ch, col)) => Err(ExpressionError::Unclosed {
            kind: kind.to_string(),
            ch,
            col,
        }),
        None => Ok(()),
    }
}
