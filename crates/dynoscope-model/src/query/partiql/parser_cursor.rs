//! The parser's walk over the tokens: looking ahead, taking the expected token, the error
//! naming what was found, and the bounds on nesting and operators that keep a hostile
//! statement off the stack.

use super::Parser;
use crate::query::partiql::error::PartiqlError;
use crate::query::partiql::lexer::Tok;

/// How deep parentheses, NOTs and list, struct and set literals may nest. DynamoDB nests
/// documents 32 levels at most; the bound keeps a hostile statement off the stack (every
/// function over the tree recurses too), with room for any statement a person writes.
const MAX_DEPTH: usize = 64;
/// AND, OR and NOT in one statement. A chain of them is parsed in a loop but builds a tree as
/// deep as it is long; DynamoDB allows 300 operators in an expression, so past that the
/// statement could not run as a Query or Scan anyway.
const MAX_LOGICAL_OPERATORS: usize = 300;

impl Parser {
    /// Runs `inner` one level deeper, refusing past [`MAX_DEPTH`]: the one guard of every
    /// recursion in the grammar, so no statement can overflow the stack.
    pub(super) fn nested<T>(
        &mut self,
        inner: impl FnOnce(&mut Self) -> Result<T, PartiqlError>,
    ) -> Result<T, PartiqlError> {
        if self.depth >= MAX_DEPTH {
            let col = self.tokens.get(self.at).map_or(0, |t| t.col);
            return Err(PartiqlError::syntax(format!(
                "the statement is nested deeper than {MAX_DEPTH} levels at column {col}; flatten its parentheses, NOTs or literals"
            )));
        }
        self.depth += 1;
        let out = inner(self);
        self.depth -= 1;
        out
    }

    /// Counts one AND, OR or NOT against [`MAX_LOGICAL_OPERATORS`].
    pub(super) fn logical_operator(&mut self) -> Result<(), PartiqlError> {
        self.logical += 1;
        if self.logical > MAX_LOGICAL_OPERATORS {
            let col = self.tokens.get(self.at).map_or(0, |t| t.col);
            return Err(PartiqlError::syntax(format!(
                "the statement has more than {MAX_LOGICAL_OPERATORS} AND, OR and NOT operators (column {col}); DynamoDB allows {MAX_LOGICAL_OPERATORS} in an expression, so split it or use IN"
            )));
        }
        Ok(())
    }

    pub(super) fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|t| &t.tok)
    }

    pub(super) fn peek_at(&self, ahead: usize) -> Option<&Tok> {
        self.tokens.get(self.at + ahead).map(|t| &t.tok)
    }

    pub(super) fn next(&mut self) -> Option<Tok> {
        let t = self.tokens.get(self.at).map(|t| t.tok.clone());
        self.at += 1;
        t
    }

    /// "found 'x' at column N", or "the statement ends".
    pub(super) fn found(&self) -> String {
        match self.tokens.get(self.at) {
            Some(t) => format!("found {} at column {}", t.tok.describe(), t.col),
            None => "the statement ends".to_string(),
        }
    }

    pub(super) fn error(&self, expected: &str) -> PartiqlError {
        PartiqlError::syntax(format!("expected {expected}, {}", self.found()))
    }

    pub(super) fn is_word(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(w)) if w.eq_ignore_ascii_case(word))
    }

    pub(super) fn eat_word(&mut self, word: &str) -> bool {
        let yes = self.is_word(word);
        if yes {
            self.at += 1;
        }
        yes
    }

    pub(super) fn expect_word(&mut self, word: &str) -> Result<(), PartiqlError> {
        if self.eat_word(word) {
            Ok(())
        } else {
            Err(self.error(word))
        }
    }

    pub(super) fn eat(&mut self, tok: &Tok) -> bool {
        let yes = self.peek() == Some(tok);
        if yes {
            self.at += 1;
        }
        yes
    }

    pub(super) fn expect(&mut self, tok: &Tok) -> Result<(), PartiqlError> {
        if self.eat(tok) {
            Ok(())
        } else {
            Err(self.error(&tok.describe()))
        }
    }
}
