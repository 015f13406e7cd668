//! `partiql 'STATEMENT'`: a PartiQL SELECT translated to the Query or Scan DynamoDB would run,
//! said before anything is sent (`--explain`), and run as that read under the capacity guards.
//! A scan-shaped statement needs `--allow-scan`; a SELECT that cannot be translated is sent as
//! ExecuteStatement only with it, page by page under the same guards; writes are refused.
//! EXPLAIN and a refusal read nothing unless `--sample` asks.

use clap::Args;

use super::args::ReadArgs;
use super::drain::{drain, Next};
use super::output::OutputFormat;
use super::read_spec::{check_guard_flags, key_columns};
use super::stream::stream;
use super::CliError;
use crate::aws::read::MAX_SEGMENTS;
use crate::aws::ReadCause;
use crate::aws::{Engine, Operation, ReadSpec};
use crate::model::design::schema::TableInfo;
use crate::model::item::value::{AttrValue, Item};
use crate::model::query::partiql::{
    advise, dialects, explain, parse, parse_parameters, read_statement, refusal, translate,
    untranslated_reason, write_refusal, Advice, ErrorKind, Explained, PartiqlError, Plan, ReadKind,
    Select, Statement,
};
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::capacity::format_units;
use std::io::{self, Write};

/// Items `--sample` reads (one page) for a scan-shaped statement's EXPLAIN or refusal, to find
/// the index that serves it and to size the one that would.
const SAMPLE_ITEMS: i32 = 200;

#[derive(Debug, Clone, Args)]
pub struct PartiqlArgs {
    /// The statement, e.g. "SELECT * FROM \"app\".\"GSI1\" WHERE GSI1PK = ?".
    pub statement: String,
    /// One value per ?, as a JSON array: plain JSON ('["a", 5]') or DynamoDB JSON elements
    /// ('[{"S":"a"}]').
    #[arg(long, value_name = "JSON", help_heading = "Statement")]
    pub parameters: Option<String>,
    /// Say what the statement reads, in every dialect, and send nothing.
    #[arg(long, help_heading = "Statement")]
    pub explain: bool,
    /// With --explain or a refused scan-shaped statement: read one page (200 items, priced
    /// first, under --max-rcu) to look for the index that would serve it.
    #[arg(long, help_heading = "Statement")]
    pub sample: bool,
    /// Run a scan-shaped statement as a Scan (under the guards), or send one that cannot be
    /// translated as ExecuteStatement (unguarded).
    #[arg(long, help_heading = "Reading")]
    pub allow_scan: bool,
    /// Parallel scan segments for a scan-shaped statement (1-1000).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = super::ranges::segments, help_heading = "Reading")]
    pub segments: u32,
    /// Stop after N items in total.
    #[arg(long, value_name = "N", value_parser = super::ranges::limit, help_heading = "Reading")]
    pub limit: Option<usize>,
    /// How items are written to stdout.
    #[arg(long, value_enum, default_value = "jsonl", help_heading = "Output")]
    pub output: OutputFormat,
    /// With --output csv: the columns, comma-separated.
    #[arg(long, value_name = "A,B,…", value_parser = super::ranges::columns, help_heading = "Output")]
    pub columns: Option<String>,
    /// Print request statistics as one JSON object on the last line of stderr.
    #[arg(long, help_heading = "Output")]
    pub stats: bool,
    /// Stop cleanly once consumed capacity reaches N read units.
    #[arg(long, value_name = "N", value_parser = super::ranges::max_rcu, help_heading = "Capacity")]
    pub max_rcu: Option<f64>,
    /// Rate-limit all requests together to N read units per second.
    #[arg(long, value_name = "N", value_parser = super::ranges::rcu_per_second, help_heading = "Capacity")]
    pub rcu_per_second: Option<f64>,
    /// UPDATE and DELETE only: --yes, --max-wcu, --wcu-per-second, --journal, --resume.
    #[command(flatten)]
    pub bulk: super::bulk_cmd::BulkArgs,
}

impl PartiqlArgs {
    fn read_args(&self) -> ReadArgs {
        ReadArgs {
            index: None,
            limit: self.limit,
            consistent: false,
            filter: None,
            projection: None,
            names: None,
            values: None,
            expression_attribute_values: None,
            output: self.output,
            columns: self.columns.clone(),
            stats: self.stats,
            page_size: None,
            max_rcu: self.max_rcu,
            rcu_per_second: self.rcu_per_second,
        }
    }
}

fn bad(e: PartiqlError) -> CliError {
    CliError::bad_input(e.message)
}

pub async fn run(engine: &Engine, args: PartiqlArgs) -> Result<(), CliError> {
    if !(1..=MAX_SEGMENTS).contains(&args.segments) {
        return Err(CliError::bad_input(format!(
            "--segments '{}' is out of range; use 1 to {MAX_SEGMENTS}",
            args.segments
        )));
    }
    check_guard_flags(args.max_rcu, args.rcu_per_second)?;
    if let Some(flag) = args.bulk.named() {
        return Err(CliError::bad_input(format!(
            "{flag} is for an UPDATE or DELETE; a SELECT writes nothing, drop {flag}"
        )));
    }
    let parameters = match &args.parameters {
        Some(text) => parse_parameters(text).map_err(bad)?,
        None => Vec::new(),
    };
    let select = match parse(&args.statement) {
        Ok(Statement::Write(verb)) => return Err(CliError::bad_input(write_refusal(&verb))),
        Ok(Statement::Select(select)) => select,
        Err(e) if e.kind == ErrorKind::Unsupported => {
            return untranslated(engine, &args, &parameters, &e.message, None).await
        }
        Err(e) => return Err(bad(e)),
    };
    let info = engine.describe_table(&select.table).await?;
    let plan = match translate(&select, &parameters, &info) {
        Ok(plan) => plan,
        Err(e) if e.kind == ErrorKind::Unsupported => {
            return untranslated(engine, &args, &parameters, &e.message, Some(&select.table)).await
        }
        Err(e) => return Err(bad(e)),
    };
    let scan = plan.kind == ReadKind::Scan;
    // EXPLAIN and a refusal read nothing unless --sample asks: the advice comes from the
    // statement and DescribeTable, and says what a sample would cost.
    let advising = scan && (args.explain || !args.allow_scan);
    if args.sample && !advising {
        return Err(CliError::bad_input(
            "--sample only reads for the advice on a scan-shaped statement (with --explain, or refused without --allow-scan); drop --sample",
        ));
    }
    let sampled = match advising && args.sample {
        true => Some(sample(engine, &args, &plan, &info).await?),
        false => None,
    };
    let advice = match advising {
        true => advise(
            &select,
            &plan,
            &info,
            sampled.as_deref().unwrap_or_default(),
        ),
        false => Advice::None,
    };
    let offer = (advising && sampled.is_none()).then(|| sample_offer(&plan, &info));
    if args.explain {
        let text = explain(&Explained {
            select: &select,
            parameters: &parameters,
            plan: &plan,
            info: &info,
            advice: &advice,
            limit: args.limit,
        });
        let offer = offer.map(|o| format!("\n{o}\n")).unwrap_or_default();
        return print(&format!("{text}{offer}"));
    }
    if scan && !args.allow_scan {
        let mut line = refusal(&plan, &info, &advice);
        if let Some(o) = offer {
            line = format!("{line}; {o}");
        }
        return Err(CliError::bad_input(sanitize(&line).into_owned()));
    }
    run_plan(engine, &args, &select, plan, &info).await
}

/// What `--sample` would read and cost, for an EXPLAIN or a refusal that read nothing.
fn sample_offer(plan: &Plan, info: &TableInfo) -> String {
    format!(
        "no items were read to look for an index that serves it; --sample reads {SAMPLE_ITEMS} (≈ {} RCU at DescribeTable's average item size)",
        format_units(info.sample_units(plan.index.as_deref(), SAMPLE_ITEMS as u64))
    )
}

/// One page of the table or index the statement scans, asked for with `--sample`: priced
/// first, then read under the command's guards like any read.
async fn sample(
    engine: &Engine,
    args: &PartiqlArgs,
    plan: &Plan,
    info: &TableInfo,
) -> Result<Vec<Item>, CliError> {
    say!(
        "note: sampling {SAMPLE_ITEMS} items of '{}' to look for an index: ≈ {} RCU at DescribeTable's average item size",
        plan.index.as_deref().unwrap_or(&plan.table),
        format_units(info.sample_units(plan.index.as_deref(), SAMPLE_ITEMS as u64))
    );
    let mut spec = ReadSpec::new(Operation::Scan, &plan.table, ReadCause::SampleFlag);
    spec.index = plan.index.clone();
    spec.page_size = Some(SAMPLE_ITEMS);
    spec.limit = Some(SAMPLE_ITEMS as usize);
    spec.budget.max_pages = Some(1);
    spec.budget.max_rcu = args.max_rcu;
    spec.budget.rcu_per_second = args.rcu_per_second;
    let mut items = Vec::new();
    let drained = drain(engine, spec, |page| {
        items.extend(page.items);
        Next::Continue
    })
    .await;
    if let Some(failure) = drained.failure {
        return Err(failure.error.into());
    }
    if args.stats {
        super::say::say(&crate::model::formats::json::to_safe_json(
            &drained.stats,
            false,
        ));
    }
    Ok(items)
}

async fn run_plan(
    engine: &Engine,
    args: &PartiqlArgs,
    select: &Select,
    plan: Plan,
    info: &TableInfo,
) -> Result<(), CliError> {
    let read = args.read_args();
    let mut spec = crate::aws::plan_read(&plan);
    spec.average_item_bytes = info.average_item_bytes(plan.index.as_deref());
    spec.limit = args.limit;
    spec.budget.max_rcu = args.max_rcu;
    spec.budget.rcu_per_second = args.rcu_per_second;
    if plan.kind == ReadKind::Scan {
        spec.segments = args.segments;
    }
    let key_names = key_columns(info, select.index.as_deref());
    if plan.queries.is_empty() {
        return stream(engine, spec, key_names, &read, |_| Ok(())).await;
    }
    super::read_cmd::fan_out(engine, spec, key_names, &read, |per_query| {
        plan.merge(per_query)
    })
    .await
}

/// A SELECT dynoscope does not translate: DynamoDB may still run it, but nothing can say
/// beforehand what it reads, so it is sent only with --allow-scan, after saying so.
async fn untranslated(
    engine: &Engine,
    args: &PartiqlArgs,
    parameters: &[AttrValue],
    reason: &str,
    table: Option<&str>,
) -> Result<(), CliError> {
    let why = untranslated_reason(reason);
    // What would be sent: the SELECT spelled again from its tokens, comments dropped.
    let sent = read_statement(&args.statement).map_err(bad)?;
    if args.explain {
        let text = format!(
            "{why}\n\n── aws-cli (PartiQL) ──\n{}\n",
            dialects::execute_statement(&sent, parameters)
        );
        return print(&text);
    }
    if !args.allow_scan {
        return Err(CliError::bad_input(format!(
            "{why}, and it may read the whole table; add --allow-scan to send it anyway"
        )));
    }
    // ExecuteStatement has no segments: the flag cannot hold, so it is refused, not ignored.
    if args.segments > 1 {
        return Err(CliError::bad_input(format!(
            "--segments '{}' cannot split a statement sent as ExecuteStatement; drop --segments",
            args.segments
        )));
    }
    say!("note: {why}; sending it as ExecuteStatement");
    // The same read engine as Query and Scan: each page is admitted by the guard with its
    // `Limit`, counted in --stats, and stopped by --max-rcu.
    let mut spec = ReadSpec::statement(
        table.unwrap_or_default(),
        &sent,
        parameters.to_vec(),
        ReadCause::Statement,
    )
    .map_err(bad)?;
    spec.limit = args.limit;
    spec.budget.max_rcu = args.max_rcu;
    spec.budget.rcu_per_second = args.rcu_per_second;
    stream(engine, spec, Vec::new(), &args.read_args(), |_| Ok(())).await
}

fn print(text: &str) -> Result<(), CliError> {
    let mut out = String::new();
    for line in text.lines() {
        out.push_str(&sanitize(line));
        out.push('\n');
    }
    match io::stdout().lock().write_all(out.as_bytes()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(CliError::service(format!("cannot write output: {e}")))
        }
        _ => Ok(()),
    }
}
