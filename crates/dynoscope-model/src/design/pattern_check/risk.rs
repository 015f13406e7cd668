//! The hot-partition risk of a pattern on a GSI partition key with few values (a status
//! enum, a date): from the keys of a small sample of the index, the hottest value's share and
//! the per-partition ceiling it runs into, and the write-shard suffixes that would spread it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::traffic::distribution::HOT_KEY_SHARE;

/// Below this many sampled items a handful of values says nothing about the index.
pub const MIN_SAMPLED_ITEMS: u64 = 20;
/// At most this many values, each held by this many sampled items on average: few values.
pub const MAX_VALUES: usize = crate::traffic::distribution::LOW_CARDINALITY_MAX_KEYS;
pub const MIN_ITEMS_PER_VALUE: u64 = 5;
/// DynamoDB's per-partition limits: one key value cannot go past them, however much the
/// table or index is given.
pub const PARTITION_WCU: u64 = 1000;
pub const PARTITION_RCU: u64 = 3000;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LowCardinality {
    pub attribute: String,
    pub values: usize,
    pub sampled_items: u64,
    pub hottest: String,
    pub hottest_share: f64,
    /// Writes to the whole index cap near this many WCU a second when the hottest value takes
    /// its share of them (its partition saturates at [`PARTITION_WCU`]).
    pub index_wcu_ceiling: u64,
    /// Suffixes that bring the hottest value's shards under [`HOT_KEY_SHARE`] each.
    pub suggested_shards: u32,
    /// Scan segments the sampled items came from, of the segments read: what the verdict
    /// rests on (see `sample.rs`).
    pub segments_hit: usize,
    pub segments: u32,
    /// On a multi-attribute partition key, the values each of its attributes takes among the
    /// sampled items, in key-schema order: a first attribute of few values (a status enum)
    /// that the others do not spread is what makes the tuple few.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<PartValues>,
}

/// How many values one attribute of a multi-attribute partition key takes in a sample.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PartValues {
    pub attribute: String,
    pub values: usize,
}

/// `counts`: sampled items per partition-key value of the index.
pub fn low_cardinality(attribute: &str, counts: &BTreeMap<String, u64>) -> Option<LowCardinality> {
    let sampled: u64 = counts.values().sum();
    let values = counts.len();
    if sampled < MIN_SAMPLED_ITEMS
        || values == 0
        || values > MAX_VALUES
        || sampled < MIN_ITEMS_PER_VALUE * values as u64
    {
        return None;
    }
    // The first of the largest, so that ties name the same value every time.
    let (hottest, most) =
        counts
            .iter()
            .fold(None::<(&String, u64)>, |best, (k, &n)| match best {
                Some((_, b)) if b >= n => best,
                _ => Some((k, n)),
            })?;
    let share = most as f64 / sampled as f64;
    Some(LowCardinality {
        attribute: attribute.to_string(),
        values,
        sampled_items: sampled,
        hottest: hottest.clone(),
        hottest_share: share,
        index_wcu_ceiling: (PARTITION_WCU as f64 / share).round() as u64,
        suggested_shards: ((share / HOT_KEY_SHARE).ceil() as u32).max(2),
        segments_hit: 0,
        segments: 0,
        parts: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
        pairs.iter().map(|(k, n)| (k.to_string(), *n)).collect()
    }

    #[test]
    fn a_status_enum_is_low_cardinality_with_its_hottest_value() {
        let risk = low_cardinality(
            "GSI1PK",
            &counts(&[("S#NEW", 30), ("S#DONE", 15), ("S#GONE", 15)]),
        )
        .unwrap();
        assert_eq!(risk.values, 3);
        assert_eq!(risk.hottest, "S#NEW");
        assert!((risk.hottest_share - 0.5).abs() < 1e-9);
        assert_eq!(risk.index_wcu_ceiling, 2000);
        assert_eq!(risk.suggested_shards, 5);
    }

    #[test]
    fn many_values_or_a_tiny_sample_are_no_finding() {
        let many: BTreeMap<String, u64> = (0..60).map(|i| (format!("U#{i}"), 1)).collect();
        assert_eq!(low_cardinality("PK", &many), None);
        assert_eq!(low_cardinality("PK", &counts(&[("a", 5), ("b", 5)])), None);
        assert_eq!(
            low_cardinality("PK", &counts(&[("a", 12), ("b", 8)])).map(|r| r.values),
            Some(2)
        );
    }
}
