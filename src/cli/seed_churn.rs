//! `seed --churn RATE [--for DURATION]`: a steady write load on the demo table (created and
//! loaded first if it is missing), for `tail`, `hotkeys --writes` and the live view to watch.
//! Local endpoints only, by the same checks as `seed`.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::args::{GlobalArgs, SeedArgs};
use super::CliError;
use crate::aws::churn::{churn, table_exists, ChurnReport};
use crate::aws::{seed, Connection};
use crate::model::demo::churn::ChurnPlan;
use crate::model::demo::demo_data;
use crate::model::input::duration::{format_duration, parse_duration};

/// More than DynamoDB Local on a laptop takes; a typo like `--churn 1e9` is refused.
pub const MAX_CHURN_RATE: f64 = 10_000.0;
const PLAN_SEED: u64 = 0xC4_0272;

/// `--churn`'s rate, checked.
pub fn churn_rate(rate: f64) -> Result<f64, CliError> {
    if rate.is_finite() && rate > 0.0 && rate <= MAX_CHURN_RATE {
        Ok(rate)
    } else {
        Err(CliError::bad_input(format!(
            "--churn '{rate}' must be a number of writes per second above 0 and at most {MAX_CHURN_RATE}"
        )))
    }
}

pub fn summary(table: &str, report: &ChurnReport) -> String {
    format!(
        "churn: {} writes to '{table}' ({} puts, {} updates, {} deletes) in {:.1} s",
        report.writes(),
        report.puts,
        report.updates,
        report.deletes,
        report.elapsed.as_secs_f64()
    )
}

/// Runs the load on `conn` until `duration` passes or `cancel` fires.
pub async fn run_load(
    conn: &Connection,
    table: &str,
    users: u32,
    rate: f64,
    duration: Option<Duration>,
    cancel: CancellationToken,
) -> Result<ChurnReport, CliError> {
    let plan = ChurnPlan::new(users, PLAN_SEED);
    Ok(churn(conn, table, plan, rate, duration, cancel).await?)
}

pub async fn run(global: &GlobalArgs, args: SeedArgs) -> Result<(), CliError> {
    let Some(rate) = args.churn else {
        return Err(CliError::bad_input(format!(
            "--for '{}' only applies to --churn (how long to write); add e.g. --churn 50",
            args.for_duration.as_deref().unwrap_or_default()
        )));
    };
    let rate = churn_rate(rate)?;
    let duration = args
        .for_duration
        .as_deref()
        .map(|t| parse_duration("--for", t))
        .transpose()
        .map_err(|e| CliError::bad_input(e.to_string()))?;
    let mut options = super::connect_options(global)?;
    options.local_only = Some("seed --churn");
    let conn = crate::aws::connect(&options).await?;
    seed::ensure_local(&conn, "seed --churn")?;
    if !table_exists(&conn, &args.table).await? {
        let items = demo_data::generate(args.users);
        let loaded =
            seed::seed(&conn, &args.table, items, seed::SeedStream::NewAndOldImages).await?;
        say!(
            "loaded {loaded} items into '{}' at {}",
            args.table,
            conn.endpoint
        );
    }
    say!(
        "churn: writing {rate}/s to '{}' at {} {}",
        args.table,
        conn.endpoint,
        match duration {
            Some(d) => format!("for {}", format_duration(d)),
            None => "until Ctrl-C".to_string(),
        }
    );
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    let mut interrupted = false;
    let load = run_load(&conn, &args.table, args.users, rate, duration, cancel);
    tokio::pin!(load);
    let report = loop {
        tokio::select! {
            report = &mut load => break report?,
            _ = tokio::signal::ctrl_c(), if !interrupted => {
                interrupted = true;
                stop.cancel();
            }
        }
    };
    let line = summary(&args.table, &report);
    if interrupted {
        return Err(CliError::new(130, format!("{line}; interrupted")));
    }
    say!("{line}");
    Ok(())
}

/// `demo --churn RATE`: the load in the background until the returned guard is dropped (when
/// the demo ends). With `to_stderr` (no explorer on the terminal) its start and end are
/// printed; otherwise they go to the log, never over the explorer.
pub fn background(
    conn: &Connection,
    table: &str,
    users: u32,
    rate: f64,
    to_stderr: bool,
) -> tokio_util::sync::DropGuard {
    let cancel = CancellationToken::new();
    let (conn, table, stop) = (conn.clone(), table.to_string(), cancel.clone());
    if to_stderr {
        say!("churn: writing {rate}/s to '{table}' in the background");
    }
    tokio::spawn(async move {
        let outcome = run_load(&conn, &table, users, rate, None, stop).await;
        match (outcome, to_stderr) {
            (Ok(report), true) => say!("{}", summary(&table, &report)),
            (Ok(report), false) => tracing::info!("{}", summary(&table, &report)),
            (Err(e), true) => say!("churn stopped: {}", e.message),
            (Err(e), false) => tracing::warn!(error = %e.message, "churn stopped"),
        }
    });
    cancel.drop_guard()
}
