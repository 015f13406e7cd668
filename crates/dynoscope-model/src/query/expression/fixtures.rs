//! Schemas and placeholders shared by the expression tests.

use crate::design::schema::{KeyAttr, KeySchema, KeyType};
use crate::item::value::AttrValue;

pub(super) fn keys(pk: KeyType, sk: Option<KeyType>) -> KeySchema {
    KeySchema::simple(
        KeyAttr::new("PK", pk),
        sk.map(|key_type| KeyAttr::new("SK", key_type)),
    )
}

pub(super) fn names() -> Vec<(String, String)> {
    [
        ("#pk", "PK"),
        ("#sk", "SK"),
        ("#status", "status"),
        ("#n", "name"),
        ("#data", "data"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

pub(super) fn values() -> Vec<(String, AttrValue)> {
    [
        (":pk", AttrValue::S("USER#1".into())),
        (":s", AttrValue::S("ORDER#".into())),
        (":s2", AttrValue::S("ORDER#9".into())),
        (":empty", AttrValue::S(String::new())),
        (":n", AttrValue::N("10".into())),
        (":n9", AttrValue::N("9".into())),
        (":b", AttrValue::B(vec![1])),
        (":map", AttrValue::M(Default::default())),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}
