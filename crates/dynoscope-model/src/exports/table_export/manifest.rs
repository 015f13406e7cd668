//! `manifest-summary.json` (one JSON object) and `manifest-files.json` (one JSON object a line,
//! one line a data file), as DynamoDB writes them beside an export's `data/` folder.

use serde::Deserialize;

use super::{ExportFormat, ExportType, TableExportError};

/// What the summary says about the export; fields DynamoDB may leave out are optional.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestSummary {
    pub export_arn: String,
    /// The export's id: the last part of its ARN, also the folder under `AWSDynamoDB/`.
    pub export_id: String,
    pub table_arn: Option<String>,
    /// The table's name, from `tableArn`.
    pub table: Option<String>,
    pub export_time: Option<String>,
    pub start_time: Option<String>,
    pub end_time: Option<String>,
    pub s3_bucket: Option<String>,
    pub s3_prefix: Option<String>,
    pub manifest_files_key: Option<String>,
    pub item_count: Option<u64>,
    pub billed_size_bytes: Option<u64>,
    pub format: ExportFormat,
    pub export_type: ExportType,
    /// Incremental exports: the window of writes they hold.
    pub export_from_time: Option<String>,
    pub export_to_time: Option<String>,
    /// Incremental exports: `NEW_AND_OLD_IMAGES` or `NEW_IMAGE`, as a stream's view type.
    pub output_view: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SummaryJson {
    export_arn: Option<String>,
    table_arn: Option<String>,
    export_time: Option<serde_json::Value>,
    start_time: Option<serde_json::Value>,
    end_time: Option<serde_json::Value>,
    s3_bucket: Option<String>,
    s3_prefix: Option<String>,
    manifest_files_s3_key: Option<String>,
    item_count: Option<u64>,
    billed_size_bytes: Option<u64>,
    output_format: Option<String>,
    export_type: Option<String>,
    export_from_time: Option<serde_json::Value>,
    export_to_time: Option<serde_json::Value>,
    output_view: Option<String>,
}

/// A time as the manifest spells it: an ISO 8601 string, or (in some exports) a number.
fn time_text(value: Option<serde_json::Value>) -> Option<String> {
    match value? {
        serde_json::Value::String(s) => Some(s),
        serde_json::Value::Null => None,
        other => Some(other.to_string()),
    }
}

impl ManifestSummary {
    /// How the explorer names the export in its title: "export <id> of <table> at <time>",
    /// or for an incremental one the window of writes it holds, so its items (the newest
    /// image of each key written) are not taken for the whole table.
    pub fn title(&self) -> String {
        if self.export_type == ExportType::Incremental {
            let at = |t: &Option<String>| t.clone().unwrap_or_else(|| "?".into());
            return format!(
                "incremental export {} of {}: items written from {} to {}, as last written",
                self.export_id,
                self.table.as_deref().unwrap_or("an unnamed table"),
                at(&self.export_from_time),
                at(&self.export_to_time)
            );
        }
        format!(
            "export {} of {} at {}",
            self.export_id,
            self.table.as_deref().unwrap_or("an unnamed table"),
            self.export_time.as_deref().unwrap_or("an unknown time")
        )
    }

    pub fn parse(text: &str) -> Result<ManifestSummary, TableExportError> {
        let bad = |why: String| {
            TableExportError::Manifest(format!("manifest-summary.json is not readable: {why}"))
        };
        let json: SummaryJson = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let export_arn = json
            .export_arn
            .ok_or_else(|| bad("it has no 'exportArn'".into()))?;
        let format = ExportFormat::parse(
            json.output_format
                .as_deref()
                .ok_or_else(|| bad("it has no 'outputFormat'".into()))?,
        )?;
        let export_type = match json.export_type.as_deref() {
            None | Some("FULL_EXPORT") => ExportType::Full,
            Some("INCREMENTAL_EXPORT") => ExportType::Incremental,
            Some(other) => {
                return Err(bad(format!(
                    "exportType '{other}' is neither FULL_EXPORT nor INCREMENTAL_EXPORT"
                )))
            }
        };
        Ok(ManifestSummary {
            export_id: export_id_from_arn(&export_arn).to_string(),
            table: json.table_arn.as_deref().and_then(table_from_arn),
            export_arn,
            table_arn: json.table_arn,
            export_time: time_text(json.export_time),
            start_time: time_text(json.start_time),
            end_time: time_text(json.end_time),
            s3_bucket: json.s3_bucket,
            s3_prefix: json.s3_prefix,
            manifest_files_key: json.manifest_files_s3_key,
            item_count: json.item_count,
            billed_size_bytes: json.billed_size_bytes,
            format,
            export_type,
            export_from_time: time_text(json.export_from_time),
            export_to_time: time_text(json.export_to_time),
            output_view: json.output_view,
        })
    }
}

/// `arn:aws:dynamodb:REGION:ACCOUNT:table/NAME/export/ID` → `ID`.
pub fn export_id_from_arn(arn: &str) -> &str {
    arn.rsplit('/').next().unwrap_or(arn)
}

/// `arn:aws:dynamodb:REGION:ACCOUNT:table/NAME` → `NAME`.
pub fn table_from_arn(arn: &str) -> Option<String> {
    let rest = arn.split_once(":table/")?.1;
    let name = rest.split('/').next()?;
    (!name.is_empty()).then(|| name.to_string())
}

/// One line of `manifest-files.json`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DataFile {
    pub item_count: u64,
    /// Base64 of the data file's MD5 (of the gzip bytes as stored).
    pub md5_checksum: Option<String>,
    pub etag: Option<String>,
    #[serde(rename = "dataFileS3Key")]
    pub key: String,
}

impl DataFile {
    /// Every line of `manifest-files.json`; blank lines are skipped.
    pub fn parse_all(text: &str) -> Result<Vec<DataFile>, TableExportError> {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(n, line)| {
                serde_json::from_str(line).map_err(|e| {
                    TableExportError::Manifest(format!(
                        "manifest-files.json line {} is not a data file entry ({e}): '{}'",
                        n + 1,
                        super::line_excerpt(line)
                    ))
                })
            })
            .collect()
    }

    /// The key below the export's own folder (`data/x.json.gz`): keys start with the bucket's
    /// prefix and `AWSDynamoDB/<id>/`, which a copy on disk or under another prefix lacks.
    pub fn relative_key(&self, export_id: &str) -> &str {
        let marker = format!("AWSDynamoDB/{export_id}/");
        match self.key.find(&marker) {
            Some(at) => &self.key[at + marker.len()..],
            None => match self.key.find("data/") {
                Some(at) => &self.key[at..],
                None => &self.key,
            },
        }
    }

    /// The file's name, for messages.
    pub fn name(&self) -> &str {
        self.key.rsplit('/').next().unwrap_or(&self.key)
    }
}
