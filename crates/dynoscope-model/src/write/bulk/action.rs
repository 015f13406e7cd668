//! The explorer's bulk dialog (`B`) as plain data: one action over the items the user marked
//! (or listed): set an attribute to a typed value, remove one, or delete the items. It becomes
//! the same per-item plan a PartiQL UPDATE or DELETE gets ([`super::plan_change`]), checked by
//! the same rules ([`super::check_update`]), so the dialog's preview, cost, journal and undo
//! are the command line's.

use std::collections::HashSet;

use serde_json::Value;

use super::{check_update, plan_change, BulkItem};
use crate::design::schema::TableInfo;
use crate::formats::json::{append_dynamo_json, dynamo_to_attr, plain_to_attr};
use crate::item::value::{AttrValue, Item};
use crate::query::partiql::{Change, Operand};
use crate::write::key_of;

/// What the dialog does to each item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BulkAction {
    Set { name: String, value: AttrValue },
    Remove { name: String },
    Delete,
}

impl BulkAction {
    /// As the preview names it, like the statement it stands for.
    pub fn verb(&self) -> &'static str {
        match self {
            BulkAction::Delete => "DELETE",
            _ => "UPDATE",
        }
    }

    fn change(&self) -> (Change, Vec<(String, AttrValue)>) {
        match self {
            BulkAction::Set { name, value } => (
                Change::Update {
                    set: vec![(name.clone(), Operand::Value(value.clone()))],
                    remove: Vec::new(),
                },
                vec![(name.clone(), value.clone())],
            ),
            BulkAction::Remove { name } => (
                Change::Update {
                    set: Vec::new(),
                    remove: vec![name.clone()],
                },
                Vec::new(),
            ),
            BulkAction::Delete => (Change::Delete, Vec::new()),
        }
    }
}

/// A typed value as the dialog takes it: DynamoDB JSON when it is an object of exactly one
/// type tag (`{"N":"12.5"}`, `{"SS":["a","b"]}`, `{"B":"AAE="}`), which is how a set or
/// binary is said; otherwise plain JSON (`"DONE"`, `12.5`, `true`, `null`, `[…]`, `{…}`).
/// Numbers keep their exact text (38 digits).
pub fn parse_value(text: &str) -> Result<AttrValue, String> {
    let value: Value = serde_json::from_str(text.trim()).map_err(|_| {
        format!(
            "'{text}' is not a JSON value; write a string in quotes (\"DONE\"), a number (12.5), true, null, or DynamoDB JSON ({{\"SS\":[\"a\"]}})"
        )
    })?;
    const TAGS: [&str; 10] = ["S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL"];
    let tagged = matches!(&value, Value::Object(m)
        if m.len() == 1 && m.keys().all(|k| TAGS.contains(&k.as_str())));
    if tagged {
        dynamo_to_attr(&value).map_err(|e| e.to_string())
    } else {
        plain_to_attr(value).map_err(|e| e.to_string())
    }
}

/// Each item with what the action leaves of it; refused as a whole when DynamoDB would refuse
/// it for every item (a key attribute changed, an index key of the wrong type) or when the
/// attribute has no name. Items are taken once each, in the order given.
pub fn plan_action(
    info: &TableInfo,
    action: &BulkAction,
    items: Vec<Item>,
) -> Result<Vec<BulkItem>, String> {
    let (change, set) = action.change();
    if let Change::Update { remove, .. } = &change {
        let named = set.iter().map(|(n, _)| n).chain(remove.iter());
        if named.into_iter().any(|n| n.trim().is_empty()) {
            return Err("name the attribute to change".to_string());
        }
        check_update(&set, remove, info)?;
    }
    let mut seen = HashSet::new();
    let items: Vec<Item> = items
        .into_iter()
        .filter(|item| {
            let mut key = String::new();
            append_dynamo_json(&mut key, &key_of(item, &info.keys));
            seen.insert(key)
        })
        .collect();
    Ok(plan_change(&change, &set, items))
}

#[cfg(test)]
#[path = "action_tests.rs"]
mod tests;
