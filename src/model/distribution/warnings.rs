//! The documented limits a distribution comes close to, each as a one-line finding that names
//! its rule, its numbers and the keys.

use serde::Serialize;

use super::counting::{ratio, KeyDistribution, KeyTotals, LARGE_ITEM_BYTES};
use super::ranking::by_bytes;
use crate::model::item_size::MAX_ITEM_BYTES;
use crate::model::sanitize::sanitize;
use crate::model::schema::IndexKind;

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
    /// An item collection near the 10 GB limit of tables with an LSI.
    ItemCollectionSize,
    /// Items near the 400 KB item limit.
    ItemSize,
}

impl Rule {
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::LowCardinality => "low-cardinality",
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

fn gib(bytes: u64) -> String {
    format!("{:.1} GB", bytes as f64 / (1024.0 * 1024.0 * 1024.0))
}

impl KeyDistribution {
    /// Findings, each naming its rule and numbers: see [`Rule`] and the thresholds above.
    pub fn warnings(&self, context: &WarningContext) -> Vec<Warning> {
        let mut out = Vec::new();
        out.extend(self.low_cardinality(context));
        out.extend(self.item_collection_size(context));
        out.extend(self.item_size());
        out
    }

    fn low_cardinality(&self, context: &WarningContext) -> Option<Warning> {
        let top = self.top(1).into_iter().next()?;
        let few_keys = self.keys.len() <= LOW_CARDINALITY_MAX_KEYS
            && self.total_items >= LOW_CARDINALITY_MIN_ITEMS;
        let hot_key = top.share >= HOT_KEY_SHARE && self.total_items >= HOT_KEY_MIN_ITEMS;
        if !few_keys && !hot_key {
            return None;
        }
        let what = match context.source {
            Source::Index {
                kind: IndexKind::Gsi,
                ..
            } => "the classic hot GSI: every write that sets one value lands on one index partition (about 1,000 WCU/s), and a throttled GSI throttles writes to the table",
            _ => "all reads and writes of one value land on one partition (about 3,000 RCU/s and 1,000 WCU/s)",
        };
        Some(Warning {
            rule: Rule::LowCardinality,
            message: format!(
                "low-cardinality: {} has {} distinct values for {} items and '{}' alone holds {} items ({:.1}%) (rule: at most {} values for {}+ items, or one value with {:.0}%+ of {}+ items); {what}; add a write-shard suffix or use a higher-cardinality key",
                context.subject(),
                self.keys.len(),
                self.total_items,
                sanitize(&top.key),
                top.items,
                top.share * 100.0,
                LOW_CARDINALITY_MAX_KEYS,
                LOW_CARDINALITY_MIN_ITEMS,
                HOT_KEY_SHARE * 100.0,
                HOT_KEY_MIN_ITEMS,
            ),
        })
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
                    ratio(t.bytes, ITEM_COLLECTION_LIMIT_BYTES) * 100.0
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
                ratio(LARGE_ITEM_BYTES as u64, MAX_ITEM_BYTES as u64) * 100.0,
                MAX_ITEM_BYTES / 1024,
                ratio(bytes as u64, MAX_ITEM_BYTES as u64) * 100.0,
                sanitize(key),
            ),
        })
    }
}

#[cfg(test)]
#[path = "warnings_tests.rs"]
mod tests;
