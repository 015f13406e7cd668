//! Each item's sort key, copied once at insert into an encoding whose byte order is DynamoDB's
//! order, so comparisons never chase pointers into the items.

use std::cmp::Ordering;

use super::store::ItemId;
use crate::item::number;
use crate::item::value::AttrValue;

/// Every item's sort key, encoded by [`encode_sort_key`], back to back.
#[derive(Debug, Clone, Default)]
pub(super) struct SortKeys {
    pub(super) bytes: Vec<u8>,
    /// Per item: where its key ends in `bytes`; it starts where the previous item's ends.
    pub(super) ends: Vec<usize>,
}

impl SortKeys {
    pub(super) fn push(&mut self, value: Option<&AttrValue>) {
        if let Some(value) = value {
            encode_sort_key(value, &mut self.bytes);
        }
        self.ends.push(self.bytes.len());
    }

    /// A multi-attribute sort key: each attribute's encoding in key-schema order, escaped and
    /// terminated so the whole compares as DynamoDB orders the tuple, attribute by attribute
    /// (a missing attribute, or one that is a prefix of another, sorts first).
    pub(super) fn push_tuple(&mut self, values: &[Option<&AttrValue>]) {
        let mut part = Vec::new();
        for value in values {
            part.clear();
            if let Some(value) = value {
                encode_sort_key(value, &mut part);
            }
            for &byte in &part {
                self.bytes.push(byte);
                if byte == 0 {
                    self.bytes.push(0xFF);
                }
            }
            self.bytes.extend_from_slice(&[0, 0]);
        }
        self.ends.push(self.bytes.len());
    }

    pub(super) fn get(&self, id: ItemId) -> &[u8] {
        let id = id as usize;
        let start = if id == 0 { 0 } else { self.ends[id - 1] };
        &self.bytes[start..self.ends[id]]
    }

    /// Total order of items within a collection: sort key (missing first), then arrival.
    pub(super) fn order(&self, a: ItemId, b: ItemId) -> Ordering {
        self.get(a).cmp(self.get(b)).then(a.cmp(&b))
    }
}

/// Appends `value` encoded so that comparing encodings byte by byte orders values as
/// [`dynamo_cmp`](super::dynamo_cmp) does. A missing key encodes as nothing, so it sorts first.
/// The first byte is the type's rank by type name; S and B follow with their bytes, N with
/// [`encode_number`], and other types with nothing, as they compare equal.
fn encode_sort_key(value: &AttrValue, out: &mut Vec<u8>) {
    out.push(type_rank(value));
    match value {
        AttrValue::S(text) => out.extend_from_slice(text.as_bytes()),
        AttrValue::B(bytes) => out.extend_from_slice(bytes),
        AttrValue::N(text) => encode_number(text, out),
        _ => {}
    }
}

/// 1-based position of the type name in alphabetical order (B, BOOL, BS, L, M, N, NS, NULL, S,
/// SS).
fn type_rank(value: &AttrValue) -> u8 {
    match value {
        AttrValue::B(_) => 1,
        AttrValue::Bool(_) => 2,
        AttrValue::Bs(_) => 3,
        AttrValue::L(_) => 4,
        AttrValue::M(_) => 5,
        AttrValue::N(_) => 6,
        AttrValue::Ns(_) => 7,
        AttrValue::Null => 8,
        AttrValue::S(_) => 9,
        AttrValue::Ss(_) => 10,
    }
}

const NUMBER_NEGATIVE: u8 = 1;
const NUMBER_ZERO: u8 = 2;
const NUMBER_POSITIVE: u8 = 3;
const NUMBER_NOT_A_NUMBER: u8 = 4;

/// A number as sign class, then (for non-zero values) the exponent of `0.d1d2… × 10^e` as a
/// biased big-endian `u64`, then the significant digits; a negative number inverts both and ends
/// with 0xFF, so a larger magnitude sorts first and a digit-prefix (smaller magnitude) last.
/// Text that is not a number follows every number, as itself. The digits and exponent are
/// [`number::parse`]'s, the normal form `compare_numbers` compares, so both orders agree.
fn encode_number(text: &str, out: &mut Vec<u8>) {
    let Some(decimal) = number::parse(text) else {
        out.push(NUMBER_NOT_A_NUMBER);
        out.extend_from_slice(text.as_bytes());
        return;
    };
    if decimal.digits.is_empty() {
        out.push(NUMBER_ZERO);
        return;
    }
    let biased = (decimal.exponent as u64) ^ (1 << 63);
    if decimal.negative {
        out.push(NUMBER_NEGATIVE);
        out.extend_from_slice(&(!biased).to_be_bytes());
        out.extend(decimal.digits.iter().map(|d| !d));
        out.push(0xFF);
    } else {
        out.push(NUMBER_POSITIVE);
        out.extend_from_slice(&biased.to_be_bytes());
        out.extend_from_slice(&decimal.digits);
    }
}

#[cfg(test)]
#[path = "sort_key_tests.rs"]
mod tests;
