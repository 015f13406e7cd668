//! One stream record as dynoscope keeps it: what happened to which item, what the view type
//! lets us see of it, and what the write cost.
//!
//! Write cost follows DynamoDB's rule for a write: one write unit per 1 KB (rounded up) of the
//! larger of the item before and after the write, at least one
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/provisioned-capacity-mode.html>).
//! The stream shows both only with `NEW_AND_OLD_IMAGES`; with other view types the cost is
//! estimated from what the record carries and flagged as such. Deletes by the TTL service cost
//! no write capacity (DynamoDB does them in the background for free).

use crate::item::item_size::item_size;
use crate::item::value::Item;

/// Bytes per write capacity unit.
pub const WRITE_UNIT_BYTES: u64 = 1024;
/// How the TTL service signs its deletes: `userIdentity` is `{"type": "Service",
/// "principalId": "dynamodb.amazonaws.com"}` (DynamoDB developer guide, "TTL and streams").
pub const TTL_IDENTITY_TYPE: &str = "Service";
pub const TTL_PRINCIPAL: &str = "dynamodb.amazonaws.com";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChangeEvent {
    Insert,
    Modify,
    Remove,
}

impl ChangeEvent {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeEvent::Insert => "INSERT",
            ChangeEvent::Modify => "MODIFY",
            ChangeEvent::Remove => "REMOVE",
        }
    }
}

/// The stream's `StreamViewType`: which images each record carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ViewType {
    KeysOnly,
    NewImage,
    OldImage,
    NewAndOldImages,
}

impl ViewType {
    pub fn parse(text: &str) -> Option<ViewType> {
        Some(match text {
            "KEYS_ONLY" => ViewType::KeysOnly,
            "NEW_IMAGE" => ViewType::NewImage,
            "OLD_IMAGE" => ViewType::OldImage,
            "NEW_AND_OLD_IMAGES" => ViewType::NewAndOldImages,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ViewType::KeysOnly => "KEYS_ONLY",
            ViewType::NewImage => "NEW_IMAGE",
            ViewType::OldImage => "OLD_IMAGE",
            ViewType::NewAndOldImages => "NEW_AND_OLD_IMAGES",
        }
    }

    pub fn has_new(self) -> bool {
        matches!(self, ViewType::NewImage | ViewType::NewAndOldImages)
    }

    pub fn has_old(self) -> bool {
        matches!(self, ViewType::OldImage | ViewType::NewAndOldImages)
    }

    /// What a reader of this stream cannot know, said once where changes are shown.
    pub fn blind_spot(self) -> Option<&'static str> {
        match self {
            ViewType::KeysOnly => Some(
                "KEYS_ONLY: records carry keys only, so no values, no old -> new diff, no GSI attribution (unless a GSI key is a table key), and write units are estimated",
            ),
            ViewType::NewImage => Some(
                "NEW_IMAGE: no item before the write, so no old -> new diff; MODIFY and REMOVE write units are estimated",
            ),
            ViewType::OldImage => Some(
                "OLD_IMAGE: no item after the write, so no old -> new diff; INSERT and MODIFY write units are estimated",
            ),
            ViewType::NewAndOldImages => None,
        }
    }
}

/// Write capacity units of one change, and whether they are a guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WriteUnits {
    pub units: u64,
    /// The record did not carry every image the rule needs (see [`Change::write_units`]).
    pub estimated: bool,
}

/// Write units for an item of `bytes`: 1 KB rounded up, at least one.
pub fn units_for_bytes(bytes: u64) -> u64 {
    bytes.div_ceil(WRITE_UNIT_BYTES).max(1)
}

/// Whether a record's `userIdentity` is the TTL service's.
pub fn is_ttl_identity(identity_type: Option<&str>, principal: Option<&str>) -> bool {
    identity_type == Some(TTL_IDENTITY_TYPE) && principal == Some(TTL_PRINCIPAL)
}

#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub event: ChangeEvent,
    /// The item's primary key (table key attributes only).
    pub keys: Item,
    pub old_image: Option<Item>,
    pub new_image: Option<Item>,
    /// The shard's sequence number: orders records of one shard, and so of one item.
    pub sequence_number: String,
    /// `ApproximateCreationDateTime` in milliseconds since the Unix epoch.
    pub created_at_ms: Option<i64>,
    /// `SizeBytes`: the stream record's size (keys and images it carries).
    pub size_bytes: u64,
    /// From the record, else the stream's; `None` when neither said.
    pub view: Option<ViewType>,
    /// Deleted by the TTL service (see [`is_ttl_identity`]).
    pub ttl_delete: bool,
}

impl Change {
    /// The write units this change cost the table. Exact (by the 1 KB rule) when the record
    /// carries every image the event needs: the new one for INSERT, the old one for REMOVE,
    /// both for MODIFY. Otherwise estimated from the larger of the images it does carry and
    /// `SizeBytes` (a lower bound: the missing image may be larger).
    pub fn write_units(&self) -> WriteUnits {
        if self.ttl_delete {
            return WriteUnits {
                units: 0,
                estimated: false,
            };
        }
        let old = self.old_image.as_ref().map(|i| item_size(i) as u64);
        let new = self.new_image.as_ref().map(|i| item_size(i) as u64);
        let exact = match self.event {
            ChangeEvent::Insert => new,
            ChangeEvent::Remove => old,
            ChangeEvent::Modify => old.zip(new).map(|(o, n)| o.max(n)),
        };
        match exact {
            Some(bytes) => WriteUnits {
                units: units_for_bytes(bytes),
                estimated: false,
            },
            None => {
                let seen = old.unwrap_or(0).max(new.unwrap_or(0)).max(self.size_bytes);
                WriteUnits {
                    units: units_for_bytes(seen),
                    estimated: true,
                }
            }
        }
    }

    /// The image that shows the item as the change left it (new), else as it was (old).
    pub fn latest_image(&self) -> Option<&Item> {
        self.new_image.as_ref().or(self.old_image.as_ref())
    }

    /// Bytes this change holds in memory, roughly: what bounded buffers count.
    pub fn footprint(&self) -> usize {
        const OVERHEAD: usize = std::mem::size_of::<Change>() + 64;
        OVERHEAD
            + item_size(&self.keys)
            + self.old_image.as_ref().map_or(0, item_size)
            + self.new_image.as_ref().map_or(0, item_size)
            + self.sequence_number.len()
    }
}

#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;
    use crate::design::schema::{
        IndexInfo, IndexKind, KeyAttr, KeySchema, KeyType, Projection, TableInfo,
    };
    use crate::item::value::AttrValue;

    /// The demo schema: PK/SK, GSI1 on GSI1PK/GSI1SK, LSI1 on PK/LSI1SK.
    pub fn demo_table() -> TableInfo {
        let key = |name: &str, key_type| KeyAttr {
            name: name.into(),
            key_type,
        };
        let index = |name: &str, kind, pk: &str, sk: &str, sk_type| IndexInfo {
            name: name.into(),
            kind,
            keys: KeySchema::simple(key(pk, KeyType::S), Some(key(sk, sk_type))),
            projection: Projection {
                projection_type: "ALL".into(),
                non_key_attributes: vec![],
            },
            provisioned: None,
            item_count: None,
            size_bytes: None,
        };
        TableInfo {
            name: "app".into(),
            status: "ACTIVE".into(),
            keys: KeySchema::simple(key("PK", KeyType::S), Some(key("SK", KeyType::S))),
            indexes: vec![
                index("GSI1", IndexKind::Gsi, "GSI1PK", "GSI1SK", KeyType::S),
                index("LSI1", IndexKind::Lsi, "PK", "LSI1SK", KeyType::N),
            ],
            billing_mode: "PAY_PER_REQUEST".into(),
            provisioned: None,
            item_count: 0,
            size_bytes: 0,
            ttl_attribute: None,
            stream: Some("NEW_AND_OLD_IMAGES".into()),
            on_demand_max: None,
        }
    }

    pub fn item(attrs: &[(&str, &str)]) -> Item {
        Item::from_attrs(
            attrs
                .iter()
                .map(|(k, v)| (k.to_string(), AttrValue::S(v.to_string())))
                .collect(),
        )
    }

    /// A change to `PK=pk, SK=sk` with the given images, in a NEW_AND_OLD_IMAGES stream.
    pub fn change(
        event: ChangeEvent,
        pk: &str,
        old: Option<&[(&str, &str)]>,
        new: Option<&[(&str, &str)]>,
    ) -> Change {
        let with_keys = |attrs: &[(&str, &str)]| {
            let mut all = vec![("PK", pk), ("SK", "S")];
            all.extend_from_slice(attrs);
            item(&all)
        };
        Change {
            event,
            keys: item(&[("PK", pk), ("SK", "S")]),
            old_image: old.map(with_keys),
            new_image: new.map(with_keys),
            sequence_number: "1".into(),
            created_at_ms: Some(0),
            size_bytes: 10,
            view: Some(ViewType::NewAndOldImages),
            ttl_delete: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(bytes: usize) -> String {
        "x".repeat(bytes)
    }

    #[test]
    fn write_units_follow_the_one_kilobyte_rule_on_the_larger_image() {
        // PK=k (3 bytes) + SK=S (3 bytes) + "v" (1) + value: 7 bytes of overhead.
        let v1000 = big(1017); // item of exactly 1024 bytes
        let v1001 = big(1018); // 1025 bytes
        let cases = [
            (ChangeEvent::Insert, None, Some(v1000.as_str()), 1),
            (ChangeEvent::Insert, None, Some(v1001.as_str()), 2),
            (ChangeEvent::Remove, Some(v1001.as_str()), None, 2),
            (ChangeEvent::Modify, Some(v1001.as_str()), Some("small"), 2),
            (ChangeEvent::Modify, Some("small"), Some(v1001.as_str()), 2),
            (ChangeEvent::Modify, Some("a"), Some("b"), 1),
        ];
        for (event, old, new, units) in cases {
            let old_attrs = old.map(|v| vec![("v", v)]);
            let new_attrs = new.map(|v| vec![("v", v)]);
            let c = change("k", old_attrs.as_deref(), new_attrs.as_deref(), event);
            assert_eq!(
                c.write_units(),
                WriteUnits {
                    units,
                    estimated: false
                },
                "{event:?}"
            );
        }
    }

    fn change(
        pk: &str,
        old: Option<&[(&str, &str)]>,
        new: Option<&[(&str, &str)]>,
        event: ChangeEvent,
    ) -> Change {
        super::fixtures::change(event, pk, old, new)
    }

    #[test]
    fn missing_images_make_an_estimate_from_what_is_there() {
        // KEYS_ONLY: only SizeBytes.
        let mut c = change("k", None, None, ChangeEvent::Modify);
        c.view = Some(ViewType::KeysOnly);
        c.size_bytes = 3000;
        assert_eq!(
            c.write_units(),
            WriteUnits {
                units: 3,
                estimated: true
            }
        );
        // NEW_IMAGE MODIFY: the new image is a lower bound.
        let v = big(2100);
        let mut c = change("k", None, Some(&[("v", v.as_str())]), ChangeEvent::Modify);
        c.view = Some(ViewType::NewImage);
        assert_eq!(
            c.write_units(),
            WriteUnits {
                units: 3,
                estimated: true
            }
        );
        // NEW_IMAGE INSERT needs nothing else: exact.
        c.event = ChangeEvent::Insert;
        assert!(!c.write_units().estimated);
    }

    #[test]
    fn ttl_deletes_cost_nothing_and_are_recognised_by_identity() {
        assert!(is_ttl_identity(
            Some("Service"),
            Some("dynamodb.amazonaws.com")
        ));
        assert!(!is_ttl_identity(
            Some("Service"),
            Some("other.amazonaws.com")
        ));
        assert!(!is_ttl_identity(None, Some("dynamodb.amazonaws.com")));
        let mut c = change("k", Some(&[("v", "x")]), None, ChangeEvent::Remove);
        c.ttl_delete = true;
        assert_eq!(c.write_units().units, 0);
    }

    #[test]
    fn view_types_round_trip_and_say_what_they_hide() {
        for v in [
            ViewType::KeysOnly,
            ViewType::NewImage,
            ViewType::OldImage,
            ViewType::NewAndOldImages,
        ] {
            assert_eq!(ViewType::parse(v.as_str()), Some(v));
            assert_eq!(v.blind_spot().is_none(), v.has_new() && v.has_old());
        }
        assert_eq!(ViewType::parse("nope"), None);
        assert!(ViewType::KeysOnly
            .blind_spot()
            .unwrap()
            .contains("no old -> new diff"));
    }
}
