//! Writes, one feature in one folder (only with `--allow-writes`): one item's edit, new item,
//! delete and undo (`flow`, the state; `keys`, the keys that start them; `send`, the preview and
//! the conditional write; `request`, the request lines the preview shows), and bulk changes to
//! many items (`bulk_dialog` and `bulk_progress`, the state; `bulk_keys`, the dialog's keys;
//! `bulk_run`, the run's news and its undo). `ui::write` and `ui::bulk` draw them.

mod bulk_dialog;
pub(crate) mod bulk_keys;
mod bulk_progress;
pub(crate) mod bulk_run;
mod flow;
pub(crate) mod keys;
mod request;
pub(crate) mod send;

pub use bulk_dialog::{
    explorer_statement, resume_command, BulkChoice, BulkDialog, BulkField, BulkStage,
};
pub use bulk_progress::{BulkEnded, BulkProgress, BulkRecord, BulkRun};
pub use flow::{UndoEntry, WriteFlow, WriteStage};

#[cfg(test)]
pub(crate) mod bulk_tests;
#[cfg(test)]
mod keys_tests;
