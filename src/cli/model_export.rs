//! `model export TABLE`: the single-table design a live table holds, read from a key sample
//! spread over the table's key space (the pattern check's sample: one page from each segment
//! of a parallel Scan, priced and said before it is sent, every request reserved under
//! `--max-rcu` by the session guard), written as a NoSQL Workbench model, a Markdown design
//! document or JSON.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::args::{ExportArgs, GlobalArgs};
use super::read_spec::check_guard_flags;
use super::{connect, CliError};
use crate::aws::pattern_check::reader::{Outcome, Reader};
use crate::aws::read::reservation::SessionGuard;
use crate::aws::Engine;
use crate::model::design::inferred::{
    design_markdown, design_workbench, infer_design_sampled, IndexSample, ValueMode,
};
use crate::model::design::schema::TableInfo;
use crate::model::formats::json::to_safe_json;
use crate::model::item::value::Item;
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::capacity::format_units;

/// `--max-rcu` when not given: a sample is a few pages, not the table.
const DEFAULT_MAX_RCU: f64 = 10.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportOutput {
    /// A NoSQL Workbench model (format 3.0) that `model import` reads back.
    Workbench,
    /// A design document: kinds, indexes, access patterns, warnings, a Mermaid diagram.
    Markdown,
    /// The inferred design as one JSON object, for scripts.
    Json,
}

#[derive(Debug, Clone, Args)]
pub struct ModelExportArgs {
    /// The table to read the design of (with --export: the export's table, for DescribeTable;
    /// default: the one the export names).
    #[arg(required_unless_present = "export")]
    pub table: Option<String>,
    #[command(flatten)]
    pub export: ExportArgs,
    /// Read units the sample may spend (default 10); its price is said before it is sent.
    #[arg(long, value_name = "N", value_parser = super::ranges::max_rcu)]
    pub max_rcu: Option<f64>,
    /// What is written.
    #[arg(long, value_enum, default_value = "workbench")]
    pub output: ExportOutput,
    /// Keep the example items' values in the Workbench model (masked by default).
    #[arg(long)]
    pub with_values: bool,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    pub out: Option<PathBuf>,
}

pub async fn run(global: &GlobalArgs, args: ModelExportArgs) -> Result<(), CliError> {
    if args.export.export.is_some() {
        if args.max_rcu.is_some() {
            return Err(CliError::bad_input(
                "--max-rcu has no meaning with --export: an export's files are read without read capacity; drop it",
            ));
        }
        let (info, items, index_samples) =
            super::model_export_files::samples(global, &args).await?;
        return write_design(&args, &info, &items, &index_samples);
    }
    let table = super::read_cmd::required_table(&args.table)?;
    let max_rcu = args.max_rcu.unwrap_or(DEFAULT_MAX_RCU);
    check_guard_flags(Some(max_rcu), None)?;
    let guard = SessionGuard::new(Some(max_rcu), None).expect("a budget is set");
    let engine = Engine::new(&connect(global).await?).with_session_guard(Some(guard.clone()));
    let info = engine.describe_table(table).await?;
    let say = |line: &str| say!("{line}");
    let mut reader = Reader::new(&engine, &info, &say);
    let (items, index_samples) = tokio::select! {
        read = samples(&mut reader, max_rcu) => read?,
        _ = tokio::signal::ctrl_c() => return Err(CliError::new(130, "model export interrupted")),
    };
    say!(
        "note: read {} items of '{}' and {} of its indexes for {} RCU",
        items.len(),
        sanitize(table),
        index_samples.iter().map(|s| s.items.len()).sum::<usize>(),
        format_units(guard.spent())
    );
    write_design(&args, &info, &items, &index_samples)
}

fn write_design(
    args: &ModelExportArgs,
    info: &TableInfo,
    items: &[Item],
    index_samples: &[IndexSample],
) -> Result<(), CliError> {
    let design = infer_design_sampled(info, items, index_samples);
    let mode = match args.with_values {
        true => ValueMode::WithValues,
        false => ValueMode::Masked,
    };
    let text = match args.output {
        ExportOutput::Workbench => format!("{}\n", design_workbench(&design, mode)),
        ExportOutput::Markdown => design_markdown(&design),
        ExportOutput::Json => format!("{}\n", to_safe_json(&design, true)),
    };
    write_out(args.out.as_ref(), &text)
}

/// A spread sample of the table, then of each index read from the index itself, `max_rcu`
/// split between them (said before the first is sent): each read may spend its share of what
/// the reads before it left, so a small table's unspent share passes on to its indexes.
async fn samples(
    reader: &mut Reader<'_, Engine>,
    max_rcu: f64,
) -> Result<(Vec<Item>, Vec<IndexSample>), CliError> {
    let info = reader.info;
    let mut targets: Vec<Option<&str>> = vec![None];
    targets.extend(info.indexes.iter().map(|i| Some(i.name.as_str())));
    // The table's sample names the kinds and their attributes: it gets half the bound, the
    // indexes the other half between them (all of it when there is none).
    let indexes = info.indexes.len();
    let weight = |target: &Option<&str>| match target {
        None => indexes.max(1) as f64,
        Some(_) => 1.0,
    };
    match indexes {
        0 => say!("note: --max-rcu {} is the table's sample's", format_units(max_rcu)),
        n => say!(
            "note: --max-rcu {} is split over {} samples: {} RCU for the table's, {} for each of its {n} indexes' at most, what one leaves passing to the next",
            format_units(max_rcu),
            n + 1,
            format_units(max_rcu / 2.0),
            format_units(max_rcu / 2.0 / n as f64),
        ),
    }
    let mut items = Vec::new();
    let mut index_samples = Vec::new();
    for (n, target) in targets.iter().enumerate() {
        let left: f64 = targets[n..].iter().map(weight).sum();
        let share = (max_rcu - reader.spent_rcu) * weight(target) / left;
        reader.max_rcu = Some(reader.spent_rcu + share);
        match (reader.sample(*target).await?, target) {
            (Outcome::Done(sample), None) => items = sample.items,
            (Outcome::Done(sample), Some(index)) => index_samples.push(IndexSample {
                index: (*index).to_owned(),
                items: sample.items,
            }),
            (Outcome::BudgetSpent, None) => {
                return Err(CliError::new(
                    2,
                    format!(
                        "--max-rcu {} was spent before one item of '{}' was read; raise it",
                        format_units(max_rcu),
                        sanitize(&info.name)
                    ),
                ))
            }
            (Outcome::BudgetSpent, Some(index)) => say!(
                "note: index '{}' was not sampled: its share of --max-rcu was spent; its figures are the table sample's",
                sanitize(index)
            ),
        }
    }
    Ok((items, index_samples))
}

fn write_out(path: Option<&PathBuf>, text: &str) -> Result<(), CliError> {
    use std::io::Write as _;
    let Some(path) = path else {
        return match std::io::stdout().lock().write_all(text.as_bytes()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(CliError::service(format!("cannot write output: {e}")))
            }
            _ => Ok(()),
        };
    };
    std::fs::write(path, text).map_err(|e| {
        CliError::bad_input(format!(
            "cannot write '{}': {e}; choose another -o FILE",
            sanitize(&path.display().to_string())
        ))
    })
}
