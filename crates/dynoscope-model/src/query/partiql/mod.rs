//! PartiQL in, Query or Scan out.
//!
//! A PartiQL `SELECT` whose `WHERE` does not pin the partition key with `=` or `IN` is a full
//! table Scan that DynamoDB runs silently. Parsing the statement and translating it to the
//! Query or Scan DynamoDB would run lets dynoscope say which it is before anything is sent,
//! and run it as that read under the capacity guards. The translation reuses the key
//! condition types, so a Query here is the same request `dynoscope query` sends.

mod advice;
mod ast;
mod canonical;
pub mod complete;
pub mod dialects;
mod dml;
mod error;
mod explain;
mod filter;
mod lexer;
mod multi_key;
mod params;
mod parser;
mod plan;
pub mod render;
mod reserved;
mod translate;

pub use advice::{advise, Advice, NewIndex, ServingIndex};
pub use ast::{CmpOp, Direction, Expr, Func, Operand, Path, Select, Statement, Step};
pub use canonical::{canonical, is_sendable_read, read_statement};
pub use dml::{is_bulk_write, Change, WriteStatement};
pub use error::{ErrorKind, PartiqlError};
pub use explain::{
    advice_clause, explain, explain_dialects, explain_head, headline, refusal, scan_estimate,
    untranslated_reason, write_refusal, Explained,
};
pub use params::{parse_parameters, parse_parameters_from};
pub use parser::{is_select, parse, parse_write};
pub use plan::{Plan, ReadKind};
pub use translate::{translate, MAX_QUERIES};

#[cfg(test)]
mod canonical_tests;
#[cfg(test)]
pub(crate) mod fixtures;
