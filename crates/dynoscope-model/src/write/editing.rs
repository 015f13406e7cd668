//! The text handed to the user's editor, and the item read back from it. Plain JSON keeps
//! numbers exact (serde_json's arbitrary precision) and takes types the plain spelling cannot
//! say from the loaded item: a string where the item had binary stays binary when it is valid
//! base64, an array where it had a set stays a set.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use serde_json::Value;

use crate::formats::json::{
    append_dynamo_json, append_plain_json, parse_dynamo_item, plain_to_attr, JsonSpelling,
};
use crate::item::number::validate_number;
use crate::item::value::{AttrValue, Item};

/// `item` as pretty JSON in `spelling`, one attribute per line, ending in a newline.
pub fn render_for_editor(item: &Item, spelling: JsonSpelling) -> String {
    let mut compact = String::new();
    match spelling {
        JsonSpelling::Plain => append_plain_json(&mut compact, item),
        JsonSpelling::Dynamo => append_dynamo_json(&mut compact, item),
    }
    let value: Value = serde_json::from_str(&compact).expect("the writers write valid JSON");
    let mut text = serde_json::to_string_pretty(&value).expect("a Value serialises");
    text.push('\n');
    text
}

/// The item in the edited text. `hint`: the loaded item, whose types decide what plain JSON
/// cannot say. Errors are one line, with where the JSON broke.
pub fn parse_edited(
    text: &str,
    spelling: JsonSpelling,
    hint: Option<&Item>,
) -> Result<Item, String> {
    let bad = |e: String| format!("the edited item is not valid: {e}");
    match spelling {
        JsonSpelling::Dynamo => parse_dynamo_item(text.trim()).map_err(|e| bad(e.to_string())),
        JsonSpelling::Plain => {
            let value: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
            let Value::Object(map) = value else {
                return Err(bad("expected one JSON object".into()));
            };
            let mut attrs = Vec::with_capacity(map.len());
            for (name, v) in map {
                let hinted = hint.and_then(|h| h.get(&name));
                let value =
                    typed(v, hinted).map_err(|e| bad(format!("attribute '{name}': {e}")))?;
                attrs.push((name, value));
            }
            Ok(Item::from_attrs(attrs))
        }
    }
}

fn typed(value: Value, hint: Option<&AttrValue>) -> Result<AttrValue, String> {
    let strings = |v: &[Value]| -> Option<Vec<String>> {
        v.iter().map(|e| e.as_str().map(str::to_string)).collect()
    };
    let binary = |s: &str| BASE64.decode(s).ok();
    Ok(match (hint, value) {
        (Some(AttrValue::B(_)), Value::String(s)) if binary(&s).is_some() => {
            AttrValue::B(binary(&s).expect("checked"))
        }
        (Some(AttrValue::Ss(_)), Value::Array(v)) if strings(&v).is_some() => {
            AttrValue::Ss(strings(&v).expect("checked"))
        }
        (Some(AttrValue::Bs(_)), Value::Array(v))
            if strings(&v).is_some_and(|s| s.iter().all(|e| binary(e).is_some())) =>
        {
            AttrValue::Bs(
                strings(&v)
                    .expect("checked")
                    .iter()
                    .map(|e| binary(e).expect("checked"))
                    .collect(),
            )
        }
        (Some(AttrValue::Ns(_)), Value::Array(v)) if v.iter().all(Value::is_number) => {
            let numbers: Vec<String> = v.iter().map(|n| n.to_string()).collect();
            for n in &numbers {
                validate_number(n).map_err(|e| e.to_string())?;
            }
            AttrValue::Ns(numbers)
        }
        (Some(AttrValue::M(inner)), Value::Object(map)) => {
            let mut attrs = Vec::with_capacity(map.len());
            for (name, v) in map {
                let value = typed(v, inner.get(&name))?;
                attrs.push((name, value));
            }
            AttrValue::M(Item::from_attrs(attrs))
        }
        (Some(AttrValue::L(inner)), Value::Array(v)) => AttrValue::L(
            v.into_iter()
                .enumerate()
                .map(|(i, e)| typed(e, inner.get(i)))
                .collect::<Result<_, _>>()?,
        ),
        (_, value) => plain_to_attr(value).map_err(|e| e.to_string())?,
    })
}
