//! A key sample spread over the key space, and what it can say about a GSI key's cardinality.
//!
//! A Scan returns a table or index partition by partition, so its first hundred items are a
//! few partition-key values, whatever the key holds: 40 customers of 60 orders each look like
//! one customer. The check samples with a parallel Scan instead, a few items from each of up
//! to [`SAMPLE_SEGMENTS`] segments (slices of the partition-key hash space), and counts a value
//! once per independent draw it turned up in: a segment read in part is one draw (its items
//! are a partition or two), each item of a segment read to its end is one (it is the whole
//! slice). A key with few values shows the same ones draw after draw, a key with many shows
//! new ones in each. A sample of too few draws or items is said to be too small to judge
//! rather than judged.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::risk::{low_cardinality, LowCardinality, MAX_VALUES, MIN_SAMPLED_ITEMS};
use crate::item::value::Item;

/// Segments of a key sample's parallel Scan at most, the items each reads (one page) at least,
/// and the items the sample reads in all.
pub const SAMPLE_SEGMENTS: u32 = 16;
pub const ITEMS_PER_SEGMENT: i32 = 8;
pub const SAMPLE_ITEMS: u32 = SAMPLE_SEGMENTS * ITEMS_PER_SEGMENT as u32;
/// Below this many independent draws holding the key, the sample has seen too little.
pub const MIN_DRAWS: usize = 4;
/// Few values recur: on average each value seen turned up in at least this many draws.
pub const RECURRENCE: usize = 2;

/// The segments and the items per segment of a sample of a table or index of `item_count`
/// items (DescribeTable's): a segment per 32 items, up to [`SAMPLE_SEGMENTS`], sharing
/// [`SAMPLE_ITEMS`] (at least [`ITEMS_PER_SEGMENT`] each). A small table's segments are then
/// mostly read to their end, a large one's a few items each; small pages also keep each
/// request's worst case, which the guards reserve, small. A count that is out of date only
/// costs the judgement: a large table read as small gives too few draws to judge.
pub fn sample_shape(item_count: i64) -> (u32, i32) {
    let count = item_count.max(0) as u64;
    let segments = count.div_ceil(32).clamp(1, SAMPLE_SEGMENTS as u64) as u32;
    let per_segment = SAMPLE_ITEMS.div_ceil(segments) as i32;
    (segments, per_segment.max(ITEMS_PER_SEGMENT))
}

/// The items of a key sample and the segment each came from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeySample {
    pub items: Vec<Item>,
    /// `segment_of[i]`: the segment `items[i]` was read in.
    pub segment_of: Vec<u32>,
    /// `draw_of[i]`: the independent draw `items[i]` belongs to (its segment's, when the
    /// segment was read in part; its own, when it was read to its end).
    pub draw_of: Vec<u32>,
    /// Segments the sample's Scan read.
    pub segments: u32,
}

impl KeySample {
    pub fn new(segments: u32) -> Self {
        KeySample {
            segments,
            ..Default::default()
        }
    }

    /// Items drawn independently of each other (each its own segment).
    pub fn unspread(items: Vec<Item>) -> Self {
        let n = items.len() as u32;
        KeySample {
            segment_of: (0..n).collect(),
            draw_of: (0..n).collect(),
            items,
            segments: n,
        }
    }

    /// One segment's page: `whole` when the segment ended in it (its items are the whole
    /// slice, each a draw of its own).
    pub fn push_page(&mut self, segment: u32, items: &[Item], whole: bool) {
        for item in items {
            let draw = match whole {
                true => self.segments + self.items.len() as u32,
                false => segment,
            };
            self.items.push(item.clone());
            self.segment_of.push(segment);
            self.draw_of.push(draw);
        }
    }

    /// Its items in segment order, each segment's in the order it read them: the segments'
    /// pages arrive in any order, and the parameters drawn from the sample should not.
    pub fn in_segment_order(self) -> Self {
        let mut rows: Vec<((u32, u32), Item)> = self
            .segment_of
            .into_iter()
            .zip(self.draw_of)
            .zip(self.items)
            .collect();
        rows.sort_by_key(|((segment, _), _)| *segment);
        let (tags, items): (Vec<(u32, u32)>, Vec<Item>) = rows.into_iter().unzip();
        let (segment_of, draw_of) = tags.into_iter().unzip();
        KeySample {
            items,
            segment_of,
            draw_of,
            segments: self.segments,
        }
    }

    /// Each item with its segment and draw.
    pub fn iter(&self) -> impl Iterator<Item = (Seen, &Item)> {
        self.segment_of
            .iter()
            .zip(&self.draw_of)
            .map(|(&segment, &draw)| Seen { segment, draw })
            .zip(&self.items)
    }
}

/// Where a sampled item was seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    pub segment: u32,
    pub draw: u32,
}

/// What a sample says about one key attribute's values.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "judged", rename_all = "kebab-case")]
pub enum Cardinality {
    /// Few values, recurring across segments.
    Low(LowCardinality),
    /// New values in segment after segment: no sign of few.
    NotLow {
        values: usize,
        items: u64,
        segments_hit: usize,
        segments: u32,
    },
    /// Too few items or draws to say either.
    TooFew {
        items: u64,
        draws: usize,
        segments_hit: usize,
        segments: u32,
    },
}

impl Cardinality {
    /// One line on what the judgement rests on, for the report.
    pub fn basis(&self, attribute: &str) -> String {
        match self {
            Cardinality::Low(r) => format!(
                "{attribute}: {} values in {} sampled items from {} of {} scan segments",
                r.values, r.sampled_items, r.segments_hit, r.segments
            ),
            Cardinality::NotLow {
                values,
                items,
                segments_hit,
                segments,
            } => format!(
                "{attribute}: {values} values in {items} sampled items from {segments_hit} of {segments} scan segments; no sign of few values"
            ),
            Cardinality::TooFew {
                items,
                draws,
                segments_hit,
                segments,
            } => format!(
                "{attribute}: not enough items to judge its cardinality ({items} sampled items hold it, {draws} independent draws from {segments_hit} of {segments} scan segments; at least {MIN_SAMPLED_ITEMS} items in {MIN_DRAWS} draws are needed)"
            ),
        }
    }

    pub fn low(&self) -> Option<&LowCardinality> {
        match self {
            Cardinality::Low(r) => Some(r),
            _ => None,
        }
    }
}

/// `seen`: per value of `attribute`, where each sampled item holding it was seen.
pub fn judge_cardinality(
    attribute: &str,
    seen: &BTreeMap<String, Vec<Seen>>,
    segments: u32,
) -> Cardinality {
    let items: u64 = seen.values().map(|s| s.len() as u64).sum();
    let segments_hit = seen
        .values()
        .flatten()
        .map(|s| s.segment)
        .collect::<BTreeSet<_>>()
        .len();
    let draws = seen
        .values()
        .flatten()
        .map(|s| s.draw)
        .collect::<BTreeSet<_>>()
        .len();
    if items < MIN_SAMPLED_ITEMS || draws < MIN_DRAWS {
        return Cardinality::TooFew {
            items,
            draws,
            segments_hit,
            segments,
        };
    }
    // A value counts once per draw it turned up in: the items of a segment read in part are
    // mostly one partition's, and say nothing more about how many values there are.
    let presences: usize = seen
        .values()
        .map(|s| s.iter().map(|x| x.draw).collect::<BTreeSet<_>>().len())
        .sum();
    let values = seen.len();
    let counts: BTreeMap<String, u64> = seen
        .iter()
        .map(|(k, s)| (k.clone(), s.len() as u64))
        .collect();
    let recurring = values <= MAX_VALUES && presences >= RECURRENCE * values;
    match low_cardinality(attribute, &counts).filter(|_| recurring) {
        Some(mut risk) => {
            risk.segments_hit = segments_hit;
            risk.segments = segments;
            Cardinality::Low(risk)
        }
        None => Cardinality::NotLow {
            values,
            items,
            segments_hit,
            segments,
        },
    }
}

#[cfg(test)]
#[path = "sample_tests.rs"]
mod tests;
