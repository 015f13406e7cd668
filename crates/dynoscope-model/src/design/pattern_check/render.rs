//! A check as a design review reads it: every pattern's plan, cost and verdict, then a table
//! of patterns × verdicts, the budget spent and the patterns that failed. Markdown is that
//! summary alone, to paste.

use super::{CheckReport, PatternReport};
use crate::text::sanitize::{display_width, sanitize};
use crate::text::wording::{percent, thousands};
use crate::traffic::capacity::format_units;

fn cost(p: &PatternReport) -> String {
    match &p.measured {
        Some(m) => format!(
            "{} / {}",
            format_units(m.rcu_median),
            format_units(m.rcu_max)
        ),
        None => "—".into(),
    }
}

fn returned_read(p: &PatternReport) -> String {
    match &p.measured {
        Some(m) => format!(
            "{} / {}",
            thousands(m.items_returned),
            thousands(m.items_read)
        ),
        None => "—".into(),
    }
}

fn calls(p: &PatternReport) -> String {
    p.measured
        .as_ref()
        .map_or_else(|| "0".into(), |m| m.calls.len().to_string())
}

fn budget_line(r: &CheckReport) -> String {
    let mut line = format!(
        "Budget: {} of {} RCU spent ({} on key samples, {} on calls).",
        format_units(r.spent_rcu),
        format_units(r.max_rcu),
        format_units(r.sample_rcu),
        format_units((r.spent_rcu - r.sample_rcu).max(0.0))
    );
    if let Some(note) = &r.budget_note {
        line.push(' ');
        line.push_str(note);
    }
    line
}

/// A markdown table cell: one line, sanitised, with `|` escaped.
fn cell(text: &str) -> String {
    sanitize(text).replace('|', "\\|").replace('\n', " ")
}

pub fn markdown(r: &CheckReport) -> String {
    let mut out = format!("## Access patterns of `{}`\n\n", cell(&r.table));
    out.push_str(
        "| pattern | plan | calls | returned / read | RCU per call (median / max) | verdict |\n",
    );
    out.push_str("| --- | --- | --- | --- | --- | --- |\n");
    for p in &r.patterns {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            cell(&p.name),
            cell(&p.plan.shape.describe()),
            calls(p),
            returned_read(p),
            cost(p),
            cell(p.verdict.kind.as_str())
        ));
    }
    out.push('\n');
    out.push_str(&budget_line(r));
    out.push_str("\n\n");
    if r.failed.is_empty() {
        out.push_str("Every pattern passed.\n");
    } else {
        out.push_str(&format!("Failed ({}):\n\n", r.failed.len()));
        for p in r.patterns.iter().filter(|p| p.failed()) {
            out.push_str(&format!(
                "- **{}**: {}\n",
                cell(&p.name),
                cell(&p.verdict.text)
            ));
        }
    }
    out
}

/// The text report. Every string from the patterns file, the model or DescribeTable (names,
/// index names in a plan, findings quoting them) is sanitised where it is written, and the
/// summary table pads by display width, so a wide name keeps its row in line.
pub fn text(r: &CheckReport) -> String {
    let mut out = String::new();
    for p in &r.patterns {
        out.push_str(&format!(
            "{} ({}): {}\n",
            sanitize(&p.name),
            sanitize(&p.source),
            sanitize(&p.plan.shape.describe())
        ));
        if let Some(projection) = &p.plan.projection {
            out.push_str(&format!("  projection: {}\n", sanitize(projection)));
        }
        match (&p.measured, &p.unmeasured) {
            (Some(m), _) => {
                out.push_str(&format!(
                    "  measured: {} calls, {} returned of {} read in {} pages, {} RCU a call (median), {} at most",
                    m.calls.len(),
                    thousands(m.items_returned),
                    thousands(m.items_read),
                    thousands(m.pages),
                    format_units(m.rcu_median),
                    format_units(m.rcu_max)
                ));
                if let Some(share) = m.filter_efficiency {
                    out.push_str(&format!(", filter returned {}", percent(share)));
                }
                out.push('\n');
            }
            (None, Some(why)) => out.push_str(&format!("  not measured: {}\n", sanitize(why))),
            (None, None) => {}
        }
        if let Some(basis) = &p.key_sample {
            out.push_str(&format!("  key sample: {}\n", sanitize(basis)));
        }
        for f in &p.findings {
            out.push_str(&format!("  - {}\n", sanitize(&f.text)));
        }
        out.push('\n');
    }
    let rows: Vec<[String; 4]> = r
        .patterns
        .iter()
        .map(|p| {
            [
                sanitize(&p.name).into_owned(),
                sanitize(&p.plan.shape.describe()).into_owned(),
                cost(p),
                p.verdict.kind.as_str().to_string(),
            ]
        })
        .collect();
    let headers = ["pattern", "plan", "RCU median / max", "verdict"];
    let widths: Vec<usize> = (0..4)
        .map(|i| {
            rows.iter()
                .map(|row| display_width(&row[i]))
                .chain([headers[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: [&str; 4]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c}{}", " ".repeat(w - display_width(c))))
            .collect();
        format!("{}\n", padded.join("  ").trim_end())
    };
    out.push_str(&line(headers));
    for row in &rows {
        out.push_str(&line([&row[0], &row[1], &row[2], &row[3]]));
    }
    out.push('\n');
    out.push_str(&budget_line(r));
    out.push('\n');
    if !r.failed.is_empty() {
        out.push_str(&format!("failed: {}\n", sanitize(&r.failed.join(", "))));
    }
    out
}

#[cfg(test)]
#[path = "render_tests.rs"]
mod tests;
