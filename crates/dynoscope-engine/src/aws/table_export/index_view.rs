//! An index read from an export's items: DynamoDB keeps no index in an export, so a read of
//! one keeps the items an index would hold, as it would project them.

use crate::model::design::schema::TableInfo;
use crate::model::exports::table_export::SizePlan;
use crate::model::item::value::Item;

/// A GSI or LSI read from the table's items: only items with its key attributes (indexes
/// are sparse), each with the attributes its projection keeps.
pub(super) struct IndexView {
    keys: Vec<String>,
    /// `None` for an ALL projection.
    keep: Option<Vec<String>>,
}

impl IndexView {
    pub(super) fn new(info: &TableInfo, name: &str) -> Option<IndexView> {
        let index = info.index(name)?;
        let keys = index.keys.names();
        let keep = match index.projection.projection_type.as_str() {
            "ALL" => None,
            _ => {
                let mut keep = info.keys.names();
                keep.extend(keys.iter().cloned());
                keep.extend(index.projection.non_key_attributes.iter().cloned());
                Some(keep)
            }
        };
        Some(IndexView { keys, keep })
    }

    pub(super) fn view(&self, item: Item) -> Option<Item> {
        if !self.keys.iter().all(|k| item.get(k).is_some()) {
            return None;
        }
        Some(match &self.keep {
            None => item,
            Some(keep) => Item::from_attrs(
                item.into_attrs()
                    .into_iter()
                    .filter(|(n, _)| keep.contains(n))
                    .collect(),
            ),
        })
    }
}

/// What a key count of `key` reads of each item: all of it for the table, the view of it for
/// an index.
pub(super) fn size_plan(index: Option<&IndexView>, key: &str) -> SizePlan {
    match index {
        None => SizePlan::table(key),
        Some(view) => SizePlan {
            key: key.to_string(),
            required: view.keys.clone(),
            keep: view.keep.clone(),
        },
    }
}
