//! Entity prefixes in single-table keys (`USER#123`, `ORDER#2026-08-27#456`).
//!
//! Single-table designs keep several entity types in one table and tell them apart by a literal
//! prefix on the key. Decoding is a heuristic, so it leans towards "no kind" whenever a segment
//! could just as well be data: a wrong kind groups and colours items misleadingly, a missing one
//! only loses a hint.
//!
//! A segment is a kind when it is identifier-like: it starts with an ASCII letter and holds only
//! ASCII letters, digits, `_` and `-`. Starting with a letter rules out numbers, dates, ULIDs and
//! timestamps; hex ids that happen to start with a letter (`a3f9c2e1-…`) are ruled out too. A key
//! with no separator at all (`PROFILE`) is a kind only in upper case, because a lone lower-case
//! word (`alice`, `o9`) is far more often data than a type marker.

mod color;
mod decode;
mod pattern;

pub use color::kind_color_index;
pub use decode::{decode_key, infer_separator, item_kind, DecodedKey, SEPARATORS};
pub use pattern::{EntityPattern, PatternError};
