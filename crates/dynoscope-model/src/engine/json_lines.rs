//! A page's items as JSON lines, for headless `jsonl` and `ddb-jsonl`: the engine renders
//! them straight from the SDK's items (`dynoscope_engine::aws::json_lines`).

use crate::formats::json::JsonSpelling;

/// A page's items rendered as JSON lines, each ending in a newline.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JsonLines {
    pub text: String,
    /// How many items (lines) `text` holds.
    pub items: usize,
}

impl JsonLines {
    /// The same lines from items already converted (the in-memory page source's).
    pub fn from_items(items: &[crate::item::value::Item], spelling: JsonSpelling) -> JsonLines {
        let mut text = String::new();
        for item in items {
            match spelling {
                JsonSpelling::Plain => crate::formats::json::append_plain_json(&mut text, item),
                JsonSpelling::Dynamo => crate::formats::json::append_dynamo_json(&mut text, item),
            }
            text.push('\n');
        }
        JsonLines {
            text,
            items: items.len(),
        }
    }
}
