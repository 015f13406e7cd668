//! `tail --export PATH`: an incremental export's changes, in write-time order, in `tail`'s
//! own line format, as [`read_changes_in_order`] reads them (every change first, then sorted).

use std::io::{self, Write};

use super::args::GlobalArgs;
use super::tail::{ChangeOutput, TailArgs};
use super::CliError;
use crate::aws::table_export::read_changes_in_order;
use crate::aws::Backend;
use crate::model::exports::table_export::ExportType;
use crate::model::formats::json::JsonSpelling;
use crate::model::stream::attribution::WriteTargets;
use crate::model::stream::change_json::write_change;

pub(super) async fn run(global: &GlobalArgs, args: TailArgs) -> Result<(), CliError> {
    for (flag, given) in [
        ("--since", args.since.is_some()),
        ("--trim-horizon", args.trim_horizon),
        ("--until", args.until.is_some()),
        ("--page-size", args.page_size.is_some()),
    ] {
        if given {
            return Err(CliError::bad_input(format!(
                "{flag} has no meaning with --export: an incremental export is read whole, its window fixed when it was made; drop it"
            )));
        }
    }
    if args.output == ChangeOutput::Table {
        return Err(CliError::bad_input(
            "--output table is not offered with --export yet; use jsonl or ddb-jsonl",
        ));
    }
    if args.count == Some(0) {
        return Err(CliError::bad_input(
            "--count '0' writes nothing; give 1 or more",
        ));
    }
    let backend = super::export_source::open(global, &args.export, args.table.as_deref()).await?;
    let export = backend.export();
    if export.summary.export_type != ExportType::Incremental {
        return Err(CliError::bad_input(format!(
            "export '{}' is a full export: it holds items, not changes; read it with scan --export",
            export.summary.export_id
        )));
    }
    let info = backend.describe_table("").await?;
    let targets = WriteTargets::from_table(&info);
    let reading = export.clone();
    let (changes, report) =
        tokio::task::spawn_blocking(move || read_changes_in_order(&reading, || true))
            .await
            .map_err(|e| CliError::service(format!("reading the export failed: {e}")))?;
    let spelling = match args.output {
        ChangeOutput::DdbJsonl => JsonSpelling::Dynamo,
        _ => JsonSpelling::Plain,
    };
    let mut out = String::new();
    let mut written = 0u64;
    for change in &changes {
        if args.count.is_some_and(|n| written >= n) {
            break;
        }
        let followed = args
            .follow_key
            .as_deref()
            .is_none_or(|key| targets.table_key(change).as_deref() == Some(key));
        if followed {
            write_change(&mut out, change, spelling);
            out.push('\n');
            written += 1;
        }
    }
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            return Err(CliError::service(format!("cannot write output: {e}")))
        }
        _ => {}
    }
    for file in report.troubled() {
        if let Some(line) = file.message() {
            super::say::say(&line);
        }
    }
    match report.shortfall() {
        Some(line) => Err(CliError::service(line)),
        None => Ok(()),
    }
}
