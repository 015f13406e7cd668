//! What is wrong with an expression, quoting the bad text and saying what to write instead.

use super::brackets::closer;
use super::tokenizer::{Tok, Token};
use crate::query::key_condition::KeyConditionError;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExpressionError {
    #[error("the {kind} expression is empty; write one or leave the option out")]
    Empty { kind: String },
    #[error(
        "unexpected character '{ch}' at column {col} in {kind} expression; put attribute names with special characters behind a #name placeholder"
    )]
    UnexpectedChar { kind: String, ch: char, col: usize },
    #[error(
        "'{sigil}' at column {col} in {kind} expression has no name; write it like '{sigil}name'"
    )]
    EmptyPlaceholder {
        kind: String,
        sigil: char,
        col: usize,
    },
    #[error(
        "'{name}' at column {col} in {kind} expression starts with a digit; write '#{name}' and pass --names '{{\"#{name}\":\"{name}\"}}'"
    )]
    NameStartsWithDigit {
        kind: String,
        name: String,
        col: usize,
    },
    #[error("unmatched '{ch}' at column {col} in {kind} expression; remove it or add its opening bracket")]
    UnmatchedClose { kind: String, ch: char, col: usize },
    #[error("'{ch}' at column {col} in {kind} expression is never closed; add the matching '{}'", closer(*.ch))]
    Unclosed { kind: String, ch: char, col: usize },
    #[error("expected {expected} at column {col} in {kind} expression, found {found}")]
    Syntax {
        kind: String,
        col: usize,
        expected: String,
        found: String,
    },
    /// The grammar was broken: what it expected, after which tokens (as the user wrote them).
    #[error(
        "expected {expected} {} in {kind} expression, found {found}",
        match after { Some(a) => format!("after '{a}'"), None => "at the start".to_string() }
    )]
    Grammar {
        kind: String,
        expected: String,
        after: Option<String>,
        found: String,
    },
    #[error(
        "the {kind} expression is nested deeper than 64 levels at column {col}; remove brackets"
    )]
    TooDeep { kind: String, col: usize },
    #[error(
        "the {kind} expression has more than 300 AND, OR and NOT operators (at column {col}); DynamoDB allows 300 operators in an expression, so split it or use IN"
    )]
    TooManyOperators { kind: String, col: usize },
    #[error("unknown placeholder '{name}' in {kind} expression; define it in --names")]
    UnknownName { kind: String, name: String },
    #[error("unknown placeholder '{name}' in {kind} expression; define it in --values")]
    UnknownValue { kind: String, name: String },
    #[error(
        "'{word}' is a reserved word in DynamoDB expressions; write '#{word}' and pass --names '{{\"#{word}\":\"{word}\"}}'"
    )]
    Reserved { word: String },
    #[error(
        "literal '{text}' at column {col} is not allowed in a {kind} expression; use a placeholder like ':v' and pass its value in --values"
    )]
    Literal {
        kind: String,
        text: String,
        col: usize,
    },
    #[error(
        "unknown function '{name}' at column {col} in {kind} expression; DynamoDB has attribute_exists, attribute_not_exists, attribute_type, begins_with, contains and size"
    )]
    UnknownFunction {
        kind: String,
        name: String,
        col: usize,
    },
    #[error("'{what}' is not supported in a key condition; move it to --filter-expression")]
    UnsupportedInKey { what: String },
    #[error(
        "partition key '{key}' only supports '=', not '{op}'; use a Scan with --filter for ranges"
    )]
    PartitionKeyOp { key: String, op: String },
    #[error(
        "'{name}' is not a key of this table/index (keys: {keys}); move conditions on other attributes to --filter-expression"
    )]
    NotAKey { name: String, keys: String },
    #[error(
        "'{text}' at column {col} in key condition expression must compare a key name with a :placeholder, like 'PK = :pk'"
    )]
    NeedsKeyAndValue { text: String, col: usize },
    #[error(
        "the key condition does not compare partition key '{key}'; add '{key} = :pk' (a Query always needs the partition key)"
    )]
    MissingPartitionKey { key: String },
    #[error(
        "partition key '{key}' is compared twice in the key condition; keep a single '{key} = :pk'"
    )]
    DuplicatePartitionKey { key: String },
    #[error(
        "sort key '{key}' has two conditions in the key condition; DynamoDB allows one, so use '{key} BETWEEN :lo AND :hi' for a range"
    )]
    DuplicateSortKey { key: String },
    #[error(transparent)]
    Key(#[from] KeyConditionError),
}

pub(super) fn literal(kind: &str, token: &Token) -> ExpressionError {
    ExpressionError::Literal {
        kind: kind.to_string(),
        text: match &token.tok {
            Tok::Text(inner) => inner.clone(),
            _ => token.text.clone(),
        },
        col: token.col,
    }
}

/// A syntax error at token `at`, or at the end of `expr` when there are no more tokens.
pub(super) fn syntax_at(
    kind: &str,
    tokens: &[Token],
    at: usize,
    expr: &str,
    expected: &str,
) -> ExpressionError {
    let (col, found) = match tokens.get(at) {
        Some(t) => (t.col, format!("'{}'", t.text)),
        None => (expr.chars().count() + 1, "the end".to_string()),
    };
    ExpressionError::Syntax {
        kind: kind.to_string(),
        col,
        expected: expected.to_string(),
        found,
    }
}
