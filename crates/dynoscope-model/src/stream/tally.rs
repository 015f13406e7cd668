//! Exact write counts per partition key over one bounded run (`hotkeys --writes --for D`):
//! changes, stream bytes and write units per key, and each key's busiest second. Unlike the
//! live view's ranking it keeps one entry per key written during the run, so it can report the
//! same shape as the scan-based `hotkeys` (distinct keys, top 1% share, shard families).

use std::collections::HashMap;

use serde::Serialize;

use super::warnings::{hot_key, near_limit, Subject, WriteWarning};
use crate::text::wording::share;
use crate::traffic::distribution::{shard_of, KeyDistribution, ShardFamily};

#[derive(Debug, Clone, Copy, Default)]
struct KeyWrites {
    events: u64,
    bytes: u64,
    wcu: u64,
    /// The second being counted, its units so far, and the busiest second's units.
    second: u64,
    in_second: u64,
    peak_second: u64,
}

/// One key in the report: the scan-based `hotkeys` entry (`items` are changes, `bytes` their
/// stream record sizes) plus `events` and `wcu`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WriteKeyEntry {
    pub key: String,
    pub items: u64,
    pub bytes: u64,
    pub share: f64,
    pub events: u64,
    pub wcu: u64,
    pub wcu_share: f64,
    /// Write units in the key's busiest second, by the time changes arrived (GetRecords
    /// delivers pages about every half second, so this can exceed the rate they were made at).
    pub peak_wcu_per_second: u64,
}

#[derive(Debug, Clone, Default)]
pub struct WriteTally {
    distribution: KeyDistribution,
    keys: HashMap<String, KeyWrites>,
    total_wcu: u64,
}

impl WriteTally {
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts one change to `key` of `size_bytes` costing `wcu`, arriving at `at_ms`.
    pub fn add(&mut self, key: &str, size_bytes: u64, wcu: u64, at_ms: u64) {
        self.distribution.add(key, size_bytes as usize);
        self.total_wcu += wcu;
        let entry = match self.keys.get_mut(key) {
            Some(e) => e,
            None => self.keys.entry(key.to_owned()).or_default(),
        };
        let second = at_ms / 1000;
        if entry.second != second {
            entry.second = second;
            entry.in_second = 0;
        }
        entry.events += 1;
        entry.bytes += size_bytes;
        entry.wcu += wcu;
        entry.in_second += wcu;
        entry.peak_second = entry.peak_second.max(entry.in_second);
    }

    pub fn distribution(&self) -> &KeyDistribution {
        &self.distribution
    }

    pub fn total_events(&self) -> u64 {
        self.distribution.total_items()
    }

    pub fn total_wcu(&self) -> u64 {
        self.total_wcu
    }

    pub fn shard_families(&self) -> Vec<ShardFamily> {
        self.distribution.shard_families()
    }

    fn ranked(&self, k: usize, by_wcu: bool) -> Vec<WriteKeyEntry> {
        let mut keys: Vec<(&String, &KeyWrites)> = self.keys.iter().collect();
        let order = |a: &(&String, &KeyWrites), b: &(&String, &KeyWrites)| {
            let (x, y) = (a.1, b.1);
            let primary = if by_wcu {
                y.wcu.cmp(&x.wcu).then(y.events.cmp(&x.events))
            } else {
                y.events.cmp(&x.events).then(y.bytes.cmp(&x.bytes))
            };
            primary.then_with(|| a.0.cmp(b.0))
        };
        if k < keys.len() && k > 0 {
            keys.select_nth_unstable_by(k - 1, order);
        }
        keys.truncate(k);
        keys.sort_unstable_by(order);
        keys.into_iter()
            .map(|(key, w)| WriteKeyEntry {
                key: key.clone(),
                items: w.events,
                bytes: w.bytes,
                share: share(w.events, self.total_events()),
                events: w.events,
                wcu: w.wcu,
                wcu_share: share(w.wcu, self.total_wcu),
                peak_wcu_per_second: w.peak_second,
            })
            .collect()
    }

    /// The `k` keys with the most changes; ties by bytes, then key text (as `hotkeys` ranks
    /// items).
    pub fn top_by_events(&self, k: usize) -> Vec<WriteKeyEntry> {
        self.ranked(k, false)
    }

    /// The `k` keys with the most write units; ties by changes, then key text.
    pub fn top_by_wcu(&self, k: usize) -> Vec<WriteKeyEntry> {
        self.ranked(k, true)
    }

    /// The write rules over the whole run of `seconds`. Every key written is known, so a key
    /// that is one of a family of write shards is told what to change about its family.
    pub fn warnings(&self, subject: Subject, seconds: u64) -> Vec<WriteWarning> {
        let families = self.shard_families();
        let mut out = Vec::new();
        let during = format!("in {seconds} s");
        if let Some(top) = self.top_by_events(1).first() {
            out.extend(hot_key(
                subject,
                &top.key,
                top.events,
                self.total_events(),
                &during,
                shard_of(&families, &top.key),
            ));
        }
        let mut peaks: Vec<(&String, u64)> =
            self.keys.iter().map(|(k, w)| (k, w.peak_second)).collect();
        peaks.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        for (key, peak) in peaks.into_iter().take(3) {
            out.extend(near_limit(
                subject,
                key,
                peak as f64,
                "in its busiest second",
                shard_of(&families, key),
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::warnings::WriteRule;
    use super::*;

    #[test]
    fn counts_events_units_and_the_busiest_second_exactly() {
        let mut t = WriteTally::new();
        for i in 0..90 {
            t.add(&format!("USER#{i}"), 100, 1, i * 10);
        }
        for i in 0..30 {
            t.add("USER#hot", 2000, 2, 1_000 + i * 20);
        }
        t.add("USER#big", 50_000, 49, 5_000);
        assert_eq!(t.total_events(), 121);
        assert_eq!(t.total_wcu(), 90 + 60 + 49);
        let top = t.top_by_events(2);
        assert_eq!(top[0].key, "USER#hot");
        assert_eq!((top[0].events, top[0].items, top[0].wcu), (30, 30, 60));
        assert_eq!(top[0].bytes, 60_000);
        assert_eq!(top[0].peak_wcu_per_second, 60, "all 30 in second 1");
        let by_wcu = t.top_by_wcu(2);
        assert_eq!(by_wcu[0].key, "USER#hot");
        assert_eq!(by_wcu[1].key, "USER#big");
        assert_eq!((by_wcu[1].events, by_wcu[1].wcu), (1, 49));
        let subject = Subject {
            table: "app",
            index: None,
            partition_key: "PK",
        };
        let w = t.warnings(subject, 60);
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(w[0].rule, WriteRule::HotWriteKey);
        assert!(
            w[0].message.contains("took 30 of 121 writes"),
            "{}",
            w[0].message
        );
    }

    #[test]
    fn a_burst_near_the_limit_in_one_second_is_named() {
        let mut t = WriteTally::new();
        for i in 0..100 {
            t.add("TENANT#a", 9000, 9, 7_000 + i);
        }
        let subject = Subject {
            table: "app",
            index: Some("GSI1"),
            partition_key: "GSI1PK",
        };
        let w = t.warnings(subject, 10);
        assert!(
            w.iter().any(|w| w.rule == WriteRule::PartitionWriteLimit
                && w.message.contains("900 WCU/s in its busiest second")),
            "{w:?}"
        );
    }

    #[test]
    fn a_write_shard_is_told_to_add_shards_or_spread_them_not_to_add_a_suffix() {
        let subject = Subject {
            table: "app",
            index: Some("GSI1"),
            partition_key: "GSI1PK",
        };
        let mut even = WriteTally::new();
        for i in 0..200u64 {
            even.add(&format!("shard#{}", i % 10 + 1), 100, 1, i);
        }
        let w = even.warnings(subject, 60);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].message.contains("took 20 of 200 writes (10.0%)")
                && w[0].message.contains("it is already one of the 10 write shards 'shard#{1..10}' (skew 1.00): add shards (widen the suffix range to 1..20)")
                && !w[0].message.contains("add a write-shard suffix"),
            "{}",
            w[0].message
        );
        assert!(w[0].short.ends_with("; add shards"), "{}", w[0].short);

        let mut skewed = WriteTally::new();
        for i in 0..270u64 {
            skewed.add(&format!("shard#{}", i % 9 + 1), 100, 1, i);
        }
        for i in 0..300u64 {
            skewed.add("shard#10", 1000, 9, 20_000 + i);
        }
        let w = skewed.warnings(subject, 60);
        let hot = w.iter().find(|w| w.rule == WriteRule::HotWriteKey).unwrap();
        assert!(
            hot.message.contains("under key 'shard#10'")
                && hot.message.contains("it is the hot shard of the write shards 'shard#{1..10}' (10 shards, skew 5.26): pick the shard suffix evenly"),
            "{}",
            hot.message
        );
        let limit = w
            .iter()
            .find(|w| w.rule == WriteRule::PartitionWriteLimit)
            .unwrap();
        assert!(
            limit.message.contains("it is the hot shard")
                && !limit.message.contains("shard the key"),
            "{}",
            limit.message
        );
        assert!(
            limit.short.ends_with("spread its shards evenly"),
            "{}",
            limit.short
        );
    }
}
