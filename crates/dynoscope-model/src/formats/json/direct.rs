//! DynamoDB JSON read straight into [`Item`]s by serde visitors, with no `serde_json::Value`
//! tree in between. The tree doubles the allocations per attribute, and reading is most of the
//! work of `tail` (a GetRecords body) and of reading an export (a data file's lines).
//!
//! The two callers read the same format but disagree on what DynamoDB's format leaves open,
//! so the reading takes `LENIENT`:
//! - `LENIENT = true` reads as the SDK reads a response (`aws/stream/wire.rs`, which falls back
//!   to the SDK for anything this refuses). An unknown type is NULL, members after a value's
//!   first are skipped, and numbers are taken as sent.
//! - `LENIENT = false` reads as the general reader `model::formats::json::dynamo_to_attr` reads an
//!   export's line (`model/exports/table_export/dynamo_json_direct.rs`, which falls back to that reader,
//!   and to its error wording, for anything this refuses). An unknown type, a second type
//!   member and a number DynamoDB cannot hold are all errors.

use std::fmt;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use crate::item::number::validate_number;
use crate::item::value::{AttrValue, Item};

/// An item in DynamoDB JSON: `{"name": {"S": "…"}, …}`.
pub struct DirectItem<const LENIENT: bool>(pub Item);

/// One value in DynamoDB JSON: `{"S": "…"}`, `{"N": "1.5"}`, `{"M": {…}}`, ….
pub struct DirectValue<const LENIENT: bool>(pub AttrValue);

struct DirectList<const LENIENT: bool>(Vec<AttrValue>);
/// An `N` element (validated unless lenient).
struct Number<const LENIENT: bool>(String);
/// A `B` element: base64 text, decoded.
struct Binary(Vec<u8>);

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

impl<'de, const LENIENT: bool> Deserialize<'de> for DirectItem<LENIENT> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const L: bool>;
        impl<'de, const L: bool> Visitor<'de> for V<L> {
            type Value = DirectItem<L>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a DynamoDB JSON item")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut attrs = Vec::with_capacity(map.size_hint().unwrap_or(8));
                while let Some(name) = map.next_key::<String>()? {
                    attrs.push((name, map.next_value::<DirectValue<L>>()?.0));
                }
                // A repeated name keeps its last value, as a JSON object's does.
                Ok(DirectItem(Item::from_attrs(attrs)))
            }
        }
        d.deserialize_map(V::<LENIENT>)
    }
}

impl<'de, const LENIENT: bool> Deserialize<'de> for DirectValue<LENIENT> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const L: bool>;
        impl<'de, const L: bool> Visitor<'de> for V<L> {
            type Value = DirectValue<L>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a DynamoDB JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let Some(tag) = map.next_key::<Tag>()? else {
                    return Err(de::Error::custom("an attribute value with no type"));
                };
                let value = match tag {
                    Tag::S => AttrValue::S(map.next_value()?),
                    Tag::N => AttrValue::N(map.next_value::<Number<L>>()?.0),
                    Tag::B => AttrValue::B(map.next_value::<Binary>()?.0),
                    Tag::Ss => AttrValue::Ss(map.next_value()?),
                    Tag::Ns => AttrValue::Ns(
                        map.next_value::<Vec<Number<L>>>()?
                            .into_iter()
                            .map(|n| n.0)
                            .collect(),
                    ),
                    Tag::Bs => AttrValue::Bs(
                        map.next_value::<Vec<Binary>>()?
                            .into_iter()
                            .map(|b| b.0)
                            .collect(),
                    ),
                    Tag::M => AttrValue::M(map.next_value::<DirectItem<L>>()?.0),
                    Tag::L => AttrValue::L(map.next_value::<DirectList<L>>()?.0),
                    // Both readers take NULL with any value.
                    Tag::Null => {
                        map.next_value::<IgnoredAny>()?;
                        AttrValue::Null
                    }
                    Tag::Bool => AttrValue::Bool(map.next_value()?),
                    // A type DynamoDB adds later: NULL, as the SDK's converter shows it.
                    Tag::Other if L => {
                        map.next_value::<IgnoredAny>()?;
                        AttrValue::Null
                    }
                    Tag::Other => return Err(de::Error::custom("unknown type descriptor")),
                };
                let empty_set = match &value {
                    AttrValue::Ss(v) => v.is_empty(),
                    AttrValue::Ns(v) => v.is_empty(),
                    AttrValue::Bs(v) => v.is_empty(),
                    _ => false,
                };
                if empty_set && !L {
                    return Err(de::Error::custom("a set holds at least one element"));
                }
                // The SDK reads a union's first member and skips the rest; the strict reading
                // leaves such a value to the general reader.
                while map.next_key::<IgnoredAny>()?.is_some() {
                    if !L {
                        return Err(de::Error::custom("more than one type descriptor"));
                    }
                    map.next_value::<IgnoredAny>()?;
                }
                Ok(DirectValue(value))
            }
        }
        d.deserialize_map(V::<LENIENT>)
    }
}

impl<'de, const LENIENT: bool> Deserialize<'de> for DirectList<LENIENT> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const L: bool>;
        impl<'de, const L: bool> Visitor<'de> for V<L> {
            type Value = DirectList<L>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a DynamoDB JSON list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut values = Vec::with_capacity(seq.size_hint().unwrap_or(4));
                while let Some(v) = seq.next_element::<DirectValue<L>>()? {
                    values.push(v.0);
                }
                Ok(DirectList(values))
            }
        }
        d.deserialize_seq(V::<LENIENT>)
    }
}

impl<'de> Deserialize<'de> for Tag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Read without allocating.
        struct V;
        impl Visitor<'_> for V {
            type Value = Tag;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a DynamoDB type tag")
            }
            fn visit_str<E: de::Error>(self, tag: &str) -> Result<Tag, E> {
                Ok(match tag {
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
        d.deserialize_str(V)
    }
}

impl<'de, const LENIENT: bool> Deserialize<'de> for Number<LENIENT> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        if !LENIENT {
            validate_number(&text).map_err(|e| de::Error::custom(e.to_string()))?;
        }
        Ok(Number(text))
    }
}

impl<'de> Deserialize<'de> for Binary {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Binary;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a base64 string")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Binary, E> {
                BASE64
                    .decode(text)
                    .map(Binary)
                    .map_err(|e| E::custom(format!("binary value is not base64: {e}")))
            }
        }
        d.deserialize_str(V)
    }
}
