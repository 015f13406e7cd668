//! The JSON the command line takes: `--values` (plain), `--expression-attribute-values`
//! (DynamoDB JSON), `--names`, and DynamoDB JSON items.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use serde_json::Value;

use super::JsonError;
use crate::item::number::validate_number;
use crate::item::value::{AttrValue, Item};

/// Strings become S, numbers N (exact text), booleans BOOL, null NULL, arrays L, objects M.
pub fn parse_plain_values(text: &str) -> Result<Vec<(String, AttrValue)>, JsonError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| JsonError::Syntax(text.to_string(), e.to_string()))?;
    let Value::Object(map) = value else {
        return Err(JsonError::NotObject("--values", text.to_string()));
    };
    map.into_iter()
        .map(|(k, v)| Ok((k, plain_to_attr(v)?)))
        .collect()
}

pub fn plain_to_attr(value: Value) -> Result<AttrValue, JsonError> {
    Ok(match value {
        Value::String(s) => AttrValue::S(s),
        Value::Number(n) => {
            let text = n.to_string();
            validate_number(&text).map_err(|e| JsonError::Number(e.to_string()))?;
            AttrValue::N(text)
        }
        Value::Bool(b) => AttrValue::Bool(b),
        Value::Null => AttrValue::Null,
        Value::Array(v) => {
            AttrValue::L(v.into_iter().map(plain_to_attr).collect::<Result<_, _>>()?)
        }
        Value::Object(m) => AttrValue::M(Item::from_attrs(
            m.into_iter()
                .map(|(k, v)| Ok((k, plain_to_attr(v)?)))
                .collect::<Result<_, JsonError>>()?,
        )),
    })
}

/// Parses a JSON object of string to string (`--names`, `--expression-attribute-names`).
pub fn parse_names(flag: &'static str, text: &str) -> Result<Vec<(String, String)>, JsonError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| JsonError::Syntax(text.to_string(), e.to_string()))?;
    let Value::Object(map) = value else {
        return Err(JsonError::NotObject(flag, text.to_string()));
    };
    map.into_iter()
        .map(|(k, v)| match v {
            Value::String(s) => Ok((k, s)),
            other => Err(JsonError::NotObject(flag, format!("{k}: {other}"))),
        })
        .collect()
}

/// Parses a JSON object whose values are DynamoDB JSON (`--expression-attribute-values`).
pub fn parse_dynamo_values(text: &str) -> Result<Vec<(String, AttrValue)>, JsonError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| JsonError::Syntax(text.to_string(), e.to_string()))?;
    let Value::Object(map) = value else {
        return Err(JsonError::NotObject(
            "--expression-attribute-values",
            text.to_string(),
        ));
    };
    map.into_iter()
        .map(|(k, v)| Ok((k, dynamo_to_attr(&v)?)))
        .collect()
}

/// Parses one DynamoDB JSON item (`{"pk":{"S":"a"}}`).
pub fn parse_dynamo_item(text: &str) -> Result<Item, JsonError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| JsonError::Syntax(text.to_string(), e.to_string()))?;
    match dynamo_to_attr(&serde_json::json!({ "M": value }))? {
        AttrValue::M(item) => Ok(item),
        _ => unreachable!("an M descriptor always yields a map"),
    }
}

pub fn dynamo_to_attr(value: &Value) -> Result<AttrValue, JsonError> {
    let bad = |why: &str| JsonError::NotDynamoJson(value.to_string(), why.to_string());
    let Value::Object(map) = value else {
        return Err(bad("expected an object like {\"S\":\"text\"}"));
    };
    if map.len() != 1 {
        return Err(bad(
            "expected exactly one type descriptor (S, N, B, SS, NS, BS, M, L, NULL, BOOL)",
        ));
    }
    let (tag, inner) = map.iter().next().expect("len checked");
    let string = |v: &Value| {
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| bad("expected a string"))
    };
    let number = |v: &Value| -> Result<String, JsonError> {
        let text = v
            .as_str()
            .ok_or_else(|| bad("N takes a string like \"42\""))?;
        validate_number(text).map_err(|e| JsonError::Number(e.to_string()))?;
        Ok(text.to_string())
    };
    let binary = |v: &Value| -> Result<Vec<u8>, JsonError> {
        let text = v.as_str().ok_or_else(|| bad("B takes a base64 string"))?;
        BASE64
            .decode(text)
            .map_err(|_| bad("B takes a base64 string"))
    };
    let array = |v: &Value| {
        v.as_array()
            .cloned()
            .ok_or_else(|| bad("expected an array"))
    };
    // DynamoDB holds no empty set, and refuses one in a request.
    let set = |v: &Value| {
        let elements = array(v)?;
        if elements.is_empty() {
            return Err(bad("a set holds at least one element"));
        }
        Ok(elements)
    };
    Ok(match tag.as_str() {
        "S" => AttrValue::S(string(inner)?),
        "N" => AttrValue::N(number(inner)?),
        "B" => AttrValue::B(binary(inner)?),
        "SS" => AttrValue::Ss(set(inner)?.iter().map(string).collect::<Result<_, _>>()?),
        "NS" => AttrValue::Ns(set(inner)?.iter().map(number).collect::<Result<_, _>>()?),
        "BS" => AttrValue::Bs(set(inner)?.iter().map(binary).collect::<Result<_, _>>()?),
        "L" => AttrValue::L(
            array(inner)?
                .iter()
                .map(dynamo_to_attr)
                .collect::<Result<_, _>>()?,
        ),
        "M" => {
            let obj = inner.as_object().ok_or_else(|| bad("M takes an object"))?;
            AttrValue::M(Item::from_attrs(
                obj.iter()
                    .map(|(k, v)| Ok((k.clone(), dynamo_to_attr(v)?)))
                    .collect::<Result<_, JsonError>>()?,
            ))
        }
        "NULL" => AttrValue::Null,
        "BOOL" => AttrValue::Bool(
            inner
                .as_bool()
                .ok_or_else(|| bad("BOOL takes true or false"))?,
        ),
        _ => return Err(bad("unknown type descriptor")),
    })
}
