//! The write dialogs: the diff and request before sending, the delete confirmation, and the
//! conflict view (loaded / current / yours). Item text goes through the sanitiser.

use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;
use unicode_width::UnicodeWidthChar;

use super::format::count;
use super::theme;
use crate::app::state::{WriteFlow, WriteStage};
use crate::model::formats::json::append_plain_json;
use crate::model::item::value::AttrValue;
use crate::model::text::cell::cell_text;
use crate::model::text::sanitize::{sanitize, truncate_display};
use crate::model::write::{AttributeEdit, WriteKind};

fn value(v: Option<&AttrValue>, width: usize) -> String {
    match v {
        Some(v) => truncate_display(&sanitize(&cell_text(v)), width).into_owned(),
        None => "(absent)".into(),
    }
}

/// `text` in rows of at most `width` columns, the rows after the first indented two past the
/// line's own indent so a long value reads as the continuation it is.
fn hanging_wrap(text: &str, width: usize) -> Vec<String> {
    let indent = text.len() - text.trim_start().len() + 2;
    let mut rows = Vec::new();
    let mut row = String::new();
    let mut used = 0;
    let mut room = width.max(1);
    for c in text.chars() {
        let w = UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > room && !row.is_empty() {
            rows.push(std::mem::take(&mut row));
            row.push_str(&" ".repeat(indent));
            used = indent;
            room = width.max(indent + 8);
        }
        row.push(c);
        used += w;
    }
    rows.push(row);
    rows
}

/// ` (SS)` for a value whose plain rendering reads as another type (a set as a list, binary
/// as text); empty otherwise.
fn plain_hidden_type(v: &AttrValue) -> String {
    match v {
        AttrValue::Ss(_) | AttrValue::Ns(_) | AttrValue::Bs(_) | AttrValue::B(_) => {
            format!(" ({})", v.type_name())
        }
        _ => String::new(),
    }
}

fn change_line(change: &AttributeEdit, width: usize) -> Line<'static> {
    let name = sanitize(change.name()).into_owned();
    match change {
        AttributeEdit::Added(_, v) => Line::styled(
            format!(
                " + {name}: {}{}",
                value(Some(v), width),
                plain_hidden_type(v)
            ),
            theme::json::string(),
        ),
        AttributeEdit::Removed(_, v) => Line::styled(
            format!(" - {name}: {}", value(Some(v), width)),
            theme::error(),
        ),
        // A change of type says so: `1 (N) → 1 (S)` is a change a plain rendering hides.
        AttributeEdit::Changed(_, old, new) if old.type_name() != new.type_name() => Line::styled(
            format!(
                " ~ {name}: {} ({}) → {} ({})",
                value(Some(old), width / 2),
                old.type_name(),
                value(Some(new), width / 2),
                new.type_name()
            ),
            theme::warning(),
        ),
        AttributeEdit::Changed(_, old, new) => Line::styled(
            format!(
                " ~ {name}: {} → {}",
                value(Some(old), width / 2),
                value(Some(new), width / 2)
            ),
            theme::warning(),
        ),
    }
}

fn title(flow: &WriteFlow) -> String {
    match (flow.stage, flow.kind) {
        (WriteStage::Conflict, _) => " Conflict: the item changed since it was loaded ".into(),
        (WriteStage::ConfirmDelete, _) => {
            format!(" Delete {}? ", count(flow.targets.len() as u64, "item"))
        }
        (_, WriteKind::Create) => " Create the item? ".into(),
        (_, WriteKind::KeyChange) => " Save the item under its new key? ".into(),
        (_, WriteKind::Delete) => " Delete ".into(),
        (_, WriteKind::Undo) => " Undo the last write? ".into(),
        (_, WriteKind::Edit) => " Save the edit? ".into(),
    }
}

fn hint(flow: &WriteFlow) -> String {
    // Only what was typed can be edited again (`write_key`'s `e`): not a delete or an undo.
    let editable = matches!(
        flow.kind,
        WriteKind::Edit | WriteKind::KeyChange | WriteKind::Create
    );
    match flow.stage {
        WriteStage::Editing => " in the editor… ".into(),
        WriteStage::Sending => format!(" sending {} of {}… ", flow.sent + 1, flow.plans.len()),
        WriteStage::ConfirmDelete => {
            " y deletes, each item only if unchanged since loaded · Esc keeps them ".into()
        }
        WriteStage::Conflict if editable => {
            " r re-applies yours over the current item · e edits again · Esc drops yours ".into()
        }
        WriteStage::Conflict if flow.kind == WriteKind::Delete => {
            " r plans the delete again against the item as it is now · Esc keeps it ".into()
        }
        WriteStage::Conflict => {
            " r re-applies yours over the current item · Esc drops yours ".into()
        }
        WriteStage::Preview if !flow.problems.is_empty() && !flow.retry && editable => {
            " e edits again · Esc drops the edit ".into()
        }
        WriteStage::Preview if !flow.problems.is_empty() && !flow.retry => " Esc drops it ".into(),
        WriteStage::Preview if editable => {
            " Enter or y sends · e edits again · Esc drops it ".into()
        }
        WriteStage::Preview => " Enter or y sends · Esc drops it ".into(),
    }
}

fn body(flow: &WriteFlow, width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for problem in &flow.problems {
        lines.extend(super::dialog::message(problem, " ", width, theme::error()));
    }
    match flow.stage {
        WriteStage::ConfirmDelete => {
            lines.push(Line::styled(
                format!(
                    " {}, one DeleteItem each, each only if the item is exactly as loaded:",
                    count(flow.targets.len() as u64, "item"),
                ),
                theme::header(),
            ));
            let keys = &flow.plans.iter().flat_map(|p| &p.ops).collect::<Vec<_>>();
            for op in keys.iter().take(8) {
                let mut key = String::new();
                append_plain_json(&mut key, &op.key);
                lines.push(Line::raw(format!(
                    "   {}",
                    truncate_display(&sanitize(&key), width)
                )));
            }
            if keys.len() > 8 {
                lines.push(Line::styled(
                    format!("   … and {} more", keys.len() - 8),
                    theme::dim(),
                ));
            }
        }
        WriteStage::Conflict => {
            let w = width.saturating_sub(20) / 3;
            // Of a multi-item delete, the items before this one were deleted (and `U` puts
            // them back): the result says what was written and what was not.
            let written = match (flow.kind, flow.sent) {
                (_, 0) => " Nothing was written.".to_string(),
                (WriteKind::Delete, n) => format!(
                    " {} deleted before this one (U puts them back); this one and the rest were not.",
                    count(n as u64, "item")
                ),
                (_, n) => format!(
                    " {} written before this one (U takes them back); this one and the rest were not.",
                    count(n as u64, "request")
                ),
            };
            lines.push(Line::styled(
                format!("{written} Attributes that differ:"),
                theme::warning(),
            ));
            lines.push(Line::styled(
                format!(
                    " {:<18} {:<w$} {:<w$} {:<w$}",
                    "attribute", "loaded", "current", "yours"
                ),
                theme::header(),
            ));
            if flow.current.as_ref().is_some_and(|c| c.is_none()) {
                lines.push(Line::styled(
                    " the item is gone: it was deleted meanwhile",
                    theme::error(),
                ));
            }
            for row in &flow.conflict {
                let versions = [&row.loaded, &row.current, &row.yours];
                let mut types = versions
                    .iter()
                    .filter_map(|v| v.as_ref().map(|v| v.type_name()));
                let first = types.next();
                // Versions that differ only in type would read the same: each says its type.
                let typed = types.any(|t| Some(t) != first);
                let cell = |v: &Option<AttrValue>| match v {
                    Some(a) if typed => {
                        let t = format!(" ({})", a.type_name());
                        let text = value(Some(a), w.saturating_sub(t.len()));
                        format!("{text}{t}")
                    }
                    _ => value(v.as_ref(), w),
                };
                lines.push(Line::raw(format!(
                    " {:<18} {:<w$} {:<w$} {:<w$}",
                    truncate_display(&sanitize(&row.name), 18),
                    cell(&row.loaded),
                    cell(&row.current),
                    cell(&row.yours),
                )));
            }
        }
        _ => {
            if !flow.changes.is_empty() {
                lines.push(Line::styled(" Changes", theme::header()));
                for change in &flow.changes {
                    lines.push(change_line(change, width.saturating_sub(8)));
                }
            }
            if !flow.request.is_empty() {
                lines.push(Line::raw(""));
                lines.push(Line::styled(" Request", theme::header()));
                // Wrapped, never cut: the request is what the user agrees to send, so every
                // name, value and condition of it must be readable (the popup scrolls).
                for line in &flow.request {
                    for row in hanging_wrap(&sanitize(line), width.saturating_sub(1)) {
                        lines.push(Line::styled(format!(" {row}"), theme::dim()));
                    }
                }
            }
        }
    }
    lines
}

pub(super) fn draw_write(frame: &mut Frame, area: Rect, flow: &WriteFlow) {
    if flow.stage == WriteStage::Editing {
        return;
    }
    let width = area.width.saturating_sub(4).min(110);
    let inner = width.saturating_sub(4) as usize;
    let lines = body(flow, inner);
    let height = (lines.len() as u16 + 2).clamp(6, area.height.saturating_sub(2));
    let popup = area.centered(Constraint::Length(width), Constraint::Length(height));
    let scroll = flow.scroll.min(lines.len().saturating_sub(1));
    let border: Style = match flow.stage {
        WriteStage::Conflict | WriteStage::ConfirmDelete => theme::error(),
        _ => theme::warning(),
    };
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).scroll((scroll as u16, 0)).block(
            Block::bordered()
                .title(title(flow))
                .title_bottom(hint(flow))
                .border_style(border),
        ),
        popup,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(change: AttributeEdit) -> String {
        change_line(&change, 80).to_string()
    }

    #[test]
    fn the_diff_says_types_plain_json_hides() {
        let n = AttrValue::N("1".into());
        let s = AttrValue::S("1".into());
        assert_eq!(
            text(AttributeEdit::Changed("a".into(), n.clone(), s)),
            " ~ a: 1 (N) → 1 (S)"
        );
        assert_eq!(
            text(AttributeEdit::Changed(
                "a".into(),
                n.clone(),
                AttrValue::N("2".into())
            )),
            " ~ a: 1 → 2"
        );
        let set = AttrValue::Ss(vec!["p".into()]);
        assert!(text(AttributeEdit::Added("ss".into(), set)).ends_with(" (SS)"));
        assert_eq!(text(AttributeEdit::Added("n".into(), n)), " + n: 1");
    }

    #[test]
    fn long_request_lines_wrap_with_a_hanging_indent_and_lose_nothing() {
        let line = "  ConditionExpression: #a0 = :v0 AND #a1 = :v1 AND #a2 = :v2";
        let rows = hanging_wrap(line, 24);
        assert!(rows.len() > 2, "{rows:?}");
        assert!(rows.iter().all(|r| r.chars().count() <= 24), "{rows:?}");
        assert!(rows[1..].iter().all(|r| r.starts_with("    ")), "{rows:?}");
        let joined: String = rows
            .iter()
            .enumerate()
            .map(|(n, r)| if n == 0 { r.as_str() } else { &r[4..] })
            .collect();
        assert_eq!(joined, line);
    }
}
