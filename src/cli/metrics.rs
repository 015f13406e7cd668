//! `metrics TABLE [--since 3h] [--period 60] [--output json|table]`: the table's and each
//! GSI's CloudWatch metrics over the window, in one GetMetricData call (per 500 series).

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use super::args::{GlobalArgs, MetricsArgs, ReportOutput};
use super::CliError;
use crate::aws::cloudwatch::{metric_data, FeatureError};
use crate::aws::{Connection, Engine};
use crate::model::design::schema::TableInfo;
use crate::model::formats::json::to_safe_json;
use crate::model::input::duration::parse_duration;
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::metrics::report::{MetricsReport, Series, ThrottleEvents};
use crate::model::traffic::metrics::{MetricsPlan, Window};

pub fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The window of `--since`/`--period`, ending now.
pub fn window(since: &str, period: u32) -> Result<Window, CliError> {
    let since = parse_duration("--since", since).map_err(|e| CliError::bad_input(e.to_string()))?;
    Window::ending(now_secs(), since.as_secs(), period).map_err(CliError::bad_input)
}

/// Describes the table and reads its metrics over `window`.
pub async fn gather(
    conn: &Connection,
    engine: &Engine,
    table: &str,
    window: Window,
) -> Result<(TableInfo, Result<MetricsReport, FeatureError>), CliError> {
    let info = engine.describe_table(table).await?;
    let plan = MetricsPlan::new(table, &info.gsi_names(), window);
    let report = metric_data(&conn.cloudwatch, &plan).await.map(|answered| {
        MetricsReport::build(&plan, &answered).with_on_demand_max(info.on_demand_max)
    });
    Ok((info, report))
}

pub async fn run(global: &GlobalArgs, args: MetricsArgs) -> Result<(), CliError> {
    let window = window(&args.since, args.period)?;
    let conn = super::connect(global).await?;
    let engine = Engine::new(&conn);
    let (_, report) = gather(&conn, &engine, &args.table, window).await?;
    let report = report.map_err(|e| match e {
        FeatureError::Denied(d) => CliError::service(d.line().replacen("note: ", "", 1)),
        FeatureError::Failed(why) => CliError::service(why),
    })?;
    match args.output {
        ReportOutput::Json => println!("{}", to_safe_json(&report, false)),
        ReportOutput::Table => print!("{}", human(&report)),
    }
    Ok(())
}

const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// A sparkline of `series`, scaled to `top` (or its own peak).
pub fn sparkline(series: &Series, top: f64) -> String {
    let top = if top > 0.0 { top } else { series.peak };
    series
        .points
        .iter()
        .map(|&(_, v)| {
            if top <= 0.0 {
                BARS[0]
            } else {
                BARS[((v / top).clamp(0.0, 1.0) * 7.0).round() as usize]
            }
        })
        .collect()
}

fn throttles(out: &mut String, side: &str, t: &ThrottleEvents) {
    let _ = writeln!(
        out,
        "  {side} throttle events: {} (key range {}, provisioned {}, account limit {}, max on-demand {})",
        t.all, t.key_range, t.provisioned, t.account_limit, t.max_on_demand
    );
}

/// The `table` output: per target, capacity with its sparkline and throttles; then operations.
pub fn human(report: &MetricsReport) -> String {
    let mut out = String::new();
    let w = report.window;
    let _ = writeln!(
        out,
        "{} · {} min at {} s · {} metrics requested (${:.5} a refresh)",
        sanitize(&report.table),
        (w.end - w.start) / 60,
        w.period,
        report.metrics_requested,
        report.cost_usd
    );
    for t in &report.targets {
        let _ = writeln!(out, "{}", sanitize(&t.target.wording()));
        for (side, consumed, provisioned, events) in [
            (
                "read",
                &t.consumed_read,
                &t.provisioned_read,
                &t.read_throttles,
            ),
            (
                "write",
                &t.consumed_write,
                &t.provisioned_write,
                &t.write_throttles,
            ),
        ] {
            let unit = if side == "read" { "RCU" } else { "WCU" };
            let max = if side == "read" {
                t.max_on_demand_read
            } else {
                t.max_on_demand_write
            };
            let (prov, top) = match (provisioned, max) {
                (Some(p), _) => (format!("provisioned {:.1}/s", p.peak), p.peak),
                (None, Some(max)) => (format!("on-demand, max {max:.0}/s"), max),
                (None, None) => ("on-demand".to_string(), 0.0),
            };
            let _ = writeln!(
                out,
                "  {unit} consumed peak {:.1}/s avg {:.1}/s · {prov} {}",
                consumed.peak,
                consumed.average,
                sparkline(consumed, top)
            );
            throttles(&mut out, side, events);
        }
        if let Some(p) = t.online_index_progress {
            let _ = writeln!(out, "  backfill {p:.0}%");
        }
    }
    if !report.operations.is_empty() {
        let _ = writeln!(out, "operations");
    }
    for (op, o) in &report.operations {
        let mut line = format!("  {op}: throttled {}", o.throttled_requests);
        if let (Some(avg), Some(max)) = (o.latency_avg_ms, o.latency_max_ms) {
            let _ = write!(line, " · latency avg {avg:.1} ms max {max:.1} ms");
        }
        if let Some(n) = o.returned_items {
            let _ = write!(line, " · returned {n} items");
        }
        let _ = writeln!(out, "{line}");
    }
    out
}
