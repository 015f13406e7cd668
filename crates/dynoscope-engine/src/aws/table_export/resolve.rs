//! The one way an export's file is found and opened, on disk or in S3: a data file's key (from
//! `manifest-files.json`, untrusted) or a manifest's name resolves inside the export's own
//! folder or prefix, or is refused naming how it leaves it; a manifest is read up to
//! [`MANIFEST_MAX_BYTES`]. Every reader of an export's files goes through here.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::{ExportLocation, ExportOpenError, OpenedExport};
use crate::model::exports::table_export::{confined, DataFile, FileProblem, MANIFEST_MAX_BYTES};

/// Where a confined key is.
pub(super) enum Resolved {
    /// The file's real path (symlinks followed), inside the export's real folder.
    Disk(PathBuf),
    /// The object's whole key, below the export's prefix.
    S3(String),
}

impl ExportLocation {
    /// `relative` (below the export's folder) as the file it names, if it stays inside.
    pub(super) fn resolve(&self, relative: &str) -> Result<Resolved, FileProblem> {
        let relative = confined(relative).map_err(FileProblem::Outside)?;
        match self {
            ExportLocation::Disk(folder) => on_disk(folder, relative).map(Resolved::Disk),
            ExportLocation::S3 { export, .. } => export
                .key_of(relative)
                .map(Resolved::S3)
                .map_err(FileProblem::Outside),
        }
    }
}

/// The real path of `folder/relative`: symlinks are followed, and where they lead must still
/// be inside the folder's own real path, and a regular file (a FIFO or a device such as
/// `/dev/zero` never ends).
fn on_disk(folder: &Path, relative: &str) -> Result<PathBuf, FileProblem> {
    let real = match std::fs::canonicalize(folder.join(relative)) {
        Ok(real) => real,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(FileProblem::Missing),
        Err(e) => return Err(FileProblem::Unreadable(e.to_string())),
    };
    let home = std::fs::canonicalize(folder).map_err(|e| FileProblem::Unreadable(e.to_string()))?;
    if !real.starts_with(&home) {
        return Err(FileProblem::Outside(format!(
            "it resolves to '{}', outside '{}'",
            real.display(),
            home.display()
        )));
    }
    match std::fs::metadata(&real) {
        Ok(meta) if meta.is_file() => Ok(real),
        Ok(_) => Err(FileProblem::Unreadable(
            "it is not a regular file (a folder, FIFO or device)".into(),
        )),
        Err(e) => Err(FileProblem::Unreadable(e.to_string())),
    }
}

impl OpenedExport {
    /// Data file `file`'s bytes (gzip), streamed. On S3 this blocks the calling thread: call
    /// it from a blocking thread (`spawn_blocking`), never from the runtime's.
    pub fn open_data(&self, file: &DataFile) -> Result<Box<dyn Read + Send>, FileProblem> {
        let relative = file.relative_key(&self.summary.export_id);
        match (self.location.resolve(relative)?, &self.location) {
            (Resolved::Disk(path), _) => match std::fs::File::open(path) {
                Ok(f) => Ok(Box::new(f)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(FileProblem::Missing),
                Err(e) => Err(FileProblem::Unreadable(e.to_string())),
            },
            (Resolved::S3(key), ExportLocation::S3 { export, runtime }) => {
                export.open_blocking(&key, runtime)
            }
            (Resolved::S3(_), ExportLocation::Disk(_)) => unreachable!("a disk key is a path"),
        }
    }
}

/// The manifest `name` in the export's `folder` on disk, as text, read up to
/// [`MANIFEST_MAX_BYTES`].
pub(super) fn read_disk_manifest(folder: &Path, name: &str) -> Result<String, ExportOpenError> {
    let shown = folder.join(name);
    let cannot = |why: String| ExportOpenError(format!("cannot read '{}': {why}", shown.display()));
    let path = match on_disk(folder, name) {
        Ok(path) => path,
        Err(FileProblem::Missing) => return Err(cannot("it does not exist".into())),
        Err(FileProblem::Outside(why)) => {
            return Err(cannot(format!("it is outside the export's folder ({why})")))
        }
        Err(FileProblem::Unreadable(why)) => return Err(cannot(why)),
        Err(other) => return Err(cannot(format!("{other:?}"))),
    };
    let file = std::fs::File::open(&path).map_err(|e| cannot(e.to_string()))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut bytes = Vec::new();
    if size > MANIFEST_MAX_BYTES {
        return Err(cannot(too_large(size)));
    }
    // The length said may be stale (a file still being written): the read is capped too.
    file.take(MANIFEST_MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot(e.to_string()))?;
    if bytes.len() as u64 > MANIFEST_MAX_BYTES {
        return Err(cannot(too_large(bytes.len() as u64)));
    }
    String::from_utf8(bytes).map_err(|_| cannot("it is not UTF-8 text".into()))
}

/// Why a manifest of `size` bytes (or more) is not read.
pub(super) fn too_large(size: u64) -> String {
    format!(
        "it is {} bytes, over the {} MiB a manifest is read up to (one short line per data file); it is not an export's manifest",
        crate::model::text::wording::thousands(size),
        MANIFEST_MAX_BYTES / (1024 * 1024)
    )
}
