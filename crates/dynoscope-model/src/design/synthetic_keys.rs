//! Synthetic key attributes that a multi-attribute key would replace. Single-table designs
//! concatenate attributes into one key value (`GSI1PK = "TOURNAMENT#w25#REGION#eu"` beside
//! `tournamentId = "w25"` and `region = "eu"`) because a key used to be one attribute; since
//! November 2025 a GSI may be keyed by up to four partition and four sort attributes, so the
//! same access patterns can read the real attributes, typed, with nothing to backfill.
//!
//! [`synthetic_keys`] reads items (a sample, or what a view already holds) and, for the table
//! and each GSI, groups the items by the shape of their key values: each value is split at its
//! separator, an upper-case segment no attribute of the item equals is a label (`TOURNAMENT`),
//! any other segment a part. A part is named by the attribute whose value equals it in more
//! than half of that shape's items (the most such, ties by name); a number attribute also
//! equals a zero-padded segment (`ROUND#007` beside `round = 7`). The advice is the key those
//! attributes make, in the order of the parts, and how many items it rests on: the items of
//! that shape whose every part equals its attribute. A shape whose parts are not all carried
//! gets no key, and says which parts are missing. Advice only: nothing is created.
//!
//! Work is bounded per item: a key value longer than DynamoDB allows (2048 bytes) or of more
//! than [`MAX_SEGMENTS`] segments is not read, and only scalar attributes of at most that
//! length are compared.

use std::collections::BTreeMap;

use serde::Serialize;

use super::entity::{
    infer_separator, split_segments, COMMON_ENTITY_ATTRIBUTES, LIBRARY_ATTRIBUTES,
};
use super::schema::{IndexKind, KeyAttr, KeySchema, KeyType, TableInfo, MAX_KEY_ATTRIBUTES};
use crate::item::number::compare_numbers;
use crate::item::value::{AttrValue, Item};
use crate::text::wording::thousands;

/// DynamoDB's largest partition key value: a longer one is not a key and is not read.
const MAX_VALUE_BYTES: usize = 2048;
/// The most segments of one key value read: four parts with a label before each, and room.
pub const MAX_SEGMENTS: usize = 12;
/// The fewest items a key may rest on: one item is an anecdote.
const MIN_ITEMS: usize = 2;

/// What the items say about one shape of one target's synthetic keys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SyntheticKeyAdvice {
    /// The GSI, or `None` for the table (whose own key cannot have several attributes: the
    /// advice is then a GSI keyed so).
    pub index: Option<String>,
    /// The synthetic attributes the key would make unnecessary (`GSI1PK`, `GSI1SK`).
    pub replaces: Vec<String>,
    /// Each synthetic attribute's shape, `TOURNAMENT#{tournamentId}#REGION#{region}`, a part
    /// no attribute carries written `{?}`; in the order of `replaces`. Labels are item data.
    pub shapes: Vec<String>,
    /// The multi-attribute key that serves the same patterns; `None` when a part is missing.
    pub key: Option<KeySchema>,
    /// The parts no attribute of the items carries, as `GSI1SK part 2`.
    pub missing: Vec<String>,
    /// Items of this shape whose every part equals its attribute.
    pub items: usize,
    /// Items of this shape.
    pub of_shape: usize,
    /// Items read in all.
    pub read: usize,
}

impl SyntheticKeyAdvice {
    /// The advice in one line (labels and names as the items hold them: escape for display).
    pub fn message(&self) -> String {
        let target = self
            .index
            .as_deref()
            .map_or("the table".into(), |i| format!("GSI {i}"));
        let shapes: Vec<String> = self
            .replaces
            .iter()
            .zip(&self.shapes)
            .map(|(attr, shape)| format!("{attr} = {shape}"))
            .collect();
        let basis = format!(
            "{} of the {} items of that shape, of {} read",
            thousands(self.items as u64),
            thousands(self.of_shape as u64),
            thousands(self.read as u64)
        );
        match &self.key {
            Some(key) => format!(
                "{target}: {} are concatenations of attributes the items carry; a GSI keyed by {} would serve the same patterns without {} ({basis})",
                shapes.join(", "),
                key.display(),
                self.replaces.join(" and ")
            ),
            None => format!(
                "{target}: {}: no attribute of the items carries {}, so no multi-attribute key replaces {} ({} items of that shape, of {} read)",
                shapes.join(", "),
                self.missing.join(", "),
                self.replaces.join(" and "),
                thousands(self.of_shape as u64),
                thousands(self.read as u64)
            ),
        }
    }
}

/// One segment of a key value's shape.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Token {
    Label(String),
    Part,
}

/// A side of a target's key: one synthetic attribute to decompose, or attributes kept as
/// they are (already real, or holding no concatenation).
struct Side<'a> {
    attrs: &'a [KeyAttr],
    separator: Option<char>,
}

/// What one item's side reads as: `None` kept; else each segment's token and, for a part,
/// the `(attribute, type)` pairs equal to it.
type SideRead = Option<Vec<(Token, Vec<(String, KeyType)>)>>;

/// Advice for the table and each GSI, from `items` (every item counts; pass a sample's size
/// as `items.len()`). Empty when no key value is a concatenation of attributes the same items
/// carry.
pub fn synthetic_keys(info: &TableInfo, items: &[Item]) -> Vec<SyntheticKeyAdvice> {
    let mut out = vec![];
    // Other targets' key attributes: a segment only they equal (`PRODUCT` beside the table's
    // `SK = "PRODUCT"`) is still a label, though they may be a part (a GSI keyed by `status`).
    let mut keys: Vec<&str> = info.keys.attributes().map(|k| k.name.as_str()).collect();
    for index in &info.indexes {
        keys.extend(index.keys.attributes().map(|k| k.name.as_str()));
    }
    out.extend(target_advice(None, &info.keys, items, &keys));
    for index in info.indexes.iter().filter(|i| i.kind == IndexKind::Gsi) {
        out.extend(target_advice(Some(&index.name), &index.keys, items, &keys));
    }
    out
}

fn side<'a>(attrs: &'a [KeyAttr], items: &[Item]) -> Side<'a> {
    let synthetic = matches!(attrs, [one] if one.key_type == KeyType::S);
    let separator = synthetic.then(|| {
        let values = items
            .iter()
            .filter_map(|i| i.get(&attrs[0].name).and_then(AttrValue::as_s))
            .filter(|v| v.len() <= MAX_VALUE_BYTES)
            .take(1000);
        infer_separator(values)
    });
    Side { attrs, separator }
}

fn target_advice(
    index: Option<&str>,
    keys: &KeySchema,
    items: &[Item],
    key_attributes: &[&str],
) -> Vec<SyntheticKeyAdvice> {
    // The key's own attributes, and those naming an item's entity (`ORDER` is a label even
    // where `entityType = "ORDER"`), are never a part.
    let mut skip: Vec<&str> = LIBRARY_ATTRIBUTES
        .iter()
        .chain(&COMMON_ENTITY_ATTRIBUTES)
        .copied()
        .collect();
    skip.extend(keys.attributes().map(|k| k.name.as_str()));
    let skip = &skip[..];
    let sides = [side(keys.partition(), items), side(keys.sort(), items)];
    // Shape of both sides -> each member's reading.
    let mut shapes: BTreeMap<Vec<Option<Vec<Token>>>, Vec<Vec<SideRead>>> = BTreeMap::new();
    for item in items {
        if !keys.attributes().all(|k| item.get(&k.name).is_some()) {
            continue; // not in the index
        }
        let Some(read): Option<Vec<SideRead>> = sides
            .iter()
            .map(|side| read_side(side, item, skip, key_attributes))
            .collect()
        else {
            continue;
        };
        let shape = read
            .iter()
            .map(|r| {
                r.as_ref()
                    .map(|tokens| tokens.iter().map(|(t, _)| t.clone()).collect())
            })
            .collect();
        shapes.entry(shape).or_default().push(read);
    }
    shapes
        .into_iter()
        .filter_map(|(shape, members)| advise_shape(index, &sides, &shape, &members, items.len()))
        .collect()
}

/// One item's side: `Some(None)` kept as it is, `Some(Some(tokens))` a concatenation, `None`
/// when the value is beyond the bounds (the item is left out).
fn read_side(side: &Side, item: &Item, skip: &[&str], keys: &[&str]) -> Option<SideRead> {
    let Some(separator) = side.separator else {
        return Some(None);
    };
    let value = item.get(&side.attrs[0].name)?.as_s()?;
    if value.len() > MAX_VALUE_BYTES {
        return None;
    }
    let body = value.strip_prefix(separator).unwrap_or(value);
    if !body.contains(separator) {
        return Some(None); // not a concatenation
    }
    if body.matches(separator).count() >= MAX_SEGMENTS {
        return None;
    }
    let tokens = split_segments(body, separator)
        .into_iter()
        .map(|segment| {
            let equal = equal_attributes(item, segment, skip);
            let label = equal.iter().all(|(name, _)| keys.contains(&name.as_str()))
                && segment.starts_with(|c: char| c.is_ascii_uppercase())
                && segment
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
            match label {
                true => (Token::Label(segment.to_string()), Vec::new()),
                false => (Token::Part, equal),
            }
        })
        .collect();
    Some(Some(tokens))
}

/// The item's scalar attributes (S, or N, numerically) equal to `segment`.
fn equal_attributes(item: &Item, segment: &str, skip: &[&str]) -> Vec<(String, KeyType)> {
    if segment.is_empty() {
        return Vec::new();
    }
    item.iter()
        .filter(|(name, _)| !skip.contains(name))
        .filter_map(|(name, value)| {
            let key_type = match value {
                AttrValue::S(s) if s == segment => KeyType::S,
                // 38 digits and a sign, exponent or point: a longer segment is no number.
                AttrValue::N(n)
                    if segment.len() <= 48
                        && segment.starts_with(|c: char| c.is_ascii_digit() || c == '-')
                        && compare_numbers(n, segment).is_eq() =>
                {
                    KeyType::N
                }
                _ => return None,
            };
            Some((name.to_string(), key_type))
        })
        .collect()
}

fn advise_shape(
    index: Option<&str>,
    sides: &[Side; 2],
    shape: &[Option<Vec<Token>>],
    members: &[Vec<SideRead>],
    read: usize,
) -> Option<SyntheticKeyAdvice> {
    if shape.iter().all(Option::is_none) || members.len() < MIN_ITEMS {
        return None;
    }
    // Several attributes on a side, once every part is one: else the key is one-and-one,
    // which GSIs always had, and not what this advice is about.
    let width = |(side, tokens): (&Side, &Option<Vec<Token>>)| match tokens {
        Some(tokens) => tokens.iter().filter(|t| **t == Token::Part).count(),
        None => side.attrs.len(),
    };
    if sides.iter().zip(shape).all(|side| width(side) <= 1) {
        return None;
    }
    let mut used: Vec<String> = sides
        .iter()
        .zip(shape)
        .filter(|(_, s)| s.is_none())
        .flat_map(|(side, _)| side.attrs.iter().map(|k| k.name.clone()))
        .collect();
    let mut key_sides: [Vec<KeyAttr>; 2] = [vec![], vec![]];
    let mut chosen: Vec<(usize, usize, (String, KeyType))> = vec![];
    let (mut replaces, mut shapes, mut missing) = (vec![], vec![], vec![]);
    for (s, (side, tokens)) in sides.iter().zip(shape).enumerate() {
        let Some(tokens) = tokens else {
            key_sides[s] = side.attrs.to_vec();
            continue;
        };
        let name = &side.attrs[0].name;
        let separator = side.separator.unwrap_or('#');
        let mut text: Vec<String> = vec![];
        let mut part = 0;
        for (t, token) in tokens.iter().enumerate() {
            if let Token::Label(label) = token {
                text.push(label.clone());
                continue;
            }
            part += 1;
            match best_attribute(members, s, t, &used) {
                Some(attr) => {
                    text.push(format!("{{{}}}", attr.0));
                    used.push(attr.0.clone());
                    key_sides[s].push(KeyAttr::new(attr.0.clone(), attr.1));
                    chosen.push((s, t, attr));
                }
                None => {
                    text.push("{?}".into());
                    missing.push(format!("{name} part {part}"));
                }
            }
        }
        replaces.push(name.clone());
        shapes.push(text.join(&separator.to_string()));
    }
    if chosen.is_empty() {
        return None; // labels and unknown parts: not a concatenation of attributes
    }
    let items = members
        .iter()
        .filter(|m| {
            chosen.iter().all(|(s, t, attr)| {
                m[*s]
                    .as_ref()
                    .is_some_and(|tokens| tokens[*t].1.contains(attr))
            })
        })
        .count();
    let key = match missing.is_empty() {
        // A table's key is one attribute a side whatever its items carry: only a key is news.
        false if index.is_none() => return None,
        true => {
            let [partition, sort] = key_sides;
            let fits = partition.len() <= MAX_KEY_ATTRIBUTES && sort.len() <= MAX_KEY_ATTRIBUTES;
            let key = KeySchema::new(partition, sort).ok().filter(|_| fits)?;
            if items < MIN_ITEMS {
                return None;
            }
            Some(key)
        }
        false => None,
    };
    Some(SyntheticKeyAdvice {
        index: index.map(str::to_string),
        replaces,
        shapes,
        key,
        missing,
        items,
        of_shape: members.len(),
        read,
    })
}

/// The `(attribute, type)` equal to segment `t` of side `s` in the most members, when that is
/// more than half of them; ties by name; an attribute already `used` names no other part.
fn best_attribute(
    members: &[Vec<SideRead>],
    s: usize,
    t: usize,
    used: &[String],
) -> Option<(String, KeyType)> {
    let mut counts: BTreeMap<(&str, &str), (KeyType, usize)> = BTreeMap::new();
    for member in members {
        let Some(tokens) = &member[s] else { continue };
        for (name, key_type) in &tokens[t].1 {
            if !used.contains(name) {
                let entry = counts
                    .entry((name.as_str(), key_type.as_str()))
                    .or_insert((*key_type, 0));
                entry.1 += 1;
            }
        }
    }
    let counts = counts
        .into_iter()
        .map(|((name, _), (key_type, n))| ((name, key_type), n));
    let mut best: Option<((&str, KeyType), usize)> = None;
    for (candidate, count) in counts {
        if best.is_none_or(|(_, top)| count > top) {
            best = Some((candidate, count));
        }
    }
    let ((name, key_type), count) = best?;
    (count * 2 > members.len()).then(|| (name.to_string(), key_type))
}

#[cfg(test)]
#[path = "synthetic_keys_tests.rs"]
mod tests;
