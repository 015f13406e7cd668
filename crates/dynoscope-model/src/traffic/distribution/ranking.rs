//! The hottest keys, by items or by bytes, and how item counts spread over keys.

use std::cmp::Ordering;

use serde::Serialize;

use super::counting::{KeyDistribution, KeyTotals};
use crate::text::wording::share;

/// "The top 1% of keys" is at least one key.
const TOP_FRACTION: f64 = 0.01;

/// One partition-key value with its totals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyEntry {
    /// Raw key text (unsanitised; sanitise before printing to a terminal).
    pub key: String,
    pub items: u64,
    pub bytes: u64,
    /// `items / total_items`.
    pub share: f64,
}

/// Keys whose item count falls in `min_items..=max_items` (`None`: no upper bound).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct HistogramBucket {
    pub label: &'static str,
    pub min_items: u64,
    pub max_items: Option<u64>,
    pub keys: u64,
    pub items: u64,
}

const BUCKETS: [(&str, u64, Option<u64>); 5] = [
    ("1", 1, Some(1)),
    ("2-9", 2, Some(9)),
    ("10-99", 10, Some(99)),
    ("100-999", 100, Some(999)),
    ("1000+", 1000, None),
];

pub(super) fn by_items(a: &(&str, KeyTotals), b: &(&str, KeyTotals)) -> Ordering {
    b.1.items
        .cmp(&a.1.items)
        .then(b.1.bytes.cmp(&a.1.bytes))
        .then(a.0.cmp(b.0))
}

pub(super) fn by_bytes(a: &(&str, KeyTotals), b: &(&str, KeyTotals)) -> Ordering {
    b.1.bytes
        .cmp(&a.1.bytes)
        .then(b.1.items.cmp(&a.1.items))
        .then(a.0.cmp(b.0))
}

impl KeyDistribution {
    fn ranked(
        &self,
        k: usize,
        cmp: fn(&(&str, KeyTotals), &(&str, KeyTotals)) -> Ordering,
    ) -> Vec<KeyEntry> {
        let mut entries = self.entries();
        if k == 0 {
            return Vec::new();
        }
        if k < entries.len() {
            entries.select_nth_unstable_by(k - 1, cmp);
            entries.truncate(k);
        }
        entries.sort_unstable_by(cmp);
        entries
            .into_iter()
            .map(|(key, t)| KeyEntry {
                key: key.to_owned(),
                items: t.items,
                bytes: t.bytes,
                share: share(t.items, self.total_items),
            })
            .collect()
    }

    /// The `k` keys with the most items; ties by bytes (more first), then by key text.
    pub fn top(&self, k: usize) -> Vec<KeyEntry> {
        self.ranked(k, by_items)
    }

    /// The `k` keys with the most bytes; ties by items (more first), then by key text.
    pub fn top_by_bytes(&self, k: usize) -> Vec<KeyEntry> {
        self.ranked(k, by_bytes)
    }

    /// Share of all items held by the top 1% of keys (at least one key); 0 when empty.
    pub fn top_one_percent_share(&self) -> f64 {
        let n = ((self.keys.len() as f64 * TOP_FRACTION).ceil() as usize).max(1);
        let items: u64 = self.top(n).iter().map(|e| e.items).sum();
        share(items, self.total_items)
    }

    /// Keys by item count: 1, 2–9, 10–99, 100–999, 1000+.
    pub fn histogram(&self) -> Vec<HistogramBucket> {
        let mut buckets: Vec<HistogramBucket> = BUCKETS
            .iter()
            .map(|&(label, min_items, max_items)| HistogramBucket {
                label,
                min_items,
                max_items,
                keys: 0,
                items: 0,
            })
            .collect();
        for t in self.keys.values() {
            if let Some(b) = buckets.iter_mut().rev().find(|b| t.items >= b.min_items) {
                b.keys += 1;
                b.items += t.items;
            }
        }
        buckets
    }
}

#[cfg(test)]
#[path = "ranking_tests.rs"]
mod tests;
