//! The query history file's text: per endpoint and table, the last queries run, newest last.
//! Pure: reading and writing the file is the terminal loop's and the command line's
//! (`tui::history_store`); this only turns entries into JSON and back.
//!
//! ```json
//! {"version": 1, "queries": [
//!   {"endpoint": "http://127.0.0.1:8000", "table": "app", "entries": [
//!     {"raw": false, "index": 0, "op": 7, "descending": true,
//!      "fields": {"pk": "USER#u00042", "sk": "ORDER#"}},
//!     {"raw": false, "partiql": true, "index": 0, "op": 0, "descending": false,
//!      "fields": {"statement": "SELECT * FROM \"app\" WHERE PK = 'USER#u00042'"}}]}]}
//! ```
//!
//! A file that does not read as this (another version, hand-edited badly) yields no history
//! rather than an error: losing recall is better than refusing to start.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::state::{Field, HistoryEntry, HISTORY_PER_TABLE};

const VERSION: u32 = 1;

/// The key of one table's history in `State::history`: its endpoint and its name.
pub fn history_key(endpoint: &str, table: &str) -> String {
    format!("{endpoint} {table}")
}

/// Every table's history, by [`history_key`].
pub type HistoryBook = HashMap<String, Vec<HistoryEntry>>;

#[derive(Serialize, Deserialize)]
struct FileText {
    version: u32,
    queries: Vec<TableQueries>,
}

#[derive(Serialize, Deserialize)]
struct TableQueries {
    endpoint: String,
    table: String,
    entries: Vec<EntryText>,
}

#[derive(Serialize, Deserialize)]
struct EntryText {
    raw: bool,
    /// A PartiQL statement (`fields.statement`); files written before it had none.
    #[serde(default)]
    partiql: bool,
    index: usize,
    op: usize,
    descending: bool,
    /// Field name to text, in the order of [`FIELDS`].
    fields: serde_json::Map<String, serde_json::Value>,
}

/// Text fields and their names in the file: stable, whatever the enum is called.
const FIELDS: [(Field, &str); 19] = [
    (Field::Pk, "pk"),
    (Field::Sk, "sk"),
    (Field::SkHigh, "sk_high"),
    (Field::Limit, "limit"),
    (Field::Filter, "filter"),
    (Field::Projection, "projection"),
    (Field::RawKey, "raw_key"),
    (Field::RawNames, "raw_names"),
    (Field::RawValues, "raw_values"),
    (Field::Statement, "statement"),
    (Field::Parameters, "parameters"),
    // A multi-attribute key's fields, by position in its partition and sort lists.
    (Field::PkAt(0), "pk_0"),
    (Field::PkAt(1), "pk_1"),
    (Field::PkAt(2), "pk_2"),
    (Field::PkAt(3), "pk_3"),
    (Field::SkAt(0), "sk_0"),
    (Field::SkAt(1), "sk_1"),
    (Field::SkAt(2), "sk_2"),
    (Field::SkAt(3), "sk_3"),
];

fn entry_text(entry: &HistoryEntry) -> EntryText {
    let fields = FIELDS
        .iter()
        .filter_map(|(field, name)| {
            let (_, text) = entry.texts.iter().find(|(f, _)| f == field)?;
            Some((name.to_string(), serde_json::Value::String(text.clone())))
        })
        .collect();
    EntryText {
        raw: entry.raw,
        partiql: entry.partiql,
        index: entry.index,
        op: entry.op,
        descending: entry.descending,
        fields,
    }
}

fn entry(text: EntryText) -> HistoryEntry {
    let texts = FIELDS
        .iter()
        .filter_map(|(field, name)| Some((*field, text.fields.get(*name)?.as_str()?.to_string())))
        .collect();
    HistoryEntry {
        raw: text.raw,
        partiql: text.partiql,
        index: text.index,
        // An operator the builder does not have is no operator.
        op: if text.op < crate::app::state::SORT_OPS.len() {
            text.op
        } else {
            0
        },
        descending: text.descending,
        texts,
    }
}

/// The file's text for `book` (at most [`HISTORY_PER_TABLE`] entries per table, the newest).
pub fn encode(book: &HistoryBook) -> String {
    let mut queries: Vec<TableQueries> = book
        .iter()
        .filter_map(|(key, entries)| {
            let (endpoint, table) = key.rsplit_once(' ')?;
            let from = entries.len().saturating_sub(HISTORY_PER_TABLE);
            Some(TableQueries {
                endpoint: endpoint.to_string(),
                table: table.to_string(),
                entries: entries[from..].iter().map(entry_text).collect(),
            })
        })
        .collect();
    // A stable file: sorted by endpoint and table.
    queries.sort_by(|a, b| (&a.endpoint, &a.table).cmp(&(&b.endpoint, &b.table)));
    let file = FileText {
        version: VERSION,
        queries,
    };
    serde_json::to_string_pretty(&file).unwrap_or_default()
}

/// The history in a file's text; anything unreadable yields none.
pub fn decode(text: &str) -> HistoryBook {
    let Ok(file) = serde_json::from_str::<FileText>(text) else {
        return HistoryBook::new();
    };
    if file.version != VERSION {
        return HistoryBook::new();
    }
    let mut book = HistoryBook::new();
    for table in file.queries {
        let mut entries: Vec<HistoryEntry> = table.entries.into_iter().map(entry).collect();
        let from = entries.len().saturating_sub(HISTORY_PER_TABLE);
        entries.drain(..from);
        book.insert(history_key(&table.endpoint, &table.table), entries);
    }
    book
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pk: &str) -> HistoryEntry {
        HistoryEntry {
            raw: false,
            partiql: false,
            index: 1,
            op: 7,
            descending: true,
            texts: vec![(Field::Pk, pk.to_string()), (Field::Sk, "ORDER#".into())],
        }
    }

    #[test]
    fn round_trips_per_endpoint_and_table_capped() {
        let mut book = HistoryBook::new();
        book.insert(
            history_key("http://127.0.0.1:8000", "app"),
            (0..130).map(|i| query(&format!("USER#{i}"))).collect(),
        );
        book.insert(
            history_key("https://dynamodb.eu-west-1.amazonaws.com", "app"),
            vec![query("USER#x \"quoted\" \u{1b}")],
        );
        let text = encode(&book);
        let back = decode(&text);
        let local = &back[&history_key("http://127.0.0.1:8000", "app")];
        assert_eq!(local.len(), HISTORY_PER_TABLE, "capped");
        assert_eq!(local.last(), Some(&query("USER#129")), "the newest kept");
        assert_eq!(local[0], query("USER#30"));
        assert_eq!(
            back[&history_key("https://dynamodb.eu-west-1.amazonaws.com", "app")],
            [query("USER#x \"quoted\" \u{1b}")]
        );
        assert_eq!(encode(&back), text, "stable");
    }

    #[test]
    fn a_partiql_statement_round_trips_and_older_files_read_as_form_queries() {
        let statement = HistoryEntry {
            raw: false,
            partiql: true,
            index: 0,
            op: 0,
            descending: false,
            texts: vec![(
                Field::Statement,
                "SELECT * FROM \"app\" WHERE PK = 'it''s'".into(),
            )],
        };
        let mut book = HistoryBook::new();
        book.insert(history_key("e", "app"), vec![query("u"), statement.clone()]);
        let back = decode(&encode(&book));
        assert_eq!(back[&history_key("e", "app")], [query("u"), statement]);
        let old = r#"{"version": 1, "queries": [{"endpoint": "e", "table": "app", "entries": [
            {"raw": false, "index": 1, "op": 7, "descending": true,
             "fields": {"pk": "u", "sk": "ORDER#"}}]}]}"#;
        assert_eq!(decode(old)[&history_key("e", "app")], [query("u")]);
    }

    #[test]
    fn unreadable_files_mean_no_history() {
        for text in ["", "{", "[]", r#"{"version": 2, "queries": []}"#, "null"] {
            assert!(decode(text).is_empty(), "{text:?}");
        }
    }
}
