//! Single-table design: what DescribeTable says about a table, entity prefixes in keys, item
//! collections and the relationships between them, sort-key parts named after the item's
//! attributes, and named access patterns (their file, their filter, and `patterns check`).

pub mod access_pattern;
pub mod collection;
pub mod entity;
pub mod inferred;
mod key_schema;
pub mod part_names;
pub mod pattern_bind;
pub mod pattern_check;
mod pattern_file;
pub mod pattern_filter;
pub mod relations;
pub mod schema;
pub mod synthetic_keys;
