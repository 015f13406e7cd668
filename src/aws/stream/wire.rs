//! GetRecords' response body straight into [`Change`]s.
//!
//! The SDK would build a `HashMap<String, AttributeValue>` per key set and image, which
//! [`super::convert`] then turns into `Item`s: two passes and a hash map per image, and the
//! most expensive part of `tail` (measured in benches/tail.rs: the SDK alone decodes about
//! 180,000 demo records a second on one core). This reads the JSON once, building each
//! `Item` directly. It reads the same wire format the SDK does (DynamoDB JSON values, `B` as
//! base64, `ApproximateCreationDateTime` as epoch seconds); `sdk.rs` uses it for successful
//! responses and falls back to the SDK for anything it does not read, and a property test
//! checks that both give the same changes.

use std::fmt;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use crate::model::stream::change::is_ttl_identity;
use crate::model::stream::{Change, ChangeEvent, ViewType};
use crate::model::value::{AttrValue, Item};

/// A GetRecords page as read from its body.
#[derive(Debug, Default)]
pub struct WirePage {
    pub changes: Vec<Change>,
    /// Records without an event name DynamoDB documents or a sequence number.
    pub unreadable: u64,
    pub next_iterator: Option<String>,
}

/// Reads a successful GetRecords body; `fallback_view` as in [`super::convert::change_from_sdk`].
pub fn parse_get_records(
    body: &[u8],
    fallback_view: Option<ViewType>,
) -> serde_json::Result<WirePage> {
    // UTF-8 checked once for the whole body: reading from bytes, serde_json checks each
    // string on its own (a tenth of the reading time, measured with callgrind).
    let text = std::str::from_utf8(body).map_err(|e| {
        <serde_json::Error as serde::de::Error>::custom(format!("the body is not UTF-8: {e}"))
    })?;
    let out: Body = serde_json::from_str(text)?;
    let mut page = WirePage {
        next_iterator: out.next_shard_iterator,
        ..WirePage::default()
    };
    for record in out.records.unwrap_or_default() {
        match record.into_change(fallback_view) {
            Some(c) => page.changes.push(c),
            None => page.unreadable += 1,
        }
    }
    Ok(page)
}

#[derive(Deserialize)]
struct Body {
    #[serde(rename = "NextShardIterator")]
    next_shard_iterator: Option<String>,
    #[serde(rename = "Records")]
    records: Option<Vec<Record>>,
}

#[derive(Deserialize)]
struct Record {
    #[serde(rename = "eventName")]
    event_name: Option<String>,
    dynamodb: Option<StreamRecord>,
    #[serde(rename = "userIdentity")]
    user_identity: Option<Identity>,
}

/// The API spells these capitalised (the Lambda event format does not).
#[derive(Deserialize)]
struct Identity {
    #[serde(rename = "Type")]
    kind: Option<String>,
    #[serde(rename = "PrincipalId")]
    principal_id: Option<String>,
}

#[derive(Deserialize)]
struct StreamRecord {
    #[serde(rename = "ApproximateCreationDateTime")]
    created: Option<f64>,
    #[serde(rename = "Keys")]
    keys: Option<WireItem>,
    #[serde(rename = "NewImage")]
    new_image: Option<WireItem>,
    #[serde(rename = "OldImage")]
    old_image: Option<WireItem>,
    #[serde(rename = "SequenceNumber")]
    sequence_number: Option<String>,
    #[serde(rename = "SizeBytes")]
    size_bytes: Option<i64>,
    #[serde(rename = "StreamViewType")]
    view_type: Option<String>,
}

impl Record {
    fn into_change(self, fallback_view: Option<ViewType>) -> Option<Change> {
        let event = match self.event_name.as_deref()? {
            "INSERT" => ChangeEvent::Insert,
            "MODIFY" => ChangeEvent::Modify,
            "REMOVE" => ChangeEvent::Remove,
            _ => return None,
        };
        let ttl_delete = self
            .user_identity
            .as_ref()
            .is_some_and(|id| is_ttl_identity(id.kind.as_deref(), id.principal_id.as_deref()));
        let data = self.dynamodb?;
        Some(Change {
            event,
            sequence_number: data.sequence_number?,
            keys: data.keys.map(|i| i.0).unwrap_or_default(),
            old_image: data.old_image.map(|i| i.0),
            new_image: data.new_image.map(|i| i.0),
            created_at_ms: data.created.filter(|s| s.is_finite()).map(epoch_millis),
            size_bytes: data.size_bytes.unwrap_or(0).max(0) as u64,
            view: data
                .view_type
                .as_deref()
                .and_then(ViewType::parse)
                .or(fallback_view),
            ttl_delete,
        })
    }
}

/// Epoch seconds as milliseconds exactly as the SDK reads them (`DateTime::from_secs_f64`,
/// then `to_millis`): whole seconds, then the fraction's nanoseconds truncated.
fn epoch_millis(seconds: f64) -> i64 {
    let mut whole = seconds.floor() as i64;
    let mut nanos = ((seconds - seconds.floor()) * 1_000_000_000_f64) as u32;
    if nanos == 1_000_000_000 {
        whole += 1;
        nanos = 0;
    }
    let millis = i64::from(nanos / 1_000_000);
    if whole < 0 {
        (whole + 1) * 1000 - (1000 - millis)
    } else {
        whole * 1000 + millis
    }
}

/// An item in DynamoDB JSON: `{"name": {"S": "…"}, …}`.
struct WireItem(Item);

impl<'de> Deserialize<'de> for WireItem {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ItemVisitor).map(WireItem)
    }
}

struct ItemVisitor;

impl<'de> Visitor<'de> for ItemVisitor {
    type Value = Item;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a DynamoDB JSON item")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item, A::Error> {
        let mut attrs = Vec::with_capacity(map.size_hint().unwrap_or(8));
        while let Some(name) = map.next_key::<String>()? {
            let value = map.next_value::<WireValue>()?;
            attrs.push((name, value.0));
        }
        Ok(Item::from_attrs(attrs))
    }
}

/// One value in DynamoDB JSON: `{"S": "…"}`, `{"N": "1.5"}`, `{"M": {…}}`, ….
struct WireValue(AttrValue);

impl<'de> Deserialize<'de> for WireValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ValueVisitor).map(WireValue)
    }
}

#[derive(Clone, Copy)]
enum Tag {
    S,
    N,
    B,
    Ss,
    Ns,
    Bs,
    M,
    L,
    Null,
    Bool,
    Other,
}

/// A type tag, read without allocating.
struct TagSeed;

impl<'de> DeserializeSeed<'de> for TagSeed {
    type Value = Tag;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Tag, D::Error> {
        struct TagVisitor;
        impl Visitor<'_> for TagVisitor {
            type Value = Tag;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a DynamoDB type tag")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Tag, E> {
                Ok(match v {
                    "S" => Tag::S,
                    "N" => Tag::N,
                    "B" => Tag::B,
                    "SS" => Tag::Ss,
                    "NS" => Tag::Ns,
                    "BS" => Tag::Bs,
                    "M" => Tag::M,
                    "L" => Tag::L,
                    "NULL" => Tag::Null,
                    "BOOL" => Tag::Bool,
                    _ => Tag::Other,
                })
            }
        }
        d.deserialize_str(TagVisitor)
    }
}

fn base64<E: de::Error>(text: &str) -> Result<Vec<u8>, E> {
    BASE64
        .decode(text)
        .map_err(|e| E::custom(format!("binary value is not base64: {e}")))
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = AttrValue;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a DynamoDB JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AttrValue, A::Error> {
        let Some(tag) = map.next_key_seed(TagSeed)? else {
            return Err(de::Error::custom("an attribute value with no type"));
        };
        let value = match tag {
            Tag::S => AttrValue::S(map.next_value()?),
            Tag::N => AttrValue::N(map.next_value()?),
            Tag::B => AttrValue::B(base64(&map.next_value::<String>()?)?),
            Tag::Ss => AttrValue::Ss(map.next_value()?),
            Tag::Ns => AttrValue::Ns(map.next_value()?),
            Tag::Bs => AttrValue::Bs(
                map.next_value::<Vec<String>>()?
                    .iter()
                    .map(|b| base64(b))
                    .collect::<Result<_, _>>()?,
            ),
            Tag::M => AttrValue::M(map.next_value::<WireItem>()?.0),
            Tag::L => AttrValue::L(map.next_value::<WireList>()?.0),
            Tag::Null => {
                map.next_value::<IgnoredAny>()?;
                AttrValue::Null
            }
            Tag::Bool => AttrValue::Bool(map.next_value()?),
            // A type DynamoDB adds later: NULL, as the SDK converter shows it.
            Tag::Other => {
                map.next_value::<IgnoredAny>()?;
                AttrValue::Null
            }
        };
        // The SDK reads a union's first member and skips the rest; so does this.
        while map.next_key::<IgnoredAny>()?.is_some() {
            map.next_value::<IgnoredAny>()?;
        }
        Ok(value)
    }
}

struct WireList(Vec<AttrValue>);

impl<'de> Deserialize<'de> for WireList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ListVisitor;
        impl<'de> Visitor<'de> for ListVisitor {
            type Value = Vec<AttrValue>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a DynamoDB JSON list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(4));
                while let Some(v) = seq.next_element::<WireValue>()? {
                    out.push(v.0);
                }
                Ok(out)
            }
        }
        d.deserialize_seq(ListVisitor).map(WireList)
    }
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
