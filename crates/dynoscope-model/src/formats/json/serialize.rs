//! JSON serialisation (nothing here is a DynamoDB write): items as one line of JSON text in
//! either spelling, appended to a `String`, and the array and exact-number pieces every JSON
//! writer of the crate shares (the engine's pages in `aws::json_lines` too).

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use super::escape::append_json_string;
use crate::item::number::{is_json_number, to_json_number};
use crate::item::value::{AttrValue, Item};

/// Appends `item` as one line of plain JSON.
pub fn append_plain_json(out: &mut String, item: &Item) {
    out.push('{');
    for (i, (name, value)) in item.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        append_json_string(out, name);
        out.push(':');
        append_plain_value(out, value);
    }
    out.push('}');
}

fn append_plain_value(out: &mut String, value: &AttrValue) {
    match value {
        AttrValue::S(s) => append_json_string(out, s),
        AttrValue::N(n) => append_json_number(out, n),
        AttrValue::B(b) => append_json_string(out, &BASE64.encode(b)),
        AttrValue::Ss(v) => append_json_array(out, v, |out, s| append_json_string(out, s)),
        AttrValue::Ns(v) => append_json_array(out, v, |out, n| append_json_number(out, n)),
        AttrValue::Bs(v) => {
            append_json_array(out, v, |out, b| append_json_string(out, &BASE64.encode(b)))
        }
        AttrValue::M(m) => append_plain_json(out, m),
        AttrValue::L(v) => append_json_array(out, v, append_plain_value),
        AttrValue::Null => out.push_str("null"),
        AttrValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
    }
}

/// Appends `item` as one line of DynamoDB JSON.
pub fn append_dynamo_json(out: &mut String, item: &Item) {
    out.push('{');
    for (i, (name, value)) in item.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        append_json_string(out, name);
        out.push(':');
        append_dynamo_value(out, value);
    }
    out.push('}');
}

/// Appends one value as DynamoDB JSON (`{"S":"a"}`): its type is part of what is shown.
pub fn append_dynamo_value(out: &mut String, value: &AttrValue) {
    out.push_str("{\"");
    out.push_str(value.type_name());
    out.push_str("\":");
    match value {
        AttrValue::S(s) | AttrValue::N(s) => append_json_string(out, s),
        AttrValue::B(b) => append_json_string(out, &BASE64.encode(b)),
        AttrValue::Ss(v) | AttrValue::Ns(v) => {
            append_json_array(out, v, |out, s| append_json_string(out, s))
        }
        AttrValue::Bs(v) => {
            append_json_array(out, v, |out, b| append_json_string(out, &BASE64.encode(b)))
        }
        AttrValue::M(m) => append_dynamo_json(out, m),
        AttrValue::L(v) => append_json_array(out, v, append_dynamo_value),
        AttrValue::Null => out.push_str("true"),
        AttrValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
    }
    out.push('}');
}

/// Appends `values` as a JSON array, each written by `each`.
pub fn append_json_array<T>(out: &mut String, values: &[T], mut each: impl FnMut(&mut String, &T)) {
    out.push('[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(out, v);
    }
    out.push(']');
}

/// An `N` value as an exact JSON number, all its digits kept. DynamoDB only stores valid
/// numbers, but the text comes from whoever answered the request: text that is no number is
/// written as a JSON string instead, so the line stays valid JSON and the text stays escaped
/// (written raw it broke the line, and could carry a terminal escape sequence).
pub fn append_json_number(out: &mut String, text: &str) {
    let number = to_json_number(text);
    if is_json_number(&number) {
        out.push_str(&number);
    } else {
        append_json_string(out, text);
    }
}
