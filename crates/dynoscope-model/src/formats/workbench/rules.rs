//! DynamoDB's own limits on what `seed --model` creates and writes, checked while the model is
//! read: a model that breaks one is refused whole, before anything is sent, instead of
//! DynamoDB refusing its second table or its 500 KB item after the first table was created
//! and loaded (a rerun then finds "already exists").

use crate::design::schema::KeySchema;
use crate::input::names::is_resource_name;
use crate::item::item_size::{item_size, MAX_ITEM_BYTES};
use crate::item::value::{AttrValue, Item};

/// DynamoDB's limit on global secondary indexes per table.
pub const MAX_GSIS: usize = 20;
/// Key attribute names and values, by DynamoDB's limits (bytes of UTF-8, or raw bytes).
const MAX_KEY_NAME_BYTES: usize = 255;
const MAX_PARTITION_KEY_BYTES: usize = 2048;
const MAX_SORT_KEY_BYTES: usize = 1024;

/// `what` is `table` or `index`.
pub(super) fn resource_name(path: &str, what: &str, name: &str) -> Result<(), String> {
    if is_resource_name(name) {
        return Ok(());
    }
    Err(format!(
        "{path}: {what} name '{name}' is not one DynamoDB accepts; rename it to 3 to 255 letters, digits, '_', '-' or '.'"
    ))
}

pub(super) fn key_name(path: &str, name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > MAX_KEY_NAME_BYTES {
        return Err(format!(
            "{path}: key attribute name '{name}' is {} bytes; DynamoDB takes 1 to {MAX_KEY_NAME_BYTES}",
            name.len()
        ));
    }
    Ok(())
}

pub(super) fn index_count(path: &str, count: usize) -> Result<(), String> {
    if count > MAX_GSIS {
        return Err(format!(
            "{path} has {count} GlobalSecondaryIndexes; DynamoDB allows {MAX_GSIS} per table, remove {}",
            count - MAX_GSIS
        ));
    }
    Ok(())
}

/// An item as DynamoDB would take it: at most 400 KB by its size rules, and key values within
/// their own limits. `path` names the item (and its key, for a reader to find it).
pub(super) fn item(path: &str, keys: &KeySchema, item: &Item) -> Result<(), String> {
    let size = item_size(item);
    if size > MAX_ITEM_BYTES {
        return Err(format!(
            "{path} is {size} bytes by DynamoDB's item size rules, over its {MAX_ITEM_BYTES}-byte (400 KB) limit; make it smaller in the model"
        ));
    }
    let limits = std::iter::once((&keys.partition_key, "partition", MAX_PARTITION_KEY_BYTES))
        .chain(
            keys.sort_key
                .iter()
                .map(|k| (k, "sort", MAX_SORT_KEY_BYTES)),
        );
    for (attr, which, max) in limits {
        let bytes = match item.get(&attr.name) {
            Some(AttrValue::S(s)) => s.len(),
            Some(AttrValue::B(b)) => b.len(),
            _ => continue,
        };
        if bytes > max {
            return Err(format!(
                "{path}: its {which} key '{}' is {bytes} bytes; DynamoDB takes at most {max}, shorten it in the model",
                attr.name
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
