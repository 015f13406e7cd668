//! `partiql 'STATEMENT'`: a PartiQL SELECT translated to the Query or Scan DynamoDB would run,
//! said before anything is sent (`--explain`), and run as that read under the capacity guards.
//! A scan-shaped statement needs `--allow-scan`; a SELECT that cannot be translated is sent as
//! ExecuteStatement only with it, after a line saying its capacity cannot be guarded; writes
//! are refused.

use clap::Args;

use super::args::ReadArgs;
use super::drain::{drain, Next};
use super::output::{ItemWriter, OutputFormat};
use super::read_spec::{check_guard_flags, key_columns};
use super::stream::stream;
use super::CliError;
use crate::aws::read::MAX_SEGMENTS;
use crate::aws::{Engine, Operation, ReadSpec};
use crate::model::partiql::{
    advise, dialects, explain, parse, parse_parameters, refusal, translate, untranslated_reason,
    write_refusal, Advice, ErrorKind, Explained, PartiqlError, Plan, ReadKind, Select, Statement,
};
use crate::model::sanitize::sanitize;
use crate::model::value::{AttrValue, Item};
use std::io::{self, IsTerminal, Write};

/// Items a scan-shaped statement's EXPLAIN and refusal sample (one page) to find the index
/// that serves it and to size the one that would.
const SAMPLE_ITEMS: i32 = 200;

#[derive(Debug, Clone, Args)]
pub struct PartiqlArgs {
    /// The statement, e.g. "SELECT * FROM \"app\".\"GSI1\" WHERE GSI1PK = ?".
    pub statement: String,
    /// One value per ?, as a JSON array: plain JSON ('["a", 5]') or DynamoDB JSON elements
    /// ('[{"S":"a"}]').
    #[arg(long, value_name = "JSON")]
    pub parameters: Option<String>,
    /// Say what the statement reads, in every dialect, and send nothing (a scan-shaped one
    /// samples one page to find the index that would serve it).
    #[arg(long)]
    pub explain: bool,
    /// Run a scan-shaped statement as a Scan (under the guards), or send one that cannot be
    /// translated as ExecuteStatement (unguarded).
    #[arg(long)]
    pub allow_scan: bool,
    /// Parallel scan segments for a scan-shaped statement (1-1000).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = super::ranges::segments)]
    pub segments: u32,
    /// Stop after N items in total.
    #[arg(long, value_name = "N", value_parser = super::ranges::limit)]
    pub limit: Option<usize>,
    #[arg(long, value_enum, default_value = "jsonl")]
    pub output: OutputFormat,
    /// With --output csv: the columns, comma-separated.
    #[arg(long, value_name = "A,B,…", value_parser = super::ranges::columns)]
    pub columns: Option<String>,
    /// Print request statistics as one JSON object on the last line of stderr.
    #[arg(long)]
    pub stats: bool,
    /// Stop cleanly once consumed capacity reaches N read units.
    #[arg(long, value_name = "N", value_parser = super::ranges::max_rcu)]
    pub max_rcu: Option<f64>,
    /// Rate-limit all requests together to N read units per second.
    #[arg(long, value_name = "N", value_parser = super::ranges::rcu_per_second)]
    pub rcu_per_second: Option<f64>,
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
    let parameters = match &args.parameters {
        Some(text) => parse_parameters(text).map_err(bad)?,
        None => Vec::new(),
    };
    let select = match parse(&args.statement) {
        Ok(Statement::Write(verb)) => return Err(CliError::bad_input(write_refusal(&verb))),
        Ok(Statement::Select(select)) => select,
        Err(e) if e.kind == ErrorKind::Unsupported => {
            return untranslated(engine, &args, &parameters, &e.message).await
        }
        Err(e) => return Err(bad(e)),
    };
    let info = engine.describe_table(&select.table).await?;
    let plan = match translate(&select, &parameters, &info) {
        Ok(plan) => plan,
        Err(e) if e.kind == ErrorKind::Unsupported => {
            return untranslated(engine, &args, &parameters, &e.message).await
        }
        Err(e) => return Err(bad(e)),
    };
    let scan = plan.kind == ReadKind::Scan;
    let advice = if scan && (args.explain || !args.allow_scan) {
        advise(&select, &plan, &info, &sample(engine, &plan).await?)
    } else {
        Advice::None
    };
    if args.explain {
        let text = explain(&Explained {
            select: &select,
            parameters: &parameters,
            plan: &plan,
            info: &info,
            advice: &advice,
            limit: args.limit,
        });
        return print(&text);
    }
    if scan && !args.allow_scan {
        return Err(CliError::bad_input(
            sanitize(&refusal(&plan, &info, &advice)).into_owned(),
        ));
    }
    run_plan(engine, &args, &select, plan, &info).await
}

/// One page of the table or index the statement scans: the items the advice is drawn from.
async fn sample(engine: &Engine, plan: &Plan) -> Result<Vec<Item>, CliError> {
    let mut spec = ReadSpec::new(Operation::Scan, &plan.table);
    spec.index = plan.index.clone();
    spec.page_size = Some(SAMPLE_ITEMS);
    spec.limit = Some(SAMPLE_ITEMS as usize);
    spec.max_pages = Some(1);
    let mut items = Vec::new();
    let drained = drain(engine, spec, |page| {
        items.extend(page.items);
        Next::Continue
    })
    .await;
    if let Some(failure) = drained.failure {
        return Err(failure.error.into());
    }
    Ok(items)
}

async fn run_plan(
    engine: &Engine,
    args: &PartiqlArgs,
    select: &Select,
    plan: Plan,
    info: &crate::model::schema::TableInfo,
) -> Result<(), CliError> {
    let read = args.read_args();
    let mut spec = crate::aws::plan_read(&plan);
    spec.limit = args.limit;
    spec.max_rcu = args.max_rcu;
    spec.rcu_per_second = args.rcu_per_second;
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
) -> Result<(), CliError> {
    let why = untranslated_reason(reason);
    if args.explain {
        let text = format!(
            "{why}\n\n── aws-cli (PartiQL) ──\n{}\n",
            dialects::execute_statement(&args.statement, parameters)
        );
        return print(&text);
    }
    if !args.allow_scan {
        return Err(CliError::bad_input(format!(
            "{why}, and it may read the whole table; add --allow-scan to send it anyway"
        )));
    }
    say!("note: {why}; sending it as ExecuteStatement");
    let stdout = io::stdout().lock();
    let terminal = stdout.is_terminal();
    let mut writer = ItemWriter::new(stdout, args.output, Vec::new())
        .with_csv_columns(super::stream::csv_columns(&args.read_args()))
        .to_terminal(terminal);
    let mut write_error = None;
    engine
        .execute_statement(
            &args.statement,
            parameters,
            args.limit,
            |items| match writer.write_page(&items) {
                Ok(()) => true,
                Err(e) => {
                    write_error = Some(e);
                    false
                }
            },
        )
        .await?;
    let finished = match write_error {
        Some(e) => Err(e),
        None => writer.finish(),
    };
    match finished {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(CliError::service(format!("cannot write output: {e}")))
        }
        _ => Ok(()),
    }
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
