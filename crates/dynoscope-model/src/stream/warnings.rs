//! The hot-partition rules, applied to writes as the stream shows them.
//!
//! One partition takes at most 1,000 write units a second, whatever the table's capacity, and
//! a GSI's partitions the same (a throttled GSI throttles writes to its table). So the rules
//! name (1) a key taking a large share of the writes: if the traffic grows, that key saturates
//! its partition first; and (2) a key already writing near the per-partition limit.

use serde::Serialize;

use crate::text::sanitize::sanitize;
use crate::traffic::distribution::{has_hot_shard, ShardFamily, HOT_KEY_MIN_ITEMS, HOT_KEY_SHARE};

/// DynamoDB's per-partition write limit, in write units a second.
pub const PARTITION_WCU_PER_SECOND: f64 = 1000.0;
/// Warn at 80% of it: bursts above the measured rate will reach it.
pub const NEAR_LIMIT_SHARE: f64 = 0.8;
/// One key with this share of the writes is hot (the same rule as for items: see
/// [`crate::traffic::distribution::HOT_KEY_SHARE`]).
pub const HOT_WRITE_SHARE: f64 = HOT_KEY_SHARE;
/// Below this many writes any key is a large share; shares mean nothing.
pub const HOT_WRITE_MIN_EVENTS: u64 = HOT_KEY_MIN_ITEMS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WriteRule {
    /// One key took a large share of the writes.
    HotWriteKey,
    /// One key wrote near the per-partition limit.
    PartitionWriteLimit,
}

impl WriteRule {
    pub fn as_str(self) -> &'static str {
        match self {
            WriteRule::HotWriteKey => "hot-write-key",
            WriteRule::PartitionWriteLimit => "partition-write-limit",
        }
    }
}

/// One finding; `message` names the rule, the numbers and the key (sanitised), on one line.
/// Serialises like [`crate::traffic::distribution::Warning`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WriteWarning {
    pub rule: WriteRule,
    pub message: String,
    /// The same finding in a line short enough for the live pane: the key and its numbers
    /// first, where a narrow terminal still shows them. Not serialised.
    #[serde(skip)]
    pub short: String,
}

/// Whose partition key is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subject<'a> {
    pub table: &'a str,
    /// A GSI's name, or `None` for the table.
    pub index: Option<&'a str>,
    pub partition_key: &'a str,
}

impl Subject<'_> {
    /// `table PK` or `GSI1 (GSI1PK)`: whose partitions, in a few words.
    fn brief(&self) -> String {
        match self.index {
            None => format!("table {}", sanitize(self.partition_key)),
            Some(index) => format!("{} {}", sanitize(index), sanitize(self.partition_key)),
        }
    }

    fn describe(&self) -> String {
        match self.index {
            None => format!(
                "table '{}' (partition key {})",
                sanitize(self.table),
                sanitize(self.partition_key)
            ),
            Some(index) => format!(
                "GSI '{}' of table '{}' (partition key {})",
                sanitize(index),
                sanitize(self.table),
                sanitize(self.partition_key)
            ),
        }
    }
}

/// What to change about a busy `key`, in full and in a few words: a write-shard suffix, or,
/// for a key that is already a shard of `family`, more shards or an even spread of them.
fn advice(key: &str, family: Option<&ShardFamily>, unsharded: &str) -> (String, &'static str) {
    match family {
        None => (unsharded.to_owned(), "shard the key"),
        Some(f) if has_hot_shard(f) && f.hottest_shard == key => (
            format!(
                "it is the hot shard of the write shards '{}' ({} shards, skew {:.2}): pick the shard suffix evenly (a hash of a high-cardinality attribute, or at random) rather than adding shards",
                f.label(),
                f.shards,
                f.skew
            ),
            "spread its shards evenly",
        ),
        Some(f) => (
            format!(
                "it is already one of the {} write shards '{}' (skew {:.2}): add shards (widen the suffix range to {})",
                f.shards,
                f.label(),
                f.skew,
                f.doubled_range()
            ),
            "add shards",
        ),
    }
}

/// Rule 1: `key` took `events` of `total` writes `during` (e.g. "in the last 1 min");
/// `family` is the write-shard family `key` belongs to, when known.
pub fn hot_key(
    subject: Subject,
    key: &str,
    events: u64,
    total: u64,
    during: &str,
    family: Option<&ShardFamily>,
) -> Option<WriteWarning> {
    if total < HOT_WRITE_MIN_EVENTS || (events as f64) < HOT_WRITE_SHARE * total as f64 {
        return None;
    }
    let share = events as f64 * 100.0 / total as f64;
    let (advice, short) = advice(
        key,
        family,
        "add a write-shard suffix or spread the writes over more keys",
    );
    Some(WriteWarning {
        rule: WriteRule::HotWriteKey,
        short: format!(
            "hot-write-key '{}' ({}): {share:.1}% of {total} writes {during}, one partition takes at most {} WCU/s; {short}",
            sanitize(key),
            subject.brief(),
            PARTITION_WCU_PER_SECOND,
        ),
        message: format!(
            "hot-write-key: {} took {events} of {total} writes ({:.1}%) {during} under key '{}' (rule: one key with {:.0}%+ of {}+ writes); they all land on one partition, which takes at most {} WCU/s; {advice}",
            subject.describe(),
            share,
            sanitize(key),
            HOT_WRITE_SHARE * 100.0,
            HOT_WRITE_MIN_EVENTS,
            PARTITION_WCU_PER_SECOND,
        ),
    })
}

/// Rule 2: `key` wrote `wcu_per_second` at its peak, measured `over` (e.g. "in one second");
/// `family` is the write-shard family `key` belongs to, when known.
pub fn near_limit(
    subject: Subject,
    key: &str,
    wcu_per_second: f64,
    over: &str,
    family: Option<&ShardFamily>,
) -> Option<WriteWarning> {
    if wcu_per_second < NEAR_LIMIT_SHARE * PARTITION_WCU_PER_SECOND {
        return None;
    }
    let share = wcu_per_second * 100.0 / PARTITION_WCU_PER_SECOND;
    let (advice, short) = advice(key, family, "shard the key");
    Some(WriteWarning {
        rule: WriteRule::PartitionWriteLimit,
        short: format!(
            "partition-write-limit '{}' ({}): {wcu_per_second:.0} WCU/s {over}, {share:.0}% of the {} WCU/s a partition takes; {short}",
            sanitize(key),
            subject.brief(),
            PARTITION_WCU_PER_SECOND,
        ),
        message: format!(
            "partition-write-limit: {} wrote {wcu_per_second:.0} WCU/s {over} under key '{}', {:.0}% of the {} WCU/s one partition takes (rule: {:.0}%+); writes to it will be throttled as it grows; {advice}",
            subject.describe(),
            sanitize(key),
            share,
            PARTITION_WCU_PER_SECOND,
            NEAR_LIMIT_SHARE * 100.0,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: Subject = Subject {
        table: "app",
        index: None,
        partition_key: "PK",
    };

    #[test]
    fn hot_key_needs_the_share_and_enough_writes() {
        assert!(hot_key(TABLE, "k", 10, 100, "", None).is_some());
        assert!(hot_key(TABLE, "k", 9, 100, "", None).is_none());
        assert!(
            hot_key(TABLE, "k", 50, 99, "", None).is_none(),
            "too few writes"
        );
        let w = hot_key(
            Subject {
                index: Some("GSI1"),
                partition_key: "GSI1PK",
                ..TABLE
            },
            "STATUS#SHIPPED\u{1b}[2J",
            412,
            1203,
            "in the last 1 min",
            None,
        )
        .unwrap();
        assert_eq!(w.rule, WriteRule::HotWriteKey);
        assert!(w.message.starts_with("hot-write-key: GSI 'GSI1' of table 'app' (partition key GSI1PK) took 412 of 1203 writes (34.2%) in the last 1 min"), "{}", w.message);
        assert!(
            w.message.contains("STATUS#SHIPPED\\x1b[2J"),
            "sanitised: {}",
            w.message
        );
        assert!(
            w.short.starts_with("hot-write-key 'STATUS#SHIPPED\\x1b[2J' (GSI1 GSI1PK): 34.2% of 1203 writes in the last 1 min"),
            "{}",
            w.short
        );
    }

    #[test]
    fn near_limit_at_eighty_percent() {
        assert!(near_limit(TABLE, "k", 799.0, "", None).is_none());
        let w = near_limit(TABLE, "k", 850.0, "in one second", None).unwrap();
        assert_eq!(w.rule.as_str(), "partition-write-limit");
        assert!(
            w.message.contains("850 WCU/s in one second"),
            "{}",
            w.message
        );
        assert!(w.message.contains("85% of the 1000 WCU/s"), "{}", w.message);
        assert_eq!(
            w.short,
            "partition-write-limit 'k' (table PK): 850 WCU/s in one second, 85% of the 1000 WCU/s a partition takes; shard the key"
        );
        let json = serde_json::to_string(&w).unwrap();
        assert!(
            json.starts_with(r#"{"rule":"partition-write-limit","message":"#),
            "{json}"
        );
    }
}
