//! Which partitions a change wrote to: the table's, by its partition key, and each GSI's whose
//! key attributes the item carries, by that GSI's partition key.
//!
//! A GSI is a table of its own with its own partitions and its own 1,000 WCU/s per partition,
//! and DynamoDB writes to it whenever a table write adds, changes or removes an index entry.
//! An item is in a GSI only when it has all of the GSI's key attributes (indexes are sparse).
//! A MODIFY that moves an item from one GSI key to another (`STATUS#PENDING#3` →
//! `STATUS#SHIPPED`) deletes the old entry and writes the new one: both keys take a write.
//! LSIs share the table's partition key, so their writes land on the table's partition.

use std::borrow::Cow;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use super::change::Change;
use crate::design::schema::{IndexKind, KeyAttr, TableInfo};
use crate::item::value::{AttrValue, Item};

/// A partition key value as text: S as is, N as its exact text, B as base64. Other types never
/// appear in keys; they are named by type rather than guessed at.
pub fn key_text(value: &AttrValue) -> Cow<'_, str> {
    match value {
        AttrValue::S(s) | AttrValue::N(s) => Cow::Borrowed(s),
        AttrValue::B(b) => Cow::Owned(BASE64.encode(b)),
        other => Cow::Owned(format!("({})", other.type_name())),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GsiKeys {
    pub index: String,
    /// The partition attributes' names joined by ` + `: how reports name the key.
    pub partition_key: String,
    /// The partition attributes, in key-schema order (several on a multi-attribute GSI).
    pub partition: Vec<String>,
    /// The sort attributes: an item lacking one is not in the index.
    pub sort: Vec<String>,
}

/// The key attributes a change is attributed by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteTargets {
    pub table: String,
    pub partition_key: String,
    pub gsis: Vec<GsiKeys>,
}

impl WriteTargets {
    pub fn from_table(info: &TableInfo) -> Self {
        WriteTargets {
            table: info.name.clone(),
            partition_key: info.keys.partition_key().name.clone(),
            gsis: info
                .indexes
                .iter()
                .filter(|i| i.kind == IndexKind::Gsi)
                .map(|i| {
                    let names = |list: &[KeyAttr]| list.iter().map(|k| k.name.clone()).collect();
                    let partition: Vec<String> = names(i.keys.partition());
                    GsiKeys {
                        index: i.name.clone(),
                        partition_key: partition.join(" + "),
                        partition,
                        sort: names(i.keys.sort()),
                    }
                })
                .collect(),
        }
    }

    /// The table partition key of a change, from its keys.
    pub fn table_key<'a>(&self, change: &'a Change) -> Option<Cow<'a, str>> {
        change.keys.get(&self.partition_key).map(key_text)
    }

    /// Calls `each(gsi, key)` for every GSI partition key the change wrote to: the key in the
    /// new image and, when it differs, the one in the old image. With no image (KEYS_ONLY) only
    /// GSIs keyed by table key attributes can be attributed.
    pub fn for_each_gsi_key<'a>(
        &self,
        change: &'a Change,
        mut each: impl FnMut(usize, Cow<'a, str>),
    ) {
        for (i, gsi) in self.gsis.iter().enumerate() {
            let old = change.old_image.as_ref().and_then(|img| gsi_key(gsi, img));
            let new = change.new_image.as_ref().and_then(|img| gsi_key(gsi, img));
            let from_keys = || {
                if change.old_image.is_none() && change.new_image.is_none() {
                    gsi_key(gsi, &change.keys)
                } else {
                    None
                }
            };
            match (old, new) {
                (Some(o), Some(n)) if o == n => each(i, n),
                (Some(o), Some(n)) => {
                    each(i, o);
                    each(i, n);
                }
                (Some(k), None) | (None, Some(k)) => each(i, k),
                (None, None) => {
                    if let Some(k) = from_keys() {
                        each(i, k);
                    }
                }
            }
        }
    }
}

/// The GSI partition key of an item in the GSI; `None` when the item lacks a key attribute
/// (a sparse index: DynamoDB indexes only items with every key attribute). A multi-attribute
/// partition key is its values in key-schema order joined by ` · `.
fn gsi_key<'a>(gsi: &GsiKeys, image: &'a Item) -> Option<Cow<'a, str>> {
    for sk in &gsi.sort {
        image.get(sk)?;
    }
    let values = gsi
        .partition
        .iter()
        .map(|name| image.get(name).map(key_text))
        .collect::<Option<Vec<_>>>()?;
    match values.len() {
        1 => values.into_iter().next(),
        _ => Some(Cow::Owned(values.join(" · "))),
    }
}

#[cfg(test)]
mod tests {
    use super::super::change::fixtures::{change, demo_table};
    use super::super::change::ChangeEvent;
    use super::*;

    fn targets() -> WriteTargets {
        WriteTargets::from_table(&demo_table())
    }

    fn gsi_keys(change: &Change) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        targets().for_each_gsi_key(change, |i, k| out.push((i, k.into_owned())));
        out
    }

    #[test]
    fn table_and_gsi_keys_of_the_demo_schema() {
        let t = targets();
        assert_eq!(t.partition_key, "PK");
        assert_eq!(t.gsis.len(), 1, "LSIs are not write targets of their own");
        assert_eq!(t.gsis[0].partition_key, "GSI1PK");
        let c = change(
            ChangeEvent::Insert,
            "USER#1",
            None,
            Some(&[("GSI1PK", "STATUS#PENDING#3"), ("GSI1SK", "2026")]),
        );
        assert_eq!(t.table_key(&c).as_deref(), Some("USER#1"));
        assert_eq!(gsi_keys(&c), [(0, "STATUS#PENDING#3".to_string())]);
    }

    #[test]
    fn a_moved_gsi_key_writes_both_partitions_and_an_unchanged_one_once() {
        let moved = change(
            ChangeEvent::Modify,
            "USER#1",
            Some(&[("GSI1PK", "STATUS#PENDING#3"), ("GSI1SK", "a")]),
            Some(&[("GSI1PK", "STATUS#SHIPPED"), ("GSI1SK", "a")]),
        );
        assert_eq!(
            gsi_keys(&moved),
            [
                (0, "STATUS#PENDING#3".to_string()),
                (0, "STATUS#SHIPPED".to_string())
            ]
        );
        let same = change(
            ChangeEvent::Modify,
            "USER#1",
            Some(&[("GSI1PK", "STATUS#SHIPPED"), ("GSI1SK", "a")]),
            Some(&[("GSI1PK", "STATUS#SHIPPED"), ("GSI1SK", "b")]),
        );
        assert_eq!(gsi_keys(&same), [(0, "STATUS#SHIPPED".to_string())]);
    }

    #[test]
    fn a_multi_attribute_gsi_key_is_every_partition_value_in_order() {
        use crate::design::schema::{KeySchema, KeyType};
        let mut info = demo_table();
        let attr = |name: &str| KeyAttr::new(name, KeyType::S);
        info.indexes[0].keys = KeySchema::new(
            vec![attr("tournamentId"), attr("region")],
            vec![attr("round"), attr("bracket")],
        )
        .unwrap();
        let t = WriteTargets::from_table(&info);
        assert_eq!(t.gsis[0].partition_key, "tournamentId + region");
        let keys = |image: &[(&str, &str)]| {
            let c = change(ChangeEvent::Insert, "MATCH#1", None, Some(image));
            let mut out = Vec::new();
            t.for_each_gsi_key(&c, |_, k| out.push(k.into_owned()));
            out
        };
        let whole = [
            ("region", "EU-WEST"),
            ("tournamentId", "WINTER2024"),
            ("round", "SEMIFINALS"),
            ("bracket", "UPPER"),
        ];
        assert_eq!(keys(&whole), ["WINTER2024 · EU-WEST"]);
        // Without its second sort attribute the item is not in the index.
        assert!(keys(&whole[..3]).is_empty());
    }

    #[test]
    fn sparse_items_and_keys_only_records_are_not_attributed() {
        // No GSI1SK: not in the index.
        let sparse = change(
            ChangeEvent::Insert,
            "USER#1",
            None,
            Some(&[("GSI1PK", "STATUS#PENDING#3")]),
        );
        assert!(gsi_keys(&sparse).is_empty());
        let keys_only = change(ChangeEvent::Modify, "USER#1", None, None);
        assert!(gsi_keys(&keys_only).is_empty());
    }

    #[test]
    fn key_text_by_type() {
        assert_eq!(key_text(&AttrValue::S("a".into())), "a");
        assert_eq!(key_text(&AttrValue::N("-1.50".into())), "-1.50");
        assert_eq!(key_text(&AttrValue::B(vec![0, 1, 255])), "AAH/");
        assert_eq!(key_text(&AttrValue::Null), "(NULL)");
    }
}
