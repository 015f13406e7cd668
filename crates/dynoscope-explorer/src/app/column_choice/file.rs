//! The text of `columns.json`, the column choices file: pure. Reading and writing the file is
//! the terminal loop's (`tui::column_store`); this turns choices into JSON and back.
//!
//! ```json
//! {"version": 1, "choices": [
//!   {"endpoint": "http://127.0.0.1:8000", "table": "app", "index": null, "kind": "ORDER",
//!    "order": ["total", "status", "__edb_v__"], "hidden": ["__edb_v__"]}]}
//! ```
//!
//! The file is untrusted: anyone who can write the state folder wrote it. So its shape is
//! checked whole and bounded (scopes, names per scope, a name's length); anything else is one
//! reason, and the caller shows it as one warning line and uses automatic columns.

use serde::{Deserialize, Serialize};

use super::{ColumnChoice, ColumnScope};
use std::collections::HashMap;

const VERSION: u32 = 1;
/// Scopes the file holds at most; a save past it forgets the scopes first in the file.
pub const MAX_SCOPES: usize = 2_000;
/// Names one scope's order (or hidden set) holds at most: what the chooser lists.
pub const MAX_NAMES: usize = 1_000;
/// DynamoDB's longest attribute name, in bytes; a table or index name is at most 255.
const MAX_NAME_BYTES: usize = 65_535;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileText {
    version: u32,
    choices: Vec<ScopeText>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScopeText {
    endpoint: String,
    table: String,
    index: Option<String>,
    kind: Option<String>,
    order: Vec<String>,
    hidden: Vec<String>,
}

/// The file's text for `book`, its scopes in a stable order.
pub fn encode(book: &HashMap<ColumnScope, ColumnChoice>) -> String {
    let mut scopes: Vec<(&ColumnScope, &ColumnChoice)> = book.iter().collect();
    scopes.sort_by(|a, b| a.0.cmp(b.0));
    let skip = scopes.len().saturating_sub(MAX_SCOPES);
    let text = FileText {
        version: VERSION,
        choices: scopes
            .into_iter()
            .skip(skip)
            .map(|(scope, choice)| ScopeText {
                endpoint: scope.endpoint.clone(),
                table: scope.table.clone(),
                index: scope.index.clone(),
                kind: scope.kind.clone(),
                order: choice.order.iter().take(MAX_NAMES).cloned().collect(),
                hidden: choice.hidden.iter().take(MAX_NAMES).cloned().collect(),
            })
            .collect(),
    };
    // Plain strings and lists: serialising cannot fail.
    serde_json::to_string_pretty(&text).unwrap_or_default() + "\n"
}

/// The choices in `text`, or why it is not a choices file this version reads.
pub fn decode(text: &str) -> Result<HashMap<ColumnScope, ColumnChoice>, String> {
    let file: FileText =
        serde_json::from_str(text).map_err(|e| format!("it is not a column choices file ({e})"))?;
    if file.version != VERSION {
        return Err(format!(
            "it is version {}, and this dynoscope reads version {VERSION}",
            file.version
        ));
    }
    if file.choices.len() > MAX_SCOPES {
        return Err(format!(
            "it holds {} tables' choices, more than the {MAX_SCOPES} dynoscope keeps",
            file.choices.len()
        ));
    }
    let mut book = HashMap::with_capacity(file.choices.len());
    for s in file.choices {
        for list in [&s.order, &s.hidden] {
            if list.len() > MAX_NAMES {
                return Err(format!(
                    "table '{}' has {} column names, more than the {MAX_NAMES} dynoscope keeps",
                    crate::model::text::sanitize::sanitize(&s.table),
                    list.len()
                ));
            }
        }
        let names = [&s.endpoint, &s.table]
            .into_iter()
            .chain(&s.index)
            .chain(&s.kind)
            .chain(&s.order)
            .chain(&s.hidden);
        if let Some(long) = names.into_iter().find(|n| n.len() > MAX_NAME_BYTES) {
            return Err(format!(
                "a name of {} bytes is longer than any DynamoDB allows",
                long.len()
            ));
        }
        book.insert(
            ColumnScope {
                endpoint: s.endpoint,
                table: s.table,
                index: s.index,
                kind: s.kind,
            },
            ColumnChoice {
                order: s.order,
                hidden: s.hidden,
            },
        );
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(kind: Option<&str>) -> ColumnScope {
        ColumnScope {
            endpoint: "http://127.0.0.1:8000".into(),
            table: "app".into(),
            index: Some("GSI1".into()),
            kind: kind.map(String::from),
        }
    }

    #[test]
    fn choices_read_back_as_written() {
        let mut book = HashMap::new();
        book.insert(
            scope(Some("ORDER")),
            ColumnChoice {
                order: vec!["total".into(), "__edb_v__".into(), "a|\u{1b}b".into()],
                hidden: vec!["__edb_v__".into()],
            },
        );
        book.insert(scope(None), ColumnChoice::default());
        assert_eq!(decode(&encode(&book)).unwrap(), book);
    }

    #[test]
    fn a_damaged_file_is_one_reason_not_a_panic() {
        let too_many_names = format!(
            r#"{{"version":1,"choices":[{{"endpoint":"e","table":"t","index":null,"kind":null,"order":{},"hidden":[]}}]}}"#,
            serde_json::to_string(&vec!["a"; MAX_NAMES + 1]).unwrap()
        );
        let long_name = format!(
            r#"{{"version":1,"choices":[{{"endpoint":"e","table":"t","index":null,"kind":null,"order":["{}"],"hidden":[]}}]}}"#,
            "x".repeat(MAX_NAME_BYTES + 1)
        );
        let cases = [
            ("", "not a column choices file"),
            (
                "{\"version\": 1, \"choices\": [",
                "not a column choices file",
            ),
            ("[1, 2, 3]", "not a column choices file"),
            (r#"{"version": 2, "choices": []}"#, "version 2"),
            (
                r#"{"version": 1, "choices": [{"table": "t"}]}"#,
                "not a column choices file",
            ),
            (too_many_names.as_str(), "1001 column names"),
            (long_name.as_str(), "65536 bytes"),
        ];
        for (text, want) in cases {
            let why = decode(text).unwrap_err();
            assert!(why.contains(want), "{text:.60}: {why}");
            assert!(!why.contains('\n'), "one line: {why}");
        }
    }
}
