//! Marked items: picked one by one or in bulk, across collections, for export, copy and
//! delete. Item ids never change while the store lives, so marks survive paging and filtering;
//! a new read replaces the store and clears them.

use std::collections::BTreeSet;

use crate::model::design::collection::{ItemId, ItemStore};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    ids: BTreeSet<ItemId>,
}

impl Marks {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    pub fn contains(&self, id: ItemId) -> bool {
        self.ids.contains(&id)
    }

    /// Marks `id`, or unmarks it if it was marked; returns whether it is marked now.
    pub fn toggle(&mut self, id: ItemId) -> bool {
        if self.ids.remove(&id) {
            false
        } else {
            self.ids.insert(id);
            true
        }
    }

    pub fn insert(&mut self, id: ItemId) {
        self.ids.insert(id);
    }

    pub fn remove(&mut self, id: ItemId) {
        self.ids.remove(&id);
    }

    /// Every one of `ids` marked, or (when all of them already were) every one unmarked.
    pub fn toggle_all(&mut self, ids: &[ItemId]) {
        if ids.iter().all(|id| self.ids.contains(id)) {
            for id in ids {
                self.ids.remove(id);
            }
        } else {
            self.ids.extend(ids.iter().copied());
        }
    }

    /// Flips the mark of each of `ids`.
    pub fn invert(&mut self, ids: &[ItemId]) {
        for &id in ids {
            self.toggle(id);
        }
    }

    pub fn clear(&mut self) {
        self.ids.clear();
    }

    /// A written item took a new id: its mark moves with it.
    pub fn replace(&mut self, old: ItemId, new: ItemId) {
        if self.ids.remove(&old) {
            self.ids.insert(new);
        }
    }

    /// Marked ids in the order the views list them: collection by collection, each in
    /// sort-key order.
    pub fn in_view_order(&self, store: &ItemStore) -> Vec<ItemId> {
        if self.ids.is_empty() {
            return Vec::new();
        }
        let mut homes: Vec<usize> = self
            .ids
            .iter()
            .map(|&id| store.collection_of_item(id))
            .collect();
        homes.sort_unstable();
        homes.dedup();
        homes
            .into_iter()
            .flat_map(|c| store.collections()[c].items.iter().copied())
            .filter(|id| self.ids.contains(id))
            .collect()
    }

    /// How many of `ids` are marked.
    pub fn count_in(&self, ids: &[ItemId]) -> usize {
        ids.iter().filter(|id| self.ids.contains(id)).count()
    }
}
