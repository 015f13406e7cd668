//! Page cursors: opaque to the agent, and checked when they come back. A cursor holds where
//! the next page starts (a [`Position`]: the key of the last item returned, each merged
//! Query's own place, or an ExecuteStatement's NextToken) and a tag over that and the
//! call's other arguments, keyed by a secret drawn when the server starts: a cursor made up,
//! edited, or passed with different arguments is refused before anything is sent, so it can
//! neither skip validation nor start a read somewhere the arguments do not name.

use std::hash::{BuildHasher, RandomState};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

pub use super::position::Position;
use super::position::MAX_POSITION_BYTES;

/// The tag's bytes ahead of the position's.
const TAG_BYTES: usize = 8;

/// The longest cursor this server gives: the largest position ([`MAX_POSITION_BYTES`], 50
/// merged Queries each after the largest legal key) and its tag, in base64 without padding.
pub const MAX_CURSOR_CHARS: usize = ((TAG_BYTES + MAX_POSITION_BYTES) * 4).div_ceil(3);

#[derive(Debug, Default)]
pub struct Cursors {
    /// Random keys for SipHash, new in every process.
    secret: RandomState,
}

impl Cursors {
    /// The cursor continuing at `position`, for a call with `scope` (the tool and its other
    /// arguments, canonical JSON).
    pub fn encode(&self, scope: &str, position: &Position) -> String {
        let payload = position.to_bytes();
        let tag = self.secret.hash_one((scope, payload.as_slice()));
        let mut bytes = tag.to_be_bytes().to_vec();
        bytes.extend_from_slice(&payload);
        URL_SAFE_NO_PAD.encode(bytes)
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
        if bytes.len() < TAG_BYTES {
            return Err(refuse("it is not one this server gave"));
        }
        let (tag, payload) = bytes.split_at(TAG_BYTES);
        let tag = u64::from_be_bytes(tag.try_into().expect("split at TAG_BYTES"));
        if tag != self.secret.hash_one((scope, payload)) {
            return Err(refuse(
                "it was not given by this server for these arguments (or the server restarted since)",
            ));
        }
        Position::from_bytes(payload).ok_or_else(|| refuse("it is not one this server gave"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aws::read::SegmentStart;
    use crate::model::item::value::{AttrValue, Item};

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
        let mut bytes = URL_SAFE_NO_PAD.decode(&cursor).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        let edited = URL_SAFE_NO_PAD.encode(bytes);
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

    /// `n` bytes of control characters, which JSON writes six bytes each.
    fn control(n: usize, salt: u8) -> String {
        (0..n)
            .map(|i| char::from((i as u8 ^ salt) % 31 + 1))
            .collect()
    }

    #[test]
    fn a_key_of_control_characters_gives_a_compact_cursor_the_server_takes_back() {
        let cursors = Cursors::default();
        let mut key = Item::new();
        key.insert("PK", AttrValue::S(control(2000, 0)));
        let cursor = cursors.encode("s", &Position::After(key.clone()));
        assert!(cursor.len() < 2_800, "{} characters", cursor.len());
        assert_eq!(cursors.decode("s", &cursor).unwrap(), Position::After(key));
    }

    /// The largest legal key of a table and an index: partition key values of 2,048 bytes,
    /// sort key values of 1,024, four of each on the index, names of 255 bytes.
    fn largest_key() -> Item {
        let mut key = Item::new();
        for i in 0..10u8 {
            let name = format!("{i}{}", "n".repeat(254));
            let bytes = if matches!(i, 0 | 2..=5) { 2048 } else { 1024 };
            let value = match i % 3 {
                0 => AttrValue::S(control(bytes, i)),
                1 => AttrValue::B(vec![i; bytes]),
                _ => AttrValue::S("\u{7f}".repeat(bytes)),
            };
            key.insert(name, value);
        }
        key
    }

    #[test]
    fn the_largest_legal_positions_round_trip_and_the_largest_is_the_cap() {
        let cursors = Cursors::default();
        let token = Item::from_attrs(vec![(
            "\u{0}NextToken".into(),
            AttrValue::S("t".repeat(32 * 1024)),
        )]);
        let merged = Position::Queries(vec![SegmentStart::After(largest_key()); 50]);
        for position in [
            Position::After(largest_key()),
            Position::After(token.clone()),
            Position::Resend {
                start: Some(token),
                skip: usize::MAX,
            },
            Position::Resend {
                start: Some(largest_key()),
                skip: 3,
            },
            merged.clone(),
        ] {
            let cursor = cursors.encode("s", &position);
            assert!(
                cursor.len() <= MAX_CURSOR_CHARS,
                "{} > {MAX_CURSOR_CHARS}",
                cursor.len()
            );
            assert_eq!(cursors.decode("s", &cursor).unwrap(), position);
        }
        assert_eq!(cursors.encode("s", &merged).len(), MAX_CURSOR_CHARS);
    }

    #[test]
    fn made_up_lengths_and_trailing_bytes_are_refused_without_allocating_for_them() {
        let mut bytes = Position::After(Item::new()).to_bytes();
        bytes.push(0);
        assert_eq!(Position::from_bytes(&bytes), None);
        assert_eq!(Position::from_bytes(&[b'q', 0xff, 0xff, 0xff, 0xff]), None);
        assert_eq!(
            Position::from_bytes(&[b'a', 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff]),
            None
        );
        let mut twice = vec![b'a', 0, 0, 0, 2];
        for _ in 0..2 {
            twice.extend_from_slice(&[0, 0, 0, 1, b'K', b'S', 0, 0, 0, 1, b'v']);
        }
        assert_eq!(Position::from_bytes(&twice), None);
    }
}
