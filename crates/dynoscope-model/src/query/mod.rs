//! Asking for items: typed key conditions, DynamoDB expressions, the query builder's filter syntax,
//! PartiQL in and Query or Scan out, completion candidates, and DynamoDB's reserved words.

pub mod completion;
pub mod expression;
pub mod filter_compile;
pub mod key_condition;
pub mod partiql;
pub mod reserved;
