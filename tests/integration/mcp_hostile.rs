//! Issue 50: the text content of an MCP result is escaped as docs/mcp.md promises. The Python
//! client (tests/mcp_client.py, scenario `hostile_text`) stores an item whose key, value and
//! attribute name carry C0 and C1 controls, DEL, bidi, zero-width, tag and other format and
//! default-ignorable characters, queries it through `dynoscope mcp`, and checks the text
//! content by Python's own Unicode tables; here, that each arrived as its `\u` escape.

use super::client;
use crate::common::{local, table_name, tables::TableSpec};

#[test]
fn the_text_content_escapes_controls_format_and_default_ignorable_characters() {
    let endpoint = &local().endpoint;
    let table = table_name("mcp-hostile");
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let c = crate::common::client().await;
        TableSpec::pk_sk(&table).create(&c).await;
    });
    let out = client("hostile_text", &table, endpoint, endpoint, &[], None);
    let escapes: Vec<&str> = out["escapes"]
        .as_array()
        .unwrap_or_else(|| panic!("{out}"))
        .iter()
        .filter_map(|e| e.as_str())
        .collect();
    for want in [
        r"\u001b", r"\u0007", r"\u007f", r"\u0085", r"\u009b", r"\u034f", r"\u0600", r"\u061c",
        r"\u115f", r"\u1160", r"\u17b4", r"\u200b", r"\u2028", r"\u2029", r"\u202e", r"\u2066",
        r"\u3164", r"\ufe0f", r"\ufeff", r"\uffa0", r"\udb40", r"\udc01", r"\udc41",
    ] {
        assert!(escapes.contains(&want), "{want} not in {escapes:?}");
    }
}
