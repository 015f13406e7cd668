//! `patterns check TABLE`: every access pattern of a table (the config's, `--patterns FILE`'s,
//! a NoSQL Workbench model's) planned, measured on the table's own keys under one `--max-rcu`,
//! and judged in the primer's words; a summary a design review can paste. Exit 3 when a
//! pattern fails.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::args::GlobalArgs;
use super::patterns_measure::{draw_params, Outcome, Reader};
use super::read_spec::check_guard_flags;
use super::settings::Settings;
use super::{connect, CliError};
use crate::aws::read::reservation::SessionGuard;
use crate::aws::{pattern_read, plan_read, Engine, ReadSpec};
use crate::model::access_pattern::AccessPattern;
use crate::model::capacity::format_units;
use crate::model::json::to_safe_json;
use crate::model::partiql::{advise, Advice};
use crate::model::pattern_check::gsi::missing_index_read;
use crate::model::pattern_check::params::params_from_item;
use crate::model::pattern_check::render;
use crate::model::pattern_check::verdict::Evidence;
use crate::model::pattern_check::{
    judge, low_cardinality, plan, CheckReport, Measured, PatternPlan, PatternReport, ReadShape,
};
use crate::model::sanitize::sanitize;
use crate::model::schema::TableInfo;
use crate::model::value::Item;
use crate::model::workbench::patterns::access_patterns;

/// The exit code of a check that found a pattern failing.
pub const PATTERN_FAILED: u8 = 3;
/// `--max-rcu` when not given: a check reads a few pages, not the table.
const DEFAULT_MAX_RCU: f64 = 25.0;
const MAX_CALLS: usize = 100;

#[derive(Debug, Subcommand)]
pub enum PatternsCommand {
    /// Check TABLE against its access patterns (the config's, --patterns FILE's, --model's):
    /// each one's plan, measured cost and verdict, under one --max-rcu (exit 3: one failed).
    Check(PatternsCheckArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckOutput {
    Text,
    Json,
    Markdown,
}

#[derive(Debug, Clone, Args)]
pub struct PatternsCheckArgs {
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
        Some(file) => std::fs::read_to_string(file)
            .ok()
            .and_then(|text| crate::model::access_pattern::parse_patterns_file(&text, "").ok())
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
    let mut reader = Reader {
        engine: &engine,
        guard,
        info: &info,
        sample_rcu: 0.0,
    };
    let mut samples: BTreeMap<Option<String>, Vec<Item>> = BTreeMap::new();
    let mut budget_spent = false;
    let mut reports = Vec::new();
    for (pattern, source) in &patterns {
        let report = check_one(
            &mut reader,
            &mut samples,
            &mut budget_spent,
            &args,
            pattern,
            source,
        )
        .await?;
        reports.push(report);
    }
    let mut report = CheckReport::new(&args.table, max_rcu, reports);
    report.spent_rcu = reader.guard.spent();
    report.sample_rcu = reader.sample_rcu;
    if budget_spent {
        report.budget_note = Some(format!(
            "The budget ran out: the patterns not measured are judged from their plan; raise --max-rcu (now {}) to measure them.",
            format_units(max_rcu)
        ));
    }
    let text = match args.output {
        CheckOutput::Text => render::text(&report),
        CheckOutput::Markdown => render::markdown(&report),
        CheckOutput::Json => format!("{}\n", to_safe_json(&report, true)),
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

/// The sample of `index` (`None`: the table), read once for every pattern that needs it.
async fn sample<'s>(
    reader: &mut Reader<'_>,
    samples: &'s mut BTreeMap<Option<String>, Vec<Item>>,
    budget_spent: &mut bool,
    index: Option<&str>,
) -> Result<&'s [Item], CliError> {
    let key = index.map(str::to_string);
    if !samples.contains_key(&key) && !*budget_spent {
        let items = match reader.sample(index).await? {
            Outcome::Done(items) => items,
            Outcome::BudgetSpent => {
                *budget_spent = true;
                Vec::new()
            }
        };
        samples.insert(key.clone(), items);
    }
    Ok(samples.get(&key).map(Vec::as_slice).unwrap_or_default())
}

async fn check_one(
    reader: &mut Reader<'_>,
    samples: &mut BTreeMap<Option<String>, Vec<Item>>,
    budget_spent: &mut bool,
    args: &PatternsCheckArgs,
    pattern: &AccessPattern,
    source: &str,
) -> Result<PatternReport, CliError> {
    let info: &TableInfo = reader.info;
    let plan = plan(pattern, info);
    let scan = matches!(plan.shape, ReadShape::Scan { .. });
    let runs = !scan || (args.allow_scan && plan.pk_attribute.is_some());
    // A Scan is judged from its plan unless --allow-scan: nothing is read for it.
    let sample_index = match scan {
        true => None,
        false => pattern.index.clone(),
    };
    let items: Vec<Item> = match runs {
        true => sample(reader, samples, budget_spent, sample_index.as_deref())
            .await?
            .to_vec(),
        false => Vec::new(),
    };
    let params = draw(pattern, &plan, &items, args.calls);
    let gsi = match scan {
        true => missing_index_read(
            pattern,
            &plan,
            info,
            &params.first().cloned().unwrap_or_default(),
        ),
        false => None,
    };
    let advice = gsi
        .as_ref()
        .map(|(select, read)| advise(select, read, info, &items));
    let (measured, unmeasured) = match (runs, params.is_empty(), *budget_spent) {
        (false, _, _) if plan.pk_attribute.is_none() => (
            None,
            Some("a Scan of the whole table, and the pattern names no index_pk to propose an index for".to_string()),
        ),
        (false, _, _) => (
            None,
            Some("it can only be a Scan; --allow-scan runs it".to_string()),
        ),
        (true, _, true) => (None, Some("the budget ran out first".to_string())),
        (true, true, false) => (
            None,
            Some(format!(
                "no item of the {}-item sample fits its key templates",
                items.len()
            )),
        ),
        (true, false, false) => {
            let mut calls = Vec::new();
            for p in &params {
                let spec = call_spec(pattern, p, info, scan)?;
                match reader.call(spec).await? {
                    Outcome::Done(cost) => calls.push(cost),
                    Outcome::BudgetSpent => {
                        *budget_spent = true;
                        break;
                    }
                }
            }
            let note = (calls.len() < params.len()).then(|| {
                format!(
                    "the budget ran out after {} of {} calls",
                    calls.len(),
                    params.len()
                )
            });
            (Measured::of(calls, pattern.filter.is_some()), note)
        }
    };
    let risk = match (
        plan.reads_gsi,
        &plan.pk_attribute,
        pattern.params().is_empty(),
    ) {
        (true, Some(attr), false) => {
            let mut counts: BTreeMap<String, u64> = BTreeMap::new();
            for item in &items {
                let key = crate::model::distribution::key_text(item, attr);
                *counts.entry(key.into_owned()).or_default() += 1;
            }
            low_cardinality(attr, &counts)
        }
        _ => None,
    };
    let findings = judge(&Evidence {
        plan: &plan,
        measured: measured.as_ref(),
        risk: risk.as_ref(),
        advice: advice.as_ref().filter(|a| !matches!(a, Advice::None)),
    });
    Ok(PatternReport {
        name: pattern.name.clone(),
        source: source.to_string(),
        verdict: findings[0].clone(),
        plan,
        measured,
        unmeasured,
        risk,
        findings,
    })
}

/// Parameter sets for the calls, drawn from the sampled items' keys.
fn draw(
    pattern: &AccessPattern,
    plan: &PatternPlan,
    items: &[Item],
    calls: usize,
) -> Vec<BTreeMap<String, String>> {
    if pattern.params().is_empty() {
        return vec![BTreeMap::new(); calls];
    }
    let Some(pk) = plan.pk_attribute.as_deref() else {
        return Vec::new();
    };
    let sk = plan.sk_attribute.as_deref();
    draw_params(
        items
            .iter()
            .filter_map(|item| params_from_item(pattern, pk, sk, item)),
        calls,
    )
}

/// The read of one call: the pattern's Query (a segment per shard), or, for a pattern on a
/// missing index run with --allow-scan, the Scan PartiQL plans for it with these parameters.
fn call_spec(
    pattern: &AccessPattern,
    params: &BTreeMap<String, String>,
    info: &TableInfo,
    scan: bool,
) -> Result<ReadSpec, CliError> {
    if scan {
        let plan = plan(pattern, info);
        let (_, read) = missing_index_read(pattern, &plan, info, params)
            .ok_or_else(|| CliError::bad_input("the pattern's Scan cannot be planned"))?;
        let mut spec = plan_read(&read);
        spec.limit = pattern.limit;
        return Ok(spec);
    }
    let bound = pattern.bind(params)?;
    pattern_read(&bound, info).map_err(CliError::bad_input)
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
