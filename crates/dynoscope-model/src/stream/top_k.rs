//! The heaviest keys of a stream in fixed memory: the Space-Saving algorithm (Metwally,
//! Agrawal, El Abbadi, "Efficient Computation of Frequent and Top-k Elements in Data Streams",
//! 2005), weighted.
//!
//! It keeps `capacity` counters. A key already counted adds its weight; a new key takes a free
//! counter, or else the smallest one, inheriting its count as its `error`. So for every key:
//! `count - error <= true weight <= count`, `error <= total / capacity`, and every key whose
//! true weight exceeds `total / capacity` holds a counter. With fewer distinct keys than
//! counters nothing is ever evicted and every count is exact.
//!
//! Counters sit in a min-heap (by count) so the smallest is found in O(1) and an update costs
//! O(log capacity); keys are found through a hash table of counter ids, so each key is stored
//! once.

use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashTable};

#[derive(Debug, Clone)]
struct Slot {
    key: Box<str>,
    count: u64,
    error: u64,
}

/// One key's estimate: its true weight is in `count - error ..= count`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    pub key: String,
    pub count: u64,
    pub error: u64,
}

#[derive(Debug, Clone)]
pub struct SpaceSaving {
    capacity: usize,
    slots: Vec<Slot>,
    /// Slot ids as a min-heap by count.
    heap: Vec<u32>,
    /// Per slot id: its position in `heap`.
    position: Vec<u32>,
    /// Slot ids, found by their key's hash.
    index: HashTable<u32>,
    hasher: DefaultHashBuilder,
    total: u64,
}

impl SpaceSaving {
    /// # Panics
    ///
    /// If `capacity` is 0.
    pub fn new(capacity: usize) -> Self {
        assert!(capacity > 0, "a top-k counter needs at least one slot");
        SpaceSaving {
            capacity,
            slots: Vec::new(),
            heap: Vec::new(),
            position: Vec::new(),
            index: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
            total: 0,
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Sum of all weights added.
    pub fn total(&self) -> u64 {
        self.total
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The most any key without a counter can weigh: the smallest count once every counter is
    /// taken, 0 before.
    pub fn floor(&self) -> u64 {
        if self.slots.len() < self.capacity {
            0
        } else {
            self.heap
                .first()
                .map_or(0, |&id| self.slots[id as usize].count)
        }
    }

    pub fn clear(&mut self) {
        self.slots.clear();
        self.heap.clear();
        self.position.clear();
        self.index.clear();
        self.total = 0;
    }

    fn find(&self, key: &str, hash: u64) -> Option<u32> {
        self.index
            .find(hash, |&id| &*self.slots[id as usize].key == key)
            .copied()
    }

    /// Adds `weight` to `key`. A zero weight counts nothing and evicts nothing.
    pub fn add(&mut self, key: &str, weight: u64) {
        if weight == 0 {
            return;
        }
        self.total += weight;
        let hash = self.hasher.hash_one(key);
        if let Some(id) = self.find(key, hash) {
            self.slots[id as usize].count += weight;
            self.sift_down(self.position[id as usize] as usize);
            return;
        }
        if self.slots.len() < self.capacity {
            let id = self.slots.len() as u32;
            self.slots.push(Slot {
                key: key.into(),
                count: weight,
                error: 0,
            });
            self.position.push(self.heap.len() as u32);
            self.heap.push(id);
            let slots = &self.slots;
            let hasher = &self.hasher;
            self.index
                .insert_unique(hash, id, |&i| hasher.hash_one(&*slots[i as usize].key));
            self.sift_up(self.heap.len() - 1);
            return;
        }
        // Evict the smallest counter: the new key inherits its count as its error.
        let id = self.heap[0];
        let old_hash = self.hasher.hash_one(&*self.slots[id as usize].key);
        if let Ok(entry) = self.index.find_entry(old_hash, |&i| i == id) {
            entry.remove();
        }
        let slot = &mut self.slots[id as usize];
        slot.key = key.into();
        slot.error = slot.count;
        slot.count += weight;
        let slots = &self.slots;
        let hasher = &self.hasher;
        self.index
            .insert_unique(hash, id, |&i| hasher.hash_one(&*slots[i as usize].key));
        self.sift_down(0);
    }

    /// `(count, error)` for `key`, if it holds a counter.
    pub fn estimate(&self, key: &str) -> Option<(u64, u64)> {
        let id = self.find(key, self.hasher.hash_one(key))?;
        let slot = &self.slots[id as usize];
        Some((slot.count, slot.error))
    }

    /// The estimate for `key`, if it holds a counter.
    pub fn get(&self, key: &str) -> Option<Counted> {
        self.estimate(key).map(|(count, error)| Counted {
            key: key.to_string(),
            count,
            error,
        })
    }

    /// Every counter, in no order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64, u64)> {
        self.slots.iter().map(|s| (&*s.key, s.count, s.error))
    }

    /// The `k` largest counts, largest first; ties by key text.
    pub fn top(&self, k: usize) -> Vec<Counted> {
        let mut all: Vec<Counted> = self
            .slots
            .iter()
            .map(|s| Counted {
                key: s.key.to_string(),
                count: s.count,
                error: s.error,
            })
            .collect();
        all.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.key.cmp(&b.key)));
        all.truncate(k);
        all
    }

    fn count_at(&self, heap_index: usize) -> u64 {
        self.slots[self.heap[heap_index] as usize].count
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.heap.swap(a, b);
        self.position[self.heap[a] as usize] = a as u32;
        self.position[self.heap[b] as usize] = b as u32;
    }

    fn sift_up(&mut self, mut i: usize) {
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.count_at(parent) <= self.count_at(i) {
                break;
            }
            self.swap(parent, i);
            i = parent;
        }
    }

    fn sift_down(&mut self, mut i: usize) {
        let n = self.heap.len();
        loop {
            let (left, right) = (2 * i + 1, 2 * i + 2);
            let mut smallest = i;
            if left < n && self.count_at(left) < self.count_at(smallest) {
                smallest = left;
            }
            if right < n && self.count_at(right) < self.count_at(smallest) {
                smallest = right;
            }
            if smallest == i {
                return;
            }
            self.swap(i, smallest);
            i = smallest;
        }
    }
}

/// Estimates summed over several counters (the buckets of a sliding window). A key missing
/// from a full counter may still have weighed up to its floor there, so that floor is added to
/// both its count and its error: the merged `count - error ..= count` still holds the truth,
/// and the error stays within `total / capacity` summed over the buckets.
pub fn merged_top<'a>(
    parts: impl Iterator<Item = &'a SpaceSaving> + Clone,
    k: usize,
) -> Vec<Counted> {
    // One pass over every part's counters, not one lookup per key in every part: a key's sum
    // is every part's floor, plus what each part that holds it counts above its floor. The
    // live pane merges its window's buckets on every tick, and looking each key up in each
    // bucket was most of a tick's time (docs/benchmarks.md §17.14).
    let floors: u64 = parts.clone().map(SpaceSaving::floor).sum();
    // Per key: the count and error summed over the parts that hold it, and those parts' floors.
    let mut held: hashbrown::HashMap<&str, (u64, u64, u64)> = hashbrown::HashMap::new();
    for part in parts {
        let floor = part.floor();
        for (key, count, error) in part.iter() {
            let sums = held.entry(key).or_default();
            sums.0 += count;
            sums.1 += error;
            sums.2 += floor;
        }
    }
    let mut out: Vec<(&str, u64, u64)> = held
        .into_iter()
        .map(|(key, (count, error, held_floors))| {
            let unheld = floors - held_floors;
            (key, count + unheld, error + unheld)
        })
        .collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    out.truncate(k);
    out.into_iter()
        .map(|(key, count, error)| Counted {
            key: key.to_string(),
            count,
            error,
        })
        .collect()
}

/// One key's `(count, error)` summed over `parts` (see [`merged_top`]).
pub fn merged_counts<'a>(parts: impl Iterator<Item = &'a SpaceSaving>, key: &str) -> (u64, u64) {
    let (mut count, mut error) = (0, 0);
    for part in parts {
        let (c, e) = part.estimate(key).unwrap_or((part.floor(), part.floor()));
        count += c;
        error += e;
    }
    (count, error)
}

#[cfg(test)]
#[path = "top_k_tests.rs"]
mod tests;
