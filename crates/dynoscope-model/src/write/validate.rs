//! What an item must satisfy before it is sent, each problem one line naming the attribute:
//! the table's key attributes present with their types and not empty, index key attributes
//! of their types when present, no empty or repeated set, at most 400 KB by DynamoDB's rules.

use crate::design::schema::{KeyAttr, KeyType, TableInfo};
use crate::item::item_size::{item_size, MAX_ITEM_BYTES};
use crate::item::value::{AttrValue, Item};

const MAX_PARTITION_KEY_BYTES: usize = 2048;
const MAX_SORT_KEY_BYTES: usize = 1024;

fn key_type_of(value: &AttrValue) -> Option<KeyType> {
    match value {
        AttrValue::S(_) => Some(KeyType::S),
        AttrValue::N(_) => Some(KeyType::N),
        AttrValue::B(_) => Some(KeyType::B),
        _ => None,
    }
}

fn key_bytes(value: &AttrValue) -> usize {
    match value {
        AttrValue::S(s) | AttrValue::N(s) => s.len(),
        AttrValue::B(b) => b.len(),
        _ => 0,
    }
}

fn check_key(
    item: &Item,
    key: &KeyAttr,
    role: &str,
    required: bool,
    max: usize,
    out: &mut Vec<String>,
) {
    let name = &key.name;
    let Some(value) = item.get(name) else {
        if required {
            out.push(format!(
                "{name}: missing; it is {role} (type {})",
                key.key_type.as_str()
            ));
        }
        return;
    };
    if key_type_of(value) != Some(key.key_type) {
        out.push(format!(
            "{name}: is {}, but {role} takes {}",
            value.type_name(),
            key.key_type.as_str()
        ));
        return;
    }
    if key_bytes(value) == 0 && key.key_type != KeyType::N {
        out.push(format!(
            "{name}: empty; {role} cannot be an empty string or binary"
        ));
    } else if key_bytes(value) > max {
        out.push(format!(
            "{name}: {} bytes; {role} holds at most {max}",
            key_bytes(value)
        ));
    }
}

fn check_sets(path: &str, value: &AttrValue, out: &mut Vec<String>) {
    let mut set = |len: usize, distinct: usize, kind: &str| {
        if len == 0 {
            out.push(format!(
                "{path}: an empty {kind} set; a set holds at least one element"
            ));
        } else if distinct < len {
            out.push(format!("{path}: a {kind} set with a repeated element"));
        }
    };
    match value {
        AttrValue::Ss(v) => set(v.len(), distinct(v), "string"),
        AttrValue::Ns(v) => set(v.len(), distinct_numbers(v), "number"),
        AttrValue::Bs(v) => set(v.len(), distinct(v), "binary"),
        AttrValue::M(m) => {
            for (name, v) in m.iter() {
                check_sets(&format!("{path}.{name}"), v, out);
            }
        }
        AttrValue::L(l) => {
            for (i, v) in l.iter().enumerate() {
                check_sets(&format!("{path}[{i}]"), v, out);
            }
        }
        _ => {}
    }
}

fn distinct<T: Ord + Clone>(v: &[T]) -> usize {
    let mut sorted = v.to_vec();
    sorted.sort();
    sorted.dedup();
    sorted.len()
}

fn distinct_numbers(v: &[String]) -> usize {
    let mut seen: Vec<&String> = Vec::new();
    for n in v {
        if !seen
            .iter()
            .any(|m| crate::item::number::compare_numbers(m, n).is_eq())
        {
            seen.push(n);
        }
    }
    seen.len()
}

/// Every problem with `item` as a new version of an item of `info`'s table.
pub fn validate(item: &Item, info: &TableInfo) -> Vec<String> {
    let mut out = Vec::new();
    check_key(
        item,
        info.keys.partition_key(),
        "the table's partition key",
        true,
        MAX_PARTITION_KEY_BYTES,
        &mut out,
    );
    if let Some(sk) = info.keys.sort_key() {
        check_key(
            item,
            sk,
            "the table's sort key",
            true,
            MAX_SORT_KEY_BYTES,
            &mut out,
        );
    }
    for index in &info.indexes {
        let keys = &index.keys;
        let table_keys = info.keys.names();
        // Every attribute of a multi-attribute index key is bounded like a one-attribute key
        // on its side: partition attributes at 2048 bytes, sort attributes at 1024.
        let partition = keys
            .partition()
            .iter()
            .map(|k| (k, "partition key", MAX_PARTITION_KEY_BYTES));
        let sort = keys
            .sort()
            .iter()
            .map(|k| (k, "sort key", MAX_SORT_KEY_BYTES));
        for (key, role, max) in partition.chain(sort) {
            if table_keys.contains(&key.name)
                || out.iter().any(|l| l.starts_with(&format!("{}:", key.name)))
            {
                continue;
            }
            check_key(
                item,
                key,
                &format!("index {}'s {role}", index.name),
                false,
                max,
                &mut out,
            );
        }
    }
    if item.iter().any(|(name, _)| name.is_empty()) {
        out.push(
            "an attribute with an empty name; DynamoDB refuses an empty attribute name: give it one"
                .into(),
        );
    }
    for (name, value) in item.iter() {
        check_sets(name, value, &mut out);
    }
    let size = item_size(item);
    if size > MAX_ITEM_BYTES {
        out.push(format!(
            "the item is {size} bytes by DynamoDB's rules, over the {MAX_ITEM_BYTES}-byte (400 KB) limit"
        ));
    }
    out
}
