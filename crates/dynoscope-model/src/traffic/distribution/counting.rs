//! Items and bytes per partition-key value, counted as a scan streams in.

// hashbrown's foldhash: the map is probed once per item read, and with SipHash `add` was a
// tenth of `hotkeys --export`'s profile.
use hashbrown::HashMap;

use super::bounded::{Approximation, Bound, DistinctSketch};

/// Items at 75% of the 400 KB item limit: an update that grows them (appending to a list is
/// the usual way) will soon fail, and each read of one costs 38+ RCU at eventual consistency.
pub const LARGE_ITEM_BYTES: usize = 300 * 1024;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct KeyTotals {
    pub(super) items: u64,
    pub(super) bytes: u64,
}

/// Items and bytes per partition-key value, built one item at a time.
#[derive(Debug, Clone, Default)]
pub struct KeyDistribution {
    pub(super) keys: HashMap<String, KeyTotals>,
    pub(super) total_items: u64,
    pub(super) total_bytes: u64,
    /// Size and key of the largest item; the first one seen wins a tie.
    pub(super) largest_item: Option<(usize, String)>,
    pub(super) large_items: u64,
    /// Fixed memory past a number of distinct keys (see [`super::bounded`]).
    pub(super) bound: Option<Bound>,
}

impl KeyDistribution {
    pub fn new() -> Self {
        Self::default()
    }

    /// Exact up to `max_keys` distinct keys; past them, the `max_keys` heaviest are kept with
    /// a stated error bound and distinct keys are estimated (see [`super::bounded`]).
    pub fn bounded(max_keys: usize) -> Self {
        KeyDistribution {
            bound: Some(Bound::new(max_keys)),
            ..Self::default()
        }
    }

    /// Counts one item with partition-key text `key` and DynamoDB size `bytes`.
    pub fn add(&mut self, key: &str, bytes: usize) {
        if let Some(sketch) = self.bound.as_mut().and_then(|b| b.sketch.as_mut()) {
            sketch.add(key);
        }
        // One probe for a key seen before (nearly every item of a big read); the key is
        // copied only the first time it is seen.
        match self.keys.get_mut(key) {
            Some(totals) => {
                totals.items += 1;
                totals.bytes += bytes as u64;
            }
            None => self.insert(key, bytes),
        }
        self.total_items += 1;
        self.total_bytes += bytes as u64;
        if bytes >= LARGE_ITEM_BYTES {
            self.large_items += 1;
        }
        if self
            .largest_item
            .as_ref()
            .is_none_or(|(max, _)| bytes > *max)
        {
            self.largest_item = Some((bytes, key.to_owned()));
        }
    }

    /// A key not in the map: room is made when the bound is reached, and it starts at what it
    /// may have had before it was dropped.
    fn insert(&mut self, key: &str, bytes: usize) {
        if let Some(bound) = &mut self.bound {
            if self.keys.len() >= bound.max_keys {
                if bound.sketch.is_none() {
                    let mut sketch = DistinctSketch::default();
                    for k in self.keys.keys() {
                        sketch.add(k);
                    }
                    sketch.add(key);
                    bound.sketch = Some(sketch);
                }
                bound.prune(&mut self.keys);
            }
        }
        let floor = self.bound.as_ref().map_or(0, |b| b.floor);
        self.keys.insert(
            key.to_owned(),
            KeyTotals {
                items: floor + 1,
                bytes: bytes as u64,
            },
        );
    }

    pub fn distinct_keys(&self) -> usize {
        match self.bound.as_ref().and_then(|b| b.sketch.as_ref()) {
            Some(sketch) => sketch.estimate() as usize,
            None => self.keys.len(),
        }
    }

    /// `Some` once the counts are approximate: their error bounds.
    pub fn approximation(&self) -> Option<Approximation> {
        self.bound.as_ref().and_then(Bound::approximation)
    }

    pub fn total_items(&self) -> u64 {
        self.total_items
    }

    pub fn total_bytes(&self) -> u64 {
        self.total_bytes
    }

    /// Items of [`LARGE_ITEM_BYTES`] or more.
    pub fn large_items(&self) -> u64 {
        self.large_items
    }

    /// Size and key of the largest item.
    pub fn largest_item(&self) -> Option<(usize, &str)> {
        self.largest_item.as_ref().map(|(b, k)| (*b, k.as_str()))
    }

    pub(super) fn entries(&self) -> Vec<(&str, KeyTotals)> {
        self.keys.iter().map(|(k, t)| (k.as_str(), *t)).collect()
    }
}
