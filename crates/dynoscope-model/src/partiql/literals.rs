//! PartiQL's literals: strings, numbers, TRUE/FALSE/NULL, [lists], {'structs': 1} and
//! <<sets>>, as the `AttrValue` DynamoDB stores.

use super::Parser;
use crate::number::validate_number;
use crate::partiql::error::PartiqlError;
use crate::partiql::lexer::Tok;
use crate::value::{AttrValue, Item};

impl Parser {
    pub(super) fn literal(&mut self) -> Result<AttrValue, PartiqlError> {
        let col = self.tokens.get(self.at).map_or(0, |t| t.col);
        match self.next() {
            Some(Tok::Str(s)) => Ok(AttrValue::S(s)),
            Some(Tok::Num(n)) => number(n, col),
            Some(Tok::Minus) => match self.next() {
                Some(Tok::Num(n)) => number(format!("-{n}"), col),
                _ => {
                    self.at -= 1;
                    Err(self.error("a number after '-'"))
                }
            },
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("TRUE") => Ok(AttrValue::Bool(true)),
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("FALSE") => Ok(AttrValue::Bool(false)),
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("NULL") => Ok(AttrValue::Null),
            Some(Tok::LBracket) => {
                let items = self.literal_list(&Tok::RBracket)?;
                Ok(AttrValue::L(items))
            }
            Some(Tok::LBag) => {
                let items = self.literal_list(&Tok::RBag)?;
                set(items, col)
            }
            Some(Tok::LBrace) => {
                let mut attrs = Vec::new();
                if !self.eat(&Tok::RBrace) {
                    loop {
                        let key = match self.next() {
                            Some(Tok::Str(s)) => s,
                            _ => {
                                self.at -= 1;
                                return Err(self.error("a 'quoted' key in the struct"));
                            }
                        };
                        self.expect(&Tok::Colon)?;
                        attrs.push((key, self.literal()?));
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(&Tok::RBrace)?;
                }
                Ok(AttrValue::M(Item::from_attrs(attrs)))
            }
            Some(Tok::Param) => {
                self.at -= 1;
                Err(PartiqlError::unsupported(
                    "a ? inside a list, set or struct literal is not translated; pass the whole value as one ?",
                ))
            }
            _ => {
                self.at -= 1;
                Err(self
                    .error("a value ('text', a number, TRUE, FALSE, NULL, [list], {struct}) or ?"))
            }
        }
    }

    fn literal_list(&mut self, close: &Tok) -> Result<Vec<AttrValue>, PartiqlError> {
        let mut items = Vec::new();
        if self.eat(close) {
            return Ok(items);
        }
        loop {
            items.push(self.literal()?);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(close)?;
        Ok(items)
    }
}

fn number(text: String, col: usize) -> Result<AttrValue, PartiqlError> {
    validate_number(&text).map_err(|e| {
        PartiqlError::syntax(format!(
            "the number '{text}' at column {col} cannot be stored: {e}"
        ))
    })?;
    Ok(AttrValue::N(text))
}

/// `<<'a','b'>>` is a string set, `<<1,2>>` a number set; DynamoDB has no other sets here.
fn set(items: Vec<AttrValue>, col: usize) -> Result<AttrValue, PartiqlError> {
    if items.iter().all(|v| matches!(v, AttrValue::S(_))) && !items.is_empty() {
        Ok(AttrValue::Ss(
            items
                .into_iter()
                .filter_map(|v| match v {
                    AttrValue::S(s) => Some(s),
                    _ => None,
                })
                .collect(),
        ))
    } else if items.iter().all(|v| matches!(v, AttrValue::N(_))) && !items.is_empty() {
        Ok(AttrValue::Ns(
            items
                .into_iter()
                .filter_map(|v| match v {
                    AttrValue::N(n) => Some(n),
                    _ => None,
                })
                .collect(),
        ))
    } else {
        Err(PartiqlError::syntax(format!(
            "the set at column {col} must hold only strings or only numbers, and at least one"
        )))
    }
}
