//! Which collection an item belongs to, and how a page's late items join their collections.

use std::hash::BuildHasher;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use super::merge::merge_into_sorted;
use super::store::{ItemId, ItemStore, KindId};
use crate::design::entity::infer_separator;
use crate::design::schema::KeySchema;
use crate::item::value::{AttrValue, Item};

/// All loaded items sharing one partition-key value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collection {
    /// The partition-key value as display text (raw, unsanitised): S as is, N as its text, B as
    /// base64; `(no <name>)` for items without the partition key.
    pub key: String,
    /// Item ids in sort-key order as DynamoDB orders them (see
    /// [`dynamo_cmp`](super::dynamo_cmp)). Items without the sort key come first; equal sort keys
    /// keep arrival order.
    pub items: Vec<ItemId>,
    /// Sum of the DynamoDB item sizes of its items.
    pub bytes: usize,
    /// Per-kind item counts in this collection, in the order the kinds were first seen here.
    pub kinds: Vec<(KindId, u32)>,
}

impl Collection {
    pub(super) fn new(key: String) -> Self {
        Collection {
            key,
            items: Vec::new(),
            bytes: 0,
            kinds: Vec::new(),
        }
    }

    pub(super) fn count_kind(&mut self, kind: KindId) {
        match self.kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, count)) => *count += 1,
            None => self.kinds.push((kind, 1)),
        }
    }
}

impl ItemStore {
    pub(super) fn intern_kind(&mut self, name: &str) -> Option<KindId> {
        if let Some(&kind) = self.kind_ids.get(name) {
            return Some(kind);
        }
        let kind = KindId::try_from(self.kind_names.len()).ok()?;
        self.kind_names.push(name.to_owned());
        self.kind_ids.insert(name.to_owned(), kind);
        self.kind_counts.push(0);
        self.kind_samples.push(Vec::new());
        Some(kind)
    }

    /// Index of the item's collection, created on first sight. On a multi-attribute index the
    /// collection is the tuple of partition values, in key-schema order (see [`tuple_key`]).
    pub(super) fn home_of(&mut self, item: &Item) -> usize {
        // One partition attribute (every table, most indexes): its S or N text is the key as
        // is, borrowed, as every item of every page comes through here.
        if let [only] = self.group_keys.partition() {
            if let Some(AttrValue::S(text) | AttrValue::N(text)) = item.get(&only.name) {
                return self.collection_for_key(text);
            }
        }
        match tuple_key(item, &self.group_keys) {
            Some(key) => self.collection_for_key(&key),
            // Key attributes are always S, N or B; anything else cannot group.
            None => match self.missing {
                Some(index) => index,
                None => {
                    let names: Vec<&str> = self
                        .group_keys
                        .partition()
                        .iter()
                        .map(|k| k.name.as_str())
                        .collect();
                    let key = format!("(no {})", names.join(" + "));
                    let index = self.add_collection(key);
                    self.missing = Some(index);
                    index
                }
            },
        }
    }

    fn collection_for_key(&mut self, key: &str) -> usize {
        // Pages hold collections contiguously, so the previous item's collection is the likely
        // one, and comparing with it is cheaper than hashing into a large map.
        if let Some(index) = self.last_keyed {
            if self.collections[index].key == key {
                return index;
            }
        }
        let index = match self.keyed(key) {
            Some(index) => index,
            None => {
                let index = self.add_collection(key.to_owned());
                let hash = self.key_hasher.hash_one(key);
                self.by_key
                    .insert_unique(hash, (hash, index as u32), |&(hash, _)| hash);
                index
            }
        };
        self.last_keyed = Some(index);
        index
    }

    /// The collection keyed by this partition-key text, if any (never the `(no <name>)` one).
    pub(super) fn keyed(&self, key: &str) -> Option<usize> {
        let hash = self.key_hasher.hash_one(key);
        self.by_key
            .find(hash, |&(h, index)| {
                h == hash && self.collections[index as usize].key == key
            })
            .map(|&(_, index)| index as usize)
    }

    fn add_collection(&mut self, key: String) -> usize {
        self.collections.push(Collection::new(key));
        self.collections.len() - 1
    }

    /// Merges the page's out-of-order items into their collections.
    pub(super) fn merge_late(&mut self, mut late: Vec<(u32, ItemId)>) {
        // Groups by collection; ids stay ascending within each group.
        late.sort_unstable();
        let sort_keys = &self.sort_keys;
        let mut extra: Vec<ItemId> = Vec::new();
        for group in late.chunk_by(|a, b| a.0 == b.0) {
            extra.clear();
            extra.extend(group.iter().map(|&(_, id)| id));
            let list = &mut self.collections[group[0].0 as usize].items;
            merge_into_sorted(list, &mut extra, |a, b| sort_keys.order(a, b));
        }
    }
}

/// Joins the values of a multi-attribute partition key in a collection's display text.
pub const TUPLE_SEPARATOR: &str = " · ";

/// The collection key of `item`: its partition value as display text (S as is, N as its text,
/// B as base64), the values of a multi-attribute partition key joined by [`TUPLE_SEPARATOR`] in
/// key-schema order (`WINTER2024 · EU-WEST`). `None` when a partition attribute is missing or
/// not a key type: DynamoDB keeps such an item out of the index.
pub fn tuple_key(item: &Item, keys: &KeySchema) -> Option<String> {
    let mut parts = Vec::with_capacity(keys.partition().len());
    for attr in keys.partition() {
        parts.push(match item.get(&attr.name)? {
            AttrValue::S(text) | AttrValue::N(text) => text.clone(),
            AttrValue::B(bytes) => BASE64.encode(bytes),
            _ => return None,
        });
    }
    Some(parts.join(TUPLE_SEPARATOR))
}

/// The separator over the table's PK and SK string values of one page.
pub(super) fn infer_page_separator(items: &[Item], table_keys: &KeySchema) -> char {
    let pk = table_keys.partition_key().name.as_str();
    let sk = table_keys.sort_key().map(|k| k.name.as_str());
    let values = items.iter().flat_map(|item| {
        std::iter::once(pk)
            .chain(sk)
            .filter_map(|name| item.get(name).and_then(AttrValue::as_s))
    });
    infer_separator(values)
}
