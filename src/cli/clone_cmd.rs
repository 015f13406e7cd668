//! `clone TABLE --to-endpoint URL`: a slice of a table (a Query, a PartiQL SELECT, the first N
//! items of a Scan, or all of it) copied into a table of the same shape on a local endpoint,
//! to reproduce a problem on DynamoDB Local. The source is only read, under its read guard
//! (`--max-rcu`, `--rcu-per-second`); the target must be this machine (the `seed` rule), and
//! an existing target table is refused unless `--add` says to add to it.

use std::collections::HashSet;
use std::sync::Arc;

use clap::Args;

use super::args::ReadArgs;
use super::args::{GlobalArgs, SortArgs};
use super::drain::{drain, Next};
use super::output::OutputFormat;
use super::read_spec::check_guard_flags;
use super::CliError;
use crate::aws::clone_table::{self, CopyGuard, Target};
use crate::aws::write::WriteGuard;
use crate::aws::{self, DoneOutcome, Engine, Operation, ReadCause, ReadSpec};
use crate::model::design::schema::TableInfo;
use crate::model::formats::json::append_dynamo_json;
use crate::model::item::value::Item;
use crate::model::query::partiql::{parse, parse_parameters, translate, ReadKind, Statement};
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::capacity::format_units;
use crate::model::write::key_of;

#[derive(Debug, Clone, Args)]
pub struct CloneArgs {
    /// The table to read (at --endpoint-url, or AWS).
    #[arg(value_parser = super::ranges::table_name)]
    pub table: String,
    /// Where to create the copy: a local endpoint, e.g. http://localhost:8000 (DynamoDB Local).
    #[arg(long, value_name = "URL", help_heading = "Target")]
    pub to_endpoint: String,
    /// The copy's name (default: the source's).
    #[arg(long, value_name = "NAME", value_parser = super::ranges::table_name, help_heading = "Target")]
    pub to_table: Option<String>,
    /// Add the items to a target table that exists already (an item whose key is there is
    /// kept, not overwritten); without it an existing target is refused.
    #[arg(long, help_heading = "Target")]
    pub add: bool,
    /// Copy one item collection: this partition key value (typed by the key's type), with the
    /// sort-key flags of `query` and --index.
    #[arg(long, value_name = "PK", allow_negative_numbers = true, conflicts_with_all = ["partiql", "sample"], help_heading = "What to copy")]
    pub query: Option<String>,
    #[command(flatten)]
    pub sort: SortArgs,
    /// With --query: read this GSI or LSI (it must project ALL attributes: items are copied whole).
    #[arg(
        long,
        value_name = "NAME",
        requires = "query",
        help_heading = "What to copy"
    )]
    pub index: Option<String>,
    /// Copy the items of a PartiQL SELECT on the table (read as `partiql` reads it).
    #[arg(
        long,
        value_name = "SELECT",
        conflicts_with = "sample",
        help_heading = "What to copy"
    )]
    pub partiql: Option<String>,
    /// With --partiql: one value per ?, as a JSON array.
    #[arg(
        long,
        value_name = "JSON",
        requires = "partiql",
        help_heading = "What to copy"
    )]
    pub parameters: Option<String>,
    /// Copy the first N items a Scan returns.
    #[arg(long, value_name = "N", value_parser = super::ranges::limit, help_heading = "What to copy")]
    pub sample: Option<usize>,
    /// Stop reading the source once it has consumed N read units (what was read is copied).
    #[arg(long, value_name = "N", value_parser = super::ranges::max_rcu, help_heading = "Capacity")]
    pub max_rcu: Option<f64>,
    /// Read the source at most N read units per second.
    #[arg(long, value_name = "N", value_parser = super::ranges::rcu_per_second, help_heading = "Capacity")]
    pub rcu_per_second: Option<f64>,
    /// Write at most N write units into the copy: each request, and each retry of it, is
    /// admitted at its worst case first; the copy stops before one that does not fit.
    #[arg(long, value_name = "N", value_parser = super::bulk_cmd::write_units, help_heading = "Capacity")]
    pub max_wcu: Option<f64>,
    /// Write at most N write units per second into the copy.
    #[arg(long, value_name = "N", value_parser = super::bulk_cmd::write_units, help_heading = "Capacity")]
    pub wcu_per_second: Option<f64>,
}

/// Exit code of a clone whose read stopped at `--max-rcu`, or whose copy stopped at
/// `--max-wcu`: the copy holds what was read or written.
const UNFINISHED: u8 = 5;

pub async fn run(global: &GlobalArgs, args: CloneArgs) -> Result<(), CliError> {
    check_guard_flags(args.max_rcu, args.rcu_per_second)?;
    if args.query.is_none() && sort_given(&args.sort) {
        return Err(CliError::bad_input(
            "the --sk-* flags narrow --query; add --query PK, or drop them",
        ));
    }
    match aws::connect::parse_endpoint(&args.to_endpoint) {
        Ok(true) => {}
        Ok(false) => {
            return Err(CliError::bad_input(format!(
                "--to-endpoint '{}' is not on this machine; clone only writes to a local endpoint: pass e.g. --to-endpoint http://localhost:8000 (DynamoDB Local)",
                sanitize(&args.to_endpoint)
            )))
        }
        Err(e) => {
            return Err(CliError::bad_input(
                e.to_string().replace("--endpoint-url", "--to-endpoint"),
            ))
        }
    }
    let source = super::connect(global).await?;
    let engine = Engine::new(&source);
    let info = engine.describe_table(&args.table).await?;
    let to_table = args.to_table.clone().unwrap_or_else(|| info.name.clone());
    let mut target_options = super::connect_options(global)?;
    target_options.endpoint_url = Some(args.to_endpoint.clone());
    target_options.local_only = Some("clone");
    let target = aws::connect(&target_options).await?;
    if target.endpoint == source.endpoint && to_table == info.name {
        return Err(CliError::bad_input(format!(
            "the copy would be table '{to_table}' itself at {}; pass --to-table with another name",
            target.endpoint
        )));
    }
    let spec = read_spec(&engine, &args, &info).await?;
    // Created before the read: a name that is taken is refused before anything is read.
    let created = clone_table::prepare(&target, &info, &to_table, args.add).await?;
    // Ctrl-C while the copy goes stops it (the read's own drain answers it while it reads).
    let stop = super::bulk_run::stop_on_ctrl_c();
    let (items, budget_stop) = read(&engine, spec, &args, &info).await?;
    let read_count = items.len();
    // Under --max-wcu or --wcu-per-second every request and retry is admitted by one guard,
    // as a bulk run's are.
    let guard = (args.max_wcu.is_some() || args.wcu_per_second.is_some())
        .then(|| Arc::new(WriteGuard::new(args.max_wcu, args.wcu_per_second)));
    let copied = clone_table::copy(
        &target,
        &to_table,
        &info.keys.names(),
        items,
        created,
        &stop,
        guard.as_ref().map(|guard| CopyGuard { guard, info: &info }),
    )
    .await?;
    let what = match created {
        Target::Created => "created",
        Target::Existing => "added to",
    };
    let kept = if copied.kept > 0 {
        format!(" ({} already there kept as they were)", copied.kept)
    } else {
        String::new()
    };
    let summary = format!(
        "{what} '{}' at {}: {} of {read_count} items copied{kept} from '{}'",
        sanitize(&to_table),
        target.endpoint,
        copied.written,
        sanitize(&info.name)
    );
    if copied.stopped {
        let cut_off = match copied.cut_off {
            0 => String::new(),
            n => format!("; {n} more were being written when it stopped and may be there"),
        };
        return Err(CliError::new(
            130,
            format!("interrupted (Ctrl-C) while copying: {summary}{cut_off}; clone again with --add to copy the rest (the items there are kept)"),
        ));
    }
    say!("{summary}");
    if let Some((spent, needed)) = copied.budget {
        let cut_off = match copied.cut_off {
            0 => String::new(),
            n => {
                format!(" ({n} more were being written when a retry did not fit and may be there)")
            }
        };
        return Err(CliError::new(
            UNFINISHED,
            format!(
                "--max-wcu {} reached: {} WCU spent, the next write needs {}; {} of {read_count} items copied{cut_off}; clone again with --add and a new --max-wcu to copy the rest (the items there are kept)",
                format_units(args.max_wcu.unwrap_or_default()),
                format_units(spent),
                format_units(needed),
                copied.written
            ),
        ));
    }
    if budget_stop {
        return Err(CliError::new(
            UNFINISHED,
            format!(
                "reading '{}' stopped at --max-rcu after {read_count} items: the copy holds those; raise --max-rcu and clone again into another --to-table (or with --add) for the rest",
                sanitize(&info.name)
            ),
        ));
    }
    Ok(())
}

/// The read flags of a `query` that only names its index: the guards are set on the spec.
fn plain_read_args(index: Option<String>) -> ReadArgs {
    ReadArgs {
        index,
        limit: None,
        consistent: false,
        filter: None,
        projection: None,
        names: None,
        values: None,
        expression_attribute_values: None,
        output: OutputFormat::Jsonl,
        columns: None,
        stats: false,
        page_size: None,
        max_rcu: None,
        rcu_per_second: None,
    }
}

fn sort_given(sort: &SortArgs) -> bool {
    !sort.sk_eq.is_empty()
        || sort.sk_lt.is_some()
        || sort.sk_le.is_some()
        || sort.sk_gt.is_some()
        || sort.sk_ge.is_some()
        || sort.sk_between.is_some()
        || sort.sk_begins.is_some()
}

/// The read the flags ask for, checked against the table; sends nothing.
async fn read_spec(
    engine: &Engine,
    args: &CloneArgs,
    info: &TableInfo,
) -> Result<ReadSpec, CliError> {
    let mut spec = if let Some(pk) = &args.query {
        if let Some(index) = &args.index {
            whole_items(info, index)?;
        }
        let query = super::args::QueryArgs {
            table: args.table.clone(),
            pk: vec![pk.clone()],
            sort: args.sort.clone(),
            desc: false,
            pk_shards: None,
            key_condition_expression: None,
            read: plain_read_args(args.index.clone()),
        };
        let mut specs = super::read_cmd::query_specs(engine, &query).await?.specs;
        specs.pop().expect("one spec without --pk-shards")
    } else if let Some(text) = &args.partiql {
        let parameters = match &args.parameters {
            Some(p) => parse_parameters(p).map_err(|e| CliError::bad_input(e.message))?,
            None => Vec::new(),
        };
        let select = match parse(text) {
            Ok(Statement::Select(select)) => select,
            Ok(Statement::Write(verb)) => {
                return Err(CliError::bad_input(format!(
                    "--partiql takes a SELECT, not {verb}; clone only reads the source"
                )))
            }
            Err(e) => return Err(CliError::bad_input(e.message)),
        };
        if select.table != info.name {
            return Err(CliError::bad_input(format!(
                "--partiql reads table '{}', not '{}'; name the table being cloned in FROM",
                sanitize(&select.table),
                sanitize(&info.name)
            )));
        }
        if let Some(index) = &select.index {
            whole_items(info, index)?;
        }
        let plan =
            translate(&select, &parameters, info).map_err(|e| CliError::bad_input(e.message))?;
        let mut spec = aws::plan_read(&plan);
        if plan.kind == ReadKind::Scan {
            spec.segments = 1;
        }
        spec
    } else {
        let mut spec = ReadSpec::new(Operation::Scan, &info.name, ReadCause::Scan);
        spec.limit = args.sample;
        spec
    };
    spec.budget.max_rcu = args.max_rcu;
    spec.budget.rcu_per_second = args.rcu_per_second;
    Ok(spec)
}

/// Items read through an index are copied as they come: only an index that projects every
/// attribute gives whole items.
fn whole_items(info: &TableInfo, index: &str) -> Result<(), CliError> {
    super::read_spec::index_keys(info, Some(index))?;
    let projection = info
        .indexes
        .iter()
        .find(|i| i.name == index)
        .map(|i| i.projection.projection_type.as_str())
        .unwrap_or("ALL");
    if projection != "ALL" {
        return Err(CliError::bad_input(format!(
            "index '{}' projects {projection} attributes, so its items are not whole; read through the table, or an index that projects ALL",
            sanitize(index)
        )));
    }
    Ok(())
}

/// Reads the slice under the guard; each key once (an OR of keys may name one twice). Returns
/// whether the read stopped at `--max-rcu`.
async fn read(
    engine: &Engine,
    spec: ReadSpec,
    args: &CloneArgs,
    info: &TableInfo,
) -> Result<(Vec<Item>, bool), CliError> {
    let limit = args.sample;
    let mut items: Vec<Item> = Vec::new();
    let mut seen = HashSet::new();
    let drained = drain(engine, spec, |page| {
        for item in page.items {
            let mut key = String::new();
            append_dynamo_json(&mut key, &key_of(&item, &info.keys));
            if seen.insert(key) {
                items.push(item);
            }
        }
        match limit {
            Some(n) if items.len() >= n => Next::Cancel,
            _ => Next::Continue,
        }
    })
    .await;
    if let Some(failure) = drained.failure {
        return Err(failure.error.into());
    }
    if drained.interrupted {
        return Err(CliError::new(
            130,
            "interrupted while reading the source; the target table was created, nothing was copied into it",
        ));
    }
    if let Some(n) = limit {
        items.truncate(n);
    }
    Ok((items, drained.outcome == Some(DoneOutcome::BudgetReached)))
}
