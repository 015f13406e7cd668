//! Why a key value or condition breaks DynamoDB's rules, naming the value and the fix.

use crate::design::schema::KeyType;
use crate::item::number::NumberError;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyConditionError {
    #[error(
        "key '{key}' cannot be empty; DynamoDB rejects empty key values, so give a non-empty value"
    )]
    EmptyValue { key: String },
    #[error("key '{key}' is a number (N) but {source}")]
    BadNumber { key: String, source: NumberError },
    #[error(
        "key '{key}' is binary (B) but '{value}' is not base64; give the bytes as standard base64 like 'AQID'"
    )]
    BadBase64 { key: String, value: String },
    /// `label` is already quoted (`':sk'`) or a phrase (`the value`), so messages read naturally
    /// for placeholders and for plain values alike.
    #[error(
        "key '{key}' is {} but {label} is {}; give it as {{\"{}\": ...}}",
        describe_type(.expected.as_str()), describe_type(.found), .expected.as_str()
    )]
    TypeMismatch {
        key: String,
        expected: KeyType,
        found: String,
        label: String,
    },
    #[error(
        "begins_with is not allowed on number (N) sort key '{key}'; use between with a low and a high number instead"
    )]
    BeginsWithOnNumber { key: String },
    #[error(
        "between on sort key '{key}' needs low <= high, but '{low}' is greater than '{high}'; swap the two values"
    )]
    BetweenOrder {
        key: String,
        low: String,
        high: String,
    },
    #[error(
        "this table/index has no sort key, only partition key '{partition_key}'; drop the sort key condition"
    )]
    NoSortKey { partition_key: String },
    /// multi-attribute: not yet — the condition holds one partition and one sort attribute.
    #[error(
        "this index is keyed by {keys}; a key condition on several partition or sort attributes is not built yet, so nothing was sent"
    )]
    MultiAttributeKey { keys: String },
}

/// "a number (N)" for "N": how messages name DynamoDB types.
fn describe_type(type_name: &str) -> String {
    let words = match type_name {
        "S" => "a string",
        "N" => "a number",
        "B" => "binary",
        "SS" => "a string set",
        "NS" => "a number set",
        "BS" => "a binary set",
        "M" => "a map",
        "L" => "a list",
        "NULL" => "null",
        "BOOL" => "a boolean",
        _ => "a value",
    };
    format!("{words} ({type_name})")
}
