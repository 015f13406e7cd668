//! Page cursors: opaque to the agent, and checked when they come back. A cursor holds where
//! the next page starts (the key of the last item returned) and a tag over that key and the
//! call's other arguments, keyed by a secret drawn when the server starts: a cursor made up,
//! edited, or passed with different arguments is refused before anything is sent, so it can
//! neither skip validation nor start a read somewhere the arguments do not name.

use std::hash::{BuildHasher, RandomState};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use crate::model::json::{append_dynamo_json, parse_dynamo_item};
use crate::model::value::Item;

/// A key is at most 2 KB of partition key and 1 KB of sort key, for the table and an index:
/// its DynamoDB JSON, escaped and in base64, stays well below this.
pub const MAX_CURSOR_CHARS: usize = 16 * 1024;

#[derive(Debug, Default)]
pub struct Cursors {
    /// Random keys for SipHash, new in every process.
    secret: RandomState,
}

impl Cursors {
    /// The cursor continuing after `key`, for a call with `scope` (the tool and its other
    /// arguments, canonical JSON).
    pub fn encode(&self, scope: &str, key: &Item) -> String {
        let mut json = String::new();
        append_dynamo_json(&mut json, key);
        let tag = self.secret.hash_one((scope, json.as_str()));
        URL_SAFE_NO_PAD.encode(format!("{tag:016x}.{json}"))
    }

    /// The key a cursor this server gave for `scope` continues after.
    pub fn decode(&self, scope: &str, cursor: &str) -> Result<Item, String> {
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
        parse_dynamo_item(json).map_err(|_| refuse("it is not one this server gave"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::value::AttrValue;

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
        let cursor = cursors.encode("query {\"pk\":\"USER#1\"}", &key());
        assert_eq!(
            cursors
                .decode("query {\"pk\":\"USER#1\"}", &cursor)
                .unwrap(),
            key()
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
    fn edited_made_up_and_oversized_cursors_are_refused() {
        let cursors = Cursors::default();
        let cursor = cursors.encode("s", &key());
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
