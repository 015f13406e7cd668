//! Reading DynamoDB's S3 table exports from disk: finding the export's folder, its manifests,
//! and its gzip data files, decompressed and parsed in parallel and delivered as a Scan's
//! pages through the same bounded channel ([`ExportBackend`]). The formats themselves are
//! [`crate::model::table_export`]'s.

mod backend;
mod reader;

use std::path::{Path, PathBuf};

pub use backend::ExportBackend;
pub use reader::{read_data_file, Flow};

use crate::model::table_export::{DataFile, ManifestSummary};

/// An export whose manifests were read.
#[derive(Debug, Clone)]
pub struct OpenedExport {
    pub summary: ManifestSummary,
    pub files: Vec<DataFile>,
    /// The folder holding `manifest-summary.json`.
    pub folder: PathBuf,
}

impl OpenedExport {
    /// Where data file `file` is on disk.
    pub fn path_of(&self, file: &DataFile) -> PathBuf {
        self.folder.join(file.relative_key(&self.summary.export_id))
    }
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
    let read = |name: &str| {
        std::fs::read_to_string(folder.join(name)).map_err(|e| {
            ExportOpenError(format!(
                "cannot read '{}': {e}",
                folder.join(name).display()
            ))
        })
    };
    let summary = ManifestSummary::parse(&read(SUMMARY)?)
        .map_err(|e| ExportOpenError(format!("{} ('{}')", e, folder.display())))?;
    let files = DataFile::parse_all(&read(FILES)?)
        .map_err(|e| ExportOpenError(format!("{} ('{}')", e, folder.display())))?;
    Ok(OpenedExport {
        summary,
        files,
        folder,
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
