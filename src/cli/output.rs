//! Writing items to stdout as they stream in: `jsonl`, `ddb-jsonl`, `csv`, one `json` array,
//! or an aligned `table`.

use std::io::{self, Write};

use super::text_table::{write_header, write_row, Align, Column};
use crate::model::exports::export::{all_attributes, ExportFormat, ItemEncoder};
use crate::model::formats::json::{append_dynamo_json, append_plain_json};
use crate::model::item::attribute_rank::rank_attributes;
use crate::model::item::value::Item;
use crate::model::text::cell::cell_text;
use crate::model::text::sanitize::{display_width, sanitize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// One item per line as plain JSON (exact numbers, base64 binary, sets as arrays).
    Jsonl,
    /// One item per line in DynamoDB JSON, exactly as the service returned it.
    #[value(name = "ddb-jsonl")]
    DdbJsonl,
    /// Aligned columns for people; text is sanitised and truncated.
    Table,
    /// RFC 4180 CSV: the key attributes, then the first page's attributes (or --columns).
    Csv,
    /// One JSON array of plain JSON items; closed even when interrupted.
    Json,
}

const MAX_COLUMNS: usize = 10;
const MAX_KEY_WIDTH: usize = 48;
const MAX_WIDTH: usize = 32;

pub struct ItemWriter<W: Write> {
    out: W,
    format: OutputFormat,
    key_names: Vec<String>,
    /// Chosen from the first non-empty page, then fixed so the columns stay aligned while the
    /// rest of the result streams in: the attribute names and their columns.
    columns: Option<(Vec<String>, Vec<Column>)>,
    line: String,
    /// `csv` and `json`: the export encoder, made at the first page (CSV's columns come from
    /// it unless `--columns` named them).
    encoder: Option<ItemEncoder>,
    csv_columns: Option<Vec<String>>,
    /// stdout is a terminal: CSV cells are escaped like every other text on screen.
    escape_csv: bool,
    bytes: Vec<u8>,
}

impl<W: Write> ItemWriter<W> {
    pub fn new(out: W, format: OutputFormat, key_names: Vec<String>) -> Self {
        ItemWriter {
            out,
            format,
            key_names,
            columns: None,
            line: String::new(),
            encoder: None,
            csv_columns: None,
            escape_csv: false,
            bytes: Vec::new(),
        }
    }

    /// Output bound for a terminal: CSV cells (and its header) show control characters and
    /// escape sequences as visible escapes, since the data would otherwise drive the
    /// terminal (OSC 52 writes the clipboard). A file or a pipe gets the exact bytes.
    pub fn to_terminal(mut self, is_terminal: bool) -> Self {
        self.escape_csv = is_terminal;
        self
    }

    /// CSV columns chosen by the user (`--columns`) instead of the first page's attributes.
    pub fn with_csv_columns(mut self, columns: Option<Vec<String>>) -> Self {
        self.csv_columns = columns;
        self
    }

    /// The encoder of `csv` and `json`, made on first use.
    fn encoder(&mut self, first_page: &[Item]) -> &mut ItemEncoder {
        let (format, key_names, escape) = (self.format, &self.key_names, self.escape_csv);
        let columns = &mut self.csv_columns;
        self.encoder.get_or_insert_with(|| match format {
            OutputFormat::Csv => {
                let columns = columns
                    .take()
                    .unwrap_or_else(|| all_attributes(key_names, first_page));
                ItemEncoder::new(ExportFormat::Csv, columns).escaping_cells(escape)
            }
            _ => ItemEncoder::new(ExportFormat::Json, Vec::new()),
        })
    }

    /// Ends the output: `json` closes its array (also after Ctrl-C, so the output is one valid
    /// array), `csv` writes its header if no row came. Returns the attributes a CSV had no
    /// column for.
    pub fn finish(&mut self) -> io::Result<Vec<String>> {
        if !matches!(self.format, OutputFormat::Csv | OutputFormat::Json) {
            return Ok(Vec::new());
        }
        let mut bytes = std::mem::take(&mut self.bytes);
        bytes.clear();
        let encoder = self.encoder(&[]);
        encoder.finish(&mut bytes);
        let left_out = encoder.left_out().to_vec();
        self.out.write_all(&bytes)?;
        self.out.flush()?;
        Ok(left_out)
    }

    /// Writes a page the engine already rendered as JSON lines, and flushes it.
    pub fn write_rendered(&mut self, lines: &str) -> io::Result<()> {
        if lines.is_empty() {
            return Ok(());
        }
        self.out.write_all(lines.as_bytes())?;
        self.out.flush()
    }

    /// Writes one page and flushes it, so a pipe sees results before the scan ends.
    pub fn write_page(&mut self, items: &[Item]) -> io::Result<()> {
        if items.is_empty() {
            return Ok(());
        }
        self.line.clear();
        match self.format {
            OutputFormat::Csv | OutputFormat::Json => {
                let mut bytes = std::mem::take(&mut self.bytes);
                bytes.clear();
                self.encoder(items).encode(items, &mut bytes);
                let written = self.out.write_all(&bytes).and_then(|()| self.out.flush());
                self.bytes = bytes;
                return written;
            }
            OutputFormat::Jsonl | OutputFormat::DdbJsonl => {
                for item in items {
                    if self.format == OutputFormat::Jsonl {
                        append_plain_json(&mut self.line, item);
                    } else {
                        append_dynamo_json(&mut self.line, item);
                    }
                    self.line.push('\n');
                }
            }
            OutputFormat::Table => {
                if self.columns.is_none() {
                    let chosen = choose_columns(&self.key_names, items);
                    write_header(&mut self.line, &chosen.1);
                    self.columns = Some(chosen);
                }
                let (names, columns) = self.columns.as_ref().expect("set above");
                for item in items {
                    render_row(&mut self.line, columns, names, item);
                }
            }
        }
        self.out.write_all(self.line.as_bytes())?;
        self.out.flush()
    }
}

/// The key attributes present, then the most common others: the explorer's ranking
/// ([`rank_attributes`]); each column as wide as its widest cell, within a cap.
fn choose_columns(key_names: &[String], items: &[Item]) -> (Vec<String>, Vec<Column>) {
    let mut names: Vec<String> = key_names
        .iter()
        .filter(|k| items.iter().any(|i| i.get(k).is_some()))
        .cloned()
        .collect();
    let skip: Vec<&str> = key_names.iter().map(String::as_str).collect();
    names.extend(rank_attributes(
        items,
        &skip,
        MAX_COLUMNS.saturating_sub(names.len()),
    ));
    let columns = names
        .iter()
        .map(|name| {
            let cap = if key_names.contains(name) {
                MAX_KEY_WIDTH
            } else {
                MAX_WIDTH
            };
            let widest = items
                .iter()
                .filter_map(|i| i.get(name))
                .map(|v| display_width(&sanitize(&cell_text(v))))
                .max()
                .unwrap_or(0);
            let header = sanitize(name).into_owned();
            let width = widest.max(display_width(&header)).min(cap);
            Column::new(header, width, Align::Left)
        })
        .collect();
    (names, columns)
}

/// Columns keep the attribute names they were chosen for; headers hold them sanitised.
fn render_row(out: &mut String, columns: &[Column], names: &[String], item: &Item) {
    let cells: Vec<String> = names
        .iter()
        .map(|name| {
            item.get(name)
                .map(|v| sanitize(&cell_text(v)).into_owned())
                .unwrap_or_default()
        })
        .collect();
    let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
    write_row(out, columns, &cells);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::item::value::AttrValue;

    fn item(pk: &str, sk: &str, extra: &[(&str, AttrValue)]) -> Item {
        let mut attrs = vec![
            ("PK".to_string(), AttrValue::S(pk.into())),
            ("SK".to_string(), AttrValue::S(sk.into())),
        ];
        attrs.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
        Item::from_attrs(attrs)
    }

    #[test]
    fn table_output_aligns_sanitises_and_keeps_columns_fixed() {
        let mut buf = Vec::new();
        let mut w = ItemWriter::new(
            &mut buf,
            OutputFormat::Table,
            vec!["PK".into(), "SK".into()],
        );
        w.write_page(&[
            item(
                "USER#1",
                "PROFILE",
                &[("name", AttrValue::S("Ann\u{1b}[2J".into()))],
            ),
            item(
                "USER#1",
                "ORDER#2026-01-01#o1",
                &[("total", AttrValue::N("12.5".into()))],
            ),
        ])
        .unwrap();
        w.write_page(&[item(
            "USER#2",
            "PROFILE",
            &[("name", AttrValue::S("Bob".into()))],
        )])
        .unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(!text.contains('\u{1b}'), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert!(lines[0].starts_with("PK      SK"), "{text}");
        assert!(lines[2].contains("Ann\\x1b[2J"), "{text}");
        // The second page reuses the first page's column positions.
        let sk_col = lines[0].find("SK").unwrap();
        assert_eq!(lines[4].find("PROFILE"), Some(sk_col), "{text}");
    }

    #[test]
    fn jsonl_formats_write_one_line_per_item() {
        for (format, needle) in [
            (OutputFormat::Jsonl, r#"{"PK":"A","SK":"B"}"#),
            (OutputFormat::DdbJsonl, r#"{"PK":{"S":"A"},"SK":{"S":"B"}}"#),
        ] {
            let mut buf = Vec::new();
            ItemWriter::new(&mut buf, format, vec![])
                .write_page(&[item("A", "B", &[])])
                .unwrap();
            assert_eq!(String::from_utf8(buf).unwrap(), format!("{needle}\n"));
        }
    }
}
