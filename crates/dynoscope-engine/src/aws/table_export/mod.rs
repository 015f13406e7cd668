//! Reading DynamoDB's S3 table exports, on disk or in S3: finding the export's folder, its
//! manifests, and its gzip data files, decompressed and parsed in parallel and delivered as a
//! Scan's pages through the same bounded channel ([`ExportBackend`]). The formats themselves
//! are [`crate::model::exports::table_export`]'s.

mod backend;
mod changes;
mod index_view;
mod latest;
mod plan;
mod reader;
mod replay;
mod resolve;
mod s3;

use std::path::{Path, PathBuf};

pub use backend::ExportBackend;
pub use changes::{as_stream_change, read_changes_in_order, recorded_window};
pub use reader::{read_data_file, Flow};
pub use s3::{client as s3_client, parse_url as parse_s3_url, S3Export};

use crate::model::exports::table_export::{DataFile, ManifestSummary};

/// Where an export's folder is.
#[derive(Debug, Clone)]
pub enum ExportLocation {
    /// The folder holding `manifest-summary.json`.
    Disk(PathBuf),
    /// Its objects are fetched on the reader threads by blocking on `runtime`.
    S3 {
        export: S3Export,
        runtime: tokio::runtime::Handle,
    },
}

impl std::fmt::Display for ExportLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportLocation::Disk(folder) => write!(f, "{}", folder.display()),
            ExportLocation::S3 { export, .. } => f.write_str(&export.url_of(&export.folder)),
        }
    }
}

/// An export whose manifests were read.
#[derive(Debug, Clone)]
pub struct OpenedExport {
    pub summary: ManifestSummary,
    pub files: Vec<DataFile>,
    pub location: ExportLocation,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ExportOpenError(pub String);

const SUMMARY: &str = "manifest-summary.json";
const FILES: &str = "manifest-files.json";

/// Opens `path`: an export's folder (holding `manifest-summary.json`), or a folder above one
/// holding exactly one `AWSDynamoDB/<id>/`.
pub fn open_export(path: &Path) -> Result<OpenedExport, ExportOpenError> {
    let folder = find_folder(path)?;
    let read = |name: &str| resolve::read_disk_manifest(&folder, name);
    let summary = ManifestSummary::parse(&read(SUMMARY)?)
        .map_err(|e| ExportOpenError(format!("{} ('{}')", e, folder.display())))?;
    let files = DataFile::parse_all(&read(FILES)?)
        .map_err(|e| ExportOpenError(format!("{} ('{}')", e, folder.display())))?;
    Ok(OpenedExport {
        summary,
        files,
        location: ExportLocation::Disk(folder),
    })
}

/// Opens the export at or just below `s3://bucket/prefix` (see [`S3Export::find`]).
pub async fn open_s3_export(
    client: aws_sdk_s3::Client,
    bucket: String,
    prefix: String,
) -> Result<OpenedExport, ExportOpenError> {
    let export = S3Export::find(client, bucket, prefix).await?;
    let here = export.url_of(&export.folder);
    let summary = ManifestSummary::parse(&export.read_manifest(SUMMARY).await?)
        .map_err(|e| ExportOpenError(format!("{e} ('{here}')")))?;
    let files = DataFile::parse_all(&export.read_manifest(FILES).await?)
        .map_err(|e| ExportOpenError(format!("{e} ('{here}')")))?;
    Ok(OpenedExport {
        summary,
        files,
        location: ExportLocation::S3 {
            export,
            runtime: tokio::runtime::Handle::current(),
        },
    })
}

fn find_folder(path: &Path) -> Result<PathBuf, ExportOpenError> {
    if path.join(SUMMARY).is_file() {
        return Ok(path.to_path_buf());
    }
    if !path.is_dir() {
        return Err(ExportOpenError(format!(
            "export '{}' is not a folder; give the folder holding {SUMMARY} (or one above AWSDynamoDB/<export id>/)",
            path.display()
        )));
    }
    let below = if path.join("AWSDynamoDB").is_dir() {
        path.join("AWSDynamoDB")
    } else {
        path.to_path_buf()
    };
    let mut found: Vec<PathBuf> = std::fs::read_dir(&below)
        .map_err(|e| ExportOpenError(format!("cannot list '{}': {e}", below.display())))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.join(SUMMARY).is_file())
        .collect();
    found.sort();
    match found.len() {
        1 => Ok(found.pop().expect("one")),
        0 => Err(ExportOpenError(format!(
            "no export in '{}': it holds no {SUMMARY}, nor AWSDynamoDB/<export id>/{SUMMARY}; give the export's folder",
            path.display()
        ))),
        _ => Err(ExportOpenError(format!(
            "'{}' holds {} exports ({}); give one of their folders",
            path.display(),
            found.len(),
            found
                .iter()
                .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}
