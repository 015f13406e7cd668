//! `diagnose TABLE`: the metrics, Contributor Insights and the table's description turned
//! into verdicts ([`crate::model::traffic::diagnose`]). Exit 0, or 3 when a verdict says the table is
//! throttling now. A permission missing costs only its evidence, with one line naming it.

use std::fmt::Write as _;

use serde::Serialize;

use clap::Args;

use super::args::{GlobalArgs, MetricsArgs, ReportOutput};
use super::ranges;
use super::CliError;
use crate::aws::cloudwatch::FeatureError;
use crate::aws::stream::RETENTION;
use crate::aws::Engine;
use crate::model::formats::json::to_safe_json;
use crate::model::input::duration::parse_duration_at_most;
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::diagnose::{
    diagnose, keys_wanted, Evidence, IndexFacts, SampledKey, Verdict,
};

#[derive(Debug, Serialize)]
struct Report<'a> {
    table: &'a str,
    throttling_now: bool,
    verdicts: &'a [Verdict],
    /// `--sample-keys`: the largest stored key of each table or GSI sampled.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    sampled_keys: &'a [SampledKey],
}

#[derive(Debug, Clone, Args)]
pub struct DiagnoseArgs {
    #[command(flatten)]
    pub metrics: MetricsArgs,
    /// Where Contributor Insights names no hot key: sample the throttled table's or GSI's
    /// stored partition keys with a keys-only Scan (spends read capacity, at most --max-rcu)
    /// and name the largest.
    #[arg(long, help_heading = "Sampling")]
    pub sample_keys: bool,
    /// With --sample-keys: the read units all samples together may spend (default 25).
    #[arg(long, value_name = "N", value_parser = ranges::max_rcu, requires = "sample_keys", help_heading = "Capacity")]
    pub max_rcu: Option<f64>,
    /// Where Contributor Insights names no hot key: follow the table's stream for DURATION
    /// (e.g. 30s; reads only the stream) and name the key written most.
    #[arg(long, value_name = "DURATION", help_heading = "Sampling")]
    pub sample_writes: Option<String>,
    /// With --sample-keys: rate-limit the samples to N read units per second.
    #[arg(long, value_name = "N", value_parser = ranges::rcu_per_second, requires = "sample_keys", help_heading = "Capacity")]
    pub rcu_per_second: Option<f64>,
}

/// The exit code of a table that is throttling now.
pub const THROTTLING_NOW: u8 = 3;

pub async fn run(global: &GlobalArgs, diagnose_args: DiagnoseArgs) -> Result<(), CliError> {
    let args = &diagnose_args.metrics;
    let window = super::metrics::window(&args.since, args.period)?;
    let follow = match &diagnose_args.sample_writes {
        None => None,
        Some(text) => Some(
            parse_duration_at_most("--sample-writes", text, RETENTION, "follow for at most 24h")
                .map_err(|e| CliError::bad_input(e.to_string()))?,
        ),
    };
    let conn = super::connect(global).await?;
    let engine = Engine::new(&conn);
    let (info, metrics) = super::metrics::gather(&conn, &engine, &args.table, window).await?;
    let metrics = match metrics {
        Ok(m) => Some(m),
        Err(FeatureError::Denied(d)) => {
            super::say::say(&d.line());
            None
        }
        Err(FeatureError::Failed(why)) => {
            super::say::say(&format!("note: {why}; the verdicts go without the metrics"));
            None
        }
    };
    let (insights, notes) = super::insights::collect(&conn, &engine, &info, window).await;
    for n in &notes {
        super::say::say(n);
    }
    let indexes = IndexFacts::of_gsis(&info);
    let evidence = |sampled| Evidence {
        table_size_bytes: info.size_bytes,
        indexes: &indexes,
        metrics: metrics.as_ref(),
        insights: &insights,
        sampled,
    };
    let mut verdicts = diagnose(&evidence(&[]));
    let wanted = keys_wanted(&verdicts, &insights);
    let mut sampled: Vec<SampledKey> = Vec::new();
    let sampling = diagnose_args.sample_keys || follow.is_some();
    if sampling && wanted.is_empty() {
        super::say::say("note: no verdict names a hot key without its key; nothing was sampled");
    }
    if diagnose_args.sample_keys && !wanted.is_empty() {
        let budget = diagnose_args
            .max_rcu
            .unwrap_or(super::diagnose_keys::DEFAULT_SAMPLE_RCU);
        let notes;
        (sampled, notes) = super::diagnose_keys::sample(
            &engine,
            &info,
            &wanted,
            budget,
            diagnose_args.rcu_per_second,
        )
        .await;
        for n in &notes {
            super::say::say(n);
        }
    }
    if let (Some(duration), false) = (follow, wanted.is_empty()) {
        let (written, notes) =
            super::diagnose_keys::sample_writes(&conn, &args.table, &wanted, duration).await;
        for n in &notes {
            super::say::say(n);
        }
        sampled.extend(written);
    }
    if !sampled.is_empty() {
        verdicts = diagnose(&evidence(&sampled));
    }
    let now = verdicts.iter().any(|v| v.throttling_now);
    match args.output {
        ReportOutput::Json => println!(
            "{}",
            to_safe_json(
                &Report {
                    table: &args.table,
                    throttling_now: now,
                    verdicts: &verdicts,
                    sampled_keys: &sampled,
                },
                false
            )
        ),
        ReportOutput::Table => {
            let mut out = String::new();
            if verdicts.is_empty() {
                let _ = writeln!(
                    out,
                    "no verdict: nothing in the evidence points at a problem"
                );
            }
            for v in &verdicts {
                let mark = if v.throttling_now { "now: " } else { "" };
                let _ = writeln!(out, "- {mark}{}", sanitize(&v.says));
            }
            print!("{out}");
        }
    }
    if now {
        return Err(CliError::new(
            THROTTLING_NOW,
            format!("'{}' is throttling now", args.table),
        ));
    }
    Ok(())
}
