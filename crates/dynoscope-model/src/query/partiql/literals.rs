//! PartiQL's literals: strings, numbers, TRUE/FALSE/NULL, [lists], {'structs': 1} and
//! <<sets>>, as the `AttrValue` DynamoDB stores.

use super::Parser;
use crate::item::number::{compare_numbers, validate_number};
use crate::item::value::{AttrValue, Item};
use crate::query::partiql::error::PartiqlError;
use crate::query::partiql::lexer::Tok;

impl Parser {
    pub(super) fn literal(&mut self) -> Result<AttrValue, PartiqlError> {
        self.nested(Self::literal_at)
    }

    fn literal_at(&mut self) -> Result<AttrValue, PartiqlError> {
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
                let mut keys = std::collections::HashSet::new();
                if !self.eat(&Tok::RBrace) {
                    loop {
                        let key = match self.next() {
                            Some(Tok::Str(s)) => s,
                            _ => {
                                self.at -= 1;
                                return Err(self.error("a 'quoted' key in the struct"));
                            }
                        };
                        // DynamoDB refuses a struct naming a key twice; taking either value
                        // would send something other than what was written.
                        if !keys.insert(key.clone()) {
                            return Err(PartiqlError::syntax(format!(
                                "the struct at column {col} names the key '{key}' twice; DynamoDB refuses a duplicate key, so keep one"
                            )));
                        }
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

/// `<<'a','b'>>` is a string set, `<<1,2>>` a number set; DynamoDB has no other sets here,
/// and refuses a set holding one value twice (`<<1, 1.0>>` too: numbers compare by value).
fn set(items: Vec<AttrValue>, col: usize) -> Result<AttrValue, PartiqlError> {
    // Sorted by value, a repeat sits next to its twin: O(n log n) for a set of any size.
    let mut sorted: Vec<&AttrValue> = items.iter().collect();
    let rank = |v: &AttrValue| match v {
        AttrValue::S(_) => 0,
        AttrValue::N(_) => 1,
        _ => 2,
    };
    sorted.sort_by(|a, b| match (a, b) {
        (AttrValue::N(x), AttrValue::N(y)) => compare_numbers(x, y),
        (AttrValue::S(x), AttrValue::S(y)) => x.cmp(y),
        _ => rank(a).cmp(&rank(b)),
    });
    let twice = sorted.windows(2).find(|w| match (w[0], w[1]) {
        (AttrValue::S(x), AttrValue::S(y)) => x == y,
        (AttrValue::N(x), AttrValue::N(y)) => compare_numbers(x, y).is_eq(),
        _ => false,
    });
    if let Some(w) = twice {
        let shown = crate::query::partiql::render::literal(w[0]);
        return Err(PartiqlError::syntax(format!(
            "the set at column {col} holds {shown} twice; DynamoDB refuses a duplicate in a set, so keep one"
        )));
    }
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
