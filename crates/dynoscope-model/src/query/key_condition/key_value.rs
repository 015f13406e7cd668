//! A key attribute's value, typed and checked against the key's declared type.

use std::cmp::Ordering;
use std::fmt;

use base64::Engine as _;

use super::error::KeyConditionError;
use crate::design::schema::{KeyAttr, KeyType};
use crate::item::number::{compare_numbers, validate_number};
use crate::item::value::AttrValue;

/// A key attribute value; key attributes can only be strings, numbers or binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyValue {
    S(String),
    /// Exact decimal text, validated against DynamoDB's number rules.
    N(String),
    B(Vec<u8>),
}

impl KeyValue {
    pub fn key_type(&self) -> KeyType {
        match self {
            KeyValue::S(_) => KeyType::S,
            KeyValue::N(_) => KeyType::N,
            KeyValue::B(_) => KeyType::B,
        }
    }

    pub fn to_attr(&self) -> AttrValue {
        match self {
            KeyValue::S(s) => AttrValue::S(s.clone()),
            KeyValue::N(n) => AttrValue::N(n.clone()),
            KeyValue::B(b) => AttrValue::B(b.clone()),
        }
    }

    /// Reads user text as a value of `attr`'s type: strings as is, numbers as decimal text,
    /// binary as standard base64.
    pub fn parse(raw: &str, attr: &KeyAttr) -> Result<KeyValue, KeyConditionError> {
        let value = match attr.key_type {
            KeyType::S => KeyValue::S(raw.to_string()),
            KeyType::N => KeyValue::N(raw.to_string()),
            KeyType::B => KeyValue::B(
                base64::engine::general_purpose::STANDARD
                    .decode(raw)
                    .map_err(|_| KeyConditionError::BadBase64 {
                        key: attr.name.clone(),
                        value: raw.to_string(),
                    })?,
            ),
        };
        value.check(attr, &format!("'{raw}'"))?;
        Ok(value)
    }

    /// Takes an already-typed value (e.g. from `--values`); its type must be the key's type.
    pub fn from_attr(value: &AttrValue, attr: &KeyAttr) -> Result<KeyValue, KeyConditionError> {
        Self::from_labeled_attr(value, attr, "the value")
    }

    /// Like `from_attr`, but messages name the placeholder (`':sk'`) the value came from.
    pub fn from_placeholder(
        placeholder: &str,
        value: &AttrValue,
        attr: &KeyAttr,
    ) -> Result<KeyValue, KeyConditionError> {
        Self::from_labeled_attr(value, attr, &format!("'{placeholder}'"))
    }

    fn from_labeled_attr(
        value: &AttrValue,
        attr: &KeyAttr,
        label: &str,
    ) -> Result<KeyValue, KeyConditionError> {
        let key_value = match value {
            AttrValue::S(s) => KeyValue::S(s.clone()),
            AttrValue::N(n) => KeyValue::N(n.clone()),
            AttrValue::B(b) => KeyValue::B(b.clone()),
            other => {
                return Err(KeyConditionError::TypeMismatch {
                    key: attr.name.clone(),
                    expected: attr.key_type,
                    found: other.type_name().to_string(),
                    label: label.to_string(),
                })
            }
        };
        key_value.check(attr, label)?;
        Ok(key_value)
    }

    /// The per-value rules: right type, not empty, a number DynamoDB can store.
    pub(super) fn check(&self, attr: &KeyAttr, label: &str) -> Result<(), KeyConditionError> {
        if self.key_type() != attr.key_type {
            return Err(KeyConditionError::TypeMismatch {
                key: attr.name.clone(),
                expected: attr.key_type,
                found: self.key_type().as_str().to_string(),
                label: label.to_string(),
            });
        }
        let empty = match self {
            KeyValue::S(s) => s.is_empty(),
            KeyValue::B(b) => b.is_empty(),
            KeyValue::N(n) => {
                return validate_number(n).map_err(|source| KeyConditionError::BadNumber {
                    key: attr.name.clone(),
                    source,
                })
            }
        };
        if empty {
            return Err(KeyConditionError::EmptyValue {
                key: attr.name.clone(),
            });
        }
        Ok(())
    }

    /// DynamoDB's sort order for two values of the same type: numeric for N, byte order for S
    /// (UTF-8) and B.
    pub(super) fn dynamo_cmp(&self, other: &KeyValue) -> Ordering {
        match (self, other) {
            (KeyValue::N(a), KeyValue::N(b)) => compare_numbers(a, b),
            (KeyValue::S(a), KeyValue::S(b)) => a.as_bytes().cmp(b.as_bytes()),
            (KeyValue::B(a), KeyValue::B(b)) => a.cmp(b),
            // Mixed types never reach here (`check` runs first); order by type to stay total.
            _ => self.key_type().as_str().cmp(other.key_type().as_str()),
        }
    }
}

/// Text for messages: binary shows as the base64 the user typed.
impl fmt::Display for KeyValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyValue::S(s) => f.write_str(s),
            KeyValue::N(n) => f.write_str(n),
            KeyValue::B(b) => f.write_str(&base64::engine::general_purpose::STANDARD.encode(b)),
        }
    }
}

/// Shorthand for `KeyValue::from_attr`.
pub fn from_attr(value: &AttrValue, attr: &KeyAttr) -> Result<KeyValue, KeyConditionError> {
    KeyValue::from_attr(value, attr)
}

#[cfg(test)]
#[path = "key_value_tests.rs"]
mod tests;
