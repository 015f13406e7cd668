//! `--export PATH`: an S3 table export opened as the source of `scan` and `hotkeys`, its key
//! schema from DescribeTable when the table can be described, else from `--key`, else
//! inferred from the items (and said so); and its integrity report worded at the end.

use std::path::Path;

use super::args::{ExportArgs, GlobalArgs, HotkeysArgs};
use super::CliError;
use crate::aws::table_export::{
    open_export, open_s3_export, parse_s3_url, read_data_file, s3_client, ExportBackend, Flow,
    OpenedExport,
};
use crate::aws::{Backend, DoneOutcome, Engine};
use crate::model::design::schema::{IndexInfo, KeyAttr, KeySchema, KeyType, TableInfo};
use crate::model::exports::table_export::{ExportType, KeyInference, Record};
use crate::model::text::wording::{noun, thousands};

/// Items the key inference looks at, from the first data files.
const INFERENCE_SAMPLE: u64 = 10_000;

/// Opens the export at `path` (a folder on disk, or s3://BUCKET/PREFIX): its manifests only;
/// DynamoDB is sent nothing.
pub(super) async fn open_at(global: &GlobalArgs, path: &str) -> Result<OpenedExport, CliError> {
    match parse_s3_url(path) {
        None => open_export(Path::new(path)).map_err(|e| CliError::bad_input(e.0)),
        Some(url) => {
            let (bucket, prefix) = url.map_err(|e| CliError::bad_input(e.0))?;
            let client = s3_client(&super::connect_options(global)?).await?;
            // What S3 answered (missing, denied, unreachable) is the service's, not a typo.
            open_s3_export(client, bucket, prefix)
                .await
                .map_err(|e| CliError::service(e.0))
        }
    }
}

/// The table `export` stands for, named `table` (else as the manifest names it), its keys
/// not known yet.
pub(super) fn export_info(export: &OpenedExport, table: Option<&str>) -> TableInfo {
    let name = table
        .map(str::to_string)
        .or_else(|| export.summary.table.clone())
        .unwrap_or_else(|| export.summary.export_id.clone());
    TableInfo {
        name,
        status: "EXPORT".into(),
        keys: KeySchema::simple(KeyAttr::new(String::new(), KeyType::S), None),
        indexes: Vec::new(),
        billing_mode: String::new(),
        provisioned: None,
        item_count: export.summary.item_count.unwrap_or(0) as i64,
        size_bytes: export.summary.billed_size_bytes.unwrap_or(0) as i64,
        ttl_attribute: None,
        stream: None,
        on_demand_max: None,
    }
}

/// The key schema inferred from the first items of `export` (said on stderr), `why` being
/// why the table was not described; an error when no attribute is on every item.
pub(super) async fn inferred_keys(export: &OpenedExport, why: &str) -> Result<KeySchema, CliError> {
    let sample = export.clone();
    let (inference, seen) = tokio::task::spawn_blocking(move || infer_keys(&sample))
        .await
        .map_err(|e| CliError::service(format!("key inference failed: {e}")))?;
    let keys = inference.schema().ok_or_else(|| {
        CliError::bad_input(format!(
            "the key schema of export '{}' is unknown: {why} and no attribute is on every item; give --key PK[,SK]",
            export.summary.export_id
        ))
    })?;
    say!(
        "note: key schema inferred as {} (attributes on every one of the first {} {}), since {why}; give --key PK[,SK] if it is wrong",
        keys.names().join(", "),
        thousands(seen),
        noun(seen, "item")
    );
    Ok(keys)
}

/// `keys` (from `--key`, typed S) with the types the first items of `export` give them: a
/// typed read (a Query's key condition) compares N and B keys as what they are.
pub(super) async fn typed_keys(
    export: &OpenedExport,
    keys: KeySchema,
) -> Result<KeySchema, CliError> {
    let sample = export.clone();
    let (inference, _) = tokio::task::spawn_blocking(move || infer_keys(&sample))
        .await
        .map_err(|e| CliError::service(format!("key inference failed: {e}")))?;
    Ok(inference.typed(keys))
}

/// Opens the export named by `--export`; `table` (the command's TABLE) overrides the name
/// the manifest gives, for DescribeTable.
pub(super) async fn open(
    global: &GlobalArgs,
    args: &ExportArgs,
    table: Option<&str>,
) -> Result<ExportBackend, CliError> {
    let export = open_at(global, args.export.as_deref().unwrap_or_default()).await?;
    let mut info = export_info(&export, table);
    let name = info.name.clone();
    if let Some(keys) = &args.key {
        info.keys = parse_keys("--key", keys)?;
        return Ok(ExportBackend::new(export, info));
    }
    let described = match super::connect(global).await {
        Ok(conn) => Engine::new(&conn)
            .describe_table(&name)
            .await
            .map_err(|e| e.message),
        Err(e) => Err(e.message),
    };
    match described {
        Ok(table_info) => {
            info.keys = table_info.keys;
            info.indexes = table_info.indexes;
            info.status = table_info.status;
        }
        Err(why) => {
            let why = format!("table '{name}' cannot be described ({why})");
            let keys = inferred_keys(&export, &why).await?;
            info.keys = keys;
        }
    }
    Ok(ExportBackend::new(export, info))
}

/// The key attributes seen on the first [`INFERENCE_SAMPLE`] items, and how many were seen.
/// Blocks (S3 reads): runs on a blocking thread.
fn infer_keys(export: &OpenedExport) -> (KeyInference, u64) {
    let mut inference = KeyInference::default();
    let mut seen = 0u64;
    for file in &export.files {
        read_data_file(export, file, &|| false, |record| {
            let item = match record {
                Record::Item(item) => item,
                Record::Change(change) => change.keys,
            };
            inference.add(&item);
            seen += 1;
            if seen >= INFERENCE_SAMPLE {
                Flow::Stop
            } else {
                Flow::Continue
            }
        });
        if seen >= INFERENCE_SAMPLE {
            break;
        }
    }
    (inference, seen)
}

/// `PK[,SK]` as a key schema (types are not needed to read an export: S stands in).
pub(super) fn parse_keys(flag: &str, text: &str) -> Result<KeySchema, CliError> {
    let names: Vec<&str> = text.split(',').map(str::trim).collect();
    let key = |name: &str| KeyAttr::new(name.to_string(), KeyType::S);
    match names.as_slice() {
        [pk] if !pk.is_empty() => Ok(KeySchema::simple(key(pk), None)),
        [pk, sk] if !pk.is_empty() && !sk.is_empty() => {
            Ok(KeySchema::simple(key(pk), Some(key(sk))))
        }
        _ => Err(CliError::bad_input(format!(
            "{flag} '{text}' is not PK or PK,SK; write e.g. {flag} PK,SK"
        ))),
    }
}

/// `PK[,SK]` of an index, each side up to four attributes joined by `+` in key-schema order
/// (a multi-attribute GSI: `tournamentId+region,round+bracket`); read as one attribute per
/// side, such a key would count and query partitions by its first attributes alone.
fn parse_index_keys(text: &str) -> Result<KeySchema, CliError> {
    let bad = |why: &str| {
        CliError::bad_input(format!(
            "--index '{text}' {why}; write PK[,SK], each side one attribute or up to four joined by + in key-schema order, e.g. --index GSI1PK,GSI1SK or --index 'tournamentId+region,round+bracket'"
        ))
    };
    let side = |s: &str| -> Vec<KeyAttr> {
        s.split('+')
            .map(|name| KeyAttr::new(name.trim().to_string(), KeyType::S))
            .collect()
    };
    let (partition, sort) = match text.split_once(',') {
        Some((_, sk)) if sk.contains(',') => return Err(bad("has more than two sides")),
        Some((pk, sk)) => (side(pk), side(sk)),
        None => (side(text), Vec::new()),
    };
    if partition.iter().chain(&sort).any(|k| k.name.is_empty()) {
        return Err(bad("has an empty attribute name"));
    }
    KeySchema::new(partition, sort).map_err(|e| bad(&format!("is not a key: {e}")))
}

/// `--index` on an export whose table could not be described: the value names the index's
/// key attributes ([`parse_index_keys`]), and the index is taken as a GSI projecting every
/// attribute.
pub(super) fn index_from_keys(info: &mut TableInfo, index: &str) -> Result<(), CliError> {
    // A described table's indexes are its own: `index_keys` names them if this is none.
    if info.index(index).is_some() || info.status != "EXPORT" {
        return Ok(());
    }
    let keys = parse_index_keys(index)?;
    info.indexes
        .push(IndexInfo::gsi_projecting_all(index, keys));
    Ok(())
}

/// After a read of `backend` that ended `outcome`: one line per data file with a problem, and
/// the shortfall as the command's error (exit 1), so a script cannot take a partial export
/// for a whole one. A read cut short (by --limit, Ctrl-C or a closed pipe) is not judged.
pub(super) fn check_integrity(
    backend: &ExportBackend,
    outcome: Option<DoneOutcome>,
) -> Result<(), CliError> {
    if outcome != Some(DoneOutcome::Complete) {
        return Ok(());
    }
    let report = backend.report();
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

/// `hotkeys --export PATH`: the same report over an export's items.
pub(super) async fn hotkeys(global: &GlobalArgs, args: HotkeysArgs) -> Result<(), CliError> {
    for (flag, given) in [
        ("--max-rcu", args.max_rcu.is_some()),
        ("--rcu-per-second", args.rcu_per_second.is_some()),
        ("--writes", args.writes),
        ("--for", args.for_duration.is_some()),
    ] {
        if given {
            return Err(CliError::bad_input(format!(
                "{flag} has no meaning with --export: an export's files are read without read capacity; drop it"
            )));
        }
    }
    let mut backend = open(global, &args.export, args.table.as_deref()).await?;
    let summary = &backend.export().summary;
    if summary.export_type == ExportType::Incremental {
        return Err(CliError::bad_input(format!(
            "export '{}' is incremental: it holds changes, not items; read them with tail --export",
            summary.export_id
        )));
    }
    if args.athena {
        let info = backend.describe_table("").await?;
        let sql = crate::model::exports::table_export::athena_sql(&info, summary, args.top);
        let mut stdout = std::io::stdout().lock();
        return match std::io::Write::write_all(&mut stdout, sql.as_bytes()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(CliError::service(format!("cannot write output: {e}")))
            }
            _ => Ok(()),
        };
    }
    if let Some(index) = args.index.as_deref() {
        let mut info = backend.describe_table("").await?;
        index_from_keys(&mut info, index)?;
        backend = backend.with_info(info);
    }
    let checked = backend.clone();
    super::hotkeys::run(&backend, args, move |outcome| {
        check_integrity(&checked, outcome)
    })
    .await
}

#[cfg(test)]
#[path = "export_source_tests.rs"]
mod tests;
