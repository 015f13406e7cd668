//! DynamoDB's own limits on what `seed --model` creates and writes, checked while the model is
//! read: a model that breaks one is refused whole, before anything is sent, instead of
//! DynamoDB refusing its second table or its 500 KB item after the first table was created
//! and loaded (a rerun then finds "already exists").

use super::ModelIndex;
use crate::design::schema::KeySchema;
use crate::input::names::is_resource_name;
use crate::item::item_size::{item_size, MAX_ITEM_BYTES};
use crate::item::value::{AttrValue, Item};

/// DynamoDB's limit on global secondary indexes per table.
pub const MAX_GSIS: usize = 20;
/// DynamoDB's limit on the non-key attributes projected (INCLUDE), summed over every
/// secondary index of a table.
pub const MAX_PROJECTED_ATTRIBUTES: usize = 100;
/// DynamoDB's limit on how deep documents nest (a map or list in a map or list…).
pub const MAX_NESTING: usize = 32;
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

/// The non-key attributes INCLUDE projections name, summed over a table's indexes (each
/// given as its name and its attributes), within DynamoDB's limit.
pub(super) fn projected(path: &str, indexes: &[(&str, &[String])]) -> Result<(), String> {
    let total: usize = indexes.iter().map(|(_, attrs)| attrs.len()).sum();
    if total > MAX_PROJECTED_ATTRIBUTES {
        let each: Vec<String> = indexes
            .iter()
            .filter(|(_, attrs)| !attrs.is_empty())
            .map(|(name, attrs)| format!("{} in '{name}'", attrs.len()))
            .collect();
        return Err(format!(
            "{path}: its indexes project {total} non-key attributes ({}); DynamoDB allows {MAX_PROJECTED_ATTRIBUTES} summed over a table's indexes, project fewer (or ALL)",
            each.join(", ")
        ));
    }
    Ok(())
}

/// Every value of an item as DynamoDB takes it: attribute names not empty, sets neither empty
/// nor holding a member twice, documents at most [`MAX_NESTING`] levels deep.
fn values(path: &str, item: &Item) -> Result<(), String> {
    // (where, value, depth of the map or list holding it): no recursion, whatever the depth.
    let mut stack: Vec<(String, &AttrValue, usize)> = Vec::new();
    for (name, value) in item.iter() {
        if name.is_empty() {
            return Err(format!(
                "{path} has an attribute with an empty name; DynamoDB takes names of 1 byte or more, name it in the model"
            ));
        }
        stack.push((name.to_string(), value, 0));
    }
    while let Some((at, value, depth)) = stack.pop() {
        // Each member as DynamoDB compares it, and as it is shown.
        let set = |members: Vec<(String, String)>| -> Result<(), String> {
            if members.is_empty() {
                return Err(format!(
                    "{path}: '{at}' is an empty {}; DynamoDB takes no empty set, leave the attribute out",
                    value.type_name()
                ));
            }
            let mut seen = std::collections::BTreeSet::new();
            match members.into_iter().find(|(key, _)| !seen.insert(key.clone())) {
                Some((_, twice)) => Err(format!(
                    "{path}: the {} '{at}' holds {twice} twice (as DynamoDB compares its members); DynamoDB refuses a set with a duplicate, keep one",
                    value.type_name()
                )),
                None => Ok(()),
            }
        };
        match value {
            AttrValue::Ss(members) => set(members.iter().map(|s| (s.clone(), format!("'{s}'"))).collect())?,
            AttrValue::Ns(members) => set(members.iter().map(|n| (number_text(n), n.clone())).collect())?,
            AttrValue::Bs(members) => set(
                members
                    .iter()
                    .map(|b| (format!("{b:?}"), format!("a {}-byte binary", b.len())))
                    .collect(),
            )?,
            AttrValue::M(_) | AttrValue::L(_) if depth >= MAX_NESTING => {
                return Err(format!(
                    "{path}: '{at}' nests documents more than {MAX_NESTING} levels deep, DynamoDB's limit; flatten it in the model"
                ))
            }
            AttrValue::M(map) => {
                for (name, inner) in map.iter() {
                    stack.push((format!("{at}.{name}"), inner, depth + 1));
                }
            }
            AttrValue::L(list) => {
                for (i, inner) in list.iter().enumerate() {
                    stack.push((format!("{at}[{i}]"), inner, depth + 1));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// A number as DynamoDB compares it in a set: `1`, `1.0` and `+1e0` are one member.
fn number_text(n: &str) -> String {
    let n = n.trim_start_matches('+');
    let (sign, n) = match n.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", n),
    };
    let (mantissa, exp) = match n.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().unwrap_or(0)),
        None => (n, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    let lead = digits.len() - digits.trim_start_matches('0').len();
    let digits = digits.trim_matches('0');
    if digits.is_empty() {
        return "0".into();
    }
    // The position of the first significant digit relative to the decimal point.
    let point = int.len() as i64 - lead as i64 + exp;
    format!("{sign}0.{digits}e{point}")
}

/// An item as DynamoDB would take it: at most 400 KB by its size rules, key values within
/// their own limits (the table's and every index's), and every value one DynamoDB takes
/// ([`values`]). `path` names the item (and its key, for a reader to find it).
pub(super) fn item(
    path: &str,
    keys: &KeySchema,
    indexes: &[ModelIndex],
    item: &Item,
) -> Result<(), String> {
    values(path, item)?;
    let size = item_size(item);
    if size > MAX_ITEM_BYTES {
        return Err(format!(
            "{path} is {size} bytes by DynamoDB's item size rules, over its {MAX_ITEM_BYTES}-byte (400 KB) limit; make it smaller in the model"
        ));
    }
    let bytes = |name: &str| match item.get(name) {
        Some(AttrValue::S(s)) => Some(s.len()),
        Some(AttrValue::B(b)) => Some(b.len()),
        _ => None,
    };
    let limits = std::iter::once((keys.partition_key(), "partition", MAX_PARTITION_KEY_BYTES))
        .chain(keys.sort_key().map(|k| (k, "sort", MAX_SORT_KEY_BYTES)));
    for (attr, which, max) in limits {
        match bytes(&attr.name) {
            Some(n) if n > max => {
                return Err(format!(
                    "{path}: its {which} key '{}' is {n} bytes; DynamoDB takes at most {max}, shorten it in the model",
                    attr.name
                ))
            }
            _ => {}
        }
    }
    // Every attribute of a GSI's key, each of several on a multi-attribute one, is bounded
    // like the table's key on its side: DynamoDB refuses the write of such an item.
    for index in indexes {
        let partition = index
            .keys
            .partition()
            .iter()
            .map(|k| (k, "partition", MAX_PARTITION_KEY_BYTES));
        let sort = index
            .keys
            .sort()
            .iter()
            .map(|k| (k, "sort", MAX_SORT_KEY_BYTES));
        for (attr, which, max) in partition.chain(sort) {
            match bytes(&attr.name) {
                Some(n) if n > max => {
                    return Err(format!(
                        "{path}: '{}' of index '{}' is {n} bytes; DynamoDB takes at most {max} for a {which} key attribute, shorten it in the model",
                        attr.name, index.name
                    ))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
