//! A tool's result as MCP carries it: the value as structured content, and as text content the
//! same JSON written by dynoscope's JSON escaper (`to_safe_json`), so every control, format and
//! default-ignorable character of item data or a service's answer is `\u`-escaped there, as in
//! `--output jsonl`. rmcp's own `Json` writes the text with serde_json, which escapes only C0:
//! DEL, C1 controls (U+009B is a CSI), bidi overrides and zero-width characters reached the
//! client raw.
//!
//! Named `Json` on purpose: `#[tool]` takes a tool's output schema from a return type whose
//! last path segment is `Json<T>`.

use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use schemars::JsonSchema;
use serde::Serialize;

use crate::model::formats::json::to_safe_json;

pub struct Json<T>(pub T);

impl<T: Serialize + JsonSchema + 'static> IntoCallToolResult for Json<T> {
    fn into_call_tool_result(self) -> Result<CallToolResponse, rmcp::ErrorData> {
        let value = serde_json::to_value(&self.0).map_err(|e| {
            rmcp::ErrorData::internal_error(format!("cannot write the result: {e}"), None)
        })?;
        let text = to_safe_json(&value, false);
        let mut result = CallToolResult::structured(value);
        result.content = vec![ContentBlock::text(text)];
        Ok(result.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::text::sanitize::needs_escape;

    #[derive(Serialize, JsonSchema)]
    struct Item {
        pk: String,
    }

    #[test]
    fn text_content_escapes_what_structured_content_keeps() {
        let hostile =
            "a\u{7f}\u{9b}2J\u{61c}\u{200b}\u{2028}\u{2029}\u{202e}\u{2066}\u{feff}\u{e0041}\u{1b}";
        let response = Json(Item { pk: hostile.into() })
            .into_call_tool_result()
            .expect("a result");
        let CallToolResponse::Complete(result) = response else {
            panic!("a complete result");
        };
        let value = serde_json::to_value(&result).expect("a JSON-RPC result");
        let text = value["content"][0]["text"].as_str().expect("text content");
        assert!(!text.chars().any(needs_escape), "{text:?}");
        assert!(
            text.contains(
                r"a\u007f\u009b2J\u061c\u200b\u2028\u2029\u202e\u2066\ufeff\udb40\udc41\u001b"
            ),
            "{text}"
        );
        // Lossless: the text parses back to the value, which structured content holds as is.
        let back: serde_json::Value = serde_json::from_str(text).expect("JSON");
        assert_eq!(back["pk"], hostile);
        assert_eq!(value["structuredContent"]["pk"], hostile);
    }
}
