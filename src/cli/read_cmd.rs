//! `query`, `run` and `scan`: validate everything before the first request, then stream pages
//! to stdout and statistics to stderr.

use super::args::{GlobalArgs, QueryArgs, ReadArgs, ScanArgs, SortArgs};
use super::drain::{drain, Failure, Next};
use super::export_source;
use super::output::{ItemWriter, OutputFormat};
use super::read_spec::{
    check_all_used, index_keys, key_columns, merge, read_spec, user_names_values,
};
use super::stream::stream;
use super::CliError;
use crate::aws::read::MAX_SEGMENTS;
use crate::aws::{Backend, DoneOutcome, Engine, Operation, ReadSpec};
use crate::model::design::access_pattern::{parse_shards, shard_keys};
use crate::model::design::collection::merge_sorted;
use crate::model::design::schema::KeySchema;
use crate::model::exports::table_export::ExportType;
use crate::model::formats::json::to_safe_json;
use crate::model::item::value::Item;
use crate::model::query::expression::parse_key_condition;
use crate::model::query::key_condition::{KeyCondition, SortInput};
use crate::model::text::wording::noun;
use std::io::{self, IsTerminal};

pub async fn run_query(engine: &Engine, args: QueryArgs) -> Result<(), CliError> {
    run_checked_query(engine, args, &|_, _| Ok(())).await
}

/// Checks the key of the table or index read (and what it is called: `index 'X'`, `table
/// 'T'`) before any Query is built: `run` says a pattern that does not fit it in the
/// pattern's own terms.
pub(super) type KeyCheck<'a> = &'a (dyn Fn(&KeySchema, &str) -> Result<(), String> + Sync);

pub(super) async fn run_checked_query(
    engine: &Engine,
    args: QueryArgs,
    check: KeyCheck<'_>,
) -> Result<(), CliError> {
    let QuerySpecs {
        mut specs,
        key_names,
        sort_keys,
    } = query_specs_checked(engine, &args, check).await?;
    if specs.len() == 1 {
        let spec = specs.pop().expect("one spec");
        return stream(engine, spec, key_names, &args.read, |_| Ok(())).await;
    }
    // Every shard is a segment of one read: one --max-rcu budget and one --rcu-per-second
    // bucket for all of them, and each shard returns up to --limit before the merge cuts.
    let mut specs = specs.into_iter();
    let mut spec = specs.next().expect("shards");
    spec.shards = std::iter::once(spec.values.clone())
        .chain(specs.map(|s| s.values))
        .collect();
    spec.limit_per_segment = true;
    let desc = args.desc;
    fan_out(engine, spec, key_names, &args.read, |shards| {
        let sort: Vec<&str> = sort_keys.iter().map(String::as_str).collect();
        merge_sorted(shards, &sort, desc)
    })
    .await
}

/// A `query`'s checked requests: one per write shard (one in all without `--pk-shards`).
pub(super) struct QuerySpecs {
    pub specs: Vec<ReadSpec>,
    /// The table's and the index's key attributes, table keys first.
    pub key_names: Vec<String>,
    /// The sort attributes of the table or index read, in key-schema order (shards are
    /// merged in their order).
    pub sort_keys: Vec<String>,
}

/// Validates a `query`'s flags against the table (DescribeTable) and builds its requests;
/// sends nothing else. `query` and the MCP server's query tool share it.
pub(super) async fn query_specs<B: Backend>(
    engine: &B,
    args: &QueryArgs,
) -> Result<QuerySpecs, CliError> {
    query_specs_checked(engine, args, &|_, _| Ok(())).await
}

async fn query_specs_checked<B: Backend>(
    engine: &B,
    args: &QueryArgs,
    check: KeyCheck<'_>,
) -> Result<QuerySpecs, CliError> {
    let info = engine.describe_table(&args.table).await?;
    let keys = index_keys(&info, args.read.index.as_deref())?;
    let target = match &args.read.index {
        Some(index) => format!("index '{index}'"),
        None => format!("table '{}'", info.name),
    };
    check(&keys, &target).map_err(CliError::bad_input)?;
    // One list of partition values per request: `{shard}` in one --pk value is replaced by
    // each shard number.
    let shard_pks: Vec<Vec<String>> = match &args.pk_shards {
        None => vec![args.pk.clone()],
        Some(range) => {
            let Some(at) = args.pk.iter().position(|pk| pk.contains("{shard}")) else {
                return Err(CliError::bad_input(format!(
                    "--pk '{}' has no {{shard}} placeholder for --pk-shards; write e.g. --pk 'STATUS#PENDING#{{shard}}'",
                    args.pk.join("' --pk '")
                )));
            };
            shard_keys(&args.pk[at], parse_shards(range)?)
                .into_iter()
                .map(|sharded| {
                    let mut pks = args.pk.clone();
                    pks[at] = sharded;
                    pks
                })
                .collect()
        }
    };
    let (sort_prefix, sort) = sort_input(&args.sort)?;
    let mut specs = Vec::with_capacity(shard_pks.len());
    for pks in &shard_pks {
        let (mut names, mut values) = user_names_values(&args.read)?;
        let key_condition = match &args.key_condition_expression {
            Some(expr) => {
                parse_key_condition(expr, &names, &values, &keys)?;
                expr.clone()
            }
            None => {
                let condition = KeyCondition::build_parts(&keys, pks, &sort_prefix, sort.clone())?;
                let parts = condition.to_expression();
                merge(&mut names, parts.names, "--names")?;
                merge(&mut values, parts.values, "--values")?;
                parts.key_condition
            }
        };
        let mut spec = read_spec(Operation::Query, &args.table, &args.read, names, values)?;
        spec.key_condition = Some(key_condition);
        spec.descending = args.desc;
        spec.average_item_bytes = info.average_item_bytes(spec.index.as_deref());
        check_all_used(&spec)?;
        specs.push(spec);
    }
    let key_names = key_columns(&info, specs[0].index.as_deref());
    Ok(QuerySpecs {
        specs,
        key_names,
        sort_keys: keys.sort().iter().map(|k| k.name.clone()).collect(),
    })
}

fn check_segments(segments: u32) -> Result<(), CliError> {
    if !(1..=MAX_SEGMENTS).contains(&segments) {
        return Err(CliError::bad_input(format!(
            "--segments '{segments}' is out of range; use 1 to {MAX_SEGMENTS}"
        )));
    }
    Ok(())
}

/// The command's TABLE, which clap requires unless `--export` is given.
pub(super) fn required_table(table: &Option<String>) -> Result<&str, CliError> {
    table
        .as_deref()
        .ok_or_else(|| CliError::bad_input("give a TABLE (or --export PATH)"))
}

pub async fn run_scan(engine: &Engine, args: ScanArgs) -> Result<(), CliError> {
    check_segments(args.segments)?;
    let table = required_table(&args.table)?;
    let (names, values) = user_names_values(&args.read)?;
    let mut spec = read_spec(Operation::Scan, table, &args.read, names, values)?;
    spec.segments = args.segments;
    check_all_used(&spec)?;
    // A Scan needs the table's description only to check --index by name (listing the real
    // ones) and to put the keys first in a `table`. Otherwise it is skipped: it is one more
    // IAM permission and round trip, and on DynamoDB Local it counts the whole table first
    // (a quarter of a second at 200,000 items). A missing table still fails with the same
    // line, from the Scan itself.
    let keyed_output = matches!(args.read.output, OutputFormat::Table | OutputFormat::Csv);
    let key_names = if args.read.index.is_some() || keyed_output {
        let info = engine.describe_table(table).await?;
        index_keys(&info, args.read.index.as_deref())?;
        key_columns(&info, args.read.index.as_deref())
    } else {
        Vec::new()
    };
    stream(engine, spec, key_names, &args.read, |_| Ok(())).await
}

/// `scan --export PATH`: the export's items, filtered and projected here as a Scan would be
/// on the server, through the same output.
pub async fn run_scan_export(global: &GlobalArgs, args: ScanArgs) -> Result<(), CliError> {
    check_segments(args.segments)?;
    let read = &args.read;
    for (flag, given) in [
        ("--consistent", read.consistent),
        ("--page-size", read.page_size.is_some()),
        ("--max-rcu", read.max_rcu.is_some()),
        ("--rcu-per-second", read.rcu_per_second.is_some()),
    ] {
        if given {
            return Err(CliError::bad_input(format!(
                "{flag} has no meaning with --export: an export's files are read without read capacity; drop it"
            )));
        }
    }
    let mut backend = export_source::open(global, &args.export, args.table.as_deref()).await?;
    let summary = &backend.export().summary;
    if summary.export_type == ExportType::Incremental {
        return Err(CliError::bad_input(format!(
            "export '{}' is incremental: it holds changes, not items; read them with tail --export",
            summary.export_id
        )));
    }
    let mut info = backend.describe_table("").await?;
    if let Some(index) = read.index.as_deref() {
        export_source::index_from_keys(&mut info, index)?;
        index_keys(&info, Some(index))?;
        backend = backend.with_info(info.clone());
    }
    let (names, values) = user_names_values(read)?;
    let mut spec = read_spec(Operation::Scan, &info.name, read, names, values)?;
    spec.segments = args.segments;
    check_all_used(&spec)?;
    let key_names = key_columns(&info, read.index.as_deref());
    let checked = backend.clone();
    stream(&backend, spec, key_names, read, move |outcome| {
        export_source::check_integrity(&checked, outcome)
    })
    .await
}

/// The sort flags as equalities on the first sort attributes and at most one condition on the
/// next: every `--sk-eq` is a prefix equality when a range flag follows them; without one, the
/// last `--sk-eq` is the condition (so one `--sk-eq` on a table is `#sk = :sk`, as before).
fn sort_input(sort: &SortArgs) -> Result<(Vec<String>, Option<SortInput>), CliError> {
    let s = sort.clone();
    let ranges = [
        s.sk_lt.map(SortInput::Lt),
        s.sk_le.map(SortInput::Le),
        s.sk_gt.map(SortInput::Gt),
        s.sk_ge.map(SortInput::Ge),
        s.sk_between.map(|mut v| {
            let high = v.pop().unwrap_or_default();
            let low = v.pop().unwrap_or_default();
            SortInput::Between(low, high)
        }),
        s.sk_begins.map(SortInput::BeginsWith),
    ];
    let mut given = ranges.into_iter().flatten();
    let range = given.next();
    if given.next().is_some() {
        return Err(CliError::bad_input(
            "give at most one sort range flag (--sk-lt, --sk-le, --sk-gt, --sk-ge, --sk-between or --sk-begins); repeat --sk-eq for the sort attributes before it",
        ));
    }
    let mut prefix = s.sk_eq;
    Ok(match range {
        Some(range) => (prefix, Some(range)),
        None => {
            let last = prefix.pop().map(SortInput::Eq);
            (prefix, last)
        }
    })
}

/// Queries every write shard in parallel (one read, a segment per shard), then writes the
/// result in the order `merge` gives (sort-key order for shards), cut to `--limit`.
pub(super) async fn fan_out(
    engine: &Engine,
    spec: ReadSpec,
    key_names: Vec<String>,
    read: &ReadArgs,
    merge: impl FnOnce(Vec<Vec<Item>>) -> Vec<Item>,
) -> Result<(), CliError> {
    let mut per_shard: Vec<Vec<Item>> = vec![Vec::new(); spec.shards.len()];
    let drained = drain(engine, spec, |page| {
        if let Some(shard) = per_shard.get_mut(page.segment as usize) {
            shard.extend(page.items);
        }
        Next::Continue
    })
    .await;
    if let Some(note) = drained
        .stats
        .throttle_note()
        .filter(|_| drained.failure.is_none())
    {
        super::say::say(&note);
    }
    let stats_line = read.stats.then(|| to_safe_json(&drained.stats, false));
    if let Some(Failure {
        error,
        attempts,
        segment,
    }) = drained.failure
    {
        let mut e = CliError::from(error);
        e.message = format!(
            "{} (shard {segment}, {} {}){}",
            e.message,
            attempts.attempts,
            noun(attempts.attempts as u64, "attempt"),
            drained.stats.throttle_clause()
        );
        e.trailer = stats_line;
        return Err(e);
    }
    if drained.interrupted {
        let mut e = CliError::new(130, "Query interrupted; nothing was written");
        e.trailer = stats_line;
        return Err(e);
    }
    let mut merged = merge(per_shard);
    if let Some(limit) = read.limit {
        merged.truncate(limit);
    }
    if drained.outcome == Some(DoneOutcome::BudgetReached) {
        say!(
            "note: {}; {} {} from the shards read so far are written",
            crate::model::traffic::capacity::budget_stop(
                read.max_rcu.unwrap_or_default(),
                drained.stats.consumed_capacity.total
            ),
            merged.len(),
            noun(merged.len() as u64, "item")
        );
    }
    let stdout = io::stdout().lock();
    let terminal = stdout.is_terminal();
    let mut writer = ItemWriter::new(stdout, read.output, key_names)
        .with_csv_columns(super::stream::csv_columns(read))
        .to_terminal(terminal);
    match writer.write_page(&merged).and_then(|()| writer.finish()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            return Err(CliError::service(format!("cannot write output: {e}")))
        }
        _ => {}
    }
    if let Some(line) = stats_line {
        super::say::say(&line);
    }
    Ok(())
}
