//! `export-start`: the ExportTableToPointInTime request, checked before anything is sent, as
//! the aws-cli command that sends the same, with its estimated cost; and where the finished
//! export is read from.

mod cost;
mod time;

#[cfg(test)]
mod tests;

pub use cost::{cost_lines, DEFAULT_PRICE_PER_GB_EXPORT};
pub use time::parse_instant;

use crate::exports::table_export::export_id_from_arn;
use crate::exports::table_export::ExportFormat;
use crate::stream::change_json::rfc3339;
use crate::text::shell::shell_word;

/// AWS's bounds on an incremental export's window.
pub const MIN_WINDOW_MS: i64 = 15 * 60 * 1000;
pub const MAX_WINDOW_MS: i64 = 24 * 3600 * 1000;

const TIME_EXAMPLES: &str =
    "write RFC 3339 such as 2026-01-01T12:00:00Z or 2026-01-01T14:00:00+02:00, or epoch seconds such as 1767268800";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportStartError {
    #[error("{flag} '{text}' needs --incremental (a full export is of the table as it is now); add --incremental, or drop {flag}")]
    WindowWithoutIncremental { flag: &'static str, text: String },
    #[error("--incremental needs {flag}: the window of changes to export; add {flag} T ({TIME_EXAMPLES})")]
    MissingWindow { flag: &'static str },
    #[error("{flag} '{text}' is not a time ({why}); {TIME_EXAMPLES}")]
    BadTime {
        flag: &'static str,
        text: String,
        why: &'static str,
    },
    #[error("--to '{to}' is not after --from '{from}'; swap them")]
    ToNotAfterFrom { from: String, to: String },
    #[error("the window from --from '{from}' to --to '{to}' is {minutes} minutes long and an incremental export covers {bound}; {fix}")]
    WindowLength {
        from: String,
        to: String,
        minutes: i64,
        bound: &'static str,
        fix: &'static str,
    },
    #[error("--s3-bucket '{0}' is not an S3 bucket name: 3 to 63 lowercase letters, digits, '.' and '-', starting and ending with a letter or digit; pass the bucket's name alone (the path inside it goes in --s3-prefix)")]
    BadBucket(String),
    #[error("--s3-bucket-owner '{0}' is not an AWS account id; pass the bucket owner's 12 digits")]
    BadBucketOwner(String),
}

/// An incremental export's window, in milliseconds since the epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportWindow {
    pub from_ms: i64,
    pub to_ms: i64,
}

/// `--incremental`, `--from` and `--to` as typed, to the window (or none: a full export).
pub fn window(
    incremental: bool,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<Option<ExportWindow>, ExportStartError> {
    if !incremental {
        for (flag, text) in [("--from", from), ("--to", to)] {
            if let Some(text) = text {
                let text = text.to_string();
                return Err(ExportStartError::WindowWithoutIncremental { flag, text });
            }
        }
        return Ok(None);
    }
    let from = from.ok_or(ExportStartError::MissingWindow { flag: "--from" })?;
    let to = to.ok_or(ExportStartError::MissingWindow { flag: "--to" })?;
    let instant = |flag, text: &str| {
        parse_instant(text).map_err(|why| ExportStartError::BadTime {
            flag,
            text: text.to_string(),
            why,
        })
    };
    let window = ExportWindow {
        from_ms: instant("--from", from)?,
        to_ms: instant("--to", to)?,
    };
    let span = window.to_ms - window.from_ms;
    let length = |bound, fix| ExportStartError::WindowLength {
        from: from.to_string(),
        to: to.to_string(),
        minutes: span / 60_000,
        bound,
        fix,
    };
    if span <= 0 {
        Err(ExportStartError::ToNotAfterFrom {
            from: from.to_string(),
            to: to.to_string(),
        })
    } else if span < MIN_WINDOW_MS {
        Err(length("at least 15 minutes", "widen it"))
    } else if span > MAX_WINDOW_MS {
        Err(length(
            "at most 24 hours",
            "start one export for each day of it",
        ))
    } else {
        Ok(Some(window))
    }
}

/// S3's naming rules for general purpose buckets (the ones an export can write to).
pub fn check_bucket(bucket: &str) -> Result<(), ExportStartError> {
    let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    let fits = (3..=63).contains(&bucket.len())
        && bucket
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-')
        && edge(bucket.chars().next())
        && edge(bucket.chars().last())
        && !bucket.contains("..");
    fits.then_some(())
        .ok_or_else(|| ExportStartError::BadBucket(bucket.to_string()))
}

pub fn check_bucket_owner(account: &str) -> Result<(), ExportStartError> {
    (account.len() == 12 && account.bytes().all(|b| b.is_ascii_digit()))
        .then_some(())
        .ok_or_else(|| ExportStartError::BadBucketOwner(account.to_string()))
}

/// Everything ExportTableToPointInTime is sent with, but the client token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportRequest {
    pub table_arn: String,
    pub bucket: String,
    pub prefix: Option<String>,
    pub bucket_owner: Option<String>,
    pub format: ExportFormat,
    pub window: Option<ExportWindow>,
}

/// Incremental exports carry both images of each change: what `tail --export` and the live
/// pane read.
pub const VIEW_TYPE: &str = "NEW_AND_OLD_IMAGES";

impl ExportRequest {
    /// The same request as an aws-cli command line, ready to paste.
    pub fn aws_cli(&self) -> String {
        let mut cmd = format!(
            "aws dynamodb export-table-to-point-in-time --table-arn {} --s3-bucket {}",
            shell_word(&self.table_arn),
            shell_word(&self.bucket)
        );
        if let Some(owner) = &self.bucket_owner {
            cmd.push_str(&format!(" --s3-bucket-owner {}", shell_word(owner)));
        }
        if let Some(prefix) = &self.prefix {
            cmd.push_str(&format!(" --s3-prefix {}", shell_word(prefix)));
        }
        cmd.push_str(&format!(" --export-format {}", self.format.as_str()));
        if let Some(w) = self.window {
            let spec = format!(
                "ExportFromTime={},ExportToTime={},ExportViewType={VIEW_TYPE}",
                rfc3339(w.from_ms),
                rfc3339(w.to_ms)
            );
            cmd.push_str(&format!(
                " --export-type INCREMENTAL_EXPORT --incremental-export-specification {}",
                shell_word(&spec)
            ));
        }
        cmd
    }
}

/// The folder DynamoDB writes the export `export_arn` to: `s3://B/P/AWSDynamoDB/<id>/`.
pub fn export_folder(bucket: &str, prefix: Option<&str>, export_arn: &str) -> String {
    let prefix = prefix
        .map(|p| p.trim_matches('/'))
        .filter(|p| !p.is_empty());
    let id = export_id_from_arn(export_arn);
    match prefix {
        Some(p) => format!("s3://{bucket}/{p}/AWSDynamoDB/{id}/"),
        None => format!("s3://{bucket}/AWSDynamoDB/{id}/"),
    }
}

/// The command that reads the finished export.
pub fn read_command(folder: &str) -> String {
    format!("dynoscope scan --export {}", shell_word(folder))
}

/// An export reads the table's point-in-time recovery backups: without them it cannot start.
pub fn pitr_off_message(table: &str) -> String {
    format!(
        "table '{table}' does not have point-in-time recovery on, and an export is read from it; turn it on with: aws dynamodb update-continuous-backups --table-name {} --point-in-time-recovery-specification PointInTimeRecoveryEnabled=true",
        shell_word(table)
    )
}
