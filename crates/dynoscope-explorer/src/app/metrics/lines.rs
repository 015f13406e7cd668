//! The metrics pane's lines, for a given width: `update` counts them to scroll, `ui` styles
//! and draws the visible ones. Each series is a sparkline over the whole window (one column
//! per few periods, the column showing its periods' maximum so a peak is never averaged
//! away) with the peak beside it; each target has a time axis under its heading.

use std::fmt::Write as _;

use super::insights_lines::insights_lines;
use crate::app::state::{MetricsPane, MetricsStatus};
use crate::model::text::sanitize::sanitize;
use crate::model::text::wording::percent;
use crate::model::traffic::metrics::report::{MetricsReport, Series, TargetReport, ThrottleEvents};
use crate::model::traffic::metrics::{Target, Window};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    Heading,
    /// A verdict of a table throttling now.
    Alarm,
    Verdict,
    /// A denied permission or a failed call.
    Warn,
    Axis,
    Plain,
    /// The Contributor Insights key under the cursor.
    Selected,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneLine {
    pub kind: LineKind,
    pub text: String,
}

pub(crate) fn line(kind: LineKind, text: impl Into<String>) -> PaneLine {
    PaneLine {
        kind,
        text: text.into(),
    }
}

/// Width of a series' label column.
const LABEL: usize = 24;

const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The sparkline's width at a pane `width`: what is left beside the label and the peak.
fn spark_width(width: u16) -> usize {
    (width as usize).saturating_sub(LABEL + 28).clamp(10, 120)
}

/// `series` over `window` in `cols` columns scaled to `top`: periods without a datapoint are
/// zero (CloudWatch leaves out the periods nothing happened in).
pub fn spark(series: &Series, window: &Window, cols: usize, top: f64) -> String {
    let slots = window.points().max(1);
    let mut values = vec![0.0_f64; slots];
    let period = i64::from(window.period.max(1));
    for &(t, v) in &series.points {
        let i = (t - window.start).div_euclid(period);
        if (0..slots as i64).contains(&i) {
            values[i as usize] = values[i as usize].max(v);
        }
    }
    let cols = cols.min(slots).max(1);
    (0..cols)
        .map(|c| {
            let (from, to) = (
                c * slots / cols,
                ((c + 1) * slots / cols).max(c * slots / cols + 1),
            );
            let v = values[from..to.min(slots)]
                .iter()
                .copied()
                .fold(0.0, f64::max);
            if top <= 0.0 || v <= 0.0 {
                ' '
            } else {
                BARS[((v / top).clamp(0.0, 1.0) * 7.0).round() as usize]
            }
        })
        .collect()
}

/// The axis under a target's heading: hour marks back from now, at the sparkline's columns.
fn axis(window: &Window, cols: usize) -> String {
    let slots = window.points().max(1);
    let cols = cols.min(slots).max(1);
    let span = (window.end - window.start).max(1);
    let mut out: Vec<char> = vec!['─'; cols];
    let step = if span > 6 * 3600 {
        3 * 3600
    } else if span > 3600 {
        3600
    } else {
        900
    };
    let mut back = 0;
    let mut marks = Vec::new();
    while back <= span {
        let col = ((span - back) * cols as i64 / span).min(cols as i64 - 1) as usize;
        let label = if back == 0 {
            "now".to_string()
        } else if step >= 3600 {
            format!("-{}h", back / 3600)
        } else {
            format!("-{}m", back / 60)
        };
        marks.push((col, label));
        back += step;
    }
    for (col, label) in marks {
        let start = col
            .saturating_sub(label.chars().count() - 1)
            .min(cols - label.len().min(cols));
        if out[start..(start + label.len()).min(cols)]
            .iter()
            .all(|c| *c == '─')
        {
            for (i, ch) in label.chars().enumerate() {
                if start + i < cols {
                    out[start + i] = ch;
                }
            }
        }
    }
    format!("{:LABEL$}{}", "", out.into_iter().collect::<String>())
}

fn series_line(label: &str, s: &Series, w: &Window, cols: usize, top: f64, unit: &str) -> PaneLine {
    line(
        LineKind::Plain,
        format!(
            "{label:<LABEL$}{} peak {:.1}{unit} avg {:.1}{unit}",
            spark(s, w, cols, top),
            s.peak,
            s.average
        ),
    )
}

fn throttle_line(side: &str, t: &ThrottleEvents) -> PaneLine {
    let kind = if t.any() {
        LineKind::Warn
    } else {
        LineKind::Plain
    };
    line(
        kind,
        format!(
            "{:<LABEL$}{} (key range {} · provisioned {} · account limit {} · max on-demand {}){}",
            format!("  {side} throttle events"),
            t.all
                .max(t.key_range + t.provisioned + t.account_limit + t.max_on_demand),
            t.key_range,
            t.provisioned,
            t.account_limit,
            t.max_on_demand,
            if t.recent > 0.0 { " · now" } else { "" }
        ),
    )
}

fn target_lines(out: &mut Vec<PaneLine>, t: &TargetReport, w: &Window, cols: usize) {
    out.push(line(LineKind::Heading, sanitize(&t.target.wording())));
    out.push(line(LineKind::Axis, axis(w, cols)));
    for (unit, consumed, provisioned, max) in [
        (
            "RCU",
            &t.consumed_read,
            &t.provisioned_read,
            t.max_on_demand_read,
        ),
        (
            "WCU",
            &t.consumed_write,
            &t.provisioned_write,
            t.max_on_demand_write,
        ),
    ] {
        // Consumption is drawn against what the table may serve: provisioned, or the
        // on-demand maximum where one is set.
        let top = consumed
            .peak
            .max(provisioned.as_ref().map_or(0.0, |p| p.peak))
            .max(max.unwrap_or_default());
        out.push(series_line(
            &format!("  {unit} consumed /s"),
            consumed,
            w,
            cols,
            top,
            "",
        ));
        let capacity = format!("  {unit} capacity");
        match (provisioned, max) {
            (Some(p), _) => out.push(series_line(
                &format!("  {unit} provisioned /s"),
                p,
                w,
                cols,
                top,
                "",
            )),
            (None, Some(max)) => out.push(line(
                LineKind::Plain,
                format!(
                    "{capacity:<LABEL$}on-demand · max {max:.0} /s (MaxOnDemandThroughput; the peak is {} of it)",
                    percent(consumed.peak / max)
                ),
            )),
            // Only the table's maximum is read (DescribeTable's OnDemandThroughput).
            (None, None) if t.target == Target::Table => out.push(line(
                LineKind::Plain,
                format!("{capacity:<LABEL$}on-demand · no maximum set"),
            )),
            (None, None) => out.push(line(
                LineKind::Plain,
                format!("{capacity:<LABEL$}on-demand"),
            )),
        }
    }
    for (side, events) in [("read", &t.read_throttles), ("write", &t.write_throttles)] {
        out.push(throttle_line(side, events));
        if events.any() {
            let s = &events.over_time;
            out.push(line(
                LineKind::Warn,
                format!(
                    "{:<LABEL$}{} peak {} in {} s",
                    format!("  {side} throttles"),
                    spark(s, w, cols, s.peak),
                    s.peak,
                    w.period
                ),
            ));
        }
    }
    if let Some(p) = t.online_index_progress {
        out.push(line(
            LineKind::Plain,
            format!(
                "{:<LABEL$}{p:.0}% (OnlineIndexPercentageProgress)",
                "  backfill"
            ),
        ));
    }
}

fn operation_lines(out: &mut Vec<PaneLine>, report: &MetricsReport) {
    if report.operations.is_empty() {
        return;
    }
    out.push(line(LineKind::Heading, "operations"));
    for (op, o) in &report.operations {
        let mut text = format!(
            "{:<LABEL$}throttled requests {}",
            format!("  {op}"),
            o.throttled_requests
        );
        if let (Some(avg), Some(max)) = (o.latency_avg_ms, o.latency_max_ms) {
            let _ = write!(text, " · latency avg {avg:.1} ms max {max:.1} ms");
        }
        if let Some(n) = o.returned_items {
            let _ = write!(text, " · returned {n} items");
        }
        let kind = if o.throttled_requests > 0.0 {
            LineKind::Warn
        } else {
            LineKind::Plain
        };
        out.push(line(kind, text));
    }
}

/// `text` in lines of at most `width` characters, broken at spaces; continuation lines are
/// indented by two so a wrapped sentence reads as one.
pub(crate) fn wrap(out: &mut Vec<PaneLine>, kind: LineKind, text: &str, width: usize) {
    let width = width.max(20);
    let mut current = String::new();
    for word in text.split(' ') {
        let len = current.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            out.push(line(kind, std::mem::take(&mut current)));
            current.push_str("  ");
        } else if len > 0 {
            current.push(' ');
        }
        current.push_str(word);
    }
    if !current.trim().is_empty() {
        out.push(line(kind, current));
    }
}

/// Every line of `pane` at `width`, first to last.
pub fn pane_lines(pane: &MetricsPane, width: u16) -> Vec<PaneLine> {
    let mut out = Vec::new();
    let cols = width as usize;
    match &pane.status {
        MetricsStatus::Loading => {
            out.push(line(LineKind::Plain, "asking CloudWatch (GetMetricData)…"))
        }
        MetricsStatus::Denied(why) => {
            wrap(&mut out, LineKind::Warn, &sanitize(why), cols);
            out.push(line(
                LineKind::Plain,
                "the rest of dynoscope works without it; Esc closes the pane",
            ));
        }
        MetricsStatus::Failed(why) => wrap(
            &mut out,
            LineKind::Warn,
            &format!("{}; the next refresh tries again", sanitize(why)),
            cols,
        ),
        MetricsStatus::Ready => {}
    }
    if let Some(report) = &pane.report {
        verdict_lines(&mut out, pane, report, cols);
    }
    // Beside the verdicts that name its keys, above the series.
    if let Some(section) = &pane.insights {
        insights_lines(&mut out, section, cols);
    }
    let Some(report) = &pane.report else {
        return out;
    };
    let cols = spark_width(width);
    for t in &report.targets {
        target_lines(&mut out, t, &report.window, cols);
    }
    operation_lines(&mut out, report);
    out
}

/// The window and cost of the batch, then the verdicts it supports.
fn verdict_lines(out: &mut Vec<PaneLine>, pane: &MetricsPane, report: &MetricsReport, cols: usize) {
    let w = &report.window;
    out.push(line(
        LineKind::Plain,
        format!(
            "last {} min at {} s points · {} metrics requested (${:.4} a refresh, every minute while open)",
            (w.end - w.start) / 60,
            w.period,
            report.metrics_requested,
            report.cost_usd
        ),
    ));
    if pane.verdicts.is_empty() {
        out.push(line(
            LineKind::Verdict,
            "no verdict: nothing in the metrics points at a problem",
        ));
    }
    for v in &pane.verdicts {
        let (kind, mark) = if v.throttling_now {
            (LineKind::Alarm, "now: ")
        } else {
            (LineKind::Verdict, "")
        };
        wrap(out, kind, &format!("- {mark}{}", sanitize(&v.says)), cols);
    }
}
