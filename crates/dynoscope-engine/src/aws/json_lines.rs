//! JSON lines written straight from the SDK's items, for headless `jsonl` and `ddb-jsonl`.
//!
//! The output is byte for byte what `model::formats::json` writes for the same item after conversion
//! ([`super::convert::item_from_sdk`]): attributes in name order, numbers exact, control
//! characters escaped. Skipping the conversion matters because a scan to a pipe spends most of
//! its own CPU (beside the SDK's parsing) on it: a vector and a sort per item, and a move of
//! every value. Each segment task renders its page here, so the consumer only writes text.

use std::cmp::Ordering;
use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use crate::model::formats::json::{
    append_json_array, append_json_number, append_json_string, JsonSpelling,
};

pub use crate::model::engine::json_lines::JsonLines;

type Attr<'a> = (u64, &'a str, &'a AttributeValue);

pub fn render_page(items: &[HashMap<String, AttributeValue>], spelling: JsonSpelling) -> JsonLines {
    let mut text = String::with_capacity(items.len() * 128);
    // One scratch vector for the whole page: it borrows from `items`, which outlive it.
    let mut attrs: Vec<Attr<'_>> = Vec::new();
    for item in items {
        write_map(&mut text, item, spelling, &mut attrs);
        text.push('\n');
    }
    JsonLines {
        text,
        items: items.len(),
    }
}

/// Writes a map's attributes in name order (the order `Item` keeps). `attrs` is scratch space.
fn write_map<'a>(
    out: &mut String,
    map: &'a HashMap<String, AttributeValue>,
    spelling: JsonSpelling,
    attrs: &mut Vec<Attr<'a>>,
) {
    attrs.clear();
    attrs.extend(map.iter().map(|(k, v)| (name_prefix(k), k.as_str(), v)));
    // Names in a map are unique, so an unstable sort gives the one order there is. Most names
    // differ in their first eight bytes, which compare as one integer.
    attrs.sort_unstable_by(|a, b| match a.0.cmp(&b.0) {
        Ordering::Equal => a.1.cmp(b.1),
        other => other,
    });
    out.push('{');
    for (i, &(_, name, value)) in attrs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        append_json_string(out, name);
        out.push(':');
        write_value(out, value, spelling);
    }
    out.push('}');
}

/// The name's first eight bytes as a big-endian integer, zero-padded: ordering these agrees
/// with ordering the names' bytes whenever the two integers differ.
fn name_prefix(name: &str) -> u64 {
    let bytes = name.as_bytes();
    match bytes.get(..8) {
        Some(head) => u64::from_be_bytes(head.try_into().expect("eight bytes")),
        None => bytes
            .iter()
            .enumerate()
            .fold(0, |prefix, (i, &b)| prefix | u64::from(b) << (56 - 8 * i)),
    }
}

fn write_value(out: &mut String, value: &AttributeValue, spelling: JsonSpelling) {
    match spelling {
        JsonSpelling::Plain => append_plain_value(out, value),
        JsonSpelling::Dynamo => append_dynamo_value(out, value),
    }
}

fn append_plain_value(out: &mut String, value: &AttributeValue) {
    match value {
        AttributeValue::S(s) => append_json_string(out, s),
        AttributeValue::N(n) => append_json_number(out, n),
        AttributeValue::B(b) => append_json_string(out, &BASE64.encode(b.as_ref())),
        AttributeValue::Ss(v) => append_json_array(out, v, |out, s| append_json_string(out, s)),
        AttributeValue::Ns(v) => append_json_array(out, v, |out, n| append_json_number(out, n)),
        AttributeValue::Bs(v) => append_json_array(out, v, |out, b| {
            append_json_string(out, &BASE64.encode(b.as_ref()))
        }),
        AttributeValue::M(m) => write_map(out, m, JsonSpelling::Plain, &mut Vec::new()),
        AttributeValue::L(v) => append_json_array(out, v, append_plain_value),
        AttributeValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        // NULL, and (as in `convert::value_from_sdk`) a type DynamoDB adds later.
        _ => out.push_str("null"),
    }
}

fn append_dynamo_value(out: &mut String, value: &AttributeValue) {
    out.push_str(match value {
        AttributeValue::S(_) => "{\"S\":",
        AttributeValue::N(_) => "{\"N\":",
        AttributeValue::B(_) => "{\"B\":",
        AttributeValue::Ss(_) => "{\"SS\":",
        AttributeValue::Ns(_) => "{\"NS\":",
        AttributeValue::Bs(_) => "{\"BS\":",
        AttributeValue::M(_) => "{\"M\":",
        AttributeValue::L(_) => "{\"L\":",
        AttributeValue::Bool(_) => "{\"BOOL\":",
        _ => "{\"NULL\":",
    });
    match value {
        AttributeValue::S(s) | AttributeValue::N(s) => append_json_string(out, s),
        AttributeValue::B(b) => append_json_string(out, &BASE64.encode(b.as_ref())),
        AttributeValue::Ss(v) | AttributeValue::Ns(v) => {
            append_json_array(out, v, |out, s| append_json_string(out, s))
        }
        AttributeValue::Bs(v) => append_json_array(out, v, |out, b| {
            append_json_string(out, &BASE64.encode(b.as_ref()))
        }),
        AttributeValue::M(m) => write_map(out, m, JsonSpelling::Dynamo, &mut Vec::new()),
        AttributeValue::L(v) => append_json_array(out, v, append_dynamo_value),
        AttributeValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        _ => out.push_str("true"),
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aws::convert::item_from_sdk;
    use crate::model::formats::json::{append_dynamo_json, append_plain_json};
    use crate::model::text::sanitize::needs_escape;
    use aws_sdk_dynamodb::primitives::Blob;

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.into())
    }

    /// Every type, nested, with names that share their first eight bytes or differ only past
    /// them, and text that needs escaping.
    fn every_type() -> HashMap<String, AttributeValue> {
        let nested: HashMap<String, AttributeValue> = [
            ("zz".to_string(), AttributeValue::Null(true)),
            (
                "a".to_string(),
                AttributeValue::Ns(vec!["-0.5".into(), "1e3".into()]),
            ),
        ]
        .into_iter()
        .collect();
        [
            ("PK", s("USER#1")),
            ("SK", s("ORDER#\u{1b}[2J\"q\"\u{85}")),
            (
                "n",
                AttributeValue::N("12345678901234567890123456789012345678".into()),
            ),
            ("dot", AttributeValue::N(".5".into())),
            // Not numbers: only a misbehaving server sends these.
            ("notnum", AttributeValue::N("1\u{1b}[2J\u{202e}".into())),
            ("notnums", AttributeValue::Ns(vec!["2".into(), "x]".into()])),
            ("bidi\u{202e}", s("\u{2066}\u{7f}\u{9b}")),
            ("b", AttributeValue::B(Blob::new(vec![0, 255, 10]))),
            ("ss", AttributeValue::Ss(vec!["x".into(), "y\n".into()])),
            (
                "bs",
                AttributeValue::Bs(vec![Blob::new(vec![1]), Blob::new(vec![])]),
            ),
            ("m", AttributeValue::M(nested)),
            (
                "l",
                AttributeValue::L(vec![
                    s("1"),
                    AttributeValue::Bool(false),
                    AttributeValue::Null(true),
                ]),
            ),
            ("t", AttributeValue::Bool(true)),
            ("z", AttributeValue::Null(true)),
            ("attribute_one", s("1")),
            ("attribute", s("2")),
            ("attribute_two", s("3")),
            ("attribut", s("4")),
            ("", s("empty name")),
            ("é", s("non-ascii name")),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    #[test]
    fn lines_match_the_model_writers_byte_for_byte() {
        let items = vec![every_type(), HashMap::new(), every_type()];
        let plain = render_page(&items, JsonSpelling::Plain);
        let dynamo = render_page(&items, JsonSpelling::Dynamo);
        let (mut want_plain, mut want_dynamo) = (String::new(), String::new());
        for item in items {
            let item = item_from_sdk(item);
            append_plain_json(&mut want_plain, &item);
            want_plain.push('\n');
            append_dynamo_json(&mut want_dynamo, &item);
            want_dynamo.push('\n');
        }
        assert_eq!(plain.text, want_plain);
        assert_eq!(dynamo.text, want_dynamo);
        assert_eq!((plain.items, dynamo.items), (3, 3));
        assert!(plain
            .text
            .contains(r#""attribut":"4","attribute":"2","attribute_one":"1""#));
        assert!(!plain.text.contains('\u{1b}'));
        for line in plain.text.lines() {
            let value: serde_json::Value = serde_json::from_str(line).expect("valid JSON");
            if let Some(bad) = value.get("notnum") {
                assert_eq!(bad, "1\u{1b}[2J\u{202e}");
                assert_eq!(value["notnums"], serde_json::json!([2, "x]"]));
            }
        }
        for text in [&plain.text, &dynamo.text] {
            assert!(
                !text.chars().any(|c| c != '\n' && needs_escape(c)),
                "{text}"
            );
        }
    }

    #[test]
    fn prefixes_order_as_names_do_when_they_differ() {
        let names = [
            "",
            "a",
            "a\0",
            "ab",
            "abcdefgh",
            "abcdefghi",
            "b",
            "é",
            "\u{7f}",
        ];
        for a in names {
            for b in names {
                let (pa, pb) = (name_prefix(a), name_prefix(b));
                if pa != pb {
                    assert_eq!(pa.cmp(&pb), a.cmp(b), "{a:?} vs {b:?}");
                }
            }
        }
    }
}
