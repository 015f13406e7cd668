//! The explorer's store of loaded items, grouped into item collections.
//!
//! An item collection is every item sharing one partition-key value; within it DynamoDB keeps
//! items in sort-key order, and so does the store. The store is built for a million items: the
//! UI renders a visible slice, so every accessor is O(1) (or a hash lookup), and ingest is
//! O(items) amortised. Item ids are assigned in arrival order and never change.
//!
//! Pages usually arrive in sort-key order already (a Query, or a Scan within one partition), so
//! an item is first checked against the last item of its collection and simply appended. Items
//! that arrive out of order are held back until the end of the page, sorted, and merged in, each
//! finding its place by a galloping binary search; merging a page at once keeps a descending
//! query (`ScanIndexForward=false`) linear per page rather than quadratic per item.
//!
//! Comparisons run on a copy of each item's sort key made once at insert, encoded so that plain
//! byte order is DynamoDB's order ([`dynamo_cmp`]) and packed into one buffer. Comparing through
//! the items themselves chases several pointers per item (attribute vector, names, value); with
//! a million items those are cache misses, and out-of-order pages (a table scan grouped by an
//! index, a hot partition loaded out of order) ingested 2-4x slower that way. The copy costs
//! about the key's length plus 9 bytes per item.

use crate::model::compact::CompactItems;
use crate::model::number::parse_decimal;
use std::cmp::Ordering;
use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashTable};

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use crate::model::entity::{infer_separator, item_kind, SEPARATORS};
use crate::model::item_size::item_size;
use crate::model::number::compare_numbers;
use crate::model::schema::KeySchema;
use crate::model::value::{AttrValue, Item};

/// Index of an item in the store, in arrival order.
pub type ItemId = u32;
/// Index of an interned entity kind name.
pub type KindId = u16;

/// All loaded items sharing one partition-key value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collection {
    /// The partition-key value as display text (raw, unsanitised): S as is, N as its text, B as
    /// base64; `(no <name>)` for items without the partition key.
    pub key: String,
    /// Item ids in sort-key order as DynamoDB orders them (see [`dynamo_cmp`]). Items without
    /// the sort key come first; equal sort keys keep arrival order.
    pub items: Vec<ItemId>,
    /// Sum of the DynamoDB item sizes of its items.
    pub bytes: usize,
    /// Per-kind item counts in this collection, in the order the kinds were first seen here.
    pub kinds: Vec<(KindId, u32)>,
}

impl Collection {
    fn new(key: String) -> Self {
        Collection {
            key,
            items: Vec::new(),
            bytes: 0,
            kinds: Vec::new(),
        }
    }

    fn count_kind(&mut self, kind: KindId) {
        match self.kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, count)) => *count += 1,
            None => self.kinds.push((kind, 1)),
        }
    }
}

/// Orders two key values as DynamoDB orders sort keys: S by UTF-8 bytes, N numerically, B as
/// unsigned bytes. Values of different types order by type name; two values of the same
/// non-key type (M, L, BOOL, …) are equal. An N whose text is not a number at all sorts after
/// every real number (by text among themselves), so the order stays total.
pub fn dynamo_cmp(a: &AttrValue, b: &AttrValue) -> Ordering {
    match (a, b) {
        (AttrValue::S(x), AttrValue::S(y)) => x.as_bytes().cmp(y.as_bytes()),
        (AttrValue::N(x), AttrValue::N(y)) => compare_number_text(x, y),
        (AttrValue::B(x), AttrValue::B(y)) => x.cmp(y),
        _ => a.type_name().cmp(b.type_name()),
    }
}

fn compare_number_text(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    // `compare_numbers` falls back to text when either side is not a number, which mixes two
    // orders and is not transitive ("2" < "10" < "1x" < "2"); keep non-numbers apart instead.
    match (is_number(a), is_number(b)) {
        (true, true) => compare_numbers(a, b),
        (false, false) => a.cmp(b),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
    }
}

/// Number syntax only: values beyond DynamoDB's range still compare numerically.
fn is_number(text: &str) -> bool {
    parse_decimal(text).is_some()
}

/// Loaded items, grouped into collections by `group_keys` and decoded into entity kinds by the
/// table's own keys.
#[derive(Debug, Clone)]
pub struct ItemStore {
    group_keys: KeySchema,
    table_keys: KeySchema,
    /// `None` until the first non-empty page fixes it.
    separator: Option<char>,
    /// The items themselves, compactly encoded; decoded one at a time when shown.
    items: CompactItems,
    /// Per item: DynamoDB size (items are at most 400 KB, so `u32` is plenty).
    sizes: Vec<u32>,
    /// Per item: entity kind.
    kinds: Vec<Option<KindId>>,
    /// Per item: index of its collection.
    homes: Vec<u32>,
    /// Per item: its group sort key, encoded for comparison.
    sort_keys: SortKeys,
    kind_names: Vec<String>,
    /// Looked up for every loaded item: foldhash, like the key table.
    kind_ids: hashbrown::HashMap<String, KindId>,
    /// Per kind: number of loaded items of that kind.
    kind_counts: Vec<usize>,
    collections: Vec<Collection>,
    /// Collection indexes by partition-key text, each stored with its key's hash: growing the
    /// table then moves 16-byte entries and never re-reads or re-hashes a key. (A map of
    /// `String`s re-hashed every key on each doubling, a 30 ms stall at 100,000 collections,
    /// and kept a second copy of every key.)
    by_key: HashTable<(u64, u32)>,
    key_hasher: DefaultHashBuilder,
    /// The `(no <name>)` collection, kept apart so a real key spelled the same never merges
    /// with it.
    missing: Option<usize>,
    /// The collection `by_key` last answered, tried before the map.
    last_keyed: Option<usize>,
    total_bytes: usize,
}

impl ItemStore {
    /// `group_keys`: keys whose partition key groups items and whose sort key orders them (the
    /// table's, or the queried index's). `table_keys`: the table's own keys, used to decode
    /// entity kinds (via [`item_kind`]).
    pub fn new(group_keys: KeySchema, table_keys: KeySchema) -> Self {
        ItemStore {
            group_keys,
            table_keys,
            separator: None,
            items: CompactItems::default(),
            sizes: Vec::new(),
            kinds: Vec::new(),
            homes: Vec::new(),
            sort_keys: SortKeys::default(),
            kind_names: Vec::new(),
            kind_ids: hashbrown::HashMap::new(),
            kind_counts: Vec::new(),
            collections: Vec::new(),
            by_key: HashTable::new(),
            key_hasher: DefaultHashBuilder::default(),
            missing: None,
            last_keyed: None,
            total_bytes: 0,
        }
    }

    /// Adds one page. The entity separator is inferred (over the table's PK and SK string
    /// values) from the first non-empty page and then fixed, so kinds never change under the
    /// user.
    ///
    /// # Panics
    ///
    /// If the store would hold more than `u32::MAX` items.
    pub fn extend(&mut self, items: Vec<Item>) {
        if items.is_empty() {
            return;
        }
        let separator = match self.separator {
            Some(separator) => separator,
            None => {
                let separator = infer_page_separator(&items, &self.table_keys);
                self.separator = Some(separator);
                separator
            }
        };
        let end = self.items.len() + items.len();
        assert!(
            end <= ItemId::MAX as usize,
            "the item store holds at most {} items",
            ItemId::MAX
        );
        self.items.reserve(items.len());
        self.sizes.reserve(items.len());
        self.kinds.reserve(items.len());
        self.homes.reserve(items.len());
        self.sort_keys.ends.reserve(items.len());

        // Items that arrived before the last item of their collection: (collection, id).
        let mut late: Vec<(u32, ItemId)> = Vec::new();
        for item in items {
            let id = self.items.len() as ItemId;
            let size = item_size(&item);
            let kind = item_kind(
                &item,
                &self.table_keys.partition_key.name,
                self.table_keys.sort_key.as_ref().map(|k| k.name.as_str()),
                separator,
            )
            .and_then(|name| self.intern_kind(name));
            let home = self.home_of(&item);
            let sort_key = self.group_keys.sort_key.as_ref();
            self.sort_keys
                .push(sort_key.and_then(|key| item.get(&key.name)));
            self.items.push(&item);
            self.sizes.push(u32::try_from(size).unwrap_or(u32::MAX));
            self.kinds.push(kind);
            self.homes.push(home as u32);
            self.total_bytes += size;

            let collection = &mut self.collections[home];
            collection.bytes += size;
            if let Some(kind) = kind {
                self.kind_counts[usize::from(kind)] += 1;
                collection.count_kind(kind);
            }
            match collection.items.last() {
                Some(&last) if self.sort_keys.order(last, id) == Ordering::Greater => {
                    late.push((home as u32, id));
                }
                _ => collection.items.push(id),
            }
        }
        if !late.is_empty() {
            self.merge_late(late);
        }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// # Panics
    ///
    /// If `id` is not an id of this store (likewise for the other per-item accessors).
    /// The item, decoded from compact storage: call it for what is shown, not in bulk.
    pub fn item(&self, id: ItemId) -> Item {
        self.items.get(id as usize)
    }

    /// DynamoDB size of the item, computed once at insert.
    pub fn item_size(&self, id: ItemId) -> usize {
        self.sizes[id as usize] as usize
    }

    /// Entity kind of the item, decoded once at insert.
    pub fn kind_of(&self, id: ItemId) -> Option<&str> {
        self.kind_id_of(id).map(|kind| self.kind_name(kind))
    }

    /// The kind as an id, for cheap comparison and counting; `None` when the item has no kind
    /// (or, in a pathological table, when more than 65,535 distinct kinds were seen).
    pub fn kind_id_of(&self, id: ItemId) -> Option<KindId> {
        self.kinds[id as usize]
    }

    pub fn kind_name(&self, kind: KindId) -> &str {
        &self.kind_names[usize::from(kind)]
    }

    /// Index into [`ItemStore::collections`] of the item's collection.
    pub fn collection_of_item(&self, id: ItemId) -> usize {
        self.homes[id as usize] as usize
    }

    /// Collections in first-seen order.
    pub fn collections(&self) -> &[Collection] {
        &self.collections
    }

    /// Index of the collection with this display key. A real partition-key value spelled like
    /// `(no <name>)` wins over the collection of items missing the key.
    pub fn collection_of(&self, key: &str) -> Option<usize> {
        if let Some(index) = self.keyed(key) {
            return Some(index);
        }
        self.missing
            .filter(|&index| self.collections[index].key == key)
    }

    /// Table-wide kinds and their counts among loaded items, most common first (ties by name).
    pub fn kinds_summary(&self) -> Vec<(&str, usize)> {
        let mut summary: Vec<(&str, usize)> = self
            .kind_names
            .iter()
            .zip(&self.kind_counts)
            .filter(|(_, &count)| count > 0)
            .map(|(name, &count)| (name.as_str(), count))
            .collect();
        summary.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        summary
    }

    /// The entity separator: `#` until inferred from the first non-empty page.
    pub fn separator(&self) -> char {
        self.separator.unwrap_or(SEPARATORS[0])
    }

    pub fn group_keys(&self) -> &KeySchema {
        &self.group_keys
    }

    pub fn table_keys(&self) -> &KeySchema {
        &self.table_keys
    }

    /// Sum of the sizes of all loaded items.
    pub fn total_bytes(&self) -> usize {
        self.total_bytes
    }

    fn intern_kind(&mut self, name: &str) -> Option<KindId> {
        if let Some(&kind) = self.kind_ids.get(name) {
            return Some(kind);
        }
        let kind = KindId::try_from(self.kind_names.len()).ok()?;
        self.kind_names.push(name.to_owned());
        self.kind_ids.insert(name.to_owned(), kind);
        self.kind_counts.push(0);
        Some(kind)
    }

    /// Index of the item's collection, created on first sight.
    fn home_of(&mut self, item: &Item) -> usize {
        match item.get(&self.group_keys.partition_key.name) {
            Some(AttrValue::S(text) | AttrValue::N(text)) => self.collection_for_key(text),
            Some(AttrValue::B(bytes)) => self.collection_for_key(&BASE64.encode(bytes)),
            // Key attributes are always S, N or B; anything else cannot group.
            _ => match self.missing {
                Some(index) => index,
                None => {
                    let key = format!("(no {})", self.group_keys.partition_key.name);
                    let index = self.add_collection(key);
                    self.missing = Some(index);
                    index
                }
            },
        }
    }

    fn collection_for_key(&mut self, key: &str) -> usize {
        // Pages hold collections contiguously, so the previous item's collection is the likely
        // one, and comparing with it is cheaper than hashing into a large map.
        if let Some(index) = self.last_keyed {
            if self.collections[index].key == key {
                return index;
            }
        }
        let index = match self.keyed(key) {
            Some(index) => index,
            None => {
                let index = self.add_collection(key.to_owned());
                let hash = self.key_hasher.hash_one(key);
                self.by_key
                    .insert_unique(hash, (hash, index as u32), |&(hash, _)| hash);
                index
            }
        };
        self.last_keyed = Some(index);
        index
    }

    /// The collection keyed by this partition-key text, if any (never the `(no <name>)` one).
    fn keyed(&self, key: &str) -> Option<usize> {
        let hash = self.key_hasher.hash_one(key);
        self.by_key
            .find(hash, |&(h, index)| {
                h == hash && self.collections[index as usize].key == key
            })
            .map(|&(_, index)| index as usize)
    }

    fn add_collection(&mut self, key: String) -> usize {
        self.collections.push(Collection::new(key));
        self.collections.len() - 1
    }

    /// Merges the page's out-of-order items into their collections.
    fn merge_late(&mut self, mut late: Vec<(u32, ItemId)>) {
        // Groups by collection; ids stay ascending within each group.
        late.sort_unstable();
        let sort_keys = &self.sort_keys;
        let mut extra: Vec<ItemId> = Vec::new();
        for group in late.chunk_by(|a, b| a.0 == b.0) {
            extra.clear();
            extra.extend(group.iter().map(|&(_, id)| id));
            let list = &mut self.collections[group[0].0 as usize].items;
            merge_sorted(list, &mut extra, |a, b| sort_keys.order(a, b));
        }
    }
}

/// The separator over the table's PK and SK string values of one page.
fn infer_page_separator(items: &[Item], table_keys: &KeySchema) -> char {
    let pk = table_keys.partition_key.name.as_str();
    let sk = table_keys.sort_key.as_ref().map(|k| k.name.as_str());
    let values = items.iter().flat_map(|item| {
        std::iter::once(pk)
            .chain(sk)
            .filter_map(|name| item.get(name).and_then(AttrValue::as_s))
    });
    infer_separator(values)
}

/// Every item's sort key, encoded by [`encode_sort_key`], back to back.
#[derive(Debug, Clone, Default)]
struct SortKeys {
    bytes: Vec<u8>,
    /// Per item: where its key ends in `bytes`; it starts where the previous item's ends.
    ends: Vec<usize>,
}

impl SortKeys {
    fn push(&mut self, value: Option<&AttrValue>) {
        if let Some(value) = value {
            encode_sort_key(value, &mut self.bytes);
        }
        self.ends.push(self.bytes.len());
    }

    fn get(&self, id: ItemId) -> &[u8] {
        let id = id as usize;
        let start = if id == 0 { 0 } else { self.ends[id - 1] };
        &self.bytes[start..self.ends[id]]
    }

    /// Total order of items within a collection: sort key (missing first), then arrival.
    fn order(&self, a: ItemId, b: ItemId) -> Ordering {
        self.get(a).cmp(self.get(b)).then(a.cmp(&b))
    }
}

/// Appends `value` encoded so that comparing encodings byte by byte orders values as
/// [`dynamo_cmp`] does. A missing key encodes as nothing, so it sorts first. The first byte is
/// the type's rank by type name; S and B follow with their bytes, N with [`encode_number`], and
/// other types with nothing, as they compare equal.
fn encode_sort_key(value: &AttrValue, out: &mut Vec<u8>) {
    out.push(type_rank(value));
    match value {
        AttrValue::S(text) => out.extend_from_slice(text.as_bytes()),
        AttrValue::B(bytes) => out.extend_from_slice(bytes),
        AttrValue::N(text) => encode_number(text, out),
        _ => {}
    }
}

/// 1-based position of the type name in alphabetical order (B, BOOL, BS, L, M, N, NS, NULL, S,
/// SS).
fn type_rank(value: &AttrValue) -> u8 {
    match value {
        AttrValue::B(_) => 1,
        AttrValue::Bool(_) => 2,
        AttrValue::Bs(_) => 3,
        AttrValue::L(_) => 4,
        AttrValue::M(_) => 5,
        AttrValue::N(_) => 6,
        AttrValue::Ns(_) => 7,
        AttrValue::Null => 8,
        AttrValue::S(_) => 9,
        AttrValue::Ss(_) => 10,
    }
}

const NUMBER_NEGATIVE: u8 = 1;
const NUMBER_ZERO: u8 = 2;
const NUMBER_POSITIVE: u8 = 3;
const NUMBER_NOT_A_NUMBER: u8 = 4;

/// A number as sign class, then (for non-zero values) the exponent of `0.d1d2… × 10^e` as a
/// biased big-endian `u64`, then the significant digits; a negative number inverts both and ends
/// with 0xFF, so a larger magnitude sorts first and a digit-prefix (smaller magnitude) last.
/// Text that is not a number follows every number, as itself.
fn encode_number(text: &str, out: &mut Vec<u8>) {
    let Some(decimal) = parse_decimal(text) else {
        out.push(NUMBER_NOT_A_NUMBER);
        out.extend_from_slice(text.as_bytes());
        return;
    };
    let all = || decimal.int.iter().chain(decimal.frac).copied();
    let count = decimal.int.len() + decimal.frac.len();
    let leading = all().take_while(|&d| d == b'0').count();
    if leading == count {
        out.push(NUMBER_ZERO);
        return;
    }
    let trailing = all().rev().take_while(|&d| d == b'0').count();
    let digits = all().skip(leading).take(count - leading - trailing);
    let exponent = decimal.int.len() as i64 - leading as i64 + decimal.exponent;
    let biased = (exponent as u64) ^ (1 << 63);
    if decimal.negative {
        out.push(NUMBER_NEGATIVE);
        out.extend_from_slice(&(!biased).to_be_bytes());
        out.extend(digits.map(|d| !d));
        out.push(0xFF);
    } else {
        out.push(NUMBER_POSITIVE);
        out.extend_from_slice(&biased.to_be_bytes());
        out.extend(digits);
    }
}

/// Merges `extra` (any order) into the sorted `list`. Each element of `extra` finds its place
/// by galloping from the previous one's, so a page costs O(m log n) comparisons (O(m) for a
/// descending page) plus copying the tail of `list` from where the first of them lands.
fn merge_sorted(
    list: &mut Vec<ItemId>,
    extra: &mut [ItemId],
    order: impl Fn(ItemId, ItemId) -> Ordering,
) {
    // `order` is total and ids are unique, so an unstable sort is deterministic.
    extra.sort_unstable_by(|&a, &b| order(a, b));
    let Some(&first) = extra.first() else {
        return;
    };
    let start = list.partition_point(|&id| order(id, first) == Ordering::Less);
    let tail: Vec<ItemId> = list.split_off(start);
    list.reserve(tail.len() + extra.len());
    let mut from = 0;
    for &id in extra.iter() {
        let to = from + gallop(&tail[from..], |t| order(t, id) == Ordering::Less);
        list.extend_from_slice(&tail[from..to]);
        list.push(id);
        from = to;
    }
    list.extend_from_slice(&tail[from..]);
}

/// Like `partition_point`, but probes 1, 2, 4, … elements in first, so it costs O(log k)
/// comparisons when the answer is `k`.
fn gallop(slice: &[ItemId], is_before: impl Fn(ItemId) -> bool) -> usize {
    let mut low = 0;
    let mut step = 1;
    while low + step <= slice.len() && is_before(slice[low + step - 1]) {
        low += step;
        step *= 2;
    }
    let high = (low + step).min(slice.len());
    low + slice[low..high].partition_point(|&id| is_before(id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::schema::{KeyAttr, KeyType};

    fn s(v: &str) -> AttrValue {
        AttrValue::S(v.into())
    }

    fn n(v: &str) -> AttrValue {
        AttrValue::N(v.into())
    }

    fn b(v: &[u8]) -> AttrValue {
        AttrValue::B(v.to_vec())
    }

    fn key_attr(name: &str, key_type: KeyType) -> KeyAttr {
        KeyAttr {
            name: name.into(),
            key_type,
        }
    }

    fn schema(pk: &str, sk: Option<(&str, KeyType)>) -> KeySchema {
        KeySchema {
            partition_key: key_attr(pk, KeyType::S),
            sort_key: sk.map(|(name, t)| key_attr(name, t)),
        }
    }

    fn table() -> KeySchema {
        schema("PK", Some(("SK", KeyType::S)))
    }

    fn table_store() -> ItemStore {
        ItemStore::new(table(), table())
    }

    fn item(attrs: Vec<(&str, AttrValue)>) -> Item {
        Item::from_attrs(attrs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    fn pk_sk(pk: &str, sk: &str) -> Item {
        item(vec![("PK", s(pk)), ("SK", s(sk))])
    }

    /// The sort-key values of a collection, in store order.
    fn sort_keys(store: &ItemStore, collection: usize, name: &str) -> Vec<AttrValue> {
        store.collections()[collection]
            .items
            .iter()
            .map(|&id| store.item(id).get(name).cloned().unwrap_or(AttrValue::Null))
            .collect()
    }

    /// The `seq` attribute of a collection's items, in store order.
    fn seqs(store: &ItemStore, collection: usize) -> Vec<String> {
        store.collections()[collection]
            .items
            .iter()
            .map(|&id| match store.item(id).get("seq") {
                Some(AttrValue::S(v) | AttrValue::N(v)) => v.clone(),
                _ => String::new(),
            })
            .collect()
    }

    #[test]
    fn dynamo_cmp_orders_key_values() {
        use Ordering::*;
        let cases: Vec<(AttrValue, AttrValue, Ordering)> = vec![
            // S: UTF-8 byte order, not case-folded or locale-aware.
            (s("a"), s("b"), Less),
            (s("B"), s("a"), Less),
            (s("a"), s("ab"), Less),
            (s(""), s("a"), Less),
            (s("z"), s("é"), Less),
            (s("\u{ffff}"), s("\u{10000}"), Less),
            (s("x"), s("x"), Equal),
            // N: numeric, whatever the lexicographic order.
            (n("9"), n("10"), Less),
            (n("-5"), n("1"), Less),
            (n("2"), n("2.5"), Less),
            (n("2.5"), n("9"), Less),
            (n("-10"), n("-9"), Less),
            (n("1e2"), n("100"), Equal),
            (n("0"), n("-0"), Equal),
            // Not numbers at all: after every number, by text among themselves.
            (n("2"), n("1x"), Less),
            (n("1x"), n("2x"), Less),
            // B: unsigned bytes.
            (b(&[0x7f]), b(&[0x80]), Less),
            (b(&[]), b(&[0]), Less),
            (b(&[1]), b(&[1, 0]), Less),
            (b(&[0xff]), b(&[0xff]), Equal),
            // Different types: by type name.
            (b(&[0xff]), n("1"), Less),
            (n("9"), s("1"), Less),
            (s("a"), b(&[0]), Greater),
            (AttrValue::Bool(true), s("a"), Less),
            // Same non-key type: equal.
            (AttrValue::Bool(true), AttrValue::Bool(false), Equal),
            (AttrValue::Null, AttrValue::Null, Equal),
            (AttrValue::L(vec![s("a")]), AttrValue::L(vec![]), Equal),
            (
                AttrValue::M(Item::new()),
                AttrValue::M(pk_sk("a", "b")),
                Equal,
            ),
        ];
        for (a, b, want) in cases {
            assert_eq!(dynamo_cmp(&a, &b), want, "{a:?} vs {b:?}");
            assert_eq!(dynamo_cmp(&b, &a), want.reverse(), "{b:?} vs {a:?}");
        }
    }

    #[test]
    fn groups_collections_in_first_seen_order() {
        let mut store = table_store();
        assert!(store.is_empty());
        store.extend(vec![
            pk_sk("USER#2", "PROFILE"),
            pk_sk("USER#1", "PROFILE"),
            pk_sk("USER#2", "ORDER#2026-01-01#o1"),
        ]);
        store.extend(vec![]);
        store.extend(vec![
            pk_sk("PRODUCT#p1", "PRODUCT"),
            pk_sk("USER#1", "ORDER#2026-01-01#o2"),
        ]);
        assert_eq!(store.len(), 5);
        assert!(!store.is_empty());
        let keys: Vec<_> = store.collections().iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["USER#2", "USER#1", "PRODUCT#p1"]);
        let members: Vec<_> = store
            .collections()
            .iter()
            .map(|c| c.items.clone())
            .collect();
        // Within a collection, sort-key order: ORDER#… < PROFILE.
        assert_eq!(members, [vec![2, 0], vec![4, 1], vec![3]]);
        for (key, want) in [
            ("USER#2", Some(0)),
            ("USER#1", Some(1)),
            ("PRODUCT#p1", Some(2)),
            ("USER#3", None),
            ("(no PK)", None),
        ] {
            assert_eq!(store.collection_of(key), want, "{key}");
        }
        for (id, want) in [(0, 0), (1, 1), (2, 0), (3, 2), (4, 1)] {
            assert_eq!(store.collection_of_item(id), want, "item {id}");
        }
    }

    #[test]
    fn partition_keys_of_each_type_become_display_text() {
        let cases: Vec<(KeyType, AttrValue, &str)> = vec![
            (KeyType::S, s("USER#1"), "USER#1"),
            (KeyType::S, s("a\u{1b}[31m"), "a\u{1b}[31m"),
            (KeyType::N, n("1.50"), "1.50"),
            (KeyType::B, b(&[1, 2, 3]), "AQID"),
        ];
        for (key_type, value, want) in cases {
            let keys = KeySchema {
                partition_key: key_attr("id", key_type),
                sort_key: None,
            };
            let mut store = ItemStore::new(keys.clone(), keys);
            store.extend(vec![item(vec![("id", value.clone())])]);
            assert_eq!(store.collections()[0].key, want, "{value:?}");
            assert_eq!(store.collection_of(want), Some(0), "{value:?}");
        }
    }

    #[test]
    fn sorts_within_a_collection_by_key_type() {
        let cases: Vec<(KeyType, Vec<AttrValue>, Vec<AttrValue>)> = vec![
            (
                KeyType::S,
                vec![s("b"), s("B"), s("é"), s("ab"), s("z"), s("a")],
                vec![s("B"), s("a"), s("ab"), s("b"), s("z"), s("é")],
            ),
            (
                KeyType::N,
                vec![n("10"), n("9"), n("2.5"), n("-5"), n("1"), n("2"), n("-10")],
                vec![n("-10"), n("-5"), n("1"), n("2"), n("2.5"), n("9"), n("10")],
            ),
            (
                KeyType::B,
                vec![b(&[0x80]), b(&[1, 0]), b(&[0x7f]), b(&[]), b(&[1])],
                vec![b(&[]), b(&[1]), b(&[1, 0]), b(&[0x7f]), b(&[0x80])],
            ),
        ];
        for (key_type, arrival, want) in cases {
            let keys = KeySchema {
                partition_key: key_attr("PK", KeyType::S),
                sort_key: Some(key_attr("SK", key_type)),
            };
            // One page, two-item pages and one item per page take different merge paths.
            for page_size in [arrival.len(), 2, 1] {
                let mut store = ItemStore::new(keys.clone(), keys.clone());
                let items: Vec<Item> = arrival
                    .iter()
                    .map(|v| item(vec![("PK", s("P")), ("SK", v.clone())]))
                    .collect();
                for page in items.chunks(page_size) {
                    store.extend(page.to_vec());
                }
                assert_eq!(store.collections().len(), 1);
                assert_eq!(
                    sort_keys(&store, 0, "SK"),
                    want,
                    "{key_type:?}, pages of {page_size}"
                );
            }
        }
    }

    #[test]
    fn out_of_order_arrival() {
        // Descending query pages, ascending pages and a shuffle, interleaving two collections.
        let count = 1000u32;
        let descending: Vec<u32> = (0..count).rev().collect();
        let ascending: Vec<u32> = (0..count).collect();
        let shuffled: Vec<u32> = (0..count).map(|i| (i * 7919) % count).collect();
        for (name, order) in [
            ("descending", descending),
            ("ascending", ascending),
            ("shuffled", shuffled),
        ] {
            let mut store = table_store();
            let items: Vec<Item> = order
                .iter()
                .map(|i| {
                    let pk = if i % 3 == 0 { "A" } else { "B" };
                    pk_sk(pk, &format!("K#{i:05}"))
                })
                .collect();
            for page in items.chunks(64) {
                store.extend(page.to_vec());
            }
            assert_eq!(store.len(), count as usize, "{name}");
            for collection in 0..2 {
                let keys = sort_keys(&store, collection, "SK");
                let mut sorted = keys.clone();
                sorted.sort_by(dynamo_cmp);
                assert_eq!(keys, sorted, "{name}, collection {collection}");
            }
            let sizes: usize = store.collections().iter().map(|c| c.items.len()).sum();
            assert_eq!(sizes, count as usize, "{name}");
        }
    }

    #[test]
    fn equal_sort_keys_keep_arrival_order() {
        let keys = schema("PK", Some(("SK", KeyType::N)));
        // (name, (sort key, seq) pairs in arrival order, page size, seqs in store order).
        type Arrival = Vec<(&'static str, &'static str)>;
        let cases: Vec<(&str, Arrival, usize, Vec<&str>)> = vec![
            (
                "in order",
                vec![("1", "a"), ("1", "b"), ("2", "c"), ("2", "d")],
                4,
                vec!["a", "b", "c", "d"],
            ),
            (
                "late equal keys within a page",
                vec![
                    ("5", "a"),
                    ("3", "b"),
                    ("5", "c"),
                    ("3", "d"),
                    ("9", "e"),
                    ("3", "f"),
                    ("5", "g"),
                ],
                7,
                vec!["b", "d", "f", "a", "c", "g", "e"],
            ),
            (
                "late equal keys across pages",
                vec![
                    ("5", "a"),
                    ("9", "b"),
                    ("5", "c"),
                    ("3", "d"),
                    ("5", "e"),
                    ("3", "f"),
                ],
                2,
                vec!["d", "f", "a", "c", "e", "b"],
            ),
            (
                "numerically equal spellings",
                vec![("100", "a"), ("1e2", "b"), ("99", "c"), ("100.0", "d")],
                1,
                vec!["c", "a", "b", "d"],
            ),
        ];
        for (name, arrival, page_size, want) in cases {
            let mut store = ItemStore::new(keys.clone(), keys.clone());
            let items: Vec<Item> = arrival
                .iter()
                .map(|(sk, seq)| item(vec![("PK", s("P")), ("SK", n(sk)), ("seq", s(seq))]))
                .collect();
            for page in items.chunks(page_size) {
                store.extend(page.to_vec());
            }
            assert_eq!(seqs(&store, 0), want, "{name}");
        }
    }

    #[test]
    fn items_without_the_sort_key_come_first() {
        let mut store = table_store();
        store.extend(vec![
            item(vec![("PK", s("P")), ("SK", s("b")), ("seq", s("1"))]),
            item(vec![("PK", s("P")), ("seq", s("2"))]),
            item(vec![("PK", s("P")), ("SK", s("a")), ("seq", s("3"))]),
            item(vec![("PK", s("P")), ("seq", s("4"))]),
        ]);
        assert_eq!(seqs(&store, 0), ["2", "4", "3", "1"]);
    }

    #[test]
    fn keys_without_a_sort_key_keep_arrival_order() {
        let keys = schema("PK", None);
        let mut store = ItemStore::new(keys.clone(), keys);
        store.extend(vec![
            pk_sk("P", "z"),
            pk_sk("P", "a"),
            pk_sk("Q", "m"),
            pk_sk("P", "b"),
        ]);
        let members: Vec<_> = store
            .collections()
            .iter()
            .map(|c| c.items.clone())
            .collect();
        assert_eq!(members, [vec![0, 1, 3], vec![2]]);
    }

    #[test]
    fn kinds_of_demo_shapes() {
        let cases: &[(&str, &str, Option<&str>)] = &[
            ("USER#1", "PROFILE", Some("USER")),
            ("USER#1", "ORDER#2026-01-02#o1", Some("ORDER")),
            ("ORDER#o1", "ITEM#1", Some("ITEM")),
            ("ORDER#o1", "#META", Some("ORDER")),
            ("PRODUCT#p1", "PRODUCT", Some("PRODUCT")),
            ("alice", "2026-01-02", None),
        ];
        let mut store = table_store();
        store.extend(cases.iter().map(|(pk, sk, _)| pk_sk(pk, sk)).collect());
        assert_eq!(store.separator(), '#');
        for (id, (pk, sk, want)) in cases.iter().enumerate() {
            let id = id as ItemId;
            assert_eq!(store.kind_of(id), *want, "{pk} / {sk}");
            let by_id = store.kind_id_of(id).map(|kind| store.kind_name(kind));
            assert_eq!(by_id, *want, "{pk} / {sk}");
        }
        assert_eq!(store.kind_id_of(1), store.kind_id_of(3), "both ORDER");
        assert_ne!(store.kind_id_of(0), store.kind_id_of(1));

        let per_collection: Vec<(&str, Vec<(&str, u32)>)> = store
            .collections()
            .iter()
            .map(|c| {
                let kinds = c
                    .kinds
                    .iter()
                    .map(|&(kind, count)| (store.kind_name(kind), count))
                    .collect();
                (c.key.as_str(), kinds)
            })
            .collect();
        assert_eq!(
            per_collection,
            [
                ("USER#1", vec![("USER", 1), ("ORDER", 1)]),
                ("ORDER#o1", vec![("ITEM", 1), ("ORDER", 1)]),
                ("PRODUCT#p1", vec![("PRODUCT", 1)]),
                ("alice", vec![]),
            ]
        );
        assert_eq!(
            store.kinds_summary(),
            [("ORDER", 2), ("ITEM", 1), ("PRODUCT", 1), ("USER", 1)]
        );
    }

    #[test]
    fn separator_is_inferred_from_the_first_page_then_fixed() {
        let mut store = table_store();
        assert_eq!(store.separator(), '#');
        store.extend(vec![]);
        assert_eq!(store.separator(), '#', "an empty page infers nothing");
        store.extend(vec![
            pk_sk("USER|1", "PROFILE"),
            pk_sk("USER|1", "ORDER|2026-01-02|o1"),
        ]);
        assert_eq!(store.separator(), '|');
        // A later page in another style neither changes the separator nor re-decodes.
        store.extend(vec![
            pk_sk("TEAM#1", "MEMBER#2"),
            pk_sk("TEAM#1", "MEMBER#3"),
            pk_sk("USER|2", "PROFILE"),
        ]);
        assert_eq!(store.separator(), '|');
        let kinds: Vec<_> = (0..5).map(|id| store.kind_of(id)).collect();
        assert_eq!(
            kinds,
            [Some("USER"), Some("ORDER"), None, None, Some("USER")]
        );
        assert_eq!(store.kinds_summary(), [("USER", 2), ("ORDER", 1)]);

        // A first page without kinds fixes the default.
        let mut store = table_store();
        store.extend(vec![pk_sk("alice", "2026-01-02")]);
        store.extend(vec![pk_sk("USER|1", "ORDER|o1")]);
        assert_eq!(store.separator(), '#');
        assert_eq!(store.kind_of(1), None);
    }

    #[test]
    fn groups_by_an_index_key_and_decodes_kinds_with_table_keys() {
        let gsi = schema("GSI1PK", Some(("GSI1SK", KeyType::S)));
        let mut store = ItemStore::new(gsi.clone(), table());
        let order = |user: &str, day: &str, id: &str, status: &str| {
            item(vec![
                ("PK", s(&format!("USER#{user}"))),
                ("SK", s(&format!("ORDER#{day}#{id}"))),
                ("GSI1PK", s(&format!("STATUS#{status}"))),
                ("GSI1SK", s(&format!("{day}#ORDER#{id}"))),
            ])
        };
        // A table scan grouped by the index: the profile has no GSI1PK.
        store.extend(vec![
            order("1", "2026-03-01", "o3", "SHIPPED"),
            pk_sk("USER#1", "PROFILE"),
            order("2", "2026-01-01", "o1", "SHIPPED"),
            order("1", "2026-02-01", "o2", "PENDING"),
            item(vec![
                ("PK", s("PRODUCT#p1")),
                ("SK", s("PRODUCT")),
                ("GSI1PK", s("CATEGORY#books")),
                ("GSI1SK", s("PRODUCT#p1")),
            ]),
        ]);
        assert_eq!(store.group_keys(), &gsi);
        assert_eq!(store.table_keys(), &table());
        let keys: Vec<_> = store.collections().iter().map(|c| c.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "STATUS#SHIPPED",
                "(no GSI1PK)",
                "STATUS#PENDING",
                "CATEGORY#books"
            ]
        );
        assert_eq!(
            sort_keys(&store, 0, "GSI1SK"),
            [s("2026-01-01#ORDER#o1"), s("2026-03-01#ORDER#o3")]
        );
        assert_eq!(store.collection_of("(no GSI1PK)"), Some(1));
        // Kinds come from PK/SK, not from the STATUS#… / date-first index keys.
        let kinds: Vec<_> = (0..5).map(|id| store.kind_of(id)).collect();
        assert_eq!(
            kinds,
            [
                Some("ORDER"),
                Some("USER"),
                Some("ORDER"),
                Some("ORDER"),
                Some("PRODUCT")
            ]
        );
        assert_eq!(
            store.kinds_summary(),
            [("ORDER", 3), ("PRODUCT", 1), ("USER", 1)]
        );
    }

    #[test]
    fn items_missing_the_partition_key() {
        let mut store = table_store();
        store.extend(vec![
            item(vec![("SK", s("b")), ("seq", s("1"))]),
            pk_sk("USER#1", "PROFILE"),
            item(vec![("SK", s("a")), ("seq", s("2"))]),
            item(vec![("seq", s("3"))]),
            // Not a key type: cannot group either.
            item(vec![("PK", AttrValue::Bool(true)), ("seq", s("4"))]),
        ]);
        let keys: Vec<_> = store.collections().iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["(no PK)", "USER#1"]);
        assert_eq!(store.collection_of("(no PK)"), Some(0));
        assert_eq!(seqs(&store, 0), ["3", "4", "2", "1"]);

        // A real key spelled like the placeholder stays its own collection and wins the lookup.
        store.extend(vec![pk_sk("(no PK)", "x")]);
        let keys: Vec<_> = store.collections().iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["(no PK)", "USER#1", "(no PK)"]);
        assert_eq!(store.collection_of("(no PK)"), Some(2));
    }

    #[test]
    fn bytes_are_summed_per_item_collection_and_table() {
        let items = vec![
            pk_sk("USER#1", "PROFILE"),
            item(vec![
                ("PK", s("USER#1")),
                ("SK", s("ORDER#1")),
                ("total", n("12.50")),
            ]),
            pk_sk("USER#2", "PROFILE"),
            item(vec![("name", s("no key"))]),
        ];
        let sizes: Vec<usize> = items.iter().map(item_size).collect();
        let mut store = table_store();
        store.extend(items);
        for (id, &size) in sizes.iter().enumerate() {
            assert_eq!(store.item_size(id as ItemId), size, "item {id}");
        }
        let bytes: Vec<_> = store.collections().iter().map(|c| c.bytes).collect();
        assert_eq!(bytes, [sizes[0] + sizes[1], sizes[2], sizes[3]]);
        assert_eq!(store.total_bytes(), sizes.iter().sum::<usize>());
        assert_eq!(store.total_bytes(), 17 + 25 + 17 + 10);
    }

    /// Key values of every type, with the numbers that trip up text order and parsing.
    fn value_pool() -> Vec<AttrValue> {
        let numbers = [
            "0",
            "-0",
            "0.0",
            "+0e5",
            "1",
            "1.0",
            "1e0",
            "10",
            "9",
            "-5",
            "-10",
            "2",
            "2.5",
            "-2.5",
            "-2.50",
            "-25",
            "0.001",
            ".5",
            "5.",
            "+7",
            "1e-130",
            "-1e-130",
            "9.9999999999999999999999999999999999999E+125",
            "-9.9999999999999999999999999999999999999E+125",
            "123456789012345678901234567890123456.7",
            "123456789012345678901234567890123456.8",
            "1e999999999999999999999",
            "2e999999999999999999999",
            "1x",
            "abc",
            "",
        ];
        let mut pool: Vec<AttrValue> = numbers.iter().map(|v| n(v)).collect();
        for v in [
            "",
            "a",
            "ab",
            "B",
            "z",
            "é",
            "\u{10000}",
            "USER#1",
            "USER#10",
            "USER#2",
        ] {
            pool.push(s(v));
        }
        for v in [&[][..], &[0], &[0, 0], &[1], &[0x7f], &[0x80], &[0xff, 0]] {
            pool.push(b(v));
        }
        pool.extend([
            AttrValue::Bool(false),
            AttrValue::Bool(true),
            AttrValue::Null,
            AttrValue::M(Item::new()),
            AttrValue::L(vec![]),
            AttrValue::Ss(vec!["a".into()]),
            AttrValue::Ns(vec![]),
            AttrValue::Bs(vec![]),
        ]);
        pool
    }

    #[test]
    fn encoded_sort_keys_order_like_dynamo_cmp() {
        let pool = value_pool();
        let encode = |v: &AttrValue| {
            let mut out = Vec::new();
            encode_sort_key(v, &mut out);
            out
        };
        for a in &pool {
            assert!(!encode(a).is_empty(), "only a missing key encodes empty");
            for b in &pool {
                assert_eq!(
                    encode(a).cmp(&encode(b)),
                    dynamo_cmp(a, b),
                    "{a:?} vs {b:?}"
                );
            }
        }
    }

    #[test]
    fn number_syntax_matches_validate_number() {
        use crate::model::number::{validate_number, NumberError};
        let cases = [
            "0", "-1", "+1", ".5", "5.", "-.5e3", "1e5", "1E+5", "1e-5", "1e126", "1e-200", "",
            "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "1 ", " 1", "0x10", "NaN", "Infinity", "١",
            "1e5.5", "--1",
        ];
        for text in cases {
            let syntax_ok = !matches!(validate_number(text), Err(NumberError::Syntax(_)));
            assert_eq!(parse_decimal(text).is_some(), syntax_ok, "{text:?}");
        }
    }

    #[test]
    fn random_arrival_matches_a_stable_sort() {
        // Mixed-type sort keys (and missing ones) in random order and random page sizes; the
        // store must equal a stable sort of each collection's arrival order by dynamo_cmp.
        let pool = value_pool();
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        for round in 0..20 {
            let mut store = table_store();
            let mut arrival: Vec<Item> = Vec::new();
            for _ in 0..300 {
                let pk = ["A", "B", "C"][next(3)];
                let mut attrs = vec![("PK", s(pk))];
                if next(10) > 0 {
                    attrs.push(("SK", pool[next(pool.len())].clone()));
                }
                arrival.push(item(attrs));
            }
            let mut rest = arrival.as_slice();
            while !rest.is_empty() {
                let take = (1 + next(60)).min(rest.len());
                store.extend(rest[..take].to_vec());
                rest = &rest[take..];
            }
            for collection in store.collections() {
                let mut want: Vec<ItemId> = (0..arrival.len() as ItemId)
                    .filter(|&id| arrival[id as usize].get("PK") == Some(&s(&collection.key)))
                    .collect();
                want.sort_by(|&x, &y| {
                    match (arrival[x as usize].get("SK"), arrival[y as usize].get("SK")) {
                        (Some(a), Some(b)) => dynamo_cmp(a, b),
                        (a, b) => a.is_some().cmp(&b.is_some()),
                    }
                });
                assert_eq!(collection.items, want, "round {round}, {}", collection.key);
            }
        }
    }

    /// Every id exactly once across collections, each collection sorted, sums consistent.
    fn check_invariants(store: &ItemStore, sort_key: &str) {
        let mut seen = vec![false; store.len()];
        let mut bytes = 0;
        for (index, collection) in store.collections().iter().enumerate() {
            for &id in &collection.items {
                assert!(!seen[id as usize], "item {id} twice");
                seen[id as usize] = true;
                assert_eq!(store.collection_of_item(id), index);
            }
            for pair in collection.items.windows(2) {
                let key = |id: ItemId| store.item(id).get(sort_key).cloned();
                let order = match (key(pair[0]).as_ref(), key(pair[1]).as_ref()) {
                    (Some(a), Some(b)) => dynamo_cmp(a, b),
                    (a, b) => a.is_some().cmp(&b.is_some()),
                }
                .then(pair[0].cmp(&pair[1]));
                assert_eq!(order, Ordering::Less, "{} unsorted", collection.key);
            }
            let sum: usize = collection.items.iter().map(|&id| store.item_size(id)).sum();
            assert_eq!(collection.bytes, sum, "{}", collection.key);
            bytes += sum;
        }
        assert!(seen.iter().all(|&s| s), "every item in a collection");
        assert_eq!(store.total_bytes(), bytes);
        let kinds: usize = store.kinds_summary().iter().map(|(_, c)| c).sum();
        let with_kind = (0..store.len() as ItemId)
            .filter(|&id| store.kind_of(id).is_some())
            .count();
        assert_eq!(kinds, with_kind);
    }

    #[test]
    fn ingests_the_demo_data_set() {
        let items = crate::model::demo_data::generate(10_000);
        assert!(items.len() >= 150_000, "{} items", items.len());
        let count = items.len();
        let mut pages: Vec<Vec<Item>> = Vec::new();
        let mut rest = items.into_iter();
        loop {
            let page: Vec<Item> = rest.by_ref().take(1000).collect();
            if page.is_empty() {
                break;
            }
            pages.push(page);
        }

        let mut store = table_store();
        // Grouped by the numeric local index as well: orders sort by total, profiles first.
        let lsi = KeySchema {
            partition_key: key_attr("PK", KeyType::S),
            sort_key: Some(key_attr("LSI1SK", KeyType::N)),
        };
        let mut by_total = ItemStore::new(lsi, table());
        for page in pages {
            by_total.extend(page.clone());
            store.extend(page);
        }
        assert_eq!(store.len(), count);
        assert_eq!(by_total.len(), count);
        check_invariants(&store, "SK");
        check_invariants(&by_total, "LSI1SK");

        let celebrity = store.collection_of("USER#celebrity").unwrap();
        assert_eq!(store.collections()[celebrity].kinds.len(), 2);
        let summary = store.kinds_summary();
        let names: Vec<_> = summary.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, ["ITEM", "ORDER", "USER", "PRODUCT"]);
        assert_eq!(summary[3], ("PRODUCT", 120));
        assert_eq!(summary[2], ("USER", 10_001));
        let celebrity = by_total.collection_of("USER#celebrity").unwrap();
        let first = by_total.collections()[celebrity].items[0];
        assert_eq!(by_total.kind_of(first), Some("USER"));
    }
}
