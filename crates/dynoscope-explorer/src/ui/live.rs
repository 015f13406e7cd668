//! The live pane: rates with their sparklines, the totals, the warnings, the rankings of the
//! table's (or a GSI's) partition keys by writes and by WCU, and the tail of the latest changes.
//! Everything above the tail comes from the summary `update` derives once per tick; the tail
//! formats only its visible rows.

use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Sparkline, Wrap};
use ratatui::Frame;

use super::format::thousands;
use super::theme;
use crate::app::live::layout::{live_layout, ranking_rows};
use crate::app::state::{view_note, LiveStatus, LiveView};
use crate::model::stream::change_json::rfc3339;
use crate::model::stream::warnings::{HOT_WRITE_MIN_EVENTS, HOT_WRITE_SHARE};
use crate::model::stream::window::RatePoint;
use crate::model::stream::{RankedKey, Timeline};
use crate::model::text::sanitize::{sanitize, truncate_display};

/// Width of the label before each sparkline.
const RATE_LABEL: usize = 32;

pub fn draw(frame: &mut Frame, area: Rect, table: &str, live: &LiveView) {
    let layout = live_layout(area);
    let keys = if live.timeline().is_recorded() {
        " Tab ranking · f follow · ↑↓ Enter change · Esc close "
    } else {
        " 1/5/t window · Tab ranking · f follow · p pause · ↑↓ Enter change · Esc close "
    };
    let block = Block::bordered()
        .title(title(table, live))
        .title_bottom(keys)
        .border_style(theme::border(true));
    frame.render_widget(block, layout.pane);
    if let LiveStatus::Unavailable(message) = &live.status {
        let inner = layout.rates.union(layout.tail);
        let text = Paragraph::new(Line::styled(
            sanitize(message).into_owned(),
            theme::warning(),
        ))
        .wrap(Wrap { trim: false });
        frame.render_widget(text, inner);
        return;
    }
    draw_rates(frame, layout.rates, live);
    draw_notes(frame, layout.notes, live);
    draw_rankings(frame, layout.rankings, live, ranking_rows(&layout));
    super::live_tail::draw_tail(frame, layout.tail, live);
    if let Some(detail) = &live.detail {
        super::live_tail::draw_detail(frame, layout.pane, live, detail);
    }
}

fn title(table: &str, live: &LiveView) -> String {
    if let Timeline::Recorded { from_ms, to_ms } = live.timeline() {
        return recorded_title(table, live, from_ms, to_ms);
    }
    let status = match &live.status {
        LiveStatus::Connecting => "finding the stream…".to_string(),
        LiveStatus::Reading => format!(
            "reading {} shard{} from LATEST",
            live.shards,
            if live.shards == 1 { "" } else { "s" }
        ),
        LiveStatus::Unavailable(_) => "no stream".to_string(),
        LiveStatus::Failed(_) => "failed".to_string(),
        LiveStatus::Ended => "stream ended".to_string(),
    };
    let mut t = format!(" Live writes · {}", sanitize(table));
    if live.paused() {
        t.push_str(&format!(
            " · PAUSED, {} counted since",
            thousands(live.counted_while_paused())
        ));
    }
    t.push_str(&format!(" · {status} · {} window", live.window.label()));
    if let Some(view) = live.view_type {
        t.push_str(&format!(" · {}", view.as_str()));
    }
    t.push(' ');
    t
}

/// A recorded window's title: whose writes, over which window, and how far reading them got.
/// Never "Live": nothing here is happening now.
fn recorded_title(table: &str, live: &LiveView, from_ms: u64, to_ms: u64) -> String {
    let status = match &live.status {
        LiveStatus::Connecting | LiveStatus::Reading if live.stats.totals().events == 0 => {
            "reading the export's changes…".to_string()
        }
        LiveStatus::Reading => format!("{} read…", thousands(live.stats.totals().events)),
        LiveStatus::Unavailable(_) => "no changes".to_string(),
        LiveStatus::Failed(_) => "failed".to_string(),
        LiveStatus::Ended => "every change read".to_string(),
        LiveStatus::Connecting => String::new(),
    };
    let mut t = format!(
        " Writes in the export's window from {} to {} · {} · {status}",
        rfc3339(from_ms as i64),
        rfc3339(to_ms as i64),
        sanitize(table)
    );
    if let Some(view) = live.view_type {
        t.push_str(&format!(" · {}", view.as_str()));
    }
    t.push(' ');
    t
}

/// `points` squeezed into `width` bars, newest last: each bar the mean of the seconds it covers.
fn bars(points: &[RatePoint], width: usize, pick: fn(&RatePoint) -> u64) -> Vec<u64> {
    if width == 0 || points.is_empty() {
        return Vec::new();
    }
    let per_bar = points.len().div_ceil(width);
    // Grouped from the newest end, so the newest bar always holds the newest seconds.
    let mut out: Vec<u64> = points
        .rchunks(per_bar)
        .map(|chunk| chunk.iter().map(pick).sum::<u64>() / chunk.len() as u64)
        .collect();
    out.reverse();
    out
}

fn rate(value: f64) -> String {
    if value >= 100.0 {
        thousands(value.round() as u64)
    } else {
        format!("{value:.1}")
    }
}

fn draw_rates(frame: &mut Frame, area: Rect, live: &LiveView) {
    let s = &live.summary;
    let rows = [
        (
            "events/s",
            s.events_per_second,
            s.peak_events,
            (|p: &RatePoint| p.events) as fn(&RatePoint) -> u64,
            Color::Cyan,
        ),
        (
            "WCU/s",
            s.wcu_per_second,
            s.peak_wcu,
            |p| p.wcu,
            Color::Yellow,
        ),
    ];
    for (i, (label, now, peak, pick, colour)) in rows.into_iter().enumerate() {
        let y = area.y + i as u16;
        if y >= area.y + area.height {
            return;
        }
        // Over a recording a slot is several seconds: its peak is counted per slot, and said so.
        let peak = match s.slot_secs {
            0 | 1 => thousands(peak),
            secs => format!("{}/{secs}s", thousands(peak)),
        };
        let text = format!("{label:<8} {:>8}  peak {peak:>7} ", rate(now));
        let label_area = Rect::new(area.x, y, RATE_LABEL.min(area.width as usize) as u16, 1);
        frame.render_widget(Paragraph::new(text), label_area);
        let width = area.width.saturating_sub(RATE_LABEL as u16);
        // Complete seconds only: the current one is still filling.
        let complete = &s.series[..s.series.len().saturating_sub(1)];
        let data = bars(complete, width as usize, pick);
        // Right-aligned: the newest second at the pane's edge.
        let used = (data.len() as u16).min(width);
        let spark_area = Rect::new(area.x + RATE_LABEL as u16 + width - used, y, used, 1);
        frame.render_widget(
            Sparkline::default()
                .data(&data)
                .style(Style::new().fg(colour)),
            spark_area,
        );
    }
    if area.height > 2 {
        let t = &s.totals;
        let seconds = s.now_ms.saturating_sub(live.opened_ms) / 1000;
        let mut text = format!(
            "{} in {}m{:02}s: {} INSERT · {} MODIFY · {} REMOVE",
            super::format::count(t.events, "change"),
            seconds / 60,
            seconds % 60,
            thousands(t.inserts),
            thousands(t.modifies),
            thousands(t.removes),
        );
        if t.ttl_deletes > 0 {
            text.push_str(&format!(" ({} by TTL)", thousands(t.ttl_deletes)));
        }
        text.push_str(&format!(" · {} WCU", thousands(t.wcu)));
        if t.estimated > 0 {
            text.push_str(&format!(" ({} estimated)", thousands(t.estimated)));
        }
        let row = Rect::new(area.x, area.y + 2, area.width, 1);
        frame.render_widget(Paragraph::new(text).style(theme::dim()), row);
    }
}

fn draw_notes(frame: &mut Frame, area: Rect, live: &LiveView) {
    let rows = area.height as usize;
    let mut lines: Vec<Line> = Vec::new();
    match &live.status {
        LiveStatus::Failed(message) => lines.push(Line::styled(
            format!(
                "the stream read failed (Esc, then W, starts again): {}",
                sanitize(message)
            ),
            theme::error(),
        )),
        LiveStatus::Ended if live.timeline().is_recorded() => {}
        LiveStatus::Ended => lines.push(Line::styled(
            "the stream was disabled and every shard has been read to its end",
            theme::warning(),
        )),
        _ => {}
    }
    let warnings = &live.summary.warnings;
    for (i, w) in warnings.iter().enumerate() {
        if lines.len() + 1 == rows && warnings.len() > i + 1 {
            lines.push(Line::styled(
                format!("⚠ {} more warnings", warnings.len() - i),
                theme::error(),
            ));
            break;
        }
        lines.push(Line::styled(format!("⚠ {}", w.short), theme::error()));
    }
    if let Some(note) = live.view_type.and_then(view_note) {
        lines.push(Line::styled(format!("note: {note}"), theme::dim()));
    }
    if lines.is_empty() {
        lines.push(Line::styled(
            "no warnings: no key has 10%+ of 100+ writes, none writes near the 1,000 WCU/s a partition takes",
            theme::dim(),
        ));
    }
    lines.truncate(rows);
    frame.render_widget(Paragraph::new(lines), area);
}

fn draw_rankings(frame: &mut Frame, area: Rect, live: &LiveView, keys: usize) {
    if area.height == 0 {
        return;
    }
    let s = &live.summary;
    let mut spans = vec![Span::styled(
        format!(
            "Top keys, {} ({} writes, {} WCU): ",
            match live.timeline() {
                Timeline::Live => format!("last {}", live.window.label()),
                Timeline::Recorded { .. } => "whole export window".to_string(),
            },
            thousands(s.window_events),
            thousands(s.window_wcu)
        ),
        theme::header(),
    )];
    for (target, label) in live.target_labels() {
        let style = if target == live.target {
            theme::selected()
        } else {
            theme::dim()
        };
        spans.push(Span::styled(format!(" {} ", sanitize(&label)), style));
    }
    spans.push(Span::styled(" Tab switches", theme::dim()));
    let mut lines = vec![Line::from(spans)];
    let half = (area.width as usize).saturating_sub(1) / 2;
    let key_width = half.saturating_sub(18);
    let column =
        |title: &str, unit: &str| format!("{:<key_width$} {:>8} {:>7}", title, unit, "share");
    lines.push(Line::styled(
        format!(
            "{}  {}",
            column("by writes", "writes"),
            column("by write units", "WCU")
        ),
        theme::dim(),
    ));
    let cell = |k: Option<&RankedKey>, wcu: bool| -> String {
        let Some(k) = k else {
            return " ".repeat(key_width + 17);
        };
        let (count, error, share) = if wcu {
            (k.wcu, k.wcu_error, k.wcu_share)
        } else {
            (k.events, k.events_error, k.event_share)
        };
        // Counts past the ranking's counters are upper estimates.
        let approx = if error > 0 { "≤" } else { "" };
        let key = truncate_display(&sanitize(&k.key), key_width).into_owned();
        let pad = key_width.saturating_sub(crate::model::text::sanitize::display_width(&key));
        format!(
            "{key}{} {:>8} {:>6.1}%",
            " ".repeat(pad),
            format!("{approx}{}", thousands(count)),
            share * 100.0
        )
    };
    if s.by_events.is_empty() {
        lines.push(Line::styled("no writes in the window yet", theme::dim()));
    }
    for i in 0..keys.min(s.by_events.len().max(s.by_wcu.len())) {
        // The top key when it would be warned about: 10%+ of 100+ writes.
        let hot = |k: Option<&RankedKey>| {
            i == 0
                && s.window_events >= HOT_WRITE_MIN_EVENTS
                && k.is_some_and(|k| k.event_share >= HOT_WRITE_SHARE)
        };
        let left = s.by_events.get(i);
        let right = s.by_wcu.get(i);
        let style = |k| {
            if hot(k) {
                theme::warning()
            } else {
                Style::new()
            }
        };
        lines.push(Line::from(vec![
            Span::styled(cell(left, false), style(left)),
            Span::raw("  "),
            Span::styled(cell(right, true), style(right)),
        ]));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_average_the_seconds_they_cover_newest_last() {
        let points: Vec<RatePoint> = (1..=6)
            .map(|n| RatePoint {
                events: n,
                wcu: 2 * n,
            })
            .collect();
        assert_eq!(bars(&points, 10, |p| p.events), [1, 2, 3, 4, 5, 6]);
        assert_eq!(bars(&points, 3, |p| p.events), [1, 3, 5]);
        assert_eq!(
            bars(&points, 4, |p| p.wcu),
            [3, 7, 11],
            "three bars of two seconds"
        );
        assert!(bars(&points, 0, |p| p.events).is_empty());
    }
}
