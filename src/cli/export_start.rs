//! `export-start TABLE --s3-bucket B …`: prints the aws-cli command of an S3 export and its
//! estimated cost; only with `--yes` does it start the export (a billed call), then follows
//! DescribeExport to the end and prints the command that reads it.

use std::io::Write as _;
use std::time::Duration;

use clap::Args;

use super::args::GlobalArgs;
use super::settings::Settings;
use super::{ranges, CliError};
use crate::aws::export_start::{start_export, ExportCallError, ExportProgress};
use crate::aws::Engine;
use crate::model::exports::export_start::{
    check_bucket, check_bucket_owner, cost_lines, export_folder, pitr_off_message, read_command,
    window, ExportRequest,
};
use crate::model::exports::table_export::ExportFormat;
use crate::model::text::sanitize::sanitize;
use crate::model::text::wording::{bytes, thousands};

#[derive(Debug, Clone, Args)]
pub struct ExportStartArgs {
    /// The table to export (its point-in-time recovery must be on).
    #[arg(value_parser = ranges::table_name)]
    pub table: String,
    /// The bucket DynamoDB writes the export to (its name, not an s3:// URL).
    #[arg(long, value_name = "BUCKET")]
    pub s3_bucket: String,
    /// The key prefix in the bucket; the export goes below PREFIX/AWSDynamoDB/<export id>/.
    #[arg(long, value_name = "PREFIX")]
    pub s3_prefix: Option<String>,
    /// The bucket owner's account id, when the bucket is another account's.
    #[arg(long, value_name = "ACCOUNT")]
    pub s3_bucket_owner: Option<String>,
    /// The data files' format.
    #[arg(
        long,
        value_enum,
        default_value = "DYNAMODB_JSON",
        help_heading = "Export"
    )]
    pub format: FormatArg,
    /// Export the changes of a window (--from, --to: 15 minutes to 24 hours) instead of the
    /// whole table.
    #[arg(long, help_heading = "Export")]
    pub incremental: bool,
    /// With --incremental: the window's start, RFC 3339 (2026-01-01T12:00:00Z) or epoch seconds.
    #[arg(long, value_name = "TIME", help_heading = "Export")]
    pub from: Option<String>,
    /// With --incremental: the window's end.
    #[arg(long, value_name = "TIME", help_heading = "Export")]
    pub to: Option<String>,
    /// Start the export (billed); without it nothing is sent but DescribeTable.
    #[arg(long, help_heading = "Sending")]
    pub yes: bool,
    /// With --yes: print the export's ARN and stop, instead of following it to the end.
    #[arg(long, help_heading = "Sending")]
    pub no_wait: bool,
}

/// Milliseconds between DescribeExport calls: exports take minutes, so 10 s by default. Tests
/// shorten it through the environment rather than a flag, which completions would offer.
const POLL_ENV: &str = "DYNOSCOPE_EXPORT_POLL_MS";

fn poll_interval() -> Result<Duration, CliError> {
    match std::env::var(POLL_ENV) {
        Err(_) => Ok(Duration::from_secs(10)),
        Ok(text) => text.parse().map(Duration::from_millis).map_err(|_| {
            CliError::bad_input(format!(
                "{POLL_ENV} '{text}' is not a number of milliseconds; unset it or pass one such as 500"
            ))
        }),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// One `{"Item":{…}}` line per item.
    #[value(name = "DYNAMODB_JSON")]
    DynamodbJson,
    /// Amazon Ion text.
    #[value(name = "ION")]
    Ion,
}

pub async fn run(global: &GlobalArgs, args: ExportStartArgs) -> Result<(), CliError> {
    // Everything typed is checked before anything is sent.
    let window = window(args.incremental, args.from.as_deref(), args.to.as_deref())
        .map_err(|e| CliError::bad_input(e.to_string()))?;
    let interval = poll_interval()?;
    check_bucket(&args.s3_bucket).map_err(|e| CliError::bad_input(e.to_string()))?;
    if let Some(owner) = &args.s3_bucket_owner {
        check_bucket_owner(owner).map_err(|e| CliError::bad_input(e.to_string()))?;
    }
    let price = Settings::load(global)?.config.price_per_gb_export;
    let conn = super::connect(global).await?;
    let engine = Engine::new(&conn);
    let table = engine.exported_table(&args.table).await?;
    let request = ExportRequest {
        table_arn: table.arn,
        bucket: args.s3_bucket.clone(),
        prefix: args.s3_prefix.clone(),
        bucket_owner: args.s3_bucket_owner.clone(),
        format: match args.format {
            FormatArg::DynamodbJson => ExportFormat::DynamoJson,
            FormatArg::Ion => ExportFormat::Ion,
        },
        window,
    };
    let mut text = cost_lines(table.size_bytes, price, window.is_some()).join("\n");
    text.push('\n');
    text.push_str(&sanitize(&request.aws_cli()));
    text.push('\n');
    print_out(&text);
    if !args.yes {
        say!("not sent: an export is billed; add --yes to start it (or run the aws command above)");
        return Ok(());
    }
    let called = |e| call_error(e, &args.table);
    let started = start_export(&conn, &request).await.map_err(called)?;
    print_out(&format!("started {}\n", sanitize(&started.arn)));
    if args.no_wait {
        say!(
            "not following it (--no-wait); see its status with: aws dynamodb describe-export --export-arn {}",
            crate::model::text::shell::shell_word(&started.arn)
        );
        return Ok(());
    }
    let began = tokio::time::Instant::now();
    let mut last = started;
    loop {
        match last.status.as_str() {
            "COMPLETED" => break,
            "FAILED" => return Err(failed(&last)),
            _ => {}
        }
        tokio::time::sleep(interval).await;
        last = engine.describe_export(&last.arn).await.map_err(called)?;
        say!(
            "export {}: {}, {} elapsed",
            id_of(&last.arn),
            last.status,
            elapsed(began.elapsed())
        );
    }
    print_out(&finished(&last, &request));
    Ok(())
}

fn print_out(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

fn id_of(arn: &str) -> &str {
    crate::model::exports::table_export::export_id_from_arn(arn)
}

fn call_error(e: ExportCallError, table: &str) -> CliError {
    match e {
        ExportCallError::PitrOff => CliError::service(pitr_off_message(table)),
        ExportCallError::Denied(d) => CliError::service(d.line().replacen("note: ", "", 1)),
        ExportCallError::Failed(e) => e.into(),
    }
}

fn failed(p: &ExportProgress) -> CliError {
    CliError::service(format!(
        "export '{}' FAILED: {}: {}",
        sanitize(&p.arn),
        sanitize(p.failure_code.as_deref().unwrap_or("no FailureCode")),
        sanitize(p.failure_message.as_deref().unwrap_or("no FailureMessage"))
    ))
}

/// `7s`, `3m05s`, `1h02m`: exports take minutes to hours.
fn elapsed(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s / 60 % 60),
    }
}

/// The finished export: where it is, what it holds and what it was billed, and how to read it.
fn finished(p: &ExportProgress, request: &ExportRequest) -> String {
    let bucket = p.bucket.as_deref().unwrap_or(&request.bucket);
    let prefix = p.prefix.as_deref().or(request.prefix.as_deref());
    let folder = sanitize(&export_folder(bucket, prefix, &p.arn)).into_owned();
    let count = p
        .item_count
        .map_or("unknown".into(), |n| thousands(n.max(0) as u64));
    let billed = p
        .billed_size_bytes
        .map_or("unknown".into(), |n| bytes(n.max(0) as u64));
    format!(
        "completed {}\nlocation {folder}\nitems {count} · billed size {billed}\nnext: {}\n",
        sanitize(&p.arn),
        read_command(&folder)
    )
}

#[cfg(test)]
mod tests {
    use super::elapsed;
    use std::time::Duration;

    #[test]
    fn elapsed_reads_at_every_scale() {
        for (secs, want) in [(0, "0s"), (59, "59s"), (65, "1m05s"), (3720, "1h02m")] {
            assert_eq!(elapsed(Duration::from_secs(secs)), want);
        }
    }
}
