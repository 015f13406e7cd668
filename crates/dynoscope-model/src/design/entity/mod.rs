//! Entity prefixes in single-table keys (`USER#123`, `ORDER#2026-08-27#456`).
//!
//! Single-table designs keep several entity types in one table and tell them apart by a literal
//! prefix on the key. Decoding is a heuristic, so it leans towards "no kind" whenever a segment
//! could just as well be data: a wrong kind groups and colours items misleadingly, a missing one
//! only loses a hint.
//!
//! A segment is a kind when it is identifier-like: it starts with an ASCII letter and holds only
//! ASCII letters, digits, `_` and `-`. Starting with a letter rules out numbers, dates, ULIDs and
//! timestamps; hex ids that happen to start with a letter (`a3f9c2e1-…`) are ruled out too.
//! What an item says about itself comes first, though: see [`KindRules`]. A key
//! with no separator at all (`PROFILE`) is a kind only in upper case, because a lone lower-case
//! word (`alice`, `o9`) is far more often data than a type marker.

mod color;
mod decode;
mod electrodb;
mod kind_rules;
mod pattern;
mod timestamp;

pub use color::kind_color_index;
pub use decode::{
    decode_key, decode_key_as, infer_separator, item_kind, DecodedKey, KeyRole, SEPARATORS,
};
pub use electrodb::electrodb_value_prefix;
pub use kind_rules::{KindRules, KindSource, COMMON_ENTITY_ATTRIBUTES, LIBRARY_ATTRIBUTES};
pub use pattern::{EntityPattern, PatternError};
pub use timestamp::{iso_timestamp_len, split_segments};
