//! `patterns check TABLE`: every access pattern of a table (the config's, `--patterns FILE`'s,
//! a NoSQL Workbench model's) planned, measured on the table's own keys under one `--max-rcu`,
//! and judged in the primer's words; a summary a design review can paste. Exit 3 when a
//! pattern fails.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::args::GlobalArgs;
use super::read_spec::check_guard_flags;
use super::settings::Settings;
use super::{connect, CliError};
use crate::aws::pattern_check::reader::Reader;
use crate::aws::pattern_check::Checker;
use crate::aws::read::reservation::SessionGuard;
use crate::aws::Engine;
use crate::model::design::access_pattern::AccessPattern;
use crate::model::design::pattern_check::{plan, refused, CheckReport};
use crate::model::design::pattern_check::{render, synthetic};
use crate::model::design::synthetic_keys::synthetic_keys;
use crate::model::formats::json::to_safe_json;
use crate::model::formats::workbench::patterns::access_patterns;
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::capacity::format_units;

/// The exit code of a check that found a pattern failing.
pub const PATTERN_FAILED: u8 = 3;
/// `--max-rcu` when not given: a check reads a few pages, not the table.
const DEFAULT_MAX_RCU: f64 = 25.0;
const MAX_CALLS: usize = 100;

#[derive(Debug, Subcommand)]
pub enum PatternsCommand {
    /// Check TABLE against its access patterns (the config's, --patterns FILE's, --model's):
    /// each one's plan, measured cost and verdict, under one --max-rcu (exit 3: one failed).
    #[command(after_long_help = super::args::examples::PATTERNS_CHECK)]
    Check(PatternsCheckArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckOutput {
    /// Lines and a summary table for people.
    Text,
    /// One JSON object, for scripts.
    Json,
    /// A Markdown report for a ticket or a review.
    Markdown,
}

#[derive(Debug, Clone, Args)]
pub struct PatternsCheckArgs {
    /// The table to check (its access patterns come from the config file or --patterns).
    #[arg(value_parser = super::ranges::table_name)]
    pub table: String,
    /// A NoSQL Workbench model whose access patterns are checked too (no config file needed).
    #[arg(long, value_name = "WORKBENCH.json")]
    pub model: Option<PathBuf>,
    /// Times each pattern runs, each with parameters drawn from another stored key (1-100).
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub calls: usize,
    /// Read units every sample and call of every pattern may spend together (default 25).
    #[arg(long, value_name = "N", value_parser = super::ranges::max_rcu)]
    pub max_rcu: Option<f64>,
    /// Run the patterns that can only be a Scan (an index the table does not have); without
    /// it they are judged from their plan alone and read nothing.
    #[arg(long)]
    pub allow_scan: bool,
    /// How the report is written: text for people, one JSON object, or Markdown for a ticket.
    #[arg(long, value_enum, default_value = "text")]
    pub output: CheckOutput,
}

/// The patterns for `table`, each with where it came from.
fn gather(
    global: &GlobalArgs,
    args: &PatternsCheckArgs,
) -> Result<Vec<(AccessPattern, String)>, CliError> {
    let settings = Settings::load(global)?;
    let from_file: Vec<String> = match &global.patterns {
        Some(file) => super::settings::read_start_file("patterns file", file)?
            .and_then(|text| {
                crate::model::design::access_pattern::parse_patterns_file(&text, "").ok()
            })
            .map(|ps| ps.into_iter().map(|p| p.name).collect())
            .unwrap_or_default(),
        None => Vec::new(),
    };
    let mut all: Vec<(AccessPattern, String)> = settings
        .patterns
        .into_iter()
        .map(|p| {
            let source = match &global.patterns {
                Some(file) if from_file.contains(&p.name) => file.display().to_string(),
                _ => "config".to_string(),
            };
            (p, source)
        })
        .collect();
    if let Some(file) = &args.model {
        let model = super::model_cmd::read_model(file)?;
        let (patterns, skipped) = access_patterns(&model);
        for line in skipped {
            say!("note: model file '{}': {line}", file.display());
        }
        for p in patterns {
            if all
                .iter()
                .any(|(q, _)| q.name == p.name && q.table == p.table)
            {
                return Err(CliError::bad_input(format!(
                    "access pattern '{}' is in the model file '{}' and in the config or patterns file; give each pattern its own name",
                    p.name,
                    file.display()
                )));
            }
            all.push((p, file.display().to_string()));
        }
    }
    let tables: Vec<String> = all.iter().map(|(p, _)| p.table.clone()).collect();
    all.retain(|(p, _)| p.table == args.table);
    if all.is_empty() {
        let mut known: Vec<String> = tables;
        known.sort();
        known.dedup();
        return Err(CliError::bad_input(format!(
            "no access patterns for table '{}' ({}); declare [[pattern]]s with table = \"{}\" in the config file or --patterns FILE, or pass --model WORKBENCH.json",
            args.table,
            match known.is_empty() {
                true => "none are declared".to_string(),
                false => format!("the patterns given are for: {}", known.join(", ")),
            },
            args.table
        )));
    }
    Ok(all)
}

pub async fn run(global: &GlobalArgs, args: PatternsCheckArgs) -> Result<(), CliError> {
    if !(1..=MAX_CALLS).contains(&args.calls) {
        return Err(CliError::bad_input(format!(
            "--calls '{}' is out of range; use 1 to {MAX_CALLS}",
            args.calls
        )));
    }
    let max_rcu = args.max_rcu.unwrap_or(DEFAULT_MAX_RCU);
    check_guard_flags(Some(max_rcu), None)?;
    let patterns = gather(global, &args)?;
    // One budget for every sample and call of every pattern: the engine's session guard
    // reserves each request's worst case before it is sent.
    let guard = SessionGuard::new(Some(max_rcu), None).expect("a budget is set");
    let engine = Engine::new(&connect(global).await?).with_session_guard(Some(guard.clone()));
    let info = engine.describe_table(&args.table).await?;
    let say = |line: &str| say!("{line}");
    let reader = Reader::new(&engine, &info, &say);
    let mut checker = Checker::new(reader, args.calls, args.allow_scan);
    let work = async {
        checker.sample_all(patterns.iter().map(|(p, _)| p)).await?;
        let mut reports = Vec::new();
        for (pattern, source) in &patterns {
            // A pattern DynamoDB refuses fails on its own, named with the service's reason;
            // the others are still checked, and what was paid for is still reported.
            let report = match checker.check(pattern, source).await {
                Ok(report) => report,
                Err(e) => refused(pattern, source, plan(pattern, &info), &e.message),
            };
            reports.push(report);
        }
        Ok::<_, CliError>(reports)
    };
    // Ctrl-C ends the check; the reads in flight end with the process.
    let reports = tokio::select! {
        reports = work => reports?,
        _ = tokio::signal::ctrl_c() => return Err(CliError::new(130, "patterns check interrupted")),
    };
    let budget_spent = checker.budget_spent;
    let mut report = CheckReport::new(&args.table, max_rcu, reports);
    report.spent_rcu = guard.spent();
    report.sample_rcu = checker.reader.sample_rcu;
    if budget_spent {
        report.budget_note = Some(format!(
            "The budget ran out: the patterns not measured are judged from their plan; raise --max-rcu (now {}) to measure them.",
            format_units(max_rcu)
        ));
    }
    // The synthetic-keys section, from the table's sample the check read anyway (none is read
    // for it): after the patterns' report, which it leaves as it was.
    let advice = checker
        .table_sample()
        .map(|sample| synthetic_keys(&info, &sample.items))
        .unwrap_or_default();
    let text = match args.output {
        CheckOutput::Text => render::text(&report) + &synthetic::text(&advice),
        CheckOutput::Markdown => render::markdown(&report) + &synthetic::markdown(&advice),
        CheckOutput::Json => {
            let mut json =
                serde_json::to_value(&report).map_err(|e| CliError::service(e.to_string()))?;
            if !advice.is_empty() {
                json["synthetic_keys"] =
                    serde_json::to_value(&advice).map_err(|e| CliError::service(e.to_string()))?;
            }
            format!("{}\n", to_safe_json(&json, true))
        }
    };
    print(&text)?;
    if report.failed.is_empty() {
        return Ok(());
    }
    Err(CliError::new(
        PATTERN_FAILED,
        format!(
            "{} of {} access patterns of '{}' failed the check: {}",
            report.failed.len(),
            report.patterns.len(),
            sanitize(&args.table),
            sanitize(&report.failed.join(", "))
        ),
    ))
}

fn print(text: &str) -> Result<(), CliError> {
    use std::io::Write as _;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::service(format!("cannot write output: {e}")))
        }
        _ => Ok(()),
    }
}
