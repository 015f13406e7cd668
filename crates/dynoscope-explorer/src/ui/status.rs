//! The status bar: what the current read is doing, the session's capacity and its cost.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::format::{count, dollars, thousands, units};
use super::theme;
use crate::app::state::{OpenTable, ReadOutcome, State};
use crate::model::text::sanitize::sanitize;
use crate::model::text::shorten::fit_middle;
use crate::model::traffic::capacity::on_demand_cost;

pub fn draw(frame: &mut Frame, area: Rect, state: &State, view: &OpenTable) {
    let mut spans = Vec::new();
    if let Some(notice) = &state.notice {
        let style = if notice.error {
            theme::error()
        } else {
            theme::warning()
        };
        let text = sanitize(&notice.text);
        // An error keeps the whole width if it needs it, and loses its middle, never its
        // cause at the end, when even that is too narrow.
        let text = if notice.error {
            fit_middle(&text, (area.width as usize).saturating_sub(3))
        } else {
            text.into_owned()
        };
        spans.push(Span::styled(format!(" {text} "), style));
        spans.push(Span::raw("│"));
    }
    // Throttling is what an incident is about: it comes first.
    if state.log.throttles > 0 {
        let reason = state
            .log
            .last_throttle_reason
            .as_deref()
            .map(|r| format!(" ({})", sanitize(r)))
            .unwrap_or_default();
        spans.push(Span::styled(
            format!(" throttled {}{reason} │", thousands(state.log.throttles)),
            theme::error(),
        ));
    }
    if let Some(read) = &view.view.read {
        let loaded = view.view.store.as_ref().map_or(0, |s| s.len());
        let what = format!(
            " {} · {} · {}",
            read.operation().as_str(),
            count(read.pages, "page"),
            count(loaded as u64, "item")
        );
        spans.push(Span::raw(what));
        let (text, style) = match (&read.outcome, read.running) {
            (_, true) => (" · loading… Esc cancels".to_string(), theme::warning()),
            (Some(ReadOutcome::BudgetReached { spent, budget }), _) => (
                format!(
                    " · budget reached: {} of {} RCU, n resumes with a new budget",
                    units(*spent),
                    units(*budget)
                ),
                theme::warning(),
            ),
            (Some(ReadOutcome::Failed(_)), _) => {
                (" · failed, n resumes".to_string(), theme::error())
            }
            (Some(ReadOutcome::Cancelled), _) if read.has_more() => {
                (" · cancelled, n resumes".to_string(), theme::warning())
            }
            _ if read.has_more() => (" · more: n page, L all".to_string(), theme::dim()),
            _ => (" · all loaded".to_string(), theme::dim()),
        };
        spans.push(Span::styled(text, style));
        spans.push(Span::raw(" │"));
    }
    if !view.view.marks.is_empty() {
        spans.push(Span::styled(
            format!(" {} marked │", thousands(view.view.marks.len() as u64)),
            theme::marked(),
        ));
    }
    if let Some(job) = &view.export_job {
        let text = if job.confirm_cancel {
            format!(" cancel the export to {}? y/n │", sanitize(&job.path))
        } else if job.waiting_for_read {
            " export: stopping the read to take it over… │".to_string()
        } else {
            format!(
                " exporting {}, {} to {} │",
                count(job.items, "item"),
                super::format::bytes(job.bytes),
                sanitize(&job.path)
            )
        };
        spans.push(Span::styled(text, theme::warning()));
    }
    if view.view.dropped_items > 0 {
        spans.push(Span::styled(
            format!(
                " {} not kept: over --max-items {} │",
                count(view.view.dropped_items, "item"),
                thousands(state.max_items as u64)
            ),
            theme::error(),
        ));
    }
    let rcu = state.log.total.total;
    let provisioned = view.info.loaded().and_then(|i| i.provisioned);
    let cost = match provisioned {
        // An export's files cost no read units: no price to estimate.
        _ if state.session.export.is_some() => " no RCU: read from the export's files".into(),
        Some(t) => format!(
            " RCU {} · table provisioned at {} RCU/s",
            units(rcu),
            t.read_capacity_units
        ),
        None => format!(
            " RCU {} · {} on-demand at ${}/M reads",
            units(rcu),
            dollars(on_demand_cost(rcu, state.config.price_per_million_reads)),
            state.config.price_per_million_reads
        ),
    };
    spans.push(Span::raw(cost));
    spans.push(Span::styled(" · ? keys", theme::dim()));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
