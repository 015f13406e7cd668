//! `model export --export PATH`: the design read from an S3 export's files (on disk or in
//! S3) instead of the table: no read capacity, and no data read sent to DynamoDB (its key
//! schema and indexes from DescribeTable, else `--key`, else inferred, as `scan --export`).
//! The sample is bounded (the first [`EXPORT_SAMPLE`] items of the table, and of each index
//! as the export's items that carry its keys, projected as it projects them) and Ctrl-C stops
//! it as it stops every export read.

use super::drain::{drain, Next};
use super::export_source;
use super::model_export::ModelExportArgs;
use super::{args::GlobalArgs, CliError};
use crate::aws::table_export::ExportBackend;
use crate::aws::{Backend, Operation, ReadCause, ReadSpec};
use crate::model::design::inferred::IndexSample;
use crate::model::design::schema::TableInfo;
use crate::model::exports::table_export::ExportType;
use crate::model::item::value::Item;
use crate::model::text::sanitize::sanitize;
use crate::model::text::wording::thousands;

/// Items read from an export for the table, and again for each index: enough for every kind
/// of a design to show (the key inference of `--export` reads as many), bounded whatever the
/// export's size.
pub const EXPORT_SAMPLE: usize = 10_000;
/// Data files read at once.
const READERS: u32 = 4;

/// The table the export stands for, a bounded sample of its items and one of each index.
pub async fn samples(
    global: &GlobalArgs,
    args: &ModelExportArgs,
) -> Result<(TableInfo, Vec<Item>, Vec<IndexSample>), CliError> {
    let backend = export_source::open(global, &args.export, args.table.as_deref()).await?;
    let summary = &backend.export().summary;
    if summary.export_type == ExportType::Incremental {
        return Err(CliError::bad_input(format!(
            "export '{}' is incremental: it holds changes, not items; give a full export",
            sanitize(&summary.export_id)
        )));
    }
    let info = backend.describe_table("").await?;
    say!(
        "note: reading up to {} items of export '{}' and as many of each of its {} indexes from its files: no read capacity, nothing read from DynamoDB",
        thousands(EXPORT_SAMPLE as u64),
        sanitize(&summary.export_id),
        info.indexes.len()
    );
    let items = sample(&backend, &info, None).await?;
    let mut index_samples = Vec::new();
    for index in &info.indexes {
        index_samples.push(IndexSample {
            index: index.name.clone(),
            items: sample(&backend, &info, Some(&index.name)).await?,
        });
    }
    say!(
        "note: read {} items of '{}' and {} of its indexes from the export",
        items.len(),
        sanitize(&info.name),
        index_samples.iter().map(|s| s.items.len()).sum::<usize>()
    );
    Ok((info, items, index_samples))
}

/// The first [`EXPORT_SAMPLE`] items of the table (`None`) or an index; a read of every file
/// that found one damaged is the command's error, as for `scan --export`.
async fn sample(
    backend: &ExportBackend,
    info: &TableInfo,
    index: Option<&str>,
) -> Result<Vec<Item>, CliError> {
    let mut spec = ReadSpec::new(Operation::Scan, &info.name, ReadCause::SampleFlag);
    spec.index = index.map(str::to_owned);
    spec.segments = READERS;
    spec.limit = Some(EXPORT_SAMPLE);
    let mut items = Vec::new();
    let drained = drain(backend, spec, |page| {
        items.extend(page.items);
        Next::Continue
    })
    .await;
    if drained.interrupted {
        return Err(CliError::new(130, "model export interrupted"));
    }
    if let Some(failure) = drained.failure {
        return Err(failure.error.into());
    }
    export_source::check_integrity(backend, drained.outcome)?;
    Ok(items)
}
