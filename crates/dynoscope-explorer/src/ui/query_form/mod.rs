//! The query form overlay (fields, validation, completion popup, EXPLAIN) and the
//! access-pattern palette. PartiQL mode and the completion popup are drawn in their own files.

mod partiql;
mod popup;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;
use ratatui_textarea::{CursorMove, DataCursor, TextArea};

use self::popup::draw_completions;
use super::theme;
use crate::app::state::{Field, QueryForm, SORT_OPS};
use crate::model::design::schema::TableInfo;
use crate::model::formats::json::append_plain_json;
use crate::model::item::value::Item;
use crate::model::text::sanitize::sanitize;
use crate::model::text::wrap::{row_starts, word_wrap};

/// Width of the field labels.
pub(super) const LABEL: usize = 18;

fn popup(area: Rect) -> Rect {
    area.centered(
        Constraint::Length(area.width.saturating_sub(4).min(120)),
        Constraint::Length(area.height.saturating_sub(2).min(26)),
    )
}

pub fn draw_query_form(frame: &mut Frame, area: Rect, b: &QueryForm, info: &TableInfo) {
    // EXPLAIN of a statement (its requests and a dialect) takes all the rows there are.
    let outer = if b.partiql {
        area.centered(
            Constraint::Length(area.width.saturating_sub(4).min(120)),
            Constraint::Length(area.height.saturating_sub(2)),
        )
    } else {
        popup(area)
    };
    frame.render_widget(Clear, outer);
    let block = if b.partiql {
        Block::bordered()
            .title(" Query · PartiQL ")
            .title_bottom(" Enter run · Tab accept/next · PgUp/PgDn EXPLAIN · Ctrl-T dialect · Ctrl-Y copy · Ctrl-R form · Esc close ")
    } else {
        Block::bordered()
            .title(if b.raw { " Query · raw KeyConditionExpression " } else { " Query " })
            .title_bottom(" Enter run · Tab accept/next · ←→ choose · ↑↓ history · Ctrl-R mode · Ctrl-Y CLI · Esc close ")
    }
    .border_style(theme::border(true));
    let inner = block.inner(outer);
    frame.render_widget(block, outer);
    if b.partiql {
        return partiql::draw_partiql(frame, inner, b);
    }
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(48), Constraint::Percentage(52)]).areas(inner);

    let rows = field_rows(b, info, left.width as usize);
    let focused_row = rows.focused;
    frame.render_widget(Paragraph::new(rows.lines), left);
    // The field being edited is the tui-textarea widget itself, so its cursor, selection and
    // horizontal scrolling are the widget's own.
    if let (Some(row), Some(input)) = (focused_row, b.input(b.focus)) {
        let rect = Rect {
            x: left.x + LABEL as u16,
            y: left.y + row as u16,
            width: left.width.saturating_sub(LABEL as u16),
            height: 1,
        };
        if rect.y < left.bottom() {
            let mut area = sanitized_copy(input);
            area.set_cursor_line_style(Style::new());
            area.set_cursor_style(theme::selected());
            frame.render_widget(Clear, rect);
            frame.render_widget(&area, rect);
        }
    }
    // The popup also holds the priced sample action; with no completion it shows that alone,
    // once something is typed.
    let offer = b
        .sample_offer
        .as_deref()
        .filter(|_| b.completion.is_some() || !b.text(b.focus).is_empty());
    if let Some(row) = focused_row.filter(|_| b.completion.is_some() || offer.is_some()) {
        let field = Rect {
            x: left.x + LABEL as u16,
            y: left.y + row as u16,
            width: left.width.saturating_sub(LABEL as u16),
            height: 1,
        };
        draw_completions(frame, left, field, b.completion.as_ref(), offer);
    }

    frame.render_widget(
        Paragraph::new(explain_lines(b))
            .wrap(Wrap { trim: false })
            .block(
                Block::bordered()
                    .title(" EXPLAIN: the request that will be sent ")
                    .border_style(theme::border(false)),
            ),
        right,
    );
}

/// The left column, one line per screen row, so the row of the field being edited is known.
struct FieldRows {
    lines: Vec<Line<'static>>,
    focused: Option<usize>,
}

/// Each field on its own rows: a value too long for the column continues on the rows below it
/// (under the value, not the label), as does an error, so the rows after a 60-character key
/// are where they are drawn. The field being edited takes one row: its widget scrolls.
fn field_rows(b: &QueryForm, info: &TableInfo, width: usize) -> FieldRows {
    let room = width.saturating_sub(LABEL).max(1);
    let indent = " ".repeat(LABEL);
    let mut lines: Vec<Line<'static>> = Vec::new();
    let mut focused = None;
    for field in b.fields(info) {
        let editing = field == b.focus && !field.is_selector();
        let label = Span::styled(
            format!("{:<LABEL$}", b.field_label(info, field, LABEL - 1)),
            if field == b.focus {
                theme::kind_style("KEY")
            } else {
                theme::dim()
            },
        );
        if editing {
            focused = Some(lines.len());
            lines.push(Line::from(label));
        } else {
            let value = field_value(b, info, field);
            // Choices wrap between words; typed text as it is, spaces and all.
            let rows = if field.is_selector() {
                word_wrap(&value, room)
            } else {
                let starts = row_starts(&value, room);
                let ends = starts.iter().skip(1).copied().chain([value.len()]);
                starts
                    .iter()
                    .zip(ends)
                    .map(|(&from, to)| value[from..to].to_string())
                    .collect()
            };
            for (i, row) in rows.into_iter().enumerate() {
                let head = if i == 0 {
                    label.clone()
                } else {
                    Span::raw(indent.clone())
                };
                lines.push(Line::from(vec![head, Span::raw(row)]));
            }
        }
        if let Err(e) = &b.check {
            if e.field == field {
                let message = format!("✗ {}", sanitize(&e.message));
                for row in word_wrap(&message, room) {
                    lines.push(Line::styled(format!("{indent}{row}"), theme::error()));
                }
            }
        }
    }
    FieldRows { lines, focused }
}

/// A field's value as shown when it is not being edited, sanitised.
fn field_value(b: &QueryForm, info: &TableInfo, field: Field) -> String {
    match field {
        Field::Index => {
            let name = b.index_name(info).unwrap_or_else(|| "(table)".into());
            let keys = b.keys(info);
            let names = |list: &[crate::model::design::schema::KeyAttr]| {
                list.iter()
                    .map(|k| k.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" + ")
            };
            let mut text = format!("‹ {} › {}", name, names(keys.partition()));
            match keys.sort() {
                [] => text.push_str(" (no sort key)"),
                sort => text.push_str(&format!(" / {}", names(sort))),
            }
            if let Some(i) = b.index.checked_sub(1).and_then(|i| info.indexes.get(i)) {
                text.push_str(&format!(" · {}", i.projection.projection_type));
            }
            sanitize(&text).into_owned()
        }
        Field::Op => format!("‹ {} ›", SORT_OPS[b.op]),
        Field::Order => (if b.descending {
            "‹ descending (last first) ›"
        } else {
            "‹ ascending ›"
        })
        .to_string(),
        other => sanitize(&b.text(other)).into_owned(),
    }
}

/// The field as drawn: the widget draws its text as it is, and that text can be an accepted
/// completion or a recalled query, both made of key values from the data. Escapable
/// characters become their visible escapes, with the cursor kept after the same character.
pub(super) fn sanitized_copy(input: &TextArea<'static>) -> TextArea<'static> {
    let lines = input.lines();
    if lines
        .iter()
        .all(|l| matches!(sanitize(l), std::borrow::Cow::Borrowed(_)))
    {
        return input.clone();
    }
    let DataCursor(row, col) = input.cursor();
    let shown_col = lines.get(row).map_or(0, |line| {
        let head: String = line.chars().take(col).collect();
        sanitize(&head).chars().count()
    });
    let mut copy = TextArea::new(lines.iter().map(|l| sanitize(l).into_owned()).collect());
    copy.move_cursor(CursorMove::Jump(
        u16::try_from(row).unwrap_or(u16::MAX),
        u16::try_from(shown_col).unwrap_or(u16::MAX),
    ));
    copy
}

fn explain_lines(b: &QueryForm) -> Vec<Line<'static>> {
    let q = match &b.check {
        Err(e) => {
            return vec![
                Line::styled("Not sendable yet:", theme::error()),
                Line::raw(format!("{}: {}", e.field.label(), sanitize(&e.message))),
            ]
        }
        Ok(q) => q,
    };
    let s = &q.spec;
    let field = |name: &str, value: String| {
        Line::from(vec![
            Span::styled(
                format!("{name}: "),
                Style::new().add_modifier(Modifier::BOLD),
            ),
            Span::raw(sanitize(&value).into_owned()),
        ])
    };
    let mut lines = vec![field("TableName", s.table.clone())];
    if let Some(i) = &s.index {
        lines.push(field("IndexName", i.clone()));
    }
    lines.push(field(
        "KeyConditionExpression",
        s.key_condition.clone().unwrap_or_default(),
    ));
    if let Some(f) = &s.filter {
        lines.push(field("FilterExpression", f.clone()));
    }
    if let Some(p) = &s.projection {
        lines.push(field("ProjectionExpression", p.clone()));
    }
    if !s.names.is_empty() {
        let names: Vec<String> = s.names.iter().map(|(k, v)| format!("{k}={v}")).collect();
        lines.push(field("ExpressionAttributeNames", names.join(" ")));
    }
    if !s.values.is_empty() {
        let mut json = String::new();
        append_plain_json(&mut json, &Item::from_attrs(s.values.clone()));
        lines.push(field("ExpressionAttributeValues", json));
    }
    lines.push(field("ScanIndexForward", (!s.descending).to_string()));
    if let Some(n) = s.limit {
        lines.push(field("limit (items, across pages)", n.to_string()));
    }
    if let Some(w) = &q.warning {
        lines.push(Line::raw(""));
        lines.push(Line::styled(format!("⚠ {w}"), theme::warning()));
    }
    lines.push(Line::raw(""));
    let chosen = b.dialect.min(q.dialects.len().saturating_sub(1));
    let names: Vec<&str> = q.dialects.iter().map(|(n, _)| *n).collect();
    lines.push(Line::styled(
        format!(
            "{} (Ctrl-T next of {}, Ctrl-Y copies):",
            names[chosen],
            names.len()
        ),
        theme::dim(),
    ));
    for l in q.dialects[chosen].1.trim_end().lines() {
        lines.push(Line::raw(sanitize(l).into_owned()));
    }
    lines
}
