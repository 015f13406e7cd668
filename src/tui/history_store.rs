//! The query history on disk: `query-history.json` in dynoscope's state directory, read once
//! at start-up and written after every query run from the builder, by one writer thread so
//! writes land in the order they were asked for.
//!
//! The file is private (0600), written atomically (a new private file renamed over the old, so
//! a crash leaves the old or the new, never half of one), and never through a symlink: a link
//! planted at its path is neither read nor replaced. Each write reads the file again and
//! replaces only its own table's entries, so two explorers open at once lose little.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;

use crate::app::history_file::{decode, encode, history_key, HistoryBook};
use crate::app::state::HistoryEntry;
use crate::local_files::{read_untrusted, replace_private, Links, ReadError};

pub const HISTORY_FILE: &str = "query-history.json";

/// `query-history.json` in the state directory.
pub fn history_path(state_dir: &Path) -> PathBuf {
    state_dir.join(HISTORY_FILE)
}

/// The history file is read whole at start-up: at most this much of it.
pub const MAX_HISTORY_BYTES: u64 = 16 * 1024 * 1024;

/// The history in the file at `path`; none when it is missing, unreadable, not a regular
/// file, a symlink, or larger than [`MAX_HISTORY_BYTES`] (logged: the next save replaces it).
pub fn load(path: &Path) -> HistoryBook {
    match read_untrusted(path, MAX_HISTORY_BYTES, Links::Refuse) {
        Ok(text) => decode(&text),
        Err(ReadError::Missing) => HistoryBook::default(),
        Err(e) => {
            tracing::warn!(path = %path.display(), reason = %e.reason(), "query history not read");
            HistoryBook::default()
        }
    }
}

/// Replaces `table`'s history at `endpoint` in the file at `path`.
pub fn save(path: &Path, endpoint: &str, table: &str, entries: &[HistoryEntry]) -> io::Result<()> {
    // Refused before the file is read again: a link planted at the path is not followed.
    if std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(io::Error::other(
            "the history path is a symlink or not a regular file; not writing through it",
        ));
    }
    let mut book = load(path);
    book.insert(history_key(endpoint, table), entries.to_vec());
    replace_private(path, encode(&book).as_bytes())
}

struct Job {
    endpoint: String,
    table: String,
    entries: Vec<HistoryEntry>,
}

/// Writes history in the background, one write after another.
pub struct HistoryWriter {
    tx: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
}

impl HistoryWriter {
    pub fn start(path: PathBuf) -> HistoryWriter {
        let (tx, rx) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("dynoscope-history".into())
            .spawn(move || {
                for job in rx {
                    if let Err(e) = save(&path, &job.endpoint, &job.table, &job.entries) {
                        tracing::warn!(error = %e, path = %path.display(), "query history not saved");
                    }
                }
            })
            .ok();
        HistoryWriter {
            tx: Some(tx),
            thread,
        }
    }

    pub fn save(&self, endpoint: String, table: String, entries: Vec<HistoryEntry>) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(Job {
                endpoint,
                table,
                entries,
            });
        }
    }

    /// Waits for the writes asked for so far.
    pub fn finish(mut self) {
        self.tx.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
#[path = "history_store_tests.rs"]
mod tests;
