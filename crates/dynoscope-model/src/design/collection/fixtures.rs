//! Items, schemas and key values shared by the item-store tests.

use super::ItemStore;
use crate::design::schema::{KeyAttr, KeySchema, KeyType};
use crate::item::value::{AttrValue, Item};

pub(super) fn s(v: &str) -> AttrValue {
    AttrValue::S(v.into())
}

pub(super) fn n(v: &str) -> AttrValue {
    AttrValue::N(v.into())
}

pub(super) fn b(v: &[u8]) -> AttrValue {
    AttrValue::B(v.to_vec())
}

pub(super) fn key_attr(name: &str, key_type: KeyType) -> KeyAttr {
    KeyAttr {
        name: name.into(),
        key_type,
    }
}

pub(super) fn schema(pk: &str, sk: Option<(&str, KeyType)>) -> KeySchema {
    KeySchema::simple(
        key_attr(pk, KeyType::S),
        sk.map(|(name, t)| key_attr(name, t)),
    )
}

pub(super) fn table() -> KeySchema {
    schema("PK", Some(("SK", KeyType::S)))
}

pub(super) fn table_store() -> ItemStore {
    ItemStore::new(table(), table())
}

pub(super) fn item(attrs: Vec<(&str, AttrValue)>) -> Item {
    Item::from_attrs(attrs.into_iter().map(|(k, v)| (k.into(), v)).collect())
}

pub(super) fn pk_sk(pk: &str, sk: &str) -> Item {
    item(vec![("PK", s(pk)), ("SK", s(sk))])
}

/// The sort-key values of a collection, in store order.
pub(super) fn sort_keys(store: &ItemStore, collection: usize, name: &str) -> Vec<AttrValue> {
    store.collections()[collection]
        .items
        .iter()
        .map(|&id| store.item(id).get(name).cloned().unwrap_or(AttrValue::Null))
        .collect()
}

/// The `seq` attribute of a collection's items, in store order.
pub(super) fn seqs(store: &ItemStore, collection: usize) -> Vec<String> {
    store.collections()[collection]
        .items
        .iter()
        .map(|&id| match store.item(id).get("seq") {
            Some(AttrValue::S(v) | AttrValue::N(v)) => v.clone(),
            _ => String::new(),
        })
        .collect()
}

/// Key values of every type, with the numbers that trip up text order and parsing.
pub(super) fn value_pool() -> Vec<AttrValue> {
    let numbers = [
        "0",
        "-0",
        "0.0",
        "+0e5",
        "1",
        "1.0",
        "1e0",
        "10",
        "9",
        "-5",
        "-10",
        "2",
        "2.5",
        "-2.5",
        "-2.50",
        "-25",
        "0.001",
        ".5",
        "5.",
        "+7",
        "1e-130",
        "-1e-130",
        "9.9999999999999999999999999999999999999E+125",
        "-9.9999999999999999999999999999999999999E+125",
        "123456789012345678901234567890123456.7",
        "123456789012345678901234567890123456.8",
        "1e999999999999999999999",
        "2e999999999999999999999",
        "1x",
        "abc",
        "",
    ];
    let mut pool: Vec<AttrValue> = numbers.iter().map(|v| n(v)).collect();
    for v in [
        "",
        "a",
        "ab",
        "B",
        "z",
        "é",
        "\u{10000}",
        "USER#1",
        "USER#10",
        "USER#2",
    ] {
        pool.push(s(v));
    }
    for v in [&[][..], &[0], &[0, 0], &[1], &[0x7f], &[0x80], &[0xff, 0]] {
        pool.push(b(v));
    }
    pool.extend([
        AttrValue::Bool(false),
        AttrValue::Bool(true),
        AttrValue::Null,
        AttrValue::M(Item::new()),
        AttrValue::L(vec![]),
        AttrValue::Ss(vec!["a".into()]),
        AttrValue::Ns(vec![]),
        AttrValue::Bs(vec![]),
    ]);
    pool
}
