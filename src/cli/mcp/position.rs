//! Where the next page starts, and its compact bytes: a key's names and values are written as
//! they are, each behind its length, so a legal key of any bytes (2 KB of control characters,
//! which JSON would escape to six times their size) costs its own size and little more. The
//! cursor's cap, [`MAX_POSITION_BYTES`], is the largest position a read can reach: 50 merged
//! Queries each after the largest legal key of a table and an index, or an ExecuteStatement's
//! longest NextToken. Decoding is strict: every length within what is left, nothing left over.

use crate::aws::read::SegmentStart;
use crate::model::formats::json::{append_dynamo_json, parse_dynamo_item};
use crate::model::item::value::{AttrValue, Item};
use crate::model::query::partiql::MAX_QUERIES;

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

/// DynamoDB's limits on a key: a table's partition and sort key, and an index's up to four
/// of each (multi-attribute keys), every partition key value at most 2,048 bytes, every sort
/// key value at most 1,024, every key attribute's name at most 255.
const KEY_ATTRIBUTES: usize = 2 + 4 + 4;
const KEY_VALUE_BYTES: usize = 2048 + 1024 + 4 * 2048 + 4 * 1024;
const KEY_NAME_BYTES: usize = 255;
/// Each attribute's name length, type and value length.
const ATTRIBUTE_OVERHEAD: usize = 4 + 1 + 4;
/// The largest key a read continues after (the table's and the index's attributes).
pub const MAX_KEY_BYTES: usize =
    4 + KEY_ATTRIBUTES * (ATTRIBUTE_OVERHEAD + KEY_NAME_BYTES) + KEY_VALUE_BYTES;
/// ExecuteStatement's NextToken is at most 32,768 characters, kept as one string attribute.
pub const MAX_NEXT_TOKEN_BYTES: usize = 4 + ATTRIBUTE_OVERHEAD + 16 + 32 * 1024;

const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

/// The largest position: the largest of a key, a resent statement, and a merge's starts.
pub const MAX_POSITION_BYTES: usize = max(
    max(1 + MAX_KEY_BYTES, 1 + MAX_NEXT_TOKEN_BYTES),
    max(
        1 + 8 + 1 + max(MAX_KEY_BYTES, MAX_NEXT_TOKEN_BYTES),
        1 + 4 + MAX_QUERIES * (1 + MAX_KEY_BYTES),
    ),
);

impl Position {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self {
            Position::After(key) => {
                out.push(b'a');
                put_item(&mut out, key);
            }
            Position::Queries(starts) => {
                out.push(b'q');
                put_len(&mut out, starts.len());
                for start in starts {
                    match start {
                        SegmentStart::Beginning => out.push(0),
                        SegmentStart::Finished => out.push(1),
                        SegmentStart::After(key) => {
                            out.push(2);
                            put_item(&mut out, key);
                        }
                    }
                }
            }
            Position::Resend { start, skip } => {
                out.push(b'r');
                out.extend_from_slice(&(*skip as u64).to_be_bytes());
                match start {
                    None => out.push(0),
                    Some(key) => {
                        out.push(1);
                        put_item(&mut out, key);
                    }
                }
            }
        }
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Option<Position> {
        let mut r = Reader(bytes);
        let position = match r.byte()? {
            b'a' => Position::After(r.item()?),
            b'q' => {
                let n = r.len()?;
                // Each start is at least a byte: a count past what is left is refused before
                // anything is allocated for it.
                (n <= r.0.len()).then_some(())?;
                let starts = (0..n)
                    .map(|_| match r.byte()? {
                        0 => Some(SegmentStart::Beginning),
                        1 => Some(SegmentStart::Finished),
                        2 => r.item().map(SegmentStart::After),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?;
                Position::Queries(starts)
            }
            b'r' => {
                let skip = usize::try_from(u64::from_be_bytes(r.take(8)?.try_into().ok()?)).ok()?;
                let start = match r.byte()? {
                    0 => None,
                    1 => Some(r.item()?),
                    _ => return None,
                };
                Position::Resend { start, skip }
            }
            _ => return None,
        };
        r.0.is_empty().then_some(position)
    }
}

fn put_len(out: &mut Vec<u8>, len: usize) {
    out.extend_from_slice(&(len as u32).to_be_bytes());
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_len(out, bytes.len());
    out.extend_from_slice(bytes);
}

/// A key's attributes: S, N and B (all a key can hold) as their bytes; any other value, which
/// no key holds, as its DynamoDB JSON.
fn put_item(out: &mut Vec<u8>, item: &Item) {
    put_len(out, item.len());
    for (name, value) in item.iter() {
        put_bytes(out, name.as_bytes());
        match value {
            AttrValue::S(s) => {
                out.push(b'S');
                put_bytes(out, s.as_bytes());
            }
            AttrValue::N(n) => {
                out.push(b'N');
                put_bytes(out, n.as_bytes());
            }
            AttrValue::B(b) => {
                out.push(b'B');
                put_bytes(out, b);
            }
            other => {
                let mut json = String::new();
                append_dynamo_json(
                    &mut json,
                    &Item::from_attrs(vec![(String::new(), other.clone())]),
                );
                out.push(b'J');
                put_bytes(out, json.as_bytes());
            }
        }
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        (n <= self.0.len()).then(|| {
            let (head, rest) = self.0.split_at(n);
            self.0 = rest;
            head
        })
    }

    fn byte(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn len(&mut self) -> Option<usize> {
        Some(u32::from_be_bytes(self.take(4)?.try_into().ok()?) as usize)
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.len()?;
        self.take(n)
    }

    fn text(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?.to_vec()).ok()
    }

    fn item(&mut self) -> Option<Item> {
        let n = self.len()?;
        (n <= self.0.len()).then_some(())?;
        let mut attrs = Vec::with_capacity(n);
        for _ in 0..n {
            let name = self.text()?;
            let value = match self.byte()? {
                b'S' => AttrValue::S(self.text()?),
                b'N' => AttrValue::N(self.text()?),
                b'B' => AttrValue::B(self.bytes()?.to_vec()),
                b'J' => parse_dynamo_item(&self.text()?)
                    .ok()?
                    .into_attrs()
                    .pop()
                    .map(|(_, v)| v)?,
                _ => return None,
            };
            attrs.push((name, value));
        }
        let item = Item::from_attrs(attrs);
        // Written from an item, so its names were distinct: a repeated one was made up.
        (item.len() == n).then_some(item)
    }
}
