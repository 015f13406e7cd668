//! The order the collections list shows: first seen, by key in DynamoDB's order, by item
//! count or by bytes. Kept as a permutation of the store's collection positions and updated
//! per page from what the page touched (new collections, counts that grew), never re-sorted
//! per frame: a page costs O(n) copying plus O(k log k) for the k collections it touched.

use std::cmp::Ordering;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use super::grouping::TUPLE_SEPARATOR;
use super::merge::merge_into_sorted;
use super::ordering::dynamo_cmp;
use super::store::{ItemId, ItemStore};
use crate::design::schema::KeyType;
use crate::item::value::AttrValue;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CollectionOrder {
    #[default]
    FirstSeen,
    /// DynamoDB's order of the partition-key values (numbers numerically).
    Key,
    /// Most items first; ties in first-seen order.
    Items,
    /// Most bytes first; ties in first-seen order.
    Bytes,
}

impl CollectionOrder {
    pub fn next(self) -> CollectionOrder {
        match self {
            CollectionOrder::FirstSeen => CollectionOrder::Key,
            CollectionOrder::Key => CollectionOrder::Items,
            CollectionOrder::Items => CollectionOrder::Bytes,
            CollectionOrder::Bytes => CollectionOrder::FirstSeen,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            CollectionOrder::FirstSeen => "first seen",
            CollectionOrder::Key => "key",
            CollectionOrder::Items => "items",
            CollectionOrder::Bytes => "bytes",
        }
    }
}

/// The collections in display order.
#[derive(Debug, Clone, Default)]
pub struct DisplayOrder {
    order: CollectionOrder,
    /// Collection positions in display order; empty in first-seen order.
    permutation: Vec<u32>,
    /// Collections the permutation holds (the store's first ones).
    covered: usize,
    /// Items of the store when the permutation was last brought up to date.
    items_seen: usize,
}

impl DisplayOrder {
    /// An order for an empty store.
    pub fn new(order: CollectionOrder) -> Self {
        DisplayOrder {
            order,
            ..DisplayOrder::default()
        }
    }

    pub fn order(&self) -> CollectionOrder {
        self.order
    }

    /// Position in the store's collections of the `n`-th shown; `len` is how many there are.
    pub fn at(&self, n: usize, len: usize) -> Option<usize> {
        match self.order {
            CollectionOrder::FirstSeen => (n < len).then_some(n),
            _ => self.permutation.get(n).map(|&c| c as usize),
        }
    }

    /// Where collection `c` is shown: O(n), for keeping the cursor on it.
    pub fn position_of(&self, c: usize) -> Option<usize> {
        match self.order {
            CollectionOrder::FirstSeen => Some(c),
            _ => self.permutation.iter().position(|&p| p as usize == c),
        }
    }

    /// Switches to `order`, sorting everything once.
    pub fn set(&mut self, order: CollectionOrder, store: &ItemStore) {
        self.order = order;
        self.permutation.clear();
        self.covered = 0;
        self.items_seen = store.len();
        if order == CollectionOrder::FirstSeen {
            return;
        }
        let mut all: Vec<u32> = (0..store.collections().len() as u32).collect();
        sort(&mut all, order, store);
        self.permutation = all;
        self.covered = store.collections().len();
    }

    /// Brings the order up to date with pages added to `store` since the last call.
    pub fn refresh(&mut self, store: &ItemStore) {
        if self.order == CollectionOrder::FirstSeen || store.len() < self.items_seen {
            self.items_seen = store.len();
            if self.order != CollectionOrder::FirstSeen {
                self.set(self.order, store);
            }
            return;
        }
        let total = store.collections().len();
        let mut touched: Vec<u32> = (self.covered..total).map(|c| c as u32).collect();
        if self.order != CollectionOrder::Key {
            // Counts and sizes only grow: collections that got items move towards the front.
            let mut grown: Vec<u32> = (self.items_seen..store.len())
                .map(|id| store.collection_of_item(id as ItemId) as u32)
                .filter(|&c| (c as usize) < self.covered)
                .collect();
            grown.sort_unstable();
            grown.dedup();
            if !grown.is_empty() {
                let mut moving = vec![false; self.covered];
                for &c in &grown {
                    moving[c as usize] = true;
                }
                self.permutation.retain(|&c| !moving[c as usize]);
                touched.extend(grown);
            }
        }
        self.items_seen = store.len();
        self.covered = total;
        if touched.is_empty() {
            return;
        }
        let order = self.order;
        merge_into_sorted(&mut self.permutation, &mut touched, |a, b| {
            compare(order, store, a, b)
        });
    }
}

fn sort(list: &mut [u32], order: CollectionOrder, store: &ItemStore) {
    match order {
        CollectionOrder::Items | CollectionOrder::Bytes => {
            // Sorting plain numbers is several times faster than chasing each collection.
            let mut keyed: Vec<(std::cmp::Reverse<u64>, u32)> = list
                .iter()
                .map(|&c| (std::cmp::Reverse(weight(order, store, c)), c))
                .collect();
            keyed.sort_unstable();
            for (slot, (_, c)) in list.iter_mut().zip(keyed) {
                *slot = c;
            }
        }
        // A tuple's bytes are not its order when a later part is not a string.
        CollectionOrder::Key
            if store.group_keys().partition().len() == 1
                && store.group_keys().partition_key().key_type == KeyType::S =>
        {
            // String keys by bytes: their first 16 bytes as one big-endian number decide most
            // comparisons without touching the keys (263,000 keys: 57 ms through the keys,
            // a fraction of that this way); equal prefixes compare the whole keys.
            let mut keyed: Vec<(u128, u32)> = list
                .iter()
                .map(|&c| (prefix(&store.collections()[c as usize].key), c))
                .collect();
            keyed.sort_unstable_by(|a, b| {
                a.0.cmp(&b.0).then_with(|| compare(order, store, a.1, b.1))
            });
            for (slot, (_, c)) in list.iter_mut().zip(keyed) {
                *slot = c;
            }
        }
        _ => list.sort_unstable_by(|&a, &b| compare(order, store, a, b)),
    }
}

/// The first 16 bytes of `key` as a big-endian number (zeros after a shorter key): ordering
/// these orders the keys, up to ties.
fn prefix(key: &str) -> u128 {
    let mut bytes = [0u8; 16];
    let n = key.len().min(16);
    bytes[..n].copy_from_slice(&key.as_bytes()[..n]);
    u128::from_be_bytes(bytes)
}

fn weight(order: CollectionOrder, store: &ItemStore, c: u32) -> u64 {
    let collection = &store.collections()[c as usize];
    match order {
        CollectionOrder::Bytes => collection.bytes as u64,
        _ => collection.items.len() as u64,
    }
}

/// A total order (ties by first-seen position), so unstable sorts are deterministic.
fn compare(order: CollectionOrder, store: &ItemStore, a: u32, b: u32) -> Ordering {
    let by = match order {
        CollectionOrder::FirstSeen => Ordering::Equal,
        CollectionOrder::Items | CollectionOrder::Bytes => {
            weight(order, store, b).cmp(&weight(order, store, a))
        }
        CollectionOrder::Key => {
            let (x, y) = (
                &store.collections()[a as usize].key,
                &store.collections()[b as usize].key,
            );
            let types: Vec<KeyType> = store
                .group_keys()
                .partition()
                .iter()
                .map(|k| k.key_type)
                .collect();
            compare_key(x, y, &types)
        }
    };
    by.then(a.cmp(&b))
}

/// Two collection keys as DynamoDB orders their values: a multi-attribute key's tuple
/// (`9 · EU`) part by part, each by its attribute's type. A key that does not split into
/// one part per attribute (the missing-key collection) compares by its bytes.
fn compare_key(x: &str, y: &str, types: &[KeyType]) -> Ordering {
    let parts = |key: &'_ str| -> Vec<String> {
        key.splitn(types.len(), TUPLE_SEPARATOR)
            .map(str::to_string)
            .collect()
    };
    let (xs, ys) = (parts(x), parts(y));
    if xs.len() != types.len() || ys.len() != types.len() {
        return x.as_bytes().cmp(y.as_bytes());
    }
    for ((x, y), key_type) in xs.iter().zip(&ys).zip(types) {
        let ord = match key_type {
            KeyType::S => x.as_bytes().cmp(y.as_bytes()),
            KeyType::N => dynamo_cmp(&AttrValue::N(x.clone()), &AttrValue::N(y.clone())),
            KeyType::B => match (BASE64.decode(x), BASE64.decode(y)) {
                (Ok(x), Ok(y)) => x.cmp(&y),
                _ => x.cmp(y),
            },
        };
        if ord.is_ne() {
            return ord;
        }
    }
    Ordering::Equal
}

#[cfg(test)]
#[path = "display_order_tests.rs"]
mod tests;
