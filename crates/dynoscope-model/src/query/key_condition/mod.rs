//! Typed key conditions for Query.
//!
//! DynamoDB refuses a bad key condition only after a round trip, with a terse message. Checking
//! DynamoDB's rules here — value types, `begins_with` only on strings and binary, ordered
//! `between` bounds, no sort condition without a sort key — lets us name the exact value and
//! the fix before any request. Every way of building a condition (CLI flags, the aws-cli
//! expression spelling, PartiQL) ends in `KeyCondition::new`, so the rules live in one place,
//! for a table's one-and-one key and a multi-attribute GSI's lists alike.

mod condition;
mod error;
mod key_value;
mod sort_condition;

pub use condition::{ExpressionParts, KeyCondition};
pub use error::KeyConditionError;
pub use key_value::{from_attr, KeyValue};
pub use sort_condition::{SortCondition, SortInput, SortOp};

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod multi_tests;
