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
    #[error(
        "partition attribute '{attribute}' has no value: DynamoDB needs an equality on every partition attribute ({all}), and {given} given; give one value per attribute in that order (--pk repeated)"
    )]
    MissingPartition {
        attribute: String,
        all: String,
        given: usize,
    },
    #[error(
        "{given} partition values given but the key's partition attributes are {all}; give one value per attribute"
    )]
    ExtraPartition { all: String, given: usize },
    #[error(
        "{given} sort conditions given but the key's sort attributes are {all}; give equalities on the first ones in order (--sk-eq repeated) and at most one condition on the next"
    )]
    ExtraSort { all: String, given: usize },
    #[error(
        "sort attribute '{attribute}' has a condition but '{missing}' before it has none; DynamoDB reads sort attributes in key-schema order, so give '{missing}' an equality or drop the condition on '{attribute}'"
    )]
    SortGap { attribute: String, missing: String },
    #[error(
        "sort attribute '{attribute}' has a range condition but '{next}' after it has a condition too; only the last sort condition may be a range, so make '{attribute}' an equality or drop the condition on '{next}'"
    )]
    RangeNotLast { attribute: String, next: String },
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
