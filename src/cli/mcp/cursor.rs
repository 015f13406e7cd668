//! Page cursors: opaque to the agent, and checked when they come back. A cursor holds where
//! the next page starts (a [`Position`]: the key of the last item returned, each merged
//! Query's own place, or an ExecuteStatement's NextToken) and a tag over that and the
//! call's other arguments, keyed by a secret drawn when the server starts: a cursor made up,
//! edited, or passed with different arguments is refused before anything is sent, so it can
//! neither skip validation nor start a read somewhere the arguments do not name.

use std::hash::{BuildHasher, RandomState};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use serde_json::{json, Value};

use crate::aws::read::SegmentStart;
use crate::model::formats::json::{append_dynamo_json, parse_dynamo_item};
use crate::model::item::value::Item;

/// Where the next page starts.
#[derive(Debug, Clone, PartialEq)]
pub enum Position {
    /// After this key (for an ExecuteStatement, its NextToken as the engine keeps it).
    After(Item),
    /// Each Query of a merge in sort-key order, where it continues.
    Queries(Vec<SegmentStart>),
    /// An ExecuteStatement page cut short by the byte cap: sent again from `start` (the
    /// beginning when `None`), its first `skip` items were already returned.
    Resend { start: Option<Item>, skip: usize },
}

fn item_value(item: &Item) -> Value {
    let mut text = String::new();
    append_dynamo_json(&mut text, item);
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

fn value_item(value: &Value) -> Option<Item> {
    parse_dynamo_item(&value.to_string()).ok()
}

impl Position {
    fn to_json(&self) -> String {
        let start = |s: &SegmentStart| match s {
            SegmentStart::Beginning => Value::Null,
            SegmentStart::Finished => Value::from("end"),
            SegmentStart::After(key) => item_value(key),
        };
        match self {
            Position::After(key) => json!({ "a": item_value(key) }),
            Position::Queries(starts) => {
                json!({ "q": starts.iter().map(start).collect::<Vec<_>>() })
            }
            Position::Resend { start, skip } => {
                json!({ "r": start.as_ref().map(item_value), "k": skip })
            }
        }
        .to_string()
    }

    fn from_json(text: &str) -> Option<Position> {
        let value: Value = serde_json::from_str(text).ok()?;
        if let Some(key) = value.get("a") {
            return value_item(key).map(Position::After);
        }
        if let Some(starts) = value.get("q").and_then(Value::as_array) {
            return starts
                .iter()
                .map(|s| match s {
                    Value::Null => Some(SegmentStart::Beginning),
                    Value::String(end) if end == "end" => Some(SegmentStart::Finished),
                    key => value_item(key).map(SegmentStart::After),
                })
                .collect::<Option<Vec<_>>>()
                .map(Position::Queries);
        }
        let skip = value.get("k")?.as_u64()? as usize;
        let start = match value.get("r")? {
            Value::Null => None,
            key => Some(value_item(key)?),
        };
        Some(Position::Resend { start, skip })
    }
}

/// A key is at most 2 KB of partition key and 1 KB of sort key, for the table and an index:
/// its DynamoDB JSON, escaped and in base64, stays well below this.
pub const MAX_CURSOR_CHARS: usize = 16 * 1024;

#[derive(Debug, Default)]
pub struct Cursors {
    /// Random keys for SipHash, new in every process.
    secret: RandomState,
}

impl Cursors {
    /// The cursor continuing at `position`, for a call with `scope` (the tool and its other
    /// arguments, canonical JSON).
    pub fn encode(&self, scope: &str, position: &Position) -> String {
        let json = position.to_json();
        let tag = self.secret.hash_one((scope, json.as_str()));
        URL_SAFE_NO_PAD.encode(format!("{tag:016x}.{json}"))
    }

    /// Where a cursor this server gave for `scope` continues.
    pub fn decode(&self, scope: &str, cursor: &str) -> Result<Position, String> {
        let refuse = |why: &str| {
            format!(
                "cursor refused: {why}; pass a cursor unchanged, with the same arguments as the call that returned it (only limit may change), or leave it out to start from the first page"
            )
        };
        if cursor.len() > MAX_CURSOR_CHARS {
            return Err(refuse(&format!(
                "it is {} characters long, more than any this server gives ({MAX_CURSOR_CHARS})",
                cursor.len()
            )));
        }
        let bytes = URL_SAFE_NO_PAD
            .decode(cursor)
            .map_err(|_| refuse("it is not one this server gave"))?;
        let text =
            String::from_utf8(bytes).map_err(|_| refuse("it is not one this server gave"))?;
        let (tag, json) = text
            .split_once('.')
            .ok_or_else(|| refuse("it is not one this server gave"))?;
        let tag = u64::from_str_radix(tag, 16)
            .ok()
            .filter(|_| tag.len() == 16);
        if tag != Some(self.secret.hash_one((scope, json))) {
            return Err(refuse(
                "it was not given by this server for these arguments (or the server restarted since)",
            ));
        }
        Position::from_json(json).ok_or_else(|| refuse("it is not one this server gave"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::item::value::AttrValue;

    fn key() -> Item {
        let mut item = Item::new();
        item.insert("PK", AttrValue::S("USER#1".into()));
        item.insert(
            "SK",
            AttrValue::N("12345678901234567890123456789012345678".into()),
        );
        item
    }

    #[test]
    fn a_cursor_round_trips_only_with_its_own_arguments_and_server() {
        let cursors = Cursors::default();
        let cursor = cursors.encode("query {\"pk\":\"USER#1\"}", &Position::After(key()));
        assert_eq!(
            cursors
                .decode("query {\"pk\":\"USER#1\"}", &cursor)
                .unwrap(),
            Position::After(key())
        );
        let err = cursors
            .decode("query {\"pk\":\"USER#2\"}", &cursor)
            .unwrap_err();
        assert!(
            err.contains("not given by this server for these arguments"),
            "{err}"
        );
        let other = Cursors::default();
        assert!(other.decode("query {\"pk\":\"USER#1\"}", &cursor).is_err());
    }

    #[test]
    fn merged_queries_and_resent_statement_pages_round_trip() {
        let cursors = Cursors::default();
        for position in [
            Position::Queries(vec![
                SegmentStart::Beginning,
                SegmentStart::After(key()),
                SegmentStart::Finished,
            ]),
            Position::Resend {
                start: None,
                skip: 7,
            },
            Position::Resend {
                start: Some(key()),
                skip: 0,
            },
        ] {
            let cursor = cursors.encode("p", &position);
            assert_eq!(cursors.decode("p", &cursor).unwrap(), position);
        }
    }

    #[test]
    fn edited_made_up_and_oversized_cursors_are_refused() {
        let cursors = Cursors::default();
        let cursor = cursors.encode("s", &Position::After(key()));
        let text = String::from_utf8(URL_SAFE_NO_PAD.decode(&cursor).unwrap()).unwrap();
        let edited = URL_SAFE_NO_PAD.encode(text.replace("USER#1", "USER#9"));
        assert!(cursors
            .decode("s", &edited)
            .unwrap_err()
            .contains("not given by this server"));
        for bad in ["", "!!!", "bm90IGEgY3Vyc29y"] {
            assert!(cursors
                .decode("s", bad)
                .unwrap_err()
                .starts_with("cursor refused"));
        }
        let long = "A".repeat(MAX_CURSOR_CHARS + 1);
        assert!(cursors
            .decode("s", &long)
            .unwrap_err()
            .contains("characters long"));
    }
}
