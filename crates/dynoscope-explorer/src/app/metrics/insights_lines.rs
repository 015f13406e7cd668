//! The metrics pane's Contributor Insights section (`I`): per target its status and mode,
//! and when enabled each rule's top keys with count and share, the cursor's key marked
//! (`LineKind::Selected`, so `update` can scroll to it); when not, the command that enables
//! it and what works without it.

use super::lines::{line, wrap, LineKind, PaneLine};
use crate::app::state::InsightsSection;
use crate::model::text::sanitize::sanitize;
use crate::model::text::wording::percent;
use crate::model::traffic::insights::{TargetInsights, WITHOUT_IT};

/// Characters of a key shown before it is cut: the count and share stay in their column.
const KEY_WIDTH: usize = 64;

/// The section's lines at `width`, appended to `out`.
pub fn insights_lines(out: &mut Vec<PaneLine>, section: &InsightsSection, width: usize) {
    out.push(line(
        LineKind::Heading,
        "Contributor Insights · top keys over the same window",
    ));
    for problem in &section.problems {
        wrap(out, LineKind::Warn, &sanitize(problem), width);
    }
    let Some(targets) = &section.targets else {
        out.push(line(
            LineKind::Plain,
            "asking DynamoDB (DescribeContributorInsights) and CloudWatch (GetInsightRuleReport)…",
        ));
        return;
    };
    let mut index = 0;
    for t in targets {
        target_lines(out, t, section.cursor, &mut index, width);
    }
}

/// One target; `index` counts the keys listed so far, as `InsightsSection::keys` does.
fn target_lines(
    out: &mut Vec<PaneLine>,
    t: &TargetInsights,
    cursor: usize,
    index: &mut usize,
    width: usize,
) {
    let what = sanitize(&t.target.wording()).into_owned();
    if let Some(cmd) = &t.enable_with {
        wrap(
            out,
            LineKind::Plain,
            &format!(
                "{what}: Contributor Insights {}; enable it (billed) with: {} — {WITHOUT_IT}",
                sanitize(&t.status),
                sanitize(cmd)
            ),
            width,
        );
        return;
    }
    let mode = t
        .mode
        .as_deref()
        .map(|m| format!(" ({})", sanitize(m)))
        .unwrap_or_default();
    out.push(line(
        LineKind::Plain,
        format!("{what}: Contributor Insights {}{mode}", sanitize(&t.status)),
    ));
    if t.rules.is_empty() && t.enabled() {
        out.push(line(
            LineKind::Plain,
            "  no rule reported keys over the window",
        ));
    }
    for rule in &t.rules {
        out.push(line(
            LineKind::Plain,
            format!("  {} (of {})", rule.kind.wording(), rule.total),
        ));
        if rule.top.is_empty() {
            out.push(line(LineKind::Plain, "      none over the window"));
        }
        for c in &rule.top {
            let selected = *index == cursor;
            *index += 1;
            let key = cut(&sanitize(&c.keys.join(" / ")));
            let (kind, mark) = if selected {
                (LineKind::Selected, "▶")
            } else {
                (LineKind::Plain, " ")
            };
            out.push(line(
                kind,
                format!(
                    "    {mark} {key:<KEY_WIDTH$} {:>12} {:>7}",
                    c.count,
                    percent(c.share)
                ),
            ));
        }
    }
}

fn cut(key: &str) -> String {
    if key.chars().count() <= KEY_WIDTH {
        return key.to_string();
    }
    let head: String = key.chars().take(KEY_WIDTH - 1).collect();
    format!("{head}…")
}
