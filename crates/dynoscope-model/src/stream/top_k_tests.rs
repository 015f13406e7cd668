//! Space-Saving's guarantees, checked against exact counts on random weighted streams.

use std::collections::HashMap;

use proptest::prelude::*;

use super::*;

impl SpaceSaving {
    /// The heap is a min-heap, positions point back at their slots, and the index finds every
    /// slot by its key.
    fn check_invariants(&self) {
        assert!(self.slots.len() <= self.capacity);
        for (i, &id) in self.heap.iter().enumerate() {
            assert_eq!(self.position[id as usize] as usize, i);
            if i > 0 {
                assert!(self.count_at((i - 1) / 2) <= self.count_at(i), "heap order");
            }
        }
        assert_eq!(self.index.len(), self.slots.len());
        for slot in &self.slots {
            assert!(self.get(&slot.key).is_some(), "{} is not indexed", slot.key);
        }
    }
}

fn exact(stream: &[(String, u64)]) -> HashMap<&str, u64> {
    let mut m = HashMap::new();
    for (k, w) in stream {
        *m.entry(k.as_str()).or_insert(0) += w;
    }
    m
}

/// Keys drawn from a skewed alphabet: a few heavy keys and a long tail, like real traffic.
fn stream() -> impl Strategy<Value = Vec<(String, u64)>> {
    let key = prop_oneof![
        3 => (0u32..4).prop_map(|i| format!("HOT#{i}")),
        7 => (0u32..400).prop_map(|i| format!("USER#{i}")),
    ];
    proptest::collection::vec((key, 1u64..20), 0..2000)
}

#[test]
fn counts_are_exact_while_every_key_has_a_counter() {
    let mut s = SpaceSaving::new(8);
    for (i, key) in ["a", "b", "c", "a", "a", "b"].iter().enumerate() {
        s.add(key, i as u64 + 1);
    }
    s.check_invariants();
    let top = s.top(10);
    assert_eq!(
        top,
        vec![
            Counted {
                key: "a".into(),
                count: 1 + 4 + 5,
                error: 0
            },
            Counted {
                key: "b".into(),
                count: 2 + 6,
                error: 0
            },
            Counted {
                key: "c".into(),
                count: 3,
                error: 0
            },
        ]
    );
    assert_eq!(s.total(), 21);
    assert_eq!(s.floor(), 0, "not full: an absent key weighed nothing");
}

#[test]
fn an_evicted_counter_passes_its_count_on_as_error() {
    let mut s = SpaceSaving::new(2);
    s.add("a", 5);
    s.add("b", 1);
    s.add("c", 1); // evicts b (1): c = 1 + 1, error 1
    s.check_invariants();
    assert_eq!(s.get("b"), None);
    assert_eq!(
        s.get("c"),
        Some(Counted {
            key: "c".into(),
            count: 2,
            error: 1
        })
    );
    assert_eq!(s.floor(), 2);
    s.add("ignored", 0);
    assert_eq!(s.total(), 7);
    assert!(s.get("ignored").is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::fixtures::proptest_cases(100)))]

    #[test]
    fn estimates_bracket_the_truth_within_total_over_capacity(
        stream in stream(),
        capacity in 1usize..64,
    ) {
        let mut s = SpaceSaving::new(capacity);
        for (k, w) in &stream {
            s.add(k, *w);
        }
        s.check_invariants();
        let truth = exact(&stream);
        let total: u64 = truth.values().sum();
        prop_assert_eq!(s.total(), total);
        let bound = total / capacity as u64;
        prop_assert!(s.floor() <= bound, "floor {} > N/C {}", s.floor(), bound);
        for (key, count, error) in s.iter() {
            let t = truth[key];
            prop_assert!(count >= t, "{key}: count {count} < truth {t}");
            prop_assert!(count - error <= t, "{key}: lower bound {} > truth {t}", count - error);
            prop_assert!(error <= bound, "{key}: error {error} > N/C {bound}");
        }
        // Every key heavier than N/C holds a counter.
        for (key, t) in &truth {
            if *t > bound {
                prop_assert!(s.get(key).is_some(), "{key} ({t} > {bound}) was evicted");
            }
        }
    }

    #[test]
    fn merged_buckets_keep_the_bounds(
        stream in stream(),
        capacity in 1usize..32,
        buckets in 1usize..8,
    ) {
        let mut parts: Vec<SpaceSaving> = (0..buckets).map(|_| SpaceSaving::new(capacity)).collect();
        for (i, (k, w)) in stream.iter().enumerate() {
            parts[i * buckets / stream.len().max(1)].add(k, *w);
        }
        let truth = exact(&stream);
        let slack: u64 = parts.iter().map(|p| p.total() / capacity as u64).sum();
        let top = merged_top(parts.iter(), usize::MAX);
        for c in &top {
            // The one-pass merge sums what a lookup of the key in every part would.
            prop_assert_eq!((c.count, c.error), merged_counts(parts.iter(), &c.key));
            let t = truth[c.key.as_str()];
            prop_assert!(c.count >= t && c.count - c.error <= t, "{c:?} vs {t}");
            prop_assert!(c.count - t <= slack, "{c:?}: over by more than {slack}");
        }
        // A key heavier than the slack is found by the merge.
        for (key, t) in &truth {
            if *t > slack {
                prop_assert!(top.iter().any(|c| c.key == *key), "{key} ({t}) missing");
            }
        }
        // Sorted, largest first.
        prop_assert!(top.windows(2).all(|w| w[0].count >= w[1].count));
    }
}
