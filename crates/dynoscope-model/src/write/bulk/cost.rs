//! What writing one item costs in write units, by DynamoDB's rules ("Capacity unit
//! consumption for write operations" and "Provisioned throughput considerations for GSIs" in
//! the developer guide): a write is its item's size rounded up to 1 KB blocks (at least one);
//! an UpdateItem counts the larger of the item before and after; a DeleteItem the item
//! deleted. Each index whose entry the write adds, removes, re-keys or changes is written too,
//! at the size of its entry (the table's and the index's keys plus what it projects): one
//! write to add or change, one to remove, two (a delete and a put) when its key changes.

use crate::design::schema::{IndexInfo, TableInfo};
use crate::item::item_size::item_size;
use crate::item::value::Item;
use crate::write::same_value;

const BLOCK: usize = 1024;

/// Write units of an item of `bytes`: whole 1 KB blocks, at least one.
pub fn write_units(bytes: usize) -> f64 {
    bytes.div_ceil(BLOCK).max(1) as f64
}

/// One item's write: the table's units and each touched index's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ItemCost {
    pub table: f64,
    pub indexes: Vec<(String, f64)>,
    /// Sizes in bytes by DynamoDB's rules, before and after (0: no item).
    pub size_before: usize,
    pub size_after: usize,
}

impl ItemCost {
    pub fn total(&self) -> f64 {
        self.table + self.indexes.iter().map(|(_, u)| u).sum::<f64>()
    }
}

/// The cost of taking `before` to `after` (`None`: deleted).
pub fn item_cost(info: &TableInfo, before: &Item, after: Option<&Item>) -> ItemCost {
    let size_before = item_size(before);
    let size_after = after.map_or(0, item_size);
    let mut cost = ItemCost {
        table: write_units(size_before.max(size_after)),
        indexes: Vec::new(),
        size_before,
        size_after,
    };
    for index in &info.indexes {
        let units = index_units(info, index, before, after);
        if units > 0.0 {
            cost.indexes.push((index.name.clone(), units));
        }
    }
    cost
}

fn index_units(info: &TableInfo, index: &IndexInfo, before: &Item, after: Option<&Item>) -> f64 {
    let old = entry(info, index, Some(before));
    let new = entry(info, index, after);
    match (old, new) {
        (None, None) => 0.0,
        (Some(o), None) => write_units(item_size(&o)),
        (None, Some(n)) => write_units(item_size(&n)),
        (Some(o), Some(n)) => {
            let key_names = index.keys.names();
            let rekeyed = key_names
                .iter()
                .any(|k| !matches!((o.get(k), n.get(k)), (Some(a), Some(b)) if same_value(a, b)));
            if rekeyed {
                write_units(item_size(&o)) + write_units(item_size(&n))
            } else if crate::write::diff(&o, &n).is_empty() {
                0.0
            } else {
                write_units(item_size(&o).max(item_size(&n)))
            }
        }
    }
}

/// The index's entry for `item`: `None` when the item lacks one of the index's keys (a sparse
/// index holds no entry for it).
fn entry(info: &TableInfo, index: &IndexInfo, item: Option<&Item>) -> Option<Item> {
    let item = item?;
    let index_keys = index.keys.names();
    if index_keys.iter().any(|k| item.get(k).is_none()) {
        return None;
    }
    let table_keys = info.keys.names();
    let projected = |name: &str| {
        index_keys.iter().any(|k| k == name)
            || table_keys.iter().any(|k| k == name)
            || match index.projection.projection_type.as_str() {
                "ALL" => true,
                "INCLUDE" => index
                    .projection
                    .non_key_attributes
                    .iter()
                    .any(|a| a == name),
                _ => false,
            }
    };
    let attrs = item
        .iter()
        .filter(|(n, _)| projected(n))
        .map(|(n, v)| (n.to_string(), v.clone()))
        .collect();
    Some(Item::from_attrs(attrs))
}
