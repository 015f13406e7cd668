//! Items written as JSON in either spelling, and the line count of their pretty form.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use super::escape::write_json_string;
use crate::model::number::{is_json_number, to_json_number};
use crate::model::value::{AttrValue, Item};

/// Appends `item` as one line of plain JSON.
pub fn write_plain(out: &mut String, item: &Item) {
    out.push('{');
    for (i, (name, value)) in item.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_string(out, name);
        out.push(':');
        write_plain_value(out, value);
    }
    out.push('}');
}

fn write_plain_value(out: &mut String, value: &AttrValue) {
    match value {
        AttrValue::S(s) => write_json_string(out, s),
        AttrValue::N(n) => write_json_number(out, n),
        AttrValue::B(b) => write_json_string(out, &BASE64.encode(b)),
        AttrValue::Ss(v) => write_array(out, v, |out, s| write_json_string(out, s)),
        AttrValue::Ns(v) => write_array(out, v, |out, n| write_json_number(out, n)),
        AttrValue::Bs(v) => write_array(out, v, |out, b| write_json_string(out, &BASE64.encode(b))),
        AttrValue::M(m) => write_plain(out, m),
        AttrValue::L(v) => write_array(out, v, write_plain_value),
        AttrValue::Null => out.push_str("null"),
        AttrValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
    }
}

/// Appends `item` as one line of DynamoDB JSON.
pub fn write_dynamo(out: &mut String, item: &Item) {
    out.push('{');
    for (i, (name, value)) in item.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_string(out, name);
        out.push(':');
        write_dynamo_value(out, value);
    }
    out.push('}');
}

fn write_dynamo_value(out: &mut String, value: &AttrValue) {
    out.push_str("{\"");
    out.push_str(value.type_name());
    out.push_str("\":");
    match value {
        AttrValue::S(s) | AttrValue::N(s) => write_json_string(out, s),
        AttrValue::B(b) => write_json_string(out, &BASE64.encode(b)),
        AttrValue::Ss(v) | AttrValue::Ns(v) => {
            write_array(out, v, |out, s| write_json_string(out, s))
        }
        AttrValue::Bs(v) => write_array(out, v, |out, b| write_json_string(out, &BASE64.encode(b))),
        AttrValue::M(m) => write_dynamo(out, m),
        AttrValue::L(v) => write_array(out, v, write_dynamo_value),
        AttrValue::Null => out.push_str("true"),
        AttrValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
    }
    out.push('}');
}

/// Appends `values` as a JSON array, each written by `each`.
pub fn write_array<T>(out: &mut String, values: &[T], mut each: impl FnMut(&mut String, &T)) {
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
pub fn write_json_number(out: &mut String, text: &str) {
    let number = to_json_number(text);
    if is_json_number(&number) {
        out.push_str(&number);
    } else {
        write_json_string(out, text);
    }
}
