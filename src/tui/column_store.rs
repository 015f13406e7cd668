//! The column choices on disk (`C`): `columns.json` in dynoscope's state folder, read once
//! when the explorer starts and written after each choice, off the terminal loop: the read on
//! a blocking task, the writes by one writer thread, in the order they were made.
//!
//! The file is untrusted (`local_files`): not followed through a symlink, only a regular
//! file, at most [`MAX_COLUMNS_BYTES`] of it, its JSON checked whole
//! (`app::column_choice::file`). One that cannot be read is one warning line in the status
//! bar and automatic columns, never a refusal to start. Each write reads the file again and
//! replaces only its own scope's choice, atomically (`local_files::replace_private`: private,
//! a temporary file renamed over the old one), so two explorers open at once lose little; a
//! file that could not be read is replaced by the choices made since.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc as std_mpsc;
use std::thread::JoinHandle;

use tokio::sync::mpsc;

use crate::app::column_choice::file::{decode, encode, MAX_SCOPES};
use crate::app::column_choice::{ColumnChoice, ColumnScope};
use crate::app::msg::{FileMsg, Msg};
use crate::local_files::{read_untrusted, replace_private, Links, ReadError};

pub const COLUMNS_FILE: &str = "columns.json";

/// The file is read whole: at most this much of it (a thousand tables' choices are far less).
pub const MAX_COLUMNS_BYTES: u64 = 4 * 1024 * 1024;

type Book = HashMap<ColumnScope, ColumnChoice>;

/// `columns.json` in the state folder.
pub fn columns_path(state_dir: &Path) -> PathBuf {
    state_dir.join(COLUMNS_FILE)
}

/// The choices in the file at `path` (none when there is no file), or the one line that says
/// why it was not read and what happens instead.
pub fn load(path: &Path) -> Result<Book, String> {
    let text = match read_untrusted(path, MAX_COLUMNS_BYTES, Links::Refuse) {
        Ok(text) => text,
        Err(ReadError::Missing) => return Ok(Book::new()),
        Err(e) => return Err(e.reason()),
    };
    decode(&text)
}

/// [`load`]'s reason as the warning line the status bar shows (and the log keeps).
fn warning(path: &Path, why: &str) -> String {
    // The path last: a narrow status line shortens the middle of a line and keeps its ends.
    format!(
        "column choices not read: {why}; automatic columns until C saves new ones in '{}'",
        path.display()
    )
}

/// Replaces `scope`'s choice in the file at `path` (`None` forgets it).
pub fn save(path: &Path, scope: ColumnScope, choice: Option<ColumnChoice>) -> io::Result<()> {
    // A file that cannot be read now is replaced: the choices in memory are the newer ones.
    let mut book = load(path).unwrap_or_default();
    match choice {
        Some(choice) => {
            book.insert(scope.clone(), choice);
        }
        None => {
            book.remove(&scope);
        }
    }
    // Past the cap, other scopes make room (the first in the file's order), never this one.
    if book.len() > MAX_SCOPES {
        let mut others: Vec<ColumnScope> = book.keys().filter(|s| **s != scope).cloned().collect();
        others.sort();
        for old in others.into_iter().take(book.len() - MAX_SCOPES) {
            book.remove(&old);
        }
    }
    replace_private(path, encode(&book).as_bytes())
}

/// Reads the file on a blocking task and sends its choices (or the warning) as
/// `FileMsg::ColumnsLoaded`; without a file to read (no state folder), no choices.
pub fn start_load(path: Option<PathBuf>, tx: mpsc::UnboundedSender<Msg>) {
    let Some(path) = path else {
        let _ = tx.send(Msg::Files(FileMsg::ColumnsLoaded(Ok(Book::new()))));
        return;
    };
    tokio::task::spawn_blocking(move || {
        let result = load(&path).map_err(|why| {
            tracing::warn!(path = %path.display(), reason = %why, "column choices not read");
            warning(&path, &why)
        });
        let _ = tx.send(Msg::Files(FileMsg::ColumnsLoaded(result)));
    });
}

struct Job {
    scope: ColumnScope,
    choice: Option<ColumnChoice>,
}

/// Writes the choices in the background, one write after another; a write that fails is
/// sent back as `FileMsg::ColumnsNotSaved`.
pub struct ColumnWriter {
    tx: Option<std_mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
}

impl ColumnWriter {
    pub fn start(path: PathBuf, msg_tx: mpsc::UnboundedSender<Msg>) -> ColumnWriter {
        let (tx, rx) = std_mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("dynoscope-columns".into())
            .spawn(move || {
                for job in rx {
                    if let Err(e) = save(&path, job.scope, job.choice) {
                        tracing::warn!(error = %e, path = %path.display(), "column choice not saved");
                        let line = format!(
                            "column choice not saved in '{}': {e}; it holds until dynoscope quits",
                            path.display()
                        );
                        let _ = msg_tx.send(Msg::Files(FileMsg::ColumnsNotSaved(line)));
                    }
                }
            })
            .ok();
        ColumnWriter {
            tx: Some(tx),
            thread,
        }
    }

    pub fn save(&self, scope: ColumnScope, choice: Option<ColumnChoice>) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(Job { scope, choice });
        }
    }
}

impl Drop for ColumnWriter {
    /// The choices asked for are on disk before the explorer exits.
    fn drop(&mut self) {
        self.tx.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
#[path = "column_store_tests.rs"]
mod tests;
