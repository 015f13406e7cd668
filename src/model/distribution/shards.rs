//! Write-sharded key families (`STATUS#PENDING#0`..`#9`) and how evenly they spread.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::counting::{KeyDistribution, KeyTotals};
use crate::model::entity::SEPARATORS;

/// Write-shard suffixes are small numbers: a thousand shards already makes every read fan out
/// a thousand Queries. Four digits and more are years, ids and timestamps (`ORDER#2026`).
pub const MAX_SHARD_SUFFIX_DIGITS: usize = 3;
/// A family needs siblings: one `ORDER#7` is an order, not a shard.
pub const MIN_SHARDS: usize = 2;
/// Shard numbers come from `hash % N` (from 0) or are 1-based; ids that happen to be small
/// rarely start there.
pub const MAX_FIRST_SHARD: u32 = 1;
/// The suffixes seen must cover at least half of the range from the first to the last: a scan
/// of a sharded key sees most shards, while unrelated numbers (`X#0`, `X#50`) are sparse.
pub const MIN_SHARD_DENSITY: f64 = 0.5;

/// Write-sharded keys sharing a prefix: `STATUS#PENDING#0`..`STATUS#PENDING#9`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShardFamily {
    /// The shared prefix including its separator, e.g. `STATUS#PENDING#` (raw text).
    pub prefix: String,
    /// Shard keys seen; a shard with no items is not in the scan and not counted.
    pub shards: usize,
    pub lowest_suffix: u32,
    pub highest_suffix: u32,
    pub items: u64,
    pub bytes: u64,
    /// Items in the emptiest and fullest shard, and the mean per shard.
    pub min_items: u64,
    pub max_items: u64,
    pub mean_items: f64,
    /// `max_items / mean_items`: 1.0 is perfectly even; 2.0 means the hottest shard takes
    /// twice its fair share, so the sharding buys half of what it should.
    pub skew: f64,
}

/// Splits `STATUS#PENDING#7` into (`STATUS#PENDING#`, 7) when the key ends in a separator and
/// a small number with something before the separator.
fn shard_suffix(key: &str) -> Option<(&str, u32)> {
    let at = key.rfind(SEPARATORS)?;
    // Every separator is one byte.
    let (prefix, digits) = key.split_at(at + 1);
    if prefix.len() < 2
        || digits.is_empty()
        || digits.len() > MAX_SHARD_SUFFIX_DIGITS
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some((prefix, digits.parse().ok()?))
}

impl KeyDistribution {
    /// Write-sharded key families (see [`ShardFamily`]), most items first. A family needs at
    /// least [`MIN_SHARDS`] sibling keys whose suffixes start at 0 or 1 and are dense.
    pub fn shard_families(&self) -> Vec<ShardFamily> {
        let mut groups: BTreeMap<&str, Vec<(u32, KeyTotals)>> = BTreeMap::new();
        for (key, totals) in &self.keys {
            if let Some((prefix, n)) = shard_suffix(key) {
                groups.entry(prefix).or_default().push((n, *totals));
            }
        }
        let mut families: Vec<ShardFamily> = groups
            .into_iter()
            .filter_map(|(prefix, shards)| family(prefix, &shards))
            .collect();
        families.sort_by(|a, b| b.items.cmp(&a.items).then_with(|| a.prefix.cmp(&b.prefix)));
        families
    }
}

/// A [`ShardFamily`] when `shards` (suffix number, totals per key) look like write sharding.
fn family(prefix: &str, shards: &[(u32, KeyTotals)]) -> Option<ShardFamily> {
    let suffixes: BTreeSet<u32> = shards.iter().map(|(n, _)| *n).collect();
    let (&lowest, &highest) = (suffixes.first()?, suffixes.last()?);
    let span = f64::from(highest - lowest) + 1.0;
    if suffixes.len() < MIN_SHARDS
        || lowest > MAX_FIRST_SHARD
        || (suffixes.len() as f64) < span * MIN_SHARD_DENSITY
    {
        return None;
    }
    let items: u64 = shards.iter().map(|(_, t)| t.items).sum();
    let bytes: u64 = shards.iter().map(|(_, t)| t.bytes).sum();
    let min_items = shards.iter().map(|(_, t)| t.items).min()?;
    let max_items = shards.iter().map(|(_, t)| t.items).max()?;
    let mean_items = items as f64 / shards.len() as f64;
    Some(ShardFamily {
        prefix: prefix.to_owned(),
        shards: shards.len(),
        lowest_suffix: lowest,
        highest_suffix: highest,
        items,
        bytes,
        min_items,
        max_items,
        mean_items,
        skew: if mean_items > 0.0 {
            max_items as f64 / mean_items
        } else {
            0.0
        },
    })
}

#[cfg(test)]
#[path = "shards_tests.rs"]
mod tests;
