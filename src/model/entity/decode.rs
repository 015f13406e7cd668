//! Reading the kind out of a key value, for one key or a whole item, and guessing the
//! separator from a sample.

use crate::model::value::{AttrValue, Item};

/// Separators single-table libraries use, in tie-break order.
pub const SEPARATORS: [char; 3] = ['#', '|', ':'];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedKey<'a> {
    pub kind: Option<&'a str>,
    /// Segments after the kind; every segment when there is no kind.
    pub parts: Vec<&'a str>,
}

pub fn decode_key(value: &str, separator: char) -> DecodedKey<'_> {
    // ElectroDB-style keys start with the separator (`#META#x`); it carries no meaning.
    let (body, leading) = match value.strip_prefix(separator) {
        Some(rest) => (rest, true),
        None => (value, false),
    };
    if body.is_empty() {
        return DecodedKey {
            kind: None,
            parts: Vec::new(),
        };
    }
    let mut segments = body.split(separator);
    let first = segments.next().unwrap_or_default();
    let prefixed = leading || body.contains(separator);
    let is_kind = if prefixed {
        is_prefix_kind(first)
    } else {
        is_standalone_kind(first)
    };
    if is_kind {
        DecodedKey {
            kind: Some(first),
            parts: segments.collect(),
        }
    } else {
        DecodedKey {
            kind: None,
            parts: body.split(separator).collect(),
        }
    }
}

pub(super) fn is_prefix_kind(segment: &str) -> bool {
    segment.starts_with(|c: char| c.is_ascii_alphabetic())
        && segment
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !looks_like_hex_id(segment)
}

fn is_standalone_kind(segment: &str) -> bool {
    segment.starts_with(|c: char| c.is_ascii_uppercase())
        && segment
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && !looks_like_hex_id(segment)
}

// UUIDs, hashes and similar ids: long, only hex digits and dashes, with at least one digit.
fn looks_like_hex_id(segment: &str) -> bool {
    segment.len() >= 8
        && segment.chars().any(|c| c.is_ascii_digit())
        && segment.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
}

/// Counts, per candidate, the sampled values it splits into a kind prefix; a separator that
/// merely occurs in the data (the `:` of a timestamp) does not count. Ties and an empty sample
/// fall back to the order of [`SEPARATORS`], so `#` wins.
pub fn infer_separator<'a>(values: impl Iterator<Item = &'a str>) -> char {
    let mut counts = [0usize; SEPARATORS.len()];
    for value in values {
        for (count, &sep) in counts.iter_mut().zip(SEPARATORS.iter()) {
            if value.contains(sep) && decode_key(value, sep).kind.is_some() {
                *count += 1;
            }
        }
    }
    let mut best = 0;
    for (i, &count) in counts.iter().enumerate() {
        if count > counts[best] {
            best = i;
        }
    }
    SEPARATORS[best]
}

/// The entity kind an item represents. The sort key says what the item is within its
/// collection (`USER#1` / `ORDER#…` is an order), so its kind wins, with one exception: a sort
/// key that is a bare kind with no parts (`PROFILE`, `#META`, `PRODUCT`) marks the collection's
/// own record, so the item is the partition key's entity (a user profile is a USER). Without a
/// usable sort key the partition key's kind is used. Only string keys carry kinds.
///
/// Runs for every loaded item, so it borrows from the item and allocates nothing (decoding the
/// parts, which only the detail view shows, is left to [`decode_key`]).
pub fn item_kind<'a>(
    item: &'a Item,
    pk_name: &str,
    sk_name: Option<&str>,
    separator: char,
) -> Option<&'a str> {
    let kind_of = |name: &str| {
        item.get(name)
            .and_then(AttrValue::as_s)
            .and_then(|s| key_kind(s, separator))
    };
    let pk_kind = kind_of(pk_name).map(|(kind, _)| kind);
    match sk_name.and_then(kind_of) {
        Some((_, false)) if pk_kind.is_some() => pk_kind,
        Some((sk_kind, _)) => Some(sk_kind),
        None => pk_kind,
    }
}

/// [`decode_key`]'s kind, and whether any parts follow it, without collecting the parts.
fn key_kind(value: &str, separator: char) -> Option<(&str, bool)> {
    let (body, leading) = match value.strip_prefix(separator) {
        Some(rest) => (rest, true),
        None => (value, false),
    };
    let (first, has_parts) = match body.split_once(separator) {
        Some((first, _)) => (first, true),
        None => (body, false),
    };
    if body.is_empty() {
        return None;
    }
    let is_kind = if leading || has_parts {
        is_prefix_kind(first)
    } else {
        is_standalone_kind(first)
    };
    is_kind.then_some((first, has_parts))
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
