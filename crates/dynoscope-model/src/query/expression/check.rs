//! Filter, projection and condition expressions: checked for what we can be sure of, the rest
//! of the grammar left to DynamoDB.

use std::collections::BTreeSet;

use super::brackets::check_brackets;
use super::error::{literal, syntax_at, ExpressionError};
use super::tokenizer::{tokenize, Tok};
use crate::item::value::AttrValue;
use crate::query::reserved::is_reserved;

/// Functions of condition and filter expressions. A bare word before `(` is one of these, not
/// an attribute, even when it is a reserved word (`size`).
pub(crate) const FUNCTIONS: &[&str] = &[
    "attribute_exists",
    "attribute_not_exists",
    "attribute_type",
    "begins_with",
    "contains",
    "size",
];

pub(super) fn is_function(word: &str) -> bool {
    FUNCTIONS.iter().any(|f| f.eq_ignore_ascii_case(word))
}

/// The `#name` and `:value` placeholders an expression used, so callers can refuse unused
/// ones (DynamoDB rejects a request that defines placeholders no expression uses).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placeholders {
    pub names: BTreeSet<String>,
    pub values: BTreeSet<String>,
}

pub(super) fn lookup<'a, V>(map: &'a [(String, V)], key: &str) -> Option<&'a V> {
    map.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Checks a filter, projection or condition expression (`kind` names it in messages):
/// brackets pair up, every `#name` and `:value` is defined, no bare reserved word, no literal.
/// Returns the placeholders it used.
pub fn check_expression(
    kind: &str,
    expr: &str,
    names: &[(String, String)],
    values: &[(String, AttrValue)],
) -> Result<Placeholders, ExpressionError> {
    let tokens = tokenize(kind, expr)?;
    if tokens.is_empty() {
        return Err(ExpressionError::Empty {
            kind: kind.to_string(),
        });
    }
    check_brackets(kind, &tokens)?;

    let mut used = Placeholders::default();
    for (i, token) in tokens.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| &tokens[p].tok);
        let next = tokens.get(i + 1).map(|t| &t.tok);
        let is_call = next == Some(&Tok::LParen) && prev != Some(&Tok::Dot);
        match &token.tok {
            Tok::NameRef(name) => {
                if lookup(names, name).is_none() {
                    return Err(ExpressionError::UnknownName {
                        kind: kind.to_string(),
                        name: name.clone(),
                    });
                }
                used.names.insert(name.clone());
            }
            Tok::ValueRef(name) => {
                if lookup(values, name).is_none() {
                    return Err(ExpressionError::UnknownValue {
                        kind: kind.to_string(),
                        name: name.clone(),
                    });
                }
                used.values.insert(name.clone());
            }
            // A word before `(` is a function call, exempt from the reserved-word rule (`size`).
            Tok::Name(word) if is_call && !is_function(word) => {
                return Err(ExpressionError::UnknownFunction {
                    kind: kind.to_string(),
                    name: word.clone(),
                    col: token.col,
                });
            }
            Tok::Name(word) if !is_call && is_reserved(word) => {
                return Err(ExpressionError::Reserved { word: word.clone() });
            }
            Tok::LBracket => {
                let index = tokens.get(i + 1).filter(|t| t.tok == Tok::Number);
                let digits_only = index.is_some_and(|t| t.text.chars().all(|c| c.is_ascii_digit()));
                if !digits_only || tokens.get(i + 2).map(|t| &t.tok) != Some(&Tok::RBracket) {
                    return Err(syntax_at(
                        kind,
                        &tokens,
                        i + 1,
                        expr,
                        "a list index like [0]",
                    ));
                }
            }
            Tok::Number if prev != Some(&Tok::LBracket) => {
                return Err(literal(kind, token));
            }
            Tok::Text(text) => {
                return Err(ExpressionError::Literal {
                    kind: kind.to_string(),
                    text: text.clone(),
                    col: token.col,
                });
            }
            _ => {}
        }
    }
    Ok(used)
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
