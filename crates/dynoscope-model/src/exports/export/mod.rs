//! Items as the bytes of an export file or of `--output`: JSON lines in either spelling, one
//! JSON array, or CSV. Pure: an [`ItemEncoder`] appends to a buffer and the caller decides
//! where the bytes go (a file the explorer writes off its terminal thread, or stdout).
//!
//! CSV cells are the items pane's cell text ([`cell_text`]): strings as they are, numbers as
//! their exact text, binary as base64, sets, lists and maps as compact plain JSON, NULL as
//! `null`; an attribute an item lacks is an empty cell. Quoting is the `csv` crate's (RFC 4180:
//! a cell holding a comma, a quote, CR or LF is quoted, quotes doubled).

mod csv_columns;
mod timestamp;

use crate::formats::json::{append_dynamo_json, append_plain_json};
use crate::item::value::Item;
use crate::text::cell::cell_text;
use crate::text::sanitize::sanitize;

pub use csv_columns::{all_attributes, csv_columns};
pub use timestamp::utc_stamp;

/// What an export file or `--output` holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// One item per line as plain JSON.
    Jsonl,
    /// One item per line as DynamoDB JSON.
    DdbJsonl,
    /// A header row and one row per item.
    Csv,
    /// One JSON array of plain JSON items.
    Json,
}

impl ExportFormat {
    pub const ALL: [ExportFormat; 4] = [
        ExportFormat::Jsonl,
        ExportFormat::DdbJsonl,
        ExportFormat::Csv,
        ExportFormat::Json,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Jsonl => "jsonl",
            ExportFormat::DdbJsonl => "ddb-jsonl",
            ExportFormat::Csv => "csv",
            ExportFormat::Json => "json",
        }
    }

    /// The file name extension: `ddb-jsonl` files are still JSON lines.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Jsonl | ExportFormat::DdbJsonl => "jsonl",
            ExportFormat::Csv => "csv",
            ExportFormat::Json => "json",
        }
    }
}

/// Appends items to a buffer in one format. The CSV header (and the JSON array's opening
/// bracket) is written before the first item, so an export of nothing is still a valid file
/// once [`ItemEncoder::finish`] closes it.
pub struct ItemEncoder {
    format: ExportFormat,
    /// CSV only: the attribute of each column.
    columns: Vec<String>,
    started: bool,
    items: u64,
    /// CSV only: attributes items carried that no column holds, in first-seen order.
    left_out: Vec<String>,
    line: String,
    /// CSV only: cells and header shown through the sanitiser (CSV bound for a terminal).
    escape_cells: bool,
}

impl ItemEncoder {
    /// `columns` is used by CSV only.
    pub fn new(format: ExportFormat, columns: Vec<String>) -> Self {
        ItemEncoder {
            format,
            columns,
            started: false,
            items: 0,
            left_out: Vec::new(),
            line: String::new(),
            escape_cells: false,
        }
    }

    /// CSV written to a terminal: control characters, ESC/OSC sequences and bidi overrides
    /// in the header and cells are shown as visible escapes (`\x1b`), as everywhere else on
    /// screen. A file or a pipe gets the data's exact bytes, so this is off by default.
    pub fn escaping_cells(mut self, escape: bool) -> Self {
        self.escape_cells = escape;
        self
    }

    pub fn format(&self) -> ExportFormat {
        self.format
    }

    /// Items encoded so far.
    pub fn items(&self) -> u64 {
        self.items
    }

    /// CSV: attributes that items carried but no column holds (their values are not in the
    /// file), in the order they were first seen.
    pub fn left_out(&self) -> &[String] {
        &self.left_out
    }

    fn start(&mut self, out: &mut Vec<u8>) {
        if self.started {
            return;
        }
        self.started = true;
        match self.format {
            ExportFormat::Json => out.extend_from_slice(b"["),
            ExportFormat::Csv => {
                let mut csv = csv_writer(out);
                // Writing to a Vec cannot fail.
                if self.escape_cells {
                    let _ = csv.write_record(self.columns.iter().map(|c| sanitize(c).into_owned()));
                } else {
                    let _ = csv.write_record(&self.columns);
                }
            }
            ExportFormat::Jsonl | ExportFormat::DdbJsonl => {}
        }
    }

    pub fn encode(&mut self, items: &[Item], out: &mut Vec<u8>) {
        self.start(out);
        if self.format == ExportFormat::Csv {
            let mut csv = csv_writer(out);
            for item in items {
                self.csv_row(item, &mut csv);
            }
            return;
        }
        for item in items {
            self.encode_one(item, out);
        }
    }

    fn csv_row(&mut self, item: &Item, csv: &mut csv::Writer<&mut Vec<u8>>) {
        for (name, _) in item.iter() {
            if !self.columns.iter().any(|c| c == name) && !self.left_out.iter().any(|c| c == name) {
                self.left_out.push(name.to_string());
            }
        }
        let escape = self.escape_cells;
        let cells = self.columns.iter().map(|c| {
            let text = item.get(c).map(cell_text).unwrap_or_default();
            if escape {
                sanitize(&text).into_owned()
            } else {
                text
            }
        });
        let _ = csv.write_record(cells);
        self.items += 1;
    }

    fn encode_one(&mut self, item: &Item, out: &mut Vec<u8>) {
        self.line.clear();
        match self.format {
            ExportFormat::Jsonl => {
                append_plain_json(&mut self.line, item);
                self.line.push('\n');
            }
            ExportFormat::DdbJsonl => {
                append_dynamo_json(&mut self.line, item);
                self.line.push('\n');
            }
            ExportFormat::Json => {
                self.line
                    .push_str(if self.items == 0 { "\n" } else { ",\n" });
                append_plain_json(&mut self.line, item);
            }
            ExportFormat::Csv => unreachable!("CSV rows go through csv_row"),
        }
        out.extend_from_slice(self.line.as_bytes());
        self.items += 1;
    }

    /// Closes the file: the JSON array's bracket (an interrupted `--output json` is still one
    /// valid array), a CSV header even without rows.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        self.start(out);
        if self.format == ExportFormat::Json {
            out.extend_from_slice(if self.items == 0 { b"]\n" } else { b"\n]\n" });
        }
    }
}

/// A CSV writer appending to `out`; what it buffers reaches `out` when it is dropped.
fn csv_writer(out: &mut Vec<u8>) -> csv::Writer<&mut Vec<u8>> {
    csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(out)
}

#[cfg(test)]
#[path = "export_tests.rs"]
mod tests;
