//! Pure domain code: no I/O, no terminal types.

pub mod access_pattern;
pub mod aws_profile_file;
pub mod aws_profiles;
pub mod calendar;
pub mod capacity;
pub mod cell;
pub mod churn;
pub mod collection;
pub mod columns;
pub mod compact;
pub mod completion;
pub mod demo_data;
pub mod distribution;
pub mod duration;
pub mod entity;
pub mod export;
pub mod expression;
pub mod filter_compile;
#[cfg(test)]
pub mod fixtures;
pub mod item_size;
pub mod json;
pub mod key_condition;
pub mod limits;
pub mod names;
pub mod number;
pub mod part_names;
mod pattern_file;
pub mod redact;
pub mod relations;
pub mod reserved;
pub mod sanitize;
pub mod schema;
pub mod stream;
pub mod value;
pub mod wrap;
pub mod write;
