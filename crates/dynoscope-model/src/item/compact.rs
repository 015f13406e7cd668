//! Compact storage for the explorer's loaded items: every item's attributes encoded into one
//! shared byte arena, attribute names interned to small ids. An `Item` keeps each name and
//! value in its own allocation (about 720 bytes for a demo item whose DynamoDB JSON is about
//! 140); here the same item takes its payload plus an offset. Items are decoded back into an
//! `Item` only when shown, which is a few dozen per frame.
//!
//! Encoding of a map: varint attribute count, then per attribute a varint name id and a
//! value. A value is a tag byte and its payload: S/N/B as varint length + bytes; SS/NS/BS and L
//! as varint count + elements; M as a nested map; BOOL as one byte; NULL as nothing. Lossless:
//! numbers stay exact text, and every type keeps its tag.

// foldhash (hashbrown's default) rather than std's SipHash: every attribute of every loaded
// item is looked up here, and short names hash several times faster.
use hashbrown::HashMap;

use crate::item::value::{AttrValue, Item};

const S: u8 = 0;
const N: u8 = 1;
const B: u8 = 2;
const SS: u8 = 3;
const NS: u8 = 4;
const BS: u8 = 5;
const M: u8 = 6;
const L: u8 = 7;
const NULL: u8 = 8;
const BOOL: u8 = 9;

/// Attribute names, each stored once.
#[derive(Debug, Clone, Default)]
pub struct NameTable {
    names: Vec<Box<str>>,
    ids: HashMap<Box<str>, u32>,
}

impl NameTable {
    fn id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.into());
        self.ids.insert(name.into(), id);
        id
    }

    fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }
}

/// Arena chunk sizes. The arena grows a chunk at a time and never moves what it holds: one
/// growing buffer doubled by copying (and page-faulting) everything loaded so far, a 40 ms
/// stall in ingest at 850,000 items. Chunks double from the first size up to the largest, so
/// a small store stays small.
const FIRST_CHUNK: usize = 4 << 10;
const CHUNK: usize = 1 << 20;

/// Items appended in order, addressed by position.
#[derive(Debug, Clone, Default)]
pub struct CompactItems {
    /// Encoded items, back to back; an item never spans two chunks. A chunk is at most `CHUNK`
    /// bytes, unless one item alone is bigger.
    chunks: Vec<Vec<u8>>,
    /// Where each item starts: (chunk, offset). An item ends where the next one in its chunk
    /// begins, or at the chunk's end.
    starts: Vec<(u32, u32)>,
    names: NameTable,
    /// Reused for encoding one item before it is placed.
    scratch: Vec<u8>,
}

impl CompactItems {
    pub fn push(&mut self, item: &Item) {
        self.scratch.clear();
        encode_map(item, &mut self.names, &mut self.scratch);
        let fits = self
            .chunks
            .last()
            .is_some_and(|chunk| chunk.capacity() - chunk.len() >= self.scratch.len());
        if !fits {
            let size = self
                .chunks
                .last()
                .map_or(FIRST_CHUNK, |chunk| (chunk.capacity() * 2).min(CHUNK))
                .max(self.scratch.len());
            self.chunks.push(Vec::with_capacity(size));
        }
        let index = self.chunks.len() - 1;
        let chunk = &mut self.chunks[index];
        let offset = u32::try_from(chunk.len()).expect("chunks are far smaller than 4 GiB");
        chunk.extend_from_slice(&self.scratch);
        self.starts.push((index as u32, offset));
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    pub fn reserve(&mut self, items: usize) {
        self.starts.reserve(items);
    }

    /// # Panics
    ///
    /// If `index` is out of range.
    pub fn get(&self, index: usize) -> Item {
        let (chunk, start) = self.starts[index];
        let bytes = &self.chunks[chunk as usize];
        let end = match self.starts.get(index + 1) {
            Some(&(next_chunk, next_start)) if next_chunk == chunk => next_start as usize,
            _ => bytes.len(),
        };
        let mut reader = Reader {
            bytes: &bytes[start as usize..end],
            at: 0,
        };
        reader.map(&self.names)
    }

    /// Bytes the items take: their encodings, their offsets and the name table (without the
    /// unused tail of the last chunk and of growing vectors, which the benchmark's RSS counts).
    pub fn encoded_bytes(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum::<usize>()
            + self.starts.len() * std::mem::size_of::<(u32, u32)>()
            + self
                .names
                .names
                .iter()
                .map(|n| n.len() * 2 + 48)
                .sum::<usize>()
    }
}

fn varint(mut n: u64, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn bytes(b: &[u8], out: &mut Vec<u8>) {
    varint(b.len() as u64, out);
    out.extend_from_slice(b);
}

fn encode_map(item: &Item, names: &mut NameTable, out: &mut Vec<u8>) {
    varint(item.len() as u64, out);
    for (name, value) in item.iter() {
        varint(u64::from(names.id(name)), out);
        encode_value(value, names, out);
    }
}

fn encode_value(value: &AttrValue, names: &mut NameTable, out: &mut Vec<u8>) {
    match value {
        AttrValue::S(s) => {
            out.push(S);
            bytes(s.as_bytes(), out);
        }
        AttrValue::N(n) => {
            out.push(N);
            bytes(n.as_bytes(), out);
        }
        AttrValue::B(b) => {
            out.push(B);
            bytes(b, out);
        }
        AttrValue::Ss(v) | AttrValue::Ns(v) => {
            out.push(if matches!(value, AttrValue::Ss(_)) {
                SS
            } else {
                NS
            });
            varint(v.len() as u64, out);
            for s in v {
                bytes(s.as_bytes(), out);
            }
        }
        AttrValue::Bs(v) => {
            out.push(BS);
            varint(v.len() as u64, out);
            for b in v {
                bytes(b, out);
            }
        }
        AttrValue::M(m) => {
            out.push(M);
            encode_map(m, names, out);
        }
        AttrValue::L(l) => {
            out.push(L);
            varint(l.len() as u64, out);
            for v in l {
                encode_value(v, names, out);
            }
        }
        AttrValue::Null => out.push(NULL),
        AttrValue::Bool(b) => {
            out.push(BOOL);
            out.push(u8::from(*b));
        }
    }
}

/// Reads what `encode_map` wrote; the bytes come only from this module, so a malformed
/// encoding is a bug, not untrusted input.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.bytes[self.at];
        self.at += 1;
        b
    }

    fn varint(&mut self) -> u64 {
        let (mut n, mut shift) = (0u64, 0);
        loop {
            let b = self.byte();
            n |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return n;
            }
            shift += 7;
        }
    }

    fn raw(&mut self) -> &[u8] {
        let len = self.varint() as usize;
        let slice = &self.bytes[self.at..self.at + len];
        self.at += len;
        slice
    }

    fn text(&mut self) -> String {
        // Only valid UTF-8 was ever written (it came from a `String`).
        String::from_utf8(self.raw().to_vec()).expect("encoded from a String")
    }

    fn map(&mut self, names: &NameTable) -> Item {
        let count = self.varint() as usize;
        let mut attrs = Vec::with_capacity(count);
        for _ in 0..count {
            let name = names.name(self.varint() as u32).to_string();
            attrs.push((name, self.value(names)));
        }
        // Encoded from an `Item`, so already sorted and unique.
        Item::from_attrs(attrs)
    }

    fn value(&mut self, names: &NameTable) -> AttrValue {
        match self.byte() {
            S => AttrValue::S(self.text()),
            N => AttrValue::N(self.text()),
            B => AttrValue::B(self.raw().to_vec()),
            tag @ (SS | NS) => {
                let count = self.varint() as usize;
                let v = (0..count).map(|_| self.text()).collect();
                if tag == SS {
                    AttrValue::Ss(v)
                } else {
                    AttrValue::Ns(v)
                }
            }
            BS => {
                let count = self.varint() as usize;
                AttrValue::Bs((0..count).map(|_| self.raw().to_vec()).collect())
            }
            M => AttrValue::M(self.map(names)),
            L => {
                let count = self.varint() as usize;
                AttrValue::L((0..count).map(|_| self.value(names)).collect())
            }
            NULL => AttrValue::Null,
            BOOL => AttrValue::Bool(self.byte() == 1),
            other => unreachable!("tag {other} is never written"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_round_trips_and_names_are_shared() {
        let nested = Item::from_attrs(vec![
            (
                "deep".into(),
                AttrValue::L(vec![AttrValue::Null, AttrValue::Bool(false)]),
            ),
            ("PK".into(), AttrValue::S("inner".into())),
        ]);
        let items = vec![
            Item::from_attrs(vec![
                ("PK".into(), AttrValue::S("USER#1 \u{1b}[2J 漢".into())),
                (
                    "n".into(),
                    AttrValue::N("-12345678901234567890123456789012345678".into()),
                ),
                ("b".into(), AttrValue::B(vec![0, 255, 128])),
                ("ss".into(), AttrValue::Ss(vec!["a".into(), "".into()])),
                (
                    "ns".into(),
                    AttrValue::Ns(vec!["1".into(), "1e-130".into()]),
                ),
                ("bs".into(), AttrValue::Bs(vec![vec![], vec![7; 300]])),
                ("m".into(), AttrValue::M(nested)),
                ("t".into(), AttrValue::Bool(true)),
                ("z".into(), AttrValue::Null),
                ("big".into(), AttrValue::S("x".repeat(350_000))),
            ]),
            Item::new(),
            Item::from_attrs(vec![("PK".into(), AttrValue::S("USER#2".into()))]),
        ];
        let mut store = CompactItems::default();
        for item in &items {
            store.push(item);
        }
        assert_eq!(store.len(), 3);
        for (i, item) in items.iter().enumerate() {
            assert_eq!(&store.get(i), item);
        }
        assert_eq!(
            store.names.names.iter().filter(|n| &***n == "PK").count(),
            1,
            "names are interned once, nested maps included"
        );
    }

    #[test]
    fn demo_items_take_less_than_their_json() {
        let items = crate::demo::demo_data::generate(200);
        let json: usize = items
            .iter()
            .map(|i| {
                let mut s = String::new();
                crate::formats::json::append_dynamo_json(&mut s, i);
                s.len()
            })
            .sum();
        let mut store = CompactItems::default();
        for item in &items {
            store.push(item);
        }
        assert!(
            store.encoded_bytes() * 4 < json * 3,
            "{} bytes for {json} of JSON",
            store.encoded_bytes()
        );
        for (i, item) in items.iter().enumerate() {
            assert_eq!(&store.get(i), item);
        }
    }

    #[test]
    fn items_round_trip_across_chunks_and_beyond_a_chunk() {
        let big = "x".repeat(CHUNK + 10);
        let items: Vec<Item> = (0..30_000)
            .map(|i| {
                let text = if i % 10_000 == 5 {
                    big.clone()
                } else {
                    format!("value {i}")
                };
                Item::from_attrs(vec![
                    ("PK".into(), AttrValue::S(format!("K#{i}"))),
                    ("v".into(), AttrValue::S(text)),
                ])
            })
            .collect();
        let mut store = CompactItems::default();
        for item in &items {
            store.push(item);
        }
        assert!(store.chunks.len() > 3, "{} chunks", store.chunks.len());
        assert!(store.chunks.iter().all(|c| c.len() <= c.capacity()));
        for (i, item) in items.iter().enumerate() {
            assert_eq!(&store.get(i), item, "item {i}");
        }
    }
}
