//! DynamoDB's S3 table exports (`ExportTableToPointInTime`), read without I/O: the manifests,
//! the data lines of both formats (DynamoDB JSON `{"Item":{…}}` and Ion text
//! `$ion_1_0 {Item:{…}}`), the change records of incremental exports, and what an export's
//! integrity check says. Every value keeps its type exactly as a Scan returns it.
//!
//! (Not to be confused with [`crate::exports::export`], the explorer's export of shown items to a file.)

mod athena;
mod bounds;
mod dynamo_json;
mod dynamo_json_direct;
mod dynamo_json_sizes;
mod integrity;
mod ion;
mod ion_text;
mod ion_write;
mod json_string;
mod key_sizes;
mod keys;
mod manifest;

pub use athena::athena_sql;
pub use bounds::{confined, ITEM_MAX_BYTES, LINE_MAX_BYTES, MANIFEST_MAX_BYTES};
pub use dynamo_json::{parse_dynamo_line, write_dynamo_change, write_dynamo_line};
pub use dynamo_json_sizes::{tally_full_line, SizeScratch};
pub use integrity::{FileProblem, FileReport, IntegrityReport};
pub use ion::parse_ion_line;
pub use ion_write::{ion_number, write_ion_change, write_ion_line};
pub use key_sizes::{tally_of_item, SizePlan, Tally};
pub use keys::KeyInference;
pub use manifest::{export_id_from_arn, table_from_arn, DataFile, ManifestSummary};

use crate::item::value::Item;

/// `outputFormat` of `manifest-summary.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    DynamoJson,
    Ion,
}

impl ExportFormat {
    pub fn parse(text: &str) -> Result<ExportFormat, TableExportError> {
        match text {
            "DYNAMODB_JSON" => Ok(ExportFormat::DynamoJson),
            "ION" => Ok(ExportFormat::Ion),
            other => Err(TableExportError::Manifest(format!(
                "outputFormat '{other}' is not one dynoscope reads; it reads DYNAMODB_JSON and ION"
            ))),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ExportFormat::DynamoJson => "DYNAMODB_JSON",
            ExportFormat::Ion => "ION",
        }
    }

    /// The data files' name ending, as DynamoDB writes them.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::DynamoJson => "json.gz",
            ExportFormat::Ion => "ion.gz",
        }
    }
}

/// `exportType` of `manifest-summary.json` (absent in exports made before incremental ones
/// existed: a full export).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportType {
    Full,
    Incremental,
}

/// One line of a data file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// A full export's item.
    Item(Item),
    /// An incremental export's change.
    Change(Change),
}

/// One write of an incremental export: the item's keys, its image after the write (absent for
/// a delete) and before it (present with the NEW_AND_OLD_IMAGES view, absent for an insert).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub write_micros: u64,
    pub keys: Item,
    pub new_image: Option<Item>,
    pub old_image: Option<Item>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableExportError {
    /// A manifest that cannot be read; the text names the file and the field.
    #[error("{0}")]
    Manifest(String),
    /// A data line that is not a record of the export's format; the text says why.
    #[error("{0}")]
    Line(String),
}

/// The start of a bad line, for messages: enough to find it, never the whole 400 KB item.
pub(crate) fn line_excerpt(line: &str) -> String {
    const SHOWN: usize = 80;
    let mut out: String = line.chars().take(SHOWN).collect();
    if line.chars().nth(SHOWN).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
#[path = "table_export_tests.rs"]
mod tests;
