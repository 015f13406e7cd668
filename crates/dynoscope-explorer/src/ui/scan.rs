//! The scan launcher, a running scan's per-segment progress, and the key-distribution view.

use ratatui::layout::{Constraint, Margin, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::format::{bytes, count, dollars, thousands, units};
use super::theme;
use crate::app::layout::distribution_popup;
use crate::app::state::{
    DistributionView, LauncherField, ScanLauncher, ScanProgress, DISTRIBUTION_TOP_KEYS,
};
use crate::model::design::schema::TableInfo;
use crate::model::text::sanitize::{sanitize, truncate_display};

const LABEL: usize = 18;

/// The scan launcher; `from_files` when the open table is an export, whose scan reads files
/// and spends no capacity (so no RCU estimate is shown for it).
pub fn draw_launcher(
    frame: &mut Frame,
    area: Rect,
    l: &ScanLauncher,
    info: &TableInfo,
    from_files: bool,
) {
    let rect = area.centered(
        Constraint::Length(area.width.saturating_sub(4).min(100)),
        Constraint::Length(area.height.saturating_sub(2).min(20)),
    );
    frame.render_widget(Clear, rect);
    let mut lines = Vec::new();
    for field in LauncherField::ALL {
        let focused = field == l.focus;
        let value = match field {
            LauncherField::Index => format!(
                "‹ {} ›",
                l.index_name(info).unwrap_or_else(|| "(table)".into())
            ),
            LauncherField::Consistency => (if l.consistent {
                "‹ strongly consistent ›"
            } else {
                "‹ eventually consistent ›"
            })
            .into(),
            other => {
                let text = l.text(other);
                match (other, text.is_empty()) {
                    (LauncherField::MaxRcu | LauncherField::Rate, true) => "(none)".into(),
                    _ => text,
                }
            }
        };
        let mut spans = vec![
            Span::styled(
                format!("{:<LABEL$}", field.label()),
                if focused {
                    theme::kind_style("KEY")
                } else {
                    theme::dim()
                },
            ),
            Span::raw(sanitize(&value).into_owned()),
        ];
        if focused && l.input(field).is_some() {
            spans.push(Span::styled("█", theme::dim()));
        }
        lines.push(Line::from(spans));
        if let Err((f, message)) = &l.plan {
            if *f == field && !message.is_empty() {
                lines.push(Line::styled(
                    format!("{:LABEL$}✗ {}", "", sanitize(message)),
                    theme::error(),
                ));
            }
        }
    }
    lines.push(Line::raw(""));
    if let (Ok(plan), true) = (&l.plan, from_files) {
        lines.push(Line::from(vec![
            Span::styled("estimate          ", theme::header()),
            Span::raw(format!(
                "reads the export's files: no RCU spent, nothing billed ({})",
                count(plan.spec.segments as u64, "segment")
            )),
        ]));
        if l.confirming {
            lines.push(Line::styled(
                "Press Enter again to start it, Esc to cancel.",
                theme::error(),
            ));
        }
    } else if let Ok(plan) = &l.plan {
        lines.push(Line::from(vec![
            Span::styled("estimate          ", theme::header()),
            Span::raw(format!(
                "≈{} RCU for a full scan ({}), {} on demand, {}",
                units(plan.estimate_rcu.round()),
                if plan.spec.consistent {
                    "strongly consistent: 1 per 4 KB"
                } else {
                    "eventually consistent: ½ per 4 KB"
                },
                dollars(plan.estimate_cost),
                count(plan.spec.segments as u64, "segment")
            )),
        ]));
        if plan.spec.filter.is_some() {
            lines.push(Line::styled(
                "the filter runs after the read: it does not lower this cost",
                theme::warning(),
            ));
        }
        if let Some(hint) = &plan.hint {
            lines.push(Line::styled(
                format!("hint: {}", sanitize(hint)),
                theme::warning(),
            ));
        }
        if l.confirming {
            lines.push(Line::styled(
                format!(
                    "This scan reads ≈{} RCU. Press Enter again to start it, Esc to cancel.",
                    units(plan.estimate_rcu.round())
                ),
                theme::error(),
            ));
        }
    }
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::bordered()
                .title(" Parallel scan ")
                .title_bottom(" Tab next · ←→ choose · Enter start · Esc close ")
                .border_style(theme::border(true)),
        ),
        rect,
    );
}

/// The progress block's title: spent RCU against the budget and the estimate, or, for an
/// export's files, that no capacity is spent at all.
fn progress_title(p: &ScanProgress, status: &str) -> String {
    let running = status == "running";
    let (items_rate, rcu_rate, eta) = p.rates();
    let tail = match (running, eta) {
        (true, Some(secs)) => format!(" · ETA {}s · Esc cancels", secs.round() as u64),
        (true, None) => " · Esc cancels".into(),
        (false, _) => String::new(),
    };
    if p.from_files {
        return format!(
            " Scan {status} · reads the export's files, no RCU spent · {} items/s{tail} ",
            thousands(items_rate as u64),
        );
    }
    // Spent against the budget first: it is what a person watching a guarded scan needs.
    let budget = p
        .budget_rcu
        .map(|b| format!(" / budget {}", units(b)))
        .unwrap_or_default();
    format!(
        " Scan {} · RCU {}{budget} of ≈{} · {} items/s · {} RCU/s{tail} ",
        status,
        units(p.spent_rcu),
        units(p.estimate_rcu.round()),
        thousands(items_rate as u64),
        units((rcu_rate * 10.0).round() / 10.0),
    )
}

/// `status` is "running", "done", "cancelled", "stopped at the budget", "stopped" or "failed".
pub fn draw_progress(frame: &mut Frame, rect: Rect, p: &ScanProgress, status: &str) {
    let running = status == "running";
    let title = progress_title(p, status);
    let per_segment = if p.segments.is_empty() {
        0.0
    } else {
        p.estimate_rcu / p.segments.len() as f64
    };
    let bar_width = rect.width.saturating_sub(40).clamp(4, 40) as usize;
    let rows = rect.height.saturating_sub(2) as usize;
    let mut lines = Vec::new();
    let shown = p.segments.len().min(rows.saturating_sub(1).max(1));
    for (i, s) in p.segments.iter().enumerate().take(shown) {
        // Progress by scanned items against each segment's share of the table (estimated).
        let expected = (p.scanned.max(1) as f64 / p.segments.len() as f64).max(1.0);
        let fill = if s.done {
            bar_width
        } else {
            ((s.scanned as f64 / expected.max(per_segment)).min(0.99) * bar_width as f64) as usize
        };
        lines.push(Line::from(vec![
            Span::raw(format!("seg {i:>3} ")),
            Span::styled(
                "█".repeat(fill),
                if s.done {
                    theme::kind_style("DONE")
                } else {
                    Style::new()
                },
            ),
            Span::styled("░".repeat(bar_width - fill), theme::dim()),
            Span::raw(format!(
                " {} · {}{}",
                count(s.items, "item"),
                count(s.pages as u64, "page"),
                if s.done { " · done" } else { "" }
            )),
        ]));
    }
    if shown < p.segments.len() {
        let done = p.segments.iter().filter(|s| s.done).count();
        lines.push(Line::styled(
            format!(
                "… {} more ({done} of {} done)",
                count((p.segments.len() - shown) as u64, "segment"),
                p.segments.len()
            ),
            theme::dim(),
        ));
    }
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(title)
                .border_style(theme::border(running)),
        ),
        rect,
    );
}

pub fn draw_distribution(frame: &mut Frame, area: Rect, d: &DistributionView) {
    let rect = distribution_popup(area);
    let inner = rect.inner(Margin::new(1, 1));
    frame.render_widget(Clear, rect);
    let dist = &d.distribution;
    let mut lines = vec![Line::raw(format!(
        "{} · {} · {} · top 1% of keys hold {:.1}% of items",
        count(dist.total_items(), "item"),
        bytes(dist.total_bytes()),
        count(dist.distinct_keys() as u64, "distinct key"),
        dist.top_one_percent_share() * 100.0
    ))];
    // Wrapped here, by the rule `update` counts rows with, so scrolling ends at the last row.
    for w in &d.warnings {
        for row in DistributionView::warning_rows(w, inner.width as usize) {
            lines.push(Line::styled(row, theme::error()));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        format!(
            "{:<48} {:>9} {:>10} {:>7}",
            "top keys by items", "items", "bytes", "share"
        ),
        theme::header(),
    ));
    for e in dist.top(DISTRIBUTION_TOP_KEYS) {
        lines.push(Line::raw(format!(
            "{:<48} {:>9} {:>10} {:>6.1}%",
            truncate_display(&sanitize(&e.key), 48),
            thousands(e.items),
            bytes(e.bytes),
            e.share * 100.0
        )));
    }
    let families = dist.shard_families();
    if !families.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled("write-sharded families", theme::header()));
        for f in families {
            lines.push(Line::raw(format!(
                "{}{{{}..{}}}: {} · {} · per shard {}–{} (skew {:.2})",
                sanitize(&f.prefix),
                f.lowest_suffix,
                f.highest_suffix,
                count(f.shards as u64, "shard"),
                count(f.items, "item"),
                thousands(f.min_items),
                thousands(f.max_items),
                f.skew
            )));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("keys by items per key", theme::header()));
    let widest = dist
        .histogram()
        .iter()
        .map(|b| b.keys)
        .max()
        .unwrap_or(1)
        .max(1);
    for b in dist.histogram() {
        let bar = (b.keys as f64 / widest as f64 * 40.0).ceil() as usize;
        lines.push(Line::raw(format!(
            "{:>9} │{} {}",
            b.label,
            "█".repeat(bar),
            thousands(b.keys)
        )));
    }
    debug_assert_eq!(
        lines.len(),
        d.rows(inner.width as usize),
        "update clamps scrolling to this"
    );
    let max = d.max_scroll(inner.width as usize, inner.height as usize);
    let visible: Vec<Line> = lines.into_iter().skip(d.scroll.min(max)).collect();
    frame.render_widget(
        Paragraph::new(visible).block(
            Block::bordered()
                .title(" Key distribution of the loaded items (K) ")
                .title_bottom(
                    " ↑↓ PgUp PgDn Home End scroll · any other key closes · S scans the whole table first ",
                )
                .border_style(theme::border(true)),
        ),
        rect,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scan of an export's files spends nothing: its title says so, never "RCU 0 of ≈18".
    #[test]
    fn the_progress_title_of_an_export_scan_says_it_spends_no_rcu() {
        let mut p = ScanProgress {
            estimate_rcu: 18.0,
            from_files: true,
            ..Default::default()
        };
        let title = progress_title(&p, "running");
        assert!(
            title.starts_with(" Scan running · reads the export's files, no RCU spent · "),
            "{title}"
        );
        assert!(!title.contains("RCU 0") && !title.contains('≈'), "{title}");
        p.from_files = false;
        let title = progress_title(&p, "done");
        assert!(title.starts_with(" Scan done · RCU 0 of ≈18 · "), "{title}");
    }
}
