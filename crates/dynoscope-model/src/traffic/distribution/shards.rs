//! Write-sharded key families (`STATUS#PENDING#0`..`#9`) and how evenly they spread.
//!
//! A write shard and a sequential id look alike (`shard#7`, `e#7`); what tells them apart is
//! the family: shards are a handful of numbers from 0 or 1, all of them used, carrying similar
//! traffic, while ids run on into the thousands (`e#1`..`e#1000`) or are zero-padded for
//! growth (`USER#00042`). A prefix with any suffix beyond the shard range is ids as a whole:
//! its first hundred are not shards either.

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;

use super::counting::{KeyDistribution, KeyTotals};
use crate::design::entity::SEPARATORS;
use crate::text::sanitize::sanitize;

/// A write-sharded key fans every read out into one Query per shard, so designs keep the
/// count small; a family of more members (or a suffix range wider than this) is ids.
pub const MAX_SHARDS: u32 = 100;
/// Shard suffixes have at most this many digits (`#7`, `#07`, `#100`); a wider one (`#2026`,
/// `#00042`) is a year, a timestamp or an id, and makes its whole prefix ids.
pub const MAX_SHARD_SUFFIX_DIGITS: usize = 3;
/// A family needs siblings: one `ORDER#7` is an order, not a shard.
pub const MIN_SHARDS: usize = 2;
/// Shard numbers come from `hash % N` (from 0) or are 1-based; ids that happen to be small
/// rarely start there.
pub const MAX_FIRST_SHARD: u32 = 1;
/// The suffixes seen must cover at least half of the range from the first to the last: a scan
/// of a sharded key sees most shards, while unrelated numbers (`X#0`, `X#50`) are sparse.
pub const MIN_SHARD_DENSITY: f64 = 0.5;
/// Shards carry comparable traffic: at least this share of the members hold between half and
/// twice the median member's items. One hot shard among even ones still passes (it is the
/// finding); counts spread over orders of magnitude, as ids' collections are, do not.
pub const MIN_COMPARABLE_SHARE: f64 = 0.5;

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
    /// The fullest shard's key (raw text); the lowest suffix wins a tie.
    pub hottest_shard: String,
}

impl ShardFamily {
    /// `STATUS#PENDING#{0..9}`, sanitised for a message.
    pub fn label(&self) -> String {
        format!(
            "{}{{{}..{}}}",
            sanitize(&self.prefix),
            self.lowest_suffix,
            self.highest_suffix
        )
    }

    /// `1..20` for a family `1..10`: twice the shards, from the same first suffix.
    pub fn doubled_range(&self) -> String {
        let span = self.highest_suffix - self.lowest_suffix + 1;
        format!(
            "{}..{}",
            self.lowest_suffix,
            self.lowest_suffix + 2 * span - 1
        )
    }
}

/// What a key ending in a separator and digits says about its prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Suffix {
    /// A number in the shard range (`#7`, `#07`, `#100`).
    Small(u32),
    /// A number no shard has (`#2026`, `#00042`, `#101`).
    Beyond,
}

/// Splits `STATUS#PENDING#7` into (`STATUS#PENDING#`, 7) when the key ends in a separator and
/// digits with something before the separator.
fn shard_suffix(key: &str) -> Option<(&str, Suffix)> {
    let at = key.rfind(SEPARATORS)?;
    // Every separator is one byte.
    let (prefix, digits) = key.split_at(at + 1);
    if prefix.len() < 2 || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let small = digits.len() <= MAX_SHARD_SUFFIX_DIGITS;
    Some(match digits.parse::<u32>() {
        Ok(n) if small && n < MAX_FIRST_SHARD + MAX_SHARDS => (prefix, Suffix::Small(n)),
        _ => (prefix, Suffix::Beyond),
    })
}

/// The family among `families` that `key` is a shard of.
pub fn shard_of<'f>(families: &'f [ShardFamily], key: &str) -> Option<&'f ShardFamily> {
    let (prefix, Suffix::Small(n)) = shard_suffix(key)? else {
        return None;
    };
    families
        .iter()
        .find(|f| f.prefix == prefix && (f.lowest_suffix..=f.highest_suffix).contains(&n))
}

/// The keys under one prefix so far: candidate shards, or ids once one of them shows it.
enum Members<'k> {
    Shards(Vec<(u32, &'k str, KeyTotals)>),
    Ids,
}

impl KeyDistribution {
    /// Write-sharded key families (see [`ShardFamily`] and the rules above), most items first.
    pub fn shard_families(&self) -> Vec<ShardFamily> {
        let mut groups: HashMap<&str, Members> = HashMap::new();
        for (key, totals) in &self.keys {
            let Some((prefix, suffix)) = shard_suffix(key) else {
                continue;
            };
            let members = groups
                .entry(prefix)
                .or_insert_with(|| Members::Shards(Vec::new()));
            if let (Members::Shards(shards), Suffix::Small(n)) = (&mut *members, suffix) {
                // Kept bounded: a million ids under one prefix stop here at 101.
                if shards.len() < MAX_SHARDS as usize {
                    shards.push((n, key, *totals));
                    continue;
                }
            }
            *members = Members::Ids;
        }
        let mut families: Vec<ShardFamily> = groups
            .into_iter()
            .filter_map(|(prefix, members)| match members {
                Members::Shards(shards) => family(prefix, &shards),
                Members::Ids => None,
            })
            .collect();
        families.sort_by(|a, b| b.items.cmp(&a.items).then_with(|| a.prefix.cmp(&b.prefix)));
        families
    }
}

/// Whether most of `items` (one count per member) are within a factor of 2 of their median.
fn comparable(items: &[u64]) -> bool {
    let mut sorted = items.to_vec();
    sorted.sort_unstable();
    let Some(&median) = sorted.get(sorted.len().saturating_sub(1) / 2) else {
        return false;
    };
    let near = sorted
        .iter()
        .filter(|&&n| 2 * n >= median && n <= 2 * median)
        .count();
    near as f64 >= MIN_COMPARABLE_SHARE * sorted.len() as f64
}

/// A [`ShardFamily`] when `shards` (suffix number, key, totals) look like write sharding.
fn family(prefix: &str, shards: &[(u32, &str, KeyTotals)]) -> Option<ShardFamily> {
    let suffixes: BTreeSet<u32> = shards.iter().map(|(n, _, _)| *n).collect();
    let (&lowest, &highest) = (suffixes.first()?, suffixes.last()?);
    let span = highest - lowest + 1;
    let counts: Vec<u64> = shards.iter().map(|(_, _, t)| t.items).collect();
    if suffixes.len() < MIN_SHARDS
        || lowest > MAX_FIRST_SHARD
        || span > MAX_SHARDS
        || (suffixes.len() as f64) < f64::from(span) * MIN_SHARD_DENSITY
        || !comparable(&counts)
    {
        return None;
    }
    let items: u64 = counts.iter().sum();
    let bytes: u64 = shards.iter().map(|(_, _, t)| t.bytes).sum();
    let min_items = *counts.iter().min()?;
    let (_, hottest, max_totals) = shards.iter().max_by(|a, b| {
        a.2.items
            .cmp(&b.2.items)
            .then(b.0.cmp(&a.0))
            .then(b.1.cmp(a.1))
    })?;
    let max_items = max_totals.items;
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
        hottest_shard: (*hottest).to_owned(),
    })
}

#[cfg(test)]
#[path = "shards_tests.rs"]
mod tests;
