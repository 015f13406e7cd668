//! `--parameters`: a JSON array, one element per `?`, each plain JSON or DynamoDB JSON.

use serde_json::Value;

use super::error::PartiqlError;
use crate::formats::json::{dynamo_to_attr, plain_to_attr};
use crate::item::value::AttrValue;

const DESCRIPTORS: &[&str] = &["S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL"];

/// An element that is an object of exactly one type descriptor (`{"S": "a"}`, `{"N": "5"}`) is
/// DynamoDB JSON, as `aws dynamodb execute-statement --parameters` takes; anything else is
/// plain JSON (strings are S, numbers N, arrays L, objects M).
pub fn parse_parameters(text: &str) -> Result<Vec<AttrValue>, PartiqlError> {
    parse_parameters_from(text, "--parameters")
}

/// [`parse_parameters`] of the text `source` names in its errors (the flag headless, the
/// builder's field in the explorer).
pub fn parse_parameters_from(text: &str, source: &str) -> Result<Vec<AttrValue>, PartiqlError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        PartiqlError::bad_input(format!(
            "{source} '{text}' is not JSON ({e}); write a JSON array, e.g. '[\"USER#1\", 5]'"
        ))
    })?;
    let Value::Array(elements) = value else {
        return Err(PartiqlError::bad_input(format!(
            "{source} '{text}' is not a JSON array; write one value per ?, e.g. '[\"USER#1\", 5]'"
        )));
    };
    elements
        .into_iter()
        .enumerate()
        .map(|(i, element)| {
            let dynamo = matches!(&element, Value::Object(m)
                if m.len() == 1 && m.keys().all(|k| DESCRIPTORS.contains(&k.as_str())));
            let typed = if dynamo {
                dynamo_to_attr(&element)
            } else {
                plain_to_attr(element)
            };
            typed.map_err(|e| PartiqlError::bad_input(format!("{source} element {}: {e}", i + 1)))
        })
        .collect()
}
