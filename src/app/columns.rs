//! The items pane's attribute columns. Chosen here, from the state, so that `update` can stop
//! `→` at the last one and the ui draws the same ones.

use std::collections::HashMap;

use super::state::TableView;

/// Items sampled to choose the common attribute columns (and, in the ui, the key parts).
pub const COLUMN_SAMPLE: usize = 50;
pub const MAX_ATTR_COLUMNS: usize = 12;

/// The most common non-key attributes among the first visible items of the selected
/// collection, most frequent first (ties by name).
pub fn common_attributes(view: &TableView) -> Vec<String> {
    let Some(store) = view.store.as_ref() else {
        return Vec::new();
    };
    let keys = store.group_keys();
    let sk_name = keys.sort_key.as_ref().map(|k| k.name.as_str());
    let mut frequency: HashMap<String, usize> = HashMap::new();
    for n in 0..view.item_count().min(COLUMN_SAMPLE) {
        let Some(id) = view.item_at(n) else { break };
        for (name, _) in store.item(id).iter() {
            if name != keys.partition_key.name && Some(name) != sk_name {
                *frequency.entry(name.to_string()).or_default() += 1;
            }
        }
    }
    let mut attrs: Vec<(String, usize)> = frequency.into_iter().collect();
    attrs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    attrs
        .into_iter()
        .take(MAX_ATTR_COLUMNS)
        .map(|(n, _)| n)
        .collect()
}

/// The largest useful `column_offset`: the last attribute column alone after the key columns.
pub fn max_column_offset(view: &TableView) -> usize {
    common_attributes(view).len().saturating_sub(1)
}
