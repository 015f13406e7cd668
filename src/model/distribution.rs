//! Partition-key distribution of a scanned table or index, for hot-partition triage.
//!
//! DynamoDB spreads a table (and each GSI) over partitions by hashing the partition key, and one
//! partition serves at most 3,000 read and 1,000 write units per second. A key that holds a large
//! share of the items (and so, usually, of the traffic), or an index key with only a handful of
//! values, concentrates load on one partition whatever the table's total capacity is.
//! [`KeyDistribution`] counts items and bytes per partition-key value as a scan streams in and
//! answers the triage questions: which keys are hottest, how concentrated the load is, whether
//! write sharding (`STATUS#PENDING#0`..`#9`) actually spreads it, and which documented limits
//! are close.
//!
//! Pure: callers feed it the key text (S as is, N as its text, B as base64) and the DynamoDB
//! item size of every item.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use crate::model::entity::SEPARATORS;
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
/// Items at 75% of the 400 KB item limit: an update that grows them (appending to a list is
/// the usual way) will soon fail, and each read of one costs 38+ RCU at eventual consistency.
pub const LARGE_ITEM_BYTES: usize = 300 * 1024;
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
/// "The top 1% of keys" is at least one key.
const TOP_FRACTION: f64 = 0.01;
/// Keys named in one item-collection warning before "and N more".
const MAX_KEYS_IN_WARNING: usize = 3;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct KeyTotals {
    items: u64,
    bytes: u64,
}

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

/// Items and bytes per partition-key value, built one item at a time.
#[derive(Debug, Clone, Default)]
pub struct KeyDistribution {
    keys: HashMap<String, KeyTotals>,
    total_items: u64,
    total_bytes: u64,
    /// Size and key of the largest item; the first one seen wins a tie.
    largest_item: Option<(usize, String)>,
    large_items: u64,
}

fn by_items(a: &(&str, KeyTotals), b: &(&str, KeyTotals)) -> Ordering {
    b.1.items
        .cmp(&a.1.items)
        .then(b.1.bytes.cmp(&a.1.bytes))
        .then(a.0.cmp(b.0))
}

fn by_bytes(a: &(&str, KeyTotals), b: &(&str, KeyTotals)) -> Ordering {
    b.1.bytes
        .cmp(&a.1.bytes)
        .then(b.1.items.cmp(&a.1.items))
        .then(a.0.cmp(b.0))
}

fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GB", bytes as f64 / (1024.0 * 1024.0 * 1024.0))
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
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts one item with partition-key text `key` and DynamoDB size `bytes`.
    pub fn add(&mut self, key: &str, bytes: usize) {
        let totals = match self.keys.get_mut(key) {
            Some(t) => t,
            None => self.keys.entry(key.to_owned()).or_default(),
        };
        totals.items += 1;
        totals.bytes += bytes as u64;
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

    pub fn distinct_keys(&self) -> usize {
        self.keys.len()
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

    fn entries(&self) -> Vec<(&str, KeyTotals)> {
        self.keys.iter().map(|(k, t)| (k.as_str(), *t)).collect()
    }

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
                share: ratio(t.items, self.total_items),
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
        ratio(items, self.total_items)
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
mod tests {
    use super::*;

    /// A distribution from (key, items, bytes per item).
    fn dist(keys: &[(&str, u64, usize)]) -> KeyDistribution {
        let mut d = KeyDistribution::new();
        for &(key, items, bytes) in keys {
            for _ in 0..items {
                d.add(key, bytes);
            }
        }
        d
    }

    fn numbered(prefix: &str, count: usize, items: u64) -> Vec<(String, u64, usize)> {
        (0..count)
            .map(|i| (format!("{prefix}{i:05}"), items, 10))
            .collect()
    }

    fn owned(keys: &[(String, u64, usize)]) -> KeyDistribution {
        let borrowed: Vec<(&str, u64, usize)> =
            keys.iter().map(|(k, i, b)| (k.as_str(), *i, *b)).collect();
        dist(&borrowed)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    const GSI1: WarningContext = WarningContext {
        table: "app",
        source: Source::Index {
            name: "GSI1",
            kind: IndexKind::Gsi,
        },
        partition_key: "GSI1PK",
        table_has_lsi: true,
    };
    const TABLE: WarningContext = WarningContext {
        table: "app",
        source: Source::Table,
        partition_key: "PK",
        table_has_lsi: true,
    };

    /// (key, items, bytes per item)
    type Keys<'a> = Vec<(&'a str, u64, usize)>;
    type OwnedKeys = Vec<(String, u64, usize)>;
    /// (prefix, shards, items, min items, max items)
    type FamilySummary<'a> = (&'a str, usize, u64, u64, u64);
    /// (large items, largest item bytes)
    type LargeItems = Option<(u64, usize)>;

    #[test]
    fn totals_and_shares() {
        let d = dist(&[("A", 3, 10), ("B", 1, 100), ("C", 6, 1)]);
        assert_eq!(d.distinct_keys(), 3);
        assert_eq!(d.total_items(), 10);
        assert_eq!(d.total_bytes(), 30 + 100 + 6);
        let top: Vec<(String, u64, u64, f64)> = d
            .top(10)
            .into_iter()
            .map(|e| (e.key, e.items, e.bytes, e.share))
            .collect();
        assert_eq!(
            top,
            vec![
                ("C".to_string(), 6, 6, 0.6),
                ("A".to_string(), 3, 30, 0.3),
                ("B".to_string(), 1, 100, 0.1)
            ]
        );
        assert_eq!(d.top_by_bytes(2).len(), 2);
        let keys: Vec<String> = d.top_by_bytes(3).into_iter().map(|e| e.key).collect();
        assert_eq!(keys, ["B", "A", "C"]);
        assert!(d.top(0).is_empty());
        assert!(KeyDistribution::new().top(3).is_empty());
        assert_eq!(KeyDistribution::new().top_one_percent_share(), 0.0);
    }

    #[test]
    fn ties_break_by_bytes_then_key() {
        let cases: Vec<(&str, Keys, Vec<&str>, Vec<&str>)> = vec![
            (
                "equal items: more bytes first",
                vec![("a", 2, 1), ("b", 2, 5), ("c", 2, 3)],
                vec!["b", "c", "a"],
                vec!["b", "c", "a"],
            ),
            (
                "equal items and bytes: key order",
                vec![("z", 2, 4), ("m", 2, 4), ("a", 2, 4)],
                vec!["a", "m", "z"],
                vec!["a", "m", "z"],
            ),
            (
                "by bytes: equal bytes, more items first",
                vec![("x", 1, 8), ("y", 2, 4), ("w", 4, 2)],
                vec!["w", "y", "x"],
                vec!["w", "y", "x"],
            ),
            (
                "by bytes differs from by items",
                vec![("few-big", 1, 1000), ("many-small", 5, 1)],
                vec!["many-small", "few-big"],
                vec!["few-big", "many-small"],
            ),
        ];
        for (name, keys, want_items, want_bytes) in cases {
            let d = dist(&keys);
            let got: Vec<String> = d.top(10).into_iter().map(|e| e.key).collect();
            assert_eq!(got, want_items, "{name}: top");
            let got: Vec<String> = d.top_by_bytes(10).into_iter().map(|e| e.key).collect();
            assert_eq!(got, want_bytes, "{name}: top_by_bytes");
            // A partial top agrees with the prefix of the full ranking.
            for k in 1..keys.len() {
                let got: Vec<String> = d.top(k).into_iter().map(|e| e.key).collect();
                assert_eq!(got, want_items[..k], "{name}: top({k})");
            }
        }
    }

    #[test]
    fn top_one_percent_share() {
        let mut many = numbered("USER#", 199, 1);
        many.push(("USER#celebrity".into(), 101, 10));
        let mut two_hot = numbered("K#", 150, 2);
        two_hot.push(("HOT1".into(), 50, 1));
        two_hot.push(("HOT2".into(), 50, 1));
        let cases: Vec<(&str, KeyDistribution, f64)> = vec![
            ("one key holds everything", dist(&[("A", 7, 1)]), 1.0),
            (
                "fewer than 100 keys: the top key",
                dist(&[("A", 5, 1), ("B", 3, 1), ("C", 2, 1)]),
                0.5,
            ),
            ("200 keys: the top 2", owned(&many), 102.0 / 300.0),
            // 152 keys: ceil(1.52) = 2 keys
            ("rounds up", owned(&two_hot), 100.0 / 400.0),
            ("uniform", owned(&numbered("K#", 100, 3)), 3.0 / 300.0),
        ];
        for (name, d, want) in cases {
            let got = d.top_one_percent_share();
            assert!(close(got, want), "{name}: {got} != {want}");
        }
    }

    #[test]
    fn histogram_buckets() {
        let d = dist(&[
            ("a", 1, 1),
            ("b", 1, 1),
            ("c", 2, 1),
            ("d", 9, 1),
            ("e", 10, 1),
            ("f", 99, 1),
            ("g", 100, 1),
            ("h", 1000, 1),
            ("i", 1001, 1),
        ]);
        let got: Vec<(&str, u64, u64)> = d
            .histogram()
            .iter()
            .map(|b| (b.label, b.keys, b.items))
            .collect();
        assert_eq!(
            got,
            vec![
                ("1", 2, 2),
                ("2-9", 2, 11),
                ("10-99", 2, 109),
                ("100-999", 1, 100),
                ("1000+", 2, 2001),
            ]
        );
        assert!(KeyDistribution::new()
            .histogram()
            .iter()
            .all(|b| b.keys == 0));
    }

    #[test]
    fn shard_families() {
        fn pending(n: u32, items: u64) -> (String, u64, usize) {
            (format!("STATUS#PENDING#{n}"), items, 10)
        }
        let ten: Vec<(String, u64, usize)> =
            (0..10).map(|n| pending(n, 5 + u64::from(n))).collect();
        // (name, keys, expected (prefix, shards, items, min, max))
        let cases: Vec<(&str, OwnedKeys, Vec<FamilySummary>)> = vec![
            (
                "ten pending shards",
                ten.clone(),
                vec![("STATUS#PENDING#", 10, 95, 5, 14)],
            ),
            (
                "shards beside unsharded keys",
                ten.iter()
                    .cloned()
                    .chain([
                        ("STATUS#SHIPPED".to_string(), 40, 10),
                        ("USER#u00042".to_string(), 3, 10),
                    ])
                    .collect(),
                vec![("STATUS#PENDING#", 10, 95, 5, 14)],
            ),
            (
                "pipe and colon separators, 1-based, zero-padded",
                vec![
                    ("tenant|acme|1".into(), 4, 1),
                    ("tenant|acme|2".into(), 4, 1),
                    ("tenant|acme|3".into(), 4, 1),
                    ("counter:01".into(), 1, 1),
                    ("counter:02".into(), 3, 1),
                ],
                vec![("tenant|acme|", 3, 12, 4, 4), ("counter:", 2, 4, 1, 3)],
            ),
            ("one key is no family", vec![pending(0, 9)], vec![]),
            (
                "years are not shards",
                vec![
                    ("ORDER#2025".into(), 5, 1),
                    ("ORDER#2026".into(), 5, 1),
                    ("ORDER#2027".into(), 5, 1),
                ],
                vec![],
            ),
            (
                "a lone number under a prefix",
                vec![("ORDER#2026#7".into(), 5, 1), ("ORDER#2026".into(), 5, 1)],
                vec![],
            ),
            (
                "must start at 0 or 1",
                vec![
                    ("X#5".into(), 1, 1),
                    ("X#6".into(), 1, 1),
                    ("X#7".into(), 1, 1),
                ],
                vec![],
            ),
            (
                "too sparse",
                vec![("X#0".into(), 1, 1), ("X#50".into(), 1, 1)],
                vec![],
            ),
            (
                "nothing before the separator, or non-numeric suffixes",
                vec![
                    ("#0".into(), 1, 1),
                    ("#1".into(), 1, 1),
                    ("USER#u1".into(), 1, 1),
                    ("USER#u2".into(), 1, 1),
                    ("A#1x".into(), 1, 1),
                    ("A#2x".into(), 1, 1),
                    ("A#".into(), 1, 1),
                ],
                vec![],
            ),
            (
                "dense with a gap is still a family",
                vec![
                    ("S#0".into(), 2, 1),
                    ("S#1".into(), 2, 1),
                    ("S#3".into(), 2, 1),
                ],
                vec![("S#", 3, 6, 2, 2)],
            ),
        ];
        for (name, keys, want) in cases {
            let got: Vec<(String, usize, u64, u64, u64)> = owned(&keys)
                .shard_families()
                .into_iter()
                .map(|f| (f.prefix, f.shards, f.items, f.min_items, f.max_items))
                .collect();
            let want: Vec<(String, usize, u64, u64, u64)> = want
                .into_iter()
                .map(|(p, s, i, lo, hi)| (p.to_string(), s, i, lo, hi))
                .collect();
            assert_eq!(got, want, "{name}");
        }
    }

    #[test]
    fn shard_spread() {
        let d = dist(&[("H#0", 1, 1), ("H#1", 1, 1), ("H#2", 4, 1)]);
        let f = &d.shard_families()[0];
        assert_eq!((f.lowest_suffix, f.highest_suffix), (0, 2));
        assert!(close(f.mean_items, 2.0), "{f:?}");
        assert!(close(f.skew, 2.0), "{f:?}");
        let even = dist(&[("H#1", 3, 1), ("H#2", 3, 1)]);
        assert!(close(even.shard_families()[0].skew, 1.0));
    }

    fn rules(d: &KeyDistribution, context: &WarningContext) -> Vec<Rule> {
        d.warnings(context).into_iter().map(|w| w.rule).collect()
    }

    #[test]
    fn healthy_distribution_has_no_warnings() {
        let d = owned(&numbered("USER#", 5000, 3));
        assert_eq!(rules(&d, &TABLE), vec![]);
        assert_eq!(rules(&d, &GSI1), vec![]);
        let mut bad = numbered("STATUS#", 3, 400);
        bad.push(("BIG".into(), 1, 350 * 1024));
        assert_eq!(
            rules(&owned(&bad), &GSI1),
            vec![Rule::LowCardinality, Rule::ItemSize]
        );
    }

    #[test]
    fn low_cardinality_rule() {
        let mut statuses: Vec<(String, u64, usize)> = ["SHIPPED", "DELIVERED", "CANCELLED"]
            .iter()
            .map(|s| (format!("STATUS#{s}"), 160, 100))
            .collect();
        statuses.extend((0..10).map(|n| (format!("STATUS#PENDING#{n}"), 4, 100)));
        let mut celebrity = numbered("USER#", 1000, 2);
        celebrity.push(("USER#celebrity".into(), 250, 100));
        let mut mild = numbered("USER#", 1000, 2);
        mild.push(("USER#celebrity".into(), 150, 100));
        let cases: Vec<(&str, KeyDistribution, WarningContext, bool)> = vec![
            ("13 statuses for 520 items", owned(&statuses), GSI1, true),
            ("the same on the table", owned(&statuses), TABLE, true),
            (
                "few keys but few items",
                dist(&[("A", 30, 1), ("B", 30, 1), ("C", 30, 1)]),
                GSI1,
                false,
            ),
            (
                "one key with 11% of 2250 items",
                owned(&celebrity),
                TABLE,
                true,
            ),
            ("one key with 7% of 2150 items", owned(&mild), TABLE, false),
            (
                "many even keys",
                owned(&numbered("K#", 600, 1)),
                GSI1,
                false,
            ),
            ("empty", KeyDistribution::new(), GSI1, false),
            (
                "20 even keys for 600 items",
                owned(&numbered("CATEGORY#", 20, 30)),
                GSI1,
                true,
            ),
            (
                "21 even keys for 630 items",
                owned(&numbered("CATEGORY#", 21, 30)),
                GSI1,
                false,
            ),
            (
                "20 even keys for 480 items",
                owned(&numbered("CATEGORY#", 20, 24)),
                GSI1,
                false,
            ),
        ];
        for (name, d, context, want) in cases {
            let warnings: Vec<Warning> = d
                .warnings(&context)
                .into_iter()
                .filter(|w| w.rule == Rule::LowCardinality)
                .collect();
            assert_eq!(warnings.len(), usize::from(want), "{name}: {warnings:?}");
            if let Some(w) = warnings.first() {
                let top = d.top(1).remove(0);
                assert!(
                    w.message.starts_with("low-cardinality: "),
                    "{name}: {}",
                    w.message
                );
                assert!(
                    w.message.contains(&format!("'{}'", top.key)),
                    "{name}: {}",
                    w.message
                );
                assert!(
                    w.message
                        .contains(&format!("{} distinct values", d.distinct_keys())),
                    "{name}: {}",
                    w.message
                );
                assert!(
                    w.message
                        .contains(&format!("for {} items", d.total_items())),
                    "{name}: {}",
                    w.message
                );
                match context.source {
                    Source::Index { .. } => {
                        assert!(w.message.contains("GSI 'GSI1'"), "{}", w.message);
                        assert!(w.message.contains("hot GSI"), "{}", w.message);
                    }
                    Source::Table => assert!(w.message.contains("table 'app'"), "{}", w.message),
                }
            }
        }
    }

    #[test]
    fn item_collection_rule() {
        const GIB: usize = 1024 * 1024 * 1024;
        let lsi = WarningContext {
            source: Source::Index {
                name: "LSI1",
                kind: IndexKind::Lsi,
            },
            ..TABLE
        };
        let no_lsi = WarningContext {
            table_has_lsi: false,
            ..TABLE
        };
        let big = || dist(&[("USER#big", 9, GIB), ("USER#small", 1, 10)]);
        let cases: Vec<(&str, KeyDistribution, WarningContext, bool)> = vec![
            ("9 GB on a table with an LSI", big(), TABLE, true),
            ("scanning the LSI", big(), lsi, true),
            ("no LSI: no limit", big(), no_lsi, false),
            ("a GSI key has no such limit", big(), GSI1, false),
            ("7 GB", dist(&[("USER#big", 7, GIB)]), TABLE, false),
            // 80% of 10 GiB is exactly 8 GiB
            ("exactly 80%", dist(&[("USER#big", 8, GIB)]), TABLE, true),
        ];
        for (name, d, context, want) in cases {
            let warnings: Vec<Warning> = d
                .warnings(&context)
                .into_iter()
                .filter(|w| w.rule == Rule::ItemCollectionSize)
                .collect();
            assert_eq!(warnings.len(), usize::from(want), "{name}: {warnings:?}");
            if let Some(w) = warnings.first() {
                assert!(
                    w.message.starts_with("item-collection-size: "),
                    "{}",
                    w.message
                );
                assert!(w.message.contains("'USER#big'"), "{}", w.message);
                assert!(w.message.contains("10.0 GB"), "{}", w.message);
                assert!(!w.message.contains("USER#small"), "{}", w.message);
            }
        }
        let w = &big().warnings(&TABLE)[..];
        assert!(
            w.iter().any(|w| w.message.contains("9.0 GB (90.0%)")),
            "{w:?}"
        );
    }

    #[test]
    fn item_size_rule() {
        let cases: Vec<(&str, Vec<usize>, LargeItems)> = vec![
            ("small items", vec![100, 2000, 299 * 1024], None),
            (
                "exactly 300 KB",
                vec![100, 300 * 1024],
                Some((1, 300 * 1024)),
            ),
            (
                "two large, largest wins",
                vec![390_000, 100, 310 * 1024, 5],
                Some((2, 390_000)),
            ),
            ("empty", vec![], None),
        ];
        for (name, sizes, want) in cases {
            let mut d = KeyDistribution::new();
            for (i, size) in sizes.iter().enumerate() {
                d.add(&format!("K#{i}"), *size);
            }
            let warnings: Vec<Warning> = d
                .warnings(&GSI1)
                .into_iter()
                .filter(|w| w.rule == Rule::ItemSize)
                .collect();
            match want {
                None => assert!(warnings.is_empty(), "{name}: {warnings:?}"),
                Some((count, largest)) => {
                    assert_eq!(d.large_items(), count, "{name}");
                    assert_eq!(d.largest_item().unwrap().0, largest, "{name}");
                    let m = &warnings[0].message;
                    assert!(
                        m.starts_with(&format!("item-size: {count} item(s) are 300 KB or more")),
                        "{name}: {m}"
                    );
                    assert!(
                        m.contains(&format!("the largest is {largest} bytes")),
                        "{name}: {m}"
                    );
                    assert!(m.contains("400 KB"), "{name}: {m}");
                }
            }
        }
        let hostile = dist(&[("K\u{1b}[2J", 1, 320 * 1024)]);
        let m = &hostile.warnings(&GSI1)[0].message;
        assert!(!m.contains('\u{1b}') && m.contains("\\x1b"), "{m}");
    }

    #[test]
    fn warnings_serialise_with_kebab_case_rules() {
        let w = Warning {
            rule: Rule::ItemCollectionSize,
            message: "m".into(),
        };
        assert_eq!(
            serde_json::to_string(&w).unwrap(),
            r#"{"rule":"item-collection-size","message":"m"}"#
        );
        for rule in [
            Rule::LowCardinality,
            Rule::ItemCollectionSize,
            Rule::ItemSize,
        ] {
            assert_eq!(
                serde_json::to_value(rule).unwrap(),
                serde_json::Value::String(rule.as_str().into())
            );
        }
    }
}
