//! The audit file: one JSON line per item written, with the time, endpoint, table, key,
//! operation, the image before and after, and how it ended. It sits in the state directory
//! (`$XDG_STATE_HOME/dynoscope/audit.jsonl`), is created with mode 0600 (an existing one is
//! set to 0600), and is never written through a symlink, like the log.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::logging::open_private_append;
use crate::model::formats::json::{append_dynamo_json, append_json_string};
use crate::model::item::value::Item;
use crate::model::write::WritePlan;

#[derive(Debug, Clone)]
pub struct AuditLog {
    path: PathBuf,
}

impl AuditLog {
    pub fn new(path: PathBuf) -> Self {
        AuditLog { path }
    }

    /// `audit.jsonl` in `state_dir`.
    pub fn in_dir(state_dir: &Path) -> Self {
        AuditLog::new(state_dir.join("audit.jsonl"))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Opens the file for appending: private, never through a link, only a regular file.
    fn open(&self) -> io::Result<File> {
        open_private_append(&self.path)
    }

    /// Checked before a write is sent, so a write never happens that cannot be audited.
    pub fn check(&self) -> Result<(), String> {
        self.open().map(drop).map_err(|e| self.refusal(&e))
    }

    fn refusal(&self, e: &io::Error) -> String {
        format!(
            "cannot write the audit file '{}': {e}; nothing was sent",
            self.path.display()
        )
    }

    /// Appends one line per op of `plan`: `outcome` is `written`, `conflict` or `failed`.
    pub fn record(
        &self,
        endpoint: &str,
        plan: &WritePlan,
        operation: &str,
        outcome: &str,
    ) -> io::Result<()> {
        let time = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let mut text = String::new();
        for op in &plan.ops {
            let image = |out: &mut String, item: Option<&Item>| match item {
                Some(item) => append_dynamo_json(out, item),
                None => out.push_str("null"),
            };
            text.push_str(&format!("{{\"time_ms\":{time},\"endpoint\":"));
            append_json_string(&mut text, endpoint);
            text.push_str(",\"table\":");
            append_json_string(&mut text, &plan.table);
            text.push_str(",\"operation\":");
            append_json_string(&mut text, operation);
            text.push_str(",\"outcome\":");
            append_json_string(&mut text, outcome);
            text.push_str(",\"key\":");
            append_dynamo_json(&mut text, &op.key);
            text.push_str(",\"old\":");
            image(&mut text, op.before.as_ref());
            text.push_str(",\"new\":");
            image(&mut text, op.after.as_ref());
            text.push_str("}\n");
        }
        self.open()?.write_all(text.as_bytes())
    }
}
