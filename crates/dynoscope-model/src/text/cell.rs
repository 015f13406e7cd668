//! One attribute value as a single line of text for a table cell. The result is raw item data:
//! callers pass it through `sanitize` before it reaches a terminal.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use crate::formats::json::append_plain_json;
use crate::item::value::{AttrValue, Item};

pub fn cell_text(value: &AttrValue) -> String {
    match value {
        AttrValue::S(s) => s.clone(),
        AttrValue::N(n) => n.clone(),
        AttrValue::B(b) => BASE64.encode(b),
        AttrValue::Bool(b) => b.to_string(),
        AttrValue::Null => "null".to_string(),
        // Containers read best as the compact JSON a user would paste elsewhere.
        other => {
            let mut out = String::new();
            append_plain_json(
                &mut out,
                &Item::from_attrs(vec![(String::new(), other.clone())]),
            );
            // Strip the `{"":` wrapper and the closing brace.
            out[4..out.len() - 1].to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_as_text() {
        let cases = [
            (AttrValue::S("a b".into()), "a b"),
            (AttrValue::N("1.50".into()), "1.50"),
            (AttrValue::B(vec![1, 2, 3]), "AQID"),
            (AttrValue::Bool(true), "true"),
            (AttrValue::Null, "null"),
            (AttrValue::Ss(vec!["x".into(), "y".into()]), r#"["x","y"]"#),
            (AttrValue::Ns(vec!["1".into()]), "[1]"),
            (
                AttrValue::L(vec![AttrValue::N("2".into()), AttrValue::Null]),
                "[2,null]",
            ),
            (
                AttrValue::M(Item::from_attrs(vec![(
                    "k".into(),
                    AttrValue::S("v".into()),
                )])),
                r#"{"k":"v"}"#,
            ),
        ];
        for (value, want) in cases {
            assert_eq!(cell_text(&value), want);
        }
    }
}
