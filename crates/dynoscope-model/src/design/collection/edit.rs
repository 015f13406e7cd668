//! Written items updated in place: a write's new image joins its collection (in sort-key
//! order, as a late item would) and the old image leaves it. Ids stay stable: the new image
//! gets a new id, and the old one is no longer listed anywhere.

use super::grouping::tuple_key;
use super::store::{ItemId, ItemStore};
use crate::item::value::Item;

impl ItemStore {
    /// The loaded item with the same table key as `image` (found in `image`'s collection).
    pub fn find(&self, image: &Item) -> Option<ItemId> {
        let same_key = |id: ItemId| {
            let item = self.item(id);
            self.table_keys
                .names()
                .iter()
                .all(|k| item.get(k) == image.get(k))
        };
        // The collection key as grouping made it: on a multi-attribute index the tuple of
        // every partition value, not the first attribute's value.
        let home = match tuple_key(image, &self.group_keys) {
            Some(key) => self.collection_of(&key),
            None => self.missing,
        }?;
        self.collections[home]
            .items
            .iter()
            .copied()
            .find(|&id| same_key(id))
    }

    /// Takes item `id` out of its collection and the counts; returns whether it was listed.
    pub fn remove(&mut self, id: ItemId) -> bool {
        let home = self.homes[id as usize] as usize;
        let collection = &mut self.collections[home];
        let Some(at) = collection.items.iter().position(|&x| x == id) else {
            return false;
        };
        collection.items.remove(at);
        let size = self.sizes[id as usize] as usize;
        collection.bytes = collection.bytes.saturating_sub(size);
        self.total_bytes = self.total_bytes.saturating_sub(size);
        if let Some(kind) = self.kinds[id as usize] {
            self.kind_counts[usize::from(kind)] -= 1;
            if let Some(entry) = collection.kinds.iter_mut().find(|(k, _)| *k == kind) {
                entry.1 = entry.1.saturating_sub(1);
            }
            collection.kinds.retain(|(_, n)| *n > 0);
        }
        self.removed += 1;
        true
    }

    /// Adds a written item; returns its id.
    pub fn insert_written(&mut self, item: Item) -> ItemId {
        self.extend(vec![item]);
        (self.items.len() - 1) as ItemId
    }
}
