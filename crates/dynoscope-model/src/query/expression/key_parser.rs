//! The grammar of a key condition: a conjunction of comparisons and `begins_with`, however
//! parenthesised. Everything else DynamoDB's key conditions refuse is named as unsupported.

use super::check::{is_function, lookup, Placeholders};
use super::error::{literal, syntax_at, ExpressionError};
use super::key_expression::{not_a_key, Conjunct, Placeheld, Rel, KEY_CONDITION};
use super::tokenizer::{Cmp, Keyword, Tok, Token, MAX_DEPTH};
use crate::design::schema::KeySchema;
use crate::item::value::AttrValue;
use crate::query::reserved::is_reserved;

enum Operand {
    /// A resolved top-level attribute name.
    Attr(String),
    Value(Placeheld),
}

pub(super) struct KeyParser<'a> {
    pub(super) tokens: &'a [Token],
    pub(super) pos: usize,
    pub(super) depth: usize,
    pub(super) expr: &'a str,
    pub(super) names: &'a [(String, String)],
    pub(super) values: &'a [(String, AttrValue)],
    pub(super) keys: &'a KeySchema,
    pub(super) used: Placeholders,
}

impl KeyParser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|t| &t.tok)
    }

    pub(super) fn syntax(&self, expected: &str) -> ExpressionError {
        syntax_at(KEY_CONDITION, self.tokens, self.pos, self.expr, expected)
    }

    fn expect(&mut self, tok: Tok, expected: &str) -> Result<(), ExpressionError> {
        if self.peek() == Some(&tok) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.syntax(expected))
        }
    }

    fn unsupported(what: &str) -> ExpressionError {
        ExpressionError::UnsupportedInKey {
            what: what.to_string(),
        }
    }

    /// `unary (AND unary)*`, flattened: a key condition is a conjunction, however parenthesised.
    pub(super) fn parse_and(&mut self) -> Result<Vec<Conjunct>, ExpressionError> {
        let mut conjuncts = self.parse_unary()?;
        loop {
            match self.peek() {
                Some(Tok::Keyword(Keyword::And)) => {
                    self.pos += 1;
                    conjuncts.extend(self.parse_unary()?);
                }
                Some(Tok::Keyword(Keyword::Or)) => return Err(Self::unsupported("OR")),
                _ => return Ok(conjuncts),
            }
        }
    }

    fn parse_unary(&mut self) -> Result<Vec<Conjunct>, ExpressionError> {
        match self.peek() {
            Some(Tok::LParen) => {
                if self.depth >= MAX_DEPTH {
                    return Err(self.syntax("fewer nested parentheses"));
                }
                self.pos += 1;
                self.depth += 1;
                let inner = self.parse_and()?;
                self.depth -= 1;
                self.expect(Tok::RParen, "')'")?;
                Ok(inner)
            }
            Some(Tok::Keyword(Keyword::Not)) => Err(Self::unsupported("NOT")),
            Some(Tok::Name(_))
                if self.tokens.get(self.pos + 1).map(|t| &t.tok) == Some(&Tok::LParen) =>
            {
                Ok(vec![self.parse_function()?])
            }
            _ => Ok(vec![self.parse_comparison()?]),
        }
    }

    /// `begins_with(sk, :p)`; every other function belongs in a filter.
    fn parse_function(&mut self) -> Result<Conjunct, ExpressionError> {
        let token = &self.tokens[self.pos];
        let name = token.text.clone();
        let col = token.col;
        if !name.eq_ignore_ascii_case("begins_with") {
            if is_function(&name) {
                return Err(Self::unsupported(&name));
            }
            return Err(ExpressionError::UnknownFunction {
                kind: KEY_CONDITION.to_string(),
                name,
                col,
            });
        }
        let start = self.pos;
        self.pos += 2; // the name and its '('
        let attr = self.operand()?;
        self.expect(Tok::Comma, "',' between the key and the :prefix")?;
        let prefix = self.operand()?;
        self.expect(Tok::RParen, "')'")?;
        match (attr, prefix) {
            (Operand::Attr(attr), Operand::Value(value)) => Ok(Conjunct {
                attr,
                rel: Rel::BeginsWith,
                value,
            }),
            _ => Err(self.needs_key_and_value(start)),
        }
    }

    fn parse_comparison(&mut self) -> Result<Conjunct, ExpressionError> {
        let start = self.pos;
        let left = self.operand()?;
        let Some(op_token) = self.tokens.get(self.pos) else {
            return Err(self.syntax("a comparison like '=' or BETWEEN"));
        };
        let cmp = match op_token.tok {
            Tok::Cmp(Cmp::Ne) => return Err(Self::unsupported("<>")),
            Tok::Keyword(Keyword::In) => return Err(Self::unsupported("IN")),
            Tok::Cmp(cmp) => cmp,
            Tok::Keyword(Keyword::Between) => {
                self.pos += 1;
                let low = self.operand()?;
                self.expect(
                    Tok::Keyword(Keyword::And),
                    "AND between the two BETWEEN values",
                )?;
                let high = self.operand()?;
                return match (left, low, high) {
                    (Operand::Attr(attr), Operand::Value(low), Operand::Value(high)) => {
                        Ok(Conjunct {
                            attr,
                            rel: Rel::Between { high },
                            value: low,
                        })
                    }
                    _ => Err(self.needs_key_and_value(start)),
                };
            }
            _ => return Err(self.syntax("a comparison like '=' or BETWEEN")),
        };
        self.pos += 1;
        let right = self.operand()?;
        // `:v < SK` means `SK > :v`; normalising lets the rest see the key on the left.
        let (attr, value, cmp) = match (left, right) {
            (Operand::Attr(attr), Operand::Value(value)) => (attr, value, cmp),
            (Operand::Value(value), Operand::Attr(attr)) => {
                let flipped = match cmp {
                    Cmp::Lt => Cmp::Gt,
                    Cmp::Le => Cmp::Ge,
                    Cmp::Gt => Cmp::Lt,
                    Cmp::Ge => Cmp::Le,
                    same => same,
                };
                (attr, value, flipped)
            }
            _ => return Err(self.needs_key_and_value(start)),
        };
        let rel = match cmp {
            Cmp::Lt => Rel::Lt,
            Cmp::Le => Rel::Le,
            Cmp::Gt => Rel::Gt,
            Cmp::Ge => Rel::Ge,
            Cmp::Eq | Cmp::Ne => Rel::Eq,
        };
        Ok(Conjunct { attr, rel, value })
    }

    /// The tokens from `start` up to here, for "must compare a key with a value" messages.
    fn needs_key_and_value(&self, start: usize) -> ExpressionError {
        let end = self.pos.min(self.tokens.len());
        let text = self.tokens[start..end]
            .iter()
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        ExpressionError::NeedsKeyAndValue {
            text,
            col: self.tokens[start].col,
        }
    }

    fn operand(&mut self) -> Result<Operand, ExpressionError> {
        let expected = "a key name or a :placeholder";
        let Some(token) = self.tokens.get(self.pos) else {
            return Err(self.syntax(expected));
        };
        let name = match &token.tok {
            Tok::Name(word) => {
                if is_reserved(word) {
                    return Err(ExpressionError::Reserved { word: word.clone() });
                }
                word.clone()
            }
            Tok::NameRef(placeholder) => self.resolve_name(placeholder)?,
            Tok::ValueRef(placeholder) => {
                let value = lookup(self.values, placeholder).ok_or_else(|| {
                    ExpressionError::UnknownValue {
                        kind: KEY_CONDITION.to_string(),
                        name: placeholder.clone(),
                    }
                })?;
                self.used.values.insert(placeholder.clone());
                self.pos += 1;
                return Ok(Operand::Value((placeholder.clone(), value.clone())));
            }
            Tok::Number | Tok::Text(_) => return Err(literal(KEY_CONDITION, token)),
            _ => return Err(self.syntax(expected)),
        };
        self.pos += 1;

        // Keys are top-level attributes, so a nested path can never name one.
        let mut path = name.clone();
        while let Some(tok) = self.peek() {
            match tok {
                Tok::Dot => {
                    self.pos += 1;
                    let segment = match self.peek() {
                        Some(Tok::Name(word)) => word.clone(),
                        Some(Tok::NameRef(placeholder)) => {
                            let placeholder = placeholder.clone();
                            self.resolve_name(&placeholder)?
                        }
                        _ => return Err(self.syntax("an attribute name after '.'")),
                    };
                    self.pos += 1;
                    path.push('.');
                    path.push_str(&segment);
                }
                Tok::LBracket => {
                    self.pos += 1;
                    if self.peek() != Some(&Tok::Number) {
                        return Err(self.syntax("a list index like [0]"));
                    }
                    path.push('[');
                    path.push_str(&self.tokens[self.pos].text);
                    path.push(']');
                    self.pos += 1;
                    self.expect(Tok::RBracket, "']'")?;
                }
                _ => break,
            }
        }
        if path != name {
            return Err(not_a_key(self.keys, path));
        }
        Ok(Operand::Attr(name))
    }

    fn resolve_name(&mut self, placeholder: &str) -> Result<String, ExpressionError> {
        let name = lookup(self.names, placeholder).ok_or_else(|| ExpressionError::UnknownName {
            kind: KEY_CONDITION.to_string(),
            name: placeholder.to_string(),
        })?;
        self.used.names.insert(placeholder.to_string());
        Ok(name.clone())
    }
}
