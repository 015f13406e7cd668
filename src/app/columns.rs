//! The items pane's columns after the kind and the sort key: the sort key's decoded parts and
//! the most common other attributes of the selected collection. Chosen when what is shown
//! changes (a page, another collection, the filter), not per frame, and kept in the state so
//! `update` can stop `→` at the last one and the ui draws the same ones.
//!
//! Part columns are named by a configured `[[entity]]` pattern when one matches, else after
//! the attributes that hold the same values (`model::part_names`), else `part1`, `part2`…
//! Every header is unique: an attribute a part column is named after is not shown again, and
//! the decoded kind's column takes a header no attribute has.

use std::collections::HashMap;

use super::state::TableView;
use crate::model::columns::rank_attributes;
use crate::model::entity::{decode_key, EntityPattern};
use crate::model::part_names::part_names_from_data;

/// Items sampled to choose the columns: the first ones shown.
pub const COLUMN_SAMPLE: usize = 50;
pub const MAX_ATTR_COLUMNS: usize = 12;
/// Headers tried, in order, for the decoded entity kind's column.
const KIND_HEADERS: [&str; 3] = ["kind", "entity", "entity kind"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemColumns {
    /// Header of the decoded entity kind's column: `kind` unless an attribute is named so.
    pub kind_header: String,
    /// Headers of the sort key's parts (`part1`…, a configured pattern's or attributes' names).
    pub part_names: Vec<String>,
    /// Other attributes, most common first.
    pub attrs: Vec<String>,
}

impl Default for ItemColumns {
    fn default() -> Self {
        ItemColumns {
            kind_header: KIND_HEADERS[0].to_owned(),
            part_names: Vec::new(),
            attrs: Vec::new(),
        }
    }
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
    let sks: Vec<Option<&str>> = items
        .iter()
        .map(|item| sk_name.and_then(|k| item.get(k)).and_then(|v| v.as_s()))
        .collect();
    let parts: Vec<Vec<&str>> = sks
        .iter()
        .map(|sk| sk.map_or_else(Vec::new, |sk| decode_key(sk, store.separator()).parts))
        .collect();
    for (&id, item_parts) in sample.iter().zip(&parts) {
        part_count = part_count.max(item_parts.len());
        // Only items with key parts decide the part names (a profile row has none).
        if let Some(kind) = store.kind_of(id).filter(|_| !item_parts.is_empty()) {
            *kinds.entry(kind).or_default() += 1;
        }
    }
    let mut skip = vec![keys.partition_key.name.as_str()];
    skip.extend(sk_name);
    // Named parts when every sampled item with parts is one kind: by its configured pattern,
    // else by the attributes holding the same values.
    let mut part_names: Vec<String> = (1..=part_count).map(|i| format!("part{i}")).collect();
    let mut from_data: Vec<String> = Vec::new();
    if kinds.len() == 1 {
        let kind = *kinds.keys().next().expect("one kind");
        match patterns
            .iter()
            .find(|p| p.kind() == kind && p.part_names().len() >= part_count)
        {
            Some(pattern) => part_names = pattern.part_names().to_vec(),
            None => {
                let refs: Vec<_> = items.iter().collect();
                let named = part_names_from_data(&refs, &parts, part_count, &skip);
                for (header, name) in part_names.iter_mut().zip(named) {
                    if let Some(name) = name {
                        from_data.push(name.clone());
                        *header = name;
                    }
                }
            }
        }
    }
    let mut attrs = rank_attributes(&items, &skip, MAX_ATTR_COLUMNS + from_data.len());
    // A part column stands for the attribute of the same name.
    attrs.retain(|a| !part_names.contains(a));
    attrs.truncate(MAX_ATTR_COLUMNS);
    let taken = |h: &str| {
        sk_name.is_some_and(|s| s.eq_ignore_ascii_case(h))
            || part_names
                .iter()
                .chain(&attrs)
                .any(|n| n.eq_ignore_ascii_case(h))
    };
    let kind_header = KIND_HEADERS
        .iter()
        .map(|h| h.to_string())
        .chain((2..).map(|n| format!("kind {n}")))
        .find(|h| !taken(h))
        .expect("an unbounded list has a free header");
    ItemColumns {
        kind_header,
        part_names,
        attrs,
    }
}

/// The largest useful `column_offset`: the last attribute column alone after the key columns.
pub fn max_column_offset(view: &TableView) -> usize {
    view.columns.attrs.len().saturating_sub(1)
}
