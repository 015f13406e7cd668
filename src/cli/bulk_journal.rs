//! A bulk run's journal read back for `--resume` and `undo`, as untrusted input: a regular
//! file of bounded size, every whole line good (a torn last line set apart), and every item's
//! key and after-image what the statement makes of its before-image on the table it names
//! (`model::write::bulk::journal_check`). Anything else is one line naming the journal, the
//! line and what is wrong, exit 2, before anything is written.

use std::io::Read;
use std::path::Path;

use super::bulk_cmd::bad;
use super::CliError;
use crate::aws::Engine;
use crate::model::design::schema::TableInfo;
use crate::model::write::bulk::journal_check::{check_header, check_items};
use crate::model::write::bulk::journal_read::{self, ReadBack, MAX_JOURNAL_BYTES};

/// The journal's bytes: a regular file (a FIFO does not block the open), at most
/// [`MAX_JOURNAL_BYTES`].
fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    if meta.len() > MAX_JOURNAL_BYTES {
        return Err(std::io::Error::other(format!(
            "{} bytes, more than the {MAX_JOURNAL_BYTES} a journal may hold",
            meta.len()
        )));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_JOURNAL_BYTES + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads the journal at `path`; its images are not checked yet ([`check_journal`]).
pub(super) fn read_journal(path: &Path) -> Result<ReadBack, CliError> {
    let bytes = read_bytes(path)
        .map_err(|e| bad(format!("cannot read the journal '{}': {e}", path.display())))?;
    journal_read::read(&bytes).map_err(|e| bad(format!("'{}': {e}", path.display())))
}

/// Checks the journal against the table its statement names and returns that table: the
/// header's table is the statement's, every key the table's, every after-image what the
/// statement makes of its before-image (with the table's `version` attribute incremented).
pub(super) async fn check_journal(
    engine: &Engine,
    read: &ReadBack,
    path: &Path,
    version: Option<&str>,
) -> Result<TableInfo, CliError> {
    let refuse = |e: String| {
        bad(format!(
            "'{}': {e}; the journal was edited or damaged, so nothing was written",
            path.display()
        ))
    };
    let rule = check_header(&read.journal.header).map_err(refuse)?;
    let info = engine.describe_table(&read.journal.header.table).await?;
    check_items(&read.journal, &rule, &info, version).map_err(refuse)?;
    Ok(info)
}
