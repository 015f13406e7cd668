//! The index chooser (`i`): the table and each index with what DescribeTable says of it and
//! what its first page should cost, before anything is read.

use crate::model::design::collection::ItemStore;
use crate::model::design::schema::{IndexKind, KeySchema, TableInfo};
use crate::model::design::synthetic_keys::{synthetic_keys, SyntheticKeyAdvice};
use crate::model::traffic::capacity::{first_page_units, on_demand_cost};

/// The chooser's cursor over "the table, then each index" ([`TableInfo::target_position`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IndexChooser {
    pub cursor: usize,
    /// Synthetic keys a multi-attribute key would replace, from the items the view already
    /// holds when the chooser opened (it reads none of its own).
    pub advice: Vec<SyntheticKeyAdvice>,
}

/// The most loaded items the advice decodes: the chooser opens at a key press, and a view may
/// hold a whole scan.
pub const ADVICE_ITEMS: usize = 2000;

/// One target the chooser lists.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexChoice {
    /// `None`: the table itself.
    pub index: Option<String>,
    pub kind: Option<IndexKind>,
    pub keys: KeySchema,
    /// `ALL`, `KEYS_ONLY` or `INCLUDE`, with the included attributes; the table has all.
    pub projection: String,
    pub included: Vec<String>,
    pub item_count: u64,
    pub size_bytes: u64,
    /// Read units of the first page the explorer would read (eventually consistent).
    pub first_page_rcu: f64,
    pub first_page_cost: f64,
}

impl IndexChooser {
    /// The chooser at `cursor`, with the advice of the first [`ADVICE_ITEMS`] items of
    /// `store` in collection order.
    pub fn open(cursor: usize, info: &TableInfo, store: Option<&ItemStore>) -> IndexChooser {
        let items: Vec<_> = store
            .into_iter()
            .flat_map(|store| {
                store
                    .collections()
                    .iter()
                    .flat_map(|c| c.items.iter())
                    .take(ADVICE_ITEMS)
                    .map(|&id| store.item(id))
            })
            .collect();
        IndexChooser {
            cursor,
            advice: synthetic_keys(info, &items),
        }
    }

    /// Every target, the table first, for a first page of `page_items` items.
    pub fn choices(info: &TableInfo, page_items: u64, price: f64) -> Vec<IndexChoice> {
        let choice = |index: Option<String>,
                      kind: Option<IndexKind>,
                      keys: &KeySchema,
                      projection: (&str, &[String]),
                      items: i64,
                      bytes: i64| {
            let (items, bytes) = (items.max(0) as u64, bytes.max(0) as u64);
            let rcu = first_page_units(items, bytes, page_items, false);
            IndexChoice {
                index,
                kind,
                keys: keys.clone(),
                projection: projection.0.to_string(),
                included: projection.1.to_vec(),
                item_count: items,
                size_bytes: bytes,
                first_page_rcu: rcu,
                first_page_cost: on_demand_cost(rcu, price),
            }
        };
        std::iter::once(choice(
            None,
            None,
            &info.keys,
            ("ALL", &[]),
            info.item_count,
            info.size_bytes,
        ))
        .chain(info.indexes.iter().map(|i| {
            choice(
                Some(i.name.clone()),
                Some(i.kind),
                &i.keys,
                (
                    &i.projection.projection_type,
                    &i.projection.non_key_attributes,
                ),
                i.item_count.unwrap_or(0),
                i.size_bytes.unwrap_or(0),
            )
        }))
        .collect()
    }
}
