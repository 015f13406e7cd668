//! Set-based writes (`partiql 'UPDATE … WHERE …'`, `'DELETE FROM … WHERE …'`) as plain data:
//! each matching item's new image ([`plan_items`]), what writing it costs by DynamoDB's rules,
//! table and every index it touches ([`cost`]), the dry run's report ([`preview`]), and the
//! journal that makes a run resumable and undoable ([`journal`]). No I/O.
//!
//! Every item is then written with the explorer's write contract (`write::plan_edit`,
//! `write::plan_delete`): conditional on the stored item being exactly the image read.

pub mod action;
pub mod cost;
pub mod journal;
pub mod journal_check;
pub mod journal_read;
pub mod preview;

use crate::design::schema::{KeyType, TableInfo};
use crate::item::value::{AttrValue, Item};
use crate::query::partiql::{Change, WriteStatement};
use crate::write::{diff, key_of};

/// One matching item: as read, and as the statement leaves it (`None`: deleted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkItem {
    pub before: Item,
    pub after: Option<Item>,
}

impl BulkItem {
    /// The statement leaves the item as it is (an UPDATE that sets what is already there):
    /// nothing is sent for it.
    pub fn unchanged(&self) -> bool {
        self.after
            .as_ref()
            .is_some_and(|a| diff(&self.before, a).is_empty())
    }

    pub fn key(&self, info: &TableInfo) -> Item {
        key_of(&self.before, &info.keys)
    }
}

/// Refuses a change DynamoDB would refuse for every item, before anything is read: a table
/// key attribute set or removed (an UpdateItem cannot change the key), or an index key set to
/// a value of another type than the index declares.
pub fn check_change(
    statement: &WriteStatement,
    set: &[(String, AttrValue)],
    info: &TableInfo,
) -> Result<(), String> {
    let Change::Update { remove, .. } = &statement.change else {
        return Ok(());
    };
    check_update(set, remove, info)
}

/// [`check_change`] of an update's SET values and REMOVE names, whatever asked for them (a
/// statement, the explorer's bulk dialog).
pub fn check_update(
    set: &[(String, AttrValue)],
    remove: &[String],
    info: &TableInfo,
) -> Result<(), String> {
    let table_keys = info.keys.names();
    let named = set.iter().map(|(n, _)| n).chain(remove.iter());
    if let Some(key) = named.into_iter().find(|n| table_keys.contains(n)) {
        return Err(format!(
            "'{key}' is a key attribute of table '{}': an update cannot change an item's key; write a new item and delete the old one (the explorer's edit does)",
            info.name
        ));
    }
    for index in &info.indexes {
        for attr in index.keys.attributes() {
            if remove.contains(&attr.name) {
                continue;
            }
            if let Some((_, v)) = set.iter().find(|(n, _)| n == &attr.name) {
                let ok = matches!(
                    (attr.key_type, v),
                    (KeyType::S, AttrValue::S(_))
                        | (KeyType::N, AttrValue::N(_))
                        | (KeyType::B, AttrValue::B(_))
                );
                if !ok {
                    return Err(format!(
                        "'{}' is a key of index '{}' and must be of type {}, but SET gives it {}; write a value of type {}",
                        attr.name,
                        index.name,
                        attr.key_type.as_str(),
                        v.type_name(),
                        attr.key_type.as_str()
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Each matching item with its new image: SET replaces or adds the attributes, REMOVE drops
/// them, DELETE leaves nothing.
pub fn plan_items(
    statement: &WriteStatement,
    set: &[(String, AttrValue)],
    items: Vec<Item>,
) -> Vec<BulkItem> {
    plan_change(&statement.change, set, items)
}

/// With a version attribute configured for the table, each written item's new image
/// increments it (as every write of the explorer does), so the journal holds the image the
/// write leaves and undo's condition compares the version the run wrote.
pub fn with_version(items: &mut [BulkItem], version: Option<&str>) {
    if version.is_none() {
        return;
    }
    for item in items.iter_mut().filter(|i| !i.unchanged()) {
        if let Some(after) = item.after.as_mut() {
            crate::write::plan::bump_version(after, Some(&item.before), version);
        }
    }
}

/// [`plan_items`] of a change, whatever asked for it.
pub fn plan_change(
    change: &Change,
    set: &[(String, AttrValue)],
    items: Vec<Item>,
) -> Vec<BulkItem> {
    items
        .into_iter()
        .map(|before| {
            let after = match change {
                Change::Delete => None,
                Change::Update { remove, .. } => {
                    let mut after = before.clone();
                    for (name, value) in set {
                        after.insert(name.clone(), value.clone());
                    }
                    let kept = after
                        .into_attrs()
                        .into_iter()
                        .filter(|(n, _)| !remove.contains(n))
                        .collect();
                    Some(Item::from_attrs(kept))
                }
            };
            BulkItem { before, after }
        })
        .collect()
}

#[cfg(test)]
#[path = "bulk_tests.rs"]
mod tests;
