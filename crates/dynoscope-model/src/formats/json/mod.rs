//! Conversion between items and their two JSON spellings.
//!
//! *Plain JSON* (`jsonl`): numbers written as exact JSON numbers (never through `f64`), binary as
//! base64 strings, sets as arrays, NULL as `null`. *DynamoDB JSON* (`ddb-jsonl`): the service's
//! own typed form, `{"S":"…"}`, `{"N":"…"}`, which round-trips every type exactly.
//!
//! Serialisation in `serialize`, string escaping in `escape`, readers of the flags' JSON in
//! `parse`, the detail pane's coloured lines in `pretty`.

pub mod direct;
mod escape;
mod parse;
mod pretty;
mod serialize;

pub use escape::{append_json_string, to_safe_json};
pub use parse::{
    dynamo_to_attr, parse_dynamo_item, parse_dynamo_values, parse_names, parse_plain_values,
    plain_to_attr,
};
pub use pretty::{line_text, pretty_lines, Piece, PrettyLine, Token, MAX_STRING_CHARS};
pub use serialize::{
    append_dynamo_json, append_dynamo_value, append_json_array, append_json_number,
    append_plain_json,
};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum JsonError {
    #[error("'{0}' is not valid JSON: {1}")]
    Syntax(String, String),
    #[error("{0} must be a JSON object, got '{1}'")]
    NotObject(&'static str, String),
    #[error("'{0}' is not DynamoDB JSON: {1}")]
    NotDynamoJson(String, String),
    #[error("{0}")]
    Number(String),
}

/// Which of the two JSON spellings to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonSpelling {
    /// Plain JSON (`jsonl`).
    Plain,
    /// DynamoDB JSON (`ddb-jsonl`).
    Dynamo,
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
