//! Writes DynamoDB S3 table exports as AWS documents their layout ("DynamoDB table export
//! output format"): `AWSDynamoDB/<id>/manifest-summary.json` and `manifest-files.json` (each
//! with its `.checksum`), `_started`, and gzip data files under `data/` with their item
//! counts and MD5s (base64) in the manifest, in either format and either export type.

use std::io::Write;
use std::path::{Path, PathBuf};

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use dynoscope::model::exports::table_export::{
    write_dynamo_change, write_ion_change, write_ion_line, Change,
};
use dynoscope::model::formats::json::parse_dynamo_item;
use dynoscope::model::item::value::Item;
use flate2::write::GzEncoder;
use md5::{Digest, Md5};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    DynamoJson,
    Ion,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::DynamoJson => "DYNAMODB_JSON",
            Format::Ion => "ION",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Format::DynamoJson => "json.gz",
            Format::Ion => "ion.gz",
        }
    }
}

pub struct ExportLayout {
    /// The folder given as the export's S3 prefix: it holds `AWSDynamoDB/`.
    pub root: PathBuf,
    /// `root/AWSDynamoDB/<id>`.
    pub folder: PathBuf,
    pub id: String,
    /// Data files, relative to `folder`, in the manifest's order.
    pub data_files: Vec<PathBuf>,
}

fn md5_base64(bytes: &[u8]) -> String {
    BASE64.encode(Md5::digest(bytes))
}

fn md5_hex(bytes: &[u8]) -> String {
    Md5::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn gzip(text: &str) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(text.as_bytes()).unwrap();
    encoder.finish().unwrap()
}

/// An export of `lines` (one record each, in its format already) spread over `files` data
/// files round-robin, plus `empty_files` files with no records, as DynamoDB writes for empty
/// partitions.
fn write_files(
    root: &Path,
    table: &str,
    format: Format,
    incremental: bool,
    lines: &[String],
    files: usize,
    empty_files: usize,
) -> ExportLayout {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let id = format!(
        "{:014}-{:08x}",
        1_700_000_000_000u64 + u64::from(std::process::id()),
        N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    let folder = root.join("AWSDynamoDB").join(&id);
    std::fs::create_dir_all(folder.join("data")).unwrap();
    std::fs::write(folder.join("_started"), b"").unwrap();
    let prefix = "exports";
    let mut manifest = String::new();
    let mut data_files = Vec::new();
    for f in 0..files + empty_files {
        let text: String = if f < files {
            lines
                .iter()
                .skip(f)
                .step_by(files)
                .map(|l| format!("{l}\n"))
                .collect()
        } else {
            String::new()
        };
        let count = text.lines().count();
        let bytes = gzip(&text);
        let name = format!("file{f:03}x{}.{}", id.len() + f, format.extension());
        let relative = PathBuf::from("data").join(&name);
        std::fs::write(folder.join(&relative), &bytes).unwrap();
        manifest.push_str(&format!(
            "{{\"itemCount\":{count},\"md5Checksum\":\"{}\",\"etag\":\"{}\",\"dataFileS3Key\":\"{prefix}/AWSDynamoDB/{id}/data/{name}\"}}\n",
            md5_base64(&bytes),
            md5_hex(&bytes)
        ));
        data_files.push(relative);
    }
    std::fs::write(folder.join("manifest-files.json"), &manifest).unwrap();
    std::fs::write(
        folder.join("manifest-files.checksum"),
        md5_hex(manifest.as_bytes()),
    )
    .unwrap();
    let kind = if incremental {
        r#","exportType":"INCREMENTAL_EXPORT","outputView":"NEW_AND_OLD_IMAGES","exportFromTime":"2026-12-01T10:00:00.000Z","exportToTime":"2026-12-01T11:00:00.000Z""#
    } else {
        r#","exportType":"FULL_EXPORT""#
    };
    let summary = format!(
        r#"{{"version":"2023-08-01","exportArn":"arn:aws:dynamodb:us-east-1:123456789012:table/{table}/export/{id}","startTime":"2026-12-01T11:00:00.000Z","endTime":"2026-12-01T11:05:00.000Z","tableArn":"arn:aws:dynamodb:us-east-1:123456789012:table/{table}","tableId":"12345a12-abcd-123a-ab12-1234abc12345","exportTime":"2026-12-01T11:00:00.000Z","s3Bucket":"test-bucket","s3Prefix":"{prefix}","s3SseAlgorithm":"AES256","s3SseKmsKeyId":null,"manifestFilesS3Key":"{prefix}/AWSDynamoDB/{id}/manifest-files.json","billedSizeBytes":0,"itemCount":{},"outputFormat":"{}"{kind}}}"#,
        lines.len(),
        format.name()
    );
    std::fs::write(folder.join("manifest-summary.json"), &summary).unwrap();
    std::fs::write(
        folder.join("manifest-summary.checksum"),
        md5_hex(summary.as_bytes()),
    )
    .unwrap();
    ExportLayout {
        root: root.to_path_buf(),
        folder,
        id,
        data_files,
    }
}

/// A full export of items given as DynamoDB JSON lines (as `scan --output ddb-jsonl` writes
/// them): the JSON format wraps each line as it is, Ion writes each item in Ion text.
pub fn write_full_export(
    root: &Path,
    table: &str,
    format: Format,
    ddb_json_items: &[String],
    files: usize,
    empty_files: usize,
) -> ExportLayout {
    let lines: Vec<String> = ddb_json_items
        .iter()
        .map(|line| match format {
            Format::DynamoJson => format!("{{\"Item\":{line}}}"),
            Format::Ion => {
                let item = parse_dynamo_item(line).expect("a DynamoDB JSON item");
                let mut out = String::new();
                write_ion_line(&mut out, &item);
                out
            }
        })
        .collect();
    write_files(root, table, format, false, &lines, files, empty_files)
}

/// An incremental export of `changes`, in the order given (files are filled round-robin, so
/// write-time order is lost across files, as in DynamoDB's).
pub fn write_incremental_export(
    root: &Path,
    table: &str,
    format: Format,
    changes: &[Change],
    files: usize,
) -> ExportLayout {
    let lines: Vec<String> = changes
        .iter()
        .map(|c| {
            let mut out = String::new();
            match format {
                Format::DynamoJson => write_dynamo_change(&mut out, c),
                Format::Ion => write_ion_change(&mut out, c),
            }
            out
        })
        .collect();
    write_files(root, table, format, true, &lines, files, 0)
}

/// Cuts data file `index` to half its bytes: a truncated download.
pub fn truncate(layout: &ExportLayout, index: usize) -> String {
    let path = layout.folder.join(&layout.data_files[index]);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    name_of(layout, index)
}

/// Removes data file `index`.
pub fn remove(layout: &ExportLayout, index: usize) -> String {
    std::fs::remove_file(layout.folder.join(&layout.data_files[index])).unwrap();
    name_of(layout, index)
}

/// The manifest key of data file `index`, as messages quote it.
pub fn name_of(layout: &ExportLayout, index: usize) -> String {
    format!(
        "exports/AWSDynamoDB/{}/{}",
        layout.id,
        layout.data_files[index].display()
    )
}

/// Replaces data file `index` with other valid gzip records, so only its MD5 tells.
pub fn replace_with(layout: &ExportLayout, index: usize, text: &str) -> String {
    std::fs::write(layout.folder.join(&layout.data_files[index]), gzip(text)).unwrap();
    name_of(layout, index)
}

pub fn item_of(line: &str) -> Item {
    parse_dynamo_item(line).unwrap()
}
