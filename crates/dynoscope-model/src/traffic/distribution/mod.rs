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

mod bounded;
mod counting;
mod ranking;
mod shards;
mod sized_keys;
mod warnings;

pub use bounded::{Approximation, DISTINCT_RELATIVE_ERROR};
pub use counting::{KeyDistribution, LARGE_ITEM_BYTES};
pub use ranking::{HistogramBucket, KeyEntry};
pub use shards::{
    shard_of, ShardFamily, MAX_FIRST_SHARD, MAX_SHARDS, MAX_SHARD_SUFFIX_DIGITS,
    MIN_COMPARABLE_SHARE, MIN_SHARDS, MIN_SHARD_DENSITY,
};
pub use sized_keys::{key_text, partition_text, SizedKeys};
pub use warnings::{
    has_hot_shard, Rule, Source, Warning, WarningContext, HOT_KEY_MIN_ITEMS, HOT_KEY_SHARE,
    HOT_SHARD_MIN_MEAN_ITEMS, HOT_SHARD_SKEW, ITEM_COLLECTION_LIMIT_BYTES,
    ITEM_COLLECTION_WARN_PERCENT, LOW_CARDINALITY_MAX_KEYS, LOW_CARDINALITY_MIN_ITEMS,
};

#[cfg(test)]
mod fixtures;
