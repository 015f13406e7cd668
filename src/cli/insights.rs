//! `insights TABLE`: Contributor Insights of the table and each GSI — on or off, its mode,
//! and when on its rules' top keys with count and share. Never enables it (it is billed):
//! when off, the line says the command that does, and what works without it.

use std::fmt::Write as _;

use serde::Serialize;

use super::args::{GlobalArgs, MetricsArgs, ReportOutput};
use super::CliError;
use crate::aws::cloudwatch::FeatureError;
use crate::aws::{Connection, Engine};
use crate::model::design::schema::TableInfo;
use crate::model::formats::json::to_safe_json;
use crate::model::text::sanitize::sanitize;
use crate::model::text::wording::percent;
use crate::model::traffic::insights::{TargetInsights, WITHOUT_IT};
use crate::model::traffic::metrics::Window;

#[derive(Debug, Serialize)]
struct Report<'a> {
    table: &'a str,
    targets: &'a [TargetInsights],
}

/// Contributor Insights of every target of `info`; a denied or failed call is a note.
pub async fn collect(
    conn: &Connection,
    engine: &Engine,
    info: &TableInfo,
    window: Window,
) -> (Vec<TargetInsights>, Vec<String>) {
    let gsis = info.gsi_names();
    let (found, problems) = engine
        .table_insights(&conn.cloudwatch, &info.name, gsis, window)
        .await;
    let mut notes: Vec<String> = problems.into_iter().map(note).collect();
    notes.dedup();
    (found, notes)
}

fn note(e: FeatureError) -> String {
    match e {
        FeatureError::Denied(d) => d.line(),
        FeatureError::Failed(why) => format!("note: {why}"),
    }
}

pub fn human(found: &[TargetInsights]) -> String {
    let mut out = String::new();
    for t in found {
        let what = sanitize(&t.target.wording()).into_owned();
        match &t.enable_with {
            Some(cmd) => {
                let _ = writeln!(
                    out,
                    "{what}: Contributor Insights {}; enable it (billed) with: {} — {WITHOUT_IT}",
                    sanitize(&t.status),
                    sanitize(cmd)
                );
            }
            None => {
                let mode = t
                    .mode
                    .as_deref()
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "{what}: Contributor Insights {}{}",
                    sanitize(&t.status),
                    sanitize(&mode)
                );
                for rule in &t.rules {
                    let _ = writeln!(out, "  {} (of {}):", rule.kind.wording(), rule.total);
                    for c in &rule.top {
                        let _ = writeln!(
                            out,
                            "    {}  {}  {}",
                            sanitize(&c.keys.join(" / ")),
                            c.count,
                            percent(c.share)
                        );
                    }
                }
            }
        }
    }
    out
}

pub async fn run(global: &GlobalArgs, args: MetricsArgs) -> Result<(), CliError> {
    let window = super::metrics::window(&args.since, args.period)?;
    let conn = super::connect(global).await?;
    let engine = Engine::new(&conn);
    let info = engine.describe_table(&args.table).await?;
    let (found, notes) = collect(&conn, &engine, &info, window).await;
    if found.is_empty() && !notes.is_empty() {
        // Nothing to show: an empty report with exit 0 would read as "no insights".
        return Err(failed(&notes));
    }
    match args.output {
        ReportOutput::Json => println!(
            "{}",
            to_safe_json(
                &Report {
                    table: &args.table,
                    targets: &found
                },
                false
            )
        ),
        ReportOutput::Table => print!("{}", human(&found)),
    }
    // What was fetched is printed; a call that failed or was denied still fails the command,
    // as in `metrics`, so a script never takes a partial report for a whole one.
    match notes.is_empty() {
        true => Ok(()),
        false => Err(failed(&notes)),
    }
}

/// The problems as the one error line: the first in full, the number of the others.
fn failed(notes: &[String]) -> CliError {
    let first = notes[0].strip_prefix("note: ").unwrap_or(&notes[0]);
    match notes.len() {
        1 => CliError::service(first),
        n => CliError::service(format!("{first} (and {} more like it)", n - 1)),
    }
}
