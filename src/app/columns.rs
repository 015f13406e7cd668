//! The items pane's columns after the kind and the sort key: the sort key's decoded parts and
//! the most common other attributes of the selected collection. Chosen when what is shown
//! changes (a page, another collection, the filter), not per frame, and kept in the state so
//! `update` can stop `→` at the last one and the ui draws the same ones.

use std::collections::HashMap;

use super::state::TableView;
use crate::model::columns::rank_attributes;
use crate::model::entity::{decode_key, EntityPattern};

/// Items sampled to choose the columns: the first ones shown.
pub const COLUMN_SAMPLE: usize = 50;
pub const MAX_ATTR_COLUMNS: usize = 12;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ItemColumns {
    /// Headers of the sort key's parts (`part1`…, or a configured entity pattern's names).
    pub part_names: Vec<String>,
    /// Other attributes, most common first.
    pub attrs: Vec<String>,
}

/// The columns for `view`'s selected collection; `patterns` are the configured entity
/// templates for its table.
pub fn choose(view: &TableView, patterns: &[&EntityPattern]) -> ItemColumns {
    let Some(store) = view.store.as_ref() else {
        return ItemColumns::default();
    };
    let keys = store.group_keys();
    let sk_name = keys.sort_key.as_ref().map(|k| k.name.as_str());
    let sample: Vec<u32> = (0..view.item_count().min(COLUMN_SAMPLE))
        .map_while(|n| view.item_at(n))
        .collect();
    let mut part_count = 0;
    let mut kinds: HashMap<&str, usize> = HashMap::new();
    let items: Vec<_> = sample.iter().map(|&id| store.item(id)).collect();
    for (&id, item) in sample.iter().zip(&items) {
        let parts = sk_name
            .and_then(|k| item.get(k))
            .and_then(|v| v.as_s())
            .map_or(0, |sk| decode_key(sk, store.separator()).parts.len());
        part_count = part_count.max(parts);
        // Only items with key parts decide the part names (a profile row has none).
        if let Some(kind) = store.kind_of(id).filter(|_| parts > 0) {
            *kinds.entry(kind).or_default() += 1;
        }
    }
    // Named parts when every sampled item with parts is one kind with a configured pattern.
    let mut part_names: Vec<String> = (1..=part_count).map(|i| format!("part{i}")).collect();
    if kinds.len() == 1 {
        let kind = *kinds.keys().next().expect("one kind");
        if let Some(pattern) = patterns
            .iter()
            .find(|p| p.kind() == kind && p.part_names().len() >= part_count)
        {
            part_names = pattern.part_names().to_vec();
        }
    }
    let mut skip = vec![keys.partition_key.name.as_str()];
    skip.extend(sk_name);
    ItemColumns {
        part_names,
        attrs: rank_attributes(&items, &skip, MAX_ATTR_COLUMNS),
    }
}

/// The largest useful `column_offset`: the last attribute column alone after the key columns.
pub fn max_column_offset(view: &TableView) -> usize {
    view.columns.attrs.len().saturating_sub(1)
}
