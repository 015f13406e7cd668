//! Merging in sort-key order: a page's late items into their collection, and the results of
//! write shards into one read.

use std::cmp::Ordering;

use super::ordering::dynamo_cmp;
use super::store::ItemId;
use crate::item::value::Item;

/// Merges `extra` (any order) into the sorted `list`. Each element of `extra` finds its place
/// by galloping from the previous one's, so a page costs O(m log n) comparisons (O(m) for a
/// descending page) plus copying the tail of `list` from where the first of them lands.
pub(super) fn merge_into_sorted(
    list: &mut Vec<ItemId>,
    extra: &mut [ItemId],
    order: impl Fn(ItemId, ItemId) -> Ordering,
) {
    // `order` is total and ids are unique, so an unstable sort is deterministic.
    extra.sort_unstable_by(|&a, &b| order(a, b));
    let Some(&first) = extra.first() else {
        return;
    };
    let start = list.partition_point(|&id| order(id, first) == Ordering::Less);
    let tail: Vec<ItemId> = list.split_off(start);
    list.reserve(tail.len() + extra.len());
    let mut from = 0;
    for &id in extra.iter() {
        let to = from + gallop(&tail[from..], |t| order(t, id) == Ordering::Less);
        list.extend_from_slice(&tail[from..to]);
        list.push(id);
        from = to;
    }
    list.extend_from_slice(&tail[from..]);
}

/// Like `partition_point`, but probes 1, 2, 4, … elements in first, so it costs O(log k)
/// comparisons when the answer is `k`.
fn gallop(slice: &[ItemId], is_before: impl Fn(ItemId) -> bool) -> usize {
    let mut low = 0;
    let mut step = 1;
    while low + step <= slice.len() && is_before(slice[low + step - 1]) {
        low += step;
        step *= 2;
    }
    let high = (low + step).min(slice.len());
    low + slice[low..high].partition_point(|&id| is_before(id))
}

/// Merges per-shard results (each already in the index's sort order) into one order: by the
/// sort attributes as DynamoDB compares them, each in key-schema order (several on a
/// multi-attribute index), ties in shard order. A stable sort of the concatenation gives
/// exactly that.
pub fn merge_sorted(shards: Vec<Vec<Item>>, sort_keys: &[&str], descending: bool) -> Vec<Item> {
    let mut all: Vec<Item> = shards.into_iter().flatten().collect();
    if sort_keys.is_empty() {
        return all;
    }
    all.sort_by(|a, b| {
        let ord = sort_keys
            .iter()
            .map(|sk| match (a.get(sk), b.get(sk)) {
                (Some(x), Some(y)) => dynamo_cmp(x, y),
                (None, Some(_)) => Ordering::Less,
                (Some(_), None) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            })
            .find(|ord| ord.is_ne())
            .unwrap_or(Ordering::Equal);
        if descending {
            ord.reverse()
        } else {
            ord
        }
    });
    all
}

#[cfg(test)]
#[path = "merge_tests.rs"]
mod tests;
