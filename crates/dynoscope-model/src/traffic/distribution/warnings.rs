//! The documented limits a distribution comes close to, each as a one-line finding that names
//! its rule, its numbers and the keys.

use serde::Serialize;

use super::counting::{KeyDistribution, KeyTotals, LARGE_ITEM_BYTES};
use super::ranking::{by_bytes, by_items, KeyEntry};
use super::shards::{shard_of, ShardFamily};
use crate::design::schema::IndexKind;
use crate::item::item_size::MAX_ITEM_BYTES;
use crate::text::sanitize::sanitize;
use crate::text::wording::share;

/// At most this many distinct values for [`LOW_CARDINALITY_MIN_ITEMS`] or more items: an index
/// whose partition key takes only ~20 values can never spread over more than ~20 partitions,
/// however large it grows, so its write rate is capped near 20 × 1,000 WCU/s and in practice
/// by its hottest value (the classic `status` GSI).
pub const LOW_CARDINALITY_MAX_KEYS: usize = 20;
/// Below this many items a handful of keys is normal for a small table, not a design problem.
pub const LOW_CARDINALITY_MIN_ITEMS: u64 = 500;
/// One value holding this share of the items is hot: if its traffic is in proportion, the
/// table needs only 10 × 1,000 WCU/s in total before that one value saturates its partition.
pub const HOT_KEY_SHARE: f64 = 0.10;
/// Below this many items any key is a large share (3 items: 33% each); shares mean nothing.
pub const HOT_KEY_MIN_ITEMS: u64 = 100;
/// A shard holding this multiple of its family's mean is hot: the sharding buys half of what
/// it should, and that shard's partition saturates first.
pub const HOT_SHARD_SKEW: f64 = 2.0;
/// Below this many items a shard on average, a random suffix's counts wobble (the fullest of
/// ten shards of 5 items often holds 10); at 20 a shard, twice the mean is 4.5 standard
/// deviations away.
pub const HOT_SHARD_MIN_MEAN_ITEMS: f64 = 20.0;
/// DynamoDB's item-collection limit, which exists only on tables with a local secondary index:
/// all items with one partition-key value plus their LSI entries may not exceed 10 GB.
pub const ITEM_COLLECTION_LIMIT_BYTES: u64 = 10 * 1024 * 1024 * 1024;
/// Warn at 80%: a collection that big usually belongs to a key that keeps growing, and writes
/// to it fail outright (ItemCollectionSizeLimitExceededException) once it is full.
pub const ITEM_COLLECTION_WARN_PERCENT: u64 = 80;

/// Keys named in one item-collection warning before "and N more".
const MAX_KEYS_IN_WARNING: usize = 3;

/// What was scanned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source<'a> {
    Table,
    Index { name: &'a str, kind: IndexKind },
}

/// What the warning rules need to know besides the counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarningContext<'a> {
    pub table: &'a str,
    pub source: Source<'a>,
    /// Name of the partition-key attribute that was counted.
    pub partition_key: &'a str,
    /// Only tables with an LSI have the 10 GB item-collection limit.
    pub table_has_lsi: bool,
}

impl WarningContext<'_> {
    fn subject(&self) -> String {
        match self.source {
            Source::Table => format!(
                "table '{}' (partition key {})",
                sanitize(self.table),
                sanitize(self.partition_key)
            ),
            Source::Index { name, kind } => format!(
                "{} '{}' of table '{}' (partition key {})",
                match kind {
                    IndexKind::Gsi => "GSI",
                    IndexKind::Lsi => "LSI",
                },
                sanitize(name),
                sanitize(self.table),
                sanitize(self.partition_key)
            ),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Few distinct values, or one value holding a large share of the items.
    LowCardinality,
    /// One shard of a write-sharded family holding much more than its share.
    HotShard,
    /// An item collection near the 10 GB limit of tables with an LSI.
    ItemCollectionSize,
    /// Items near the 400 KB item limit.
    ItemSize,
}

impl Rule {
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::LowCardinality => "low-cardinality",
            Rule::HotShard => "hot-shard",
            Rule::ItemCollectionSize => "item-collection-size",
            Rule::ItemSize => "item-size",
        }
    }
}

/// One finding; `message` names the rule, the numbers and the keys (sanitised), on one line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Warning {
    pub rule: Rule,
    pub message: String,
}

/// Whether one shard of `family` takes a disproportionate share (see [`HOT_SHARD_SKEW`]).
pub fn has_hot_shard(family: &ShardFamily) -> bool {
    family.mean_items >= HOT_SHARD_MIN_MEAN_ITEMS && family.skew >= HOT_SHARD_SKEW
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GB", bytes as f64 / (1024.0 * 1024.0 * 1024.0))
}

impl KeyDistribution {
    /// Findings, each naming its rule and numbers: see [`Rule`] and the thresholds above.
    pub fn warnings(&self, context: &WarningContext) -> Vec<Warning> {
        let families = self.shard_families();
        let mut out = Vec::new();
        out.extend(self.low_cardinality(context, &families));
        out.extend(
            families
                .iter()
                .filter(|f| has_hot_shard(f))
                .map(|f| self.hot_shard(context, f)),
        );
        out.extend(self.item_collection_size(context));
        out.extend(self.item_size());
        out
    }

    fn entry(&self, key: &str, totals: KeyTotals) -> KeyEntry {
        KeyEntry {
            key: key.to_owned(),
            items: totals.items,
            bytes: totals.bytes,
            share: share(totals.items, self.total_items),
        }
    }

    /// The few-values and hot-value rules. A key that is already one of a family of write
    /// shards is not told to add a suffix: an even family is told how to get more, and a
    /// family with a hot shard is left to [`Rule::HotShard`].
    fn low_cardinality(
        &self,
        context: &WarningContext,
        families: &[ShardFamily],
    ) -> Option<Warning> {
        let top = self.top(1).into_iter().next()?;
        let few_keys = self.keys.len() <= LOW_CARDINALITY_MAX_KEYS
            && self.total_items >= LOW_CARDINALITY_MIN_ITEMS;
        let hot = |e: &KeyEntry| e.share >= HOT_KEY_SHARE && self.total_items >= HOT_KEY_MIN_ITEMS;
        // The hottest key that a write-shard suffix would help.
        let top_plain = match shard_of(families, &top.key) {
            None => Some(top.clone()),
            Some(_) => self
                .entries()
                .into_iter()
                .filter(|(k, _)| shard_of(families, k).is_none())
                .min_by(by_items)
                .map(|(k, t)| self.entry(k, t)),
        };
        let rule = format!(
            "(rule: at most {} values for {}+ items, or one value with {:.0}%+ of {}+ items)",
            LOW_CARDINALITY_MAX_KEYS,
            LOW_CARDINALITY_MIN_ITEMS,
            HOT_KEY_SHARE * 100.0,
            HOT_KEY_MIN_ITEMS,
        );
        let subject = context.subject();
        let distinct = self.keys.len();
        let total = self.total_items;
        if let Some(plain) = top_plain.filter(|p| hot(p) || (few_keys && p.key == top.key)) {
            let what = match context.source {
                Source::Index {
                    kind: IndexKind::Gsi,
                    ..
                } => "the classic hot GSI: every write that sets one value lands on one index partition (about 1,000 WCU/s), and a throttled GSI throttles writes to the table",
                _ => "all reads and writes of one value land on one partition (about 3,000 RCU/s and 1,000 WCU/s)",
            };
            return Some(Warning {
                rule: Rule::LowCardinality,
                message: format!(
                    "low-cardinality: {subject} has {distinct} distinct values for {total} items and '{}' alone holds {} items ({:.1}%) {rule}; {what}; add a write-shard suffix or use a higher-cardinality key",
                    sanitize(&plain.key),
                    plain.items,
                    plain.share * 100.0,
                ),
            });
        }
        let family = shard_of(families, &top.key)?;
        if !(few_keys || hot(&top)) || has_hot_shard(family) {
            return None;
        }
        Some(Warning {
            rule: Rule::LowCardinality,
            message: format!(
                "low-cardinality: {subject} has {distinct} distinct values for {total} items and '{}' holds {} items ({:.1}%) {rule}; it is already write-sharded: '{}' spreads {} items ({:.1}%) evenly over {} shards (skew {:.2}), so their writes can reach about {} × 1,000 WCU/s; if they need more, add shards (widen the suffix range to {})",
                sanitize(&top.key),
                top.items,
                top.share * 100.0,
                family.label(),
                family.items,
                share(family.items, total) * 100.0,
                family.shards,
                family.skew,
                family.shards,
                family.doubled_range(),
            ),
        })
    }

    fn hot_shard(&self, context: &WarningContext, family: &ShardFamily) -> Warning {
        Warning {
            rule: Rule::HotShard,
            message: format!(
                "hot-shard: {} has write shards '{}' ({} shards, {} items) and '{}' holds {} of them ({:.1}%), {:.1}× the mean of {:.1} (rule: one shard with {:.0}×+ the mean, {:.0}+ items a shard on average); its partition takes that share of the family's writes while the other shards idle; pick the shard suffix evenly (a hash of a high-cardinality attribute, or at random) rather than adding shards",
                context.subject(),
                family.label(),
                family.shards,
                family.items,
                sanitize(&family.hottest_shard),
                family.max_items,
                share(family.max_items, family.items) * 100.0,
                family.skew,
                family.mean_items,
                HOT_SHARD_SKEW,
                HOT_SHARD_MIN_MEAN_ITEMS,
            ),
        }
    }

    fn item_collection_size(&self, context: &WarningContext) -> Option<Warning> {
        // The limit is per table partition-key value: it applies to the table and its LSIs
        // (which share that key), never to a GSI.
        let applies = context.table_has_lsi
            && matches!(
                context.source,
                Source::Table
                    | Source::Index {
                        kind: IndexKind::Lsi,
                        ..
                    }
            );
        if !applies {
            return None;
        }
        let threshold = ITEM_COLLECTION_LIMIT_BYTES * ITEM_COLLECTION_WARN_PERCENT / 100;
        let mut big: Vec<(&str, KeyTotals)> = self
            .entries()
            .into_iter()
            .filter(|(_, t)| t.bytes >= threshold)
            .collect();
        if big.is_empty() {
            return None;
        }
        big.sort_by(by_bytes);
        let named: Vec<String> = big
            .iter()
            .take(MAX_KEYS_IN_WARNING)
            .map(|(k, t)| {
                format!(
                    "'{}' {} ({:.1}%)",
                    sanitize(k),
                    gib(t.bytes),
                    share(t.bytes, ITEM_COLLECTION_LIMIT_BYTES) * 100.0
                )
            })
            .collect();
        let more = match big.len().saturating_sub(MAX_KEYS_IN_WARNING) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        let counted = match context.source {
            Source::Table => "table items only; the LSI entries add to this",
            _ => "index entries only; the table items add to this",
        };
        Some(Warning {
            rule: Rule::ItemCollectionSize,
            message: format!(
                "item-collection-size: {} has {} item collection(s) at {}%+ of the {} limit that applies to tables with a local secondary index: {}{more} ({counted}); once full, writes to that key fail with ItemCollectionSizeLimitExceededException",
                context.subject(),
                big.len(),
                ITEM_COLLECTION_WARN_PERCENT,
                gib(ITEM_COLLECTION_LIMIT_BYTES),
                named.join(", "),
            ),
        })
    }

    fn item_size(&self) -> Option<Warning> {
        if self.large_items == 0 {
            return None;
        }
        let (bytes, key) = self.largest_item()?;
        Some(Warning {
            rule: Rule::ItemSize,
            message: format!(
                "item-size: {} item(s) are {} KB or more (rule: {:.0}% of the {} KB item limit); the largest is {bytes} bytes ({:.1}% of the limit) under key '{}'; writes that grow them past {MAX_ITEM_BYTES} bytes fail",
                self.large_items,
                LARGE_ITEM_BYTES / 1024,
                share(LARGE_ITEM_BYTES as u64, MAX_ITEM_BYTES as u64) * 100.0,
                MAX_ITEM_BYTES / 1024,
                share(bytes as u64, MAX_ITEM_BYTES as u64) * 100.0,
                sanitize(key),
            ),
        })
    }
}

#[cfg(test)]
#[path = "warnings_tests.rs"]
mod tests;
