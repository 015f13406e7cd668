//! The `DYNAMODB_JSON` format: a full export's line is `{"Item":{…}}`, an incremental export's
//! `{"Metadata":{"WriteTimestampMicros":{"N":"…"}},"Keys":{…},"NewImage":{…},"OldImage":{…}}`;
//! the attributes are DynamoDB JSON, exactly as the `ddb-jsonl` output writes them.

use serde_json::{Map, Value};

use super::{line_excerpt, Change, ExportType, Record, TableExportError};
use crate::formats::json::{append_dynamo_json, dynamo_to_attr};
use crate::item::value::Item;

pub fn parse_dynamo_line(line: &str, export_type: ExportType) -> Result<Record, TableExportError> {
    // The common case, a well-formed full export line, without the JSON tree in between.
    if export_type == ExportType::Full {
        if let Some(item) = super::dynamo_json_direct::item_of_full_line(line) {
            return Ok(Record::Item(item));
        }
    }
    parse_general(line, export_type)
}

/// The definition of a line's meaning, and every error's wording.
pub(super) fn parse_general(
    line: &str,
    export_type: ExportType,
) -> Result<Record, TableExportError> {
    let bad = |why: &str| {
        TableExportError::Line(format!(
            "not a DynamoDB JSON export line ({why}): '{}'",
            line_excerpt(line)
        ))
    };
    let value: Value = serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?;
    let Value::Object(record) = value else {
        return Err(bad("expected a JSON object"));
    };
    let image = |name: &str| -> Result<Option<Item>, TableExportError> {
        match record.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Object(map)) => item_from(map).map(Some).map_err(|e| bad(&e)),
            Some(_) => Err(bad(&format!("'{name}' is not an object"))),
        }
    };
    match export_type {
        ExportType::Full => image("Item")?
            .map(Record::Item)
            .ok_or_else(|| bad("it has no 'Item'")),
        ExportType::Incremental => {
            let micros = record
                .get("Metadata")
                .and_then(|m| m.get("WriteTimestampMicros"))
                .and_then(timestamp)
                .ok_or_else(|| bad("it has no Metadata.WriteTimestampMicros"))?;
            Ok(Record::Change(Change {
                write_micros: micros,
                keys: image("Keys")?.ok_or_else(|| bad("it has no 'Keys'"))?,
                new_image: image("NewImage")?,
                old_image: image("OldImage")?,
            }))
        }
    }
}

/// `{"N":"…"}` as the guide shows it; a bare number or string is accepted too.
fn timestamp(value: &Value) -> Option<u64> {
    match value {
        Value::Object(map) => map.get("N").and_then(timestamp),
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

fn item_from(map: &Map<String, Value>) -> Result<Item, String> {
    let attrs = map
        .iter()
        .map(|(name, v)| {
            dynamo_to_attr(v)
                .map(|a| (name.clone(), a))
                .map_err(|e| format!("attribute '{name}': {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Item::from_attrs(attrs))
}

/// Appends a full export's line for `item` (no newline).
pub fn write_dynamo_line(out: &mut String, item: &Item) {
    out.push_str("{\"Item\":");
    append_dynamo_json(out, item);
    out.push('}');
}

/// Appends an incremental export's line for `change` (no newline).
pub fn write_dynamo_change(out: &mut String, change: &Change) {
    out.push_str("{\"Metadata\":{\"WriteTimestampMicros\":{\"N\":\"");
    out.push_str(&change.write_micros.to_string());
    out.push_str("\"}},\"Keys\":");
    append_dynamo_json(out, &change.keys);
    if let Some(new) = &change.new_image {
        out.push_str(",\"NewImage\":");
        append_dynamo_json(out, new);
    }
    if let Some(old) = &change.old_image {
        out.push_str(",\"OldImage\":");
        append_dynamo_json(out, old);
    }
    out.push('}');
}
