//! Fixed memory for [`KeyDistribution`] past a number of distinct keys: exact counting holds
//! one counter per partition-key value, so a table with a billion of them would need tens of
//! GB. Past `max_keys` the counters become a batched Space-Saving summary (Metwally et al.,
//! 2005): when twice `max_keys` keys are held, the `max_keys` with the most items are kept and
//! the rest dropped, and `floor` (the most items a dropped key had) is what a key that comes
//! back may already have had. So each kept key's `items` is an upper bound, over-counting by at
//! most its own `error` ≤ `floor`, and a key with more than `floor` items is never lost.
//! Distinct keys are then estimated by a HyperLogLog sketch (4,096 registers: relative
//! standard error 1.04/√4096 ≈ 1.6%).

use hashbrown::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use serde::Serialize;

use super::counting::KeyTotals;

const REGISTER_BITS: u32 = 12;
const REGISTERS: usize = 1 << REGISTER_BITS;
/// 1.04 / √REGISTERS.
pub const DISTINCT_RELATIVE_ERROR: f64 = 0.01625;

/// HyperLogLog (Flajolet et al., 2007) with the small-range correction (linear counting).
#[derive(Debug, Clone)]
pub(super) struct DistinctSketch {
    registers: Vec<u8>,
}

impl Default for DistinctSketch {
    fn default() -> Self {
        DistinctSketch {
            registers: vec![0; REGISTERS],
        }
    }
}

impl DistinctSketch {
    pub(super) fn add(&mut self, key: &str) {
        // DefaultHasher::new() has fixed keys: the same key always lands in the same register.
        let mut h = DefaultHasher::new();
        key.hash(&mut h);
        let hash = h.finish();
        let index = (hash >> (64 - REGISTER_BITS)) as usize;
        let rest = hash << REGISTER_BITS;
        let rank = (rest.leading_zeros().min(64 - REGISTER_BITS) + 1) as u8;
        if rank > self.registers[index] {
            self.registers[index] = rank;
        }
    }

    pub(super) fn estimate(&self) -> u64 {
        let m = REGISTERS as f64;
        let alpha = 0.7213 / (1.0 + 1.079 / m);
        let sum: f64 = self
            .registers
            .iter()
            .map(|&r| 2f64.powi(-i32::from(r)))
            .sum();
        let raw = alpha * m * m / sum;
        let zeros = self.registers.iter().filter(|&&r| r == 0).count();
        if raw <= 2.5 * m && zeros > 0 {
            (m * (m / zeros as f64).ln()).round() as u64
        } else {
            raw.round() as u64
        }
    }
}

/// What a report says when its counts are approximate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Approximation {
    /// Keys counted exactly before the summary began, and kept by it.
    pub max_keys: usize,
    /// A listed key's `items` over-counts by at most this many (its `bytes` count only the
    /// items seen since it was last kept).
    pub max_items_error: u64,
    /// `distinct_keys` is an estimate within this relative standard error.
    pub distinct_keys_relative_error: f64,
}

/// The summary's state beside the counters.
#[derive(Debug, Clone)]
pub(super) struct Bound {
    pub(super) max_keys: usize,
    /// Items of the largest key dropped so far.
    pub(super) floor: u64,
    pub(super) sketch: Option<DistinctSketch>,
}

impl Bound {
    pub(super) fn new(max_keys: usize) -> Self {
        Bound {
            max_keys: max_keys.max(1),
            floor: 0,
            sketch: None,
        }
    }

    /// Keeps the `max_keys` keys with the most items once twice as many are held.
    pub(super) fn prune(&mut self, keys: &mut HashMap<String, KeyTotals>) {
        if keys.len() < 2 * self.max_keys {
            return;
        }
        let mut counts: Vec<u64> = keys.values().map(|t| t.items).collect();
        let cut = counts.len() - self.max_keys;
        let (_, &mut threshold, _) = counts.select_nth_unstable(cut);
        // Ties at the threshold: keep keys strictly above it first, then fill to max_keys.
        let mut room = self.max_keys - keys.values().filter(|t| t.items > threshold).count();
        let mut dropped_max = self.floor;
        keys.retain(|_, t| {
            let keep = t.items > threshold
                || (t.items == threshold && room > 0 && {
                    room -= 1;
                    true
                });
            if !keep {
                dropped_max = dropped_max.max(t.items);
            }
            keep
        });
        self.floor = dropped_max;
    }

    pub(super) fn approximation(&self) -> Option<Approximation> {
        self.sketch.as_ref().map(|_| Approximation {
            max_keys: self.max_keys,
            max_items_error: self.floor,
            distinct_keys_relative_error: DISTINCT_RELATIVE_ERROR,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::KeyDistribution;
    use std::collections::HashMap;

    #[test]
    fn past_the_bound_counts_stay_within_their_error_and_memory_stays_fixed() {
        let mut d = KeyDistribution::bounded(100);
        let mut exact: HashMap<String, u64> = HashMap::new();
        // 20,000 keys once each, interleaved with heavy keys of 50 to 500 items.
        let mut stream = Vec::new();
        for i in 0..20_000u64 {
            stream.push(format!("COLD#{i}"));
            if i % 40 == 0 {
                for h in 0..10u64 {
                    if i % (40 * (h + 1)) == 0 || h == 0 {
                        stream.push(format!("HOT#{h}"));
                    }
                }
            }
        }
        for key in &stream {
            d.add(key, 10);
            *exact.entry(key.clone()).or_default() += 1;
            assert!(d.keys.len() <= 200, "memory is fixed");
        }
        let a = d.approximation().expect("approximate past 100 keys");
        assert_eq!(a.max_keys, 100);
        for (key, totals) in &d.keys {
            let truth = exact[key];
            assert!(totals.items >= truth, "{key}: an upper bound");
            assert!(
                totals.items <= truth + a.max_items_error,
                "{key}: within the error"
            );
        }
        for (key, &truth) in &exact {
            if truth > a.max_items_error {
                assert!(d.keys.contains_key(key), "{key} ({truth} items) is kept");
            }
        }
        assert_eq!(d.top(1)[0].key, "HOT#0");
        let distinct = d.distinct_keys() as f64;
        let truth = exact.len() as f64;
        assert!(
            (distinct - truth).abs() / truth < 4.0 * a.distinct_keys_relative_error,
            "{distinct} vs {truth}"
        );
        assert_eq!(d.total_items(), stream.len() as u64);
    }

    #[test]
    fn below_the_bound_everything_is_exact() {
        let mut d = KeyDistribution::bounded(100);
        for i in 0..100 {
            d.add(&format!("K#{i}"), 1);
            d.add("K#0", 1);
        }
        assert!(d.approximation().is_none());
        assert_eq!(d.distinct_keys(), 100);
        assert_eq!(d.top(1)[0].items, 101);
    }
}
