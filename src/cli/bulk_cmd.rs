//! `partiql 'UPDATE … WHERE …'` and `'DELETE FROM … WHERE …'`: the matching items are read as
//! the SELECT with the same WHERE reads them (a Query, or a Scan only with `--allow-scan`,
//! under `--max-rcu`), then shown (the dry run, the default) or, with `--allow-writes --yes`,
//! written one by one under the write guard, each conditional on the item being what was
//! read, with a journal that resumes the run and undoes it (`bulk_run.rs`, `undo_cmd.rs`).

use std::collections::HashSet;
use std::path::PathBuf;

use clap::Args;

use super::args::GlobalArgs;
use super::drain::{drain, Next};
use super::output::OutputFormat;
use super::partiql_cmd::PartiqlArgs;
use super::read_spec::check_guard_flags;
use super::CliError;
use crate::aws::read::DoneOutcome;
use crate::aws::Engine;
use crate::model::design::schema::TableInfo;
use crate::model::formats::json::append_dynamo_json;
use crate::model::query::partiql::{
    parse_parameters, parse_write, refusal, translate, Advice, ErrorKind, ReadKind, WriteStatement,
};
use crate::model::text::sanitize::sanitize;
use crate::model::write::bulk::{self, journal, preview, BulkItem};

/// The flags of a bulk write; a SELECT refuses them.
#[derive(Debug, Clone, Default, Args)]
pub struct BulkArgs {
    /// UPDATE/DELETE: write the matching items (needs --allow-writes); without it, a dry run.
    #[arg(long, help_heading = "Writing")]
    pub yes: bool,
    /// UPDATE/DELETE: write at most N write units in all (each write reserved at its worst
    /// case before it is sent).
    #[arg(long, value_name = "N", value_parser = write_units, help_heading = "Capacity")]
    pub max_wcu: Option<f64>,
    /// UPDATE/DELETE: write at most N write units per second.
    #[arg(long, value_name = "N", value_parser = write_units, help_heading = "Capacity")]
    pub wcu_per_second: Option<f64>,
    /// UPDATE/DELETE: the journal to write (default: a new file under the state directory).
    #[arg(long, value_name = "FILE", help_heading = "Writing")]
    pub journal: Option<PathBuf>,
    /// UPDATE/DELETE: continue the run of this journal from its first unfinished item (give
    /// the same statement and --parameters).
    #[arg(long, value_name = "FILE", help_heading = "Writing")]
    pub resume: Option<PathBuf>,
}

impl BulkArgs {
    /// The flag a SELECT was given that only a bulk write takes.
    pub fn named(&self) -> Option<&'static str> {
        if self.yes {
            Some("--yes")
        } else if self.max_wcu.is_some() {
            Some("--max-wcu")
        } else if self.wcu_per_second.is_some() {
            Some("--wcu-per-second")
        } else if self.journal.is_some() {
            Some("--journal")
        } else if self.resume.is_some() {
            Some("--resume")
        } else {
            None
        }
    }
}

/// Write units for `--max-wcu` and `--wcu-per-second`: more than 0, at most 10^12.
pub fn write_units(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1e12 => Ok(v),
        _ => Err(format!(
            "'{text}' is not a number of write units; use more than 0, up to 1000000000000"
        )),
    }
}

pub(super) fn bad(e: impl ToString) -> CliError {
    CliError::bad_input(sanitize(&e.to_string()).into_owned())
}

/// What was read and what the statement makes of it.
pub(super) struct Matched {
    pub statement: WriteStatement,
    pub info: TableInfo,
    pub items: Vec<BulkItem>,
    /// "Query", "3 Queries" or "Scan", for the dry run.
    pub read: String,
}

pub async fn run(global: &GlobalArgs, args: PartiqlArgs) -> Result<(), CliError> {
    let bulk = &args.bulk;
    check_guard_flags(args.max_rcu, args.rcu_per_second)?;
    if args.explain || args.sample {
        return Err(CliError::bad_input(
            "--explain and --sample are for SELECT; an UPDATE or DELETE without --yes is its own dry run, and reads only the items it matches",
        ));
    }
    let parameters = match &args.parameters {
        Some(text) => parse_parameters(text).map_err(|e| bad(e.message))?,
        None => Vec::new(),
    };
    let writing = bulk.yes && global.allow_writes;
    if bulk.resume.is_some() && !writing {
        return Err(CliError::bad_input(
            "--resume writes: add --allow-writes --yes, or drop --resume for a dry run",
        ));
    }
    // A resumed run writes its journal's items, not what the statement reads now: the
    // statement only has to be the journal's (the explorer's bulk dialog names its runs
    // `UPDATE "TABLE" -- explorer bulk dialog`, which reads nothing).
    if let Some(path) = &bulk.resume {
        let conn = super::connect(global).await?;
        return super::bulk_run::resume(&conn, &args, path, global).await;
    }
    let statement = parse_write(&args.statement).map_err(|e| match e.kind {
        ErrorKind::Unsupported => bad(format!("{}; nothing was read or written", e.message)),
        _ => bad(e.message),
    })?;
    let version = version_attribute(global, &statement.select.table)?;
    let conn = super::connect(global).await?;
    let engine = Engine::new(&conn);
    let info = engine.describe_table(&statement.select.table).await?;
    let mut matched = read_matches(&engine, &args, statement, &parameters, &info).await?;
    bulk::with_version(&mut matched.items, version.as_deref());
    // Every item's write planned and checked before the journal starts: one DynamoDB would
    // refuse is found here, with nothing written, not midway through the run.
    let todo: Vec<usize> = (0..matched.items.len()).collect();
    crate::aws::bulk::preflight(&info, &matched.items, &todo, false, version.as_deref())
        .map_err(bad)?;
    if !writing {
        dry_run(&args, &matched, bulk.wcu_per_second)?;
        if bulk.yes {
            // A script asked for the write: it must be able to tell nothing was written.
            return Err(CliError::bad_input(
                "--yes writes only with --allow-writes: this was a dry run and nothing was written; add --allow-writes",
            ));
        }
        return Ok(());
    }
    let header = journal::Header {
        verb: matched.statement.verb().to_string(),
        statement: args.statement.clone(),
        parameters: args.parameters.clone(),
        table: info.name.clone(),
        endpoint: conn.endpoint.clone(),
    };
    super::bulk_run::execute_new(&conn, &args, header, matched, version.as_deref()).await
}

/// The table's `version_attribute` from the config: bulk runs and undo compare and increment
/// it as the explorer's writes do.
pub(super) fn version_attribute(
    global: &GlobalArgs,
    table: &str,
) -> Result<Option<String>, CliError> {
    let settings = super::settings::Settings::load(global)?;
    Ok(settings.config.version_attribute(table).map(str::to_string))
}

/// Reads the items the statement's WHERE matches, as its SELECT would, and plans each one's
/// new image. A read stopped by `--max-rcu` is an error: a partial set is not what the
/// statement means.
async fn read_matches(
    engine: &Engine,
    args: &PartiqlArgs,
    statement: WriteStatement,
    parameters: &[crate::model::item::value::AttrValue],
    info: &TableInfo,
) -> Result<Matched, CliError> {
    let plan = translate(&statement.select, parameters, info).map_err(|e| bad(e.message))?;
    let set = statement.bound_set(parameters);
    bulk::check_change(&statement, &set, info).map_err(bad)?;
    if let Some(name) = &statement.select.index {
        let index = info.index(name).expect("translate found it");
        if index.projection.projection_type != "ALL" {
            return Err(bad(format!(
                "index '{name}' projects {} attributes, so its items are not whole: each write must be conditional on the whole item as read; read through the table, or an index that projects ALL",
                index.projection.projection_type
            )));
        }
    }
    if plan.kind == ReadKind::Scan && !args.allow_scan {
        return Err(bad(format!(
            "{}; an {} reads every item it may change first",
            refusal(&plan, info, &Advice::None),
            statement.verb()
        )));
    }
    let read = match (plan.kind, plan.query_count()) {
        (ReadKind::Scan, _) => "Scan".to_string(),
        (_, 1) => "Query".to_string(),
        (_, n) => format!("{n} Queries"),
    };
    let mut spec = crate::aws::plan_read(&plan);
    spec.limit = args.limit;
    spec.budget.max_rcu = args.max_rcu;
    spec.budget.rcu_per_second = args.rcu_per_second;
    if plan.kind == ReadKind::Scan {
        spec.segments = args.segments;
    }
    let mut items = Vec::new();
    let drained = drain(engine, spec, |page| {
        items.extend(page.items);
        Next::Continue
    })
    .await;
    if let Some(failure) = drained.failure {
        return Err(failure.error.into());
    }
    if drained.interrupted {
        return Err(CliError::new(
            130,
            "interrupted while reading the matching items; nothing was written",
        ));
    }
    if drained.outcome == Some(DoneOutcome::BudgetReached) {
        return Err(CliError::bad_input(format!(
            "reading the matching items stopped at --max-rcu after {} items: the statement may match more, and nothing was written; raise --max-rcu",
            items.len()
        )));
    }
    if let Some(limit) = args.limit {
        items.truncate(limit);
    }
    // An OR of partition keys may name one twice; each item is written once.
    let mut seen = HashSet::new();
    items.retain(|item| {
        let mut key = String::new();
        append_dynamo_json(&mut key, &crate::model::write::key_of(item, &info.keys));
        seen.insert(key)
    });
    let items = bulk::plan_items(&statement, &set, items);
    Ok(Matched {
        statement,
        info: info.clone(),
        items,
        read,
    })
}

fn dry_run(args: &PartiqlArgs, m: &Matched, rate: Option<f64>) -> Result<(), CliError> {
    let summary = preview::summarize(&m.info, &m.items);
    let report = preview::Report {
        verb: m.statement.verb(),
        table: &m.info.name,
        read: &m.read,
        info: &m.info,
        items: &m.items,
        summary: &summary,
        rate,
    };
    let text = match args.output {
        OutputFormat::Json => format!("{}\n", preview::json(&report)),
        _ => format!(
            "{}nothing was written; --allow-writes --yes writes them, each conditional on the item being as read\n",
            preview::text(&report)
        ),
    };
    super::bulk_print::print(&text)
}
