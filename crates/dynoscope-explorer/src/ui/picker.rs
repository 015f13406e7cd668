//! The table picker: tables filtered as you type, and a summary of the highlighted one.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

use super::format::{bytes, thousands};
use super::theme;
use crate::app::layout::{picker_layout, picker_rows};
use crate::app::state::{Loadable, State};
use crate::model::design::schema::{KeySchema, TableInfo};
use crate::model::text::sanitize::{display_width, sanitize, truncate_display};
use crate::model::text::wrap::word_wrap;

pub fn draw(frame: &mut Frame, area: Rect, state: &State) {
    let layout = picker_layout(area);
    let picker = &state.picker;
    let mut title = Vec::new();
    if state.writes_enabled {
        title.push(Span::styled(" WRITES ENABLED ", theme::writes_enabled()));
    }
    title.push(Span::raw(format!(
        " dynoscope · tables{}",
        super::format::connection(state)
    )));
    frame.render_widget(
        Paragraph::new(Line::from(title)).style(theme::title()),
        layout.title,
    );

    // A selected filter (after `T`) is shown reversed: typing replaces it.
    let filter_style = if picker.filter_selected {
        theme::selected()
    } else {
        Default::default()
    };
    let mut lines = vec![Line::from(vec![
        Span::styled("filter: ", theme::dim()),
        Span::styled(sanitize(&picker.filter).into_owned(), filter_style),
        Span::styled("█", theme::dim()),
    ])];
    match &picker.tables {
        None | Some(Loadable::Loading) => lines.push(Line::styled("loading tables…", theme::dim())),
        Some(Loadable::Failed(e)) => {
            lines.push(Line::styled(sanitize(e).into_owned(), theme::error()));
            lines.push(Line::styled(
                "type a table name; Enter opens it",
                theme::dim(),
            ));
        }
        Some(Loadable::Loaded(all)) => {
            let visible = picker.visible();
            if all.is_empty() {
                lines.push(Line::styled(
                    "no tables in this account and region",
                    theme::dim(),
                ));
            } else if visible.is_empty() {
                lines.push(Line::styled("no table matches the filter", theme::dim()));
            }
            let rows = picker_rows(layout.list);
            for (i, name) in visible
                .iter()
                .enumerate()
                .skip(picker.list.offset)
                .take(rows)
            {
                let style = if i == picker.list.cursor {
                    theme::selected()
                } else {
                    Default::default()
                };
                lines.push(Line::styled(sanitize(name).into_owned(), style));
            }
        }
    }
    let count = picker
        .tables
        .as_ref()
        .and_then(|t| t.loaded())
        .map_or(0, Vec::len);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(format!(" Tables ({}) ", thousands(count as u64)))
                .border_style(theme::border(true)),
        ),
        layout.list,
    );

    let summary = match picker
        .highlighted()
        .and_then(|t| picker.describes.get(&t).map(|d| (t, d)))
    {
        None => vec![Line::styled("no table selected", theme::dim())],
        Some((_, Loadable::Loading)) => vec![Line::styled("describing…", theme::dim())],
        Some((_, Loadable::Failed(e))) => {
            vec![Line::styled(sanitize(e).into_owned(), theme::error())]
        }
        Some((_, Loadable::Loaded(info))) => {
            summary_lines(info, layout.summary.width.saturating_sub(2) as usize)
        }
    };
    frame.render_widget(
        Paragraph::new(summary).block(
            Block::bordered()
                .title(" Table ")
                .border_style(theme::border(false)),
        ),
        layout.summary,
    );
    frame.render_widget(
        match &state.notice {
            // Switching region or profile says how it went here too.
            Some(notice) => {
                Paragraph::new(format!(" {}", sanitize(&notice.text))).style(if notice.error {
                    theme::error()
                } else {
                    theme::warning()
                })
            }
            None => Paragraph::new(
                " type to filter · ↑↓ move · Enter open · R region · A profile · Esc quit · ? keys",
            )
            .style(theme::dim()),
        },
        layout.status,
    );
}

/// `PK (S)`, and `SK (S)` when there is a sort key: every key attribute, in order.
fn key_parts(keys: &KeySchema) -> Vec<String> {
    keys.attributes()
        .map(|k| sanitize(&format!("{} ({})", k.name, k.key_type.as_str())).into_owned())
        .collect()
}

fn keys_text(keys: &KeySchema) -> String {
    let side = |list: &[crate::model::design::schema::KeyAttr]| {
        list.iter()
            .map(|k| format!("{} ({})", k.name, k.key_type.as_str()))
            .collect::<Vec<_>>()
            .join(" + ")
    };
    let mut text = side(keys.partition());
    if !keys.sort().is_empty() {
        text.push_str(&format!(" · {}", side(keys.sort())));
    }
    sanitize(&text).into_owned()
}

/// Widest index-name column of the summary: longer names are cut (`…`), so the kind and keys
/// always start in the same column.
const INDEX_NAME_WIDTH: usize = 24;

/// The highlighted table's description, `width` columns wide.
pub fn summary_lines(info: &TableInfo, width: usize) -> Vec<Line<'static>> {
    let field = |name: &str, value: String| {
        Line::from(vec![
            Span::styled(format!("{name:<10}"), theme::dim()),
            Span::raw(value),
        ])
    };
    let mut lines = vec![
        field("name", sanitize(&info.name).into_owned()),
        field("status", sanitize(&info.status).into_owned()),
        field("keys", keys_text(&info.keys)),
        field(
            "billing",
            match &info.provisioned {
                Some(t) => format!(
                    "{} · {} RCU / {} WCU",
                    sanitize(&info.billing_mode),
                    t.read_capacity_units,
                    t.write_capacity_units
                ),
                None => sanitize(&info.billing_mode).into_owned(),
            },
        ),
        field(
            "items",
            format!(
                "{} · {}",
                thousands(info.item_count.max(0) as u64),
                bytes(info.size_bytes.max(0) as u64)
            ),
        ),
        field(
            "ttl",
            info.ttl_attribute
                .as_deref()
                .map(|t| sanitize(t).into_owned())
                .unwrap_or_else(|| "off".into()),
        ),
        field(
            "stream",
            info.stream
                .as_deref()
                .map_or_else(|| "off".into(), |s| sanitize(s).into_owned()),
        ),
    ];
    if !info.indexes.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled("indexes", theme::header()));
    }
    // The name column fits the longest name (10 at least, as the fields above), within half
    // the pane; one space separates it from what the index is.
    let names: Vec<String> = info
        .indexes
        .iter()
        .map(|i| sanitize(&i.name).into_owned())
        .collect();
    let column = names
        .iter()
        .map(|n| display_width(n))
        .max()
        .unwrap_or(0)
        .clamp(9, INDEX_NAME_WIDTH.min((width / 2).max(9)));
    for (index, name) in info.indexes.iter().zip(&names) {
        let projection = if index.projection.non_key_attributes.is_empty() {
            index.projection.projection_type.clone()
        } else {
            format!(
                "{} ({})",
                index.projection.projection_type,
                index.projection.non_key_attributes.join(", ")
            )
        };
        let mut parts = vec![serde_json::to_value(index.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()];
        parts.extend(key_parts(&index.keys));
        parts.push(sanitize(&projection).into_owned());
        parts.extend(index_capacity(index, info));
        // What does not fit wraps under itself, clear of the name column.
        let rows = pack(&parts, width.saturating_sub(column + 1).max(10));
        for (i, row) in rows.into_iter().enumerate() {
            let first = if i == 0 {
                let shown = truncate_display(name, column);
                let pad = column - display_width(&shown);
                Span::styled(
                    format!("{shown}{} ", " ".repeat(pad)),
                    theme::kind_style(&index.name),
                )
            } else {
                Span::raw(" ".repeat(column + 1))
            };
            lines.push(Line::from(vec![first, Span::raw(row)]));
        }
    }
    lines
}

/// `parts` joined by ` · ` in rows of `width` columns, a row broken between parts (a part
/// wider than a row is broken between its words).
fn pack(parts: &[String], width: usize) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    for (i, part) in parts.iter().enumerate() {
        let joined = if row.is_empty() {
            part.clone()
        } else {
            format!("{row} · {part}")
        };
        // Room for the ` ·` a row ends with when the next part goes to the next row.
        let after = if i + 1 < parts.len() { 2 } else { 0 };
        if display_width(&joined) + after <= width {
            row = joined;
            continue;
        }
        if !row.is_empty() {
            rows.push(format!("{row} ·"));
        }
        let mut pieces = word_wrap(part, width);
        row = pieces.pop().unwrap_or_default();
        rows.extend(pieces);
    }
    rows.push(row);
    rows
}

/// A GSI has its own capacity: show it, so RCU/s can be compared with the index's limit.
fn index_capacity(
    index: &crate::model::design::schema::IndexInfo,
    info: &TableInfo,
) -> Option<String> {
    match &index.provisioned {
        Some(t) => Some(format!(
            "{} RCU / {} WCU",
            t.read_capacity_units, t.write_capacity_units
        )),
        None if index.kind == crate::model::design::schema::IndexKind::Gsi
            && info.provisioned.is_none() =>
        {
            Some("on demand".to_string())
        }
        None => None,
    }
}
