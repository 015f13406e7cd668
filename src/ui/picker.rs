//! The table picker: tables filtered as you type, and a summary of the highlighted one.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

use super::format::{bytes, thousands};
use super::theme;
use crate::app::layout::{picker_layout, picker_rows};
use crate::app::state::{Loadable, State};
use crate::model::sanitize::sanitize;
use crate::model::schema::{KeySchema, TableInfo};

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
            lines.push(Line::styled(sanitize(e).into_owned(), theme::error()))
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
        Some((_, Loadable::Loaded(info))) => summary_lines(info),
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

fn keys_text(keys: &KeySchema) -> String {
    let mut text = format!(
        "{} ({})",
        keys.partition_key.name,
        keys.partition_key.key_type.as_str()
    );
    if let Some(sk) = &keys.sort_key {
        text.push_str(&format!(" · {} ({})", sk.name, sk.key_type.as_str()));
    }
    sanitize(&text).into_owned()
}

pub fn summary_lines(info: &TableInfo) -> Vec<Line<'static>> {
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
    for index in &info.indexes {
        let projection = if index.projection.non_key_attributes.is_empty() {
            index.projection.projection_type.clone()
        } else {
            format!(
                "{} ({})",
                index.projection.projection_type,
                index.projection.non_key_attributes.join(", ")
            )
        };
        lines.push(Line::from(vec![
            Span::styled(
                format!("{:<10}", sanitize(&index.name)),
                theme::kind_style(&index.name),
            ),
            Span::raw(format!(
                "{} · {} · {}",
                serde_json::to_value(index.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                keys_text(&index.keys),
                sanitize(&projection)
            )),
            Span::styled(index_capacity(index, info), theme::dim()),
        ]));
    }
    lines
}

/// A GSI has its own capacity: show it, so RCU/s can be compared with the index's limit.
fn index_capacity(index: &crate::model::schema::IndexInfo, info: &TableInfo) -> String {
    match &index.provisioned {
        Some(t) => format!(
            " · {} RCU / {} WCU",
            t.read_capacity_units, t.write_capacity_units
        ),
        None if index.kind == crate::model::schema::IndexKind::Gsi
            && info.provisioned.is_none() =>
        {
            " · on demand".to_string()
        }
        None => String::new(),
    }
}
