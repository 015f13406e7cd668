//! A bulk run's journal on disk: created private and new (never over another run's), each
//! line synced before the next write is sent, so a kill loses nothing the run did.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::model::design::schema::TableInfo;
use crate::model::write::bulk::journal::{self, Header};
use crate::model::write::bulk::BulkItem;

/// Why the journal could not be used. `Open`: nothing was written yet. `Write`: the run must
/// stop where it is (a resumed run continues it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JournalError {
    Open(String),
    Write(String),
}

impl std::fmt::Display for JournalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JournalError::Open(m) | JournalError::Write(m) => f.write_str(m),
        }
    }
}

/// Where a run's journal goes when none is named: `DIR/journals/SECONDS-TABLE-PID.jsonl`, the
/// table's name kept to characters safe in a file name. The command line and the explorer's
/// bulk dialog both write there, so `--resume` and `undo` find either's.
pub fn default_path(dir: &Path, table: &str) -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let safe: String = table
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join("journals")
        .join(format!("{secs}-{safe}-{}.jsonl", std::process::id()))
}

/// The journal file, appended to and synced line by line.
pub struct JournalFile {
    pub path: PathBuf,
    file: File,
}

impl JournalFile {
    pub fn create(path: PathBuf) -> Result<JournalFile, JournalError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::local_files::create_private_dir_all(dir).map_err(|e| {
                JournalError::Open(format!(
                    "cannot create the journal's directory '{}': {e}",
                    dir.display()
                ))
            })?;
        }
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let file = options.open(&path).map_err(|e| {
            JournalError::Open(format!(
                "cannot create the journal '{}': {e}; nothing was written (name a new file with --journal)",
                path.display()
            ))
        })?;
        Ok(JournalFile { path, file })
    }

    /// A new journal holding the run's header and every item's images, synced: the run may
    /// write once this returns.
    pub fn start(
        path: PathBuf,
        header: &Header,
        info: &TableInfo,
        items: &[BulkItem],
    ) -> Result<JournalFile, JournalError> {
        let mut file = JournalFile::create(path)?;
        file.write(&journal::header_line(header))?;
        let mut text = String::new();
        for (n, item) in items.iter().enumerate() {
            text.push_str(&journal::item_line(n, &item.key(info), item));
            if text.len() > 1 << 20 {
                file.write(&std::mem::take(&mut text))?;
            }
        }
        text.push_str(&journal::planned_line(items.len()));
        file.write(&text)?;
        Ok(file)
    }

    pub fn append_to(path: &Path) -> Result<JournalFile, JournalError> {
        let file = crate::logging::open_private_append(path).map_err(|e| {
            JournalError::Open(format!(
                "cannot append to the journal '{}': {e}",
                path.display()
            ))
        })?;
        Ok(JournalFile {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Cuts the file back to its first `len` bytes, synced: a torn last line (a crash cut it
    /// short) goes before anything is appended, or the next line would be glued to it and no
    /// reader could take the journal again. `expected` is the length the journal was read at:
    /// a file that changed since is left alone.
    pub fn cut_to(&mut self, len: u64, expected: u64) -> Result<(), JournalError> {
        let cut = |e: std::io::Error| {
            JournalError::Open(format!(
                "cannot cut the torn last line off the journal '{}': {e}; nothing was written",
                self.path.display()
            ))
        };
        let now = self.file.metadata().map_err(cut)?.len();
        if now != expected {
            return Err(cut(std::io::Error::other(format!(
                "it changed while it was read ({expected} bytes, now {now})"
            ))));
        }
        self.file.set_len(len).map_err(cut)?;
        self.file.sync_all().map_err(cut)
    }

    /// Appends `text` and syncs it: once this returns, a kill cannot lose it.
    pub fn write(&mut self, text: &str) -> Result<(), JournalError> {
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| {
                JournalError::Write(format!(
                    "cannot write the journal '{}': {e}; the run stops here (--resume continues it)",
                    self.path.display()
                ))
            })
    }
}
