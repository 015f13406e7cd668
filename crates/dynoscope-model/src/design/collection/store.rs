//! The store itself: per-item columns filled as pages arrive, and what the view asks of them.

use std::cmp::Ordering;

use hashbrown::{DefaultHashBuilder, HashTable};

use super::grouping::{infer_page_separator, Collection};
use super::sort_key::SortKeys;
use crate::design::entity::{KindRules, KindSource, SEPARATORS};
use crate::design::schema::KeySchema;
use crate::item::compact::CompactItems;
use crate::item::item_size::item_size;
use crate::item::value::Item;

/// Index of an item in the store, in arrival order.
pub type ItemId = u32;
/// Index of an interned entity kind name.
pub type KindId = u16;
/// Items kept per kind to name its key parts: enough to outvote a few odd items.
pub const KIND_SAMPLE: usize = 64;

/// Loaded items, grouped into collections by `group_keys` and decoded into entity kinds by the
/// table's own keys.
#[derive(Debug, Clone)]
pub struct ItemStore {
    pub(super) group_keys: KeySchema,
    pub(super) table_keys: KeySchema,
    /// `None` until the first non-empty page fixes it.
    pub(super) separator: Option<char>,
    /// The items themselves, compactly encoded; decoded one at a time when shown.
    pub(super) items: CompactItems,
    /// Per item: DynamoDB size (items are at most 400 KB, so `u32` is plenty).
    pub(super) sizes: Vec<u32>,
    /// Per item: entity kind.
    pub(super) kinds: Vec<Option<KindId>>,
    /// Per item: index of its collection.
    pub(super) homes: Vec<u32>,
    /// Per item: its group sort key, encoded for comparison.
    pub(super) sort_keys: SortKeys,
    pub(super) kind_names: Vec<String>,
    /// Looked up for every loaded item: foldhash, like the key table.
    pub(super) kind_ids: hashbrown::HashMap<String, KindId>,
    /// Per kind: number of loaded items of that kind.
    pub(super) kind_counts: Vec<usize>,
    /// Per kind: its first [`KIND_SAMPLE`] items, from every collection, which name the kind's
    /// key parts the same way across the table.
    pub(super) kind_samples: Vec<Vec<ItemId>>,
    /// How an item's kind is decided (configured patterns and attribute, library attributes,
    /// keys); its table-wide choices are settled by the first non-empty page.
    pub(super) kind_rules: KindRules,
    pub(super) collections: Vec<Collection>,
    /// Collection indexes by partition-key text, each stored with its key's hash: growing the
    /// table then moves 16-byte entries and never re-reads or re-hashes a key. (A map of
    /// `String`s re-hashed every key on each doubling, a 30 ms stall at 100,000 collections,
    /// and kept a second copy of every key.)
    pub(super) by_key: HashTable<(u64, u32)>,
    pub(super) key_hasher: DefaultHashBuilder,
    /// The `(no <name>)` collection, kept apart so a real key spelled the same never merges
    /// with it.
    pub(super) missing: Option<usize>,
    /// The collection `by_key` last answered, tried before the map.
    pub(super) last_keyed: Option<usize>,
    pub(super) total_bytes: usize,
    /// Items taken out by writes (see `edit.rs`): still stored, no longer listed.
    pub(super) removed: usize,
}

impl ItemStore {
    /// `group_keys`: keys whose partition key groups items and whose sort key orders them (the
    /// table's, or the queried index's). `table_keys`: the table's own keys, used to decode
    /// entity kinds (via [`item_kind`](crate::design::entity::item_kind)).
    pub fn new(group_keys: KeySchema, table_keys: KeySchema) -> Self {
        ItemStore {
            group_keys,
            table_keys,
            separator: None,
            items: CompactItems::default(),
            sizes: Vec::new(),
            kinds: Vec::new(),
            homes: Vec::new(),
            sort_keys: SortKeys::default(),
            kind_names: Vec::new(),
            kind_ids: hashbrown::HashMap::new(),
            kind_counts: Vec::new(),
            kind_samples: Vec::new(),
            kind_rules: KindRules::default(),
            collections: Vec::new(),
            by_key: HashTable::new(),
            key_hasher: DefaultHashBuilder::default(),
            missing: None,
            last_keyed: None,
            total_bytes: 0,
            removed: 0,
        }
    }

    /// The same store deciding kinds by `rules` (configured patterns and entity attribute).
    pub fn with_kind_rules(mut self, rules: KindRules) -> Self {
        self.kind_rules = rules;
        self
    }

    /// Adds one page. The entity separator is inferred (over the table's PK and SK string
    /// values) from the first non-empty page and then fixed, so kinds never change under the
    /// user.
    ///
    /// # Panics
    ///
    /// If the store would hold more than `u32::MAX` items.
    pub fn extend(&mut self, items: Vec<Item>) {
        if items.is_empty() {
            return;
        }
        let separator = self.settle_separator(&items);
        let end = self.items.len() + items.len();
        assert!(
            end <= ItemId::MAX as usize,
            "the item store holds at most {} items",
            ItemId::MAX
        );
        self.items.reserve(items.len());
        self.sizes.reserve(items.len());
        self.kinds.reserve(items.len());
        self.homes.reserve(items.len());
        self.sort_keys.ends.reserve(items.len());

        // Taken out for the loop so a kind borrowed from it can be interned into `self`.
        let rules = std::mem::take(&mut self.kind_rules);
        // Items that arrived before the last item of their collection: (collection, id).
        let mut late: Vec<(u32, ItemId)> = Vec::new();
        for item in items {
            let id = self.items.len() as ItemId;
            let size = item_size(&item);
            let kind = rules
                .kind(
                    &item,
                    &self.table_keys.partition_key().name,
                    self.table_keys.sort_key().map(|k| k.name.as_str()),
                    separator,
                )
                .and_then(|(name, _)| self.intern_kind(name));
            let home = self.home_of(&item);
            let sort = self.group_keys.sort();
            if sort.len() > 1 {
                let values: Vec<_> = sort.iter().map(|k| item.get(&k.name)).collect();
                self.sort_keys.push_tuple(&values);
            } else {
                self.sort_keys
                    .push(sort.first().and_then(|key| item.get(&key.name)));
            }
            self.items.push(&item);
            self.sizes.push(u32::try_from(size).unwrap_or(u32::MAX));
            self.kinds.push(kind);
            self.homes.push(home as u32);
            self.total_bytes += size;

            let collection = &mut self.collections[home];
            collection.bytes += size;
            if let Some(kind) = kind {
                self.kind_counts[usize::from(kind)] += 1;
                collection.count_kind(kind);
                let sample = &mut self.kind_samples[usize::from(kind)];
                if sample.len() < KIND_SAMPLE {
                    sample.push(id);
                }
            }
            match collection.items.last() {
                Some(&last) if self.sort_keys.order(last, id) == Ordering::Greater => {
                    late.push((home as u32, id));
                }
                _ => collection.items.push(id),
            }
        }
        self.kind_rules = rules;
        if !late.is_empty() {
            self.merge_late(late);
        }
    }

    /// The separator, inferred from `page` if no earlier page fixed it (an empty page fixes
    /// nothing). Call before [`ItemStore::extend`] to decode the page the way the store will.
    pub fn settle_separator(&mut self, page: &[Item]) -> char {
        match self.separator {
            Some(separator) => separator,
            None if page.is_empty() => self.separator(),
            None => {
                let separator = infer_page_separator(page, &self.table_keys);
                self.separator = Some(separator);
                self.kind_rules.settle(page);
                separator
            }
        }
    }

    /// Where the (decoded) item's kind came from, as the item detail says it.
    pub fn kind_source(&self, item: &Item) -> Option<String> {
        self.decide_kind(item).map(|(_, source)| source.describe())
    }

    /// The kind rules applied to `item` with this table's keys and separator.
    fn decide_kind<'a>(&'a self, item: &'a Item) -> Option<(&'a str, KindSource<'a>)> {
        self.kind_rules.kind(
            item,
            &self.table_keys.partition_key().name,
            self.table_keys.sort_key().map(|k| k.name.as_str()),
            self.separator(),
        )
    }

    /// The attribute that named this (decoded) item's kind, when an attribute did: its column
    /// would only repeat the kind column.
    pub fn kind_attribute<'a>(&'a self, item: &'a Item) -> Option<&'a str> {
        match self.decide_kind(item) {
            Some((_, KindSource::Attribute(name))) => Some(name),
            _ => None,
        }
    }

    /// The kind's first items (up to [`KIND_SAMPLE`]), in arrival order, from every collection.
    pub fn kind_sample(&self, kind: KindId) -> &[ItemId] {
        &self.kind_samples[usize::from(kind)]
    }

    /// Every kind's name, by kind id.
    pub fn kind_names(&self) -> impl Iterator<Item = &str> {
        self.kind_names.iter().map(String::as_str)
    }

    /// The kind of this name, if any loaded item has it.
    pub fn kind_id(&self, name: &str) -> Option<KindId> {
        self.kind_ids.get(name).copied()
    }

    /// Items stored, listed or not (see `remove`): ids run from 0 to this.
    pub fn stored(&self) -> usize {
        self.items.len()
    }

    /// Items listed in collections.
    pub fn len(&self) -> usize {
        self.items.len() - self.removed
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// # Panics
    ///
    /// If `id` is not an id of this store (likewise for the other per-item accessors).
    /// The item, decoded from compact storage: call it for what is shown, not in bulk.
    pub fn item(&self, id: ItemId) -> Item {
        self.items.get(id as usize)
    }

    /// DynamoDB size of the item, computed once at insert.
    pub fn item_size(&self, id: ItemId) -> usize {
        self.sizes[id as usize] as usize
    }

    /// Entity kind of the item, decoded once at insert.
    pub fn kind_of(&self, id: ItemId) -> Option<&str> {
        self.kind_id_of(id).map(|kind| self.kind_name(kind))
    }

    /// The kind as an id, for cheap comparison and counting; `None` when the item has no kind
    /// (or, in a pathological table, when more than 65,535 distinct kinds were seen).
    pub fn kind_id_of(&self, id: ItemId) -> Option<KindId> {
        self.kinds[id as usize]
    }

    pub fn kind_name(&self, kind: KindId) -> &str {
        &self.kind_names[usize::from(kind)]
    }

    /// Index into [`ItemStore::collections`] of the item's collection.
    pub fn collection_of_item(&self, id: ItemId) -> usize {
        self.homes[id as usize] as usize
    }

    /// Collections in first-seen order.
    pub fn collections(&self) -> &[Collection] {
        &self.collections
    }

    /// Index of the collection with this display key. A real partition-key value spelled like
    /// `(no <name>)` wins over the collection of items missing the key.
    pub fn collection_of(&self, key: &str) -> Option<usize> {
        if let Some(index) = self.keyed(key) {
            return Some(index);
        }
        self.missing
            .filter(|&index| self.collections[index].key == key)
    }

    /// Table-wide kinds and their counts among loaded items, most common first (ties by name).
    pub fn kinds_summary(&self) -> Vec<(&str, usize)> {
        let mut summary: Vec<(&str, usize)> = self
            .kind_names
            .iter()
            .zip(&self.kind_counts)
            .filter(|(_, &count)| count > 0)
            .map(|(name, &count)| (name.as_str(), count))
            .collect();
        summary.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        summary
    }

    /// The entity separator: `#` until inferred from the first non-empty page.
    pub fn separator(&self) -> char {
        self.separator.unwrap_or(SEPARATORS[0])
    }

    pub fn group_keys(&self) -> &KeySchema {
        &self.group_keys
    }

    pub fn table_keys(&self) -> &KeySchema {
        &self.table_keys
    }

    /// Sum of the sizes of all loaded items.
    pub fn total_bytes(&self) -> usize {
        self.total_bytes
    }
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
