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

mod display_order;
mod edit;
mod grouping;
mod key_window;
mod merge;
mod ordering;
mod sort_key;
mod store;

pub use display_order::{CollectionOrder, DisplayOrder};
pub use grouping::{tuple_key, Collection, TUPLE_SEPARATOR};
pub use key_window::KeyWindow;
pub use merge::merge_sorted;
pub use ordering::dynamo_cmp;
pub use store::{ItemId, ItemStore, KindId};

#[cfg(test)]
mod fixtures;
