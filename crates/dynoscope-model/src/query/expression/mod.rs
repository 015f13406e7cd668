//! DynamoDB expressions: checking filter and projection expressions before a request, and
//! reading the aws-cli `--key-condition-expression` spelling into a typed `KeyCondition`.
//!
//! DynamoDB refuses a bad expression only after a round trip and rarely says where. A small
//! tokenizer lets us point at the column and name the fix. We check only what we can be sure of
//! (brackets, placeholders, reserved words, literals, key-condition shape) and leave the rest of
//! the grammar to DynamoDB, so we never refuse an expression DynamoDB would accept.

mod brackets;
mod check;
mod condition_grammar;
mod error;
mod evaluate;
mod evaluate_parse;
mod key_expression;
mod key_parser;
mod tokenizer;

pub(crate) use check::FUNCTIONS;
pub use check::{check_expression, Placeholders};
pub use condition_grammar::check_condition_grammar;
pub use error::ExpressionError;
pub use evaluate::{ItemFilter, ItemProjection};
pub use key_expression::{parse_key_condition, parse_key_condition_with_usage};

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod generated_input_tests;
