//! Reading the kind out of a key value, for one key or a whole item, and guessing the
//! separator from a sample.

use super::electrodb::decode_electrodb;
use super::timestamp::split_segments;
use crate::item::value::Item;

/// Separators single-table libraries use, in tie-break order.
pub const SEPARATORS: [char; 3] = ['#', '|', ':'];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedKey<'a> {
    pub kind: Option<&'a str>,
    /// Segments after the kind; every segment when there is no kind.
    pub parts: Vec<&'a str>,
    /// The names a key gives its own parts (ElectroDB's `attr_value` segments), one per part;
    /// empty when the key names none.
    pub names: Vec<&'a str>,
}

/// Which key attribute a value is: grammars that write both (ElectroDB) spell them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyRole {
    Partition,
    Sort,
}

/// A key decoded as a partition key (see [`decode_key_as`]).
pub fn decode_key(value: &str, separator: char) -> DecodedKey<'_> {
    decode_key_as(value, separator, KeyRole::Partition)
}

/// The kind and parts of a key: ElectroDB's grammar when the key is written in it, else a
/// literal kind prefix and the segments after it. An ISO-8601 timestamp is one part even when
/// it holds the separator (`:`).
pub fn decode_key_as(value: &str, separator: char, role: KeyRole) -> DecodedKey<'_> {
    if separator == '#' && value.starts_with('$') {
        if let Some(decoded) = decode_electrodb(value, role) {
            return decoded;
        }
    }
    // Keys that start with the separator (`#META#x`): the leading one carries no meaning.
    let (body, leading) = match value.strip_prefix(separator) {
        Some(rest) => (rest, true),
        None => (value, false),
    };
    if body.is_empty() {
        return DecodedKey {
            kind: None,
            parts: Vec::new(),
            names: Vec::new(),
        };
    }
    let mut segments = split_segments(body, separator);
    let first = segments[0];
    let prefixed = leading || segments.len() > 1;
    let is_kind = if prefixed {
        is_prefix_kind(first)
    } else {
        is_standalone_kind(first)
    };
    if is_kind {
        segments.remove(0);
        DecodedKey {
            kind: Some(first),
            parts: segments,
            names: Vec::new(),
        }
    } else {
        DecodedKey {
            kind: None,
            parts: segments,
            names: Vec::new(),
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
pub(super) fn looks_like_hex_id(segment: &str) -> bool {
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
            let electrodb = sep == '#' && decode_electrodb(value, KeyRole::Sort).is_some();
            if electrodb || (value.contains(sep) && decode_key(value, sep).kind.is_some()) {
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

/// The entity kind an item's keys say it is (see [`KindRules`](super::KindRules) for the
/// whole order, of which this is the last rule and the default rules' result when the item
/// carries no library attribute).
pub fn item_kind<'a>(
    item: &'a Item,
    pk_name: &str,
    sk_name: Option<&str>,
    separator: char,
) -> Option<&'a str> {
    super::kind_rules::DEFAULT_KIND_RULES
        .kind(item, pk_name, sk_name, separator)
        .map(|(kind, _)| kind)
}

/// [`decode_key_as`]'s kind, and the text after it and its separator (`None` when no parts
/// follow), without collecting the parts: this runs for every loaded item.
pub(super) fn key_kind(
    value: &str,
    separator: char,
    role: KeyRole,
) -> Option<(&str, Option<&str>)> {
    if separator == '#' && value.starts_with('$') {
        if let Some(decoded) = decode_electrodb(value, role) {
            let rest = value
                .split_once('#')
                .map(|(_, rest)| rest)
                .filter(|_| !decoded.parts.is_empty());
            return decoded.kind.map(|kind| (kind, rest));
        }
    }
    let (body, leading) = match value.strip_prefix(separator) {
        Some(rest) => (rest, true),
        None => (value, false),
    };
    if body.is_empty() {
        return None;
    }
    let (first, rest) = match body.split_once(separator) {
        Some((first, rest)) => (first, Some(rest)),
        None => (body, None),
    };
    let is_kind = if leading || rest.is_some() {
        is_prefix_kind(first)
    } else {
        is_standalone_kind(first)
    };
    is_kind.then_some((first, rest))
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
