//! Keys and values shared by the key-condition tests.

use super::KeyValue;
use crate::design::schema::{KeyAttr, KeySchema, KeyType};

pub(super) fn attr(name: &str, key_type: KeyType) -> KeyAttr {
    KeyAttr {
        name: name.into(),
        key_type,
    }
}

pub(super) fn schema(pk: KeyType, sk: Option<KeyType>) -> KeySchema {
    KeySchema::simple(attr("PK", pk), sk.map(|t| attr("SK", t)))
}

pub(super) fn s(v: &str) -> KeyValue {
    KeyValue::S(v.into())
}

pub(super) fn n(v: &str) -> KeyValue {
    KeyValue::N(v.into())
}
