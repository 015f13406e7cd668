//! A model's items: DynamoDB JSON, read losslessly (numbers keep every digit, sets stay sets).
//!
//! Workbench models written by hand sometimes put plain JSON inside a map
//! (`"M": {"enabled": true}`), which Workbench itself shows as is; inside `M` and `L` a value
//! that is not a single type descriptor is read as plain JSON (strings S, numbers N, objects M),
//! so those models load. Top-level attributes must be typed.

use serde_json::Value;

use crate::formats::json::{dynamo_to_attr, plain_to_attr};
use crate::item::number::validate_number;
use crate::item::value::{AttrValue, Item};

const TAGS: [&str; 10] = ["S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL"];

/// One item (`{"PK": {"S": "a"}, …}`) at `path`.
pub fn item_from_json(value: &Value, path: &str) -> Result<Item, String> {
    let Value::Object(map) = value else {
        return Err(format!(
            "{path} must be an item object like {{\"PK\": {{\"S\": \"a\"}}}}"
        ));
    };
    let attrs = map
        .iter()
        .map(|(name, v)| Ok((name.clone(), value_from_json(v, &format!("{path}.{name}"))?)))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Item::from_attrs(attrs))
}

fn is_typed(value: &Value) -> bool {
    matches!(value, Value::Object(m) if m.len() == 1 && m.keys().all(|k| TAGS.contains(&k.as_str())))
}

/// One typed value (`{"N": "42"}`); `N` also takes a JSON number, as some models write it.
pub fn value_from_json(value: &Value, path: &str) -> Result<AttrValue, String> {
    if !is_typed(value) {
        return Err(format!(
            "{path} must be DynamoDB JSON with one type descriptor (S, N, B, SS, NS, BS, M, L, NULL, BOOL), got '{}'",
            one_line(value)
        ));
    }
    let (tag, inner) = value
        .as_object()
        .and_then(|m| m.iter().next())
        .expect("is_typed checked one entry");
    let number = |v: &Value| -> Result<String, String> {
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            other => {
                return Err(format!(
                    "{path}: N takes a number, got '{}'",
                    one_line(other)
                ))
            }
        };
        validate_number(&text).map_err(|e| format!("{path}: {e}"))?;
        Ok(text)
    };
    let nested = |v: &Value, at: String| {
        if is_typed(v) {
            value_from_json(v, &at)
        } else {
            plain_to_attr(v.clone()).map_err(|e| format!("{at}: {e}"))
        }
    };
    let set_len_ok = |n: usize| {
        if n == 0 {
            Err(format!("{path}: a set cannot be empty in DynamoDB"))
        } else {
            Ok(())
        }
    };
    Ok(match (tag.as_str(), inner) {
        ("N", v) => AttrValue::N(number(v)?),
        ("NS", Value::Array(list)) => {
            set_len_ok(list.len())?;
            AttrValue::Ns(list.iter().map(number).collect::<Result<_, _>>()?)
        }
        ("M", Value::Object(map)) => AttrValue::M(Item::from_attrs(
            map.iter()
                .map(|(k, v)| Ok((k.clone(), nested(v, format!("{path}.{k}"))?)))
                .collect::<Result<Vec<_>, String>>()?,
        )),
        ("L", Value::Array(list)) => AttrValue::L(
            list.iter()
                .enumerate()
                .map(|(i, v)| nested(v, format!("{path}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        ("SS" | "BS", Value::Array(list)) => {
            set_len_ok(list.len())?;
            dynamo_to_attr(value).map_err(|e| format!("{path}: {e}"))?
        }
        _ => dynamo_to_attr(value).map_err(|e| format!("{path}: {e}"))?,
    })
}

fn one_line(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(80).collect::<String>())
    } else {
        text
    }
}
