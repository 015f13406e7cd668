//! Key values of the query form's chosen table or index, read off the loaded items' attributes
//! when the store groups them by other keys (items scanned from the table carry their GSI
//! keys): completions then come from them as well as from the keys-only sample.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::design::collection::ItemStore;
use crate::model::design::schema::KeySchema;
use crate::model::text::cell::cell_text;

/// Loaded items whose index keys are read for completion, at most: each is decoded once, as
/// pages arrive, so a large store costs a bounded pause, never one per keystroke.
pub const LOADED_KEYS_LIMIT: usize = 50_000;

#[derive(Debug, Clone, Default)]
pub struct LoadedKeys {
    /// The keys read (`None` until the first update).
    pub keys: Option<KeySchema>,
    /// Items read so far, by id.
    pub scanned: usize,
    pub partition: BTreeSet<String>,
    /// Per partition-key value, the sort-key values seen with it.
    pub sort: BTreeMap<String, BTreeSet<String>>,
    /// On a multi-attribute key: each loaded item's key values, every attribute in key-schema
    /// order (partition first); an item missing one is not in the index.
    pub rows: BTreeSet<Vec<String>>,
}

impl LoadedKeys {
    /// Reads `keys`' attributes from the items `store` gained since the last call (all of
    /// them when the keys changed or the store is another one).
    pub fn update(&mut self, store: &ItemStore, keys: &KeySchema) {
        if self.keys.as_ref() != Some(keys) || store.stored() < self.scanned {
            *self = LoadedKeys {
                keys: Some(keys.clone()),
                ..LoadedKeys::default()
            };
        }
        let end = store.stored().min(LOADED_KEYS_LIMIT);
        for id in self.scanned..end {
            let item = store.item(id as u32);
            if keys.is_multi_attribute() {
                let row: Option<Vec<String>> = keys
                    .attributes()
                    .map(|k| item.get(&k.name).map(cell_text))
                    .collect();
                self.rows.extend(row);
                continue;
            }
            let Some(pk) = item.get(&keys.partition_key().name).map(cell_text) else {
                continue;
            };
            let sk = keys
                .sort_key()
                .and_then(|k| item.get(&k.name))
                .map(cell_text);
            if let Some(sk) = sk {
                self.sort.entry(pk.clone()).or_default().insert(sk);
            }
            self.partition.insert(pk);
        }
        self.scanned = self.scanned.max(end);
    }
}
