//! A full export's `{"Item":{…}}` line read straight into an [`Item`], without the
//! `serde_json::Value` tree in between. Reading an export is parsing and little else, and the
//! tree doubled the allocations per attribute (half the time of `hotkeys --export` went to
//! malloc and free). The general reader in `dynamo_json.rs` stays the definition: this one
//! accepts only lines it reads exactly as that one does, and says `None` for anything else
//! (any error, a duplicate field, a second type descriptor), so the caller asks the general
//! reader, which gives the result or the error it always gave.

use std::fmt;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use crate::model::number::validate_number;
use crate::model::value::{AttrValue, Item};

/// The item of a full export's line, or `None` when the general reader must decide.
pub(super) fn item_of_full_line(line: &str) -> Option<Item> {
    #[derive(Deserialize)]
    struct FullLine {
        #[serde(rename = "Item")]
        item: Option<DirectItem>,
    }
    let parsed: FullLine = serde_json::from_str(line).ok()?;
    parsed.item.map(|i| i.0)
}

struct DirectItem(Item);
struct DirectAttr(AttrValue);
/// An `N` element: a string that is a DynamoDB number.
struct Number(String);
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
}

impl<'de> Deserialize<'de> for DirectItem {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = DirectItem;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of DynamoDB JSON attributes")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<DirectItem, A::Error> {
                let mut attrs = Vec::with_capacity(map.size_hint().unwrap_or(8));
                while let Some(name) = map.next_key::<String>()? {
                    attrs.push((name, map.next_value::<DirectAttr>()?.0));
                }
                // A repeated name keeps its last value, as the general reader's map does.
                Ok(DirectItem(Item::from_attrs(attrs)))
            }
        }
        d.deserialize_map(V)
    }
}

impl<'de> Deserialize<'de> for DirectAttr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = DirectAttr;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a DynamoDB JSON value like {\"S\":\"text\"}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<DirectAttr, A::Error> {
                let tag = map
                    .next_key::<Tag>()?
                    .ok_or_else(|| de::Error::custom("no type descriptor"))?;
                let value = match tag {
                    Tag::S => AttrValue::S(map.next_value()?),
                    Tag::N => AttrValue::N(map.next_value::<Number>()?.0),
                    Tag::B => AttrValue::B(map.next_value::<Binary>()?.0),
                    Tag::Ss => AttrValue::Ss(map.next_value()?),
                    Tag::Ns => AttrValue::Ns(
                        map.next_value::<Vec<Number>>()?
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
                    Tag::M => AttrValue::M(map.next_value::<DirectItem>()?.0),
                    Tag::L => AttrValue::L(map.next_value::<DirectList>()?.0),
                    // The general reader takes NULL with any value.
                    Tag::Null => {
                        map.next_value::<IgnoredAny>()?;
                        AttrValue::Null
                    }
                    Tag::Bool => AttrValue::Bool(map.next_value()?),
                };
                if map.next_key::<IgnoredAny>()?.is_some() {
                    return Err(de::Error::custom("more than one type descriptor"));
                }
                Ok(DirectAttr(value))
            }
        }
        d.deserialize_map(V)
    }
}

/// An `L` element's values.
struct DirectList(Vec<AttrValue>);

impl<'de> Deserialize<'de> for DirectList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = DirectList;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of DynamoDB JSON values")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<DirectList, A::Error> {
                let mut values = Vec::with_capacity(seq.size_hint().unwrap_or(4));
                while let Some(v) = seq.next_element::<DirectAttr>()? {
                    values.push(v.0);
                }
                Ok(DirectList(values))
            }
        }
        d.deserialize_seq(V)
    }
}

impl<'de> Deserialize<'de> for Tag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Tag;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a type descriptor (S, N, B, SS, NS, BS, M, L, NULL, BOOL)")
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
                    _ => return Err(E::custom("unknown type descriptor")),
                })
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        validate_number(&text).map_err(|e| de::Error::custom(e.to_string()))?;
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
                    .map_err(|_| E::custom("B takes a base64 string"))
            }
        }
        d.deserialize_str(V)
    }
}
