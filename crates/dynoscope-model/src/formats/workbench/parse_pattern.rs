//! One entry of a model's `AccessPatterns`, read as the request it stands for.

use serde_json::Value;

use super::at::{kind_of, At};
use super::values::{item_from_json, value_from_json};
use super::ModelAccessPattern;

pub(super) fn access_pattern(
    at: At<'_>,
    table: Option<&str>,
) -> Result<ModelAccessPattern, String> {
    let name = match at.text("Name")? {
        Some(n) => n,
        None => at.required_text("AccessPatternName")?,
    };
    let operation = match at.text("Type")? {
        Some(t) => t,
        None => at.text("Operation")?.unwrap_or("Query"),
    };
    let table = match (at.text("TableName")?, table) {
        (Some(t), _) => t.to_string(),
        (None, Some(t)) => t.to_string(),
        (None, None) => return Err(format!("{} has no TableName", at.path)),
    };
    let mut names = Vec::new();
    if let Some(value) = at.get("ExpressionAttributeNames")? {
        let path = format!("{}.ExpressionAttributeNames", at.path);
        for (k, v) in (At { path: &path, value }).object()? {
            let v = v
                .as_str()
                .ok_or_else(|| format!("{path}.{k} must be an attribute name"))?;
            names.push((k.clone(), v.to_string()));
        }
    }
    let mut values = Vec::new();
    if let Some(value) = at.get("ExpressionAttributeValues")? {
        let path = format!("{}.ExpressionAttributeValues", at.path);
        for (k, v) in (At { path: &path, value }).object()? {
            values.push((k.clone(), value_from_json(v, &format!("{path}.{k}"))?));
        }
    }
    let key = match at.get("Key")? {
        None => None,
        Some(v) => Some(item_from_json(v, &format!("{}.Key", at.path))?),
    };
    let descending = match at.get("ScanIndexForward")? {
        None => false,
        Some(Value::Bool(forward)) => !forward,
        Some(other) => {
            return Err(format!(
                "{}.ScanIndexForward must be true or false, got {}",
                at.path,
                kind_of(other)
            ))
        }
    };
    let limit = match at.get("Limit")? {
        None => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{}.Limit must be a whole number above 0", at.path))?,
        ),
    };
    Ok(ModelAccessPattern {
        name: name.to_string(),
        description: at.text("Description")?.map(str::to_string),
        operation: operation.to_string(),
        table,
        index: at.text("IndexName")?.map(str::to_string),
        key_condition: at.text("KeyConditionExpression")?.map(str::to_string),
        key,
        names,
        values,
        descending,
        limit,
        has_filter: at.get("FilterExpression")?.is_some(),
    })
}
