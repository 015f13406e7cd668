//! The starting point of a new item (`N`): an item of the collection's most common kind with
//! its keys filled in and every other value emptied to its type's blank.

use crate::item::value::{AttrValue, Item};

/// From `example`, an item of the kind to create: `keep` (the table's partition key and the
/// index keys) keep their values, a string sort key keeps its kind prefix (`ORDER#`), every
/// other attribute becomes its type's blank (`""`, `0`, `false`, `[]`, `{}`; a set keeps one
/// element, as a set cannot be empty).
pub fn new_item_template(
    example: &Item,
    keep: &[String],
    sort_key: Option<&str>,
    separator: char,
) -> Item {
    let attrs = example
        .iter()
        .map(|(name, value)| {
            let value = if keep.iter().any(|k| k == name) {
                value.clone()
            } else if Some(name) == sort_key {
                match value {
                    AttrValue::S(s) => AttrValue::S(kind_prefix(s, separator).to_string()),
                    other => blank(other),
                }
            } else {
                blank(value)
            };
            (name.to_string(), value)
        })
        .collect();
    Item::from_attrs(attrs)
}

fn blank(value: &AttrValue) -> AttrValue {
    match value {
        AttrValue::S(_) => AttrValue::S(String::new()),
        AttrValue::N(_) => AttrValue::N("0".into()),
        AttrValue::B(_) => AttrValue::B(Vec::new()),
        AttrValue::Bool(_) => AttrValue::Bool(false),
        AttrValue::Null => AttrValue::Null,
        AttrValue::L(_) => AttrValue::L(Vec::new()),
        AttrValue::M(_) => AttrValue::M(Item::new()),
        AttrValue::Ss(v) => AttrValue::Ss(v.iter().take(1).cloned().collect()),
        AttrValue::Ns(v) => AttrValue::Ns(v.iter().take(1).cloned().collect()),
        AttrValue::Bs(v) => AttrValue::Bs(v.iter().take(1).cloned().collect()),
    }
}

/// `ORDER#2026-08-27#456` → `ORDER#`; a key without a separator after its first character
/// (`PROFILE`) is kept whole.
fn kind_prefix(key: &str, separator: char) -> &str {
    match key.char_indices().skip(1).find(|(_, c)| *c == separator) {
        Some((at, c)) => &key[..at + c.len_utf8()],
        None => key,
    }
}
