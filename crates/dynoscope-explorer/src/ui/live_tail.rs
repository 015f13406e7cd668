//! The live pane's tail: the latest changes, newest first, grouped by item collection (a run
//! of changes to one collection names it once), entity kinds decoded, a MODIFY's changed
//! attributes `old → new` in colour; and one change opened with Enter.

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::format::thousands;
use super::json_view::item_lines;
use super::theme;
use crate::app::state::{no_diff_reason, ChangeDetail, JsonMode, LiveView};
use crate::model::design::entity::item_kind;
use crate::model::item::value::AttrValue;
use crate::model::stream::change_json::rfc3339;
use crate::model::stream::diff::{diff, AttrDiff};
use crate::model::stream::{Change, ChangeEvent};
use crate::model::text::cell::cell_text;
use crate::model::text::sanitize::{display_width, sanitize, truncate_display};

const TIME: usize = 8;
const EVENT: usize = 6;
const COLLECTION: usize = 20;
const KIND: usize = 7;
const SORT_KEY: usize = 20;
const WCU: usize = 3;
/// Characters of one value in a diff.
const VALUE: usize = 24;

fn event_style(event: ChangeEvent) -> Style {
    match event {
        ChangeEvent::Insert => Style::new().fg(Color::Green),
        ChangeEvent::Modify => Style::new().fg(Color::Yellow),
        ChangeEvent::Remove => Style::new().fg(Color::Red),
    }
}

pub fn old_style() -> Style {
    Style::new().fg(Color::Red)
}

pub fn new_style() -> Style {
    Style::new().fg(Color::Green)
}

/// `text` cut or padded to `width` columns, and a space.
fn fit(text: &str, width: usize) -> String {
    let cut = truncate_display(text, width);
    let pad = width.saturating_sub(display_width(&cut));
    format!("{cut}{} ", " ".repeat(pad))
}

/// `HH:MM:SS` (UTC) of the record's creation time, as precise as the stream gives it.
fn clock(ms: Option<i64>) -> String {
    match ms {
        Some(ms) => {
            let secs = ms.div_euclid(1000).rem_euclid(86_400);
            format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
        }
        None => "--:--:--".into(),
    }
}

fn value_text(v: Option<&AttrValue>) -> String {
    match v {
        None => "(none)".into(),
        Some(v) => truncate_display(&sanitize(&cell_text(v)), VALUE).into_owned(),
    }
}

/// A MODIFY's changed attributes in colour, or a word on what the change did.
fn change_spans(change: &Change, live: &LiveView) -> Vec<Span<'static>> {
    if change.ttl_delete {
        return vec![Span::styled("deleted by TTL", theme::dim())];
    }
    match diff(change) {
        Some(d) if d.is_empty() => vec![Span::styled("no attribute changed", theme::dim())],
        Some(d) => {
            let mut spans = Vec::new();
            for (i, a) in d.iter().enumerate() {
                if i > 0 {
                    spans.push(Span::styled("; ", theme::dim()));
                }
                spans.extend(diff_spans(a));
            }
            spans
        }
        None => {
            let view = change.view.or(live.view_type);
            let text = match (change.event, change.latest_image()) {
                (_, None) => "(keys only)".to_string(),
                (ChangeEvent::Insert, Some(image)) => {
                    format!("new item, {} attributes", image.len())
                }
                (ChangeEvent::Remove, Some(image)) => {
                    format!("item deleted, it had {} attributes", image.len())
                }
                (ChangeEvent::Modify, Some(_)) => format!(
                    "no diff ({} carries one image)",
                    view.map_or("the stream", |v| v.as_str())
                ),
            };
            vec![Span::styled(text, theme::dim())]
        }
    }
}

fn diff_spans(a: &AttrDiff) -> Vec<Span<'static>> {
    let name = Span::raw(format!("{}: ", sanitize(a.name)));
    match (a.old, a.new) {
        (Some(_), None) => vec![
            name,
            Span::styled(
                value_text(a.old),
                old_style().add_modifier(Modifier::CROSSED_OUT),
            ),
            Span::styled(" removed", theme::dim()),
        ],
        (None, Some(_)) => vec![
            name,
            Span::styled("added ", theme::dim()),
            Span::styled(value_text(a.new), new_style()),
        ],
        _ => vec![
            name,
            Span::styled(value_text(a.old), old_style()),
            Span::raw(" → "),
            Span::styled(value_text(a.new), new_style()),
        ],
    }
}

pub fn draw_tail(frame: &mut Frame, area: Rect, live: &LiveView) {
    if area.height == 0 {
        return;
    }
    let tail = live.shown_tail();
    let header = format!(
        "{}{}{}{}{}{}",
        fit("TIME", TIME),
        fit("EVENT", EVENT),
        fit(
            &format!("COLLECTION ({})", sanitize(&live.pk_name)),
            COLLECTION
        ),
        fit("KIND", KIND),
        fit(&sanitize(live.sk_name.as_deref().unwrap_or("")), SORT_KEY),
        fit("WCU", WCU),
    );
    let header = match &live.follow {
        Some(f) => format!(
            "{header}only '{}', {}",
            sanitize(&f.key),
            thousands(tail.len() as u64)
        ),
        None => format!(
            "{header}CHANGE · latest {} of {}",
            thousands(tail.len() as u64),
            thousands(live.config.tail_changes as u64)
        ),
    };
    let mut lines = vec![Line::styled(header, theme::header())];
    let rows = area.height.saturating_sub(1) as usize;
    let cursor = live.tail.cursor.min(tail.len().saturating_sub(1));
    // Kept visible here too: a resize or a shrinking list may have left the offset behind.
    let offset = live
        .tail
        .offset
        .min(cursor)
        .max((cursor + 1).saturating_sub(rows));
    let mut above: Option<String> = None;
    for row in offset..(offset + rows).min(tail.len()) {
        let Some(change) = live.tail_row(row) else {
            break;
        };
        let collection = live
            .collection_of(change)
            .map(|k| k.into_owned())
            .unwrap_or_default();
        let grouped = row > offset && above.as_deref() == Some(collection.as_str());
        let shown_collection = if grouped {
            "  │".to_string()
        } else {
            sanitize(&collection).into_owned()
        };
        let kind = item_kind(
            &change.keys,
            &live.pk_name,
            live.sk_name.as_deref(),
            live.separator,
        )
        .unwrap_or("");
        let sort_key = live
            .sk_name
            .as_deref()
            .and_then(|sk| change.keys.get(sk))
            .map(|v| sanitize(&cell_text(v)).into_owned())
            .unwrap_or_default();
        let units = change.write_units();
        let wcu = format!("{}{}", if units.estimated { "~" } else { "" }, units.units);
        let mut spans = vec![
            Span::raw(fit(&clock(change.created_at_ms), TIME)),
            Span::styled(fit(change.event.as_str(), EVENT), event_style(change.event)),
            Span::raw(fit(&shown_collection, COLLECTION)),
            Span::styled(fit(&sanitize(kind), KIND), theme::kind_style(kind)),
            Span::raw(fit(&sort_key, SORT_KEY)),
            Span::raw(format!("{wcu:>WCU$} ")),
        ];
        spans.extend(change_spans(change, live));
        let mut line = Line::from(spans);
        if row == cursor {
            line = line.style(theme::selected());
        }
        lines.push(line);
        above = Some(collection);
    }
    if tail.is_empty() {
        let waiting = match &live.follow {
            Some(_) => "no change to this collection yet",
            None => "no changes yet: writes to the table show here as they happen",
        };
        lines.push(Line::styled(waiting, theme::dim()));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// The lines of one change; exactly [`crate::app::state::detail_line_count`] of them.
fn detail_lines(change: &Change, live: &LiveView) -> Vec<Line<'static>> {
    let units = change.write_units();
    let view = change.view.or(live.view_type);
    let keys: Vec<String> = change
        .keys
        .iter()
        .map(|(k, v)| format!("{} = {}", sanitize(k), sanitize(&cell_text(v))))
        .collect();
    let mut lines = vec![
        Line::from(vec![
            Span::styled(change.event.as_str(), event_style(change.event)),
            Span::raw(format!(
                " · {} · sequence {}{}",
                change.created_at_ms.map_or("time unknown".into(), rfc3339),
                sanitize(&change.sequence_number),
                if change.ttl_delete {
                    " · deleted by TTL"
                } else {
                    ""
                }
            )),
        ]),
        Line::raw(format!("keys: {}", keys.join(" · "))),
        Line::raw(format!(
            "{} bytes in the stream · {} WCU{} · view {}",
            change.size_bytes,
            units.units,
            if units.estimated {
                " (estimated: the record lacks an image)"
            } else {
                ""
            },
            view.map_or("unknown", |v| v.as_str())
        )),
        Line::raw(""),
        Line::styled("changed attributes (old → new)", theme::header()),
    ];
    match diff(change) {
        Some(d) if d.is_empty() => lines.push(Line::styled("  no attribute changed", theme::dim())),
        Some(d) => {
            for a in &d {
                let mut spans = vec![Span::raw("  ")];
                spans.extend(diff_spans(a));
                lines.push(Line::from(spans));
            }
        }
        None => lines.push(Line::styled(
            format!("  {}", no_diff_reason(change, live.view_type)),
            theme::warning(),
        )),
    }
    lines.push(Line::raw(""));
    let images = [
        ("before (old image)", &change.old_image),
        ("after (new image)", &change.new_image),
    ];
    let mut any = false;
    for (title, image) in images {
        if let Some(image) = image {
            any = true;
            lines.push(Line::styled(title, theme::header()));
            lines.extend(item_lines(image, JsonMode::Plain));
            lines.push(Line::raw(""));
        }
    }
    if !any {
        lines.push(Line::styled(
            "the record carries the keys only: no item image",
            theme::dim(),
        ));
    }
    lines
}

pub fn draw_detail(frame: &mut Frame, area: Rect, live: &LiveView, detail: &ChangeDetail) {
    let change = &detail.change;
    let lines = detail_lines(change, live);
    debug_assert_eq!(lines.len(), detail.line_count, "update scrolls by this");
    let rows = area.height.saturating_sub(2) as usize;
    let scroll = detail.scroll.min(lines.len().saturating_sub(rows));
    let key = live
        .collection_of(change)
        .map(|k| sanitize(&k).into_owned())
        .unwrap_or_default();
    let title = format!(
        " Change · {} · {} · ↑↓ scroll · Esc closes ",
        change.event.as_str(),
        key
    );
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(
            lines
                .into_iter()
                .skip(scroll)
                .take(rows)
                .collect::<Vec<_>>(),
        )
        .block(
            Block::bordered()
                .title(title)
                .border_style(theme::border(true)),
        ),
        area,
    );
}
